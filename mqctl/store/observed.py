"""Captures and their observations in the store: the latest capture of a queue manager replaces the one before."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select

from mqctl.domain.observed import NodeCapture, Observation
from mqctl.store import tables
from mqctl.store.repository import Store

CHUNK = 5000


def save_capture(store: Store, capture: NodeCapture) -> None:
    """Replace the capture of ``capture.node`` (its observations go with it)."""
    c, o = tables.captures, tables.observations
    conn = store.conn
    old = conn.execute(select(c.c.id).where(c.c.node == capture.node)).scalar()
    if old is not None:
        conn.execute(delete(o).where(o.c.capture_id == old))
        conn.execute(delete(c).where(c.c.id == old))
    capture_id = conn.execute(
        insert(c)
        .values(
            node=capture.node,
            captured_at=capture.captured_at.isoformat(),
            file=capture.file,
            commands=list(capture.commands),
        )
        .returning(c.c.id)
    ).scalar_one()
    rows = [
        {
            "capture_id": capture_id,
            "kind": ob.kind,
            "name": ob.name,
            "attributes": ob.attributes,
            "line": ob.line,
        }
        for ob in capture.observations
    ]
    for start in range(0, len(rows), CHUNK):
        conn.execute(insert(o), rows[start : start + CHUNK])


def load_captures(store: Store, nodes: Iterable[str] | None = None) -> list[NodeCapture]:
    """The captures kept (of ``nodes`` only, when given), by node name, observations in capture order."""
    c, o = tables.captures, tables.observations
    query = select(c.c.id, c.c.node, c.c.captured_at, c.c.file, c.c.commands).order_by(c.c.node)
    wanted: Sequence[str] | None = None if nodes is None else list(nodes)
    if wanted is not None:
        query = query.where(c.c.node.in_(wanted))
    captures: dict[int, NodeCapture] = {}
    for cid, node, at, file, commands in store.conn.execute(query):
        captures[cid] = NodeCapture(node, datetime.fromisoformat(at), file, tuple(commands or ()))
    if captures:
        rows = store.conn.execute(
            select(o.c.capture_id, o.c.kind, o.c.name, o.c.attributes, o.c.line)
            .where(o.c.capture_id.in_(list(captures)))
            .order_by(o.c.id)
        )
        for cid, kind, name, attributes, line in rows:
            captures[cid].observations.append(Observation(kind, name, dict(_attrs(attributes)), line))
    return list(captures.values())


def _attrs(value: Any) -> dict[str, str]:
    if isinstance(value, str):
        import json

        return dict(json.loads(value))
    return dict(value or {})
