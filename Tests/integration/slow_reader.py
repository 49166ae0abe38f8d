"""A spectator on a slow link, as the kernel of a phone on a weak network would see it: a raw
socket with a small receive buffer, read at a fixed number of bytes a second, every frame parsed
(raw_frames.ServerFrames) and, when `ack` is set, acknowledged (protocol.md, "Acknowledged
frames"); with `deflate`, permessage-deflate is offered and each compressed message inflated
(RFC 7692; the server agrees to server_no_context_takeover, so each on its own). Used by test_slow_link.py and bench/stream.py."""

from __future__ import annotations

import json
import socket
import time
import zlib
from dataclasses import dataclass, field

from raw_frames import CLOSE, TEXT, ServerFrames
from socket_fuzzer import frame as client_frame
from test_server import raw_ws_handshake

RCVBUF = 16384      # SO_RCVBUF before connecting (the kernel doubles it): a few seconds at 4-8 KB/s


@dataclass
class Received:
    arrival: float      # time.monotonic() when the frame was parsed
    n: int
    t: float
    full: bool
    size: int           # bytes of its text (inflated)


@dataclass
class SlowRead:
    frames: list[Received] = field(default_factory=list)
    bytes: int = 0
    closed: bool = False


def read_slowly(port: int, path: str, rate: float | None, seconds: float, ack: bool,
                rcvbuf: int = RCVBUF, deflate: bool = False) -> SlowRead:
    """Joins `path` and reads for `seconds` at `rate` bytes a second (None: as fast as it can),
    acknowledging each frame when `ack`, offering permessage-deflate when `deflate`; bounded in
    time and reads."""
    sock, status, head = raw_ws_handshake(port, path, rcvbuf=rcvbuf,
                                          extensions="permessage-deflate" if deflate else None)
    assert " 101 " in status + " ", f"handshake answered {status!r}"
    assert not deflate or "permessage-deflate" in head.lower(), f"deflate was not agreed: {head!r}"
    parser = ServerFrames(rsv1_allowed=deflate)
    out = SlowRead()
    budget, last = 0.0, time.monotonic()
    end = last + seconds
    sock.settimeout(0.02)
    reads = 0
    try:
        while (now := time.monotonic()) < end and reads < 200_000:
            if rate is not None:
                budget = min(budget + (now - last) * rate, rate * 0.05 + 512)
                last = now
                if budget < 256:
                    time.sleep(0.01)
                    continue
            try:
                data = sock.recv(int(budget) if rate is not None else 1 << 16)
            except socket.timeout:
                continue
            reads += 1
            if not data:
                out.closed = True
                break
            budget -= len(data)
            out.bytes += len(data)
            parser.feed(data)
            while (message := parser.next()) is not None:
                if message.opcode == CLOSE:
                    out.closed = True
                    return out
                if message.opcode != TEXT:
                    continue
                text = zlib.decompressobj(-zlib.MAX_WBITS).decompress(message.payload + b"\x00\x00\xff\xff") if message.rsv1 else message.payload
                value = json.loads(text)
                if value.get("type") != "frame":
                    continue
                out.frames.append(Received(time.monotonic(), value["n"], value["t"], value["full"], len(text)))
                if ack:
                    sock.sendall(client_frame(TEXT, json.dumps({"type": "ack", "n": value["n"]}).encode()))
    finally:
        sock.close()
    return out


def view_ages(slow: list[Received], reference: list[tuple[float, float]], since: float) -> list[float]:
    """For each slow frame that arrived after `since` (monotonic): how far its `t` is behind the
    newest `t` a prompt client (`reference`: (arrival, t) pairs in order) had by then."""
    ages = []
    index, newest = 0, None
    for frame in slow:
        while index < len(reference) and reference[index][0] <= frame.arrival:
            newest = reference[index][1]
            index += 1
        if frame.arrival >= since and newest is not None:
            ages.append(max(0.0, newest - frame.t))
    return ages


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank); 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(p / 100 * len(ordered) + 0.5)) - 1))]
