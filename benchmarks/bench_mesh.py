"""explain on meshed EMS networks costs about what it costs on a chain (the exact path search).

    .venv/bin/python benchmarks/bench_mesh.py                  # 200-server mesh, 20x20 grid, 3-server chain
    .venv/bin/python benchmarks/bench_mesh.py --mesh 50 --grid 7 --runs 3   # quick
    .venv/bin/python benchmarks/bench_mesh.py --keep /tmp/mesh   # keep the stores, e.g. to profile one:
    .venv/bin/python -m cProfile -s tottime -m mqctl --db sqlite:////tmp/mesh/mesh.db explain --from M000 --topic market.fx.eur

Three EMS networks, written as EMS configuration folders (``tibemsd.conf``, ``topics.conf`` with
``market.> global``, ``routes.conf``, ``durables.conf``) and imported with one ``mqctl import ems
--tibemsd … --tibemsd …`` each into a fresh SQLite store:

- **chain**: C0 - C1 - C2;
- **mesh**: ``--mesh`` servers, every pair joined by a route (defined on the first of the two by name,
  so active-passive), all in the default multi-hop zone;
- **grid**: ``--grid`` x ``--grid`` servers, each joined to its right and lower neighbour, multi-hop.

Each network has three durable subscribers on ``market.>``: on the last server, on the middle one and on
the second one. The question is ``mqctl explain --from <first server> --topic market.fx.eur``.

Measured in the same run, median of ``--runs`` after a warm-up:

1. end to end: the real command as a subprocess (``mqctl --db sqlite:///… explain …``, the default table
   output), wall clock and the child's CPU time (``getrusage``: less sensitive to other work on the
   machine); the three networks take turns, run after run;
2. in process, the two halves of that command: reading the slice from the store
   (``store.slice.load_slice``) and the engine (``routing.explain`` on that slice), CPU seconds, with
   the garbage collector on (as ``mqctl explain`` runs today) and paused.

Target: mesh and grid end to end at most 1.3 x the chain.
"""

from __future__ import annotations

import argparse
import gc
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

BIN = Path(sys.executable).parent
MQCTL = str(BIN / "mqctl")
TARGET = 1.3
TOPIC = "market.fx.eur"


def networks(mesh: int, grid: int) -> dict[str, tuple[list[str], list[tuple[str, str]]]]:
    """Servers (the first publishes) and routes (defined on the first of each pair) per network."""
    chain = ["C0", "C1", "C2"]
    meshed = [f"M{i:03d}" for i in range(mesh)]
    cells = [[f"G{r:02d}{c:02d}" for c in range(grid)] for r in range(grid)]
    grid_routes = [(cells[r][c], cells[r][c + 1]) for r in range(grid) for c in range(grid - 1)]
    grid_routes += [(cells[r][c], cells[r + 1][c]) for r in range(grid - 1) for c in range(grid)]
    return {
        "chain": (chain, [("C0", "C1"), ("C1", "C2")]),
        "mesh": (meshed, [(a, b) for i, a in enumerate(meshed) for b in meshed[i + 1 :]]),
        "grid": ([name for row in cells for name in row], grid_routes),
    }


