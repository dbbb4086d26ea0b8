"""``mqctl import snapshot`` of the benchmark estate into an empty SQLite store and an empty PostgreSQL one.

    .venv/bin/python benchmarks/bench_snapshot_import.py [--snapshot DIR] [--pg URL] [--runs 1] [--json]

The snapshot is the one ``bench_spark.py`` exports (5,000 queue managers, 500,396 subscriptions, 200 EMS
servers); it is only read. Each run is the real command as a subprocess on a fresh store whose schema
was created first (``mqctl db upgrade``, not timed): wall clock and the CPU seconds of the mqctl process;
for PostgreSQL also the server's CPU seconds when it runs on this machine (every ``postgres`` process,
ended backends included through the postmaster's children times; other sessions on the server count
too). PostgreSQL runs in a database created for the run and dropped after it; an unreachable server is
skipped with the reason.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import harness  # noqa: E402

SNAPSHOT = Path.home() / ".cache/mqctl-bench/topology-c50-q100-t10-s100-e200-seed7/snapshot"
PG_ADMIN = os.environ.get("MQCTL_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def postgres_cpu_s() -> float | None:
    """CPU seconds of every local ``postgres`` process, ended children included (Linux); None elsewhere."""
    proc = Path("/proc")
    if not proc.is_dir():
        return None
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if not stat[stat.index("(") + 1 : stat.rindex(")")].startswith("postgres"):
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        total += sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
    return total / tick


def mqctl(url: str, *args: str) -> dict[str, float]:
    """Run ``mqctl --db URL ARGS``; wall clock and the child's CPU seconds."""
    cmd = [sys.executable, "-m", "mqctl", "--db", url, *args]
    run = harness.timed(cmd, env=harness.ENV | {"PYTHONPATH": str(ROOT)}, keep_output=False)
    harness.checked(run, f"mqctl {' '.join(args)}", ok=(0,))
    return {"wall_s": run.wall, "cpu_s": run.cpu}


def timed_import(url: str, snapshot: Path, server: bool) -> dict[str, float]:
    mqctl(url, "db", "upgrade")
    before = postgres_cpu_s() if server else None
    figures = mqctl(url, "import", "snapshot", str(snapshot))
    if before is not None:
        time.sleep(0.2)  # the backend has ended and been reaped
        after = postgres_cpu_s()
        figures["server_cpu_s"] = (after or 0.0) - before
    return figures


def sqlite_runs(snapshot: Path, runs: int) -> list[dict[str, float]]:
    out = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="mqctl-bench-snapshot-") as tmp:
            out.append(timed_import(f"sqlite:///{Path(tmp) / 'store.db'}", snapshot, server=False))
    return out


def postgres_runs(snapshot: Path, runs: int, admin_url: str) -> list[dict[str, float]] | str:
    """The runs, or why PostgreSQL was skipped."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    admin = make_url(admin_url)
    local = admin.host in (None, "", "localhost", "127.0.0.1", "::1")
    try:
        engine = create_engine(admin, isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:  # noqa: BLE001
        return f"PostgreSQL at {admin.render_as_string()} is unreachable: {str(exc).splitlines()[0]}"
    out = []
    try:
        for _ in range(runs):
            name = f"mqctl_bench_{uuid.uuid4().hex[:12]}"
            with engine.connect() as conn:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
            try:
                url = admin.set(database=name).render_as_string(hide_password=False)
                out.append(timed_import(url, snapshot, server=local))
            finally:
                with engine.connect() as conn:
                    conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        engine.dispose()
    return out


def median(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: round(statistics.median(r[key] for r in runs), 1) for key in runs[0]}


def table(result: Mapping[str, Any]) -> Iterator[str]:
    rows = result["rows"]
    yield f"import snapshot: {sum(rows.values()):,} rows ({rows['subscriptions']:,} subscriptions), one transaction"
    yield f"{'store':<12}{'wall s':>9}{'mqctl CPU s':>13}{'server CPU s':>14}"
    for store in ("sqlite", "postgresql"):
        figures = result[store]
        if isinstance(figures, str):
            yield f"{store:<12}skipped: {figures}"
            continue
        server = f"{figures['server_cpu_s']:.1f}" if "server_cpu_s" in figures else "-"
        yield f"{store:<12}{figures['wall_s']:>9.1f}{figures['cpu_s']:>13.1f}{server:>14}"
    yield f"load average (1 min): {result['load_start']:.2f} at the start, {result['load_end']:.2f} at the end"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--snapshot", type=Path, default=SNAPSHOT, help="a folder written by export snapshot")
    ap.add_argument("--pg", default=PG_ADMIN, help="a PostgreSQL URL allowed to create databases")
    ap.add_argument("--runs", type=int, default=1, help="median of this many runs (each on a fresh store)")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = ap.parse_args(argv)
    manifest = args.snapshot / "manifest.json"
    if not manifest.is_file():
        raise SystemExit(
            f"no snapshot in {args.snapshot}: benchmarks/bench_spark.py exports it (or --snapshot)"
        )
    rows = {table: entry["rows"] for table, entry in json.loads(manifest.read_text())["tables"].items()}
    result: dict[str, Any] = {"snapshot": str(args.snapshot), "rows": rows, "load_start": os.getloadavg()[0]}
    result["sqlite"] = median(sqlite_runs(args.snapshot, args.runs))
    pg = postgres_runs(args.snapshot, args.runs, args.pg)
    result["postgresql"] = pg if isinstance(pg, str) else median(pg)
    result["load_end"] = os.getloadavg()[0]
    return harness.emit(result, args.json, table)


if __name__ == "__main__":
    raise SystemExit(main())
