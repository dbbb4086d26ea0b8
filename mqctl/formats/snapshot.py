"""Snapshots on disk: a folder of one file per table (Parquet, or JSON lines) and ``manifest.json``.

This module is the format only: domain objects <-> pyarrow tables <-> bytes, the manifest, and the
checks that a folder is a snapshot of this format version (manifest, files, sha256, schema, values of
enumerations). It knows no rule of MQ or EMS (``services.snapshot`` applies them) and no SQL.

Tables are built and read column by column (``to_pylist`` per column): a 500,000-subscription snapshot
converts in about a second, without pandas.
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
import typing
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import Enum
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from mqctl.domain.errors import InputError
from mqctl.domain.model import (
    Channel,
    Dialect,
    Membership,
    Namelist,
    Node,
    Route,
    RouteSelector,
    Subscription,
    TopicObject,
    Topology,
)
from mqctl.domain.valid_text import check_text
from mqctl.formats.snapshot_schema import (
    FILE_FORMATS,
    FORMAT,
    FORMAT_VERSION,
    MANIFEST,
    OPTIONAL,
    SCHEMAS,
    TABLES,
    file_name,
    type_name,
)


@dataclass(frozen=True)
class ClusterRow:
    """A cluster as the store keeps it (clusters are not part of ``Topology``)."""

    name: str
    descr: str = ""
    seq: int = 0


@dataclass(frozen=True)
class HierarchyRow:
    child: str
    parent: str


@dataclass
class Content:
    """What a snapshot holds, decoded: per table, the objects in file order (row N is index N-1)."""

    manifest: dict[str, Any]
    rows: dict[str, list[Any]] = field(default_factory=dict)
    packed: dict[str, bytes] | None = None
    """The model's tables as ``pack`` packs them, when the files are Parquet: the files themselves, as
    read and checked (``unpack`` reads them), so that the Spark job ships them without encoding the
    model again."""


# -- objects <-> columns ------------------------------------------------------------------------------

_CLASSES: dict[str, type] = {
    "nodes": Node,
    "clusters": ClusterRow,
    "memberships": Membership,
    "hierarchy": HierarchyRow,
    "channels": Channel,
    "namelists": Namelist,
    "topics": TopicObject,
    "ems_topics": TopicObject,
    "subscriptions": Subscription,
    "routes": Route,
    "route_selectors": RouteSelector,
}
_RENAMED = {("ems_topics", "topic"): "name"}
"""Columns whose field has another name (an EMS topic definition is named by its pattern)."""


def _field(table: str, column: str) -> str:
    return _RENAMED.get((table, column), column)


def _encoder(annotation: Any) -> Callable[[Any], Any] | None:
    """How a field's value goes into an Arrow column (None: as it is)."""
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return lambda v: v.value
    if typing.get_origin(annotation) is tuple:
        return list
    return None


def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def encode(topology: Topology, clusters: Iterable[ClusterRow]) -> dict[str, pa.Table]:
    """The snapshot's tables for a whole model (``topology`` from ``store.topology.load_topology``)."""
    dialect = {name: node.dialect for name, node in topology.nodes.items()}
    objects: dict[str, Sequence[Any]] = {
        "nodes": list(topology.nodes.values()),
        "clusters": list(clusters),
        "memberships": topology.memberships,
        "hierarchy": [
            HierarchyRow(n.name, n.parent) for n in topology.nodes.values() if n.parent is not None
        ],
        "channels": topology.channels,
        "namelists": topology.namelists,
        "topics": [t for t in topology.topics if dialect.get(t.node) is not Dialect.EMS],
        "ems_topics": [t for t in topology.topics if dialect.get(t.node) is Dialect.EMS],
        "subscriptions": topology.subscriptions,
        "routes": topology.routes,
        "route_selectors": topology.route_selectors,
    }
    out = {}
    for table, schema in SCHEMAS.items():
        items = objects[table]
        hints = _hints(_CLASSES[table])
        arrays = []
        for f in schema:
            name = _field(table, f.name)
            values = [getattr(obj, name) for obj in items]
            enc = _encoder(hints[name])
            if enc is not None:
                values = [enc(v) for v in values]
            arrays.append(pa.array(values, type=f.type))
        out[table] = pa.Table.from_arrays(arrays, schema=schema)
    return out


