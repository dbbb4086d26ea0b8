"""Saved ``tibemsadmin`` sessions: the ``show routes`` and ``show durables`` tables read back.

tibemsadmin echoes each command after its prompt (``tcp://host:7222> show routes``), then prints a
header line and one row per object, columns separated by blanks. TIBCO documents the columns
(EMS User's Guide, "show routes" and "show durables"):

- ``show routes``: ``Route``, ``T`` (A active, P passive), ``ConnID`` (``-`` when the server at the other
  end is not connected), ``URL``, ``Zone`` (ZoneName), ``T`` (ZoneType: ``m`` multi-hop, ``1`` one-hop);
- ``show durables``: ``Topic Name`` (a leading ``*`` marks a dynamic durable), ``Durable``, ``Shared``
  (Y/N, absent in older releases), ``User`` (``offline`` when not connected), ``Msgs``, ``Size``.

The result is the same ``Capture`` as runmqsc output gives, with blocks of kind ``ROUTE`` and
``DURABLE``; every other command echoed is counted by its name. The server comes from ``--qmgr``, else
from the ``Server:`` line of an ``info`` / ``show server`` answer in the session.
"""

from __future__ import annotations

import re
from datetime import datetime

from mqctl.domain.errors import clip
from mqctl.formats.display.reader import CAPTURED, NOT_A_CAPTURE, Block, Capture, capture_time, fail

__all__ = ["ROUTE", "DURABLE", "is_ems_capture", "is_tibemsadmin", "read_tibemsadmin"]

ROUTE, DURABLE = "ROUTE", "DURABLE"

PROMPT = re.compile(r"^((?:tcp|ssl)://\S*?|tibemsadmin)>\s?(.*)$", re.IGNORECASE)
SCRIPTED = re.compile(r"^Command:\s*(.*)$")
"""What ``tibemsadmin -script FILE`` prints before each command's answer (scripts, monitoring agents)."""
OFFLINE = ("offline", "<offline>")
"""The User of a durable whose subscriber is not connected: ``offline`` (EMS 8), ``<offline>`` (EMS 10)."""
_TOOL = "TIBCO Enterprise Message Service Administration Tool"
_SERVER = re.compile(r"^\s*Server:\s+(\S+)")
_TOKEN = re.compile(r"\S+")
_ROUTE_HEADER = ("ROUTE", "T", "CONNID", "URL")
_DURABLE_FIRST = ("TOPIC", "NAME", "DURABLE")


def is_tibemsadmin(text: str) -> bool:
    """A tibemsadmin session: the tool's banner, or a prompt line with a command after it."""
    head = text.lstrip()[:4096]
    if head.startswith(_TOOL):
        return True
    return any(
        PROMPT.match(line) is not None or SCRIPTED.match(line) is not None for line in head.splitlines()[:50]
    )


def is_ems_capture(capture: Capture) -> bool:
    """A tibemsadmin session's capture (``read_tibemsadmin``): its blocks are routes and durables."""
    return ROUTE in capture.commands or DURABLE in capture.commands


def _tokens(text: str) -> list[tuple[int, str]]:
    return [(m.start() + 1, m.group()) for m in _TOKEN.finditer(text)]


def _route(row: list[tuple[int, str]], number: int, line: str, file: str) -> Block:
    if len(row) != 6:
        column = row[6][0] if len(row) > 6 else len(line) + 1
        raise fail(
            f"a route row has {len(row)} columns, not 6 (Route T ConnID URL Zone T)", file, number, column
        )
    (_, name), (tc, kind), (cc, connid), (_, url), (_, zone), (zc, ztype) = row
    if kind.upper() not in ("A", "P"):
        raise fail(f"route type {clip(kind)!r} is not A or P", file, number, tc)
    if connid != "-" and not connid.isdigit():
        raise fail(f"ConnID {clip(connid)!r} is neither a number nor '-'", file, number, cc)
    if ztype.lower() not in ("m", "1"):
        raise fail(f"zone type {clip(ztype)!r} is not m or 1", file, number, zc)
    attrs = {
        "ROUTE": name,
        "TYPE": "ACTIVE" if kind.upper() == "A" else "PASSIVE",
        "CONNID": connid,
        "CONNECTED": "NO" if connid == "-" else "YES",
        "URL": url,
        "ZONE": zone,
        "ZONETYPE": "MHOP" if ztype.lower() == "m" else "1HOP",
    }
    return Block(ROUTE, attrs, number, row[0][0], text=line, first=number)


