"""The key of public player ids (issue 29, item 5): without `--player-id-secret`, a key made once
is kept in the ledger and read by every node on it; a `player-id.key` file from before is taken
into the ledger, and one that disagrees with the ledger's stops serve; a cluster node whose key
differs from a live node's refuses to start, naming the fix."""

from __future__ import annotations

import sqlite3
import subprocess

from cluster import PLAYER_ID_SECRET
from conftest import BINARY, REPO, _require_binary, http_get, psql, wait_until

HEX = set("0123456789abcdef")


def serve(*flags: str) -> subprocess.CompletedProcess:
    """`layercast serve` that is expected to stop at start (a server that runs is killed after 20 s)."""
    _require_binary()
    return subprocess.run([str(BINARY), "serve", "--host", "127.0.0.1", "--port", "0", "--public", str(REPO / "public"), *flags],
                          capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL)


def kept_in_sqlite(data) -> list[tuple[str, str]]:
    with sqlite3.connect(data / "layercast.sqlite") as db:
        return db.execute("SELECT name, value FROM secrets").fetchall()


def test_a_new_key_is_kept_in_the_ledger_and_survives_a_restart(start_server, tmp_path):
    data = tmp_path / "data"
    server = start_server("--data", str(data))
    assert http_get(server.base_url, "/healthz").status == 200
    [(name, key)] = kept_in_sqlite(data)
    assert name == "player-id" and len(key) == 64 and set(key) <= HEX, key
    assert not (data / "player-id.key").exists()
    server.stop()
    again = start_server("--data", str(data))
    assert http_get(again.base_url, "/healthz").status == 200
    assert kept_in_sqlite(data) == [("player-id", key)]


def test_a_key_file_from_before_is_taken_into_the_ledger(start_server, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    old = "0123456789abcdef" * 4
    (data / "player-id.key").write_text(old + "\n")
    server = start_server("--data", str(data))
    assert http_get(server.base_url, "/healthz").status == 200
    assert kept_in_sqlite(data) == [("player-id", old)]


def test_nodes_with_their_own_data_share_the_postgres_ledgers_key(start_server, tmp_path, postgres):
    ledger = postgres.new_database()
    first = start_server("--data", str(tmp_path / "a"), "--ledger", ledger)
    assert http_get(first.base_url, "/healthz").status == 200
    [(key,)] = [tuple(row) for row in psql(ledger, "SELECT value FROM secrets WHERE name = 'player-id'")]
    first.stop()

    # A second node's data holds a key of its own from before: it would give players other ids.
    other = tmp_path / "b"
    other.mkdir()
    (other / "player-id.key").write_text("fedcba9876543210" * 4 + "\n")
    refused = serve("--data", str(other), "--ledger", ledger)
    assert refused.returncode == 2, refused
    assert f"{other / 'player-id.key'} holds a key of public player ids that differs from the one the ledger" in refused.stderr
    assert f"remove {other / 'player-id.key'} to take the ledger's key" in refused.stderr

    (other / "player-id.key").unlink()
    second = start_server("--data", str(other), "--ledger", ledger)
    assert http_get(second.base_url, "/healthz").status == 200
    assert psql(ledger, "SELECT value FROM secrets") == [[key]]


def test_a_cluster_node_with_another_key_refuses_to_start(start_cluster, redis_server, cluster_ledger):
    cluster = start_cluster(1)
    wait_until(lambda: "node-1" in redis_server.command("HKEYS", "layercast:nodes"), 10, "node-1's report in layercast:nodes")
    refused = serve("--cluster", redis_server.url, "--node-id", "node-2", "--player-id-secret", "another-secret-0123456789",
                    *cluster_ledger)
    assert refused.returncode == 2, refused
    assert "node node-1 of the cluster has another key of public player ids" in refused.stderr, refused.stderr
    assert "start this node with the cluster's --player-id-secret" in refused.stderr
    assert PLAYER_ID_SECRET not in refused.stderr and "another-secret-0123456789" not in refused.stderr
    assert len(cluster.alive()) == 1
