"""``mqctl reconcile``: what the model predicts each queue manager holds, against what captures showed.

Findings use ``validate``'s shape (rule id, code, severity, message, objects, nodes) plus the pattern,
the subscriptions that lose publications and the likely causes found in the observations. Rule ids
``MQR001``… are a contract like ``MQC…`` (docs/rules.md). Pure: the store and the files are the
service's business.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from mqctl.domain.model import Channel, Dialect, TopicObject, Topology
from mqctl.domain.objects import attributes
from mqctl.domain.observed import (
    CHSTATUS,
    CLUSQMGR,
    PROXY,
    PUBSUB,
    TCLUSTER,
    TPSTATUS,
    ChannelSeen,
    NodeCapture,
    PredictedProxy,
    channel_statuses,
    predict_proxies,
    proxy_origin,
)
from mqctl.domain.topics import fixed_prefix_levels, levels
from mqctl.domain.validation.catalogue import Rule, Severity
from mqctl.domain.validation.findings import Finding, Source, listing

ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

RECONCILE_RULES: tuple[Rule, ...] = (
    Rule(
        "MQR001",
        "PROXY_MISSING",
        ERROR,
        "A proxy subscription the model predicts is not held by the queue manager: subscriptions lose "
        "the publications made there.",
        "A queue manager forwards a publication only to the neighbours whose proxy subscriptions it holds "
        "(semantics §4, §5; reference 004).",
        "Look at the likely cause named (channel, cluster queue manager, hierarchy relation, cluster topic); "
        "once fixed, capture again.",
    ),
    Rule(
        "MQR002",
        "FORCED_PROXY_MISSING",
        WARNING,
        "A proxy subscription that a PROXYSUB(FORCE) topic object should make is not held.",
        "PROXYSUB(FORCE) sends proxy subscriptions for the topic's subtree even without subscribers "
        "(semantics §4.4).",
        "Check the topic object's definition on the queue managers that send it and their channels.",
    ),
    Rule(
        "MQR003",
        "PROXY_UNEXPLAINED",
        WARNING,
        "A queue manager holds a proxy subscription that nothing in the model explains.",
        "The model lacks a subscription (often an API one: import DISPLAY SUB SUBTYPE(ALL) of its queue "
        "manager), or a topic object forces proxies (semantics §9 'Observed state').",
        "Import the capture of the originating queue manager, or define what is missing in the model.",
    ),
    Rule(
        "MQR004",
        "CHANNEL_NOT_RUNNING",
        ERROR,
        "A channel between two queue managers that exchange proxy subscriptions is not RUNNING.",
        "Proxy subscriptions and publications travel on these channels; a link down behaves, for what lies "
        "behind it, like the far node down (semantics §9 'Failures').",
        "Start the channel (START CHANNEL) and look at the queue manager's error log for why it stopped.",
    ),
    Rule(
        "MQR005",
        "HIERARCHY_NOT_ACTIVE",
        ERROR,
        "A hierarchy relation (DISPLAY PUBSUB) that subscriptions need is not ACTIVE.",
        "Proxy subscriptions cross a hierarchy only over an active relation (semantics §4.3).",
        "Check PARENT and the channels between the two queue managers; DISPLAY PUBSUB shows the status.",
    ),
    Rule(
        "MQR006",
        "CLUSTER_TOPIC_MISMATCH",
        ERROR,
        "A cluster topic is known with attributes other than the model's.",
        "Definitions of one cluster topic that differ make routing depend on which one a queue manager "
        "uses (reference 001 'multiple cluster topic definitions'; semantics §3).",
        "Make the definition on its host match the model (or the model match it), then capture again.",
    ),
    Rule(
        "MQR007",
        "CLUSTER_TOPIC_FOREIGN_HOST",
        WARNING,
        "A cluster topic is known from a queue manager that does not define it in the model.",
        "Another host of the topic changes topic host routing and may conflict (reference 001; semantics §3).",
        "Delete the stray definition or add it to the model.",
    ),
    Rule(
        "MQR008",
        "NO_CAPTURE",
        WARNING,
        "A queue manager of the model has no capture.",
        "Nothing can be said of what it holds.",
        "Run display.mqsc on it (docs/observed.md) and import the output.",
    ),
    Rule(
        "MQR009",
        "UNKNOWN_CAPTURE",
        WARNING,
        "A capture is of a queue manager that the model does not know.",
        "Its observations explain nothing and it receives no prediction.",
        "Define the queue manager (import its dmpmqcfg dump), or delete the capture.",
    ),
    Rule(
        "MQR010",
        "STALE_CAPTURE",
        WARNING,
        "A capture is older than --max-age.",
        "What a queue manager held then may have changed since.",
        "Capture it again.",
    ),
    Rule(
        "MQR011",
        "CAPTURES_APART",
        INFO,
        "Captures were taken further apart in time than --max-age.",
        "Comparing queue managers seen at different times can show differences that never existed together.",
        "Capture every queue manager in one run.",
    ),
    Rule(
        "MQR012",
        "ROUTE_NOT_CONNECTED",
        WARNING,
        "An EMS route of the model is shown not connected by `show routes` (ConnID '-').",
        "Messages and subscription interest stop crossing it until the server at the other end connects.",
        "Start the server at the other end, check the route's URL and its TLS settings.",
    ),
    Rule(
        "MQR013",
        "CHANNEL_NOT_LINKED",
        WARNING,
        "A channel status cannot be linked to the queue manager it concerns.",
        "DISPLAY CHSTATUS shows RQMNAME only once a channel has reached its partner; without it, nor a "
        "cluster-receiver of that name in the model, nor the channel in DISPLAY CLUSQMGR, nor a known "
        "CONNAME, reconcile cannot say which link is down and states no cause from it (semantics §9).",
        "Import the model's channel definitions (dmpmqcfg) or capture DISPLAY CLUSQMGR(*) ALL with the "
        "statuses; check the channel's CONNAME.",
    ),
    Rule(
        "MQR014",
        "TOPIC_RESOLVED_APART",
        ERROR,
        "Members of a cluster resolved a clustered topic string differently (DISPLAY TPSTATUS).",
        "When several cluster topic definitions of one name differ, each queue manager uses one of them "
        "and which one is not deterministic nor consistent across the cluster (IBM, 'Multiple cluster "
        "topic definitions of the same name'); routing then depends on where a publication is made.",
        "Make the definitions of the topic on its hosts identical (DISPLAY TCLUSTER shows them), then "
        "capture DISPLAY TPSTATUS again on every member.",
    ),
    Rule(
        "MQR015",
        "HIERARCHY_RELATION_MISSING",
        ERROR,
        "A hierarchy relation of the model is not shown by the queue manager's DISPLAY PUBSUB.",
        "Proxy subscriptions and publications cross a hierarchy only over a relation the queue managers "
        "hold (semantics §4.3); one the model has and the queue manager does not is not there.",
        "Check ALTER QMGR PARENT on the child and the channels between the two, then capture again.",
    ),
    Rule(
        "MQR016",
        "HIERARCHY_RELATION_UNKNOWN",
        WARNING,
        "DISPLAY PUBSUB shows a hierarchy relation the model does not have.",
        "Publications may travel where the model says they do not (semantics §4.3).",
        "Add the relation to the model (PARENT of the child), or remove it on the queue managers.",
    ),
)
RULE = {r.code: r for r in RECONCILE_RULES}

COMPARED = tuple(a for a in attributes.TOPIC if a.routing)
"""What a cluster topic's DISPLAY TCLUSTER is compared on: the topic attributes routing reads (the
attribute table's)."""
_COMPARED = tuple(a.keyword for a in COMPARED)


