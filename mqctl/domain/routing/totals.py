"""Many publications' answers summed as they are decided: what a replay writes (``routing.tally``).

The Spark job keeps totals, never one key's answer: messages and bytes per delivered row (subscription,
node, stored_at, hops), per missed row (subscription, node, reason), per link crossed and per publisher.
``Tally`` holds those sums. The engine lays out once per publisher and topic what their keys share
(``TallyPlan``: the rows no selector decides, as the tally's own keys, with the links their copies
cross); a routing key then counts for its plan and adds the rows of its selectors' verdicts, and the
plan's rows get their totals when the tally is read: a key costs a few dictionary updates, not an
answer built and summed afterwards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import itemgetter
from typing import Any

from mqctl.domain.explanation import Hop, Reason, Via
from mqctl.domain.model import Subscription
from mqctl.domain.routing.ladder import Arrival, Miss, Rows, Verdict

__all__ = ["DeliveredRow", "Link", "MissedRow", "Tally", "TallyPlan"]

DeliveredRow = tuple[str, str, str | None, int]
"""(subscription, node, stored_at, hops): stored_at None for a copy delivered."""
MissedRow = tuple[str, str, Reason]
"""(subscription, node, reason)."""
Link = tuple[str, str, Via]
"""(from, to, via): one link a publication crosses."""

_LINK_OF = itemgetter(0, 1, 2)
_SELECTOR_FALSE = Reason.SELECTOR_FALSE


class Tally:
    """Messages and bytes summed per delivered row, missed row, link and publisher (each row's value a
    two-item list: [messages, bytes]; a publisher's: messages).

    The rows a ``TallyPlan`` lays out for every publication of a publisher and topic are summed per
    plan as publications come (``_pending``), and spread over the plan's rows once, when the rows are
    read: the keys of a topic share them, and a replay has many keys per topic."""

    __slots__ = ("_delivered", "_missed", "_links", "published", "_pending")

    def __init__(self) -> None:
        self._delivered: dict[DeliveredRow, list[int]] = {}
        self._missed: dict[MissedRow, list[int]] = {}
        self._links: dict[Link, list[int]] = {}
        self.published: dict[str, int] = {}
        self._pending: dict[int, list[Any]] = {}
        """Per plan (by identity; each entry holds its plan): [plan, messages, bytes]."""

    @property
    def delivered(self) -> dict[DeliveredRow, list[int]]:
        self._settle()
        return self._delivered

    @property
    def missed(self) -> dict[MissedRow, list[int]]:
        self._settle()
        return self._missed

    @property
    def links(self) -> dict[Link, list[int]]:
        self._settle()
        return self._links

    def runs(self, part: str) -> tuple[dict[Any, list[int]], list[tuple[tuple[Any, ...], int, int]]]:
        """``part`` (``delivered``, ``missed`` or ``links``) as it stands, without spreading what is
        pending: the rows summed one by one, and runs of rows (a plan's, with the messages and bytes
        of every publication counted for it) that each row of the run is to be given. A caller that
        sums with something faster than a loop over rows (Arrow, for the Spark job) takes these."""
        pending = [(getattr(plan, part), messages, size) for plan, messages, size in self._pending.values()]
        return getattr(self, "_" + part), pending

    def add(self, publisher: str, rows: Rows, messages: int, size: int) -> None:
        """One answer's rows (``routing.route``), for ``messages`` publications of ``size`` bytes in all."""
        self.published[publisher] = self.published.get(publisher, 0) + messages
        delivered, missed = rows
        _add(self._delivered, [delivered_row(s, a, at) for s, a, at in delivered], messages, size)
        _add(self._missed, [(s.name, s.node, m.reason) for s, m in missed], messages, size)
        _add(self._links, links_taken((a.hops, at) for _, a, at in delivered), messages, size)

    def merge(self, other: Tally) -> None:
        """``other``'s sums added to these. Its plans' counts join these plans' counts, spread once
        when this tally is read, not row by row here (with ``--per-key`` every key's own tally is
        merged into its batch's, and most of a key's rows are its plan's)."""
        _merge(self._delivered, other._delivered)
        _merge(self._missed, other._missed)
        _merge(self._links, other._links)
        for key, (plan, messages, size) in other._pending.items():
            mine = self._pending.get(key)
            if mine is None:
                self._pending[key] = [plan, messages, size]
            else:
                mine[1] += messages
                mine[2] += size
        for publisher, messages in other.published.items():
            self.published[publisher] = self.published.get(publisher, 0) + messages

    def _settle(self) -> None:
        """The pending plans' totals spread over their rows."""
        for plan, messages, size in self._pending.values():
            _add(self._delivered, plan.delivered, messages, size)
            _add(self._missed, plan.missed, messages, size)
            _add(self._links, plan.links, messages, size)
        self._pending.clear()


def _merge(mine: dict[Any, list[int]], theirs: dict[Any, list[int]]) -> None:
    """``theirs``' sums added to ``mine`` (a key's own tally into its batch's, with ``--per-key``)."""
    for row, (messages, size) in theirs.items():
        _add(mine, (row,), messages, size)


def delivered_row(sub: Subscription, arrival: Arrival, stored_at: str | None) -> DeliveredRow:
    return (sub.name, sub.node, stored_at, len(arrival.hops))


def links_taken(copies: Iterable[tuple[tuple[Hop, ...], str | None]]) -> dict[Link, None]:
    """Each link the copies cross, once (a publication crosses a link once however many copies it
    then serves): a stored copy waits at ``stored_at``, and the hops after it are the path it will
    take, not taken."""
    links: dict[Link, None] = {}
    for hops, stored_at in copies:
        if stored_at is None:
            links.update(dict.fromkeys(map(_LINK_OF, hops)))
            continue
        for hop in hops:
            if hop.from_node == stored_at:
                break
            links[_LINK_OF(hop)] = None
    return links


def _links_of(arrivals: Iterable[Arrival]) -> dict[Link, None]:
    """``links_taken`` of these arrivals' copies. The copies of one answer share the ``Hop`` objects
    of their common part (the way to the topic host, say): a hop is read once however many arrivals
    hold it (by identity: a ``Hop`` compares in Python)."""
    hops: dict[int, Hop] = {}
    stored: list[Arrival] = []
    for arrival in arrivals:
        if arrival.stored_at is None:
            for hop in arrival.hops:
                hops[id(hop)] = hop
        else:
            stored.append(arrival)
    links = dict.fromkeys(map(_LINK_OF, hops.values()))
    if stored:
        links.update(links_taken((a.hops, a.stored_at) for a in stored))
    return links


def _add(table: dict[Any, list[int]], rows: Iterable[Any], messages: int, size: int) -> None:
    """``messages`` and ``size`` added to each row's sums."""
    for row in rows:
        found = table.get(row)
        if found is None:
            table[row] = [messages, size]
        else:
            found[0] += messages
            found[1] += size


class TallyPlan:
    """The outcomes of the reachability steps for one publisher and topic, laid out for ``Tally``: the
    rows that no selector decides as runs of the tally's own keys with the links their copies cross,
    and each reached subscription with a selector as its row either way (semantics §9: delivered if
    the selector is TRUE, else missed as SELECTOR_FALSE). For an answer without offline subscribers,
    whose steps 4 and 5 read the message through the selectors only."""

    __slots__ = ("delivered", "missed", "links", "selected")

    def __init__(
        self,
        outcomes: Iterable[tuple[Subscription, Arrival | Miss | None]],
        relayed: tuple[Arrival, str, Via] | None = None,
    ) -> None:
        """``relayed``: (``before``, ``cluster``, ``via``) when an outcome None stands for a copy that
        ``before``'s last queue manager sends on over ``cluster`` to the subscription's own (the engine's
        flat path leaves those as columns: their rows and links are made here without an ``Arrival``
        each)."""
        self.selected: list[tuple[str, DeliveredRow, MissedRow, tuple[Link, ...]]]
        """(selector, its row when it selects, its row when it does not, the links its copy crosses
        that no copy of ``delivered`` does)."""
        delivered: list[DeliveredRow] = []
        missed: list[MissedRow] = []
        selected: list[tuple[Subscription, Arrival | None]] = []
        on: list[Subscription] = []
        """The subscriptions of the relayed copies (outcome None)."""
        copies: dict[int, Arrival] = {}
        """The arrivals of the copies no selector decides, each once (a queue manager's subscriptions
        share their copy's ``Arrival``)."""
        for s, a in outcomes:  # one pass: the plan is made once per publisher and topic, for every key
            if a is None:
                on.append(s)
            elif isinstance(a, Miss):
                missed.append((s.name, s.node, a.reason))
            elif s.selector:
                selected.append((s, a))
            else:
                delivered.append((s.name, s.node, a.stored_at, len(a.hops)))
                copies[id(a)] = a
        crossed = _links_of(copies.values())
        if relayed is not None:
            before, _, via = relayed
            hops, sender = len(before.hops) + 1, before.path[-1]
            quiet = [s for s in on if not s.selector]
            if quiet:
                delivered += [(s.name, s.node, None, hops) for s in quiet]
                crossed.update(dict.fromkeys(map(_LINK_OF, before.hops)))
                crossed.update(dict.fromkeys([(sender, s.node, via) for s in quiet]))
            if len(quiet) < len(on):
                before_links = (*_links_of((before,)),)
                selected += [(s, None) for s in on if s.selector]
        self.delivered = tuple(delivered)
        self.missed = tuple(missed)
        self.links = tuple(crossed)
        """The links the copies no selector decides cross."""
        own: dict[object, tuple[Link, ...]] = {}
        """The links of each selected copy that no copy of ``delivered`` crosses, by the arrival's
        identity or the relayed copy's queue manager."""
        self.selected = []
        for sub, arrival in selected:
            place: object = id(arrival) if arrival is not None else sub.node
            links = own.get(place)
            if links is None:
                taken = (
                    _links_of((arrival,)) if arrival is not None else (*before_links, (sender, sub.node, via))
                )
                links = own[place] = tuple(link for link in taken if link not in crossed)
            row = (
                (sub.name, sub.node, arrival.stored_at, len(arrival.hops))
                if arrival is not None
                else (sub.name, sub.node, None, hops)
            )
            self.selected.append((sub.selector or "", row, (sub.name, sub.node, _SELECTOR_FALSE), links))

    def add(
        self, tally: Tally, publisher: str, verdict: Callable[[str], Verdict], messages: int, size: int
    ) -> None:
        """One publication's answer added to ``tally``: ``verdict(selector)`` is the selector's
        ``Verdict`` on its message (only TRUE selects). The rows no selector decides are summed for the
        plan and spread when the tally is read."""
        tally.published[publisher] = tally.published.get(publisher, 0) + messages
        pending = tally._pending.get(id(self))
        if pending is None:
            tally._pending[id(self)] = [self, messages, size]
        else:
            pending[1] += messages
            pending[2] += size
        if not self.selected:
            return
        delivered: list[DeliveredRow] = []
        missed: list[MissedRow] = []
        extra: dict[Link, None] = {}
        for selector, row, not_row, its_links in self.selected:
            if verdict(selector) is True:
                delivered.append(row)
                if its_links:
                    extra.update(dict.fromkeys(its_links))
            else:
                missed.append(not_row)
        _add(tally._delivered, delivered, messages, size)
        _add(tally._missed, missed, messages, size)
        if extra:
            _add(tally._links, extra, messages, size)
