"""The shell's define / alter / delete: load the object and the facts its change needs, let the domain
make the change, save the difference.

What a change does — DEFINE with REPLACE, ALTER, DELETE and what happens to dependents — is the domain's
(``mqctl.domain.objects``, one module per kind), the same functions runmqsc, ``import mqsc``, the EMS
readers and tibemsadmin call. This door adds only what a shell user reads: the ``--replace`` hint and the
notes of ``new_cluster_notes``. Each function loads a ``NodeState`` holding only the object(s) it edits
and the facts it needs (``Store.load_node_slice``, indexed queries) and saves the difference, so an edit
costs the same on a node holding 100,000 subscriptions as on an empty one. Memberships follow the
cluster channels and namelists, as in MQ (``domain.memberships``): only those edits load the node's
channels, namelists and memberships.

Functions that may name a new cluster return notes for stderr ("cluster EUU is new; did you mean EU?").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar

from mqctl.domain.errors import ConflictError, NotFoundError
from mqctl.domain.model import (
    Channel,
    Dialect,
    Namelist,
    Node,
    NodeState,
    Route,
    RouteSelector,
    Subscription,
    TopicObject,
)
from mqctl.domain.objects import (
    channels,
    clusters,
    ems_definitions,
    namelists,
    nodes,
    route_selectors,
    routes,
    subscriptions,
    topic_objects,
)
from mqctl.domain.objects.edit import AlreadyDefined
from mqctl.store.repository import CLUSTER_PARTS, TOPICS, NodeRef, Store

REPLACE_HINT = "is already defined (use --replace to redefine it)"
T = TypeVar("T")


@contextmanager
def _shell_replies() -> Iterator[None]:
    """The domain's "is already defined", with the shell's way to redefine."""
    try:
        yield
    except AlreadyDefined as err:
        raise ConflictError(REPLACE_HINT, obj=err.obj) from None


def _edited(
    stored: Mapping[str, Any], set_props: Mapping[str, Any] | None, gone: Iterable[str]
) -> dict[str, Any]:
    """Stored free properties with ``set_props`` added or set and ``gone`` removed (``alter --prop``)."""
    props = dict(stored) | dict(set_props or {})
    for key in gone:
        props.pop(key, None)
    return props


def _copy(state: NodeState) -> NodeState:
    """A state whose collections can change without touching ``state`` (the objects are replaced, never
    changed in place, by the domain)."""
    return dataclasses.replace(
        state,
        memberships=dict(state.memberships),
        topics=dict(state.topics),
        subscriptions=dict(state.subscriptions),
        namelists=dict(state.namelists),
        channels=dict(state.channels),
        routes=dict(state.routes),
        route_selectors=list(state.route_selectors),
    )


def _edit(
    store: Store,
    ref: NodeRef,
    change: Callable[[NodeState], T],
    keys: Mapping[str, Iterable[str]] | None = None,
    parts: frozenset[str] = frozenset(),
) -> T:
    """Load the named objects (and ``parts`` whole), apply ``change``, save the difference."""
    before = store.load_node_slice(ref, keys or {}, parts)
    after = _copy(before)
    with _shell_replies():
        result = change(after)
    store.save_node_state(ref, before, after)
    return result


def _cluster_notes(store: Store, named: Iterable[str]) -> list[str]:
    wanted = [n for n in named if n]
    if not wanted:
        return []
    return clusters.new_cluster_notes(wanted, store.cluster_names())


# -- nodes ------------------------------------------------------------------------------------------
def _parent_dialect(store: Store, node: Node) -> Dialect | None:
    """The dialect of PARENT's node (None: no parent, or one not defined yet)."""
    if node.parent is None:
        return None
    found = store.node(node.parent)
    return found.dialect if found is not None else None


def _create_parent(store: Store, node: Node) -> None:
    """A parent not defined yet is created as a queue manager, as MQ accepts any name."""
    if node.parent is not None and store.node(node.parent) is None:
        store.add_node(Node(node.parent, Dialect.MQ, seq=store.next_seq()))


def define_node(
    store: Store, node: Node, *, clusters_: list[str], full_repositories: list[str], replace: bool
) -> list[str]:
    nodes.check(node)  # before its name is looked up: a name that is not text is the new node's fault
    existing = store.node(node.name)
    with _shell_replies():
        for cluster in clusters_ + full_repositories:
            clusters.check_member(node.name, node.dialect, cluster)
        new = nodes.define(
            existing.node if existing is not None else None,
            node,
            replace=replace,
            seq=store.next_seq(),
            parent_dialect=_parent_dialect(store, node),
        )
    _create_parent(store, new)
    notes = _cluster_notes(store, clusters_ + full_repositories)
    ref = store.add_node(new) if existing is None else store.update_node(existing, new)
    if clusters_ or full_repositories:
        seq = store.next_seq()
        _edit(
            store,
            ref,
            lambda s: clusters.join(s, clusters_, full_repositories, seq=seq),
            parts=CLUSTER_PARTS,
        )
    return notes


