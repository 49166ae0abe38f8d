#!/usr/bin/env bash
# The benchmarks of docs/performance.md: builds release, installs what is missing
# (scripts/install-deps.sh --bench: the usual packages plus Node.js, ws, Go and gorilla/websocket),
# raises the open-files limit, and prints a table per part.
#   a  engine: presentation + display list per layer, each scene     (LayercastFrameBench)
#   b  encoder: full/delta bytes and µs, plain and permessage-deflate (LayercastFrameBench)
#   c  fan-out: most spectators of one room at 30 fps within the SLOs, ours beside its peers
#      (bench/peers.py: Node ws, Go gorilla, the C send-only floor; server on CPU 0, the C
#      spectator client on CPU 1), then ours with permessage-deflate (bench/fanout.py, loaded by
#      `layercast loadtest`, which shares the cores)
#   d  the peers table of (c) alone (c and d together print it once)
#   e  tap → award latency in a rain with 1,000 players              (bench/rain_taps.py)
#   f  the cluster on Redis: origin CPU per tick as edges subscribe, edge CPU per relayed frame and
#      per client-frame, extra frame age through an edge, --workers 2 against one process, a rain
#      room's Redis traffic (bench/cluster.py; redis-server, nodes on CPU 0, clients on CPU 1),
#      then tap → answer through an edge against on the origin (bench/edge_taps.py)
#   g  a rain's takeover rebuild against its age, alone on CPU 1  (LayercastFrameBench rebuild); then
#      a rain whose origin is SIGKILLed 20 times: awards told against the ledger, kill → first frame p50/p99,
#      rebuild time against the rain's age                            (bench/takeover.py)
#   h  a reconnect storm: 9,000 spectators and 30 tappers through nginx to three nodes, one node
#      SIGKILLed mid-rain and restarted: reconnect time p95/p99, the survivors' frame gaps and
#      CPU, awards against the ledger (bench/storm.py; nodes and nginx on CPU 0, loader on CPU 1)
#   i  node reports and scenes at 10, 100 and 1,000 simulated nodes, before and after issue 29's
#      items 5 and 7: Redis CPU and bytes/s in and out (bench/node_reports.py; redis-server on CPU 0, the
#      simulated nodes on CPU 1)
#   j  the page's cost on a phone: each scene in its busy phase in headless Chromium at 414×736, DPR 2,
#      CPU throttling 1× and 4×: fps, p95 frame interval, main-thread and script share, tap → socket
#      p95, the render worker's time per picture, messages and kB/s (bench/client.py; the page's main
#      thread alone on CPU 1, the server and the rest of Chromium on CPU 0; --layout shared: all of
#      Chromium on CPU 1)
#   k  the stream: messages and bytes a second per spectator of each scene, still and busy, and a
#      rain through 4, 8 and 16 KB/s links, acknowledging frames or not: frames/s, full frames,
#      view age p50/p95 (bench/stream.py; server on CPU 0, the readers on CPU 1)
#   l  the first frame of a scene page under Lighthouse's mobile and a 3G profile, fresh and from
#      cache, direct and behind nginx (bench/first_frame.py)
# Usage: bench/run.sh [a|b|c|d|e|f|g|h|i|j|k|l|all]... (default all).
# SWIFT_SCRATCH=DIR builds into DIR (swift build --scratch-path) and runs the binaries from there.
# Only 127.0.0.1 is used; every run is bounded in clients and seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
parts=("${@:-all}")
want() {  # want PART...: whether any of them (or all) was asked for
    local part asked
    for asked in "${parts[@]}"; do
        for part in "$@" all; do [[ $asked == "$part" ]] && return 0; done
    done
    return 1
}
for part in "${parts[@]}"; do
    case $part in a|b|c|d|e|f|g|h|i|j|k|l|all) ;; *) echo "usage: bench/run.sh [a|b|c|d|e|f|g|h|i|j|k|l|all]..." >&2; exit 64 ;; esac
done

scripts/install-deps.sh --bench >/dev/null
scratch=()
if [[ -n ${SWIFT_SCRATCH:-} ]]; then scratch=(--scratch-path "$SWIFT_SCRATCH"); fi
products=(layercast)
if want a b c d e; then products+=(LayercastFrameBench LayercastBench); fi
if want g && ! want a b c d e; then products+=(LayercastFrameBench); fi
for product in "${products[@]}"; do
    swift build -c release --product "$product" "${scratch[@]}" 2>&1 | tail -1
done
release=$(swift build -c release "${scratch[@]}" --show-bin-path)
export LAYERCAST_BINARY=$release/layercast
ulimit -n "$(ulimit -Hn)"

echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(free -g | awk '/^Mem:/ {print $2}') GiB, $(uname -sr)"
echo "open files: $(ulimit -n)"
echo

if want a b; then
    # (a) and (b) are one run: the engine table, then the encoder table, then the snowfall.
    "$release/LayercastFrameBench" 900
    echo
fi
if want c d; then
    python3 bench/peers.py --budget 180
    echo
fi
if want c; then
    python3 bench/fanout.py --permessage-deflate --budget 150
    echo
fi
if want e; then
    python3 bench/rain_taps.py --clients 1000
    echo
fi
if want f; then
    python3 bench/cluster.py
    echo
    python3 bench/edge_taps.py --clients 100
    echo
fi
if want g; then
    # The rebuild alone, on one core, against the rain's age; then the kills.
    taskset -c "$(( $(nproc) > 1 ? 1 : 0 ))" "$release/LayercastFrameBench" rebuild
    echo
    LAYERCAST_BIN=$release/layercast python3 bench/takeover.py --kills 20
    echo
fi
if want h; then
    LAYERCAST_BIN=$release/layercast python3 bench/storm.py --spectators 9000 --players 30
    echo
fi
if want i; then
    python3 bench/node_reports.py --nodes 10,100,1000 --seconds 10
    echo
fi
if want j; then
    LAYERCAST_BIN=$release/layercast python3 bench/client.py --seconds 8
    echo
fi
if want k; then
    python3 bench/stream.py --binary "$release/layercast" --seconds 8
    echo
fi
if want l; then
    python3 bench/first_frame.py --binary "$release/layercast"
    python3 bench/first_frame.py --binary "$release/layercast" --nginx
fi
