"""The documentation cannot drift from the Typer app: docs/cli.md names every command, README.md shows
each top-level command."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
import typer

from mqctl.cli.main import app

REPO = Path(__file__).resolve().parents[2]
CLI_MD = (REPO / "docs" / "cli.md").read_text()
README = (REPO / "README.md").read_text()
OBJECT_VERBS = ("define", "alter", "display", "delete")
COMMON_OPTIONS = {"--help", "--output"}


def walk(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """(path, command) for every leaf command of the app, loaded as `mqctl` loads them (lazily)."""
    if isinstance(command, click.Group):
        ctx = click.Context(command)
        for name in command.list_commands(ctx):
            yield from walk(command.get_command(ctx, name), (*path, name))
    else:
        yield path, command


COMMANDS = list(walk(typer.main.get_command(app)))
IDS = [" ".join(p) for p, _ in COMMANDS]


def test_the_walk_finds_the_whole_app() -> None:
    found = {p[0] for p, _ in COMMANDS}
    assert {"explain", "runmqsc", "tibemsadmin", "import", "export", "db", *OBJECT_VERBS} <= found
    assert len(COMMANDS) > 40


def object_row(obj: str) -> bool:
    """The object table of docs/cli.md ("Objects: define / alter / display / delete") has a row for obj."""
    return re.search(rf"^\| `{re.escape(obj)}` \|", CLI_MD, re.M) is not None


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=IDS)
def test_every_command_is_in_cli_md(path: tuple[str, ...], command: Any) -> None:
    """Object verbs are documented by the verb heading and the object's table row; the rest by name.
    Every long option (but --help and -o/--output) is mentioned too."""
    name = " ".join(path)
    if path[0] in OBJECT_VERBS and len(path) == 2:
        heading = re.search(r"^## Objects: (.*)$", CLI_MD, re.M)
        assert heading and path[0] in heading.group(1), f"docs/cli.md: no '## Objects' heading with {path[0]}"
        assert object_row(path[1]), f"docs/cli.md: no row for `{path[1]}` in the object table"
    else:
        assert re.search(rf"(mqctl |`){re.escape(name)}\b", CLI_MD), f"docs/cli.md does not mention `{name}`"
    options = {o for p in command.params for o in getattr(p, "opts", []) if o.startswith("--")}
    missing = sorted(o for o in options - COMMON_OPTIONS if o not in CLI_MD)
    assert not missing, f"docs/cli.md does not mention {missing} of `{name}`"


@pytest.mark.parametrize("top", sorted({p[0] for p, _ in COMMANDS}))
def test_readme_shows_each_top_level_command(top: str) -> None:
    assert re.search(rf"^mqctl {re.escape(top)}\b", README, re.M), f"README.md never shows `mqctl {top}`"


def test_readme_mermaid_sample_reads_back_with_its_legend() -> None:
    """The README's explain picture is one mqctl draws today: the strict reader takes it, with the legend
    every picture carries, the cluster group, a node down said in words, a reason short in its shape."""
    from tests.render.mermaid_grammar import parse

    (block,) = re.findall(r"```mermaid\n(.*?)```", README, re.S)
    chart = parse(block)
    assert chart.legend and [g[0] for g in chart.groups.values()] == [["cluster USA"]]
    assert chart.nodes[chart.node_named("QM3")] == ["QM3", "DOWN"]
    assert chart.nodes[chart.node_named("sub EVERYTHING")][1] == "not delivered: WILDCARD_ABOVE_CLUSTER [1]"
    assert chart.notes and chart.notes[0][0].startswith("[1] sub EVERYTHING on QM1: WILDCARD_ABOVE_CLUSTER.")
