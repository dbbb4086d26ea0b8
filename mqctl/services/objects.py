"""The shell's define / alter / delete: each builds the edit values (``mqctl.domain.objects.edits``) from
the options and hands them to the one edit service (``services.edit.edit``), which loads what they read,
lets the domain ``apply`` them and saves the difference.

What a change does — DEFINE with REPLACE, ALTER, DELETE and what happens to dependents — is the domain's
(``mqctl.domain.objects``), the same for runmqsc, ``import mqsc``, the EMS readers and tibemsadmin. This
door adds only what a shell user reads: the ``--replace`` hint and the notes (``new_cluster_notes``, a
CLUSNL naming a namelist not defined yet, channels left naming a deleted namelist).

Functions that may name a new cluster return notes for stderr ("cluster EUU is new; did you mean EU?").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from mqctl.domain.errors import ConflictError, NotFoundError
from mqctl.domain.model import (
    Channel,
    Cluster,
    Dialect,
    Membership,
    Namelist,
    Node,
    Route,
    RouteSelector,
    Subscription,
    TopicObject,
)
from mqctl.domain.objects import clusters, nodes
from mqctl.domain.objects.edit import AlreadyDefined
from mqctl.domain.objects.edits import Alter, Change, Define, Delete, Edit, Kind
from mqctl.services.edit import edit
from mqctl.store.repository import TOPICS, NodeRef, Store

REPLACE_HINT = "is already defined (use --replace to redefine it)"


@contextmanager
def _shell_replies() -> Iterator[None]:
    """The domain's "is already defined", with the shell's way to redefine."""
    try:
        yield
    except AlreadyDefined as err:
        raise ConflictError(REPLACE_HINT, obj=err.obj) from None


def _edit(store: Store, node: str | None, *edits: Edit) -> list[Change]:
    with _shell_replies():
        return edit(store, node, edits)


def _notes(changes: Sequence[Change]) -> list[str]:
    return [note for change in changes for note in change.notes]


def _cluster_notes(store: Store, named: Iterable[str]) -> list[str]:
    wanted = [n for n in named if n]
    if not wanted:
        return []
    return clusters.new_cluster_notes(wanted, store.cluster_names())


def _props(set_props: Mapping[str, Any] | None, remove_props: Iterable[str]) -> dict[str, Any]:
    """``alter --prop``/``--remove-prop``: the free properties to set and to remove."""
    gone = list(remove_props)
    out: dict[str, Any] = {}
    if set_props:
        out["set_properties"] = dict(set_props)
    if gone:
        out["remove_properties"] = gone
    return out


# -- nodes ------------------------------------------------------------------------------------------
def define_node(
    store: Store, node: Node, *, clusters_: list[str], full_repositories: list[str], replace: bool
) -> list[str]:
    nodes.check(node)  # before its name is looked up: a name that is not text is the new node's fault
    for cluster in clusters_ + full_repositories:
        clusters.check_member(node.name, node.dialect, cluster)
    notes = _cluster_notes(store, clusters_ + full_repositories)
    edits: list[Edit] = [Define(node, replace=replace)]
    if clusters_ or full_repositories:
        edits.append(Alter(Kind.NODE, node.name, {"join": clusters_, "full_repositories": full_repositories}))
    _edit(store, node.name, *edits)
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
    store.require_node(name)
    notes = _cluster_notes(store, add_clusters + full_repositories)
    edits: list[Edit] = [Alter(Kind.NODE, name, dict(changes))]
    if add_clusters or full_repositories or remove_clusters:
        membership = {"join": add_clusters, "full_repositories": full_repositories, "leave": remove_clusters}
        edits.append(Alter(Kind.NODE, name, membership))
    _edit(store, name, *edits)
    return notes


def delete_node(store: Store, name: str, *, cascade: bool) -> None:
    _edit(store, name, Delete(Kind.NODE, name, cascade=cascade))


# -- clusters ---------------------------------------------------------------------------------------
def define_cluster(store: Store, name: str, descr: str, *, replace: bool) -> None:
    _edit(store, None, Define(Cluster(name, descr=descr), replace=replace))


def alter_cluster(store: Store, name: str, descr: str | None) -> None:
    _edit(store, None, Alter(Kind.CLUSTER, name, {} if descr is None else {"descr": descr}))


def delete_cluster(store: Store, name: str, *, cascade: bool) -> None:
    _edit(store, None, Delete(Kind.CLUSTER, name, cascade=cascade))


# -- memberships ------------------------------------------------------------------------------------
def define_membership(
    store: Store, node: str, cluster: str, full_repository: bool, *, replace: bool
) -> list[str]:
    ref = store.require_node(node)
    clusters.check_member(node, ref.dialect, cluster)
    notes = _cluster_notes(store, [cluster])
    _edit(store, node, Define(Membership(node, cluster, full_repository), replace=replace))
    return notes


def alter_membership(store: Store, node: str, cluster: str, full_repository: bool | None) -> None:
    _edit(store, node, Alter(Kind.MEMBERSHIP, cluster, {"full_repository": full_repository}))


def delete_membership(store: Store, node: str, cluster: str) -> None:
    _edit(store, node, Delete(Kind.MEMBERSHIP, cluster))


# -- topic objects and EMS topic definitions --------------------------------------------------------
def define_topic(store: Store, topic: TopicObject, *, replace: bool) -> list[str]:
    """An EMS definition is named by its pattern: without a TOPICSTR, the name is the pattern."""
    ref = store.require_node(topic.node)
    notes = [] if ref.dialect is Dialect.EMS else _cluster_notes(store, [topic.cluster])
    _edit(store, topic.node, Define(topic, replace=replace))
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
    store.require_node(node)
    notes = _cluster_notes(store, [changes.get("cluster") or ""])
    _edit(store, node, Alter(Kind.TOPIC, name, {**changes, **_props(set_props, remove_props)}))
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
    _edit(store, node, Delete(Kind.TOPIC, name))


# -- subscriptions ----------------------------------------------------------------------------------
def define_sub(store: Store, sub: Subscription, *, replace: bool, dialect_durable: bool = False) -> None:
    """DEFINE SUB; with TOPICOBJ, the object's TOPICSTR prefixes the given one (MQ's rule).

    ``dialect_durable``: durable or not as the node's dialect has it by default (durable on MQ, a
    non-durable JMS subscriber on EMS, semantics §9) instead of ``sub.durable``."""
    if dialect_durable:
        ref = store.require_node(sub.node)
        sub = dataclasses.replace(sub, durable=ref.dialect is Dialect.MQ)
    _edit(store, sub.node, Define(sub, replace=replace))


def alter_sub(store: Store, node: str, name: str, changes: Mapping[str, Any]) -> None:
    _edit(store, node, Alter(Kind.SUB, name, dict(changes)))


def delete_sub(store: Store, node: str, name: str) -> None:
    _edit(store, node, Delete(Kind.SUB, name))


# -- namelists and channels (they give memberships) -------------------------------------------------
def _mq_node(store: Store, node: str, what: str) -> NodeRef:
    ref = store.require_node(node)
    nodes.require_dialect(ref.dialect, Dialect.MQ, what, ref.name)
    return ref


def define_namelist(store: Store, nl: Namelist, *, replace: bool) -> None:
    _edit(store, nl.node, Define(nl, replace=replace))


def alter_namelist(store: Store, node: str, name: str, changes: Mapping[str, Any]) -> None:
    _edit(store, node, Alter(Kind.NAMELIST, name, dict(changes)))


def delete_namelist(store: Store, node: str, name: str) -> list[str]:
    """As MQ: the namelist goes; channels naming it (CLUSNL) stay and give no membership until it is
    defined again. Returns a note naming them."""
    return _notes(_edit(store, node, Delete(Kind.NAMELIST, name)))


def define_channel(store: Store, ch: Channel, *, replace: bool) -> list[str]:
    _mq_node(store, ch.node, "cluster channels")
    notes = _cluster_notes(store, [ch.cluster])
    return notes + _notes(_edit(store, ch.node, Define(ch, replace=replace)))


def alter_channel(store: Store, node: str, name: str, changes: Mapping[str, Any]) -> list[str]:
    _mq_node(store, node, "cluster channels")
    notes = _cluster_notes(store, [changes.get("cluster") or ""])
    return notes + _notes(_edit(store, node, Alter(Kind.CHANNEL, name, dict(changes))))


def delete_channel(store: Store, node: str, name: str) -> None:
    _edit(store, node, Delete(Kind.CHANNEL, name))


# -- routes and route selectors ---------------------------------------------------------------------
def define_route(store: Store, route: Route, *, replace: bool) -> None:
    _edit(store, route.node, Define(route, replace=replace))


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
    _edit(store, node, Alter(Kind.ROUTE, peer, {**changes, **_props(set_props, remove_props)}))


def route_properties(store: Store, node: str, peer: str) -> dict[str, str]:
    ref = store.require_node(node)
    nodes.require_dialect(ref.dialect, Dialect.EMS, "routes", ref.name)
    state = store.load_node_slice(ref, {"routes": [peer]})
    if peer not in state.routes:
        raise NotFoundError(f"does not exist on {node}", obj=f"route {peer}")
    return dict(state.routes[peer].properties)


def delete_route(store: Store, node: str, peer: str) -> None:
    """EMS: the route's selectors go with it (they are properties of the route)."""
    _edit(store, node, Delete(Kind.ROUTE, peer))


def define_route_selector(store: Store, rs: RouteSelector, *, replace: bool) -> None:
    _edit(store, rs.node, Define(rs, replace=replace))


def alter_route_selector(store: Store, node: str, key: tuple[str, str, str], selector: str | None) -> None:
    _edit(store, node, Alter(Kind.ROUTE_SELECTOR, key, {"selector": selector}))


def delete_route_selector(store: Store, node: str, key: tuple[str, str, str]) -> None:
    _edit(store, node, Delete(Kind.ROUTE_SELECTOR, key))