def write(folder: Path, servers: list[str], routes: list[tuple[str, str]]) -> list[Path]:
    """One EMS configuration folder per server; returns the tibemsd.conf files."""
    peers: dict[str, list[str]] = {s: [] for s in servers}
    for a, b in routes:
        peers[a].append(b)
    subscribers = {servers[-1], servers[len(servers) // 2], servers[1]}
    confs = []
    for server in servers:
        d = folder / server
        d.mkdir(parents=True)
        (d / "tibemsd.conf").write_text(
            f"server = {server}\nrouting = enabled\ntopics = topics.conf\nroutes = routes.conf\n"
            "durables = durables.conf\n"
        )
        (d / "topics.conf").write_text("market.>  global,maxbytes=1GB\n")
        (d / "routes.conf").write_text(
            "".join(f"[{p}]\nurl = tcp://{p.lower()}:7222\n\n" for p in peers[server])
        )
        (d / "durables.conf").write_text(f"market.>  {server}.SUB\n" if server in subscribers else "")
        confs.append(d / "tibemsd.conf")
    return confs


def cli(db: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [MQCTL, "--db", f"sqlite:///{db}", *argv], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise SystemExit(f"mqctl {' '.join(argv[:3])} failed ({proc.returncode}): {proc.stderr.strip()}")
    return proc


def end_to_end(questions: dict[str, tuple[Path, str]], runs: int) -> dict[str, tuple[float, float]]:
    """Per network, median wall clock and median child CPU seconds of ``mqctl explain``, after one warm-up.

    The networks take turns, run after run, so that other work on the machine weighs on each alike."""
    cmds = {
        name: [MQCTL, "--db", f"sqlite:///{db}", "explain", "--from", publisher, "--topic", TOPIC]
        for name, (db, publisher) in questions.items()
    }
    # the inherited environment (no bytecode prefix), as the recorded figures were taken
    figures = harness.alternate(cmds, runs, ok=(0,), env=None)
    return {name: (f.wall, f.cpu) for name, f in figures.items()}


def in_process(db: Path, publisher: str, runs: int, gc_paused: bool) -> tuple[float, float]:
    """Median CPU seconds of reading the slice, and of the engine on it (garbage collector on or paused)."""
    from mqctl.domain.explanation import Failures, Publication
    from mqctl.domain.routing import explain
    from mqctl.store.engine import open_store
    from mqctl.store.slice import load_slice

    engine = open_store(f"sqlite:///{db}")
    loads, routes = [], []
    try:
        for _ in range(runs + 1):
            if gc_paused:
                gc.disable()
            t0 = time.process_time()
            with engine.connect() as conn:
                topology = load_slice(conn, publisher, TOPIC, Failures())
            t1 = time.process_time()
            explain(topology, Publication(publisher, TOPIC))
            t2 = time.process_time()
            gc.enable()
            loads.append(t1 - t0)
            routes.append(t2 - t1)
    finally:
        gc.enable()
        engine.dispose()
    return statistics.median(loads[1:]), statistics.median(routes[1:])


def run(args: argparse.Namespace) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="mqctl-bench-mesh-")) if args.keep is None else args.keep
    work.mkdir(parents=True, exist_ok=True)
    out: dict[str, Any] = {"runs": args.runs, "mesh_servers": args.mesh, "grid_side": args.grid}
    questions: dict[str, tuple[Path, str]] = {}
    try:
        for name, (servers, routes) in networks(args.mesh, args.grid).items():
            db = work / f"{name}.db"
            shutil.rmtree(work / name, ignore_errors=True)  # a kept folder of an earlier run
            db.unlink(missing_ok=True)
            confs = write(work / name, servers, routes)
            t0 = time.perf_counter()
            cli(db, "import", "ems", *(a for c in confs for a in ("--tibemsd", str(c))))
            import_s = time.perf_counter() - t0
            answer = json.loads(
                cli(db, "explain", "--from", servers[0], "--topic", TOPIC, "-o", "json").stdout
            )
            questions[name] = (db, servers[0])
            out[name] = {
                "servers": len(servers),
                "routes": len(routes),
                "import_s": round(import_s, 2),
                "hops": {d["node"]: len(d["hops"]) for d in answer["deliveries"]},
                "more_alternatives": {d["node"]: d["more_alternatives"] for d in answer["deliveries"]},
                "warnings": sorted({w["code"] for w in answer["warnings"]}),
            }
        for name, (wall, cpu) in end_to_end(questions, args.runs).items():
            out[name]["cli_wall_s"] = round(wall, 3)
            out[name]["cli_cpu_s"] = round(cpu, 3)
        for name, (db, publisher) in questions.items():
            load, engine = in_process(db, publisher, args.runs, gc_paused=False)
            load_paused, engine_paused = in_process(db, publisher, args.runs, gc_paused=True)
            out[name]["slice_cpu_s"] = round(load, 4)
            out[name]["engine_cpu_s"] = round(engine, 4)
            out[name]["slice_cpu_s_gc_paused"] = round(load_paused, 4)
            out[name]["engine_cpu_s_gc_paused"] = round(engine_paused, 4)
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    chain = out["chain"]
    for name in ("mesh", "grid"):
        out[name]["cli_wall_over_chain"] = round(out[name]["cli_wall_s"] / chain["cli_wall_s"], 2)
        out[name]["cli_cpu_over_chain"] = round(out[name]["cli_cpu_s"] / chain["cli_cpu_s"], 2)
        out[name]["met"] = out[name]["cli_wall_over_chain"] <= TARGET
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mesh", type=int, default=200, help="servers in the full mesh")
    ap.add_argument("--grid", type=int, default=20, help="side of the square grid")
    ap.add_argument("--runs", type=int, default=7, help="timed runs per command, after one warm-up")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    ap.add_argument(
        "--keep",
        type=Path,
        metavar="DIR",
        help="build the networks and stores in DIR (replacing its earlier ones) and keep them, e.g. to profile",
    )
    args = ap.parse_args(argv)
    r = run(args)
    if args.json:
        print(json.dumps(r))
        return 0
    print(f"explain --from <first> --topic {TOPIC}, median of {args.runs} (seconds)")
    head = f"{'network':<8}{'servers':>8}{'routes':>8}{'CLI wall':>10}{'CLI cpu':>9}{'slice':>8}{'engine':>8}  vs chain"
    print("(slice and engine: CPU seconds in process, garbage collector on / paused)")
    print(head)
    for name in ("chain", "mesh", "grid"):
        n = r[name]
        ratio = "" if name == "chain" else f"  {n['cli_wall_over_chain']} wall, {n['cli_cpu_over_chain']} cpu"
        print(
            f"{name:<8}{n['servers']:>8}{n['routes']:>8}{n['cli_wall_s']:>10.3f}{n['cli_cpu_s']:>9.3f}"
            f"{n['slice_cpu_s']:>8.3f}{n['engine_cpu_s']:>8.3f}{ratio}\n{'':<43}{n['slice_cpu_s_gc_paused']:>8.3f}"
            f"{n['engine_cpu_s_gc_paused']:>8.3f}  (garbage collector paused)"
        )
    for name in ("mesh", "grid"):
        n = r[name]
        print(
            f"{name}: hops {n['hops']}, more_alternatives {n['more_alternatives']}, warnings {n['warnings']}"
        )
        print(f"{name}: target <= {TARGET} x chain end to end: {'met' if n['met'] else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
