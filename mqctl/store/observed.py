"""Captures and their observations in the store: the latest capture of a queue manager replaces the one before."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime

from sqlalchemy import Text, cast, delete, insert, select

from mqctl.domain.model import Channel
from mqctl.domain.observed import NodeCapture, Observation
from mqctl.store import convert, tables
from mqctl.store.repository import Store

CHUNK = 5000


class ObservedRepository:
    """Captures and their observations in one command's store (``store.observed``)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def save_capture(self, capture: NodeCapture) -> None:
        """Replace the capture of ``capture.node`` (its observations go with it)."""
        c, o = tables.captures, tables.observations
        conn = self._store.conn
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

    def load_channels(self) -> list[Channel]:
        """The model's cluster channels (what links a channel status to its queue manager)."""
        n, t = tables.nodes, convert.CHANNEL.table
        query = select(n.c.name, *convert.CHANNEL.columns()).join(n, n.c.id == t.c.node_id)
        return [convert.CHANNEL.from_tuple(row[1:], (row[0],)) for row in self._store.conn.execute(query)]

    def captured_at(self, node: str) -> datetime | None:
        """When the capture kept of ``node`` was taken, if one is kept."""
        c = tables.captures
        found = self._store.conn.execute(select(c.c.captured_at).where(c.c.node == node)).scalar()
        return None if found is None else datetime.fromisoformat(found)

    def captured_nodes(self) -> list[str]:
        """The nodes a capture is kept of, by name."""
        c = tables.captures
        return list(self._store.conn.execute(select(c.c.node).order_by(c.c.node)).scalars())

    def load_captures(self, nodes: Iterable[str] | None = None) -> list[NodeCapture]:
        """The captures kept (of ``nodes`` only, when given), by node name, observations in capture order."""
        c, o = tables.captures, tables.observations
        query = select(c.c.id, c.c.node, c.c.captured_at, c.c.file, c.c.commands).order_by(c.c.node)
        wanted: Sequence[str] | None = None if nodes is None else list(nodes)
        if wanted is not None:
            query = query.where(c.c.node.in_(wanted))
        captures: dict[int, NodeCapture] = {}
        for cid, node, at, file, commands in self._store.conn.execute(query):
            captures[cid] = NodeCapture(node, datetime.fromisoformat(at), file, tuple(commands or ()))
        if captures:
            # the attributes read as text and decoded in one call for all rows: a capture holds one row per
            # proxy subscription, and a JSON decode per row (the driver's) costs more than the query
            rows = self._store.conn.execute(
                select(o.c.capture_id, o.c.kind, o.c.name, cast(o.c.attributes, Text), o.c.line)
                .where(o.c.capture_id.in_(list(captures)))
                .order_by(o.c.id)
            ).all()
            decoded = json.loads("[" + ",".join(row[3] for row in rows) + "]") if rows else []
            for (cid, kind, name, _, line), attributes in zip(rows, decoded, strict=True):
                captures[cid].observations.append(Observation(kind, name, attributes, line))
        return list(captures.values())
