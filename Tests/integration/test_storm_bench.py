"""The reconnect-storm bench (bench/storm.py, issue 29) at CI size: real redis-server, three real
nodes on one ledger and Debian's nginx, 600 spectators and 12 aiming tappers of `layercast
loadtest --scenario` through nginx, one node SIGKILLed mid-rain and restarted on its port. Asserts
the bench's summary and exactly-once, not times (the times are the bench's to report): every
client of the killed node was dropped and reconnected, the surviving nodes' probes and CPU were
measured, and the ledger's awards are the ones announced, each paid once. 127.0.0.1 only; each run
is bounded (about 35 s)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import BINARY, REPO, _require_binary
from cluster import require_cluster_mode

SPECTATORS, PLAYERS, RETURNERS = 600, 12, 12


def run_storm(tmp_path, victim: str) -> dict:
    _require_binary()
    require_cluster_mode()
    out = tmp_path / "storm"
    summary = tmp_path / "summary.json"
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "storm.py"), "--spectators", str(SPECTATORS), "--players", str(PLAYERS),
         "--ramp", "300", "--before", "3", "--down", "5", "--tail", "5", "--victim", victim,
         "--returners", str(RETURNERS), "--out", str(out),
         "--summary", str(summary)],
        cwd=REPO, env={**os.environ, "LAYERCAST_BIN": str(BINARY)}, capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "| dropped" in result.stdout and "| rain status" in result.stdout, result.stdout
    figures = json.loads(summary.read_text())
    figures["html"] = (out / "report.html").read_text()
    figures["report"] = json.loads((out / "report.json").read_text())
    return figures


@pytest.mark.parametrize("victim", ["relay", "origin"])
def test_a_killed_node_s_clients_reconnect_and_every_award_is_paid_once(tmp_path, victim):
    figures = run_storm(tmp_path, victim)
    assert figures["clients"] == {"spectators": SPECTATORS, "players": PLAYERS, "probes": 9 + RETURNERS, "ramp": 300, "fps": 30,
                                  "workers": 1, "pings": 0, "deflate": False, "proxyCPU": 0,
                                  "seconds": figures["clients"]["seconds"]}
    # as the page, the loader's clients send no ping
    behaviours = {name: p["behaviour"] for name, p in figures["report"]["populations"].items()}
    assert behaviours == {"spectators": "spectate, reconnect, no pings",
                          "tappers": "tap 2/s aim, reconnect, no pings"}, behaviours
    [kill] = figures["kills"]
    assert (kill["victim"] == kill["origin"]) == (victim == "origin")
    survivors = {f"node-{i}" for i in (1, 2, 3)} - {kill["victim"]}

    # The killed node's clients (round-robin: about a third) were dropped, seen by the loader as
    # closed by the server, and came back through nginx (how many within the run is the bench's
    # figure; a loaded machine may leave a few still waiting out a backoff).
    loader = kill["loader"]
    assert kill["probesOnVictim"] == 3 + RETURNERS
    assert 0 < kill["loaderDropped"] < SPECTATORS + PLAYERS
    assert 0 < loader["reconnected"] <= loader["closedEarly"]
    assert sum(p["timeMs"]["count"] for p in loader["byPopulation"].values()) == loader["reconnected"]
    returners = kill["returners"]
    assert returners["probes"] == returners["dropped"] == 3 + RETURNERS
    assert 0 < returners["back"] <= returners["dropped"]
    assert returners["maxMs"] >= returners["p99Ms"] >= returners["p95Ms"] >= returners["p50Ms"] > 0
    assert set(figures["loader"]["errors"]) <= {"closed_by_server", "connect_failed"}
    assert figures["loader"]["errors"]["closed_by_server"] == loader["closedEarly"]
    assert figures["loader"]["exit"] in (0, 1)  # 1: a reconnect threshold of 2 s breached on a busy machine

    # The surviving nodes' probes got frames on both sides of the kill; CPU was sampled.
    for side in ("beforeKill", "afterKill"):
        gaps = kill["survivorGaps"][side]
        assert gaps["probes"] == 6 and gaps["frames"] > 0 and gaps["maxMs"] >= gaps["p99Ms"] > 0
    assert set(kill["clientsOnSurvivors"]) == survivors
    assert set(kill["cpuPercent"]["each"]) == survivors | {"nginx", "redis"}
    assert all(any(v is not None for v in kill["cpuPercent"]["each"][name]) for name in survivors)

    # Exactly once: the ledger pays each packet once; every award the surviving probes heard is
    # a ledger row with the same player and coins; the replay of the rain agrees with the ledger.
    awards = figures["awards"]
    assert awards["status"] == "finished"
    assert awards["ledgerRows"] > 0
    assert awards["paidTwice"] == 0
    assert awards["heardNotInLedger"] == 0 and awards["heardOtherwise"] == 0
    assert awards["toldToTappers"] <= awards["ledgerRows"]
    assert awards["replayExit"] == 0
    if victim == "relay":  # the origin lived: every committed award was announced to the survivors
        assert awards["ledgerNotHeard"] == 0
        assert awards["heardBySurvivors"] == awards["ledgerRows"]

    # The kill and the restart are marked on the loader's page.
    assert f'data-name="kill {kill["victim"]}"' in figures["html"]
    assert f'data-name="restart {kill["victim"]}"' in figures["html"]
