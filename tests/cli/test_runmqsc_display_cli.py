"""The runmqsc door's DISPLAY through the real CLI (SQLite and PostgreSQL): WHERE, the attributes asked
for, and a filter mqctl cannot apply refused in one line, exit 2, the store unchanged (issue 31)."""

from __future__ import annotations

from collections.abc import Callable

from tests.cli.test_observed_cli import DEMO, load
from tests.conftest import Result
from tests.helpers import dump_store, ok

Cli = Callable[..., Result]


def test_where_and_attributes_asked_for(cli: Cli) -> None:
    load(cli, DEMO)
    shown = ok(cli("runmqsc", "QM4", stdin="DIS TOPIC(*) WHERE(CLROUTE EQ TOPICHOST) CLROUTE\n"))
    assert shown.stdout.splitlines()[1:6] == [
        "AMQ8633I: Display topic details.",
        "   TOPIC(ALABAMA)                          TYPE(LOCAL)",
        "   CLROUTE(TOPICHOST)",
        "AMQ8633I: Display topic details.",
        "   TOPIC(ALASKA)                           TYPE(LOCAL)",
    ]
    none = ok(cli("runmqsc", "QM4", stdin="DIS TOPIC(*) WHERE(CLROUTE EQ DIRECT)\n"))
    assert "AMQ8633I" not in none.stdout
    subs = ok(cli("runmqsc", "QM6", stdin="DIS SUB(*) WHERE(TOPICSTR LK '/USA/Alaska*') TOPICSTR\n"))
    assert "SUB(JUNEAU)" in subs.stdout and "ALL.USA" not in subs.stdout


def test_a_filter_mqctl_cannot_apply_is_refused(cli: Cli, store_url: str) -> None:
    load(cli, DEMO)
    before = dump_store(store_url)
    script = "DEFINE TOPIC(NEW) TOPICSTR('/new')\nDIS TOPIC(*) WHERE(NPMSGDLV EQ ALLAVAIL)\n"
    result = cli("runmqsc", "QM4", stdin=script)
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "mqctl: error: <stdin>:2:20: WHERE: cannot filter on NPMSGDLV: mqctl does not model it (the filter "
        "is refused, not ignored) (script rejected, nothing changed)"
    ]
    bad = cli("runmqsc", "QM4", stdin="DIS TOPIC(*) WHERE(CLROUTE GT DIRECT)\n")
    assert bad.exit_code == 2 and "AMQ8405I: Syntax error detected" in bad.stdout
    assert "operator GT does not apply to CLROUTE" in bad.stderr and len(bad.stderr.splitlines()) == 1
    assert dump_store(store_url) == before
