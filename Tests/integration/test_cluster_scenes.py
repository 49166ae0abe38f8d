"""Placement by scene (issue 29, item 5; docs/cluster.md, "Scenes"): two real nodes of different
binaries on one redis-server, ours (`plain`, the six shipped scenes) and the example package's
(`cards`, the same six and `card-flip`, examples/scene-package).

- each node publishes its scenes: one `layercast:scene:ID` per scene id (fingerprint, fields,
  node), the same for every node that runs it, and its entry in `layercast:scene-nodes:ID`;
- a client of `plain` joins a card-flip room: `cards`, which has no client there, runs the room
  (`/api/rooms` names it origin), the client gets the welcome a client of `cards` gets, then
  frames, and its taps flip the card;
- with two example nodes, when the room's origin is SIGKILLed the other runs it, going on from the
  newest frame the client's node relayed, on the same socket, and takes its taps;
- a join for a scene no live node runs is refused as on one node alone;
- a node that publishes one of our scenes with other fields stops a starting node, which names it.

Binaries: LAYERCAST_BIN (ours) and LAYERCAST_EXAMPLE_BIN (default
examples/scene-package/.build/debug/card-flip-server; the tests skip when it is missing).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from cluster import PLAYER_ID_SECRET, require_cluster_mode
from conftest import BINARY, REPO, ServerProcess, http_get, wait_until
from layercast_client import LayercastClient

EXAMPLE_BIN = Path(os.environ.get("LAYERCAST_EXAMPLE_BIN")
                   or REPO / "examples" / "scene-package" / ".build" / "debug" / "card-flip-server")
# CardFlipScene: a 200-point card in the middle of a 414 × 736 scene.
CARD_MIDDLE = (207, 368)
OUR_SCENES = ["book", "cubes", "radar", "rain", "reveal", "snow"]


@pytest.fixture
def start_nodes(redis_server, cluster_ledger):
    """start_nodes(*ids) -> {id: ServerProcess}: nodes of one cluster on one ledger, each `cards…`
    of the example's binary, any other of ours; stopped after the test."""
    require_cluster_mode()
    if not (EXAMPLE_BIN.is_file() and os.access(EXAMPLE_BIN, os.X_OK)):
        pytest.skip(f"example binary not found at {EXAMPLE_BIN} (swift build --package-path "
                    f"examples/scene-package, or set LAYERCAST_EXAMPLE_BIN)")
    common = ["--cluster", redis_server.url, "--player-id-secret", PLAYER_ID_SECRET, *cluster_ledger]
    started = []

    def start(*ids: str) -> dict:
        nodes = {}
        for node in ids:
            nodes[node] = ServerProcess([*common, "--node-id", node],
                                        **({"binary": EXAMPLE_BIN} if node.startswith("cards") else {}))
            started.append(nodes[node])
        return nodes

    yield start
    for node in started:
        node.stop()


@pytest.fixture
def two_binaries(start_nodes):
    """`plain` (our binary) and `cards` (the example's)."""
    return start_nodes("cards", "plain")


def published(redis_server, scene: str) -> dict:
    """`layercast:scene:SCENE`: its fingerprint, node and fields (parsed); {} when absent."""
    key = f"layercast:scene:{scene}"
    fingerprint = redis_server.command("HGET", key, "fingerprint").strip()
    if not fingerprint:
        return {}
    fields = redis_server.command("HGET", key, "fields").strip()
    return {"fingerprint": fingerprint, "node": redis_server.command("HGET", key, "node").strip(),
            "text": fields, "fields": json.loads(fields)}


def runners(redis_server, scene: str) -> list[str]:
    """The nodes noted in `layercast:scene-nodes:SCENE`."""
    return sorted(redis_server.command("ZRANGE", f"layercast:scene-nodes:{scene}", "0", "-1").split())


def fnv1a(text: str) -> str:
    """`NodeScenes.fingerprint`: "s-" and FNV-1a 64 of the UTF-8 bytes in 16 hex digits."""
    value = 0xcbf29ce484222325
    for byte in text.encode():
        value = ((value ^ byte) * 0x100000001b3) & 0xffffffffffffffff
    return f"s-{value:016x}"


def join_when_known(node, room: str, role: str) -> LayercastClient:
    """A client of `node` in card-flip room `room`, once `node` has read the other node's scenes
    (it reads them every second): earlier joins are refused as an unknown scene."""
    def attempt():
        client = LayercastClient.connect(node.base_url, scene="card-flip", room=room, role=role)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and client.welcome is None and not client.messages_of("error"):
            time.sleep(0.05)
        if client.welcome is not None:
            return client
        client.close()
        return None
    return wait_until(attempt, 10, f"{node.base_url} to take a card-flip client")


def scene_fields(welcome: dict) -> dict:
    """A welcome without what is the client's own or the moment's."""
    return {k: v for k, v in welcome.items() if k not in ("client", "role", "time", "player")}


