"""Run a tibemsadmin script against one EMS server's ``NodeState`` in memory.

Modelled: ``create|delete topic NAME``, ``addprop|setprop|removeprop topic NAME props`` (setprop
replaces every property), ``create route NAME url=.. [zone_name=..] [zone_type=..] [props]``,
``delete route NAME``, ``setprop|addprop|removeprop route NAME props`` (selectors as
``outgoing_topic=T selector="..."``), ``show topics``, ``show topic NAME`` (a concrete name takes the
properties of every definition matching it), ``show routes`` (with their selectors), ``show route NAME``,
``create durable TOPIC NAME [props]`` (props as in durables.conf: ``clientid=``, ``nolocal``,
``selector="..."``, ``route``) and ``delete durable NAME [CLIENTID]``.
``#`` comments and blank lines are skipped; any other command is counted as not modelled. Command words
are case-insensitive, names are not. A topic property EMS does not document is kept and reported once per
script. Same all-or-nothing rule as MQSC: without ``continue_on_error`` a script with any error leaves
``state`` untouched, and the replies of its valid changes say they were not applied.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from mqctl.domain.ems_topics import definitions_for, effective_properties
from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect, NodeState, Route, RouteSelector, TopicObject, ZoneType
from mqctl.domain.objects import route_selectors
from mqctl.domain.objects.apply import apply
from mqctl.domain.objects.edit import AlreadyDefined, NotDefined, changes_between
from mqctl.domain.objects.edits import Alter, Change, Define, Delete, Edit, Kind
from mqctl.domain.topics import has_wildcards, matches
from mqctl.formats._located import locate
from mqctl.formats.ems.model_edit import (
    check_pattern,
    check_server,
    durable,
    selectors_from,
    sourced,
    zone_type,
)
from mqctl.formats.ems.props import TOPIC_PROPERTIES, Prop, check_topic_props, format_props, split_props
from mqctl.formats.script_run import ScriptRun, counted

_WORD = re.compile(r"\S+")
_VERBS = frozenset({"create", "delete", "addprop", "setprop", "removeprop"})


NOT_APPLIED = "mqctl: valid, but not applied: the script is rejected."


@dataclass
class AdminRun(ScriptRun):
    """A tibemsadmin run: the shared counts, plus the peer servers its routes name."""

    peers_referenced: set[str] = field(default_factory=set)
    changed_lines: list[int] = field(default_factory=list)
    """Indexes in ``lines`` of the replies that report a change ("has been created", ...)."""
    unknown_properties: set[str] = field(default_factory=set)
    """Topic property names EMS does not document, each reported once."""


@dataclass
class _Line:
    number: int
    raw: str
    words: list[tuple[str, int]]
    """The first words with their 1-based columns."""

    def rest_after(self, count: int) -> tuple[str, int]:
        """The text after the first ``count`` words, and its starting column."""
        if len(self.words) < count:
            return "", len(self.raw) + 1
        word, col = self.words[count - 1]
        start = col - 1 + len(word)
        return self.raw[start:], start + 1


def apply_tibemsadmin(
    state: NodeState,
    text: str,
    *,
    file: str | None,
    next_seq: Callable[[], int],
    continue_on_error: bool = False,
) -> AdminRun:
    work = copy.deepcopy(state)
    run = AdminRun()
    interpreter = _Interpreter(work, file, next_seq, run)
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        run.read += 1
        run.lines.append(f"Command: {stripped}")
        line = _Line(number, raw, [(m.group(), m.start() + 1) for m in _WORD.finditer(raw)][:3])
        try:
            result = interpreter.run(line)
        except InputError as err:
            run.failed += 1
            run.errors.append(err)
            run.lines.append(f"Error: {err.one_line()}")
            continue
        if result is None:
            run.not_modelled += 1
            run.lines.append("mqctl: not modelled; skipped.")
        else:
            run.processed += 1
            if line.words[0][0].lower() != "show":
                run.changed_lines.append(len(run.lines))
            run.lines.extend(result)
    if continue_on_error or not run.errors:
        for f in dataclasses.fields(state):
            setattr(state, f.name, getattr(work, f.name))
        run.applied = True
    else:
        for index in run.changed_lines:
            run.lines[index] = NOT_APPLIED
    run.lines.extend(summary(run))
    return run


def summary(run: AdminRun) -> list[str]:
    """mqctl's closing counts. A rejected script processed none of its valid changes (as runmqsc's door
    counts them): they are counted as not applied, not as processed, so the line does not say "2
    processed" above "no command was applied"; its ``show`` commands did run."""
    withheld = 0 if run.applied else len(run.changed_lines)
    counts = (
        f"{counted(run.read, 'command')} read, {run.processed - withheld} processed, "
        + (f"{withheld} valid but not applied, " if withheld else "")
        + f"{run.not_modelled} not modelled, {run.failed} failed."
    )
    if run.applied:
        return [counts]
    return [counts, "The script is rejected: no command was applied (--continue applies the valid ones)."]


