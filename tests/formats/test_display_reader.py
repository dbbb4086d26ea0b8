"""runmqsc DISPLAY output and REST runCommandJSON responses read back: blocks, positions, refusals."""

from __future__ import annotations

import json

import pytest

from mqctl.domain.errors import InputError
from mqctl.formats.display import read_capture

OUTPUT = """5724-H72 (C) Copyright IBM Corp. 1994, 2025.
Starting MQSC for queue manager QM1.


     1 : DISPLAY SUB(*) +
       :   SUBTYPE(ALL) ALL
AMQ8096I: IBM MQ subscription inquired.
   SUB( )                                  SUBID(414D51)
   TOPICSTR(/USA/#)                        SELECTOR(a = ')' AND (b > 1))
   DESCR(foo (bar) baz)                    DURABLE(YES)
   SUBTYPE(API)
     2 : DISPLAY CHSTATUS(*) ALL
AMQ8417I: Display Channel Status details.
   CHANNEL(TO.QM2)                         CHLTYPE(CLUSSDR)
   CONNAME(qm2(1414))                      CURRENT
   RQMNAME(QM2)                            STATUS(RETRYING)
AMQ8420I: Channel Status not found.
     3 : DISPLAY QLOCAL(*)
AMQ8409I: Display Queue details.
   QUEUE(A)                                TYPE(QLOCAL)
     4 : DELETE TOPIC(X)
AMQ8147E: IBM MQ object X not found.
4 MQSC commands read.
No commands have a syntax error.
One valid MQSC command could not be processed.
"""


def test_blocks_keywords_values_and_counts() -> None:
    capture = read_capture(OUTPUT, file="qm1.txt")
    assert capture.qmgr == "QM1" and capture.qmgr_at == (2, 33)
    assert capture.commands == ["SUB", "PROXY", "CHSTATUS"]
    sub, channel = capture.blocks
    assert sub.kind == "SUB" and sub.line == 7
    assert sub.attrs == {
        "SUB": "",
        "SUBID": "414D51",
        "TOPICSTR": "/USA/#",
        "SELECTOR": "a = ')' AND (b > 1)",
        "DESCR": "foo (bar) baz",
        "DURABLE": "YES",
        "SUBTYPE": "API",
    }
    assert sub.at("SELECTOR") == (9, 44) and sub.at("SUBTYPE") == (11, 4)
    assert channel.attrs["CONNAME"] == "qm2(1414)" and channel.attrs["CURRENT"] == ""
    assert channel.at("STATUS") == (16, 44)
    # commands not read by name, once each; the answers' message texts never stand for a command
    assert capture.others == {"DISPLAY QLOCAL": 1, "DELETE TOPIC": 1, "AMQ8147E": 1}
    assert capture.ran == {"DISPLAY SUB": 1, "DISPLAY CHSTATUS": 1, "DISPLAY QLOCAL": 1, "DELETE TOPIC": 1}


def test_crlf_and_quoted_values() -> None:
    text = OUTPUT.replace("DESCR(foo (bar) baz)", "DESCR('it''s')").replace("\n", "\r\n")
    capture = read_capture(text, file="qm1.txt")
    assert capture.blocks[0].attrs["DESCR"] == "it's"


@pytest.mark.parametrize(
    ("text", "qmgr", "where"),
    [
        (OUTPUT.replace("foo (bar) baz", "foo (bar baz"), None, (10, 9)),
        (OUTPUT[: OUTPUT.index("     2 :")], None, (11, 16)),
        (OUTPUT, "QM2", (2, 33)),
        (OUTPUT.replace("Starting MQSC for queue manager QM1.\n", ""), None, (4, 1)),
        ("* an MQSC script\nDEFINE QLOCAL(X)\n", "QM1", (1, 1)),
        (OUTPUT.replace("   CHANNEL(TO.QM2)", "   CHLTYPE2(X)"), None, (16, 1)),
    ],
    ids=["unbalanced", "cut short", "wrong qmgr", "no banner", "another kind", "truncated block"],
)
def test_refused_with_file_line_column(text: str, qmgr: str | None, where: tuple[int, int]) -> None:
    with pytest.raises(InputError) as caught:
        read_capture(text, file="qm1.txt", qmgr=qmgr)
    assert (caught.value.file, caught.value.line, caught.value.column) == ("qm1.txt", *where)


