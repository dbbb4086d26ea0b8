"""``mqctl export mqsc`` and ``export ems``: a node's model written as the files its product reads
(a dmpmqcfg-style MQSC dump; tibemsd.conf with topics.conf, routes.conf and durables.conf)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect, NodeState, SubType
from mqctl.store.repository import Store


@dataclass
class Exported:
    """One node's export: file name -> text, and what the format cannot hold (named, not dropped)."""

    node: str
    files: dict[str, str]
    not_written: list[str] = field(default_factory=list)


def _without_non_durable(state: NodeState, why: str) -> tuple[NodeState, list[str]]:
    """Configuration files define durable subscriptions only: the others are left out, and named."""
    gone = sorted(name for name, sub in state.subscriptions.items() if not sub.durable)
    if not gone:
        return state, []
    kept = {name: sub for name, sub in state.subscriptions.items() if sub.durable}
    note = f"{len(gone)} non-durable subscription(s) ({', '.join(gone[:5])}{', ...' if len(gone) > 5 else ''}): {why}"
    return dataclasses.replace(state, subscriptions=kept), [note]


def export_mqsc(store: Store, qmgr: str, *, include_api: bool = False) -> Exported:
    """``QMGR.mqsc``, dmpmqcfg style, stamped with the export time; API subscriptions (an application's,
    seen in a capture) only with ``include_api``."""
    from datetime import datetime

    from mqctl.formats.mqsc import write_mqsc

    ref = store.require_node(qmgr, Dialect.MQ)
    if ref.dialect is not Dialect.MQ:
        raise InputError("is an EMS server: use `mqctl export ems`", obj=f"server {qmgr}")
    state, skipped = _without_non_durable(store.load_node_state(ref), "DEFINE SUB defines durable ones only")
    if not include_api:
        api = sorted(name for name, sub in state.subscriptions.items() if sub.subtype is SubType.API)
        if api:
            kept = {name: sub for name, sub in state.subscriptions.items() if sub.subtype is not SubType.API}
            state = dataclasses.replace(state, subscriptions=kept)
            skipped.append(
                f"{len(api)} API subscription(s) ({', '.join(api[:5])}{', ...' if len(api) > 5 else ''}): "
                "made by applications; --include-api writes them"
            )
    return Exported(qmgr, {f"{qmgr}.mqsc": write_mqsc(state, generated=datetime.now())}, skipped)


def node_names(store: Store, dialect: Dialect) -> list[str]:
    """The nodes ``--all`` exports."""
    return store.node_names(dialect)


def export_ems(store: Store, server: str) -> Exported:
    """tibemsd.conf pointing at topics.conf, routes.conf and durables.conf."""
    from mqctl.formats.ems import write_durables_conf, write_routes_conf, write_topics_conf

    ref = store.require_node(server, Dialect.EMS)
    if ref.dialect is not Dialect.EMS:
        raise InputError("is an MQ queue manager: use `mqctl export mqsc`", obj=f"qmgr {server}")
    state, skipped = _without_non_durable(store.load_node_state(ref), "durables.conf holds durable ones only")
    files = {
        "tibemsd.conf": (
            f"# EMS server {server}, exported by mqctl\nserver = {server}\nrouting = enabled\n"
            "topics = topics.conf\nroutes = routes.conf\ndurables = durables.conf\n"
        ),
        "topics.conf": write_topics_conf(state),
        "routes.conf": write_routes_conf(state),
        "durables.conf": write_durables_conf(state),
    }
    return Exported(server, files, skipped)
