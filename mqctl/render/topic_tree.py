"""A queue manager's topic tree for people (``display tree``): objects, set-aside clustered objects,
conflicts and subscriptions at each topic string, with the attributes MQ uses there."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mqctl.render.console import console

if TYPE_CHECKING:
    from mqctl.domain.tree_view import TreeNode, TreeView


def render_tree(view: TreeView) -> None:
    """The view as a Rich tree on stdout."""
    from rich.markup import escape
    from rich.tree import Tree

    clusters = ", ".join(view.clusters) or "none"
    title = f"Topic tree of [bold]{escape(view.qmgr)}[/bold] (clusters: {escape(clusters)})"
    if view.topic is not None:
        title += f", branch '{escape(view.topic)}'"
    top = Tree(title)
    branches: dict[str, Tree] = {}
    for node in view.nodes:
        parent = top if node.parent is None else branches[node.parent]
        here = branches[node.topicstr] = parent.add(_label(view, node))
        for aside in node.set_aside:
            o = aside.object
            here.add(
                f"[red]set aside[/red] {escape(o.name)} (cluster {escape(o.cluster)}, on {escape(o.node)}): "
                f"{escape(aside.detail)}"
            )
        for conflict in node.conflicts:
            here.add(f"[yellow]{conflict.kind}[/yellow] {escape(conflict.describe())}")
        for at in node.subscriptions:
            s = at.subscription
            line = f"sub [bold]{escape(s.name)}[/bold] '{escape(s.topicstr)}'"
            line += " durable" if s.durable else " non-durable"
            if s.selector:
                line += f", selector {escape(s.selector)}"
            if str(s.subscope) == "QMGR":
                line += ", SUBSCOPE(QMGR)"
            if str(s.wschema) == "CHAR":
                line += ", WSCHEMA(CHAR)"
            if at.note:
                line += f"\n[yellow]{escape(at.note)}[/yellow]"
            here.add(line)
    console().print(top)


def _label(view: TreeView, node: TreeNode) -> str:
    from rich.markup import escape

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
        hosts = f", hosts {', '.join(res.hosts)}" if res.hosts else ""
        facts.append(f"cluster {res.cluster} CLROUTE({res.clroute}) from {point}{hosts}")
    else:
        facts.append("not clustered")
    facts += [f"PUBSCOPE({res.pubscope})", f"SUBSCOPE({res.subscope})", f"WILDCARD({res.wildcard})"]
    facts.append(f"PROXYSUB({res.proxysub})")
    facts += [
        f"{name}(DISABLED)"
        for name, value in (("PUB", res.pub), ("SUB", res.sub))
        if str(value) == "DISABLED"
    ]
    return f"{head}\n[dim]{escape(' · '.join(facts))}[/dim]"
