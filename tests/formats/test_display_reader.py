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
    assert capture.others == {
        "Channel Status not found": 1,
        "DISPLAY QLOCAL": 1,
        "QUEUE": 1,
        "DELETE TOPIC": 1,
        "AMQ8147E": 1,
    }


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
