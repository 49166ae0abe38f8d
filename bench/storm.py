#!/usr/bin/env python3
"""Bench (h): a reconnect storm, measured (issue 29).

Starts a redis-server, three `layercast serve --cluster` nodes sharing one SQLite ledger and
Debian's nginx round-robin in front of them (deploy/nginx-cluster.conf), all on free loopback
ports; runs a `layercast loadtest --scenario` of --spectators spectators and --players aiming
tappers through nginx, both populations reconnecting with the page's backoff and, as the page,
sending no `ping` (--pings sets a rate); starts a rain; SIGKILLs one node --before seconds into
the rain, restarts it on its port --down seconds later, and stops everything at the end.
redis-server, the nodes and nginx run on CPU 0 (nginx on CPU 1 with --proxy-cpu 1), the loader
(`taskset -c 1`), this process and its probes on CPU 1 (on a machine of two or more CPUs).

Besides the loader, three spectator probes per node join that node directly (not through
nginx), read each frame's `n` and `t` from its prefix with its arrival time, and keep every
`award` event: the probes on the surviving nodes give the frame gaps there, and hear every award
the room announced. The killed node has --returners more; its probes rejoin through nginx with
the page's backoff when it dies, and give each one's time from the kill to its first frame
again (the loader keeps a histogram of close → welcome, not each client's time). CPU is each
process's user + system time from /proc/PID/stat, sampled every 0.5 s.

Prints, as Markdown, for the kill: the clients dropped (the killed node's `layercast_clients`
less its probes, and the loader's `closedEarly`); their reconnect time from the loader's report
(`reconnects.timeMs`: from the client's close to the `welcome` of its next connection, p50, p95,
p99, max, and `reconnects.firstFrameMs`: to the first frame after that welcome) and the killed
node's probes' kill → first frame (p50, p95, p99, max); the frame
gaps at the surviving nodes' probes from the kill to a second before the rain's end (arrival to
arrival, p99 by nearest rank and max, and the largest step in media time `t`); the surviving
nodes' and nginx's CPU each second around the kill; the loader's CPU; and the awards: the
ledger's rows, packets paid twice, awards the probes heard that the ledger lacks or tells
otherwise, ledger rows nobody heard of, awards the tappers were told, and `layercast replay` of
the rain against the ledger. Goal (issue 29): 99 %
of the dropped clients back within 2 s, no gap over 1 s at the surviving nodes.

    python3 bench/storm.py [--spectators 9000] [--players 30] [--ramp 600] [--victim relay|origin]
                           [--before 5] [--down 10] [--tail 8] [--fps 30] [--returners 30]
                           [--workers 1] [--pings 0] [--deflate] [--proxy-cpu 0|1] [--out DIR] [--summary FILE]

Binary: env LAYERCAST_BIN (default .build/release/layercast). Only 127.0.0.1; every wait is
bounded; every process started here is stopped here. Asserts nothing (exit 0 once it ran;
Tests/integration/test_storm_bench.py checks the summary).
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
os.environ.setdefault("LAYERCAST_BIN", str(REPO / ".build" / "release" / "layercast"))
sys.path.insert(0, str(REPO / "Tests" / "integration"))

import websocket  # noqa: E402

import benchlib  # noqa: E402
from cluster import Cluster, Nginx, RedisServer  # noqa: E402
from conftest import BINARY  # noqa: E402
from layercast_client import SUBPROTOCOL, LayercastClient  # noqa: E402
from takeover import nearest_rank, on_server_cpu  # noqa: E402
from test_rain import ADMIN, COUNTDOWN, rain_document, start_rain  # noqa: E402

ROOM = "storm"
PROBES_PER_NODE = 3
SAMPLE_EVERY = 0.5
FRAME = re.compile(rb'^\{"type":"frame","n":(\d+),"t":([-0-9.eE+]+),')


class Probe:
    """A spectator of the bench's room on one node, joined directly: every frame's arrival
    (time.monotonic() right after the read), `n` and `t`, and every `award` event's data. With
    `rejoin_url` (nginx), a probe whose connection ends joins again there, after the page's
    delays (public/lib/backoff.js: min(15 s, 0.5 s · 2ⁿ) × a factor in [0.5, 1.5]), as a
    dropped browser would; `dropped_at` is when its first connection ended."""

    def __init__(self, base_url: str, rejoin_url: str | None = None):
        self.ws = self._connect(base_url)
        self.rejoin_url = rejoin_url
        self.frames: list[tuple[float, int, float]] = []
        self.awards: list[dict] = []
        self.phases: list[str] = []
        self.dropped_at: float | None = None
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    @staticmethod
    def _connect(base_url: str) -> websocket.WebSocket:
        url = LayercastClient.ws_url(base_url, "rain", ROOM, "spectator")
        ws = websocket.create_connection(url, timeout=5, subprotocols=[SUBPROTOCOL], suppress_origin=True)
        ws.settimeout(0.5)
        return ws

    def _run(self) -> None:
        while not self._stop:
            self._read()
            if self._stop or self.rejoin_url is None or self.dropped_at is not None:
                return
            self.dropped_at = time.monotonic()
            attempt = 0
            while not self._stop:
                time.sleep(min(15.0, 0.5 * 2 ** attempt) * random.uniform(0.5, 1.5))
                try:
                    self.ws = self._connect(self.rejoin_url)
                    break
                except Exception:
                    attempt += 1

    def _read(self) -> None:
        while not self._stop:
            try:
                opcode, data = self.ws.recv_data(control_frame=False)
            except websocket.WebSocketTimeoutException:
                continue
            except Exception:
                return
            now = time.monotonic()
            if opcode == websocket.ABNF.OPCODE_CLOSE:
                return
            match = FRAME.match(data)
            if match:
                self.frames.append((now, int(match.group(1)), float(match.group(2))))
                continue
            message = json.loads(data)
            if message.get("type") == "event" and message.get("name") == "award":
                self.awards.append(message["data"])
            elif message.get("type") == "event" and message.get("name") == "rain":
                self.phases.append(message["data"].get("phase"))

    def back_after(self, since: float) -> float | None:
        """Seconds from `since` to its first frame after it was dropped; None if none came."""
        if self.dropped_at is None:
            return None
        later = [f[0] for f in self.frames if f[0] > self.dropped_at]
        return later[0] - since if later else None

    def wait_frames(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not self.frames and time.monotonic() < deadline:
            time.sleep(0.05)
        if not self.frames:
            raise RuntimeError("a probe got no frame")

    def close(self) -> None:
        self._stop = True
        try:
            self.ws.close()
        except Exception:
            pass
        self._thread.join(3)


class CPUSampler:
    """User + system CPU seconds of named processes every SAMPLE_EVERY seconds (a process that
    has ended is skipped); `percent(name, start, end)` is its share of one core over a span."""

    def __init__(self):
        self.pids: dict[str, int] = {}
        self.samples: dict[str, list[tuple[float, float]]] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def watch(self, name: str, pid: int) -> None:
        self.pids[name] = pid
        self.samples[name] = []

    def _run(self) -> None:
        while not self._stop.wait(SAMPLE_EVERY):
            now = time.monotonic()
            for name, pid in list(self.pids.items()):
                try:
                    self.samples[name].append((now, benchlib.cpu_seconds(pid)))
                except (OSError, IndexError, ValueError):
                    pass

    def percent(self, name: str, start: float, end: float) -> float | None:
        """100 × CPU seconds over [start, end] (the samples nearest inside) / their span."""
        inside = [s for s in self.samples.get(name, []) if start - 0.01 <= s[0] <= end + 0.01]
        if len(inside) < 2 or inside[-1][0] - inside[0][0] <= 0:
            return None
        return 100 * (inside[-1][1] - inside[0][1]) / (inside[-1][0] - inside[0][0])

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(2)


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def clients_on(node) -> int:
    """The node's own `layercast_clients` (all its rooms and roles)."""
    text = urllib.request.urlopen(node.url("/metrics"), timeout=3).read().decode()
    return int(sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
                   if line.startswith("layercast_clients ") or line.startswith("layercast_clients{")))


