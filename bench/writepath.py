#!/usr/bin/env python3
"""What one frame to one client costs the server: CPU time (user + kernel, `task-clock`; this
machine's VM exposes no instruction counters) and system calls, per frame received by a client, with `perf stat` on the server while
`layercast loadtest` holds N spectators in a radar room. Compare two builds of the server with
--binary (the loader is always this checkout's release build). Prints numbers; asserts nothing.

    python3 bench/writepath.py [--binary PATH] [--clients 1000] [--seconds 12]

Needs `perf` (Debian `linux-perf`) and permission to count the server (root, or
kernel.perf_event_paranoid ≤ 1).
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import benchlib

EVENTS = ["task-clock", "raw_syscalls:sys_enter", "syscalls:sys_enter_sendto",
          "syscalls:sys_enter_ioctl", "syscalls:sys_enter_poll"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", type=Path, default=benchlib.BINARY, help="the server to measure")
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=12)
    args = parser.parse_args()
    benchlib.raise_open_files()
    with benchlib.Server(binary=args.binary) as server:
        perf = subprocess.Popen(["perf", "stat", "-x", ",", "-e", ",".join(EVENTS), "-p", str(server.pid)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        report = benchlib.loadtest(server.url, "--scene", "radar", "--room", "writepath", "--clients", str(args.clients),
                                   "--ramp", str(max(200, args.clients / 2)), seconds=args.seconds, server_pid=server.pid)
        perf.send_signal(2)
        _, err = perf.communicate(timeout=10)
    counts = {}
    for line in err.splitlines():
        fields = line.split(",")
        if len(fields) > 2 and re.fullmatch(r"[\d.]+", fields[0]):
            counts[fields[2]] = float(fields[0])
    frames = report["frames"]["received"]
    if not frames or not counts:
        sys.exit(f"nothing measured: frames {frames}, perf said: {err[-500:]}")
    print(f"{args.binary}: {args.clients} spectators, {args.seconds:.0f} s, {frames} frames received "
          f"({report['frames']['perClientPerSecond']} per client per second, skip ratio {report['frames']['skipRatio']}, "
          f"p99 age {report['frames']['ageMs']['p99']} ms); server CPU {report['server']['cpuPercent']}% of a core")
    cpu_us = counts.get("task-clock", 0) * 1000 / frames  # task-clock is in ms
    print(f"per frame per client: CPU {cpu_us:.2f} µs, " +
          ", ".join(f"{name} {counts[name] / frames:.2f}" for name in EVENTS[1:] if name in counts))


if __name__ == "__main__":
    main()