def _where(file: str, row: int | None = None) -> str:
    return f"snapshot {file}" + ("" if row is None else f" row {row}")


def _json(text: str, where: str) -> Any:
    """``json.loads`` bounded as Python bounds it: a number longer than the interpreter's digit limit or a
    nesting deeper than its recursion limit is bad input (one line), not a crash."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        at = f"line {exc.lineno}, column {exc.colno}" if "\n" in text else f"column {exc.colno}"
        raise InputError(f"is not JSON: {exc.msg} at {at}", obj=where) from None
    except ValueError:  # int(): "Exceeds the limit (4300 digits) for integer string conversion"
        raise InputError(
            f"holds a number longer than {sys.get_int_max_str_digits()} digits", obj=where
        ) from None
    except RecursionError:
        raise InputError("nests arrays or objects too deeply to be a snapshot", obj=where) from None


def _decoder(annotation: Any, file: str, column: str) -> Callable[[list[Any]], list[Any]] | None:
    """How a column's values become the fields' values (None: as they are); refuses unknown enum values.

    Each maps a whole column in C (``map``): a Python call per cell costs more than reading the file."""
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        members: dict[Any, Any] = {m.value: m for m in annotation}
        allowed = "|".join(str(m.value) for m in annotation)

        def enum(values: list[Any]) -> list[Any]:
            try:
                return list(map(members.__getitem__, values))
            except KeyError:
                row, value = next((i, v) for i, v in enumerate(values, 1) if v not in members)
                raise InputError(
                    f"{value!r} is not one of {allowed}", obj=f"{_where(file, row)}: column {column}"
                ) from None

        return enum
    origin = typing.get_origin(annotation)
    if origin is tuple:
        return lambda values: list(map(tuple, values))
    if origin is dict:
        return lambda values: list(map(dict, values))
    return None


def decode(table: str, data: pa.Table, file: str) -> list[Any]:
    """The objects of one table, in row order (column by column: no per-cell Arrow calls)."""
    cls = _CLASSES[table]
    hints = _hints(cls)
    names = [_field(table, f.name) for f in SCHEMAS[table]]
    columns: list[list[Any]] = []
    for f, name in zip(SCHEMAS[table], names, strict=True):
        values = _column_values(data.column(f.name), file, f.name)
        dec = _decoder(hints[name], file, f.name)
        if dec is not None:
            values = dec(values)
        columns.append(values)
    if table == "ems_topics":
        # name and topicstr are one pattern; the MQ attributes keep their defaults
        topic, props = names.index("name"), names.index("properties")
        rest = [(n, i) for i, n in enumerate(names) if i not in (topic, props)]
        return [
            TopicObject(
                row[0],
                row[topic],
                row[topic],
                properties=row[props],
                **{n: row[i] for n, i in rest if n != "node"},
            )
            for row in zip(*columns, strict=True)
        ]
    if not columns or not columns[0]:
        return []
    order = [f.name for f in _dataclass_fields(cls)]
    if names == order[: len(names)]:
        return list(map(cls, *columns))  # the columns of one table: all of one length
    return [cls(**dict(zip(names, row, strict=True))) for row in zip(*columns, strict=True)]


def _column_values(column: pa.ChunkedArray, file: str, name: str) -> list[Any]:
    """A column's values. Parquet does not check that a string is UTF-8: bytes that are not are refused
    naming the row, as a text file's are (``formats.text_io``)."""
    try:
        return column.to_pylist()
    except UnicodeDecodeError as err:
        byte = bytes(err.object[err.start : err.start + 1]).hex().upper()
        raise InputError(
            f"byte 0x{byte} cannot be decoded as UTF-8",
            obj=f"{_where(file, _undecodable_row(column))}: column {name}",
        ) from None


