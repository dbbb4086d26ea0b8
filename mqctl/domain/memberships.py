"""Cluster memberships of one queue manager, derived from its definitions as MQ derives them.

- A ``CLUSRCVR`` channel makes the queue manager a member of the cluster it names: ``CLUSTER(C)``, or
  every name of the namelist given in ``CLUSNL`` (read when memberships are derived, so altering that
  namelist changes them).
- ``ALTER QMGR REPOS(C)`` / ``REPOSNL(NL)`` make it a full repository of C (of every name in NL when the
  command runs): the membership carries ``full_repository=True``, and a full repository counts as a
  member even before its CLUSRCVR channel is defined. ``REPOS('')``/``REPOSNL('')`` clear it.
- ``CLUSSDR`` channels do not make members: they only point at a full repository.
- Deleting a CLUSRCVR channel (or altering its CLUSTER/CLUSNL) drops the memberships it gave that no other
  CLUSRCVR channel nor REPOS/REPOSNL still gives. Real MQ keeps the queue manager known to the cluster
  until the full repositories forget it (RESET CLUSTER); mqctl models the definitions, so the
  membership ends at once.
- ``mqctl define qmgr --cluster`` and ``define membership`` do what an administrator does in MQ: they
  define a CLUSRCVR channel for the cluster (``join``), so that every membership has the definition that
  gives it and an MQSC export re-imports to the same model. A membership no channel nor REPOS gives
  (a store written by an older mqctl) is never dropped by a script.

A membership keeps its definition sequence while it is unchanged; a new one (or one whose
full-repository flag changes) takes the sequence of the command that caused it.
"""

from __future__ import annotations

from collections.abc import Iterable

from mqctl.domain.errors import InputError, NotFoundError
from mqctl.domain.model import Channel, ChannelType, Membership, Namelist, NodeState


def channel_clusters(state: NodeState) -> set[str]:
    """Clusters named by the CLUSRCVR channels of ``state``."""
    clusters: set[str] = set()
    for channel in state.channels.values():
        if channel.chltype is not ChannelType.CLUSRCVR:
            continue
        if channel.cluster:
            clusters.add(channel.cluster)
        elif channel.clusnl and channel.clusnl in state.namelists:
            clusters.update(n for n in state.namelists[channel.clusnl].names if n)
    return clusters


def full_repositories(state: NodeState) -> set[str]:
    return {m.cluster for m in state.memberships.values() if m.full_repository}


def channel_gives(state: NodeState, channel: Channel | None) -> set[str]:
    """The clusters one channel makes its queue manager a member of (none for CLUSSDR or None)."""
    if channel is None or channel.chltype is not ChannelType.CLUSRCVR:
        return set()
    if channel.cluster:
        return {channel.cluster}
    nl = state.namelists.get(channel.clusnl)
    return {n for n in nl.names if n} if nl is not None else set()


def rederive(
    state: NodeState, *, seq: int, full_repos: set[str] | None = None, released: set[str] | None = None
) -> None:
    """Recompute ``state.memberships`` from the channels and the full-repository set (kept if None).

    ``released`` names the clusters the changed definition gave before the change: only those may be
    dropped, so memberships defined outside MQSC survive a script."""
    repos = full_repositories(state) if full_repos is None else full_repos
    wanted = channel_clusters(state) | repos
    old = state.memberships
    new: dict[str, Membership] = {}
    for cluster, membership in old.items():
        if cluster not in wanted and cluster not in (released or set()):
            new[cluster] = (
                membership
                if not membership.full_repository
                else Membership(state.node.name, cluster, full_repository=False, seq=seq)
            )
    for cluster in sorted(wanted):
        full = cluster in repos
        before = old.get(cluster)
        if before is not None and before.full_repository == full:
            new[cluster] = before
        else:
            new[cluster] = Membership(state.node.name, cluster, full_repository=full, seq=seq)
    state.memberships = dict(sorted(new.items()))


REPOS_NAMELIST = "MQCTL.REPOS"
"""The namelist mqctl defines for REPOSNL when a queue manager is a full repository of several clusters
(MQ holds one cluster in REPOS; several need a namelist)."""


def receiver_name(cluster: str, qmgr: str, taken: Iterable[str]) -> str:
    """A new cluster-receiver channel's name: MQ's usual ``CLUSTER.QMGR`` when it fits 20 characters,
    else a shortened form that stays unique on the queue manager."""
    used = set(taken)
    candidate = f"{cluster}.{qmgr}"
    if len(candidate) <= 20 and candidate not in used:
        return candidate
    stem = f"{cluster[:9]}.{qmgr[:7]}"
    for n in range(1, 1000):
        candidate = f"{stem}{n}"[:20] if n == 1 else f"{stem[: 20 - len(str(n))]}{n}"
        if candidate not in used:
            return candidate
    raise InputError("no free channel name", obj=f"qmgr {qmgr}")


def join(state: NodeState, clusters: Iterable[str], full: Iterable[str], *, seq: int) -> None:
    """Make the queue manager a member of ``clusters`` and a full repository of ``full``, as MQ needs it:
    a CLUSRCVR channel for each cluster no channel gives yet (``define qmgr --cluster``), REPOS flags,
    and a REPOSNL namelist when it is a full repository of several clusters."""
    full = set(full)
    for cluster in sorted(set(clusters) | full):
        if cluster not in channel_clusters(state):
            name = receiver_name(cluster, state.node.name, state.channels)
            state.channels[name] = Channel(
                state.node.name, name, ChannelType.CLUSRCVR, cluster=cluster, seq=seq
            )
    rederive(state, seq=seq, full_repos=full_repositories(state) | full)
    _ensure_repos_namelist(state, seq)


def set_full_repository(state: NodeState, cluster: str, full: bool, *, seq: int) -> None:
    repos = full_repositories(state)
    repos = repos | {cluster} if full else repos - {cluster}
    rederive(state, seq=seq, full_repos=repos)
    _ensure_repos_namelist(state, seq)


def leave(state: NodeState, cluster: str, *, seq: int) -> None:
    """End a membership: drop the CLUSRCVR channels naming the cluster and its full-repository flag.

    A membership given by a CLUSNL namelist is the namelist's to change (refused here)."""
    if cluster not in state.memberships:
        raise NotFoundError(f"is not a member of cluster {cluster}", obj=f"qmgr {state.node.name}")
    for ch in list(state.channels.values()):
        if ch.chltype is ChannelType.CLUSRCVR and ch.clusnl and cluster in channel_gives(state, ch):
            raise InputError(
                f"the membership of {cluster} comes from channel {ch.name} (CLUSNL {ch.clusnl}); "
                "alter that namelist or channel",
                obj=f"qmgr {state.node.name}",
            )
    released = set()
    for name, ch in list(state.channels.items()):
        if ch.chltype is ChannelType.CLUSRCVR and ch.cluster == cluster:
            del state.channels[name]
            released.add(cluster)
    state.memberships.pop(cluster)
    rederive(state, seq=seq, full_repos=full_repositories(state) - {cluster}, released=released | {cluster})
    _ensure_repos_namelist(state, seq)


def _ensure_repos_namelist(state: NodeState, seq: int) -> None:
    """With two or more full-repository clusters MQ needs REPOSNL: keep a namelist naming exactly them."""
    repos = sorted(full_repositories(state))
    if len(repos) < 2 or any(sorted(nl.names) == repos for nl in state.namelists.values()):
        return
    state.namelists[REPOS_NAMELIST] = Namelist(
        state.node.name, REPOS_NAMELIST, tuple(repos), "full repository clusters (REPOSNL)", seq=seq
    )
