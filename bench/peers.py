#!/usr/bin/env python3
"""Bench (c)/(d), peers side by side: the most spectators of one radar room each server holds at
30 fps, its CPU per client-frame and its peak RSS, every server pinned to CPU 0 and the C
spectator client (bench/spectators.c) to CPU 1.

Servers (--servers, default ours,node,go,floor, in this order):
  ours          `layercast serve` (release, .build/release/layercast; LAYERCAST_BINARY another)
  ours-deflate  the same `layercast serve`, its spectators run with --deflate: each offers
                permessage-deflate and inflates each message's prefix (docs/protocol.md,
                "Compression"), so every frame it sends them is compressed (once per room)
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

With --at N there is no search: each round runs one step of N spectators per server, in the
--servers order, for --rounds rounds (ours, ours-deflate, floor, ours, …, so load from other work
on the machine falls on every server alike), and prints per step the server's CPU µs per
client-frame, its peak RSS, fps, skip ratio and frame-age p99, the load average before each step,
then each server's median over the rounds; with ours and ours-deflate both, the ratio of their CPU
per client-frame and the peak-RSS difference per client (KiB) round by round.

    python3 bench/peers.py [--servers ours,ours-deflate,node,go,floor] [--seconds 10] [--budget 180]
                           [--start 500] [--max 16000] [--json FILE]
    python3 bench/peers.py --servers ours,ours-deflate,floor --at 2000 [--rounds 3] [--json FILE]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
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
LABELS = {"ours": "layercast serve", "ours-deflate": "layercast serve, permessage-deflate",
          "node": "Node.js ws (baseline-ws.js)",
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
    for name, libraries in (("spectators", ["-lz"]), ("floor", [])):  # zlib: spectators --deflate
        subprocess.run([compiler, "-O2", "-Wall", "-o", str(TOOLS / name), str(HERE / f"{name}.c"), *libraries],
                       check=True)
    if "go" in servers:
        env = dict(os.environ, GOPATH="/usr/share/gocode", GO111MODULE="off", GOFLAGS="",
                   GOCACHE=str(TOOLS / "gocache"))
        subprocess.run(["go", "build", "-o", str(TOOLS / "baseline-gorilla"), str(HERE / "baseline-gorilla" / "main.go")],
                       check=True, env=env)


class Peer:
    """One started server of `kind` on a free port, pinned to CPU 0; stopped on exit."""

    def __init__(self, kind: str, recording: Path, frame_bytes: int):
        self.ours = None
        if kind in ("ours", "ours-deflate"):  # the same server; only its spectators differ
            self.ours = benchlib.Server(prefix=benchlib.pinned(SERVER_CPU))
            self.port, self.pid = self.ours.port, self.ours.pid
            return
        self.port = benchlib.free_port()
        command = {"node": ["node", str(HERE / "baseline-ws.js"), str(self.port), str(recording)],
                   "go": [str(TOOLS / "baseline-gorilla"), str(self.port), str(recording)],
                   "floor": [str(TOOLS / "floor"), str(self.port), str(frame_bytes)]}[kind]
        self.proc = subprocess.Popen(benchlib.pinned(SERVER_CPU) + command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        benchlib.wait_for_port(self.port, self.proc)
        self.pid = self.proc.pid

    def __enter__(self) -> "Peer":
        return self

    def __exit__(self, *exc) -> None:
        if self.ours:
            self.ours.close()
            return
        benchlib.stop(self.proc, signal.SIGTERM)


def step(kind: str, clients: int, args, recording: Path, frame_bytes: int) -> dict:
    """One fresh server of `kind` and `clients` spectators for --seconds; the client's report."""
    url_path = "/ws?scene=radar&room=peers&role=spectator"
    with Peer(kind, recording, frame_bytes) as peer:
        ramp = max(200, clients // 2)
        command = benchlib.pinned(CLIENT_CPU) + [str(TOOLS / "spectators"), "--url", f"ws://127.0.0.1:{peer.port}{url_path}",
                                        "--clients", str(clients), "--seconds", str(args.seconds),
                                        "--ramp", str(ramp), "--server-pid", str(peer.pid)]
        command += ["--deflate"] if kind == "ours-deflate" else []
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
        best, worst, clients = benchlib.next_count(clients, report["passed"], best, worst, args.max)
        if clients is None:
            break
    bound = min((s for s in steps if not s["passed"]), key=lambda s: s["clients"], default=None)
    return {"kind": kind, "best": best, "steps": steps, "clientBound": bound is not None and bound["clientBound"],
            "load": (load_before, os.getloadavg()[0])}


def fixed(servers: list[str], args, recording: Path, frame_bytes: int) -> list[dict]:
    """--at: one step of --at spectators per server per round, servers alternating; every step."""
    steps = []
    for round_ in range(1, args.rounds + 1):
        for kind in servers:
            load = os.getloadavg()[0]
            report = step(kind, args.at, args, recording, frame_bytes)
            report.update(kind=kind, round=round_, load=load)
            steps.append(report)
            print(f"  round {round_} {kind}: {args.at} clients: {'pass' if report['passed'] else 'FAIL'}  "
                  f"{report.get('serverCpuUsPerClientFrame')} µs/cf  {report.get('serverPeakRssMiB')} MiB  "
                  f"{report['fps']:.1f} fps  skip {report['skipRatio']:.4f}  p99 {report['ageP99Ms']} ms  "
                  f"client {report['clientCpuPercent']} %  open {report['open']}  errors {report['errors']}  "
                  f"load {load:.1f}", file=sys.stderr, flush=True)
    return steps


def fixed_report(steps: list[dict], servers: list[str], clients: int) -> str:
    """The --at tables: every step, each server's medians, and ours-deflate against ours by round."""
    def value(s: dict, key: str) -> float:
        return s.get(key, float("nan"))

    rows = [[s["round"], LABELS[s["kind"]], f"{value(s, 'serverCpuUsPerClientFrame'):.2f}",
             f"{value(s, 'serverPeakRssMiB'):.1f}", f"{s['fps']:.1f}", f"{s['skipRatio']:.4f}", f"{s['ageP99Ms']:.1f}",
             f"{s['clientCpuPercent']:.0f}", f"{s['open']}", json.dumps(s["errors"]) if s["errors"] else "—",
             f"{s['load']:.1f}"] for s in steps]
    out = [benchlib.table(["round", "server", "server CPU µs per client-frame", "server peak RSS MiB", "fps", "skip",
                           "age p99 ms", "client CPU %", "open", "errors", "load (1 min) before"], rows)]
    medians = []
    for kind in servers:
        mine = [s for s in steps if s["kind"] == kind]
        medians.append([LABELS[kind], len(mine),
                        f"{statistics.median(value(s, 'serverCpuUsPerClientFrame') for s in mine):.2f}",
                        f"{statistics.median(value(s, 'serverPeakRssMiB') for s in mine):.1f}",
                        f"{statistics.median(s['fps'] for s in mine):.1f}"])
    out.append(benchlib.table(["server", "steps", "median µs per client-frame", "median peak RSS MiB", "median fps"],
                              medians))
    if "ours" in servers and "ours-deflate" in servers:
        pairs = []
        for round_ in sorted({s["round"] for s in steps}):
            plain = next(s for s in steps if s["round"] == round_ and s["kind"] == "ours")
            deflate = next(s for s in steps if s["round"] == round_ and s["kind"] == "ours-deflate")
            ratio = value(deflate, "serverCpuUsPerClientFrame") / value(plain, "serverCpuUsPerClientFrame")
            extra = (value(deflate, "serverPeakRssMiB") - value(plain, "serverPeakRssMiB")) * 1024 / clients
            pairs.append([round_, f"{ratio:.2f}×", f"{extra:+.2f}"])
        out.append(benchlib.table(["round", "CPU per client-frame, deflate / plain",
                                   "peak RSS per client, deflate − plain (KiB)"], pairs))
    return "\n\n".join(out)


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
    parser.add_argument("--servers", default="ours,node,go,floor",
                        help="comma-separated: ours, ours-deflate, node, go, floor")
    parser.add_argument("--seconds", type=float, default=10, help="measured seconds per step (after ramp and 1 s)")
    parser.add_argument("--start", type=int, default=500)
    parser.add_argument("--max", type=int, default=16000, help="the largest count tried")
    parser.add_argument("--budget", type=float, default=180, help="seconds of searching per server")
    parser.add_argument("--json", type=Path, help="also write every step's report here")
    parser.add_argument("--at", type=int, help="no search: one step at this count per server per round")
    parser.add_argument("--rounds", type=int, default=1, help="with --at: rounds, servers alternating")
    args = parser.parse_args()
    servers = args.servers.split(",")
    if not set(servers) <= set(LABELS) or not servers:
        parser.error(f"--servers: a comma-separated subset of {','.join(LABELS)}")
    if (args.at is not None and not 1 <= args.at <= 60000) or not 1 <= args.rounds <= 100:
        parser.error("--at: 1…60000 spectators, --rounds: 1…100")
    limit = benchlib.raise_open_files()
    args.max = min(args.max, limit - 100)
    if args.at is not None and args.at > limit - 100:
        parser.error(f"--at: at most {limit - 100} with {limit} open files")
    build_tools(servers)
    machine = f"{benchlib.machine()}; open files {limit}"
    print(machine, file=sys.stderr)

    work = Path(tempfile.mkdtemp(prefix="layercast-peers-"))
    recording = work / "radar.json"
    with benchlib.Server(prefix=benchlib.pinned(SERVER_CPU)) as server:
        record_frames.record(server.port, recording, seconds=6)
    frames = json.loads(recording.read_text())["frames"]
    frame_bytes = round(sum(len(text.encode()) for text in frames[1:]) / max(1, len(frames) - 1))
    try:
        if args.at is not None:
            load_before = os.getloadavg()
            steps = fixed(servers, args, recording, frame_bytes)
            load_after = os.getloadavg()
        else:
            results = [search(kind, args, recording, frame_bytes) for kind in servers]
    finally:
        shutil.rmtree(work, ignore_errors=True)

    pinning = (f"server pinned to CPU {SERVER_CPU}, spectators to CPU {CLIENT_CPU} (taskset)" if benchlib.pinned("0")
               else "one CPU: nothing pinned, server and client share it")
    if args.at is not None:
        print(f"\n(c)/(d) peers at {args.at:,} spectators of one radar room, {args.rounds} round(s) of "
              f"{','.join(servers)}, {args.seconds:.0f} s measured per step; {pinning}; floor frames {frame_bytes} B\n"
              f"{machine}; load average (1/5/15 min) before {'/'.join(f'{x:.1f}' for x in load_before)}, "
              f"after {'/'.join(f'{x:.1f}' for x in load_after)}\n")
        print(fixed_report(steps, servers, args.at))
        if args.json:
            args.json.write_text(json.dumps({"machine": machine, "frameBytes": frame_bytes, "at": args.at,
                                             "steps": steps}, indent=1))
        return
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
