"""define / alter / delete for every object type: plain functions over a ``Store`` and domain values.

Each follows MQSC's rules: DEFINE of an existing object needs REPLACE, ALTER and DELETE need the object,
every DEFINE/ALTER gives a new definition sequence (SEMANTICS §9), and deleting an object that others
depend on names them unless ``cascade`` is given. What MQ or EMS refuses is decided by the rule modules of
``mqctl.domain.rules`` (the same ones the MQSC and EMS doors call); these functions find the facts the
rules need with indexed queries and write one object, so an edit costs the same on a node holding
100,000 subscriptions as on an empty one. Memberships follow the cluster channels and namelists, as in
MQ (``domain.memberships``): only those edits load the node's channels, namelists and memberships.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from mqctl.domain import memberships
from mqctl.domain.errors import ConflictError, InputError, NotFoundError
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
from mqctl.domain.names import node_label
from mqctl.domain.rules import (
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
from mqctl.store.repository import (
    CLUSTER_PARTS,
    ROUTES,
    SUBSCRIPTIONS,
    TOPICS,
    Kind,
    NodeRef,
    Store,
)

REPLACE_HINT = "is already defined (use --replace to redefine it)"


def _already(obj: str) -> ConflictError:
    return ConflictError(REPLACE_HINT, obj=obj)


def _in_use(obj: str, users: list[str]) -> ConflictError:
    return ConflictError(f"is used by {', '.join(users)} (use --cascade to delete them too)", obj=obj)


def _missing(obj: str, node: str) -> NotFoundError:
    return NotFoundError(f"does not exist on {node}", obj=obj)


def _edit_clusters(store: Store, ref: NodeRef, change: Callable[[NodeState], None]) -> None:
    """Edit a node's channels, namelists and memberships together (memberships are derived from them)."""
    before = store.load_node_state(ref, CLUSTER_PARTS)
    after = dataclasses.replace(
        before,
        memberships=dict(before.memberships),
        namelists=dict(before.namelists),
        channels=dict(before.channels),
    )
    change(after)
    store.save_node_state(ref, before, after)


# -- nodes ------------------------------------------------------------------------------------------
def define_node(
    store: Store, node: Node, *, clusters_: list[str], full_repositories: list[str], replace: bool
) -> None:
    nodes.check(node)
    for cluster in clusters_ + full_repositories:
        clusters.check_member(node.name, node.dialect, cluster)
    existing = store.node(node.name)
    if existing is not None:
        if not replace:
            raise _already(nodes.label(node))
        nodes.check_change(existing.node, node)
    _check_parent(store, node)
    node = dataclasses.replace(node, seq=store.next_seq())
    ref = store.add_node(node) if existing is None else store.update_node(existing, node)
    if clusters_ or full_repositories:
        seq = store.next_seq()
        _edit_clusters(store, ref, lambda s: memberships.join(s, clusters_, full_repositories, seq=seq))


def _check_parent(store: Store, node: Node) -> None:
    """PARENT names a queue manager; one not defined yet is created, as MQ accepts any name."""
    if node.parent is None:
        return
    parent = store.node(node.parent)
    nodes.check_parent(node, parent.dialect if parent is not None else None)
    if parent is None:
        store.add_node(Node(node.parent, Dialect.MQ, seq=store.next_seq()))


def alter_node(
    store: Store,
    name: str,
    changes: Mapping[str, Any],
    *,
    add_clusters: list[str],
    remove_clusters: list[str],
    full_repositories: list[str],
) -> None:
    ref = store.require_node(name)
    node = dataclasses.replace(ref.node, **changes, seq=store.next_seq())
    nodes.check_change(ref.node, node)
    for cluster in add_clusters + full_repositories + remove_clusters:
        clusters.check_member(name, node.dialect, cluster)
    _check_parent(store, node)
    ref = store.update_node(ref, node)
    if add_clusters or full_repositories or remove_clusters:
        seq = store.next_seq()

        def change(state: NodeState) -> None:
            memberships.join(state, add_clusters, full_repositories, seq=seq)
            for cluster in remove_clusters:
                memberships.leave(state, cluster, seq=seq)

        _edit_clusters(store, ref, change)


def node_dependents(store: Store, ref: NodeRef) -> list[str]:
    """What depends on a node: its own objects, its hierarchy children, routes that name it."""
    out = [f"{n} {label}{'s' if n > 1 else ''}" for label, n in store.node_object_counts(ref)]
    out += [f"child qmgr {c}" for c in store.children(ref.name)]
    out += [f"route {ref.name} on {server}" for server in store.routes_to(ref.name) if server != ref.name]
    return out


def delete_node(store: Store, name: str, *, cascade: bool) -> None:
    ref = store.require_node(name)
    deps = node_dependents(store, ref)
    if deps and not cascade:
        raise _in_use(f"{node_label(ref.dialect)} {name}", deps)
    store.delete_node(ref)  # the database drops its objects and routes to it, and unsets PARENT


