"""`mqctl graph`: the topology as a diagram (Mermaid by default, DOT for Graphviz, JSON for programs)."""

from __future__ import annotations

import typer

from mqctl.cli.apps import sub_app
from mqctl.cli.common import reading
from mqctl.cli.pictures import GraphOutput, emit_diagram

app = sub_app()


@app.command("graph")
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
    from mqctl.services.views import graph_topology

    if topic is not None:
        try:
            validate_topic(topic, Dialect.MQ)
        except TopicSyntaxError as err:
            err.attribute = "--topic"
            raise
    with reading() as store:
        topology = graph_topology(store, topic, clusters=cluster, nodes=node)
    emit_diagram(topology_diagram(topology, clusters=cluster, nodes=node, topic=topic), output)
