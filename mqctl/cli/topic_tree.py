"""`mqctl display tree`: the single topic tree of one queue manager (reference 001), as MQ uses it."""

from __future__ import annotations

import typer

from mqctl.cli.apps import display_app
from mqctl.cli.common import OUTPUT_OPTION, Output, emit_json, reading


@display_app.command("tree")
def display_tree(
    qmgr: str = typer.Option(..., "--qmgr", "-m", help="The queue manager whose topic tree is shown."),
    topic: str | None = typer.Option(
        None, "--topic", help="Only this branch (a topic string) and the objects above it."
    ),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Show a queue manager's topic tree: its objects, the clustered objects it sees, which win, and its
    subscriptions, with the attributes MQ uses at each point."""
    from mqctl.services.views import tree_view

    with reading() as store:
        view = tree_view(store, qmgr, topic)
    if output is Output.json:
        emit_json(view.to_json())
    else:
        from mqctl.render.topic_tree import render_tree

        render_tree(view)
