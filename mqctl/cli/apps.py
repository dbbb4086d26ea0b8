"""The verb groups; object modules register their commands on them."""

from __future__ import annotations

import typer

define_app = typer.Typer(
    help="Define an object (as MQSC DEFINE; --replace as REPLACE).", no_args_is_help=True
)
alter_app = typer.Typer(help="Alter attributes of an existing object.", no_args_is_help=True)
display_app = typer.Typer(
    help="Display objects (a trailing * is generic; -o json for programs).", no_args_is_help=True
)
delete_app = typer.Typer(
    help="Delete an object (--cascade deletes what depends on it).", no_args_is_help=True
)
