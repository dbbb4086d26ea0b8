"""`mqctl validate`: the rules of docs/rules.md over the whole model, as a report and an exit code.

Without ``--file`` the store is read (one query per table). With ``--file`` the files are imported, by
the same services as ``mqctl import``, inside one transaction that is always rolled back: into the store
when one is named (``--db`` or ``MQCTL_DB``), so what is validated is the store as it would be after
importing them; otherwise into a temporary SQLite store deleted afterwards, so a CI job needs no
database. A file that does not import is an IMPORT_ERROR finding with its file and line.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from mqctl.cli.apps import sub_app
from mqctl.cli.common import Settings, emit_json, reading, store_url

if TYPE_CHECKING:
    from mqctl.domain.errors import InputError
    from mqctl.domain.model import Topology
    from mqctl.domain.validation import Finding, Rule, Severity
    from mqctl.store.repository import Store

EMS_CONFIG_SUFFIXES = {".conf", ".json"}
app = sub_app()


class ValidateOutput(StrEnum):
    text = "text"
    json = "json"
    sarif = "sarif"
    junit = "junit"


class FailOn(StrEnum):
    error = "error"
    warning = "warning"
    info = "info"


@app.command("validate")
def validate_command(
    fail_on: FailOn = typer.Option(
        FailOn.error,
        "--fail-on",
        case_sensitive=False,
        help="Exit 1 when a finding is at or above this severity.",
    ),
    output: ValidateOutput = typer.Option(
        ValidateOutput.text,
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
    files: list[Path] = typer.Option(
        [],
        "--file",
        metavar="PATH",
        help="MQSC file or folder, or an EMS tibemsd.conf/tibemsd.json (repeatable): validate the model "
        "as it would be after importing them, changing nothing.",
    ),
    encoding: str | None = typer.Option(
        None, "--encoding", metavar="NAME", help="Encoding of the --file files (default UTF-8)."
    ),
) -> None:
    """Check the whole model against the rules of docs/rules.md (the CI gate for MQ/EMS definitions)."""
    from mqctl.domain.validation import Severity, choose_rules, failing, validate

    rules = choose_rules(_keys(select), _keys(ignore))
    if files:
        from mqctl.formats.text_io import check_encoding

        topology, findings = _model_with_files(files, None if encoding is None else check_encoding(encoding))
        chosen = {r.id for r in rules}
        findings = [f for f in findings if f.rule.id in chosen]
    else:
        topology, findings = _model_in_store(), []
    findings = sorted([*findings, *validate(topology, rules)], key=lambda f: f.sort_key())
    threshold = Severity(fail_on.value)
    _emit(findings, rules, output, threshold)
    if failing(findings, threshold):
        raise typer.Exit(1)


def _keys(values: list[str]) -> list[str]:
    """Rule keys from repeated options, each possibly a comma-separated list."""
    return [key for value in values for key in value.split(",") if key.strip()]


def _model_in_store() -> Topology:
    from mqctl.store.topology import load_topology

    with reading() as store:
        return load_topology(store.conn)


# --- --file: the model as it would be after importing the files --------------------------------------


class _Discard(Exception):
    """Leave the unit of work without committing: --file never changes a store."""


def _model_with_files(paths: list[Path], encoding: str | None) -> tuple[Topology, list[Finding]]:
    from mqctl.store.session import unit_of_work
    from mqctl.store.topology import load_topology

    mqsc, ems = _classify(paths)
    result: tuple[Topology, list[Finding]] | None = None
    with _store_for_files() as url:
        try:
            with unit_of_work(url) as store:
                findings = _import(store, mqsc, ems, encoding)
                result = (load_topology(store.conn), findings)
                raise _Discard
        except _Discard:
            pass
    assert result is not None
    return result


@contextmanager
def _store_for_files() -> Iterator[str]:
    """The store named by --db or MQCTL_DB; without one, a temporary SQLite file removed afterwards."""
    if Settings.db is not None:
        yield store_url()
        return
    import tempfile

    with tempfile.TemporaryDirectory(prefix="mqctl-validate-") as folder:
        yield f"sqlite:///{Path(folder) / 'model.db'}"


def _classify(paths: list[Path]) -> tuple[list[Path], list[Path]]:
    """MQSC files (as `import mqsc` finds them) and EMS server configurations, in name order.

    A folder gives its MQSC files and every tibemsd.conf/tibemsd.json below it; a file named
    ``*.conf``/``*.json`` is an EMS server configuration, any other file an MQSC script.
    """
    from mqctl.domain.errors import InputError
    from mqctl.services.formats import mqsc_files

    mqsc: list[Path] = []
    ems: list[Path] = []
    for path in paths:
        if path.is_dir():
            found_ems = sorted(p for p in path.rglob("tibemsd.*") if p.suffix.lower() in EMS_CONFIG_SUFFIXES)
            found_mqsc = mqsc_files([path])
            if not found_ems and not found_mqsc:
                raise InputError("holds no MQSC file and no tibemsd.conf/tibemsd.json", file=str(path))
            ems += found_ems
            mqsc += found_mqsc
        elif path.is_file():
            (ems if path.suffix.lower() in EMS_CONFIG_SUFFIXES else mqsc).append(path)
        else:
            raise InputError("no such file or folder", file=str(path), attribute="--file")
    mqsc = sorted(dict.fromkeys(mqsc), key=lambda p: (p.name, str(p)))
    return mqsc, list(dict.fromkeys(ems))


def _import(store: Store, mqsc: list[Path], ems: list[Path], encoding: str | None) -> list[Finding]:
    """Import every file with the services of `mqctl import`; a file that fails is a finding."""
    from mqctl.domain.errors import InputError
    from mqctl.services.formats import import_ems, import_mqsc

    findings: list[Finding] = []
    for conf in ems:
        try:
            import_ems(
                store, tibemsd=conf, server=None, topics=None, routes=None, durables=None, encoding=encoding
            )
        except InputError as exc:
            findings += _import_error(exc, conf)
    for script in mqsc:
        try:
            import_mqsc(store, [script], inserts={}, encoding=encoding)
        except InputError as exc:
            findings += _import_error(exc, script)
    return findings


def _import_error(exc: InputError, path: Path) -> list[Finding]:
    """IMPORT_ERROR at the file and line; a selector that does not parse is an INVALID_SELECTOR there too."""
    from mqctl.domain.errors import MqctlError
    from mqctl.domain.selector import SelectorError
    from mqctl.domain.validation import FileRef, find_rule, finding

    file = exc.file or str(path)
    what = MqctlError(exc.message, obj=exc.obj, attribute=exc.attribute).one_line()
    column = f" (column {exc.column})" if exc.column is not None and exc.line is not None else ""
    where = [FileRef(file, exc.line)]
    out = [
        finding(
            find_rule("IMPORT_ERROR"),
            f"{file} is not imported, so its definitions are not validated: {what}{column}.",
            where,
        )
    ]
    if isinstance(exc, SelectorError):
        out.append(
            finding(
                find_rule("INVALID_SELECTOR"), f"A selector in {file} is not valid: {exc.message}.", where
            )
        )
    return out


# --- output ------------------------------------------------------------------------------------------


def _emit(
    findings: list[Finding], rules: tuple[Rule, ...], output: ValidateOutput, fail_on: Severity
) -> None:
    from mqctl import __version__
    from mqctl.formats import findings as writers

    if output is ValidateOutput.json:
        emit_json(writers.to_json(findings))
    elif output is ValidateOutput.sarif:
        emit_json(writers.to_sarif(findings, rules, __version__))
    elif output is ValidateOutput.junit:
        sys.stdout.write(writers.to_junit(findings, rules, fail_on))
    else:
        render(findings, fail_on)


HEADINGS = {"error": "Errors", "warning": "Warnings", "info": "Information"}
STYLES = {"error": "red", "warning": "yellow", "info": "cyan"}


def render(findings: list[Finding], fail_on: Severity) -> None:
    """Findings grouped by severity (most severe first), then a summary table and the verdict."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from mqctl.domain.validation import Severity, failing, summary

    console = Console(highlight=False)
    counts = summary(findings)
    for severity in Severity:
        group = [f for f in findings if f.severity is severity]
        if not group:
            continue
        style = STYLES[str(severity)]
        console.print(f"[bold {style}]{HEADINGS[str(severity)]} ({len(group)})[/bold {style}]")
        for f in group:
            # one line per finding, never wrapped: CI logs are read with grep
            console.print(
                f"  [{style}]{f.rule.id} {f.rule.code}[/{style}]  {escape(f.message)}", soft_wrap=True
            )
            if f.source is not None:
                where = f.source.file + (f":{f.source.line}" if f.source.line is not None else "")
                console.print(f"      [dim]at {escape(where)}[/dim]", soft_wrap=True)
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
