"""EMS routes and zones: names, URLs, zone types, paths inside a zone, active-passive links (semantics §6).

A link is the connection between two servers, made of the route each defines towards the other (one
route: active-passive). A zone's graph has the servers as vertices and the links of the zone as edges.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterator

from mqctl.domain.model import Dialect, Route, ZoneType
from mqctl.domain.topics import intersects
from mqctl.domain.validation.catalogue import BY_CODE
from mqctl.domain.validation.facts import Facts, Link
from mqctl.domain.validation.findings import Finding, finding, listing

_Graph = dict[str, set[str]]


def _zone_routes(facts: Facts) -> dict[str, list[Route]]:
    out: dict[str, list[Route]] = defaultdict(list)
    for link in facts.links.values():
        for route in link.routes():
            out[route.zone_name].append(route)
    return dict(sorted(out.items()))


def _one_hop(routes: list[Route]) -> bool:
    """A zone with any one-hop route counts as one-hop (semantics §9)."""
    return any(r.zone_type is ZoneType.ONE_HOP for r in routes)


def _zone_graph(facts: Facts, zone: str) -> tuple[_Graph, dict[frozenset[str], Link]]:
    graph: _Graph = defaultdict(set)
    edges: dict[frozenset[str], Link] = {}
    for (a, b), link in facts.links.items():
        if zone in link.zones():
            graph[a].add(b)
            graph[b].add(a)
            edges[frozenset((a, b))] = link
    return graph, edges


def _path(graph: _Graph, start: str, goal: str) -> list[str] | None:
    """Fewest hops from start to goal, neighbours in name order (deterministic)."""
    parent: dict[str, str | None] = {start: None}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        if here == goal:
            out = [here]
            while (prev := parent[out[-1]]) is not None:
                out.append(prev)
            return out[::-1]
        for nxt in sorted(graph.get(here, ())):
            if nxt not in parent:
                parent[nxt] = here
                todo.append(nxt)
    return None


def _path_routes(edges: dict[frozenset[str], Link], path: list[str]) -> list[Route]:
    return [r for a, b in zip(path, path[1:], strict=False) for r in edges[frozenset((a, b))].routes()]


def zone_type_mismatch(facts: Facts) -> Iterator[Finding]:
    for zone, routes in _zone_routes(facts).items():
        kinds = {r.zone_type for r in routes}
        if len(kinds) > 1:
            by_type = {
                t: listing(f"{r.peer} on {r.node}" for r in routes if r.zone_type is t) for t in sorted(kinds)
            }
            yield finding(
                BY_CODE["ZONE_TYPE_MISMATCH"],
                f"Zone {zone} has {ZoneType.MHOP} routes ({by_type[ZoneType.MHOP]}) and {ZoneType.ONE_HOP} routes "
                f"({by_type[ZoneType.ONE_HOP]}); every route of a zone has its type, and mqctl treats the zone "
                "as one-hop.",
                routes,
            )


def mhop_duplicate_path(facts: Facts) -> Iterator[Finding]:
    """Edges that close a cycle in a multi-hop zone's graph, each with the path it duplicates."""
    for zone, routes in _zone_routes(facts).items():
        if _one_hop(routes):
            continue
        _, edges = _zone_graph(facts, zone)
        tree: _Graph = defaultdict(set)
        for pair in sorted(edges, key=sorted):
            a, b = sorted(pair)
            other = _path(tree, a, b)
            if other is None:
                tree[a].add(b)
                tree[b].add(a)
                continue
            yield finding(
                BY_CODE["MHOP_DUPLICATE_PATH"],
                f"In multi-hop zone {zone}, servers {a} and {b} are joined directly and also by "
                f"{' - '.join(other)}, so a message can reach a server along two paths.",
                [*edges[pair].routes(), *_path_routes(edges, other)],
            )


def one_hop_zone_too_short(facts: Facts) -> Iterator[Finding]:
    adjacent = {frozenset(pair) for pair in facts.links}
    for zone, routes in _zone_routes(facts).items():
        if not _one_hop(routes):
            continue
        graph, edges = _zone_graph(facts, zone)
        servers = sorted(graph)
        apart: list[list[str]] = []
        for i, a in enumerate(servers):
            for c in servers[i + 1 :]:
                if frozenset((a, c)) not in adjacent and (path := _path(graph, a, c)) is not None:
                    apart.append(path)
        if apart:
            first = apart[0]
            more = f" ({len(apart) - 1} more such pair(s))" if len(apart) > 1 else ""
            yield finding(
                BY_CODE["ONE_HOP_ZONE_TOO_SHORT"],
                f"In one-hop zone {zone}, servers {first[0]} and {first[-1]} are connected only through "
                f"{' - '.join(first)}{more}: a one-hop zone forwards no message over a second route of the "
                "zone, so they never exchange messages within it.",
                _path_routes(edges, first),
            )