def test_rest_json_shapes() -> None:
    def response(*params: dict[str, str]) -> dict[str, object]:
        items: list[dict[str, object]] = [
            {"completionCode": 0, "reasonCode": 0, "parameters": p} for p in params
        ]
        return {"commandResponse": items, "overallCompletionCode": 0, "overallReasonCode": 0}

    subs = response({"sub": "S1", "topicstr": "/a", "subtype": "ADMIN"})
    channels = response({"channel": "TO.QM2", "rqmname": "QM2", "status": "RUNNING"})
    channels["commandResponse"].append({"completionCode": 2, "reasonCode": 2085})  # type: ignore[attr-defined]
    bare = read_capture(json.dumps([subs, channels]), file="r.json", qmgr="QM1")
    assert [b.kind for b in bare.blocks] == ["SUB", "CHSTATUS"]
    assert bare.blocks[0].attrs == {"SUB": "S1", "TOPICSTR": "/a", "SUBTYPE": "ADMIN"}
    assert bare.others == {"failed command (completion code 2)": 1}
    request = {
        "type": "runCommandJSON",
        "command": "display",
        "qualifier": "sub",
        "parameters": {"subtype": "all"},
    }
    exchange = [{"qmgr": "QM7", "captured_at": "2026-11-26T01:02:03Z", "request": request, "response": subs}]
    named = read_capture(json.dumps(exchange, indent=2), file="r.json")
    assert named.qmgr == "QM7" and named.commands == ["SUB", "PROXY"]
    assert named.captured_at is not None and named.captured_at.hour == 1
    with pytest.raises(InputError) as caught:
        read_capture(json.dumps(exchange), file="r.json", qmgr="QM1")
    assert "QM7" in caught.value.message and caught.value.line == 1
    with pytest.raises(InputError):
        read_capture(json.dumps(subs), file="r.json")  # names no queue manager, and none is given


def test_a_lone_apostrophe_is_a_plain_character() -> None:
    text = OUTPUT.replace("DESCR(foo (bar) baz)", "DESCR(Bob's topic (all of it))")
    assert read_capture(text, file="qm1.txt").blocks[0].attrs["DESCR"] == "Bob's topic (all of it)"


def _run(qmgr: str, commands: list[tuple[str, str]]) -> str:
    """One run of runmqsc as it prints it: copyright, banner, each command echoed and its answer, counts."""
    lines = [
        "5724-H72 (C) Copyright IBM Corp. 1994, 2024.",
        f"Starting MQSC for queue manager {qmgr}.",
        "",
        "",
    ]
    for n, (command, answer) in enumerate(commands, start=1):
        lines.append(f"{n:6d} : {command}")
        lines += answer.splitlines()
    count = "One MQSC command read." if len(commands) == 1 else f"{len(commands)} MQSC commands read."
    return "\n".join(
        [*lines, count, "No commands have a syntax error.", "All valid MQSC commands were processed."]
    )


