"""`mqctl validate`: the rules of docs/rules.md over the whole model, as a report and an exit code.

Parses the options, calls ``services.validate`` (the store's model, or with ``--file`` the model the
files define, built in memory without the store) and hands the findings to a writer or to the Rich
report of ``render.findings``.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import typer

from mqctl.cli.apps import sub_app
from mqctl.cli.common import FailOn, FindingsOutput, emit_json, hint, reading

if TYPE_CHECKING:
    from mqctl.domain.validation import Finding, Rule, Severity

app = sub_app()


@app.command("validate")
def validate_command(
    fail_on: FailOn = typer.Option(
        FailOn.error,
        "--fail-on",
        case_sensitive=False,
        help="Exit 1 when a finding is at or above this severity.",
    ),
    output: FindingsOutput = typer.Option(
        FindingsOutput.text,
        "--output",
        "-o",
        case_sensitive=False,
        help="text for people; json, sarif (code scanning), junit (CI).",
    ),
    select: list[str] = typer.Option(
        [], "--select", metavar="ID|CODE", help="Run only this rule (repeatable, or comma-separated)."
    ),
    ignore: list[str] = typer.Option(
        [], "--ignore", metavar="ID|CODE", help="Skip this rule (repeatable, or comma-separated)."
    ),
    files: list[str] = typer.Option(
        [],
        "--file",
        metavar="[NAME=]PATH",
        help="MQSC file or folder, an EMS tibemsd.conf/tibemsd.json, or Kubernetes YAML (*.yaml, a folder "
        "of them, - for standard input: ConfigMaps, Secrets, QueueManagers, Helm values) (repeatable): "
        "validate the model these files define, alone (the store is not read). NAME=PATH names the queue "
        "manager or server of a file; a file not named after its queue manager takes its folder's name "
        "(mq/QM1/10-dev.mqsc).",
    ),
    encoding: str | None = typer.Option(
        None, "--encoding", metavar="NAME", help="Encoding of the --file files (default UTF-8)."
    ),
) -> None:
    """Check the whole model against the rules of docs/rules.md (the CI gate for MQ/EMS definitions)."""
    from mqctl.domain.validation import Severity, choose_rules, failing
    from mqctl.services.validate import validate_files, validate_store

    rules = choose_rules(_keys(select), _keys(ignore))
    if files:
        from mqctl.formats.text_io import check_encoding

        result = validate_files(files, rules, None if encoding is None else check_encoding(encoding))
        for path in result.empty_files:
            hint(f"{path} holds no MQSC command (empty, or comments only): nothing is made of it")
        for note in result.notes:
            hint(note)
    else:
        with reading() as store:
            result = validate_store(store, rules)
    threshold = Severity(fail_on.value)
    _emit(result.findings, rules, output, threshold)
    if failing(result.findings, threshold):
        raise typer.Exit(1)


def _keys(values: list[str]) -> list[str]:
    """Rule keys from repeated options, each possibly a comma-separated list."""
    return [key for value in values for key in value.split(",") if key.strip()]


# --- output ------------------------------------------------------------------------------------------


def _emit(
    findings: list[Finding], rules: tuple[Rule, ...], output: FindingsOutput, fail_on: Severity
) -> None:
    from mqctl import __version__
    from mqctl.formats import findings as writers

    if output is FindingsOutput.json:
        emit_json(writers.to_json(findings))
    elif output is FindingsOutput.sarif:
        emit_json(writers.to_sarif(findings, rules, __version__))
    elif output is FindingsOutput.junit:
        sys.stdout.write(writers.to_junit(findings, rules, fail_on))
    else:
        from mqctl.render.findings import render

        render(findings, fail_on)
