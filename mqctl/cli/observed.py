"""What queue managers were seen to hold: `import display`, `display observed`, `reconcile`."""

from __future__ import annotations

import re
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from mqctl.cli.apps import display_app, sub_app
from mqctl.cli.common import (
    OUTPUT_OPTION,
    FailOn,
    FindingsOutput,
    Output,
    emit_json,
    no_match_exit,
    reading,
    store_url,
)
from mqctl.cli.formats import ENCODING_OPTION, checked_encoding, import_app

if TYPE_CHECKING:
    from mqctl.domain.reconcile import Discrepancy
    from mqctl.domain.validation import Severity

reconcile_app = sub_app()


def _time(value: str | None) -> datetime | None:
    from mqctl.domain.errors import InputError

    if value is None:
        return None
    from datetime import UTC

    from mqctl.domain.errors import clip

    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
        (when if when.tzinfo else when.replace(tzinfo=UTC)).astimezone(UTC)
    except ValueError:
        raise InputError(
            f"{clip(value)!r} is not an ISO 8601 time (2026-11-26T03:00:00Z)", attribute="--at"
        ) from None
    except OverflowError:
        raise InputError(f"{clip(value)!r} is out of range", attribute="--at") from None
    return when


_SPAN = re.compile(r"^(\d+)\s*([smhd]?)$")
_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}
_MAX_SPAN = 100 * 366 * 86400
"""A --max-age longer than a century is a mistake (and past 999,999,999 days, no timedelta)."""


def _span(value: str | None) -> timedelta | None:
    from mqctl.domain.errors import InputError

    if value is None:
        return None
    from mqctl.domain.errors import clip

    found = _SPAN.match(value.strip().lower())
    if found is None:
        raise InputError(f"{clip(value)!r} is not a duration (90s, 30m, 12h, 2d)", attribute="--max-age")
    seconds = int(found.group(1)[:20]) * _UNITS[found.group(2)]
    if len(found.group(1)) > 12 or seconds > _MAX_SPAN:
        raise InputError(f"{clip(value)!r} is longer than 100 years", attribute="--max-age")
    return timedelta(seconds=seconds)


@import_app.command("display")
def import_display_command(
    paths: list[Path] = typer.Argument(
        ..., help="Saved runmqsc DISPLAY output, REST runCommandJSON responses or tibemsadmin sessions."
    ),
    qmgr: str | None = typer.Option(
        None, "--qmgr", help="Queue manager of files that name none (checked when they do)."
    ),
    at: str | None = typer.Option(
        None, "--at", metavar="TIME", help="Capture time of files without one (ISO 8601)."
    ),
    encoding: str | None = ENCODING_OPTION,
    output: Output = OUTPUT_OPTION,
) -> None:
    """Read captures of DISPLAY output: ADMIN/API subscriptions and definitions into the model, the rest as observations."""
    from mqctl.services.observed import import_display

    when = _time(at)
    results, skipped = import_display(
        store_url(), paths, qmgr=qmgr, at=when, encoding=checked_encoding(encoding)
    )
    if skipped:
        from mqctl.text import error_line

        sys.stderr.write(f"mqctl: skipped, not captures by their name: {error_line(', '.join(skipped))}\n")
    summary = [r.to_json() for r in results]
    if output is Output.json:
        emit_json(summary)
        return
    for r in summary:
        subs = ", ".join(f"{n} {k}" for k, n in r["subscriptions"].items()) or "no"
        seen = ", ".join(f"{n} {k}" for k, n in r["observations"].items()) or "no"
        line = (
            f"{r['qmgr']}: {subs} subscription(s), {r['topics']} topic(s), {seen} observation(s), "
            f"captured {r['captured_at']}"
        )
        if r["not_read"]:
            line += "; not read: " + ", ".join(f"{n} {k}" for k, n in r["not_read"].items())
        if r["skipped_lines"]:
            line += f"; {r['skipped_lines']} line(s) outside runmqsc's runs skipped"
        if not r["kept"]:
            line += "; not kept: the store holds a newer capture of it"
        if r["not_imported"]:
            line += "; queue manager not in the model, not imported: " + ", ".join(
                f"{n} {k}" for k, n in r["not_imported"].items()
            )
        sys.stdout.write(line + "\n")


@display_app.command("observed")
def display_observed_command(
    qmgr: str | None = typer.Option(None, "--qmgr", help="Only this queue manager's capture."),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Observations kept from the latest capture of each queue manager."""
    from mqctl.services.observed import observed

    with reading() as store:
        captures = observed(store, qmgr)
    if output is Output.json:
        emit_json(captures)
    else:
        from mqctl.render.observed import observed_table

        observed_table(captures)
    no_match_exit(captures)


@reconcile_app.command("reconcile")
def reconcile_command(
    output: FindingsOutput = typer.Option(
        FindingsOutput.text, "--output", "-o", case_sensitive=False, help="text, json, sarif or junit."
    ),
    fail_on: FailOn = typer.Option(
        FailOn.error,
        "--fail-on",
        case_sensitive=False,
        help="Exit 1 when a finding is at or above this severity.",
    ),
    max_age: str | None = typer.Option(
        None,
        "--max-age",
        metavar="SPAN",
        help="Captures older than this (90s, 30m, 12h, 2d), or further apart, are reported.",
    ),
    plan: Path | None = typer.Option(
        None,
        "--plan",
        metavar="FILE",
        help="A plan (mqctl plan -o json): compare the captures with the model of one of its steps.",
    ),
    step: int | None = typer.Option(
        None, "--step", metavar="N", help="With --plan: the step whose model the captures should show."
    ),
) -> None:
    """What the model predicts each queue manager holds, against what captures showed (rules MQR…, docs/rules.md)."""
    from mqctl.domain.reconcile import RECONCILE_RULES, failing
    from mqctl.domain.validation import Severity
    from mqctl.services.reconcile import reconcile_store

    span = _span(max_age)
    if (plan is None) != (step is None):
        from mqctl.domain.errors import InputError

        raise InputError("--plan and --step go together", attribute="--plan" if plan is None else "--step")
    with reading() as store:
        found = reconcile_store(store, max_age=span, plan=plan, step=step)
    threshold = Severity(fail_on.value)
    _emit(found, output, threshold, RECONCILE_RULES)
    if failing(found, threshold):
        raise typer.Exit(1)


def _emit(found: list[Discrepancy], output: FindingsOutput, fail_on: Severity, rules: Any) -> None:
    from mqctl import __version__
    from mqctl.domain.validation import summary
    from mqctl.formats import findings as writers

    plain = [d.finding for d in found]
    if output is FindingsOutput.json:
        emit_json({"findings": [d.to_json() for d in found], "summary": summary(plain)})
    elif output is FindingsOutput.sarif:
        emit_json(writers.to_sarif(plain, rules, __version__))
    elif output is FindingsOutput.junit:
        sys.stdout.write(writers.to_junit(plain, rules, fail_on))
    else:
        from mqctl.render.observed import reconcile_text

        reconcile_text(found, fail_on)
