"""Multi-document Kubernetes YAML read into the queue managers it deploys and the files each applies.

Read: ``ConfigMap`` (``data``), ``Secret`` (``data`` in base64, ``stringData``), ``QueueManager``
(``mq.ibm.com``: ``spec.queueManager.name``, ``.mqsc[]``, ``.ini[]``) and the ``ibm-mq`` Helm chart's
values (a document without ``kind`` holding ``queueManager:``). Every other kind is skipped and counted;
a ConfigMap or Secret that nothing mounts is named. Positions come from PyYAML's composer (each node's
``start_mark``), so that an MQSC line inside a block scalar is located in the YAML file (``Item``).

A Secret's values are never put in a message: errors about them name the Secret, the key and the line.
"""

from __future__ import annotations

import base64
import binascii
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import yaml

from mqctl.domain.errors import InputError, clip, escaped
from mqctl.domain.names import check_mq_name

try:  # libyaml's composer when the wheel has it: same nodes and marks, several times quicker
    _LOADER: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover — a PyYAML built without libyaml
    _LOADER = yaml.SafeLoader

QUEUE_MANAGER_GROUP = "mq.ibm.com/"
HELM_LISTS = {
    "mqscConfigMaps": ("mqsc", "ConfigMap"),
    "mqscSecrets": ("mqsc", "Secret"),
    "qminiConfigMaps": ("ini", "ConfigMap"),
    "qminiSecrets": ("ini", "Secret"),
}
RELEASE_LABEL = "app.kubernetes.io/instance"
"""The label Helm's charts set to the release name (the ``ibm-mq`` chart's default queue manager name)."""


@dataclass(frozen=True)
class Item:
    """One file mounted into a queue manager's container: a key of a ConfigMap or Secret.

    ``first_line`` is the YAML line of the value's first line when the value is a literal block scalar
    (``|``, ``|-``, ``|+``): its line N is then YAML line ``first_line + N - 1``, its columns shifted by
    ``indent``. Any other scalar (plain, quoted, folded ``>``, base64) has no such correspondence: every
    position in it is the scalar's start (``line``, ``column``)."""

    name: str
    """The file name it is mounted as (the key)."""
    text: str
    file: str
    line: int
    column: int
    source: str
    """``ConfigMap uc-mqsc`` / ``Secret qm-secrets``."""
    secret: bool = False
    first_line: int | None = None
    indent: int = 0

    @property
    def label(self) -> str:
        return f"{self.source} key {self.name}"

    def locate(self, line: int | None, column: int | None) -> tuple[int, int | None]:
        """A position in ``text`` (1-based) as a position in the YAML file."""
        if self.first_line is None or line is None:
            return self.line, self.column
        return self.first_line + line - 1, None if column is None else column + self.indent

    def yaml_line(self, line: int) -> int:
        """The YAML line of line ``line`` of ``text``."""
        return self.locate(line, 1)[0]

    def where(self, line: int, column: int) -> tuple[str, int, int]:
        at_line, at_column = self.locate(line, column)
        return self.file, at_line, at_column if at_column is not None else self.column


@dataclass(frozen=True)
class Ref:
    """A QueueManager's (or Helm values') reference to a ConfigMap or Secret and the keys it mounts."""

    kind: str
    name: str
    items: tuple[tuple[str, int, int], ...] | None
    """(key, line, column) of each key listed; None: every key."""
    file: str
    line: int
    column: int


@dataclass
class QueueManagerSpec:
    """One queue manager and the files its container applies at every start (auto-configuration)."""

    name: str
    origin: str
    """``QueueManager uc1`` or ``Helm values values.yaml``."""
    file: str
    line: int
    mqsc: list[Item] = field(default_factory=list)
    ini: list[Item] = field(default_factory=list)
    shadowed: list[tuple[Item, Item]] = field(default_factory=list)
    """(hidden, kept): two mounted items with the same file name; only the kept one is applied."""
    autoconfig: bool = True
    """Applied at every start (a container's items); False for commands run once (Ansible)."""


@dataclass
class Estate:
    queue_managers: list[QueueManagerSpec] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    """Documents of other kinds, by kind."""
    unmounted: list[str] = field(default_factory=list)
    """ConfigMaps and Secrets no queue manager mounts, with their place."""
    documents: int = 0


@dataclass
class _Data:
    kind: str
    name: str
    file: str
    line: int
    items: dict[str, Item]
    labels: dict[str, str]
    unreadable: dict[str, InputError] = field(default_factory=dict)
    """Keys whose value is no text (a keystore in a Secret, an empty value): an error only when a queue
    manager mounts them as MQSC or qm.ini; MQ never reads the others as text."""


