"""The users' files read into a model in memory: what ``validate --file`` checks and ``diff`` compares.

The files go through the services of ``mqctl import`` (one edit path: the same model as importing them)
into a store that lives in memory for this call (``mqctl.store.memory``): the user's store is neither
read nor created, so the answer depends on the files alone. Measured on the 16-file corpus: building the
empty in-memory schema costs ~10 ms, far below reading the files.

A path is a file or a folder, optionally ``NAME=PATH`` (the queue manager, or EMS server, it defines).
A folder gives its MQSC files (``mqsc_files``: one queue manager per file, or per sub-folder) and every
``tibemsd.conf``/``tibemsd.json`` below it; a file named ``*.conf``/``*.json`` is an EMS server
configuration, any other an MQSC script. Kubernetes YAML (``*.yaml``/``*.yml`` files, those of a folder,
``-`` for standard input) is read by ``services.kube``: its queue managers' MQSC goes through the same
import. A placeholder left unrendered (``__qmgrname__``, ``${X}``, ``{{ .Values.x }}``) in an MQSC file or
the YAML is bad input (exit 2), not a finding: the model would be the template's, not the deployment's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mqctl.domain.errors import InputError, InputErrors, MqctlError, clip
from mqctl.domain.model import Topology
from mqctl.domain.validation import FileRef, Finding, find_rule, finding
from mqctl.formats.file_names import PROSE_SKIPPED, MqscFile, mqsc_files, named_path
from mqctl.formats.walk import files_under
from mqctl.services.import_ems import import_ems
from mqctl.services.import_mqsc import import_mqsc

if TYPE_CHECKING:
    from mqctl.formats.kube import Estate
    from mqctl.services.kube import KubeImport
    from mqctl.services.script_rules import RefreshHit
    from mqctl.store.repository import Store

EMS_CONFIG_SUFFIXES = {".conf", ".json"}


@dataclass(frozen=True)
class EmsFile:
    path: Path
    server: str | None = None
    root: Path | None = None
    """The folder it was found in: its pointers (topics = ...) must stay inside it."""


@dataclass
class FileModel:
    """The model the files define, and a finding for each file that does not import."""

    topology: Topology
    import_errors: list[Finding] = field(default_factory=list)
    errors: list[InputError] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)
    """MQSC files without a command (nothing was made of them)."""
    notes: list[str] = field(default_factory=list)
    """What the YAML held and mqctl did not model: kinds skipped, ConfigMaps nothing mounts (named)."""
    autoconfig: list[str] = field(default_factory=list)
    """Queue managers whose MQSC came from auto-configuration files (a Kubernetes YAML's ConfigMaps and
    Secrets, which the container applies at every start): a change to them lands when the pod restarts."""


def classify(
    paths: Sequence[str | Path], skipped: Callable[[Path], None], encoding: str | None = None
) -> tuple[list[MqscFile], list[EmsFile]]:
    """MQSC files (as `import mqsc` finds them) and EMS server configurations, in name order (YAML is
    ``kube.yaml_files``'s); a folder's ``.txt`` file that is not MQSC goes to ``skipped``."""
    from mqctl.services.kube import is_yaml

    mqsc: list[MqscFile] = []
    ems: list[EmsFile] = []
    for item in paths:
        if is_yaml(item):
            continue
        name, path = named_path(item)
        if path.is_dir():
            found_ems = sorted(
                p for p in files_under(path, "tibemsd.*") if p.suffix.lower() in EMS_CONFIG_SUFFIXES
            )
            found_mqsc = mqsc_files([item], skipped=skipped, encoding=encoding)
            if not found_ems and not found_mqsc and not _has_yaml(path):
                raise InputError(
                    "holds no MQSC file, no Kubernetes YAML and no tibemsd.conf/tibemsd.json", file=str(path)
                )
            ems += [EmsFile(p, root=path) for p in found_ems]
            mqsc += found_mqsc
        elif path.is_file():
            if path.suffix.lower() in EMS_CONFIG_SUFFIXES:
                ems.append(EmsFile(path, name))
            else:
                mqsc += mqsc_files([item])
        else:
            raise InputError("no such file or folder", file=str(path), attribute="--file")
    mqsc = sorted(dict.fromkeys(mqsc), key=lambda f: (f.path.name, str(f.path)))
    return mqsc, list(dict.fromkeys(ems))


def _has_yaml(path: Path) -> bool:
    from mqctl.services.kube import YAML_SUFFIXES

    return any(p.suffix.lower() in YAML_SUFFIXES for p in files_under(path))


def read_files(paths: Sequence[str | Path], encoding: str | None = None) -> FileModel:
    """Import the files into an in-memory store and read the model back; a file that fails is an
    IMPORT_ERROR finding (``errors`` keeps the exceptions, for a caller that refuses bad input).

    Refused outright (``InputError``, exit 2): unrendered placeholders, and YAML that cannot be read as
    the cluster would (malformed, a reference to a ConfigMap not given, a Secret not in base64)."""
    from mqctl.services.kube import read_estate_files, yaml_files, yaml_names
    from mqctl.services.script_rules import refresh_findings
    from mqctl.store.memory import memory_store

    prose: list[Path] = []
    mqsc, ems = classify(paths, prose.append, encoding)
    yamls = yaml_files(paths)
    estate = read_estate_files(yamls, encoding, yaml_names(paths)) if yamls else None
    model = FileModel(Topology(), files=[str(f.path) for f in mqsc] + [str(f.path) for f in ems] + yamls)
    model.notes += [f"{path}: {PROSE_SKIPPED}" for path in prose]
    for script in mqsc:
        _check_rendered(script.path, encoding)
    relocate: dict[tuple[str, int], int] = {}
    refresh_hits: list[RefreshHit] = []
    with memory_store() as store:
        if estate is not None:
            kube = _import_yaml(store, estate, model)
            relocate = kube.relocate
            refresh_hits += kube.refresh_hits
        for conf in ems:
            _import_ems_file(store, conf, encoding, model)
        for script in mqsc:
            refresh_hits += _import_script(store, script, encoding, model)
        model.topology = store.topology()
    model.import_errors += refresh_findings(refresh_hits, model.topology)
    if relocate:
        from mqctl.services.kube import relocated_topology

        model.topology = relocated_topology(model.topology, relocate)
    return model


def _import_yaml(store: Store, estate: Estate, model: FileModel) -> KubeImport:
    """The YAML's queue managers: a failing file is a finding, an unrendered placeholder refuses the call."""
    from mqctl.services.kube import KubeImport, import_estate

    model.notes += estate_notes(estate)
    kube = KubeImport(estate)
    model.autoconfig = [qm.name for qm in estate.queue_managers if qm.autoconfig]
    try:
        import_estate(store, estate, synthetic=True, into=kube)
    except InputError as exc:
        if exc.file is None:  # refused outright: an unrendered placeholder
            raise
        model.errors.append(exc)
        model.import_errors += import_error(exc, Path(exc.file))
    model.import_errors += kube.findings
    model.notes += [f"qm.ini {s}: not modelled" for s in kube.ini_not_modelled]
    return kube


def _import_ems_file(store: Store, conf: EmsFile, encoding: str | None, model: FileModel) -> None:
    """One EMS server's files: a failure, or a member the server ignores silently, is a finding, not an end."""
    try:
        imported = import_ems(
            store,
            tibemsd=conf.path,
            server=conf.server,
            topics=None,
            routes=None,
            durables=None,
            encoding=encoding,
            within=conf.root,
        )
    except InputError as exc:
        model.errors.append(exc)
        model.import_errors += import_error(exc, conf.path)
        return
    for key, line in imported.unknown_keys:
        model.import_errors.append(
            finding(
                find_rule("EMS_CONFIG_KEY_UNKNOWN"),
                f"{conf.path} has a member {clip(key)!r} that server {imported.server} does not know: it "
                "ignores it without a word.",
                [FileRef(str(conf.path), line)],
                nodes=[imported.server],
            )
        )


def _import_script(
    store: Store, script: MqscFile, encoding: str | None, model: FileModel
) -> list[RefreshHit]:
    """One MQSC file imported alone (a failure is its own finding); its REFRESH hits go to the whole model."""
    from mqctl.formats.text_io import read_text_file
    from mqctl.services.script_rules import scan_script

    try:
        done = import_mqsc(
            store, [script], inserts={}, encoding=encoding, empty=lambda p: model.empty.append(str(p))
        )
    except InputError as exc:
        model.errors.append(exc)
        model.import_errors += import_error(exc, script.path)
        return []
    hits: list[RefreshHit] = []
    for result in done:
        found, more = scan_script(read_text_file(script.path, encoding), file=result.file, qmgr=result.node)
        model.import_errors += found
        hits += more
    return hits


def _check_rendered(path: Path, encoding: str | None) -> None:
    from mqctl.formats.kube import check_rendered
    from mqctl.formats.text_io import read_text_file

    try:
        text = read_text_file(path, encoding)
    except InputError:
        return  # the import names it
    check_rendered(text, lambda line, column: (str(path), line, column), mqsc=True)


def estate_notes(estate: object) -> list[str]:
    """The YAML's documents not modelled, named: kinds skipped (counted), ConfigMaps/Secrets nothing mounts,
    the Secrets' items mounted (never read)."""
    from mqctl.formats.kube import Estate
    from mqctl.services.kube import secret_notes

    assert isinstance(estate, Estate)
    notes = []
    if estate.skipped:
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(estate.skipped.items()))
        notes.append(f"{sum(estate.skipped.values())} YAML document(s) of other kinds skipped: {kinds}")
    notes += [f"{what} is mounted by no QueueManager: not applied" for what in estate.unmounted]
    return notes + secret_notes(estate)


def import_error(exc: InputError, path: Path) -> list[Finding]:
    """IMPORT_ERROR at the file, line and column of each error of the file (a script refused as a whole
    names all of them, as runmqsc does, and so does an EMS configuration file); a selector that does not parse is an INVALID_SELECTOR there too."""
    from mqctl.domain.selector import SelectorError

    out: list[Finding] = []
    for error in exc.errors if isinstance(exc, InputErrors) else [exc]:
        file = error.file or exc.file or str(path)
        what = MqctlError(error.message, obj=error.obj, attribute=error.attribute).one_line()
        column = f" (column {error.column})" if error.column is not None and error.line is not None else ""
        where = [FileRef(file, error.line, error.column if error.line is not None else None)]
        out.append(
            finding(
                find_rule("IMPORT_ERROR"),
                f"{file} is not imported, so its definitions are not validated: {what}{column}.",
                where,
            )
        )
        if isinstance(error, SelectorError):
            out.append(
                finding(
                    find_rule("INVALID_SELECTOR"),
                    f"A selector in {file} is not valid: {error.message}.",
                    where,
                )
            )
    return out
