"""The engine on the Spark benchmark's log, in the job's order: answers' digest and cold keys per CPU second.

    .venv/bin/python benchmarks/bench_engine.py                     # the full estate (generation: minutes)
    .venv/bin/python benchmarks/bench_engine.py --digest            # + the digest of every answer
    .venv/bin/python benchmarks/bench_engine.py --clusters 3 --qmgrs-per-cluster 20 --ems-servers 20 \
        --publications 200000 --distinct-topics 2000                # quick

1. The estate, its snapshot and the publication log of ``bench_spark.py`` (same parameters, same cache
   folder: generated, imported and written once, reused afterwards).
2. The keys, in two orders (``--keys`` of each, 20,000 by default):

   - *the job's order*, the one issue 24's target (15,000 keys per CPU second) is measured on: one
     routing task's share of the log's distinct keys as ``mqctl.spark.job.routing_keys`` hands it to
     ``route_batches``. Every distinct (from, topic, properties) of the log (Arrow ``group_by``), its
     routing key, the keys of one task's topics (``repartition(4, "topic")``, the 4 tasks of local[2]),
     sorted by (topic, from, key), the first ``--keys``. Spark's hash partitioning (Murmur3 of the
     topic) is stood in for by ``crc32(topic) % 4 == 0``: another quarter of the topics, drawn alike
     (the log's topics are random), so the same mix; what matters is that the keys of a topic come
     side by side, as in the job. The job now lays its tasks out by topic *and publisher*
     (``mqctl.spark.job.ROUTED_BY``); on this log each MQ topic has one publisher, so a task's MQ
     keys are the same either way, and the stand-in stays by topic to keep the recorded job-order
     digests comparable (only the one EMS topic, published from 200 servers, is spread in the job).
     The job now runs one routing task per core (two on local[2]); the stand-in keeps a quarter of
     the topics for the same reason: a sample of the same mix, not the task's exact keys;
   - *the log's order*: the first distinct keys of the log as its rows come (what ``bench_spark.py
     --engine-keys`` routes): topics at random, no two keys of a topic together; harsher than the job.
3. *Cold rate*: a fresh ``RoutingModel`` (built, then ``gc.freeze()``, outside the timing), then every key
   through the executor code (``mqctl.spark.batches.route_batches``: ``explain(..., detail=False)`` and
   the facts rows), timed in CPU seconds of this process (``time.process_time``: the rate per core,
   however busy the shared machine is). In both orders, each on its own fresh model.
4. ``--engine-only``: the same keys through ``explain(..., detail=False)`` alone on another fresh model
   (the engine's share of the cold rate, the facts rows left out), in both orders.
5. ``--digest``: on another fresh model, every key's ``explain`` answer as JSON, with ``detail=False`` and
   in full, hashed (SHA-256 over the canonical JSON, key after key): the engine must give the same
   digests before and after a change of its internals (docs/benchmarks.md records them). ``digest`` is
   on the log's order (the digests recorded since issue 24 began), ``digest_job_order`` on the job's;
   each also hashes ``route``'s rows (``route_rows``: the Spark job's path, which ``explain`` does not
   take).
6. ``--task-rss``: a routing task's peak resident size (issue 36: report it before and after a change of
   the engine, and keep it no larger): a fresh process reads the snapshot, builds the model and routes
   the job-order keys through ``route_batches``, as a Spark worker does; its ``VmHWM`` (and its
   cold rate).
7. ``--fresh N``: the job-order cold rate of 3. in N such fresh processes, each after a 10,000,000-step
   Python loop timed in this one (the machine's speed then): the best and the median. A worker routes
   in a process that has done nothing else, while this one has just grouped the whole log to find the
   keys; on a shared VM whose speed moves by a quarter from one minute to the next, the best of a few
   runs is the figure that says what the code costs, the median what a run may see.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import resource
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_spark import prepare_files  # noqa: E402

TARGET_KEYS_PER_CPU_S = 15_000


def first_keys(topology: Any, log: Path, count: int) -> list[tuple[str, str, str]]:
    """The first ``count`` distinct (from, topic, routing key) of the log, in its order."""
    from mqctl.domain.publications import parse_properties, routing_key, selector_identifiers

    relevant = selector_identifiers(topology)
    seen: dict[tuple[str, str, str], None] = {}
    for batch in pq.ParquetFile(log).iter_batches(columns=["from", "topic", "properties"]):
        for row in batch.to_pylist():
            properties, headers = parse_properties(row["properties"])
            seen.setdefault((row["from"], row["topic"], routing_key(properties, headers, relevant)), None)
            if len(seen) >= count:
                return list(seen)
    return list(seen)


JOB_TASKS = 4
"""The routing tasks of the benchmark's job on local[2] (``routing_tasks``): one task's share is measured."""


def job_keys(topology: Any, log: Path, count: int, tasks: int = JOB_TASKS) -> list[tuple[str, str, str]]:
    """The first ``count`` keys of one routing task in the job's order: the distinct (from, topic,
    properties) of the log, keyed, the topics with ``crc32(topic) % tasks == 0`` (a stand-in for
    Spark's Murmur3 hash partitioning by topic), sorted by (topic, from, key)."""
    from mqctl.domain.publications import parse_properties, routing_key, selector_identifiers

    relevant = selector_identifiers(topology)
    rows = (
        pq.read_table(log, columns=["from", "topic", "properties"])
        .group_by(["from", "topic", "properties"])
        .aggregate([])
    )
    keys: set[tuple[str, str, str]] = set()
    for row in rows.to_pylist():
        if zlib.crc32(row["topic"].encode()) % tasks:
            continue
        properties, headers = parse_properties(row["properties"])
        keys.add((row["from"], row["topic"], routing_key(properties, headers, relevant)))
    return sorted(keys, key=lambda k: (k[1], k[0], k[2]))[:count]


def cold_rate(topology: Any, keys: list[tuple[str, str, str]], profile: Path | None = None) -> dict[str, Any]:
    """Keys per CPU second through ``route_batches`` on a fresh model (facts included)."""
    from mqctl.spark.batches import Payload, route_batches

    batch = pa.RecordBatch.from_pylist(
        [{"from": f, "topic": t, "key": k, "messages": 1, "bytes": 1} for f, t, k in keys]
    )
    payload = Payload(topology, [], token=f"bench-{time.monotonic_ns()}")
    t0 = time.process_time()
    for _, model, _ in payload.models():
        _ = model.mq, model.ems
    gc.freeze()
    build = time.process_time() - t0
    profiler = None
    if profile is not None:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    t0 = time.process_time()
    facts = sum(b.num_rows for b in route_batches(iter([batch]), payload))
    cpu = time.process_time() - t0
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(profile)
    return {
        "keys": len(keys),
        "model_build_cpu_s": round(build, 1),
        "routing_cpu_s": round(cpu, 2),
        "keys_per_cpu_s": round(len(keys) / cpu),
        "target_keys_per_cpu_s": TARGET_KEYS_PER_CPU_S,
        "facts": facts,
    }


def engine_only(topology: Any, keys: list[tuple[str, str, str]]) -> dict[str, Any]:
    """Keys per CPU second of ``explain(..., detail=False)`` alone on a fresh model (no facts rows)."""
    from mqctl.domain.explanation import Failures
    from mqctl.domain.publications import to_publication
    from mqctl.domain.routing import RoutingModel, explain

    model = RoutingModel(topology).prepare()
    gc.freeze()
    failures = Failures()
    publications = [to_publication(*key) for key in keys]
    t0 = time.process_time()
    for publication in publications:
        explain(model, publication, failures, detail=False)
    cpu = time.process_time() - t0
    return {"routing_cpu_s": round(cpu, 2), "keys_per_cpu_s": round(len(keys) / cpu)}


def digests(topology: Any, keys: list[tuple[str, str, str]]) -> dict[str, str]:
    """SHA-256 of every answer's JSON, key after key, with ``detail=False`` and in full (fresh model);
    and of ``route``'s rows of every key as the job makes it (``to_publication``; another fresh model):
    the path the Spark job takes, which ``explain`` does not."""
    from mqctl.domain.explanation import Failures
    from mqctl.domain.publications import to_publication
    from mqctl.domain.routing import RoutingModel, explain, route

    model = RoutingModel(topology).prepare()
    gc.freeze()
    failures = Failures()
    out: dict[str, str] = {}
    for detail in (False, True):
        h = hashlib.sha256()
        for key in keys:
            answer = explain(model, to_publication(*key), failures, detail=detail)
            h.update(json.dumps(answer.to_json(), sort_keys=True, separators=(",", ":")).encode())
            h.update(b"\n")
        out["detail" if detail else "no_detail"] = h.hexdigest()
    model = RoutingModel(topology).prepare()
    h = hashlib.sha256()
    for key in keys:
        rows = route(model, to_publication(*key), failures)
        delivered = [
            [s.node, s.name, list(a.path), [list(hop) for hop in a.hops], at] for s, a, at in rows.delivered
        ]
        missed = [[s.node, s.name, str(m.reason)] for s, m in rows.missed]
        h.update(json.dumps([delivered, missed], separators=(",", ":")).encode())
        h.update(b"\n")
    out["route_rows"] = h.hexdigest()
    return out


def task_peak_rss(snapshot: Path, keys: list[tuple[str, str, str]]) -> dict[str, Any]:
    """A routing task's peak resident size, measured in a fresh process (see the module's 6.)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", prefix="bench-engine-keys-") as f:
        json.dump(keys, f)
        f.flush()
        proc = subprocess.run(
            [sys.executable, __file__, "--task-child", str(snapshot), f.name],
            capture_output=True,
            text=True,
            check=True,
        )
    return json.loads(proc.stdout)


def python_loop_cpu_s(steps: int = 10_000_000) -> float:
    """CPU seconds of a plain Python loop: how fast this machine runs Python right now (the dashboard's
    machines are told apart by it; a shared VM's speed moves during a session)."""
    t0 = time.process_time()
    total = 0
    for i in range(steps):
        total += i
    return round(time.process_time() - t0, 2)


def fresh_runs(snapshot: Path, keys: list[tuple[str, str, str]], runs: int) -> dict[str, Any]:
    """The cold rate in ``runs`` fresh processes, as a Spark worker routes (``task_peak_rss``'s child):
    each run's keys per CPU second, the best and the median, the model's build, the peak resident size,
    and the Python loop's CPU before each run (the machine's speed at the time)."""
    figures = []
    for _ in range(runs):
        loop = python_loop_cpu_s()
        figures.append({**task_peak_rss(snapshot, keys), "python_loop_cpu_s": loop})
    rates = sorted(f["keys_per_cpu_s"] for f in figures)
    return {
        "runs": figures,
        "best_keys_per_cpu_s": rates[-1],
        "median_keys_per_cpu_s": rates[len(rates) // 2],
        "target_keys_per_cpu_s": TARGET_KEYS_PER_CPU_S,
        "peak_rss_mb": max(f["peak_rss_mb"] for f in figures),
    }


def peak_rss_kib() -> int:
    """This process's peak resident size: ``VmHWM`` of its own memory, not ``ru_maxrss``, which Linux
    carries over an ``exec`` from the process that forked it (the benchmark's, 1.4 GB after grouping the
    log: every child reported that until 2026-11-29)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # not Linux: the best there is


def task_child(snapshot: Path, keys_file: Path) -> int:
    from mqctl.services.snapshot import read_topology

    keys = [tuple(k) for k in json.loads(keys_file.read_text())]
    figures = cold_rate(read_topology(snapshot), keys)
    print(json.dumps({**figures, "peak_rss_mb": round(peak_rss_kib() / 1024, 1)}))
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--task-child"]:
        return task_child(Path(argv[1]), Path(argv[2]))
    from gen_topology import add_estate_options

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_estate_options(ap)
    ap.add_argument("--publications", type=int, default=10_000_000)
    ap.add_argument("--distinct-topics", type=int, default=100_000)
    ap.add_argument("--keys", type=int, default=20_000, help="the first distinct keys of each order")
    ap.add_argument("--digest", action="store_true", help="also hash every answer (explain JSON)")
    ap.add_argument("--engine-only", action="store_true", help="also the cold rate without the facts")
    ap.add_argument("--no-rate", action="store_true", help="skip the cold rate")
    ap.add_argument("--task-rss", action="store_true", help="also a routing task's peak resident size")
    ap.add_argument(
        "--fresh", type=int, default=0, metavar="N", help="also the job-order cold rate in N fresh processes"
    )
    ap.add_argument("--profile", type=Path, help="cProfile the cold run (the job's order) into this file")
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "mqctl-bench")
    args = ap.parse_args(argv)

    from mqctl.services.snapshot import read_topology

    snapshot, log = prepare_files(args)
    topology_ = read_topology(snapshot)
    orders = {
        "job_order": job_keys(topology_, log, args.keys),
        "log_order": first_keys(topology_, log, args.keys),
    }
    result: dict[str, Any] = {
        "target": f"{TARGET_KEYS_PER_CPU_S} keys per CPU second, cold, facts included, in the job's order",
        "distinct_keys": {order: len(keys) for order, keys in orders.items()},
        "topics": {order: len({k[1] for k in keys}) for order, keys in orders.items()},
    }
    for order, keys in orders.items():
        part: dict[str, Any] = {}
        if not args.no_rate:
            gc.unfreeze()
            part["cold"] = cold_rate(topology_, keys, args.profile if order == "job_order" else None)
        if args.engine_only:
            gc.unfreeze()
            part["engine_only"] = engine_only(topology_, keys)
        result[order] = part
    if args.task_rss:
        result["task_peak_rss"] = task_peak_rss(snapshot, orders["job_order"])
    if args.fresh:
        result["job_order_fresh_process"] = fresh_runs(snapshot, orders["job_order"], args.fresh)
    if args.digest:
        gc.unfreeze()
        result["digest"] = digests(topology_, orders["log_order"])
        gc.unfreeze()
        result["digest_job_order"] = digests(topology_, orders["job_order"])
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
