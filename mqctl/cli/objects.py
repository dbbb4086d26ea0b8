"""The object verbs (define, alter, display, delete): their groups, which import each object type's
module when that type is asked for (``cli.apps.ObjectVerb``)."""

from __future__ import annotations

from mqctl.cli.apps import alter_app, define_app, delete_app, display_app

__all__ = ["alter_app", "define_app", "delete_app", "display_app"]
