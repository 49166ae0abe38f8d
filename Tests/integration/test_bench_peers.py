"""The C tools of the peers bench (bench/peers.py): `bench/spectators.c` reads frames from the real
`layercast serve` and from `bench/floor.c`, with and without `--deflate` (permessage-deflate,
docs/protocol.md "Compression"), also when a compressed message arrives in pieces, and the floor's
handshake and frames are what a standard client expects. Both are built with `cc -O2` (spectators
with zlib); every run is 2 s of a few clients on 127.0.0.1 (about 25 s in all).
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import zlib
from pathlib import Path

import pytest
import websocket

from conftest import REPO, metric, unique_room

CC = shutil.which("cc") or shutil.which("clang")


@pytest.fixture(scope="module")
def tools() -> Path:
    if CC is None:
        pytest.skip("no C compiler (cc or clang) to build bench/floor.c and bench/spectators.c")
    out = Path(tempfile.mkdtemp(prefix="layercast-bench-tools-"))
    for name, libraries in (("floor", []), ("spectators", ["-lz"])):
        subprocess.run([CC, "-O2", "-Wall", "-Werror", "-o", str(out / name), str(REPO / "bench" / f"{name}.c"),
                        *libraries], check=True, timeout=60)
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


def spectators(tools: Path, url: str, clients: int, server_pid: int | None = None, *flags: str) -> dict:
    cmd = [str(tools / "spectators"), "--url", url, "--clients", str(clients), "--seconds", "2", *flags]
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


def test_spectators_inflate_our_deflated_frames(server, tools):
    room = unique_room("peers")
    before = metric(server.base_url, "layercast_messages_deflated_total")
    report = spectators(tools, f"ws://127.0.0.1:{server.port}/ws?scene=radar&room={room}&role=spectator", 20,
                        server.proc.pid, "--deflate")
    # no_deflate, inflate, rsv1_without_deflate or bad_prefix would be errors
    assert report["open"] == 20 and report["errors"] == {}, report
    assert 20 * 2 * 20 <= report["frames"] <= 20 * 2.2 * 31, report
    assert report["skipRatio"] < 0.2 and 0 < report["ageP50Ms"] <= report["ageP99Ms"] < 1000, report
    assert metric(server.base_url, "layercast_messages_deflated_total") > before


def test_spectators_deflate_without_the_extension_reads_plain_frames(floor, tools):
    port = floor(475)  # the floor answers no extension
    report = spectators(tools, f"ws://127.0.0.1:{port}/ws", 10, None, "--deflate")
    assert report["open"] == 10 and report["errors"] == {"no_deflate": 10}, report
    assert 10 * 2 * 20 <= report["frames"] <= 10 * 2.2 * 31, report


def test_spectators_inflate_a_compressed_message_that_arrives_in_pieces(tools):
    """One client of a server written here that takes permessage-deflate and sends each compressed
    frame (about 3 KB: the prefix needs more than the first read) in three writes: the first
    byte, the rest of the header and 5 payload bytes, then the rest."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(10)
    port = listener.getsockname()[1]
    sent = []

    def serve() -> None:
        conn, _ = listener.accept()
        with conn:
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conn.settimeout(5)
            request = b""
            while b"\r\n\r\n" not in request and len(request) < 4096:
                request += conn.recv(4096)
            key = next(line.split(b":", 1)[1].strip() for line in request.split(b"\r\n")
                       if line.lower().startswith(b"sec-websocket-key:"))
            accept = base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
            conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         b"Sec-WebSocket-Accept: " + accept + b"\r\nSec-WebSocket-Protocol: layercast.v1\r\n"
                         b"Sec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover; "
                         b"client_no_context_takeover\r\n\r\n")
            start = time.monotonic()
            for n in range(1, 200):  # about 6 s at 30 a second, or until the client has gone
                pad = random.Random(n).randbytes(1280).hex()  # 2,560 bytes that compress to about 1,400
                text = json.dumps({"type": "frame", "n": n, "t": time.monotonic() - start, "full": False,
                                   "pad": pad}, separators=(",", ":")).encode()
                deflater = zlib.compressobj(6, zlib.DEFLATED, -15)
                payload = (deflater.compress(text) + deflater.flush(zlib.Z_SYNC_FLUSH))[:-4]
                header = bytes([0xC1, 126]) + len(payload).to_bytes(2, "big")
                frame = header + payload
                try:
                    for piece in (frame[:1], frame[1:len(header) + 5], frame[len(header) + 5:]):
                        conn.sendall(piece)
                        time.sleep(0.003)
                except OSError:
                    return
                sent.append(len(payload))
                time.sleep(1 / 30)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        report = spectators(tools, f"ws://127.0.0.1:{port}/ws", 1, None, "--deflate")
    finally:
        thread.join(timeout=15)
        listener.close()
    assert sent and min(sent) > 1000, sent
    assert report["open"] == 1 and report["errors"] == {}, report
    assert 2 * 20 <= report["frames"] <= 2.2 * 31 and report["skipped"] == 0, report
