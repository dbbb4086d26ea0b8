"""EMS routes name their peer server: an unknown peer is created as an EMS node."""

from __future__ import annotations

from collections.abc import Iterable

from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect, Node
from mqctl.domain.names import check_ems_server_name
from mqctl.store.repository import Repository


def ensure_ems_peers(repo: Repository, peers: Iterable[str]) -> list[str]:
    """Create missing peers as EMS servers; refuse a peer that is an MQ queue manager. Returns those created."""
    created = []
    known = repo.node_names()
    for peer in sorted(set(peers)):
        check_ems_server_name(peer)
        dialect = known.get(peer)
        if dialect is None:
            repo.add_node(Node(peer, Dialect.EMS, seq=repo.next_seq()))
            created.append(peer)
        elif dialect != str(Dialect.EMS):
            raise InputError(
                f"route peer {peer} is an MQ queue manager, not an EMS server", obj=f"route {peer}"
            )
    return created
