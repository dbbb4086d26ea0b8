"""define / alter / delete for every object type: plain functions over a ``Repository``.

Each follows MQSC's rules: DEFINE of an existing object needs REPLACE, ALTER and DELETE need the object,
every DEFINE/ALTER gives a new definition sequence (SEMANTICS §9), and deleting an object that others
depend on names them unless ``cascade`` is given.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import delete, select, update

from mqctl.domain import checks
from mqctl.domain.errors import ConflictError, InputError, NotFoundError
from mqctl.domain.memberships import channel_gives, rederive
from mqctl.domain.model import (
    Dialect,
    Membership,
    Node,
    NodeState,
    RouteSelector,
)
from mqctl.domain.names import node_label
from mqctl.store import tables
from mqctl.store.orm import ClusterRow
from mqctl.store.repository import Repository, edit_node

KIND_LABEL = {
    "topics": "topic",
    "subscriptions": "sub",
    "namelists": "namelist",
    "channels": "channel",
    "routes": "route",
}


def _with_seq(obj: Any, repo: Repository) -> Any:
    return dataclasses.replace(obj, seq=repo.next_seq())


# -- nodes ------------------------------------------------------------------------------------------
def define_node(
    repo: Repository,
    node: Node,
    *,
    clusters: list[str],
    full_repositories: list[str],
    replace: bool,
) -> None:
    checks.check_node(node)
    for c in clusters + full_repositories:
        checks.check_mq_name(c, "cluster")
    if (clusters or full_repositories) and node.dialect is Dialect.EMS:
        raise InputError(
            "an EMS server is not a member of MQ clusters", obj=f"server {node.name}", attribute="CLUSTER"
        )
    existing = repo.node_row(node.name)
    if existing is not None and not replace:
        raise ConflictError(
            "is already defined (use --replace to redefine it)",
            obj=f"{node_label(node.dialect)} {node.name}",
        )
    if existing is not None and existing.dialect != str(node.dialect):
        raise ConflictError(
            f"is defined as {existing.dialect}; delete it first to change its dialect",
            obj=f"node {node.name}",
        )
    node = _with_seq(node, repo)
    if existing is None:
        repo.add_node(node)
    else:
        repo.update_node(existing, node)

    def set_memberships(state: NodeState) -> None:
        for cluster in sorted(set(clusters) | set(full_repositories)):
            state.memberships[cluster] = Membership(
                node.name, cluster, cluster in full_repositories, repo.next_seq()
            )

    if clusters or full_repositories:
        edit_node(repo, node.name, set_memberships)


def alter_node(
    repo: Repository,
    name: str,
    changes: Mapping[str, Any],
    *,
    add_clusters: list[str],
    remove_clusters: list[str],
    full_repositories: list[str],
) -> None:
    row = repo.require_node(name, "node")

    def change(state: NodeState) -> None:
        node = dataclasses.replace(state.node, **changes, seq=repo.next_seq())
        checks.check_node(node)
        state.node = node
        for cluster in add_clusters + full_repositories:
            checks.check_mq_name(cluster, "cluster")
            if node.dialect is Dialect.EMS:
                raise InputError("an EMS server is not a member of MQ clusters", obj=f"server {name}")
            old = state.memberships.get(cluster)
            full = cluster in full_repositories or (old is not None and old.full_repository)
            state.memberships[cluster] = Membership(name, cluster, full, repo.next_seq())
        for cluster in remove_clusters:
            if state.memberships.pop(cluster, None) is None:
                raise NotFoundError(f"is not a member of cluster {cluster}", obj=f"qmgr {name}")

    del row
    edit_node(repo, name, change)


def node_dependents(repo: Repository, name: str) -> list[str]:
    """What depends on a node: its own objects, its hierarchy children, routes that name it."""
    row = repo.require_node(name, "node")
    out: list[str] = []
    for table, label in (
        (tables.topics, "topic"),
        (tables.subscriptions, "sub"),
        (tables.namelists, "namelist"),
        (tables.channels, "channel"),
        (tables.routes, "route"),
    ):
        n = repo.count(table, table.c.node_id == row.id)
        if n:
            out.append(f"{n} {label}{'s' if n > 1 else ''}")
    n = repo.count(tables.memberships, tables.memberships.c.node_id == row.id)
    if n:
        out.append(f"{n} cluster membership{'s' if n > 1 else ''}")
    children = repo.session.execute(
        select(tables.nodes.c.name).where(tables.nodes.c.parent == name)
    ).scalars()
    out += [f"child qmgr {c}" for c in sorted(children)]
    peers = repo.session.execute(
        select(tables.nodes.c.name)
        .join(tables.routes, tables.routes.c.node_id == tables.nodes.c.id)
        .where(tables.routes.c.peer == name)
    ).scalars()
    out += [f"route {name} on {p}" for p in sorted(peers)]
    return out


def delete_node(repo: Repository, name: str, *, cascade: bool) -> None:
    row = repo.require_node(name, "node")
    deps = node_dependents(repo, name)
    if deps and not cascade:
        label = node_label(Dialect(row.dialect))
        raise ConflictError(
            f"is used by {', '.join(deps)} (use --cascade to delete them too)", obj=f"{label} {name}"
        )
    repo.session.execute(update(tables.nodes).where(tables.nodes.c.parent == name).values(parent=None))
    repo.session.execute(delete(tables.routes).where(tables.routes.c.peer == name))
    repo.delete_node(row)


# -- clusters ---------------------------------------------------------------------------------------
def define_cluster(repo: Repository, name: str, descr: str, *, replace: bool) -> None:
    checks.check_mq_name(name, "cluster")
    checks.check_descr(descr, f"cluster {name}")
    row = repo.cluster_row(name)
    if row is not None and not replace:
        raise ConflictError("is already defined (use --replace to redefine it)", obj=f"cluster {name}")
    if row is None:
        repo.session.add(ClusterRow(name=name, descr=descr, seq=repo.next_seq()))
    else:
        row.descr, row.seq = descr, repo.next_seq()
    repo.session.flush()


def alter_cluster(repo: Repository, name: str, descr: str | None) -> None:
    row = _require_cluster(repo, name)
    if descr is not None:
        checks.check_descr(descr, f"cluster {name}")
        row.descr = descr
    row.seq = repo.next_seq()
    repo.session.flush()


def _require_cluster(repo: Repository, name: str) -> ClusterRow:
    row = repo.cluster_row(name)
    if row is None:
        raise NotFoundError("is not defined", obj=f"cluster {name}")
    return row


def cluster_dependents(repo: Repository, name: str) -> list[str]:
    row = _require_cluster(repo, name)
    out: list[str] = []
    members = repo.session.execute(
        select(tables.nodes.c.name)
        .join(tables.memberships, tables.memberships.c.node_id == tables.nodes.c.id)
        .where(tables.memberships.c.cluster_id == row.id)
        .order_by(tables.nodes.c.name)
    ).scalars()
    out += [f"member {m}" for m in members]
    topic_rows = repo.session.execute(
        select(tables.nodes.c.name, tables.topics.c.name)
        .join(tables.topics, tables.topics.c.node_id == tables.nodes.c.id)
        .where(tables.topics.c.cluster == name)
        .order_by(tables.nodes.c.name, tables.topics.c.name)
    ).all()
    out += [f"topic {t} on {n}" for n, t in topic_rows]
    chl_rows = repo.session.execute(
        select(tables.nodes.c.name, tables.channels.c.name)
        .join(tables.channels, tables.channels.c.node_id == tables.nodes.c.id)
        .where(tables.channels.c.cluster == name)
        .order_by(tables.nodes.c.name, tables.channels.c.name)
    ).all()
    out += [f"channel {c} on {n}" for n, c in chl_rows]
    return out


def delete_cluster(repo: Repository, name: str, *, cascade: bool) -> None:
    row = _require_cluster(repo, name)
    deps = cluster_dependents(repo, name)
    if deps and not cascade:
        raise ConflictError(
            f"is used by {', '.join(deps)} (use --cascade to delete them too)", obj=f"cluster {name}"
        )
    repo.session.execute(delete(tables.topics).where(tables.topics.c.cluster == name))
    repo.session.execute(delete(tables.channels).where(tables.channels.c.cluster == name))
    repo.session.execute(delete(tables.clusters).where(tables.clusters.c.id == row.id))


# -- memberships ------------------------------------------------------------------------------------
def define_membership(
    repo: Repository, node: str, cluster: str, full_repository: bool, *, replace: bool
) -> None:
    checks.check_mq_name(cluster, "cluster")

    def change(state: NodeState) -> None:
        if state.node.dialect is Dialect.EMS:
            raise InputError("an EMS server is not a member of MQ clusters", obj=f"server {node}")
        if cluster in state.memberships and not replace:
            raise ConflictError(
                f"is already a member of cluster {cluster} (use --replace)", obj=f"qmgr {node}"
            )
        state.memberships[cluster] = Membership(node, cluster, full_repository, repo.next_seq())

    edit_node(repo, node, change)


def alter_membership(repo: Repository, node: str, cluster: str, full_repository: bool | None) -> None:
    def change(state: NodeState) -> None:
        old = state.memberships.get(cluster)
        if old is None:
            raise NotFoundError(f"is not a member of cluster {cluster}", obj=f"qmgr {node}")
        full = old.full_repository if full_repository is None else full_repository
        state.memberships[cluster] = Membership(node, cluster, full, repo.next_seq())

    edit_node(repo, node, change)


def delete_membership(repo: Repository, node: str, cluster: str) -> None:
    def change(state: NodeState) -> None:
        if state.memberships.pop(cluster, None) is None:
            raise NotFoundError(f"is not a member of cluster {cluster}", obj=f"qmgr {node}")

    edit_node(repo, node, change)


# -- per-node objects -------------------------------------------------------------------------------
Checker = Callable[[Any, Dialect], None]


_CHECKERS: dict[str, Checker] = {
    "topics": checks.check_topic_object,
    "subscriptions": checks.check_subscription,
    "namelists": lambda o, d: checks.check_namelist(o),
    "channels": lambda o, d: checks.check_channel(o),
    "routes": lambda o, d: checks.check_route(o),
}


def _checker(attr: str) -> Checker:
    return _CHECKERS[attr]


_MQ_ONLY = {"namelists", "channels"}
_EMS_ONLY = {"routes"}


def _check_dialect(attr: str, state: NodeState) -> None:
    label = KIND_LABEL[attr]
    if attr in _MQ_ONLY and state.node.dialect is Dialect.EMS:
        raise InputError(f"an EMS server has no {label}s", obj=f"server {state.node.name}")
    if attr in _EMS_ONLY and state.node.dialect is Dialect.MQ:
        raise InputError(f"a queue manager has no EMS {label}s", obj=f"qmgr {state.node.name}")


def define_object(repo: Repository, node: str, attr: str, key: str, obj: Any, *, replace: bool) -> None:
    """DEFINE [REPLACE] of a topic, sub, namelist, channel or route on ``node``."""

    def change(state: NodeState) -> None:
        _check_dialect(attr, state)
        _checker(attr)(obj, state.node.dialect)
        objects: dict[str, Any] = getattr(state, attr)
        if key in objects and not replace:
            raise ConflictError(
                "is already defined (use --replace to redefine it)", obj=f"{KIND_LABEL[attr]} {key}"
            )
        old = objects.get(key)
        objects[key] = _with_seq(obj, repo)
        _after_change(state, attr, old, repo)

    edit_node(repo, node, change)


def alter_object(repo: Repository, node: str, attr: str, key: str, changes: Mapping[str, Any]) -> None:
    """ALTER: only the given attributes change; the object gets a new definition sequence."""

    def change(state: NodeState) -> None:
        objects: dict[str, Any] = getattr(state, attr)
        old = objects.get(key)
        if old is None:
            raise NotFoundError(f"is not defined on {node}", obj=f"{KIND_LABEL[attr]} {key}")
        new = dataclasses.replace(old, **changes, seq=repo.next_seq())
        _checker(attr)(new, state.node.dialect)
        objects[key] = new
        _after_change(state, attr, old, repo)

    edit_node(repo, node, change)


def _after_change(state: NodeState, attr: str, old: Any, repo: Repository) -> None:
    """Memberships follow the CLUSRCVR channels and their namelists, as in MQ (``domain.memberships``)."""
    if attr == "channels":
        for ch in state.channels.values():
            if ch.clusnl and ch.clusnl not in state.namelists:
                raise NotFoundError(
                    f"namelist {ch.clusnl} is not defined on {state.node.name}",
                    obj=f"channel {ch.name}",
                    attribute="CLUSNL",
                )
        rederive(state, seq=repo.next_seq(), released=channel_gives(state, old))
    elif attr == "namelists":
        rederive(state, seq=repo.next_seq(), released=set(old.names) if old is not None else set())


def object_dependents(state: NodeState, attr: str, key: str) -> list[str]:
    if attr == "topics":
        return [f"sub {s.name}" for s in state.subscriptions.values() if s.topicobj == key]
    if attr == "namelists":
        return [f"channel {c.name}" for c in state.channels.values() if c.clusnl == key]
    if attr == "routes":
        return [f"{rs.direction}_topic={rs.topic}" for rs in state.route_selectors if rs.peer == key]
    return []


def delete_object(repo: Repository, node: str, attr: str, key: str, *, cascade: bool) -> None:
    def change(state: NodeState) -> None:
        objects: dict[str, Any] = getattr(state, attr)
        if key not in objects:
            raise NotFoundError(f"is not defined on {node}", obj=f"{KIND_LABEL[attr]} {key}")
        deps = object_dependents(state, attr, key)
        if deps and not cascade:
            raise ConflictError(
                f"is used by {', '.join(sorted(deps))} (use --cascade to delete them too)",
                obj=f"{KIND_LABEL[attr]} {key}",
            )
        _after_change(state, attr, objects.pop(key), repo)
        if attr == "topics":
            for sub in [s for s in state.subscriptions.values() if s.topicobj == key]:
                del state.subscriptions[sub.name]
        elif attr == "namelists":
            for ch in [c for c in state.channels.values() if c.clusnl == key]:
                del state.channels[ch.name]
        elif attr == "routes":
            state.route_selectors = [rs for rs in state.route_selectors if rs.peer != key]

    edit_node(repo, node, change)


# -- route selectors --------------------------------------------------------------------------------
def _selector_index(state: NodeState, rs_key: tuple[str, str, str]) -> int | None:
    for i, rs in enumerate(state.route_selectors):
        if (rs.peer, str(rs.direction), rs.topic) == rs_key:
            return i
    return None


def define_route_selector(repo: Repository, rs: RouteSelector, *, replace: bool) -> None:
    def change(state: NodeState) -> None:
        _check_dialect("routes", state)
        if rs.peer not in state.routes:
            raise NotFoundError(
                f"route {rs.peer} is not defined on {rs.node}", obj=f"route selector {rs.topic}"
            )
        checks.check_route_selector(rs)
        i = _selector_index(state, (rs.peer, str(rs.direction), rs.topic))
        new = _with_seq(rs, repo)
        if i is not None and not replace:
            raise ConflictError(
                "is already defined (use --replace to redefine it)",
                obj=f"route {rs.peer} {rs.direction}_topic={rs.topic}",
            )
        if i is None:
            state.route_selectors.append(new)
        else:
            state.route_selectors[i] = new

    edit_node(repo, rs.node, change)


def alter_route_selector(
    repo: Repository, node: str, key: tuple[str, str, str], selector: str | None
) -> None:
    def change(state: NodeState) -> None:
        i = _selector_index(state, key)
        if i is None:
            raise NotFoundError(f"is not defined on {node}", obj=f"route {key[0]} {key[1]}_topic={key[2]}")
        old = state.route_selectors[i]
        new = dataclasses.replace(
            old, selector=old.selector if selector is None else selector, seq=repo.next_seq()
        )
        checks.check_route_selector(new)
        state.route_selectors[i] = new

    edit_node(repo, node, change)


def delete_route_selector(repo: Repository, node: str, key: tuple[str, str, str]) -> None:
    def change(state: NodeState) -> None:
        i = _selector_index(state, key)
        if i is None:
            raise NotFoundError(f"is not defined on {node}", obj=f"route {key[0]} {key[1]}_topic={key[2]}")
        del state.route_selectors[i]

    edit_node(repo, node, change)
