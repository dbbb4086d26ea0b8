"""Changes a product refuses as one step (issue 34): a finding of ``diff``, with ``plan``'s hint.

MQ refuses ``CLROUTE`` on a topic object while ``CLUSTER`` is set (IBM, "Routing for publish/subscribe
clusters: Notes on behavior"); EMS refuses a route's ``zone_name``/``zone_type`` once it exists. Either
change, written as one edit, is what an administrator cannot apply: ``mqctl plan`` gives the steps.
"""

from __future__ import annotations

from mqctl.domain.diff.objects import ObjectChange
from mqctl.domain.model import Dialect, Topology
from mqctl.domain.validation.catalogue import ERROR, Rule
from mqctl.domain.validation.findings import Finding, Source

REFUSED_AS_ONE_STEP = Rule(
    "MQD005",
    "REFUSED_AS_ONE_STEP",
    ERROR,
    "A change the product refuses as one command: it has to be rolled out in steps.",
    "MQ refuses CLROUTE while the topic object is in a cluster (IBM, 'Routing for publish/subscribe "
    "clusters: Notes on behavior'); EMS refuses a route's zone once it exists. Applied in the order the "
    "product needs, the topic leaves the cluster for a while (semantics §9, Transitions).",
    "Run mqctl plan BEFORE AFTER: CLUSTER(' '), then CLROUTE, then CLUSTER(name), with the window named.",
)


def _attribute(change: ObjectChange, name: str) -> tuple[str | None, str | None] | None:
    for a in change.attributes:
        if a.name == name:
            return a.before, a.after
    return None


def refused(changes: list[ObjectChange], before: Topology, after: Topology) -> list[Finding]:
    """Every change of ``changes`` (between ``before`` and ``after``) a product refuses as one command."""
    out: list[Finding] = []
    for c in changes:
        if c.change != "changed":
            continue
        if c.kind == "topic" and c.dialect is Dialect.MQ and _attribute(c, "clroute") is not None:
            was = next((t for t in before.topics if t.node == c.node and t.name == c.name), None)
            now = next((t for t in after.topics if t.node == c.node and t.name == c.name), None)
            if was is None or now is None or not was.cluster.strip() or not now.cluster.strip():
                continue
            before_c, after_c = was.cluster, now.cluster
            clroute = _attribute(c, "clroute")
            assert clroute is not None
            message = (
                f"topic {c.name} at {c.node}: {clroute[0]} -> {clroute[1]} while it is in cluster "
                f"{before_c}: MQ refuses it as one command; mqctl plan gives the steps "
                f"(CLUSTER(' '), then CLROUTE, then CLUSTER({after_c}))"
            )
        elif c.kind == "route" and any(a.name in ("zone_name", "zone_type") for a in c.attributes):
            message = (
                f"route {c.name} at {c.node}: its zone cannot change once it exists; delete and create it "
                "again (mqctl plan gives the steps)"
            )
        else:
            continue
        sources = () if c.source is None else (Source(*c.source),)
        out.append(
            Finding(REFUSED_AS_ONE_STEP, message, (f"{c.kind} {c.name} at {c.node}",), (c.node,), sources)
        )
    return out
