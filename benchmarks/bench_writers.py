"""Concurrent writers: N processes defining subscriptions in one store at once, writes per second.

    .venv/bin/python benchmarks/bench_writers.py [--writers 8] [--each 50] [--pg URL]

Each writer is a Python process that runs ``mqctl define sub`` ``--each`` times in process (the real
command: one transaction and the store's writer lock per command, no process start per write). The
figure is all the writes over the wall clock from the first start to the last end, on SQLite and, when
``--pg`` is given (default the local server), on PostgreSQL; then every subscription is counted, so a
lost write would show. The correctness of the same situation is pinned by tests/store/test_concurrency.py.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402

WRITER = """
import sys
from mqctl.cli.main import run
url, writer, each = sys.argv[1], sys.argv[2], int(sys.argv[3])
for i in range(each):
    sys.argv = ["mqctl", "--db", url, "define", "sub", f"W{writer}.S{i}", "--qmgr", "QM1", "--topicstr", f"/w/{writer}/{i}"]
    try:
        run()
    except SystemExit as exc:
        if exc.code not in (0, None):
            raise SystemExit(f"writer {writer}: define failed with exit {exc.code}")
"""


def mqctl(url: str, *args: str) -> str:
    run = harness.timed([sys.executable, "-m", "mqctl", "--db", url, *args])
    return harness.checked(run, f"mqctl {args[0]} {args[1]}", ok=(0,)).proc.stdout


def measure(url: str, writers: int, each: int) -> dict[str, float]:
    mqctl(url, "define", "qmgr", "QM1")
    with harness.stopwatch() as clock:  # from the first start to the last end: the writers run at once
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", WRITER, url, str(w), str(each)],
                stdout=subprocess.DEVNULL,
                env=harness.ENV,
            )
            for w in range(writers)
        ]
        codes = [p.wait() for p in procs]
    wall = clock.wall
    count = len(json.loads(mqctl(url, "display", "sub", "*", "--qmgr", "QM1", "-o", "json")))
    return {
        "writers": writers,
        "writes": writers * each,
        "failed_writers": sum(1 for c in codes if c != 0),
        "subscriptions_found": count,
        "wall_s": round(wall, 2),
        "writes_per_s": round(writers * each / wall, 1),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--writers", type=int, default=8)
    ap.add_argument("--each", type=int, default=50)
    ap.add_argument("--pg", default="postgresql+psycopg://postgres@127.0.0.1:5432/test")
    args = ap.parse_args(argv)
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        results["sqlite"] = measure(f"sqlite:///{Path(folder) / 'w.db'}", args.writers, args.each)
    if args.pg:
        from sqlalchemy import create_engine, text
        from sqlalchemy.engine import make_url

        admin = make_url(args.pg)
        name = f"mqctl_bench_{uuid.uuid4().hex[:8]}"
        engine = create_engine(admin, isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        try:
            results["postgresql"] = measure(
                admin.set(database=name).render_as_string(hide_password=False), args.writers, args.each
            )
        finally:
            with engine.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    return harness.emit(results, True)


if __name__ == "__main__":
    raise SystemExit(main())
