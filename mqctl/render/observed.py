"""What `display observed` and `reconcile` show people: the captures as a table, the findings as lines."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mqctl.domain.reconcile import Discrepancy
    from mqctl.domain.validation import Severity

SHOWN = {"TOPICSTR", "DESTQMGR", "CLUSTER", "CLROUTE", "CLUSQMGR", "STATUS", "TYPE", "RQMNAME", "QMNAME"}
SHOWN |= {"CHLTYPE", "CONNAME", "XMITQ", "DEFTYPE", "QMTYPE"}  # what an incident looks at first (issue 37)
SHOWN |= {"ADMIN", "PUBSCOPE", "SUBSCOPE"}  # DISPLAY TPSTATUS: the object resolved, the scopes
SHOWN |= {"CONNECTED", "ZONE", "USER", "ONLINE", "MSGS"}  # tibemsadmin routes and durables
"""The attributes of an observation the table shows (`-o json` has them all)."""
NAME_LIMIT = 200
"""A cell's longest run without a space shown whole (``NAME… (200001 characters)`` beyond)."""
_ORDER = {
    k: i for i, k in enumerate(("CHLTYPE", "CONNAME", "RQMNAME", "XMITQ", "STATUS", "DEFTYPE", "QMTYPE"))
}
"""A channel's and a cluster queue manager's attributes first in this order, the others as captured."""


def observed_table(captures: list[dict[str, Any]]) -> None:
    """One row per observation, a capture without any as one row of its own."""
    from rich.table import Table

    from mqctl.render.console import console
    from mqctl.render.safe_text import text

    table = Table(title="Observed", title_justify="left")
    for col in ("QMGR", "CAPTURED", "KIND", "NAME", "ATTRIBUTES"):
        table.add_column(col)
    for c in captures:
        qmgr, captured = text(c["qmgr"], limit=NAME_LIMIT), text(str(c["captured_at"]), limit=NAME_LIMIT)
        for o in c["observations"]:
            keys = sorted(
                (k for k in o["attributes"] if k in SHOWN), key=lambda k: _ORDER.get(k, len(_ORDER))
            )
            shown = " ".join(f"{k}({o['attributes'][k]})" for k in keys)
            cells = (o["kind"], o["name"], shown)
            table.add_row(qmgr, captured, *(text(str(v), limit=NAME_LIMIT) for v in cells))
        if not c["observations"]:
            table.add_row(qmgr, captured, "", "", "")
    console().print(table)


def reconcile_text(found: list[Discrepancy], fail_on: Severity) -> None:
    """One line per finding (never wrapped: logs are read with grep), its causes and subscriptions below."""
    from rich.console import Console

    from mqctl.domain.reconcile import failing
    from mqctl.domain.validation import summary
    from mqctl.render.safe_text import markup as escape

    out = Console(highlight=False)
    styles = {"error": "red", "warning": "yellow", "info": "cyan"}
    for d in found:
        style = styles[str(d.severity)]
        rule = d.finding.rule
        out.print(f"[{style}]{rule.id} {rule.code}[/{style}]  {escape(d.finding.message)}", soft_wrap=True)
        for cause in d.causes:
            out.print(f"      [dim]cause: {escape(cause)}[/dim]", soft_wrap=True)
    counts = summary([d.finding for d in found])
    out.print(", ".join(f"{n} {k}" for k, n in counts.items()))
    failed = failing(found, fail_on)
    if failed:
        out.print(f"[bold red]FAILED[/bold red]: {len(failed)} finding(s) at or above {fail_on}.")
    else:
        out.print(f"[bold green]PASSED[/bold green]: nothing at or above {fail_on}.")
