"""Reading parameter values of a parsed command, each failure an ``InputError`` at the value's position."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeVar

from mqctl.domain.errors import InputError, escaped
from mqctl.domain.model import Dialect, NodeState, Topology
from mqctl.domain.names import check_mq_name
from mqctl.domain.objects.attributes import Attribute
from mqctl.domain.observed import PredictedProxy
from mqctl.domain.suggest import did_you_mean
from mqctl.formats._located import locate
from mqctl.formats.mqsc.lexer import Pos
from mqctl.formats.mqsc.parser import WORD_CUTOFF, Command, Param, Value
from mqctl.formats.mqsc.vocabulary import AS_MODELLED, IGNORED

E = TypeVar("E", bound=StrEnum)


def alike(table: tuple[Attribute, ...], apart: Collection[str] = ()) -> tuple[Attribute, ...]:
    """The attributes of ``table`` a DEFINE/ALTER gives that are read the same way from their text
    (``Context.read``), in the table's order; ``apart``: the fields a handler reads itself, each for a
    rule that ties it to others (TOPICSTR with TOPICOBJ, CLUSTER with CLUSNL...)."""
    return tuple(a for a in table if a.command and a.field not in apart)


def _as_modelled(what: str, param: Param, params: dict[str, Param]) -> bool:
    """``TYPE(LOCAL)`` on a topic: a value saying what the model is anyway (``AS_MODELLED``).
    ``DESTCLAS`` says it when it agrees with DEST: MANAGED without one (what ``export mqsc`` writes for a
    subscription with no DEST), PROVIDED with one."""
    values = AS_MODELLED.get((what, param.keyword))
    if values is None or param.values is None or len(param.values) != 1:
        return False
    value = param.values[0].text.upper()
    if (what, param.keyword) == ("SUB", "DESTCLAS"):
        dest = params.get("DEST")
        blank = dest is None or dest.values is None or not any(v.text.strip() for v in dest.values)
        return value == ("MANAGED" if blank else "PROVIDED")
    return value in values


class MqscSyntaxError(InputError):
    """What runmqsc answers with AMQ8405I (a syntax error) rather than refusing a valid command: an
    unknown keyword for the object, a bad enumeration value, a value missing, extra or not a number.
    Counted in "N commands have a syntax error", as runmqsc counts it."""


def _syntax(err: InputError) -> MqscSyntaxError:
    return MqscSyntaxError(
        err.message, obj=err.obj, attribute=err.attribute, file=err.file, line=err.line, column=err.column
    )


T = TypeVar("T")


@dataclass
class Context:
    """What a command handler may touch: the working state and the run's collectors."""

    state: NodeState
    file: str | None
    next_seq: Callable[[], int]
    clusters: set[str] = field(default_factory=set)
    warnings: list[str] = field(default_factory=list)
    dialect_of: Callable[[str], Dialect | None] = lambda _name: None
    """The dialect of another node of the store (None: not defined): the rules about PARENT need it."""
    unmodelled: Counter[str] = field(default_factory=Counter)
    """Attributes accepted but not modelled (``CLWLUSEQ on QLOCAL``... ``NPMSGDLV on TOPIC``), counted."""
    cluster_view: Callable[[frozenset[str]], Topology] | None = None
    """Read only: what the rest of this queue manager's clusters define (their members' nodes,
    memberships, channels, namelists and topic objects), for DISPLAY TCLUSTER, TOPIC CLUSINFO and
    CLUSQMGR. None: those answer from this queue manager's own definitions."""
    _view: tuple[frozenset[str], Topology] | None = None
    proxies: Callable[[NodeState], list[PredictedProxy]] | None = None
    """Read only: the proxy subscriptions the model predicts this queue manager holds, given its state
    so far (DISPLAY SUB SUBTYPE(PROXY)); None: not available (the command is then not modelled)."""
    topicstr_counts: Counter[str] | None = None
    """How many topic objects of ``state`` use each TOPICSTR, built on first use and kept up to date by
    the topic handlers: DEFINE TOPIC's uniqueness check would otherwise scan every topic (quadratic)."""

    def topicstr_index(self) -> Counter[str]:
        if self.topicstr_counts is None:
            self.topicstr_counts = Counter(t.topicstr for t in self.state.topics.values())
        return self.topicstr_counts

    def clusters_known(self) -> Topology:
        """What the other members of this queue manager's clusters define (read from the store on first
        use, for the clusters it is a member of at that point of the script)."""
        clusters = frozenset(self.state.memberships)
        if self.cluster_view is None:
            return Topology()
        if self._view is None or self._view[0] != clusters:
            self._view = (clusters, self.cluster_view(clusters))
        return self._view[1]

    def fail(
        self, message: str, pos: Pos, *, obj: str | None = None, attribute: str | None = None
    ) -> InputError:
        return InputError(message, obj=obj, attribute=attribute, file=self.file, line=pos[0], column=pos[1])

    def syntax(
        self, message: str, pos: Pos, *, obj: str | None = None, attribute: str | None = None
    ) -> MqscSyntaxError:
        """An error runmqsc reports as a syntax error (``MqscSyntaxError``)."""
        return _syntax(self.fail(message, pos, obj=obj, attribute=attribute))

    def rule(self, cmd: Command, check: Callable[..., None], *args: object) -> None:
        """Run a domain rule (``mqctl.domain.objects``) on what the command built; an error is placed at
        the parameter it names (``TOPICSTR(...)``), else at the object name."""
        try:
            check(*args)
        except InputError as err:
            param = cmd.params.get((err.attribute or "").upper())
            pos = param.pos if param is not None else cmd.name_pos
            raise locate(err, file=self.file, line=pos[0], column=pos[1]) from None

    def sourced(self, cmd: Command, obj: T) -> T:
        """Record where a definition came from (for validate's findings)."""
        if self.file is not None:
            obj.source_file = escaped(self.file)  # type: ignore[attr-defined]
            obj.source_line = cmd.pos[0]  # type: ignore[attr-defined]
        return obj

    def check_keywords(self, cmd: Command, allowed: frozenset[str], what: str) -> None:
        """Every parameter must be one mqctl knows for this object (modelled or accepted and ignored);
        the accepted-and-ignored ones are counted, so the summary names what was not modelled."""
        ignored = IGNORED.get(what, frozenset())
        for param in cmd.params.values():
            if param.keyword in ignored and not _as_modelled(what, param, cmd.params):
                self.unmodelled[f"{param.keyword} on {what}"] += 1
            if param.keyword not in allowed:
                near = did_you_mean(param.keyword, allowed, cutoff=WORD_CUTOFF)
                raise self.syntax(
                    f"unknown parameter {param.keyword} for {cmd.verb} {what}"
                    + (near or f"; expected one of {', '.join(sorted(allowed))}"),
                    param.pos,
                )
            if param.keyword in ("REPLACE", "NOREPLACE", "FORCE", "ALL") and param.values is not None:
                raise self.syntax(f"{param.keyword} takes no value", param.values[0].pos)

    def name(self, cmd: Command, kind: str, *, check: bool = True) -> Value:
        """The object name in ``NOUN(name)``; required for the commands that call this."""
        if cmd.name is None:
            raise self.fail(f"expected {cmd.noun}(name) after {cmd.verb}", cmd.pos)
        if check and not cmd.name.text.endswith("*"):
            self.mq_name(cmd.name, kind)
        return cmd.name

    def mq_name(self, value: Value, kind: str, *, max_len: int | None = None) -> str:
        try:
            check_mq_name(value.text, kind)
        except InputError as err:
            raise locate(err, file=self.file, line=value.pos[0], column=value.pos[1]) from None
        if max_len is not None and len(value.text) > max_len:
            raise self.fail(
                f"{kind} name is {len(value.text)} characters long; MQ allows at most {max_len}",
                value.pos,
                obj=f"{kind} {value.text}",
            )
        return value.text

    def one(self, param: Param) -> Value:
        if param.values is None:
            raise self.syntax(
                f"{param.keyword} needs a value in parentheses, such as {param.keyword}(...)", param.pos
            )
        if len(param.values) != 1:
            raise self.syntax(
                f"{param.keyword} takes one value, found {len(param.values)}", param.values[1].pos
            )
        return param.values[0]

    def text(self, param: Param) -> str:
        """A fixed-length MQ string (DESCR, DEST, ...): trailing blanks are padding, as in MQ."""
        return self.one(param).text.rstrip(" ")

    def enum(self, param: Param, kind: type[E]) -> E:
        """An enumerated attribute, judged as the object commands judge it (``rules.text.parse_enum``)."""
        from mqctl.domain.objects.text import parse_enum

        value = self.one(param)
        try:
            return parse_enum(kind, value.text, "", param.keyword)
        except InputError as err:
            err.obj = None
            raise _syntax(locate(err, file=self.file, line=value.pos[0], column=value.pos[1])) from None

    def integer(self, param: Param) -> int:
        """A numeric attribute (CLWLRANK(5)); its range is the domain rule's to check."""
        value = self.one(param)
        text = value.text.strip()
        if not text.isdigit() or len(text) > 9:
            raise self.syntax(
                f"bad value {value.text!r}; expected a number", value.pos, attribute=param.keyword
            )
        return int(text)

    def choice(self, param: Param, choices: tuple[str, ...]) -> str:
        value = self.one(param)
        upper = value.text.upper()
        if upper not in choices:
            raise self.syntax(
                f"bad value {value.text!r}; expected one of {', '.join(choices)}",
                value.pos,
                attribute=param.keyword,
            )
        return upper

    def attribute(self, param: Param, attr: Attribute) -> object:
        """An attribute of the table (``domain.objects.attributes``) read as its type says: a cluster
        name (remembered as referenced), an enumeration's member, one of its ``choices``, a number, else
        a text."""
        if attr.field == "cluster":
            return self.cluster(param)
        enum = attr.enum
        if enum is not None:
            return self.enum(param, enum)
        if attr.choices:
            return self.choice(param, attr.choices)
        if attr.type is int:
            return self.integer(param)
        return self.text(param)

    def read(self, cmd: Command, obj: T, table: tuple[Attribute, ...]) -> T:
        """Set each attribute of ``table`` that ``cmd`` gives (``alike``), in the table's order."""
        params = cmd.params
        for attr in table:
            param = params.get(attr.keyword)
            if param is not None:
                setattr(obj, attr.field, self.attribute(param, attr))
        return obj

    def cluster(self, param: Param) -> str:
        """A cluster name, or '' for none; remembered as referenced."""
        value = self.one(param)
        if value.text.strip() == "":
            return ""
        self.mq_name(value, "cluster")
        self.clusters.add(value.text)
        return value.text
