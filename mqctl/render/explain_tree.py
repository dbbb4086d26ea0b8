"""The explain tree for people: the journey hop by hop, the misses with their reasons, the warnings."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console
    from rich.tree import Tree

    from mqctl.domain.explanation import Delivery, Explanation, Failures, Hop
    from mqctl.domain.model import Topology


def render(result: Explanation, topology: Topology | None = None, failures: Failures | None = None) -> None:
    """A Rich tree of the journey, then the misses with their reasons, then the warnings.

    ``topology``, the model explained, lets a route hop say who defines the route; ``failures`` marks a
    hop to a node that is down, or over a link that is down, in words."""
    from mqctl.render.console import console as make_console

    tree = _journey(result, topology, failures)
    console = make_console()
    console.print(tree)
    if not result.deliveries:
        console.print("No subscription receives this publication.")
    _topic_hosts(console, result)
    _misses_and_warnings(console, result)


def _journey(result: Explanation, topology: Topology | None, failures: Failures | None) -> Tree:
    """The publication and where it resolves, then one branch per hop, shared by the deliveries whose
    paths take it, and the hops to topic hosts that reach no subscriber."""
    from mqctl.render.safe_text import markup as e
    from mqctl.render.wording import NO_SUBSCRIBER, hop_links, hop_phrase, unreached_host_hops

    links = hop_links(result, topology.routes) if topology is not None else None
    tree, origin = _root(result)
    pub = result.publication
    branches: dict[tuple[str, ...], Tree] = {(pub.from_node,): origin}
    for d in result.deliveries:
        node_key: tuple[str, ...] = (pub.from_node,)
        parent = origin
        for hop in d.hops:
            node_key = (*node_key, hop.to_node)
            if node_key not in branches:
                label = (
                    f"-> {e(hop.to_node)}  [dim]via {e(hop_phrase(hop, links))}[/dim]{_down(hop, failures)}"
                )
                if hop.selector:
                    label += f"  [dim]route selector: {e(hop.selector)}[/dim]"
                branches[node_key] = parent.add(label)
            parent = branches[node_key]
        _delivery(parent, d)
    for hop in unreached_host_hops(result):  # it carries the publication even when nobody gets it
        origin.add(
            f"-> {e(hop.to_node)}  [dim]via {e(hop_phrase(hop))}[/dim]{_down(hop, failures)}  "
            f"[yellow]{NO_SUBSCRIBER}[/yellow]"
        )
    return tree


def _root(result: Explanation) -> tuple[Tree, Tree]:
    """The tree's title (the publication, its properties) and its first branch: where the topic resolves
    on the publishing node."""
    from rich.tree import Tree

    from mqctl.render.safe_text import markup as e

    pub = result.publication
    props = ", ".join(f"{k}={getattr(v, 'value', v)!r}" for k, v in sorted(pub.properties.items()))
    res = result.resolved
    where = (
        f"resolves to {res.object} ({res.topicstr})"
        if res.object
        else "resolves to the root (no topic object)"
    )
    if res.cluster:
        where += f", cluster {res.cluster}, CLROUTE {res.clroute}"
    tree = Tree(
        f"[bold]{e(pub.topic)}[/bold] published on [bold]{e(pub.from_node)}[/bold]"
        + (f" ({e(props)})" if props else "")
    )
    return tree, tree.add(e(f"{pub.from_node} {where}"))


def _delivery(parent: Tree, d: Delivery) -> None:
    """A delivery's leaf at the end of its path, with its unsupported path and its alternatives."""
    from mqctl.render.safe_text import markup as e
    from mqctl.render.wording import UNSUPPORTED, delivery_status

    unsupported = d.unsupported
    leaf = parent.add(
        (
            f"[green]delivered[/green] to sub [bold]{e(d.subscription)}[/bold] on {e(d.node)}"
            if d.status == "delivered"
            else f"[yellow]{e(delivery_status(d))}[/yellow]"
        )
        # on the delivery itself: in an incident "delivered" must not read as "this works"
        + (f"  [red]{UNSUPPORTED} ({unsupported.rule})[/red]" if unsupported is not None else "")
    )
    if unsupported is not None:
        leaf.add(f"[red]{unsupported.rule} {unsupported.code}[/red]: {e(unsupported.message)}")
    for alt in d.alternatives:
        leaf.add(f"[dim]alternative path: {e(' -> '.join(alt))}[/dim]")
    if d.more_alternatives:
        leaf.add(f"[dim]... and {d.more_alternatives} more alternative paths[/dim]")


def _topic_hosts(console: Console, result: Explanation) -> None:
    """The topic hosts the publisher chooses among, with the one the path took."""
    from mqctl.render.safe_text import markup as e

    if not result.topic_hosts:
        return
    publisher = result.publication.from_node
    console.print(
        f"\n[bold]Topic hosts[/bold] {e(publisher)} chooses among (rank, then availability, priority, weight)"
    )
    for h in result.topic_hosts:
        state = "available" if h.available else "[red]not available[/red]"
        chosen = ", [green]the path's host[/green]" if h.chosen else ""
        console.print(
            f"  {e(h.node)}: rank {h.rank}, priority {h.priority}, weight {h.weight}, {state}, "
            f"share {h.share:.0%}{chosen}"
        )


def _misses_and_warnings(console: Console, result: Explanation) -> None:
    """The subscriptions not delivered, each with its reason, then the warnings."""
    from mqctl.render.safe_text import markup as e

    if result.not_delivered:
        console.print("\n[bold]Not delivered[/bold]")
        for n in result.not_delivered:
            console.print(f"  {e(n.subscription)} on {e(n.node)}: [red]{e(n.reason)}[/red] - {e(n.detail)}")
    if result.warnings:
        console.print("\n[bold]Warnings[/bold]")
        for w in result.warnings:
            console.print(f"  [yellow]{w.code}[/yellow] - {e(w.message)}")


def _down(hop: Hop, failures: Failures | None) -> str:
    """``  DOWN`` after a hop to a node that is down, ``  link down`` over a link that is down."""
    if failures is None:
        return ""
    if failures.node_down(hop.to_node):
        return "  [red]DOWN[/red]"
    if failures.link_down(hop.from_node, hop.to_node):
        return "  [red]link down[/red]"
    return ""
