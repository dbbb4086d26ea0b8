"""Fuzzing the doors that run on untrusted input (issue 33), through the real entry point: `diff` sides
(folders with links out of them, `--git` with hostile revisions and trees) and what `import display`,
`display observed` and `reconcile` print of hostile captured values.

Whatever the input: no exit 4, no traceback, no raw control character in any output (escape sequences,
C1, bidirectional controls, separators), nothing of a file outside the tree given, no file written
outside mqctl's temporary folder, and no store changed by a refusal or a read (bytes compared).

These run the CLI in-process (tens of milliseconds an input, more for git): a twentieth of
``MQCTL_FUZZ_EXAMPLES`` each (5 by default), so that `make test` grows by seconds; `make fuzz` runs more.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import Result, run_cli
from tests.fuzz.mutations import EXAMPLES, fuzz_settings, mutated
from tests.stores import STORES

few = settings(fuzz_settings, max_examples=max(4, EXAMPLES // 20))

RAW_CONTROL = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]"
)
SECRET = "ghp_SECRETfuzzTOKEN0123456789"
QM1 = (
    "DEFINE CHANNEL(CL1.QM1) CHLTYPE(CLUSRCVR) CLUSTER(CL1) CONNAME('qm1(1414)')\n"
    "ALTER QMGR REPOS(CL1)\nDEFINE SUB(S1) TOPICSTR('/A/#') DEST(Q)\n"
)
QM2 = (
    "DEFINE CHANNEL(CL1.QM2) CHLTYPE(CLUSRCVR) CLUSTER(CL1) CONNAME('qm2(1414)')\n"
    "ALTER QMGR REPOS(CL1)\nDEFINE TOPIC(T) TOPICSTR('/A') CLUSTER(CL1) CLROUTE(DIRECT)\n"
)
HOSTILE = [
    "\x1b[31m",
    "\x1b[2J",
    "\x1b]0;title\x07",
    "\x1b]8;;http://x\x1b\\",
    "\x9b1m",
    "\x85",
    "\x07",
    "\x00",
    "\x7f",
    "\u2028",
    "\u2029",
    "\u202e",
    "\u2066",
    "\u200f",
    "[bold]",
    "[/]",
    "[link=x]",
    ":smile:",
    "'",
    "(",
    ")",
    "\\",
    "%s",
    "Q" * 300,
]
GIT_OPTIONS = [
    "--output=../../victim",
    "--output=created",
    "-oF",
    "--format=zip",
    "--list",
    "--prefix=../../x/",
    "--remote=../r",
    "--exec=touch pwned",
    "-v",
    "--",
    "--end-of-options",
    "HEAD",
    "HEAD~1",
    "@{-1}",
    "HEAD^{tree}",
    ":/",
    "../",
]


def hostile_text() -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(HOSTILE) | st.characters(codec="utf-8"), max_size=8).map("".join)


def clean(result: Result, *, allowed: tuple[int, ...] = (0, 1, 2)) -> Result:
    text = result.stdout + result.stderr
    assert result.exit_code in allowed, (result.exit_code, result.stderr[:500])
    assert "Traceback" not in text and "internal error" not in text, result.stderr[:500]
    found = RAW_CONTROL.search(text)
    assert found is None, (found, text[max(0, found.start() - 80) : found.end() + 80])
    assert SECRET not in text
    if result.exit_code == 2:
        assert len(result.stderr.splitlines()) == 1, result.stderr[:500]
    return result


def listing(folder: Path) -> dict[str, bytes]:
    out = {}
    for path in sorted(folder.rglob("*")):
        if ".git" in path.parts:
            continue
        out[str(path)] = (
            os.readlink(path).encode() if path.is_symlink() else path.read_bytes() if path.is_file() else b"/"
        )
    return out


@contextlib.contextmanager
def chdir(folder: Path) -> Iterator[None]:
    old = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(old)


# --- diff: folder sides --------------------------------------------------------------------------------


@few
@given(mutated([QM1, QM2]), hostile_text(), st.sampled_from(["none", "absolute", "relative", "folder"]))
def test_diff_folder_sides(text: str, name_part: str, link: str) -> None:
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp)
        (root / "token").write_text(SECRET + "\n")
        before, after = root / "before", root / "after"
        for side in (before, after):
            side.mkdir()
            (side / "QM1.mqsc").write_text(QM1)
            (side / "QM2.mqsc").write_text(QM2)
        (after / "QM2.mqsc").write_text(text, encoding="utf-8", errors="surrogateescape")
        safe_name = "".join(c for c in name_part if c not in "/\x00")[:100]
        if safe_name:
            with contextlib.suppress(OSError):
                (after / f"QM3{safe_name}.mqsc").write_text(text, encoding="utf-8", errors="surrogateescape")
        if link == "absolute":
            (after / "QM9.mqsc").symlink_to(root / "token")
        elif link == "relative":
            (after / "QM9.mqsc").symlink_to("../token")
        elif link == "folder":
            (after / "QM9").symlink_to(root)
        seen = listing(root)
        for output in ("text", "json", "markdown"):
            result = clean(run_cli(["diff", str(before), str(after), "-o", output]))
            if link != "none":
                assert result.exit_code == 2 and "symbolic link" in result.stderr
        assert listing(root) == seen


# --- diff: --git ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def repository() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as temp:
        repo = Path(temp) / "work" / "repo"
        (repo / "mq").mkdir(parents=True)
        (repo / "mq" / "QM1.mqsc").write_text(QM1)
        (repo / "mq" / "QM2.mqsc").write_text(QM2)
        (Path(temp) / "token").write_text(SECRET + "\n")
        git(repo, "init", "-q")
        commit(repo)
        yield repo


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-C", str(repo), *args],
        check=True,
        capture_output=True,
    )


def commit(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "x", "--allow-empty")


@few
@given(
    st.sampled_from(GIT_OPTIONS)
    | hostile_text()
    | st.builds(lambda o, t: o + t, st.sampled_from(GIT_OPTIONS), hostile_text()),
    st.sampled_from(["mq", "", ".", "-x", "--output=y", "../", ":(top)mq", "mq/QM1.mqsc"]) | hostile_text(),
)
def test_diff_git_hostile_revisions(repository: Path, rev: str, path: str) -> None:
    rev = rev.replace("\x00", "")
    path = path.replace("\x00", "")
    top = repository.parent.parent
    seen = listing(top)
    with chdir(repository):
        clean(run_cli(["diff", "--git", f"{rev}:{path}", "mq", "-o", "json"]))
        clean(run_cli(["diff", "--git", f"{rev}:{path}", "--git", "HEAD:mq"]))
    assert listing(top) == seen


@few
@given(
    mutated([QM1, QM2]),
    hostile_text(),
    st.sampled_from(["none", "absolute", "relative", "outside the path", "inside"]),
)
def test_diff_git_hostile_trees(repository: Path, text: str, name_part: str, link: str) -> None:
    mq = repository / "mq"
    for extra in mq.iterdir():
        if extra.name not in ("QM1.mqsc", "QM2.mqsc"):
            extra.unlink()
    (mq / "QM2.mqsc").write_text(QM2)
    commit(repository)  # the before side (HEAD~1): the good tree, whatever the last example left
    (mq / "QM2.mqsc").write_text(text, encoding="utf-8", errors="surrogateescape")
    safe_name = "".join(c for c in name_part if c not in "/\x00")[:100]
    if safe_name:
        with contextlib.suppress(OSError):
            (mq / f"QM3{safe_name}.mqsc").write_text(QM2.replace("T)", "T3)"))
    target = {
        "absolute": str(repository.parent.parent / "token"),
        "relative": "../../../token",
        "outside the path": "../README",
        "inside": "QM1.mqsc",
    }.get(link)
    if target is not None:
        (mq / "QM9.mqsc").symlink_to(target)
    (repository / "README").write_text(SECRET + "\n")
    commit(repository)
    top = repository.parent.parent
    seen = listing(top)
    with chdir(repository):
        for output in ("text", "markdown", "json"):
            result = clean(run_cli(["diff", "--git", "HEAD~1:mq", "--git", "HEAD:mq", "-o", output]))
            assert "mqctl-diff-" not in result.stderr
            if link in ("absolute", "relative", "outside the path"):
                assert result.exit_code == 2  # the link, or a file of a bad name before it
                assert "QM9.mqsc" in result.stderr or safe_name
    assert listing(top) == seen


# --- import display, display observed, reconcile --------------------------------------------------------


@pytest.fixture(scope="module")
def estate_store() -> Iterator[Path]:
    """A SQLite store holding QM1 and QM2 (a cluster; S1 on QM1 needs the channel to QM2)."""
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "mq"
        folder.mkdir()
        (folder / "QM1.mqsc").write_text(QM1)
        (folder / "QM2.mqsc").write_text(QM2)
        store = Path(temp) / "estate.db"
        url = STORES.sqlite.fresh(store)
        assert run_cli(["--db", url, "import", "mqsc", str(folder)]).exit_code == 0
        yield store


def capture(status: str, conname: str, rqmname: str) -> str:
    return (
        "Starting MQSC for queue manager QM1.\n"
        "     1 : DISPLAY CHSTATUS(*)\n"
        "AMQ8417I: Display Channel Status details.\n"
        "   CHANNEL(CL1.QM2)                        CHLTYPE(CLUSSDR)\n"
        f"   CONNAME({conname})                      CURRENT\n"
        f"   RQMNAME({rqmname})                      STATUS({status})\n"
        "1 MQSC commands read.\n"
    )


@few
@given(hostile_text(), hostile_text(), st.sampled_from(["QM2", "QM2\x1b[2J", "[/]"]) | hostile_text())
def test_captured_values_never_act_on_output(
    estate_store: Path, status: str, conname: str, rqmname: str
) -> None:
    with tempfile.TemporaryDirectory() as temp:
        store = Path(temp) / "store.db"
        shutil.copy2(estate_store, store)
        url = f"sqlite:///{store}"
        path = Path(temp) / "QM1.txt"
        path.write_text(
            capture("retrying" + status, "qm2(1414)" + conname, rqmname),
            encoding="utf-8",
            errors="surrogateescape",
        )
        before = store.read_bytes()
        imported = clean(
            run_cli(["--db", url, "import", "display", str(path), "--at", "2026-11-26T03:00:00Z"])
        )
        if imported.exit_code != 0:
            assert store.read_bytes() == before  # a refusal changes nothing
        after_import = store.read_bytes()
        for args in (
            ["display", "observed"],
            ["display", "observed", "-o", "json"],
            ["reconcile"],
            ["reconcile", "-o", "json"],
            ["reconcile", "-o", "sarif"],
            ["reconcile", "-o", "junit"],
        ):
            result = clean(run_cli(["--db", url, *args]))
            if args[-1] == "junit":
                ET.fromstring(result.stdout.encode())
            elif args[-1] in ("json", "sarif"):
                import json

                json.loads(result.stdout)
            assert store.read_bytes() == after_import, args  # a read writes nothing
