"""`mqctl diff` against its floor, `mqctl validate --file` of one side, on the files CI would compare.

    .venv/bin/python benchmarks/bench_diff.py                                   # 5 clusters x 50 qmgrs
    .venv/bin/python benchmarks/bench_diff.py --clusters 2 --qmgrs-per-cluster 20 --runs 1   # quick

1. ``gen_topology.py`` writes an estate (``--clusters`` x ``--qmgrs-per-cluster`` queue managers, 10 topic
   objects and 100 subscriptions each, ``--ems-servers`` EMS servers) into a temporary folder, and a copy
   that differs by one change: the first ``CLROUTE(DIRECT)`` topic object of cluster CL00 becomes
   ``CLROUTE(TOPICHOST)`` (a topic with every member of the cluster as publisher).
2. In the same run, alternating after one warm-up of each, ``--runs`` times, as subprocesses (process
   start included): the floor ``mqctl validate --file BEFORE -o json`` and ``mqctl diff BEFORE AFTER -o json``.
3. Prints the medians, the ratio, and the probe count the diff reports (it routes only what the change can
   affect: through the engine, judged by the selectors, derived from a class representative).

Target (issue 23): diff <= 3 x validate of one side (medians). The diff reads both sides and validates
both, so 2 x is its own floor; routing the probes is the rest.

``--estate``: the explain benchmark's store instead (5,000 queue managers, 500,000 subscriptions, cached
under ``--cache`` by ``bench_explain.py``; never generated here). It is copied and brought to the head
revision (``mqctl db upgrade``); no topic object of that estate has more than ~80 subscribers, so the
copy gets subscriptions under ``--topic`` (default CL00.ORDERS.001 on C00Q001, CLROUTE(DIRECT)) through
``mqctl runmqsc`` on ``--subscribers-qmgrs`` members of its cluster until it has ``--subscribers``
(default 1,000). That copy is BEFORE (kept and reused); AFTER is a copy of it where ``mqctl alter topic``
flipped the object to CLROUTE(TOPICHOST) (out of its cluster, flipped, back in, as MQ requires). Both sides are store URLs; the floor is ``mqctl --db BEFORE
validate -o json``. Wall and CPU (the children's resource usage) are reported.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import harness  # noqa: E402
from gen_topology import generate  # noqa: E402

TARGET = 3.0
MQCTL = [sys.executable, "-m", "mqctl"]


def _validate_and_diff(
    validate: list[str], diff: list[str], runs: int
) -> tuple[dict[str, harness.Figure], dict[str, object]]:
    """Both commands in turn after a warm-up each (the diff's report kept from its warm-up)."""
    harness.checked(harness.timed(validate), "validate")
    report = json.loads(harness.checked(harness.timed(diff), "diff").proc.stdout)
    return harness.alternate({"validate": validate, "diff": diff}, runs, warmup=0), report


def _ok(cmd: list[str]) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[3:6])} failed ({proc.returncode}): {proc.stderr.strip()[:500]}")
    return proc


def _subscribers(db: Path, topicstr: str) -> int:
    """Subscriptions at or below ``topicstr`` (sqlite3, read only)."""
    import sqlite3

    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        (n,) = con.execute(
            "SELECT count(*) FROM subscriptions WHERE topicstr = ? OR topicstr LIKE ?",
            (topicstr, topicstr + "/%"),
        ).fetchone()
    finally:
        con.close()
    return int(n)


