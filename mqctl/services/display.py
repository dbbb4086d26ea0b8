"""DISPLAY for every object type: the store's read models, plus what MQ makes of a topic object.

An MQ topic object's ``effective`` values are resolved through its queue manager's topic tree (its own
objects and its clusters' clustered objects, SEMANTICS §3): the domain's resolution, not a query.
"""

from __future__ import annotations

from typing import Any

from mqctl.domain.model import Dialect
from mqctl.domain.resolution import Resolution, TopicTree
from mqctl.store import read_models
from mqctl.store.repository import Store


def display_topics(store: Store, pattern: str, exact: bool, node: str | None) -> list[dict[str, Any]]:
    out = read_models.display_topics(store, pattern, exact, node)
    trees: dict[str, TopicTree] = {}
    for item in out:
        if item["dialect"] == str(Dialect.MQ):
            if item["qmgr"] not in trees:
                space = read_models.topic_space(store, item["qmgr"])
                trees[item["qmgr"]] = TopicTree.for_node(space, item["qmgr"])
            item["effective"] = _effective(trees[item["qmgr"]].resolve(item["topicstr"]))
    return out


def _effective(resolution: Resolution) -> dict[str, Any]:
    """The values MQ uses once ASPARENT and a blank CLUSTER are resolved through the topic tree."""
    return {
        "cluster": resolution.cluster,
        "clroute": str(resolution.clroute) if resolution.cluster else None,
        "pubscope": str(resolution.pubscope),
        "subscope": str(resolution.subscope),
        "pub": str(resolution.pub),
        "sub": str(resolution.sub),
    }
