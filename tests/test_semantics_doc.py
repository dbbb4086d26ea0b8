"""docs/semantics.md is the project's own normative text: every "semantics §N" the code and the docs cite
names a section of it, and its numbering is the numbering of the source text it must agree with."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOC = (REPO / "docs" / "semantics.md").read_text()
SOURCE = REPO.parent / "shared" / "SEMANTICS.md"
CITATION = re.compile(r"SEMANTICS(?:\.md)? ?§ ?(\d+)(?:\.(\d+))?", re.IGNORECASE)


def sections(text: str) -> dict[int, str]:
    """Numbered `## N. Title` headings of a document."""
    return {int(n): title for n, title in re.findall(r"^## (\d+)\. (.+)$", text, re.M)}


def items(text: str, section: int) -> int:
    """How many numbered items (`1.`, `2.`…) the section's own list holds."""
    body = re.split(r"^## ", text.split(f"\n## {section}. ", 1)[1], maxsplit=1, flags=re.M)[0]
    return len(re.findall(r"^\d+\. ", body, re.M))


def cited() -> set[tuple[str, int, int | None]]:
    found = set()
    for path in [*REPO.glob("mqctl/**/*.py"), *REPO.glob("tests/**/*.py"), *REPO.glob("docs/*.md")]:
        for major, minor in CITATION.findall(path.read_text(encoding="utf-8")):
            found.add((str(path.relative_to(REPO)), int(major), int(minor) if minor else None))
    return found


def test_every_citation_names_a_section_of_docs_semantics() -> None:
    known = sections(DOC)
    citations = cited()
    assert citations, "the code cites the semantics"
    for where, major, minor in sorted(citations, key=str):
        assert major in known, f"{where} cites §{major}, which docs/semantics.md does not have"
        if minor is not None:
            assert minor <= items(DOC, major), f"{where} cites §{major}.{minor}: §{major} has fewer items"


def test_the_numbering_is_the_source_texts() -> None:
    if not SOURCE.is_file():
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {SOURCE} is absent")
        pytest.skip(f"{SOURCE} is absent (the shared folder beside the checkout)")
    source = SOURCE.read_text(encoding="utf-8")
    ours = sections(DOC)
    for number in sections(source):
        assert number in ours, f"docs/semantics.md lacks §{number} of the source text"
        assert items(DOC, number) == items(source, number), f"§{number}: numbered items differ"


def test_the_document_says_it_is_normative_and_complete() -> None:
    assert "normative" in DOC.splitlines()[0]
    for number, title in sections(DOC).items():
        assert title.strip(), f"§{number} has a title"
