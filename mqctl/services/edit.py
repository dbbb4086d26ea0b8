"""The one edit service: load what the edits read, ``apply`` them (the domain), create the nodes they
reference, save the difference — inside the caller's one unit of work.

Every door calls it: the shell with edit values (``edit``), the file doors (runmqsc, ``import mqsc``,
tibemsadmin, ``import ems``) with a script that runs ``apply`` once per statement over the whole node
(``run_script``), on a node they may create first (``create_node``). ``edit`` loads only the objects
the edits name and the facts they need (indexed queries, ``Store.load_node_slice``), so an edit costs
the same on a node holding 100,000 subscriptions as on an empty one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence

from mqctl.domain.errors import InputError
from mqctl.domain.model import Cluster, Dialect, Node, NodeState, Route, Subscription, TopicObject
from mqctl.domain.objects import routes, topic_objects
from mqctl.domain.objects.apply import apply
from mqctl.domain.objects.edits import NO_FACTS, Alter, Change, Define, Delete, Edit, Facts, Kind, reads
from mqctl.store.repository import NodeRef, Store

WHOLE_OVER = 256
"""Past this many objects of one collection named by the edits (a capture's thousands of subscriptions),
the collection is loaded whole, in one query, rather than one indexed query per object."""


def edit(
    store: Store,
    node: str | None,
    edits: Sequence[Edit],
    *,
    place: Callable[[int, InputError], InputError] | None = None,
) -> list[Change]:
    """Apply ``edits`` to ``node`` (None: cluster edits, which belong to no node) and save them.

    A ``Define`` of a node may come first: the node is then created or redefined, and the edits after
    it apply to it. ``place``: a door's positions, given the index of the edit the domain refused and
    its error, the error to raise (placed in the door's input)."""
    if node is None:
        return [_cluster_edit(store, e) for e in edits]
    first = edits[0] if edits else None
    defines_node = isinstance(first, Define) and first.kind is Kind.NODE
    ref = store.node(node) if defines_node else store.require_node(node)
    touched: frozenset[str] = frozenset()
    if ref is None:
        assert isinstance(first, Define) and isinstance(first.obj, Node)
        before = NodeState(node=first.obj)
    else:
        keys, parts = reads(edits)
        parts |= {attr for attr, named in keys.items() if len(named) > WHOLE_OVER}
        touched = frozenset(keys.get("topics", ()))
        before = store.load_node_slice(ref, keys, parts)
    after = _copy(before)
    changes = []
    for index, one in enumerate(edits):
        try:
            facts = _facts(store, ref, after, one, touched)
            change = apply(after, one, seq=store.next_seq(), facts=facts)
        except InputError as err:
            if place is None:
                raise
            raise place(index, err) from None
        changes.append(change)
        if isinstance(one, Delete) and one.kind is Kind.NODE:
            assert ref is not None
            store.delete_node(ref)  # the database drops its objects and routes to it, and unsets PARENT
            return changes
        if isinstance(one, Define) and one.kind is Kind.NODE and ref is None:
            _create_referenced(store, after.node, ())  # PARENT is a foreign key: the parent first
            ref = store.add_node(after.node)
            before = dataclasses.replace(before, node=after.node)
    assert ref is not None
    _create_referenced(store, after.node, _route_peers(changes))
    store.save_node_state(ref, before, after)
    return changes


def run_script(store: Store, ref: NodeRef, script: Callable[[NodeState], Iterable[str] | None]) -> None:
    """A file door's edits: ``script`` runs its statements (``apply`` each) over a shallow copy of the
    whole node, and returns the route peers it referenced (None: nothing to save, the script refused)."""
    before = store.load_node_state(ref)
    after = dataclasses.replace(before)
    peers = script(after)
    if peers is None:
        return
    _create_referenced(store, after.node, peers)
    store.save_node_state(ref, before, after)


def create_node(store: Store, node: Node) -> NodeRef:
    """A node new to the store (a file door's ``--create``, an import), defined by the domain's rules as
    ``edit`` defines one, without the loading ``edit`` does: one insert per file a door reads."""
    facts = Facts(parent_dialect=_dialect(store, node.parent), node_exists=False)
    created = apply(NodeState(node=node), Define(node), seq=store.next_seq(), facts=facts).after
    assert isinstance(created, Node)
    if created.parent is not None:
        _create_referenced(store, created, ())  # PARENT is a foreign key: the parent first
    return store.add_node(created)


def ensure_ems_peers(store: Store, peers: Iterable[str]) -> list[str]:
    """Route peers are EMS servers, created on first reference; returns those created."""
    wanted = sorted(set(peers))
    known = store.dialects(wanted)
    created = []
    for peer in wanted:
        routes.check_peer(Route("", peer), known.get(peer))
        if peer not in known:
            store.add_node(Node(peer, Dialect.EMS, seq=store.next_seq()))
            created.append(peer)
    return created


def _create_referenced(store: Store, node: Node, peers: Iterable[str]) -> None:
    """What the edits named and the model lacks: a hierarchy parent (a queue manager, as MQ accepts any
    name; an EMS server cannot be one) and route peers (EMS servers)."""
    if node.parent is not None:
        parent = store.node(node.parent)
        if parent is None:
            store.add_node(Node(node.parent, Dialect.MQ, seq=store.next_seq()))
        else:
            from mqctl.domain.objects import nodes

            nodes.check_parent(node, parent.dialect)
    ensure_ems_peers(store, peers)


def _route_peers(changes: list[Change]) -> list[str]:
    return [c.after.peer for c in changes if isinstance(c.edit, Define) and isinstance(c.after, Route)]


def _copy(state: NodeState) -> NodeState:
    """A state whose collections can change without touching ``state`` (the domain replaces objects,
    never changes them in place)."""
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


def _dialect(store: Store, name: str | None) -> Dialect | None:
    return None if not name else store.dialects([name]).get(name)


def _facts(store: Store, ref: NodeRef | None, state: NodeState, one: Edit, touched: frozenset[str]) -> Facts:
    """The facts ``one`` needs from outside the node, found with indexed queries; ``touched``: the topic
    objects the edits name, loaded into ``state``, where the edits before ``one`` may have changed them."""
    if isinstance(one, Define):
        obj = one.obj
        if type(obj) is Subscription:  # most edits of a capture: no facts, no further tests
            return NO_FACTS
        if isinstance(obj, Node):
            return Facts(parent_dialect=_dialect(store, obj.parent), node_exists=ref is not None)
        if isinstance(obj, Route):
            return Facts(peer_dialect=_dialect(store, obj.peer))
        if one.kind is Kind.TOPIC and state.node.dialect is Dialect.MQ and ref is not None:
            return Facts(topicstr_holder=_topicstr_holder(store, ref, state, obj, touched))
        return NO_FACTS
    if isinstance(one, Alter) and one.kind is Kind.NODE:
        return Facts(parent_dialect=_dialect(store, one.changes.get("parent")))
    if isinstance(one, Delete) and one.kind is Kind.NODE and ref is not None:
        return Facts(dependents=tuple(node_dependents(store, ref)))
    return NO_FACTS


def _topicstr_holder(
    store: Store, ref: NodeRef, state: NodeState, obj: object, touched: frozenset[str]
) -> str | None:
    """The other topic object holding ``obj``'s TOPICSTR: the store's, unless the edits name it (or
    another object takes the string in an earlier edit): then the working state's."""
    assert isinstance(obj, TopicObject)
    if not obj.topicstr:
        return None
    holder = store.topic_named_by_topicstr(ref, obj.topicstr)
    if holder is None or holder in touched:
        holder = topic_objects.holder_in(state, obj)  # the slice: only the objects the edits name
    return holder


def node_dependents(store: Store, ref: NodeRef) -> list[str]:
    """What depends on a node: its own objects, its hierarchy children, routes that name it."""
    out = [f"{n} {label}{'s' if n > 1 else ''}" for label, n in store.node_object_counts(ref)]
    out += [f"child qmgr {c}" for c in store.children(ref.name)]
    out += [f"route {ref.name} on {server}" for server in store.routes_to(ref.name) if server != ref.name]
    return out


def _cluster_edit(store: Store, one: Edit) -> Change:
    """A cluster's edit: its facts (the stored DESCR, what uses it), ``apply``, the store's row."""
    if isinstance(one, Define):
        assert isinstance(one.obj, Cluster)
        name = one.obj.name
    else:
        name = str(one.key)
    dependents: tuple[str, ...] = ()
    if isinstance(one, Delete):
        dependents = tuple([f"member {m}" for m in store.cluster_members(name)] + store.cluster_users(name))
    facts = Facts(cluster=store.cluster(name), dependents=dependents)
    change = apply(NodeState(Node("")), one, seq=store.next_seq(), facts=facts)
    if isinstance(change.after, Cluster):
        store.put_cluster(name, change.after.descr, change.after.seq)
    elif change.after is None:
        store.delete_cluster(name)  # the database drops its memberships, topics and channels
    return change