def alter_node(
    store: Store,
    name: str,
    changes: Mapping[str, Any],
    *,
    add_clusters: list[str],
    remove_clusters: list[str],
    full_repositories: list[str],
) -> list[str]:
    ref = store.require_node(name)
    membership_change = bool(add_clusters or full_repositories or remove_clusters)
    node_seq = store.next_seq()
    seq = store.next_seq() if membership_change else node_seq
    new_parent = changes.get("parent")
    parent_dialect = None
    if new_parent:
        found = store.node(new_parent)
        parent_dialect = found.dialect if found is not None else None
    notes = _cluster_notes(store, add_clusters + full_repositories)

    def change(state: NodeState) -> None:
        nodes.alter(state, changes, seq=node_seq, parent_dialect=parent_dialect)
        for cluster in remove_clusters:
            clusters.check_member(name, state.node.dialect, cluster)
        clusters.join(state, add_clusters, full_repositories, seq=seq)
        clusters.leave(state, remove_clusters, seq=seq)
        _create_parent(store, state.node)

    _edit(store, ref, change, parts=CLUSTER_PARTS if membership_change else frozenset())
    return notes


def node_dependents(store: Store, ref: NodeRef) -> list[str]:
    """What depends on a node: its own objects, its hierarchy children, routes that name it."""
    out = [f"{n} {label}{'s' if n > 1 else ''}" for label, n in store.node_object_counts(ref)]
    out += [f"child qmgr {c}" for c in store.children(ref.name)]
    out += [f"route {ref.name} on {server}" for server in store.routes_to(ref.name) if server != ref.name]
    return out


def delete_node(store: Store, name: str, *, cascade: bool) -> None:
    ref = store.require_node(name)
    nodes.check_delete(ref.node, node_dependents(store, ref), cascade=cascade)
    store.delete_node(ref)  # the database drops its objects and routes to it, and unsets PARENT


# -- clusters ---------------------------------------------------------------------------------------
def define_cluster(store: Store, name: str, descr: str, *, replace: bool) -> None:
    clusters.check(name, descr)
    if store.cluster(name) is not None and not replace:
        raise ConflictError(REPLACE_HINT, obj=f"cluster {name}")
    store.put_cluster(name, descr, store.next_seq())


def alter_cluster(store: Store, name: str, descr: str | None) -> None:
    found = store.cluster(name)
    if found is None:
        raise NotFoundError("does not exist", obj=f"cluster {name}")
    new_descr = found[0] if descr is None else descr
    clusters.check(name, new_descr)
    store.put_cluster(name, new_descr, store.next_seq())


def delete_cluster(store: Store, name: str, *, cascade: bool) -> None:
    if store.cluster(name) is None:
        raise NotFoundError("does not exist", obj=f"cluster {name}")
    deps = [f"member {m}" for m in store.cluster_members(name)] + store.cluster_users(name)
    clusters.check_delete(name, deps, cascade=cascade)
    store.delete_cluster(name)  # the database drops its memberships, topics and channels


# -- memberships ------------------------------------------------------------------------------------
def define_membership(
    store: Store, node: str, cluster: str, full_repository: bool, *, replace: bool
) -> list[str]:
    ref = store.require_node(node)
    clusters.check_member(node, ref.dialect, cluster)
    seq = store.next_seq()
    notes = _cluster_notes(store, [cluster])
    _edit(
        store,
        ref,
        lambda s: clusters.define_membership(s, cluster, full_repository, replace=replace, seq=seq),
        parts=CLUSTER_PARTS,
    )
    return notes


def alter_membership(store: Store, node: str, cluster: str, full_repository: bool | None) -> None:
    ref = store.require_node(node)
    seq = store.next_seq()
    _edit(
        store,
        ref,
        lambda s: clusters.alter_membership(s, cluster, full_repository, seq=seq),
        parts=CLUSTER_PARTS,
    )


def delete_membership(store: Store, node: str, cluster: str) -> None:
    ref = store.require_node(node)
    seq = store.next_seq()
    _edit(store, ref, lambda s: clusters.delete_membership(s, cluster, seq=seq), parts=CLUSTER_PARTS)


# -- topic objects and EMS topic definitions --------------------------------------------------------
def define_topic(store: Store, topic: TopicObject, *, replace: bool) -> list[str]:
    """An EMS definition is named by its pattern: without a TOPICSTR, the name is the pattern."""
    ref = store.require_node(topic.node)
    seq = store.next_seq()
    if ref.dialect is Dialect.EMS:
        if not topic.topicstr:
            topic = dataclasses.replace(topic, topicstr=topic.name)
        _edit(
            store,
            ref,
            lambda s: ems_definitions.define(s, topic, replace=replace, seq=seq),
            {"topics": [topic.name]},
        )
        return []
    holder = store.topic_named_by_topicstr(ref, topic.topicstr) if topic.topicstr else None
    notes = _cluster_notes(store, [topic.cluster])
    _edit(
        store,
        ref,
        lambda s: topic_objects.define(s, topic, replace=replace, seq=seq, holder=holder),
        {"topics": [topic.name]},
    )
    return notes