def unknown_route_peer(facts: Facts) -> Iterator[Finding]:
    for route in sorted(facts.topology.routes, key=lambda r: (r.node, r.peer)):
        if route.node in facts.mq_nodes or route.node == route.peer:
            continue
        peer = facts.topology.nodes.get(route.peer)
        if peer is not None and peer.dialect is Dialect.MQ:
            what = "an MQ queue manager, not an EMS server"
        elif route.peer not in facts.configured_servers:
            what = "a server the model knows only by name (no topic, route or durable of its own)"
        else:
            continue
        yield finding(
            BY_CODE["UNKNOWN_ROUTE_PEER"],
            f"Route {route.peer} on {route.node} leads to {route.peer}, {what}, so no topic is global there "
            "and no message crosses the route.",
            [route],
        )


def _addresses(route: Route) -> list[str]:
    """The URLs of a route (a fault-tolerant pair is two), compared without case or trailing '/'."""
    return [u.strip().lower().rstrip("/") for u in route.url.split(",") if u.strip()]


def _by_address(facts: Facts) -> dict[str, list[Route]]:
    out: dict[str, list[Route]] = defaultdict(list)
    for link in facts.links.values():
        for route in link.routes():
            for address in dict.fromkeys(_addresses(route)):
                out[address].append(route)
    return dict(sorted(out.items()))


def duplicate_route(facts: Facts) -> Iterator[Finding]:
    for address, routes in _by_address(facts).items():
        per_server: dict[str, list[Route]] = defaultdict(list)
        for route in routes:
            per_server[route.node].append(route)
        for server, own in sorted(per_server.items()):
            if len(own) > 1:
                yield finding(
                    BY_CODE["DUPLICATE_ROUTE"],
                    f"Server {server} has routes {listing(r.peer for r in own)} to the same URL {address}: they "
                    "lead to one server, so one of them never connects.",
                    own,
                )


def route_name_not_peer(facts: Facts) -> Iterator[Finding]:
    """Two signs that a route is not named after its peer: routes to one URL under different names, and
    a route to a server the model does not know from a server that leaves another's route unanswered."""
    rule = BY_CODE["ROUTE_NAME_NOT_PEER"]
    for address, routes in _by_address(facts).items():
        names = sorted({r.peer for r in routes})
        if len(names) < 2 or len({r.node for r in routes}) < 2:
            continue
        configured = [n for n in names if n in facts.configured_servers]
        hint = f"; {configured[0]} is the server the model knows" if len(configured) == 1 else ""
        yield finding(
            rule,
            f"Routes to {address} carry different names ({listing(f'{r.peer} on {r.node}' for r in routes)}), "
            f"but a route is named after the server it leads to{hint}.",
            routes,
        )
    for route in facts.ems_routes:
        if route.peer in facts.configured_servers:
            continue
        unanswered = sorted(
            link.other(route.node)
            for link in facts.links.values()
            if route.node in link.servers and route.node not in link.definitions
        )
        if unanswered:
            yield finding(
                rule,
                f"Route {route.peer} on {route.node} leads to a server the model does not know, while "
                f"{listing(unanswered)} {'defines' if len(unanswered) == 1 else 'define'} a route to "
                f"{route.node} that {route.node} does not return: a "
                f"route is named after its peer's server name, so if it is meant for "
                f"{' or '.join(unanswered)} it must be named so.",
                [route],
                nodes=unanswered,
            )


def active_passive_route(facts: Facts) -> Iterator[Finding]:
    for link in facts.links.values():
        if link.active_active:
            continue
        [(definer, route)] = link.definitions.items()
        other = link.other(definer)
        if other not in facts.configured_servers or not _share_global(facts, definer, other):
            continue
        yield finding(
            BY_CODE["ACTIVE_PASSIVE_ROUTE"],
            f"Route {other} is defined on {definer} only (active-passive): when {definer} fails, {other} drops its "
            f"internal subscribers for it and subscribers on {definer} miss messages (a gap); after a failure "
            f"subscribers on {other} can receive duplicates. Define route {definer} on {other} too.",
            [route],
            nodes=[other],
        )


def _share_global(facts: Facts, a: str, b: str) -> bool:
    """Some topic is global on both servers, so topic messages can cross between them."""
    return any(
        intersects(x.topicstr, y.topicstr, Dialect.EMS)
        for x in facts.global_definitions.get(a, ())
        for y in facts.global_definitions.get(b, ())
    )
