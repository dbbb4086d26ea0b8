"""The object verbs build their commands lazily (``cli.apps.ObjectVerb``): what they list is what the
object modules register (the order they list it in is docs/cli.md's, which its own test keeps current)."""

from __future__ import annotations

import importlib

from mqctl.cli.apps import OBJECT_COMMANDS, VERB_APPS


def test_the_table_of_object_types_is_what_the_modules_register() -> None:
    for module in sorted({m for commands in OBJECT_COMMANDS.values() for _, m in commands}):
        importlib.import_module(f"mqctl.cli.{module}")
    for verb, app in VERB_APPS.items():
        registered = {(i.name, i.callback.__module__.rsplit(".", 1)[1]) for i in app.registered_commands}
        assert set(OBJECT_COMMANDS[verb]) == registered
        assert len(OBJECT_COMMANDS[verb]) == len(registered)
