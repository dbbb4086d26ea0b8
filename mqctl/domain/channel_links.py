"""Which queue manager a channel status concerns, from what a real capture holds (semantics §9
"Observed state").

DISPLAY CHSTATUS shows RQMNAME only once the channel has reached its partner: a cluster-sender RETRYING,
BINDING, STARTING or PAUSED usually shows ``RQMNAME( )``. The queue manager at the other end is then
known from the channel's name (a cluster-sender carries the name of its target's cluster-receiver: the
model's CLUSRCVR definitions), from the capture's own DISPLAY CLUSQMGR blocks (each names the channel to
that queue manager), or from CONNAME (against the CLUSRCVRs' CONNAMEs and the CLUSQMGR blocks'). A status
none of these links is said to be unlinked, never guessed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from mqctl.domain.model import Channel, ChannelType

BETWEEN_QMGRS = frozenset({"CLUSSDR", "CLUSRCVR", "SDR", "RCVR", "SVR", "RQSTR"})
"""Channel types that join two queue managers (client, AMQP and MQTT channels join none)."""
DEFAULT_PORT = "1414"


@dataclass(frozen=True, slots=True)
class Link:
    """The queue manager a status concerns (empty when it cannot be linked) and how it was found."""

    peer: str
    how: str


def conname_keys(conname: str) -> list[str]:
    """``Host.Example(1414), h2`` -> ``['host.example(1414)', 'h2(1414)']``: one key per address."""
    keys = []
    for part in conname.split(","):
        text = "".join(part.split()).lower()
        if not text:
            continue
        keys.append(text if text.endswith(")") and "(" in text else f"{text}({DEFAULT_PORT})")
    return keys


class ChannelLinker:
    """The model's cluster-receivers by name and by CONNAME, asked about one status at a time."""

    def __init__(self, channels: Iterable[Channel]) -> None:
        self.by_name: dict[str, set[str]] = defaultdict(set)
        self.by_conname: dict[str, set[str]] = defaultdict(set)
        for channel in channels:
            if channel.chltype is ChannelType.CLUSRCVR:
                self.by_name[channel.name].add(channel.node)
                for key in conname_keys(channel.conname):
                    self.by_conname[key].add(channel.node)

    def link(self, here: str, attrs: dict[str, str], clusqmgrs: Iterable[dict[str, str]] = ()) -> Link:
        """The queue manager at the other end of the channel whose status ``attrs`` is, seen on ``here``."""
        name, rqmname = attrs.get("CHANNEL", ""), attrs.get("RQMNAME", "").strip()
        if rqmname and rqmname != here:
            return Link(rqmname, "RQMNAME")
        conname = conname_keys(attrs.get("CONNAME", ""))
        known = [q for q in clusqmgrs if q.get("CHANNEL") == name and q.get("CLUSQMGR", "") not in ("", here)]
        peers = {q["CLUSQMGR"] for q in known}
        if len(peers) > 1 and conname:
            peers = {q["CLUSQMGR"] for q in known if set(conname_keys(q.get("CONNAME", ""))) & set(conname)}
        if len(peers) == 1:
            return Link(next(iter(peers)), f"DISPLAY CLUSQMGR on {here} names it the channel to")
        defined = self.by_name.get(name, set()) - {here}
        if len(defined) == 1:
            peer = next(iter(defined))
            return Link(peer, f"the model's cluster-receiver {name} is {peer}'s")
        by_address = {n for key in conname for n in self.by_conname.get(key, ())} - {here}
        by_address |= {
            q["CLUSQMGR"]
            for q in clusqmgrs
            if q.get("CLUSQMGR", "") not in ("", here)
            and set(conname_keys(q.get("CONNAME", ""))) & set(conname)
        }
        if len(by_address) == 1:
            peer = next(iter(by_address))
            return Link(peer, f"CONNAME {attrs.get('CONNAME', '').strip()} is {peer}'s")
        return Link("", _why_not(name, attrs, defined, by_address))


def _why_not(name: str, attrs: dict[str, str], defined: set[str], by_address: set[str]) -> str:
    parts = ["RQMNAME is blank"]
    if len(defined) > 1:
        parts.append(f"cluster-receivers named {name} are defined on {', '.join(sorted(defined))}")
    else:
        parts.append(f"no cluster-receiver named {name} in the model nor in DISPLAY CLUSQMGR")
    conname = attrs.get("CONNAME", "").strip()
    if len(by_address) > 1:
        parts.append(f"CONNAME {conname} is that of {', '.join(sorted(by_address))}")
    elif conname:
        parts.append(f"CONNAME {conname} matches no cluster-receiver's")
    else:
        parts.append("no CONNAME shown")
    return "; ".join(parts)


def concerns_qmgrs(attrs: dict[str, str]) -> bool:
    """The status is of a channel between queue managers (or of one whose type the capture omits)."""
    chltype = attrs.get("CHLTYPE", "").upper()
    return not chltype or chltype in BETWEEN_QMGRS
