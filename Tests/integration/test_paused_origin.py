"""Exactly-once awards with two origins for a moment (issue 29, item 3; docs/cluster.md, "Two
origins for a moment"): a rain's origin is SIGSTOPped while players on all three nodes tap,
another node takes the room over, and the paused node is SIGCONTed: it wakes up believing it is
the origin, with its own players' taps waiting in its sockets. The ledger is the arbiter: the
node that took over claimed the rain (its epoch), so the woken node can neither commit an award
nor end the rain. Asserts exactly-once and who is origin, not time: real redis-server, three
real nodes on one ledger, 127.0.0.1 only, every wait bounded."""

from __future__ import annotations

import subprocess
import threading
import time

from conftest import BINARY, REPO, http_get, wait_until
from test_cluster import close_all, join, rain_cluster, spectate, start_rain
from test_rain import COUNTDOWN, awards_heard, play, rain_document, wait_phase

ROOM = "paused-origin"
TAKEOVER_WAIT = 10.0    # bounds the wait for a takeover; the figure itself is a benchmark's (bench/takeover.py)


def own_origin(cluster, node) -> bool:
    """Whether `node` names itself the origin of the test's room in its own /api/rooms (its own
    rooms are current there, not a report)."""
    try:
        return (cluster.room(ROOM, node) or {}).get("origin") == cluster.node_id(node)
    except (AssertionError, OSError):
        return False


def metric(node, name: str) -> float:
    """The value of an unlabelled line of `node`'s /metrics."""
    text = http_get(node.base_url, "/metrics", timeout=3).body.decode()
    line = next(l for l in text.splitlines() if l.startswith(name + " "))
    return float(line.split()[1])


def test_a_paused_origin_that_wakes_after_a_takeover_pays_nothing_twice(start_cluster, cluster_ledger):
    cluster = rain_cluster(start_cluster)
    players = [join(cluster.nodes[i % 3], ROOM) for i in range(12)]
    spectators = [spectate(node, ROOM, "rain") for node in cluster.nodes]
    paused = cluster.origin(ROOM)
    survivors = [node for node in cluster.nodes if node is not paused]
    rain = start_rain(paused, ROOM, duration=16, pool=2000, winners=40, minCoins=5, maxCoins=90, seed=2929)
    wait_phase(players[0], "raining", COUNTDOWN + 3)
    ends = time.monotonic() + 16
    playing = threading.Thread(target=play, args=(players, ends), daemon=True)  # the paused node's players too
    playing.start()
    time.sleep(2.0)
    before_pause = awards_heard(players + spectators)
    assert before_pause, "no award before the pause"

    cluster.pause(paused)
    try:
        new_origin = wait_until(lambda: next((n for n in survivors if own_origin(cluster, n)), None), TAKEOVER_WAIT,
                                "a surviving node to take the paused origin's room over")
        # The new origin pays awards of its own while the old one sleeps with taps in its sockets.
        wait_until(lambda: len(rain_document(new_origin, rain["rain"])["awards"]) > len(before_pause), 6,
                   "an award committed by the new origin")
    finally:
        cluster.wake(paused)

    # The woken node learns at its first renewal that the lease is another's and relays from it.
    wait_until(lambda: (cluster.room(ROOM, paused) or {}).get("origin") == cluster.node_id(new_origin), 5,
               "the woken node to name the new origin")
    assert metric(paused, "layercast_cluster_origin_rooms") == 0
    assert own_origin(cluster, new_origin)

    playing.join(max(0.0, ends - time.monotonic()) + 10)
    document = wait_until(lambda: (lambda d: d if d["status"] != "running" else None)(
        rain_document(new_origin, rain["rain"])), 25, "the rain to end")
    # The woken node could not end the rain it had been running (its end is fenced): the new
    # origin ran it to its end.
    assert document["status"] == "finished", (document["status"], cluster.logs())
    time.sleep(1.0)  # the last award events on their way to clients
    rows = [(a["rain"], a["packet"]) for a in document["awards"]]
    assert len(rows) == len(set(rows)), "a packet was paid twice"
    by_packet = {(a["rain"], a["packet"]): a for a in document["awards"]}
    heard = awards_heard(players + spectators)
    assert len(heard) >= len(before_pause)
    missing = set(heard) - set(by_packet)
    assert not missing, f"awards clients were told of are missing from the ledger: {missing}"
    assert all((by_packet[k]["player"], by_packet[k]["coins"]) == (e["player"], e["coins"]) for k, e in heard.items())
    assert sum(a["coins"] for a in document["awards"]) <= 2000
    # The ledger's awards are the rain's own: its replay from the seed gives each of them.
    replay = subprocess.run([str(BINARY), "replay", str(rain["rain"]), *cluster_ledger], cwd=REPO,
                            capture_output=True, text=True, timeout=60)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    close_all(players + spectators)
