"""qmgr (MQ queue manager or EMS server), cluster and membership commands."""

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
from mqctl.domain.model import PS_ENABLED, Dialect
from mqctl.domain.objects.attributes import PSCLUS, PSMODES

QMGR_OPT = typer.Option(..., "--qmgr", "-m", metavar="QMGR", help="The queue manager.")
CLUSTER_OPT = typer.Option(..., "--cluster", metavar="CLUSTER", help="The cluster.")


def _node_changes(
    psmode: str | None, psclus: str | None, descr: str | None, parent: str | None
) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    if psmode is not None:
        changes["psmode"] = psmode.upper()
    if psclus is not None:
        changes["psclus"] = psclus.upper()
    if descr is not None:
        changes["descr"] = descr
    if parent is not None:
        changes["parent"] = parent or None
    return changes


@define_app.command("qmgr")
def define_qmgr(
    name: str = typer.Argument(
        ..., metavar="NAME", help="Queue manager (or EMS server) name, taken as typed."
    ),
    dialect: Dialect = typer.Option(
        Dialect.MQ, "--dialect", case_sensitive=False, help="mq: IBM MQ queue manager; ems: TIBCO EMS server."
    ),
    cluster: list[str] = typer.Option(
        [],
        "--cluster",
        metavar="CLUSTER",
        help="Member of this cluster (repeat for several): defines its CLUSRCVR channel, as MQ needs.",
    ),
    full_repository: list[str] = typer.Option(
        [], "--full-repository", metavar="CLUSTER", help="Full repository for this cluster (REPOS)."
    ),
    parent: str | None = typer.Option(
        None, "--parent", metavar="QMGR", help="Hierarchy parent (ALTER QMGR PARENT)."
    ),
    psmode: str = typer.Option(PS_ENABLED, "--psmode", metavar="|".join(PSMODES), help="PSMODE."),
    psclus: str = typer.Option(PS_ENABLED, "--psclus", metavar="|".join(PSCLUS), help="PSCLUS."),
    descr: str = typer.Option("", "--descr", metavar="TEXT", help="DESCR (at most 64 characters)."),
    replace: bool = typer.Option(False, "--replace", help="Redefine if it exists (MQSC REPLACE)."),
) -> None:
    """Define a queue manager or EMS server."""
    from mqctl.domain.model import Node
    from mqctl.domain.names import node_label
    from mqctl.services.objects import define_node

    node = Node(name, dialect, psmode.upper(), psclus.upper(), descr, parent or None)
    with transaction() as store:
        notes = define_node(
            store, node, clusters_=cluster, full_repositories=full_repository, replace=replace
        )
    for note in notes:
        hint(note)
    done(f"{node_label(dialect)} {name} defined.")


@alter_app.command("qmgr")
def alter_qmgr(
    name: str = typer.Argument(..., metavar="NAME"),
    cluster: list[str] = typer.Option([], "--cluster", metavar="CLUSTER", help="Join this cluster."),
    remove_cluster: list[str] = typer.Option(
        [], "--remove-cluster", metavar="CLUSTER", help="Leave this cluster."
    ),
    full_repository: list[str] = typer.Option(
        [], "--full-repository", metavar="CLUSTER", help="Become a full repository for it."
    ),
    parent: str | None = typer.Option(
        None, "--parent", metavar="QMGR", help="Hierarchy parent; '' removes it."
    ),
    psmode: str | None = typer.Option(None, "--psmode", metavar="|".join(PSMODES), help="PSMODE."),
    psclus: str | None = typer.Option(None, "--psclus", metavar="|".join(PSCLUS), help="PSCLUS."),
    descr: str | None = typer.Option(None, "--descr", metavar="TEXT", help="DESCR."),
) -> None:
    """Alter a queue manager or EMS server."""
    from mqctl.services.objects import alter_node

    with transaction() as store:
        notes = alter_node(
            store,
            name,
            _node_changes(psmode, psclus, descr, parent),
            add_clusters=cluster,
            remove_clusters=remove_cluster,
            full_repositories=full_repository,
        )
    for note in notes:
        hint(note)
    done(f"{name} altered.")


