#!/usr/bin/env python3
"""Bench (f, tap latency): tap → answer on the room's origin against through an edge node.

Starts a redis-server and two `layercast serve --cluster` nodes (release build):
node A opens the rain room first, so it is the origin; node B relays it. Then two
`layercast loadtest --role player --taps 1 --aim aim` runs at once, one on each node (the same
room, the same rain, started 3 s in through node B, so the admin command is forwarded too),
and prints each run's tap → result latency (the loader's own measure: from sending a tap to
reading its answer) and the difference. Redis and both nodes run on CPU 0, both loaders on CPU 1,
so the two runs share the machine the same way and the difference is what the edge adds: Redis
there and back, two thread hand-overs on each node, and B's decode and write.
Only 127.0.0.1; bounded in clients and seconds. Asserts nothing.

    python3 bench/edge_taps.py [--clients 100]
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import benchlib

SECONDS = 32


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=100, help="players on each node")
    args = parser.parse_args()
    benchlib.raise_open_files()
    work = Path(tempfile.mkdtemp(prefix="layercast-edge-taps-"))
    redis_port = benchlib.free_port()
    redis = subprocess.Popen(["taskset", "-c", "0", "redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
                              "--appendonly", "no", "--dir", str(work)], stdout=subprocess.DEVNULL)
    servers = []
    try:
        time.sleep(0.5)
        # Each node has a ledger of its own: the origin writes every award, the edge only reads totals.
        flags = ("--cluster", f"redis://127.0.0.1:{redis_port}", "--rain-every", "0")
        origin = benchlib.Server(*flags, "--node-id", "origin", binary=benchlib.BINARY, prefix=["taskset", "-c", "0"])
        servers.append(origin.__enter__())
        edge = benchlib.Server(*flags, "--node-id", "edge", binary=benchlib.BINARY, prefix=["taskset", "-c", "0"])
        servers.append(edge.__enter__())
        opener = subprocess.Popen([str(benchlib.BINARY), "loadtest", "--url", origin.url, "--scene", "rain", "--room", "edge",
                                   "--clients", "1", "--duration", str(SECONDS + 8)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.5)  # the room is placed on the origin before anyone joins the edge
        reports = {name: work / f"{name}.json" for name in ("origin", "edge")}
        loads = [subprocess.Popen(["taskset", "-c", "1", str(benchlib.BINARY), "loadtest", "--url", server.url, "--scene", "rain", "--room", "edge",
                                   "--role", "player", "--clients", str(args.clients), "--ramp", str(args.clients),
                                   "--duration", str(SECONDS), "--taps", "1", "--aim", "aim", "--json", str(reports[name])],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                 for name, server in (("origin", origin), ("edge", edge))]
        time.sleep(3)
        rain = benchlib.post_rain(edge.port, "edge", {"duration": 20, "seed": 7})
        for load in loads:
            load.wait(timeout=SECONDS + 30)
        opener.wait(timeout=30)
        ledger = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{origin.port}/api/rains/{rain['rain']}", timeout=5).read())
        rows = []
        latency = {}
        for name, path in reports.items():
            report = json.loads(path.read_text())
            taps = report["taps"]
            latency[name] = taps["latencyMs"]
            rows.append([name, report["connections"]["made"], f"{taps['sent']} / {taps['answered']}",
                         f"{taps['latencyMs']['p50']} / {taps['latencyMs']['p95']} / {taps['latencyMs']['p99']}", taps["awards"]])
        print(f"\n(f) tap → answer on the origin and through an edge: {args.clients} players on each node tapping once a second "
              f"in one rain; {len(ledger['awards'])} awards in the ledger\n")
        print(benchlib.table(["node", "players", "taps sent / answered", "tap → result p50 / p95 / p99 ms", "awards"], rows))
        print(f"\nadded by the edge: p50 {latency['edge']['p50'] - latency['origin']['p50']:+.2f} ms, "
              f"p99 {latency['edge']['p99'] - latency['origin']['p99']:+.2f} ms")
    finally:
        for server in reversed(servers):
            server.__exit__(None, None, None)
        redis.terminate()
        redis.wait(5)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
