#!/usr/bin/env python3
"""Records what our server sends a radar room's spectators, for the Node.js baseline (bench (d)).

One spectator keeps the room's frames for --seconds (a full frame, then consecutive deltas),
while a new spectator joins every 15 ms and keeps only the full frame it gets first, so the
recording holds a full frame for most frame numbers (what the baseline gives a client that
joins at that point). Written as JSON: {"welcome": text, "frames": [text, …], "fulls": {n: text}}
with the texts exactly as the server sent them. Raw asyncio sockets; 127.0.0.1 only.

    python3 bench/record_frames.py PORT OUT.json [--seconds 6]
"""
from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import re
import time
from pathlib import Path

FRAME = re.compile(rb'\{"type":"frame","n":(\d+)')


async def open_spectator(port: int, room: str):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET /ws?scene=radar&room={room}&role=spectator HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                  f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  f"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: layercast.v1\r\n\r\n").encode())
    await writer.drain()
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    if b" 101 " not in head.split(b"\r\n", 1)[0]:
        raise RuntimeError(f"handshake refused: {head[:80]!r}")
    return reader, writer


async def read_text(reader) -> bytes:
    """The next text message (the server sends unfragmented, unmasked text frames)."""
    while True:
        head = await reader.readexactly(2)
        length = head[1] & 0x7F
        if length == 126:
            length = int.from_bytes(await reader.readexactly(2), "big")
        elif length == 127:
            length = int.from_bytes(await reader.readexactly(8), "big")
        payload = await reader.readexactly(length)
        if head[0] & 0x0F == 1:
            return payload


async def joiner(port: int, room: str, fulls: dict[int, bytes]) -> None:
    reader, writer = await open_spectator(port, room)
    try:
        for _ in range(4):
            text = await asyncio.wait_for(read_text(reader), 5)
            match = FRAME.match(text)
            if match:
                fulls[int(match.group(1))] = text
                return
    finally:
        writer.close()


async def recording(port: int, seconds: float, room: str) -> dict:
    reader, writer = await open_spectator(port, room)
    welcome = await asyncio.wait_for(read_text(reader), 5)
    frames: list[bytes] = []
    fulls: dict[int, bytes] = {}
    joiners = []
    deadline = time.monotonic() + seconds
    next_join = time.monotonic()
    while time.monotonic() < deadline:
        if time.monotonic() >= next_join:
            joiners.append(asyncio.create_task(joiner(port, room, fulls)))
            next_join += 0.015
        try:
            text = await asyncio.wait_for(read_text(reader), 0.01)
        except asyncio.TimeoutError:
            continue
        if FRAME.match(text):
            frames.append(text)
    writer.close()
    await asyncio.gather(*joiners, return_exceptions=True)
    numbers = [int(FRAME.match(text).group(1)) for text in frames]
    if any(b != a + 1 for a, b in zip(numbers, numbers[1:])):
        raise RuntimeError("the recording spectator missed frames; record on an idle server")
    first = numbers[0]
    fulls[first] = frames[0]
    return {"welcome": welcome.decode(), "frames": [text.decode() for text in frames],
            "fulls": {str(n - first): text.decode() for n, text in sorted(fulls.items()) if first <= n <= numbers[-1]}}


def record(port: int, path: Path, seconds: float = 6, room: str = "recording") -> None:
    """Records `seconds` of a radar room of the server on `port` into `path`."""
    data = asyncio.run(recording(port, seconds, room))
    path.write_text(json.dumps(data))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("port", type=int)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seconds", type=float, default=6)
    args = parser.parse_args()
    record(args.port, args.out, args.seconds)
    data = json.loads(args.out.read_text())
    print(f"recorded {len(data['frames'])} frames, {len(data['fulls'])} full frames to {args.out}")


if __name__ == "__main__":
    main()
