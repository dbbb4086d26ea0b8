"""runmqsc, tibemsadmin, import and export: the users' own files in and out."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from mqctl.cli.common import OUTPUT_OPTION, Output, emit_json, transaction

if TYPE_CHECKING:
    from collections.abc import Callable

    from mqctl.services.formats import FileResult
    from mqctl.store.repository import Repository

import_app = typer.Typer(
    help="Import MQSC scripts and dumps, or EMS configuration files.", no_args_is_help=True
)
export_app = typer.Typer(help="Export the model as MQSC or EMS configuration files.", no_args_is_help=True)


def _inserts(values: list[str]) -> dict[str, str]:
    from mqctl.domain.errors import InputError

    out = {}
    for value in values:
        name, sep, text = value.partition("=")
        if not sep or not name:
            raise InputError(f"{value!r} is not NAME=VALUE", attribute="--set")
        out[name] = text
    return out


def _script(file: Path | None) -> tuple[str, str]:
    """The script's text and the name its errors give (``<stdin>:LINE:COL`` as for a file)."""
    from mqctl.domain.errors import InputError

    if file is None or str(file) == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        return file.read_text(encoding="utf-8-sig"), str(file)
    except OSError as exc:
        raise InputError(exc.strerror or "cannot be read", file=str(file)) from None


def _finish(result: FileResult, continue_on_error: bool) -> None:
    """runmqsc's exit codes: 0 all processed, 2 rejected (nothing changed), 1 some skipped (--continue)."""
    run = result.run
    if run.lines:  # one write: a 100,000-command script echoes some 200,000 lines
        typer.echo("\n".join(run.lines))
    for warning in run.warnings:
        sys.stderr.write(f"mqctl: warning: {warning}\n")
    if run.errors:
        first = run.errors[0]
        if continue_on_error:
            sys.stderr.write(
                f"mqctl: {len(run.errors)} command(s) failed and were skipped; first: {first.one_line()}\n"
            )
            raise typer.Exit(1)
        sys.stderr.write(f"mqctl: error: {first.one_line()} (script rejected, nothing changed)\n")
        raise typer.Exit(2)


def runmqsc_command(
    qmgr: str = typer.Argument(..., help="The queue manager whose model the commands change."),
    file: Path | None = typer.Argument(None, help="MQSC script (standard input without it)."),
    create: bool = typer.Option(False, "--create", help="Define the queue manager if it does not exist."),
    continue_on_error: bool = typer.Option(
        False, "--continue", help="Apply the valid commands, skip the others."
    ),
    set_: list[str] = typer.Option(
        [], "--set", help="Value of an insert +NAME+ (NAME=VALUE; QMNAME is set)."
    ),
) -> None:
    """Apply MQSC commands (runmqsc syntax, dmpmqcfg dumps) to the model of QMGR; answers like runmqsc."""
    from mqctl.services.formats import runmqsc

    text, name = _script(file)
    _run_script(
        lambda repo: runmqsc(
            repo,
            qmgr,
            text,
            file=name,
            inserts=_inserts(set_),
            create=create,
            continue_on_error=continue_on_error,
        ),
        continue_on_error,
    )


class _Rollback(Exception):
    """Leave the transaction without committing (the script was rejected)."""


def _run_script(apply: Callable[[Repository], FileResult], continue_on_error: bool) -> None:
    """One transaction: commit what the script did, or roll it all back when it was rejected."""
    result: FileResult | None = None
    try:
        with transaction() as repo:
            result = apply(repo)
            if result.run.errors and not continue_on_error:
                raise _Rollback()
    except _Rollback:
        pass
    assert result is not None
    _finish(result, continue_on_error)


def tibemsadmin_command(
    server: str = typer.Argument(..., help="The EMS server the script administers."),
    file: Path | None = typer.Argument(None, help="tibemsadmin script (standard input without it)."),
    create: bool = typer.Option(False, "--create", help="Define the server if it does not exist."),
    continue_on_error: bool = typer.Option(
        False, "--continue", help="Apply the valid commands, skip the others."
    ),
) -> None:
    """Apply a tibemsadmin script (topics, routes, route selectors) to the model of SERVER."""
    from mqctl.services.formats import tibemsadmin

    text, name = _script(file)
    _run_script(
        lambda repo: tibemsadmin(
            repo, server, text, file=name, create=create, continue_on_error=continue_on_error
        ),
        continue_on_error,
    )


PROGRESS_MIN_LINES = 3000
"""A progress bar (on a terminal) from this many lines on: a few thousand statements."""


def _count_lines(files: list[Path]) -> int:
    total = 0
    for path in files:
        try:
            data = path.read_bytes()
        except OSError:
            continue  # reported by the import itself
        total += data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
    return total


