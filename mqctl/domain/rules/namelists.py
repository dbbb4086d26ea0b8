"""MQ namelists (CLUSNL, REPOSNL): up to 256 MQ names."""

from __future__ import annotations

from mqctl.domain.errors import InputError
from mqctl.domain.model import Namelist
from mqctl.domain.names import check_mq_name
from mqctl.domain.rules.text import NAMES_MAX, check_descr


def check(nl: Namelist) -> None:
    check_mq_name(nl.name, "namelist")
    obj = f"namelist {nl.name}"
    if len(nl.names) > NAMES_MAX:
        raise InputError(
            f"has {len(nl.names)} names; MQ allows at most {NAMES_MAX}", obj=obj, attribute="NAMES"
        )
    for name in nl.names:
        check_mq_name(name, f"namelist {nl.name} NAMES entry")
    check_descr(nl.descr, obj)
