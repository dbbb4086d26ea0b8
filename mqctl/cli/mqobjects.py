"""namelist and cluster channel (CLUSRCVR/CLUSSDR) commands."""

from __future__ import annotations

from typing import Any

import typer

from mqctl.cli.apps import alter_app, define_app, delete_app, display_app
from mqctl.cli.common import OUTPUT_OPTION, Output, done, no_match_exit, show_table, transaction

QMGR_OPT = typer.Option(..., "--qmgr", "-m", help="The queue manager.")
QMGR_FILTER = typer.Option(None, "--qmgr", "-m", help="Only objects on this queue manager.")


def _names(values: list[str]) -> tuple[str, ...]:
    return tuple(n.strip() for v in values for n in v.split(",") if n.strip())


@define_app.command("namelist")
def define_namelist(
    name: str = typer.Argument(...),
    qmgr: str = QMGR_OPT,
    names: list[str] = typer.Option([], "--names", help="NAMES: comma-separated or repeated."),
    descr: str = typer.Option("", "--descr"),
    replace: bool = typer.Option(False, "--replace"),
) -> None:
    """Define a namelist (e.g. for CLUSNL or REPOSNL)."""
    from mqctl.domain.model import Namelist
    from mqctl.services.objects import define_object

    with transaction() as repo:
        define_object(
            repo, qmgr, "namelists", name, Namelist(qmgr, name, _names(names), descr), replace=replace
        )
    done(f"namelist {name} defined on {qmgr}.")


@alter_app.command("namelist")
def alter_namelist(
    name: str = typer.Argument(...),
    qmgr: str = QMGR_OPT,
    names: list[str] | None = typer.Option(None, "--names"),
    descr: str | None = typer.Option(None, "--descr"),
) -> None:
    """Alter a namelist."""
    from mqctl.services.objects import alter_object

    changes: dict[str, Any] = {}
    if names is not None:
        changes["names"] = _names(names)
    if descr is not None:
        changes["descr"] = descr
    with transaction() as repo:
        alter_object(repo, qmgr, "namelists", name, changes)
    done(f"namelist {name} altered on {qmgr}.")


@display_app.command("namelist")
def display_namelist(
    name: str = typer.Argument("*"),
    qmgr: str | None = QMGR_FILTER,
    exact: bool = typer.Option(False, "--exact"),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Display namelists."""
    from mqctl.services.display import display_namelists

    with transaction() as repo:
        rows = display_namelists(repo, name, exact, qmgr)
    show_table("Namelists", ["qmgr", "name", "names", "descr"], rows, output)
    no_match_exit(rows)


@delete_app.command("namelist")
def delete_namelist(
    name: str = typer.Argument(...), qmgr: str = QMGR_OPT, cascade: bool = typer.Option(False, "--cascade")
) -> None:
    """Delete a namelist."""
    from mqctl.services.objects import delete_object

    with transaction() as repo:
        delete_object(repo, qmgr, "namelists", name, cascade=cascade)
    done(f"namelist {name} deleted from {qmgr}.")


@define_app.command("channel")
def define_channel(
    name: str = typer.Argument(...),
    qmgr: str = QMGR_OPT,
    chltype: str = typer.Option(..., "--chltype", help="CHLTYPE: clusrcvr|clussdr."),
    cluster: str = typer.Option("", "--cluster", help="CLUSTER."),
    clusnl: str = typer.Option("", "--clusnl", help="CLUSNL: a namelist of clusters."),
    conname: str = typer.Option("", "--conname", help="CONNAME, e.g. 'host(1414)'."),
    descr: str = typer.Option("", "--descr"),
    replace: bool = typer.Option(False, "--replace"),
) -> None:
    """Define a cluster channel; a CLUSRCVR makes its queue manager a member of its cluster(s)."""
    from mqctl.domain.checks import parse_enum
    from mqctl.domain.model import Channel, ChannelType
    from mqctl.services.objects import define_object

    kind = parse_enum(ChannelType, chltype, f"channel {name}", "CHLTYPE")
    with transaction() as repo:
        define_object(
            repo,
            qmgr,
            "channels",
            name,
            Channel(qmgr, name, kind, cluster, clusnl, conname, descr),
            replace=replace,
        )
    done(f"channel {name} defined on {qmgr}.")


@alter_app.command("channel")
def alter_channel(
    name: str = typer.Argument(...),
    qmgr: str = QMGR_OPT,
    cluster: str | None = typer.Option(None, "--cluster"),
    clusnl: str | None = typer.Option(None, "--clusnl"),
    conname: str | None = typer.Option(None, "--conname"),
    descr: str | None = typer.Option(None, "--descr"),
) -> None:
    """Alter a cluster channel."""
    from mqctl.services.objects import alter_object

    changes = {
        k: v
        for k, v in {"cluster": cluster, "clusnl": clusnl, "conname": conname, "descr": descr}.items()
        if v is not None
    }
    with transaction() as repo:
        alter_object(repo, qmgr, "channels", name, changes)
    done(f"channel {name} altered on {qmgr}.")


@display_app.command("channel")
def display_channel(
    name: str = typer.Argument("*"),
    qmgr: str | None = QMGR_FILTER,
    exact: bool = typer.Option(False, "--exact"),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Display cluster channels."""
    from mqctl.services.display import display_channels

    with transaction() as repo:
        rows = display_channels(repo, name, exact, qmgr)
    show_table("Channels", ["qmgr", "name", "chltype", "cluster", "clusnl", "conname"], rows, output)
    no_match_exit(rows)


@delete_app.command("channel")
def delete_channel(name: str = typer.Argument(...), qmgr: str = QMGR_OPT) -> None:
    """Delete a cluster channel; the memberships only it gave end with it."""
    from mqctl.services.objects import delete_object

    with transaction() as repo:
        delete_object(repo, qmgr, "channels", name, cascade=False)
    done(f"channel {name} deleted from {qmgr}.")