@dataclass(frozen=True, slots=True)
class Discrepancy:
    """A finding of reconcile: validate's ``Finding`` plus the pattern, subscriptions and causes."""

    finding: Finding
    pattern: str = ""
    subscriptions: tuple[str, ...] = ()
    causes: tuple[str, ...] = ()

    @property
    def severity(self) -> Severity:
        return self.finding.severity

    def to_json(self) -> dict[str, Any]:
        out = self.finding.to_json()
        out["pattern"] = self.pattern
        out["subscriptions"] = list(self.subscriptions)
        out["causes"] = list(self.causes)
        return out


def _make(
    code: str,
    message: str,
    *,
    objects: Iterable[str] = (),
    nodes: Iterable[str] = (),
    pattern: str = "",
    subs: Iterable[tuple[str, str]] = (),
    causes: Sequence[str] = (),
    source: tuple[str, int | None] | None = None,
) -> Discrepancy:
    named = sorted(set(subs))
    finding = Finding(
        RULE[code],
        message,
        tuple(dict.fromkeys([*objects, *(f"sub {n} on {q}" for q, n in named)])),
        tuple(sorted(set(nodes) | {q for q, _ in named})),
        (Source(source[0], source[1]),) if source is not None else (),
    )
    return Discrepancy(finding, pattern, tuple(dict.fromkeys(n for _, n in named)), tuple(causes))


