"""Read an EMS server's configuration files (``tibemsd.conf`` and the files it points at) into a model.

- ``tibemsd.conf``: ``key = value`` lines, ``#`` comments. Read: ``server`` (the node name) and the
  pointers ``topics``, ``routes``, ``durables`` (relative to the tibemsd.conf folder). Pointers to other
  configuration files (queues, users, acl_list, bridges, ...) are listed as not modelled.
- ``topics.conf``: ``name  prop,prop=value,...``; the name is checked as an EMS pattern; properties are
  kept in their order, unknown ones too.
- ``routes.conf``: ``[PEER]`` sections of ``key = value`` lines; ``url``, ``zone_name``, ``zone_type``
  are modelled, any other property is kept as given; ``incoming_topic=T selector="..."`` and
  ``outgoing_topic=T selector="..."`` lines become route selectors (the selector is checked; an error
  column is a column of the file).
- ``durables.conf``: ``topic  durable-name  [route] [clientid=..] [nolocal] [selector="..."]`` becomes
  a durable subscription keyed by its durable name. A ``route`` durable is the durable EMS creates for
  the route to the server named ``durable-name``: it is kept as a subscription with properties
  ``{'route': None}``, and ``explain`` should treat it as that peer's registered interest held at this
  server (messages for it are stored here while the route is down), not as a client subscriber.

Inheritance between wildcard definitions is the engine's job: definitions are stored as given.

Every line of a file stands alone, so a bad line does not stop the next: each reader reports every line
error of its file (``InputErrors``, read as the first by a door that stops at one; ``validate --file``
makes a finding of each). A bad ``[PEER]`` line skips its section's lines (they belong to no route).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from mqctl.domain.errors import InputError, clip, collected, raise_all
from mqctl.domain.model import Dialect, Node, NodeState, Route, RouteSelector, TopicObject
from mqctl.domain.objects.edits import Define
from mqctl.formats.ems.model_edit import (
    check_pattern,
    check_server,
    define,
    durable,
    rule_at,
    selectors_from,
    sourced,
    zone_type,
)
from mqctl.formats.ems.props import check_topic_props, split_props
from mqctl.formats.text_io import read_text_file
from mqctl.formats.walk import leads_outside

OTHER_FILES = (
    "queues",
    "users",
    "groups",
    "acl_list",
    "factories",
    "bridges",
    "channels",
    "stores",
    "transports",
    "tibrvcm",
    "durablequeues",
)


@dataclass
class EmsServerConfig:
    """One EMS server as read from its files."""

    name: str
    state: NodeState
    peers: set[str] = field(default_factory=set)
    """Servers named by routes and route durables (the caller creates unknown ones as EMS nodes)."""
    not_modelled: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    unknown_keys: list[tuple[str, int | None]] = field(default_factory=list)
    """Members of a tibemsd.json the server does not know (it ignores them without a word), with a line."""


def _counter() -> Callable[[], int]:
    counter = itertools.count(1)
    return lambda: next(counter)


class Setting(NamedTuple):
    """One ``key = value`` line of tibemsd.conf: the value (quotes removed) and where it stands."""

    value: str
    line: int
    column: int
    """Column of the value's first character (inside the quotes when quoted)."""


def read_key_values(text: str, *, file: str | None) -> dict[str, Setting]:
    """``key = value`` lines (``#`` comments, blank lines skipped): key -> its setting."""
    out: dict[str, Setting] = {}
    errors: list[InputError] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        key, sep, value = stripped.partition("=")
        if not sep or not key.strip():
            errors.append(
                InputError(
                    "expected 'key = value'", file=file, line=number, column=len(raw) - len(raw.lstrip()) + 1
                )
            )
            continue
        after = raw.index("=") + 1
        column = after + 1 + len(raw[after:]) - len(raw[after:].lstrip())
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
            column += 1
        out[key.strip()] = Setting(value, number, column)
    raise_all(errors)
    return out


def looks_like(text: str) -> tuple[str, int] | None:
    """Which other EMS file ``text`` looks like, and the line that tells (a file given in the wrong
    place, ``--topics factories.conf``): ``[sections]`` are in factories.conf, routes.conf or
    bridges.conf, ``server = NAME`` in tibemsd.conf; a topics.conf holds none of those."""
    sections: list[tuple[str, int]] = []
    keys: set[str] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("[") and stripped.endswith("]"):
            sections.append((stripped[1:-1].strip(), number))
        elif "=" in stripped and not stripped.split("=", 1)[0].strip().count(" "):
            keys.add(stripped.split("=", 1)[0].strip().lower())
    if sections:
        first, line = sections[0]
        if "factory" in first.lower() or "type" in keys and "url" in keys and "zone_name" not in keys:
            return "factories.conf", line
        if ":" in first or "destination" in keys:
            return "bridges.conf", line
        return "routes.conf", line
    if "server" in keys and keys & {"listen", "topics", "routes", "store", "users"}:
        return "tibemsd.conf", 1
    return None


