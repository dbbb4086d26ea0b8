"""What a file given to the wrong door looks like: an MQSC script, runmqsc DISPLAY output, one of EMS's
configuration files, a tibemsadmin script.

A door that refuses a file (``import mqsc routes.conf``, ``import ems --tibemsd topics.conf``, ``import
display us2.mqsc``) adds the door the file belongs to (``this looks like an EMS routes.conf: use import
ems --routes``), so the mistake is named, not only the first line that does not parse. Pure: it reads the
first lines that say something and guesses; a guess it cannot make is no hint.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mqctl.formats.ems.props import TOPIC_PROPERTIES
from mqctl.formats.mqsc.vocabulary import NOUNS, VERBS

LOOKED_AT = 20
"""Lines that say something (not blank, not a comment) read before guessing: a file's head says what it is."""


@dataclass(frozen=True, slots=True)
class Kind:
    what: str
    """``an MQSC script``."""
    door: str
    """The command that takes it: ``runmqsc or import mqsc``."""
    sure: bool = False
    """Its marks leave no doubt (``this is``), else a guess (``this looks like``)."""


MQSC = Kind("an MQSC script", "runmqsc or import mqsc", sure=True)
DISPLAY = Kind("saved runmqsc DISPLAY output", "import display", sure=True)
TIBEMSD = Kind("an EMS tibemsd.conf", "import ems --tibemsd")
TOPICS = Kind("an EMS topics.conf", "import ems --topics (with --server)")
ROUTES = Kind("an EMS routes.conf", "import ems --routes (with --server)", sure=True)
DURABLES = Kind("an EMS durables.conf", "import ems --durables (with --server)")
TIBEMSADMIN = Kind("a tibemsadmin script", "tibemsadmin")
JSON = Kind("a JSON document", "import ems --tibemsd (tibemsd.json) or import display (runCommandJSON)")

_ECHO = re.compile(r"^\s*\d+\s:\s")
_DISPLAY_MARK = re.compile(r"^(AMQ\d{4,5}[A-Z]?:|Starting MQSC for queue manager |5724-H72 )")
_SECTION = re.compile(r"^\[[^\]]+\]$")
_KEY_VALUE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*\s*=")
_ADMIN_VERBS = frozenset({"create", "delete", "addprop", "setprop", "removeprop", "show", "grant", "revoke"})
_ADMIN_NOUNS = frozenset(
    {"topic", "topics", "route", "routes", "durable", "durables", "queue", "queues", "user"}
)
_EMS_NAME = re.compile(r"^[^\s=,\"']+$")


def looks_like(text: str) -> Kind | None:
    """The kind of file ``text`` is, judged by its first lines that say something; None when unsure."""
    head = text.lstrip("\ufeff")
    if head.lstrip().startswith(("{", "[{")):
        return DISPLAY if '"commandResponse"' in head[:4096] else JSON
    lines = []
    for raw in head.splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            lines.append((raw, line))
        if len(lines) >= LOOKED_AT:
            break
    if any(_DISPLAY_MARK.match(line) or _ECHO.match(raw) for raw, line in lines):
        return DISPLAY
    said = [line for _, line in lines if not line.startswith("*")]  # MQSC comments
    if not said:
        return None
    if any(_SECTION.match(line) for line in said):
        return ROUTES
    words = said[0].split()
    first = words[0]
    if first.upper() in VERBS and len(words) > 1 and words[1].split("(")[0].upper() in NOUNS:
        return MQSC
    if first.lower() in _ADMIN_VERBS and len(words) > 1 and words[1].lower() in _ADMIN_NOUNS:
        return TIBEMSADMIN
    if all(_KEY_VALUE.match(line) for line in said):
        return TIBEMSD
    if _EMS_NAME.match(first) and len(words) > 1:
        second = re.split(r"[=,\s]", words[1], maxsplit=1)[0].lower()
        return TOPICS if second in TOPIC_PROPERTIES else DURABLES
    if _EMS_NAME.match(first) and len(words) == 1 and first.lower() not in TOPIC_PROPERTIES:
        return TOPICS  # a topic with no property: "orders.>"
    return None


def hint(text: str, door: Kind) -> str:
    """``"; this looks like an EMS routes.conf: use import ems --routes"``, or ``""`` when ``text`` looks like
    what ``door`` reads, or like nothing known."""
    kind = looks_like(text)
    if kind is None or kind == door or (door == TIBEMSD and kind == JSON):
        return ""
    return f"; this {'is' if kind.sure else 'looks like'} {kind.what}: use {kind.door}"
