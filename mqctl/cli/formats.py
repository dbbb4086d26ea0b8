"""runmqsc, tibemsadmin, import and export: the users' own files in and out."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from mqctl.cli.apps import sub_app
from mqctl.cli.common import OUTPUT_OPTION, Output, emit_json, hint, reading, transaction
from mqctl.render.safe_text import error_line, safe

if TYPE_CHECKING:
    from collections.abc import Callable

    from mqctl.formats.file_names import MqscFile
    from mqctl.formats.kube import Estate
    from mqctl.services.export import Exported
    from mqctl.services.file_doors import FileResult
    from mqctl.services.import_ems import EmsImport
    from mqctl.services.store_access import Store

import_app = sub_app(help="Import MQSC scripts and dumps, or EMS configuration files.", no_args_is_help=True)
export_app = sub_app(help="Export the model as MQSC or EMS configuration files.", no_args_is_help=True)
runmqsc_app = sub_app()
tibemsadmin_app = sub_app()


def _inserts(values: list[str]) -> dict[str, str]:
    from mqctl.domain.errors import InputError

    out = {}
    for value in values:
        name, sep, text = value.partition("=")
        if not sep or not name:
            raise InputError(f"{value!r} is not NAME=VALUE", attribute="--set")
        out[name] = text
    return out


STDIN = "<stdin>"
"""How errors and sources name a script read from standard input (``<stdin>:LINE:COL``)."""


ENCODING_OPTION = typer.Option(
    None,
    "--encoding",
    metavar="NAME",
    help="Encoding of the files read (default UTF-8, a byte order mark honoured): cp1252, latin-1, ...",
)


def checked_encoding(name: str | None) -> str | None:
    """``--encoding`` as its codec's canonical name (None: not given); one Python cannot read text with
    is bad input. Shared by the file doors of this module and ``import display``."""
    from mqctl.formats.text_io import check_encoding

    return None if name is None else check_encoding(name)


def _script(file: Path | None, encoding: str | None) -> tuple[str, str]:
    from mqctl.formats.text_io import read_text_file, read_text_stream

    if file is None or str(file) == "-":
        return read_text_stream(sys.stdin.buffer, checked_encoding(encoding), name=STDIN), STDIN
    return read_text_file(file, checked_encoding(encoding)), str(file)


def _finish(result: FileResult, continue_on_error: bool) -> None:
    """runmqsc's exit codes: 0 all processed, 2 rejected (nothing changed), 1 some skipped (--continue)."""
    run = result.run
    if run.lines:  # one write: a 100,000-command script echoes some 200,000 lines
        typer.echo(safe("\n".join(run.lines), lines=True))
    for warning in run.warnings:
        sys.stderr.write(f"mqctl: warning: {error_line(warning)}\n")
    if run.errors:
        first = run.errors[0]
        if continue_on_error:
            sys.stderr.write(
                f"mqctl: {len(run.errors)} command(s) failed and were skipped; first: {error_line(first.plain_line())}\n"
            )
            raise typer.Exit(1)
        sys.stderr.write(
            f"mqctl: error: {error_line(first.plain_line())} (script rejected, nothing changed)\n"
        )
        raise typer.Exit(2)


