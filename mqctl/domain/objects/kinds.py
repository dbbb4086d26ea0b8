"""One protocol for every object kind: ``check`` a definition, ``define``/``alter``/``delete`` it on a
node's state with the outside ``Facts``, and say what changed (a ``Change``).

Each class here adapts one kind's module (``nodes``, ``clusters``, ``topic_objects``, ...), where the
rules are written, to the protocol, so that ``apply`` needs no code per kind and no door does either.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Protocol

from mqctl.domain import memberships
from mqctl.domain.model import (
    Channel,
    Cluster,
    Dialect,
    Membership,
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
from mqctl.domain.objects.edit import AlreadyDefined, NotDefined
from mqctl.domain.objects.edits import NODE_CLUSTER_CHANGES, Change, Define, Edit, Facts, Kind

SHELL_MEMBERSHIP = frozenset({"join", "full_repositories", "leave"})


class KindRules(Protocol):
    """What every kind offers ``apply``."""

    def check(self, obj: Any, dialect: Dialect) -> None: ...

    def define(
        self, state: NodeState, edit: Edit, obj: Any, *, replace: bool, seq: int, facts: Facts
    ) -> Change: ...

    def alter(
        self, state: NodeState, edit: Edit, key: Any, changes: Mapping[str, Any], *, seq: int, facts: Facts
    ) -> Change: ...

    def delete(
        self, state: NodeState, edit: Edit, key: Any, *, cascade: bool, seq: int, facts: Facts
    ) -> Change: ...


def with_properties(old: Any, changes: Mapping[str, Any]) -> dict[str, Any]:
    """``set_properties``/``remove_properties`` (the shell's ``--prop``/``--remove-prop``, tibemsadmin's
    ``addprop``/``removeprop``) turned into the ``properties`` they give ``old`` (None: not defined)."""
    out = {k: v for k, v in changes.items() if k not in ("set_properties", "remove_properties")}
    if old is None or not ("set_properties" in changes or "remove_properties" in changes):
        return out
    props = dict(old.properties) | dict(changes.get("set_properties") or {})
    for key in changes.get("remove_properties") or ():
        props.pop(key, None)
    out["properties"] = props
    return out


class NodeRules:
    def check(self, obj: Node, dialect: Dialect) -> None:
        nodes.check(obj)

    def define(
        self, state: NodeState, edit: Edit, obj: Node, *, replace: bool, seq: int, facts: Facts
    ) -> Change:
        existing = state.node if facts.node_exists else None
        new = nodes.define(existing, obj, replace=replace, seq=seq, parent_dialect=facts.parent_dialect)
        state.node = new
        return Change(edit, existing, new)

    def alter(
        self, state: NodeState, edit: Edit, key: str, changes: Mapping[str, Any], *, seq: int, facts: Facts
    ) -> Change:
        """The attributes and REPOS (``repos``), as ALTER QMGR; then the shell's joins and leaves
        (``edits.NODE_CLUSTER_CHANGES``), which alone leave the node's own definition as it was."""
        before = state.node
        attrs = {k: v for k, v in changes.items() if k not in NODE_CLUSTER_CHANGES}
        if not (changes and set(changes) <= SHELL_MEMBERSHIP):  # ALTER QMGR, with or without REPOS
            nodes.alter(state, attrs, seq=seq, parent_dialect=facts.parent_dialect)
        if "repos" in changes:
            memberships.rederive(
                state,
                seq=seq,
                full_repos=set(changes["repos"]),
                released=memberships.full_repositories(state),
            )
        leave = list(changes.get("leave", ()))
        for cluster in leave:
            clusters.check_member(state.node.name, state.node.dialect, cluster)
        if "join" in changes or "full_repositories" in changes:
            clusters.join(
                state, list(changes.get("join", ())), list(changes.get("full_repositories", ())), seq=seq
            )
        clusters.leave(state, leave, seq=seq)
        return Change(edit, before, state.node)

    def delete(
        self, state: NodeState, edit: Edit, key: str, *, cascade: bool, seq: int, facts: Facts
    ) -> Change:
        nodes.check_delete(state.node, list(facts.dependents), cascade=cascade)
        return Change(edit, state.node, None)