# -- clusters ---------------------------------------------------------------------------------------
def define_cluster(store: Store, name: str, descr: str, *, replace: bool) -> None:
    clusters.check(name, descr)
    if store.cluster(name) is not None and not replace:
        raise _already(f"cluster {name}")
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
    if deps and not cascade:
        raise _in_use(f"cluster {name}", deps)
    store.delete_cluster(name)  # the database drops its memberships, topics and channels


# -- memberships ------------------------------------------------------------------------------------
def define_membership(store: Store, node: str, cluster: str, full_repository: bool, *, replace: bool) -> None:
    ref = store.require_node(node)
    clusters.check_member(node, ref.dialect, cluster)
    seq = store.next_seq()

    def change(state: NodeState) -> None:
        if cluster in state.memberships and not replace:
            raise ConflictError(
                f"is already a member of cluster {cluster} (use --replace)", obj=f"qmgr {node}"
            )
        memberships.join(state, [cluster], [], seq=seq)
        memberships.set_full_repository(state, cluster, full_repository, seq=seq)

    _edit_clusters(store, ref, change)


def alter_membership(store: Store, node: str, cluster: str, full_repository: bool | None) -> None:
    ref = store.require_node(node)
    seq = store.next_seq()

    def change(state: NodeState) -> None:
        old = state.memberships.get(cluster)
        if old is None:
            raise NotFoundError(f"is not a member of cluster {cluster}", obj=f"qmgr {node}")
        if full_repository is not None:
            memberships.set_full_repository(state, cluster, full_repository, seq=seq)

    _edit_clusters(store, ref, change)


def delete_membership(store: Store, node: str, cluster: str) -> None:
    ref = store.require_node(node)
    seq = store.next_seq()
    _edit_clusters(store, ref, lambda state: memberships.leave(state, cluster, seq=seq))


# -- topic objects and EMS topic definitions --------------------------------------------------------
def _check_topic(ref: NodeRef, topic: TopicObject) -> None:
    if ref.dialect is Dialect.EMS:
        ems_definitions.check(topic)
    else:
        topic_objects.check(topic)


def _topicstr_holder(store: Store, ref: NodeRef, topic: TopicObject) -> None:
    if ref.dialect is Dialect.MQ:
        topic_objects.check_unique_topicstr(topic, store.topic_named_by_topicstr(ref, topic.topicstr))


def _define(
    store: Store, kind: Kind, ref: NodeRef, obj: Any, label: str, replace: bool, before: Callable[[], object]
) -> None:
    """DEFINE [REPLACE] of one object: refused when it exists without REPLACE; ``before`` checks what
    else the rules need, then the object is written with the next definition sequence."""
    found = store.find(kind, ref, getattr(obj, kind.key_field))
    if found is not None and not replace:
        raise _already(label)
    before()
    obj = dataclasses.replace(obj, seq=store.next_seq())
    if found is None:
        store.insert(kind, ref, obj)
    else:
        store.update(kind, found[0], ref, obj)


def define_topic(store: Store, topic: TopicObject, *, replace: bool) -> None:
    ref = store.require_node(topic.node)
    _check_topic(ref, topic)

    def before() -> None:
        _topicstr_holder(store, ref, topic)
        store.ensure_clusters([topic.cluster])

    _define(store, TOPICS, ref, topic, f"topic {topic.name}", replace, before)


def alter_topic(store: Store, node: str, name: str, changes: Mapping[str, Any]) -> None:
    ref = store.require_node(node)
    row_id, old = _require(store, TOPICS, ref, name, "topic")
    new = dataclasses.replace(old, **changes, seq=store.next_seq())
    if ref.dialect is Dialect.EMS:
        if new.topicstr != old.topicstr:
            raise InputError("an EMS topic definition is named by its topic pattern", obj=f"topic {name}")
        ems_definitions.check(new)
    else:
        topic_objects.check_change(old, new)
    store.ensure_clusters([new.cluster])
    store.update(TOPICS, row_id, ref, new)


def topic_properties(store: Store, node: str, name: str) -> dict[str, str | None]:
    """The stored properties of an EMS topic definition (``alter topic --prop`` edits them)."""
    ref = store.require_node(node)
    return dict(_require(store, TOPICS, ref, name, "topic")[1].properties)


def delete_topic(store: Store, node: str, name: str, *, cascade: bool) -> None:
    ref = store.require_node(node)
    row_id, _ = _require(store, TOPICS, ref, name, "topic")
    users = store.subscriptions_naming_topic(ref, name)
    if users and not cascade:
        raise _in_use(f"topic {name}", [f"sub {sub} (TOPICOBJ)" for _, sub in users])
    for sub_id, _ in users:
        store.delete_row(SUBSCRIPTIONS, sub_id)
    store.delete_row(TOPICS, row_id)


