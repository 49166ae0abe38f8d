"""The red-packet rain against docs/protocol.md: the admin API, player identities, authoritative
taps, the ledger and its API, a SIGKILL in the middle of a rain, and `layercast replay`.

Scripted players know only the protocol: they aim at the centre of a `packet-N` item of the
newest frame they got, with that frame's `t` as viewTime, as a good human would. What they hear
(`award` and `tap` events) is compared with the ledger (`GET /api/rains/{id}`) and the prize
plan it reveals once the rain is over.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import signal
import sqlite3
import subprocess
import threading
import time
from typing import Optional

import pytest

from conftest import BINARY, REPO, http_get, http_post, metric, unique_room, wait_until
from layercast_client import ConnectRefused, LayercastClient, item_center

ADMIN = "test-admin-token-0123456789"
SECRET = "test-token-secret-0123456789abcdef"
PLAYER_ID_SECRET = "test-player-id-secret-0123456789"
MIN_VISIBLE = 0.3  # --rain-min-visible's default: a packet younger than this on screen cannot be claimed
PACKET = re.compile(r"^packet-(\d+)$")
COUNTDOWN = 5.0  # seconds of 5…1 before the packets (docs/scenes.md §1)


# ---------------------------------------------------------------------------------------------
# helpers


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def sign_token(sub: str, name: str, exp: int, secret: str = SECRET) -> str:
    """protocol.md, "Signing a token"."""
    first = b64url(json.dumps({"sub": sub, "name": name, "exp": exp}, separators=(",", ":")).encode())
    return first + "." + b64url(hmac.new(secret.encode(), first.encode(), hashlib.sha256).digest())


def public_id(kind: str, credential: str, secret: str = PLAYER_ID_SECRET) -> str:
    """protocol.md, "Public player ids": p- and the first 8 bytes of HMAC-SHA256(secret, kind:credential)."""
    return "p-" + hmac.new(secret.encode(), f"{kind}:{credential}".encode(), hashlib.sha256).digest()[:8].hex()


def rain_server(start_server, *flags: str):
    return start_server("--admin-token", ADMIN, "--rain-every", "0", "--rain-results", "2",
                        "--player-id-secret", PLAYER_ID_SECRET, *flags)


def start_rain(srv, room: str, **fields) -> dict:
    resp = http_post(srv.base_url, f"/api/rooms/{room}/rain", fields,
                     headers={"Authorization": f"Bearer {ADMIN}"})
    assert resp.status == 201, f"{resp.status} {resp.body!r}"
    return resp.json()


def rain_document(srv, rain_id: int) -> dict:
    resp = http_get(srv.base_url, f"/api/rains/{rain_id}")
    assert resp.status == 200, resp
    return resp.json()


def connect_player(srv, room: str, **query) -> LayercastClient:
    client = LayercastClient.connect(srv.base_url, scene="rain", room=room, role="player", query=query or None)
    client.wait_welcome(5)
    client.wait_frames(1, 5)
    return client


def packets(items: list[dict]) -> list[dict]:
    return [item for item in items if PACKET.match(item.get("name") or "")]


def events(client: LayercastClient, name: str) -> list[dict]:
    return [m for m in client.messages_of("event") if m.get("name") == name]


def aim(client: LayercastClient, exclude: set[int] = frozenset(),
        min_age: float = MIN_VISIBLE + 0.02) -> Optional[tuple[float, float, float, int]]:
    """The centre of the topmost unclaimed packet of the newest frame that lies on screen and
    has been on it for `min_age` (by frame times): (x, y, viewTime, packet index)."""
    latest = client.latest()
    if latest is None:
        return None
    for item in reversed(packets(latest.items)):
        index = int(PACKET.match(item["name"]).group(1))
        if index in exclude or item.get("img") != "rp_normal":
            continue
        if latest.t - client.first_seen.get(item["name"], latest.t) < min_age:
            continue
        x, y = item_center(item)
        if 10 <= x <= 404 and 10 <= y <= 726:
            return x, y, latest.t, index
    return None


def wait_phase(client: LayercastClient, phase: str, timeout: float) -> dict:
    return client.wait_event("rain", lambda m: m["data"].get("phase") == phase, timeout)["data"]


def replay(data_dir, rain_id: int) -> subprocess.CompletedProcess:
    return subprocess.run([str(BINARY), "replay", str(rain_id), "--data", str(data_dir)], cwd=REPO,
                          capture_output=True, text=True, timeout=60)


def play(clients: list[LayercastClient], until: float, taps_per_second: float = 6.0) -> None:
    """Each client taps aimed packets from its own thread until `until` (monotonic)."""
    def run(client: LayercastClient, offset: float) -> None:
        time.sleep(offset)
        tap_id = 0
        while time.monotonic() < until and not client.closed:
            target = aim(client)
            if target:
                tap_id += 1
                x, y, t, _ = target
                try:
                    client.tap(x, y, view_time=t, tap_id=tap_id)
                except Exception:
                    return
            time.sleep(1 / taps_per_second)
    threads = [threading.Thread(target=run, args=(c, i * 0.01), daemon=True) for i, c in enumerate(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(0.0, until - time.monotonic()) + 5)


def awards_heard(clients: list[LayercastClient]) -> dict[tuple[int, int], dict]:
    """Every award event any client got, by (rain, packet); asserts they all agree."""
    heard: dict[tuple[int, int], dict] = {}
    for client in clients:
        for event in events(client, "award"):
            data = event["data"]
            key = (data["rain"], data["packet"])
            if key in heard:
                assert heard[key] == data, f"two different awards of packet {key}: {heard[key]} vs {data}"
            heard[key] = data
    return heard


# ---------------------------------------------------------------------------------------------
# the admin API


def test_admin_api_needs_a_configured_token(start_server):
    srv = start_server("--rain-every", "0")
    resp = http_post(srv.base_url, "/api/rooms/x/rain", {}, headers={"Authorization": f"Bearer {ADMIN}"})
    assert resp.status == 403 and resp.json()["error"] == "admin_disabled"


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong-token-0123456789"},
                                     {"Authorization": ADMIN}, {"Authorization": f"Basic {ADMIN}"}])
def test_admin_api_refuses_bad_credentials(start_server, headers):
    srv = rain_server(start_server)
    resp = http_post(srv.base_url, "/api/rooms/x/rain", {}, headers=headers)
    assert resp.status == 401 and resp.json()["error"] == "unauthorized"
    assert http_get(srv.base_url, "/api/rooms/x/leaderboard").json() == {"room": "x", "players": []}


@pytest.mark.parametrize("body, code, words", [
    ("{", "bad_json", "not JSON"),
    ("[1]", "bad_json", "object"),
    ({"duration": "long"}, "bad_field", "rain.duration"),
    ({"duration": 0.5}, "bad_field", "duration"),
    ({"winners": 81}, "bad_field", "winners"),
    ({"pool": 5}, "bad_field", "pool"),
    ({"minCoins": 9, "maxCoins": 8}, "bad_field", "minCoins"),
    ({"seed": -1}, "bad_field", "seed"),
    ({"seed": 1.5}, "bad_field", "seed"),
    ({"colour": "red"}, "bad_field", "colour"),
])
def test_admin_api_refuses_bad_bodies_and_changes_nothing(start_server, body, code, words):
    srv = rain_server(start_server)
    resp = http_post(srv.base_url, "/api/rooms/x/rain", body, headers={"Authorization": f"Bearer {ADMIN}"})
    assert resp.status == 400, resp
    error = resp.json()
    assert error["error"] == code and words in error["message"], error
    assert http_get(srv.base_url, "/api/rains/1").status == 404


def test_admin_api_refuses_oversize_bodies_and_a_second_rain(start_server):
    srv = rain_server(start_server)
    auth = {"Authorization": f"Bearer {ADMIN}"}
    big = http_post(srv.base_url, "/api/rooms/x/rain", b"{" + b" " * 20000 + b"}", headers=auth)
    assert big.status == 413 and big.json()["error"] == "too_large"
    first = start_rain(srv, "x", duration=2, winners=2, pool=20)
    assert first["rain"] == 1 and first["packets"] == 8 and first["room"] == "x"
    again = http_post(srv.base_url, "/api/rooms/x/rain", {}, headers=auth)
    assert again.status == 409 and again.json()["error"] == "rain_running"
    other = start_rain(srv, "y", duration=2, winners=2, pool=20)
    assert other["rain"] == 2
    assert http_post(srv.base_url, "/api/rooms/bad%20room/rain", {}, headers=auth).status == 400
    chunked = http_get(srv.base_url, "/api/rooms/z/rain", method="POST",
                       headers={**auth, "Transfer-Encoding": "chunked"})
    assert chunked.status == 411 and chunked.json()["error"] == "length_required"
    assert http_post(srv.base_url, "/api/rooms/x/snowfall", {}, headers=auth).status == 404


# ---------------------------------------------------------------------------------------------
# identities


def test_signed_tokens_identify_players_and_bad_ones_are_refused(start_server):
    srv = rain_server(start_server, "--token-secret", SECRET)
    room = unique_room("tokens")
    good = sign_token("player-42", "Ada", int(time.time()) + 3600)
    with connect_player(srv, room, token=good) as ada:
        # Everyone sees a keyed hash of the token's sub, never the sub (protocol.md, "Public player ids").
        assert ada.welcome["player"] == {"id": public_id("token", "player-42"), "name": "Ada", "total": 0}

    payload, signature = good.split(".")
    tampered_payload = b64url(json.dumps({"sub": "player-43", "name": "Ada", "exp": int(time.time()) + 3600},
                                         separators=(",", ":")).encode())
    cases = {
        "tampered": (f"{tampered_payload}.{signature}", "bad_token", "signature does not match"),
        "other secret": (sign_token("player-42", "Ada", int(time.time()) + 3600, secret="another-secret-0123456789"),
                         "bad_token", "signature does not match"),
        "expired": (sign_token("player-42", "Ada", int(time.time()) - 10), "bad_token", "expired"),
        "garbage": ("not-a-token", "bad_token", "token"),
        "empty": ("", "bad_token", "token"),
        "oversize": ("x" * 3000, "bad_token", "token"),
    }
    for label, (token, code, words) in cases.items():
        client = LayercastClient.connect(srv.base_url, scene="rain", room=room, query={"token": token})
        error = client.wait_error(code, 5)
        assert words in error["message"], (label, error)
        assert client.wait_closed(5) == 1008, label
        assert client.welcome is None, label
        client.close()

    # A secret set and anonymous play not allowed: a player needs a token.
    client = LayercastClient.connect(srv.base_url, scene="rain", room=room)
    client.wait_error("token_required", 5)
    assert client.wait_closed(5) == 1008
    client.close()


def test_anonymous_players_keep_their_id_and_total(start_server):
    srv = rain_server(start_server)
    room = unique_room("anon")
    first = connect_player(srv, room)
    # The server made up a secret id and told it to this player alone; everyone sees its public id.
    anon = first.welcome["player"]["secret"]
    public = first.welcome["player"]["id"]
    assert re.fullmatch(r"anon-[A-Za-z0-9_-]{22}", anon) and first.welcome["player"]["total"] == 0
    assert public == public_id("anon", anon) and first.welcome["player"]["name"] == "Guest-" + public[2:6]
    first.close()
    bad = LayercastClient.connect(srv.base_url, scene="rain", room=room, query={"player": "anon-short"})
    bad.wait_error("bad_player", 5)
    bad.close()

    rain = start_rain(srv, room, duration=4, winners=16, pool=160, minCoins=10, maxCoins=10, seed=11)
    player = connect_player(srv, room, player=anon)
    assert player.welcome["player"] == {"id": public, "name": first.welcome["player"]["name"], "total": 0}
    wait_phase(player, "raining", COUNTDOWN + 3)
    play([player], time.monotonic() + 3.5)
    wait_phase(player, "results", 8)
    won = sum(e["data"]["coins"] for e in events(player, "award") if e["data"]["player"] == public)
    assert won > 0, f"the aimed taps won nothing: {player.messages_of('event')[-5:]}"
    player.close()
    again = connect_player(srv, room, player=anon)
    assert again.welcome["player"] == {"id": public, "name": first.welcome["player"]["name"], "total": won}
    summary = http_get(srv.base_url, f"/api/players/{public}").json()
    assert summary["coins"] == won and all(a["rain"] == rain["rain"] for a in summary["recent"])
    # The secret reads its own totals; the public id is no credential.
    mine = http_get(srv.base_url, "/api/me", headers={"Authorization": f"Bearer {anon}"})
    assert mine.status == 200 and mine.json()["player"] == public and mine.json()["coins"] == won
    assert http_get(srv.base_url, "/api/me", headers={"Authorization": f"Bearer {public}"}).status == 401
    assert http_get(srv.base_url, "/api/me").status == 401
    again.close()


# ---------------------------------------------------------------------------------------------
# a rain as the players see it


def test_countdown_packets_and_phases_follow_the_seed(start_server):
    srv = rain_server(start_server)
    room = unique_room("phases")
    with connect_player(srv, room) as watcher:
        rain = start_rain(srv, room, duration=3, winners=4, pool=100, seed=99)
        countdown = wait_phase(watcher, "countdown", 2)
        assert countdown["rain"] == rain["rain"] and countdown["packets"] == 12
        assert countdown["startsAt"] - countdown["countdownAt"] == pytest.approx(COUNTDOWN, abs=1e-6)
        assert countdown["endsAt"] - countdown["startsAt"] == pytest.approx(3, abs=1e-6)
        watcher.wait_item(lambda item: (item.get("text") or {}).get("runs", [{}])[0].get("t") == "5", 2, "the countdown's 5")
        watcher.wait_item(lambda item: (item.get("text") or {}).get("runs", [{}])[0].get("t") == "1", 6, "the countdown's 1")
        raining = wait_phase(watcher, "raining", 3)
        assert raining["rain"] == rain["rain"]
        record, packet = watcher.wait_item(lambda item: bool(PACKET.match(item.get("name") or "")), 2, "a packet")
        assert packet["s"] == [44, 62.5] and packet["img"] == "rp_normal"
        late = connect_player(srv, room)
        assert late.messages_of("event")[0]["data"] == {**raining, "phase": "raining"}, late.messages_of("event")[:1]
        assert late.messages_of("event")[0]["by"] == late.welcome["client"]
        late.close()
        results = wait_phase(watcher, "results", 5)
        assert results["claimed"] == 0 and results["awarded"] == 0
        seen = {int(PACKET.match(i["name"]).group(1)) for f in watcher.frames_snapshot() for i in packets(f.items)}
        assert seen <= set(range(12)) and len(seen) >= 10, seen  # 4 a second for 3 s
        watcher.wait_more_frames(2, 2)
        assert not packets(watcher.latest().items), "packets stay after the end of the rain"
        wait_phase(watcher, "idle", 4)
    document = rain_document(srv, rain["rain"])
    assert document["status"] == "finished" and document["awards"] == [] and len(document["plan"]) == document["settings"]["winners"]
    assert sum(p["coins"] for p in document["plan"]) == document["settings"]["pool"]


@pytest.mark.parametrize("ledger", [(), ("--ledger", "memory:")], ids=["sqlite", "memory"])
def test_two_players_tapping_one_packet_at_once_exactly_one_wins(start_server, ledger):
    srv = rain_server(start_server, *ledger)
    room = unique_room("race")
    a, b = connect_player(srv, room), connect_player(srv, room)
    start_rain(srv, room, duration=4, winners=4, pool=100, seed=3)
    wait_phase(a, "raining", COUNTDOWN + 3)
    target = wait_until(lambda: aim(a), 3, "a packet on screen")
    x, y, t, index = target
    barrier = threading.Barrier(2)

    def fire(client, tap_id):
        barrier.wait(2)
        client.tap(x, y, view_time=t, tap_id=tap_id)

    threads = [threading.Thread(target=fire, args=(c, i)) for c, i in ((a, 1), (b, 2))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(3)
    answers = [c.wait_event("tap", lambda m: m["data"].get("id") in (1, 2), 3)["data"] for c in (a, b)]
    assert sorted(answer["result"] for answer in answers) == ["award", "taken"], answers
    assert all(answer["packet"] == index for answer in answers)
    winner = a if answers[0]["result"] == "award" else b
    award = a.wait_event("award", lambda m: m["data"]["packet"] == index, 3)
    assert award["by"] == winner.welcome["client"] and award["data"]["player"] == winner.welcome["player"]["id"]
    # Everyone hears the award; only the tapper hears its tap answer.
    assert b.wait_event("award", lambda m: m["data"]["packet"] == index, 3) == award
    assert all(e["data"].get("id") != (2 if winner is a else 1) for e in events(winner, "tap"))
    a.close()
    b.close()


def test_twenty_players_every_award_heard_is_a_ledger_row(start_server):
    srv = rain_server(start_server)
    room = unique_room("twenty")
    players = [connect_player(srv, room) for _ in range(20)]
    spectator = LayercastClient.connect(srv.base_url, scene="rain", room=room, role="spectator")
    spectator.wait_welcome(5)
    rain = start_rain(srv, room, duration=6, pool=500, winners=20, minCoins=5, maxCoins=60, seed=2024)
    wait_phase(players[0], "raining", COUNTDOWN + 3)
    play(players, time.monotonic() + 6.0)
    for client in players + [spectator]:
        wait_phase(client, "results", 6)
    heard = awards_heard(players + [spectator])
    assert heard, "twenty aiming players won no packet"
    document = rain_document(srv, rain["rain"])
    rows = {(a["rain"], a["packet"]): a for a in document["awards"]}
    assert len(rows) == len(document["awards"]), "a packet was awarded twice"
    assert set(heard) == set(rows), f"heard but not in the ledger: {set(heard) - set(rows)}; in the ledger but not heard: {set(rows) - set(heard)}"
    plan = {p["packet"]: p["coins"] for p in document["plan"]}
    # 20 players in the room: each may win twice an equal share, ⌈2·24/20⌉ packets and ⌊2·500/20⌋ coins.
    assert document["players"] == 20
    assert (document["settings"]["maxAwardsPerPlayer"], document["settings"]["maxCoinsPerPlayer"]) == (3, 50)
    won: dict[str, int] = {}
    for row in document["awards"]:  # in commit order: the plan's prize, cut to what the coin limit leaves
        expected = min(plan.get(row["packet"], 0), 50 - won.get(row["player"], 0))
        assert row["coins"] == expected, f"award {row} should pay {expected}"
        won[row["player"]] = won.get(row["player"], 0) + row["coins"]
    assert max(won.values()) <= 50
    for key, event in heard.items():
        row = rows[key]
        assert (event["player"], event["coins"]) == (row["player"], row["coins"])
        assert row["serverTime"] - 0.3 - 1e-6 <= row["viewTime"] <= row["serverTime"] + 1e-9
    assert sum(r["coins"] for r in rows.values()) <= 500
    assert sum(plan.values()) == 500 and len(plan) == 20
    # Every tap got exactly one answer, and spectators heard no tap answers.
    for client in players:
        answers = events(client, "tap")
        ids = [e["data"]["id"] for e in answers]
        assert len(ids) == len(set(ids)) and all(e["by"] == client.welcome["client"] for e in answers)
    assert not events(spectator, "tap")
    assert metric(srv.base_url, "layercast_awards_total") == len(rows)
    board = http_get(srv.base_url, f"/api/rooms/{room}/leaderboard?limit=100").json()["players"]
    totals: dict[str, int] = {}
    for row in rows.values():
        totals[row["player"]] = totals.get(row["player"], 0) + row["coins"]
    assert {e["player"]: e["coins"] for e in board} == totals
    assert [e["rank"] for e in board] == list(range(1, len(board) + 1))
    assert [e["coins"] for e in board] == sorted((e["coins"] for e in board), reverse=True)
    result = replay(srv.data_dir, rain["rain"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{len(rows)} awards" in result.stdout
    for client in players + [spectator]:
        client.close()


def test_sigkill_mid_rain_loses_no_confirmed_award(start_server, tmp_path):
    data = tmp_path / "ledger"
    srv = rain_server(start_server, "--data", str(data))
    room = unique_room("kill")
    players = [connect_player(srv, room) for _ in range(6)]
    rain = start_rain(srv, room, duration=20, seed=77)
    wait_phase(players[0], "raining", COUNTDOWN + 3)
    play(players, time.monotonic() + 3.0)
    srv.proc.send_signal(signal.SIGKILL)
    srv.wait(5)
    for client in players:
        client.wait_closed(5)
    heard = awards_heard(players)
    assert heard, "no award before the kill"

    again = rain_server(start_server, "--data", str(data))
    document = rain_document(again, rain["rain"])
    assert document["status"] == "interrupted" and document["endedAt"]
    rows = {(a["rain"], a["packet"]): a for a in document["awards"]}
    assert len(rows) == len(document["awards"])
    missing = set(heard) - set(rows)
    assert not missing, f"awards players saw are missing from the ledger: {missing}"
    assert all(rows[key]["player"] == event["player"] and rows[key]["coins"] == event["coins"] for key, event in heard.items())
    # The next rain is a new one; nothing of the interrupted rain is paid again.
    nxt = start_rain(again, room, duration=2, winners=2, pool=20)
    assert nxt["rain"] == rain["rain"] + 1
    result = replay(data, rain["rain"])
    assert result.returncode == 0, result.stdout + result.stderr


def test_replay_finds_a_tampered_ledger(start_server, tmp_path):
    data = tmp_path / "ledger"
    srv = rain_server(start_server, "--data", str(data))
    room = unique_room("tamper")
    player = connect_player(srv, room)
    rain = start_rain(srv, room, duration=3, winners=12, pool=120, minCoins=10, maxCoins=10, seed=8)
    wait_phase(player, "raining", COUNTDOWN + 3)
    play([player], time.monotonic() + 3)
    wait_phase(player, "results", 6)
    player.close()
    assert events(player, "award"), "no award to tamper with"
    assert replay(data, rain["rain"]).returncode == 0
    assert replay(data, 999).returncode == 2

    with sqlite3.connect(data / "layercast.sqlite") as db:
        db.execute("UPDATE awards SET coins = coins + 1000 WHERE id = (SELECT MIN(id) FROM awards)")
    result = replay(data, rain["rain"])
    assert result.returncode == 1 and "disagrees" in result.stdout and "coins" in result.stdout, result.stdout

    # A salt other than the one committed to: the commitment no longer matches, nor does the plan.
    with sqlite3.connect(data / "layercast.sqlite") as db:
        db.execute("UPDATE awards SET coins = coins - 1000 WHERE id = (SELECT MIN(id) FROM awards)")
        db.execute("UPDATE rounds SET salt = ? WHERE id = ?", ("ab" * 32, rain["rain"]))
    result = replay(data, rain["rain"])
    assert result.returncode == 1 and f"commitment: the rain published {rain['commitment']}" in result.stdout, result.stdout

    # A round of a scene this binary does not register is not replayed: exit 2, saying why.
    with sqlite3.connect(data / "layercast.sqlite") as db:
        db.execute("UPDATE rounds SET scene = 'cards' WHERE id = ?", (rain["rain"],))
    result = replay(data, rain["rain"])
    assert result.returncode == 2 and (f'rain {rain["rain"]} is a round of the scene "cards", which this binary does not '
                                       "register; not replayed") in result.stderr, result.stderr


def replay_selected(data_dir, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BINARY), "replay", *args, "--data", str(data_dir)], cwd=REPO,
                          capture_output=True, text=True, timeout=120)


def test_replay_audits_every_rain_of_a_night_in_one_run(start_server, tmp_path):
    """`replay --all` (or --room, --since, --until) replays every selected rain, prints a line
    each and the totals, lists a running rain without replaying it, writes the JSON report, and
    exits 1 when any rain disagrees with the ledger."""
    data = tmp_path / "ledger"
    srv = rain_server(start_server, "--data", str(data))
    before = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 1))
    rooms = [unique_room("night-a"), unique_room("night-b")]
    players = [connect_player(srv, room) for room in rooms]
    rains = [start_rain(srv, room, duration=3, winners=12, pool=120, minCoins=10, maxCoins=10, seed=8 + i)["rain"]
             for i, room in enumerate(rooms)]
    for player in players:
        wait_phase(player, "raining", COUNTDOWN + 3)
    play(players, time.monotonic() + 3)
    for player in players:
        wait_phase(player, "results", 6)
        player.close()
    awards = [len(rain_document(srv, rain)["awards"]) for rain in rains]
    assert all(awards), f"a rain without awards: {awards}"
    running = start_rain(srv, unique_room("night-c"), duration=60)["rain"]

    result = replay_selected(data, "--all")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    for rain, count in zip(rains, awards):
        assert any(line.startswith(f"rain {rain} (finished, seed ") and f"; {count} awards, {count * 10} coins, replayed identically" in line
                   for line in lines), result.stdout
    assert f"rain {running} (running): not replayed, it is still running" in lines, result.stdout
    assert lines[-1] == (f"3 rain(s): 2 replayed identically, 0 disagree, 1 still running (not replayed); "
                         f"{sum(awards)} awards and {sum(awards) * 10} coins checked"), result.stdout

    only_b = replay_selected(data, "--room", rooms[1])
    assert only_b.returncode == 0 and only_b.stdout.splitlines()[-1].startswith("1 rain(s): 1 replayed identically"), only_b.stdout
    assert replay_selected(data, "--since", before).stdout.splitlines()[-1].startswith("3 rain(s)")
    assert replay_selected(data, "--until", before).stdout.splitlines() == [
        "0 rain(s): 0 replayed identically, 0 disagree, 0 still running (not replayed); 0 awards and 0 coins checked"]
    named_running = replay_selected(data, str(rains[0]), str(running))
    assert named_running.returncode == 2 and f"rain {running} is still running" in named_running.stderr

    with sqlite3.connect(data / "layercast.sqlite") as db:
        db.execute("UPDATE awards SET coins = coins + 1000 WHERE id = (SELECT MIN(id) FROM awards WHERE round = ?)", (rains[1],))
    report = tmp_path / "audit.json"
    tampered = replay_selected(data, "--all", "--json", str(report))
    assert tampered.returncode == 1, tampered.stdout + tampered.stderr
    # The tampered award, and the pool it now overdraws.
    assert f"rain {rains[1]}: the replay disagrees with the ledger in 2 place(s):" in tampered.stdout, tampered.stdout
    assert "1 replayed identically, 1 disagree, 1 still running" in tampered.stdout.splitlines()[-1]
    document = json.loads(report.read_text())
    assert document["ledger"] == str(data / "layercast.sqlite")
    assert [(r["rain"], r["verdict"]) for r in document["rains"]] == [
        (rains[0], "agrees"), (rains[1], "disagrees"), (running, "running")]
    assert (document["agreeing"], document["disagreeing"], document["running"]) == (1, 1, 1)
    differences = document["rains"][1]["differences"]
    paid = awards[1] * 10 + 1000   # every award paid 10 coins (minCoins = maxCoins), one 1000 more
    assert len(differences) == 2 and "1010 coins" in differences[0] and differences[1].startswith(f"pool: {paid} coins"), differences
    assert document["rains"][0]["awards"] == awards[0] and document["rains"][0]["coins"] == awards[0] * 10
    # The report alone on standard output.
    alone = replay_selected(data, "--room", rooms[0], "--json", "-")
    assert alone.returncode == 0 and json.loads(alone.stdout)["rains"][0]["verdict"] == "agrees", alone.stdout


def stop_rain(srv, room: str, token: str = ADMIN):
    return http_post(srv.base_url, f"/api/rooms/{room}/stop-rain", b"", headers={"Authorization": f"Bearer {token}"})


def test_an_operator_stops_a_rain_and_its_awards_stand(start_server, tmp_path):
    """`stop-rain` (protocol.md, Admin API): the packets go, the results follow with `stoppedAt`,
    every later tap is closed, the awards made stay in the ledger, the rain is recorded
    interrupted, and the replay agrees; a stop with no rain falling is 409 `no_rain`."""
    data = tmp_path / "ledger"
    srv = rain_server(start_server, "--data", str(data))
    room = unique_room("stop")
    assert stop_rain(srv, room).json()["error"] == "no_rain"
    player = connect_player(srv, room)
    rain = start_rain(srv, room, duration=30, winners=120, pool=1200, minCoins=10, maxCoins=10, seed=31)
    wait_phase(player, "raining", COUNTDOWN + 3)
    play([player], time.monotonic() + 3)
    assert stop_rain(srv, room, token="wrong-token-0123456789").status == 401
    stopped = stop_rain(srv, room)
    assert stopped.status == 200, stopped.body
    answer = stopped.json()
    assert (answer["rain"], answer["room"], answer["status"]) == (rain["rain"], room, "interrupted")
    assert rain["startsAt"] < answer["stoppedAt"] < rain["endsAt"]
    results = wait_phase(player, "results", 2)
    heard = events(player, "award")   # all of them: they came before the results on this socket
    assert heard, "no award before the stop"
    assert results["stoppedAt"] == answer["stoppedAt"] and abs(results["endsAt"] - rain["endsAt"]) < 1e-6
    assert results["claimed"] == answer["claimed"] == len(heard)
    assert results["awarded"] == answer["awarded"] == 10 * len(heard)
    assert stop_rain(srv, room).status == 409   # already in its results
    player.tap(200, 300, tap_id=99)
    assert player.wait_event("tap", lambda m: m["data"].get("id") == 99, 3)["data"]["result"] == "closed"
    document = rain_document(srv, rain["rain"])
    assert document["status"] == "interrupted" and document["endedAt"]
    assert sorted(a["packet"] for a in document["awards"]) == sorted(e["data"]["packet"] for e in heard)
    player.close()
    result = replay(data, rain["rain"])
    assert result.returncode == 0 and "interrupted" in result.stdout, result.stdout + result.stderr


def test_taps_outside_a_rain_and_on_nothing_are_answered(start_server):
    srv = rain_server(start_server)
    room = unique_room("answers")
    with connect_player(srv, room) as player:
        player.tap(200, 300, tap_id=1)
        assert player.wait_event("tap", lambda m: m["data"].get("id") == 1, 3)["data"]["result"] == "closed"
        start_rain(srv, room, duration=3, winners=2, pool=20, seed=1)
        wait_phase(player, "raining", COUNTDOWN + 3)
        player.tap(-50, -50, tap_id=2)
        assert player.wait_event("tap", lambda m: m["data"].get("id") == 2, 3)["data"]["result"] == "miss"
        # Per-player rate limit, over all of a player's connections.
        twin = connect_player(srv, room, player=player.welcome["player"]["secret"])
        mark = player.mark()
        for i in range(30):
            (player if i % 2 else twin).tap(-50, -50)
        wait_until(lambda: len(player.messages_of("error", mark)) + len(twin.messages_of("error")) >= 10, 3,
                   "rate_limited errors")
        codes = {m["code"] for m in player.messages_of("error", mark) + twin.messages_of("error")}
        assert codes == {"rate_limited"}, codes
        twin.close()


def test_a_scheduled_room_tells_when_the_next_rain_falls(start_server):
    srv = start_server("--rain-every", "3", "--rain-duration", "1", "--rain-winners", "2", "--rain-pool", "20",
                       "--rain-results", "1", "--player-id-secret", PLAYER_ID_SECRET)
    room = unique_room("next")
    with connect_player(srv, room) as player:
        # Right after the welcome: the room, made by this join at its media time 0, idles 3 s.
        first = player.messages_of("event")[0]
        assert first["name"] == "rain" and first["by"] == player.welcome["client"], first
        assert first["data"]["phase"] == "idle" and "rain" not in first["data"]
        assert first["data"]["nextAt"] == pytest.approx(3.0, abs=0.1)
        countdown = wait_phase(player, "countdown", 5)
        assert countdown["countdownAt"] == pytest.approx(first["data"]["nextAt"], abs=0.1)
        # Once the results are over (1 s after the end), the room hears when the next rain falls.
        after = player.wait_event("rain", lambda m: m["data"].get("nextAt", 0) > first["data"]["nextAt"], 10)
        assert after["data"]["phase"] == "idle" and "by" not in after
        assert after["data"]["nextAt"] == pytest.approx(countdown["endsAt"] + 1 + 3, abs=0.1)