@dataclass
class _Pending:
    name: str | None
    name_at: tuple[str, int, int]
    origin: str
    refs: list[tuple[str, Ref]]
    helm: bool


def read_estate(sources: Iterable[tuple[str, str]], names: Mapping[str, str] | None = None) -> Estate:
    """Every document of every ``(file name, text)``, resolved into queue managers; one ``InputError``
    for malformed YAML, a reference to a ConfigMap/Secret/key not given, a Secret that is not base64.

    ``names``: file -> the queue manager an Ansible commands file (``mq_commands:``) is for (``QM1=PATH``;
    else the file name's stem)."""
    estate = Estate()
    data: dict[tuple[str, str], _Data] = {}
    pending: list[_Pending] = []
    commands: list[QueueManagerSpec] = []
    for file, text in sources:
        lines = text.splitlines()
        for node in _compose(text, file):
            estate.documents += 1
            top = _map(node)
            if "mq_commands" in top and "kind" not in top:
                from mqctl.formats.kube.ansible import commands_item

                commands.append(commands_item(top["mq_commands"], file, (names or {}).get(file)))
                continue
            _document(node, file, lines, estate, data, pending, (names or {}).get(file))
    mounted: set[tuple[str, str]] = set()
    for spec in pending:
        estate.queue_managers.append(_resolve(spec, data, mounted))
    estate.queue_managers += commands
    for key, found in sorted(data.items(), key=lambda kv: (kv[1].file, kv[1].line)):
        if key not in mounted:
            estate.unmounted.append(f"{found.kind} {found.name} ({found.file}:{found.line})")
    estate.queue_managers.sort(key=lambda q: q.name)
    deployed = Counter(q.name for q in estate.queue_managers)
    for q in estate.queue_managers:
        if deployed[q.name] > 1:
            raise InputError(
                f"queue manager {q.name} is deployed twice ({q.origin} and another): give one of them",
                file=q.file,
                line=q.line,
            )
    return estate


def _compose(text: str, file: str) -> list[yaml.Node]:
    try:
        return [node for node in yaml.compose_all(text, Loader=_LOADER) if node is not None]
    except yaml.MarkedYAMLError as exc:
        # a chart's template (``{{- if … }}``) is no YAML until rendered: say so, not the parser's complaint
        from mqctl.formats.kube.placeholders import check_rendered

        check_rendered(text, lambda line, column: (file, line, column))
        mark = exc.problem_mark or exc.context_mark
        problem = escaped(clip(str(exc.problem or exc.context or "not valid"), 80))
        raise InputError(
            f"not valid YAML: {problem}",
            file=file,
            line=None if mark is None else mark.line + 1,
            column=None if mark is None else mark.column + 1,
        ) from None
    except yaml.YAMLError as exc:
        raise InputError(f"not valid YAML: {escaped(clip(str(exc), 80))}", file=file) from None


def _map(node: yaml.Node | None) -> dict[str, yaml.Node]:
    if not isinstance(node, yaml.MappingNode):
        return {}
    return {k.value: v for k, v in node.value if isinstance(k, yaml.ScalarNode)}


def _text(node: yaml.Node | None) -> str | None:
    if isinstance(node, yaml.ScalarNode) and node.tag != "tag:yaml.org,2002:null":
        return str(node.value)
    return None


def _at(node: yaml.Node) -> tuple[int, int]:
    """Where the node's text starts, 1-based (inside the quotes of a quoted scalar)."""
    quoted = isinstance(node, yaml.ScalarNode) and node.style in ("'", '"')
    return node.start_mark.line + 1, node.start_mark.column + 1 + quoted


