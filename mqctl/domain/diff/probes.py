"""The publications a change can affect, derived from the change itself (not a fixed sample).

For each changed object: the topics it can bear on, the publishers whose answer can differ, and the
property values that separate its selectors. Topics: at and below a changed MQ topic object (its
TOPICSTR, a level below it, and every topic object or subscription at or below it on either side); an
example topic of each changed subscription's pattern, and the topic objects it matches; for a changed EMS
topic definition, route or route selector, the examples of the EMS subscriptions and definitions it can
carry; for a changed queue manager, membership, channel or namelist, the examples of every MQ
subscription and topic object of the nodes connected to it. Publishers: the nodes connected to the
changed node through clusters, hierarchy links or routes, on either side. Properties: none, and the
boundary values of every comparison of a changed selector (``amount > 100``: 99, 100, 101, absent).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mqctl.domain.diff.objects import ObjectChange
from mqctl.domain.messages import HEADER_TYPES, JmsValue
from mqctl.domain.model import Dialect, Subscription, Topology
from mqctl.domain.subindex import SubscriptionIndex
from mqctl.domain.topics import TopicSyntaxError, intersects, matches
from mqctl.domain.validation.probe import example_topic

if TYPE_CHECKING:
    from mqctl.domain.selector.ast import Literal, Node

Properties = tuple[tuple[str, JmsValue], ...]
NO_ROUTING = frozenset({"descr", "conname", "url"})
"""Attributes no routing answer reads: a change of these alone derives no probe."""
MAX_PROPERTY_SETS = 1024


@dataclass(frozen=True, slots=True)
class Probe:
    publisher: str
    topic: str
    properties: Properties = ()

    def sort_key(self) -> tuple[str, str, str]:
        return (self.topic, self.publisher, repr(self.properties))


@dataclass
class ProbeSet:
    probes: list[Probe]
    derived: int
    """How many the derivation gave (and the user's), before ``max_probes``."""
    exhaustive: bool
    how: str
    causes: dict[Probe, tuple[int, ...]] = field(default_factory=dict)
    """Which object changes (their index) each probe was derived from."""


def _below(topicstr: str, other: str) -> bool:
    return other == topicstr or topicstr == "" or other.startswith(topicstr + "/")


def _example(pattern: str, dialect: Dialect) -> str | None:
    try:
        return example_topic(pattern, dialect)
    except TopicSyntaxError:
        return None


def _join(topicstr: str, level: str, dialect: Dialect) -> str:
    sep = "/" if dialect is Dialect.MQ else "."
    return f"{topicstr}{sep}{level}" if topicstr else level


def connected(sides: Sequence[Topology], start: Iterable[str]) -> set[str]:
    """The nodes reachable from ``start`` through shared clusters, hierarchy links and routes, on any side."""
    edges: dict[str, set[str]] = {}

    def link(a: str, b: str) -> None:
        edges.setdefault(a, set()).add(b)
        edges.setdefault(b, set()).add(a)

    for side in sides:
        members: dict[str, list[str]] = {}
        for m in side.memberships:
            members.setdefault(m.cluster, []).append(m.node)
        for names in members.values():
            for other in names[1:]:
                link(names[0], other)
        for node in side.nodes.values():
            edges.setdefault(node.name, set())
            if node.parent:
                link(node.name, node.parent)
        for route in side.routes:
            link(route.node, route.peer)
    seen = set(start)
    stack = list(seen)
    while stack:
        for nxt in edges.get(stack.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


def _dialect_nodes(sides: Sequence[Topology], dialect: Dialect) -> set[str]:
    return {n.name for side in sides for n in side.nodes.values() if n.dialect is dialect}


def _topics_for(change: ObjectChange, sides: Sequence[Topology], scope: set[str]) -> set[str]:
    """The topics a change can bear on (see the module docstring)."""
    d = change.dialect
    out: set[str] = set()
    subs = [s for side in sides for s in side.subscriptions if s.node in scope]
    defs = [t for side in sides for t in side.topics if t.node in scope]
    if change.kind == "topic" and d is Dialect.MQ:
        for side in sides:
            for t in side.topics:
                if t.node == change.node and t.name == change.name:
                    out |= {t.topicstr, _join(t.topicstr, "x", d)}
        for root in list(out):
            out |= {t.topicstr for t in defs if _below(root, t.topicstr)}
            out |= {e for s in subs if (e := _example(s.topicstr, d)) is not None and _below(root, e)}
        return out
    if change.kind == "topic":  # an EMS definition: a pattern
        patterns = {change.name}
    elif change.kind == "sub":
        patterns = {
            s.topicstr
            for side in sides
            for s in side.subscriptions
            if (s.node, s.name) == (change.node, change.name)
        }
    elif change.kind == "route-selector":
        patterns = {
            rs.topic
            for side in sides
            for rs in side.route_selectors
            if rs.node == change.node and change.name.startswith(f"{rs.peer} ")
        }
    else:  # a node, membership, channel, namelist, route: whatever its nodes carry
        out |= {e for s in subs if (e := _example(s.topicstr, d)) is not None}
        out |= {e for t in defs if (e := _example(t.topicstr if d is Dialect.MQ else t.name, d)) is not None}
        return out
    for pattern in patterns:
        example = _example(pattern, d)
        if example is not None:
            out.add(example)
        if d is Dialect.MQ:
            out |= {t.topicstr for t in defs if _matches(pattern, t.topicstr, d)}
        else:
            for s in subs:
                e = _example(s.topicstr, d)
                if e is not None and _intersects(pattern, s.topicstr, d) and _matches(pattern, e, d):
                    out.add(e)
            out |= {e for t in defs if (e := _example(t.name, d)) is not None and _matches(pattern, e, d)}
    return out


def _matches(pattern: str, topic: str, dialect: Dialect) -> bool:
    try:
        return matches(pattern, topic, dialect)
    except TopicSyntaxError:
        return False


def _intersects(p: str, q: str, dialect: Dialect) -> bool:
    try:
        return intersects(p, q, dialect)
    except Exception:  # noqa: BLE001 — too complex to decide: keep the topic (a probe too many is harmless)
        return True


def _selectors(change: ObjectChange) -> list[str]:
    out = []
    for a in change.attributes:
        if a.name == "selector":
            for text in (a.before, a.after):
                if text:
                    out.append(_unwrap(text))
    return out


def _unwrap(written: str) -> str:
    """The selector text from ``SELECTOR('...')`` or ``selector=...``."""
    if written.upper().startswith("SELECTOR(") and written.endswith(")"):
        inner = written[len("SELECTOR(") : -1]
        if inner.startswith("'") and inner.endswith("'"):
            inner = inner[1:-1].replace("''", "'")
        return inner
    return written.removeprefix("selector=")


def boundary_values(selectors: Iterable[str], limit: int = MAX_PROPERTY_SETS) -> list[Properties]:
    """Property sets that separate the selectors: none set, and each comparison's boundary values (with
    the other properties' values combined while that stays under ``limit``)."""
    from mqctl.domain.selector.parser import parse

    found = _Boundaries()
    for text in selectors:
        try:
            tree = parse(text)
        except Exception:  # noqa: BLE001 — a selector that does not parse separates nothing
            continue
        if tree is not None:
            found.walk(tree)
    return _combined(found.values, limit)


class _Boundaries:
    """Per property, the values on either side of each comparison the selectors make of it (by repr:
    each once)."""

    def __init__(self) -> None:
        self.values: dict[str, dict[str, JmsValue]] = {}

    def walk(self, tree: Node) -> None:
        """Every comparison of a property with literals in the tree: ``=``, ``<``..., BETWEEN, IN, LIKE."""
        from mqctl.domain.selector import ast
        from mqctl.domain.selector.parser import children

        stack = [tree]
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Compare):
                for ident, lit in ((node.left, node.right), (node.right, node.left)):
                    if isinstance(ident, ast.Ident) and isinstance(lit, ast.Literal):
                        self.literal(ident.name, lit)
            elif isinstance(node, ast.Between) and isinstance(node.operand, ast.Ident):
                for bound in (node.low, node.high):
                    if isinstance(bound, ast.Literal):
                        self.literal(node.operand.name, bound)
            elif isinstance(node, ast.InList) and isinstance(node.operand, ast.Ident):
                for v in node.values:
                    self.add(node.operand.name, "string", v)
                self.add(node.operand.name, "string", "~".join(node.values) + "~")
            elif isinstance(node, ast.Like) and isinstance(node.operand, ast.Ident):
                self.add(node.operand.name, "string", node.pattern.replace("%", "").replace("_", "x"))
                self.add(node.operand.name, "string", "~")
            stack.extend(children(node))

    def literal(self, name: str, lit: Literal) -> None:
        """The literal a property is compared with, and the values just beside it."""
        self.add(name, lit.type, lit.value)
        value = lit.value
        if isinstance(value, bool):
            self.add(name, "boolean", not value)
        elif lit.type in ("int", "long") and isinstance(value, int):
            self.add(name, "long", value - 1)
            self.add(name, "long", value + 1)
        elif isinstance(value, int | float) and not isinstance(value, str):
            self.add(name, "double", float(value) - 1.0)
            self.add(name, "double", float(value) + 1.0)
        elif lit.type == "string":
            self.add(name, "string", f"{value}~")

    def add(self, name: str, kind: str, value: str | bool | int | float) -> None:
        """One value of a property, unless the property is a header or the value beyond its type's range."""
        if name in HEADER_TYPES:
            return
        try:
            typed = JmsValue(kind, value)
        except ValueError:  # beyond the type's range: that boundary has no outer side
            return
        self.values.setdefault(name, {})[repr(typed)] = typed


def _combined(values: dict[str, dict[str, JmsValue]], limit: int) -> list[Properties]:
    """Every combination of the properties' values (each also absent) while there are at most ``limit``;
    beyond, each property alone, then all properties at their i-th value together."""
    names = sorted(values)
    choices: list[list[JmsValue | None]] = [[None, *values[n].values()] for n in names]
    total = 1
    for c in choices:
        total *= len(c)
    sets: list[Properties] = []
    if total <= limit:
        for combo in itertools.product(*choices):
            sets.append(_present(zip(names, combo, strict=True)))
    else:
        sets.append(())
        for n, c in zip(names, choices, strict=True):
            sets += [_present([(n, v)]) for v in c[1:]]
        for i in range(1, max(len(c) for c in choices)):
            sets.append(_present((n, c[i]) for n, c in zip(names, choices, strict=True) if i < len(c)))
    return list(dict.fromkeys(sets)) or [()]


def _present(pairs: Iterable[tuple[str, JmsValue | None]]) -> Properties:
    return tuple((n, v) for n, v in pairs if v is not None)


class _InScope:
    """The subscriptions of the nodes in scope on one side, by pattern: those a topic matches are found
    without reading the estate's every subscription for every probe topic."""

    def __init__(self, subs: list[Subscription], dialect: Dialect) -> None:
        self.subs = subs
        self.dialect = dialect
        self.index: SubscriptionIndex[int] = SubscriptionIndex(dialect)
        self.unread: list[Subscription] = []
        """Subscriptions whose pattern the index refuses: ``matches`` refuses them too, or says."""
        for i, sub in enumerate(subs):
            try:
                self.index.add(sub.topicstr, i)
            except TopicSyntaxError:
                self.unread.append(sub)

    def matching(self, topic: str) -> list[Subscription]:
        """As ``_matches`` decides, in the order of the side's subscriptions."""
        try:
            found = [self.subs[i] for i in sorted(self.index.match(topic))]
        except TopicSyntaxError:
            return [s for s in self.subs if _matches(s.topicstr, topic, self.dialect)]
        return found + [s for s in self.unread if _matches(s.topicstr, topic, self.dialect)]


class _Scoped:
    """``_InScope`` per side, per scope and dialect, made once for all the probe topics of a derivation."""

    def __init__(self) -> None:
        self._found: dict[tuple[frozenset[str], Dialect], list[_InScope]] = {}

    def subscriptions(self, sides: Sequence[Topology], scope: set[str], dialect: Dialect) -> list[_InScope]:
        key = (frozenset(scope), dialect)
        if key not in self._found:
            self._found[key] = [
                _InScope([s for s in side.subscriptions if s.node in scope], dialect) for side in sides
            ]
        return self._found[key]


def _property_sets(
    sides: Sequence[Topology],
    scope: set[str],
    topic: str,
    dialect: Dialect,
    changed: list[str],
    cache: dict[frozenset[tuple[str, ...]], list[Properties]],
    scoped: _Scoped,
) -> list[Properties]:
    """Property sets for the probes on ``topic``: candidates from the boundary values of every selector
    a publication on it meets in scope (its subscriptions', its route selectors', the changed ones), then
    as few of them as give every subscription every verdict its selectors can give (a set cover).

    A subscription's answer depends on the properties only through its own selector and the route
    selectors on its path, so two sets that these judge alike get the same answer for it; a subscriber
    whose selector refuses every probe would otherwise hide a change."""
    # a subscription's selectors on both sides together: the probe that tells before from after must
    # give the two sides' selectors their verdicts at once
    by_sub: dict[tuple[str, str], set[str]] = {}
    for side, subs in zip(sides, scoped.subscriptions(sides, scope, dialect), strict=True):
        on_routes = {
            rs.selector
            for rs in side.route_selectors
            if rs.selector and rs.node in scope and _matches(rs.topic, topic, dialect)
        }
        for sub in subs.matching(topic):
            texts = by_sub.setdefault((sub.node, sub.name), set(changed))
            texts |= on_routes | ({sub.selector} if sub.selector else set())
    groups = {tuple(sorted(texts)) for texts in by_sub.values()}
    if changed:
        groups.add(tuple(sorted(set(changed))))
    groups.discard(())
    key = frozenset(groups)
    if key not in cache:
        every = sorted({t for g in groups for t in g})
        cache[key] = _cover(boundary_values(every), sorted(groups))
    return cache[key]


def _cover(candidates: list[Properties], groups: list[tuple[str, ...]]) -> list[Properties]:
    """Greedily, the candidates that give each group of selectors every verdict vector any candidate gives."""
    from mqctl.domain.messages import Message
    from mqctl.domain.selector import compile_selector

    if not groups:
        return [()]
    compiled: dict[str, Any] = {}
    for text in {t for g in groups for t in g}:
        try:
            compiled[text] = compile_selector(text)
        except Exception:  # noqa: BLE001 — a selector that does not compile judges nothing
            compiled[text] = None
    reached: list[set[tuple[int, tuple[bool | None, ...]]]] = []
    for props in candidates:
        message = Message.create(dict(props), {})
        verdicts = {t: (c.evaluate(message) if c is not None else None) for t, c in compiled.items()}
        reached.append({(i, tuple(verdicts[t] for t in g)) for i, g in enumerate(groups)})
    wanted = set().union(*reached)
    chosen: list[Properties] = []
    while wanted:
        best = max(range(len(candidates)), key=lambda i: (len(reached[i] & wanted), -i))
        chosen.append(candidates[best])
        wanted -= reached[best]
    return chosen


def derive(
    before: Topology,
    after: Topology,
    changes: Sequence[ObjectChange],
    *,
    extra: Iterable[Probe] = (),
    publishers: frozenset[str] | None = None,
    topics: frozenset[str] | None = None,
    max_probes: int = 20000,
) -> ProbeSet:
    """Every probe the changes call for (plus ``extra``), narrowed to ``publishers``/``topics`` when given,
    and at most ``max_probes`` of them (a deterministic sample that keeps every topic when it can)."""
    sides = (before, after)
    causes: dict[Probe, set[int]] = {}
    cache: dict[frozenset[tuple[str, ...]], list[Properties]] = {}
    scoped = _Scoped()
    for index, change in enumerate(changes):
        if change.change == "changed" and all(a.name in NO_ROUTING for a in change.attributes):
            continue
        nodes_of_dialect = _dialect_nodes(sides, change.dialect)
        scope = connected(sides, {change.node}) & nodes_of_dialect
        if change.kind == "membership":
            scope |= {m.node for side in sides for m in side.memberships if m.cluster == change.name}
            scope = connected(sides, scope) & nodes_of_dialect
        changed = _selectors(change)
        for topic in sorted(_topics_for(change, sides, scope)):
            for props in _property_sets(sides, scope, topic, change.dialect, changed, cache, scoped):
                for publisher in sorted(scope):
                    causes.setdefault(Probe(publisher, topic, props), set()).add(index)
    for probe in extra:
        causes.setdefault(probe, set())
    found = [
        p
        for p in causes
        if (publishers is None or p.publisher in publishers) and (topics is None or p.topic in topics)
    ]
    found.sort(key=Probe.sort_key)
    derived = len(found)
    if derived <= max_probes:
        chosen, exhaustive = found, True
        how = f"{derived} probe(s), exhaustive for the changed objects"
    else:
        chosen, exhaustive = _sample(found, max_probes), False
        how = (
            f"{max_probes} of {derived} probe(s), sampled: every topic and property set in turn, "
            "publishers taken round-robin (--max-probes)"
        )
    return ProbeSet(chosen, derived, exhaustive, how, {p: tuple(sorted(causes[p])) for p in chosen})


def _sample(probes: list[Probe], limit: int) -> list[Probe]:
    groups: dict[tuple[str, Properties], list[Probe]] = {}
    for p in probes:
        groups.setdefault((p.topic, p.properties), []).append(p)
    out: list[Probe] = []
    queues = list(groups.values())
    i = 0
    while len(out) < limit:
        progressed = False
        for q in queues:
            if i < len(q) and len(out) < limit:
                out.append(q[i])
                progressed = True
        if not progressed:
            break
        i += 1
    return sorted(out, key=Probe.sort_key)
