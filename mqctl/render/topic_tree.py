"""A queue manager's topic tree for people (``display tree``): objects, set-aside clustered objects,
conflicts and subscriptions at each topic string, with the attributes MQ uses there."""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING

from mqctl.render.console import all_plain, console, plain_output

if TYPE_CHECKING:
    from mqctl.domain.tree_view import TreeNode, TreeView


Branch = tuple[str, list["Branch"]]
"""A label in Rich markup and the branches below it."""


def render_tree(view: TreeView) -> None:
    """The view as a Rich tree on stdout (written directly for a pipe, as ``plain_tree``)."""
    top = _outline(view)
    if plain_output():
        text = plain_tree(top)
        if text is not None:
            sys.stdout.write(text)
            return
    from rich.tree import Tree

    def grow(tree: Tree, branches: list[Branch]) -> None:
        for label, below in branches:
            grow(tree.add(label), below)

    root = Tree(top[0])
    grow(root, top[1])
    console().print(root)


def escape(text: str) -> str:
    """Rich's ``markup.escape``; text it leaves as it is (no '[', no trailing backslash) without loading
    Rich: a piped tree never needs it."""
    if "[" not in text and not text.endswith("\\"):
        return text
    from mqctl.render.safe_text import markup as rich_escape

    return rich_escape(text)


def _outline(view: TreeView) -> Branch:
    from mqctl.domain.model import SubScope, WSchema

    clusters = ", ".join(view.clusters) or "none"
    title = f"Topic tree of [bold]{escape(view.qmgr)}[/bold] (clusters: {escape(clusters)})"
    if view.topic is not None:
        title += f", branch '{escape(view.topic)}'"
    top: Branch = (title, [])
    branches: dict[str, Branch] = {}
    for node in view.nodes:
        parent = top if node.parent is None else branches[node.parent]
        here = branches[node.topicstr] = (_label(view, node), [])
        parent[1].append(here)
        for aside in node.set_aside:
            o = aside.object
            here[1].append(
                (
                    f"[red]set aside[/red] {escape(o.name)} (cluster {escape(o.cluster)}, on "
                    f"{escape(o.node)}): {escape(aside.detail)}",
                    [],
                )
            )
        for conflict in node.conflicts:
            here[1].append((f"[yellow]{conflict.kind}[/yellow] {escape(conflict.describe())}", []))
        for at in node.subscriptions:
            s = at.subscription
            line = f"sub [bold]{escape(s.name)}[/bold] '{escape(s.topicstr)}'"
            line += " durable" if s.durable else " non-durable"
            if s.selector:
                line += f", selector {escape(s.selector)}"
            if s.subscope == SubScope.QMGR:
                line += ", SUBSCOPE(QMGR)"
            if s.wschema == WSchema.CHAR:
                line += ", WSCHEMA(CHAR)"
            if at.note:
                line += f"\n[yellow]{escape(at.note)}[/yellow]"
            here[1].append((line, []))
    return top


_STYLES = re.compile(r"\[/?(?:bold|dim|red|yellow)\]")
"""The markup tags the labels use (and nothing else)."""


def plain_tree(top: Branch) -> str | None:
    """The bytes Rich prints for this tree on a console of unlimited width (a pipe, a file), written
    directly: Rich lays out every label through its text engine, most of ``display tree``'s time. None
    when a label holds anything Rich would interpret beyond the tags (escaped brackets, emoji codes,
    control characters, edge spaces, blank lines): those go through Rich."""
    out: list[str] = []
    lines: list[str] = []
    stack: list[tuple[Branch, str, str]] = [(top, "", "")]
    while stack:
        (label, below), first, rest = stack.pop()
        text = _STYLES.sub("", label)
        if "[" in text or "]" in text or "\\" in text:
            return None
        for i, line in enumerate(text.split("\n")):
            out.append((rest if i else first) + line + "\n")
            lines.append(line)
        for j in range(len(below) - 1, -1, -1):
            last = j == len(below) - 1
            stack.append((below[j], rest + ("└── " if last else "├── "), rest + ("    " if last else "│   ")))
    if not all(lines) or not all_plain(lines):
        return None
    return "".join(out)


def _label(view: TreeView, node: TreeNode) -> str:
    from mqctl.domain.model import ClRoute, Enablement
    from mqctl.domain.resolution import ROOT_NAME

    res = node.resolution
    obj = node.object
    head = f"[bold]{ROOT_NAME}[/bold] (root)" if node.is_root else f"[bold]'{escape(node.topicstr)}'[/bold]"
    if obj is not None:
        if obj.node == view.qmgr:
            where = "local" if not obj.cluster else f"local, clustered in {escape(obj.cluster)}"
        else:
            where = f"clustered in {escape(obj.cluster)}, defined on {escape(', '.join(node.defined_on))}"
        head += f"  {escape(obj.name)} ({where})"
    elif not node.is_root:
        head += f"  [dim]no object: resolves to {escape(res.object_name)}[/dim]"
    facts = []
    if res.cluster:
        point = res.cluster_point.name if res.cluster_point is not None else ""
        # topic hosts are CLROUTE(TOPICHOST)'s: with DIRECT every member routes the publication itself
        topichost = res.clroute == ClRoute.TOPICHOST
        hosts = f", hosts {', '.join(res.hosts)}" if res.hosts and topichost else ""
        facts.append(f"cluster {res.cluster} CLROUTE({res.clroute}) from {point}{hosts}")
    else:
        facts.append("not clustered")
    facts += [f"PUBSCOPE({res.pubscope})", f"SUBSCOPE({res.subscope})", f"WILDCARD({res.wildcard})"]
    facts.append(f"PROXYSUB({res.proxysub})")
    facts += [
        f"{name}(DISABLED)"
        for name, value in (("PUB", res.pub), ("SUB", res.sub))
        if value == Enablement.DISABLED
    ]
    return f"{head}\n[dim]{escape(' · '.join(facts))}[/dim]"
