#!/usr/bin/env python3
"""What a spectator receives (docs/performance.md, "The stream: what changed, and fresh on a slow
link"; issue 37): messages and bytes a second per scene, still and busy (the snow also once it
falls through the screen); then a rain watched
through slow links (4, 8, 16 KB/s and unlimited, a raw socket with a small receive buffer, as
Tests/integration/slow_reader.py reads), acknowledging frames or not, plain and with permessage-deflate: frames a second, the share
of full frames, and how far the view is behind a prompt spectator (p50/p95). Server on CPU 0,
the readers on CPU 1; 127.0.0.1 only, every run bounded.

    bench/stream.py [--binary PATH] [--seconds 8] [--no-acks] [--json FILE]

`--no-acks` for a server that predates `ack` (it would answer each one with an error).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "Tests" / "integration"))
import benchlib  # noqa: E402
from slow_reader import percentile, read_slowly, view_ages  # noqa: E402

SCENES = ["radar", "rain", "cubes", "snow", "book", "reveal"]
RATES = [4 * 1024, 8 * 1024, 16 * 1024, None]


def hold(port: int, path: str, seconds: float, acks: bool) -> threading.Thread:
    """A prompt spectator of `path` for `seconds`, in the background: the room exists meanwhile."""
    thread = threading.Thread(target=read_slowly, args=(port, path, None, seconds, acks))
    thread.start()
    time.sleep(0.5)
    return thread


def per_scene(port: int, seconds: float, acks: bool) -> list[dict]:
    """A spectator of each scene, still (as it is on joining) and, for the rain, raining."""
    rows = []
    for scene in SCENES:
        read = read_slowly(port, f"/ws?scene={scene}&room=stream-{scene}&role=spectator", None, seconds, ack=acks)
        rows.append({"scene": scene, "phase": "as joined", "messages": len(read.frames) / seconds,
                     "bytes": read.bytes / seconds})
    # The snowfall once its flakes are falling through the screen (a fresh room starts at the top).
    path = "/ws?scene=snow&room=stream-snowing&role=spectator"
    holder = hold(port, path, 15 + seconds + 2, acks)
    time.sleep(15)
    read = read_slowly(port, path, None, seconds, ack=acks)
    holder.join(seconds + 10)
    rows.append({"scene": "snow", "phase": "falling (from 15 s)", "messages": len(read.frames) / seconds,
                 "bytes": read.bytes / seconds})
    path = "/ws?scene=rain&room=stream-raining&role=spectator"
    holder = hold(port, path, seconds + 8, acks)
    benchlib.post_rain(port, "stream-raining", {"duration": seconds + 4, "seed": 7})
    time.sleep(6)  # the countdown
    read = read_slowly(port, path, None, seconds, ack=acks)
    holder.join(seconds + 10)
    rows.append({"scene": "rain", "phase": "raining", "messages": len(read.frames) / seconds, "bytes": read.bytes / seconds})
    return rows


def slow_links(port: int, seconds: float, acks: bool, deflate: bool = False) -> list[dict]:
    """Every rate, acknowledging and not, all at once in one raining room beside a prompt reader;
    the slow readers offer permessage-deflate when `deflate`."""
    room = "slow-deflate" if deflate else "slow"
    path = f"/ws?scene=rain&room={room}&role=spectator"
    holder = hold(port, path, seconds + 10, acks)
    benchlib.post_rain(port, room, {"duration": seconds + 10, "seed": 7})
    time.sleep(6.5)
    results: dict = {}

    def run(key, rate, ack):
        results[key] = read_slowly(port, path, rate, seconds, ack=ack, deflate=deflate and key != "prompt")

    modes = (True, False) if acks else (False,)
    keys = [("prompt", None, acks)] + [(f"{rate}-{ack}", rate, ack) for rate in RATES for ack in modes]
    threads = [threading.Thread(target=run, args=key) for key in keys]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 15)
    holder.join(seconds + 15)
    reference = [(f.arrival, f.t) for f in results["prompt"].frames]
    rows = []
    for rate in RATES:
        for ack in modes:
            read = results[f"{rate}-{ack}"]
            ages = view_ages(read.frames, reference, started + 3)
            rows.append({"link": f"{rate // 1024} KB/s" if rate else "unlimited", "acks": ack, "deflate": deflate,
                         "frames": len(read.frames) / seconds,
                         "full": sum(f.full for f in read.frames[1:]) / max(1, len(read.frames) - 1),
                         "p50": percentile(ages, 50), "p95": percentile(ages, 95)})
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", type=Path, default=benchlib.BINARY)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--no-acks", action="store_true", help="send no ack (a server before issue 37)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    os.sched_setaffinity(0, {1} if (os.cpu_count() or 1) >= 2 else {0})
    print(f"machine: {benchlib.machine()}; load {os.getloadavg()[0]:.2f}")
    with benchlib.Server("--rain-every", "0", binary=args.binary, prefix=benchlib.pinned("0")) as server:
        scenes = per_scene(server.port, args.seconds, not args.no_acks)
        links = slow_links(server.port, args.seconds, not args.no_acks)
        links += slow_links(server.port, args.seconds, not args.no_acks, deflate=True)
    print(benchlib.table(["scene", "phase", "messages/s", "bytes/s"],
                         [[r["scene"], r["phase"], f"{r['messages']:.1f}", f"{r['bytes']:.0f}"] for r in scenes]))
    print()
    print(benchlib.table(["link", "deflate", "acks", "frames/s", "full frames", "behind p50", "behind p95"],
                         [[r["link"], "yes" if r["deflate"] else "no", "yes" if r["acks"] else "no", f"{r['frames']:.1f}", f"{100 * r['full']:.0f} %",
                           f"{r['p50']:.2f} s", f"{r['p95']:.2f} s"] for r in links]))
    print(f"load after: {os.getloadavg()[0]:.2f}")
    if args.json:
        args.json.write_text(json.dumps({"scenes": scenes, "links": links}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
