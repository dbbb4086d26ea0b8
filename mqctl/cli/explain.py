"""`mqctl explain`: where one publication goes, hop by hop, and why each other subscriber misses it.

A dry run over the model. The path is kept lean: Core queries for the slice (no ORM, no Alembic).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import typer

from mqctl.cli.apps import sub_app
from mqctl.cli.common import emit_json, hint, reading
from mqctl.cli.pictures import ExplainOutput, emit_diagram

app = sub_app()

if TYPE_CHECKING:
    from mqctl.domain.explanation import Explanation, Failures
    from mqctl.domain.model import Topology
    from mqctl.store.repository import Store


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


def _hint_leading_slash(store: Store, qmgr: str, topic: str) -> None:
    from mqctl.domain.topics import misses_leading_slash

    if topic.startswith("/"):
        return  # the usual case answers without a query
    from mqctl.store.read_models import topic_string_starts

    if misses_leading_slash(topic, topic_string_starts(store, qmgr)):
        hint(
            f"every topic string in {qmgr}'s topic tree and subscriptions starts with '/', and {topic!r} "
            f"does not ('/USA' and 'USA' differ): did you mean '/{topic}'?"
        )


@app.command("explain")
def explain_command(
    from_node: str = typer.Option(
        ..., "--from", metavar="NODE", help="The publisher's queue manager or EMS server."
    ),
    topic: str = typer.Option(..., "--topic", metavar="TOPIC", help="The concrete topic published on."),
    prop: list[str] = typer.Option(
        [], "--prop", metavar="NAME[:TYPE]=VALUE", help="Message property (repeatable)."
    ),
    header: list[str] = typer.Option(
        [], "--header", metavar="NAME=VALUE", help="JMS header, e.g. JMSPriority=7."
    ),
    down: list[str] = typer.Option([], "--down", metavar="NODE", help="A node that is down (repeatable)."),
    link_down: list[str] = typer.Option(
        [], "--link-down", metavar="A:B", help="A link that is down (repeatable)."
    ),
    offline: list[str] = typer.Option(
        [], "--offline", metavar="NODE:SUB", help="A subscriber that is offline (repeatable)."
    ),
    observed: bool = typer.Option(
        False,
        "--observed",
        help="Channels observed not RUNNING and hierarchy relations not ACTIVE (import display) are links down.",
    ),
    output: ExplainOutput = typer.Option(
        ExplainOutput.table,
        "--output",
        "-o",
        case_sensitive=False,
        help="table (a tree) for people, json for programs, mermaid or dot for a diagram.",
    ),
) -> None:
    """Explain how one publication routes (dry run: nothing is sent anywhere)."""
    from mqctl.domain.explanation import Publication
    from mqctl.domain.links import check_links_down
    from mqctl.domain.messages import Message, parse_header, parse_property
    from mqctl.domain.model import Dialect
    from mqctl.domain.routing import explain
    from mqctl.domain.valid_text import check_text
    from mqctl.memory import gc_paused
    from mqctl.store.slice import load_slice

    for option, values in (
        ("--from", [from_node]),
        ("--topic", [topic]),
        ("--down", down),
        ("--link-down", link_down),
        ("--offline", offline),
    ):
        for value in values:  # before any of them is looked up in the store
            check_text(value, attribute=option)
    properties = dict(parse_property(p) for p in prop)
    headers = dict(Message.create(properties, dict(parse_header(h) for h in header)).headers)
    failures = _failures(down, link_down, offline)
    with gc_paused():  # a large slice is tens of thousands of small objects: no collection over them
        with reading() as store:
            seen = _observed_links(store) if observed else {}
            given = failures.links_down
            failures = dataclasses.replace(failures, links_down=given | frozenset(seen))
            topology = load_slice(store.conn, from_node, topic, failures)
            seen = _linked(topology, seen)
            failures = dataclasses.replace(failures, links_down=given | frozenset(seen))
            check_links_down(topology, failures.links_down)
            if topology.nodes[from_node].dialect is Dialect.MQ:
                _hint_leading_slash(store, from_node, topic)
        result = explain(topology, Publication(from_node, topic, properties, headers), failures)
    notes = [
        {"link": sorted(pair), "observation": text}
        for pair, text in sorted(seen.items(), key=lambda i: sorted(i[0]))
    ]
    if output is ExplainOutput.json:
        emit_json({**result.to_json(), "observed_links_down": notes} if observed else result.to_json())
    elif output is ExplainOutput.table:
        render(result, topology)
        for note in notes:
            typer.echo(f"observed: link {' - '.join(note['link'])} down: {note['observation']}")
    else:
        from mqctl.render.journey import journey_diagram

        emit_diagram(journey_diagram(result, failures, topology), output)


def _observed_links(store: Store) -> dict[frozenset[str], str]:
    from mqctl.services.observed import observed_links_down

    return observed_links_down(store)


def _linked(topology: Topology, seen: dict[frozenset[str], str]) -> dict[frozenset[str], str]:
    """The observed links down that join two nodes of the slice that the model links."""
    from mqctl.domain.links import linked

    return {
        pair: text
        for pair, text in seen.items()
        if len(pair) == 2 and all(n in topology.nodes for n in pair) and linked(topology, *sorted(pair))
    }


def render(result: Explanation, topology: Topology | None = None) -> None:
    """A Rich tree of the journey, then the misses with their reasons, then the warnings.

    ``topology``, the model explained, lets a route hop say who defines the route."""
    from rich.tree import Tree

    from mqctl.cli.common import console as make_console
    from mqctl.render.wording import delivery_status, hop_links, hop_phrase

    links = hop_links(result, topology.routes) if topology is not None else None

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
                label = f"-> {hop.to_node}  [dim]via {hop_phrase(hop, links)}[/dim]"
                if hop.selector:
                    label += f"  [dim]route selector: {hop.selector}[/dim]"
                branches[node_key] = parent.add(label)
            parent = branches[node_key]
        leaf = parent.add(
            f"[green]delivered[/green] to sub [bold]{d.subscription}[/bold] on {d.node}"
            if d.status == "delivered"
            else f"[yellow]{delivery_status(d)}[/yellow]"
        )
        for alt in d.alternatives:
            leaf.add(f"[dim]alternative path: {' -> '.join(alt)}[/dim]")
        if d.more_alternatives:
            leaf.add(f"[dim]... and {d.more_alternatives} more alternative paths[/dim]")
    console = make_console()
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
