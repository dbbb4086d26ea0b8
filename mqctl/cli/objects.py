"""The object verbs (define, alter, display, delete): their groups with every object type's commands."""

from __future__ import annotations

from mqctl.cli import mqobjects, nodes, observed, routes, topic_tree, topics  # noqa: F401  (register the commands)
from mqctl.cli.apps import alter_app, define_app, delete_app, display_app

__all__ = ["alter_app", "define_app", "delete_app", "display_app"]
