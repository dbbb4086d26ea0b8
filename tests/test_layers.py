"""The layers hold (docs: ARCHITECTURE, issue 21): every ``import`` of every module, at the top, inside a
function (the CLI imports lazily) or under ``TYPE_CHECKING``, read from the source's syntax tree.

- ``mqctl.domain`` is pure: no SQLAlchemy, Typer, Click, Rich or PySpark, and nothing of the layers
  above it (store, services, formats, render, cli, spark) nor of ``mqctl.memory`` (garbage-collector
  control belongs to the process's entry point);
- ``mqctl.cli`` parses, calls a service and renders: nothing of ``mqctl.store``;
- ``mqctl.formats`` (text in and out) imports nothing of the layers above it (services, render, cli,
  spark) nor the store: what it shares with render (the output sanitiser's pure half) is ``mqctl.text``;
- ``mqctl.text`` is a leaf every layer may import: no Rich, nothing of ``mqctl`` but itself;
- ``mqctl.spark`` (the job the analyze service runs) imports nothing of the layers that call it,
  ``mqctl.cli`` and ``mqctl.services``: its ``spark-submit`` entry point is a door, in ``mqctl.cli``.

Ruff says the same at lint time (``ruff.toml`` in mqctl/domain, mqctl/cli and mqctl/spark: the
flake8-tidy-imports banned-api rule); this test also reads relative imports, and is the one a reviewer
runs.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "mqctl"

RULES: list[tuple[str, tuple[str, ...]]] = [
    (
        "mqctl.domain",
        (
            "sqlalchemy",
            "typer",
            "click",
            "rich",
            "pyspark",
            "mqctl.store",
            "mqctl.services",
            "mqctl.formats",
            "mqctl.render",
            "mqctl.cli",
            "mqctl.spark",
            "mqctl.memory",
        ),
    ),
    ("mqctl.cli", ("mqctl.store",)),
    (
        "mqctl.formats",
        ("mqctl.services", "mqctl.render", "mqctl.cli", "mqctl.spark", "mqctl.store", "mqctl.memory"),
    ),
    (
        "mqctl.text",
        (
            "rich",
            "mqctl.domain",
            "mqctl.store",
            "mqctl.services",
            "mqctl.formats",
            "mqctl.render",
            "mqctl.cli",
            "mqctl.spark",
            "mqctl.memory",
        ),
    ),
    ("mqctl.spark", ("mqctl.cli", "mqctl.services")),
]
"""(modules under this name, the imports they must not make)."""

KNOWN_EXCEPTIONS: dict[str, set[str]] = {}
"""module -> banned layers it still imports, until the branch that owns it lands (remove them then)."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    return imports_in(path.read_text(encoding="utf-8"), package)


def imported_from(node: ast.ImportFrom, package: str) -> str:
    """The module a ``from ... import`` reads from, a relative one resolved against ``package``."""
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    return ".".join(parts[: len(parts) - (node.level - 1)] + ([node.module] if node.module else []))


def imports_in(source: str, package: str) -> set[str]:
    """Every module ``source`` imports (``from a import b`` counts as ``a`` and ``a.b``), relative imports
    resolved against ``package``, the package of the module."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = imported_from(node, package)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def violations() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        for layer, banned in RULES:
            if not _within(module, layer):
                continue
            names = imports_of(path)
            bad = {prefix for prefix in banned if any(_within(name, prefix) for name in names)}
            if bad:
                out.setdefault(module, set()).update(bad)
    return out


def test_the_layers_hold() -> None:
    found = violations()
    unexpected = {
        module: sorted(names - KNOWN_EXCEPTIONS.get(module, set()))
        for module, names in found.items()
        if names - KNOWN_EXCEPTIONS.get(module, set())
    }
    assert unexpected == {}, "imports that cross the layers (see tests/test_layers.py): " + repr(unexpected)


def test_known_exceptions_are_still_needed() -> None:
    """An exception that the code no longer needs is removed, so the rule is whole again."""
    found = violations()
    stale = {module: names - found.get(module, set()) for module, names in KNOWN_EXCEPTIONS.items()}
    assert {m: n for m, n in stale.items() if n} == {}


@pytest.mark.parametrize(
    ("source", "banned"),
    [
        ("import sqlalchemy.orm\n", "sqlalchemy.orm"),
        ("def f():\n    from rich.tree import Tree\n", "rich.tree"),
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from mqctl.store import x\n",
            "mqctl.store",
        ),
        ("from ...store.engine import make_engine\n", "mqctl.store.engine"),
    ],
)
def test_the_check_sees_every_kind_of_import(source: str, banned: str) -> None:
    """Module-level, lazy, TYPE_CHECKING-only and relative imports are all read."""
    assert banned in imports_in(source, "mqctl.domain.routing")


GC_CONTROL = re.compile(
    r"(?<!`)\bgc\.(disable|enable|freeze|unfreeze|collect)\(|\bgc_paused\(|\bcommand_process\("
)
GC_PLACES = {
    "mqctl/memory.py",  # the helpers themselves
    "mqctl/cli/main.py",  # a command: paused for the whole command, frozen at exit
    "mqctl/spark/batches.py",  # a Spark worker: the model is built once and frozen for the worker's life
}


def test_the_garbage_collector_is_controlled_in_one_place_per_process_kind() -> None:
    """The CLI's entry point and the Spark worker; no layer below pauses it on its own."""
    found = {
        path.relative_to(PACKAGE.parent).as_posix()
        for path in PACKAGE.rglob("*.py")
        if GC_CONTROL.search(path.read_text(encoding="utf-8"))
    }
    assert found <= GC_PLACES, sorted(found - GC_PLACES)


