"""`mqctl diff BEFORE AFTER`: what a configuration change does to the objects, the findings and routing.

Parses the options, calls ``services.diff.run_diff``, hands the report to ``render.diff``. Exit 0 when
routing is unchanged, 1 when it changed (``--fail-on``), 2 on bad input.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from mqctl.cli.apps import sub_app
from mqctl.cli.common import AfterSide, SidesEncoding, emit_json, hint, two_sides

if TYPE_CHECKING:
    from mqctl.services.diff import DiffReport

app = sub_app()


class DiffOutput(StrEnum):
    text = "text"
    json = "json"
    markdown = "markdown"
    sarif = "sarif"


class FailOn(StrEnum):
    lost = "lost"
    any = "any"
    none = "none"


@app.command("diff")
def diff_command(
    before: str | None = typer.Argument(
        None,
        metavar="BEFORE",
        help="A store URL (sqlite:///..., postgresql+psycopg://...), a snapshot folder, or MQSC/EMS files "
        "and folders as validate --file reads them.",
    ),
    after: AfterSide = None,
    git: list[str] = typer.Option(
        [],
        "--git",
        metavar="REV:PATH",
        help="A side read from a git revision without a checkout (git archive), e.g. origin/main:mq/; it "
        "takes the place of BEFORE (given twice: of both sides).",
    ),
    output: DiffOutput = typer.Option(
        DiffOutput.text,
        "--output",
        "-o",
        case_sensitive=False,
        help="text for people; json for programs; markdown for a pull-request comment; sarif for code scanning.",
    ),
    fail_on: FailOn = typer.Option(
        FailOn.any,
        "--fail-on",
        case_sensitive=False,
        help="Exit 1 when routing changed (any), when a subscription loses publications (lost), or never (none).",
    ),
    publications: Path | None = typer.Option(
        None,
        "--publications",
        metavar="FILE",
        help="Your own probes too: a publication log as spark analyze reads it (Parquet, CSV, JSON lines).",
    ),
    from_node: list[str] = typer.Option(
        [], "--from", metavar="NODE", help="Only probes published on this node (repeatable)."
    ),
    topic: list[str] = typer.Option(
        [], "--topic", metavar="TOPIC", help="Only probes on this topic (repeatable)."
    ),
    max_probes: int = typer.Option(
        20000, "--max-probes", metavar="N", help="Route at most N probes (a deterministic sample beyond)."
    ),
    encoding: SidesEncoding = None,
) -> None:
    """Compare two versions of an estate: objects, validate findings, and whose publications change."""
    from mqctl.services.diff import run_diff

    sides, enc = two_sides(git, before, after, encoding)
    report = run_diff(
        *sides,
        publications=publications,
        publishers=from_node,
        topics=topic,
        max_probes=max_probes,
        encoding=enc,
    )
    _write(report, output)
    _exit_on_changes(report, fail_on)


def _write(report: DiffReport, output: DiffOutput) -> None:
    """The sides' notes as hints on stderr, then the report on stdout in the format asked for."""
    for side in (report.before, report.after):
        for note in side.notes:
            hint(f"{side.spec}: {note}")
    if output is DiffOutput.json:
        from mqctl.render.diff import write_json

        write_json(report)
    elif output is DiffOutput.markdown:
        from mqctl.render.diff import render_markdown

        sys.stdout.write(render_markdown(report))
    elif output is DiffOutput.sarif:
        from mqctl import __version__
        from mqctl.render.diff import to_sarif

        emit_json(to_sarif(report, __version__))
    else:
        from mqctl.render.diff import render_text

        render_text(report)


def _exit_on_changes(report: DiffReport, fail_on: FailOn) -> None:
    """Exit 1 when routing changed as ``--fail-on`` says it must not (any change, or a loss)."""
    lost = any(c.change == "lost" for c in report.routing)
    if (fail_on is FailOn.any and report.routing) or (fail_on is FailOn.lost and lost):
        raise typer.Exit(1)
