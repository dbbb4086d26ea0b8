"""Kubernetes YAML applied to a store: each queue manager's qm.ini fragments and MQSC items, through the
one MQSC path (``services.runmqsc``) that ``import mqsc`` and ``validate --file`` use.

What the container does at every start, in its order (docs/semantics.md, "Kubernetes YAML"): the
``AutoCluster`` stanza makes the queue manager a full repository of its uniform cluster when it is named
as one; then the mounted ``*.mqsc`` items are applied in file-name order, with MQ's insert variables
(``+QMNAME+``, ``+AUTOCL+`` and the ``Variables`` stanza's names) given their values. Positions are
the YAML file's: a statement inside a literal block scalar keeps its own line (the text is applied after
as many empty lines as stand before it in the file, which MQSC ignores); inside any other scalar every
position is the scalar's start.

Findings of the auto-configuration (docs/rules.md MQC034–MQC038) are returned beside the model.

A Secret's items are never read (``items_read``): the door runs on untrusted input (a pull request's
overlay, rendered where the Secrets' values are at hand), and whatever a Secret's MQSC or qm.ini put in
the model — a definition, an insert variable's value — every output would show (diff, display,
findings). Its mounts are checked; its items are named as not read (``secret_notes``).
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mqctl.domain.errors import InputError, MqctlError
from mqctl.domain.model import Topology
from mqctl.domain.validation import FileRef, Finding, find_rule, finding
from mqctl.formats.kube import Estate, Ini, Item, QueueManagerSpec, check_rendered, parse_ini, read_estate
from mqctl.formats.text_io import read_text_file, read_text_stream
from mqctl.services.file_doors import FileResult
from mqctl.services.runmqsc import runmqsc
from mqctl.services.script_rules import RefreshHit, scan_script
from mqctl.store.repository import Store

YAML_SUFFIXES = {".yaml", ".yml"}
STDIN = "-"
STDIN_NAME = "<stdin>"
SYNTHETIC_BASE = 10_000_000
"""First line of the room given to a non-block scalar's MQSC (``synthetic``): far past any real line, so
that the positions of what it defines can be told from the others' and put back at the scalar's start."""

SERVICE_NOUNS = {"SERVICE"}
"""MQ expands ``+NAME+`` in a service's commands and arguments when it starts the service (IBM,
"Replaceable inserts on service definitions"): kept as written, not a finding."""
CLUSRCVR_EXPANDED = {"CONNAME", "CLUSTER"}
"""With the channel name, where the automatic cluster configuration expands its variables (IBM, "Variables
stanza of the qm.ini file": "the CONNAME and the MQSC channel name of a cluster receiver channel";
``CLUSTER(+AUTOCL+)`` in IBM's uniform cluster samples)."""


def is_yaml(path: Path | str) -> bool:
    return str(path) == STDIN or Path(str(path)).suffix.lower() in YAML_SUFFIXES


def yaml_files(paths: Sequence[Path | str]) -> list[str]:
    """The YAML files named and those below the folders named, in name order; ``-`` kept as is."""
    return list(yaml_names(paths))


def yaml_names(paths: Sequence[Path | str]) -> dict[str, str | None]:
    """``yaml_files`` -> the queue manager named with ``QM1=PATH`` (for an Ansible commands file)."""
    from mqctl.formats.file_names import named_path
    from mqctl.formats.walk import files_under

    out: dict[str, str | None] = {}
    for item in paths:
        text = str(item)
        if text == STDIN:
            out.setdefault(STDIN, None)
            continue
        name, path = named_path(text) if is_yaml(text) else (None, Path(text))
        if path.is_dir():
            for p in sorted(p for p in files_under(path) if p.suffix.lower() in YAML_SUFFIXES):
                out.setdefault(str(p), name)
        elif is_yaml(path):
            out.setdefault(str(path), name)
    return out


def read_sources(files: Sequence[str], encoding: str | None = None) -> list[tuple[str, str]]:
    sources = []
    for file in files:
        if file == STDIN:
            sources.append((STDIN_NAME, read_text_stream(sys.stdin.buffer, encoding, name=STDIN_NAME)))
        else:
            sources.append((file, read_text_file(file, encoding)))
    return sources


@dataclass
class KubeImport:
    """What the YAML gave: the runs per item, the auto-configuration findings, what was not modelled."""

    estate: Estate
    results: list[FileResult] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    relocate: dict[tuple[str, int], int] = field(default_factory=dict)
    """(file, synthetic first line) -> the scalar's line, for ``synthetic`` runs (``relocated``)."""
    ini_not_modelled: list[str] = field(default_factory=list)
    refresh_hits: list[RefreshHit] = field(default_factory=list)


def read_estate_files(
    files: Sequence[str], encoding: str | None = None, names: dict[str, str | None] | None = None
) -> Estate:
    given = {f: n for f, n in (names or {}).items() if n is not None}
    return read_estate(read_sources(files, encoding), given)


def items_read(items: Sequence[Item]) -> list[Item]:
    """The items whose text is read: a ConfigMap's, not a Secret's (the module docstring says why)."""
    return [item for item in items if not item.secret]


def secret_notes(estate: Estate) -> list[str]:
    """One line per Secret item a queue manager mounts: named, not read."""
    return [
        f"{qm.name} mounts {item.label} ({item.file}:{item.line}): not read, as no Secret's value is "
        "(what it defines would show in mqctl's outputs)"
        for qm in estate.queue_managers
        for item in [*qm.ini, *qm.mqsc]
        if item.secret
    ]


def import_estate(
    store: Store, estate: Estate, *, synthetic: bool = False, into: KubeImport | None = None
) -> KubeImport:
    """Apply every queue manager of ``estate`` (one transaction is the caller's) but its Secrets' items
    (``items_read``); the first error stops it (an ``InputError`` at the YAML position).

    ``synthetic`` (validate, diff: models read back in memory) gives a non-block scalar's statements lines
    of their own far past the file's end, put back at the scalar's start by ``relocated``; without it (a
    store kept) they are applied from the scalar's line on. ``into`` keeps the findings made before an
    error stopped the import."""
    out = into if into is not None else KubeImport(estate)
    spare = SYNTHETIC_BASE
    for qm in estate.queue_managers:
        ini = Ini()
        for item in items_read(qm.ini):
            check_rendered(item.text, item.where)
            parse_ini(item.text, ini)
            out.findings += _ini_findings(item, ini)
            ini.problems.clear()
        out.ini_not_modelled += [f"{qm.name}: stanza {s}" for s in dict.fromkeys(ini.other_stanzas)]
        inserts = {"QMNAME": qm.name, **ini.variables}
        auto = ini.autocluster
        if auto is not None and auto.cluster:
            inserts["AUTOCL"] = auto.cluster
        started = _start(store, qm, ini)
        mqsc = items_read(qm.mqsc)
        if started.run.read or not mqsc:  # a row for what it did, or for a queue manager with no MQSC
            out.results.append(started)
        for hidden, kept in qm.shadowed:
            out.findings.append(
                finding(
                    find_rule("MOUNTED_ITEM_SHADOWED"),
                    f"{qm.origin} mounts two files named {kept.name} ({hidden.label} and {kept.label}): "
                    f"only {kept.label} is applied.",
                    [FileRef(hidden.file, hidden.line), FileRef(kept.file, kept.line)],
                    nodes=[qm.name],
                )
            )
        for item in mqsc:
            check_rendered(item.text, item.where, mqsc=True)
            if qm.autoconfig:
                out.findings += _autoconfig_findings(qm, item, inserts)
            found, hits = scan_script(item.text, file=item.file, qmgr=qm.name, locate=item.yaml_line)
            out.findings += found
            out.refresh_hits += hits
            base = item.first_line if item.first_line is not None else item.line
            if synthetic and item.first_line is None:
                base = spare
                out.relocate[(item.file, spare)] = item.line
                spare += item.text.count("\n") + 1_000
            text = "\n" * (base - 1) + item.text
            result = runmqsc(
                store, qm.name, text, file=item.file, inserts=inserts, create=True, continue_on_error=False
            )
            result.file = f"{item.file} ({item.label})"
            out.results.append(result)
            if result.run.errors:
                raise _located(result.run.errors[0], item, base)
    return out


def _start(store: Store, qm: QueueManagerSpec, ini: Ini) -> FileResult:
    """The queue manager, created; a full repository of its uniform cluster when AutoCluster names it."""
    auto = ini.autocluster
    text = ""
    file = qm.file
    if auto is not None and auto.cluster and qm.name in auto.full_repositories():
        source = next(iter(items_read(qm.ini)), None)
        line = auto.line if source is None or source.first_line is None else source.first_line + auto.line - 1
        file = source.file if source is not None else qm.file
        text = "\n" * (line - 1) + f"ALTER QMGR REPOS('{auto.cluster}')\n"
    result = runmqsc(store, qm.name, text, file=file, inserts={}, create=True, continue_on_error=False)
    if result.run.errors:
        raise result.run.errors[0]
    result.file = f"{qm.file} ({qm.origin})"
    return result


def _located(exc: MqctlError, item: Item, base: int) -> InputError:
    """The error at its place in the YAML file."""
    line = None if exc.line is None else exc.line - base + 1
    at_line, at_column = item.locate(line, exc.column)
    return InputError(
        exc.message, obj=exc.obj, attribute=exc.attribute, file=item.file, line=at_line, column=at_column
    )


def _ini_findings(item: Item, ini: Ini) -> list[Finding]:
    rule = find_rule("INI_ATTRIBUTE_UNKNOWN")
    out = []
    for problem in ini.problems:
        line, _ = item.locate(problem.line, 1)
        out.append(
            finding(
                rule, f"{item.label}, line {problem.line}: {problem.message}.", [FileRef(item.file, line)]
            )
        )
    return out


def _autoconfig_findings(qm: QueueManagerSpec, item: Item, inserts: dict[str, str]) -> list[Finding]:
    """DEFINE without REPLACE, lines runmqsc refuses, ``+NAME+`` where MQ does not expand it."""
    from mqctl.formats.mqsc.lexer import INSERT, split_commands
    from mqctl.formats.mqsc.parser import parse_command

    out: list[Finding] = []
    label = item.label
    for number, logical in enumerate(split_commands(item.text), start=1):
        line, _ = item.locate(logical.line, 1)
        where = [FileRef(item.file, line)]
        if logical.error is not None:
            out.append(_rejected(qm, item, where, logical.error))
            continue
        try:
            command = parse_command(logical, number=number)
        except InputError as exc:
            out.append(_rejected(qm, item, where, exc))
            continue
        if command.verb == "DEFINE" and "REPLACE" not in command.params:
            out.append(
                finding(
                    find_rule("DEFINE_WITHOUT_REPLACE"),
                    f"{label}: DEFINE {command.noun}"
                    + (f"({command.name.text})" if command.name is not None else "")
                    + f" has no REPLACE, but {qm.name}'s container applies it at every start: from the "
                    "second start on it fails, as the object exists.",
                    where,
                    nodes=[qm.name],
                )
            )
        if "+" in logical.text:
            out += _inserts_not_expanded(qm, item, command, INSERT, inserts)
    return out


def _rejected(qm: QueueManagerSpec, item: Item, where: list[FileRef], exc: MqctlError) -> Finding:
    return finding(
        find_rule("AUTOCONFIG_REJECTED_LINE"),
        f"{item.label}: runmqsc refuses this line ({exc.message}); MQSC comments start with *. Applied at "
        f"start, it stops {qm.name} from starting.",
        where,
        nodes=[qm.name],
    )


def _inserts_not_expanded(
    qm: QueueManagerSpec, item: Item, command: object, pattern: object, inserts: dict[str, str]
) -> list[Finding]:
    from mqctl.formats.mqsc.parser import Command

    assert isinstance(command, Command)
    if command.noun in SERVICE_NOUNS:
        return []
    chltype = command.params.get("CHLTYPE")
    types = chltype.values if chltype is not None and chltype.values else ()
    clusrcvr = command.noun == "CHANNEL" and any(v.text.upper() == "CLUSRCVR" for v in types)
    values = [("name", command.name)] if command.name is not None else []
    values += [(key, v) for key, p in command.params.items() for v in (p.values or ())]
    out = []
    for key, value in values:
        if value is None:
            continue
        for match in pattern.finditer(value.text):  # type: ignore[attr-defined]
            if clusrcvr and (key == "name" or key in CLUSRCVR_EXPANDED):
                continue
            line, _ = item.locate(value.pos[0], value.pos[1])
            known = match.group(1).upper() in inserts
            out.append(
                finding(
                    find_rule("INSERT_NOT_EXPANDED"),
                    f"{item.label}: {match.group(0)} in {command.verb} {command.noun} "
                    f"{'its name' if key == 'name' else key} is not expanded by MQ there (only in a "
                    "cluster-receiver channel's name, CONNAME and CLUSTER, and in a service's "
                    f"arguments): {qm.name} keeps it as text"
                    + ("" if known else ", and mqctl knows no value for it")
                    + ".",
                    [FileRef(item.file, line)],
                    nodes=[qm.name],
                )
            )
    return out


def relocated_line(relocate: dict[tuple[str, int], int], file: str | None, line: int | None) -> int | None:
    """A synthetic line (``import_estate(synthetic=True)``) put back at its scalar's start."""
    if file is None or line is None or line < SYNTHETIC_BASE:
        return line
    starts = [start for (f, start) in relocate if f == file and start <= line]
    return relocate[(file, max(starts))] if starts else line


def relocated_topology(topology: Topology, relocate: dict[tuple[str, int], int]) -> Topology:
    """Source positions on synthetic lines put back at their scalar's start (``import_estate``)."""

    def move(obj: Any) -> Any:
        line = getattr(obj, "source_line", None)
        if line is None or line < SYNTHETIC_BASE:
            return obj
        return dataclasses.replace(obj, source_line=relocated_line(relocate, obj.source_file, line))

    return topology.mapped(move)
