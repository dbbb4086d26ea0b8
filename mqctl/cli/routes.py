"""EMS route and route-selector commands."""

from __future__ import annotations

from typing import Any

import typer

from mqctl.cli.apps import alter_app, define_app, delete_app, display_app
from mqctl.cli.common import OUTPUT_OPTION, Output, done, no_match_exit, parse_props, show_table, transaction

SERVER_OPT = typer.Option(..., "--qmgr", "-m", "--server", help="The EMS server that defines the route.")
SERVER_FILTER = typer.Option(None, "--qmgr", "-m", "--server", help="Only routes defined on this server.")
ROUTE_OPT = typer.Option(..., "--route", help="The route (its peer server's name).")
DIRECTION_OPT = typer.Option(..., "--direction", help="incoming|outgoing (seen from the defining server).")
TOPIC_OPT = typer.Option(..., "--topic", help="The topic pattern (incoming_topic / outgoing_topic).")


def _zone_type(value: str, peer: str) -> Any:
    from mqctl.domain.checks import parse_enum
    from mqctl.domain.model import ZoneType

    return parse_enum(ZoneType, value, f"route {peer}", "zone_type")


@define_app.command("route")
def define_route(
    peer: str = typer.Argument(..., help="The peer server; a route is named after it."),
    qmgr: str = SERVER_OPT,
    url: str = typer.Option("", "--url", help="url, e.g. tcp://host:7222."),
    zone_name: str = typer.Option("default_mhop_zone", "--zone-name"),
    zone_type: str = typer.Option("mhop", "--zone-type", help="mhop|1hop."),
    prop: list[str] = typer.Option([], "--prop", help="Any other route property NAME=VALUE (kept as given)."),
    replace: bool = typer.Option(False, "--replace"),
) -> None:
    """Define an EMS route; an unknown peer is created as an EMS server."""
    from mqctl.domain.model import Route
    from mqctl.services.objects import define_object
    from mqctl.services.peers import ensure_ems_peers

    props = {k: v or "" for k, v in parse_props(prop, f"route {peer}").items()}
    route = Route(qmgr, peer, url, zone_name, _zone_type(zone_type, peer), props)
    with transaction() as repo:
        ensure_ems_peers(repo, [peer])
        define_object(repo, qmgr, "routes", peer, route, replace=replace)
    done(f"route {peer} defined on {qmgr}.")


@alter_app.command("route")
def alter_route(
    peer: str = typer.Argument(...),
    qmgr: str = SERVER_OPT,
    url: str | None = typer.Option(None, "--url"),
    zone_name: str | None = typer.Option(None, "--zone-name"),
    zone_type: str | None = typer.Option(None, "--zone-type"),
    prop: list[str] = typer.Option([], "--prop"),
    remove_prop: list[str] = typer.Option([], "--remove-prop"),
) -> None:
    """Alter an EMS route."""
    from mqctl.services.objects import alter_object

    changes: dict[str, Any] = {}
    if url is not None:
        changes["url"] = url
    if zone_name is not None:
        changes["zone_name"] = zone_name
    if zone_type is not None:
        changes["zone_type"] = _zone_type(zone_type, peer)
    with transaction() as repo:
        if prop or remove_prop:
            old = repo.load_node_state(qmgr).routes.get(peer)
            props = dict(old.properties) if old is not None else {}
            props.update({k: v or "" for k, v in parse_props(prop, f"route {peer}").items()})
            for key in remove_prop:
                props.pop(key, None)
            changes["properties"] = props
        alter_object(repo, qmgr, "routes", peer, changes)
    done(f"route {peer} altered on {qmgr}.")


@display_app.command("route")
def display_route(
    peer: str = typer.Argument("*"),
    qmgr: str | None = SERVER_FILTER,
    exact: bool = typer.Option(False, "--exact"),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Display EMS routes with their selectors."""
    from mqctl.services.display import display_routes

    with transaction() as repo:
        rows = display_routes(repo, peer, exact, qmgr)
    show_table("Routes", ["qmgr", "name", "url", "zone_name", "zone_type", "properties"], rows, output)
    no_match_exit(rows)


@delete_app.command("route")
def delete_route(
    peer: str = typer.Argument(...), qmgr: str = SERVER_OPT, cascade: bool = typer.Option(False, "--cascade")
) -> None:
    """Delete an EMS route (--cascade also deletes its selectors)."""
    from mqctl.services.objects import delete_object

    with transaction() as repo:
        delete_object(repo, qmgr, "routes", peer, cascade=cascade)
    done(f"route {peer} deleted from {qmgr}.")


@define_app.command("route-selector")
def define_route_selector(
    qmgr: str = SERVER_OPT,
    route: str = ROUTE_OPT,
    direction: str = DIRECTION_OPT,
    topic: str = TOPIC_OPT,
    selector: str = typer.Option(..., "--selector", help="JMS selector."),
    replace: bool = typer.Option(False, "--replace"),
) -> None:
    """Define an incoming_topic/outgoing_topic selector on a route."""
    from mqctl.domain.checks import parse_enum
    from mqctl.domain.model import Direction, RouteSelector
    from mqctl.services.objects import define_route_selector as define

    d = parse_enum(Direction, direction, f"route {route}", "direction")
    with transaction() as repo:
        define(repo, RouteSelector(qmgr, route, d, topic, selector), replace=replace)
    done(f"{d}_topic={topic} selector defined on route {route} of {qmgr}.")


@alter_app.command("route-selector")
def alter_route_selector(
    qmgr: str = SERVER_OPT,
    route: str = ROUTE_OPT,
    direction: str = DIRECTION_OPT,
    topic: str = TOPIC_OPT,
    selector: str | None = typer.Option(None, "--selector"),
) -> None:
    """Change a route selector."""
    from mqctl.domain.checks import parse_enum
    from mqctl.domain.model import Direction
    from mqctl.services.objects import alter_route_selector as alter

    d = parse_enum(Direction, direction, f"route {route}", "direction")
    with transaction() as repo:
        alter(repo, qmgr, (route, str(d), topic), selector)
    done(f"{d}_topic={topic} selector altered on route {route} of {qmgr}.")


@display_app.command("route-selector")
def display_route_selector(
    qmgr: str | None = SERVER_FILTER,
    route: str | None = typer.Option(None, "--route"),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Display route selectors."""
    from mqctl.services.display import display_route_selectors

    with transaction() as repo:
        rows = display_route_selectors(repo, qmgr, route)
    show_table("Route selectors", ["qmgr", "route", "direction", "topic", "selector"], rows, output)
    no_match_exit(rows)


@delete_app.command("route-selector")
def delete_route_selector(
    qmgr: str = SERVER_OPT, route: str = ROUTE_OPT, direction: str = DIRECTION_OPT, topic: str = TOPIC_OPT
) -> None:
    """Delete a route selector."""
    from mqctl.domain.checks import parse_enum
    from mqctl.domain.model import Direction
    from mqctl.services.objects import delete_route_selector as delete

    d = parse_enum(Direction, direction, f"route {route}", "direction")
    with transaction() as repo:
        delete(repo, qmgr, (route, str(d), topic))
    done(f"{d}_topic={topic} selector deleted from route {route} of {qmgr}.")
