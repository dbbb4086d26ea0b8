"""MQ namelists (CLUSNL, REPOSNL): up to 256 MQ names."""

from __future__ import annotations

from mqctl.domain.errors import InputError
from mqctl.domain.model import Namelist
from mqctl.domain.names import check_mq_name
from mqctl.domain.rules.text import NAMES_MAX, check_descr
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
