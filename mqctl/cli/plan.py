"""`mqctl plan BEFORE AFTER`: roll a change out step by step, every intermediate state routed.

Parses the options, calls ``services.plan.run_plan``, hands the report to ``render.plan``. Exit 0 when
some order has no transient loss, 1 when every order loses something (named), 2 on bad input.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path

import typer

from mqctl.cli.apps import sub_app
from mqctl.cli.common import AfterSide, SidesEncoding

app = sub_app()


class PlanOutput(StrEnum):
    text = "text"
    json = "json"
    markdown = "markdown"


@app.command("plan")
def plan_command(
    before: str | None = typer.Argument(
        None,
        metavar="BEFORE",
        help="A store URL, a snapshot folder, or MQSC/EMS files and folders (as diff takes them).",
    ),
    after: AfterSide = None,
    git: list[str] = typer.Option(
        [],
        "--git",
        metavar="REV:PATH",
        help="A side read from a git revision without a checkout, as diff --git reads it.",
    ),
    output: PlanOutput = typer.Option(
        PlanOutput.text,
        "--output",
        "-o",
        case_sensitive=False,
        help="text: a runbook for people; json for programs; markdown for a pull request.",
    ),
    out: Path | None = typer.Option(
        None,
        "--out",
        metavar="DIR",
        help="Write each step's script and its rollback (01-QM2.mqsc, 01-QM2.rollback.mqsc, "
        "02-EMS1.tibemsadmin...) into DIR.",
    ),
    max_probes: int = typer.Option(
        20000, "--max-probes", metavar="N", help="Route at most N probes per state (as diff)."
    ),
    encoding: SidesEncoding = None,
) -> None:
    """Order a change into steps, one node each, so that no state on the way loses publications."""
    from mqctl.cli.common import two_sides
    from mqctl.services.plan import run_plan

    sides, enc = two_sides(git, before, after, encoding)
    report = run_plan(sides[0], sides[1], max_probes=max_probes, encoding=enc, out=out)
    if output is PlanOutput.json:
        from mqctl.render.plan import write_json

        write_json(report)
    elif output is PlanOutput.markdown:
        from mqctl.render.plan import render_markdown

        sys.stdout.write(render_markdown(report))
    else:
        from mqctl.render.plan import render_text

        render_text(report)
    if not report.safe:
        raise typer.Exit(1)
