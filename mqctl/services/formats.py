"""Apply the users' files to the store: MQSC scripts and dumps, EMS configuration, tibemsadmin scripts.

A format edits a ``NodeState`` in memory (``mqctl.formats``); these functions load it, let the format
work, create what the files reference (clusters, hierarchy parents, route peers) and write the difference
back, all inside the caller's one transaction.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mqctl.domain.errors import InputError, InputErrors
from mqctl.domain.model import Dialect, Node, NodeState, SubType
from mqctl.domain.names import check_mq_name, check_node_name, node_label
from mqctl.domain.objects import nodes
from mqctl.domain.observed import PredictedProxy, proxies_at
from mqctl.formats import sniff
from mqctl.formats.script_run import ScriptRun
from mqctl.formats.text_io import read_text_file
from mqctl.formats.walk import files_under
from mqctl.services.edit import ensure_ems_peers, run_script
from mqctl.store.repository import NodeRef, Store

MQSC_SUFFIXES = {".mqsc", ".mqs", ".txt", ".dmp", ".in"}


@dataclass
class FileResult:
    """One script applied to one node: where it came from, and what the format's run reported."""

    file: str
    node: str
    run: ScriptRun = field(default_factory=ScriptRun)


class FileRejected(InputErrors):
    """A script refused as a whole: reads as its first error; ``errors`` holds every one, in file order,
    as runmqsc reports them."""


def _ensure_node(store: Store, name: str, dialect: Dialect, create: bool) -> NodeRef:
    ref = store.node(name)
    if ref is None:
        if not create:
            raise InputError(
                f"does not exist (define it with `mqctl define qmgr {name}"
                f"{' --dialect ems' if dialect is Dialect.EMS else ''}` or use --create)",
                obj=f"{node_label(dialect)} {name}",
            )
        check_node_name(name, dialect)
        return store.add_node(Node(name, dialect, seq=store.next_seq()))
    nodes.check_node_dialect(name, ref.dialect, dialect)
    return ref


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
    ref = _ensure_node(store, qmgr, Dialect.MQ, create)
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


@dataclass(frozen=True)
class MqscFile:
    """One MQSC file and the queue manager it applies to when the user or its folder names it.

    ``qmgr`` is None when the file names it itself (a dmpmqcfg header, else the file name); ``named``
    says the user wrote ``NAME=PATH`` (then even an empty file creates the queue manager)."""

    path: Path
    qmgr: str | None = None
    named: bool = False


def named_path(text: str | Path, option: str = "--file") -> tuple[str | None, Path]:
    """``NAME=PATH`` (the queue manager or server named explicitly) or a bare ``PATH``.

    A path that exists as written is a path, even with ``=`` in it; otherwise the text before the first
    ``=`` is the name, checked as an MQ name."""
    raw = str(text)
    name, sep, rest = raw.partition("=")
    if not sep or not name or not rest or "/" in name or Path(raw).exists():
        return None, Path(raw)
    try:
        check_mq_name(name, "qmgr")
    except InputError as exc:
        raise InputError(
            f"{exc.message} (in NAME=PATH, {name!r} names the queue manager)", attribute=option
        ) from None
    return name, Path(rest)


def mqsc_files(paths: Iterable[Path | str | MqscFile]) -> list[MqscFile]:
    """Files named, and the MQSC files of folders named, in name order (templates are skipped).

    ``QM1=PATH`` applies PATH (a file, or every MQSC file of a folder) to QM1. In a folder named, a file
    whose name is no queue manager name, in a sub-folder whose name is one, applies to that queue
    manager, as the MQ container applies every ``/etc/mqm/*.mqsc`` to its one queue manager:
    ``mq/QM1/10-dev.mqsc``, ``mq/QM1/20-config.mqsc`` (``qmgr_for_file``).
    """
    found: list[MqscFile] = []
    for item in paths:
        if isinstance(item, MqscFile):
            found.append(item)
            continue
        qmgr, path = named_path(item)
        if path.is_dir():
            for p in files_under(path):
                if p.suffix.lower() in MQSC_SUFFIXES:
                    found.append(MqscFile(p, qmgr or _folder_qmgr(path, p), qmgr is not None))
        elif path.is_file():
            found.append(MqscFile(path, qmgr, qmgr is not None))
        else:
            raise InputError("no such file or folder", file=str(path))
    return sorted(found, key=lambda f: (f.path.name, str(f.path)))


def _folder_qmgr(root: Path, path: Path) -> str | None:
    """The queue manager of a file in a sub-folder of ``root`` named after one (a folder per queue manager)."""
    if path.parent == root:
        return None
    try:
        check_mq_name(path.parent.name, "qmgr")
    except InputError:
        return None
    return path.parent.name