def _undecodable_row(column: pa.ChunkedArray) -> int | None:
    """The 1-based row of the first value that is not UTF-8 (the error path only: one Arrow call per cell)."""
    for row, value in enumerate(column, 1):
        try:
            value.as_py()
        except UnicodeDecodeError:
            return row
    return None


def _dataclass_fields(cls: type) -> list[Any]:
    import dataclasses

    return list(dataclasses.fields(cls))


def topology_of(rows: dict[str, list[Any]]) -> Topology:
    """The ``Topology`` the decoded tables describe (hierarchy rows set ``Node.parent``)."""
    topology = Topology()
    topology.nodes = {node.name: node for node in rows["nodes"]}
    for link in rows["hierarchy"]:
        node = topology.nodes.get(link.child)
        if node is not None:
            node.parent = link.parent
    topology.memberships = list(rows["memberships"])
    topology.channels = list(rows["channels"])
    topology.namelists = list(rows["namelists"])
    topology.topics = list(rows["topics"]) + list(rows["ems_topics"])
    topology.subscriptions = list(rows["subscriptions"])
    topology.routes = list(rows["routes"])
    topology.route_selectors = list(rows["route_selectors"])
    return topology


# -- tables <-> bytes -----------------------------------------------------------------------------------


def pack(topology: Topology) -> dict[str, bytes]:
    """The model as the snapshot's tables, each in Parquet, in memory: how the Spark job ships a model to
    its executors (a few megabytes where pickled objects take a hundred times more, and quicker to
    decode than to unpickle). Cluster rows (DESCR) are not part of a ``Topology`` and are left out.
    A model read from a Parquet snapshot has its tables packed already (``Content.packed``)."""
    return {table: to_bytes(data, "parquet") for table, data in encode(topology, []).items()}


def unpack(packed: dict[str, bytes]) -> Topology:
    """The model ``pack`` packed, or a Parquet snapshot's files (already checked where they were read:
    no rule is applied again). One thread: a worker unpacks beside the others, on its own core."""
    rows: dict[str, list[Any]] = {}
    for table in TABLES:
        raw = packed.get(table)
        data = _with_optional(table, pq.read_table(io.BytesIO(raw), use_threads=False)) if raw else None
        rows[table] = decode(table, data, table) if data is not None else []
    return topology_of(rows)


def to_bytes(data: pa.Table, file_format: str) -> bytes:
    if file_format == "parquet":
        sink = pa.BufferOutputStream()
        pq.write_table(data, sink, compression="zstd")
        return bytes(sink.getvalue().to_pybytes())
    lines = []
    maps = [f.name for f in data.schema if pa.types.is_map(f.type)]
    for row in data.to_pylist():
        for key in maps:
            row[key] = dict(row[key])  # a map (pairs in Arrow's Python form): a JSON object, keys in order
        lines.append(json.dumps(row, ensure_ascii=False, separators=(",", ":")))
    return ("\n".join(lines) + "\n" if lines else "").encode("utf-8")


def manifest(
    tables: dict[str, pa.Table], files: dict[str, bytes], file_format: str, revision: str
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "snapshot_id": str(uuid.uuid4()),
        "created": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
        "store_revision": revision,
        "file_format": file_format,
        "tables": {
            table: {
                "file": file_name(table, file_format),
                "rows": tables[table].num_rows,
                "sha256": hashlib.sha256(files[file_name(table, file_format)]).hexdigest(),
            }
            for table in TABLES
        },
    }


