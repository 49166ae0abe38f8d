#!/usr/bin/env bash
# usage: bench/loader_cpu.sh [BIN] [CLIENTS] [LOADTEST FLAG]... — the load tool's CPU µs per frame
# it receives: one radar room, `layercast serve` pinned to core 0 and `layercast loadtest` to core 1
# (with its workers, if the flags ask for them), CLIENTS spectators (default 600) for 10 s, ramp
# included. Loopback only; bounded in clients and time.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/layercast}
clients=${2:-600}
shift $(( $# > 2 ? 2 : $# ))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
port=$((18000 + RANDOM % 1000))
# Every client comes from 127.0.0.1: lift the per-address connection limit.
taskset -c 0 "$bin" serve --port "$port" --data "$work/data" --host-connections 20000 >/dev/null 2>&1 &
server=$!
sleep 1
/usr/bin/time -f "%U %S" -o "$work/time" taskset -c 1 "$bin" loadtest --url "ws://127.0.0.1:$port" --scene radar \
    --room loader --clients "$clients" --ramp 1000 --duration 10 --role spectator --json "$work/report.json" "$@" >/dev/null 2>&1
kill "$server"
wait "$server" 2>/dev/null || true
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
report = json.load(open(f"{work}/report.json"))
user, system = map(float, open(f"{work}/time").read().split())
frames = report["frames"]["received"]
print(f"clients {report['run']['clients']}, workers {report['run'].get('workers', 1)}, frames {frames} ({report['frames']['perClientPerSecond']} per client per s): "
      f"loader CPU {user + system:.2f} s = {1e6 * (user + system) / frames:.1f} µs per frame (user {user}, system {system})")
PY
