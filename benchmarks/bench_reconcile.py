"""`mqctl reconcile` on the explain benchmark's estate against the floor of a bare read of the same store.

    .venv/bin/python benchmarks/bench_reconcile.py                      # 5,000 qmgrs, captures of 10
    .venv/bin/python benchmarks/bench_reconcile.py --capture-qmgrs 100 --runs 1  # all of CL00 (large)

1. The store is the explain benchmark's (``bench_explain.py``, cached under ``--cache``; never generated
   here): copied to ``stores/reconcile-N.db`` and brought to the head revision (``mqctl db upgrade``).
2. Captures: the model's own predicted DISPLAY output (``predict_proxies`` + ``node_views`` +
   ``formats.display.predicted_commands``, laid out by ``to_runmqsc``, as the round-trip test of
   tests/cli/test_observed_cli.py does) for the first ``--capture-qmgrs`` queue managers of cluster CL00,
   imported with ``mqctl import display`` (timed, for the record). The copy is kept and reused.
3. In the same run, alternating after one warm-up of each, ``--runs`` times, as subprocesses (process
   start included): the floor, a Python process reading every row of every table of that store with
   ``sqlite3`` (the validate benchmark's floor, captures included), and ``mqctl reconcile -o json``.
   Wall and CPU (children's resource usage) are both reported: the machine may be shared.

Target (issue 22): reconcile <= 4 x the bare read (medians).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

import bench_explain  # noqa: E402
import harness  # noqa: E402
from bench_validate import BARE_READ  # noqa: E402

TARGET = 4.0


def timed(cmd: list[str]) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Wall seconds, CPU seconds of the child, the process."""
    run = harness.timed(cmd)
    return run.wall, run.cpu, run.proc


