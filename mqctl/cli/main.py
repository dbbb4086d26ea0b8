"""The `mqctl` entry point: global options, the verb groups, and one-line errors with exit codes.

Command modules import heavy things (SQLAlchemy ORM, Alembic, the engine) inside the commands, so that
start-up stays close to `import typer, rich, sqlalchemy`.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
from typing import Any

import typer

from mqctl import __version__
from mqctl.cli import core, db, mqobjects, nodes, routes, topics  # noqa: F401  (register commands)
from mqctl.cli._fastparams import install as _plain_params
from mqctl.cli.apps import alter_app, define_app, delete_app, display_app
from mqctl.cli.common import Settings

_plain_params()

APP_SETTINGS: dict[str, Any] = {
    "name": "mqctl",
    "help": "Model, validate and explain IBM MQ and TIBCO EMS publish/subscribe topologies.",
    "no_args_is_help": True,
    "pretty_exceptions_enable": False,
    "context_settings": {"help_option_names": ["-h", "--help"]},
}
app = typer.Typer(**APP_SETTINGS)
app.add_typer(define_app, name="define")
app.add_typer(alter_app, name="alter")
app.add_typer(display_app, name="display")
app.add_typer(delete_app, name="delete")
app.add_typer(db.db_app, name="db")
app.add_typer(core.topic_app, name="topic")
app.add_typer(core.selector_app, name="selector")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"mqctl {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    db_url: str | None = typer.Option(
        None,
        "--db",
        envvar="MQCTL_DB",
        help="Store URL (sqlite:///file, postgresql+psycopg://...) or a file path.",
    ),
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks."),
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version."
    ),
) -> None:
    """Global options."""
    Settings.db = db_url
    Settings.debug = debug


def _register_late_commands() -> None:
    """Commands whose modules are optional at import time (added by later work)."""
    import importlib

    for module in ("mqctl.cli.explain", "mqctl.cli.formats", "mqctl.cli.validate"):
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue
        mod.register(app)


_register_late_commands()


# The interpreter's last garbage collection walks every object still alive at exit: after a large
# import that took ~0.4 s of a 5 s command for nothing. Freezing them first makes it skip them; the
# process ends right after, so nothing is kept longer than it would be.
atexit.register(gc.freeze)


GLOBAL_VALUE_OPTIONS = ("--db",)


def _command_name(argv: list[str]) -> str | None:
    """The command word of ``argv`` (after the global options), or None when help/version come first."""
    args = iter(argv)
    for arg in args:
        if arg in GLOBAL_VALUE_OPTIONS:
            next(args, None)
        elif arg.startswith("-"):
            if not arg.startswith(("--db=", "--debug")):
                return None  # -h, --help, --version, or an option the full app reports
        else:
            return arg
    return None


def _app_for(argv: list[str]) -> typer.Typer:
    """For `mqctl explain`, an app holding the global options and explain only.

    Typer rebuilds the click command of every registered command on each run (~14 ms for mqctl's ~50
    commands), a tenth of what explain may cost above `import typer, rich, sqlalchemy`. The explain
    command, its options, its errors and its help are the same in both apps; everything else (and help
    or version asked before the command) uses the full app.
    """
    if _command_name(argv) != "explain":
        return app
    from mqctl.cli import explain

    lean = typer.Typer(**APP_SETTINGS)
    lean.callback()(main)
    explain.register(lean)
    return lean


def run() -> None:
    """Console script: turn every known failure into one line on stderr and an exit code."""
    from mqctl.domain.errors import MqctlError

    debug = "--debug" in sys.argv or os.environ.get("MQCTL_DEBUG") == "1"
    try:
        _app_for(sys.argv[1:])(prog_name="mqctl")
    except MqctlError as exc:
        if debug:
            raise
        sys.stderr.write(f"mqctl: error: {exc.one_line()}\n")
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        sys.stderr.write("mqctl: interrupted\n")
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - the last line of defence: no traceback without --debug
        if debug:
            raise
        from sqlalchemy.exc import SQLAlchemyError

        if isinstance(exc, SQLAlchemyError):
            sys.stderr.write(
                f"mqctl: store error: {str(exc).splitlines()[0]} (run with --debug for details)\n"
            )
            sys.exit(3)
        sys.stderr.write(
            f"mqctl: internal error: {type(exc).__name__}: {exc} (run with --debug for the traceback)\n"
        )
        sys.exit(2)


if __name__ == "__main__":
    run()