def estate_sides(args: argparse.Namespace) -> tuple[Path, Path, dict[str, object]]:
    """BEFORE (the cached store, upgraded, with subscribers added under the topic) and AFTER (CLROUTE flipped)."""
    import bench_explain

    args.clusters, args.qmgrs_per_cluster, args.ems_servers = 50, 100, 200
    args.topics_per_qmgr, args.subs_per_qmgr, args.seed = 10, 100, 7
    out = bench_explain.topology(Path(args.cache).expanduser(), args)
    big = out / "stores" / "big.db"
    if not big.exists():
        raise SystemExit(f"no cached store {big}: run benchmarks/bench_explain.py once")
    name, qmgr = args.topic
    cluster = name.split(".")[0]
    before = out / "stores" / f"diff-before-{name}-{args.subscribers}.db"
    after = out / "stores" / f"diff-after-{name}-{args.subscribers}.db"
    mq = [str(Path(sys.executable).with_name("mqctl"))]
    import sqlite3

    for kept in (before, after):  # made by an older mqctl: brought to the current schema
        if kept.exists():
            _ok([*mq, "--db", f"sqlite:///{kept}", "db", "upgrade"])

    if not before.exists():
        tmp = before.with_suffix(".tmp")
        shutil.copyfile(big, tmp)
        _ok([*mq, "--db", f"sqlite:///{tmp}", "db", "upgrade"])
        con = sqlite3.connect(tmp)
        (topicstr,) = con.execute(
            "SELECT t.topicstr FROM topics t JOIN nodes n ON n.id = t.node_id WHERE t.name = ? AND n.name = ?",
            (name, qmgr),
        ).fetchone()
        members = [
            m
            for (m,) in con.execute(
                "SELECT n.name FROM memberships m JOIN nodes n ON n.id = m.node_id "
                "JOIN clusters c ON c.id = m.cluster_id WHERE c.name = ? ORDER BY n.name",
                (cluster,),
            )
        ][: args.subscribers_qmgrs]
        con.close()
        missing = max(args.subscribers - _subscribers(tmp, topicstr), 0)
        with tempfile.TemporaryDirectory(prefix="mqctl-bench-diff-") as folder:
            for i, member in enumerate(members):
                lines = []
                for k in range(i, missing, len(members)):
                    leaf = ("#", f"item{k % 50}", "+", f"item{k % 50}/#")[k % 4]
                    selector = f" SELECTOR('amount > {k % 20 * 50}')" if k % 4 == 0 else ""
                    lines.append(
                        f"DEFINE SUB(BENCH.DIFF.{k:05d}) TOPICSTR('{topicstr}/{leaf}') DEST(APP.Q){selector}"
                    )
                script = Path(folder) / f"{member}.mqsc"
                script.write_text("\n".join(lines) + "\n")
                _ok([*mq, "--db", f"sqlite:///{tmp}", "runmqsc", member, str(script)])
        tmp.rename(before)
    if not after.exists():
        tmp = after.with_suffix(".tmp")
        shutil.copyfile(before, tmp)
        # as in MQ, CLROUTE changes only outside the cluster: out, flip, back in (net: one CLROUTE change)
        for change in (["--cluster", ""], ["--clroute", "TOPICHOST"], ["--cluster", cluster]):
            _ok([*mq, "--db", f"sqlite:///{tmp}", "alter", "topic", name, "--qmgr", qmgr, *change])
        tmp.rename(after)
    con = sqlite3.connect(f"file:{before}?mode=ro", uri=True)
    (topicstr,) = con.execute("SELECT topicstr FROM topics WHERE name = ?", (name,)).fetchone()
    con.close()
    info: dict[str, object] = {
        "topic": f"{name} on {qmgr} ({topicstr})",
        "subscribers": _subscribers(before, topicstr),
        "store_mb": round(before.stat().st_size / 2**20, 1),
    }
    return before, after, info


