"""Clusters and memberships: names as MQ has them; only queue managers join clusters.

A cluster is a name in MQ, created by the first definition that names it. MQ lets a misspelt name create
a new cluster unnoticed; mqctl says so (``new_cluster_notes``) and accepts it. A membership is made by a
CLUSRCVR channel or REPOS (``domain.memberships``): joining defines that channel, leaving removes it.
"""

from __future__ import annotations

from collections.abc import Iterable

from mqctl.domain import memberships
from mqctl.domain.errors import ConflictError, InputError
from mqctl.domain.model import Dialect, NodeState
from mqctl.domain.names import check_mq_name
from mqctl.domain.objects.edit import NotDefined, in_use
from mqctl.domain.objects.text import check_descr
from mqctl.domain.suggest import did_you_mean
from mqctl.domain.valid_text import check_text


def check(name: str, descr: str = "") -> None:
    check_mq_name(name, "cluster")
    check_text(descr, obj=f"cluster {name}", attribute="DESCR")
    check_descr(descr, f"cluster {name}")


def check_member(node: str, dialect: Dialect, cluster: str) -> None:
    check_mq_name(cluster, "cluster")
    if dialect is Dialect.EMS:
        raise InputError(
            "an EMS server is not a member of MQ clusters", obj=f"server {node}", attribute="CLUSTER"
        )


def new_cluster_notes(named: Iterable[str], known: Iterable[str]) -> list[str]:
    """One note per cluster in ``named`` that is not in ``known``, with the nearest known names."""
    have = sorted(set(known))
    notes = []
    for name in sorted({n for n in named if n} - set(have)):
        notes.append(f"cluster {name} is new{did_you_mean(name, have)}")
    return notes


def check_delete(name: str, dependents: list[str], *, cascade: bool) -> None:
    if dependents and not cascade:
        raise in_use(f"cluster {name}", dependents)


def join(state: NodeState, clusters: list[str], full: list[str], *, seq: int) -> None:
    """``define qmgr --cluster`` / ``alter qmgr --cluster``: a CLUSRCVR channel per new cluster."""
    for cluster in clusters + full:
        check_member(state.node.name, state.node.dialect, cluster)
    memberships.join(state, clusters, full, seq=seq)


def leave(state: NodeState, clusters: list[str], *, seq: int) -> None:
    for cluster in clusters:
        check_member(state.node.name, state.node.dialect, cluster)
        memberships.leave(state, cluster, seq=seq)


def define_membership(
    state: NodeState, cluster: str, full_repository: bool, *, replace: bool, seq: int
) -> None:
    check_member(state.node.name, state.node.dialect, cluster)
    if cluster in state.memberships and not replace:
        raise ConflictError(
            f"is already a member of cluster {cluster} (use --replace)", obj=f"qmgr {state.node.name}"
        )
    memberships.join(state, [cluster], [], seq=seq)
    memberships.set_full_repository(state, cluster, full_repository, seq=seq)


def alter_membership(state: NodeState, cluster: str, full_repository: bool | None, *, seq: int) -> None:
    if cluster not in state.memberships:
        raise NotDefined(f"is not a member of cluster {cluster}", obj=f"qmgr {state.node.name}")
    if full_repository is not None:
        memberships.set_full_repository(state, cluster, full_repository, seq=seq)


def delete_membership(state: NodeState, cluster: str, *, seq: int) -> None:
    memberships.leave(state, cluster, seq=seq)