@dataclass
class _Seen:
    """The observations of all captures, indexed for the questions reconcile asks."""

    captures: dict[str, NodeCapture]
    proxies: dict[str, dict[tuple[str, str], Any]] = field(default_factory=dict)
    channels: dict[tuple[str, str], list[Any]] = field(default_factory=lambda: defaultdict(list))
    """(node, queue manager at the other end) -> the statuses linked to it (``channel_statuses``)."""
    unlinked: dict[str, list[ChannelSeen]] = field(default_factory=lambda: defaultdict(list))
    """node -> the statuses of channels between queue managers that could not be linked."""
    relations: dict[tuple[str, str], list[Any]] = field(default_factory=lambda: defaultdict(list))
    clusqmgrs: dict[str, set[str]] = field(default_factory=dict)
    tclusters: dict[str, list[Any]] = field(default_factory=dict)

    @classmethod
    def of(cls, captures: Iterable[NodeCapture], channels: Iterable[Channel] = ()) -> _Seen:
        seen = cls({c.node: c for c in captures})
        for status in channel_statuses(seen.captures.values(), channels):
            if status.peer:
                seen.channels[(status.node, status.peer)].append(status.observation)
            else:
                seen.unlinked[status.node].append(status)
        for node, capture in seen.captures.items():
            if capture.shows(PROXY):
                seen.proxies[node] = {(o.get("TOPICSTR"), proxy_origin(o)): o for o in capture.of(PROXY)}
            for o in capture.of(PUBSUB):
                if o.get("TYPE").upper() in ("PARENT", "CHILD"):
                    seen.relations[(node, o.get("QMNAME"))].append(o)
            if capture.shows(CLUSQMGR):
                seen.clusqmgrs[node] = {o.get("CLUSQMGR") for o in capture.of(CLUSQMGR)}
            if capture.shows(TCLUSTER):
                seen.tclusters[node] = capture.of(TCLUSTER)
        return seen

    def troubled(self) -> frozenset[str]:
        """Both ends of every channel not RUNNING and every relation not ACTIVE."""
        out: set[str] = set()
        for (here, there), found in self.channels.items():
            if any(o.get("STATUS").upper() != "RUNNING" for o in found):
                out |= {here, there}
        for (here, there), found in self.relations.items():
            if any(o.get("STATUS").upper() != "ACTIVE" for o in found):
                out |= {here, there}
        return frozenset(out)

    def channel_down(self, a: str, b: str) -> list[str]:
        """Channels seen between ``a`` and ``b`` (either side) that are not RUNNING, as sentences."""
        out = []
        for here, there in ((a, b), (b, a)):
            for o in self.channels.get((here, there), ()):
                status = o.get("STATUS")  # shown as captured: upper-casing an escape changes it
                if status.upper() != "RUNNING":
                    out.append(f"channel {o.name} on {here} to {there} is {status or 'not RUNNING'}")
        return out

    def channel_missing(self, a: str, b: str) -> list[str]:
        """No status linked between ``a`` and ``b``: said only of a capture whose every status between
        queue managers is linked (an unlinked one may be that channel: MQR013 names it instead)."""
        out = []
        for here, there in ((a, b), (b, a)):
            capture = self.captures.get(here)
            if (
                capture is not None
                and capture.shows(CHSTATUS)
                and not self.channels.get((here, there))
                and not self.unlinked.get(here)
            ):
                out.append(f"no channel from {here} to {there} shows a status (DISPLAY CHSTATUS)")
        return out

    def relation_down(self, a: str, b: str) -> list[str]:
        out = []
        for here, there in ((a, b), (b, a)):
            for o in self.relations.get((here, there), ()):
                status = o.get("STATUS")
                if status.upper() != "ACTIVE":
                    out.append(f"hierarchy relation {o.get('TYPE')} {there} on {here} is {status}")
        return out