@display_app.command("qmgr")
def display_qmgr(
    name: str = typer.Argument("*", metavar="[NAME]", help="Name; a trailing * is generic."),
    exact: bool = typer.Option(False, "--exact", help="Take a trailing * literally."),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Display queue managers and EMS servers."""
    from mqctl.services.views import display_nodes

    with reading() as store:
        rows = display_nodes(store, name, exact)
    show_table(
        "Nodes", ["name", "dialect", "clusters", "repos", "parent", "psmode", "routes", "descr"], rows, output
    )
    no_match_exit(rows)


@delete_app.command("qmgr")
def delete_qmgr(
    name: str = typer.Argument(..., metavar="NAME"),
    cascade: bool = typer.Option(
        False, "--cascade", help="Also delete everything defined on it or naming it."
    ),
) -> None:
    """Delete a queue manager or EMS server."""
    from mqctl.services.objects import delete_node

    with transaction() as store:
        delete_node(store, name, cascade=cascade)
    done(f"{name} deleted.")


@define_app.command("cluster")
def define_cluster_cmd(
    name: str = typer.Argument(..., metavar="NAME"),
    descr: str = typer.Option("", "--descr", metavar="TEXT", help="DESCR."),
    replace: bool = typer.Option(False, "--replace", help="Redefine if it exists."),
) -> None:
    """Define a cluster (clusters are also created when first referenced)."""
    from mqctl.services.objects import define_cluster

    with transaction() as store:
        define_cluster(store, name, descr, replace=replace)
    done(f"cluster {name} defined.")


@alter_app.command("cluster")
def alter_cluster_cmd(
    name: str = typer.Argument(..., metavar="NAME"),
    descr: str | None = typer.Option(None, "--descr", metavar="TEXT", help="DESCR."),
) -> None:
    """Alter a cluster."""
    from mqctl.services.objects import alter_cluster

    with transaction() as store:
        alter_cluster(store, name, descr)
    done(f"cluster {name} altered.")


@display_app.command("cluster")
def display_cluster_cmd(
    name: str = typer.Argument("*", metavar="[NAME]", help="Name; a trailing * is generic."),
    exact: bool = typer.Option(False, "--exact", help="Take a trailing * literally."),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Display clusters with their members and full repositories."""
    from mqctl.services.views import display_clusters

    with reading() as store:
        rows = display_clusters(store, name, exact)
    show_table("Clusters", ["name", "members", "repos", "descr"], rows, output)
    no_match_exit(rows)


@delete_app.command("cluster")
def delete_cluster_cmd(
    name: str = typer.Argument(..., metavar="NAME"),
    cascade: bool = typer.Option(
        False, "--cascade", help="Also delete its memberships, topics and channels."
    ),
) -> None:
    """Delete a cluster."""
    from mqctl.services.objects import delete_cluster

    with transaction() as store:
        delete_cluster(store, name, cascade=cascade)
    done(f"cluster {name} deleted.")


@define_app.command("membership")
def define_membership_cmd(
    qmgr: str = QMGR_OPT,
    cluster: str = CLUSTER_OPT,
    full_repository: bool = typer.Option(
        False, "--full-repository/--partial-repository", help="A full repository of the cluster (REPOS)."
    ),
    replace: bool = typer.Option(False, "--replace", help="Redefine if it exists."),
) -> None:
    """Make a queue manager a member of a cluster (defines its CLUSRCVR channel, as MQ needs)."""
    from mqctl.services.objects import define_membership

    with transaction() as store:
        notes = define_membership(store, qmgr, cluster, full_repository, replace=replace)
    for note in notes:
        hint(note)
    done(f"{qmgr} is a member of {cluster}.")


@alter_app.command("membership")
def alter_membership_cmd(
    qmgr: str = QMGR_OPT,
    cluster: str = CLUSTER_OPT,
    full_repository: bool | None = typer.Option(
        None, "--full-repository/--partial-repository", help="A full repository of the cluster (REPOS)."
    ),
) -> None:
    """Change whether a member is a full repository."""
    from mqctl.services.objects import alter_membership

    with transaction() as store:
        alter_membership(store, qmgr, cluster, full_repository)
    done(f"membership of {qmgr} in {cluster} altered.")


@display_app.command("membership")
def display_membership_cmd(
    qmgr: str | None = typer.Option(None, "--qmgr", "-m", metavar="QMGR", help="Only this queue manager."),
    cluster: str | None = typer.Option(None, "--cluster", metavar="CLUSTER", help="Only this cluster."),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Display cluster memberships."""
    from mqctl.services.views import display_memberships

    with reading() as store:
        rows = display_memberships(store, qmgr, cluster)
    show_table("Memberships", ["qmgr", "cluster", "full_repository"], rows, output)
    no_match_exit(rows)


@delete_app.command("membership")
def delete_membership_cmd(qmgr: str = QMGR_OPT, cluster: str = CLUSTER_OPT) -> None:
    """Remove a queue manager from a cluster (deletes the CLUSRCVR channel that gives the membership)."""
    from mqctl.services.objects import delete_membership

    with transaction() as store:
        delete_membership(store, qmgr, cluster)
    done(f"{qmgr} left {cluster}.")