def _document(
    node: yaml.Node,
    file: str,
    lines: list[str],
    estate: Estate,
    data: dict[tuple[str, str], _Data],
    pending: list[_Pending],
    given: str | None = None,
) -> None:
    top = _map(node)
    kind = _text(top.get("kind"))
    meta = _map(top.get("metadata"))
    line, column = _at(node)
    if kind is None and "queueManager" in top and isinstance(top["queueManager"], yaml.MappingNode):
        pending.append(_helm_values(top["queueManager"], file, given))
        return
    if kind == "List":
        for child in top["items"].value if isinstance(top.get("items"), yaml.SequenceNode) else []:
            _document(child, file, lines, estate, data, pending, given)
        return
    if kind in ("ConfigMap", "Secret"):
        name = _text(meta.get("name"))
        if name is None:
            raise InputError(f"a {kind} without metadata.name", file=file, line=line, column=column)
        labels = {k: v for k, n in _map(meta.get("labels")).items() if (v := _text(n)) is not None}
        items, unreadable = _config_items(kind, name, top, file, lines)
        data[(kind, name)] = _Data(kind, name, file, line, items, labels, unreadable)
        return
    api = _text(top.get("apiVersion")) or ""
    if kind == "QueueManager" and api.startswith(QUEUE_MANAGER_GROUP):
        pending.append(_queue_manager(top, meta, file, line, column))
        return
    estate.skipped[kind or "(no kind)"] += 1


def _config_items(
    kind: str, name: str, top: dict[str, yaml.Node], file: str, lines: list[str]
) -> tuple[dict[str, Item], dict[str, InputError]]:
    """The keys read as text, and those that are not (refused only if mounted: ``_Data.unreadable``)."""
    source = f"{kind} {name}"
    items: dict[str, Item] = {}
    unreadable: dict[str, InputError] = {}
    secret = kind == "Secret"
    entries = [(k, v, False) for k, v in _map(top.get("data")).items()]
    if secret:
        entries += [(k, v, True) for k, v in _map(top.get("stringData")).items()]
    for key, value, clear in entries:
        try:
            if secret and not clear:
                items[key] = _decoded(key, value, source, file)
            else:
                items[key] = _item(key, value, source, file, lines, secret=secret)
            unreadable.pop(key, None)
        except InputError as exc:
            unreadable[key] = exc
            items.pop(key, None)
    return items, unreadable


def _item(key: str, node: yaml.Node, source: str, file: str, lines: list[str], *, secret: bool) -> Item:
    line, column = _at(node)
    text = _text(node)
    if text is None:
        raise InputError(f"{source} key {key}: the value is not text", file=file, line=line, column=column)
    if isinstance(node, yaml.ScalarNode) and node.style == "|":
        # the indicator's line, then the content: line N of the value is YAML line (indicator + N)
        first = node.start_mark.line + 2
        indent = _indent(lines, first - 1, node.end_mark.line)
        return Item(key, text, file, line, column, source, secret, first, indent)
    return Item(key, text, file, line, column, source, secret)


def _indent(lines: list[str], start: int, end: int) -> int:
    """The indentation of a block scalar's content: that of its first line that is not blank."""
    for raw in lines[start : max(end, start + 1)]:
        if raw.strip():
            return len(raw) - len(raw.lstrip(" "))
    return 0