def reconcile(
    topology: Topology,
    captures: Sequence[NodeCapture],
    *,
    now: datetime,
    max_age: timedelta | None = None,
) -> list[Discrepancy]:
    """Every finding, most severe first, then by rule and objects."""
    seen = _Seen.of(captures, topology.channels)
    mq_nodes = {n for n, node in topology.nodes.items() if node.dialect == Dialect.MQ}
    asked = frozenset(seen.proxies) | seen.troubled()
    predicted = predict_proxies(topology, asked) if asked else {}
    out: list[Discrepancy] = []
    out += _proxies(predicted, seen)
    out += _links(predicted, seen, topology)
    out += _cluster_topics(topology, seen)
    out += _coverage(mq_nodes, set(topology.nodes), seen, now, max_age)
    out += _routes(topology, seen)
    out += _unlinked(seen)
    out += _topic_status(topology, seen)
    out += _relations(topology, seen)
    out.sort(key=lambda d: (d.finding.sort_key(), d.pattern))
    return out


def _proxies(predicted: dict[tuple[str, str, str], PredictedProxy], seen: _Seen) -> list[Discrepancy]:
    out: list[Discrepancy] = []
    for key, proxy in predicted.items():  # the findings are sorted at the end
        holder, pattern, origin = key
        held = seen.proxies.get(holder)
        if held is None or (pattern, origin) in held:
            continue
        causes = _causes(proxy, seen)
        via = f"cluster {proxy.cluster}" if proxy.cluster else "the hierarchy"
        if proxy.subscriptions:
            out.append(
                _make(
                    "PROXY_MISSING",
                    f"{holder} holds no proxy subscription for '{pattern}' from {origin} (over {via}): "
                    f"publications made on {holder} do not reach "
                    f"{listing(sorted(n for _, n in proxy.subscriptions))}"
                    + (f"; likely cause: {causes[0]}" if causes else ""),
                    objects=[f"qmgr {holder}"],
                    nodes=[holder, origin],
                    pattern=pattern,
                    subs=proxy.subscriptions,
                    causes=causes,
                    source=_source(seen, holder),
                )
            )
        else:
            out.append(
                _make(
                    "FORCED_PROXY_MISSING",
                    f"{holder} holds no proxy subscription for '{pattern}' from {origin} that "
                    f"{proxy.forced_by} forces" + (f"; likely cause: {causes[0]}" if causes else ""),
                    objects=[f"qmgr {holder}", proxy.forced_by],
                    nodes=[holder, origin],
                    pattern=pattern,
                    causes=causes,
                    source=_source(seen, holder),
                )
            )
    for holder, held in seen.proxies.items():
        for (pattern, origin), obs in held.items():
            if (holder, pattern, origin) not in predicted:
                out.append(
                    _make(
                        "PROXY_UNEXPLAINED",
                        f"{holder} holds a proxy subscription for '{pattern}' from {origin or '?'} that "
                        "nothing in the model explains (a subscription missing from the model, or "
                        "PROXYSUB(FORCE))",
                        objects=[f"qmgr {holder}"],
                        nodes=[n for n in (holder, origin) if n],
                        pattern=pattern,
                        source=(seen.captures[holder].file, obs.line),
                    )
                )
    return out


def _source(seen: _Seen, node: str) -> tuple[str, int | None]:
    return (seen.captures[node].file, None)


def _causes(proxy: PredictedProxy, seen: _Seen) -> list[str]:
    holder, origin = proxy.holder, proxy.origin
    causes = seen.channel_down(holder, origin)
    if proxy.cluster:
        known = seen.clusqmgrs.get(holder)
        if known is not None and origin not in known:
            causes.append(f"{origin} is absent from {holder}'s DISPLAY CLUSQMGR (cluster {proxy.cluster})")
        for node in (origin, holder):
            topics = seen.tclusters.get(node)
            if topics is not None and not any(
                o.get("CLUSTER") == proxy.cluster and _covers(o.get("TOPICSTR"), proxy.pattern)
                for o in topics
            ):
                causes.append(
                    f"no cluster topic of {proxy.cluster} above '{proxy.pattern}' in {node}'s DISPLAY TCLUSTER"
                )
    else:
        causes += seen.relation_down(holder, origin)
    if not causes:
        causes = seen.channel_missing(holder, origin)
    return causes


