"""tibemsadmin's `create durable` and `delete durable` (issue 37): durables are modelled, so a script
that creates one (with a selector, a client ID, a route) changes the model as durables.conf does, through
the same domain rules; a bad selector or a second durable of a name is refused, nothing changed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import Result
from tests.helpers import dump_store, ok

Cli = Callable[..., Result]

SCRIPT = (
    "create topic orders.> global\n"
    'create durable orders.eu EU.SUB clientid=c1,selector="amount > 5"\n'
    "create durable orders.us US.SUB nolocal\n"
    "create durable orders.> E2 route\n"
)
DURABLES_CONF = (
    'orders.eu  EU.SUB  clientid=c1 selector="amount > 5"\norders.us  US.SUB  nolocal\norders.>  E2  route\n'
)


def subs(cli: Cli, server: str) -> dict[str, dict[str, Any]]:
    rows = ok(cli("display", "sub", "--server", server, "-o", "json")).json()
    assert isinstance(rows, list)
    return {r["name"]: {k: v for k, v in r.items() if k not in ("seq", "qmgr")} for r in rows}


def test_create_durable_is_modelled_as_durables_conf_models_it(cli: Cli, tmp_path: Path) -> None:
    out = ok(cli("tibemsadmin", "E1", "--create", stdin=SCRIPT)).stdout
    assert "Durable 'EU.SUB' has been created" in out
    assert "not modelled" not in out.replace("0 not modelled", "")
    assert "4 commands read, 4 processed, 0 not modelled, 0 failed." in out
    shown = subs(cli, "E1")
    assert shown["EU.SUB"]["selector"] == "amount > 5" and shown["EU.SUB"]["durable"] is True
    assert shown["EU.SUB"]["properties"] == {"clientid": "c1"}
    # the same durables from a durables.conf: the same model
    (tmp_path / "tibemsd.conf").write_text("server = E9\ndurables = durables.conf\n")
    (tmp_path / "durables.conf").write_text(DURABLES_CONF)
    ok(cli("import", "ems", "--tibemsd", str(tmp_path / "tibemsd.conf")))
    assert subs(cli, "E9") == shown
    # a route durable names a peer server, created as one
    nodes = ok(cli("display", "qmgr", "E2", "-o", "json")).json()
    assert isinstance(nodes, list) and nodes[0]["dialect"] == "ems"
    # delete durable, with the client ID it was created with
    ok(cli("tibemsadmin", "E1", stdin="delete durable EU.SUB c1\ndelete durable US.SUB\n"))
    assert sorted(subs(cli, "E1")) == ["E2"]


def test_a_bad_durable_is_refused_and_changes_nothing(cli: Cli, store_url: str) -> None:
    ok(cli("tibemsadmin", "E1", "--create", stdin=SCRIPT))
    before = dump_store(store_url)
    bad = cli("tibemsadmin", "E1", stdin='create durable orders.x X selector="amount >"\n')
    assert bad.exit_code == 2 and "<stdin>:1:" in bad.stderr and "selector" in bad.stderr
    again = cli("tibemsadmin", "E1", stdin="create durable orders.eu EU.SUB\n")
    assert again.exit_code == 2 and "Durable 'EU.SUB' already exists" in again.stderr
    missing = cli("tibemsadmin", "E1", stdin="delete durable NOSUCH\n")
    assert missing.exit_code == 2 and "Durable 'NOSUCH' does not exist" in missing.stderr
    other = cli("tibemsadmin", "E1", stdin="delete durable EU.SUB c2\n")
    assert other.exit_code == 2 and "client ID 'c2'" in other.stderr
    short = cli("tibemsadmin", "E1", stdin="create durable orders.x\n")
    assert short.exit_code == 2 and "create durable needs TOPIC DURABLE-NAME" in short.stderr
    assert dump_store(store_url) == before
