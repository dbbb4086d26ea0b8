#!/usr/bin/env bash
# The demo topology: IBM MQ topic host routing, reference 000 Figure 5 — a cluster of six queue managers,
# two full repositories, topic hosts for /USA/Alabama (QM3, and QM4 for resilience) and /USA/Alaska (QM4),
# a few subscriptions — one of them a wildcard above the clustered points, which misses remote publications.
# It lives in its own store ($DEMO_DB), never in your default one.
set -euo pipefail
cd "$(dirname "$0")/.."
DEMO_DB="${DEMO_DB:-$PWD/demo-store/demo.db}"
mkdir -p "$(dirname "$DEMO_DB")"
rm -f "$DEMO_DB" "$DEMO_DB-wal" "$DEMO_DB-shm"
mq() { .venv/bin/mqctl --db "$DEMO_DB" "$@"; }
say() { printf '\n\033[1m$ mqctl %s\033[0m\n' "$*"; }

echo "Demo store: $DEMO_DB"
mq define qmgr QM1 --cluster USA --full-repository USA --descr "full repository" >/dev/null
mq define qmgr QM2 --cluster USA --full-repository USA --descr "full repository" >/dev/null
for qm in QM3 QM4 QM5 QM6; do mq define qmgr "$qm" --cluster USA >/dev/null; done
mq define topic ALABAMA --qmgr QM3 --topicstr /USA/Alabama --cluster USA --clroute topichost >/dev/null
mq define topic ALABAMA --qmgr QM4 --topicstr /USA/Alabama --cluster USA --clroute topichost \
  --descr "second host, for resilience" >/dev/null
mq define topic ALASKA --qmgr QM4 --topicstr /USA/Alaska --cluster USA --clroute topichost >/dev/null
mq define sub MOBILE.ORDERS --qmgr QM5 --topicstr '/USA/Alabama/#' --selector "amount > 100" >/dev/null
mq define sub JUNEAU --qmgr QM6 --topicstr /USA/Alaska/Juneau >/dev/null
mq define sub ALL.USA --qmgr QM6 --topicstr '/USA/#' >/dev/null
mq define sub LOCAL.MOBILE --qmgr QM5 --topicstr /USA/Alabama/Mobile --non-durable >/dev/null
mq define sub EVERYTHING --qmgr QM1 --topicstr '/USA/#' >/dev/null

say display qmgr; mq display qmgr
say display topic; mq display topic
say display sub; mq display sub

if mq explain --help >/dev/null 2>&1; then
  say explain --from QM6 --topic /USA/Alabama/Mobile --prop amount=250
  mq explain --from QM6 --topic /USA/Alabama/Mobile --prop amount=250
  say explain --from QM5 --topic /USA/Alaska/Juneau
  mq explain --from QM5 --topic /USA/Alaska/Juneau
  say explain --from QM6 --topic /USA/Alabama/Mobile --prop amount=250 --down QM3
  mq explain --from QM6 --topic /USA/Alabama/Mobile --prop amount=250 --down QM3
  say explain --from QM6 --topic /USA/Alabama/Mobile --prop amount=250 --down QM3 --down QM4
  mq explain --from QM6 --topic /USA/Alabama/Mobile --prop amount=250 --down QM3 --down QM4
fi
# A small replay on Apache Spark (local mode): 1,000 publications of a day, with QM3 down as a variant.
DEMO_DIR="$(dirname "$DEMO_DB")"
rm -rf "$DEMO_DIR/snapshot" "$DEMO_DIR/replay"
mq export snapshot --out "$DEMO_DIR/snapshot" >/dev/null
.venv/bin/python - "$DEMO_DIR/publications.jsonl" <<'PY'
import json, random, sys
rng = random.Random(5)
topics = ["/USA/Alabama/Mobile", "/USA/Alabama/Montgomery", "/USA/Alaska/Juneau", "/USA/Alaska/Nome"]
with open(sys.argv[1], "w", encoding="utf-8") as out:
    for _ in range(1000):
        row = {"from": rng.choice(["QM1", "QM2", "QM5", "QM6"]), "topic": rng.choice(topics),
               "properties": {"amount": rng.choice([20, 250])}, "bytes": rng.choice([512, 2048])}
        out.write(json.dumps(row) + "\n")
PY
say spark analyze --snapshot snapshot --publications publications.jsonl --out replay --what-if down:QM3
mq spark analyze --snapshot "$DEMO_DIR/snapshot" --publications "$DEMO_DIR/publications.jsonl" \
  --out "$DEMO_DIR/replay" --what-if down:QM3 --what-if topichost:ALASKA@QM3,QM4 --master 'local[2]'

printf '\nDone. Explore it yourself: .venv/bin/mqctl --db %s display sub -o json\n' "$DEMO_DB"
