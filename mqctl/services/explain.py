"""The explain job: load the slice of the topology one publication needs, check the failures named
against it, run the routing engine. A dry run over the model: nothing is written.

The path is kept lean (Core queries for the slice, no ORM, no Alembic): ``explain`` is the command
people run in a loop.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mqctl.domain.explanation import Explanation, Failures, Publication
    from mqctl.domain.model import Topology
    from mqctl.store.repository import Store


@dataclass(frozen=True, slots=True)
class Explained:
    """The answer, the slice it was computed on (renderers name who defines a route), and hints: where
    the user is likely wrong though the question is valid."""

    result: Explanation
    topology: Topology
    failures: Failures
    hints: list[str] = field(default_factory=list)
    notes: list[dict[str, Any]] = field(default_factory=list)
    """With ``observed``: each observed link down taken as a failure, with the observation behind it."""


def explain_publication(
    url: str, publication: Publication, failures: Failures, *, observed: bool = False
) -> Explained:
    """Where ``publication`` goes under ``failures``, read in one read-only transaction of the store.

    ``observed``: channels observed not RUNNING and hierarchy relations not ACTIVE (the captures of
    ``import display``) are links down too, each named with the observation behind it.
    """
    from mqctl.domain.links import check_links_down
    from mqctl.domain.model import Dialect
    from mqctl.domain.routing import explain
    from mqctl.services.store_access import reading

    hints: list[str] = []
    seen: dict[frozenset[str], str] = {}
    with reading(url) as store:
        if observed:
            from mqctl.services.observed import observed_links_down

            seen = observed_links_down(store)
        given = failures.links_down
        wider = dataclasses.replace(failures, links_down=given | frozenset(seen))
        topology = store.publication_slice(publication.from_node, publication.topic, wider)
        seen = _linked(topology, seen)
        failures = dataclasses.replace(failures, links_down=given | frozenset(seen))
        check_links_down(topology, failures.links_down)
        if topology.nodes[publication.from_node].dialect is Dialect.MQ:
            hints += _leading_slash(store, publication.from_node, publication.topic)
    notes: list[dict[str, Any]] = [
        {"link": sorted(pair), "observation": text}
        for pair, text in sorted(seen.items(), key=lambda i: sorted(i[0]))
    ]
    return Explained(explain(topology, publication, failures), topology, failures, hints, notes)


def _linked(topology: Topology, seen: dict[frozenset[str], str]) -> dict[frozenset[str], str]:
    """The observed links down that join two nodes of the slice that the model links."""
    from mqctl.domain.links import linked

    return {
        pair: text
        for pair, text in seen.items()
        if len(pair) == 2 and all(n in topology.nodes for n in pair) and linked(topology, *sorted(pair))
    }


def _leading_slash(store: Store, qmgr: str, topic: str) -> list[str]:
    from mqctl.domain.topics import misses_leading_slash

    if topic.startswith("/"):
        return []  # the usual case answers without a query
    if not misses_leading_slash(topic, store.views.topic_string_starts(qmgr)):
        return []
    return [
        f"every topic string in {qmgr}'s topic tree and subscriptions starts with '/', and {topic!r} "
        f"does not ('/USA' and 'USA' differ): did you mean '/{topic}'?"
    ]
