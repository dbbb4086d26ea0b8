"""validate's report for people, written directly for a pipe line by line, is byte for byte what Rich
prints there (issue 24: a report of thousands of findings, the same text, faster)."""

from __future__ import annotations

import io
from contextlib import redirect_stdout

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mqctl.domain.validation import Severity
from mqctl.domain.validation.catalogue import RULES
from mqctl.domain.validation.findings import Finding, Source
from mqctl.render import findings as report


def printed(findings: list[Finding], *, direct: bool, monkeypatch: pytest.MonkeyPatch) -> str:
    with monkeypatch.context() as patch:
        patch.setattr(report, "plain_output", lambda: direct)  # False: every line through Rich
        buf = io.StringIO()
        with redirect_stdout(buf):
            report.render(findings, Severity.WARNING)
    return buf.getvalue()


TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30) | st.sampled_from(
    ["topic '/a/b' on QM1: x", "代码 Ünï", "a:smile:b", "[bold]x", "back\\", "trail ", "", "50%"]
)
FINDINGS = st.lists(
    st.builds(
        Finding,
        st.sampled_from(RULES),
        TEXT,
        st.just(()),
        st.just(()),
        st.lists(st.builds(Source, TEXT, st.none() | st.integers(1, 99)), max_size=1).map(tuple),
    ),
    max_size=6,
)


@given(FINDINGS)
def test_the_direct_report_is_what_rich_prints(findings: list[Finding]) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert printed(findings, direct=True, monkeypatch=monkeypatch) == printed(
            findings, direct=False, monkeypatch=monkeypatch
        )
