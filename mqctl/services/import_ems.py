"""``mqctl import ems``: one EMS server from its configuration files (tibemsd.conf or tibemsd.json and
the files it points at, or topics.conf, routes.conf, durables.conf given one by one)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from mqctl.domain.errors import InputError, InputErrors
from mqctl.domain.model import Dialect, NodeState
from mqctl.formats import sniff
from mqctl.formats.text_io import read_text_file
from mqctl.services.edit import ensure_ems_peers, run_script
from mqctl.services.file_doors import ensure_node
from mqctl.store.repository import Store


@dataclass
class EmsImport:
    server: str
    topics: int
    routes: int
    route_selectors: int
    durables: int
    peers_created: list[str]
    not_modelled: list[str]
    files: list[str]
    unknown_keys: list[tuple[str, int | None]] = field(default_factory=list)
    """tibemsd.json members the server does not know, with their line (EMS_CONFIG_KEY_UNKNOWN)."""


def import_ems(
    store: Store,
    *,
    tibemsd: Path | None,
    server: str | None,
    topics: Path | None,
    routes: Path | None,
    durables: Path | None,
    encoding: str | None = None,
    within: Path | None = None,
) -> EmsImport:
    """One EMS server from its files: they replace its topic definitions, routes and durables in the model.
    ``within``: the folder the files were found in (tibemsd.conf's pointers must stay in it)."""
    from mqctl.formats.ems import read_server

    try:
        config = read_server(
            tibemsd,
            server=server,
            topics=topics,
            routes=routes,
            durables=durables,
            next_seq=store.next_seq,
            encoding=encoding,
            within=within,
        )
    except InputError as err:
        doors = {tibemsd: sniff.TIBEMSD, topics: sniff.TOPICS, routes: sniff.ROUTES, durables: sniff.DURABLES}
        _hint_door(err, doors, encoding)
        raise
    ref = ensure_node(store, config.name, Dialect.EMS, create=True)
    created = ensure_ems_peers(store, sorted(config.peers))
    read = config.state
    whole = tibemsd is not None  # a tibemsd.conf stands for the whole server: every part is replaced

    def change(state: NodeState) -> list[str]:
        _replace(
            state,
            read,
            topics=whole or topics is not None,
            routes=whole or routes is not None,
            durables=whole or durables is not None,
        )
        _owned_by(state, config.name)
        return []

    run_script(store, ref, change)
    counts = len(read.topics), len(read.routes), len(read.route_selectors), len(read.subscriptions)
    return EmsImport(config.name, *counts, created, config.not_modelled, config.files, config.unknown_keys)


def _replace(state: NodeState, read: NodeState, *, topics: bool, routes: bool, durables: bool) -> None:
    """The parts files were given for replace the model's; durables replace the durable subscriptions
    only (the non-durable ones stay)."""
    if topics:
        state.topics = read.topics
    if routes:
        state.routes = read.routes
        state.route_selectors = read.route_selectors
    if durables:
        kept = {k: v for k, v in state.subscriptions.items() if not v.durable}
        state.subscriptions = {**kept, **read.subscriptions}


def _owned_by(state: NodeState, name: str) -> None:
    """Every object the server's state holds names it as its node."""
    for topic in state.topics.values():
        topic.node = name
    for route in state.routes.values():
        route.node = name
    for sub in state.subscriptions.values():
        sub.node = name
    for rs in state.route_selectors:
        rs.node = name


def _hint_door(err: InputError, doors: Mapping[Path | None, sniff.Kind], encoding: str | None) -> None:
    """Add to ``err`` what its file looks like when that is another door's (``import ems --tibemsd
    topics.conf``: this looks like an EMS topics.conf)."""
    for path, door in doors.items():
        if path is not None and err.file == str(path) and "looks like" not in err.message:
            try:
                text = read_text_file(path, encoding)
            except InputError:
                return
            hint = sniff.hint(text, door)
            err.message += hint
            if isinstance(err, InputErrors):  # validate --file reports each: the first says it too
                err.errors[0].message += hint
            return
