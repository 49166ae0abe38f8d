#!/usr/bin/env bash
# The benchmarks of docs/performance.md: builds release, installs what is missing (as
# scripts/install-deps.sh does), raises the open-files limit, and prints a table per part.
#   a  engine: presentation + display list per layer, each scene     (LayercastFrameBench)
#   b  encoder: full/delta bytes and µs, plain and permessage-deflate (LayercastFrameBench)
#   c  fan-out: most spectators of one room at 30 fps within the SLOs (bench/fanout.py)
#   d  the same against a Node.js ws broadcaster replaying our frames, back to back with (c)
#   e  tap → award latency in a rain with 1,000 players              (bench/rain_taps.py)
# Usage: bench/run.sh [a|b|c|d|e|all] (default all; c and d run together as one search each).
# Only 127.0.0.1 is used; every run is bounded in clients and seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
part=${1:-all}
case $part in a|b|c|d|e|all) ;; *) echo "usage: bench/run.sh [a|b|c|d|e|all]" >&2; exit 64 ;; esac

scripts/install-deps.sh >/dev/null
for product in layercast LayercastFrameBench LayercastBench; do
    swift build -c release --product "$product" 2>&1 | tail -1
done
ulimit -n "$(ulimit -Hn)"

echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(free -g | awk '/^Mem:/ {print $2}') GiB, $(uname -sr)"
echo "open files: $(ulimit -n); loader and server share these cores"
echo

if [[ $part == a || $part == b || $part == all ]]; then
    # (a) and (b) are one run: the engine table, then the encoder table, then the snowfall.
    .build/release/LayercastFrameBench 900
    echo
fi
case $part in
    c) python3 bench/fanout.py --permessage-deflate --budget 150 ;;
    d) python3 bench/fanout.py --baseline --budget 150 ;;
    all) python3 bench/fanout.py --baseline --permessage-deflate --budget 150 ;;
esac
if [[ $part == e || $part == all ]]; then
    python3 bench/rain_taps.py --clients 1000
fi