MUST_GATHER_ANSWERS = [
    (
        "DISPLAY QMGR ALL",
        "AMQ8408I: Display Queue Manager details.\n   QMNAME(QM1)                             PSMODE(ENABLED)",
    ),
    (
        "DISPLAY SUB(*) SUBTYPE(ALL) ALL",
        "AMQ8096I: IBM MQ subscription inquired.\n   SUB(S1)                                 TOPICSTR(/a/#)",
    ),
    (
        "DISPLAY TOPIC(*) TYPE(LOCAL) ALL",
        "AMQ8633I: Display topic details.\n   TOPIC(T1)                               TYPE(LOCAL)\n   TOPICSTR(/a)",
    ),
    (
        "DISPLAY TCLUSTER(*) ALL",
        "AMQ8633I: Display topic details.\n   TOPIC(T2)                               TYPE(CLUSTER)\n   TOPICSTR(/b)                            CLUSTER(C1)",
    ),
    (
        "DISPLAY CLUSQMGR(*) ALL",
        "AMQ8441I: Display Cluster Queue Manager details.\n   CLUSQMGR(QM2)                           CLUSTER(C1)",
    ),
    (
        "DISPLAY PUBSUB TYPE(ALL) ALL",
        "AMQ8723I: Display pub/sub status details.\n   QMNAME(QM1)                             TYPE(LOCAL)\n   STATUS(ACTIVE)",
    ),
    (
        "DISPLAY CHSTATUS(*) ALL",
        "AMQ8417I: Display Channel Status details.\n   CHANNEL(TO.QM2)                         CHLTYPE(CLUSSDR)\n   STATUS(RUNNING)",
    ),
]


def must_gather(qmgr: str = "QM1") -> str:
    """A must-gather-shaped file: a preamble, seven runs, ``dspmqver`` and headings between them."""
    parts = [
        "$ ./mqcapture.sh QM1 > QM1.txt",
        "# captured 2026-11-26T03:00:00Z",
        "==== dspmqver ====",
        "Name:        IBM MQ",
        "Version:     9.3.0.0",
        "QMNAME(QM1)                                               STATUS(Running)",
    ]
    for command, answer in MUST_GATHER_ANSWERS:
        parts += [
            f"==== {command} ====",
            _run(qmgr, [(command, answer.replace("QM1", qmgr))]),
            "dspmqver -f 2",
            "Version:     9.3.0.0",
        ]
    parts.append("$ exit")
    return "\n".join(parts) + "\n"


def test_every_run_of_a_must_gather_file_is_read_and_the_rest_counted() -> None:
    from mqctl.formats.display import read_captures

    (capture,) = read_captures(must_gather(), file="qm1.txt")
    assert capture.qmgr == "QM1" and capture.captured_at is not None
    kinds = ["QMGR", "SUB", "TOPIC", "TCLUSTER", "CLUSQMGR", "PUBSUB", "CHSTATUS"]
    assert capture.commands == ["QMGR", "SUB", "PROXY", *kinds[2:]]
    assert [b.kind for b in capture.blocks] == kinds
    # preamble (the captured line aside), two lines after each run, and the closing prompt
    assert capture.skipped == 5 + 7 + 7 * 2 + 1


def test_two_queue_managers_in_one_file_are_two_captures() -> None:
    from mqctl.formats.display import read_captures

    text = must_gather("QM1") + must_gather("QM2")
    found = read_captures(text, file="both.txt")
    assert [c.qmgr for c in found] == ["QM1", "QM2"]
    assert all(len(c.blocks) == 7 for c in found)
    with pytest.raises(InputError) as caught:
        read_captures(text, file="both.txt", qmgr="QM1")
    assert "QM2" in caught.value.message


def test_a_run_cut_short_before_the_next_banner_is_refused_at_its_end() -> None:
    first = _run("QM1", MUST_GATHER_ANSWERS[:2])
    cut = first[: first.index("One MQSC") if "One MQSC" in first else first.index("2 MQSC")]
    text = cut + "echo next\n" + _run("QM1", MUST_GATHER_ANSWERS[2:3])
    with pytest.raises(InputError) as caught:
        read_capture(text, file="qm1.txt")
    assert "cut short" in caught.value.message
    assert caught.value.line == cut.count("\n") + 1  # the first line that cannot belong to the run
    text = cut + _run("QM1", MUST_GATHER_ANSWERS[2:3])
    with pytest.raises(InputError) as caught:
        read_capture(text, file="qm1.txt")
    assert "cut short" in caught.value.message and caught.value.line == cut.count("\n")


