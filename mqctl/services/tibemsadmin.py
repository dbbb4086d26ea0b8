"""``mqctl tibemsadmin SERVER``: a tibemsadmin script (topics, routes, route selectors, durables) applied
to one EMS server's model; the route peers it names are created."""

from __future__ import annotations

from mqctl.domain.model import Dialect, NodeState
from mqctl.services.edit import run_script
from mqctl.services.file_doors import FileResult, ensure_node
from mqctl.store.repository import Store


def tibemsadmin(
    store: Store, server: str, text: str, *, file: str | None, create: bool, continue_on_error: bool
) -> FileResult:
    """The script on the model of ``server``: all or nothing unless ``continue_on_error``."""
    from mqctl.formats.ems import apply_tibemsadmin

    ref = ensure_node(store, server, Dialect.EMS, create)
    result = FileResult(file or "<stdin>", server)

    def change(state: NodeState) -> list[str] | None:
        run = apply_tibemsadmin(
            state, text, file=file, next_seq=store.next_seq, continue_on_error=continue_on_error
        )
        result.run = run
        return sorted(run.peers_referenced) if run.applied else None

    run_script(store, ref, change)
    return result
