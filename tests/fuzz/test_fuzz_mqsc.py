"""Fuzzing the MQSC lexer, parser and ``apply_mqsc``: whatever the text, the only error is an InputError
naming the file, line and column (never a traceback, never minutes)."""

from __future__ import annotations

import itertools

from hypothesis import given

from mqctl.domain.model import Node, NodeState
from mqctl.formats.mqsc import BadCommand, apply_mqsc, dump_header_qmgr, parse_mqsc
from mqctl.formats.text_io import decode_text
from tests.fuzz.mutations import (
    any_text,
    assert_positioned,
    corpus_texts,
    fuzz_settings,
    mutated,
    mutated_bytes,
)

FILE = "fuzz.mqsc"
PUBSUB = """\
* a pub/sub script exercising every modelled command (the corpus scripts are mostly queues)
DEFINE NAMELIST(CLUS) NAMES(C1,C2) DESCR('it''s mine') REPLACE
DEFINE CHANNEL(TO.QM1) CHLTYPE(CLUSRCVR) CLUSTER(C1) CONNAME('host(1414)') REPLACE
DEFINE CHANNEL(TO.QM1B) CHLTYPE(CLUSRCVR) CLUSNL(CLUS)
DEFINE CHANNEL(TO.FR) CHLTYPE(CLUSSDR) CLUSTER(C1) CONNAME('fr(1414)')
ALTER QMGR PARENT(TOP) PSCLUS(DISABLED) PSMODE(ENABLED) REPOS(C1) DESCR('q')
ALTER QMGR REPOS(' ') REPOSNL(CLUS)
DEFINE TOPIC(SPORT) TOPICSTR('/Sport') CLUSTER(C1) CLROUTE(TOPICHOST) WILDCARD(BLOCK) PROXYSUB(FORCE) +
       PUBSCOPE(QMGR) SUBSCOPE(ALL) PUB(ENABLED) SUB(ASPARENT) DESCR('sport -
 news')
DEFINE TOPIC(NEWS) TOPICSTR('News/+/#') CLUSTER(' ') REPLACE
ALTER TOPIC(NEWS) CLUSTER(C2) CLROUTE(DIRECT)
DEFINE SUB(S1) TOPICOBJ(SPORT) TOPICSTR('Football/#') DEST(Q1) DESTQMGR(QM2) SELECTOR('x = ''y'' AND n > 4')
DEFINE SUB('lower s') TOPICSTR('USA/*?%*') WSCHEMA(CHAR) SUBSCOPE(QMGR) SELECTOR('a LIKE ''%a_%'' ESCAPE ''%''')
ALTER SUB(S1) DEST(Q2) DESTQMGR(QM3)
DISPLAY TOPIC(*) ALL
DIS SUB(S*) TOPICSTR
DISPLAY NAMELIST(CLUS)
DELETE SUB('lower s')
DELETE TOPIC(NEWS)
DELETE CHANNEL(TO.QM1B)
ALTER NAMELIST(CLUS) NAMES(C1)
DELETE NAMELIST(CLUS)
DEFINE QLOCAL(Q1) REPLACE
END
"""
SEEDS = [
    *corpus_texts("mqsc/*.mqsc", []),
    *[PUBSUB] * 4,  # weighted: the modelled commands are what the corpus has least of
]


def _apply(text: str, *, keep_going: bool) -> None:
    counter = itertools.count(1)
    state = NodeState(node=Node(name="QM1"))
    run = apply_mqsc(
        state,
        text,
        file=FILE,
        inserts={"QMNAME": "QM1", "X": "+X+"},
        next_seq=lambda: next(counter),
        continue_on_error=keep_going,
    )
    for err in run.errors:
        assert_positioned(err, file=FILE)


def _parse(text: str) -> None:
    for item in parse_mqsc(text, file=FILE, inserts={"QMNAME": "QM1"}):
        if isinstance(item, BadCommand):
            assert_positioned(item.error, file=FILE)


@fuzz_settings
@given(mutated(SEEDS))
def test_mutated_scripts_parse_and_apply_or_give_positioned_errors(text: str) -> None:
    _parse(text)
    _apply(text, keep_going=False)
    _apply(text, keep_going=True)


@fuzz_settings
@given(any_text())
def test_arbitrary_text_parses_and_applies_or_gives_positioned_errors(text: str) -> None:
    _parse(text)
    _apply(text, keep_going=True)


@fuzz_settings
@given(mutated_bytes(SEEDS))
def test_mutated_bytes_decode_or_give_positioned_errors(data: bytes) -> None:
    try:
        text = decode_text(data, file=FILE)
    except Exception as err:  # noqa: BLE001 - the assertion says which
        assert type(err).__name__ == "InputError", repr(err)
        assert_positioned(err, file=FILE)  # type: ignore[arg-type]
        return
    try:
        dump_header_qmgr(text, file=FILE)
    except Exception as err:  # noqa: BLE001
        assert type(err).__name__ == "InputError", repr(err)
        assert_positioned(err, file=FILE)  # type: ignore[arg-type]
    _apply(text, keep_going=True)