def read_topics_conf(state: NodeState, text: str, *, file: str | None, next_seq: Callable[[], int]) -> None:
    """Add the definitions of a ``topics.conf`` to ``state.topics``."""
    if (other := looks_like(text)) is not None:  # the whole file is another: one error, not one a line
        raise InputError(
            f"this is not a topics.conf (it looks like {other[0]})", file=file, line=other[1], column=1
        )
    first_line: dict[str, int] = {}
    errors: list[InputError] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            _topic_line(state, raw, stripped, number, file, first_line)
        except InputError as err:
            collected(errors, err)
    raise_all(errors)


def _topic_line(
    state: NodeState, raw: str, stripped: str, number: int, file: str | None, first_line: dict[str, int]
) -> None:
    """One definition of a topics.conf."""
    indent = len(raw) - len(raw.lstrip())
    name = stripped.split()[0]
    check_pattern(name, line=number, column=indent + 1, file=file)
    if name in first_line:
        raise InputError(
            f"topic {name} is defined twice (first on line {first_line[name]})",
            file=file,
            line=number,
            column=indent + 1,
        )
    first_line[name] = number
    rest_start = indent + len(name)
    rest = raw[rest_start:]
    props = check_topic_props(
        split_props(rest, column=rest_start + 1, line=number, file=file), line=number, file=file
    )
    topic = sourced(
        TopicObject(node=state.node.name, name=name, topicstr=name, properties=props), file, number
    )
    rule_at(define, state, Define(topic), topic.seq, file=file, line=number, column=indent + 1)


def read_routes_conf(
    state: NodeState, text: str, *, file: str | None, next_seq: Callable[[], int]
) -> set[str]:
    """Add the routes and route selectors of a ``routes.conf``; returns the peers named."""
    route: Route | None = None
    seen: dict[str, int] = {}
    lines_of: dict[str, int] = {}
    keys_seen: set[tuple[str, str]] = set()
    pending: list[tuple[RouteSelector, int]] = []
    errors: list[InputError] = []
    bad_section = False
    """The last ``[PEER]`` line was refused: its lines belong to no route and are not read."""
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(raw) - len(raw.lstrip()) + 1
        try:
            if stripped.startswith("["):
                route, bad_section = None, True
                route = _section(state, stripped, number, indent, file, seen, next_seq)
                lines_of[route.peer], bad_section = number, False
                continue
            if bad_section:
                continue
            _route_line(state, route, raw, stripped, number, indent, file, keys_seen, pending, next_seq)
        except InputError as err:
            collected(errors, err)
    refused: set[str] = set()
    for peer, number in lines_of.items():  # each section read whole: now the domain defines it
        route = sourced(state.routes.pop(peer), file, number)
        try:
            rule_at(define, state, Define(route), route.seq, file=file, line=number, column=1)
        except InputError as err:
            collected(errors, err)
            refused.add(peer)
    for sel, indent in pending:  # in their order, each with its own sequence; a later one replaces
        if sel.peer in refused:
            continue  # its route is reported: "no such route" beside it would say nothing more
        try:
            rule_at(
                define,
                state,
                Define(sel, replace=True),
                sel.seq,
                file=file,
                line=sel.source_line,
                column=indent,
            )
        except InputError as err:
            collected(errors, err)
    raise_all(sorted(errors, key=lambda e: (e.line or 0, e.column or 0)))
    return set(lines_of)


def _route_line(
    state: NodeState,
    route: Route | None,
    raw: str,
    stripped: str,
    number: int,
    indent: int,
    file: str | None,
    keys_seen: set[tuple[str, str]],
    pending: list[tuple[RouteSelector, int]],
    next_seq: Callable[[], int],
) -> None:
    """One line of a route section: a selector line, or a ``key = value`` line."""
    if route is None:
        raise InputError(
            "property outside any [route] section; expected a [PEER] line first",
            file=file,
            line=number,
            column=indent,
        )
    if stripped.startswith(("incoming_topic", "outgoing_topic")):
        props = split_props(raw[indent - 1 :], column=indent, line=number, file=file)
        selectors, rest = selectors_from(props, node=state.node.name, peer=route.peer, line=number, file=file)
        if rest:
            raise InputError(
                f"unexpected {rest[0].key!r} on a selector line",
                file=file,
                line=number,
                column=rest[0].column,
            )
        for sel in selectors:
            sel.seq = next_seq()
            pending.append((sourced(sel, file, number), indent))
        return
    key, sep, value = stripped.partition("=")
    key, value = key.strip(), value.strip()
    if not sep or not key:
        raise InputError("expected 'key = value' in a route section", file=file, line=number, column=indent)
    after = raw.index("=") + 1
    value_column = after + 1 + len(raw[after:]) - len(raw[after:].lstrip())
    if (route.peer, key) in keys_seen:
        raise InputError(f"route property {key} is repeated", file=file, line=number, column=indent)
    keys_seen.add((route.peer, key))
    _set_route_key(route, key, value, line=number, value_column=value_column, file=file)


