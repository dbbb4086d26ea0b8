"""Cluster memberships of one queue manager, derived from its definitions as MQ derives them.

- A ``CLUSRCVR`` channel makes the queue manager a member of the cluster it names: ``CLUSTER(C)``, or
  every name of the namelist given in ``CLUSNL`` (read when memberships are derived, so altering that
  namelist changes them).
- ``ALTER QMGR REPOS(C)`` / ``REPOSNL(NL)`` make it a full repository of C (of every name in NL when the
  command runs): the membership carries ``full_repository=True``, and a full repository counts as a
  member even before its CLUSRCVR channel is defined. ``REPOS('')``/``REPOSNL('')`` clear it.
- ``CLUSSDR`` channels do not make members: they only point at a full repository.
- Deleting a CLUSRCVR channel (or altering its CLUSTER/CLUSNL) drops the memberships it gave that no other
  CLUSRCVR channel nor REPOS/REPOSNL still gives. A membership no channel or REPOS ever gave (one defined
  with `mqctl define qmgr --cluster` or `define membership`) is never dropped by a script. Real MQ keeps the queue manager known to the cluster
  until the full repositories forget it (RESET CLUSTER); mqctl models the definitions, so the
  membership ends at once.

A membership keeps its definition sequence while it is unchanged; a new one (or one whose
full-repository flag changes) takes the sequence of the command that caused it.
"""

from __future__ import annotations

from mqctl.domain.model import Channel, ChannelType, Membership, NodeState


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
