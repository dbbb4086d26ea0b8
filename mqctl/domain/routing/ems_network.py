"""The EMS route network of a topology (semantics §6): servers, links and zones, built once.

- Routes are bidirectional links between two servers. A pair defined on both servers is
  *active-active*; defined on one only it is *active-passive*, active on the definer. Selectors count
  only on a side that defines the route.
- Every route is in one zone; a zone any of whose routes says ``1hop`` counts as one-hop (§9). A link
  is in the zones of its definitions (an active-active pair may name two), so the 1hop rule compares the
  *one-hop zones* of the link a message arrived on with those of the next link.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable
from functools import cached_property
from typing import NamedTuple

from mqctl.domain.explanation import own_kind
from mqctl.domain.model import Dialect, Route, Topology, ZoneType

__all__ = ["EmsNetwork", "Link"]

NO_ZONES: frozenset[str] = frozenset()


@own_kind
class Link(NamedTuple):
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
    """Every EMS server (nodes, plus servers known only as a route's peer) and the links between them.

    Built for each question on a slice of up to tens of thousands of routes (a full mesh of 200 servers
    has 19,900), so the build keeps one route per link and each server's neighbours' names; a ``Link``,
    with its definitions and zones, is made when it is first asked for.
    """

    def __init__(self, topology: Topology) -> None:
        nodes = topology.nodes
        mq = {name for name, node in nodes.items() if node.dialect is not Dialect.EMS}
        servers = {name for name, node in nodes.items() if node.dialect is Dialect.EMS}
        first: dict[tuple[str, str], Route] = {}
        """Unordered pair (names in order) -> the first route read between the two servers."""
        more: dict[tuple[str, str], dict[str, Route]] = {}
        """The pairs with a second definition (active-active, or a route read twice): definer -> route."""
        neighbours: dict[str, list[str]] = defaultdict(list)
        one_hop_zones: set[str] = set()
        one_hop = ZoneType.ONE_HOP
        for route in topology.routes:
            a, b = route.node, route.peer
            if a == b or (mq and (a in mq or b in mq)):
                continue
            key = (a, b) if a < b else (b, a)
            held = first.setdefault(key, route)
            if held is route:
                neighbours[a].append(b)
                neighbours[b].append(a)
            else:
                defs = more.get(key)
                if defs is None:
                    defs = more[key] = {held.node: held}
                before = defs.get(a)
                if before is None or before.seq < route.seq:
                    defs[a] = route  # the same route twice: the most recent definition
            if route.zone_type == one_hop:
                one_hop_zones.add(route.zone_name)
        servers.update(neighbours)
        self.servers = frozenset(servers)
        self.has_one_hop = bool(one_hop_zones)
        self._one_hop_zones = frozenset(one_hop_zones)
        self._dense = len(first) > 8 * len(servers)
        self._first = first
        self._more = more
        self._links: dict[tuple[str, str], Link] = {}
        self._links_of: dict[str, tuple[tuple[str, Link], ...]] = {}
        self._bridge: dict[tuple[str, str], bool] = {}
        """Links asked about by ``is_bridge`` (whoever publishes, the answer is the same)."""
        self.adjacency: dict[str, tuple[str, ...]] = {
            name: tuple(sorted(found)) for name, found in neighbours.items()
        }
        """Each server's neighbours in name order."""

    @cached_property
    def _cuts(self) -> _Cuts:
        return _Cuts(self.adjacency)

    def is_bridge(self, x: str, y: str) -> bool:
        """Every path between the two sides of link x-y crosses it (a tree-like part of the network)."""
        key = (x, y) if x < y else (y, x)
        found = self._bridge.get(key)
        if found is None:
            xs, ys = self.adjacency.get(x, ()), self.adjacency.get(y, ())
            if len(xs) > 1 and len(ys) > 1 and not set(ys).isdisjoint(xs):
                found = False  # on a triangle: no need to search the whole network
            else:
                found = frozenset(key) in self._cuts.bridges
            self._bridge[key] = found
        return found

    def sides(self, cut: str) -> Callable[[str], str] | None:
        """None unless removing server ``cut`` splits the network; then which part holds a server.

        Only an optimisation of the path search (it drops branches that lead nowhere), so a dense network,
        where branches rarely do, is not searched for cut servers: None.
        """
        if self._dense:
            return None
        return self._cuts.sides(cut)

    def link(self, x: str, y: str) -> Link:
        """The link between two servers (KeyError when there is none)."""
        key = (x, y) if x < y else (y, x)
        found = self._links.get(key)
        if found is None:
            found = self._links[key] = self._make_link(key, self._first[key])
        return found

    def _make_link(self, key: tuple[str, str], route: Route) -> Link:
        definitions = self._more.get(key) or {route.node: route}
        zones = NO_ZONES
        if self.has_one_hop:
            zones = frozenset(r.zone_name for r in definitions.values()) & self._one_hop_zones or NO_ZONES
        return Link(definitions, zones)

    def find_link(self, x: str, y: str) -> Link | None:
        key = (x, y) if x < y else (y, x)
        return self.link(x, y) if key in self._first else None

    def links_of(self, server: str) -> tuple[tuple[str, Link], ...]:
        """A server's neighbours in name order, with the link to each."""
        found = self._links_of.get(server)
        if found is None:
            found = self._links_of[server] = tuple(
                (n, self.link(server, n)) for n in self.adjacency.get(server, ())
            )
        return found

    def one_hop(self, x: str, y: str) -> frozenset[str]:
        """The one-hop zones of the link between x and y (none in a network without one-hop zones)."""
        return self.link(x, y).one_hop if self.has_one_hop else NO_ZONES

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


class _Cuts:
    """Bridges and cut servers of the network (Tarjan's depth-first search, once per network).

    The search answers, in the time of a binary search, which side of a cut server another server lies
    on, which lets the path search drop at once a branch that cannot lead to its target.
    """

    def __init__(self, adjacency: dict[str, tuple[str, ...]]) -> None:
        disc: dict[str, int] = {}
        low: dict[str, int] = {}
        self._finish: dict[str, int] = {}
        children: dict[str, list[str]] = defaultdict(list)
        roots: set[str] = set()
        for root in sorted(adjacency):
            if root in disc:
                continue
            roots.add(root)
            disc[root] = low[root] = len(disc)
            stack = [(root, "", iter(adjacency[root]))]
            while stack:
                node, parent, neighbours = stack[-1]
                for nxt in neighbours:
                    if nxt == parent:
                        continue
                    if nxt in disc:
                        low[node] = min(low[node], disc[nxt])
                        continue
                    disc[nxt] = low[nxt] = len(disc)
                    children[node].append(nxt)
                    stack.append((nxt, node, iter(adjacency[nxt])))
                    break
                else:
                    stack.pop()
                    self._finish[node] = len(disc) - 1
                    if parent:
                        low[parent] = min(low[parent], low[node])
        self._disc = disc
        self.bridges = frozenset(
            frozenset((p, c)) for p, cs in children.items() for c in cs if low[c] > disc[p]
        )
        self._sides: dict[str, tuple[list[int], list[str]]] = {}
        """Cut server -> the depth-first subtrees that removing it cuts off (by discovery number)."""
        for p, cs in children.items():
            cut = [c for c in cs if p in roots or low[c] >= disc[p]]
            if cut and not (p in roots and len(cut) == 1):
                self._sides[p] = ([disc[c] for c in cut], cut)

    def sides(self, cut: str) -> Callable[[str], str] | None:
        """None unless ``cut`` is a cut server; else which part of the network without it holds a server
        ('' for the part holding the search's root)."""
        found = self._sides.get(cut)
        if found is None:
            return None
        starts, heads = found
        disc, finish = self._disc, self._finish

        def side(x: str) -> str:
            i = bisect_right(starts, disc.get(x, -1)) - 1
            return heads[i] if i >= 0 and disc[x] <= finish[heads[i]] else ""

        return side
