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
        definitions: dict[frozenset[str], dict[str, Route]] = defaultdict(dict)
        zone_types: dict[str, set[ZoneType]] = defaultdict(set)
        for route in topology.routes:
            if route.node == route.peer or route.node in mq or route.peer in mq:
                continue
            servers.update((route.node, route.peer))
            held = definitions[frozenset((route.node, route.peer))]
            if route.node not in held or held[route.node].seq < route.seq:
                held[route.node] = route  # the same route twice: the most recent definition
            zone_types[route.zone_name].add(ZoneType(route.zone_type))
        one_hop_zones = {zone for zone, types in zone_types.items() if ZoneType.ONE_HOP in types}
        self.servers = frozenset(servers)
        self.links: dict[frozenset[str], Link] = {}
        neighbours: dict[str, list[tuple[str, Link]]] = defaultdict(list)
        for pair, defs in definitions.items():
            zones = frozenset(r.zone_name for r in defs.values()) & one_hop_zones
            link = self.links[pair] = Link(defs, zones or NO_ZONES)
            a, b = sorted(pair)
            neighbours[a].append((b, link))
            neighbours[b].append((a, link))
        self.adjacency: dict[str, tuple[tuple[str, Link], ...]] = {
            name: tuple(sorted(found, key=lambda item: item[0])) for name, found in neighbours.items()
        }
        """Each server's neighbours in name order, with the link to each."""

    def link(self, x: str, y: str) -> Link:
        return self.links[frozenset((x, y))]

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
