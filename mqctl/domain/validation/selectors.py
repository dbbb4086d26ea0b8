"""Selectors in the model that are not valid JMS message selectors (semantics §7).

Every door refuses such a selector when it is defined; a model read from elsewhere (a store written by
an older mqctl, a snapshot) can still hold one, and explain would stop at it.
"""

from __future__ import annotations

from collections.abc import Iterator

from mqctl.domain.errors import InputError
from mqctl.domain.model import RouteSelector, Subscription
from mqctl.domain.selector import check_selector
from mqctl.domain.validation.catalogue import BY_CODE
from mqctl.domain.validation.facts import Facts
from mqctl.domain.validation.findings import Finding, finding, label_of


def invalid_selector(facts: Facts) -> Iterator[Finding]:
    verdicts: dict[str, str | None] = {}
    holders: list[Subscription | RouteSelector] = [s for s in facts.topology.subscriptions if s.selector]
    holders += facts.topology.route_selectors
    for holder in holders:
        text = holder.selector or ""
        if text not in verdicts:
            verdicts[text] = _problem(text)
        problem = verdicts[text]
        if problem is not None:
            yield finding(
                BY_CODE["INVALID_SELECTOR"],
                f'The selector "{text}" of {label_of(holder)} is not a valid message selector: {problem}.',
                [holder],
            )


def _problem(text: str) -> str | None:
    try:
        check_selector(text)
    except InputError as exc:
        return exc.message
    return None