def alter_topic(
    store: Store,
    node: str,
    name: str,
    changes: Mapping[str, Any],
    *,
    set_props: Mapping[str, str | None] | None = None,
    remove_props: Iterable[str] = (),
) -> list[str]:
    """``set_props``/``remove_props``: EMS properties to add or set, and to remove, on the stored ones."""
    ref = store.require_node(node)
    seq = store.next_seq()
    kind = ems_definitions if ref.dialect is Dialect.EMS else topic_objects
    notes = _cluster_notes(store, [changes.get("cluster") or ""])
    gone = list(remove_props)

    def change(state: NodeState) -> None:
        all_changes = dict(changes)
        if (set_props or gone) and name in state.topics:
            all_changes["properties"] = _edited(state.topics[name].properties, set_props, gone)
        kind.alter(state, name, all_changes, seq=seq)

    _edit(store, ref, change, {"topics": [name]})
    return notes


def topic_properties(store: Store, node: str, name: str) -> dict[str, str | None]:
    """The stored properties of an EMS topic definition (``alter topic --prop`` edits them)."""
    ref = store.require_node(node)
    found = store.find(TOPICS, ref, name)
    if found is None:
        raise NotFoundError(f"does not exist on {node}", obj=f"topic {name}")
    return dict(found[1].properties)


def delete_topic(store: Store, node: str, name: str) -> None:
    """Subscriptions naming the object (TOPICOBJ) stay, with their topic string (semantics §9)."""
    ref = store.require_node(node)
    kind = ems_definitions if ref.dialect is Dialect.EMS else topic_objects
    _edit(store, ref, lambda s: kind.delete(s, name), {"topics": [name]})


# -- subscriptions ----------------------------------------------------------------------------------
def define_sub(store: Store, sub: Subscription, *, replace: bool, dialect_durable: bool = False) -> None:
    """DEFINE SUB; with TOPICOBJ, the object's TOPICSTR prefixes the given one (MQ's rule).

    ``dialect_durable``: durable or not as the node's dialect has it by default (durable on MQ, a
    non-durable JMS subscriber on EMS, semantics §9) instead of ``sub.durable``."""
    ref = store.require_node(sub.node)
    if dialect_durable:
        sub = dataclasses.replace(sub, durable=ref.dialect is Dialect.MQ)
    seq = store.next_seq()
    keys = {"subscriptions": [sub.name], "topics": [sub.topicobj] if sub.topicobj else []}
    _edit(store, ref, lambda s: subscriptions.define(s, sub, replace=replace, seq=seq), keys)


def alter_sub(store: Store, node: str, name: str, changes: Mapping[str, Any]) -> None:
    ref = store.require_node(node)
    seq = store.next_seq()
    _edit(store, ref, lambda s: subscriptions.alter(s, name, changes, seq=seq), {"subscriptions": [name]})


def delete_sub(store: Store, node: str, name: str) -> None:
    ref = store.require_node(node)
    _edit(store, ref, lambda s: subscriptions.delete(s, name), {"subscriptions": [name]})


# -- namelists and channels (they give memberships) -------------------------------------------------
def _mq_node(store: Store, node: str, what: str) -> NodeRef:
    ref = store.require_node(node)
    nodes.require_dialect(ref.dialect, Dialect.MQ, what, ref.name)
    return ref


def define_namelist(store: Store, nl: Namelist, *, replace: bool) -> None:
    ref = _mq_node(store, nl.node, "namelists")
    seq = store.next_seq()
    _edit(store, ref, lambda s: namelists.define(s, nl, replace=replace, seq=seq), parts=CLUSTER_PARTS)


def alter_namelist(store: Store, node: str, name: str, changes: Mapping[str, Any]) -> None:
    ref = _mq_node(store, node, "namelists")
    seq = store.next_seq()
    _edit(store, ref, lambda s: namelists.alter(s, name, changes, seq=seq), parts=CLUSTER_PARTS)


def delete_namelist(store: Store, node: str, name: str) -> list[str]:
    """As MQ: the namelist goes; channels naming it (CLUSNL) stay and give no membership until it is
    defined again. Returns a note naming them."""
    ref = _mq_node(store, node, "namelists")
    seq = store.next_seq()

    def change(state: NodeState) -> list[str]:
        namelists.delete(state, name, seq=seq)
        users = sorted(c.name for c in state.channels.values() if c.clusnl == name)
        return [f"channel {c}: namelist {name} is not defined now" for c in users]

    return _edit(store, ref, change, parts=CLUSTER_PARTS)


