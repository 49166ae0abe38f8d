#!/usr/bin/env python3
"""Bench (e): tap → award latency under load, in a rain with --clients players (default 1,000).

Starts `layercast serve` (release, no scheduled rains), runs `layercast loadtest --role player
--taps 1 --aim aim` (every player taps the centre of a packet it sees, once a second), and 3 s
in, once everyone has joined, starts a rain with the admin API (20 s of packets after the 5 s
countdown, the default prize: 27 winning packets sharing 888 coins, a fixed seed). Prints the
tap → result latency, the answers, the awards and the server's CPU as a Markdown table; the
award count is checked against the ledger (`GET /api/rains/{id}`). Loader and server share
this machine's cores. Asserts nothing.

    python3 bench/rain_taps.py [--clients 1000]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import benchlib

SECONDS = 32  # 3 s of joining, 5 s of countdown, 20 s of packets, 4 s of the last packets landing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=1000)
    args = parser.parse_args()
    benchlib.raise_open_files()
    out = Path(tempfile.mkdtemp(prefix="layercast-rain-")) / "report.json"
    with benchlib.Server("--rain-every", "0") as server:
        cmd = [str(benchlib.BINARY), "loadtest", "--url", server.url, "--scene", "rain", "--room", "bench",
               "--role", "player", "--clients", str(args.clients), "--ramp", str(max(100, args.clients / 2)),
               "--duration", str(SECONDS), "--taps", "1", "--aim", "aim", "--server-pid", str(server.pid), "--json", str(out)]
        load = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(3)
        rain = benchlib.post_rain(server.port, "bench", {"duration": 20, "seed": 7})
        load.wait(timeout=SECONDS + 30)
        ledger = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{server.port}/api/rains/{rain['rain']}", timeout=5).read())
    report = json.loads(out.read_text())
    shutil.rmtree(out.parent, ignore_errors=True)
    taps, frames, latency = report["taps"], report["frames"], report["taps"]["latencyMs"]
    awards_in_ledger = len(ledger.get("awards", []))
    results = ", ".join(f"{k} {v}" for k, v in sorted(taps["results"].items()))
    print(f"\n(e) tap → award under load: one rain room, {args.clients} players tapping once a second at packets they see; "
          f"loader and server share {os.cpu_count()} cores\n")
    print(benchlib.table(
        ["players connected", "taps sent / answered", "answers", "tap → result p50 / p95 / p99 ms", "awards (ledger)",
         "frame age p99 ms", "skip ratio", "server CPU % of a core", "server peak RSS MiB"],
        [[f"{report['connections']['made']} of {args.clients}", f"{taps['sent']} / {taps['answered']}", results,
          f"{latency['p50']} / {latency['p95']} / {latency['p99']}", f"{taps['awards']} ({awards_in_ledger})",
          frames["ageMs"]["p99"], frames["skipRatio"], report["server"]["cpuPercent"],
          f"{report['server']['peakRSSBytes'] / 2**20:.0f}"]]))


if __name__ == "__main__":
    main()