def _covers(topicstr: str, pattern: str) -> bool:
    """The cluster topic ``topicstr`` lies at or above the fixed prefix of ``pattern``."""
    if not topicstr:
        return False
    top = levels(topicstr, Dialect.MQ)
    prefix = fixed_prefix_levels(pattern, Dialect.MQ)
    return prefix[: len(top)] == top


def _links(
    predicted: dict[tuple[str, str, str], PredictedProxy], seen: _Seen, topology: Topology
) -> list[Discrepancy]:
    """Channels not RUNNING and hierarchy relations not ACTIVE between queue managers that exchange proxies."""
    needs: dict[frozenset[str], set[tuple[str, str]]] = defaultdict(set)
    patterns: dict[frozenset[str], set[str]] = defaultdict(set)
    for (holder, pattern, origin), proxy in predicted.items():
        pair = frozenset((holder, origin))
        needs[pair] |= proxy.subscriptions
        patterns[pair].add(pattern)
    out: list[Discrepancy] = []
    for (here, there), found in sorted(seen.channels.items()):
        for o in found:
            status = o.get("STATUS")  # shown as captured: upper-casing an escape changes it
            subs = needs.get(frozenset((here, there)))
            if status.upper() == "RUNNING" or not subs:
                continue
            pats = sorted(patterns[frozenset((here, there))])
            out.append(
                _make(
                    "CHANNEL_NOT_RUNNING",
                    f"channel {o.name} on {here} to {there} is {status}: proxy subscriptions and publications "
                    f"between them stop; {listing(sorted({n for _, n in subs}))} lose publications",
                    objects=[f"channel {o.name} on {here}"],
                    nodes=[here, there],
                    pattern=", ".join(pats),
                    subs=subs,
                    causes=[f"DISPLAY CHSTATUS on {here}: STATUS({status})"],
                    source=(seen.captures[here].file, o.line),
                )
            )
    for (here, there), found in sorted(seen.relations.items()):
        for o in found:
            status = o.get("STATUS")
            subs = needs.get(frozenset((here, there)))
            if status.upper() == "ACTIVE" or not subs:
                continue
            out.append(
                _make(
                    "HIERARCHY_NOT_ACTIVE",
                    f"hierarchy relation {o.get('TYPE')} {there} on {here} is {status}: "
                    f"{listing(sorted({n for _, n in subs}))} lose publications",
                    objects=[f"qmgr {here}"],
                    nodes=[here, there],
                    pattern=", ".join(sorted(patterns[frozenset((here, there))])),
                    subs=subs,
                    causes=[f"DISPLAY PUBSUB on {here}: STATUS({status})"],
                    source=(seen.captures[here].file, o.line),
                )
            )
    return out


def _unlinked(seen: _Seen) -> list[Discrepancy]:
    """Each channel status that no RQMNAME, definition, CLUSQMGR block or CONNAME links to a queue manager."""
    out: list[Discrepancy] = []
    for node, statuses in sorted(seen.unlinked.items()):
        for status in statuses:
            o = status.observation
            kind = o.get("CHLTYPE").upper() or "type not shown"
            out.append(
                _make(
                    "CHANNEL_NOT_LINKED",
                    f"channel {o.name} ({kind}, {status.status or 'status not shown'}) on {node} cannot be "
                    f"linked to the queue manager it concerns: {status.how}",
                    objects=[f"channel {o.name} on {node}"],
                    nodes=[node],
                    source=(status.file, o.line),
                )
            )
    return out


_NOT_IN_TPSTATUS = frozenset({"WILDCARD", "PROXYSUB"})
"""Routing's topic attributes that DISPLAY TPSTATUS does not show (IBM's MQSC reference)."""
_RESOLVED = tuple(a.keyword for a in COMPARED if a.enum is not None and a.keyword not in _NOT_IN_TPSTATUS)
"""What DISPLAY TPSTATUS shows of a topic node that routing depends on (beside CLUSTER, the text that
groups its members): the enumerated topic attributes routing reads, from the table (CLROUTE, PUBSCOPE,
SUBSCOPE, PUB, SUB)."""


