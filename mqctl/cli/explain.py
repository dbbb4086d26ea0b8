"""`mqctl explain`: where one publication goes, hop by hop, and why each other subscriber misses it.

A dry run over the model. The path is kept lean: Core queries for the slice (no ORM, no Alembic).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from mqctl.cli.common import OUTPUT_OPTION, Output, emit_json, store_url

if TYPE_CHECKING:
    from mqctl.domain.explanation import Explanation, Failures


def _pairs(values: list[str], option: str, what: str) -> list[tuple[str, str]]:
    from mqctl.domain.errors import InputError

    out = []
    for value in values:
        left, sep, right = value.partition(":")
        if not sep or not left or not right:
            raise InputError(f"{value!r} is not {what}", attribute=option)
        out.append((left, right))
    return out


def _failures(down: list[str], link_down: list[str], offline: list[str]) -> Failures:
    from mqctl.domain.explanation import Failures

    return Failures(
        down=frozenset(down),
        links_down=frozenset(frozenset(p) for p in _pairs(link_down, "--link-down", "NODE:NODE")),
        offline=frozenset(_pairs(offline, "--offline", "NODE:SUB")),
    )


def explain_command(
    from_node: str = typer.Option(..., "--from", help="The publisher's queue manager or EMS server."),
    topic: str = typer.Option(..., "--topic", help="The concrete topic published on."),
    prop: list[str] = typer.Option([], "--prop", help="Message property NAME[:TYPE]=VALUE (repeatable)."),
    header: list[str] = typer.Option([], "--header", help="JMS header, e.g. JMSPriority=7."),
    down: list[str] = typer.Option([], "--down", help="A node that is down (repeatable)."),
    link_down: list[str] = typer.Option([], "--link-down", help="A link that is down, NODE:NODE."),
    offline: list[str] = typer.Option([], "--offline", help="A subscriber that is offline, NODE:SUB."),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Explain how one publication routes (dry run: nothing is sent anywhere)."""
    from mqctl.domain.explanation import Publication
    from mqctl.domain.messages import Message, parse_header, parse_property
    from mqctl.domain.routing import explain
    from mqctl.store.engine import open_store
    from mqctl.store.slice import load_slice

    properties = dict(parse_property(p) for p in prop)
    headers = dict(Message.create(properties, dict(parse_header(h) for h in header)).headers)
    failures = _failures(down, link_down, offline)
    engine = open_store(store_url())
    try:
        with engine.connect() as conn:
            topology = load_slice(conn, from_node, topic, failures)
    finally:
        engine.dispose()
    result = explain(topology, Publication(from_node, topic, properties, headers), failures)
    if output is Output.json:
        emit_json(result.to_json())
    else:
        render(result)


def render(result: Explanation) -> None:
    """A Rich tree of the journey, then the misses with their reasons, then the warnings."""
    from rich.console import Console
    from rich.tree import Tree

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
        f"[bold]{pub.topic}[/bold] published on [bold]{pub.from_node}[/bold]"
        + (f" ({props})" if props else "")
    )
    origin = tree.add(f"{pub.from_node} {where}")
    branches: dict[tuple[str, ...], Tree] = {(pub.from_node,): origin}
    for d in result.deliveries:
        node_key: tuple[str, ...] = (pub.from_node,)
        parent = origin
        for hop in d.hops:
            node_key = (*node_key, hop.to_node)
            if node_key not in branches:
                label = f"-> {hop.to_node}  [dim]via {hop.via} {hop.name}[/dim]"
                if hop.selector:
                    label += f"  [dim]route selector: {hop.selector}[/dim]"
                branches[node_key] = parent.add(label)
            parent = branches[node_key]
        status = (
            "[green]delivered[/green]"
            if d.status == "delivered"
            else f"[yellow]stored at {d.stored_at}[/yellow]"
        )
        leaf = parent.add(f"{status} to sub [bold]{d.subscription}[/bold] on {d.node}")
        for alt in d.alternatives:
            leaf.add(f"[dim]alternative path: {' -> '.join(alt)}[/dim]")
        if d.more_alternatives:
            leaf.add(f"[dim]... and {d.more_alternatives} more alternative paths[/dim]")
    console = Console(highlight=False)
    console.print(tree)
    if not result.deliveries:
        console.print("No subscription receives this publication.")
    if result.topic_hosts:
        console.print(
            f"\n[bold]Topic hosts[/bold] {pub.from_node} chooses among (rank, then availability, priority, weight)"
        )
        for h in result.topic_hosts:
            state = "available" if h.available else "[red]not available[/red]"
            chosen = ", [green]the path's host[/green]" if h.chosen else ""
            console.print(
                f"  {h.node}: rank {h.rank}, priority {h.priority}, weight {h.weight}, {state}, "
                f"share {h.share:.0%}{chosen}"
            )
    if result.not_delivered:
        console.print("\n[bold]Not delivered[/bold]")
        for n in result.not_delivered:
            console.print(f"  {n.subscription} on {n.node}: [red]{n.reason}[/red] - {n.detail}")
    if result.warnings:
        console.print("\n[bold]Warnings[/bold]")
        for w in result.warnings:
            console.print(f"  [yellow]{w.code}[/yellow] - {w.message}")


def register(app: typer.Typer) -> None:
    app.command("explain")(explain_command)