# -- subscriptions ----------------------------------------------------------------------------------
def define_sub(store: Store, sub: Subscription, *, replace: bool) -> None:
    """DEFINE SUB; with TOPICOBJ, the object's TOPICSTR prefixes the given one (MQ's rule)."""
    ref = store.require_node(sub.node)
    if sub.topicobj:
        found_obj = store.find(TOPICS, ref, sub.topicobj) if ref.dialect is Dialect.MQ else None
        prefix = found_obj[1].topicstr if found_obj is not None else None
        sub = dataclasses.replace(
            sub, topicstr=subscriptions.topicobj_prefix(sub.topicstr, prefix, f"sub {sub.name}")
        )
    subscriptions.check(sub, ref.dialect)
    _define(store, SUBSCRIPTIONS, ref, sub, f"sub {sub.name}", replace, lambda: None)


def alter_sub(store: Store, node: str, name: str, changes: Mapping[str, Any]) -> None:
    ref = store.require_node(node)
    row_id, old = _require(store, SUBSCRIPTIONS, ref, name, "sub")
    new = dataclasses.replace(old, **changes, seq=store.next_seq())
    subscriptions.check_change(old, new, ref.dialect)
    store.update(SUBSCRIPTIONS, row_id, ref, new)


def delete_sub(store: Store, node: str, name: str) -> None:
    ref = store.require_node(node)
    row_id, _ = _require(store, SUBSCRIPTIONS, ref, name, "sub")
    store.delete_row(SUBSCRIPTIONS, row_id)


# -- namelists and channels (they give memberships) -------------------------------------------------
def define_namelist(store: Store, nl: Namelist, *, replace: bool) -> None:
    ref = store.require_node(nl.node)
    nodes.require_dialect(ref.dialect, Dialect.MQ, "namelists", ref.name)
    namelists.check(nl)
    seq = store.next_seq()

    def change(state: NodeState) -> None:
        old = state.namelists.get(nl.name)
        if old is not None and not replace:
            raise _already(f"namelist {nl.name}")
        state.namelists[nl.name] = dataclasses.replace(nl, seq=seq)
        memberships.rederive(state, seq=seq, released=set(old.names) if old is not None else set())

    _edit_clusters(store, ref, change)


def alter_namelist(store: Store, node: str, name: str, changes: Mapping[str, Any]) -> None:
    ref = store.require_node(node)
    seq = store.next_seq()

    def change(state: NodeState) -> None:
        old = state.namelists.get(name)
        if old is None:
            raise _missing(f"namelist {name}", node)
        new = dataclasses.replace(old, **changes, seq=seq)
        namelists.check(new)
        state.namelists[name] = new
        memberships.rederive(state, seq=seq, released=set(old.names))

    _edit_clusters(store, ref, change)


def delete_namelist(store: Store, node: str, name: str, *, cascade: bool) -> None:
    ref = store.require_node(node)
    seq = store.next_seq()

    def change(state: NodeState) -> None:
        old = state.namelists.get(name)
        if old is None:
            raise _missing(f"namelist {name}", node)
        users = sorted(c.name for c in state.channels.values() if c.clusnl == name)
        if users and not cascade:
            raise _in_use(f"namelist {name}", [f"channel {c}" for c in users])
        released = set(old.names)
        for channel in users:
            released |= memberships.channel_gives(state, state.channels.pop(channel))
        del state.namelists[name]
        memberships.rederive(state, seq=seq, released=released)

    _edit_clusters(store, ref, change)


def _check_clusnl(state: NodeState, ch: Channel) -> None:
    if ch.clusnl and ch.clusnl not in state.namelists:
        raise NotFoundError(
            f"namelist {ch.clusnl} is not defined on {state.node.name}",
            obj=f"channel {ch.name}",
            attribute="CLUSNL",
        )


def define_channel(store: Store, ch: Channel, *, replace: bool) -> None:
    ref = store.require_node(ch.node)
    nodes.require_dialect(ref.dialect, Dialect.MQ, "cluster channels", ref.name)
    channels.check(ch)
    seq = store.next_seq()

    def change(state: NodeState) -> None:
        old = state.channels.get(ch.name)
        if old is not None:
            if not replace:
                raise _already(f"channel {ch.name}")
            channels.check_change(old, ch)
        _check_clusnl(state, ch)
        state.channels[ch.name] = dataclasses.replace(ch, seq=seq)
        memberships.rederive(state, seq=seq, released=memberships.channel_gives(state, old))

    _edit_clusters(store, ref, change)