def _decoded(key: str, node: yaml.Node, source: str, file: str) -> Item:
    """A Secret's ``data`` value: base64 of UTF-8 text. Never quoted in an error."""
    line, column = _at(node)
    raw = _text(node)
    if raw is None:
        raise InputError(f"{source} key {key}: the value is not text", file=file, line=line, column=column)
    try:
        text = base64.b64decode("".join(raw.split()), validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        raise InputError(
            f"{source} key {key}: data is not base64 of UTF-8 text (the value is not shown: it is a "
            "Secret's; put clear text under stringData)",
            file=file,
            line=line,
            column=column,
        ) from None
    return Item(key, text, file, line, column, source, secret=True)


def _refs(node: yaml.Node | None, section: str, file: str) -> list[tuple[str, Ref]]:
    """``mqsc:``/``ini:`` of a QueueManager: ``- configMap: {name, items}`` or ``- secret: {...}``."""
    out: list[tuple[str, Ref]] = []
    for entry in node.value if isinstance(node, yaml.SequenceNode) else []:
        for key, kind in (("configMap", "ConfigMap"), ("secret", "Secret")):
            target = _map(entry).get(key)
            if target is not None:
                out.append((section, _ref(kind, target, file)))
    return out


def _ref(kind: str, node: yaml.Node, file: str) -> Ref:
    body = _map(node)
    line, column = _at(node)
    name = _text(body.get("name"))
    if name is None:
        raise InputError(f"a reference to a {kind} without a name", file=file, line=line, column=column)
    items_node = body.get("items")
    items: tuple[tuple[str, int, int], ...] | None = None
    if isinstance(items_node, yaml.SequenceNode):
        listed = []
        for item in items_node.value:
            key = _text(item) if isinstance(item, yaml.ScalarNode) else _text(_map(item).get("key"))
            if key is not None:
                listed.append((key, *_at(item)))
        items = tuple(listed)
    name_line, name_column = _at(body["name"])
    return Ref(kind, name, items, file, name_line, name_column)


def _queue_manager(
    top: dict[str, yaml.Node], meta: dict[str, yaml.Node], file: str, line: int, column: int
) -> _Pending:
    qm = _map(_map(top.get("spec")).get("queueManager"))
    resource = _text(meta.get("name")) or "(no name)"
    name_node = qm.get("name") or meta.get("name")
    name = _text(name_node)
    at = (file, *_at(name_node)) if name_node is not None else (file, line, column)
    refs = _refs(qm.get("mqsc"), "mqsc", file) + _refs(qm.get("ini"), "ini", file)
    return _Pending(name, at, f"QueueManager {resource}", refs, helm=False)


def _helm_values(node: yaml.Node, file: str, given: str | None = None) -> _Pending:
    qm = _map(node)
    refs: list[tuple[str, Ref]] = []
    for key, (section, kind) in HELM_LISTS.items():
        entries = qm.get(key)
        for entry in entries.value if isinstance(entries, yaml.SequenceNode) else []:
            refs.append((section, _ref(kind, entry, file)))
    name_node = qm.get("name")
    at = (file, *_at(name_node if name_node is not None else node))
    return _Pending(_text(name_node) or given, at, f"Helm values {file}", refs, helm=True)


def _resolve(
    spec: _Pending, data: dict[tuple[str, str], _Data], mounted: set[tuple[str, str]]
) -> QueueManagerSpec:
    file, line, column = spec.name_at
    name = spec.name
    if name is None and spec.helm:
        name = _release_name(spec, data)
    if name is None:
        raise InputError(
            f"{spec.origin}: no queue manager name (set spec.queueManager.name, or queueManager.name in "
            f"Helm values; the chart then names it after the release: give it as QM1={file})",
            file=file,
            line=line,
            column=column,
        )
    from mqctl.formats.kube.placeholders import check_rendered

    check_rendered(name, lambda _l, c: (file, line, column + c - 1))
    try:
        check_mq_name(name, "qmgr")
    except InputError as exc:
        raise InputError(f"{spec.origin}: {exc.message}", file=file, line=line, column=column) from None
    out = QueueManagerSpec(name, spec.origin, file, line)
    chosen: dict[str, dict[str, Item]] = {"mqsc": {}, "ini": {}}
    for section, ref in spec.refs:
        _check_ref(ref)
        found = data.get((ref.kind, ref.name))
        if found is None:
            raise InputError(
                f"{spec.origin} mounts {ref.kind} {clip(ref.name)}, which is not in the files given "
                "(give the file that defines it, or render the whole overlay)",
                file=ref.file,
                line=ref.line,
                column=ref.column,
            )
        mounted.add((ref.kind, ref.name))
        every = sorted(set(found.items) | set(found.unreadable))
        keys = ref.items if ref.items is not None else tuple((k, ref.line, ref.column) for k in every)
        for key, key_line, key_column in keys:
            item = found.items.get(key)
            if item is None and key in found.unreadable:
                raise found.unreadable[key]
            if item is None:
                raise InputError(
                    f"{spec.origin} mounts key {clip(key)} of {ref.kind} {clip(ref.name)}, which has no such key",
                    file=ref.file,
                    line=key_line,
                    column=key_column,
                )
            before = chosen[section].get(key)
            if before is not None and before != item:
                out.shadowed.append((before, item))
            chosen[section][key] = item
    out.mqsc = [chosen["mqsc"][k] for k in sorted(chosen["mqsc"])]
    out.ini = [chosen["ini"][k] for k in sorted(chosen["ini"])]
    return out


def _check_ref(ref: Ref) -> None:
    from mqctl.formats.kube.placeholders import check_rendered

    check_rendered(ref.name, lambda _line, column: (ref.file, ref.line, ref.column + column - 1))


def _release_name(spec: _Pending, data: dict[tuple[str, str], _Data]) -> str | None:
    """The queue manager the chart names after the release its rendered ConfigMaps carry
    (``app.kubernetes.io/instance``), when one: ``queueManager.name | default .Release.Name | replace "-" ""``."""
    releases = {
        found.labels[RELEASE_LABEL]
        for _, ref in spec.refs
        if (found := data.get((ref.kind, ref.name))) is not None and RELEASE_LABEL in found.labels
    }
    return releases.pop().replace("-", "") if len(releases) == 1 else None
