"""Rules about what a script does, not what the model holds: read from the MQSC text as the files are
read (``validate --file``, ``diff``'s sides), since runmqsc's effect of these commands is not modelled.

- SYSTEM_TOPIC_CLUSTERED: ``CLUSTER`` set on ``SYSTEM.BASE.TOPIC`` or ``SYSTEM.DEFAULT.TOPIC`` (mqctl
  skips commands on predefined objects, so the model never holds it);
- REFRESH_IN_PUBSUB_CLUSTER: ``REFRESH CLUSTER`` or ``REFRESH QMGR TYPE(PROXYSUB)`` in a script of a
  member of a publish/subscribe cluster (known once the whole model is read: ``refresh_findings``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mqctl.domain.errors import InputError
from mqctl.domain.model import Topology
from mqctl.domain.validation import FileRef, Finding, find_rule, finding
from mqctl.domain.validation.findings import ClusterRef

SYSTEM_TOPICS = {"SYSTEM.BASE.TOPIC", "SYSTEM.DEFAULT.TOPIC"}


@dataclass(frozen=True)
class RefreshHit:
    qmgr: str
    file: str
    line: int
    command: str


def scan_script(
    text: str, *, file: str, qmgr: str, locate: Callable[[int], int] = lambda line: line
) -> tuple[list[Finding], list[RefreshHit]]:
    """The findings of one script and its REFRESH commands (judged by ``refresh_findings``)."""
    from mqctl.formats.mqsc.lexer import has_literal_marker, split_commands
    from mqctl.formats.mqsc.parser import parse_command

    if "SYSTEM." not in text.upper() and "REFRESH" not in text.upper() or has_literal_marker(text):
        return [], []
    found: list[Finding] = []
    hits: list[RefreshHit] = []
    for number, logical in enumerate(split_commands(text), start=1):
        if logical.error is not None:
            continue
        try:
            cmd = parse_command(logical, number=number)
        except InputError:
            continue
        line = locate(logical.line)
        if cmd.noun == "TOPIC" and cmd.verb in ("DEFINE", "ALTER") and cmd.name is not None:
            name = cmd.name.text.upper()
            cluster = cmd.params.get("CLUSTER")
            value = cluster.values[0].text.strip() if cluster is not None and cluster.values else ""
            if name in SYSTEM_TOPICS and value:
                found.append(
                    finding(
                        find_rule("SYSTEM_TOPIC_CLUSTERED"),
                        f"{cmd.verb} TOPIC({name}) CLUSTER({value}) on {qmgr}: "
                        + (
                            "the root of the topic tree is clustered, so every topic string of the queue "
                            "manager enters the cluster."
                            if name == "SYSTEM.BASE.TOPIC"
                            else "every topic object defined after it with the defaults is clustered."
                        ),
                        [FileRef(file, line)],
                        nodes=[qmgr],
                    )
                )
        elif cmd.verb == "REFRESH" and cmd.noun in ("CLUSTER", "QMGR"):
            kind = cmd.params.get("TYPE")
            proxysub = kind is not None and any(v.text.upper() == "PROXYSUB" for v in kind.values or ())
            if cmd.noun == "CLUSTER" or proxysub:
                what = "REFRESH CLUSTER" if cmd.noun == "CLUSTER" else "REFRESH QMGR TYPE(PROXYSUB)"
                hits.append(RefreshHit(qmgr, file, line, what))
    return found, hits


def refresh_findings(hits: list[RefreshHit], topology: Topology) -> list[Finding]:
    """A REFRESH in the script of a queue manager that is a member of a publish/subscribe cluster."""
    if not hits:
        return []
    pubsub = {t.cluster for t in topology.topics if getattr(t, "cluster", None)}
    out = []
    for hit in hits:
        clusters = sorted(
            {m.cluster for m in topology.memberships if m.node == hit.qmgr and m.cluster in pubsub}
        )
        if clusters:
            out.append(
                finding(
                    find_rule("REFRESH_IN_PUBSUB_CLUSTER"),
                    f"{hit.command} in a script of {hit.qmgr}, a member of the publish/subscribe cluster "
                    f"{', '.join(clusters)}: while the cluster's knowledge is rebuilt, proxy subscriptions "
                    "are withdrawn and publications can be lost.",
                    [FileRef(hit.file, hit.line), *(ClusterRef(c) for c in clusters)],
                    nodes=[hit.qmgr],
                )
            )
    return out
