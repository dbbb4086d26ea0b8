"""The fixed schema of a snapshot (format version 1): one table per kind of definition.

Each table is an explicit pyarrow schema; ``docs/snapshot.md`` describes every column. A snapshot
written by mqctl has exactly these columns with exactly these types, and one whose files differ is
refused (``formats.snapshot.read_tables``). Changing a column here is a new ``FORMAT_VERSION``, except
adding one to ``OPTIONAL``: a reader fills it in where an older mqctl's snapshot lacks it.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from mqctl.domain.model import SubType

FORMAT = "mqctl-snapshot"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
FILE_FORMATS = ("parquet", "json")

_S = pa.string()
_I = pa.int64()
_B = pa.bool_()
PROPERTIES = pa.map_(pa.string(), pa.string())
"""EMS properties in their written order; a flag (``global``) has a null value."""
NAMES = pa.list_(pa.string())


def _schema(*columns: tuple[str, pa.DataType, bool]) -> pa.Schema:
    return pa.schema([pa.field(name, type_, nullable=nullable) for name, type_, nullable in columns])


_SOURCE = (("source_file", _S, True), ("source_line", _I, True))

SCHEMAS: dict[str, pa.Schema] = {
    "nodes": _schema(
        ("name", _S, False),
        ("dialect", _S, False),
        ("psmode", _S, False),
        ("psclus", _S, False),
        ("descr", _S, False),
        ("seq", _I, False),
        *_SOURCE,
    ),
    "clusters": _schema(("name", _S, False), ("descr", _S, False), ("seq", _I, False)),
    "memberships": _schema(
        ("node", _S, False), ("cluster", _S, False), ("full_repository", _B, False), ("seq", _I, False)
    ),
    "hierarchy": _schema(("child", _S, False), ("parent", _S, False)),
    "channels": _schema(
        ("node", _S, False),
        ("name", _S, False),
        ("chltype", _S, False),
        ("cluster", _S, False),
        ("clusnl", _S, False),
        ("conname", _S, False),
        ("descr", _S, False),
        ("clwlrank", _I, False),
        ("clwlprty", _I, False),
        ("clwlwght", _I, False),
        ("seq", _I, False),
        *_SOURCE,
    ),
    "namelists": _schema(
        ("node", _S, False),
        ("name", _S, False),
        ("names", NAMES, False),
        ("descr", _S, False),
        ("seq", _I, False),
        *_SOURCE,
    ),
    "topics": _schema(
        ("node", _S, False),
        ("name", _S, False),
        ("topicstr", _S, False),
        ("cluster", _S, False),
        ("clroute", _S, False),
        ("wildcard", _S, False),
        ("pubscope", _S, False),
        ("subscope", _S, False),
        ("proxysub", _S, False),
        ("pub", _S, False),
        ("sub", _S, False),
        ("descr", _S, False),
        ("seq", _I, False),
        *_SOURCE,
    ),
    "ems_topics": _schema(
        ("node", _S, False),
        ("topic", _S, False),
        ("properties", PROPERTIES, False),
        ("seq", _I, False),
        *_SOURCE,
    ),
    "subscriptions": _schema(
        ("node", _S, False),
        ("name", _S, False),
        ("topicstr", _S, False),
        ("selector", _S, True),
        ("durable", _B, False),
        ("subscope", _S, False),
        ("wschema", _S, False),
        ("dest", _S, False),
        ("destqmgr", _S, False),
        ("topicobj", _S, False),
        ("properties", PROPERTIES, False),
        ("seq", _I, False),
        *_SOURCE,
        ("subtype", _S, False),
        ("subid", _S, False),
    ),
    "routes": _schema(
        ("node", _S, False),
        ("peer", _S, False),
        ("url", _S, False),
        ("zone_name", _S, False),
        ("zone_type", _S, False),
        ("properties", PROPERTIES, False),
        ("seq", _I, False),
        *_SOURCE,
    ),
    "route_selectors": _schema(
        ("node", _S, False),
        ("peer", _S, False),
        ("direction", _S, False),
        ("topic", _S, False),
        ("selector", _S, False),
        ("seq", _I, False),
        *_SOURCE,
    ),
}
"""Table name -> schema, in the order tables are written and loaded."""

TABLES = tuple(SCHEMAS)

OPTIONAL: dict[tuple[str, str], Any] = {
    ("subscriptions", "subtype"): SubType.ADMIN.value,
    ("subscriptions", "subid"): "",
}
"""(table, column) -> the value of every row of a snapshot that lacks the column: columns added after
version 1 was first written, so that an older mqctl's snapshot still imports (the column is always
written). Each is the last of its table."""


def file_name(table: str, file_format: str) -> str:
    return f"{table}.{file_format}"


def type_name(type_: pa.DataType) -> str:
    """How docs and messages spell a column type."""
    return str(type_).replace("list<item: string>", "list<string>")
