"""The reason precedence both dialects share (semantics §9 "Reason precedence", "Failures", "Subscriptions").

Every matching subscription is judged in the same frame, MQ or EMS:

1. ``SUBSCRIBER_OFFLINE``: a non-durable subscriber that is offline no longer exists;
2. ``DOWN``: the publisher is down (nothing is published), or the subscription is non-durable and its
   own node is down (it does not survive the failure);
3. the dialect's *reachability*, which it passes in as a function: a ``Miss`` with one of its own
   reasons (MQ: ``SCOPE``, ``WILDCARD_BLOCKED``, ``WILDCARD_ABOVE_CLUSTER``, ``NO_PATH``; EMS:
   ``NO_PATH``, ``NOT_GLOBAL``, ``ONE_HOP_ZONE``, ``ROUTE_SELECTOR``, ``DOWN`` for a gap), in its own
   order, or an ``Arrival``: the best path, where the copy waits if a hop fails, the alternatives;
4. ``SELECTOR_FALSE``: a copy arrives, but the subscription's own selector is FALSE or UNKNOWN (only
   TRUE selects, §7);
5. delivered, or ``stored``: at the node before the first failing hop, else at the subscriber's own node
   when a durable subscriber is offline.

The sentences of these common steps, and the words for a selector's verdict (also used for EMS route
selectors), are written here once. A ladder without ``detail`` (``routing.explain(..., detail=False)``)
records the same deliveries and reasons, without the sentences, conflict notes and alternative paths.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NamedTuple

from mqctl.domain.explanation import (
    ConflictNote,
    Delivery,
    Explanation,
    Failures,
    Hop,
    NotDelivered,
    Publication,
    Reason,
    Status,
    own_kind,
)
from mqctl.domain.messages import Message
from mqctl.domain.model import Dialect, Subscription
from mqctl.domain.selector import compile_selector

__all__ = [
    "Arrival",
    "Delivered",
    "Ladder",
    "Miss",
    "Rows",
    "Verdicts",
    "judge",
    "verdict_words",
]

_DELIVERED, _STORED = Status.DELIVERED, Status.STORED  # read once per subscription reached: kept at hand


@own_kind
class Arrival(NamedTuple):
    """A copy reaches the subscription's node: how, and where it waits if a hop on the way fails.

    (A named tuple: one per subscription reached, so it has to be cheap to make.)"""

    path: tuple[str, ...]
    hops: tuple[Hop, ...]
    stored_at: str | None = None
    alternatives: tuple[tuple[str, ...], ...] = ()
    more_alternatives: int = 0


@dataclass(frozen=True, slots=True)
class Miss:
    """No copy reaches the subscription, for a reason of the dialect's reachability."""

    reason: Reason
    detail: str
    conflict: ConflictNote | None = None


Delivered = tuple[Subscription, Arrival, str | None]
"""A subscription that gets the publication, how, and where its copy waits (None: delivered)."""


class Rows(NamedTuple):
    """One publication's answer as rows, each list in the order of the subscriptions judged (both
    dialects judge them by node, then name: the order of ``Explanation.sort``)."""

    delivered: list[Delivered]
    missed: list[tuple[Subscription, Miss]]


def verdict_words(verdict: bool | None) -> str:
    """How a selector that does not select is worded, for subscriptions and route selectors alike."""
    if verdict is False:
        return "is false"
    return "is unknown (a property it uses is missing, or an operation in it has no value)"


Verdict = bool | None
_SELECTOR_FALSE = Miss(Reason.SELECTOR_FALSE, "")
"""A selector's miss without ``detail``: one for all (a ``Miss`` is never mutated)."""
_UNSEEN: Any = object()


class Verdicts:
    """Selector verdicts kept per message content: a verdict depends on the selector and the message
    only (its properties and headers), never on the publisher, the topic or the failures, so the
    Spark job's keys of many topics that carry the same properties share them.

    Kept only for content that ``publications.to_publication`` shares between the publications of one
    routing key: read-only ``MappingProxyType`` views, known by identity (each entry holds them, so an
    identity is not reused while its entry lives). Other content (``explain``'s own dicts, which a
    caller could change) gets a fresh, unshared dict each time.
    """

    def __init__(self, kept: int = 256) -> None:
        self.kept = kept
        self._by_content: dict[
            tuple[int, int], tuple[Mapping[str, Any], Mapping[str, Any], dict[str, Verdict]]
        ] = {}

    def of(self, properties: Mapping[str, Any], headers: Mapping[str, Any]) -> dict[str, Verdict]:
        """The verdicts (selector text -> verdict) for a message with this content: to read and fill."""
        if (
            self.kept <= 0
            or type(properties) is not MappingProxyType
            or type(headers) is not MappingProxyType
        ):
            return {}
        key = (id(properties), id(headers))
        found = self._by_content.get(key)
        if found is not None and found[0] is properties and found[1] is headers:
            return found[2]
        if len(self._by_content) >= self.kept:
            self._by_content.clear()
        verdicts: dict[str, Verdict] = {}
        self._by_content[key] = (properties, headers, verdicts)
        return verdicts