def define_channel(store: Store, ch: Channel, *, replace: bool) -> list[str]:
    ref = _mq_node(store, ch.node, "cluster channels")
    seq = store.next_seq()
    notes = _cluster_notes(store, [ch.cluster])

    def change(state: NodeState) -> None:
        channels.define(state, ch, replace=replace, seq=seq)
        notes.extend(n for n in [channels.missing_namelist(state, ch)] if n)

    _edit(store, ref, change, parts=CLUSTER_PARTS)
    return notes


def alter_channel(store: Store, node: str, name: str, changes: Mapping[str, Any]) -> list[str]:
    ref = _mq_node(store, node, "cluster channels")
    seq = store.next_seq()
    notes = _cluster_notes(store, [changes.get("cluster") or ""])

    def change(state: NodeState) -> None:
        new = channels.alter(state, name, changes, seq=seq)
        notes.extend(n for n in [channels.missing_namelist(state, new)] if n)

    _edit(store, ref, change, parts=CLUSTER_PARTS)
    return notes


def delete_channel(store: Store, node: str, name: str) -> None:
    ref = _mq_node(store, node, "cluster channels")
    seq = store.next_seq()
    _edit(store, ref, lambda s: channels.delete(s, name, seq=seq), parts=CLUSTER_PARTS)


# -- routes and route selectors ---------------------------------------------------------------------
def ensure_ems_peers(store: Store, peers: list[str]) -> list[str]:
    """Route peers are EMS servers, created on first reference; returns those created."""
    known = store.dialects(peers)
    created = []
    for peer in sorted(set(peers)):
        routes.check_peer(Route("", peer), known.get(peer))
        if peer not in known:
            store.add_node(Node(peer, Dialect.EMS, seq=store.next_seq()))
            created.append(peer)
    return created


def _ems_node(store: Store, node: str) -> NodeRef:
    ref = store.require_node(node)
    nodes.require_dialect(ref.dialect, Dialect.EMS, "routes", ref.name)
    return ref


def define_route(store: Store, route: Route, *, replace: bool) -> None:
    ref = _ems_node(store, route.node)
    seq = store.next_seq()
    peer_dialect = store.dialects([route.peer]).get(route.peer)

    def change(state: NodeState) -> None:
        routes.define(state, route, replace=replace, seq=seq, peer_dialect=peer_dialect)
        ensure_ems_peers(store, [route.peer])

    _edit(store, ref, change, {"routes": [route.peer]})


def alter_route(
    store: Store,
    node: str,
    peer: str,
    changes: Mapping[str, Any],
    *,
    set_props: Mapping[str, str] | None = None,
    remove_props: Iterable[str] = (),
) -> None:
    """``set_props``/``remove_props``: free route properties to add or set, and to remove."""
    ref = _ems_node(store, node)
    seq = store.next_seq()
    gone = list(remove_props)

    def change(state: NodeState) -> None:
        all_changes = dict(changes)
        if (set_props or gone) and peer in state.routes:
            all_changes["properties"] = _edited(state.routes[peer].properties, set_props, gone)
        routes.alter(state, peer, all_changes, seq=seq)

    _edit(store, ref, change, {"routes": [peer]})


def route_properties(store: Store, node: str, peer: str) -> dict[str, str]:
    ref = _ems_node(store, node)
    state = store.load_node_slice(ref, {"routes": [peer]})
    if peer not in state.routes:
        raise NotFoundError(f"does not exist on {node}", obj=f"route {peer}")
    return dict(state.routes[peer].properties)


def delete_route(store: Store, node: str, peer: str) -> None:
    """EMS: the route's selectors go with it (they are properties of the route)."""
    ref = _ems_node(store, node)
    _edit(store, ref, lambda s: routes.delete(s, peer), {"routes": [peer]})


def define_route_selector(store: Store, rs: RouteSelector, *, replace: bool) -> None:
    ref = _ems_node(store, rs.node)
    seq = store.next_seq()
    _edit(
        store,
        ref,
        lambda s: route_selectors.define(s, rs, replace=replace, seq=seq),
        {"routes": [rs.peer]},
    )


def alter_route_selector(store: Store, node: str, key: tuple[str, str, str], selector: str | None) -> None:
    ref = _ems_node(store, node)
    seq = store.next_seq()
    _edit(store, ref, lambda s: route_selectors.alter(s, key, selector, seq=seq), {"routes": [key[0]]})


def delete_route_selector(store: Store, node: str, key: tuple[str, str, str]) -> None:
    ref = _ems_node(store, node)
    _edit(store, ref, lambda s: route_selectors.delete(s, key), {"routes": [key[0]]})