def has_commands(text: str) -> bool:
    """Whether an MQSC text holds a command: not only blank lines and ``*`` comments."""
    return any(line.strip() and not line.lstrip().startswith("*") for line in text.splitlines())


def qmgr_for_file(path: Path, text: str, given: str | None = None, *, named: bool = False) -> str:
    """The queue manager the user named (``NAME=PATH``), else the dump header's, else the file name,
    else (a file name that is no queue manager name, as ``10-dev.mqsc``) the one of its folder.

    The file name wins over the folder so that a folder of per-queue-manager files grouped by cluster
    (``mqsc/CL01/QM1.mqsc``) keeps meaning what it always meant."""
    from mqctl.formats.mqsc import dump_header_qmgr

    if given is not None and named:
        return given
    header = dump_header_qmgr(text, file=str(path))
    if header is not None:
        return header
    name = path.stem
    try:
        check_mq_name(name, "qmgr")
    except InputError as exc:
        if given is not None:
            return given
        raise InputError(
            f"{exc.message}: name its queue manager with --file QM1={path} (import mqsc QM1={path}), "
            f"put it in a folder named after its queue manager ({path.parent / 'QM1' / path.name}), "
            "name the file after its queue manager, or give a dmpmqcfg header",
            file=str(path),
        ) from None
    return name


def import_mqsc(
    store: Store,
    paths: Sequence[Path | str | MqscFile],
    *,
    inserts: Mapping[str, str],
    lines_done: Callable[[int], None] | None = None,
    encoding: str | None = None,
    empty: Callable[[Path], None] | None = None,
) -> list[FileResult]:
    """Many queue managers at once, one file each, in one transaction; any error changes nothing.

    ``lines_done`` is called with the number of lines read since its last call (also inside a big
    file), for a bar that moves with the work rather than the files. A file without a command (empty,
    or comments only) creates nothing unless its queue manager was named (``NAME=PATH``): ``empty`` is
    told of it."""
    results = []
    for item in mqsc_files(paths):
        path = item.path
        text = read_text_file(path, encoding)
        if not item.named and not has_commands(text):
            if empty is not None:
                empty(path)
            if lines_done is not None:
                lines_done(text.count("\n"))
            continue
        qmgr = qmgr_for_file(path, text, item.qmgr, named=item.named)
        reached = 0

        def advance(line: int) -> None:
            nonlocal reached
            if lines_done is not None and line > reached:
                lines_done(line - reached)
                reached = line

        result = runmqsc(
            store,
            qmgr,
            text,
            file=str(path),
            inserts=inserts,
            create=True,
            continue_on_error=False,
            progress=advance,
        )
        results.append(result)
        if result.run.errors:
            raise FileRejected(result.run.errors)
        advance(text.count("\n") + (0 if text.endswith("\n") or not text else 1))
    return results


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
        _hint_door(
            err,
            {tibemsd: sniff.TIBEMSD, topics: sniff.TOPICS, routes: sniff.ROUTES, durables: sniff.DURABLES},
            encoding,
        )
        raise
    ref = _ensure_node(store, config.name, Dialect.EMS, create=True)
    created = ensure_ems_peers(store, sorted(config.peers))
    read = config.state

    def change(state: NodeState) -> list[str]:
        if topics is not None or tibemsd is not None:
            state.topics = read.topics
        if routes is not None or tibemsd is not None:
            state.routes = read.routes
            state.route_selectors = read.route_selectors
        if durables is not None or tibemsd is not None:
            state.subscriptions = {
                **{k: v for k, v in state.subscriptions.items() if not v.durable},
                **read.subscriptions,
            }
        for topic in state.topics.values():
            topic.node = config.name
        for route in state.routes.values():
            route.node = config.name
        for sub in state.subscriptions.values():
            sub.node = config.name
        for rs in state.route_selectors:
            rs.node = config.name
        return []

    run_script(store, ref, change)
    return EmsImport(
        config.name,
        len(read.topics),
        len(read.routes),
        len(read.route_selectors),
        len(read.subscriptions),
        created,
        config.not_modelled,
        config.files,
        config.unknown_keys,
    )


def tibemsadmin(
    store: Store, server: str, text: str, *, file: str | None, create: bool, continue_on_error: bool
) -> FileResult:
    from mqctl.formats.ems import apply_tibemsadmin

    ref = _ensure_node(store, server, Dialect.EMS, create)
    result = FileResult(file or "<stdin>", server)

    def change(state: NodeState) -> list[str] | None:
        run = apply_tibemsadmin(
            state, text, file=file, next_seq=store.next_seq, continue_on_error=continue_on_error
        )
        result.run = run
        return sorted(run.peers_referenced) if run.applied else None

    run_script(store, ref, change)
    return result


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