def one_change(after: Path) -> str:
    """Flip the first CLROUTE(DIRECT) of CL00 to TOPICHOST; returns the file changed."""
    for script in sorted((after / "mqsc" / "CL00").glob("*.mqsc")):
        text = script.read_text()
        if "CLROUTE(DIRECT)" in text:
            script.write_text(text.replace("CLROUTE(DIRECT)", "CLROUTE(TOPICHOST)", 1))
            return str(script.relative_to(after))
    raise SystemExit("no CLROUTE(DIRECT) topic object in CL00")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clusters", type=int, default=5)
    parser.add_argument("--qmgrs-per-cluster", type=int, default=50)
    parser.add_argument("--ems-servers", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--estate", action="store_true", help="the explain benchmark's cached store (see above)"
    )
    parser.add_argument(
        "--cache", default="~/.cache/mqctl-bench", help="where the explain benchmark keeps it"
    )
    parser.add_argument("--topic", nargs=2, default=["CL00.ORDERS.001", "C00Q001"], metavar=("NAME", "QMGR"))
    parser.add_argument("--subscribers", type=int, default=1000)
    parser.add_argument("--subscribers-qmgrs", type=int, default=20)
    args = parser.parse_args()
    if args.estate:
        estate(args)
        return
    with tempfile.TemporaryDirectory(prefix="mqctl-bench-diff-") as folder:
        before, after = Path(folder) / "before", Path(folder) / "after"
        generate(before, args.clusters, args.qmgrs_per_cluster, 10, 100, args.ems_servers, 7)
        shutil.copytree(before, after)
        changed = one_change(after)
        validate = [*MQCTL, "validate", "--file", str(before), "-o", "json"]
        diff = [*MQCTL, "diff", str(before), str(after), "-o", "json"]
        figures, report = _validate_and_diff(validate, diff, args.runs)
        floor, cost = figures["validate"].wall, figures["diff"].wall
        probes = report["probes"]
        summary = report["summary"]
        assert isinstance(probes, dict) and isinstance(summary, dict)
        print(
            f"estate: {args.clusters} clusters x {args.qmgrs_per_cluster} qmgrs, {args.ems_servers} EMS servers"
        )
        print(f"change: one CLROUTE(DIRECT) -> CLROUTE(TOPICHOST) in {changed}")
        print(f"validate --file (one side): median {floor:.2f} s over {args.runs} run(s)")
        print(f"diff (both sides):          median {cost:.2f} s")
        print(f"probes: {probes['routed']} routed ({probes['how']})")
        print(f"subscriptions changed: {summary['subscriptions']}")
        ratio = cost / floor
        print(f"ratio diff / validate: {ratio:.2f} (target <= {TARGET})")
        if ratio > TARGET:
            sys.exit(1)


def estate(args: argparse.Namespace) -> None:
    before, after, info = estate_sides(args)
    mq = [str(Path(sys.executable).with_name("mqctl"))]
    validate = [*mq, "--db", f"sqlite:///{before}", "validate", "-o", "json"]
    diff = [*mq, "diff", f"sqlite:///{before}", f"sqlite:///{after}", "-o", "json"]
    figures, report = _validate_and_diff(validate, diff, args.runs)
    med = {n: [f.wall, f.cpu] for n, f in figures.items()}
    probes, summary = report["probes"], report["summary"]
    assert isinstance(probes, dict) and isinstance(summary, dict)
    print(f"estate: the explain benchmark's store ({info['store_mb']} MB), upgraded copy")
    print(
        f"change: CLROUTE(DIRECT) -> CLROUTE(TOPICHOST) on {info['topic']}, {info['subscribers']} subscribers"
    )
    print(f"{'median of ' + str(args.runs):<40}{'wall s':>9}{'CPU s':>9}")
    print(f"{'validate (one side, the floor)':<40}{med['validate'][0]:>9.2f}{med['validate'][1]:>9.2f}")
    print(f"{'diff (both sides)':<40}{med['diff'][0]:>9.2f}{med['diff'][1]:>9.2f}")
    print(f"probes: {probes['routed']} routed ({probes['how']})")
    routing = report["routing"]
    assert isinstance(routing, list)
    print(
        f"routing entries: {len(routing)} (standing for {sum(len(r.get('publishers', [0])) for r in routing)})"
    )
    print(f"subscriptions changed: {summary['subscriptions']}")
    ratio, ratio_cpu = med["diff"][0] / med["validate"][0], med["diff"][1] / med["validate"][1]
    print(f"ratio diff / validate: {ratio:.2f} wall, {ratio_cpu:.2f} CPU (target <= {TARGET})")
    if ratio > TARGET:
        sys.exit(1)


if __name__ == "__main__":
    main()
