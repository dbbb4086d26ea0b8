"""What a capture's blocks say of the model: ADMIN and API subscriptions, topic objects (DISPLAY TOPIC)
and the queue manager's attributes (DISPLAY QMGR) as edit values (``Define``, ``Alter``), each with the
block it came from; proxy subscriptions, cluster topics and queue managers, hierarchy relations,
channel and subscription statuses (and an EMS server's routes and durables) as observations; everything
else counted by what it is. The values are read with the model's one attribute table; judging and
saving them is the import service's (``services.observed``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeVar

from mqctl.domain.errors import InputError
from mqctl.domain.model import SubScope, Subscription, SubType, TopicObject, WSchema
from mqctl.domain.objects import attributes, topic_objects
from mqctl.domain.objects.edits import Alter, Define, Edit, Kind
from mqctl.domain.objects.text import parse_enum
from mqctl.domain.observed import OBSERVED_KINDS, PROXY, Observation
from mqctl.formats._located import locate
from mqctl.formats.display.ems import ROUTE
from mqctl.formats.display.reader import Block, Capture

__all__ = ["CaptureContent", "Origin", "ems_content", "mq_content"]

E = TypeVar("E", bound=StrEnum)

_NAME_OF = {
    "PROXY": "SUB",
    "TCLUSTER": "TOPIC",
    "CLUSQMGR": "CLUSQMGR",
    "PUBSUB": "QMNAME",
    "CHSTATUS": "CHANNEL",
    "SBSTATUS": "SUB",
    "TPSTATUS": "TOPICSTR",
}
"""The attribute an observation of each kind is named by."""


@dataclass(frozen=True, slots=True)
class Origin:
    """Where an edit came from: its block, and the keyword an error without one is placed at."""

    file: str
    block: Block
    fallback: str | None = None

    def place(self, err: InputError) -> InputError:
        """The domain's refusal at the keyword it names in the block, else where the block (or its
        ``fallback`` keyword) stands: positions are the capture file's."""
        block = self.block
        keyword = (err.attribute or self.fallback or "").upper()
        if keyword not in block.attrs:
            keyword = self.fallback or ""
        known = keyword in block.attrs or keyword == self.fallback
        line, column = block.at(keyword) if known else (block.line, block.column)
        return locate(err, file=self.file, line=line, column=column)


@dataclass
class CaptureContent:
    """What the captures of one node hold, in their order."""

    commands: list[str] = field(default_factory=list)
    """The kinds of the DISPLAY commands seen, once each."""
    objects: list[tuple[Edit, Origin]] = field(default_factory=list)
    """The objects' own definitions (topic objects, queue manager attributes): made before the
    subscriptions, which may name them."""
    subs: list[tuple[Edit, Origin]] = field(default_factory=list)
    observations: list[Observation] = field(default_factory=list)
    subscriptions: Counter[str] = field(default_factory=Counter)
    """ADMIN / API subscriptions, by subtype."""
    topics: int = 0
    qmgr_attributes: int = 0
    observed: Counter[str] = field(default_factory=Counter)
    """Observations, by kind."""
    not_read: Counter[str] = field(default_factory=Counter)
    skipped_lines: int = 0

    def edits(self) -> tuple[list[Edit], list[Origin]]:
        both = self.objects + self.subs
        return [e for e, _ in both], [o for _, o in both]

    def note(self, capture: Capture) -> None:
        """What a capture holds besides its blocks: its commands, what is not read, lines skipped."""
        for kind in capture.commands:
            if kind not in self.commands:
                self.commands.append(kind)
        self.not_read.update(capture.others)
        self.skipped_lines += capture.skipped


def mq_content(captures: Iterable[Capture]) -> CaptureContent:
    """A queue manager's captures: its definitions as edits, the rest as observations."""
    content = CaptureContent()
    for capture in captures:
        content.note(capture)
        for block in capture.blocks:
            _take(capture, block, content)
    return content


def ems_content(captures: Iterable[Capture]) -> CaptureContent:
    """An EMS server's tibemsadmin sessions: routes and durables are observations, nothing is an edit
    (``show durables`` lacks the selector and no-local of a static durable: ``durables.conf``, read by
    ``import ems``, stays the definition; docs/observed.md)."""
    content = CaptureContent()
    for capture in captures:
        content.note(capture)
        routes = {b.attrs["ROUTE"] for b in capture.blocks if b.kind == ROUTE}
        for block in capture.blocks:
            attrs = dict(block.attrs)
            if block.kind == ROUTE:
                key = attrs["ROUTE"]
            else:
                key = f"{attrs['TOPIC']}:{attrs['DURABLE']}"
                # a route's durable is named after the server at the other end of the route
                attrs["ROUTED"] = "YES" if attrs["DURABLE"] in routes else "NO"
            content.observations.append(Observation(block.kind, key, attrs, block.line))
            content.observed[block.kind] += 1
    return content


