"""Checked constructors shared by the EMS file readers and the tibemsadmin interpreter.

Each takes items already split with their columns and returns model objects, raising ``InputError``
at the exact file position of the mistake.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from mqctl.domain.errors import InputError, escaped
from mqctl.domain.model import Dialect, Direction, NodeState, RouteSelector, Subscription, ZoneType
from mqctl.domain.names import check_ems_server_name
from mqctl.domain.objects.apply import apply
from mqctl.domain.objects.edits import Define
from mqctl.formats._checks import check_selector_at, check_topic, on_line
from mqctl.formats._located import locate
from mqctl.formats.ems.props import Prop

DIRECTIONS = {"incoming_topic": Direction.INCOMING, "outgoing_topic": Direction.OUTGOING}
T = TypeVar("T")


def rule_at(
    check: Callable[..., None], *args: object, file: str | None, line: int | None, column: int | None
) -> None:
    """Run a domain rule (``mqctl.domain.objects``) on what a line built; an error gets the line's position."""
    try:
        check(*args)
    except InputError as err:
        raise locate(err, file=file, line=line, column=column) from None


def define(state: NodeState, edit: Define, seq: int) -> None:
    """A definition a file reads, made by the domain's one ``apply`` with the sequence read with it (a
    file defines each object once: duplicates are refused where they are read)."""
    apply(state, edit, seq=seq)


def sourced(obj: T, file: str | None, line: int | None) -> T:
    """Record where a definition came from (for validate's findings)."""
    if file is not None:
        obj.source_file = escaped(file)  # type: ignore[attr-defined]
        obj.source_line = line  # type: ignore[attr-defined]
    return obj


def check_pattern(topic: str, *, line: int, column: int, file: str | None) -> str:
    """An EMS topic name or wildcard pattern (semantics §2)."""
    check_topic(topic, Dialect.EMS, on_line(line, column), file=file, pattern=True)
    return topic


def check_server(name: str, *, line: int | None, column: int | None, file: str | None) -> str:
    try:
        check_ems_server_name(name)
    except InputError as err:
        raise locate(err, file=file, line=line, column=column) from None
    return name


def zone_type(value: str, *, line: int, column: int, file: str | None) -> ZoneType:
    try:
        return ZoneType(value.lower())
    except ValueError:
        raise InputError(
            f"bad zone_type {value!r}; expected mhop or 1hop", file=file, line=line, column=column
        ) from None


def selectors_from(
    props: list[Prop], *, node: str, peer: str, line: int, file: str | None
) -> tuple[list[RouteSelector], list[Prop]]:
    """Take the ``incoming_topic=T selector="..."`` pairs out of ``props``; returns them and the rest."""
    selectors: list[RouteSelector] = []
    rest: list[Prop] = []
    i = 0
    while i < len(props):
        prop = props[i]
        direction = DIRECTIONS.get(prop.key)
        if direction is None:
            if prop.key == "selector":
                raise InputError(
                    "selector= must follow incoming_topic=T or outgoing_topic=T",
                    file=file,
                    line=line,
                    column=prop.column,
                )
            rest.append(prop)
            i += 1
            continue
        if not prop.value:
            raise InputError(
                f"{prop.key} needs a topic, such as {prop.key}=orders",
                file=file,
                line=line,
                column=prop.column,
            )
        check_pattern(prop.value, line=line, column=prop.value_column, file=file)
        nxt = props[i + 1] if i + 1 < len(props) else None
        if nxt is None or nxt.key != "selector" or nxt.value is None:
            column = nxt.column if nxt is not None else prop.value_column + len(prop.value)
            raise InputError(
                f'{prop.key}={prop.value} needs a selector: expected selector="..." after it',
                file=file,
                line=line,
                column=column,
            )
        text, vcol = nxt.value, nxt.value_column
        check_selector_at(text, on_line(line, vcol), file=file)
        selectors.append(
            RouteSelector(node=node, peer=peer, direction=direction, topic=prop.value, selector=text)
        )
        i += 2
    return selectors, rest


def durable(
    node: str, topic: str, name: str, props: list[Prop], *, line: int, file: str | None
) -> Subscription:
    """A durable subscription as ``durables.conf`` and tibemsadmin's ``create durable`` give it: ``topic
    durable-name [route] [clientid=..] [nolocal] [selector="..."]`` (the selector checked where it is
    written, the other properties kept as given)."""
    sub = Subscription(node=node, name=name, topicstr=topic, durable=True)
    for prop in props:
        if prop.key in sub.properties or (prop.key == "selector" and sub.selector is not None):
            raise InputError(f"{prop.key} is repeated", file=file, line=line, column=prop.column)
        if prop.key == "selector":
            if prop.value is None:
                raise InputError(
                    'selector needs a value: selector="..."', file=file, line=line, column=prop.column
                )
            check_selector_at(prop.value, on_line(line, prop.value_column), file=file)
            sub.selector = prop.value
        else:
            sub.properties[prop.key] = prop.value
    return sub
