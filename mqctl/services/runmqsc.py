"""``mqctl runmqsc QMGR``: an MQSC script (runmqsc syntax, dmpmqcfg dumps) applied to one queue
manager's model, answered as runmqsc answers; the one MQSC path ``import mqsc``, Kubernetes YAML and the
interactive prompt go through too."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from mqctl.domain.model import Dialect, NodeState
from mqctl.domain.names import check_mq_name
from mqctl.domain.observed import PredictedProxy, proxies_at
from mqctl.formats import sniff
from mqctl.services.edit import run_script
from mqctl.services.file_doors import FileResult, ensure_node
from mqctl.store.repository import Store


def runmqsc(
    store: Store,
    qmgr: str,
    text: str,
    *,
    file: str | None,
    inserts: Mapping[str, str],
    create: bool,
    continue_on_error: bool,
    progress: Callable[[int], None] | None = None,
) -> FileResult:
    """runmqsc on the model of ``qmgr``: all or nothing unless ``continue_on_error``.

    ``progress`` is called now and then with the line number of ``text`` reached."""
    from mqctl.formats.mqsc import apply_mqsc

    check_mq_name(qmgr, "qmgr")
    ref = ensure_node(store, qmgr, Dialect.MQ, create)
    result = FileResult(file or "<stdin>", qmgr)

    def change(state: NodeState) -> list[str] | None:
        run = apply_mqsc(
            state,
            text,
            file=file,
            inserts={"QMNAME": qmgr, **inserts},
            next_seq=store.next_seq,
            continue_on_error=continue_on_error,
            progress=progress,
            dialect_of=lambda name: store.dialects([name]).get(name),
            cluster_view=store.cluster_view,
            proxies=lambda now: _proxies(store, now),
        )
        result.run = run
        return [] if run.applied else None

    run_script(store, ref, change)
    if result.run.errors and not result.run.processed:
        # nothing of it was MQSC that applied: say what the file is, if it is another door's
        result.run.errors[0].message += sniff.hint(text, sniff.MQSC)
    return result


def _proxies(store: Store, state: NodeState) -> list[PredictedProxy]:
    """The proxy subscriptions the model predicts ``state``'s queue manager holds, with the script's
    changes so far (the rest of the model as stored)."""
    return proxies_at(store.topology(), state.node.name, state)
