"""The Typer apps of the command families; object modules register their commands on the verb groups.

Each family is loaded on its own by ``cli.main`` (lazily), so each app is built without Typer's
completion options: those belong to the top-level `mqctl` only.
"""

from __future__ import annotations

from typing import Any

import typer


def sub_app(**settings: Any) -> typer.Typer:
    """A command family's app (a group, or a single command when it registers one without a callback)."""
    return typer.Typer(add_completion=False, **settings)


define_app = sub_app(help="Define an object (as MQSC DEFINE; --replace as REPLACE).", no_args_is_help=True)
alter_app = sub_app(help="Alter attributes of an existing object.", no_args_is_help=True)
display_app = sub_app(
    help="Display objects (a trailing * is generic; -o json for programs).", no_args_is_help=True
)
delete_app = sub_app(help="Delete an object (--cascade deletes what depends on it).", no_args_is_help=True)
