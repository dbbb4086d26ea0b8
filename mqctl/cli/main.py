"""The `mqctl` entry point: global options, the verb groups (loaded lazily), one-line errors, exit codes.

Each command family lives in its own module, imported only when its command runs: the top-level group
is a ``TyperGroup`` whose ``list_commands``/``get_command`` (click's public API for lazy subcommands) name
the modules, so `mqctl explain` builds and imports explain alone and its start-up stays close to
`import typer, rich, sqlalchemy`. Help and shell completion list every command as usual.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys

import click
import typer

from mqctl import __version__
from mqctl.cli.apps import VERB_APPS, PlacedGroup, verb_group
from mqctl.cli.common import Invocation

COMMANDS: dict[str, tuple[str, str]] = {
    "define": ("mqctl.cli.objects", "define_app"),
    "alter": ("mqctl.cli.objects", "alter_app"),
    "display": ("mqctl.cli.objects", "display_app"),
    "delete": ("mqctl.cli.objects", "delete_app"),
    "explain": ("mqctl.cli.explain", "app"),
    "runmqsc": ("mqctl.cli.formats", "runmqsc_app"),
    "tibemsadmin": ("mqctl.cli.formats", "tibemsadmin_app"),
    "import": ("mqctl.cli.formats", "import_app"),
    "export": ("mqctl.cli.formats", "export_app"),
    "topic": ("mqctl.cli.core", "topic_app"),
    "selector": ("mqctl.cli.core", "selector_app"),
    "db": ("mqctl.cli.db", "db_app"),
    "graph": ("mqctl.cli.graph", "app"),
    "validate": ("mqctl.cli.validate", "app"),
    "diff": ("mqctl.cli.diff", "app"),
    "plan": ("mqctl.cli.plan", "app"),
    "reconcile": ("mqctl.cli.observed", "reconcile_app"),
    "capture-kit": ("mqctl.cli.capture_kit", "app"),
    "spark": ("mqctl.cli.spark", "app"),
}
"""Command name -> (module, Typer app attribute)."""


class LazyCommands(PlacedGroup):
    """The top-level group: a command's module is imported when that command is asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, attr = target
        app = getattr(importlib.import_module(module), attr)
        command = verb_group(app) if cmd_name in VERB_APPS else typer.main.get_command(app)
        command.name = cmd_name
        return command


app = typer.Typer(
    cls=LazyCommands,
    name="mqctl",
    help="Model, validate and explain IBM MQ and TIBCO EMS publish/subscribe topologies.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # MQSC habits: option names, command names and enumeration values in any case (`--CLUSTER`,
    # `-o JSON`); click applies the context's normaliser to both sides and every subcommand inherits it
    context_settings={"help_option_names": ["-h", "--help"], "token_normalize_func": str.lower},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"mqctl {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    ctx: typer.Context,
    db_url: str | None = typer.Option(
        None,
        "--db",
        envvar="MQCTL_DB",
        metavar="URL",
        help="Store URL (sqlite:///file, postgresql+psycopg://...) or a file path.",
    ),
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks (exit codes stay the same)."),
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version."
    ),
) -> None:
    """Global options: they travel with the invocation (``ctx.obj``), read by ``common.store_url``.
    ``--debug`` is read by ``run`` from the arguments (its handlers run after the context is closed)."""
    ctx.obj = Invocation(db=db_url)


INTERNAL = 4
"""Exit code of a bug in mqctl (docs/cli.md)."""


def _debugging() -> bool:
    """``--debug`` in any case (option names are case-insensitive), or ``MQCTL_DEBUG=1``: read from the
    process, as the failure may come before the root callback ran or after its context closed."""
    return any(arg.lower() == "--debug" for arg in sys.argv[1:]) or os.environ.get("MQCTL_DEBUG") == "1"


def _traceback() -> None:
    """With --debug: the traceback on stderr, passwords in store URLs hidden."""
    import traceback

    from mqctl.services.store_access import hide_secrets

    sys.stderr.write(hide_secrets("".join(traceback.format_exc())))


def run() -> None:
    """Console script: every failure is one line on stderr and an exit code (0-4, see docs/cli.md)."""
    from mqctl.domain.errors import MqctlError
    from mqctl.memory import command_process
    from mqctl.render.safe_text import error_line

    try:
        with command_process():  # the garbage collector's one control point for a command
            # not standalone: click's usage errors come here, to be one line instead of Typer's panel
            code = app(prog_name="mqctl", standalone_mode=False)
            # what the command left alive goes to the oldest generation unscanned: re-enabling the
            # collector would otherwise scan all of it at once (50,000 displayed rows: ~0.1 s for nothing)
            gc.freeze()
        gc.unfreeze()
    except click.exceptions.NoArgsIsHelpError:
        sys.exit(2)  # the help was shown (`mqctl`, `mqctl define`)
    except click.ClickException as exc:
        from mqctl.cli.usage import usage_line

        sys.stderr.write(f"mqctl: error: {error_line(usage_line(exc))}\n")
        sys.exit(2 if isinstance(exc, click.UsageError) else exc.exit_code)
    except click.Abort:
        sys.stderr.write("mqctl: interrupted\n")
        sys.exit(130)
    except MqctlError as exc:
        if _debugging():
            _traceback()
        sys.stderr.write(f"mqctl: error: {error_line(exc.plain_line())}\n")
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        sys.stderr.write("mqctl: interrupted\n")
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - the last line of defence: no traceback without --debug
        if _debugging():
            _traceback()
        from mqctl.services.store_access import hide_secrets, store_failure

        line = store_failure(exc)
        if line is not None:
            sys.stderr.write(f"mqctl: store error: {error_line(line)} (run with --debug for details)\n")
            sys.exit(3)
        sys.stderr.write(
            f"mqctl: internal error (a bug in mqctl, please report it): {type(exc).__name__}: "
            f"{error_line(hide_secrets(str(exc).splitlines()[0] if str(exc) else ''))} "
            "(run with --debug for the traceback)\n"
        )
        sys.exit(INTERNAL)
    if code == 130:  # click turns an interrupt into this exit code
        sys.stderr.write("mqctl: interrupted\n")
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    run()
