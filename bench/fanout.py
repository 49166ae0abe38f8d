#!/usr/bin/env python3
"""Bench (c) and (d): the most spectators one radar room holds at 30 fps.

For each server (ours, and with --baseline the Node.js `ws` broadcaster replaying frames recorded
from ours, back to back in this one invocation), runs `layercast loadtest --role spectator` with a
growing `--clients` (doubling from --start, then bisecting between the last pass and the first
failure), each run --seconds long, and keeps the largest count that passes:
every client connected, skip ratio ≤ 1 %, p99 frame age ≤ 100 ms, and at least 28.5 frames per
client per second (95 % of 30: a server that falls behind lowers its frame rate instead of
skipping). Loader and server share this machine's cores. Prints a Markdown table; asserts nothing.

    python3 bench/fanout.py [--baseline] [--permessage-deflate] [--seconds 10] [--budget 600]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchlib
import record_frames

FPS = 30
MIN_FRAMES_PER_SECOND = 28.5
MAX_SKIP_RATIO = 0.01
MAX_P99_AGE_MS = 100.0


def step(url: str, pid: int, clients: int, seconds: float, room: str, deflate: bool) -> dict:
    """One loadtest run of `clients` spectators; returns its figures and whether it passed."""
    ramp = max(200, clients / 2)  # everyone in within the first 2 s
    flags = ["--scene", "radar", "--room", room, "--role", "spectator", "--clients", str(clients), "--ramp", str(ramp),
             "--max-skip-ratio", str(MAX_SKIP_RATIO), "--max-p99-frame-age-ms", str(MAX_P99_AGE_MS)]
    if deflate:
        flags.append("--permessage-deflate")
    report = benchlib.loadtest(url, *flags, seconds=seconds, server_pid=pid)
    frames = report["frames"]
    age = frames["ageMs"]
    made = report["connections"]["made"]
    result = {
        "clients": clients, "made": made, "fps": frames["perClientPerSecond"] or 0, "skip": frames["skipRatio"] or 0,
        "p50": age["p50"], "p99": age["p99"], "cpu": report["server"]["cpuPercent"],
        "rss": report["server"]["peakRSSBytes"] / 2**20, "out": report["bytes"]["inPerSecond"] / 1e6,
    }
    result["passed"] = (made == clients and report["passed"] and result["fps"] >= MIN_FRAMES_PER_SECOND)
    return result


def search(label: str, url: str, pid: int, args, deflate: bool) -> tuple[int, list[dict]]:
    """The largest passing count found within the budget, and every step run."""
    deadline = time.monotonic() + args.budget
    steps: list[dict] = []
    best, worst = 0, None
    clients = args.start
    while time.monotonic() + args.seconds + 5 < deadline:
        result = step(url, pid, clients, args.seconds, f"fan{len(steps)}", deflate)
        steps.append(result)
        print(f"  {label}: {clients} clients: {'pass' if result['passed'] else 'FAIL'}  "
              f"{result['fps']:.1f} fps  skip {result['skip']:.4f}  p99 {result['p99']} ms  CPU {result['cpu']}%",
              file=sys.stderr, flush=True)
        best, worst, clients = benchlib.next_count(clients, result["passed"], best, worst, args.max)
        if clients is None:
            break
    return best, steps


def row(label: str, best: int, steps: list[dict]) -> list[object]:
    at = next((s for s in steps if s["clients"] == best), None)
    if at is None:
        return [label, "< " + str(steps[0]["clients"]) if steps else "—", "", "", "", "", "", ""]
    return [label, f"**{best}**", f"{at['fps']:.1f}", f"{at['skip']:.4f}", f"{at['p50']} / {at['p99']}",
            f"{at['cpu']}", f"{at['rss']:.0f}", f"{at['out']:.1f}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10, help="seconds per step (ramp included)")
    parser.add_argument("--start", type=int, default=100)
    parser.add_argument("--max", type=int, default=12800, help="the largest count tried")
    parser.add_argument("--budget", type=float, default=300, help="seconds of searching per server")
    parser.add_argument("--baseline", action="store_true", help="also search the Node.js ws baseline (d)")
    parser.add_argument("--permessage-deflate", action="store_true", help="also search ours with permessage-deflate")
    args = parser.parse_args()
    limit = benchlib.raise_open_files()
    print(f"open files limit {limit}; {benchlib.machine()}; loader and server share the cores", file=sys.stderr)

    rows, results = [], {}
    with benchlib.Server() as server:
        best, steps = search("layercast", server.url, server.pid, args, deflate=False)
        results["layercast"] = best
        rows.append(row("layercast serve", best, steps))
        if args.baseline:
            recording = Path(tempfile.mkdtemp(prefix="layercast-rec-")) / "radar.json"
            record_frames.record(server.port, recording, seconds=6)
    if args.permessage_deflate:
        with benchlib.Server("--permessage-deflate") as server:
            best, steps = search("layercast+deflate", server.url, server.pid, args, deflate=True)
        results["deflate"] = best
        rows.append(row("layercast serve --permessage-deflate", best, steps))
    if args.baseline:
        port = benchlib.free_port()
        node = subprocess.Popen(["node", str(Path(__file__).parent / "baseline-ws.js"), str(port), str(recording)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            benchlib.wait_for_port(port, node)
            best, steps = search("node ws", f"ws://127.0.0.1:{port}", node.pid, args, deflate=False)
        finally:
            node.terminate()
            node.wait(timeout=10)
            recording.unlink(missing_ok=True)
        results["baseline"] = best
        rows.append(row("Node.js ws baseline (replay)", best, steps))

    print(f"\n(c)/(d) fan-out: spectators of one radar room at {FPS} fps, skip ≤ {MAX_SKIP_RATIO:.0%}, "
          f"p99 frame age ≤ {MAX_P99_AGE_MS:.0f} ms, ≥ {MIN_FRAMES_PER_SECOND} frames/client/s; "
          f"{args.seconds:.0f} s per step; loader and server share {os.cpu_count()} cores\n")
    print(benchlib.table(["server", "most spectators", "frames/client/s", "skip ratio", "frame age p50 / p99 ms",
                          "server CPU % of a core", "server peak RSS MiB", "payload MB/s"], rows))
    if args.baseline and results.get("baseline"):
        print(f"\nratio layercast / baseline: {results['layercast'] / results['baseline']:.2f}")


if __name__ == "__main__":
    main()
