#!/usr/bin/env python3
"""Bench (g): a rain that survives its origin, killed again and again (issue 13).

Starts a redis-server and three `layercast serve --cluster` nodes (release, one shared SQLite
ledger), 15 players and a spectator on each node, and one long rain. Every few seconds it
SIGKILLs the room's origin, waits for a surviving node to take the room over, restarts the
killed node and puts five new players and a spectator on it. At the end it prints, as Markdown:
the awards players were told of, the ledger's rows, packets paid twice and awards lost; the time
from each kill to the first frame of the new origin (a full one) at the last of the survivors' spectators (p50, p99 by nearest
rank, max); and each rebuild's time against the rain's age (the new origin's log). redis-server
and the nodes run on CPU 0, this process and its clients on CPU 1 (on a machine of two or more
CPUs). Uses the integration tests' helpers (Tests/integration). Only 127.0.0.1; bounded by
--kills. Asserts nothing.

    python3 bench/takeover.py [--kills 20] [--every 5]
"""
from __future__ import annotations

import argparse
import contextlib
import math
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
os.environ.setdefault("LAYERCAST_BIN", str(REPO / ".build" / "release" / "layercast"))
sys.path.insert(0, str(REPO / "Tests" / "integration"))

from cluster import Cluster, RedisServer  # noqa: E402
from layercast_client import LayercastClient  # noqa: E402
from test_rain import ADMIN, COUNTDOWN, awards_heard, play, rain_document, start_rain, wait_phase  # noqa: E402


SERVER_CPU, CLIENT_CPU = 0, 1


@contextlib.contextmanager
def on_server_cpu():
    """Processes started inside inherit CPU 0 (this thread's mask); this thread, and the client
    threads it starts, go back to CPU 1 after. Nothing is pinned on a one-CPU machine."""
    if (os.cpu_count() or 1) < 2:
        yield
        return
    os.sched_setaffinity(0, {SERVER_CPU})
    try:
        yield
    finally:
        os.sched_setaffinity(0, {CLIENT_CPU})


def nearest_rank(values: list[float], fraction: float) -> float:
    """The value at `fraction` of the sorted values, by nearest rank (p99 of 20 is the largest)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def connect(node, room: str, role: str) -> LayercastClient:
    client = LayercastClient.connect(node.base_url, scene="rain", room=room, role=role)
    client.wait_welcome(5)
    client.wait_frames(1, 5)
    return client


def origin_of(cluster: Cluster, room: str, via):
    try:
        entry = cluster.room(room, via) or {}
        return cluster.node(entry["origin"]) if entry.get("origin") else None
    except (AssertionError, OSError, KeyError):
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--every", type=float, default=5.0, help="seconds between a takeover and the next kill")
    args = parser.parse_args()
    room = "takeover"
    print(f"binary {os.environ['LAYERCAST_BIN']}; load average {os.getloadavg()[0]:.1f} at the start")
    with on_server_cpu():
        redis = RedisServer()
        data = tempfile.mkdtemp(prefix="layercast-takeover-")
        cluster = Cluster(redis, 3, ["--data", data], ["--admin-token", ADMIN, "--rain-every", "0", "--rain-results", "2",
                                                       "--log-level", "notice"])
    clients: list[LayercastClient] = []
    try:
        players = [connect(cluster.nodes[i % 3], room, "player") for i in range(15)]
        spectators = {id(node): connect(node, room, "spectator") for node in cluster.nodes}
        clients += players + list(spectators.values())
        origin = cluster.origin(room)
        duration = min(600, args.kills * (args.every + 3) + 10)
        winners = int(duration * 4) // 2
        rain = start_rain(origin, room, duration=duration, pool=winners * 50, winners=winners, minCoins=1, maxCoins=100,
                          seed=2026)
        wait_phase(players[0], "raining", COUNTDOWN + 3)
        ends = time.monotonic() + duration
        playing = [threading.Thread(target=play, args=(players, ends), daemon=True)]
        playing[0].start()
        takeovers: list[float] = []
        every_node = list(cluster.nodes)  # a killed node's log stays in its old process object
        for kill in range(args.kills):
            time.sleep(args.every)
            live = [n for n in cluster.alive() if n is not origin]
            watchers = [spectators[id(n)] for n in live if id(n) in spectators]
            killed = cluster.kill(origin)
            deadline = killed + 15
            moved = None
            while time.monotonic() < deadline and moved is None:
                found = origin_of(cluster, room, live[0])
                moved = found if found in live else None
                time.sleep(0.05)
            if moved is None:
                print(f"kill {kill + 1}: no node took the room over within 15 s", file=sys.stderr)
                break
            firsts = []
            for watcher in watchers:  # the new origin's first frame is full (frames in flight at the kill are not)
                later = [r.arrival for r in watcher.frames_snapshot() if r.arrival > killed and r.full]
                while not later and time.monotonic() < deadline:
                    time.sleep(0.02)
                    later = [r.arrival for r in watcher.frames_snapshot() if r.arrival > killed and r.full]
                if later:
                    firsts.append(min(later) - killed)
            takeovers.append(max(firsts) if firsts else float("nan"))
            with on_server_cpu():
                back = cluster.restart(origin)
            every_node.append(back)
            fresh = [connect(back, room, "player") for _ in range(5)]
            spectators[id(back)] = connect(back, room, "spectator")
            clients += fresh + [spectators[id(back)]]
            playing.append(threading.Thread(target=play, args=(fresh, ends), daemon=True))
            playing[-1].start()
            origin = moved
        for thread in playing:
            thread.join(max(0.0, ends - time.monotonic()) + 10)
        end_wait = time.monotonic() + 700
        while rain_document(origin, rain["rain"])["status"] == "running" and time.monotonic() < end_wait:
            time.sleep(0.5)
        document = rain_document(origin, rain["rain"])
        rows = [(a["rain"], a["packet"]) for a in document["awards"]]
        heard = awards_heard(clients)
        rebuilds = []
        for node in every_node:
            for line in Path(node.log.name).read_text(errors="replace").splitlines():
                if "rain resumed on takeover" in line:
                    age = float(re.search(r"age_s=([0-9.]+)", line).group(1))
                    ms = float(re.search(r"rebuild_ms=([0-9.]+)", line).group(1))
                    rebuilds.append((age, ms))
        print(f"rain {rain['rain']}: {len(takeovers)} kills, status {document['status']}; "
              f"load average {os.getloadavg()[0]:.1f} at the end")
        print()
        print("| awards told | ledger rows | paid twice | lost | kill → first frame p50 | p99 | max |")
        print("|---|---|---|---|---|---|---|")
        print(f"| {len(heard)} | {len(rows)} | {len(rows) - len(set(rows))} | {len(set(heard) - set(rows))} "
              f"| {statistics.median(takeovers):.2f} s | {nearest_rank(takeovers, 0.99):.2f} s | {max(takeovers):.2f} s |")
        print()
        print("each kill (s): " + " ".join(f"{t:.2f}" for t in takeovers))
        print()
        print("| rain age at takeover (s) | rebuild (ms) |")
        print("|---|---|")
        for age, ms in sorted(rebuilds):
            print(f"| {age:.1f} | {ms:.1f} |")
    finally:
        for client in clients:
            try:
                client.close()
            except Exception:
                pass
        cluster.stop()
        redis.close()


if __name__ == "__main__":
    main()