@import_app.command("mqsc")
def import_mqsc_command(
    paths: list[Path] = typer.Argument(
        ..., help="MQSC files or folders of them, one queue manager per file."
    ),
    set_: list[str] = typer.Option([], "--set", help="Value of an insert +NAME+ (NAME=VALUE)."),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Load a whole estate: each file (dmpmqcfg dump or script) applies to its queue manager, in one transaction."""
    from rich.progress import Progress

    from mqctl.services.formats import import_mqsc, mqsc_files

    files = mqsc_files(paths)
    # The bar counts lines (statements, near enough), so that one big file moves it too; counting them
    # costs a read of the files, done only when the bar can be shown.
    lines = _count_lines(files) if sys.stderr.isatty() else 0
    with Progress(transient=True, disable=lines < PROGRESS_MIN_LINES) as bar:
        task = bar.add_task(f"importing {len(files)} file(s)", total=lines)
        with transaction() as repo:
            # the files found above: the folders are not walked a second time
            results = import_mqsc(
                repo, files, inserts=_inserts(set_), lines_done=lambda n: bar.advance(task, n)
            )
    summary: list[dict[str, Any]] = [
        {
            "file": r.file,
            "qmgr": r.node,
            "read": r.run.read,
            "processed": r.run.processed,
            "not_modelled": r.run.not_modelled,
            "skipped": r.run.skipped,
        }
        for r in results
    ]
    if output is Output.json:
        emit_json(summary)
        return
    for r in summary:
        typer.echo(
            f"{r['qmgr']}: {r['read']} commands read from {r['file']}, {r['processed']} processed, "
            f"{r['not_modelled']} not modelled, {r['skipped']} skipped"
        )
    typer.echo(f"{len(summary)} queue managers imported, {sum(r['read'] for r in summary)} commands read.")


@import_app.command("ems")
def import_ems_command(
    server: str | None = typer.Option(
        None, "--server", help="Server name (default: tibemsd.conf's `server`)."
    ),
    tibemsd: list[Path] = typer.Option(
        [],
        "--tibemsd",
        help="tibemsd.conf or tibemsd.json; its file pointers are followed. Repeat it to load several servers.",
    ),
    topics: Path | None = typer.Option(None, "--topics", help="topics.conf (overrides tibemsd's pointer)."),
    routes: Path | None = typer.Option(None, "--routes", help="routes.conf (overrides tibemsd's pointer)."),
    durables: Path | None = typer.Option(
        None, "--durables", help="durables.conf (overrides tibemsd's pointer)."
    ),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Import EMS server configuration: each server's files replace its definitions in the model."""
    from mqctl.domain.errors import InputError
    from mqctl.services.formats import import_ems

    if not tibemsd and server is None:
        raise InputError(
            "give --tibemsd, or --server with --topics/--routes/--durables", attribute="--server"
        )
    if len(tibemsd) > 1 and (server or topics or routes or durables):
        raise InputError(
            "--server, --topics, --routes and --durables go with a single --tibemsd", attribute="--tibemsd"
        )
    with transaction() as repo:
        results = [
            import_ems(repo, tibemsd=conf, server=server, topics=topics, routes=routes, durables=durables)
            for conf in (list[Path | None](tibemsd) or [None])
        ]
    data = [
        {
            "server": r.server,
            "topics": r.topics,
            "routes": r.routes,
            "route_selectors": r.route_selectors,
            "durables": r.durables,
            "peers_created": r.peers_created,
            "not_modelled": len(r.not_modelled),
            "files": r.files,
        }
        for r in results
    ]
    if output is Output.json:
        emit_json(data[0] if len(data) == 1 else data)
        return
    for r in results:
        typer.echo(
            f"server {r.server}: {r.topics} topic definitions, {r.routes} routes "
            f"({r.route_selectors} selectors), {r.durables} durables; "
            f"{len(r.not_modelled)} settings not modelled"
            + (f"; peers created: {', '.join(r.peers_created)}" if r.peers_created else "")
        )


@export_app.command("mqsc")
def export_mqsc_command(
    qmgr: str | None = typer.Argument(None, help="The queue manager (or --all)."),
    all_: bool = typer.Option(False, "--all", help="Every queue manager, one file each in --out."),
    out: Path | None = typer.Option(
        None, "--out", help="Folder to write one QMGR.mqsc file each into (without it: standard output)."
    ),
) -> None:
    """Write dmpmqcfg-style MQSC; `mqctl runmqsc` or `import mqsc` gives the same model back."""
    from mqctl.domain.errors import InputError
    from mqctl.services.formats import export_mqsc, mq_node_names

    if (qmgr is None) == (not all_):
        raise InputError("give a queue manager or --all", attribute="QMGR")
    with transaction() as repo:
        names = mq_node_names(repo) if all_ else [qmgr or ""]
        texts = {name: export_mqsc(repo, name) for name in names}
    if out is None:
        # one dump after another, each with its dmpmqcfg header naming its queue manager
        sys.stdout.write("\n".join(texts[name] for name in names))
        return
    out.mkdir(parents=True, exist_ok=True)
    for name, text in texts.items():
        (out / f"{name}.mqsc").write_text(text)
    typer.echo(f"{len(texts)} queue managers written to {out}")


@export_app.command("ems")
def export_ems_command(
    server: str = typer.Option(..., "--server", help="The EMS server."),
    out: Path = typer.Option(
        ..., "--out", help="Folder for tibemsd.conf, topics.conf, routes.conf, durables.conf."
    ),
) -> None:
    """Write an EMS server's configuration files; `import ems --tibemsd` gives the same model back."""
    from mqctl.services.formats import export_ems

    with transaction() as repo:
        files = export_ems(repo, server)
    out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (out / name).write_text(text)
    typer.echo(f"server {server} written to {out}")


def register(app: typer.Typer) -> None:
    app.command("runmqsc")(runmqsc_command)
    app.command("tibemsadmin")(tibemsadmin_command)
    app.add_typer(import_app, name="import")
    app.add_typer(export_app, name="export")
