"""The REST API's ``runCommandJSON`` answers read as runmqsc's: the same ``Capture`` of blocks.

The API answers ``{"commandResponse": [{"parameters": {...lower-case keys...}}]}``; a saved file holds
that answer, a list of them, or ``{"qmgr": ..., "request": {...}, "response": {...}}`` exchanges (the
request's ``qualifier`` says what was displayed, its ``qmgr`` whose answer it is).
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

from mqctl.formats.display.reader import KINDS, REQUIRED, Block, Capture, capture_time, check_qmgr, fail

_QUALIFIERS = {kind.lower(): kind for kind in KINDS}
"""A request's ``qualifier`` -> the kind of its answer: each kind read, in lower case (``topic`` with
``type: cluster`` is ``TCLUSTER`` too, below)."""


def read_json(text: str, *, file: str, qmgr: str | None) -> Capture:
    """The capture a saved answer holds: every exchange checked and its answers kept in order, then read
    as blocks of the one queue manager the exchanges name (or ``qmgr``)."""
    doc = _load(text, file)
    exchanges = doc if isinstance(doc, list) else [doc]
    finder = _Finder(text)
    named: str | None = None
    captured_at: datetime | None = None
    pending: list[tuple[dict[str, Any], str]] = []
    for exchange in exchanges:
        request, response = _exchange(exchange, file)
        name = exchange.get("qmgr") or request.get("qmgr")
        if isinstance(name, str) and name:
            if named is not None and name != named:
                line, column = finder.find(json.dumps(name))
                raise fail(
                    f"names queue manager {name} and {named}: one file, one queue manager", file, line, column
                )
            named = name
        when = exchange.get("captured_at") or exchange.get("capturedAt")
        if isinstance(when, str):
            line, column = finder.find(json.dumps(when))
            captured_at = capture_time(when, file, line, column)
        pending += _answers(request, response, file, finder)
    name, at = _queue_manager(named, qmgr, file, finder)
    capture = Capture(file, name, at, captured_at)
    for item, kind in pending:
        if kind.startswith("SEEN:"):
            capture.saw(kind[5:])  # the command was run, whatever it answered
            continue
        _json_block(capture, item, kind, file, finder)
    return capture


def _exchange(exchange: Any, file: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """An exchange's request (empty when it has none: a bare answer) and its response, checked."""
    if not isinstance(exchange, dict):
        raise fail("not a runCommandJSON response (expected an object)", file, 1)
    found = exchange.get("request")
    request: dict[str, Any] = found if isinstance(found, dict) else {}
    response = exchange.get("response", exchange)
    if not isinstance(response, dict) or not isinstance(response.get("commandResponse"), list):
        raise fail(
            "not runmqsc DISPLAY output nor a runCommandJSON response (no commandResponse list)", file, 1
        )
    return request, response


def _answers(
    request: dict[str, Any], response: dict[str, Any], file: str, finder: _Finder
) -> list[tuple[dict[str, Any], str]]:
    """The response's entries, each with the kind of DISPLAY they answer ("" when another command's, or
    not read), after a ``SEEN:`` mark of each kind the request displays, whatever it answered."""
    if str(request.get("command", "display")).lower() not in ("display", "dis"):
        kind = ""  # the answer to another command: nothing of it is a DISPLAY answer
        parameters: dict[str, Any] = {}
    else:
        kind = _QUALIFIERS.get(str(request.get("qualifier", "")).lower(), "")
        parameters = _parameters(request, file, finder)
    if kind == "TOPIC" and str(parameters.get("type", "")).lower() == "cluster":
        kind = "TCLUSTER"
    if kind == "TPSTATUS" and str(parameters.get("type", "")).lower() in ("sub", "pub"):
        kind = ""  # a topic node's subscriber or publisher status: not read (as from runmqsc)
    out: list[tuple[dict[str, Any], str]] = []
    if kind:
        out.append(({}, "SEEN:" + kind))
    subtype = str(parameters.get("subtype", "")).lower()
    if kind == "SUB" and subtype in ("all", "proxy"):
        out.append(({}, "SEEN:PROXY"))
    out += [(item, kind) for item in response["commandResponse"]]
    return out


def _queue_manager(
    named: str | None, qmgr: str | None, file: str, finder: _Finder
) -> tuple[str, tuple[int, int]]:
    """The capture's queue manager and where the file names it: the one the exchanges name (checked
    against ``qmgr``), else ``qmgr``; a file that names none needs ``--qmgr``."""
    if named is not None:
        line, column = finder.find(json.dumps(named))
        return check_qmgr(named, qmgr, file, line, column), (line, column)
    if qmgr is not None:
        return qmgr, (1, 1)
    raise fail('names no queue manager (no "qmgr" in the request): give --qmgr', file, 1)


