"""``mqctl capture-kit``: the files an administrator runs to make the captures ``import display`` reads,
for the queue managers and EMS servers of the model (``formats.display.kit``)."""

from __future__ import annotations

from pathlib import Path

from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect
from mqctl.domain.suggest import did_you_mean
from mqctl.formats.display.kit import DEFAULT_EMS_URL, SCRIPTS, kit_files
from mqctl.services.files import write_files
from mqctl.services.out_folder import check_out_folder
from mqctl.store.repository import Store

FILE_MODE, SCRIPT_MODE = 0o644, 0o755


def capture_kit(store: Store, out: Path, *, nodes: list[str], force: bool = False) -> list[Path]:
    """Write the kit for ``nodes`` (every node of the store when empty) into ``out``, each file renamed
    into place once all are written; a folder that exists and holds anything needs ``force``."""
    check_out_folder(out, force=force, what="kit")
    topology = store.topology(subscriptions=False)
    wanted = list(dict.fromkeys(nodes)) or sorted(topology.nodes)
    unknown = [n for n in wanted if n not in topology.nodes]
    if unknown:
        near = did_you_mean(unknown[0], topology.nodes)
        raise InputError(f"no such queue manager or EMS server{near}", obj=unknown[0], attribute="--qmgr")
    if not wanted:
        raise InputError("the model holds no queue manager nor EMS server: nothing to capture")
    urls: dict[str, str] = {}
    for route in topology.routes:
        if route.url:
            urls.setdefault(route.peer, route.url)
    qmgrs = [n for n in wanted if topology.nodes[n].dialect is Dialect.MQ]
    servers = [(n, urls.get(n, DEFAULT_EMS_URL)) for n in wanted if topology.nodes[n].dialect is Dialect.EMS]
    files = kit_files(qmgrs, servers)
    written = write_files(out, files, mode=FILE_MODE)
    for path in written:
        if path.name in SCRIPTS:
            path.chmod(SCRIPT_MODE)
    return written
