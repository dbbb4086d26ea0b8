"""docs/cli.md's option lists are generated from the commands (``mqctl.cli.docgen``): the file in the
repository is what the generator writes today, so `-h` and the docs cannot drift."""

from __future__ import annotations

import click

from mqctl.cli import docgen


def test_docs_cli_md_is_up_to_date() -> None:
    current = docgen.CLI_MD.read_text(encoding="utf-8")
    assert docgen.updated(current) == current, (
        "docs/cli.md is out of date: python -m mqctl.cli.docgen --write"
    )


def test_a_stale_option_list_is_rewritten_and_the_prose_kept() -> None:
    current = docgen.CLI_MD.read_text(encoding="utf-8")
    stale = current.replace("- `--clwlrank 0-9` —", "- `--clwlrank 0-10` —", 1)
    assert stale != current
    assert docgen.updated(stale) == current
    assert docgen.main(["--check"]) == 0


def test_every_command_and_option_is_listed() -> None:
    text = docgen.generated()
    for command, ctx in docgen.commands():
        if ctx.parent is not None and isinstance(command, click.Group):
            continue
        assert f"#### `{ctx.command_path}`" in text
        for param in command.params:
            for name in getattr(param, "opts", []):
                if name.startswith("--") and name != "--help" and not getattr(param, "hidden", False):
                    assert f"{name}" in text, (ctx.command_path, name)