def gaps(probes: list[Probe], start: float, end: float) -> dict:
    """Arrival-to-arrival gaps (ms) and media-time steps (ms) of the probes' frames in [start, end]
    (a probe's last frame before `start` opens its first gap), and when the largest gap began,
    in seconds after `start`."""
    arrival, media, began = [], [], []
    frames = 0
    for probe in probes:
        before = [f for f in probe.frames if f[0] < start][-1:]
        inside = [f for f in probe.frames if start <= f[0] <= end]
        frames += len(inside)
        steps = list(zip(before + inside, inside))
        arrival += [1000 * (b[0] - a[0]) for a, b in steps]
        media += [1000 * (b[2] - a[2]) for a, b in steps]
        began += [a[0] - start for a, _ in steps]
    if not arrival:
        return {"probes": len(probes), "frames": frames, "p99Ms": None, "maxMs": None, "maxAtSeconds": None,
                "maxMediaStepMs": None}
    largest = max(range(len(arrival)), key=arrival.__getitem__)
    return {"probes": len(probes), "frames": frames, "p99Ms": round(nearest_rank(arrival, 0.99), 1),
            "maxMs": round(arrival[largest], 1), "maxAtSeconds": round(began[largest], 2),
            "maxMediaStepMs": round(max(media), 1)}


