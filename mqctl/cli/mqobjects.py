"""namelist and cluster channel (CLUSRCVR/CLUSSDR) commands."""

from __future__ import annotations

from typing import Any

import typer

from mqctl.cli.apps import alter_app, define_app, delete_app, display_app
from mqctl.cli.common import (
    OUTPUT_OPTION,
    Output,
    done,
    hint,
    no_match_exit,
    reading,
    show_table,
    transaction,
)

QMGR_OPT = typer.Option(..., "--qmgr", "-m", metavar="QMGR", help="The queue manager.")
QMGR_FILTER = typer.Option(None, "--qmgr", "-m", metavar="QMGR", help="Only objects on this queue manager.")
RANK_HELP = "CLWLRANK 0-9: topic hosts of the highest rank are chosen first (default 0)."
PRTY_HELP = "CLWLPRTY 0-9: among available hosts of that rank, the highest priority (default 0)."
WGHT_HELP = "CLWLWGHT 1-99: share of the publications among the hosts left (default 50)."


def _names(values: list[str]) -> tuple[str, ...]:
    return tuple(n.strip() for v in values for n in v.split(",") if n.strip())


@define_app.command("namelist")
def define_namelist(
    name: str = typer.Argument(..., metavar="NAME"),
    qmgr: str = QMGR_OPT,
    names: list[str] = typer.Option([], "--names", metavar="A,B", help="NAMES: comma-separated or repeated."),
    descr: str = typer.Option("", "--descr", metavar="TEXT", help="DESCR."),
    replace: bool = typer.Option(False, "--replace", help="Redefine if it exists."),
) -> None:
    """Define a namelist (e.g. for CLUSNL or REPOSNL)."""
    from mqctl.domain.model import Namelist
    from mqctl.services.objects import define_namelist as define

    with transaction() as store:
        define(store, Namelist(qmgr, name, _names(names), descr), replace=replace)
    done(f"namelist {name} defined on {qmgr}.")


@alter_app.command("namelist")
def alter_namelist(
    name: str = typer.Argument(..., metavar="NAME"),
    qmgr: str = QMGR_OPT,
    names: list[str] | None = typer.Option(None, "--names", metavar="A,B", help="NAMES."),
    descr: str | None = typer.Option(None, "--descr", metavar="TEXT", help="DESCR."),
) -> None:
    """Alter a namelist."""
    from mqctl.services.objects import alter_namelist as alter

    changes: dict[str, Any] = {}
    if names is not None:
        changes["names"] = _names(names)
    if descr is not None:
        changes["descr"] = descr
    with transaction() as store:
        alter(store, qmgr, name, changes)
    done(f"namelist {name} altered on {qmgr}.")


