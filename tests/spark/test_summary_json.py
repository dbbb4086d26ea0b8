"""summary.json's text: any summary reads back as itself, and a link (or a gained or lost subscription)
is one line."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from mqctl.spark.summary_json import summary_text

scalars = st.none() | st.booleans() | st.integers() | st.text() | st.floats(allow_nan=False)
json_values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4)
)


@given(st.dictionaries(st.text(), json_values, max_size=5))
def test_any_summary_reads_back_as_itself(summary: dict[str, Any]) -> None:
    text = summary_text(summary)
    assert text.endswith("\n")
    assert json.loads(text) == summary


def test_records_of_a_list_are_one_line_each_and_the_rest_is_indented() -> None:
    links = [{"from": "QM1", "to": f"QM{i}", "via": "CL1", "messages": i} for i in (2, 3)]
    summary = {
        "variants": [
            {
                "variant": "current",
                "messages_by_node": {"QM1": 5},
                "messages_by_link": links,
                "gained": [],
                "lost": [],
            }
        ],
        "rejected": 0,
    }
    lines = summary_text(summary).splitlines()
    assert '        {"from": "QM1", "to": "QM2", "via": "CL1", "messages": 2},' in lines
    assert '        {"from": "QM1", "to": "QM3", "via": "CL1", "messages": 3}' in lines
    assert '        "QM1": 5' in lines
    assert '      "gained": [],' in lines
    assert lines[0] == "{" and lines[-1] == "}"


records = st.lists(
    st.dictionaries(
        st.sampled_from(["from", "to", "via", "}, {"]), st.text(alphabet='{}, ab"\n') | st.integers()
    ),
    min_size=1,
    max_size=6,
)


@given(records)
def test_each_record_is_its_own_line_whatever_its_text_holds(links: list[dict[str, Any]]) -> None:
    """A record is written as the encoder writes it alone, on a line of its own, even when a text holds
    what the encoder writes between two records (``}, {``)."""
    lines = summary_text({"messages_by_link": links}).splitlines()
    written = [f"    {json.dumps(r, ensure_ascii=False)}" for r in links]
    assert lines[2:-2] == [line + "," for line in written[:-1]] + written[-1:]