def _section(
    state: NodeState,
    stripped: str,
    number: int,
    indent: int,
    file: str | None,
    seen: dict[str, int],
    next_seq: Callable[[], int],
) -> Route:
    if not stripped.endswith("]"):
        raise InputError(
            "expected ']' at the end of the route section name",
            file=file,
            line=number,
            column=indent + len(stripped),
        )
    peer = stripped[1:-1].strip()
    check_server(peer, line=number, column=indent + 1, file=file)
    if peer == state.node.name:
        raise InputError(
            f"a route cannot lead to its own server {peer}", file=file, line=number, column=indent + 1
        )
    if peer in seen:
        raise InputError(
            f"route [{peer}] is defined twice (first on line {seen[peer]})",
            file=file,
            line=number,
            column=indent,
        )
    seen[peer] = number
    route = Route(node=state.node.name, peer=peer, seq=next_seq())
    state.routes[peer] = route
    return route


def _set_route_key(
    route: Route, key: str, value: str, *, line: int, value_column: int, file: str | None
) -> None:
    if key == "url":
        route.url = value
    elif key == "zone_name":
        route.zone_name = value
    elif key == "zone_type":
        route.zone_type = zone_type(value, line=line, column=value_column, file=file)
    else:
        route.properties[key] = value


def read_durables_conf(
    state: NodeState, text: str, *, file: str | None, next_seq: Callable[[], int]
) -> set[str]:
    """Add the durables of a ``durables.conf``; returns the servers named by ``route`` durables."""
    peers: set[str] = set()
    errors: list[InputError] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            _durable_line(state, raw, stripped, number, file, peers, next_seq)
        except InputError as err:
            collected(errors, err)
    raise_all(errors)
    return peers


def _durable_line(
    state: NodeState,
    raw: str,
    stripped: str,
    number: int,
    file: str | None,
    peers: set[str],
    next_seq: Callable[[], int],
) -> None:
    """One durable of a durables.conf (a route durable's server added to ``peers``)."""
    fields = stripped.split()
    indent = len(raw) - len(raw.lstrip())
    if len(fields) < 2:
        raise InputError(
            "expected 'topic durable-name [route] [clientid=..] [nolocal] [selector=\"..\"]'",
            file=file,
            line=number,
            column=len(raw.rstrip()) + 1,
        )
    topic = fields[0]
    check_pattern(topic, line=number, column=indent + 1, file=file)
    name_col = raw.index(fields[1], indent + len(topic))
    name = fields[1]
    rest_start = name_col + len(name)
    props = split_props(raw[rest_start:], column=rest_start + 1, line=number, file=file)
    sub = durable(state.node.name, topic, name, props, line=number, file=file)
    if name in state.subscriptions:
        raise InputError(f"durable {name} is defined twice", file=file, line=number, column=name_col + 1)
    if sub.is_route_durable:
        peers.add(check_server(name, line=number, column=name_col + 1, file=file))
    sub.seq = next_seq()
    sub = sourced(sub, file, number)
    rule_at(define, state, Define(sub), sub.seq, file=file, line=number, column=name_col + 1)


