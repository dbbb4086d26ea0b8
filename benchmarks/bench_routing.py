"""Distinct publications routed per second per core by a prepared ``RoutingModel`` (the Spark job's rate).

    .venv/bin/python benchmarks/bench_routing.py                    # the explain benchmark's estate (minutes)
    .venv/bin/python benchmarks/bench_routing.py --clusters 3 --qmgrs-per-cluster 20 --ems-servers 20   # quick

1. The estate of ``bench_explain.py`` (``gen_topology.py``, seed 7: 50 clusters x 100 queue managers,
   50,000 topic objects, 500,000 subscriptions, 200 EMS servers), generated into the same cache folder.
2. Imported once into a store of this benchmark's own (``stores-routing/estate.db`` beside the files,
   reused with ``--reuse-store``), and read back whole with ``store.topology.load_topology`` (timed).
3. ``RoutingModel(topology)`` (timed: the MQ half is built on the first MQ question, the EMS half on the
   first EMS one), then twice ``--publications`` distinct publications routed one after the other on one
   core, in two passes: the first builds each queue manager's topic tree as it is needed (as a Spark
   executor does at its start), the second gives the steady rate. Publications:
   random publisher, topic ``/CLnn/<app>/<host>/item<k>[/<n>]`` of that publisher's cluster and an
   ``amount`` property; and a tenth as many EMS publications on ``market.fx.eur`` (the topic the EMS
   servers' durable subscribers want) from random servers, each with its own ``amount``. Each key is
   asked once; times are CPU seconds of the process (the rate per core, however busy the machine).
4. Pickling the model (what Spark broadcasts) and the rebuild after unpickling are timed too.

After the model is built (and again after the first pass) the garbage collector is frozen
(``gc.freeze()``), as a long-running caller over a big model should: otherwise each full collection
walks the millions of objects of the topology and the model (half the time, measured).
"""

from __future__ import annotations

import argparse
import gc
import pickle
import random
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402
from bench_explain import topology as generated  # noqa: E402
from harness import stopwatch  # noqa: E402

BIN = Path(sys.executable).parent
MQCTL = str(BIN / "mqctl")
APPS = ("orders", "prices")


def build_store(out: Path, reuse: bool) -> tuple[Path, float | None]:
    work = out / "stores-routing"
    work.mkdir(exist_ok=True)
    db = work / "estate.db"
    if reuse and db.exists():
        return db, None
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    url = f"sqlite:///{db}"
    run = harness.timed([MQCTL, "--db", url, "import", "mqsc", str(out / "mqsc")])
    seconds = harness.checked(run, "mqctl import mqsc", ok=(0,)).wall
    servers = sorted((out / "ems").glob("*/tibemsd.conf")) if (out / "ems").exists() else []
    if servers:
        args = [a for conf in servers for a in ("--tibemsd", str(conf))]
        run = harness.timed([MQCTL, "--db", url, "import", "ems", *args])
        seconds += harness.checked(run, "mqctl import ems", ok=(0,)).wall
    return db, seconds


def publications(args: argparse.Namespace, rng: random.Random, count: int) -> list[Any]:
    from mqctl.domain.explanation import Publication
    from mqctl.domain.messages import JmsValue

    out: list[Any] = []
    seen: set[tuple[str, str, int]] = set()
    while len(out) < count:
        c = rng.randrange(args.clusters)
        q = rng.randrange(args.qmgrs_per_cluster)
        host = rng.randrange(args.qmgrs_per_cluster)
        topic = f"/CL{c:02d}/{rng.choice(APPS)}/{host:03d}/item{rng.randrange(20)}"
        if rng.random() < 0.3:
            topic += f"/{rng.randrange(1000)}"
        key = (f"C{c:02d}Q{q:03d}", topic, rng.randrange(100))
        if key not in seen:
            seen.add(key)
            out.append(Publication(key[0], key[1], {"amount": JmsValue("int", key[2])}))
    return out


def ems_publications(args: argparse.Namespace, rng: random.Random) -> list[Any]:
    from mqctl.domain.explanation import Publication
    from mqctl.domain.messages import JmsValue

    count = args.publications // 10
    return [
        Publication(
            f"E{rng.randrange(args.ems_servers):03d}", "market.fx.eur", {"amount": JmsValue("int", i)}
        )
        for i in range(count)
    ]


