"""The Typer apps of the command families; object modules register their commands on the verb groups.

Each family is loaded on its own by ``cli.main`` (lazily), so each app is built without Typer's
completion options: those belong to the top-level `mqctl` only.

The object verbs (define, alter, display, delete) are lazy one level further: their groups know which
module registers each object type (``OBJECT_COMMANDS``) and import it, and build its click command, only
when that type is asked for. `mqctl display sub` imports and builds `display sub` alone, not the six
object modules and eleven commands of `display` (~10-30 ms of every object command's start, against
~0.3 s in all). Help and completion list every type, in the order the modules register them.
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar

import click
import typer
from typer.core import TyperGroup

OBJECT_COMMANDS: dict[str, tuple[tuple[str, str], ...]] = {
    verb: tuple(
        (name, module)
        for name, module, verbs in (
            ("namelist", "mqobjects", "define alter display delete"),
            ("channel", "mqobjects", "define alter display delete"),
            ("qmgr", "nodes", "define alter display delete"),
            ("cluster", "nodes", "define alter display delete"),
            ("membership", "nodes", "define alter display delete"),
            ("observed", "observed", "display"),
            ("proxies", "proxies", "display"),
            ("route", "routes", "define alter display delete"),
            ("route-selector", "routes", "define alter display delete"),
            ("tree", "topic_tree", "display"),
            ("topic", "topics", "define alter display delete"),
            ("sub", "topics", "define alter display delete"),
        )
        if verb in verbs.split()
    )
    for verb in ("define", "alter", "display", "delete")
}
"""Per verb, its object types in the order help lists them, each with the module of ``mqctl.cli`` that
registers it (tests/cli/test_lazy_objects.py holds this to what the modules register)."""


class PlacedGroup(TyperGroup):
    """A group whose subcommands' usage errors know their command: click raises some without a context
    (``--durable=no`` on a flag), and the one-line error then could not say ``define sub:``."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            name = ctx.invoked_subcommand
            if exc.ctx is None and name is not None:
                command = self.get_command(ctx, name)
                if command is not None:
                    exc.ctx = click.Context(command, info_name=name, parent=ctx)
            raise


class ObjectVerb(PlacedGroup):
    """A verb's group whose object types are imported and built one by one, on demand."""

    verb: ClassVar[str] = ""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name, _ in OBJECT_COMMANDS[self.verb]]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = self.commands.get(cmd_name)
        if command is not None:
            return command
        module = dict(OBJECT_COMMANDS[self.verb]).get(cmd_name)
        if module is None:
            return None
        importlib.import_module(f"mqctl.cli.{module}")
        app = VERB_APPS[self.verb]
        info = next(i for i in app.registered_commands if i.name == cmd_name)
        command = typer.main.get_command_from_info(
            info, pretty_exceptions_short=app.pretty_exceptions_short, rich_markup_mode=app.rich_markup_mode
        )
        self.add_command(command, cmd_name)
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError:
            # no such type: Typer's suggestion looks among the commands built, so build them all first
            for name in self.list_commands(ctx):
                self.get_command(ctx, name)
            return super().resolve_command(ctx, args)


def sub_app(**settings: Any) -> typer.Typer:
    """A command family's app (a group, or a single command when it registers one without a callback)."""
    settings.setdefault("cls", PlacedGroup)
    return typer.Typer(add_completion=False, **settings)


def _verb(verb: str, help: str) -> typer.Typer:  # noqa: A002 - Typer's name for it
    group = type(f"{verb.title()}Objects", (ObjectVerb,), {"verb": verb})
    return sub_app(cls=group, help=help, no_args_is_help=True)


define_app = _verb("define", "Define an object (as MQSC DEFINE; --replace as REPLACE).")
alter_app = _verb("alter", "Alter attributes of an existing object.")
display_app = _verb("display", "Display objects (a trailing * is generic; -o json for programs).")
delete_app = _verb("delete", "Delete an object (--cascade deletes what depends on it).")
VERB_APPS = {"define": define_app, "alter": alter_app, "display": display_app, "delete": delete_app}


def verb_group(app: typer.Typer) -> click.Command:
    """The click group of a verb app (``typer.main.get_command`` builds a group only for an app that
    already has more than one command registered: a lazy verb has none yet)."""
    return typer.main.get_group(app)