def private_imports(source: str, package: str, within: str = "mqctl.services") -> set[str]:
    """``from mqctl.services.x import _name``: another service's private names, imported; and
    ``x._name`` where ``x`` is a service module (or a name from one) the source imports (``within``:
    the package whose modules are looked at, the services by default)."""
    found: set[str] = set()
    bound: dict[str, str] = {}
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            bound.update({a.asname: a.name for a in node.names if a.asname and _within(a.name, within)})
        elif isinstance(node, ast.ImportFrom):
            base = imported_from(node, package)
            for a in node.names:
                if _within(f"{base}.{a.name}", within):
                    if a.name.startswith("_") and not a.name.startswith("__"):
                        found.add(f"{base}.{a.name}")
                    else:
                        bound[a.asname or a.name] = f"{base}.{a.name}"
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in bound
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ):
            found.add(f"{bound[node.value.id]}.{node.attr}")
    return found


def test_services_do_not_import_one_another_s_private_names() -> None:
    """A service uses another's public functions only: its internals may change with it alone."""
    found = {
        _module_name(path): sorted(private_imports(path.read_text(encoding="utf-8"), "mqctl.services"))
        for path in sorted((PACKAGE / "services").rglob("*.py"))
    }
    assert {m: names for m, names in found.items() if names} == {}


def test_no_module_imports_another_s_private_names() -> None:
    """A name shared between modules is public in the module that owns it (the capture readers share
    ``formats.display.reader``'s, the subscription index ``topics.level_tokens``): what starts with
    ``_`` may change with its module alone."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        names = private_imports(path.read_text(encoding="utf-8"), package, "mqctl")
        if names:
            found[module] = names
    assert found == {}


CONN_EXCEPTIONS: set[str] = set()
"""Modules that still reach into ``Store.conn``: none (an exception added here must say why)."""


def conn_uses(source: str) -> int:
    return sum(isinstance(n, ast.Attribute) and n.attr == "conn" for n in ast.walk(ast.parse(source)))


def test_no_connection_in_hand_outside_the_store() -> None:
    """Services ask the store's API (``Store`` methods, ``store_access``), never for its connection."""
    found = {
        path.relative_to(PACKAGE.parent).as_posix()
        for path in PACKAGE.rglob("*.py")
        if "store" not in path.relative_to(PACKAGE).parts[:1] and conn_uses(path.read_text(encoding="utf-8"))
    }
    assert found - CONN_EXCEPTIONS == set()
    assert found >= CONN_EXCEPTIONS, "an exception no longer needed: remove it"


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("from mqctl.services.objects import _edit, define_node\n", {"mqctl.services.objects._edit"}),
        ("def f():\n    from .file_doors import _x\n", {"mqctl.services.file_doors._x"}),
        ("from mqctl.domain.objects import _x\n", set()),
        ("from mqctl.services import edit\nedit._copy(state)\n", {"mqctl.services.edit._copy"}),
        ("from . import runmqsc as r\nr._proxies(s, n)\n", {"mqctl.services.runmqsc._proxies"}),
        (
            "import mqctl.services.export as e\ne._without_non_durable(s, w)\n",
            {"mqctl.services.export._without_non_durable"},
        ),
        ("from .file_doors import FileResult\nFileResult.__name__\n", set()),
        ("from mqctl.formats import display\ndisplay._x\n", set()),
    ],
)
def test_the_private_import_check_sees_them(source: str, found: set[str]) -> None:
    assert private_imports(source, "mqctl.services") == found


def test_the_conn_check_sees_attribute_use() -> None:
    assert conn_uses("def f(store):\n    return load(store.conn)\n") == 1
    assert conn_uses("def f(conn):\n    return load(conn)\n") == 0


STORE_REPOSITORIES = ("mqctl.store.read_models", "mqctl.store.observed")
"""Modules whose reads a service reaches through the store object (``store.views``, ``store.observed``)."""


def repository_imports(source: str, package: str) -> set[str]:
    """What ``source`` imports of ``STORE_REPOSITORIES`` but their constants (UPPER_CASE names): the
    module itself, or a function or class of it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in STORE_REPOSITORIES)
        elif isinstance(node, ast.ImportFrom):
            base = imported_from(node, package)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                if full in STORE_REPOSITORIES or (base in STORE_REPOSITORIES and not alias.name.isupper()):
                    found.add(full)
    return found


def test_services_reach_the_store_s_repositories_through_the_store() -> None:
    """One shape for every read (issue 35): ``store.views.display_nodes(...)``,
    ``store.observed.load_captures()``, not a free function handed the store."""
    found = {
        _module_name(path): sorted(repository_imports(path.read_text(encoding="utf-8"), "mqctl.services"))
        for path in sorted((PACKAGE / "services").rglob("*.py"))
    }
    assert {m: names for m, names in found.items() if names} == {}


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("from mqctl.store import read_models\n", {"mqctl.store.read_models"}),
        ("import mqctl.store.observed\n", {"mqctl.store.observed"}),
        (
            "def f():\n    from ..store.observed import ObservedRepository\n",
            {"mqctl.store.observed.ObservedRepository"},
        ),
        ("from mqctl.store.read_models import TOPIC_TABLE\n", set()),
        ("from mqctl.store.repository import Store\n", set()),
    ],
)
def test_the_repository_check_sees_what_it_bans(source: str, found: set[str]) -> None:
    assert repository_imports(source, "mqctl.services") == found