def _topic_status(topology: Topology, seen: _Seen) -> list[Discrepancy]:
    """A clustered topic string that members of its cluster resolved differently (MQR014)."""
    members: dict[tuple[str, str], list[tuple[str, Any]]] = defaultdict(list)
    for node, capture in sorted(seen.captures.items()):
        for o in capture.of(TPSTATUS):
            if o.get("CLUSTER"):
                members[(o.get("TOPICSTR"), o.get("CLUSTER"))].append((node, o))
    out: list[Discrepancy] = []
    for (topicstr, cluster), found in sorted(members.items()):
        differ = []
        for keyword in _RESOLVED:
            values = {node: o.get(keyword).upper() for node, o in found if keyword in o.attributes}
            if len(set(values.values())) > 1:
                differ.append(", ".join(f"{keyword}({v}) on {n}" for n, v in sorted(values.items())))
        if not differ:
            continue
        first_node, first = found[0]
        out.append(
            _make(
                "TOPIC_RESOLVED_APART",
                f"topic string '{topicstr}' of cluster {cluster} is resolved differently on its members: "
                f"{'; '.join(differ)} (DISPLAY TPSTATUS: which definition a member uses is not "
                "deterministic)",
                objects=[f"topic string '{topicstr}'"],
                nodes=[n for n, _ in found],
                pattern=topicstr,
                subs=_under(topology, topicstr, cluster),
                causes=[
                    f"DISPLAY TPSTATUS on {n}: ADMIN({o.get('ADMIN')})" for n, o in found if o.get("ADMIN")
                ],
                source=(seen.captures[first_node].file, first.line),
            )
        )
    return out


def _relations(topology: Topology, seen: _Seen) -> list[Discrepancy]:
    """Hierarchy relations of the model that DISPLAY PUBSUB does not show, and the reverse."""
    expected: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for name, defined in topology.nodes.items():
        if defined.dialect == Dialect.MQ and defined.parent:
            expected[name].add((defined.parent, "PARENT"))
            expected[defined.parent].add((name, "CHILD"))
    out: list[Discrepancy] = []
    for node, capture in sorted(seen.captures.items()):
        if not capture.shows(PUBSUB) or node not in topology.nodes:
            continue
        shown = {
            (o.get("QMNAME"), o.get("TYPE").upper()): o
            for o in capture.of(PUBSUB)
            if o.get("TYPE").upper() in ("PARENT", "CHILD")
        }
        for peer, relation in sorted(expected[node] - set(shown)):
            out.append(
                _make(
                    "HIERARCHY_RELATION_MISSING",
                    f"{node}'s DISPLAY PUBSUB shows no {relation} relation with {peer}, which the model has",
                    objects=[f"qmgr {node}"],
                    nodes=[node, peer],
                    source=(capture.file, None),
                )
            )
        for (peer, relation), o in sorted(shown.items()):
            if (peer, relation) not in expected[node]:
                out.append(
                    _make(
                        "HIERARCHY_RELATION_UNKNOWN",
                        f"{node}'s DISPLAY PUBSUB shows a {relation} relation with {peer} "
                        f"(STATUS({o.get('STATUS')})) that the model does not have",
                        objects=[f"qmgr {node}"],
                        nodes=[node, peer],
                        source=(capture.file, o.line),
                    )
                )
    return out


def _cluster_topics(topology: Topology, seen: _Seen) -> list[Discrepancy]:
    if not seen.tclusters:
        return []
    defined: dict[tuple[str, str, str], TopicObject] = {}
    for obj in topology.topics:
        if obj.cluster:
            defined[(obj.node, obj.name, obj.cluster)] = obj
    out: list[Discrepancy] = []
    known = {n for n, node in topology.nodes.items() if node.dialect == Dialect.MQ}
    for node, observed in sorted(seen.tclusters.items()):
        for o in observed:
            host = o.get("CLUSQMGR")
            model = defined.get((host, o.name, o.get("CLUSTER")))
            if model is None:
                if node in known and host:
                    out.append(
                        _make(
                            "CLUSTER_TOPIC_FOREIGN_HOST",
                            f"{node} knows cluster topic {o.name} ('{o.get('TOPICSTR')}') of cluster "
                            f"{o.get('CLUSTER')} from {host}, which does not define it in the model",
                            objects=[f"topic {o.name} on {host}"],
                            nodes=[node, host],
                            pattern=o.get("TOPICSTR"),
                            subs=_under(topology, o.get("TOPICSTR"), o.get("CLUSTER")),
                            source=(seen.captures[node].file, o.line),
                        )
                    )
                continue
            expected = _model_values(model)
            differ = [
                f"{k}({o.get(k)}) where the model has {k}({expected[k]})"
                for k in _COMPARED
                if k in o.attributes
                and o.get(k).upper() != expected[k].upper()
                and not (k == "TOPICSTR" and o.get(k) == expected[k])
            ]
            if differ:
                out.append(
                    _make(
                        "CLUSTER_TOPIC_MISMATCH",
                        f"{node} knows cluster topic {o.name} from {host} with {', '.join(differ)}",
                        objects=[f"topic {o.name} on {host}"],
                        nodes=[node, host],
                        pattern=model.topicstr,
                        subs=_under(topology, model.topicstr, model.cluster),
                        causes=[f"DISPLAY TCLUSTER on {node}: {d}" for d in differ],
                        source=(seen.captures[node].file, o.line),
                    )
                )
    return out


