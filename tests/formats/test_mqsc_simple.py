"""The parser's short way (``simple_command``, one match per parameter) gives exactly the command the
token-by-token parser gives, positions included, or leaves the command to it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mqctl.domain.errors import InputError
from mqctl.formats.mqsc.lexer import apply_inserts, split_commands, tokenize
from mqctl.formats.mqsc.parser import Command, _Parser, simple_command
from tests.conftest import needs_shared
from tests.fuzz.mutations import CORPUS, any_text, corpus_texts, fuzz_settings, mutated

SCRIPT = """\
DEFINE CHANNEL('CL01.QM1') CHLTYPE(CLUSRCVR) CLUSTER(CL01) CONNAME('qm1(1414)') REPLACE
DEFINE TOPIC('ORDERS.T00000') TOPICSTR('/orders/region00/desk00000') CLUSTER(CL01) +
       CLROUTE(TOPICHOST) DESCR('clustered orders desk 0') REPLACE
def topic(prices.t1) topicstr('/prices/+QMNAME+/x') wildcard(block) pubscope(qmgr) replace
DEFINE SUB('QM1.SUB.000000') TOPICSTR('/fx/region05/desk00005/+/price') SELECTOR('amount > 1 AND -
region = ''EMEA''') DEST('APP.Q00') REPLACE
  ALTER QMGR PSMODE(ENABLED) , DESCR ( 'a, b' ),REPOS(CL01);
DELETE SUB(S1)
DISPLAY TOPIC(*) ALL
DEFINE QLOCAL(Q1) MAXDEPTH(5000) DESCR('it''s mine')
"""


def _both(text: str) -> int:
    """Parse every command of ``text`` both ways; the short way, when it answers, equals the long way.
    Returns how many commands the short way took."""
    taken = 0
    for number, logical in enumerate(split_commands(text, file="f.mqsc"), start=1):
        if logical.error is not None:
            continue
        resolved, missing = apply_inserts(logical, {"QMNAME": "QM1"})
        if missing:
            continue
        short = simple_command(resolved, number)
        if short is None:
            continue
        taken += 1
        try:
            long: Command | InputError = _Parser(
                tokenize(resolved, file="f.mqsc"), resolved, number, "f.mqsc"
            ).command()
        except InputError as err:
            long = err
        assert short == long, (resolved.text, short, long)
        assert short.params.keys() == long.params.keys()  # in the same order
        if short.name is not None:
            assert tuple(short.name.content) == tuple(long.name.content)  # type: ignore[union-attr]
    return taken


def test_a_hub_dump_takes_the_short_way_and_reads_the_same() -> None:
    """Every statement of the sample but the nested CONNAME and the insert takes the short way."""
    assert _both(SCRIPT) == 8


def test_what_the_short_way_leaves_to_the_parser() -> None:
    for text in (
        "DEFINE NAMELIST(NL) NAMES(A, B)",  # two values
        "DEFINE CHANNEL(C) CONNAME(h(1414))",  # nested parentheses
        "DEFINE TOPIC(T) DESCR('x' REPLACE",  # unclosed string
        "DEFINE TOPIC(T) REPLACE NOREPLACE",
        "DEFINE TOPIC(T) DESCR('a') DESCR('b')",
        "DEFINE WIDGET(W)",  # unknown object type
        "FROB TOPIC(T)",
        "END",
        "DEFINE(X) TOPIC",
        "DEFINE TOPIC() TOPICSTR('a')",
        "DEFINE TOPIC(T) DESCR('a')'b'",
        "DEFINE",
    ):
        (logical,) = split_commands(text)
        assert simple_command(logical, 1) is None, text


@fuzz_settings
@given(mutated(corpus_texts("mqsc/*.mqsc", [SCRIPT]) + [SCRIPT]))
def test_mutated_scripts_read_the_same_both_ways(text: str) -> None:
    _both(text)


@fuzz_settings
@given(st.lists(any_text(), min_size=1, max_size=4).map("\n".join))
def test_any_text_reads_the_same_both_ways(text: str) -> None:
    _both(f"DEFINE TOPIC(T) {text}")
    _both(text)


@needs_shared("corpus", "mqsc")
def test_the_corpus_reads_the_same_both_ways() -> None:
    texts = [f.read_text(encoding="utf-8") for f in sorted((CORPUS / "mqsc").glob("*.mqsc"))]
    assert texts
    assert sum(_both(text) for text in texts) > 100