def write_captures(db: Path, folder: Path, count: int) -> int:
    """The predicted DISPLAY output of the first ``count`` queue managers of CL00; the blocks written."""
    from mqctl.domain.observed import node_views, predict_proxies
    from mqctl.formats.display import predicted_commands, to_runmqsc
    from mqctl.store.engine import open_store
    from mqctl.store.topology import load_topology

    engine = open_store(f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            topology = load_topology(conn)
    finally:
        engine.dispose()
    members = sorted(m.node for m in topology.memberships if m.cluster == "CL00")[:count]
    sample = frozenset(members)
    proxies = predict_proxies(topology, sample)
    held: dict[str, list[Any]] = {}
    for proxy in proxies.values():
        held.setdefault(proxy.holder, []).append(proxy)
    subs: dict[str, list[Any]] = {}
    for sub in topology.subscriptions:
        if sub.node in sample:
            subs.setdefault(sub.node, []).append(sub)
    views = node_views(topology)
    blocks = 0
    folder.mkdir(parents=True, exist_ok=True)
    for name in members:
        commands = predicted_commands(subs.get(name, []), held.get(name, []), views[name])
        blocks += sum(len(c.blocks) for c in commands)
        (folder / f"{name}.txt").write_text(to_runmqsc(name, commands), encoding="utf-8")
    return blocks


def prepare(args: argparse.Namespace) -> tuple[Path, dict[str, Any]]:
    """The copy of the cached store, upgraded, with the captures imported (reused when present)."""
    cache = Path(args.cache).expanduser()
    out = bench_explain.topology(cache, args)
    big = out / "stores" / "big.db"
    if not big.exists():
        raise SystemExit(f"no cached store {big}: run benchmarks/bench_explain.py once")
    db = out / "stores" / f"reconcile-{args.capture_qmgrs}.db"
    info_file = db.with_suffix(".json")
    if db.exists() and info_file.exists():
        return db, {**json.loads(info_file.read_text()), "reused": True}
    tmp = db.with_suffix(".tmp")
    shutil.copyfile(big, tmp)
    bench_explain.mqctl(tmp, "db", "upgrade")
    with tempfile.TemporaryDirectory(prefix="mqctl-bench-reconcile-") as folder:
        t0 = time.perf_counter()
        blocks = write_captures(tmp, Path(folder), args.capture_qmgrs)
        written = time.perf_counter() - t0
        wall, cpu, proc = timed(
            [
                bench_explain.MQCTL,
                "--db",
                f"sqlite:///{tmp}",
                "import",
                "display",
                folder,
                "--at",
                "2026-11-26T00:00:00Z",
            ]
        )
        if proc.returncode != 0:
            raise SystemExit(f"import display failed ({proc.returncode}): {proc.stderr.strip()}")
    info = {
        "capture_qmgrs": args.capture_qmgrs,
        "blocks": blocks,
        "captures_written_s": round(written, 2),
        "import_wall_s": round(wall, 2),
        "import_cpu_s": round(cpu, 2),
    }
    tmp.rename(db)
    info_file.write_text(json.dumps(info))
    return db, {**info, "reused": False}


def run(args: argparse.Namespace) -> dict[str, Any]:
    db, info = prepare(args)
    bare_cmd = [sys.executable, "-c", BARE_READ, str(db)]
    rec_cmd = [
        bench_explain.MQCTL,
        "--db",
        f"sqlite:///{db}",
        "reconcile",
        "-o",
        "json",
        "--fail-on",
        "error",
    ]
    rows = harness.checked(harness.timed(bare_cmd), "the bare read").proc  # the warm-ups
    report = json.loads(harness.checked(harness.timed(rec_cmd), "mqctl reconcile").proc.stdout)
    figures = harness.alternate({"bare": bare_cmd, "reconcile": rec_cmd}, args.runs, warmup=0)

    r: dict[str, Any] = {
        **info,
        "rows": int(rows.stdout.strip() or 0),
        "store_mb": round(db.stat().st_size / 2**20, 1),
        "runs": args.runs,
        "bare_read_s": round(figures["bare"].wall, 3),
        "bare_read_cpu_s": round(figures["bare"].cpu, 3),
        "reconcile_s": round(figures["reconcile"].wall, 3),
        "reconcile_cpu_s": round(figures["reconcile"].cpu, 3),
        "findings": report["summary"],
        "by_rule": _by_rule(report["findings"]),
    }
    r["ratio"] = round(r["reconcile_s"] / r["bare_read_s"], 2)
    r["ratio_cpu"] = round(r["reconcile_cpu_s"] / r["bare_read_cpu_s"], 2)
    r["met"] = r["ratio"] <= TARGET
    return r


def _by_rule(findings: list[dict[str, Any]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for f in findings:
        out[f["code"]] = out.get(f["code"], 0) + 1
    return out


def main(argv: list[str] | None = None) -> int:
    ap = harness.estate_parser(__doc__, runs=3)
    ap.add_argument("--capture-qmgrs", type=int, default=10, help="queue managers of CL00 captured")
    args = ap.parse_args(argv)
    r = run(args)
    if args.json:
        print(json.dumps(r))
        return 0
    print(
        f"reconcile on SQLite: {args.clusters * args.qmgrs_per_cluster:,} qmgrs, captures of {r['capture_qmgrs']} "
        f"({r['blocks']:,} DISPLAY blocks; import {r['import_wall_s']} s wall, {r['import_cpu_s']} s CPU"
        f"{', reused' if r['reused'] else ''}); {r['rows']:,} rows, {r['store_mb']} MB"
    )
    print(f"findings: {r['findings']} {r['by_rule']}")
    print(f"{'median of ' + str(r['runs']):<44}{'wall s':>9}{'CPU s':>9}")
    print(
        f"{'python sqlite3: SELECT * of every table':<44}{r['bare_read_s']:>9.3f}{r['bare_read_cpu_s']:>9.3f}"
    )
    print(f"{'mqctl reconcile -o json':<44}{r['reconcile_s']:>9.3f}{r['reconcile_cpu_s']:>9.3f}")
    ok = "ok" if r["met"] else "MISSED"
    print(
        f"reconcile / bare read = {r['ratio']:.2f} wall, {r['ratio_cpu']:.2f} CPU (target <= {TARGET}) {ok}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
