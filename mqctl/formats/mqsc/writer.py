"""Write a queue manager's model as a ``dmpmqcfg -o mqsc`` style script, and read a dump's header.

Layout as dmpmqcfg prints it: ``*`` header comments, then each object as ``DEFINE TYPE('NAME') +``
with one attribute per line and ``REPLACE`` last. Every name and string is quoted (quotes doubled), so
running the script back (``apply_mqsc``) gives the same model (sequences aside). Exported text cannot
change the script's shape: a value holding a line break is refused (``check_mqsc_text``), and the header
carries ``LITERAL_MARKER`` so that ``+NAME+`` in a value reads back as written, not as an insert
(``X+QMNAME+Y`` came back ``XRTY``). One difference from dmpmqcfg:
namelists come before ``ALTER QMGR`` and the channels, because mqctl reads REPOSNL and CLUSNL
namelists when the command runs. With several full-repository clusters and no namelist holding
exactly them, the writer adds a namelist ``MQCTL.REPOS`` for REPOSNL.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from enum import StrEnum

from mqctl.domain.errors import InputError
from mqctl.domain.file_values import check_mqsc_text
from mqctl.domain.memberships import REPOS_NAMELIST, full_repositories
from mqctl.domain.model import Channel, Namelist, NodeState, Subscription, TopicObject
from mqctl.domain.names import check_mq_name
from mqctl.domain.objects import attributes
from mqctl.domain.objects.attributes import Attribute
from mqctl.formats._located import locate
from mqctl.formats.mqsc.lexer import LITERAL_MARKER, header_comments
from mqctl.formats.mqsc.vocabulary import QMGR_ORDER, TOPIC_ORDER

_HEADER_QMGR = re.compile(r"\*\s*Queue manager name:(.*)$", re.IGNORECASE)

# The attributes written, from the attribute table (``domain.objects.attributes``) in dmpmqcfg's order;
# an attribute the table gains is written after these until its place is chosen.
TOPIC_ATTRS = attributes.laid_out(attributes.TOPIC, TOPIC_ORDER)
SUB_ORDER = ("TOPICOBJ", "TOPICSTR", "DEST", "DESTQMGR", "SELECTOR")
SUB_ATTRS = attributes.laid_out(attributes.SUB, SUB_ORDER)
"""TOPICOBJ and TOPICSTR are written together (``_sub_attrs``); the others as the table gives them."""
NAMELIST_ATTRS = attributes.laid_out(attributes.NAMELIST, ("DESCR", "NAMES"))
QMGR_ATTRS = attributes.laid_out(attributes.NODE, QMGR_ORDER)
"""ALTER QMGR's attributes; REPOS and REPOSNL (the node's memberships) follow them."""
CHANNEL_ATTRS = attributes.CHANNEL


def dump_header_qmgr(text: str, *, file: str | None = None) -> str | None:
    """The queue manager name from a dmpmqcfg header (``* Queue manager name: QM1``), if present.

    Only the leading comment lines are the header. The name is checked as MQ checks names
    (``check_mq_name``): a header naming something else (``../escape``, ``QM 1``) is an ``InputError``
    at its line, never taken as a queue manager (or file) name.
    """
    for number, line in header_comments(text):
        m = _HEADER_QMGR.match(line)
        if m is None:
            continue
        name = m.group(1).strip()
        try:
            check_mq_name(name, "qmgr")
        except InputError as err:
            err.message = f"the dmpmqcfg header names the queue manager {name!r}: {err.message}"
            raise locate(err, file=file, line=number, column=m.start(1) + 1) from None
        return name
    return None


def quote(value: str) -> str:
    """An MQSC quoted string: quotes doubled; a blank string as ``' '``, as dmpmqcfg writes it.

    A line break cannot be quoted (a string ends with its line): ``InputError``."""
    check_mqsc_text(value, "value")
    return "'" + (value or " ").replace("'", "''") + "'"


def attribute_value(attr: Attribute, value: object) -> str:
    """An attribute's value as dmpmqcfg writes it: an enumeration or a chosen word bare, a number as
    digits, a list of names quoted one by one, any other text quoted (none as blank)."""
    if isinstance(value, StrEnum):
        return value.value
    if attr.choices or (attr.type is int and isinstance(value, int)):
        return str(value)
    if isinstance(value, tuple):
        return ",".join(quote(n) for n in value) or "''"
    return quote(str(value or ""))


def keyword_items(obj: object, table: tuple[Attribute, ...]) -> list[str]:
    """``KEYWORD(value)`` for each attribute a DEFINE or ALTER gives, in ``table``'s order."""
    return [f"{a.keyword}({attribute_value(a, getattr(obj, a.field))})" for a in table if a.command]