def route_all(model: Any, pubs: list[Any]) -> tuple[float, int, int]:
    """CPU seconds of this process (the rate per core, whatever else runs on the machine)."""
    from mqctl.domain.routing import explain

    deliveries = not_delivered = 0
    with stopwatch() as clock:
        for pub in pubs:
            answer = explain(model, pub)
            deliveries += len(answer.deliveries)
            not_delivered += len(answer.not_delivered)
    return clock.cpu, deliveries, not_delivered


def run(args: argparse.Namespace) -> dict[str, Any]:
    from sqlalchemy import create_engine

    from mqctl.domain.routing import RoutingModel
    from mqctl.memory import gc_paused
    from mqctl.store.topology import load_topology

    out = generated(Path(args.cache).expanduser(), args)
    db, import_s = (args.store, None) if args.store else build_store(out, args.reuse_store)
    r: dict[str, Any] = {"store_import_s": round(import_s, 1) if import_s else None}
    engine = create_engine(f"sqlite:///{db}")
    with stopwatch() as clock, engine.connect() as conn:
        topology = load_topology(conn)
    r["load_topology_s"] = round(clock.wall, 2)
    r["nodes"] = len(topology.nodes)
    r["subscriptions"] = len(topology.subscriptions)
    r["topic_objects"] = len(topology.topics)
    rng = random.Random(args.seed)
    both = publications(args, rng, 2 * args.publications)
    first, second = both[: args.publications], both[args.publications :]
    model = RoutingModel(topology)
    with (
        stopwatch() as clock,
        gc_paused(),
    ):  # as the processes build it (the CLI's entry point, the Spark worker)
        model.mq  # noqa: B018 - build the MQ half now, to time it apart from routing
    r["model_mq_build_s"] = round(clock.wall, 2)
    gc.freeze()  # as the Spark job should: a full collection would otherwise walk the whole model
    seconds, deliveries, missed = route_all(model, first)
    gc.freeze()
    r["mq_publications"] = len(first)
    r["mq_first_pass_cpu_s"] = round(seconds, 2)
    r["mq_first_pass_per_s"] = round(len(first) / seconds)
    seconds, deliveries, missed = route_all(model, second)
    r["mq_second_pass_cpu_s"] = round(seconds, 2)
    r["mq_publications_per_s"] = round(len(second) / seconds)
    r["mq_deliveries_per_publication"] = round(deliveries / len(second), 1)
    r["mq_not_delivered_per_publication"] = round(missed / len(second), 1)
    if args.ems_servers:
        epubs = ems_publications(args, rng)
        with stopwatch() as clock, gc_paused():
            model.ems  # noqa: B018
        r["model_ems_build_s"] = round(clock.wall, 2)
        seconds, deliveries, _ = route_all(model, epubs)
        r["ems_publications"] = len(epubs)
        r["ems_publications_per_s"] = round(len(epubs) / seconds)
        r["ems_deliveries_per_publication"] = round(deliveries / len(epubs), 1)
    with stopwatch() as clock:
        blob = pickle.dumps(model)
    r["pickle_s"] = round(clock.wall, 2)
    r["pickle_mb"] = round(len(blob) / 2**20, 1)
    with stopwatch() as clock:
        copy = pickle.loads(blob)
        copy.mq  # noqa: B018
    r["unpickle_and_rebuild_s"] = round(clock.wall, 2)
    return r


def table(r: Mapping[str, Any]) -> Iterator[str]:
    for key, value in r.items():
        yield f"{key:<36}{value}"


def main(argv: list[str] | None = None) -> int:
    ap = harness.estate_parser(__doc__, runs=None)
    ap.add_argument(
        "--publications", type=int, default=20_000, help="distinct MQ publications (EMS: a tenth)"
    )
    ap.add_argument("--reuse-store", action="store_true", help="keep the store imported by an earlier run")
    ap.add_argument(
        "--store", type=Path, help="an imported store of the same estate (e.g. bench_explain's stores/big.db)"
    )
    args = ap.parse_args(argv)
    return harness.emit(run(args), args.json, table)


if __name__ == "__main__":
    raise SystemExit(main())
