"""The EMS route network of a topology (SEMANTICS §6): servers, links and zones, built once.

- Routes are bidirectional links between two servers. A pair defined on both servers is
  *active-active*; defined on one only it is *active-passive*, active on the definer. Selectors count
  only on a side that defines the route.
- Every route is in one zone; a zone any of whose routes says ``1hop`` counts as one-hop (§9). A link
  is in the zones of its definitions (an active-active pair may name two), so the 1hop rule compares the
  *one-hop zones* of the link a message arrived on with those of the next link.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from operator import itemgetter

from mqctl.domain.model import Dialect, Route, Topology, ZoneType

__all__ = ["EmsNetwork", "Link"]

NO_ZONES: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Link:
    """The connection between two servers, made of one (active-passive) or two (active-active) routes."""

    definitions: dict[str, Route]
    """Definer -> its route towards the other server."""
    one_hop: frozenset[str]
    """The link's zones that are one-hop zones."""

    @property
    def active_active(self) -> bool:
        return len(self.definitions) == 2

    def definer(self) -> str:
        """The single definer of an active-passive link (the first by name for active-active)."""
        return min(self.definitions)


class EmsNetwork:
    """Every EMS server (nodes, plus servers known only as a route's peer) and the links between them."""

    def __init__(self, topology: Topology) -> None:
        mq = {name for name, node in topology.nodes.items() if node.dialect is not Dialect.EMS}
        servers = {name for name, node in topology.nodes.items() if node.dialect is Dialect.EMS}
        definitions: dict[tuple[str, str], dict[str, Route]] = {}
        one_hop_zones: set[str] = set()
        for route in topology.routes:
            a, b = route.node, route.peer
            if a == b or a in mq or b in mq:
                continue
            servers.add(a)
            servers.add(b)
            key = (a, b) if a < b else (b, a)
            held = definitions.get(key)
            if held is None:
                held = definitions[key] = {}
            before = held.get(a)
            if before is None or before.seq < route.seq:
                held[a] = route  # the same route twice: the most recent definition
            if route.zone_type == ZoneType.ONE_HOP:
                one_hop_zones.add(route.zone_name)
        self.servers = frozenset(servers)
        self._links: dict[tuple[str, str], Link] = {}
        neighbours: dict[str, list[tuple[str, Link]]] = defaultdict(list)
        for (a, b), defs in definitions.items():
            zones = NO_ZONES
            if one_hop_zones:
                zones = frozenset(r.zone_name for r in defs.values()) & one_hop_zones or NO_ZONES
            link = self._links[(a, b)] = Link(defs, zones)
            neighbours[a].append((b, link))
            neighbours[b].append((a, link))
        self.adjacency: dict[str, tuple[tuple[str, Link], ...]] = {
            name: tuple(sorted(found, key=itemgetter(0))) for name, found in neighbours.items()
        }
        """Each server's neighbours in name order, with the link to each."""

    def link(self, x: str, y: str) -> Link:
        return self._links[(x, y) if x < y else (y, x)]

    def find_link(self, x: str, y: str) -> Link | None:
        return self._links.get((x, y) if x < y else (y, x))

    def links_of(self, server: str) -> tuple[tuple[str, Link], ...]:
        return self.adjacency.get(server, ())

    def hop_name(self, x: str, y: str) -> str:
        """The route's name as defined: X's route to Y is named Y; failing that, Y's route named X."""
        return y if x in self.link(x, y).definitions else x

    def one_hop_block(self, arrived: tuple[str, str] | None, nxt: tuple[str, str]) -> str | None:
        """The one-hop zone that forbids forwarding over ``nxt`` after arriving over ``arrived``."""
        if arrived is None:
            return None
        shared = self.link(*arrived).one_hop & self.link(*nxt).one_hop
        return min(shared) if shared else None

    def route_phrase(self, x: str, y: str) -> str:
        """How an admin names the connection between X and Y, with who defines it."""
        link = self.link(x, y)
        if link.active_active:
            return f"the active-active route between {x} and {y}"
        definer = link.definer()
        other = y if definer == x else x
        return f"route {other} defined on {definer} only (active-passive)"