def _take(capture: Capture, block: Block, content: CaptureContent) -> None:
    kind, attrs = block.kind, block.attrs
    if kind == "SUB":
        subtype = attrs.get("SUBTYPE", "ADMIN").upper()
        if subtype == PROXY:
            kind = PROXY
        else:
            sub = _subscription(capture, block, subtype)
            content.subs.append(
                (Define(sub, replace=True, observed=True), Origin(capture.file, block, "SUB"))
            )
            content.subscriptions[str(sub.subtype)] += 1
            return
    if kind in OBSERVED_KINDS:
        content.observations.append(Observation(kind, attrs.get(_NAME_OF[kind], ""), attrs, block.line))
        content.observed[kind] += 1
        return
    if kind == "TOPIC":
        if topic_objects.is_system(attrs["TOPIC"]):
            content.not_read["SYSTEM topic objects"] += 1
            return
        content.objects.append((Define(_topic(capture, block), replace=True), Origin(capture.file, block)))
        content.topics += 1
        return
    if kind == "QMGR":
        changes = _qmgr_changes(capture, block)
        if changes:
            content.objects.append((Alter(Kind.NODE, capture.qmgr, changes), Origin(capture.file, block)))
            content.qmgr_attributes += len(changes)


def _text(attr: attributes.Attribute, block: Block, file: str) -> object:
    """A DISPLAY value as the model holds it: an enumeration's member, a text without MQ's padding."""
    text = block.attrs[attr.keyword]
    enum = attr.enum
    if enum is not None:
        try:
            return parse_enum(enum, text, "", attr.keyword)
        except InputError as err:
            err.obj = None
            line, column = block.at(attr.keyword)
            raise locate(err, file=file, line=line, column=column) from None
    if attr.choices:
        return text.upper()  # PSMODE(enabled): the domain judges the value
    return text if attr.field in ("topicstr", "parent") else text.rstrip(" ")


def _topic(capture: Capture, block: Block) -> TopicObject:
    """A DISPLAY TOPIC block as the object's definition (DEFINE REPLACE: what it does not show is the
    default), its attributes those of the model's one table."""
    topic = TopicObject(node=capture.qmgr, name=block.attrs["TOPIC"], topicstr="")
    for attr in attributes.TOPIC:
        if block.attrs.get(attr.keyword, "") != "":
            setattr(topic, attr.field, _text(attr, block, capture.file))
    return topic


def _qmgr_changes(capture: Capture, block: Block) -> dict[str, object]:
    """A DISPLAY QMGR block's modelled attributes (the model's one table) that it shows a value of."""
    return {
        attr.field: _text(attr, block, capture.file)
        for attr in attributes.NODE
        if block.attrs.get(attr.keyword, "") != ""
    }


def _enum(enum: type[E], block: Block, keyword: str, default: E, file: str) -> E:
    text = block.attrs.get(keyword, "")
    if not text or text == default.value:  # the common case, without a lookup
        return default
    text = text.upper()
    try:
        return enum(text)
    except ValueError:
        line, column = block.at(keyword)
        allowed = "|".join(m.value for m in enum)
        raise InputError(
            f"{text!r} is not one of {allowed}", attribute=keyword, file=file, line=line, column=column
        ) from None


def _subscription(capture: Capture, block: Block, subtype: str) -> Subscription:
    """A DISPLAY SUB block (ADMIN or API) as the subscription it shows: TOPICSTR resolved (``Define``'s
    ``observed``), a TOPICOBJ of MQ's predefined objects left out."""
    a = block.attrs
    file = capture.file
    if subtype not in ("ADMIN", "API"):
        line, column = block.at("SUBTYPE")
        raise InputError(
            f"{subtype!r} is not one of ADMIN|API|PROXY",
            attribute="SUBTYPE",
            file=file,
            line=line,
            column=column,
        )
    topicobj = a.get("TOPICOBJ", "")
    if topic_objects.is_system(topicobj):
        topicobj = ""
    return Subscription(
        capture.qmgr,
        a.get("SUB", "") or a.get("SUBID", ""),
        a["TOPICSTR"],
        selector=a.get("SELECTOR") or None,
        durable=a.get("DURABLE", "YES").upper() != "NO",
        subscope=_enum(SubScope, block, "SUBSCOPE", SubScope.ALL, file),
        wschema=_enum(WSchema, block, "WSCHEMA", WSchema.TOPIC, file),
        dest=a.get("DEST", ""),
        destqmgr=a.get("DESTQMGR", ""),
        topicobj=topicobj,
        source_file=file,
        source_line=block.line,
        subtype=SubType.API if subtype == "API" else SubType.ADMIN,
        subid=a.get("SUBID", ""),
    )
