#!/usr/bin/env python3
"""What the node reports cost Redis at 10, 100 and 1,000 nodes: the scheme before issue 29
(every node writes its report to `layercast:nodes` and reads the whole hash every second) against
the one the nodes issue now (docs/cluster.md, "Node reports").

Starts Debian's redis-server (no persistence) on a free loopback port pinned to CPU 0 (`taskset
-c 0`); this process, pinned to CPU 1, opens one connection per simulated node and sends each
node's commands once a second, node i at i/N of each second, for `--seconds` after a warm-up
second. It reproduces the commands from the documented key layout, with the report script's text
read from Sources/LayercastCluster/ClusterKeys.swift (the bytes the nodes send), the report JSON
with the same fields as `NodeReport.json` (Python's compact JSON, within a few bytes of jansson's).

The cluster is the 10⁶-spectator plan's (docs/performance.md): one rain room, whose origin is
node 0, relayed by every other node with `--clients` spectators each.
  old: every node `HSET layercast:nodes NODE REPORT` and `HGETALL layercast:nodes`.
  new: every node `HSET layercast:audience:ROOM NODE "CLIENTS PLAYERS AT"`, `PEXPIRE
       layercast:audience:ROOM 2500`, `EVAL reportScript 2 layercast:nodes layercast:nodes:written
       NODE REPORT 2500`; the origin also `HGETALL layercast:audience:ROOM`. (`GET /api/rooms` reads
       `layercast:nodes` when an operator asks: not part of the steady load.)
Redis's CPU is read from /proc/PID/stat, bytes from INFO stats (total_net_input_bytes,
total_net_output_bytes), commands from INFO stats (total_commands_processed), over the window.

Usage: python3 bench/node_reports.py [--nodes 10,100,1000] [--seconds 10] [--clients 2400]
Only 127.0.0.1 is used; every run is bounded in nodes and seconds.
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
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
ROOM = "rain/lobby"
EXPIRY_MS = "2500"  # ClusterTiming.reportExpiry


def report_script() -> str:
    """`ClusterKeys.reportScript` as the nodes send it (the Swift literal's lines, unindented)."""
    source = (benchlib.REPO / "Sources/LayercastCluster/ClusterKeys.swift").read_text()
    match = re.search(r'static let reportScript = """\n(.*?)\n( *)"""', source, re.S)
    if not match:
        sys.exit("node_reports: no reportScript in ClusterKeys.swift")
    indent = len(match.group(2))
    return "\n".join(line[indent:] for line in match.group(1).split("\n"))


def command(*arguments: str) -> bytes:
    """A command in RESP, as the link sends it."""
    parts = [f"*{len(arguments)}\r\n".encode()]
    for argument in arguments:
        data = argument.encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(parts)


def report(node: str, origin: str, clients: int, at: int) -> str:
    """`NodeReport.json` of a node with one room."""
    return json.dumps({"node": node, "at": at, "rooms": [{
        "key": ROOM, "origin": origin, "player": 0, "spectator": clients, "distinct": 0, "frame": 123456, "uptime": 4115.367}]},
        separators=(",", ":"))


def batch(scheme: str, index: int, clients: int, script: str) -> bytes:
    """Node `index`'s commands of one second."""
    node = f"node-{index:04d}"
    at = int(time.time() * 1000)
    own = 0 if index == 0 else clients
    text = report(node, "node-0000", own, at)
    if scheme == "old":
        return command("HSET", "layercast:nodes", node, text) + command("HGETALL", "layercast:nodes")
    commands = command("HSET", f"layercast:audience:{ROOM}", node, f"{own} 0 {at}")
    commands += command("PEXPIRE", f"layercast:audience:{ROOM}", EXPIRY_MS)
    commands += command("EVAL", script, "2", "layercast:nodes", "layercast:nodes:written", node, text, EXPIRY_MS)
    if index == 0:
        commands += command("HGETALL", f"layercast:audience:{ROOM}")
    return commands


class Redis:
    """redis-server on a free loopback port, no RDB, no AOF, pinned to CPU 0."""

    def __init__(self):
        self.directory = tempfile.mkdtemp(prefix="layercast-bench-reports-")
        self.port = benchlib.free_port()
        self.proc = subprocess.Popen(benchlib.pinned("0") + [
            REDIS_SERVER, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no",
            "--dir", self.directory, "--maxclients", "4000", "--logfile", f"{self.directory}/redis.log"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                self.control = socket.create_connection(("127.0.0.1", self.port), timeout=5)
                break
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise RuntimeError("redis-server did not start")
                time.sleep(0.05)

    def call(self, *arguments: str) -> bytes:
        """One command on the control connection; its reply's raw bytes (a bulk string or a status)."""
        self.control.sendall(command(*arguments))
        data = b""
        while True:
            data += self.control.recv(65536)
            if data.startswith(b"$"):
                length = int(data[1:data.index(b"\r\n")])
                if len(data) >= data.index(b"\r\n") + 2 + length + 2:
                    return data
            elif data.endswith(b"\r\n"):
                return data

    def stats(self) -> dict[str, float]:
        text = self.call("INFO", "stats").decode()
        values = dict(line.split(":", 1) for line in text.split("\r\n") if ":" in line)
        return {"in": float(values["total_net_input_bytes"]), "out": float(values["total_net_output_bytes"]),
                "commands": float(values["total_commands_processed"]), "cpu": benchlib.cpu_seconds(self.proc.pid),
                "time": time.monotonic()}

    def close(self) -> None:
        self.control.close()
        benchlib.stop(self.proc, signal.SIGTERM)
        shutil.rmtree(self.directory, ignore_errors=True)


def run(redis: Redis, scheme: str, nodes: int, seconds: float, clients: int, script: str) -> dict[str, float]:
    """`nodes` connections, each sending its node's commands once a second; Redis's figures over
    `seconds` after one warm-up second."""
    redis.call("FLUSHALL")
    selector = selectors.DefaultSelector()
    sockets = []
    for _ in range(nodes):
        sock = socket.create_connection(("127.0.0.1", redis.port), timeout=5)
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
        sockets.append(sock)
    pending: dict[int, bytes] = {}
    sink = bytearray(1 << 20)
    start = time.monotonic()
    end = start + 1 + seconds
    before = None
    sent = 0  # batches
    lagging = 0  # batches sent more than 100 ms late
    try:
        while True:
            now = time.monotonic()
            if before is None and now >= start + 1:
                before = redis.stats()
            if now >= end:
                break
            # Every batch due by now: node i's k-th at start + k + i / nodes.
            while True:
                k, i = divmod(sent, nodes)
                due = start + k + i / nodes
                if due > now:
                    break
                if now - due > 0.1:
                    lagging += 1
                data = pending.pop(i, b"") + batch(scheme, i, clients, script)
                try:
                    n = sockets[i].send(data)
                except BlockingIOError:
                    n = 0
                if n < len(data):
                    pending[i] = data[n:]
                sent += 1
            for i, data in list(pending.items()):
                try:
                    n = sockets[i].send(data)
                except BlockingIOError:
                    n = 0
                if n < len(data):
                    pending[i] = data[n:]
                else:
                    del pending[i]
            k, i = divmod(sent, nodes)
            wait = max(0.0, min(start + k + i / nodes, end) - time.monotonic())
            for key, _ in selector.select(timeout=min(wait, 0.05)):
                try:
                    while key.fileobj.recv_into(sink):
                        pass
                except BlockingIOError:
                    pass
        after = redis.stats()
    finally:
        for sock in sockets:
            selector.unregister(sock)
            sock.close()
        selector.close()
    elapsed = after["time"] - before["time"]
    return {"commands": (after["commands"] - before["commands"]) / elapsed, "cpu": (after["cpu"] - before["cpu"]) / elapsed,
            "in": (after["in"] - before["in"]) / elapsed, "out": (after["out"] - before["out"]) / elapsed,
            "lagging": lagging / max(sent, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", default="10,100,1000", help="node counts, comma-separated")
    parser.add_argument("--seconds", type=float, default=10, help="measured seconds per run (after 1 s of warm-up)")
    parser.add_argument("--clients", type=int, default=2400, help="spectators on each relaying node")
    args = parser.parse_args()
    try:
        counts = [int(n) for n in args.nodes.split(",")]
    except ValueError:
        sys.exit(f"node_reports: --nodes takes counts separated by commas, not {args.nodes!r}")
    if not counts or min(counts) < 1 or max(counts) > 2000:
        sys.exit("node_reports: --nodes takes 1 to 2,000 nodes per run")
    if not 1 <= args.seconds <= 120:
        sys.exit("node_reports: --seconds takes 1 to 120")
    if not os.path.exists(REDIS_SERVER):
        sys.exit("node_reports: redis-server is missing: run scripts/install-deps.sh")
    benchlib.raise_open_files()
    if (os.cpu_count() or 1) >= 2:
        os.sched_setaffinity(0, {1})
    script = report_script()
    print(f"machine: {benchlib.machine()}")
    print(f"redis: {subprocess.run([REDIS_SERVER, '--version'], capture_output=True, text=True).stdout.strip()}")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; report {len(report('node-0001', 'node-0000', args.clients, 1780000000000))} B")
    rows = []
    redis = Redis()
    try:
        for nodes in counts:
            for scheme in ("old", "new"):
                r = run(redis, scheme, nodes, args.seconds, args.clients, script)
                rows.append([nodes, scheme, f"{r['commands']:,.0f}", f"{100 * r['cpu']:.1f}", f"{r['in'] / 1e3:,.1f}",
                             f"{r['out'] / 1e3:,.1f}", f"{r['in'] / nodes:,.0f}", f"{r['out'] / nodes:,.0f}", f"{100 * r['lagging']:.0f}"])
                print(f"  {nodes} nodes, {scheme}: {rows[-1][2]} commands/s, Redis CPU {rows[-1][3]} %, "
                      f"in {rows[-1][4]} KB/s, out {rows[-1][5]} KB/s", flush=True)
    finally:
        redis.close()
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    print(benchlib.table(["nodes", "scheme", "commands/s", "Redis CPU % of a core", "in KB/s", "out KB/s",
                          "in B/s per node", "out B/s per node", "batches late > 100 ms %"], rows))


if __name__ == "__main__":
    main()