class ClusterRules:
    """A cluster is a name of the whole model, not of a node: its facts say whether it is defined."""

    def check(self, obj: Cluster, dialect: Dialect) -> None:
        clusters.check(obj.name, obj.descr)

    def define(
        self, state: NodeState, edit: Edit, obj: Cluster, *, replace: bool, seq: int, facts: Facts
    ) -> Change:
        clusters.check(obj.name, obj.descr)
        if facts.cluster is not None and not replace:
            raise AlreadyDefined("is already defined", obj=f"cluster {obj.name}")
        before = None if facts.cluster is None else Cluster(obj.name, facts.cluster[1], facts.cluster[0])
        return Change(edit, before, dataclasses.replace(obj, seq=seq))

    def alter(
        self, state: NodeState, edit: Edit, key: str, changes: Mapping[str, Any], *, seq: int, facts: Facts
    ) -> Change:
        if facts.cluster is None:
            raise NotDefined("does not exist", obj=f"cluster {key}")
        descr = changes.get("descr")
        before = Cluster(key, facts.cluster[1], facts.cluster[0])
        after = Cluster(key, seq, before.descr if descr is None else descr)
        clusters.check(key, after.descr)
        return Change(edit, before, after)

    def delete(
        self, state: NodeState, edit: Edit, key: str, *, cascade: bool, seq: int, facts: Facts
    ) -> Change:
        if facts.cluster is None:
            raise NotDefined("does not exist", obj=f"cluster {key}")
        clusters.check_delete(key, list(facts.dependents), cascade=cascade)
        return Change(edit, Cluster(key, facts.cluster[1], facts.cluster[0]), None)


class MembershipRules:
    def check(self, obj: Membership, dialect: Dialect) -> None:
        clusters.check_member(obj.node, dialect, obj.cluster)

    def define(
        self, state: NodeState, edit: Edit, obj: Membership, *, replace: bool, seq: int, facts: Facts
    ) -> Change:
        before = state.memberships.get(obj.cluster)
        clusters.define_membership(state, obj.cluster, obj.full_repository, replace=replace, seq=seq)
        return Change(edit, before, state.memberships.get(obj.cluster))

    def alter(
        self, state: NodeState, edit: Edit, key: str, changes: Mapping[str, Any], *, seq: int, facts: Facts
    ) -> Change:
        before = state.memberships.get(key)
        clusters.alter_membership(state, key, changes.get("full_repository"), seq=seq)
        return Change(edit, before, state.memberships.get(key))

    def delete(
        self, state: NodeState, edit: Edit, key: str, *, cascade: bool, seq: int, facts: Facts
    ) -> Change:
        before = state.memberships.get(key)
        clusters.delete_membership(state, key, seq=seq)
        return Change(edit, before, None)


class TopicObjectRules:
    """MQ administrative topic objects (one TOPICSTR per object: ``Facts.topicstr_holder``)."""

    def check(self, obj: TopicObject, dialect: Dialect) -> None:
        topic_objects.check(obj)

    def define(
        self, state: NodeState, edit: Edit, obj: TopicObject, *, replace: bool, seq: int, facts: Facts
    ) -> Change:
        before = state.topics.get(obj.name)
        topic_objects.define(state, obj, replace=replace, seq=seq, holder=facts.topicstr_holder)
        return Change(edit, before, state.topics[obj.name])

    def alter(
        self, state: NodeState, edit: Edit, key: str, changes: Mapping[str, Any], *, seq: int, facts: Facts
    ) -> Change:
        before = state.topics.get(key)
        after = topic_objects.alter(state, key, with_properties(before, changes), seq=seq)
        return Change(edit, before, after)

    def delete(
        self, state: NodeState, edit: Edit, key: str, *, cascade: bool, seq: int, facts: Facts
    ) -> Change:
        return Change(edit, topic_objects.delete(state, key), None)


class EmsTopicRules:
    """EMS topic definitions: named by their pattern (without a TOPICSTR, the name is the pattern)."""

    def check(self, obj: TopicObject, dialect: Dialect) -> None:
        ems_definitions.check(obj)

    def define(
        self, state: NodeState, edit: Edit, obj: TopicObject, *, replace: bool, seq: int, facts: Facts
    ) -> Change:
        if not obj.topicstr:
            obj = dataclasses.replace(obj, topicstr=obj.name)
        before = state.topics.get(obj.name)
        ems_definitions.define(state, obj, replace=replace, seq=seq)
        return Change(edit, before, state.topics[obj.name])

    def alter(
        self, state: NodeState, edit: Edit, key: str, changes: Mapping[str, Any], *, seq: int, facts: Facts
    ) -> Change:
        before = state.topics.get(key)
        after = ems_definitions.alter(state, key, with_properties(before, changes), seq=seq)
        return Change(edit, before, after)

    def delete(
        self, state: NodeState, edit: Edit, key: str, *, cascade: bool, seq: int, facts: Facts
    ) -> Change:
        return Change(edit, ems_definitions.delete(state, key), None)