def test_each_node_publishes_its_scenes_once_per_scene_id(two_binaries, redis_server):
    def both():
        return runners(redis_server, "card-flip") == ["cards"] and all(
            runners(redis_server, scene) == ["cards", "plain"] for scene in OUR_SCENES)
    wait_until(both, 5, "both nodes to publish their scenes")
    assert sorted(redis_server.command("SMEMBERS", "layercast:scene-ids").split()) == sorted(OUR_SCENES + ["card-flip"])
    # The same scene in two binaries built from the same source: one hash, which both refresh.
    for scene in OUR_SCENES:
        entry = published(redis_server, scene)
        assert entry["fields"]["scene"] == scene
        assert entry["fingerprint"] == fnv1a(entry["text"]), scene
        assert entry["node"] in ("cards", "plain")
    card = published(redis_server, "card-flip")
    assert card["fields"]["title"] == "Card flip" and card["node"] == "cards"
    ttl = int(redis_server.command("PTTL", "layercast:scene:card-flip").strip())
    assert 0 < ttl <= 2500      # ClusterTiming.reportExpiry
    # A node that stops leaves its scenes' nodes.
    assert two_binaries["plain"].stop() == 0
    assert all(runners(redis_server, scene) == ["cards"] for scene in OUR_SCENES)


def test_a_client_of_the_node_without_the_scene_plays_it_from_the_node_with_it(two_binaries, room):
    plain, cards = two_binaries["plain"], two_binaries["cards"]
    player = join_when_known(plain, room, "player")
    player.wait_frames(3, 10)
    # The room runs on `cards`, which has no client in it (as reported: within a second).
    def reported():
        rooms = http_get(cards.base_url, "/api/rooms").json()["rooms"]
        return next((r for r in rooms if r["room"] == room and "plain" in r["nodes"]), None)
    entry = wait_until(reported, 5, "cards to report the room with plain's client")
    assert entry["scene"] == "card-flip" and entry["origin"] == "cards"
    assert entry["nodes"].get("cards", {"player": 0, "spectator": 0}) == {"player": 0, "spectator": 0}
    assert entry["nodes"]["plain"] == {"player": 1, "spectator": 0}
    player.wait_item(lambda item: item.get("name") == "card", 5, "the card")
    # A tap on the card, resolved on `cards`, flips it for everyone, the tapper named.
    player.tap(*CARD_MIDDLE)
    flip = player.wait_event("flip", timeout=5)
    assert flip["data"] == {"face": "down"} and flip["by"] == player.welcome["client"]
    flipped = player.wait_event("flipped", timeout=5)
    assert flipped["data"] == {"face": "down"}
    # The welcome is the one a client of `cards` gets.
    with LayercastClient.connect(cards.base_url, scene="card-flip", room=room, role="player") as near:
        assert scene_fields(player.welcome) == scene_fields(near.wait_welcome(5))
    player.close()


def test_a_scene_no_live_node_runs_is_refused_as_on_one_node(two_binaries, room):
    plain = two_binaries["plain"]
    join_when_known(plain, room, "spectator").close()      # `plain` has read the scenes of `cards`
    client = LayercastClient.connect(plain.base_url, scene="no-such-scene", room=room, role="spectator")
    error = client.wait_error("unknown_scene", 3)
    assert error["message"] == 'no scene "no-such-scene"; see /api/scenes'
    assert client.wait_closed(3) == 1008


def test_a_node_publishing_one_of_our_scenes_differently_stops_a_starting_node(redis_server, tmp_path):
    """`other` (planted by hand: its heartbeat, and the `radar` it published) runs a `radar` whose
    title differs from ours."""
    require_cluster_mode()
    radar = {"scene": "radar", "title": "Another radar", "size": {"width": 414, "height": 736},
             "interactions": ["tap"], "assets": {}}
    redis_server.command("SET", "layercast:alive:other", "other", "PX", "60000")
    redis_server.command("HSET", "layercast:scene:radar", "fingerprint", "s-1", "fields", json.dumps(radar), "node", "other")
    redis_server.command("SADD", "layercast:scene-ids", "radar")
    run = subprocess.run([str(BINARY), "serve", "--host", "127.0.0.1", "--port", "0", "--public", str(REPO / "public"),
                          "--data", str(tmp_path / "data"), "--cluster", redis_server.url, "--node-id", "plain",
                          "--player-id-secret", PLAYER_ID_SECRET], capture_output=True, text=True, timeout=30,
                         stdin=subprocess.DEVNULL)
    assert run.returncode == 2, run
    assert 'node other of the cluster runs another scene "radar" (fingerprint s-1;' in run.stderr, run.stderr
    assert "give the changed scene another id" in run.stderr


def test_when_the_origin_dies_another_node_with_the_scene_goes_on_with_the_room(start_nodes, room):
    nodes = start_nodes("cards-1", "cards-2", "plain")
    plain = nodes["plain"]
    player = join_when_known(plain, room, "player")
    player.wait_frames(3, 10)

    def origin():
        rooms = http_get(plain.base_url, "/api/rooms").json()["rooms"]
        return next((r["origin"] for r in rooms if r["room"] == room and r["origin"]), None)
    first = wait_until(origin, 5, "plain to report the room's origin")
    assert first in ("cards-1", "cards-2")
    survivor = "cards-2" if first == "cards-1" else "cards-1"
    nodes[first].proc.send_signal(signal.SIGKILL)
    assert nodes[first].wait(5) is not None
    before = player.latest()
    # Frames again from the survivor, on the same socket, numbered on from the last relayed.
    player.wait_for(lambda: player.last_n is not None and player.last_n > before.n + 3, 5, "frames after the death")
    assert wait_until(lambda: origin() == survivor, 5, f"the origin to be {survivor}")
    assert player.violations == []
    assert not player.closed
    # The survivor resolves the player's taps.
    mark = player.mark()
    player.tap(*CARD_MIDDLE)
    flip = player.wait_event("flip", timeout=5, since=mark)
    assert flip["by"] == player.welcome["client"]
