"""`mqctl plan` against `mqctl diff` of the same sides, both measured in one run (issue 34).

    .venv/bin/python benchmarks/bench_plan.py                                   # 5 clusters x 50 qmgrs
    .venv/bin/python benchmarks/bench_plan.py --clusters 2 --qmgrs-per-cluster 20 --runs 1   # quick
    .venv/bin/python benchmarks/bench_plan.py --estate                          # the explain estate

A change touching three queue managers of cluster CL00: the first ``CLROUTE(DIRECT)`` topic object of
C00Q001 becomes ``CLROUTE(TOPICHOST)`` (MQ's decomposition: out of the cluster, flipped, back in), the
first clustered topic object of C00Q002 moves to C00Q003 (a topic host moved), and C00Q004 leaves the
cluster (its cluster-receiver channel and its clustered topic objects deleted). Files mode: the
estate of ``gen_topology.py`` (as ``bench_diff.py``), edited as files. ``--estate``: the explain
benchmark's store as ``bench_diff.py --estate`` prepares it (BEFORE, with its subscribers), AFTER a copy
changed through ``mqctl runmqsc``.

Alternating after one warm-up of each, ``--runs`` times, as subprocesses: ``mqctl diff BEFORE AFTER -o json``
and ``mqctl plan BEFORE AFTER -o json``. Target: plan <= 5 x diff (medians). The machine is shared:
the ratio is the figure, not the seconds.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import harness  # noqa: E402
from bench_diff import _ok  # noqa: E402
from gen_topology import generate  # noqa: E402

CPU: list[float] = [0.0]
"""CPU seconds of the last command timed (the children's resource usage)."""


def timed(cmd: list[str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    run = harness.timed(cmd)
    CPU[0] = run.cpu
    return run.wall, run.proc


TARGET = 5.0
MQCTL = [sys.executable, "-m", "mqctl"]
_CLUSTERED = re.compile(r"^DEFINE TOPIC\('([^']+)'\) .*CLUSTER\('?(\w+)'?\).*$", re.M)


def _scripts(before: dict[str, str]) -> dict[str, str]:
    """The MQSC (as runmqsc takes it) for the three changes, from the three queue managers' texts."""
    out: dict[str, str] = {}
    flip = re.search(
        r"^DEFINE TOPIC\('([^']+)'\) .*CLUSTER\('?(\w+)'?\) CLROUTE\(DIRECT\)", before["C00Q001"], re.M
    )
    assert flip is not None, "no CLROUTE(DIRECT) clustered topic on C00Q001"
    name, cluster = flip.group(1), flip.group(2)
    out["C00Q001"] = (
        f"ALTER TOPIC('{name}') CLUSTER(' ')\nALTER TOPIC('{name}') CLROUTE(TOPICHOST)\n"
        f"ALTER TOPIC('{name}') CLUSTER({cluster})\n"
    )
    moved = next(m for m in _CLUSTERED.finditer(before["C00Q002"]) if m.group(1) != name)
    out["C00Q002"] = f"DELETE TOPIC('{moved.group(1)}')\n"
    out["C00Q003"] = moved.group(0) + "\n"
    leaving = [f"DELETE TOPIC('{m.group(1)}')" for m in _CLUSTERED.finditer(before["C00Q004"])]
    channel = re.search(r"^DEFINE CHANNEL\('([^']+)'\) CHLTYPE\(CLUSRCVR\)", before["C00Q004"], re.M)
    assert channel is not None
    out["C00Q004"] = "\n".join([*leaving, f"DELETE CHANNEL('{channel.group(1)}')"]) + "\n"
    return out


def _edit_files(after: Path) -> None:
    files = {p.stem: p for p in (after / "mqsc" / "CL00").glob("*.mqsc")}
    texts = {q: files[q].read_text() for q in ("C00Q001", "C00Q002", "C00Q003", "C00Q004")}
    scripts = _scripts(texts)
    flip = re.search(r"^ALTER TOPIC\('([^']+)'\)", scripts["C00Q001"], re.M)
    assert flip is not None
    t1 = re.sub(
        rf"^(DEFINE TOPIC\('{re.escape(flip.group(1))}'\) .*)CLROUTE\(DIRECT\)",
        r"\1CLROUTE(TOPICHOST)",
        texts["C00Q001"],
        count=1,
        flags=re.M,
    )
    moved = scripts["C00Q003"].strip()
    t2 = texts["C00Q002"].replace(moved + "\n", "")
    t3 = texts["C00Q003"] + moved + "\n"
    gone = {m.group(1) for m in _CLUSTERED.finditer(texts["C00Q004"])}
    t4 = "\n".join(
        line
        for line in texts["C00Q004"].splitlines()
        if "CHLTYPE(CLUSRCVR)" not in line
        and "REPOS(" not in line
        and not any(line.startswith(f"DEFINE TOPIC('{g}')") for g in gone)
    )
    for q, text in (("C00Q001", t1), ("C00Q002", t2), ("C00Q003", t3), ("C00Q004", t4 + "\n")):
        files[q].write_text(text)


def _measure(diff: list[str], plan: list[str], runs: int) -> tuple[dict[str, list[float]], dict[str, object]]:
    times: dict[str, list[float]] = {"diff": [], "plan": [], "diff_cpu": [], "plan_cpu": []}
    report: dict[str, object] = {}
    for run in range(runs + 1):  # the first of each is a warm-up
        for name, cmd in (("diff", diff), ("plan", plan)):
            elapsed, proc = timed(cmd)
            if proc.returncode not in (0, 1):
                raise SystemExit(f"{name} failed ({proc.returncode}): {proc.stderr.strip()[:500]}")
            if run:
                times[name].append(elapsed)
                times[f"{name}_cpu"].append(CPU[0])
            if name == "plan":
                report = json.loads(proc.stdout)
    return times, report


def _report(times: dict[str, list[float]], report: dict[str, object], runs: int) -> None:
    med = {k: statistics.median(v) for k, v in times.items()}
    steps = report["steps"]
    search = report["search"]
    assert isinstance(steps, list) and isinstance(search, dict)
    print(f"plan: {len(steps)} steps on {sorted({s['node'] for s in steps})}; {search['how']}")
    print(f"      {search['states_routed']} states routed; safe: {report['safe']}")
    for s in steps:
        print(f"      {s['number']:02d} {s['node']}: {len(s['commands'])} command(s), lost {len(s['lost'])}")
    print(f"{'median of ' + str(runs):<24}{'wall s':>9}{'CPU s':>9}")
    print(f"{'diff':<24}{med['diff']:>9.2f}{med['diff_cpu']:>9.2f}")
    print(f"{'plan':<24}{med['plan']:>9.2f}{med['plan_cpu']:>9.2f}")
    ratio, ratio_cpu = med["plan"] / med["diff"], med["plan_cpu"] / med["diff_cpu"]
    print(f"ratio plan / diff: {ratio:.2f} wall, {ratio_cpu:.2f} CPU (target <= {TARGET})")
    if ratio > TARGET:
        sys.exit(1)


def _estate(args: argparse.Namespace) -> None:
    import sqlite3

    from bench_diff import estate_sides

    args.topic, args.subscribers, args.subscribers_qmgrs = ["CL00.ORDERS.001", "C00Q001"], 1000, 20
    before, _after, info = estate_sides(args)
    after = before.with_name(before.stem + "-plan-after.db")
    mq = [str(Path(sys.executable).with_name("mqctl"))]
    if not after.exists():
        tmp = after.with_suffix(".tmp")
        shutil.copyfile(before, tmp)
        with tempfile.TemporaryDirectory(prefix="mqctl-bench-plan-") as folder:
            texts = {}
            for q in ("C00Q001", "C00Q002", "C00Q003", "C00Q004"):
                dumped = _ok([*mq, "--db", f"sqlite:///{before}", "export", "mqsc", q])
                texts[q] = re.sub(r" *\+\n *", " ", dumped.stdout)
            for q, script in _scripts(texts).items():
                path = Path(folder) / f"{q}.mqsc"
                path.write_text(script)
                _ok([*mq, "--db", f"sqlite:///{tmp}", "runmqsc", q, str(path)])
        tmp.rename(after)
    del sqlite3
    print(f"estate: the explain benchmark's store ({info['store_mb']} MB); {info['topic']}")
    diff = [*mq, "diff", f"sqlite:///{before}", f"sqlite:///{after}", "-o", "json"]
    plan = [*mq, "plan", f"sqlite:///{before}", f"sqlite:///{after}", "-o", "json"]
    times, report = _measure(diff, plan, args.runs)
    _report(times, report, args.runs)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clusters", type=int, default=5)
    parser.add_argument("--qmgrs-per-cluster", type=int, default=50)
    parser.add_argument("--ems-servers", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--estate", action="store_true", help="the explain benchmark's cached store")
    parser.add_argument(
        "--cache", default="~/.cache/mqctl-bench", help="where the explain benchmark keeps it"
    )
    args = parser.parse_args()
    if args.estate:
        _estate(args)
        return
    with tempfile.TemporaryDirectory(prefix="mqctl-bench-plan-") as folder:
        before, after = Path(folder) / "before", Path(folder) / "after"
        generate(before, args.clusters, args.qmgrs_per_cluster, 10, 100, args.ems_servers, 7)
        shutil.copytree(before, after)
        _edit_files(after)
        print(
            f"estate: {args.clusters} clusters x {args.qmgrs_per_cluster} qmgrs, {args.ems_servers} EMS servers"
        )
        diff = [*MQCTL, "diff", str(before), str(after), "-o", "json"]
        plan = [*MQCTL, "plan", str(before), str(after), "-o", "json"]
        times, report = _measure(diff, plan, args.runs)
        _report(times, report, args.runs)


if __name__ == "__main__":
    main()
