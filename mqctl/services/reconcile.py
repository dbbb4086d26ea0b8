"""``mqctl reconcile``: the model (read whole, as validate reads it) against the captures kept in the store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from mqctl.domain.reconcile import Discrepancy, reconcile
from mqctl.store.observed import load_captures
from mqctl.store.repository import Store


def reconcile_store(
    store: Store, *, max_age: timedelta | None = None, now: datetime | None = None
) -> list[Discrepancy]:
    """Every finding of ``domain.reconcile`` for the store's model and captures."""
    topology = store.topology()
    captures = load_captures(store)
    return reconcile(topology, captures, now=now or datetime.now(UTC), max_age=max_age)
