"""Many writers, crashes and half-created stores, with real processes, on SQLite and PostgreSQL.

Writers are serialised (``Store.lock``: SQLite ``BEGIN IMMEDIATE``, PostgreSQL the sequence row lock), so
none loses a row or another's change, and a clash is mqctl's own one-line answer, never a driver message.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from tests.conftest import run_cli
from tests.helpers import dump_store

REPO = Path(__file__).resolve().parents[2]
WORKER = textwrap.dedent(
    """
    import contextlib, io, sys
    from mqctl.cli.main import run

    url, *commands = sys.argv[1:]
    failures = []
    for line in commands:
        sys.argv = ["mqctl", "--db", url, *line.split("|")]
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                run()
        except SystemExit as exc:
            if exc.code not in (0, None):
                failures.append(f"{exc.code} {line}")
    print("\\n".join(failures))
    """
)


def _workers(
    url: str, batches: list[list[str]], env: dict[str, str] | None = None
) -> list[subprocess.CompletedProcess[str]]:
    """Run each batch of commands (``arg|arg|...``) in its own process, all at once."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, url, *batch],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=dict(os.environ, **(env or {})),
        )
        for batch in batches
    ]
    done = []
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        done.append(subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
    return done


def test_eight_writers_lose_nothing(store_url: str) -> None:
    assert run_cli(["define", "qmgr", "QM1"], db=store_url).exit_code == 0
    per_worker = 12
    batches = [
        [f"define|sub|W{w}.S{i}|--qmgr|QM1|--topicstr|/w{w}/{i}" for i in range(per_worker)] for w in range(8)
    ]
    for proc in _workers(store_url, batches):
        assert proc.stdout.strip() == "", proc.stdout + proc.stderr
        assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    shown = run_cli(["display", "sub", "*", "--qmgr", "QM1", "-o", "json"], db=store_url).json()
    assert len(shown) == 8 * per_worker  # type: ignore[arg-type]
    seqs = [s["seq"] for s in shown]  # type: ignore[union-attr]
    assert len(set(seqs)) == len(seqs)  # every definition took its own sequence


def test_first_uses_at_once_all_create_one_store(empty_store_url: str) -> None:
    """Four commands on a database never initialised: one creates the store, the others wait for it
    and use it (none fails on a table the other created)."""
    batches = [[f"define|qmgr|QM{w}"] for w in range(4)]
    for proc in _workers(empty_store_url, batches):
        assert proc.stdout.strip() == "", proc.stdout + proc.stderr
        assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    shown = run_cli(["display", "qmgr", "-o", "json"], db=empty_store_url).json()
    assert sorted(q["name"] for q in shown) == ["QM0", "QM1", "QM2", "QM3"]  # type: ignore[index, union-attr]


def test_a_store_created_between_the_two_looks_of_a_first_use_is_read_not_refused(
    empty_store_url: str,
) -> None:
    """The race behind a rare failure of the test above on PostgreSQL: a first use finds no
    ``alembic_version``, another first use then commits the whole store, and the first one's next look
    sees its tables. That is a store made meanwhile, not "tables but no alembic_version" (exit 3)."""
    from sqlalchemy import event

    from mqctl.store.engine import HEAD, create_at_head, current_revision, make_engine

    reader, other = make_engine(empty_store_url, create=True), make_engine(empty_store_url, create=True)
    created: list[bool] = []

    def create_meanwhile(context: object) -> None:
        if not created:  # the first look has just failed: the other first use commits now
            created.append(True)
            create_at_head(other)

    event.listen(reader, "handle_error", create_meanwhile)
    try:
        assert current_revision(reader) == HEAD
        assert created == [True]  # the interleaving did happen
    finally:
        reader.dispose()
        other.dispose()


def test_writers_of_one_name_get_already_defined_not_a_driver_error(store_url: str) -> None:
    assert run_cli(["define", "qmgr", "QM1"], db=store_url).exit_code == 0
    batches = [["define|topic|SAME|--qmgr|QM1|--topicstr|/same"] for _ in range(8)]
    results = _workers(store_url, batches)
    failed = [p.stdout.strip() for p in results if p.stdout.strip()]
    assert len(failed) == 7, [p.stdout + p.stderr for p in results]
    assert all(f.startswith("2 ") for f in failed)
    for proc in results:
        assert "IntegrityError" not in proc.stderr and "internal error" not in proc.stderr
        assert not proc.stderr.strip() or "is already defined" in proc.stderr, proc.stderr


def test_concurrent_runmqsc_alters_are_both_kept(store_url: str, tmp_path: Path) -> None:
    """Two scripts altering one queue manager at once: each reads what the other committed (no lost update)."""
    assert run_cli(["define", "qmgr", "QM1"], db=store_url).exit_code == 0
    one, two = tmp_path / "one.mqsc", tmp_path / "two.mqsc"
    for round_ in range(3):
        one.write_text(
            f"ALTER QMGR DESCR('round {round_}')\n" + "DEFINE SUB(X1) TOPICSTR('/x') REPLACE\n" * 200
        )
        two.write_text(
            f"ALTER QMGR PSCLUS({'DISABLED' if round_ % 2 == 0 else 'ENABLED'})\n"
            + "DEFINE SUB(X2) TOPICSTR('/y') REPLACE\n" * 200
        )
        results = _workers(store_url, [[f"runmqsc|QM1|{one}"], [f"runmqsc|QM1|{two}"]])
        assert all(p.stdout.strip() == "" for p in results), [p.stdout + p.stderr for p in results]
        node = run_cli(["display", "qmgr", "QM1", "-o", "json"], db=store_url).json()[0]  # type: ignore[index]
        assert node["descr"] == f"round {round_}"
        assert node["psclus"] == ("DISABLED" if round_ % 2 == 0 else "ENABLED")


def test_a_store_held_past_the_timeout_is_a_store_error(store_url: str) -> None:
    assert run_cli(["define", "qmgr", "QM1"], db=store_url).exit_code == 0
    engine = create_engine(store_url)
    conn = engine.connect()
    try:
        if store_url.startswith("sqlite"):
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            conn.begin()
            conn.execute(text("SELECT value FROM counters WHERE name = 'seq' FOR UPDATE"))
        results = _workers(store_url, [["define|qmgr|QM2"]], env={"MQCTL_LOCK_TIMEOUT": "0.5"})
    finally:
        conn.rollback()
        conn.close()
        engine.dispose()
    assert results[0].stdout.strip().startswith("3 "), results[0].stdout + results[0].stderr
    line = results[0].stderr.strip()
    assert line.count("\n") == 0 and "busy" in line and "Traceback" not in line


def _big_script(path: Path, count: int) -> None:
    lines = ["DEFINE TOPIC(BIG) TOPICSTR('/big')"]
    lines += [f"DEFINE SUB(BIG.S{i}) TOPICSTR('/big/{i}/#') SELECTOR('n > {i % 50}')" for i in range(count)]
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.slow
def test_an_import_killed_at_any_moment_leaves_all_or_nothing(store_url: str, tmp_path: Path) -> None:
    folder = tmp_path / "dumps"
    folder.mkdir()
    _big_script(folder / "QMBIG.mqsc", 20000)
    assert run_cli(["define", "qmgr", "QMBIG"], db=store_url).exit_code == 0
    empty = dump_store(store_url)
    outcomes = set()
    for delay in (0.3, 0.8, 1.5, 2.5, 4.0):
        proc = subprocess.Popen(
            [sys.executable, "-m", "mqctl", "--db", store_url, "import", "mqsc", str(folder)],
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        shown = run_cli(["display", "sub", "BIG.S*", "--qmgr", "QMBIG", "-o", "json"], db=store_url)
        assert shown.exit_code in (0, 1), shown.stderr  # the store opens cleanly
        count = len(shown.json()) if shown.exit_code == 0 else 0  # type: ignore[arg-type]
        assert count in (0, 20000), (delay, count)
        outcomes.add(count)
        if count:
            assert run_cli(["delete", "qmgr", "QMBIG", "--cascade"], db=store_url).exit_code == 0
            assert run_cli(["define", "qmgr", "QMBIG"], db=store_url).exit_code == 0
            empty = dump_store(store_url)  # the queue manager defined again has a new row id
        else:
            current = dump_store(store_url)
            assert {k: v for k, v in current.items() if k != "counters"} == {
                k: v for k, v in empty.items() if k != "counters"
            }
    assert 0 in outcomes  # at least one kill landed before the commit


def test_first_use_killed_during_schema_creation_leaves_no_half_store(tmp_path: Path) -> None:
    """Schema creation is one transaction: a first use killed at any moment leaves no tables, or all."""
    for delay in (0.05, 0.15, 0.3, 0.5, 0.8):
        path = tmp_path / f"first{delay}.db"
        url = f"sqlite:///{path}"
        proc = subprocess.Popen(
            [sys.executable, "-m", "mqctl", "--db", url, "define", "qmgr", "QM1"],
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        after = run_cli(["display", "qmgr", "-o", "json"], db=url)
        # all the schema (0, 1) or none of it: a read creates nothing and says so (3)
        assert after.exit_code in (0, 1) or "run `mqctl db upgrade`" in after.stderr, after.stderr


def test_db_upgrade_refuses_another_programs_database(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total INTEGER)"))
    engine.dispose()
    before = dump_store(f"sqlite:///{path}")
    for args in (["db", "upgrade"], ["define", "qmgr", "QM1"]):
        result = run_cli(args, db=f"sqlite:///{path}")
        assert result.exit_code == 3 and "not an mqctl store" in result.stderr, result.stderr
    assert dump_store(f"sqlite:///{path}") == before
