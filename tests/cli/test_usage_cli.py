"""Issue 25's command-line habits, through the real entry point: MQSC's case-insensitivity, usage errors
as one line with the nearest option, a display filtered by a node that does not exist, line separators
escaped in error lines."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import click
import pytest
import typer

from mqctl.cli.main import app
from tests.conftest import Result, run_cli


def _commands() -> Iterator[tuple[list[str], click.Command]]:
    """Every command of the tree, leaves and groups, with its path (the lazy group is walked too)."""
    root = typer.main.get_command(app)
    stack: list[tuple[list[str], click.Command]] = [([], root)]
    while stack:
        path, command = stack.pop()
        yield path, command
        if isinstance(command, click.Group):
            ctx = click.Context(command, info_name="mqctl")
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                assert sub is not None, name
                stack.append(([*path, name], sub))


COMMANDS = sorted(" ".join(path) for path, _ in _commands())


def test_the_walk_finds_the_command_tree() -> None:
    assert {"", "define qmgr", "display topic", "explain", "db upgrade", "import snapshot"} <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_reports_a_bad_option_in_one_line(command: str, tmp_path: Path) -> None:
    result = run_cli([*command.split(), "--no-such-option-here"], db=str(tmp_path / "s.db"))
    assert result.exit_code == 2, result
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("mqctl: error: "), result.stderr
    assert "no such option --no-such-option-here" in result.stderr
    assert "╭" not in result.stderr and "Usage:" not in result.stderr
    assert not (tmp_path / "s.db").exists()  # refused before the store is opened


def test_the_nearest_option_is_named(tmp_path: Path) -> None:
    result = run_cli(["define", "qmgr", "QM1", "--clustr", "EU"], db=str(tmp_path / "s.db"))
    assert (result.exit_code, result.stderr) == (
        2,
        "mqctl: error: define qmgr: no such option --clustr; did you mean --cluster?\n",
    )


def test_a_misspelt_command_names_the_nearest(tmp_path: Path) -> None:
    result = run_cli(["defne", "qmgr", "QM1"], db=str(tmp_path / "s.db"))
    assert (result.exit_code, result.stderr) == (
        2,
        "mqctl: error: no such command defne; did you mean define?\n",
    )


def test_a_missing_option_and_a_bad_choice_are_one_line(tmp_path: Path) -> None:
    for args in (["define", "sub", "S", "--qmgr", "QM1"], ["graph", "-o", "svg"]):
        result = run_cli(args, db=str(tmp_path / "s.db"))
        assert result.exit_code == 2, result
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("mqctl: error: "), result.stderr


def test_help_and_version_still_exit_0(tmp_path: Path) -> None:
    assert run_cli(["define", "qmgr", "-h"]).exit_code == 0
    version = run_cli(["--version"])
    assert version.exit_code == 0 and version.stdout.startswith("mqctl ")


def test_options_commands_and_enumerations_in_any_case(cli: Callable[..., Result]) -> None:
    assert cli("DEFINE", "QMGR", "QM1", "--CLUSTER", "EU").exit_code == 0
    result = cli(
        "define",
        "topic",
        "T",
        "--QMGR",
        "QM1",
        "--TopicStr",
        "/a",
        "--cluster",
        "EU",
        "--clroute",
        "TopicHost",
    )
    assert result.exit_code == 0, result
    shown = cli("Display", "Topic", "T", "-o", "JSON")
    assert shown.exit_code == 0, shown
    (topic,) = shown.json()  # type: ignore[misc]
    assert (topic["cluster"], topic["clroute"]) == ("EU", "TOPICHOST")
    (qmgr,) = cli("display", "qmgr", "QM1", "--OUTPUT", "json").json()  # type: ignore[misc]
    assert qmgr["clusters"] == ["EU"]
    graph = cli("graph", "-o", "DOT")
    assert graph.exit_code == 0 and "digraph mqctl {" in graph.stdout, graph


def _display_commands_with_a_node_filter() -> list[tuple[str, str]]:
    root = typer.main.get_command(app)
    ctx = click.Context(root, info_name="mqctl")
    display = root.get_command(ctx, "display")
    assert isinstance(display, click.Group)
    out = []
    for name in display.list_commands(ctx):
        command = display.get_command(ctx, name)
        assert command is not None
        for param in command.params:
            if isinstance(param, click.Option) and "--qmgr" in param.opts:
                out.append((name, "EMS server" if name.startswith("route") else "queue manager"))
    return out


NODE_FILTERED = _display_commands_with_a_node_filter()


def test_the_node_filtered_displays_are_found() -> None:
    assert {"topic", "sub", "tree", "namelist", "channel", "membership", "route"} <= {
        n for n, _ in NODE_FILTERED
    }


@pytest.mark.parametrize(("command", "what"), NODE_FILTERED)
def test_a_display_for_a_node_that_does_not_exist_is_a_usage_error(
    cli: Callable[..., Result], command: str, what: str
) -> None:
    assert cli("define", "qmgr", "QM1").exit_code == 0
    result = cli("display", command, "--qmgr", "NOSUCH")
    assert result.exit_code == 2, result
    assert result.stderr.count("\n") == 1, result.stderr
    if command == "proxies":  # the object-first form with the nearest name (explain's wording)
        assert "NOSUCH --qmgr: no such queue manager" in result.stderr
    else:
        assert f"no such {what} NOSUCH" in result.stderr
    assert result.stdout == ""
    # a node that exists but holds nothing is still a negative answer, as before
    if command != "tree":
        assert cli("display", command, "--qmgr", "QM1").exit_code == 1


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\r", "\x0b", "\x1c"])
def test_line_separators_are_escaped_in_the_error_line(sqlite_url: str, separator: str) -> None:
    assert run_cli(["define", "qmgr", "QM1"], db=sqlite_url).exit_code == 0
    bad = run_cli(
        ["define", "sub", f"S{separator}X", "--qmgr", "QM1", "--topicstr", "/a", "--selector", "a >"],
        db=sqlite_url,
    )
    bad_name = run_cli(["define", "qmgr", f"Q{separator}X"], db=sqlite_url)
    for result in (bad, bad_name):
        assert result.exit_code == 2, result
        line = result.stderr
        assert separator not in line, repr(line)
        assert len(line.splitlines()) == 1, repr(line)
        assert "\\" in line, repr(line)  # written as an escape, not dropped


def test_brackets_in_an_error_line_are_printed_literally_once(sqlite_url: str) -> None:
    """An error line is escaped once, at the entry point, and never as Rich markup: a value's brackets
    are shown as given (``[bold]`` restyles nothing and gains no backslash)."""
    assert run_cli(["define", "qmgr", "QM1"], db=sqlite_url).exit_code == 0
    script = run_cli(["runmqsc", "QM1"], db=sqlite_url, stdin="DEFINE TOPIC('T[bold]1') TOPICSTR('/a')\n")
    usage = run_cli(["display", "topic", "-o", "x[bold]y"], db=sqlite_url)
    command = run_cli(["defin[e]", "qmgr", "QM1"], db=sqlite_url)
    assert script.exit_code == 2, script
    assert script.stderr.count("topic T[bold]1: character '[' is not allowed") == 1, script.stderr
    assert (usage.exit_code, usage.stderr) == (
        2,
        "mqctl: error: display topic: invalid value for '--output' / '-o': 'x[bold]y' is not one of "
        "'table', 'json'.\n",
    )
    assert (command.exit_code, command.stderr) == (
        2,
        "mqctl: error: no such command defin[e]; did you mean define?\n",
    )
    for result in (script, usage, command):
        assert "\\[" not in result.stderr, result.stderr


def test_a_byte_not_utf8_in_a_usage_error_is_escaped_once(tmp_path: Path) -> None:
    result = run_cli(["define", "qmgr", "QM1", "--clu\udcffster"], db=str(tmp_path / "s.db"))
    assert (result.exit_code, result.stderr) == (
        2,
        "mqctl: error: define qmgr: no such option --clu\\udcffster; did you mean --cluster?\n",
    )


def test_an_error_line_with_a_control_or_a_byte_not_utf8_is_escaped_once(sqlite_url: str) -> None:
    """A domain error's line is escaped once, by the entry point (``MqctlError.plain_line`` then
    ``text.error_line``): each character is its one escape, the escape's backslash is not escaped again."""
    assert run_cli(["define", "qmgr", "QM1"], db=sqlite_url).exit_code == 0
    control = run_cli(["display", "sub", "*", "--qmgr", "Q\x1b[2J\u2028"], db=sqlite_url)
    assert (control.exit_code, control.stderr) == (
        2,
        "mqctl: error: --qmgr: no such queue manager Q\\x1b[2J\\u2028\n",
    )
    byte = run_cli(["display", "sub", "*", "--qmgr", "Q\x1b\udcff"], db=sqlite_url)
    assert (byte.exit_code, byte.stderr) == (
        2,
        "mqctl: error: 'Q\\x1b\\udcff' is not valid text: byte 0xFF cannot be decoded as UTF-8 (character 3)\n",
    )
