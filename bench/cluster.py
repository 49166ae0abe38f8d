#!/usr/bin/env python3
"""Bench (f): the cluster on Redis (docs/cluster.md) — what an origin, an edge and Redis cost.

Starts Debian's redis-server (no persistence) on a free loopback port, then `layercast serve
--cluster` nodes: `origin` and `edge-1` … `edge-3`, each on a free port with its own --data.
Redis and every node are pinned to CPU 0 (`taskset -c 0`), every client to CPU 1. One radar room
`radar/bench` is placed on `origin` by a first spectator there.

Clients:
- the watcher (this process, a thread): one spectator on the origin and one on each edge taking
  part, reading each frame's `n` from its prefix; the arrival (CLOCK_MONOTONIC, read right
  after `recv`) of the same `n` on an edge minus on the origin is the extra age an edge adds;
- bench/spectators.c (built into .build-bench/) for the load: N spectators per edge;
- raw Redis subscribers (RESP over a socket) on the room's channel: they count the messages and
  bytes Redis delivers per subscriber, and stand in for more edges to price Redis's fan-out.

CPU is each process's (every thread's) `/proc/PID/task/TID/schedstat` run time, in ns, over a
window of --seconds taken while every client is connected (after spectators.c prints
`measuring`). Per tick = over seconds × 30; per client-frame = over the frames the spectators
received (their fps × open clients × the window).

Parts, in one run:
  1  origin CPU per tick with 0, 1, 2, 3 edges subscribed (one watcher each), then 3 edges with
     N spectators each, and with K raw subscribers more: Redis CPU per delivered message
  2  edge CPU per relayed frame (an edge holding the room for its one watcher minus the same edge
     before the room opened there), and per client-frame: an edge with --clients spectators
     against a single `layercast serve` (no cluster) with as many
  3  the extra frame age through an edge, p50 / p99 / max, idle and with the edge loaded
  4  `serve --workers 2 --cluster` against one process, both pinned to CPU 0, at each of
     --worker-counts spectators: fps, skip, p99 age, CPU per client-frame
  5  a rain room's frames as Redis carries them (messages/s, bytes/s, delta and full sizes)
     during a rain started through the admin API, for the calculation of docs/performance.md

    python3 bench/cluster.py [--seconds 10] [--clients 2000] [--per-edge 200,600,1000]
                             [--worker-counts 2000,4000] [--subscribers 60] [--repeat 3]
                             [--parts cluster,workers] [--json FILE]

Only 127.0.0.1; every wait is bounded; every process started here is stopped here.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import selectors
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import benchlib

HERE = Path(__file__).resolve().parent
TOOLS = benchlib.REPO / ".build-bench"
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
SERVER_CPU, CLIENT_CPU = "0", "1"
FPS = 30
SECRET = "bench-player-id-secret-0123456789"
RADAR = "/ws?scene=radar&room=bench&role=spectator"
CHANNEL = "layercast:room:{}"


def wait_for(predicate, seconds: float, what: str, interval: float = 0.1):
    deadline = time.monotonic() + seconds
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise RuntimeError(f"timed out after {seconds} s waiting for {what}")
        time.sleep(interval)


def cpu_ns(pid: int) -> int:
    """Run time of every thread of `pid` so far (schedstat, ns); threads that ended are lost."""
    total = 0
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0
    for tid in tids:
        try:
            total += int(open(f"/proc/{pid}/task/{tid}/schedstat").read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return total


def children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if int(open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    return found


def metric(port: int, name: str) -> float:
    try:
        return benchlib.metric_sum(benchlib.metrics(port), name)
    except OSError:
        return float("nan")


# ---------------------------------------------------------------------------------------------
# Redis


class Redis:
    """redis-server on a free loopback port, no RDB, no AOF, pinned to CPU 0."""

    def __init__(self):
        self.directory = tempfile.mkdtemp(prefix="layercast-bench-redis-")
        self.port = benchlib.free_port()
        self.proc = subprocess.Popen(benchlib.pinned(SERVER_CPU) + [
            REDIS_SERVER, "--bind", "127.0.0.1", "--port", str(self.port), "--protected-mode", "yes", "--save", "",
            "--appendonly", "no", "--dir", self.directory, "--daemonize", "no", "--logfile", f"{self.directory}/redis.log"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.pid = self.proc.pid
        wait_for(self.ping, 10, f"redis-server on port {self.port}")
        self.url = f"redis://127.0.0.1:{self.port}"

    def ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(64).startswith(b"+PONG")
        except OSError:
            return False

    def close(self) -> None:
        benchlib.stop(self.proc, signal.SIGTERM)
        shutil.rmtree(self.directory, ignore_errors=True)


def node(redis: Redis, name: str, *flags: str) -> benchlib.Server:
    """`layercast serve --cluster` pinned to CPU 0, once it reaches Redis (/healthz "ok")."""
    server = benchlib.Server("--cluster", redis.url, "--node-id", name, "--player-id-secret", SECRET, "--rain-every", "0", *flags,
                             prefix=benchlib.pinned(SERVER_CPU))

    def healthy() -> bool:
        try:
            body = urllib.request.urlopen(f"http://127.0.0.1:{server.port}/healthz", timeout=2).read()
            return json.loads(body).get("status") == "ok"
        except (OSError, ValueError):
            return False
    wait_for(healthy, 10, f"{name} to reach Redis")
    return server


# ---------------------------------------------------------------------------------------------
# The watcher: a few spectators in this process, arrival time per frame number


class Connection:
    """One WebSocket spectator (or, with `redis_channel`, one Redis subscriber), read by `Watcher`."""

    FRAME = re.compile(rb'\{"type":"frame","n":(\d+),"t":[^,]*(,"full":true)?')

    def __init__(self, port: int, path: str = "", redis_channel: str | None = None, parse: bool = True):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.redis = redis_channel is not None
        self.parse = parse
        self.buffer = bytearray()
        self.arrivals: dict[int, float] = {}
        self.frames = self.fulls = self.bytes = self.messages = 0
        self.sizes = {"delta": [], "full": [], "event": 0}
        self.counting = False
        self.closed = False
        if self.redis:
            channel = redis_channel.encode()
            self.sock.sendall(b"*2\r\n$9\r\nSUBSCRIBE\r\n$%d\r\n%s\r\n" % (len(channel), channel))
        else:
            self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                               "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                               "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: layercast.v1\r\n\r\n").encode())
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = self.sock.recv(4096)
                if not chunk:
                    raise RuntimeError("closed during the handshake")
                head += chunk
            if not head.startswith(b"HTTP/1.1 101"):
                raise RuntimeError(f"refused: {head[:80]!r}")
            self.buffer += head.split(b"\r\n\r\n", 1)[1]
        self.sock.setblocking(False)

    def readable(self, now: float) -> None:
        try:
            data = self.sock.recv(1 << 18)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.closed = True
            return
        if self.counting:
            self.bytes += len(data)
        if not self.parse:
            return
        self.buffer += data
        if self.redis:
            self._redis_messages()
        else:
            self._ws_messages(now)

    def _ws_messages(self, now: float) -> None:
        buf = self.buffer
        while len(buf) >= 2:
            size, head = buf[1] & 0x7F, 2
            if size == 126:
                if len(buf) < 4:
                    return
                size, head = int.from_bytes(buf[2:4], "big"), 4
            elif size == 127:
                if len(buf) < 10:
                    return
                size, head = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < head + size:
                return
            if buf[0] & 0x0F == 1:
                match = self.FRAME.match(buf, head, min(head + 120, head + size))
                if match:
                    self.arrivals[int(match.group(1))] = now
                    if self.counting:
                        self.frames += 1
                        self.fulls += bool(match.group(2))
            del buf[:head + size]

    def _redis_messages(self) -> None:
        """Pushed messages: *3 $7 message $len channel $len payload."""
        buf = self.buffer
        while True:
            at = 0
            parts = []
            if not buf.startswith(b"*"):
                return
            end = buf.find(b"\r\n")
            if end < 0:
                return
            count, at = int(buf[1:end]), end + 2
            for _ in range(count):
                end = buf.find(b"\r\n", at)
                if end < 0:
                    return
                if buf[at:at + 1] == b":":
                    parts.append(None)
                    at = end + 2
                    continue
                length = int(buf[at + 1:end])
                if len(buf) < end + 2 + length + 2:
                    return
                parts.append(bytes(buf[end + 2:end + 2 + length]) if len(parts) == 0 else buf[end + 2:end + 2 + length])
                at = end + 2 + length + 2
            del buf[:at]
            if parts and parts[0] == b"message" and self.counting:
                payload = parts[2]
                self.messages += 1
                if payload[:1] == b"F":
                    kind = "full" if self.FRAME.match(payload, 1, 121) and self.FRAME.match(payload, 1, 121).group(2) else "delta"
                    self.sizes[kind].append(len(payload))
                else:
                    self.sizes["event"] += 1

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


class Watcher:
    """Reads its connections on a thread of its own until `close()`."""

    def __init__(self):
        self.selector = selectors.DefaultSelector()
        self.lock = threading.Lock()
        self.connections: dict[str, Connection] = {}
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def add(self, label: str, connection: Connection) -> Connection:
        with self.lock:
            self.connections[label] = connection
            self.selector.register(connection.sock, selectors.EVENT_READ, connection)
        return connection

    def remove(self, label: str) -> None:
        with self.lock:
            connection = self.connections.pop(label)
            self.selector.unregister(connection.sock)
        connection.close()

    def counting(self, on: bool) -> None:
        with self.lock:
            for connection in self.connections.values():
                connection.counting = on

    def _run(self) -> None:
        while not self.stopped.is_set():
            with self.lock:
                if not self.connections:
                    ready = []
                else:
                    ready = self.selector.select(timeout=0.02)
            if not ready:
                time.sleep(0.005)
            for key, _ in ready:
                key.data.readable(time.monotonic())

    def close(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=5)
        for label in list(self.connections):
            self.remove(label)


def extra_age(origin: Connection, edges: list[Connection], since: float) -> dict:
    """Edge arrival − origin arrival of the same frame numbers that reached the origin after `since`."""
    deltas = []
    for edge in edges:
        for n, at in list(origin.arrivals.items()):
            if at >= since and n in edge.arrivals:
                deltas.append((edge.arrivals[n] - at) * 1000)
    if not deltas:
        return {"pairs": 0}
    deltas.sort()

    def pct(p: float) -> float:
        return round(deltas[min(len(deltas) - 1, max(0, int(p * len(deltas) + 0.999999) - 1))], 2)
    return {"pairs": len(deltas), "p50": pct(0.50), "p99": pct(0.99), "max": round(deltas[-1], 2),
            "min": round(deltas[0], 2)}


# ---------------------------------------------------------------------------------------------
# Load and measurement


class Spectators:
    """bench/spectators.c on CPU 1 against `port`, running until it has printed its report."""

    def __init__(self, port: int, clients: int, seconds: float, path: str = RADAR):
        self.clients = clients
        self.ramp = max(200, clients // 2)
        self.proc = subprocess.Popen(benchlib.pinned(CLIENT_CPU) + [
            str(TOOLS / "spectators"), "--url", f"ws://127.0.0.1:{port}{path}", "--clients", str(clients),
            "--seconds", str(seconds), "--ramp", str(self.ramp)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.timeout = clients / self.ramp + 6 + seconds + 30

    def wait_measuring(self) -> None:
        deadline = time.monotonic() + self.timeout
        for line in self.proc.stderr:
            if line.strip() == "measuring":
                return
            if time.monotonic() > deadline:
                break
        raise RuntimeError("spectators never started measuring")

    def report(self) -> dict:
        out, err = self.proc.communicate(timeout=self.timeout)
        if self.proc.returncode != 0 or not out.strip():
            raise RuntimeError(f"spectators exited {self.proc.returncode}: {err[-1000:]}")
        return json.loads(out)


TICKS = None  # a callable answering the newest frame number the origin's watcher has seen, when set


def window(pids: dict[str, list[int]], seconds: float, ports: dict[str, int] | None = None) -> dict:
    """CPU ns of each named process group, and the cluster's frame counters of each node, over
    `seconds` from now."""
    names = ("layercast_cluster_frames_published_total", "layercast_cluster_frames_relayed_total",
             "layercast_cluster_frame_gaps_total")
    ports = ports or {}
    before = {name: sum(cpu_ns(p) for p in group) for name, group in pids.items()}
    counters = {name: [metric(port, m) for m in names] for name, port in ports.items()}
    first = TICKS() if TICKS else None
    start = time.monotonic()
    time.sleep(seconds)
    after = {name: sum(cpu_ns(p) for p in group) for name, group in pids.items()}
    elapsed = time.monotonic() - start
    result = {"seconds": elapsed, "cpu": {name: (after[name] - before[name]) / 1e9 for name in pids}}
    if TICKS:
        result["ticks"] = TICKS() - first
    for name, port in ports.items():
        now = [metric(port, m) for m in names]
        result.setdefault("published", {})[name] = now[0] - counters[name][0]
        result.setdefault("relayed", {})[name] = now[1] - counters[name][1]
        result.setdefault("gaps", {})[name] = now[2] - counters[name][2]
    return result


def windows(pids: dict[str, list[int]], seconds: float, ports: dict[str, int], repeat: int) -> dict:
    """`repeat` windows back to back: the one of median origin CPU, with every window's origin µs
    per tick (the shared machine's bursts land in some windows, not all)."""
    taken = [window(pids, seconds, ports) for _ in range(repeat)]
    ticks = [per_tick_us(w["cpu"]["origin"], w["seconds"], w.get("ticks")) for w in taken]
    chosen = sorted(zip(ticks, range(repeat)))[repeat // 2][1]
    result = dict(taken[chosen])
    result["originTicks"] = ticks
    return result


def per_tick_us(cpu_seconds: float, seconds: float, ticks: float | None = None) -> float:
    """Per tick the room made (`ticks`, when counted: a starved origin ticks less often), else per 1/30 s."""
    return round(cpu_seconds * 1e6 / (ticks if ticks else seconds * FPS), 1)


def load_window(pids: dict[str, list[int]], loads: list[Spectators], seconds: float, ports=None,
                repeat: int = 1) -> tuple[dict, list[dict]]:
    """Starts nothing: waits for every `loads` to measure, takes a window inside theirs, and
    returns it with their reports; frames = Σ fps × open × the window."""
    for load in loads:
        load.wait_measuring()
    time.sleep(0.5)
    measured = windows(pids, seconds, ports, repeat) if repeat > 1 else window(pids, seconds, ports)
    reports = [load.report() for load in loads]
    measured["clientFrames"] = sum(r["fps"] * r["open"] for r in reports) * measured["seconds"]
    return measured, reports


def build_spectators() -> None:
    compiler = shutil.which("cc") or shutil.which("clang")
    if compiler is None:
        sys.exit("cluster: no C compiler: run scripts/install-deps.sh --bench")
    TOOLS.mkdir(exist_ok=True)
    subprocess.run([compiler, "-O2", "-Wall", "-o", str(TOOLS / "spectators"), str(HERE / "spectators.c"), "-lz"], check=True)


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# The parts


def cluster_parts(args, results: dict) -> None:
    """Parts 1, 2, 3 and 5 on one Redis, an origin and three edges."""
    redis = Redis()
    servers: dict[str, benchlib.Server] = {}
    watcher = Watcher()
    try:
        for name in ("origin", "edge-1", "edge-2", "edge-3"):
            servers[name] = node(redis, name)
        port = {name: s.port for name, s in servers.items()}
        pids = {name: [s.pid] for name, s in servers.items()}
        pids["redis"] = [redis.pid]
        plain = benchlib.Server(prefix=benchlib.pinned(SERVER_CPU))  # an idle node outside the cluster, for comparison
        pids["plain"] = [plain.pid]
        origin = watcher.add("origin", Connection(port["origin"], RADAR))
        global TICKS
        TICKS = lambda: max(list(origin.arrivals), default=0)  # noqa: E731
        wait_for(lambda: metric(port["origin"], "layercast_cluster_origin_rooms") == 1, 10, "the room on the origin")
        time.sleep(4.5)  # an origin publishes for 3.5 s after it places a room, edges or not

        # 1: 0, 1, 2, 3 edges subscribed, one watcher each.
        rows = []
        edges: list[Connection] = []
        for count in range(0, 4):
            if count > 0:
                name = f"edge-{count}"
                edges.append(watcher.add(name, Connection(port[name], RADAR)))
                wait_for(lambda: metric(port[name], "layercast_cluster_frames_relayed_total") > 30, 15, f"{name} relaying")
                time.sleep(2)
            since = time.monotonic()
            measured = windows(pids, args.seconds, port, args.repeat)
            age = extra_age(origin, edges, since)
            rows.append({"edges": count, "perEdge": 0, "window": measured, "age": age})
            say(f"  {count} edges: origin {per_tick_us(measured['cpu']['origin'], measured['seconds'])} µs/tick, "
                f"edge-1 {per_tick_us(measured['cpu']['edge-1'], measured['seconds'])} µs/tick, "
                f"redis {per_tick_us(measured['cpu']['redis'], measured['seconds'])} µs/tick, age {age}")
        # … then N spectators on each of the three edges.
        for per_edge in args.per_edge:
            loads = [Spectators(port[f"edge-{i}"], per_edge, args.seconds * args.repeat + 3) for i in (1, 2, 3)]
            since = time.monotonic()
            measured, reports = load_window(pids, loads, args.seconds, port, args.repeat)
            age = extra_age(origin, edges, since)
            rows.append({"edges": 3, "perEdge": per_edge, "window": measured, "age": age, "reports": reports})
            say(f"  3 edges × {per_edge}: origin {per_tick_us(measured['cpu']['origin'], measured['seconds'])} µs/tick, "
                f"fps {[r['fps'] for r in reports]}, client {[r['clientCpuPercent'] for r in reports]} %, age {age}")
            time.sleep(3)
        results["origin"] = rows
        results["reports"] = hgetall_size(redis.port, "layercast:nodes")
        say(f"  node reports: {results['reports']}")

        # 1 (Redis): K raw subscribers more on the room's channel, standing in for K more edges.
        raw = [watcher.add(f"raw-{i}", Connection(redis.port, redis_channel=CHANNEL.format("radar/bench"), parse=i == 0))
               for i in range(args.subscribers)]
        time.sleep(2)
        watcher.counting(True)
        measured = window(pids, args.seconds, port)
        watcher.counting(False)
        results["redisFanout"] = {"subscribers": args.subscribers + 3, "window": measured,
                                  "messagesPerSubscriber": raw[0].messages, "bytesPerSubscriber": raw[0].bytes}
        say(f"  redis with {args.subscribers} raw subscribers + 3 edges: {measured['cpu']['redis']:.3f} s CPU, "
            f"{raw[0].messages} messages per subscriber")
        for i in range(args.subscribers):
            watcher.remove(f"raw-{i}")

        # 2: an edge with many spectators (its CPU per client-frame), and 3 loaded.
        since = time.monotonic()
        load = Spectators(port["edge-1"], args.clients, args.seconds + 3)
        measured, reports = load_window(pids, [load], args.seconds, port)
        results["edgeLoaded"] = {"clients": args.clients, "window": measured, "report": reports[0],
                                 "age": extra_age(origin, edges[:1], since)}
        say(f"  edge-1 × {args.clients}: {measured['cpu']['edge-1'] * 1e6 / measured['clientFrames']:.2f} µs/client-frame, "
            f"age {results['edgeLoaded']['age']}")
        # 2: the same edge before it held the room, for its idle cost per tick.
        for i in (1, 2, 3):
            watcher.remove(f"edge-{i}")
        wait_for(lambda: metric(port["edge-1"], "layercast_cluster_relayed_rooms") == 0, 15, "edge-1 to close the room")
        time.sleep(1)
        results["edgeIdle"] = window(pids, args.seconds, port)

        # 5: a rain room during a rain, as Redis carries it.
        rain_origin = watcher.add("rain-origin", Connection(port["origin"], "/ws?scene=rain&room=bench&role=spectator"))
        wait_for(lambda: metric(port["origin"], "layercast_cluster_origin_rooms") >= 1, 10, "the rain room on the origin")
        time.sleep(1)
        watcher.add("rain-edge", Connection(port["edge-1"], "/ws?scene=rain&room=bench&role=spectator"))
        tap = watcher.add("rain-redis", Connection(redis.port, redis_channel=CHANNEL.format("rain/bench")))
        wait_for(lambda: metric(port["edge-1"], "layercast_cluster_frames_relayed_total") > 0, 10, "edge-1 relaying the rain")
        time.sleep(2)
        watcher.counting(True)
        quiet = time.monotonic()
        time.sleep(5)
        watcher.counting(False)
        quiet_figures = redis_figures(tap, time.monotonic() - quiet)
        tap.sizes = {"delta": [], "full": [], "event": 0}
        tap.messages = tap.bytes = 0
        rain = benchlib.post_rain(port["origin"], "bench", {"duration": 20, "seed": 7})
        time.sleep(6)  # the countdown
        watcher.counting(True)
        started = time.monotonic()
        time.sleep(5)
        watcher.add("rain-edge-2", Connection(port["edge-2"], "/ws?scene=rain&room=bench&role=spectator"))  # asks for a full frame
        time.sleep(5)
        watcher.counting(False)
        results["rain"] = {"rain": rain, "quiet": quiet_figures, "raining": redis_figures(tap, time.monotonic() - started)}
        say(f"  rain: {results['rain']}")
        del rain_origin
    finally:
        watcher.close()
        for server in servers.values():
            server.close()
        if "plain" in locals():
            plain.close()
        redis.close()


def hgetall_size(port: int, key: str) -> dict:
    """The bytes of Redis's answer to HGETALL `key` (what each node reads each second), and its fields."""
    with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
        sock.sendall(b"*2\r\n$7\r\nHGETALL\r\n$%d\r\n%s\r\n" % (len(key), key.encode()))
        reply = b""
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            reply += sock.recv(1 << 16)
            count = int(reply[1:reply.index(b"\r\n")]) if b"\r\n" in reply else -1
            if count >= 0 and reply.count(b"\r\n") >= 1 + 2 * count:
                break
    return {"fields": count // 2, "replyBytes": len(reply)}


def redis_figures(tap: Connection, seconds: float) -> dict:
    sizes = tap.sizes
    return {"seconds": round(seconds, 1), "messagesPerSecond": round(tap.messages / seconds, 1),
            "bytesPerSecond": round(tap.bytes / seconds), "deltas": len(sizes["delta"]), "fulls": len(sizes["full"]),
            "events": sizes["event"],
            "deltaBytesMean": round(statistics.mean(sizes["delta"])) if sizes["delta"] else None,
            "deltaBytesMax": max(sizes["delta"], default=None),
            "fullBytesMean": round(statistics.mean(sizes["full"])) if sizes["full"] else None}


class Workers:
    """`layercast serve --workers 2 --cluster` pinned to CPU 0, on a --data directory whose ledger
    a single start has made first (two workers creating it at once race: one finds it empty)."""

    def __init__(self, redis: Redis):
        self.data = tempfile.mkdtemp(prefix="layercast-bench-workers-")
        self.port = benchlib.free_port()
        base = [str(benchlib.BINARY), "serve", "--public", str(benchlib.REPO / "public"), "--data", self.data,
                "--log-level", "warning", "--max-clients", "20000", "--room-idle", "2", "--host-connections", "20000",
                "--host-anonymous-joins", "100000"]
        first = subprocess.Popen(base + ["--port", str(self.port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        benchlib.wait_for_port(self.port, first)
        first.send_signal(2)
        first.wait(timeout=10)
        self.proc = subprocess.Popen(benchlib.pinned(SERVER_CPU) + base + [
            "--port", str(self.port), "--cluster", redis.url, "--workers", "2", "--node-id", "w", "--player-id-secret", SECRET],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.pid = self.proc.pid
        try:
            benchlib.wait_for_port(self.port, self.proc)
            self.workers = wait_for(lambda: len(children(self.pid)) == 2 and children(self.pid), 10, "two workers")
            time.sleep(1)
            if self.proc.poll() is not None or len(children(self.pid)) != 2:
                raise RuntimeError("a worker ended")
        except RuntimeError as error:
            self.close()
            raise RuntimeError(f"{error}: {self.proc.stderr.read()[-600:].strip()}") from None

    def close(self) -> None:
        benchlib.stop(self.proc)
        shutil.rmtree(self.data, ignore_errors=True)


def single_and_workers(args, results: dict) -> None:
    """Part 2's single process at --clients, and part 4 at each --worker-counts: one process,
    `serve --workers 2` (when it starts), and two nodes on two ports with half the spectators each
    (the placement --workers 2 makes: one origin, one edge). Everything server-side on CPU 0."""
    counts = sorted(set([args.clients] + args.worker_counts))
    rows = []
    for clients in counts:
        for kind in ("single", "workers", "two nodes"):
            if kind != "single" and clients not in args.worker_counts:
                continue
            redis = Redis() if kind != "single" else None
            servers = []
            try:
                if kind == "single":
                    servers.append(benchlib.Server(prefix=benchlib.pinned(SERVER_CPU)))
                    pids = {"server": [servers[0].pid]}
                    loads = [Spectators(servers[0].port, clients, args.seconds + 3)]
                elif kind == "workers":
                    try:
                        servers.append(Workers(redis))
                    except RuntimeError as error:
                        rows.append({"kind": kind, "clients": clients, "error": str(error)})
                        say(f"  {kind} × {clients}: did not start: {error}")
                        continue
                    pids = {"server": servers[0].workers, "redis": [redis.pid]}
                    loads = [Spectators(servers[0].port, clients, args.seconds + 3)]
                else:
                    servers += [node(redis, "two-1"), node(redis, "two-2")]
                    pids = {"server": [s.pid for s in servers], "redis": [redis.pid]}
                    loads = [Spectators(servers[0].port, clients // 2, args.seconds + 3)]
                    wait_for(lambda: metric(servers[0].port, "layercast_cluster_origin_rooms") == 1, 10, "the room on two-1")
                    loads.append(Spectators(servers[1].port, clients - clients // 2, args.seconds + 3))
                measured, reports = load_window(pids, loads, args.seconds)
            finally:
                for server in servers:
                    server.close()
                if redis:
                    redis.close()
            row = {"kind": kind, "clients": clients, "window": measured, "reports": reports,
                   "passed": all(r["open"] == r["clients"] and r["skipRatio"] <= 0.01 and 0 <= r["ageP99Ms"] <= 100
                                 and r["fps"] >= 28.5 for r in reports)}
            rows.append(row)
            total = sum(measured["cpu"].values())
            say(f"  {kind} × {clients}: {'pass' if row['passed'] else 'FAIL'} fps {[r['fps'] for r in reports]} "
                f"skip {[r['skipRatio'] for r in reports]} p99 {[r['ageP99Ms'] for r in reports]} ms, "
                f"servers {total / measured['seconds'] * 100:.0f} % {total * 1e6 / max(1, measured['clientFrames']):.2f} "
                f"µs/client-frame, client {[r['clientCpuPercent'] for r in reports]} %")
    results["workers"] = rows


# ---------------------------------------------------------------------------------------------
# Tables


def tables(results: dict, args) -> str:
    out = []
    rows = []
    for row in results["origin"]:
        w = row["window"]
        s = w["seconds"]
        edge_clients = "1 watcher each" if row["perEdge"] == 0 else f"{row['perEdge']:,} + 1 watcher each"
        frames = w.get("clientFrames")
        client = ("—" if "reports" not in row else
                  ", ".join(f"{r['fps']:.1f}" for r in row["reports"]) + " fps; client " +
                  f"{max(r['clientCpuPercent'] for r in row['reports']):.0f} %")
        edge_cpu = sum(w["cpu"][f"edge-{i}"] for i in range(1, row["edges"] + 1))
        n = w.get("ticks")
        ticks = w.get("originTicks", [per_tick_us(w["cpu"]["origin"], s, n)])
        rows.append([row["edges"], edge_clients if row["edges"] else "—",
                     f"**{per_tick_us(w['cpu']['origin'], s, n)}** ({min(ticks)}–{max(ticks)})",
                     f"{w['published']['origin']:.0f} / {n if n else '?'} / {s * FPS:.0f}", per_tick_us(w["cpu"]["redis"], s, n),
                     per_tick_us(edge_cpu, s, n) if row["edges"] else "—",
                     f"{edge_cpu * 1e6 / frames:.2f}" if frames else "—", client])
    out.append("(f1) origin CPU per tick as edges subscribe and edge spectators grow (one radar room; the origin "
               "holds 1 watcher; CPU 0: redis + 4 nodes, CPU 1: clients)\n")
    out.append(benchlib.table(["edges", "spectators per edge", "origin µs per tick, median (range)", "frames published / made / 30 × s",
                               "redis µs per tick", "all edges µs per tick", "edges µs per client-frame",
                               "edge fps; loader"], rows))
    fan = results["redisFanout"]
    w = fan["window"]
    base = next(r for r in results["origin"] if r["edges"] == 3 and r["perEdge"] == 0)["window"]
    extra = w["cpu"]["redis"] - base["cpu"]["redis"] * w["seconds"] / base["seconds"]
    per_delivery = extra * 1e6 / max(1, fan["messagesPerSubscriber"] * (fan["subscribers"] - 3))
    out.append(f"\nredis with {fan['subscribers']} subscribers of the room's channel (3 edges + "
               f"{fan['subscribers'] - 3} raw): {w['cpu']['redis'] / w['seconds'] * 100:.1f} % of a core, "
               f"{fan['messagesPerSubscriber'] / w['seconds']:.1f} messages/s and {fan['bytesPerSubscriber'] / w['seconds']:,.0f} B/s "
               f"per subscriber; ≈ {per_delivery:.2f} µs of redis CPU per message delivered to each subscriber more "
               f"(its CPU over the 3-edge window's, per raw subscriber's message); origin "
               f"{per_tick_us(w['cpu']['origin'], w['seconds'])} µs per tick")

    idle = results["edgeIdle"]
    one = next(r for r in results["origin"] if r["edges"] == 1)
    loaded = results["edgeLoaded"]
    lw = loaded["window"]
    single = next((r for r in results.get("workers", []) if r["kind"] == "single" and r["clients"] == loaded["clients"]), None)
    idle_tick = per_tick_us(idle["cpu"]["edge-1"], idle["seconds"])
    one_tick = per_tick_us(one["window"]["cpu"]["edge-1"], one["window"]["seconds"], one["window"]["relayed"]["edge-1"])
    out.append("\n(f2) edge CPU\n")
    zero = results["origin"][0]["window"]
    edge_rows = [["`layercast serve` outside the cluster, no room", per_tick_us(zero["cpu"]["plain"], zero["seconds"]), "—", "—"],
                 ["edge-1, no room (not subscribed)", idle_tick, "—", "—"],
                 ["edge-1 relaying to its 1 watcher", one_tick, f"{one_tick - idle_tick:.1f}", "—"],
                 [f"edge-1 relaying to {loaded['clients']:,} spectators",
                  per_tick_us(lw["cpu"]["edge-1"], lw["seconds"], lw["relayed"]["edge-1"]), "—",
                  f"{lw['cpu']['edge-1'] * 1e6 / lw['clientFrames']:.2f} ({loaded['report']['fps']:.1f} fps, "
                  f"skip {loaded['report']['skipRatio']:.4f}, client {loaded['report']['clientCpuPercent']:.0f} %)"]]
    if single:
        sw = single["window"]
        sr = single["reports"][0]
        edge_rows.append([f"single `layercast serve` (no cluster), {loaded['clients']:,} spectators",
                          per_tick_us(sw["cpu"]["server"], sw["seconds"]), "—",
                          f"{sw['cpu']['server'] * 1e6 / sw['clientFrames']:.2f} ({sr['fps']:.1f} fps, "
                          f"skip {sr['skipRatio']:.4f}, client {sr['clientCpuPercent']:.0f} %)"])
    out.append(benchlib.table(["process", "µs per tick (per relayed frame on a relaying edge)",
                               "receive + parse + apply + 1 write, µs per relayed frame",
                               "µs per client-frame"], edge_rows))

    out.append("\n(f3) extra frame age through an edge: arrival on an edge − arrival on the origin of the same `n`, "
               "both spectators in one process\n")
    age_rows = [[f"{r['edges']} edges" + (f" × {r['perEdge']:,} spectators" if r["perEdge"] else ", idle"),
                 r["age"].get("pairs", 0), r["age"].get("p50", "—"), r["age"].get("p99", "—"), r["age"].get("max", "—")]
                for r in results["origin"] if r["edges"]]
    age_rows.append([f"edge-1 × {loaded['clients']:,} spectators", loaded["age"].get("pairs", 0), loaded["age"].get("p50", "—"),
                     loaded["age"].get("p99", "—"), loaded["age"].get("max", "—")])
    out.append(benchlib.table(["edges, load", "frames compared", "p50 ms", "p99 ms", "max ms"], age_rows))

    out.append("\n(f4) one radar room: one process, `serve --workers 2 --cluster`, and two nodes on two ports with "
               "half the spectators each (one origin, one edge: the placement --workers 2 makes); servers and redis on "
               "CPU 0, the spectators on CPU 1 (one figure per spectators process)\n")
    work_rows = []
    for r in results.get("workers", []):
        if "error" in r:
            work_rows.append([r["kind"], f"{r['clients']:,}", "did not start", "—", "—", "—", "—", "—", "—"])
            continue
        w, reps = r["window"], r["reports"]
        total = sum(w["cpu"].values())
        work_rows.append([r["kind"], f"{r['clients']:,}", "pass" if r["passed"] else "FAIL",
                          " / ".join(f"{x['fps']:.1f}" for x in reps), " / ".join(f"{x['skipRatio']:.4f}" for x in reps),
                          " / ".join(f"{x['ageP50Ms']:.0f}, {x['ageP99Ms']:.0f}" for x in reps),
                          f"{total / w['seconds'] * 100:.0f}", f"{total * 1e6 / max(1, w['clientFrames']):.2f}",
                          f"{sum(x['clientCpuPercent'] for x in reps):.0f}"])
    errors = [r["error"] for r in results.get("workers", []) if "error" in r]
    if errors:
        out.append(f"`serve --workers 2` did not start: {errors[0]}\n")
    out.append(benchlib.table(["server", "spectators", "SLO", "fps", "skip", "age p50, p99 ms",
                               "server(s) + redis % of a core", "µs per client-frame", "loader % of CPU 1"], work_rows))

    rain = results["rain"]
    out.append("\n(f5) a rain room's channel as one subscriber (one edge) receives it\n")
    out.append(benchlib.table(["room", "seconds", "messages/s", "bytes/s (RESP)", "deltas / fulls / events",
                               "delta B mean (max)", "full B mean"],
                              [[label, f["seconds"], f["messagesPerSecond"], f"{f['bytesPerSecond']:,}",
                                f"{f['deltas']} / {f['fulls']} / {f['events']}", f"{f['deltaBytesMean']} ({f['deltaBytesMax']})",
                                f["fullBytesMean"] or "—"] for label, f in (("between rains", rain["quiet"]),
                                                                             ("raining", rain["raining"]))]))
    reports = results.get("reports")
    if reports:
        out.append(f"\nnode reports: HGETALL layercast:nodes answers {reports['replyBytes']:,} B for {reports['fields']} nodes "
                   f"(each node reads it every second)")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10, help="seconds per measured window")
    parser.add_argument("--clients", type=int, default=2000, help="spectators of the loaded edge (and the single process)")
    parser.add_argument("--per-edge", default="200,600,1000", help="spectators per edge, with 3 edges")
    parser.add_argument("--worker-counts", default="2000,4000", help="spectator counts of part 4")
    parser.add_argument("--repeat", type=int, default=3, help="windows per configuration of part 1 (the median is shown)")
    parser.add_argument("--subscribers", type=int, default=60, help="raw Redis subscribers of the fan-out figure")
    parser.add_argument("--parts", default="cluster,workers", help="cluster (1, 2, 3, 5) and/or workers (2, 4)")
    parser.add_argument("--json", type=Path, help="also write every figure here")
    args = parser.parse_args()
    args.per_edge = [int(x) for x in args.per_edge.split(",") if x]
    args.worker_counts = [int(x) for x in args.worker_counts.split(",") if x]
    if not os.access(REDIS_SERVER, os.X_OK):
        sys.exit("cluster: redis-server is missing: run scripts/install-deps.sh")
    limit = benchlib.raise_open_files()
    if max([args.clients, *args.worker_counts, *args.per_edge]) > limit - 200:
        sys.exit(f"cluster: the open-files limit {limit} is too small")
    build_spectators()
    if (os.cpu_count() or 1) >= 2:
        os.sched_setaffinity(0, {int(CLIENT_CPU)})  # the watcher and the raw subscribers are clients too
    load = os.getloadavg()
    say(f"{benchlib.machine()}; binary {benchlib.BINARY}; load average {load[0]:.1f}")
    results: dict = {"machine": benchlib.machine(), "loadBefore": load, "started": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    parts = args.parts.split(",")
    if "workers" in parts:
        single_and_workers(args, results)
    if "cluster" in parts:
        cluster_parts(args, results)
    results["loadAfter"] = os.getloadavg()
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, default=str))
    if "cluster" in parts:
        print(f"\n{results['machine']}; {results['started']}; load average (1 min) {load[0]:.1f} before, "
              f"{results['loadAfter'][0]:.1f} after\n")
        print(tables(results, args))
    else:
        print(json.dumps(results.get("workers"), indent=1, default=str))


if __name__ == "__main__":
    main()
