"""MQ namelists (CLUSNL, REPOSNL): up to 256 MQ names.

Memberships follow the namelists a CLUSRCVR channel names (``domain.memberships``), so every change
re-derives them. MQ deletes a namelist that a channel names (the channel then gives no membership until
the namelist is defined again): so does every door.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from mqctl.domain.errors import InputError
from mqctl.domain.memberships import rederive
from mqctl.domain.model import Namelist, NodeState
from mqctl.domain.names import check_mq_name
from mqctl.domain.objects.edit import changed, refuse_existing, require
from mqctl.domain.objects.text import NAMES_MAX, check_descr
from mqctl.domain.valid_text import check_definition_text


def check(nl: Namelist) -> None:
    obj = f"namelist {nl.name}"
    check_definition_text(nl, obj)
    check_mq_name(nl.name, "namelist")
    if len(nl.names) > NAMES_MAX:
        raise InputError(
            f"has {len(nl.names)} names; MQ allows at most {NAMES_MAX}", obj=obj, attribute="NAMES"
        )
    for name in nl.names:
        check_mq_name(name, f"namelist {nl.name} NAMES entry")
    check_descr(nl.descr, obj)


def define(state: NodeState, nl: Namelist, *, replace: bool, seq: int) -> bool:
    old = state.namelists.get(nl.name)
    refuse_existing(old, replace, f"namelist {nl.name}")
    check(nl)
    state.namelists[nl.name] = dataclasses.replace(nl, seq=seq)
    rederive(state, seq=seq, released=set(old.names) if old is not None else set())
    return old is not None


def alter(state: NodeState, name: str, changes: Mapping[str, Any], *, seq: int) -> Namelist:
    old = require(state.namelists, name, f"namelist {name}", state.node.name)
    new = changed(old, changes, seq)
    check(new)
    state.namelists[name] = new
    rederive(state, seq=seq, released=set(old.names))
    return new


def delete(state: NodeState, name: str, *, seq: int) -> Namelist:
    old = require(state.namelists, name, f"namelist {name}", state.node.name)
    del state.namelists[name]
    rederive(state, seq=seq, released=set(old.names))
    return old
