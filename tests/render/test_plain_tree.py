"""``display tree`` written directly for a pipe is byte for byte what Rich prints there (issue 24: the
text stays the same, only faster)."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.markup import escape
from rich.tree import Tree

from mqctl.render.topic_tree import Branch, plain_tree


def rich_tree(top: Branch) -> str:
    def grow(tree: Tree, branches: list[Branch]) -> None:
        for label, below in branches:
            grow(tree.add(label), below)

    root = Tree(top[0])
    grow(root, top[1])
    buf = io.StringIO()
    Console(file=buf, highlight=False, width=1_000_000).print(root)
    return buf.getvalue()


def test_a_topic_tree_is_what_rich_prints() -> None:
    top: Branch = (
        "Topic tree of [bold]QM1[/bold] (clusters: CL1)",
        [
            (
                "[bold]SYSTEM.BASE.TOPIC[/bold] (root)\n[dim]not clustered · PUBSCOPE(ALL)[/dim]",
                [
                    ("[bold]'/Sport'[/bold]  SPORT (local)\n[dim]cluster CL1 · 代码 Ünï[/dim]", []),
                    (
                        "[bold]'/News'[/bold]",
                        [("sub [bold]N[/bold] '/News/#' durable\n[yellow]a note: no proxy[/yellow]", [])],
                    ),
                    ("[red]set aside[/red] X (cluster CL2, on QM2): detail", []),
                ],
            )
        ],
    )
    text = plain_tree(top)
    assert text is not None and text == rich_tree(top)


def test_what_rich_would_interpret_is_left_to_rich() -> None:
    for value in ("[x]", "a:smile:b", "tab\there", " lead", "trail ", "back\\", "blank\n\nline"):
        assert plain_tree((escape(value), [])) is None


CHARS = st.characters(blacklist_categories=("Cs",))
TEXT = st.text(CHARS, max_size=10) | st.sampled_from(["/a/b", "代码", "é", "a b", "x: y", "(1)"])
STYLED = st.tuples(st.sampled_from(["", "bold", "dim", "red", "yellow"]), TEXT).map(
    lambda p: f"[{p[0]}]{escape(p[1])}[/{p[0]}]" if p[0] else escape(p[1])
)
LABELS = st.lists(st.lists(STYLED, min_size=1, max_size=3).map("".join), min_size=1, max_size=3).map(
    "\n".join
)
TREES: st.SearchStrategy[Branch] = st.recursive(
    LABELS.map(lambda label: (label, [])),
    lambda below: st.tuples(LABELS, st.lists(below, max_size=4)),
    max_leaves=12,
)


@settings(max_examples=300)
@given(TREES)
def test_plain_tree_equals_rich_whenever_it_answers(top: Branch) -> None:
    text = plain_tree(top)
    if text is not None:
        assert text == rich_tree(top)