def write_plan(
    topology: Topology, clusters: Iterable[ClusterRow], file_format: str, revision: str
) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The manifest and every file of a snapshot (name -> bytes, ``manifest.json`` last)."""
    if file_format not in FILE_FORMATS:
        raise InputError(f"{file_format!r} is not one of {'|'.join(FILE_FORMATS)}", attribute="--format")
    tables = encode(topology, clusters)
    files = {file_name(t, file_format): to_bytes(tables[t], file_format) for t in TABLES}
    meta = manifest(tables, files, file_format, revision)
    files[MANIFEST] = (json.dumps(meta, indent=2) + "\n").encode("utf-8")
    return meta, files


# -- reading and checking a folder ------------------------------------------------------------------------


def read_manifest(folder: Path) -> dict[str, Any]:
    """``manifest.json``, checked: this format and version, every table named with its file."""
    path = folder / MANIFEST
    if not folder.is_dir():
        raise InputError("is not a folder", obj=f"snapshot {folder}")
    if not path.is_file():
        raise InputError(f"has no {MANIFEST}: not an mqctl snapshot", obj=f"snapshot {folder}")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot be read: {exc}", obj=_where(MANIFEST)) from None
    meta = _json(text, _where(MANIFEST))
    where = _where(MANIFEST)
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        found = meta.get("format") if isinstance(meta, dict) else None
        raise InputError(f"format is {found!r}, not {FORMAT!r}: not an mqctl snapshot", obj=where)
    if meta.get("format_version") != FORMAT_VERSION:
        raise InputError(
            f"format_version is {meta.get('format_version')!r}; this mqctl reads version {FORMAT_VERSION}",
            obj=where,
        )
    file_format = meta.get("file_format")
    if file_format not in FILE_FORMATS:
        raise InputError(f"file_format is {file_format!r}, not one of {'|'.join(FILE_FORMATS)}", obj=where)
    listed = meta.get("tables")
    if not isinstance(listed, dict):
        raise InputError("has no tables", obj=where)
    for table in TABLES:
        entry = listed.get(table)
        if not isinstance(entry, dict):
            raise InputError(f"table {table} is missing", obj=where)
        if entry.get("file") != file_name(table, file_format):
            raise InputError(
                f"table {table}: file is {entry.get('file')!r}, expected {file_name(table, file_format)!r}",
                obj=where,
            )
        if not isinstance(entry.get("rows"), int) or not isinstance(entry.get("sha256"), str):
            raise InputError(f"table {table}: rows and sha256 are required", obj=where)
    unknown = sorted(set(listed) - set(TABLES))
    if unknown:
        raise InputError(f"unknown table {unknown[0]} (format version {FORMAT_VERSION} has none)", obj=where)
    for key in ("snapshot_id", "created", "store_revision"):
        if not isinstance(meta.get(key), str):
            raise InputError(f"{key} is missing", obj=where)
    return meta


def _checked_bytes(folder: Path, entry: dict[str, Any]) -> bytes:
    name = entry["file"]
    path = folder / name
    if not path.is_file():
        raise InputError("is missing", obj=_where(name))
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != entry["sha256"]:
        raise InputError(
            "sha256 does not match the manifest (the file was changed or damaged)", obj=_where(name)
        )
    return data


def _with_optional(table: str, data: pa.Table) -> pa.Table:
    """``data`` with each optional column it lacks (a snapshot of an older mqctl) filled with its default."""
    for f in SCHEMAS[table]:
        if f.name not in data.column_names and (table, f.name) in OPTIONAL:
            value = OPTIONAL[table, f.name]
            data = data.append_column(f, pa.array([value] * data.num_rows, type=f.type))
    return data


def _check_schema(table: str, data: pa.Table, file: str) -> None:
    expected = SCHEMAS[table]
    for f in expected:
        if f.name not in data.column_names:
            raise InputError(f"column {f.name} is missing", obj=_where(file))
        found = data.schema.field(f.name).type
        if found != f.type:
            raise InputError(
                f"column {f.name} has type {type_name(found)}, expected {type_name(f.type)}", obj=_where(file)
            )
    extra = [c for c in data.column_names if c not in expected.names]
    if extra:
        raise InputError(f"column {extra[0]} is not in format version {FORMAT_VERSION}", obj=_where(file))
    for f in expected:
        column = data.column(f.name)
        if not f.nullable and column.null_count:
            row = next(i for i, v in enumerate(column.is_null().to_pylist(), 1) if v)
            raise InputError(f"column {f.name} is empty (null)", obj=_where(file, row))


def _from_json_lines(table: str, raw: bytes, file: str) -> pa.Table:
    schema = SCHEMAS[table]
    columns: dict[str, list[Any]] = {f.name: [] for f in schema}
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"is not UTF-8: {exc.reason}", obj=_where(file)) from None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        row = _json(line, _where(file, n))
        if not isinstance(row, dict):
            raise InputError("is not a JSON object", obj=_where(file, n))
        for name, values in columns.items():
            if name in row:
                values.append(row[name])
            elif (table, name) in OPTIONAL:
                values.append(OPTIONAL[table, name])
            else:
                raise InputError(f"column {name} is missing", obj=_where(file, n))
        extra = [k for k in row if k not in columns]
        if extra:
            raise InputError(
                f"column {extra[0]} is not in format version {FORMAT_VERSION}", obj=_where(file, n)
            )
    arrays = []
    for f in schema:
        try:
            arrays.append(pa.array(columns[f.name], type=f.type))
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError):
            row = _first_bad(columns[f.name], f.type)
            if row is not None:  # a JSON escape such as "\udcff" gives a string that is not text
                for text in _strings(columns[f.name][row - 1]):
                    check_text(text, obj=f"{_where(file, row)}: column {f.name}")
            raise InputError(
                f"column {f.name} has a value that is not {type_name(f.type)}", obj=_where(file, row)
            ) from None
    return pa.Table.from_arrays(arrays, schema=pa.schema([pa.field(f.name, f.type) for f in schema]))


def _strings(value: Any) -> Iterator[str]:
    """Every string a JSON value holds (keys of objects too)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)


