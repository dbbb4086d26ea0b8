"""Seeded generator of a large topology written as the users' own files (MQSC scripts and EMS configs).

Reusable by every benchmark: ``python benchmarks/gen_topology.py OUT [--clusters 50] [--qmgrs-per-cluster 100]
[--topics-per-qmgr 10] [--subs-per-qmgr 100] [--ems-servers 200] [--seed 7]``.

Layout of OUT:
  mqsc/CLnn/<QMGR>.mqsc      one script per queue manager (cluster channel, topic objects, subscriptions)
  ems/<SERVER>/tibemsd.conf   + topics.conf, routes.conf, durables.conf per EMS server

The small store of the explain benchmark is ``mqsc/CL00`` alone: the same names and definitions as in the
big store, so a question asked inside that cluster has the same answer in both.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

APPS = ["orders", "prices", "trades", "alerts", "audit", "quotes", "risk", "fx", "rates", "news"]


def qmgr_name(cluster: int, q: int) -> str:
    return f"C{cluster:02d}Q{q:03d}"


def cluster_name(cluster: int) -> str:
    return f"CL{cluster:02d}"


def write_qmgr(
    folder: Path, cluster: int, q: int, qmgrs: int, topics: int, subs: int, rng: random.Random
) -> int:
    """One queue manager's script; returns the number of MQSC statements written."""
    name, cl = qmgr_name(cluster, q), cluster_name(cluster)
    lines = [f"* generated queue manager {name} of cluster {cl}"]
    if q < 2:
        lines.append(f"ALTER QMGR REPOS({cl})")
    lines.append(
        f"DEFINE CHANNEL('{cl}.{name}') CHLTYPE(CLUSRCVR) CLUSTER({cl}) CONNAME('{name.lower()}(1414)') REPLACE"
    )
    for t in range(topics):
        app = APPS[t % len(APPS)]
        if t < 2:
            # clustered branch hosted here: /CLnn/<app>/<qmgr index>
            topicstr = f"/{cl}/{app}/{q:03d}"
            route = "TOPICHOST" if (q + t) % 3 == 0 else "DIRECT"
            lines.append(
                f"DEFINE TOPIC('{cl}.{app.upper()}.{q:03d}') TOPICSTR('{topicstr}') CLUSTER({cl}) CLROUTE({route}) REPLACE"
            )
        else:
            lines.append(
                f"DEFINE TOPIC('LOCAL.{app.upper()}.{t:02d}') TOPICSTR('/local/{name}/{app}/{t}') REPLACE"
            )
    for s in range(subs):
        host = rng.randrange(qmgrs)
        app = APPS[rng.randrange(2)]
        leaf = rng.choice(["#", "+", f"item{rng.randrange(20)}", f"item{rng.randrange(20)}/#"])
        selector = f" SELECTOR('amount > {rng.randrange(100)}')" if s % 4 == 0 else ""
        lines.append(
            f"DEFINE SUB('{name}.SUB.{s:04d}') TOPICSTR('/{cl}/{app}/{host:03d}/{leaf}'){selector} REPLACE"
        )
    (folder / f"{name}.mqsc").write_text("\n".join(lines) + "\n")
    return len(lines) - 1


def write_ems(out: Path, servers: int, rng: random.Random) -> None:
    """EMS servers in regional hubs: every server routes to its hub, hubs form a chain (mhop zone)."""
    hubs = max(1, servers // 20)
    for i in range(servers):
        name = f"E{i:03d}"
        folder = out / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "tibemsd.conf").write_text(
            f"server = {name}\nrouting = enabled\ntopics = topics.conf\nroutes = routes.conf\n"
            "durables = durables.conf\n"
        )
        (folder / "topics.conf").write_text(
            ">\nmarket.>  global,maxbytes=1GB\nmarket.fx.*  global\norders  global,maxmsgs=10000\n"
        )
        hub = (i // 20) * 20
        peers = []
        if i != hub:
            peers.append(f"E{hub:03d}")
        else:
            if hub + 20 < hubs * 20:
                peers.append(f"E{hub + 20:03d}")
            peers += [f"E{j:03d}" for j in range(hub + 1, min(hub + 20, servers))]
        routes = []
        for peer in peers:
            routes.append(f"[{peer}]\nurl = tcp://{peer.lower()}:7222\nzone_name = WORLD\nzone_type = mhop\n")
        (folder / "routes.conf").write_text("\n".join(routes))
        durables = [f"market.fx.eur  {name}.FX{d}" for d in range(rng.randrange(1, 4))]
        (folder / "durables.conf").write_text("\n".join(durables) + "\n")


def generate(out: Path, clusters: int, qmgrs: int, topics: int, subs: int, ems: int, seed: int) -> int:
    rng = random.Random(seed)
    statements = 0
    for c in range(clusters):
        folder = out / "mqsc" / cluster_name(c)
        folder.mkdir(parents=True, exist_ok=True)
        for q in range(qmgrs):
            statements += write_qmgr(folder, c, q, qmgrs, topics, subs, rng)
    if ems:
        write_ems(out / "ems", ems, rng)
    return statements


def add_estate_options(parser: argparse.ArgumentParser) -> None:
    """The estate's shape, as every benchmark of the explain estate names it (defaults: 5,000 queue
    managers in 50 clusters, 500,000 subscriptions, 200 EMS servers)."""
    parser.add_argument("--clusters", type=int, default=50)
    parser.add_argument("--qmgrs-per-cluster", type=int, default=100)
    parser.add_argument("--topics-per-qmgr", type=int, default=10)
    parser.add_argument("--subs-per-qmgr", type=int, default=100)
    parser.add_argument("--ems-servers", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("out", type=Path)
    add_estate_options(parser)
    args = parser.parse_args()
    n = generate(
        args.out,
        args.clusters,
        args.qmgrs_per_cluster,
        args.topics_per_qmgr,
        args.subs_per_qmgr,
        args.ems_servers,
        args.seed,
    )
    print(f"wrote {n} MQSC statements under {args.out}")


if __name__ == "__main__":
    main()
