"""Object names as each product allows them (checked at every boundary: CLI, MQSC, EMS files)."""

from __future__ import annotations

import re

from mqctl.domain.errors import InputError, clip
from mqctl.domain.model import Dialect
from mqctl.domain.valid_text import check_text

MQ_NAME_MAX = 48
EMS_SERVER_MAX = 64
MQ_SUB_NAME_MAX = 10240
_MQ_NAME = re.compile(r"[A-Za-z0-9._/%]+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_EMS_SERVER_BAD = frozenset("[]\"',=/\\")
"""Besides routes.conf's structure: a server name names a folder (``export ems --all`` writes
``OUT/SERVER/``), so it holds no path separator; with no dot allowed either, it is one plain folder name."""


NO_SLASH = frozenset({"qmgr", "cluster"})
"""Queue manager and cluster names cannot hold a '/' (other MQ object names can)."""


def check_mq_name(name: str, kind: str) -> None:
    """MQ object names: 1-48 of A-Z a-z 0-9 . / _ %, without '/' for queue managers and clusters (their
    names also name files and channels)."""
    if not name:
        raise InputError(f"{kind} name is empty", obj=kind)
    if len(name) > MQ_NAME_MAX:
        raise InputError(
            f"name is {len(name)} characters long; MQ allows at most {MQ_NAME_MAX}", obj=f"{kind} {name}"
        )
    if not _MQ_NAME.fullmatch(name):
        check_text(name, obj=f"{kind} {name}", what="the name")
        bad = next(c for c in name if not _MQ_NAME.fullmatch(c))
        raise InputError(
            f"character {bad!r} is not allowed in an MQ name (use A-Z a-z 0-9 . / _ %)", obj=f"{kind} {name}"
        )
    if kind in NO_SLASH and "/" in name:
        raise InputError(f"a {kind} name cannot contain '/' (use A-Z a-z 0-9 . _ %)", obj=f"{kind} {name}")


def check_ems_server_name(name: str) -> None:
    """EMS server names: at most 64 characters, no dot, no blank, nothing that would change the
    structure of routes.conf (``[NAME]`` sections) or start a comment, and no '/' or '\\' (a server
    name is a folder name of ``export ems --all``, as a queue manager's is a file name)."""
    if not name:
        raise InputError("server name is empty", obj="server")
    if len(name) > EMS_SERVER_MAX:
        raise InputError(
            f"name is {len(name)} characters long; EMS allows at most {EMS_SERVER_MAX}", obj=f"server {name}"
        )
    if "." in name or any(c.isspace() for c in name):
        raise InputError("an EMS server name cannot contain a dot or a blank", obj=f"server {name}")
    bad = next((c for c in name if c in _EMS_SERVER_BAD or not c.isprintable()), None)
    if bad is not None:
        check_text(name, obj=f"server {name}", what="the name")
        raise InputError(f"character {bad!r} is not allowed in an EMS server name", obj=f"server {name}")
    if name.startswith("#"):
        raise InputError("an EMS server name cannot start with '#'", obj=f"server {name}")


def node_label(dialect: Dialect) -> str:
    """How users call a node in messages: a queue manager (`qmgr`) or an EMS `server`."""
    return "qmgr" if dialect is Dialect.MQ else "server"


def check_node_name(name: str, dialect: Dialect) -> None:
    if dialect is Dialect.EMS:
        check_ems_server_name(name)
    else:
        check_mq_name(name, "qmgr")


def check_subscription_name(name: str, dialect: Dialect) -> None:
    """MQ subscription names are long and free (up to 10,240 characters, blanks allowed); an EMS durable
    name is one token of durables.conf, so it holds no blank."""
    if not name or not name.strip():
        raise InputError("subscription name is empty", obj="sub")
    if len(name) > MQ_SUB_NAME_MAX:
        raise InputError(f"name is longer than {MQ_SUB_NAME_MAX} characters", obj=f"sub {name[:40]}...")
    if not name.isascii():
        check_text(name, obj=f"sub {clip(name)}", what="the name")
    if _CONTROL.search(name):
        raise InputError("control characters are not allowed in a subscription name", obj=f"sub {name!r}")
    if dialect is Dialect.EMS and (any(c.isspace() for c in name) or name.startswith("#") or '"' in name):
        raise InputError(
            "an EMS durable name cannot hold a blank or a double quote, nor start with '#'",
            obj=f"sub {name!r}",
        )