def _first_bad(values: list[Any], type_: pa.DataType) -> int | None:
    for i, value in enumerate(values, 1):
        try:
            pa.array([value], type=type_)
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError):
            return i
    return None


def read_tables(
    folder: Path, files: dict[str, bytes] | None = None
) -> tuple[dict[str, Any], dict[str, pa.Table]]:
    """The manifest and every table, each file checked against the manifest (sha256, rows) and the
    schema of this format version. Refuses with one line naming the file (and column, or row).
    ``files``, when given, receives each table's file as read."""
    meta = read_manifest(folder)
    file_format = meta["file_format"]
    out: dict[str, pa.Table] = {}
    for table in TABLES:
        entry = meta["tables"][table]
        raw = _checked_bytes(folder, entry)
        if files is not None:
            files[table] = raw
        name = entry["file"]
        if file_format == "parquet":
            try:
                data = pq.read_table(io.BytesIO(raw))
            except (pa.ArrowException, OSError) as exc:
                raise InputError(f"is not a Parquet file: {exc}", obj=_where(name)) from None
            data = _with_optional(table, data)
        else:
            data = _from_json_lines(table, raw, name)
        _check_schema(table, data, name)
        if data.num_rows != entry["rows"]:
            raise InputError(
                f"holds {data.num_rows} rows; the manifest says {entry['rows']}", obj=_where(name)
            )
        out[table] = data
    return meta, out


def read(folder: Path) -> Content:
    """Every table of the snapshot in ``folder``, decoded to domain objects (no rule applied yet)."""
    files: dict[str, bytes] = {}
    meta, tables = read_tables(folder, files)
    content = Content(meta)
    for table in TABLES:
        content.rows[table] = decode(table, tables[table], meta["tables"][table]["file"])
    if meta["file_format"] == "parquet":
        content.packed = files
    return content
