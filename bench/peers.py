#!/usr/bin/env python3
"""Bench (c)/(d), peers side by side: the most spectators of one radar room each server holds at
30 fps, its CPU per client-frame and its peak RSS, every server pinned to CPU 0 and the C
spectator client (bench/spectators.c) to CPU 1.

Servers (--servers, default all four, in this order):
  ours   `layercast serve` (release, .build/release/layercast)
  node   bench/baseline-ws.js: Node.js with Debian's ws, replaying frames recorded from ours
  go     bench/baseline-gorilla: gorilla/websocket PreparedMessage, replaying the same recording
  floor  bench/floor.c: one pre-framed message of the recording's mean frame size per client per
         tick with one non-blocking send, nothing else
The recording (bench/record_frames.py, 6 s of a radar room of ours) is taken once per run.

Each step starts a fresh server (so VmHWM is that step's peak), runs `spectators --clients N
--seconds S --server-pid PID`, and stops the server. Counts double from --start until a step
fails, then bisect between the last pass and the first failure to within an eighth. A step passes
when every client is still connected, skip ratio ≤ 1 %, frame-age p99 ≤ 100 ms and ≥ 28.5 frames
per client per second. A failing step at which the client used ≥ 90 % of its core measured the
client, not the server: when the smallest failing count is such a step, the count found is
reported as a lower bound (≥).
Server CPU per client-frame is /proc/PID/stat utime + stime over the measured window divided by
the frames the clients received in it. Builds floor, spectators (cc -O2) and baseline-gorilla
(go, offline from GOPATH=/usr/share/gocode) into .build-bench/. 127.0.0.1 only; every step is
bounded (ramp + 6 s + --seconds, and a timeout), every search by --budget seconds.

    python3 bench/peers.py [--servers ours,node,go,floor] [--seconds 10] [--budget 180]
                           [--start 500] [--max 16000] [--json FILE]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchlib
import record_frames

HERE = Path(__file__).resolve().parent
TOOLS = benchlib.REPO / ".build-bench"
SERVER_CPU, CLIENT_CPU = "0", "1"
MIN_FPS, MAX_SKIP, MAX_P99_MS, CLIENT_SATURATED = 28.5, 0.01, 100.0, 90.0
LABELS = {"ours": "layercast serve", "node": "Node.js ws (baseline-ws.js)",
          "go": "Go gorilla/websocket PreparedMessage", "floor": "send-only floor (floor.c)"}
COMPARE_AT = 2000  # the count at which every server's CPU per client-frame is also shown


def build_tools(servers: list[str]) -> None:
    """cc -O2 the C tools and go build the Go peer into .build-bench/ (offline, GOPATH)."""
    needed = {"node": "node", "go": "go"}
    missing = [needed[kind] for kind in servers if kind in needed and shutil.which(needed[kind]) is None]
    compiler = shutil.which("cc") or shutil.which("clang")
    if missing or compiler is None:
        sys.exit(f"peers: missing {' '.join(missing) or 'a C compiler'}: run scripts/install-deps.sh --bench")
    TOOLS.mkdir(exist_ok=True)
    for name in ("spectators", "floor"):
        subprocess.run([compiler, "-O2", "-Wall", "-o", str(TOOLS / name), str(HERE / f"{name}.c")], check=True)
    if "go" in servers:
        env = dict(os.environ, GOPATH="/usr/share/gocode", GO111MODULE="off", GOFLAGS="",
                   GOCACHE=str(TOOLS / "gocache"))
        subprocess.run(["go", "build", "-o", str(TOOLS / "baseline-gorilla"), str(HERE / "baseline-gorilla" / "main.go")],
                       check=True, env=env)


def pinned(cpu: str) -> list[str]:
    return ["taskset", "-c", cpu] if os.cpu_count() and os.cpu_count() >= 2 else []


class Peer:
    """One started server of `kind` on a free port, pinned to CPU 0; stopped on exit."""

    def __init__(self, kind: str, recording: Path, frame_bytes: int):
        self.ours = None
        if kind == "ours":
            self.ours = benchlib.Server(prefix=pinned(SERVER_CPU))
            self.port, self.pid = self.ours.port, self.ours.pid
            return
        self.port = benchlib.free_port()
        command = {"node": ["node", str(HERE / "baseline-ws.js"), str(self.port), str(recording)],
                   "go": [str(TOOLS / "baseline-gorilla"), str(self.port), str(recording)],
                   "floor": [str(TOOLS / "floor"), str(self.port), str(frame_bytes)]}[kind]
        self.proc = subprocess.Popen(pinned(SERVER_CPU) + command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        benchlib.wait_for_port(self.port, self.proc)
        self.pid = self.proc.pid

    def __enter__(self) -> "Peer":
        return self

    def __exit__(self, *exc) -> None:
        if self.ours:
            self.ours.close()
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=5)


def step(kind: str, clients: int, args, recording: Path, frame_bytes: int) -> dict:
    """One fresh server of `kind` and `clients` spectators for --seconds; the client's report."""
    url_path = "/ws?scene=radar&room=peers&role=spectator"
    with Peer(kind, recording, frame_bytes) as peer:
        ramp = max(200, clients // 2)
        command = pinned(CLIENT_CPU) + [str(TOOLS / "spectators"), "--url", f"ws://127.0.0.1:{peer.port}{url_path}",
                                        "--clients", str(clients), "--seconds", str(args.seconds),
                                        "--ramp", str(ramp), "--server-pid", str(peer.pid)]
        proc = subprocess.run(command, capture_output=True, text=True, timeout=clients / ramp + args.seconds + 30)
    if proc.returncode != 0 or not proc.stdout.strip():
        raise RuntimeError(f"spectators exited {proc.returncode}: {proc.stderr[-1000:]}")
    report = json.loads(proc.stdout)
    report["passed"] = (report["open"] == clients and report["skipRatio"] <= MAX_SKIP and
                        0 <= report["ageP99Ms"] <= MAX_P99_MS and report["fps"] >= MIN_FPS)
    report["clientBound"] = not report["passed"] and report["clientCpuPercent"] >= CLIENT_SATURATED
    return report


def search(kind: str, args, recording: Path, frame_bytes: int) -> dict:
    """The largest passing count within the budget; every step run; whether the client bound it."""
    deadline = time.monotonic() + args.budget
    steps: list[dict] = []
    best, worst, clients = 0, None, args.start
    load_before = os.getloadavg()[0]
    while time.monotonic() + args.seconds + clients / max(200, clients // 2) + 10 < deadline:
        report = step(kind, clients, args, recording, frame_bytes)
        steps.append(report)
        print(f"  {kind}: {clients} clients: {'pass' if report['passed'] else 'FAIL'}  {report['fps']:.1f} fps  "
              f"skip {report['skipRatio']:.4f}  p99 {report['ageP99Ms']} ms  server {report.get('serverCpuPercent')} % "
              f"{report.get('serverCpuUsPerClientFrame')} µs/cf  client {report['clientCpuPercent']} %  "
              f"open {report['open']}  errors {report['errors']}", file=sys.stderr, flush=True)
        if report["passed"]:
            best = max(best, clients)
        else:
            worst = clients if worst is None else min(worst, clients)
        if worst is None:
            if clients * 2 > args.max:
                break
            clients *= 2
        else:
            if worst - best <= max(50, best // 8):
                break
            clients = (best + worst) // 2
    bound = min((s for s in steps if not s["passed"]), key=lambda s: s["clients"], default=None)
    return {"kind": kind, "best": best, "steps": steps, "clientBound": bound is not None and bound["clientBound"],
            "load": (load_before, os.getloadavg()[0])}


def row(result: dict) -> list[object]:
    steps, best = result["steps"], result["best"]
    at = next((s for s in steps if s["clients"] == best), None)
    compare = next((s for s in steps if s["clients"] == COMPARE_AT and s["passed"]), None)
    failed = [s for s in steps if not s["passed"]]
    first_fail = min(failed, key=lambda s: s["clients"]) if failed else None
    why = "—"
    if first_fail:
        why = (f"{first_fail['clients']}: client at {first_fail['clientCpuPercent']:.0f} % of its core"
               if first_fail["clientBound"] else
               f"{first_fail['clients']}: {first_fail['fps']:.1f} fps, skip {first_fail['skipRatio']:.3f}, "
               f"p99 {first_fail['ageP99Ms']:.0f} ms, open {first_fail['open']}")
    count = ("≥ " if result["clientBound"] or not failed else "") + f"{best:,}"
    if at is None:
        return [LABELS[result["kind"]], f"< {steps[0]['clients']}" if steps else "—", *["—"] * 6, why]
    return [LABELS[result["kind"]], f"**{count}**", f"{at['fps']:.1f} / {at['skipRatio']:.4f}",
            f"{at['ageP50Ms']:.0f} / {at['ageP99Ms']:.0f}", f"{at.get('serverCpuUsPerClientFrame', '?')}",
            f"{compare['serverCpuUsPerClientFrame']}" if compare else "—", f"{at.get('serverPeakRssMiB', '?')}",
            f"{at['clientCpuUsPerFrame']} ({at['clientCpuPercent']:.0f} %)", why]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--servers", default="ours,node,go,floor", help="comma-separated: ours, node, go, floor")
    parser.add_argument("--seconds", type=float, default=10, help="measured seconds per step (after ramp and 1 s)")
    parser.add_argument("--start", type=int, default=500)
    parser.add_argument("--max", type=int, default=16000, help="the largest count tried")
    parser.add_argument("--budget", type=float, default=180, help="seconds of searching per server")
    parser.add_argument("--json", type=Path, help="also write every step's report here")
    args = parser.parse_args()
    servers = args.servers.split(",")
    if not set(servers) <= set(LABELS) or not servers:
        parser.error(f"--servers: a comma-separated subset of {','.join(LABELS)}")
    limit = benchlib.raise_open_files()
    args.max = min(args.max, limit - 100)
    build_tools(servers)
    machine = f"{benchlib.machine()}; open files {limit}"
    print(machine, file=sys.stderr)

    work = Path(tempfile.mkdtemp(prefix="layercast-peers-"))
    recording = work / "radar.json"
    with benchlib.Server(prefix=pinned(SERVER_CPU)) as server:
        record_frames.record(server.port, recording, seconds=6)
    frames = json.loads(recording.read_text())["frames"]
    frame_bytes = round(sum(len(text.encode()) for text in frames[1:]) / max(1, len(frames) - 1))
    try:
        results = [search(kind, args, recording, frame_bytes) for kind in servers]
    finally:
        shutil.rmtree(work, ignore_errors=True)

    pinning = (f"server pinned to CPU {SERVER_CPU}, spectators to CPU {CLIENT_CPU} (taskset)" if pinned("0")
               else "one CPU: nothing pinned, server and client share it")
    print(f"\n(c)/(d) peers: spectators of one radar room at 30 fps (skip ≤ 1 %, p99 frame age ≤ 100 ms, "
          f"≥ {MIN_FPS} frames/client/s), {args.seconds:.0f} s measured per step; {pinning}; "
          f"floor frames {frame_bytes} B (the recording's mean delta)\n{machine}; load average (1 min) before/after "
          + ", ".join(f"{r['kind']} {r['load'][0]:.1f}/{r['load'][1]:.1f}" for r in results) + "\n")
    print(benchlib.table(["server", "most spectators", "fps / skip", "age p50 / p99 ms", "server CPU µs per client-frame",
                          f"… at {COMPARE_AT:,}", "server peak RSS MiB", "client CPU µs per frame (% of core)",
                          "first failing count"], [row(r) for r in results]))
    if args.json:
        args.json.write_text(json.dumps({"machine": machine, "frameBytes": frame_bytes, "results": results}, indent=1))


if __name__ == "__main__":
    main()
