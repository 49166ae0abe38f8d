"""`layercast serve --ledger postgres://…` (docs/operations.md, "The ledger in PostgreSQL"): a rain
played against a real PostgreSQL server. Every award a client was told of is exactly one row of
the database, the rain ends `finished` there, and `layercast replay --ledger` and `layercast
ledger check --ledger` read the same rows.
"""

from __future__ import annotations

import subprocess
import time

from conftest import BINARY, REPO, http_get, psql, unique_room
from layercast_client import LayercastClient
from test_rain import COUNTDOWN, awards_heard, connect_player, play, rain_document, rain_server, start_rain, wait_phase


def layercast(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BINARY), *args], cwd=REPO, capture_output=True, text=True, timeout=60)


def test_a_rain_on_postgres_tells_exactly_the_rows_it_commits(start_server, postgres):
    url = postgres.new_database()
    srv = rain_server(start_server, "--ledger", url)
    room = unique_room("pg")
    players = [connect_player(srv, room) for _ in range(8)]
    spectator = LayercastClient.connect(srv.base_url, scene="rain", room=room, role="spectator")
    spectator.wait_welcome(5)
    rain = start_rain(srv, room, duration=5, pool=400, winners=16, minCoins=5, maxCoins=60, seed=4242)
    wait_phase(players[0], "raining", COUNTDOWN + 3)
    play(players, time.monotonic() + 5.0)
    for client in players + [spectator]:
        wait_phase(client, "results", 6)
    heard = awards_heard(players + [spectator])
    assert heard, "eight aiming players won no packet"

    rows = psql(url, "SELECT round, item, player, coins FROM awards ORDER BY id")
    stored = {(int(r[0]), int(r[1])): (r[2], int(r[3])) for r in rows}
    assert len(stored) == len(rows), "a packet was awarded twice"
    assert set(heard) == set(stored), (f"heard but not in PostgreSQL: {set(heard) - set(stored)}; "
                                       f"in PostgreSQL but not heard: {set(stored) - set(heard)}")
    for key, event in heard.items():
        assert (event["player"], event["coins"]) == stored[key]
    assert psql(url, f"SELECT status, ended_at IS NOT NULL FROM rounds WHERE id = {rain['rain']}") == [["finished", "t"]]
    assert psql(url, "SELECT version FROM layercast_schema ORDER BY version") == [["1"], ["2"], ["3"], ["4"], ["5"]]
    plan = {int(packet): int(coins) for packet, coins in psql(url, f"SELECT item, coins FROM prizes WHERE round = {rain['rain']}")}
    assert sum(plan.values()) == 400 and len(plan) == 16

    # The HTTP API reads the same rows, and nothing went to SQLite under --data.
    document = rain_document(srv, rain["rain"])
    assert {(a["rain"], a["packet"]): (a["player"], a["coins"]) for a in document["awards"]} == stored
    assert {p["packet"]: p["coins"] for p in document["plan"]} == plan
    assert not (srv.data_dir / "layercast.sqlite").exists()
    totals: dict[str, int] = {}
    for player, coins in stored.values():
        totals[player] = totals.get(player, 0) + coins
    board = http_get(srv.base_url, f"/api/rooms/{room}/leaderboard?limit=100").json()["players"]
    assert {e["player"]: e["coins"] for e in board} == totals

    result = layercast("replay", str(rain["rain"]), "--ledger", url)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{len(stored)} awards, {sum(c for _, c in stored.values())} coins, replayed identically" in result.stdout
    check = layercast("ledger", "check", "--ledger", url)
    assert check.returncode == 0, check.stderr
    assert f"ok (schema version 5, 1 rains, {len(stored)} awards" in check.stdout
    for client in players + [spectator]:
        client.close()


def test_replay_reads_the_ledger_named_by_the_environment(start_server, postgres):
    url = postgres.new_database()
    srv = rain_server(start_server, "--ledger", url)
    room = unique_room("pgenv")
    player = connect_player(srv, room)
    rain = start_rain(srv, room, duration=1, pool=20, winners=2, seed=5)
    wait_phase(player, "results", COUNTDOWN + 6)
    result = subprocess.run([str(BINARY), "replay", str(rain["rain"])], cwd=REPO, capture_output=True, text=True,
                            timeout=60, env={"LAYERCAST_LEDGER": url, "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 awards" in result.stdout
    player.close()


def test_a_bad_or_unreachable_ledger_url_stops_serve_with_a_clear_error(tmp_path):
    bad = layercast("serve", "--port", "0", "--data", str(tmp_path), "--ledger", "mysql://u@127.0.0.1/db")
    assert bad.returncode != 0 and "--ledger: the ledger must be a URL postgres://USER@HOST:PORT/DB" in bad.stderr
    # Nothing listens on port 1 of loopback: the connection is refused at once.
    down = layercast("serve", "--port", "0", "--data", str(tmp_path), "--ledger", "postgres://u:pw@127.0.0.1:1/db")
    assert down.returncode != 0
    assert "cannot open the ledger in postgres://u:***@127.0.0.1:1/db: cannot connect:" in down.stderr, down.stderr
    assert "pw@" not in down.stderr
    backup = layercast("ledger", "backup", str(tmp_path / "copy"), "--ledger", "postgres://u@127.0.0.1:1/db")
    assert backup.returncode == 2 and "back it up with pg_dump" in backup.stderr