MAX_DEPTH = 32
"""A runCommandJSON answer nests three or four levels; deeper is not one (and would exhaust the stack)."""


def _load(text: str, file: str) -> Any:
    """The JSON document, refused in one line when it is not JSON, nests too deeply or holds a number
    Python will not convert (more than 4,300 digits)."""
    depth = _depth(text)
    if depth[0] > MAX_DEPTH:
        raise fail(f"nested more than {MAX_DEPTH} levels deep: not a runCommandJSON answer", file, *depth[1:])
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise fail(f"not valid JSON: {err.msg}", file, err.lineno, err.colno) from None
    except (ValueError, RecursionError):
        found = re.search(r"\d{4000,}", text)
        at = found.start() if found else 0
        line = text.count("\n", 0, at) + 1
        raise fail(
            "a number too long to read (thousands of digits)", file, line, at - text.rfind("\n", 0, at)
        ) from None


def _depth(text: str) -> tuple[int, int, int]:
    """The deepest nesting of brackets outside strings, with the line and column where it is first
    reached past ``MAX_DEPTH`` (a scan, not a parse: the parser is what must not be sent there)."""
    depth = deepest = 0
    in_string = escaped = False
    for i, c in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if depth > MAX_DEPTH:
                    return depth, text.count("\n", 0, i) + 1, i - text.rfind("\n", 0, i)
        elif c in "]}":
            depth -= 1
    return deepest, 1, 1


def _parameters(request: dict[str, Any], file: str, finder: _Finder) -> dict[str, Any]:
    found = request.get("parameters")
    if found is None:
        return {}
    if not isinstance(found, dict):
        line, column = finder.find('"parameters"')
        raise fail(f"request.parameters is a {type(found).__name__}, not an object", file, line, column)
    return found


class _Finder:
    """Line and column of texts of the JSON document, found in order (the json module keeps no positions)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.offset = 0

    def find(self, needle: str) -> tuple[int, int]:
        at = self.text.find(needle, self.offset)
        if at < 0:
            at = self.text.find(needle)
        if at < 0:
            return 1, 1
        self.offset = at
        line = self.text.count("\n", 0, at) + 1
        return line, at - (self.text.rfind("\n", 0, at) + 1) + 1


def _json_block(capture: Capture, item: Any, kind: str, file: str, finder: _Finder) -> None:
    if not isinstance(item, dict):
        raise fail("a commandResponse entry is not an object", file, 1)
    params = item.get("parameters")
    if not isinstance(params, dict):
        code = item.get("completionCode")
        capture.others[
            f"failed command (completion code {code})" if code else "answer without parameters"
        ] += 1
        return
    attrs = {str(k).upper(): _json_value(v) for k, v in params.items()}
    first = next(iter(attrs), "")
    line, column = finder.find(json.dumps(next(iter(params))) if params else '"parameters"')
    found = kind or _json_kind(attrs, first)
    if found in ("TOPIC", "TCLUSTER"):
        found = "TCLUSTER" if attrs.get("TYPE", "").upper() == "CLUSTER" else "TOPIC"
    if not found:
        capture.others[first or "object"] += 1
        return
    block = Block(found, attrs, line, column)
    for keyword in REQUIRED[found]:
        if keyword not in attrs:
            raise fail(f"truncated block: a {found} answer shows no {keyword.lower()}", file, line, column)
    capture.saw(found)
    if found == "SUB" and attrs.get("SUBTYPE", "").upper() == "PROXY":
        capture.saw("PROXY")
    capture.blocks.append(block)


def _json_kind(attrs: dict[str, str], first: str) -> str:
    if "SUB" in attrs and "TOPICSTR" in attrs:
        return "SUB"
    if "SUB" in attrs:
        return "SBSTATUS"
    if "TOPIC" in attrs:
        return "TOPIC"
    if "CLUSQMGR" in attrs:
        return "CLUSQMGR"
    if "CHANNEL" in attrs and "STATUS" in attrs:
        return "CHSTATUS"
    if (
        "QMNAME" in attrs
        and "STATUS" in attrs
        and attrs.get("TYPE", "").upper() in ("LOCAL", "PARENT", "CHILD")
    ):
        return "PUBSUB"
    if "QMNAME" in attrs:
        return "QMGR"
    return ""


def _json_value(value: Any) -> str:
    if isinstance(value, bool):
        return "YES" if value else "NO"
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    if value is None:
        return ""
    return str(value).strip()
