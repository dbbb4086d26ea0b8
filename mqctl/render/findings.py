"""validate's report for people: findings grouped by severity, a summary table, the verdict (Rich)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from mqctl.domain.validation import Finding, Severity
from mqctl.render.console import all_plain, plain_output
from mqctl.render.safe_text import safe, shorten

HEADINGS = {"error": "Errors", "warning": "Warnings", "info": "Information"}
STYLES = {"error": "red", "warning": "yellow", "info": "cyan"}


def render(findings: Sequence[Finding], fail_on: Severity) -> None:
    """Findings grouped by severity (most severe first), then a summary table and the verdict."""
    from rich.console import Console
    from rich.table import Table

    from mqctl.domain.validation import failing, summary
    from mqctl.render.safe_text import markup as escape

    console = Console(highlight=False)
    direct = plain_output()
    counts = summary(findings)

    def line(markup: str, text: str) -> None:
        """One line, never wrapped (CI logs are read with grep): written as it is when Rich would print
        exactly ``text`` (a pipe, nothing in it Rich interprets), a report of thousands of findings."""
        shown = shorten(safe(text))
        if direct and "\\" not in shown and all_plain([shown.lstrip(" ")]):
            sys.stdout.write(shown + "\n")
        else:
            console.print(markup, soft_wrap=True)

    for severity in Severity:
        group = [f for f in findings if f.severity is severity]
        if not group:
            continue
        style = STYLES[str(severity)]
        console.print(f"[bold {style}]{HEADINGS[str(severity)]} ({len(group)})[/bold {style}]")
        for f in group:
            head = f"{f.rule.id} {f.rule.code}"
            line(f"  [{style}]{head}[/{style}]  {escape(f.message)}", f"  {head}  {f.message}")
            if f.source is not None:
                where = f.source.file + (f":{f.source.line}" if f.source.line is not None else "")
                line(f"      [dim]at {escape(where)}[/dim]", f"      at {where}")
        console.print()
    table = Table(title="mqctl validate", title_justify="left")
    table.add_column("SEVERITY")
    table.add_column("FINDINGS", justify="right")
    for severity in Severity:
        table.add_row(str(severity), str(counts[str(severity)]))
    console.print(table)
    failed = failing(findings, fail_on)
    if failed:
        console.print(f"[bold red]FAILED[/bold red]: {len(failed)} finding(s) at or above {fail_on}.")
    else:
        console.print(f"[bold green]PASSED[/bold green]: nothing at or above {fail_on}.")
