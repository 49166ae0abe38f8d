#!/usr/bin/env python3
"""A soak of `layercast serve` (docs/reliability.md): the service under a steady mixed load for
`--minutes`, to show that it does not grow or leak.

    python3 bench/soak.py --minutes 60 [--binary .build/release/layercast]

It starts its own server on a free loopback port (a fresh ledger in a temporary directory; rains
back to back: `--rain-every 1`) and, each minute, runs one `layercast loadtest` per group below
for that minute, so every client joins at the start of the minute and leaves at its end:

| scene | spectators | players                     |
|-------|------------|-----------------------------|
| radar | 100        | 10, tapping at random 1/s   |
| rain  | 100        | 20, tapping packets 2/s     |
| cubes | 40         |                             |
| snow  | 40         |                             |
| book  | 20         |                             |

(300 spectators and 30 players in all.) Each minute it also changes the snow with the admin API.
At the end of each minute it prints the server's RSS and open file descriptors (with every client
gone), the rooms, the worst p99 frame age of the groups, the connections made, and the errors:
failed or early-closed connections, client errors, admin answers other than 2xx/409, and
non-200 health checks; each error is printed under its minute.

Exits 0 when there were no errors, the open fds came back to their baseline (taken before any
client) once the clients left, and, for runs longer than 5 minutes, the RSS grew at most 5 %
after minute 5. Loopback only, bounded: it stops after `--minutes`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ADMIN = "soak-admin-token-0123456789"
GROUPS = [  # scene, role, clients, taps per second, aim
    ("radar", "spectator", 100, 0, "random"),
    ("radar", "player", 10, 1, "random"),
    ("rain", "spectator", 100, 0, "random"),
    ("rain", "player", 20, 2, "aim"),
    ("cubes", "spectator", 40, 0, "random"),
    ("snow", "spectator", 40, 0, "random"),
    ("book", "spectator", 20, 0, "random"),
]
SNOW = [{"images": ["snowflake"], "rate": 10, "mode": "exact"},
        {"images": ["petal", "snowflake-star"], "rate": 30, "mode": "container"}]


def rss_bytes(pid: int, field: str = "VmRSS") -> int:
    """A resident-memory figure of /proc/PID/status: VmRSS (all of it), RssAnon (the heap and
    stacks the process allocated) or RssFile (pages of the binary and libraries mapped in)."""
    match = re.search(rf"^{field}:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text(), re.M)
    return int(match.group(1)) * 1024 if match else 0


def open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def fd_listing(pid: int) -> list[str]:
    """Each open fd of `pid` with what it points at (socket:[inode], a file...)."""
    listing = []
    for fd in sorted(os.listdir(f"/proc/{pid}/fd"), key=int):
        try:
            listing.append(f"{fd} -> {os.readlink(f'/proc/{pid}/fd/{fd}')}")
        except OSError:
            listing.append(f"{fd} -> (gone)")
    return listing


def settled_fds(pid: int, baseline: int, timeout: float = 15.0) -> int:
    """The open fds once the soak's clients have gone: a connection still closing when the last
    minute ends holds its fd a moment longer, so wait (at most `timeout` s) until they are back at
    `baseline`. Prints /proc/PID/fd when they do not come back."""
    deadline = time.monotonic() + timeout
    while (count := open_fds(pid)) > baseline and time.monotonic() < deadline:
        time.sleep(0.2)
    if count > baseline:
        print(f"soak: {count} fds {timeout:.0f} s after the last client left, against {baseline} at the start:", flush=True)
        for line in fd_listing(pid):
            print(f"           {line}", flush=True)
    return count


def request(base: str, path: str, body: dict | None = None) -> tuple[int, bytes]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method="GET" if body is None else "POST",
                                 headers={"Authorization": f"Bearer {ADMIN}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()
    except OSError:
        return 0, b""


def start_server(binary: Path, data: Path) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([str(binary), "serve", "--host", "127.0.0.1", "--port", "0", "--public", str(REPO / "public"),
                             "--data", str(data), "--admin-token", ADMIN, "--rain-every", "1", "--rain-results", "3",
                             "--room-idle", "5", "--log-level", "warning",
                             # Every client comes from 127.0.0.1: lift the per-address limits.
                             "--host-connections", "2000", "--host-anonymous-joins", "100000", "--host-tap-rate", "100000"],
                            stdout=subprocess.PIPE, stderr=open(data / "serve.log", "w"), text=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if match:
            return proc, f"http://127.0.0.1:{match.group(1)}"
        if proc.poll() is not None:
            break
    proc.kill()
    raise SystemExit(f"soak: the server did not start; see {data / 'serve.log'}")


def run_minute(binary: Path, base: str, pid: int, minute: int, folder: Path) -> dict:
    """One minute of load: every group's loadtest at once, then their reports."""
    runs = []
    for index, (scene, role, clients, taps, aim) in enumerate(GROUPS):
        report = folder / f"minute{minute:03d}-{index}.json"
        cmd = [str(binary), "loadtest", "--url", base, "--scene", scene, "--room", f"soak-{scene}", "--role", role,
               "--clients", str(clients), "--ramp", "50", "--duration", "60", "--threads", "1", "--json", str(report)]
        if role == "player":
            cmd += ["--taps", str(taps), "--aim", aim]
        runs.append((subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), report))
    problems: list[str] = []
    for second in range(60):
        time.sleep(1)
        if second == 30:
            status, _ = request(base, "/api/rooms/soak-snow/snow", SNOW[minute % 2])
            if status != 200:
                problems.append(f"second {second}: the snow change answered {status or 'nothing'}")
        if second % 10 == 5:
            status, _ = request(base, "/healthz")
            if status != 200:
                problems.append(f"second {second}: /healthz answered {status or 'nothing'}")
    made = age = 0.0
    for index, (proc, report) in enumerate(runs):
        group = "{} {} ({})".format(*GROUPS[index][:2], report.name)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            problems.append(f"{group}: the loadtest did not end")
            continue
        if proc.returncode not in (0, 1) or not report.exists():
            problems.append(f"{group}: the loadtest exited {proc.returncode} without a report")
            continue
        result = json.loads(report.read_text())
        connections = result["connections"]
        made += connections["made"]
        for kind in ("failed", "closedEarly"):
            if connections[kind]:
                problems.append(f"{group}: {connections[kind]} connections {kind}")
        for kind, count in result["errors"].items():
            if count:
                problems.append(f"{group}: {count} × {kind}")
        age = max(age, result["frames"]["ageMs"]["p99"] or 0)
    time.sleep(1)   # the last closes reach the server
    status, body = request(base, "/api/rooms")
    rooms = len(json.loads(body)["rooms"]) if status == 200 else -1
    if status != 200:
        problems.append(f"/api/rooms answered {status or 'nothing'}")
    return {"minute": minute, "rss": rss_bytes(pid), "rssAnon": rss_bytes(pid, "RssAnon"),
            "rssFile": rss_bytes(pid, "RssFile"), "fds": open_fds(pid), "rooms": rooms, "ageP99Ms": age,
            "connections": int(made), "errors": len(problems), "problems": problems}


