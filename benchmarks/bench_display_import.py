"""Capture import throughput: 100,000 subscriptions of runmqsc DISPLAY SUB output, end to end.

    .venv/bin/python benchmarks/bench_display_import.py [--subs 100000] [--qmgrs 10] [--seed 5] [--json]

The captures (seeded) are what ``runmqsc QM < display.mqsc`` prints on ``--qmgrs`` queue managers of one
cluster: DISPLAY SUB(*) SUBTYPE(ALL) ALL with ADMIN and API subscriptions (patterns with ``+`` and ``#``,
a quarter with a selector) and some proxy subscriptions, DISPLAY CHSTATUS. The end-to-end figure is the
real command run as a subprocess on a fresh SQLite store holding the queue managers
(``mqctl import display DIR``, process start included), against the floor of the same run: ``mqctl
--version`` (process start alone). Target: >= 20,000 subscriptions/s.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
import harness  # noqa: E402

TARGET_SUBS_PER_S = 20_000
APPS = ["orders", "prices", "trades", "alerts", "audit", "quotes", "risk", "fx", "rates", "news"]


def _item_lines(pairs: list[tuple[str, str]]) -> list[str]:
    from mqctl.formats.display.writer import _layout

    return _layout(pairs)


def capture(qmgr: str, qmgrs: list[str], subs: int, rng: random.Random) -> str:
    """One queue manager's runmqsc output: ``subs`` subscriptions, proxies from 3 peers, channel statuses."""
    lines = ["5724-H72 (C) Copyright IBM Corp. 1994, 2025.", f"Starting MQSC for queue manager {qmgr}.", ""]
    lines.append("     1 : DISPLAY SUB(*) SUBTYPE(ALL) ALL")
    for s in range(subs):
        app = APPS[s % len(APPS)]
        leaf = rng.choice(["#", "+", f"item{rng.randrange(50)}", f"item{rng.randrange(50)}/#"])
        api = s % 3 == 0
        pairs = [
            ("SUB", f"JMS:{qmgr}:app{s % 40}:sub{s:06d}" if api else f"{qmgr}.SUB.{s:06d}"),
            ("SUBID", f"414D5120{s:040X}"),
            ("TOPICSTR", f"/{app}/region{s % 37:02d}/{leaf}"),
            ("TOPICOBJ", ""),
            ("DISTYPE", "RESOLVED"),
            ("DEST", f"APP.Q{s % 100:02d}"),
            ("DESTQMGR", qmgr),
            ("SELECTOR", f"amount > {rng.randrange(20) * 50} AND region = 'EMEA'" if s % 4 == 0 else ""),
            ("DURABLE", "YES" if s % 5 else "NO"),
            ("SUBSCOPE", "ALL"),
            ("SUBTYPE", "API" if api else "ADMIN"),
            ("WSCHEMA", "TOPIC"),
        ]
        lines.append("AMQ8096I: IBM MQ subscription inquired.")
        lines += _item_lines(pairs)
    for peer in qmgrs[:3]:
        if peer == qmgr:
            continue
        for app in APPS:
            pairs = [
                ("SUB", f"SYSTEM.PROXY.{peer} CL1 /{app}/#"),
                ("TOPICSTR", f"/{app}/#"),
                ("DESTQMGR", peer),
                ("SUBTYPE", "PROXY"),
            ]
            lines.append("AMQ8096I: IBM MQ subscription inquired.")
            lines += _item_lines(pairs)
    lines.append("     2 : DISPLAY CHSTATUS(*) ALL")
    for peer in qmgrs:
        if peer != qmgr:
            lines.append("AMQ8417I: Display Channel Status details.")
            lines += _item_lines([("CHANNEL", f"TO.{peer}"), ("RQMNAME", peer), ("STATUS", "RUNNING")])
    lines += ["2 MQSC commands read.", "No commands have a syntax error.", ""]
    return "\n".join(lines)


CPU: dict[str, float] = {}
"""CPU seconds (user + system) of the last command run, from the children's resource usage."""


def _mqctl(db: Path, *args: str) -> float:
    cmd = [str(Path(sys.executable).with_name("mqctl")), "--db", f"sqlite:///{db}", *args]
    cpu0 = harness.children_cpu()
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    CPU["last"] = harness.children_cpu() - cpu0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args[:2])} failed ({proc.returncode}): {proc.stderr.strip()}")
    return wall


def run(subs: int, qmgrs: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    names = [f"QM{i:02d}" for i in range(qmgrs)]
    with tempfile.TemporaryDirectory(prefix="mqctl-bench-display-") as tmp:
        work = Path(tmp)
        folder = work / "captures"
        folder.mkdir()
        for name in names:
            (folder / f"{name}.txt").write_text(capture(name, names, subs // qmgrs, rng))
        db = work / "store.db"
        for name in names:
            _mqctl(db, "define", "qmgr", name, "--cluster", "CL1")
        floor = _floor()
        wall = _mqctl(db, "import", "display", str(folder), "--at", "2026-11-26T00:00:00Z")
        cpu = CPU["last"]
    total = (subs // qmgrs) * qmgrs
    return {
        "subscriptions": total,
        "qmgrs": qmgrs,
        "seed": seed,
        "floor_s": round(floor, 3),
        "end_to_end_s": round(wall, 3),
        "ratio_to_floor": round(wall / floor, 1),
        "subscriptions_per_s": round(total / wall),
        "cpu_s": round(cpu, 3),
        "subscriptions_per_cpu_s": round(total / cpu),
        "target_subscriptions_per_s": TARGET_SUBS_PER_S,
        "met": total / wall >= TARGET_SUBS_PER_S,
    }


def _floor() -> float:
    """Process start alone: ``mqctl --version``."""
    cmd = [str(Path(sys.executable).with_name("mqctl")), "--version"]
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--subs", type=int, default=100_000)
    ap.add_argument("--qmgrs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    r = run(args.subs, args.qmgrs, args.seed)
    if args.json:
        print(json.dumps(r))
        return 0
    print(f"import display: {r['subscriptions']:,} subscriptions on {r['qmgrs']} queue managers, SQLite")
    print(f"floor (mqctl --version): {r['floor_s']:.3f} s")
    print(
        f"end to end: {r['end_to_end_s']:.3f} s ({r['ratio_to_floor']} x floor), {r['subscriptions_per_s']:,} subscriptions/s"
    )
    print(
        f"CPU of the command: {r['cpu_s']:.3f} s, {r['subscriptions_per_cpu_s']:,} subscriptions per CPU second"
    )
    print(f"target: >= {TARGET_SUBS_PER_S:,} subscriptions/s: {'ok' if r['met'] else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
