#!/usr/bin/env python3
"""A protocol fuzzer at the socket: raw WebSocket connections to a running `layercast serve`
that send mutations of valid client messages and malformed frames (reserved opcodes, RSV bits,
fragmented and oversized control frames, lengths that lie, unmasked client frames, invalid
UTF-8, close codes out of range, bad handshakes), while a bystander spectator counts the frames
it gets. Bounded in time and in connections; loopback only; reproducible from `--seed`.

    python3 Tests/integration/socket_fuzzer.py --url http://127.0.0.1:8080/ --seconds 60

It asserts nothing about how each bad input is answered (close codes are issue 18's): only that
the bystander keeps its frame rate and that the server stays up. `run()` returns the figures;
the command line prints them and exits 1 when the bystander fell below `--min-fps` or the
server went down.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import random
import socket
import struct
import sys
import threading
import time
import urllib.parse
import urllib.request
from collections import Counter
from dataclasses import dataclass, field

import websocket  # pip package websocket-client

VALID = [
    {"type": "tap", "x": 207, "y": 368, "viewTime": 12.3, "id": 41},
    {"type": "drag", "phase": "began", "x": 10, "y": 20, "viewTime": 12.3},
    {"type": "drag", "phase": "moved", "x": 10, "y": 90, "viewTime": 12.4},
    {"type": "ping", "id": 5},
]
ODD_VALUES = [None, True, "", "x" * 300, -0.0, 1e308, -1e308, 2 ** 53 + 1, [], {}, [[[[[]]]]], "\u0000",
              "\ud7ff\ue000", 100000, 100000.0001, -100000]
CLOSE_CODES = [0, 1, 999, 1000, 1004, 1005, 1006, 1012, 1015, 1016, 2999, 3000, 4999, 5000, 65535]
SCENES = ["radar", "rain", "cubes", "snow", "book", "reveal"]


@dataclass
class Figures:
    seconds: float = 0.0
    connections: int = 0
    refused: int = 0
    sent: Counter = field(default_factory=Counter)
    bystander_frames: int = 0
    bystander_windows: list[float] = field(default_factory=list)
    bystander_error: str | None = None
    server_up: bool = True

    @property
    def min_fps(self) -> float:
        return min(self.bystander_windows) if self.bystander_windows else 0.0

    def summary(self) -> str:
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(self.sent.items()))
        return (f"{self.seconds:.0f} s, {self.connections} connections ({self.refused} refused at the handshake), "
                f"frames sent: {kinds}; bystander: {self.bystander_frames} frames, lowest {self.min_fps:.1f} fps "
                f"over {len(self.bystander_windows)} windows, error {self.bystander_error}; "
                f"server up: {self.server_up}")


def frame(opcode: int, payload: bytes, fin: bool = True, rsv: int = 0, mask: bool = True,
          length: int | None = None) -> bytes:
    """One WebSocket frame; `length` overrides the length field (a lie), `mask` False sends it
    unmasked, `rsv` sets the RSV1-3 bits (0-7)."""
    n = len(payload) if length is None else length
    head = bytes([(0x80 if fin else 0) | (rsv & 7) << 4 | (opcode & 0xF)])
    mask_bit = 0x80 if mask else 0
    if n < 126:
        head += bytes([mask_bit | n])
    elif n < 1 << 16:
        head += bytes([mask_bit | 126]) + struct.pack("!H", n)
    else:
        head += bytes([mask_bit | 127]) + struct.pack("!Q", n & (1 << 64) - 1)
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


class Mutator:
    """Makes fuzz inputs from a seeded generator."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def message(self) -> bytes:
        """A client message: valid, structurally mutated, or byte-mutated."""
        r = self.rng
        msg = dict(r.choice(VALID))
        choice = r.randrange(6)
        if choice == 0:
            return json.dumps(msg).encode()
        if choice == 1:
            key = r.choice(list(msg) + ["type", "x", "viewTime", "phase", "extra"])
            msg[key] = r.choice(ODD_VALUES + ["tap", "drag", "ping", "began", "ended"])
            return json.dumps(msg, allow_nan=True).encode()
        if choice == 2:
            return r.choice([b"NaN", b'{"type":"tap","x":NaN,"y":1,"viewTime":1}', b'{"type":"tap","x":1e400}',
                             b"[" * 5000, b'{"a":' * 2000, b'{"type":"ping","type":"tap"}', b"", b" ",
                             b'{"type":"ping"}' + b" " * 4090, b"\xff\xfe", b'{"type":"\xed\xa0\x80"}'])
        data = bytearray(json.dumps(msg).encode())
        for _ in range(r.randint(1, 8)):
            op = r.randrange(3)
            pos = r.randrange(len(data) + 1)
            if op == 0 and data:
                data[min(pos, len(data) - 1)] = r.randrange(256)
            elif op == 1:
                data[pos:pos] = bytes(r.randrange(256) for _ in range(r.randint(1, 4)))
            elif data:
                del data[pos:pos + r.randint(1, 4)]
        return bytes(data)

    def frames(self) -> tuple[str, bytes]:
        """(kind, bytes): one or more frames, well-formed or not."""
        r = self.rng
        kind = r.choice(["text", "text", "text", "binary", "opcode", "rsv", "fragmented", "control-fragmented",
                         "control-long", "length-lie", "unmasked", "bad-utf8", "close", "ping", "pong",
                         "continuation", "oversize", "huge-length"])
        m = self.message()
        if kind == "text":
            return kind, frame(0x1, m)
        if kind == "binary":
            return kind, frame(0x2, m)
        if kind == "opcode":
            return kind, frame(r.choice([3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF]), m[:100])
        if kind == "rsv":
            return kind, frame(r.choice([0x1, 0x9]), m[:100], rsv=r.randint(1, 7))
        if kind == "fragmented":
            cut = r.randint(0, len(m))
            return kind, frame(0x1, m[:cut], fin=False) + frame(0x0, m[cut:])
        if kind == "control-fragmented":
            return kind, frame(r.choice([0x8, 0x9, 0xA]), b"ab", fin=False) + frame(0x0, b"cd")
        if kind == "control-long":
            return kind, frame(r.choice([0x9, 0xA]), os.urandom(r.randint(126, 300)))
        if kind == "length-lie":
            return kind, frame(0x1, m, length=max(0, len(m) + r.choice([-5, -1, 1, 50, 5000])))
        if kind == "unmasked":
            return kind, frame(r.choice([0x1, 0x9, 0x8]), m[:100], mask=False)
        if kind == "bad-utf8":
            return kind, frame(0x1, b'{"type":"ping","id":1,"x":"' + r.choice([b"\xc3\x28", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\xff"]) + b'"}')
        if kind == "close":
            code = r.choice(CLOSE_CODES)
            payload = r.choice([struct.pack("!H", code), struct.pack("!H", code) + b"\xff\xfe", b"\x03", b""])
            return kind, frame(0x8, payload)
        if kind == "ping":
            return kind, frame(0x9, os.urandom(r.randint(0, 125)))
        if kind == "pong":
            return kind, frame(0xA, os.urandom(r.randint(0, 125)))
        if kind == "continuation":
            return kind, frame(0x0, m)
        if kind == "oversize":
            return kind, frame(0x1, b'{"type":"ping","pad":"' + b"x" * r.randint(4100, 20000) + b'"}')
        return kind, frame(0x1, b"", length=r.choice([1 << 31, 1 << 40, (1 << 63) + 5]))


def handshake(port: int, path: str, rng: random.Random, timeout: float) -> tuple[socket.socket, bool]:
    """A raw handshake, now and then a malformed one; returns the socket and whether it upgraded."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Upgrade: websocket", "Connection: Upgrade",
             f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Protocol: layercast.v1"]
    if rng.random() < 0.1:
        broken = rng.randrange(len(lines) - 1) + 1
        lines[broken] = rng.choice(["Sec-WebSocket-Version: 99", "Sec-WebSocket-Key: short", "Upgrade: h2c",
                                    "Sec-WebSocket-Protocol: other", "X: " + "y" * 9000, ""])
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
    head = b""
    deadline = time.monotonic() + timeout
    while b"\r\n\r\n" not in head and time.monotonic() < deadline and len(head) < 65536:
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    return sock, head.startswith(b"HTTP/1.1 101")


def drain(sock: socket.socket, seconds: float) -> None:
    """Reads whatever the server sends for up to `seconds` (until it closes)."""
    sock.settimeout(0.05)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if not sock.recv(65536):
                return
        except socket.timeout:
            continue
        except OSError:
            return


def fuzz_worker(port: int, seed: int, stop_at: float, max_connections: int, figures: Figures,
                lock: threading.Lock, shared_room: str) -> None:
    rng = random.Random(seed)
    mutator = Mutator(rng)
    while time.monotonic() < stop_at:
        with lock:
            if figures.connections >= max_connections:
                return
            figures.connections += 1
        # Mostly the bystander's room; one room of each other scene (every room costs a tick).
        scene = "radar" if rng.random() < 0.6 else rng.choice(SCENES)
        room = shared_room if scene == "radar" else "fuzz"
        role = rng.choice(["player", "player", "spectator", "x"])
        try:
            sock, upgraded = handshake(port, f"/ws?scene={scene}&room={room}&role={role}", rng, timeout=3)
        except OSError:
            continue
        with sock:
            if not upgraded:
                with lock:
                    figures.refused += 1
                continue
            try:
                for _ in range(rng.randint(1, 12)):
                    kind, data = mutator.frames()
                    with lock:
                        figures.sent[kind] += 1
                    if rng.random() < 0.2 and len(data) > 2:   # split across TCP segments
                        cut = rng.randrange(1, len(data))
                        sock.sendall(data[:cut])
                        time.sleep(0.005)
                        sock.sendall(data[cut:])
                    else:
                        sock.sendall(data)
                drain(sock, rng.choice([0.0, 0.05, 0.2]))
                if rng.random() < 0.3:   # end with a reset instead of a FIN
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            except OSError:
                pass   # the server closed it: fine, whatever the code
        time.sleep(0.01)


def bystander(base_url: str, room: str, stop_at: float, figures: Figures, window: float) -> None:
    """A spectator of the shared radar room, counting frames per `window` seconds."""
    parts = urllib.parse.urlsplit(base_url)
    url = f"ws://{parts.hostname}:{parts.port}/ws?scene=radar&room={room}&role=spectator"
    try:
        ws = websocket.create_connection(url, subprotocols=["layercast.v1"], timeout=5)
    except Exception as error:   # noqa: BLE001 - reported, not raised
        figures.bystander_error = f"could not connect: {error}"
        return
    try:
        count = 0
        window_start = time.monotonic()
        while time.monotonic() < stop_at:
            text = ws.recv()
            if isinstance(text, str) and text.startswith('{"type":"frame"'):
                count += 1
                figures.bystander_frames += 1
            now = time.monotonic()
            if now - window_start >= window:
                figures.bystander_windows.append(count / (now - window_start))
                count = 0
                window_start = now
    except Exception as error:   # noqa: BLE001 - reported, not raised
        figures.bystander_error = f"{type(error).__name__}: {error}"
    finally:
        ws.close()


def server_up(base_url: str) -> bool:
    try:
        with urllib.request.urlopen(base_url.rstrip("/") + "/healthz", timeout=5) as resp:
            return resp.status == 200 and json.load(resp).get("status") == "ok"
    except OSError:
        return False


def run(base_url: str, seconds: float, seed: int = 14, workers: int = 3, max_connections: int = 20000,
        window: float = 5.0, room: str = "fuzz-bystander") -> Figures:
    host = urllib.parse.urlsplit(base_url).hostname
    assert host in ("127.0.0.1", "localhost", "::1"), "the socket fuzzer only targets loopback"
    port = urllib.parse.urlsplit(base_url).port
    figures = Figures()
    lock = threading.Lock()
    start = time.monotonic()
    stop_at = start + seconds
    watcher = threading.Thread(target=bystander, args=(base_url, room, stop_at, figures, window), daemon=True)
    watcher.start()
    time.sleep(1)   # the bystander's first frames come before the noise
    threads = [threading.Thread(target=fuzz_worker, args=(port, seed + i, stop_at, max_connections, figures, lock, room),
                                daemon=True) for i in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 30)
    watcher.join(10)
    figures.seconds = time.monotonic() - start
    figures.server_up = server_up(base_url)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8080/")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--min-fps", type=float, default=28)
    args = parser.parse_args()
    figures = run(args.url, args.seconds, seed=args.seed, workers=args.workers)
    print(f"socket_fuzzer: {figures.summary()}")
    ok = figures.server_up and figures.bystander_error is None and figures.min_fps >= args.min_fps
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
