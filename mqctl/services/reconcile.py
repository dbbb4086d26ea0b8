"""``mqctl reconcile``: the model (read whole, as validate reads it) against the captures kept in the store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from mqctl.domain.reconcile import Discrepancy, reconcile
from mqctl.store.repository import Store


def reconcile_store(
    store: Store,
    *,
    max_age: timedelta | None = None,
    now: datetime | None = None,
    plan: Path | None = None,
    step: int | None = None,
) -> list[Discrepancy]:
    """Every finding of ``domain.reconcile`` for the store's model and captures; with ``plan`` and
    ``step``, for the model of that step of the plan instead (``plan --step``: has the step landed?)."""
    if plan is not None:
        from mqctl.services.plan import model_at_step

        topology = model_at_step(plan, step or 0)
    else:
        topology = store.topology()
    captures = store.observed.load_captures()
    return reconcile(topology, captures, now=now or datetime.now(UTC), max_age=max_age)
