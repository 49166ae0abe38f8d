"""The C tools of the peers bench (bench/peers.py): `bench/spectators.c` reads frames from the real
`layercast serve` and from `bench/floor.c`, and the floor's handshake and frames are what a
standard client expects. Both are built with `cc -O2`; every run is 2 s of a few clients on
127.0.0.1 (about 15 s in all).
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
import websocket

from conftest import REPO, unique_room

CC = shutil.which("cc") or shutil.which("clang")


@pytest.fixture(scope="module")
def tools() -> Path:
    if CC is None:
        pytest.skip("no C compiler (cc or clang) to build bench/floor.c and bench/spectators.c")
    out = Path(tempfile.mkdtemp(prefix="layercast-bench-tools-"))
    for name in ("floor", "spectators"):
        subprocess.run([CC, "-O2", "-Wall", "-Werror", "-o", str(out / name), str(REPO / "bench" / f"{name}.c")],
                       check=True, timeout=60)
    yield out
    shutil.rmtree(out, ignore_errors=True)


@pytest.fixture
def floor(tools):
    """start(bytes) -> port of a running floor sending `bytes`-byte frames; stopped after the test."""
    started = []

    def start(size: int) -> int:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        proc = subprocess.Popen([str(tools / "floor"), str(port), str(size)], stderr=subprocess.DEVNULL)
        started.append(proc)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                return port
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("floor did not listen within 5 s")

    yield start
    for proc in started:
        proc.terminate()
        proc.wait(timeout=5)


def spectators(tools: Path, url: str, clients: int, server_pid: int | None = None) -> dict:
    cmd = [str(tools / "spectators"), "--url", url, "--clients", str(clients), "--seconds", "2"]
    if server_pid is not None:
        cmd += ["--server-pid", str(server_pid)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_spectators_count_our_servers_frames(server, tools):
    room = unique_room("peers")
    report = spectators(tools, f"ws://127.0.0.1:{server.port}/ws?scene=radar&room={room}&role=spectator", 20,
                        server.proc.pid)
    assert report["open"] == 20 and report["errors"] == {}, report  # out_of_order would be an error
    # 20 clients for about 2 s at 30 fps: about 1,200 frames; a loaded test machine may drop some.
    assert 20 * 2 * 20 <= report["frames"] <= 20 * 2.2 * 31, report
    assert report["skipRatio"] < 0.2 and 0 < report["ageP50Ms"] <= report["ageP99Ms"] < 1000, report
    # Each client's first full frame came before the measured window; another follows a skip.
    assert report["fulls"] <= report["skipped"], report
    assert report["serverCpuUsPerClientFrame"] > 0 and report["serverPeakRssMiB"] > 1, report


def test_floor_speaks_websocket_with_numbered_frames(floor):
    port = floor(475)
    ws = websocket.create_connection(f"ws://127.0.0.1:{port}/ws", subprotocols=["layercast.v1"], timeout=5)
    try:  # websocket-client checks Sec-WebSocket-Accept
        assert ws.getsubprotocol() == "layercast.v1"
        frames = [ws.recv() for _ in range(5)]
    finally:
        ws.close()
    assert all(isinstance(f, str) and len(f.encode()) == 475 for f in frames)
    decoded = [json.loads(f) for f in frames]
    assert all(d["type"] == "frame" and d["full"] is False for d in decoded)
    numbers = [d["n"] for d in decoded]
    assert all(b > a for a, b in zip(numbers, numbers[1:])), numbers
    assert all(b >= a for a, b in zip([d["t"] for d in decoded], [d["t"] for d in decoded][1:]))


@pytest.mark.parametrize("size", [475, 60000])
def test_spectators_read_the_floor_whole_and_split(floor, tools, size):
    port = floor(size)
    clients = 50 if size < 1000 else 5  # 60,000-byte frames arrive split over several reads
    report = spectators(tools, f"ws://127.0.0.1:{port}/ws", clients)
    assert report["open"] == clients and report["errors"] == {}, report
    assert clients * 2 * 20 <= report["frames"] <= clients * 2.2 * 31, report
    assert report["skipRatio"] < 0.2 and report["ageP99Ms"] < 1000, report