def returned(probes: list[Probe], killed: float) -> dict:
    """The killed node's probes: how many got frames again after they were dropped, and the
    seconds from the kill to that first frame (p50, p95, p99 by nearest rank, max) in ms."""
    back = [b for b in (p.back_after(killed) for p in probes) if b is not None]
    figures = {"probes": len(probes), "dropped": sum(p.dropped_at is not None for p in probes), "back": len(back)}
    for name, fraction in (("p50Ms", 0.5), ("p95Ms", 0.95), ("p99Ms", 0.99)):
        figures[name] = round(1000 * nearest_rank(back, fraction), 1) if back else None
    figures["maxMs"] = round(1000 * max(back), 1) if back else None
    return figures


def scenario(args, url: str, seconds: float) -> dict:
    return {
        "name": "reconnect-storm",
        "url": url,
        "scene": "rain",
        "room": ROOM,
        "ramp": args.ramp,
        "duration": round(seconds, 1),
        "populations": [
            {"name": "spectators", "count": args.spectators, "behaviour": "spectate", "reconnect": True,
             "pings": args.pings, "thresholds": {"maxP99ReconnectMs": 2000}},
            {"name": "tappers", "count": args.players, "behaviour": "tap", "taps": 2, "aim": "aim", "reconnect": True,
             "pings": args.pings, "thresholds": {"maxP99ReconnectMs": 2000}},
        ],
    }