def main() -> int:
    parser = argparse.ArgumentParser(description="Soak layercast serve under a mixed load (docs/reliability.md).")
    parser.add_argument("--minutes", type=int, default=60)
    parser.add_argument("--binary", default=os.environ.get("LAYERCAST_BIN", str(REPO / ".build/debug/layercast")))
    parser.add_argument("--json", help="write every minute's figures and the verdict to this file")
    args = parser.parse_args()
    if not 1 <= args.minutes <= 24 * 60:
        parser.error("--minutes must be 1 to 1440")
    binary = Path(args.binary).resolve()
    folder = Path(tempfile.mkdtemp(prefix="layercast-soak-"))
    proc, base = start_server(binary, folder)
    minutes: list[dict] = []
    try:
        time.sleep(2)
        baseline_fds = open_fds(proc.pid)
        print(f"soak: {base}, {args.minutes} min, pid {proc.pid}, baseline {baseline_fds} fds, "
              f"rss {rss_bytes(proc.pid) / 2**20:.1f} MiB; reports in {folder}", flush=True)
        for minute in range(1, args.minutes + 1):
            if proc.poll() is not None:
                print(f"soak: the server exited with {proc.returncode}; see {folder / 'serve.log'}")
                return 1
            figures = run_minute(binary, base, proc.pid, minute, folder)
            minutes.append(figures)
            print(f"minute {minute:3d}  rss {figures['rss'] / 2**20:6.1f} MiB (anon {figures['rssAnon'] / 2**20:5.1f}, "
                  f"file {figures['rssFile'] / 2**20:5.1f})  fds {figures['fds']:4d}  "
                  f"rooms {figures['rooms']:2d}  frame age p99 {figures['ageP99Ms']:7.1f} ms  "
                  f"connections {figures['connections']:4d}  errors {figures['errors']}", flush=True)
            for problem in figures["problems"]:
                print(f"           {problem}", flush=True)
        final_fds = settled_fds(proc.pid, baseline_fds)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
    errors = sum(m["errors"] for m in minutes)
    growth = None
    if len(minutes) > 5:
        settled = minutes[4]["rss"]
        growth = (max(m["rss"] for m in minutes[5:]) - settled) / settled
    verdict = {"minutes": minutes, "baselineFds": baseline_fds, "finalFds": final_fds, "errors": errors,
               "rssGrowthAfterMinute5": growth, "serverExit": proc.returncode}
    ok = errors == 0 and final_fds <= baseline_fds and (growth is None or growth <= 0.05) and proc.returncode == 0
    print(f"soak: {'passed' if ok else 'FAILED'}: errors {errors}, fds {final_fds} at the end vs {baseline_fds} "
          f"baseline, rss growth after minute 5 "
          f"{'n/a (5 minutes or fewer)' if growth is None else f'{growth * 100:.1f} %'}, server exit {proc.returncode}")
    if args.json:
        Path(args.json).write_text(json.dumps(verdict, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