@display_app.command("namelist")
def display_namelist(
    name: str = typer.Argument("*", metavar="[NAME]", help="Name; a trailing * is generic."),
    qmgr: str | None = QMGR_FILTER,
    exact: bool = typer.Option(False, "--exact", help="Take a trailing * literally."),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Display namelists."""
    from mqctl.services.views import display_namelists

    with reading() as store:
        rows = display_namelists(store, name, exact, qmgr)
    show_table("Namelists", ["qmgr", "name", "names", "descr"], rows, output)
    no_match_exit(rows)


@delete_app.command("namelist")
def delete_namelist(
    name: str = typer.Argument(..., metavar="NAME"),
    qmgr: str = QMGR_OPT,
) -> None:
    """Delete a namelist; channels naming it (CLUSNL) stay, as in MQ, and give no membership."""
    from mqctl.services.objects import delete_namelist as delete

    with transaction() as store:
        notes = delete(store, qmgr, name)
    for note in notes:
        hint(note)
    done(f"namelist {name} deleted from {qmgr}.")


@define_app.command("channel")
def define_channel(
    name: str = typer.Argument(..., metavar="NAME"),
    qmgr: str = QMGR_OPT,
    chltype: str = typer.Option(..., "--chltype", metavar="CLUSRCVR|CLUSSDR", help="CHLTYPE."),
    cluster: str = typer.Option("", "--cluster", metavar="CLUSTER", help="CLUSTER."),
    clusnl: str = typer.Option("", "--clusnl", metavar="NAMELIST", help="CLUSNL: a namelist of clusters."),
    conname: str = typer.Option("", "--conname", metavar="HOST(PORT)", help="CONNAME, e.g. 'host(1414)'."),
    descr: str = typer.Option("", "--descr", metavar="TEXT", help="DESCR."),
    clwlrank: int = typer.Option(0, "--clwlrank", metavar="0-9", help=RANK_HELP),
    clwlprty: int = typer.Option(0, "--clwlprty", metavar="0-9", help=PRTY_HELP),
    clwlwght: int = typer.Option(50, "--clwlwght", metavar="1-99", help=WGHT_HELP),
    replace: bool = typer.Option(False, "--replace", help="Redefine if it exists."),
) -> None:
    """Define a cluster channel; a CLUSRCVR makes its queue manager a member of its cluster(s)."""
    from mqctl.domain.model import Channel, ChannelType
    from mqctl.domain.objects.text import parse_enum
    from mqctl.services.objects import define_channel as define

    kind = parse_enum(ChannelType, chltype, f"channel {name}", "CHLTYPE")
    channel = Channel(
        qmgr,
        name,
        kind,
        cluster=cluster,
        clusnl=clusnl,
        conname=conname,
        descr=descr,
        clwlrank=clwlrank,
        clwlprty=clwlprty,
        clwlwght=clwlwght,
    )
    with transaction() as store:
        notes = define(store, channel, replace=replace)
    for note in notes:
        hint(note)
    done(f"channel {name} defined on {qmgr}.")


@alter_app.command("channel")
def alter_channel(
    name: str = typer.Argument(..., metavar="NAME"),
    qmgr: str = QMGR_OPT,
    cluster: str | None = typer.Option(None, "--cluster", metavar="CLUSTER", help="CLUSTER."),
    clusnl: str | None = typer.Option(None, "--clusnl", metavar="NAMELIST", help="CLUSNL."),
    conname: str | None = typer.Option(None, "--conname", metavar="HOST(PORT)", help="CONNAME."),
    descr: str | None = typer.Option(None, "--descr", metavar="TEXT", help="DESCR."),
    clwlrank: int | None = typer.Option(None, "--clwlrank", metavar="0-9", help=RANK_HELP),
    clwlprty: int | None = typer.Option(None, "--clwlprty", metavar="0-9", help=PRTY_HELP),
    clwlwght: int | None = typer.Option(None, "--clwlwght", metavar="1-99", help=WGHT_HELP),
) -> None:
    """Alter a cluster channel."""
    from mqctl.services.objects import alter_channel as alter

    given = {
        "cluster": cluster,
        "clusnl": clusnl,
        "conname": conname,
        "descr": descr,
        "clwlrank": clwlrank,
        "clwlprty": clwlprty,
        "clwlwght": clwlwght,
    }
    with transaction() as store:
        notes = alter(store, qmgr, name, {k: v for k, v in given.items() if v is not None})
    for note in notes:
        hint(note)
    done(f"channel {name} altered on {qmgr}.")


@display_app.command("channel")
def display_channel(
    name: str = typer.Argument("*", metavar="[NAME]", help="Name; a trailing * is generic."),
    qmgr: str | None = QMGR_FILTER,
    exact: bool = typer.Option(False, "--exact", help="Take a trailing * literally."),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Display cluster channels."""
    from mqctl.services.views import display_channels

    with reading() as store:
        rows = display_channels(store, name, exact, qmgr)
    columns = ["qmgr", "name", "chltype", "cluster", "clusnl", "conname", "clwlrank", "clwlprty", "clwlwght"]
    show_table("Channels", columns, rows, output)
    no_match_exit(rows)


@delete_app.command("channel")
def delete_channel(name: str = typer.Argument(..., metavar="NAME"), qmgr: str = QMGR_OPT) -> None:
    """Delete a cluster channel; the memberships only it gave end with it."""
    from mqctl.services.objects import delete_channel as delete

    with transaction() as store:
        delete(store, qmgr, name)
    done(f"channel {name} deleted from {qmgr}.")
