"""What every command shares: the invocation's global options and its store's units of work, the output
option, and the renderers (``mqctl.render.console``) under the names the commands use."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

import click
import typer

from mqctl.render.console import console, emit_json, err_console  # noqa: F401 - the commands' renderers

if TYPE_CHECKING:
    from mqctl.services.store_access import Store


class Output(StrEnum):
    table = "table"
    json = "json"


class FindingsOutput(StrEnum):
    """How a list of findings is written (validate, reconcile): text for people, the rest for tools."""

    text = "text"
    json = "json"
    sarif = "sarif"
    junit = "junit"


class FailOn(StrEnum):
    """The severity at or above which a findings command exits 1."""

    error = "error"
    warning = "warning"
    info = "info"


class Invocation(NamedTuple):
    """The global options of one `mqctl` run, as given: the root callback puts them in click's context
    object (``ctx.obj``), which every subcommand's context inherits, so they travel with the invocation
    instead of living in a global that outlives it (two runs in one process, tests, threads). A frozen
    ``NamedTuple`` rather than a dataclass: ``dataclasses`` is not otherwise loaded at start-up."""

    db: str | None = None
    """``--db`` / ``MQCTL_DB`` as given; resolved (default store, bare path) by ``store_url``."""


OUTPUT_OPTION = typer.Option(
    Output.table, "--output", "-o", case_sensitive=False, help="table for people, json for programs."
)

# Options and arguments more than one command declares alike, written once. A list option's default is
# its ``default_factory`` (no ``=``: a mutable default would be shared between calls), so it is declared
# before the parameters that have one.

MessageProperties = Annotated[
    list[str],
    typer.Option(
        "--prop",
        metavar="NAME[:TYPE]=VALUE",
        help="Message property (repeatable).",
        default_factory=list,
        show_default=False,
    ),
]
"""A message's ``--prop`` (``explain``, ``selector test``)."""
MessageHeaders = Annotated[
    list[str],
    typer.Option(
        "--header",
        metavar="NAME=VALUE",
        help="JMS header, e.g. JMSPriority=7.",
        default_factory=list,
        show_default=False,
    ),
]
"""A message's ``--header`` (``explain``, ``selector test``)."""
AfterSide = Annotated[str | None, typer.Argument(metavar="AFTER", help="The other side, as BEFORE.")]
"""The second side of ``diff`` and ``plan`` (``two_sides``)."""
SidesEncoding = Annotated[
    str | None,
    typer.Option("--encoding", metavar="NAME", help="Encoding of the sides' files (default UTF-8)."),
]
"""The encoding of ``diff``'s and ``plan``'s sides (``two_sides`` checks it)."""


def invocation() -> Invocation:
    """The running command's global options (the root callback's ``ctx.obj``)."""
    found = click.get_current_context().find_object(Invocation)
    if found is None:  # a command run without the root group: a bug, not the default store
        raise RuntimeError("no mqctl invocation: the command was not run through mqctl's root group")
    return found


def store_url() -> str:
    """The store of the running command: its ``--db``, ``MQCTL_DB`` or the default store."""
    from mqctl.services.store_access import resolve_url

    return resolve_url(invocation().db)


@contextmanager
def transaction() -> Iterator[Store]:
    """One write transaction per command (writers run one after another)."""
    from mqctl.services import store_access

    with store_access.transaction(store_url()) as store:
        yield store


@contextmanager
def reading() -> Iterator[Store]:
    """One read-only transaction: a consistent view of the store, taking no write lock."""
    from mqctl.services import store_access

    with store_access.reading(store_url()) as store:
        yield store


def hint(message: str) -> None:
    """Where the user is likely wrong though the command is valid: one line on stderr, exit code unchanged."""
    from mqctl.render.safe_text import error_line

    sys.stderr.write(f"mqctl: hint: {error_line(message)}\n")


def done(message: str) -> None:
    """Confirmation of a change, for people (stdout, plain)."""
    sys.stdout.write(message + "\n")


def show_table(title: str, columns: Sequence[str], rows: Sequence[dict[str, Any]], output: Output) -> None:
    """Rows as a table of ``columns`` (``render.console.show_table``), or as JSON with ``-o json``."""
    from mqctl.render.console import show_table as show

    show(title, columns, rows, as_json=output is Output.json)


def show_tuples(title: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Rows as tuples of ``columns``' values (None: no such column in that row), as ``show_table``'s
    table (``render.console.show_tuples``)."""
    from mqctl.render.console import show_tuples as show

    show(title, columns, rows)


def no_match_exit(rows: Sequence[Any]) -> None:
    """A display that finds nothing is a negative answer: exit 1."""
    if not rows:
        raise typer.Exit(1)


def parse_props(items: Sequence[str], obj: str) -> dict[str, str | None]:
    """``--prop global --prop maxbytes=1GB`` -> EMS properties (flag -> None)."""
    from mqctl.domain.errors import InputError

    props: dict[str, str | None] = {}
    for item in items:
        for part in item.split(","):
            part = part.strip()
            if not part:
                continue
            key, sep, value = part.partition("=")
            key = key.strip()
            if not key or any(c.isspace() for c in key):
                raise InputError(
                    f"{part!r} is not a property (NAME or NAME=VALUE)", obj=obj, attribute="--prop"
                )
            props[key] = value.strip() if sep else None
    return props


def two_sides(
    git: list[str], before: str | None, after: str | None, encoding: str | None
) -> tuple[list[str], str | None]:
    """The two sides ``diff`` and ``plan`` take (``--git REV:PATH`` ones first) and the checked encoding."""
    from mqctl.domain.errors import InputError

    if len(git) > 2:
        raise InputError("is given more than twice (there are two sides)", attribute="--git")
    sides = [f"git:{g}" for g in git] + [s for s in (before, after) if s is not None]
    if len(sides) != 2:
        raise InputError(
            f"needs two sides, BEFORE and AFTER (or --git REV:PATH and AFTER); got {len(sides)}",
            attribute="BEFORE AFTER",
        )
    if encoding is None:
        return sides, None
    from mqctl.formats.text_io import check_encoding

    return sides, check_encoding(encoding)