def wait_loader(proc: subprocess.Popen, seconds: float):
    """Waits (bounded) for the loader and returns its exit code and rusage (its CPU and that of
    any workers it waited for); kills it past the bound."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return proc.returncode, usage
        time.sleep(0.2)
    proc.kill()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage


def ms(value) -> str:
    return "–" if value is None else f"{value:.0f} ms" if value >= 10 else f"{value:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spectators", type=int, default=9000)
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--ramp", type=float, default=600, help="connections per second of each population")
    parser.add_argument("--victim", choices=["relay", "origin"], default="relay",
                        help="kill a node that relays the room, or the room's origin")
    parser.add_argument("--before", type=float, default=5.0, help="seconds of rain before the kill")
    parser.add_argument("--down", type=float, default=10.0, help="seconds from the kill to the restart")
    parser.add_argument("--tail", type=float, default=8.0, help="seconds of rain after the restart")
    parser.add_argument("--fps", type=int, default=30)
    parser.add_argument("--pings", type=float, default=0,
                        help="ping messages a second of each loader client (default 0: none, as the page)")
    parser.add_argument("--deflate", action="store_true",
                        help="loader clients offer permessage-deflate, as browsers do (`--permessage-deflate`)")
    parser.add_argument("--proxy-cpu", type=int, choices=[0, 1], default=0,
                        help="the CPU of nginx: 0 with the nodes (the default), or 1 with the loader, which leaves "
                             "CPU 0 to the nodes and redis-server")
    parser.add_argument("--workers", type=int, default=1, help="loader processes (all on CPU 1)")
    parser.add_argument("--returners", type=int, default=30,
                        help="probes on the killed node besides its three, which rejoin through nginx")
    parser.add_argument("--out", help="directory for the loader's report.json, report.html and marks.txt")
    parser.add_argument("--summary", help="write the figures as JSON to this file")
    args = parser.parse_args()
    if not (1 <= args.spectators <= 20000 and 1 <= args.players <= 200 and args.spectators + args.players <= 20000):
        parser.error("--spectators 1–20000 and --players 1–200, together at most 20000")
    if args.before <= 0 or args.down <= 0 or args.tail <= 0 or args.ramp <= 0:
        parser.error("--before, --down, --tail and --ramp must be > 0")

    out = Path(args.out or tempfile.mkdtemp(prefix="layercast-storm-"))
    out.mkdir(parents=True, exist_ok=True)
    marks = out / "marks.txt"
    marks.write_text("")
    open_files = benchlib.raise_open_files()
    load_start = os.getloadavg()
    print(f"binary {BINARY}; {benchlib.machine()}; open files {open_files}; "
          f"load average {load_start[0]:.1f} {load_start[1]:.1f} {load_start[2]:.1f} at the start")
    connections = args.spectators + args.players + args.returners + 3 * PROBES_PER_NODE + 64
    sampler = CPUSampler()
    probes: list[Probe] = []
    redis = cluster = nginx = loader = data = None
    try:
        with on_server_cpu():
            redis = RedisServer()
            data = tempfile.mkdtemp(prefix="layercast-storm-ledger-")
            cluster = Cluster(redis, 3, ["--data", data],
                              ["--admin-token", ADMIN, "--rain-every", "0", "--rain-results", "2", "--log-level", "notice",
                               "--fps", str(args.fps), "--max-clients", "20000", "--host-connections", "20000",
                               "--host-anonymous-joins", "100000", "--host-tap-rate", "100000", "--room-idle", "30",
                               "--trust-proxy", "127.0.0.1/32"])
        # two per proxied WebSocket, and room for a storm's closing and new ones at once
        with on_server_cpu() if args.proxy_cpu == 0 else contextlib.nullcontext():
            nginx = Nginx(cluster.nodes, connections=4 * connections + 1024)
        names = {id(node): cluster.node_id(node) for node in cluster.nodes}
        # The first probe on node-1 opens the room there: node-1 is its origin, node-3 the relay
        # a relay kill kills. The victim's probes rejoin through nginx when it dies.
        victim = cluster.nodes[0 if args.victim == "origin" else 2]
        probe_node = {}
        for node in cluster.nodes:
            for _ in range(PROBES_PER_NODE + (args.returners if node is victim else 0)):
                probe = Probe(node.base_url, nginx.base_url if node is victim else None)
                probe.wait_frames(10)
                probes.append(probe)
                probe_node[id(probe)] = node
        origin = cluster.origin(ROOM)
        if (origin is victim) != (args.victim == "origin"):
            raise RuntimeError(f"the room's origin is {cluster.node_id(origin)}, not node-1")
        survivors = [n for n in cluster.nodes if n is not victim]
        for node in cluster.nodes:
            sampler.watch(names[id(node)], node.proc.pid)
        sampler.watch("nginx", next(iter(children(nginx.proc.pid)), nginx.proc.pid))
        sampler.watch("redis", redis.proc.pid)

        ramp_seconds = max(args.spectators, args.players) / args.ramp
        raining_at = ramp_seconds + 3 + 1 + COUNTDOWN        # planned, from the loader's start
        rain_seconds = args.before + args.down + args.tail
        seconds = raining_at + rain_seconds + 4
        scenario_file = out / "scenario.json"
        scenario_file.write_text(json.dumps(scenario(args, f"ws://127.0.0.1:{nginx.port}", seconds), indent=2))
        report_file, html_file = out / "report.json", out / "report.html"
        command = [*benchlib.pinned("1"), str(BINARY), "loadtest", "--scenario", str(scenario_file), "--workers",
                   str(args.workers), "--json", str(report_file), "--html", str(html_file), "--mark-file", str(marks)] + (["--permessage-deflate"] if args.deflate else [])
        loader_log = open(out / "loader.log", "w")
        started = time.monotonic()
        loader = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=loader_log, stderr=subprocess.STDOUT)
        sampler.watch("loader", loader.pid)

        time.sleep(ramp_seconds + 3)
        room = cluster.room(ROOM, origin) or {}
        print(f"ramp: {room.get('clients')} clients in the room after {time.monotonic() - started:.1f} s "
              f"({json.dumps(room.get('nodes'))})")
        winners = int(rain_seconds * 4) // 2  # a rain draws 4 packets a second; half of them pay
        rain = start_rain(origin, ROOM, duration=rain_seconds, pool=winners * 50, winners=winners, minCoins=1,
                          maxCoins=99, seed=2929)
        deadline = time.monotonic() + COUNTDOWN + 10
        while "raining" not in probes[0].phases and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(args.before)

        victim_name = names[id(victim)]
        victim_probes = [p for p in probes if probe_node[id(p)] is victim]
        on_victim = clients_on(victim)
        on_survivors = {names[id(n)]: clients_on(n) for n in survivors}
        killed = cluster.kill(victim)
        killed_wall = time.time() - (time.monotonic() - killed)
        with open(marks, "a") as f:
            f.write(f"@{killed_wall:.3f} kill {victim_name}\n")
        time.sleep(args.down)
        with on_server_cpu():
            back = cluster.restart(victim, same_port=True)
        restarted = time.monotonic()
        with open(marks, "a") as f:
            f.write(f"@{time.time():.3f} restart {victim_name}\n")
        sampler.watch(victim_name, back.proc.pid)

        code, usage = wait_loader(loader, max(0.0, started + seconds - time.monotonic()) + 60)
        loader_log.close()
        ended = time.monotonic()
        loader_cpu = usage.ru_utime + usage.ru_stime
        report = json.loads(report_file.read_text()) if report_file.exists() else None
        if report is None:  # the rest is still measured: the probes, the CPU, the ledger
            print(f"the loader wrote no report (exit {code}); its log: {out / 'loader.log'}", file=sys.stderr)
        end_wait = time.monotonic() + 60
        while rain_document(origin if origin is not victim else survivors[0], rain["rain"])["status"] == "running" \
                and time.monotonic() < end_wait:
            time.sleep(0.5)
        time.sleep(1.0)  # the last award events on their way to the probes
        document = rain_document(survivors[0], rain["rain"])
        replay = subprocess.run([str(BINARY), "replay", str(rain["rain"]), "--data", data], cwd=REPO,
                                capture_output=True, text=True, timeout=300)

        survivor_probes = [p for p in probes if probe_node[id(p)] is not victim]
        rows = [(a["rain"], a["packet"]) for a in document["awards"]]
        by_packet = {(a["rain"], a["packet"]): a for a in document["awards"]}
        heard: dict[tuple[int, int], dict] = {}
        conflicting = 0
        for probe in survivor_probes:
            for award in probe.awards:
                key = (award["rain"], award["packet"])
                conflicting += key in heard and heard[key] != award
                heard[key] = award
        pops = report["populations"] if report else {}
        told = sum((p.get("taps") or {}).get("awards", 0) for p in pops.values()) if report else None
        reconnect_times = {name: p["reconnects"] for name, p in pops.items()}
        all_reconnects = {"attempted": sum(r["attempted"] for r in reconnect_times.values()),
                          "reconnected": sum(r["reconnected"] for r in reconnect_times.values())}
        closed_early = sum(p["connections"]["closedEarly"] for p in pops.values())
        failed = sum(p["connections"]["failed"] for p in pops.values())
        before_gap = gaps(survivor_probes, killed - 5, killed)
        # Until the rain's end, before the loader closes its thousands of connections at its own.
        after_gap = gaps(survivor_probes, killed, min(ended, restarted + args.tail - 1))
        cpu_rows = {}
        for name in [names[id(n)] for n in survivors] + ["nginx", "redis"]:
            cpu_rows[name] = [sampler.percent(name, killed + s, killed + s + 1) for s in range(-2, 11)]
        cpu_before = {name: sampler.percent(name, killed - 5, killed) for name in cpu_rows}
        summary = {
            "clients": {"spectators": args.spectators, "players": args.players, "probes": len(probes),
                        "ramp": args.ramp, "fps": args.fps, "workers": args.workers, "proxyCPU": args.proxy_cpu, "pings": args.pings, "deflate": args.deflate, "seconds": round(seconds, 1)},
            "loadAverage": {"start": [round(x, 2) for x in load_start], "end": [round(x, 2) for x in os.getloadavg()]},
            "kills": [{
                "victim": victim_name, "role": args.victim, "origin": names[id(origin)],
                "atSeconds": round(killed - started, 2), "restartedAfter": round(restarted - killed, 2),
                "clientsOnVictim": on_victim, "probesOnVictim": len(victim_probes),
                "loaderDropped": on_victim - len(victim_probes), "clientsOnSurvivors": on_survivors,
                "loader": {"closedEarly": closed_early, "failed": failed, **all_reconnects,
                           "byPopulation": reconnect_times},
                "returners": returned(victim_probes, killed),
                "survivorGaps": {"beforeKill": before_gap, "afterKill": after_gap},
                "cpuPercent": {"fromSecond": -2, "each": cpu_rows, "meanOver5sBefore": cpu_before},
            }],
            "loader": {"exit": code, "cpuSeconds": round(loader_cpu, 2), "cpuPercent": round(100 * loader_cpu / (ended - started), 1),
                       "report": str(report_file), "html": str(html_file),
                       "frames": report and report["frames"], "errors": report and report["errors"],
                       "slo": report and report["slo"]},
            "awards": {"rain": rain["rain"], "status": document["status"], "ledgerRows": len(rows),
                       "paidTwice": len(rows) - len(set(rows)), "heardBySurvivors": len(heard),
                       "heardNotInLedger": len(set(heard) - set(by_packet)),
                       "heardOtherwise": conflicting + sum(1 for k, a in heard.items() if k in by_packet and
                                                           (by_packet[k]["player"], by_packet[k]["coins"]) != (a["player"], a["coins"])),
                       "ledgerNotHeard": len(set(by_packet) - set(heard)), "toldToTappers": told,
                       "replayExit": replay.returncode},
        }
        print_tables(summary, survivors=[names[id(n)] for n in survivors])
        if args.summary:
            Path(args.summary).write_text(json.dumps(summary, indent=2))
        print(f"\nloader report {report_file}, page {html_file}, log {out / 'loader.log'}")
    finally:
        sampler.stop()
        for probe in probes:
            probe.close()
        if loader is not None and loader.returncode is None and loader.poll() is None:
            loader.send_signal(signal.SIGINT)
            try:
                loader.wait(10)
            except subprocess.TimeoutExpired:
                loader.kill()
                loader.wait(5)
        if nginx is not None:
            shutil.copy(nginx.prefix / "error.log", out / "nginx-error.log")
            nginx.stop()
        if cluster is not None:
            cluster.stop()
        if redis is not None:
            redis.close()
        if data is not None:
            shutil.rmtree(data, ignore_errors=True)


def print_tables(summary: dict, survivors: list[str]) -> None:
    kill = summary["kills"][0]
    clients, loader, awards = summary["clients"], summary["loader"], summary["awards"]
    l = kill["loader"]
    print(f"\n{clients['spectators']} spectators + {clients['players']} tappers through nginx on CPU {clients.get('proxyCPU', 0)} ({clients['fps']} fps, "
          f"ramp {clients['ramp']:g}/s, {clients['seconds']} s); kill {kill['victim']} ({kill['role']}; origin "
          f"{kill['origin']}) at {kill['atSeconds']} s, restarted {kill['restartedAfter']} s later; load average "
          f"{summary['loadAverage']['start'][0]} at the start, {summary['loadAverage']['end'][0]} at the end")
    print()
    print("| dropped (node's clients − probes) | loader closed early | reconnected | failed attempts "
          "| reconnect p50 | p95 | p99 | max |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    none = {"count": 0, "p50": None, "p95": None, "p99": None, "max": None}
    spect = l["byPopulation"].get("spectators", {"timeMs": none})["timeMs"]
    print(f"| {kill['loaderDropped']} | {l['closedEarly']} | {l['reconnected']} | {l['failed']} "
          f"| {ms(spect['p50'])} | {ms(spect['p95'])} | {ms(spect['p99'])} | {ms(spect['max'])} |")
    tap = l["byPopulation"].get("tappers", {"timeMs": none})["timeMs"]
    print(f"\n(the loader's spectators: from each client's close to its next welcome; the tappers': n={tap['count']}, "
          f"p99 {ms(tap['p99'])}, max {ms(tap['max'])})")
    first = l["byPopulation"].get("spectators", {}).get("firstFrameMs", none)
    print(f"(the loader's spectators, from the close to the first frame after that welcome: n={first['count']}, "
          f"p50 {ms(first['p50'])}, p95 {ms(first['p95'])}, p99 {ms(first['p99'])}, max {ms(first['max'])})")
    r = kill["returners"]
    print()
    print("| probes of the killed node | dropped | frames again | kill → first frame p50 | p95 | p99 | max |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    print(f"| {r['probes']} | {r['dropped']} | {r['back']} | {ms(r['p50Ms'])} | {ms(r['p95Ms'])} | {ms(r['p99Ms'])} "
          f"| {ms(r['maxMs'])} |")
    print()
    print("| surviving probes' frames | gap p99 before the kill | max | gap p99 after the kill | max | largest step of t after |")
    print("|---:|---:|---:|---:|---:|---:|")
    b, a = kill["survivorGaps"]["beforeKill"], kill["survivorGaps"]["afterKill"]
    print(f"| {a['frames']} ({a['probes']} probes) | {ms(b['p99Ms'])} | {ms(b['maxMs'])} | {ms(a['p99Ms'])} "
          f"| {ms(a['maxMs'])} | {ms(a['maxMediaStepMs'])} |")
    print()
    seconds = list(range(kill["cpuPercent"]["fromSecond"], kill["cpuPercent"]["fromSecond"] + 13))
    print("| CPU % of a core | 5 s before | " + " | ".join(f"{s:+d} s" for s in seconds) + " |")
    print("|---|---:|" + "---:|" * len(seconds))
    for name, row in kill["cpuPercent"]["each"].items():
        before = kill["cpuPercent"]["meanOver5sBefore"][name]
        cells = ["–" if v is None else f"{v:.0f}" for v in row]
        print(f"| {name} | {'–' if before is None else f'{before:.0f}'} | " + " | ".join(cells) + " |")
    print(f"\nloader: exit {loader['exit']}, CPU {loader['cpuSeconds']} s ({loader['cpuPercent']} % of a core over its run); "
          + (f"frames {loader['frames']['received']}, skip ratio {loader['frames']['skipRatio']:.4f}; errors {loader['errors']}"
             if loader["frames"] else "no report"))
    print()
    print("| rain status | ledger rows | paid twice | heard, not in the ledger | heard otherwise | ledger rows not heard "
          "| told to the tappers | replay |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    print(f"| {awards['status']} | {awards['ledgerRows']} | {awards['paidTwice']} | {awards['heardNotInLedger']} "
          f"| {awards['heardOtherwise']} | {awards['ledgerNotHeard']} | {awards['toldToTappers']} "
          f"| {'ok' if awards['replayExit'] == 0 else 'exit ' + str(awards['replayExit'])} |")
    goal_back = (spect["p99"] is not None and spect["p99"] <= 2000 and l["reconnected"] >= kill["loaderDropped"]
                 and r["back"] == r["probes"] and r["p99Ms"] <= 2000)
    goal_gap = a["maxMs"] is not None and a["maxMs"] <= 1000
    print(f"\ngoal: 99 % of the dropped back within 2 s: {'met' if goal_back else 'missed'}; "
          f"no gap over 1 s at the surviving nodes ({', '.join(survivors)}): {'met' if goal_gap else 'missed'}")


if __name__ == "__main__":
    main()