def _model_values(obj: TopicObject) -> dict[str, str]:
    return {a.keyword: str(getattr(obj, a.field)) for a in COMPARED}


def _under(topology: Topology, topicstr: str, cluster: str) -> list[tuple[str, str]]:
    """Subscriptions on members of ``cluster`` whose fixed prefix lies at or below ``topicstr``."""
    members = {m.node for m in topology.memberships if m.cluster == cluster}
    return [
        (s.node, s.name)
        for s in topology.subscriptions
        if s.node in members and _covers(topicstr, s.topicstr)
    ]


def _routes(topology: Topology, seen: _Seen) -> list[Discrepancy]:
    """EMS routes of the model that the server's ``show routes`` shows without a connection."""
    out: list[Discrepancy] = []
    for route in topology.routes:
        capture = seen.captures.get(route.node)
        if capture is None:
            continue
        for o in capture.of("ROUTE"):
            if o.name == route.peer and o.get("CONNECTED") == "NO":
                out.append(
                    _make(
                        "ROUTE_NOT_CONNECTED",
                        f"route {route.peer} on {route.node} is not connected (show routes: ConnID -)",
                        objects=[f"route {route.peer} on {route.node}"],
                        nodes=[route.node, route.peer],
                        causes=[f"show routes on {route.node}: {route.peer} ConnID -"],
                        source=(capture.file, o.line),
                    )
                )
    return out


def _coverage(
    mq_nodes: set[str], known: set[str], seen: _Seen, now: datetime, max_age: timedelta | None
) -> list[Discrepancy]:
    out: list[Discrepancy] = []
    for node in sorted(mq_nodes - set(seen.captures)):
        out.append(_make("NO_CAPTURE", f"{node} has no capture", objects=[f"qmgr {node}"], nodes=[node]))
    for node, capture in sorted(seen.captures.items()):
        if node not in known:
            out.append(
                _make(
                    "UNKNOWN_CAPTURE",
                    f"the capture of {node} ({capture.file}) is of a queue manager the model does not know",
                    objects=[f"file {capture.file}"],
                    nodes=[node],
                    source=(capture.file, None),
                )
            )
    if max_age is not None and seen.captures:
        for node, capture in sorted(seen.captures.items()):
            age = now - capture.captured_at
            if age > max_age:
                out.append(
                    _make(
                        "STALE_CAPTURE",
                        f"the capture of {node} was taken {_span(age)} ago ({capture.captured_at.isoformat()}), "
                        f"more than --max-age {_span(max_age)}",
                        objects=[f"file {capture.file}"],
                        nodes=[node],
                        source=(capture.file, None),
                    )
                )
        times = sorted((c.captured_at, n) for n, c in seen.captures.items())
        if times[-1][0] - times[0][0] > max_age:
            out.append(
                _make(
                    "CAPTURES_APART",
                    f"captures are {_span(times[-1][0] - times[0][0])} apart ({times[0][1]} first, "
                    f"{times[-1][1]} last), more than --max-age {_span(max_age)}",
                    nodes=[times[0][1], times[-1][1]],
                )
            )
    return out


def _span(delta: timedelta) -> str:
    seconds = int(delta.total_seconds())
    if seconds >= 86400:
        return f"{seconds // 86400}d{(seconds % 86400) // 3600}h"
    if seconds >= 3600:
        return f"{seconds // 3600}h{(seconds % 3600) // 60}m"
    return f"{seconds // 60}m{seconds % 60}s"


def failing(found: Sequence[Discrepancy], fail_on: Severity) -> list[Discrepancy]:
    return [d for d in found if d.severity.rank >= fail_on.rank]
