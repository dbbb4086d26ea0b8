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
SEEDS = corpus_texts(
    "mqsc/*.mqsc",
    [
        "DEFINE TOPIC(SPORT) TOPICSTR('/Sport') CLUSTER(C1) CLROUTE(TOPICHOST) +\n   DESCR('it''s') REPLACE\n"
        "DEFINE SUB(S1) TOPICOBJ(SPORT) TOPICSTR('#') SELECTOR('a = 1') DEST(Q)\n"
        "DEFINE CHANNEL(TO.QM1) CHLTYPE(CLUSRCVR) CLUSTER(C1) CONNAME('h(1414)')\nALTER QMGR REPOS(C1)\n"
    ],
)


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