def judge(publication: Publication, verdicts: dict[str, Verdict]) -> Callable[[str], Verdict]:
    """``verdict(selector)`` on this publication's message: as ``verdicts`` knows it, or worked out and
    kept there (the message is made only then, once): how ``Ladder`` judges selectors, and
    ``totals.TallyPlan``, which judges nothing else."""
    made: list[Message] = []

    def verdict(selector: str) -> Verdict:
        found = verdicts.get(selector, _UNSEEN)
        if found is _UNSEEN:
            if not made:
                made.append(Message.create(publication.properties, publication.headers))
            found = verdicts[selector] = compile_selector(selector).evaluate(made[0])
        return found

    return verdict


class Ladder:
    """Judges subscriptions for one publication and records the answer in ``explanation``."""

    def __init__(
        self, explanation: Explanation, failures: Failures, dialect: Dialect, detail: bool = True
    ) -> None:
        self.explanation = explanation
        self.failures = failures
        self.detail = detail
        """False: misses without detail sentence and conflict note, deliveries without alternatives."""
        self._node = "queue manager" if dialect is Dialect.MQ else "server"

    @property
    def publisher(self) -> str:
        return self.explanation.publication.from_node

    def reach(self, sub: Subscription, reach: Callable[[], Arrival | Miss]) -> Arrival | Miss:
        """Steps 1 to 3: they read the publisher, the topic and the failures, never the message, so a
        caller may keep the outcome for other publications that differ only in properties (then
        ``rows`` runs steps 4 and 5)."""
        early = self._early(sub)
        return early if early is not None else reach()

    def rows(
        self,
        outcomes: Iterable[tuple[Subscription, Arrival | Miss]],
        verdicts: dict[str, Verdict] | None = None,
    ) -> Rows:
        """Steps 4 and 5 on the outcomes of ``reach``, in their order, as rows (no ``Delivery`` made):
        what ``record`` puts in the explanation, and what the Spark job sums without one. ``verdicts``:
        the selectors' verdicts on this publication's message known already (``Verdicts.of``), filled
        with the ones worked out here (the message is made only then)."""
        delivered: list[Delivered] = []
        missed: list[tuple[Subscription, Miss]] = []
        offline = self.failures.offline
        verdict_of = judge(self.explanation.publication, {} if verdicts is None else verdicts)
        for sub, outcome in outcomes:
            if isinstance(outcome, Miss):
                missed.append((sub, outcome))
                continue
            selector = sub.selector
            if selector:
                verdict = verdict_of(selector)
                if verdict is not True:
                    if self.detail:
                        missed.append((sub, Miss(Reason.SELECTOR_FALSE, self._selector_detail(sub, verdict))))
                    else:
                        missed.append((sub, _SELECTOR_FALSE))
                    continue
            stored_at = outcome.stored_at
            if stored_at is None and offline and (sub.node, sub.name) in offline:
                stored_at = sub.node  # a durable subscriber offline: its messages wait at its own node
            delivered.append((sub, outcome, stored_at))
        return Rows(delivered, missed)

    def record(self, rows: Rows) -> None:
        """The rows as the explanation's deliveries and misses (after those already there)."""
        deliveries = self.explanation.deliveries
        for sub, arrival, stored_at in rows.delivered:
            status = _DELIVERED if stored_at is None else _STORED
            delivery = Delivery(sub.name, sub.node, status, stored_at, list(arrival.path), list(arrival.hops))
            if self.detail and (arrival.alternatives or arrival.more_alternatives):
                delivery.alternatives = [list(a) for a in arrival.alternatives]
                delivery.more_alternatives = arrival.more_alternatives
            deliveries.append(delivery)
        for sub, miss in rows.missed:
            self._miss(sub, miss)

    def _early(self, sub: Subscription) -> Miss | None:
        """Steps 1 and 2: nothing else matters when the subscription or the publication does not exist."""
        if not self.failures.offline and not self.failures.down:
            return None  # the usual question: nothing has failed
        label = f"subscription {sub.name} on {sub.node}"
        if not sub.durable and (sub.node, sub.name) in self.failures.offline:
            return Miss(
                Reason.SUBSCRIBER_OFFLINE,
                f"The subscriber of non-durable {label} is offline, so the subscription no longer exists "
                "to receive the publication.",
            )
        if self.failures.node_down(self.publisher):
            return Miss(
                Reason.DOWN,
                f"The publishing {self._node} {self.publisher} is down, so nothing is published and nothing "
                f"reaches {label}.",
            )
        if not sub.durable and self.failures.node_down(sub.node):
            return Miss(
                Reason.DOWN,
                f"{self._node.capitalize()} {sub.node} is down and {label} is non-durable, so it does not "
                f"survive the failure of its {self._node}.",
            )
        return None

    def _miss(self, sub: Subscription, miss: Miss) -> None:
        detail, conflict = (miss.detail, miss.conflict) if self.detail else ("", None)
        self.explanation.not_delivered.append(NotDelivered(sub.name, sub.node, miss.reason, detail, conflict))

    def _selector_detail(self, sub: Subscription, verdict: bool | None) -> str:
        return (
            f'The publication reaches {sub.node}, but the selector "{sub.selector}" of subscription '
            f"{sub.name} on {sub.node} {verdict_words(verdict)} for this message, so the subscriber does "
            "not get it."
        )
