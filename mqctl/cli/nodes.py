"""qmgr (MQ queue manager or EMS server), cluster and membership commands."""

from __future__ import annotations

from typing import Any

import typer

from mqctl.cli.apps import alter_app, define_app, delete_app, display_app
from mqctl.cli.common import OUTPUT_OPTION, Output, done, no_match_exit, show_table, transaction
from mqctl.domain.model import Dialect


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
    name: str = typer.Argument(..., help="Queue manager (or EMS server) name, taken as typed."),
    dialect: Dialect = typer.Option(
        Dialect.MQ, "--dialect", help="mq: IBM MQ queue manager; ems: TIBCO EMS server."
    ),
    cluster: list[str] = typer.Option([], "--cluster", help="Member of this cluster (repeat for several)."),
    full_repository: list[str] = typer.Option(
        [], "--full-repository", help="Full repository for this cluster."
    ),
    parent: str | None = typer.Option(None, "--parent", help="Hierarchy parent (ALTER QMGR PARENT)."),
    psmode: str = typer.Option("ENABLED", "--psmode", help="PSMODE: ENABLED|DISABLED|COMPAT."),
    psclus: str = typer.Option("ENABLED", "--psclus", help="PSCLUS: ENABLED|DISABLED."),
    descr: str = typer.Option("", "--descr", help="DESCR."),
    replace: bool = typer.Option(False, "--replace", help="Redefine if it exists (MQSC REPLACE)."),
) -> None:
    """Define a queue manager or EMS server."""
    from mqctl.domain.model import Node
    from mqctl.domain.names import node_label
    from mqctl.services.objects import define_node

    node = Node(name, dialect, psmode.upper(), psclus.upper(), descr, parent or None)
    with transaction() as repo:
        define_node(repo, node, clusters=cluster, full_repositories=full_repository, replace=replace)
    done(f"{node_label(dialect)} {name} defined.")


@alter_app.command("qmgr")
def alter_qmgr(
    name: str = typer.Argument(...),
    cluster: list[str] = typer.Option([], "--cluster", help="Join this cluster."),
    remove_cluster: list[str] = typer.Option([], "--remove-cluster", help="Leave this cluster."),
    full_repository: list[str] = typer.Option(
        [], "--full-repository", help="Become a full repository for it."
    ),
    parent: str | None = typer.Option(None, "--parent", help="Hierarchy parent; '' removes it."),
    psmode: str | None = typer.Option(None, "--psmode"),
    psclus: str | None = typer.Option(None, "--psclus"),
    descr: str | None = typer.Option(None, "--descr"),
) -> None:
    """Alter a queue manager or EMS server."""
    from mqctl.services.objects import alter_node

    with transaction() as repo:
        alter_node(
            repo,
            name,
            _node_changes(psmode, psclus, descr, parent),
            add_clusters=cluster,
            remove_clusters=remove_cluster,
            full_repositories=full_repository,
        )
    done(f"{name} altered.")


@display_app.command("qmgr")
def display_qmgr(
    name: str = typer.Argument("*", help="Name; a trailing * is generic."),
    exact: bool = typer.Option(False, "--exact", help="Take a trailing * literally."),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Display queue managers and EMS servers."""
    from mqctl.services.display import display_nodes

    with transaction() as repo:
        rows = display_nodes(repo, name, exact)
    show_table("Nodes", ["name", "dialect", "clusters", "repos", "parent", "psmode", "descr"], rows, output)
    no_match_exit(rows)


@delete_app.command("qmgr")
def delete_qmgr(
    name: str = typer.Argument(...),
    cascade: bool = typer.Option(
        False, "--cascade", help="Also delete everything defined on it or naming it."
    ),
) -> None:
    """Delete a queue manager or EMS server."""
    from mqctl.services.objects import delete_node

    with transaction() as repo:
        delete_node(repo, name, cascade=cascade)
    done(f"{name} deleted.")


@define_app.command("cluster")
def define_cluster_cmd(
    name: str = typer.Argument(...),
    descr: str = typer.Option("", "--descr"),
    replace: bool = typer.Option(False, "--replace"),
) -> None:
    """Define a cluster (clusters are also created when first referenced)."""
    from mqctl.services.objects import define_cluster

    with transaction() as repo:
        define_cluster(repo, name, descr, replace=replace)
    done(f"cluster {name} defined.")


@alter_app.command("cluster")
def alter_cluster_cmd(
    name: str = typer.Argument(...), descr: str | None = typer.Option(None, "--descr")
) -> None:
    """Alter a cluster."""
    from mqctl.services.objects import alter_cluster

    with transaction() as repo:
        alter_cluster(repo, name, descr)
    done(f"cluster {name} altered.")


@display_app.command("cluster")
def display_cluster_cmd(
    name: str = typer.Argument("*"),
    exact: bool = typer.Option(False, "--exact"),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Display clusters with their members and full repositories."""
    from mqctl.services.display import display_clusters

    with transaction() as repo:
        rows = display_clusters(repo, name, exact)
    show_table("Clusters", ["name", "members", "repos", "descr"], rows, output)
    no_match_exit(rows)


@delete_app.command("cluster")
def delete_cluster_cmd(
    name: str = typer.Argument(...), cascade: bool = typer.Option(False, "--cascade")
) -> None:
    """Delete a cluster."""
    from mqctl.services.objects import delete_cluster

    with transaction() as repo:
        delete_cluster(repo, name, cascade=cascade)
    done(f"cluster {name} deleted.")


QMGR_OPT = typer.Option(..., "--qmgr", "-m", help="The queue manager.")


@define_app.command("membership")
def define_membership_cmd(
    qmgr: str = QMGR_OPT,
    cluster: str = typer.Option(..., "--cluster"),
    full_repository: bool = typer.Option(False, "--full-repository/--partial-repository"),
    replace: bool = typer.Option(False, "--replace"),
) -> None:
    """Make a queue manager a member of a cluster."""
    from mqctl.services.objects import define_membership

    with transaction() as repo:
        define_membership(repo, qmgr, cluster, full_repository, replace=replace)
    done(f"{qmgr} is a member of {cluster}.")


@alter_app.command("membership")
def alter_membership_cmd(
    qmgr: str = QMGR_OPT,
    cluster: str = typer.Option(..., "--cluster"),
    full_repository: bool | None = typer.Option(None, "--full-repository/--partial-repository"),
) -> None:
    """Change whether a member is a full repository."""
    from mqctl.services.objects import alter_membership

    with transaction() as repo:
        alter_membership(repo, qmgr, cluster, full_repository)
    done(f"membership of {qmgr} in {cluster} altered.")


@display_app.command("membership")
def display_membership_cmd(
    qmgr: str | None = typer.Option(None, "--qmgr", "-m"),
    cluster: str | None = typer.Option(None, "--cluster"),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Display cluster memberships."""
    from mqctl.services.display import display_memberships

    with transaction() as repo:
        rows = display_memberships(repo, qmgr, cluster)
    show_table("Memberships", ["qmgr", "cluster", "full_repository"], rows, output)
    no_match_exit(rows)


@delete_app.command("membership")
def delete_membership_cmd(qmgr: str = QMGR_OPT, cluster: str = typer.Option(..., "--cluster")) -> None:
    """Remove a queue manager from a cluster."""
    from mqctl.services.objects import delete_membership

    with transaction() as repo:
        delete_membership(repo, qmgr, cluster)
    done(f"{qmgr} left {cluster}.")
