"""docs/cli.md's option lists, generated from the commands themselves so that help and docs cannot drift.

    python -m mqctl.cli.docgen --write    # rewrite the generated part of docs/cli.md
    python -m mqctl.cli.docgen --check    # exit 1 when it is out of date (tests/cli/test_docgen.py)

Only the text between the two markers is generated (as sqlite-utils does with cog); the prose, the
tables and the JSON shapes around it are written by hand. Each entry is click's own help record of a
parameter (``Parameter.get_help_record``), the text ``-h`` prints.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import click
import typer

BEGIN = "<!-- BEGIN GENERATED: option lists (python -m mqctl.cli.docgen --write) -->"
END = "<!-- END GENERATED: option lists -->"
CLI_MD = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def _context(command: click.Command, name: str, parent: click.Context | None) -> click.Context:
    return command.context_class(command, info_name=name, parent=parent, **command.context_settings)


def commands() -> Iterator[tuple[click.Command, click.Context]]:
    """The top-level group, then every command in name order, each with the context ``mqctl`` gives it."""
    from mqctl.cli.main import app

    def walk(command: click.Command, ctx: click.Context) -> Iterator[tuple[click.Command, click.Context]]:
        yield command, ctx
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                if sub is not None and not sub.hidden:
                    yield from walk(sub, _context(sub, name, ctx))

    root = typer.main.get_command(app)
    yield from walk(root, _context(root, "mqctl", None))


def _entry(command: click.Command, ctx: click.Context) -> list[str]:
    usage = " ".join([ctx.command_path, *command.collect_usage_pieces(ctx)])
    summary = " ".join((command.help or "").split("\n\n")[0].split())
    lines = [f"#### `{ctx.command_path}`", "", f"`{usage}`" + (f" — {summary}" if summary else ""), ""]
    helps = set(ctx.help_option_names)
    for param in command.get_params(ctx):
        if isinstance(param, click.Option) and (param.hidden or set(param.opts) & helps):
            continue
        record = param.get_help_record(ctx)
        if record is None:
            continue
        names, text = record
        text = " ".join(text.split())
        lines.append(f"- `{names}`" + (f" — {text}" if text else ""))
    return [*lines, ""] if lines[-1] else lines


def generated() -> str:
    """The text between the markers: every command's usage line and options (``-h`` on every one)."""
    out = [
        "Every command takes `-h`/`--help`. Option names, command names and enumeration values are",
        "case-insensitive (`--CLUSTER`, `-o JSON`).",
        "",
    ]
    for command, ctx in commands():
        if isinstance(command, click.Group) and ctx.parent is not None:
            continue  # a verb group has no options of its own: its commands are listed
        out += _entry(command, ctx)
    return "\n".join(out).rstrip("\n") + "\n"


def updated(document: str) -> str:
    """``document`` with the generated part replaced (the markers must be there, once each)."""
    if document.count(BEGIN) != 1 or document.count(END) != 1:
        raise SystemExit(f"{CLI_MD}: the markers {BEGIN!r} and {END!r} must each appear once")
    head, rest = document.split(BEGIN)
    _, tail = rest.split(END)
    return f"{head}{BEGIN}\n{generated()}{END}{tail}"


def main(argv: list[str]) -> int:
    if argv not in (["--write"], ["--check"]):
        sys.stderr.write("usage: python -m mqctl.cli.docgen --write|--check\n")
        return 2
    current = CLI_MD.read_text(encoding="utf-8")
    wanted = updated(current)
    if argv == ["--write"]:
        if wanted != current:
            CLI_MD.write_text(wanted, encoding="utf-8")
        return 0
    if wanted != current:
        sys.stderr.write(f"{CLI_MD} is out of date: run python -m mqctl.cli.docgen --write\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
