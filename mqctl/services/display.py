"""DISPLAY for every object type: the store's read models, plus what MQ makes of a topic object.

An MQ topic object's ``effective`` values are resolved through its queue manager's topic tree (its own
objects and its clusters' clustered objects, semantics §3): the domain's resolution, not a query.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from mqctl.domain.resolution import TopicTree, TopicTrees
from mqctl.domain.tree_view import effective_many
from mqctl.store.repository import Store

FEW_QMGRS = 4
"""Up to this many queue managers shown, each tree is built from its own slice of the store; beyond,
from the whole topic layer read once (one slice per queue manager re-reads its clusters' objects)."""


def display_topics(
    store: Store, pattern: str, exact: bool, node: str | None, *, effective: bool = True
) -> list[dict[str, Any]]:
    """The rows of ``display topic``; with ``effective`` (``-o json``: the table has no such column),
    each MQ row with the values its queue manager's tree makes effective."""
    shown = store.views.display_topics(pattern, exact, node, objects=effective)
    if not effective:
        return shown.rows
    by_qmgr: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for item, obj in zip(shown.rows, shown.objects, strict=True):
        if obj is not None:
            by_qmgr[obj.node].append(item)
    at: Callable[[str], TopicTree]
    if len(by_qmgr) > FEW_QMGRS:
        at = TopicTrees(store.views.topic_layer(shown.objects if shown.every else None)).at
    else:
        slices = {q: TopicTree.for_node(store.views.topic_space(q), q) for q in by_qmgr}
        at = slices.__getitem__
    for qmgr, items in by_qmgr.items():
        values = effective_many(at(qmgr), [i["topicstr"] for i in items])
        for item, value in zip(items, values, strict=True):
            item["effective"] = value
    return shown.rows