@contextmanager
def _about(obj: str) -> Iterator[None]:
    """Name the object whose value could not be written."""
    try:
        yield
    except InputError as err:
        err.obj = obj
        raise


def _block(head: str, attrs: list[str], last: str = "REPLACE") -> list[str]:
    lines = [f"{head} +"]
    lines.extend(f"   {a} +" for a in attrs)
    lines.append(f"   {last}")
    return lines


def write_mqsc(
    state: NodeState, *, generated: datetime | None = None, user: str = "mqctl", host: str = "mqctl"
) -> str:
    """The whole model of one queue manager as an MQSC script; the header's time is ``generated``, the
    time of the export unless given."""
    when = generated or datetime.now()
    name = state.node.name
    out = [
        f"* Script generated on {when:%Y-%m-%d}   at {when:%H.%M.%S}",
        f"* Script generated by user {quote(user)} on host {quote(host)}",
        f"* Queue manager name: {name}",
        "* Queue manager platform: UNIX",
        "* Queue manager command level: 940/940",
        f"* Command issued: dmpmqcfg -m {name} -a",
        LITERAL_MARKER,
    ]
    namelists = dict(state.namelists)
    repos = sorted(full_repositories(state))
    reposnl = ""
    if len(repos) > 1:
        reposnl = next((n.name for n in namelists.values() if sorted(n.names) == repos), "")
        if not reposnl:
            reposnl = REPOS_NAMELIST
            namelists[reposnl] = Namelist(
                node=name,
                name=reposnl,
                names=tuple(repos),
                descr="full repository clusters (written by mqctl)",
            )
    for nl in sorted(namelists.values(), key=lambda n: n.name):
        with _about(f"namelist {nl.name}"):
            out += _block(f"DEFINE NAMELIST({quote(nl.name)})", keyword_items(nl, NAMELIST_ATTRS))
    node = state.node
    with _about(f"qmgr {name}"):
        qmgr = [
            *keyword_items(node, QMGR_ATTRS),
            f"REPOS({quote(repos[0] if len(repos) == 1 else '')})",
            f"REPOSNL({quote(reposnl)})",
        ]
    out += _block("ALTER QMGR", qmgr, last="FORCE")
    for ch in sorted(state.channels.values(), key=lambda c: c.name):
        with _about(f"channel {ch.name}"):
            out += _channel(ch)
    for t in sorted(state.topics.values(), key=lambda t: t.name):
        with _about(f"topic {t.name}"):
            out += _topic(t)
    for s in sorted(state.subscriptions.values(), key=lambda s: s.name):
        with _about(f"sub {s.name}"):
            out += _block(f"DEFINE SUB({quote(s.name)})", sub_keyword_items(state, s))
    return "\n".join(out) + "\n"


def _channel(ch: Channel) -> list[str]:
    return _block(f"DEFINE CHANNEL({quote(ch.name)})", keyword_items(ch, CHANNEL_ATTRS))


def _topic(t: TopicObject) -> list[str]:
    return _block(f"DEFINE TOPIC({quote(t.name)})", ["TYPE(LOCAL)", *keyword_items(t, TOPIC_ATTRS)])


def sub_keyword_items(state: NodeState, s: Subscription) -> list[str]:
    """TOPICOBJ and the remaining TOPICSTR when the object still gives the prefix, else the full string;
    then the others."""
    attrs: list[str] = []
    obj = state.topics.get(s.topicobj) if s.topicobj else None
    if obj is not None and (s.topicstr == obj.topicstr or s.topicstr.startswith(obj.topicstr + "/")):
        attrs.append(f"TOPICOBJ({quote(s.topicobj)})")
        tail = s.topicstr[len(obj.topicstr) + 1 :]
        if tail:
            attrs.append(f"TOPICSTR({quote(tail)})")
    else:
        attrs.append(f"TOPICSTR({quote(s.topicstr)})")
    managed = not s.dest.strip()
    for attr in SUB_ATTRS:
        value = getattr(s, attr.field)
        if attr.field in ("topicobj", "topicstr") or not attr.command:
            continue
        if attr.default is None and not value:  # SELECTOR: written only when there is one
            continue
        if managed and attr.field in ("dest", "destqmgr") and not str(value).strip():
            continue  # a managed destination: the queue manager makes it (DESTCLAS below)
        attrs.append(f"{attr.keyword}({attribute_value(attr, value)})")
    if managed:
        # no DEST: a queue manager takes DEFINE SUB only with DESTCLAS(MANAGED), as DISPLAY SUB shows it
        attrs.append("DESTCLAS(MANAGED)")
    return attrs