class _Interpreter:
    def __init__(
        self, state: NodeState, file: str | None, next_seq: Callable[[], int], run: AdminRun
    ) -> None:
        self.state = state
        self.file = file
        self.next_seq = next_seq
        self.run_info = run

    def fail(self, message: str, line: _Line, column: int) -> InputError:
        return InputError(message, file=self.file, line=line.number, column=column)

    def run(self, line: _Line) -> list[str] | None:
        verb = line.words[0][0].lower()
        kind = line.words[1][0].lower() if len(line.words) > 1 else ""
        if verb == "show" and kind in ("topics", "routes"):
            return self.show_topics() if kind == "topics" else self.show_routes()
        if verb == "show" and kind in ("topic", "route"):
            if len(line.words) < 3:
                raise self.fail(f"show {kind} needs a {kind} name", line, len(line.raw.rstrip()) + 1)
            name, column = line.words[2]
            return (
                self.show_topic(name, line, column)
                if kind == "topic"
                else self.show_route(name, line, column)
            )
        if kind == "durable" and verb in ("create", "delete"):
            return [self.durable(verb, line)]
        if verb not in _VERBS or kind not in ("topic", "route"):
            return None
        if len(line.words) < 3:
            raise self.fail(f"{verb} {kind} needs a {kind} name", line, len(line.raw.rstrip()) + 1)
        name, column = line.words[2]
        rest, rest_col = line.rest_after(3)
        props = split_props(rest, column=rest_col, line=line.number, file=self.file)
        if kind == "topic":
            return [self.topic(verb, name, column, props, line)]
        return [self.route(verb, name, column, props, line)]

    def edit(
        self, line: _Line, column: int, what: str, edit: Edit, where: Mapping[str, int] | None = None
    ) -> Change:
        """A change made by the domain's one ``apply``, with tibemsadmin's replies for an object that
        exists or does not, and any other refusal placed at the property it names (``where``: attribute
        -> column), else at the command's name."""
        try:
            return apply(self.state, edit, seq=self.next_seq())
        except AlreadyDefined:
            raise self.fail(f"{what} already exists", line, column) from None
        except NotDefined:
            raise self.fail(f"{what} does not exist", line, column) from None
        except InputError as err:
            at = (where or {}).get(err.attribute or "", column)
            raise locate(err, file=self.file, line=line.number, column=at) from None

    def topic(self, verb: str, name: str, column: int, props: list[Prop], line: _Line) -> str:
        state = self.state
        what = f"Topic '{name}'"
        check_pattern(name, line=line.number, column=column, file=self.file)
        if verb == "create":
            topic = TopicObject(
                node=state.node.name, name=name, topicstr=name, properties=self.topic_props(props, line)
            )
            topic = sourced(topic, self.file, line.number)
            self.edit(line, column, what, Define(topic))
            return f"{what} has been created"
        if verb == "delete":
            self._no_props(props, line)
            self.edit(line, column, what, Delete(Kind.TOPIC, name))
            return f"{what} has been deleted"
        current = state.topics.get(name)
        if current is None:
            raise self.fail(f"{what} does not exist", line, column)
        if verb == "setprop":
            new = self.topic_props(props, line)
        elif verb == "addprop":
            new = dict(current.properties)
            new.update(self.topic_props(props, line))
        else:
            new = dict(current.properties)
            for prop in props:
                if prop.key not in new:
                    raise self.fail(f"property {prop.key} is not set on topic '{name}'", line, prop.column)
                del new[prop.key]
        altered = self.edit(line, column, what, Alter(Kind.TOPIC, name, {"properties": new})).after
        sourced(altered, self.file, line.number)
        return f"{what} has been modified"

    def topic_props(self, props: list[Prop], line: _Line) -> dict[str, str | None]:
        checked = check_topic_props(props, line=line.number, file=self.file)
        run = self.run_info
        for key in checked:
            if key.lower() not in TOPIC_PROPERTIES and key not in run.unknown_properties:
                run.unknown_properties.add(key)
                run.warnings.append(
                    f"{self.file or '<input>'}:{line.number}: topic property {key!r} is not one EMS "
                    "documents: kept, not modelled"
                )
        return checked

    def _no_props(self, props: list[Prop], line: _Line) -> None:
        if props:
            raise self.fail(f"unexpected {props[0].key!r}; delete takes only a name", line, props[0].column)

    def durable(self, verb: str, line: _Line) -> str:
        """``create durable TOPIC NAME [props]`` (props as durables.conf's) and ``delete durable NAME
        [CLIENTID]``: a durable subscription, defined and deleted by the domain as every door does."""
        rest, rest_col = line.rest_after(2)
        words = [(m.group(), rest_col + m.start()) for m in _WORD.finditer(rest)]
        needed = 2 if verb == "create" else 1
        if len(words) < needed:
            usage = "TOPIC DURABLE-NAME [property, ...]" if verb == "create" else "DURABLE-NAME [CLIENTID]"
            raise self.fail(f"{verb} durable needs {usage}", line, len(line.raw.rstrip()) + 1)
        state = self.state
        if verb == "delete":
            (name, column), extra = words[0], words[1:2]
            what = f"Durable '{name}'"
            current = state.subscriptions.get(name)
            if current is not None and extra and current.properties.get("clientid") != extra[0][0]:
                raise self.fail(f"{what} with client ID '{extra[0][0]}' does not exist", line, extra[0][1])
            self.edit(line, column, what, Delete(Kind.SUB, name))
            return f"{what} has been deleted"
        (topic, topic_col), (name, column) = words[0], words[1]
        check_pattern(topic, line=line.number, column=topic_col, file=self.file)
        props = split_props(
            line.raw[column - 1 + len(name) :], column=column + len(name), line=line.number, file=self.file
        )
        sub = durable(state.node.name, topic, name, props, line=line.number, file=self.file)
        if sub.is_route_durable:
            self.run_info.peers_referenced.add(
                check_server(name, line=line.number, column=column, file=self.file)
            )
        sub = sourced(sub, self.file, line.number)
        what = f"Durable '{name}'"
        self.edit(line, column, what, Define(sub))
        return f"{what} has been created"

    def route(self, verb: str, name: str, column: int, props: list[Prop], line: _Line) -> str:
        state = self.state
        peer = check_server(name, line=line.number, column=column, file=self.file)
        what = f"Route '{peer}'"
        where = {p.key: p.column for p in props} | {"url": column + len(name)}
        if verb == "create":  # the rules (a URL, not to itself, not twice) are the domain's
            route = sourced(Route(node=state.node.name, peer=peer), self.file, line.number)
            selectors = self.route_props(route, props, line)
            self.edit(line, column, what, Define(route), where)
            self.define_selectors(selectors, line, column)
            self.run_info.peers_referenced.add(peer)
            return f"{what} has been created"
        if verb == "delete":
            self._no_props(props, line)
            self.edit(line, column, what, Delete(Kind.ROUTE, peer))  # its selectors go with it
            return f"{what} has been deleted"
        current = state.routes.get(peer)
        if current is None:
            raise self.fail(f"{what} does not exist", line, column)
        route = dataclasses.replace(current, properties=dict(current.properties))
        mine = [route_selectors.key(s) for s in state.route_selectors if s.peer == peer]
        gone: list[route_selectors.Key] = []
        added: list[RouteSelector] = []
        if verb == "removeprop":
            for prop in props:
                if prop.key in ("incoming_topic", "outgoing_topic"):
                    key = (peer, prop.key.removesuffix("_topic"), prop.value or "")
                    if key not in mine:
                        raise self.fail(
                            f"property {prop.key}={prop.value} is not set on route '{peer}'",
                            line,
                            prop.column,
                        )
                    gone.append(key)
                elif prop.key in route.properties:
                    del route.properties[prop.key]
                else:
                    raise self.fail(f"property {prop.key} is not set on route '{peer}'", line, prop.column)
        else:
            if verb == "setprop":
                route.properties = {}
                gone = mine
            added = self.route_props(route, props, line)
        changes = changes_between(current, route)
        altered = self.edit(line, column, what, Alter(Kind.ROUTE, peer, changes), where).after
        sourced(altered, self.file, line.number)
        for key in gone:
            self.edit(line, column, what, Delete(Kind.ROUTE_SELECTOR, key))
        self.define_selectors(added, line, column)
        return f"{what} has been modified"

    def define_selectors(self, selectors: list[RouteSelector], line: _Line, column: int) -> None:
        """Each selector of the command, with its own definition sequence (a later one for the same
        topic and direction replaces an earlier one)."""
        for sel in selectors:
            sel = sourced(sel, self.file, line.number)
            self.edit(line, column, route_selectors.label(sel), Define(sel, replace=True))

    def route_props(self, route: Route, props: list[Prop], line: _Line) -> list[RouteSelector]:
        selectors, rest = selectors_from(
            props, node=route.node, peer=route.peer, line=line.number, file=self.file
        )
        seen: set[str] = set()
        for prop in rest:
            if prop.key in seen:
                raise self.fail(f"property {prop.key} is repeated", line, prop.column)
            seen.add(prop.key)
            if prop.value is None:
                raise self.fail(f"route property {prop.key} needs a value: {prop.key}=...", line, prop.column)
            if prop.key == "url":
                route.url = prop.value
            elif prop.key == "zone_name":
                route.zone_name = prop.value  # a change of zone is refused by the domain
            elif prop.key == "zone_type":
                route.zone_type = zone_type(
                    prop.value, line=line.number, column=prop.value_column, file=self.file
                )
            else:
                route.properties[prop.key] = prop.value
        return selectors

    def show_topics(self) -> list[str]:
        rows = [(t.name, format_props(t.properties)) for t in self.state.topics.values()]
        width = max([len("Topic Name"), *(len(r[0]) for r in rows)]) + 2
        return [f"  {'Topic Name'.ljust(width)}Properties"] + [
            f"  {n.ljust(width)}{p}".rstrip() for n, p in rows
        ]

    def show_routes(self) -> list[str]:
        """The route table (each defined here, so active from here), each route's selectors below it."""
        routes = list(self.state.routes.values())
        w_name = max([len("Route"), *(len(r.peer) for r in routes)]) + 2
        w_url = max([len("URL"), *(len(r.url) for r in routes)]) + 2
        w_zone = max([len("Zone"), *(len(r.zone_name) for r in routes)]) + 2
        out = [f"  {'Route'.ljust(w_name)}T  ConnID  {'URL'.ljust(w_url)}{'Zone'.ljust(w_zone)}T"]
        for r in routes:
            zt = "m" if r.zone_type is ZoneType.MHOP else "1"
            out.append(
                f"  {r.peer.ljust(w_name)}A  -       {r.url.ljust(w_url)}{r.zone_name.ljust(w_zone)}{zt}"
            )
            out.extend(f"  {' ' * w_name}{text}" for text in self._selector_texts(r.peer))
        return out

    def _selector_texts(self, peer: str) -> list[str]:
        return [
            f'{s.direction.value}_topic={s.topic} selector="{s.selector}"'
            for s in self.state.route_selectors
            if s.peer == peer
        ]

    def show_route(self, name: str, line: _Line, column: int) -> list[str]:
        route = self.state.routes.get(name)
        if route is None:
            raise self.fail(f"Route '{name}' does not exist", line, column)
        rows = [
            ("Route", route.peer),
            ("Type", "active (defined on this server)"),
            ("URL", route.url),
            ("Zone", f"{route.zone_name} ({route.zone_type.value})"),
            ("Selectors", "; ".join(self._selector_texts(route.peer)) or "<none>"),
            ("Properties", format_props(dict(route.properties)) or "<none>"),
        ]
        return _detail(rows)

    def show_topic(self, name: str, line: _Line, column: int) -> list[str]:
        """A defined pattern shows its own properties (static); any other name those it takes from the
        definitions matching it (dynamic), each inherited one marked ``*`` as tibemsadmin marks them."""
        own = self.state.topics.get(name)
        matching = (
            []
            if has_wildcards(name, Dialect.EMS)
            else definitions_for(self.state.topics.values(), self.state.node.name, name)
        )
        if own is None and not matching:
            raise self.fail(f"Topic '{name}' does not exist", line, column)
        if own is not None and not matching:
            matching = [own]
        props = effective_properties(matching)
        inherited = {k for k in props if own is None or k not in own.properties}
        shown = ",".join(("*" if k in inherited else "") + format_props({k: v}) for k, v in props.items())
        subs = [s for s in self.state.subscriptions.values() if matches(s.topicstr, name, Dialect.EMS)]
        rows = [
            ("Topic", name),
            ("Type", "static" if own is not None else "dynamic"),
            ("Properties", shown or "<none>"),
            ("Subscriptions", str(sum(not s.durable for s in subs))),
            ("Durable Subscriptions", str(sum(s.durable for s in subs))),
        ]
        return _detail(rows)


def _detail(rows: list[tuple[str, str]]) -> list[str]:
    """``Label:   value`` lines, values aligned, as tibemsadmin's ``show topic``/``show route`` print them."""
    width = max(len(label) for label, _ in rows) + 2
    return [f" {(label + ':').ljust(width)}{value}" for label, value in rows]
