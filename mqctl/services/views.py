"""The display commands' reads: the store's read models, after checking that a node the user named as a
filter exists (``display topic '*' --qmgr NOSUCH`` is a usage error, exit 2, not "no topics match").

Each function takes the command's read-only unit of work and returns rows (dicts with the keys
docs/cli.md documents for ``-o json``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mqctl.domain.errors import InputError
from mqctl.store.read_models import TOPIC_TABLE as _TOPIC_TABLE
from mqctl.store.read_models import TOPIC_TABLE_ALL as _TOPIC_TABLE_ALL

if TYPE_CHECKING:
    from collections.abc import Sequence

    from mqctl.domain.model import Topology
    from mqctl.domain.tree_view import TreeView
    from mqctl.store.repository import Store

QMGR = "queue manager"
SERVER = "EMS server"
TOPIC_TABLE = _TOPIC_TABLE
"""The columns of ``display topic``'s table (``topic_table``'s values, in order)."""
TOPIC_TABLE_ALL = _TOPIC_TABLE_ALL
"""The columns of ``display topic --all``'s table (``topic_table(..., every=True)``'s values)."""


def require_node(store: Store, node: str | None, what: str = QMGR, option: str = "--qmgr") -> None:
    """A node named as a filter must exist: "no such queue manager NOSUCH; did you mean QM1?", exit 2
    (as explain does). The nearest are among every node, the names the filter takes."""
    if node is not None and store.node(node) is None:
        from mqctl.domain.suggest import did_you_mean

        raise InputError(f"no such {what} {node}{did_you_mean(node, store.node_names())}", attribute=option)


def display_nodes(store: Store, pattern: str, exact: bool) -> list[dict[str, Any]]:
    return store.views.display_nodes(pattern, exact)


def display_clusters(store: Store, pattern: str, exact: bool) -> list[dict[str, Any]]:
    return store.views.display_clusters(pattern, exact)


def display_memberships(store: Store, node: str | None, cluster: str | None) -> list[dict[str, Any]]:
    require_node(store, node)
    return store.views.display_memberships(node, cluster)


def display_topics(
    store: Store, pattern: str, exact: bool, node: str | None, *, effective: bool = True
) -> list[dict[str, Any]]:
    from mqctl.services.display import display_topics as topics

    require_node(store, node)
    return topics(store, pattern, exact, node, effective=effective)


def topic_table(
    store: Store, pattern: str, exact: bool, node: str | None, *, every: bool = False
) -> list[tuple[Any, ...]]:
    """``display topic``'s table: the values of its columns only (``ReadModels.topic_table``); with
    ``every`` (``--all``), a column per attribute."""
    require_node(store, node)
    return store.views.topic_table(pattern, exact, node, every=every)


def display_subscriptions(store: Store, pattern: str, exact: bool, node: str | None) -> list[dict[str, Any]]:
    require_node(store, node)
    return store.views.display_subscriptions(pattern, exact, node)


def display_namelists(store: Store, pattern: str, exact: bool, node: str | None) -> list[dict[str, Any]]:
    require_node(store, node)
    return store.views.display_namelists(pattern, exact, node)


def display_channels(store: Store, pattern: str, exact: bool, node: str | None) -> list[dict[str, Any]]:
    require_node(store, node)
    return store.views.display_channels(pattern, exact, node)


def display_routes(store: Store, pattern: str, exact: bool, node: str | None) -> list[dict[str, Any]]:
    require_node(store, node, SERVER, "--server")
    return store.views.display_routes(pattern, exact, node)


def display_route_selectors(store: Store, node: str | None, route: str | None) -> list[dict[str, Any]]:
    require_node(store, node, SERVER, "--server")
    return store.views.display_route_selectors(node, route)


def diagram_topology(store: Store, topic: str | None) -> Topology:
    """What ``graph`` draws from: with ``topic``, the whole model (the subscriptions that match it, the
    objects its resolution walks); without, only the nodes, links and clustered topic objects it draws
    (``ReadModels.drawn_topology``: an estate's plain objects and subscriptions are most of its rows)."""
    if topic is not None:
        return store.topology()
    return store.views.drawn_topology()


def graph_topology(
    store: Store, topic: str | None, *, clusters: Sequence[str] = (), nodes: Sequence[str] = ()
) -> Topology:
    """What ``graph`` draws from (``diagram_topology``), after checking the clusters and nodes it is
    limited to: a cluster no queue manager is a member of, or a name that is no node, is a usage error
    naming the nearest (exit 2)."""
    from mqctl.domain.model import node_dialects
    from mqctl.domain.suggest import did_you_mean

    topology = diagram_topology(store, topic)
    known = {m.cluster for m in topology.memberships}
    for cluster in clusters:
        if cluster not in known:
            raise InputError(
                f"no such cluster (no queue manager is a member of it){did_you_mean(cluster, known)}",
                obj=f"cluster {cluster}",
                attribute="--cluster",
            )
    dialects = node_dialects(topology)
    for name in nodes:
        if name not in dialects:
            raise InputError(
                f"no such queue manager or EMS server{did_you_mean(name, dialects)}",
                obj=name,
                attribute="--node",
            )
    return topology


def tree_view(store: Store, qmgr: str, topic: str | None) -> TreeView:
    """A queue manager's topic tree, as ``display tree`` shows it: built from its slice of the store (its
    topic space and subscriptions), not the whole model. An unknown name is refused here, where every
    node's name is at hand for "did you mean" (the slice holds only that one); the domain refuses an
    EMS server."""
    from mqctl.domain.tree_view import tree_view as view

    require_node(store, qmgr)
    return view(store.views.tree_slice(qmgr), qmgr, topic)