INTERACTIVE = """$ runmqsc QM1
5724-H72 (C) Copyright IBM Corp. 1994, 2024.
Starting MQSC for queue manager QM1.


dis sub(*) subtype(proxy) +
  all
AMQ8096I: IBM MQ subscription inquired.
   SUB(SYSTEM.PROXY.QM2 C1 /a/#)           TOPICSTR(/a/#)
   SUBTYPE(PROXY)                          DESTQMGR(QM2)
dis qmgr
     2 : dis qmgr
AMQ8408I: Display Queue Manager details.
QMNAME(QM1)                             PSMODE(ENABLED)
DESCR(copied from the documentation)
dis ql(X) foo
AMQ8405I: Syntax error detected at or near end of command segment below:-
dis ql(X) foo
end
3 MQSC commands read.
One command has a syntax error.
All valid MQSC commands were processed.
$
"""


def test_interactive_transcript_typed_commands_and_unindented_items() -> None:
    capture = read_capture(INTERACTIVE, file="session.log")
    assert capture.commands == ["SUB", "PROXY", "QMGR"]
    proxy, qmgr = capture.blocks
    assert proxy.attrs["DESTQMGR"] == "QM2"
    assert qmgr.attrs == {"QMNAME": "QM1", "PSMODE": "ENABLED", "DESCR": "copied from the documentation"}
    assert qmgr.at("DESCR") == (15, 1)
    assert capture.ran == {"DISPLAY SUB": 1, "DISPLAY QMGR": 1, "DISPLAY QL": 1}
    assert capture.others == {"DISPLAY QL": 1}
    assert capture.skipped == 2


@pytest.mark.parametrize(
    ("text", "holds"),
    [
        (
            _run(
                "QM1",
                [
                    ("DEFINE QLOCAL(A)", "AMQ8006I: IBM MQ queue created."),
                    (
                        "SET AUTHREC PROFILE(A) OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(PUT)",
                        "AMQ8862I: IBM MQ authority record set.",
                    ),
                    ("REFRESH SECURITY", "AMQ8560I: IBM MQ security cache refreshed."),
                ],
            ),
            "3 commands, none of them DISPLAY",
        ),
        (
            _run(
                "QM1",
                [
                    (
                        "DISPLAY QLOCAL(*)",
                        "AMQ8409I: Display Queue details.\n   QUEUE(A)                                TYPE(QLOCAL)",
                    )
                ],
            ),
            "1 command, none of them a DISPLAY that is read (DISPLAY QLOCAL)",
        ),
        (
            json.dumps(
                {
                    "qmgr": "QM1",
                    "request": {
                        "type": "runCommandJSON",
                        "command": "define",
                        "qualifier": "qlocal",
                        "name": "A",
                    },
                    "response": {
                        "commandResponse": [
                            {
                                "completionCode": 0,
                                "reasonCode": 0,
                                "message": ["AMQ8006I: IBM MQ queue created."],
                            }
                        ],
                        "overallCompletionCode": 0,
                    },
                }
            ),
            "no answer to a DISPLAY",
        ),
    ],
    ids=["define run", "display of another kind", "rest define"],
)
def test_no_display_answer_is_not_a_capture(text: str, holds: str) -> None:
    with pytest.raises(InputError) as caught:
        read_capture(text, file="qm1.txt")
    assert holds in caught.value.message and "not a capture" in caught.value.message, caught.value.message


def test_the_reader_reads_the_kinds_of_the_capture_commands_no_other() -> None:
    """One list of DISPLAY commands (``formats.display.commands``): each kind the kit asks for has the
    reader's check of a block cut short, and every verb or message the reader knows names one of them."""
    from mqctl.formats.display import reader
    from mqctl.formats.display.commands import CAPTURE_COMMANDS

    kinds = {c.kind for c in CAPTURE_COMMANDS}
    assert set(reader.KINDS) == kinds
    assert set(reader.REQUIRED) == kinds
    assert set(reader._VERBS.values()) | set(reader._MESSAGES.values()) <= kinds
