"""A ledger is served by one process started alone, or by the nodes of one cluster, never by
both (operations.md, "Several nodes on one ledger"). A process started alone ends at start the
rains it finds running, so a second one would end the first's live rain: each process claims
the ledger at start, and a claim the others exclude stops `serve` with exit 2 and what to do,
changing nothing."""

from __future__ import annotations

import subprocess

from cluster import PLAYER_ID_SECRET, require_cluster_mode
from conftest import BINARY, REPO
from layercast_client import LayercastClient
from test_rain import ADMIN, rain_document, rain_server, start_rain


def refused_serve(*flags: str) -> str:
    """Runs `layercast serve` with `flags`, which must be refused at start; returns its stderr."""
    result = subprocess.run([str(BINARY), "serve", "--port", "0", "--player-id-secret", PLAYER_ID_SECRET, *flags],
                            cwd=REPO, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, f"serve exited {result.returncode}: {result.stdout[-400:]} {result.stderr[-400:]}"
    assert "serving http" not in result.stdout, result.stdout
    return result.stderr


def test_a_second_server_alone_on_a_ledger_is_refused_and_ends_no_rain(start_server, room):
    first = rain_server(start_server)
    rain = start_rain(first, room, duration=30)["rain"]
    said = refused_serve("--data", str(first.data_dir))
    assert "another process serves the ledger" in said and "layercast.lock" in said, said
    assert "stop the other process, or run every node with --cluster" in said, said
    assert rain_document(first, rain)["status"] == "running"
    # Once the first has stopped, the next server alone takes the ledger and, as always, records
    # the rain its predecessor left running as interrupted.
    first.stop()
    after = rain_server(start_server, "--data", str(first.data_dir))
    assert rain_document(after, rain)["status"] == "interrupted"


def test_a_server_alone_is_refused_on_a_cluster_ledger_and_a_node_on_its_ledger(
        start_cluster, cluster_ledger, redis_server, start_server, room):
    require_cluster_mode()
    cluster = start_cluster(2, "--admin-token", ADMIN, "--rain-every", "0")
    spectator = LayercastClient.connect(cluster.nodes[0].base_url, scene="rain", room=room, role="spectator")
    spectator.wait_welcome(5)
    origin = cluster.origin(room)
    rain = start_rain(origin, room, duration=30)["rain"]
    said = refused_serve(*cluster_ledger)
    assert "another process serves the ledger" in said and "run every node with --cluster" in said, said
    assert rain_document(origin, rain)["status"] == "running"
    assert len(cluster.alive()) == 2
    spectator.close()

    alone = start_server()
    said = refused_serve("--cluster", redis_server.url, "--node-id", "node-9", "--data", str(alone.data_dir))
    assert "serves the ledger" in said and "as its sole writer" in said, said
    assert "restart it with --cluster, before starting cluster nodes on its ledger" in said, said
