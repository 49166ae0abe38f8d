"""`serve --data DIR` (issue 29, item 5): a directory that does not exist is made with its
parents whatever the ledger (SQLite, memory:, PostgreSQL); the key of public player ids is kept
in the ledger, not in it (test_player_id_key.py); one that cannot be made stops serve with exit 2, naming the directory, the part that failed
and why."""

from __future__ import annotations

import subprocess

import pytest

from conftest import BINARY, REPO, _require_binary, http_get


@pytest.mark.parametrize("ledger", [[], ["--ledger", "memory:"]], ids=["sqlite", "memory"])
def test_a_missing_nested_data_directory_is_made(start_server, tmp_path, ledger):
    data = tmp_path / "new" / "nested" / "data"
    server = start_server("--data", str(data), *ledger)
    assert http_get(server.base_url, "/healthz").status == 200
    assert data.is_dir()
    assert not (data / "player-id.key").exists()
    assert (data / "layercast.sqlite").exists() == (not ledger)


def test_a_missing_data_directory_is_made_with_a_postgres_ledger(start_server, tmp_path, postgres):
    data = tmp_path / "pg" / "data"
    server = start_server("--data", str(data), "--ledger", postgres.new_database())
    assert http_get(server.base_url, "/healthz").status == 200
    assert data.is_dir()
    assert not (data / "player-id.key").exists()
    assert not (data / "layercast.sqlite").exists()


@pytest.mark.parametrize("ledger", [[], ["--ledger", "memory:"]], ids=["sqlite", "memory"])
def test_a_data_directory_that_cannot_be_made_stops_serve_with_the_reason(tmp_path, ledger):
    _require_binary()
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory\n")
    data = blocker / "sub" / "data"
    run = subprocess.run([str(BINARY), "serve", "--host", "127.0.0.1", "--port", "0", "--public", str(REPO / "public"),
                          "--data", str(data), *ledger], capture_output=True, text=True, timeout=20,
                         stdin=subprocess.DEVNULL)
    assert run.returncode == 2, run
    assert f"cannot create the data directory {data} (--data): {blocker}: it exists and is not a directory" in run.stderr, run.stderr
    assert "player id key" not in run.stderr
