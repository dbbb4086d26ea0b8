"""`mqctl topic match` and `mqctl selector test`: the contract of the domain-core issue (docs/cli.md)."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["/USA/+/Mobile", "/USA/Alabama/Mobile"], 0),
        (["/USA/#", "/USA"], 0),  # semantics §2: '#' matches zero levels
        (["USA/#", "/USA/x"], 1),  # a leading '/' makes an empty first level
        (["/USA#", "/USA#"], 0),  # not a whole level: literal
        (["#/Results", "/a/b/Results"], 0),
        (["orders.>", "orders", "--dialect", "ems"], 1),  # '>' needs at least one level
        (["orders.*", "orders.us", "--dialect", "ems"], 0),
        (["foo.>.bar", "foo.a.bar", "--dialect", "ems"], 2),  # '>' only last
        (["a*", "a1", "--dialect", "ems"], 2),  # '*' only as a whole element
        (["orders.*", "orders.*", "--dialect", "ems"], 2),  # a wildcard in the topic
    ],
)
def test_topic_match_exit_codes(args: list[str], code: int) -> None:
    result = run_cli(["topic", "match", *args])
    assert result.exit_code == code, result.stderr
    if code == 2:
        assert result.stderr.startswith("mqctl: error: ") and "column" in result.stderr


def test_topic_match_json() -> None:
    result = run_cli(["topic", "match", "/a/+", "/a/b", "-o", "json"])
    assert result.json() == {"pattern": "/a/+", "topic": "/a/b", "dialect": "mq", "match": True}


@pytest.mark.parametrize(
    ("expr", "args", "text", "code"),
    [
        ("country = 'USA' AND priority > 4", ["--prop", "country=USA", "--prop", "priority=5"], "TRUE", 0),
        ("country = 'USA' AND priority > 4", ["--prop", "country=USA", "--prop", "priority=4"], "FALSE", 1),
        ("country = 'USA'", [], "UNKNOWN", 1),  # missing property: UNKNOWN (semantics §7)
        ("n = 3", ["--prop", "n='3'"], "FALSE", 1),  # quotes force a string: unlike types are FALSE (§9)
        ("n = 3", ["--prop", "n=3"], "TRUE", 0),
        ("n / 2 = 1", ["--prop", "n=3"], "TRUE", 0),  # integer division truncates (semantics §9)
        ("JMSPriority = 4", [], "TRUE", 0),  # default header (semantics §9)
        ("JMSPriority > 6", ["--header", "JMSPriority=7"], "TRUE", 0),
        ("JMSDeliveryMode = 'PERSISTENT'", [], "TRUE", 0),
        ("q = 'a b'", ["--prop", "q:string=a b"], "TRUE", 0),
        (
            "q = '''a b'''",
            ["--prop", "q:string='a b'"],
            "TRUE",
            0,
        ),  # with a TYPE the value is taken as written
        ("flag", ["--prop", "flag=true"], "TRUE", 0),
        ("n BETWEEN 1 AND 5", ["--prop", "n:long=3"], "TRUE", 0),
    ],
)
def test_selector_test(expr: str, args: list[str], text: str, code: int) -> None:
    result = run_cli(["selector", "test", expr, *args])
    assert (result.stdout.strip(), result.exit_code) == (text, code), result.stderr


def test_selector_test_json_and_bad_selector() -> None:
    result = run_cli(["selector", "test", "x > 1", "--prop", "x=2", "-o", "json"])
    data = result.json()
    assert data["result"] is True and data["properties"]["x"] == {"type": "int", "value": 2}
    assert run_cli(["selector", "test", "x >", "-o", "json"]).exit_code == 2
    bad = run_cli(["selector", "test", "p > 'foo'"])  # literal type error rejected when created
    assert bad.exit_code == 2 and "column" in bad.stderr
    assert run_cli(["selector", "test", "x = 1", "--prop", "x:int=abc"]).exit_code == 2
