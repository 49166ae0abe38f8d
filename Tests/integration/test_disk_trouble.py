"""Disk trouble (issue 14): a data directory the ledger cannot use — read-only, or full — is
refused at start with a clear message and a non-zero exit; a disk that fills during a rain makes
the claims that cannot be recorded `ledger_unavailable` with no award, keeps every award
confirmed before, and the frames go on. Each directory is a small tmpfs mounted for the test
(root only; skipped where mounting is not allowed). A corrupt ledger file is issue 18's start
check."""

from __future__ import annotations

import os
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest

from conftest import BINARY, REPO, _require_binary


@contextmanager
def tmpfs(path: Path, options: str):
    path.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)], capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def serve(data: Path) -> subprocess.CompletedProcess:
    """`layercast serve` on a free port with `--data data`, expected to exit at once."""
    _require_binary()
    return subprocess.run([str(BINARY), "serve", "--host", "127.0.0.1", "--port", "0", "--public", str(REPO / "public"),
                           "--data", str(data)], capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL)


pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")


def test_read_only_data_directory_is_refused_at_start(tmp_path):
    with tmpfs(tmp_path / "ro", "ro,size=1m") as data:
        run = serve(data)
    assert run.returncode != 0 and "serving" not in run.stdout, run
    assert "ledger" in run.stderr and str(data) in run.stderr, run.stderr
    assert "read-only" in run.stderr.lower() or "readonly" in run.stderr.lower() or "unable to open" in run.stderr, run.stderr


def test_full_data_directory_is_refused_at_start(tmp_path):
    with tmpfs(tmp_path / "full", "size=64k") as data:
        fill(data)
        run = serve(data)
    assert run.returncode != 0 and "serving" not in run.stdout, run
    assert "ledger" in run.stderr and str(data) in run.stderr, run.stderr


def fill(folder: Path) -> None:
    """Writes a filler file into `folder` until the file system is full."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        while os.write(fd, b"\0" * 4096) > 0:
            pass
    except OSError:
        pass   # ENOSPC: full
    finally:
        os.close(fd)


def test_disk_filling_during_a_rain_refuses_the_tap_keeps_awards_and_streams(start_server, tmp_path):
    """Awards are made; the disk fills; the next claims are refused with `ledger_unavailable` and
    award nothing; the awards confirmed before stay in the ledger; frames go on."""
    from test_rain import awards_heard, connect_player, play, rain_server, start_rain, wait_phase
    from layercast_client import LayercastClient
    from conftest import http_get
    import time

    with tmpfs(tmp_path / "data", "size=4m") as data:
        srv = rain_server(start_server, "--data", str(data))
        room = "diskfull"
        players = [connect_player(srv, room) for _ in range(3)]
        watcher = LayercastClient.connect(srv.base_url, scene="rain", room=room, role="spectator")
        try:
            start_rain(srv, room, duration=30, pool=400, winners=40, maxCoins=88, minCoins=1, seed=7)
            wait_phase(players[0], "raining", 10)
            play(players, until=time.monotonic() + 4)
            time.sleep(0.5)   # the last answers arrive
            before = awards_heard(players)
            assert before, "no award before the disk filled"
            fill(data)
            last_frame = watcher.latest().n
            play(players, until=time.monotonic() + 6)
            time.sleep(0.5)
            refused = sum(1 for p in players for e in p.messages_of("error") if e.get("code") == "ledger_unavailable")
            after = awards_heard(players)
            print(f"awards before the disk filled {len(before)}, after {len(after) - len(before)}; refused taps {refused}")
            assert refused > 0, "no tap was refused once the disk was full"
            assert after == before, "awards were announced with a full disk"
            assert watcher.latest().n > last_frame + 100, "frames stopped with a full disk"
            won: dict[str, list[dict]] = {}
            for award in before.values():
                won.setdefault(award["player"], []).append(award)
            for player, awards in won.items():
                document = http_get(srv.base_url, f"/api/players/{player}").json()
                assert document["coins"] == sum(a["coins"] for a in awards), document
                assert document["packets"] == len(awards), document
        finally:
            for client in players + [watcher]:
                client.close()
            srv.stop()
