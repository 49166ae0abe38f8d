#!/usr/bin/env bash
# usage: bench/ab_server.sh BEFORE AFTER [CLIENTS] [ROUNDS] — two builds of `layercast serve` and the
# send-only floor (bench/floor.c), in turn in each of ROUNDS rounds (default 3), each serving CLIENTS
# spectators (default 2000; one radar room for ours) pinned to core 0, with bench/spectators.c on
# core 1 measuring for 10 s after the ramp: per run the server's CPU µs per client-frame, fps, skip
# and the client's own CPU µs per frame, then each one's median.
# For before/after comparisons of the write path (docs/performance.md). Loopback only, bounded.
set -euo pipefail
cd "$(dirname "$0")/.."
before=$1 after=$2 clients=${3:-2000} rounds=${4:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/spectators" bench/spectators.c -lz
cc -O2 -o "$work/floor" bench/floor.c
run() {  # run BINARY: one measurement, as JSON on stdout ("floor": the send-only floor)
    local port=$((18000 + RANDOM % 1000))
    rm -rf "$work/data"
    if [[ $1 == floor ]]; then
        taskset -c 0 "$work/floor" "$port" >/dev/null 2>&1 &
    else
        taskset -c 0 "$1" serve --port "$port" --public public --data "$work/data" --host-connections 20000 >/dev/null 2>&1 &
    fi
    local server=$!
    sleep 1
    taskset -c 1 "$work/spectators" --url "ws://127.0.0.1:$port/ws?scene=radar&room=ab&role=spectator" \
        --clients "$clients" --seconds 10 --server-pid "$server" || true
    kill "$server"
    wait "$server" 2>/dev/null || true
}
for round in $(seq 1 "$rounds"); do
    for build in before after floor; do
        case $build in before) binary=$before ;; after) binary=$after ;; floor) binary=floor ;; esac
        run "$binary" > "$work/$build-$round.json"
    done
done
python3 - "$work" "$rounds" <<'PY'
import json, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
for build in ("before", "after", "floor"):
    runs = [json.load(open(f"{work}/{build}-{r}.json")) for r in range(1, rounds + 1)]
    cpu = [r["serverCpuUsPerClientFrame"] for r in runs]
    fps = ", ".join(str(round(r["fps"], 1)) for r in runs)
    skip = ", ".join(f"{r['skipRatio']:.4f}" for r in runs)
    listed = ", ".join(f"{c:.2f}" for c in cpu)
    client = [r["clientCpuUsPerFrame"] for r in runs]
    print(f"{build}: µs per client-frame {listed} (median {statistics.median(cpu):.2f}); fps {fps}; skip {skip}; "
          f"client µs per frame {', '.join(f'{c:.2f}' for c in client)}")
PY
