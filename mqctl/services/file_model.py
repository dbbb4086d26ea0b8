"""The users' files read into a model in memory: what ``validate --file`` checks and ``diff`` compares.

The files go through the services of ``mqctl import`` (one edit path: the same model as importing them)
into a store that lives in memory for this call (``mqctl.store.memory``): the user's store is neither
read nor created, so the answer depends on the files alone. Measured on the 16-file corpus: building the
empty in-memory schema costs ~10 ms, far below reading the files.

A path is a file or a folder, optionally ``NAME=PATH`` (the queue manager, or EMS server, it defines).
A folder gives its MQSC files (``mqsc_files``: one queue manager per file, or per sub-folder) and every
``tibemsd.conf``/``tibemsd.json`` below it; a file named ``*.conf``/``*.json`` is an EMS server
configuration, any other an MQSC script.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mqctl.domain.errors import InputError, MqctlError
from mqctl.domain.model import Topology
from mqctl.domain.validation import FileRef, Finding, find_rule, finding
from mqctl.formats.walk import files_under
from mqctl.services.formats import FileRejected, MqscFile, import_ems, import_mqsc, mqsc_files, named_path

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


def classify(paths: Sequence[str | Path]) -> tuple[list[MqscFile], list[EmsFile]]:
    """MQSC files (as `import mqsc` finds them) and EMS server configurations, in name order."""
    mqsc: list[MqscFile] = []
    ems: list[EmsFile] = []
    for item in paths:
        name, path = named_path(item)
        if path.is_dir():
            found_ems = sorted(
                p for p in files_under(path, "tibemsd.*") if p.suffix.lower() in EMS_CONFIG_SUFFIXES
            )
            found_mqsc = mqsc_files([item])
            if not found_ems and not found_mqsc:
                raise InputError("holds no MQSC file and no tibemsd.conf/tibemsd.json", file=str(path))
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


def read_files(paths: Sequence[str | Path], encoding: str | None = None) -> FileModel:
    """Import the files into an in-memory store and read the model back; a file that fails is an
    IMPORT_ERROR finding (``errors`` keeps the exceptions, for a caller that refuses bad input)."""
    from mqctl.store.memory import memory_store

    mqsc, ems = classify(paths)
    model = FileModel(Topology(), files=[str(f.path) for f in mqsc] + [str(f.path) for f in ems])
    with memory_store() as store:
        for conf in ems:
            try:
                import_ems(
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
        for script in mqsc:
            try:
                import_mqsc(
                    store, [script], inserts={}, encoding=encoding, empty=lambda p: model.empty.append(str(p))
                )
            except InputError as exc:
                model.errors.append(exc)
                model.import_errors += import_error(exc, script.path)
        model.topology = store.topology()
    return model


def import_error(exc: InputError, path: Path) -> list[Finding]:
    """IMPORT_ERROR at the file, line and column of each error of the file (a script refused as a whole
    names all of them, as runmqsc does); a selector that does not parse is an INVALID_SELECTOR there too."""
    from mqctl.domain.selector import SelectorError

    out: list[Finding] = []
    for error in exc.errors if isinstance(exc, FileRejected) else [exc]:
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