class SubscriptionRules:
    def check(self, obj: Subscription, dialect: Dialect) -> None:
        subscriptions.check(obj, dialect)

    def define(
        self, state: NodeState, edit: Edit, obj: Subscription, *, replace: bool, seq: int, facts: Facts
    ) -> Change:
        before = state.subscriptions.get(obj.name)
        observed = isinstance(edit, Define) and edit.observed
        subscriptions.define(state, obj, replace=replace, seq=seq, observed=observed)
        return Change(edit, before, state.subscriptions[obj.name])

    def alter(
        self, state: NodeState, edit: Edit, key: str, changes: Mapping[str, Any], *, seq: int, facts: Facts
    ) -> Change:
        before = state.subscriptions.get(key)
        return Change(edit, before, subscriptions.alter(state, key, changes, seq=seq))

    def delete(
        self, state: NodeState, edit: Edit, key: str, *, cascade: bool, seq: int, facts: Facts
    ) -> Change:
        return Change(edit, subscriptions.delete(state, key), None)


class NamelistRules:
    def check(self, obj: Namelist, dialect: Dialect) -> None:
        nodes.require_dialect(dialect, Dialect.MQ, "namelists", obj.node)
        namelists.check(obj)

    def define(
        self, state: NodeState, edit: Edit, obj: Namelist, *, replace: bool, seq: int, facts: Facts
    ) -> Change:
        nodes.require_dialect(state.node.dialect, Dialect.MQ, "namelists", state.node.name)
        before = state.namelists.get(obj.name)
        namelists.define(state, obj, replace=replace, seq=seq)
        return Change(edit, before, state.namelists[obj.name])

    def alter(
        self, state: NodeState, edit: Edit, key: str, changes: Mapping[str, Any], *, seq: int, facts: Facts
    ) -> Change:
        nodes.require_dialect(state.node.dialect, Dialect.MQ, "namelists", state.node.name)
        before = state.namelists.get(key)
        return Change(edit, before, namelists.alter(state, key, changes, seq=seq))

    def delete(
        self, state: NodeState, edit: Edit, key: str, *, cascade: bool, seq: int, facts: Facts
    ) -> Change:
        """As MQ: channels naming the namelist (CLUSNL) stay; the change's notes name them."""
        nodes.require_dialect(state.node.dialect, Dialect.MQ, "namelists", state.node.name)
        gone = namelists.delete(state, key, seq=seq)
        users = sorted(c.name for c in state.channels.values() if c.clusnl == key)
        return Change(
            edit, gone, None, notes=tuple(f"channel {c}: namelist {key} is not defined now" for c in users)
        )


class ChannelRules:
    def check(self, obj: Channel, dialect: Dialect) -> None:
        nodes.require_dialect(dialect, Dialect.MQ, "cluster channels", obj.node)
        channels.check(obj)

    def define(
        self, state: NodeState, edit: Edit, obj: Channel, *, replace: bool, seq: int, facts: Facts
    ) -> Change:
        nodes.require_dialect(state.node.dialect, Dialect.MQ, "cluster channels", state.node.name)
        before = state.channels.get(obj.name)
        channels.define(state, obj, replace=replace, seq=seq)
        after = state.channels[obj.name]
        return Change(edit, before, after, notes=_missing_namelist(state, after))

    def alter(
        self, state: NodeState, edit: Edit, key: str, changes: Mapping[str, Any], *, seq: int, facts: Facts
    ) -> Change:
        nodes.require_dialect(state.node.dialect, Dialect.MQ, "cluster channels", state.node.name)
        before = state.channels.get(key)
        after = channels.alter(state, key, changes, seq=seq)
        return Change(edit, before, after, notes=_missing_namelist(state, after))

    def delete(
        self, state: NodeState, edit: Edit, key: str, *, cascade: bool, seq: int, facts: Facts
    ) -> Change:
        nodes.require_dialect(state.node.dialect, Dialect.MQ, "cluster channels", state.node.name)
        return Change(edit, channels.delete(state, key, seq=seq), None)


