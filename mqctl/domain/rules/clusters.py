"""Clusters and memberships: names as MQ has them; only queue managers join clusters."""

from __future__ import annotations

from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect
from mqctl.domain.names import check_mq_name
from mqctl.domain.rules.text import check_descr
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
