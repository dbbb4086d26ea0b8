"""EMS route and route-selector commands."""

from __future__ import annotations

from typing import Any

import typer

from mqctl.cli.apps import alter_app, define_app, delete_app, display_app
from mqctl.cli.common import (
    OUTPUT_OPTION,
    Output,
    done,
    no_match_exit,
    parse_props,
    reading,
    show_table,
    transaction,
)

SERVER_OPT = typer.Option(
    ..., "--qmgr", "-m", "--server", metavar="SERVER", help="The EMS server that defines the route."
)
SERVER_FILTER = typer.Option(
    None, "--qmgr", "-m", "--server", metavar="SERVER", help="Only routes defined on this server."
)
ROUTE_OPT = typer.Option(..., "--route", metavar="PEER", help="The route (its peer server's name).")
DIRECTION_OPT = typer.Option(
    ..., "--direction", metavar="INCOMING|OUTGOING", help="Seen from the server that defines the route."
)
TOPIC_OPT = typer.Option(
    ..., "--topic", metavar="PATTERN", help="The topic pattern (incoming_topic / outgoing_topic)."
)


def _zone_type(value: str, peer: str) -> Any:
    from mqctl.domain.model import ZoneType
    from mqctl.domain.objects.text import parse_enum

    return parse_enum(ZoneType, value, f"route {peer}", "zone_type")


def _direction(value: str, route: str) -> Any:
    from mqctl.domain.model import Direction
    from mqctl.domain.objects.text import parse_enum

    return parse_enum(Direction, value, f"route {route}", "direction")


def _route_props(items: list[str], peer: str) -> dict[str, str]:
    return {k: v or "" for k, v in parse_props(items, f"route {peer}").items()}


@define_app.command("route")
def define_route(
    peer: str = typer.Argument(..., metavar="PEER", help="The peer server; a route is named after it."),
    qmgr: str = SERVER_OPT,
    url: str = typer.Option("", "--url", metavar="URL", help="url (required), e.g. tcp://host:7222."),
    zone_name: str = typer.Option("default_mhop_zone", "--zone-name", metavar="ZONE", help="zone_name."),
    zone_type: str = typer.Option("mhop", "--zone-type", metavar="MHOP|1HOP", help="zone_type."),
    prop: list[str] = typer.Option(
        [], "--prop", metavar="NAME=VALUE", help="Any other route property (kept as given)."
    ),
    replace: bool = typer.Option(False, "--replace", help="Redefine if it exists."),
) -> None:
    """Define an EMS route; an unknown peer is created as an EMS server."""
    from mqctl.domain.model import Route
    from mqctl.services.objects import define_route as define

    route = Route(qmgr, peer, url, zone_name, _zone_type(zone_type, peer), _route_props(prop, peer))
    with transaction() as store:
        define(store, route, replace=replace)
    done(f"route {peer} defined on {qmgr}.")


@alter_app.command("route")
def alter_route(
    peer: str = typer.Argument(..., metavar="PEER"),
    qmgr: str = SERVER_OPT,
    url: str | None = typer.Option(None, "--url", metavar="URL", help="url."),
    zone_name: str | None = typer.Option(None, "--zone-name", hidden=True),
    zone_type: str | None = typer.Option(None, "--zone-type", hidden=True),
    prop: list[str] = typer.Option([], "--prop", metavar="NAME=VALUE", help="Add or set a route property."),
    remove_prop: list[str] = typer.Option(
        [], "--remove-prop", metavar="NAME", help="Remove a route property."
    ),
) -> None:
    """Alter an EMS route (its zone is fixed when it is created, as in EMS)."""
    from mqctl.services.objects import alter_route as alter

    changes: dict[str, Any] = {}
    if url is not None:
        changes["url"] = url
    if zone_name is not None:
        changes["zone_name"] = zone_name
    if zone_type is not None:
        changes["zone_type"] = _zone_type(zone_type, peer)
    props = _route_props(prop, peer)
    with transaction() as store:
        alter(store, qmgr, peer, changes, set_props=props, remove_props=remove_prop)
    done(f"route {peer} altered on {qmgr}.")


@display_app.command("route")
def display_route(
    peer: str = typer.Argument("*", metavar="[PEER]", help="Peer name; a trailing * is generic."),
    qmgr: str | None = SERVER_FILTER,
    exact: bool = typer.Option(False, "--exact", help="Take a trailing * literally."),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Display EMS routes with their selectors."""
    from mqctl.services.views import display_routes

    with reading() as store:
        rows = display_routes(store, peer, exact, qmgr)
    show_table("Routes", ["qmgr", "name", "url", "zone_name", "zone_type", "properties"], rows, output)
    no_match_exit(rows)


@delete_app.command("route")
def delete_route(
    peer: str = typer.Argument(..., metavar="PEER"),
    qmgr: str = SERVER_OPT,
) -> None:
    """Delete an EMS route and its selectors (they are properties of the route, as in EMS)."""
    from mqctl.services.objects import delete_route as delete

    with transaction() as store:
        delete(store, qmgr, peer)
    done(f"route {peer} deleted from {qmgr}.")


@define_app.command("route-selector")
def define_route_selector(
    qmgr: str = SERVER_OPT,
    route: str = ROUTE_OPT,
    direction: str = DIRECTION_OPT,
    topic: str = TOPIC_OPT,
    selector: str = typer.Option(..., "--selector", metavar="SELECTOR", help="JMS selector."),
    replace: bool = typer.Option(False, "--replace", help="Redefine if it exists."),
) -> None:
    """Define an incoming_topic/outgoing_topic selector on a route."""
    from mqctl.domain.model import RouteSelector
    from mqctl.services.objects import define_route_selector as define

    d = _direction(direction, route)
    with transaction() as store:
        define(store, RouteSelector(qmgr, route, d, topic, selector), replace=replace)
    done(f"{d}_topic={topic} selector defined on route {route} of {qmgr}.")


@alter_app.command("route-selector")
def alter_route_selector(
    qmgr: str = SERVER_OPT,
    route: str = ROUTE_OPT,
    direction: str = DIRECTION_OPT,
    topic: str = TOPIC_OPT,
    selector: str | None = typer.Option(None, "--selector", metavar="SELECTOR", help="JMS selector."),
) -> None:
    """Change a route selector."""
    from mqctl.services.objects import alter_route_selector as alter

    d = _direction(direction, route)
    with transaction() as store:
        alter(store, qmgr, (route, str(d), topic), selector)
    done(f"{d}_topic={topic} selector altered on route {route} of {qmgr}.")


@display_app.command("route-selector")
def display_route_selector(
    qmgr: str | None = SERVER_FILTER,
    route: str | None = typer.Option(None, "--route", metavar="PEER", help="Only this route."),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Display route selectors."""
    from mqctl.services.views import display_route_selectors

    with reading() as store:
        rows = display_route_selectors(store, qmgr, route)
    show_table("Route selectors", ["qmgr", "route", "direction", "topic", "selector"], rows, output)
    no_match_exit(rows)


@delete_app.command("route-selector")
def delete_route_selector(
    qmgr: str = SERVER_OPT, route: str = ROUTE_OPT, direction: str = DIRECTION_OPT, topic: str = TOPIC_OPT
) -> None:
    """Delete a route selector."""
    from mqctl.services.objects import delete_route_selector as delete

    d = _direction(direction, route)
    with transaction() as store:
        delete(store, qmgr, (route, str(d), topic))
    done(f"{d}_topic={topic} selector deleted from route {route} of {qmgr}.")
