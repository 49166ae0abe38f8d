#!/usr/bin/env python3
"""What the node reports and the scenes cost Redis at 10, 100 and 1,000 nodes: the schemes before
issue 29's item 7 (every node reads every node's report, or scenes, every second) against the ones
the nodes issue now (docs/cluster.md, "Node reports" and "Scenes").

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
The scenes part: every node runs our six scenes, and one in ten (node 0, 10, 20, …) is the
example package's binary, which also runs `card-flip`. The scenes' fields are made up to the sizes
of ours (`SCENE_SIZES`, bytes of each scene's `welcome` fields' JSON as our nodes publish them) and
card-flip's; their fingerprints are `NodeScenes.fingerprint` (FNV-1a 64) of that text.
  old (as on main at 6cf1fc9): every node `SET layercast:scenes:NODE DOCUMENT PX 1500`, ten
       `PEXPIRE layercast:scenes:NODE 1500` (the heartbeats' extensions of the second; 1.5 s rather
       than 0.5 s so that the key is there when others read, as the heartbeats keep it), and
       `EVAL liveScenesScript` (`OLD_LIVE_SCENES_SCRIPT`), which walks the `layercast:nodes`
       hash (planted with every node) and answers every node's document.
  new: every node `EVAL publishScenesScript` (the fields only in its first second, as on
       connecting) and `EVAL readScenesScript` with its own ids and the fingerprints it knows
       (the scripts' text read from ClusterKeys.swift); every node's heartbeat key is planted (the
       heartbeats cost the same in both schemes and are left out).
Redis's CPU is read from /proc/PID/stat, bytes from INFO stats (total_net_input_bytes,
total_net_output_bytes), commands from INFO stats (total_commands_processed), over the window.

Usage: python3 bench/node_reports.py [--parts reports,scenes] [--nodes 10,100,1000] [--seconds 10] [--clients 2400]
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


# Bytes of the `welcome` fields' JSON of our six scenes as our nodes publish them, and card-flip's.
SCENE_SIZES = {"book": 1548, "cubes": 1129, "radar": 453, "rain": 465, "reveal": 464, "snow": 402}
CARD_FLIP_SIZE = 400
# `ClusterKeys.liveScenesScript` as on main at 6cf1fc9, before the scenes were made linear.
OLD_LIVE_SCENES_SCRIPT = """local found = {}
for _, node in ipairs(redis.call('HKEYS', KEYS[1])) do
    local scenes = redis.call('GET', ARGV[1] .. node)
    if scenes then
        found[#found + 1] = node
        found[#found + 1] = scenes
    end
end
return found"""


def script(name: str) -> str:
    """`ClusterKeys.NAME` as the nodes send it (the Swift literal's lines, unindented)."""
    source = (benchlib.REPO / "Sources/LayercastCluster/ClusterKeys.swift").read_text()
    match = re.search(r'static let ' + name + r' = """\n(.*?)\n( *)"""', source, re.S)
    if not match:
        sys.exit(f"node_reports: no {name} in ClusterKeys.swift")
    indent = len(match.group(2))
    return "\n".join(line[indent:] for line in match.group(1).split("\n"))


def fingerprint(text: str) -> str:
    """`NodeScenes.fingerprint`: "s-" and FNV-1a 64 of the UTF-8 bytes, 16 hex digits."""
    value = 0xcbf29ce484222325
    for byte in text.encode():
        value = ((value ^ byte) * 0x100000001b3) & 0xffffffffffffffff
    return f"s-{value:016x}"


def scene_fields(scene: str, size: int) -> str:
    """A scene's `welcome` fields' JSON of `size` bytes (its summary padded)."""
    fields = {"scene": scene, "title": scene.title(), "size": {"width": 414, "height": 736}, "interactions": ["tap"],
              "assets": {}, "summary": {"en": ""}}
    pad = size - len(json.dumps(fields, separators=(",", ":")))
    fields["summary"]["en"] = "x" * max(0, pad)
    return json.dumps(fields, separators=(",", ":"))


class Scenes:
    """The scenes of the simulated cluster and the commands of both schemes."""

    def __init__(self):
        self.fields = {scene: scene_fields(scene, size) for scene, size in SCENE_SIZES.items()}
        self.fields["card-flip"] = scene_fields("card-flip", CARD_FLIP_SIZE)
        self.publish = script("publishScenesScript")
        self.read = script("readScenesScript")

    @staticmethod
    def runs(index: int) -> list[str]:
        """The scene ids node `index` runs, in order."""
        return sorted(list(SCENE_SIZES) + (["card-flip"] if index % 10 == 0 else []))

    def document(self, index: int) -> str:
        """The old `layercast:scenes:NODE` document (`NodeScenes.json` before)."""
        ids = self.runs(index)
        scenes = ",".join(f'"{s}":{{"fingerprint":"{fingerprint(self.fields[s])}","fields":{self.fields[s]}}}' for s in ids)
        whole = fingerprint("".join(f"{s}={fingerprint(self.fields[s])}\n" for s in ids))
        return f'{{"fingerprint":"{whole}","scenes":{{{scenes}}}}}'

    def setup(self, redis: "Redis", scheme: str, nodes: int) -> None:
        """What the other parts of a node keep in Redis: the reports' hash (old) or the heartbeats (new)."""
        for index in range(nodes):
            node = f"node-{index:04d}"
            if scheme == "old":
                redis.call("HSET", "layercast:nodes", node, "{}")
            else:
                redis.call("SET", f"layercast:alive:{node}", "k-0", "PX", "600000")

    def batch(self, scheme: str, index: int, first: bool) -> bytes:
        """Node `index`'s scene commands of one second (`first`: its first second)."""
        node = f"node-{index:04d}"
        if scheme == "old":
            key = f"layercast:scenes:{node}"
            return (command("SET", key, self.document(index), "PX", "1500")
                    + command("PEXPIRE", key, "1500") * 10
                    + command("EVAL", OLD_LIVE_SCENES_SCRIPT, "1", "layercast:nodes", "layercast:scenes:"))
        ids = self.runs(index)
        publish = ["EVAL", self.publish, "1", "layercast:scene-ids", node, EXPIRY_MS, "layercast:scene:", "layercast:scene-nodes:"]
        for scene in ids:
            publish += [scene, fingerprint(self.fields[scene]), self.fields[scene] if first else ""]
        read = ["EVAL", self.read, "1", "layercast:scene-ids", "layercast:scene:", "layercast:scene-nodes:", "layercast:alive:",
                EXPIRY_MS]
        for scene in ids:
            read += [scene, "own"]
        if not first and "card-flip" not in ids:
            read += ["card-flip", fingerprint(self.fields["card-flip"])]
        return command(*publish) + command(*read)


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
    """Node `index`'s report commands of one second."""
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
                # A Redis saturated by the old scenes' reads answers INFO late.
                self.control.settimeout(120)
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


def run(redis: Redis, nodes: int, seconds: float, commands) -> dict[str, float]:
    """`nodes` connections, each sending its node's commands (`commands(index, first)`) once a
    second; Redis's figures over `seconds` after one warm-up second."""
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
                data = pending.pop(i, b"") + commands(i, k == 0)
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
    parser.add_argument("--parts", default="reports,scenes", help="reports, scenes or both, comma-separated")
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
    parts = args.parts.split(",")
    if not parts or any(part not in ("reports", "scenes") for part in parts):
        sys.exit(f"node_reports: --parts takes reports and/or scenes, comma-separated, not {args.parts!r}")
    if not os.path.exists(REDIS_SERVER):
        sys.exit("node_reports: redis-server is missing: run scripts/install-deps.sh")
    benchlib.raise_open_files()
    if (os.cpu_count() or 1) >= 2:
        os.sched_setaffinity(0, {1})
    reports = script("reportScript")
    scenes = Scenes()
    print(f"machine: {benchlib.machine()}")
    print(f"redis: {subprocess.run([REDIS_SERVER, '--version'], capture_output=True, text=True).stdout.strip()}")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; report "
          f"{len(report('node-0001', 'node-0000', args.clients, 1780000000000))} B; old scenes document "
          f"{len(scenes.document(1))} B (with card-flip {len(scenes.document(0))} B)")
    headers = ["nodes", "scheme", "commands/s", "Redis CPU % of a core", "in KB/s", "out KB/s",
               "in B/s per node", "out B/s per node", "batches late > 100 ms %"]
    tables = {part: [] for part in parts}
    redis = Redis()
    try:
        for part in parts:
            for nodes in counts:
                for scheme in ("old", "new"):
                    redis.call("FLUSHALL")
                    if part == "reports":
                        def commands(index, first, scheme=scheme):
                            return batch(scheme, index, args.clients, reports)
                    else:
                        scenes.setup(redis, scheme, nodes)

                        def commands(index, first, scheme=scheme):
                            return scenes.batch(scheme, index, first)
                    r = run(redis, nodes, args.seconds, commands)
                    rows = tables[part]
                    rows.append([nodes, scheme, f"{r['commands']:,.0f}", f"{100 * r['cpu']:.1f}", f"{r['in'] / 1e3:,.1f}",
                                 f"{r['out'] / 1e3:,.1f}", f"{r['in'] / nodes:,.0f}", f"{r['out'] / nodes:,.0f}",
                                 f"{100 * r['lagging']:.0f}"])
                    print(f"  {part}, {nodes} nodes, {scheme}: {rows[-1][2]} commands/s, Redis CPU {rows[-1][3]} %, "
                          f"in {rows[-1][4]} KB/s, out {rows[-1][5]} KB/s", flush=True)
    finally:
        redis.close()
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for part, rows in tables.items():
        print()
        print(part)
        print(benchlib.table(headers, rows))

if __name__ == "__main__":
    main()