def read_server(
    tibemsd: Path | None,
    *,
    server: str | None = None,
    topics: Path | None = None,
    routes: Path | None = None,
    durables: Path | None = None,
    next_seq: Callable[[], int] | None = None,
    encoding: str | None = None,
    within: Path | None = None,
) -> EmsServerConfig:
    """Read one server. Explicit paths override the tibemsd pointers; ``server`` overrides its name.
    ``within``: the folder the user gave (a ``diff`` side, ``validate --file``); a pointer that leads out
    of it (``topics = /home/me/.token``, ``../../x``) is refused, its file never read.

    ``tibemsd`` may be a ``tibemsd.conf`` or a ``tibemsd.json`` (see ``json_conf``). Every file is read
    by ``text_io``'s rule: UTF-8 (byte order marks honoured) unless ``encoding`` names another.
    """
    seq = next_seq or _counter()
    if tibemsd is not None and tibemsd.suffix.lower() == ".json":
        from mqctl.formats.ems.json_conf import read_json_server

        return read_json_server(
            tibemsd,
            server=server,
            topics=topics,
            routes=routes,
            durables=durables,
            next_seq=seq,
            encoding=encoding,
        )
    pointers: dict[str, Setting] = {}
    files: list[str] = []
    if tibemsd is not None:
        pointers = read_key_values(read_text_file(tibemsd, encoding), file=str(tibemsd))
        files.append(str(tibemsd))
    not_modelled = [
        f"{key} = {pointers[key].value} (not modelled)"
        for key in OTHER_FILES
        if key in pointers and pointers[key].value
    ]
    name = _server_name(server, pointers, tibemsd)
    state = NodeState(node=Node(name=name, dialect=Dialect.EMS))
    config = EmsServerConfig(name=name, state=state, not_modelled=not_modelled, files=files)
    errors: list[InputError] = []  # each file read, whatever the one before held: every error at once
    for explicit, key in ((topics, "topics"), (routes, "routes"), (durables, "durables")):
        try:
            found = _conf_text(explicit, key, pointers, tibemsd, within=within, encoding=encoding)
            if found is None:
                continue
            _read_conf(config, key, *found, next_seq=seq)
            files.append(found[1])
        except InputError as err:
            collected(errors, err)
    raise_all(errors)
    return config


def _server_name(server: str | None, pointers: dict[str, Setting], tibemsd: Path | None) -> str:
    """The server's name, ``--server`` before tibemsd.conf's ``server = NAME`` (checked where it stands)."""
    name = server or (pointers["server"].value if "server" in pointers else None)
    if not name:
        raise InputError(
            "no server name: give --server or a 'server = NAME' line in tibemsd.conf",
            file=str(tibemsd) if tibemsd else None,
        )
    where = pointers["server"] if "server" in pointers and not server else None
    check_server(
        name,
        line=where.line if where else None,
        column=where.column if where else None,
        file=str(tibemsd) if where else None,
    )
    return name


def _conf_text(
    explicit: Path | None,
    key: str,
    pointers: dict[str, Setting],
    tibemsd: Path | None,
    *,
    within: Path | None,
    encoding: str | None,
) -> tuple[str, str] | None:
    """(text, file name) of the file given explicitly or by the tibemsd.conf pointer ``key``."""
    if explicit is not None:
        return read_text_file(explicit, encoding), str(explicit)
    setting = pointers.get(key)
    if setting is None or not setting.value:
        return None
    assert tibemsd is not None
    path = _pointed_file(tibemsd.parent, key, setting, file=str(tibemsd))
    if within is not None and leads_outside(within, path):
        raise InputError(
            f"{key} = {clip(setting.value, 60)}: leads outside {within}; not read",
            file=str(tibemsd),
            line=setting.line,
            column=setting.column,
        )
    return _read_pointed(path, key, setting, file=str(tibemsd), encoding=encoding), str(path)


def _read_conf(
    config: EmsServerConfig, key: str, text: str, file: str, *, next_seq: Callable[[], int]
) -> None:
    """The definitions of one configuration file (``key``: what tibemsd.conf calls it) added to the
    server's, with the peers its routes and route durables name."""
    if key == "topics":
        read_topics_conf(config.state, text, file=file, next_seq=next_seq)
    elif key == "routes":
        config.peers |= read_routes_conf(config.state, text, file=file, next_seq=next_seq)
    else:
        config.peers |= read_durables_conf(config.state, text, file=file, next_seq=next_seq)


def _pointed_file(base: Path, key: str, setting: Setting, *, file: str) -> Path:
    """The path a tibemsd.conf setting names (relative to its folder); a NUL in it is an error there."""
    nul = setting.value.find("\0")
    if nul >= 0:
        raise InputError(
            f"{key}: a file name cannot hold a NUL byte",
            file=file,
            line=setting.line,
            column=setting.column + nul,
        )
    return base / setting.value


def _read_pointed(path: Path, key: str, setting: Setting, *, file: str, encoding: str | None) -> str:
    """The text of a file a setting points at. A file that cannot be opened is reported at the setting
    (``tibemsd.conf:4:10: topics = conf/: ... is a folder``); a decoding error, in the file itself."""
    try:
        return read_text_file(path, encoding)
    except InputError as err:
        if err.line is not None:
            raise
        raise InputError(
            f"{key} = {setting.value}: {path}: {err.message}",
            file=file,
            line=setting.line,
            column=setting.column,
        ) from None
