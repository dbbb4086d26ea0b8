"""`diff` sides and file doors as untrusted input (issue 33), through the real entry point: a `--git`
revision that is a git option, symbolic links out of a folder or a git tree, and errors naming the
repository's paths, never a temporary folder's."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.helpers import refused

SECRET = "ghp_0123456789abcdefSECRETTOKENxyz"
GOOD = "DEFINE SUB(S1) TOPICSTR('/USA/#') DEST(Q)\n"


def listing(folder: Path) -> dict[str, tuple[int, bytes]]:
    """Every file under ``folder`` (links not followed) with its size and content."""
    out = {}
    for path in sorted(folder.rglob("*")):
        if path.is_symlink():
            out[str(path)] = (-1, os.readlink(path).encode())
        elif path.is_file():
            out[str(path)] = (path.stat().st_size, path.read_bytes())
    return out


def repository(root: Path) -> Path:
    """A repository with ``mq/QM1.mqsc`` committed, and a file outside it holding a secret."""
    repo = root / "repo"
    (repo / "mq").mkdir(parents=True)
    (repo / "mq" / "QM1.mqsc").write_text(GOOD)
    git(repo, "init", "-q")
    commit(repo, "first")
    return repo


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-C", str(repo), *args],
        check=True,
        capture_output=True,
    )


def commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)


@pytest.mark.parametrize(
    "rev",
    ["--output={victim}", "--output={created}", "-oF", "--format=zip", "--list", "--prefix=../../x/", "-v"],
)
def test_a_revision_is_never_an_option_of_git(
    rev: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = repository(tmp_path)
    victim = tmp_path / "victim"
    victim.write_text("keep me\n")
    rev = rev.format(victim=victim, created=tmp_path / "created")
    monkeypatch.chdir(repo)
    before = listing(tmp_path)
    line = refused(run_cli(["diff", "--git", f"{rev}:mq", "mq"]), "--git", "is not a commit")
    assert "mqctl-diff-" not in line
    assert listing(tmp_path) == before
    assert victim.read_text() == "keep me\n"
    assert not (tmp_path / "created").exists() and not (repo / "F").exists()


def test_a_path_is_never_an_option_nor_pathspec_magic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = repository(tmp_path)
    monkeypatch.chdir(repo)
    before = listing(tmp_path)
    for path in (f"--output={tmp_path / 'created'}", ":(top)mq", "../outside"):
        refused(run_cli(["diff", "--git", f"HEAD:{path}", "mq"]), "--git")
    assert listing(tmp_path) == before


def test_a_refused_git_side_names_the_repository_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = repository(tmp_path)
    (repo / "mq" / "QM2.mqsc").write_text("DEFINE TOPIC(T1) TOPICSTR(\n")
    commit(repo, "broken")
    monkeypatch.chdir(repo)
    line = refused(run_cli(["diff", "--git", "HEAD:mq", "mq"]), "mq/QM2.mqsc")
    assert "mqctl-diff-" not in line and "/tmp" not in line
    line = refused(run_cli(["diff", "--git", "HEAD:nowhere", "mq"]), "nowhere")
    assert "mqctl-diff-" not in line


@pytest.mark.parametrize("how", ["absolute", "relative", "out of the path"])
def test_a_git_tree_with_a_link_out_of_it_is_refused(
    how: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = repository(tmp_path)
    secret = tmp_path / "token"
    secret.write_text(SECRET + "\n")
    (repo / "other").mkdir()
    (repo / "other" / "x.txt").write_text(SECRET + "\n")
    target = {"absolute": str(secret), "relative": "../../token", "out of the path": "../other/x.txt"}[how]
    (repo / "mq" / "QM9.mqsc").symlink_to(target)
    commit(repo, "link")
    monkeypatch.chdir(repo)
    result = run_cli(["diff", "--git", "HEAD:mq", "--git", "HEAD~1:mq"])
    line = refused(result, "QM9.mqsc", "symbolic link")
    assert SECRET not in result.stdout + result.stderr
    assert str(secret) not in line and "mqctl-diff-" not in line


def test_folder_doors_refuse_a_link_out_of_the_folder(tmp_path: Path, store_url: str) -> None:
    from tests.helpers import dump_store

    secret = tmp_path / "token"
    secret.write_text(SECRET + "\n")
    mq = tmp_path / "mq"
    mq.mkdir()
    (mq / "QM1.mqsc").write_text(GOOD)
    (mq / "QM9.mqsc").symlink_to(secret)
    good = tmp_path / "good"
    good.mkdir()
    (good / "QM1.mqsc").write_text(GOOD)
    nested = tmp_path / "nested"
    (nested / "QM1").mkdir(parents=True)
    (nested / "QM1" / "10.mqsc").write_text(GOOD)
    (nested / "QM1" / "sub").symlink_to(tmp_path)  # a folder link out of the tree
    stored = dump_store(store_url)
    for args in (
        ["diff", str(good), str(mq)],
        ["diff", str(mq), str(good)],
        ["validate", "--file", str(mq)],
        ["--db", store_url, "import", "mqsc", str(mq)],
        ["diff", str(good), str(nested)],
    ):
        result = run_cli(args)
        refused(result, "symbolic link")
        assert SECRET not in result.stdout + result.stderr
        assert str(secret) not in result.stderr
    assert dump_store(store_url) == stored


def test_a_link_inside_the_folder_is_followed(tmp_path: Path) -> None:
    mq = tmp_path / "mq"
    (mq / "real").mkdir(parents=True)
    (mq / "real" / "QM1.mqsc").write_text(GOOD)
    (mq / "QM1.mqsc").symlink_to("real/QM1.mqsc")
    result = run_cli(["validate", "--file", str(mq / "QM1.mqsc")])
    assert result.exit_code == 0, result.stderr
    result = run_cli(["diff", str(mq / "real"), str(mq / "real")])
    assert result.exit_code == 0, result.stderr


def test_an_unknown_command_quotes_a_short_excerpt(tmp_path: Path) -> None:
    script = tmp_path / "QM1.mqsc"
    script.write_text(SECRET + " more words\n")
    result = run_cli(["validate", "--file", str(script)])
    assert SECRET not in result.stdout + result.stderr


@pytest.mark.parametrize("pointer", ["absolute", "relative"])
def test_an_ems_pointer_out_of_the_folder_is_not_read(pointer: str, tmp_path: Path) -> None:
    secret = tmp_path / "token"
    secret.write_text(SECRET + "\n")
    ems = tmp_path / "ems" / "E1"
    ems.mkdir(parents=True)
    target = str(secret) if pointer == "absolute" else "../../token"
    (ems / "tibemsd.conf").write_text(f"server = E1\ntopics = {target}\n")
    good = tmp_path / "good"
    good.mkdir()
    (good / "QM1.mqsc").write_text(GOOD)
    for args in (["validate", "--file", str(tmp_path / "ems")], ["diff", str(good), str(tmp_path / "ems")]):
        result = run_cli(args)
        assert SECRET not in result.stdout + result.stderr
        if args[0] == "diff":
            refused(result, "tibemsd.conf:2", "leads outside")
        else:
            assert result.exit_code != 0 and "leads outside" in result.stdout + result.stderr


def test_a_capture_folder_with_a_link_out_is_refused(tmp_path: Path, store_url: str) -> None:
    from tests.helpers import dump_store

    secret = tmp_path / "token"
    secret.write_text(SECRET + "\n")
    captures = tmp_path / "captures"
    captures.mkdir()
    (captures / "QM1.txt").symlink_to(secret)
    stored = dump_store(store_url)
    result = run_cli(["--db", store_url, "import", "display", str(captures), "--at", "2026-11-26T03:00:00Z"])
    refused(result, "symbolic link")
    assert SECRET not in result.stdout + result.stderr
    assert dump_store(store_url) == stored
