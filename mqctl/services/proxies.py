"""``mqctl display proxies``: the proxy subscriptions the model predicts a queue manager holds."""

from __future__ import annotations

from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect
from mqctl.domain.observed import PredictedProxy, proxies_at
from mqctl.domain.suggest import did_you_mean
from mqctl.store.repository import Store


def display_proxies(store: Store, qmgr: str) -> list[PredictedProxy]:
    """Those ``reconcile`` predicts for ``qmgr`` (semantics §4), by pattern then originator; a queue
    manager that is not in the model, or an EMS server, is a usage error."""
    ref = store.node(qmgr)
    if ref is None:
        near = did_you_mean(qmgr, store.node_names(Dialect.MQ))
        raise InputError(f"no such queue manager{near}", obj=qmgr, attribute="--qmgr")
    if ref.dialect is not Dialect.MQ:
        raise InputError("is an EMS server: proxy subscriptions are MQ's", obj=f"server {qmgr}")
    return proxies_at(store.topology(), qmgr)
