"""0003_observed up and down with rows present, on SQLite and PostgreSQL: subscriptions keep their rows
(gaining SUBTYPE ADMIN and an empty SUBID), captures and observations appear and go."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli
from tests.helpers import dump_store

SUBID = "414D5120514D312020202020202020203D7C2A6720001F05"
CAPTURE = (
    "Starting MQSC for queue manager QM1.\n"
    "     1 : DISPLAY SUB(*) SUBTYPE(ALL) ALL\n"
    "AMQ8096I: IBM MQ subscription inquired.\n"
    "   SUB(APP.SUB)                            TOPICSTR(/a/b)\n"
    "   SUBTYPE(API)                            DURABLE(NO)\n"
    "   SUBID(414D5120514D312020202020202020203D7C2A6720001F05)\n"
    "AMQ8096I: IBM MQ subscription inquired.\n"
    "   SUB(SYSTEM.PROXY.QM2 CL /a/#)           TOPICSTR(/a/#)\n"
    "   DESTQMGR(QM2)                           SUBTYPE(PROXY)\n"
    "1 MQSC commands read.\n"
)


def test_0003_up_and_down_with_rows(store_url: str, tmp_path: Path) -> None:
    def cli(*args: str) -> object:
        result = run_cli(list(args), db=store_url)
        assert result.exit_code == 0, result.stderr
        return result

    cli("db", "upgrade")
    cli("define", "qmgr", "QM1", "--cluster", "CL")
    cli("define", "sub", "S1", "--qmgr", "QM1", "--topicstr", "/a/#")
    cli("db", "downgrade", "0002_one_model")
    at_0002 = dump_store(store_url)
    assert "captures" not in at_0002

    cli("db", "upgrade")
    shown = run_cli(["display", "sub", "S1", "--qmgr", "QM1", "-o", "json"], db=store_url).json()
    assert shown[0]["subtype"] == "ADMIN" and shown[0]["subid"] == ""  # type: ignore[index]
    capture = tmp_path / "qm1.txt"
    capture.write_text(CAPTURE, encoding="utf-8")
    cli("import", "display", str(capture), "--at", "2026-11-26T00:00:00Z")
    observed = run_cli(["display", "observed", "-o", "json"], db=store_url).json()
    assert [o["kind"] for o in observed[0]["observations"]] == ["PROXY"]  # type: ignore[index]
    app = run_cli(["display", "sub", "APP.SUB", "--qmgr", "QM1", "-o", "json"], db=store_url).json()
    assert app[0]["subid"] == SUBID  # type: ignore[index]
    rows = dump_store(store_url)
    assert len(rows["captures"]) == 1 and len(rows["observations"]) == 1

    cli("db", "downgrade", "0002_one_model")
    down = dump_store(store_url)
    assert "captures" not in down and "observations" not in down
    # the API subscription stays, as a plain subscription; S1 is as it was
    assert len(down["subscriptions"]) == 2
    assert SUBID not in str(down["subscriptions"])  # the column went with the downgrade
    assert [r for r in down["subscriptions"] if "S1" in r] == [
        r for r in at_0002["subscriptions"] if "S1" in r
    ]
    cli("db", "upgrade")
    assert run_cli(["display", "observed"], db=store_url).exit_code == 1  # nothing kept: a negative answer
