#!/usr/bin/env bash
# usage: bench/server_cpu.sh [SERVER_BIN] [CLIENTS] [LOADER_BIN] — the server's CPU µs per frame a
# spectator receives: one radar room, `layercast serve` (SERVER_BIN) pinned to core 0 and
# `layercast loadtest` (LOADER_BIN, default the same) to core 1, CLIENTS spectators (default 1000)
# for 12 s, ramp included. Server CPU is user + system time from /proc over the whole run.
# Used to compare two builds of the server under the same loader (docs/performance.md).
# Loopback only; bounded in clients and time.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/layercast}
clients=${2:-1000}
loader=${3:-$bin}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
port=$((18000 + RANDOM % 1000))
# Every client comes from 127.0.0.1: lift the per-address connection limit.
taskset -c 0 "$bin" serve --port "$port" --data "$work/data" --host-connections 20000 >/dev/null 2>&1 &
server=$!
sleep 1
before=$(awk '{print $14 + $15}' "/proc/$server/stat")
taskset -c 1 "$loader" loadtest --url "ws://127.0.0.1:$port" --scene radar --room servercpu --clients "$clients" \
    --ramp 1000 --duration 12 --role spectator --json "$work/report.json" >/dev/null 2>&1
after=$(awk '{print $14 + $15}' "/proc/$server/stat")
kill "$server"
wait "$server" 2>/dev/null || true
python3 - "$work" "$before" "$after" "$(getconf CLK_TCK)" "$bin" <<'PY'
import json, sys
work, before, after, hz, binary = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
report = json.load(open(f"{work}/report.json"))
frames = report["frames"]["received"]
cpu = (after - before) / hz
print(f"{binary}: clients {report['run']['clients']}, frames {frames} ({report['frames']['perClientPerSecond']} per client per s, "
      f"skip {report['frames']['skipRatio']}): server CPU {cpu:.2f} s = {1e6 * cpu / frames:.2f} µs per client-frame")
PY
