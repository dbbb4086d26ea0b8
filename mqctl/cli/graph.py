"""`mqctl graph`: the topology as a diagram (Mermaid by default, DOT for Graphviz, JSON for programs)."""

from __future__ import annotations

import typer

from mqctl.cli.common import store_url
from mqctl.cli.pictures import GraphOutput, emit_diagram


def graph_command(
    cluster: list[str] = typer.Option([], "--cluster", help="Only the members of this cluster (repeatable)."),
    topic: str | None = typer.Option(
        None,
        "--topic",
        help="Only what matters for this topic string (its cluster point, hosts, subscribers, routes).",
    ),
    node: list[str] = typer.Option(
        [],
        "--node",
        help="Only this queue manager or EMS server (repeatable; with --cluster, beside its members).",
    ),
    output: GraphOutput = typer.Option(
        GraphOutput.mermaid, "--output", "-o", help="mermaid (renders in markdown), dot (Graphviz) or json."
    ),
) -> None:
    """Draw the topology: clusters as groups, queue managers and EMS servers, hierarchy links, EMS routes."""
    from mqctl.domain.model import Dialect
    from mqctl.domain.topics import TopicSyntaxError, validate_topic
    from mqctl.render.graph import topology_diagram
    from mqctl.store.engine import open_store
    from mqctl.store.topology import load_topology

    if topic is not None:
        try:
            validate_topic(topic, Dialect.MQ)
        except TopicSyntaxError as err:
            err.attribute = "--topic"
            raise
    engine = open_store(store_url())
    try:
        with engine.connect() as conn:
            topology = load_topology(conn)
    finally:
        engine.dispose()
    emit_diagram(topology_diagram(topology, clusters=cluster, nodes=node, topic=topic), output)


def register(app: typer.Typer) -> None:
    app.command("graph")(graph_command)