@runmqsc_app.command("runmqsc")
def runmqsc_command(
    qmgr: str = typer.Argument(
        ..., metavar="QMGR", help="The queue manager whose model the commands change."
    ),
    file: Path | None = typer.Argument(None, help="MQSC script (standard input without it)."),
    create: bool = typer.Option(False, "--create", help="Define the queue manager if it does not exist."),
    continue_on_error: bool = typer.Option(
        False, "--continue", help="Apply the valid commands, skip the others."
    ),
    set_: list[str] = typer.Option(
        [], "--set", metavar="NAME=VALUE", help="Value of an insert +NAME+ (QMNAME is set)."
    ),
    encoding: str | None = ENCODING_OPTION,
) -> None:
    """Apply MQSC commands (runmqsc syntax, dmpmqcfg dumps) to the model of QMGR; answers like runmqsc.
    On a terminal without FILE: an interactive prompt, one command at a time."""
    from mqctl.services.runmqsc import runmqsc

    if file is None and sys.stdin.isatty() and sys.stdout.isatty():
        from mqctl.cli.runmqsc_prompt import interactive

        return interactive(qmgr, create=create, inserts=_inserts(set_))
    text, name = _script(file, encoding)
    _run_script(
        lambda store: runmqsc(
            store,
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


def _run_script(apply: Callable[[Store], FileResult], continue_on_error: bool) -> None:
    """One transaction: commit what the script did, or roll it all back when it was rejected."""
    result: FileResult | None = None
    try:
        with transaction() as store:
            result = apply(store)
            if result.run.errors and not continue_on_error:
                raise _Rollback()
    except _Rollback:
        pass
    assert result is not None
    _finish(result, continue_on_error)


@tibemsadmin_app.command("tibemsadmin")
def tibemsadmin_command(
    server: str = typer.Argument(..., metavar="SERVER", help="The EMS server the script administers."),
    file: Path | None = typer.Argument(None, help="tibemsadmin script (standard input without it)."),
    create: bool = typer.Option(False, "--create", help="Define the server if it does not exist."),
    continue_on_error: bool = typer.Option(
        False, "--continue", help="Apply the valid commands, skip the others."
    ),
    encoding: str | None = ENCODING_OPTION,
) -> None:
    """Apply a tibemsadmin script (topics, routes, route selectors, durables) to the model of SERVER."""
    from mqctl.services.tibemsadmin import tibemsadmin

    text, name = _script(file, encoding)
    _run_script(
        lambda store: tibemsadmin(
            store, server, text, file=name, create=create, continue_on_error=continue_on_error
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


def _holds_yaml(path: str) -> bool:
    """A folder with Kubernetes YAML below it (read as such beside its MQSC files)."""
    from mqctl.formats.walk import files_under
    from mqctl.services.kube import YAML_SUFFIXES

    folder = Path(path)
    return folder.is_dir() and any(p.suffix.lower() in YAML_SUFFIXES for p in files_under(folder))


@import_app.command("mqsc")
def import_mqsc_command(
    paths: list[str] = typer.Argument(
        ...,
        metavar="[NAME=]PATH...",
        help="MQSC files or folders of them, one queue manager per file (named by its dmpmqcfg header or "
        "its file name), by its sub-folder when its name is none (mq/QM1/10-dev.mqsc), or as QM1=PATH; "
        "Kubernetes YAML (*.yaml, folders of it, - for standard input): each QueueManager's (or Helm "
        "values') MQSC items as its container applies them.",
    ),
    set_: list[str] = typer.Option([], "--set", metavar="NAME=VALUE", help="Value of an insert +NAME+."),
    encoding: str | None = ENCODING_OPTION,
    output: Output = OUTPUT_OPTION,
) -> None:
    """Load a whole estate: each file (dmpmqcfg dump or script) applies to its queue manager, in one transaction."""
    from mqctl.formats.file_names import PROSE_SKIPPED, mqsc_files
    from mqctl.services.kube import is_yaml

    estate = _yaml_estate(paths, encoding)
    plain = [p for p in paths if not is_yaml(p)]
    files = mqsc_files(
        plain, skipped=lambda path: hint(f"{path}: {PROSE_SKIPPED}"), encoding=checked_encoding(encoding)
    )
    results = _import_files(files, estate, set_, encoding)
    summary = [_mqsc_row(r) for r in results]
    if output is Output.json:
        emit_json(summary)
        return
    _echo_mqsc_summary(summary, results)


def _yaml_estate(paths: list[str], encoding: str | None) -> Estate | None:
    """The Kubernetes YAML among the paths (files, folders holding some, -), read before any MQSC file."""
    from mqctl.services.kube import is_yaml, read_estate_files, yaml_files, yaml_names

    kube_paths = [p for p in paths if is_yaml(p) or _holds_yaml(p)]
    if not kube_paths:
        return None
    return read_estate_files(yaml_files(kube_paths), checked_encoding(encoding), yaml_names(kube_paths))


def _import_files(
    files: list[MqscFile], estate: Estate | None, set_: list[str], encoding: str | None
) -> list[FileResult]:
    """The MQSC files then the YAML's queue managers in one transaction, with a bar when it is worth one."""
    from rich.progress import Progress

    from mqctl.services.import_mqsc import import_mqsc
    from mqctl.services.kube import import_estate

    # The bar counts lines (statements, near enough), so that one big file moves it too; counting them
    # costs a read of the files, done only when the bar can be shown.
    lines = _count_lines([f.path for f in files]) if sys.stderr.isatty() else 0
    with Progress(transient=True, disable=lines < PROGRESS_MIN_LINES) as bar:
        task = bar.add_task(f"importing {len(files)} file(s)", total=lines)
        with transaction() as store:
            # the files found above: the folders are not walked a second time
            results = import_mqsc(
                store,
                files,
                inserts=_inserts(set_),
                lines_done=lambda n: bar.advance(task, n),
                encoding=checked_encoding(encoding),
                empty=lambda path: hint(
                    f"{path} holds no MQSC command (empty, or comments only): nothing imported from it "
                    f"(name its queue manager, QM1={path}, to create one)"
                ),
            )
            if estate is not None:
                from mqctl.services.file_model import estate_notes

                kube = import_estate(store, estate)
                results += kube.results
                for note in estate_notes(estate):
                    hint(note)
    return results


def _mqsc_row(r: FileResult) -> dict[str, Any]:
    """One file's counts, as ``-o json`` gives them (a contract: tools read these keys)."""
    return {
        "file": r.file,
        "qmgr": r.node,
        "read": r.run.read,
        "processed": r.run.processed,
        "not_modelled": r.run.not_modelled,
        "attributes_not_modelled": r.run.attributes_not_modelled,
        "skipped": r.run.skipped,
    }


def _echo_mqsc_summary(summary: list[dict[str, Any]], results: list[FileResult]) -> None:
    """One line per file, naming what was not modelled, then the totals counted by queue manager."""
    from mqctl.formats.script_run import counted

    for r, result in zip(summary, results, strict=True):
        typer.echo(
            f"{r['qmgr']}: {counted(r['read'], 'command')} read from {r['file']}, {r['processed']} processed, "
            f"{r['not_modelled']} not modelled, {counted(r['attributes_not_modelled'], 'attribute')} not "
            f"modelled, {r['skipped']} skipped"
            + (f" (not modelled: {result.run.unmodelled_text()})" if result.run.unmodelled else "")
        )
    read = sum(r["read"] for r in summary)
    qmgrs = len({r["qmgr"] for r in summary})  # a queue manager's folder may hold several files
    typer.echo(f"{counted(qmgrs, 'queue manager')} imported, {counted(read, 'command')} read.")


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
    encoding: str | None = ENCODING_OPTION,
    output: Output = OUTPUT_OPTION,
) -> None:
    """Import EMS server configuration: each server's files replace its definitions in the model."""
    from mqctl.services.import_ems import import_ems

    _check_ems_sources(server, tibemsd, (topics, routes, durables))
    with transaction() as store:
        results = [
            import_ems(
                store,
                tibemsd=conf,
                server=server,
                topics=topics,
                routes=routes,
                durables=durables,
                encoding=checked_encoding(encoding),
            )
            for conf in (list[Path | None](tibemsd) or [None])
        ]
    data = [_ems_row(r) for r in results]
    if output is Output.json:
        emit_json(data[0] if len(data) == 1 else data)
        return
    for r in results:
        typer.echo(_ems_line(r))


def _check_ems_sources(server: str | None, tibemsd: list[Path], overrides: tuple[Path | None, ...]) -> None:
    """Refuse, before the store is opened, a server with no file to read or per-server files given to many."""
    from mqctl.domain.errors import InputError

    if not tibemsd and server is None:
        raise InputError(
            "give --tibemsd, or --server with --topics/--routes/--durables", attribute="--server"
        )
    if len(tibemsd) > 1 and (server or any(overrides)):
        raise InputError(
            "--server, --topics, --routes and --durables go with a single --tibemsd", attribute="--tibemsd"
        )


def _ems_row(r: EmsImport) -> dict[str, Any]:
    """One server's counts, as ``-o json`` gives them (a contract: tools read these keys)."""
    return {
        "server": r.server,
        "topics": r.topics,
        "routes": r.routes,
        "route_selectors": r.route_selectors,
        "durables": r.durables,
        "peers_created": r.peers_created,
        "not_modelled": len(r.not_modelled),
        "not_modelled_settings": [_setting(s) for s in r.not_modelled],
        "files": r.files,
    }


def _ems_line(r: EmsImport) -> str:
    """One server's counts for people, naming the settings not modelled and the peers created."""
    return (
        f"server {r.server}: {r.topics} topic definitions, {r.routes} routes "
        f"({r.route_selectors} selectors), {r.durables} durables; "
        f"{len(r.not_modelled)} settings not modelled"
        + (f" ({'; '.join(_setting(s) for s in r.not_modelled)})" if r.not_modelled else "")
        + (f"; peers created: {', '.join(r.peers_created)}" if r.peers_created else "")
    )


def _setting(text: str) -> str:
    """``queues = queues.conf`` from ``queues = queues.conf (not modelled)``: the list says it already."""
    return text.removesuffix(" (not modelled)").replace(", not modelled)", ")")


MODE_OPTION = typer.Option(
    None, "--mode", metavar="OCTAL", help="File mode of the files written (default 600: owner only)."
)


@export_app.command("mqsc")
def export_mqsc_command(
    qmgr: str | None = typer.Argument(None, metavar="[QMGR]", help="The queue manager (or --all)."),
    all_: bool = typer.Option(False, "--all", help="Every queue manager, one file each in --out."),
    out: Path | None = typer.Option(
        None,
        "--out",
        metavar="DIR",
        help="Folder to write one QMGR.mqsc file each into (without it: standard output).",
    ),
    mode: str | None = MODE_OPTION,
    include_api: bool = typer.Option(
        False, "--include-api", help="Write API subscriptions (from `import display`) as DEFINE SUB too."
    ),
) -> None:
    """Write dmpmqcfg-style MQSC; `mqctl runmqsc` or `import mqsc` gives the same model back."""
    from mqctl.domain.errors import InputError
    from mqctl.domain.model import Dialect
    from mqctl.services.export import export_mqsc, node_names
    from mqctl.services.files import parse_mode, write_files

    if (qmgr is None) == (not all_):
        raise InputError("give a queue manager or --all", attribute="QMGR")
    file_mode = parse_mode(mode)
    with reading() as store:
        names = node_names(store, Dialect.MQ) if all_ else [qmgr or ""]
        exports = [export_mqsc(store, name, include_api=include_api) for name in names]
    _not_written(exports)
    if out is None:
        # one dump after another, each with its dmpmqcfg header naming its queue manager
        sys.stdout.write("\n".join(text for e in exports for text in e.files.values()))
        return
    write_files(out, {name: text for e in exports for name, text in e.files.items()}, mode=file_mode)
    typer.echo(f"{len(exports)} queue managers written to {out}")


def _not_written(exports: list[Exported]) -> None:
    for exported in exports:
        for note in exported.not_written:
            sys.stderr.write(f"mqctl: warning: {error_line(f'{exported.node}: not written: {note}')}\n")


@export_app.command("ems")
def export_ems_command(
    server: str | None = typer.Option(None, "--server", metavar="SERVER", help="The EMS server (or --all)."),
    all_: bool = typer.Option(False, "--all", help="Every EMS server, one folder each in --out."),
    out: Path = typer.Option(
        ...,
        "--out",
        metavar="DIR",
        help="Folder for tibemsd.conf, topics.conf, routes.conf, durables.conf (--all: DIR/SERVER/...).",
    ),
    mode: str | None = MODE_OPTION,
) -> None:
    """Write EMS servers' configuration files; `import ems --tibemsd` gives the same model back."""
    from mqctl.domain.errors import InputError
    from mqctl.domain.model import Dialect
    from mqctl.services.export import export_ems, node_names
    from mqctl.services.files import parse_mode, write_files

    if (server is None) == (not all_):
        raise InputError("give --server or --all", attribute="--server")
    file_mode = parse_mode(mode)
    with reading() as store:
        names = node_names(store, Dialect.EMS) if all_ else [server or ""]
        exports = [export_ems(store, name) for name in names]
    _not_written(exports)
    prefix = (lambda e: f"{e.node}/") if all_ else (lambda e: "")
    write_files(
        out, {prefix(e) + name: text for e in exports for name, text in e.files.items()}, mode=file_mode
    )
    typer.echo(f"{len(exports)} servers written to {out}" if all_ else f"server {server} written to {out}")


# `export snapshot` and `import snapshot` register themselves on the apps above (their own module).
import mqctl.cli.snapshot  # noqa: E402, F401
from mqctl.cli import observed as _observed  # noqa: E402,F401  (registers `import display`)
