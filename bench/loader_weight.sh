#!/usr/bin/env bash
# usage: bench/loader_weight.sh [BIN] [CLIENTS] [ROUNDS] — the load tool's weight against the C
# spectator client (bench/spectators.c): in each round, one `layercast serve` (one radar room) on
# core 0 receives CLIENTS spectators (default 600) from `layercast loadtest` and then from
# spectators.c, each on core 1 for 10 s; per run the client's CPU µs per frame it received
# (loadtest: user + system from /usr/bin/time over its frames; spectators.c: its own getrusage), then
# the medians and their ratio (issue 29, item 6: at most 1.5). Loopback only; bounded in clients,
# rounds (default 3) and time.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/layercast}
clients=${2:-600}
rounds=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/spectators" bench/spectators.c -lz
for round in $(seq 1 "$rounds"); do
    port=$((18000 + RANDOM % 1000))
    rm -rf "$work/data"
    taskset -c 0 "$bin" serve --port "$port" --public public --data "$work/data" --host-connections 20000 >/dev/null 2>&1 &
    server=$!
    sleep 1
    /usr/bin/time -f "%U %S" -o "$work/time-$round" taskset -c 1 "$bin" loadtest --url "ws://127.0.0.1:$port" --scene radar \
        --room weight --clients "$clients" --ramp 1000 --duration 10 --role spectator --json "$work/loadtest-$round.json" >/dev/null 2>&1
    taskset -c 1 "$work/spectators" --url "ws://127.0.0.1:$port/ws?scene=radar&room=weight&role=spectator" \
        --clients "$clients" --seconds 10 > "$work/spectators-$round.json" || true
    kill "$server"
    wait "$server" 2>/dev/null || true
done
python3 - "$work" "$rounds" <<'PY'
import json, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
ours, theirs = [], []
for r in range(1, rounds + 1):
    report = json.load(open(f"{work}/loadtest-{r}.json"))
    user, system = map(float, open(f"{work}/time-{r}").read().split())
    ours.append(1e6 * (user + system) / report["frames"]["received"])
    c = json.load(open(f"{work}/spectators-{r}.json"))
    theirs.append(c["clientCpuUsPerFrame"])
    print(f"round {r}: loadtest {ours[-1]:.2f} µs per frame ({report['frames']['perClientPerSecond']} per client per s), "
          f"spectators.c {theirs[-1]:.2f} µs per frame ({c['fps']:.1f} fps)")
print(f"median: loadtest {statistics.median(ours):.2f}, spectators.c {statistics.median(theirs):.2f}, "
      f"ratio {statistics.median(ours) / statistics.median(theirs):.2f}")
PY