def _durable(row: list[tuple[int, str]], shared: bool, number: int, line: str, file: str) -> Block:
    fixed = 5 if shared else 4  # Topic, Durable, [Shared], User, Msgs; then Size ("1.2 Kb": one or two)
    if len(row) < fixed + 1 or len(row) > fixed + 2:
        column = row[fixed + 2][0] if len(row) > fixed + 2 else len(line) + 1
        header = (
            "Topic Name, Durable, Shared, User, Msgs, Size"
            if shared
            else "Topic Name, Durable, User, Msgs, Size"
        )
        raise fail(f"a durable row does not have the columns {header}", file, number, column)
    topic, durable = row[0][1], row[1][1]
    rest = row[2:]
    flag = ""
    if shared:
        flag = rest[0][1].upper()
        if flag not in ("Y", "N"):
            raise fail(f"Shared {clip(rest[0][1])!r} is not Y or N", file, number, rest[0][0])
        rest = rest[1:]
    user, (mc, msgs) = rest[0][1], rest[1]
    if not msgs.isdigit():
        raise fail(f"Msgs {clip(msgs)!r} is not a number", file, number, mc)
    dynamic = topic.startswith("*")
    external = user.startswith("*") and len(user) > 1  # a user defined outside the server (LDAP)
    user = user[1:] if external else user
    online = "NO" if user.lower() in OFFLINE else "SHARED" if user.lower() == "shared" else "YES"
    attrs = {
        "TOPIC": topic[1:] if dynamic else topic,
        "DURABLE": durable,
        "DYNAMIC": "YES" if dynamic else "NO",
        "USER": user,
        "EXTERNAL_USER": "YES" if external else "NO",
        "ONLINE": online,
        "MSGS": msgs,
        "SIZE": " ".join(t for _, t in rest[2:]),
    }
    if shared:
        attrs["SHARED"] = "YES" if flag == "Y" else "NO"
    return Block(DURABLE, attrs, number, row[0][0], text=line, first=number)


def _command(capture: Capture, text: str) -> str:
    """The table the command's answer is (ROUTE, DURABLE), else "" (and the command counted by name)."""
    command = " ".join(text.split()).lower()
    table = {"show routes": ROUTE, "show durables": DURABLE}.get(" ".join(command.split()[:2]), "")
    if table:
        capture.saw(table)
    elif command and command not in ("exit", "quit", "info", "show server"):  # these name the server
        capture.others[" ".join(command.split()[:2])] += 1
    return table


def _holds(capture: Capture) -> str:
    """What a session without a ``show routes`` or ``show durables`` answer holds, in a few words."""
    names = sorted(capture.others)
    total = sum(capture.others.values())
    if not total:
        return "holds no 'show routes' nor 'show durables' command"
    listed = ", ".join(clip(n) for n in names[:3]) + (", ..." if len(names) > 3 else "")
    noun = "command" if total == 1 else "commands"
    return f"{total} {noun} ({listed}), none of them 'show routes' nor 'show durables'"


def read_tibemsadmin(text: str, *, file: str, qmgr: str | None = None) -> Capture:
    """The routes and durables a saved tibemsadmin session shows; ``qmgr`` is the EMS server."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    server: tuple[str, int, int] | None = None
    captured_at: datetime | None = None
    capture = Capture(file, qmgr or "", (1, 1), None)
    table = ""  # ROUTE / DURABLE while reading that command's answer
    header = False
    shared = True
    first: tuple[int, int] | None = None  # the first command line
    for number, line in enumerate(text.split("\n"), start=1):
        prompt = PROMPT.match(line) or SCRIPTED.match(line)
        if prompt is not None:
            first = first or (number, 1)
            table, header = _command(capture, prompt.group(prompt.lastindex or 1)), False
            continue
        stamp = CAPTURED.match(line)
        if stamp is not None:
            captured_at = capture_time(stamp.group(1), file, number, line.find(stamp.group(1)) + 1)
            continue
        found = _SERVER.match(line)
        if found is not None and server is None:
            server = (found.group(1), number, found.start(1) + 1)
            continue
        if not table or not line.strip():
            continue
        row = _tokens(line)
        if not header:
            words = tuple(w.upper() for _, w in row)
            if table == ROUTE and words[:4] == _ROUTE_HEADER:
                header = True
                continue
            if table == DURABLE and words[:3] == _DURABLE_FIRST:
                header, shared = True, "SHARED" in words
                continue
            if len(row) == 1 and row[0][1].lower().startswith("no"):
                continue  # "No routes", "No durables" style answers
            expected = "Route T ConnID URL Zone T" if table == ROUTE else "Topic Name Durable ... Msgs Size"
            raise fail(f"a row before the column header ({expected})", file, number, row[0][0])
        if table == ROUTE:
            capture.blocks.append(_route(row, number, line, file))
        else:
            capture.blocks.append(_durable(row, shared, number, line, file))
    if not capture.commands:
        raise fail(f"{_holds(capture)}: {NOT_A_CAPTURE}", file, *(first or (1, 1)))
    if server is not None:
        name, line_no, column = server
        if qmgr is not None and qmgr != name:
            raise fail(f"session of EMS server {clip(name)}, not of {qmgr} (--qmgr)", file, line_no, column)
        capture.qmgr, capture.qmgr_at = name, (line_no, column)
    if not capture.qmgr:
        raise fail("names no EMS server (no 'Server:' line): give --qmgr", file, 1, 1)
    capture.captured_at = captured_at
    return capture