def alter_channel(store: Store, node: str, name: str, changes: Mapping[str, Any]) -> None:
    ref = store.require_node(node)
    seq = store.next_seq()

    def change(state: NodeState) -> None:
        old = state.channels.get(name)
        if old is None:
            raise _missing(f"channel {name}", node)
        new = dataclasses.replace(old, **changes, seq=seq)
        if "cluster" in changes and new.cluster:
            new.clusnl = ""
        if "clusnl" in changes and new.clusnl:
            new.cluster = ""
        channels.check_change(old, new)
        _check_clusnl(state, new)
        state.channels[name] = new
        memberships.rederive(state, seq=seq, released=memberships.channel_gives(state, old))

    _edit_clusters(store, ref, change)


def delete_channel(store: Store, node: str, name: str) -> None:
    ref = store.require_node(node)
    seq = store.next_seq()

    def change(state: NodeState) -> None:
        old = state.channels.pop(name, None)
        if old is None:
            raise _missing(f"channel {name}", node)
        memberships.rederive(state, seq=seq, released=memberships.channel_gives(state, old))

    _edit_clusters(store, ref, change)


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


def define_route(store: Store, route: Route, *, replace: bool) -> None:
    ref = store.require_node(route.node)
    nodes.require_dialect(ref.dialect, Dialect.EMS, "routes", ref.name)
    routes.check(route)
    _define(
        store,
        ROUTES,
        ref,
        route,
        f"route {route.peer}",
        replace,
        lambda: ensure_ems_peers(store, [route.peer]),
    )


def alter_route(store: Store, node: str, peer: str, changes: Mapping[str, Any]) -> None:
    ref = store.require_node(node)
    row_id, old = _require(store, ROUTES, ref, peer, "route")
    new = dataclasses.replace(old, **changes, seq=store.next_seq())
    routes.check_change(old, new)
    store.update(ROUTES, row_id, ref, new)


def route_properties(store: Store, node: str, peer: str) -> dict[str, str]:
    ref = store.require_node(node)
    return dict(_require(store, ROUTES, ref, peer, "route")[1].properties)


def delete_route(store: Store, node: str, peer: str, *, cascade: bool) -> None:
    ref = store.require_node(node)
    row_id, _ = _require(store, ROUTES, ref, peer, "route")
    selectors = store.route_selectors(row_id, node, peer)
    if selectors and not cascade:
        raise _in_use(f"route {peer}", [f"{rs.direction}_topic={rs.topic}" for _, rs in selectors])
    store.delete_row(ROUTES, row_id)  # the database drops its selectors


def _route_selector(
    store: Store, node: str, key: tuple[str, str, str]
) -> tuple[int, list[tuple[int, RouteSelector]]]:
    """The route's row id and its selectors."""
    ref = store.require_node(node)
    nodes.require_dialect(ref.dialect, Dialect.EMS, "routes", ref.name)
    found = store.find(ROUTES, ref, key[0])
    if found is None:
        raise NotFoundError(f"route {key[0]} is not defined on {node}", obj=f"route selector {key[2]}")
    return found[0], store.route_selectors(found[0], node, key[0])


def _selector_key(rs: RouteSelector) -> tuple[str, str, str]:
    return (rs.peer, str(rs.direction), rs.topic)


def define_route_selector(store: Store, rs: RouteSelector, *, replace: bool) -> None:
    route_id, existing = _route_selector(store, rs.node, _selector_key(rs))
    route_selectors.check(rs)
    same = next((row for row, old in existing if _selector_key(old) == _selector_key(rs)), None)
    if same is not None and not replace:
        raise _already(route_selectors.label(rs))
    rs = dataclasses.replace(rs, seq=store.next_seq())
    if same is None:
        store.insert_route_selector(route_id, rs)
    else:
        store.update_route_selector(same, route_id, rs)


def alter_route_selector(store: Store, node: str, key: tuple[str, str, str], selector: str | None) -> None:
    route_id, existing = _route_selector(store, node, key)
    row_id, old = _require_selector(existing, node, key)
    new = dataclasses.replace(
        old, selector=old.selector if selector is None else selector, seq=store.next_seq()
    )
    route_selectors.check(new)
    store.update_route_selector(row_id, route_id, new)


def delete_route_selector(store: Store, node: str, key: tuple[str, str, str]) -> None:
    _, existing = _route_selector(store, node, key)
    row_id, _ = _require_selector(existing, node, key)
    store.delete_route_selector(row_id)


def _require_selector(
    existing: list[tuple[int, RouteSelector]], node: str, key: tuple[str, str, str]
) -> tuple[int, RouteSelector]:
    for row_id, rs in existing:
        if _selector_key(rs) == key:
            return row_id, rs
    raise _missing(f"route {key[0]} {key[1]}_topic={key[2]}", node)


def _require(store: Store, kind: Kind, ref: NodeRef, key: str, label: str) -> tuple[int, Any]:
    found = store.find(kind, ref, key)
    if found is None:
        raise _missing(f"{label} {key}", ref.name)
    return found