def _missing_namelist(state: NodeState, ch: Channel) -> tuple[str, ...]:
    note = channels.missing_namelist(state, ch)
    return (note,) if note else ()


class RouteRules:
    def check(self, obj: Route, dialect: Dialect) -> None:
        nodes.require_dialect(dialect, Dialect.EMS, "routes", obj.node)
        routes.check(obj)

    def define(
        self, state: NodeState, edit: Edit, obj: Route, *, replace: bool, seq: int, facts: Facts
    ) -> Change:
        nodes.require_dialect(state.node.dialect, Dialect.EMS, "routes", state.node.name)
        before = state.routes.get(obj.peer)
        routes.define(state, obj, replace=replace, seq=seq, peer_dialect=facts.peer_dialect)
        return Change(edit, before, state.routes[obj.peer])

    def alter(
        self, state: NodeState, edit: Edit, key: str, changes: Mapping[str, Any], *, seq: int, facts: Facts
    ) -> Change:
        nodes.require_dialect(state.node.dialect, Dialect.EMS, "routes", state.node.name)
        before = state.routes.get(key)
        return Change(edit, before, routes.alter(state, key, with_properties(before, changes), seq=seq))

    def delete(
        self, state: NodeState, edit: Edit, key: str, *, cascade: bool, seq: int, facts: Facts
    ) -> Change:
        nodes.require_dialect(state.node.dialect, Dialect.EMS, "routes", state.node.name)
        before = state.routes.get(key)
        gone = routes.delete(state, key)
        return Change(edit, before, None, also_deleted=tuple(gone))


class RouteSelectorRules:
    def check(self, obj: RouteSelector, dialect: Dialect) -> None:
        nodes.require_dialect(dialect, Dialect.EMS, "route selectors", obj.node)
        route_selectors.check(obj)

    def define(
        self, state: NodeState, edit: Edit, obj: RouteSelector, *, replace: bool, seq: int, facts: Facts
    ) -> Change:
        nodes.require_dialect(state.node.dialect, Dialect.EMS, "routes", state.node.name)
        key = route_selectors.key(obj)
        before = next((s for s in state.route_selectors if route_selectors.key(s) == key), None)
        route_selectors.define(state, obj, replace=replace, seq=seq)
        after = next(s for s in state.route_selectors if route_selectors.key(s) == key)
        return Change(edit, before, after)

    def alter(
        self,
        state: NodeState,
        edit: Edit,
        key: route_selectors.Key,
        changes: Mapping[str, Any],
        *,
        seq: int,
        facts: Facts,
    ) -> Change:
        nodes.require_dialect(state.node.dialect, Dialect.EMS, "routes", state.node.name)
        after = route_selectors.alter(state, key, changes.get("selector"), seq=seq)
        return Change(edit, None, after)

    def delete(
        self, state: NodeState, edit: Edit, key: route_selectors.Key, *, cascade: bool, seq: int, facts: Facts
    ) -> Change:
        nodes.require_dialect(state.node.dialect, Dialect.EMS, "routes", state.node.name)
        return Change(edit, route_selectors.delete(state, key), None)


RULES: dict[Kind, KindRules] = {
    Kind.NODE: NodeRules(),
    Kind.CLUSTER: ClusterRules(),
    Kind.MEMBERSHIP: MembershipRules(),
    Kind.TOPIC: TopicObjectRules(),
    Kind.SUB: SubscriptionRules(),
    Kind.NAMELIST: NamelistRules(),
    Kind.CHANNEL: ChannelRules(),
    Kind.ROUTE: RouteRules(),
    Kind.ROUTE_SELECTOR: RouteSelectorRules(),
}
EMS_TOPIC_RULES: KindRules = EmsTopicRules()


def rules_for(kind: Kind, dialect: Dialect) -> KindRules:
    """The rules of ``kind`` on a node of ``dialect`` (a topic on an EMS server is a topic definition)."""
    if kind is Kind.TOPIC and dialect is Dialect.EMS:
        return EMS_TOPIC_RULES
    return RULES[kind]
