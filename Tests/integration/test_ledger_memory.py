"""`--ledger memory:` (operations.md, "A ledger in memory"): rains and awards in the server's
memory, for tests and demos, lost when it stops; refused where another process would read it."""

from __future__ import annotations

import subprocess

import pytest

from conftest import BINARY, REPO, http_get
from test_rain import rain_document, rain_server, start_rain


def test_a_memory_ledger_keeps_rains_until_the_server_stops(start_server, room):
    first = rain_server(start_server, "--ledger", "memory:")
    rain = start_rain(first, room, duration=30)["rain"]
    assert rain_document(first, rain)["status"] == "running"
    assert first.stop() == 0
    assert not (first.data_dir / "layercast.sqlite").exists()

    after = rain_server(start_server, "--ledger", "memory:", "--data", str(first.data_dir))
    assert http_get(after.base_url, f"/api/rains/{rain}").status == 404


@pytest.mark.parametrize("command", [
    ["ledger", "check"], ["ledger", "backup", "/nonexistent/copy.sqlite"], ["replay", "--all"],
    ["serve", "--port", "0", "--cluster", "redis://127.0.0.1:1"],
], ids=["check", "backup", "replay", "cluster"])
def test_no_other_process_can_use_a_memory_ledger(command):
    result = subprocess.run([str(BINARY), *command, "--ledger", "memory:"], cwd=REPO, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 64, f"{result.returncode}: {result.stdout[-400:]} {result.stderr[-400:]}"
    assert "--ledger" in result.stderr and "memory ledger" in result.stderr, result.stderr
