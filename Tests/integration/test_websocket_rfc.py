"""RFC 6455 as a strict peer checks it, with raw sockets (issue 30; docs/protocol.md, "Closing"):
text that is not UTF-8 fails the connection with 1007, whole, fragmented or compressed; once a
close is sent or received no data frame follows it, and the socket closes when the handshake ends
or soon after; a burst of pings is answered for its last ping; and a request head that drips, or a
peer that leaves mid-head, costs no descriptor past the head timeout.

Every byte the server sends is parsed by `ServerFrames`, which fails on anything after its close.
"""

from __future__ import annotations

import base64
import os
import socket
import struct
import time
import zlib

import pytest

from conftest import ServerProcess, _require_binary, drip, metric, unique_room
from test_edges import refused
from raw_frames import CLOSE, ServerFrames

HEAD_TIMEOUT = 2
CLOSE_WAIT = 1.0        # Server.closeWait: a close the client never answers ends this long after
PING, PONG, TEXT, CONTINUATION = 0x9, 0xA, 0x1, 0x0


@pytest.fixture(scope="module")
def srv():
    _require_binary()
    server = ServerProcess(["--rain-every", "0", "--head-timeout", str(HEAD_TIMEOUT)])
    yield server
    server.stop()


class RawSocket:
    """A WebSocket opened by hand on a radar room, reading everything the server sends through
    `ServerFrames` (which fails on bytes after the server's close)."""

    def __init__(self, srv, deflate: bool = False):
        self.sock = socket.create_connection(("127.0.0.1", srv.port), timeout=5)
        key = base64.b64encode(os.urandom(16))
        extension = b"Sec-WebSocket-Extensions: permessage-deflate\r\n" if deflate else b""
        self.sock.sendall(b"GET /ws?scene=radar&room=" + unique_room("rfc").encode()
                          + b"&role=spectator HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                          + b"Connection: Upgrade\r\nSec-WebSocket-Key: " + key
                          + b"\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: layercast.v1\r\n"
                          + extension + b"\r\n")
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.sock.recv(65536)
            assert chunk, f"closed during the handshake: {data!r}"
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        assert b" 101 " in head.split(b"\r\n")[0], head
        assert (b"permessage-deflate" in head.lower()) == deflate, head
        self.frames = ServerFrames(rsv1_allowed=deflate)
        self.frames.feed(rest)
        self.eof_at: float | None = None

    def send(self, *frames: bytes) -> None:
        self.sock.sendall(b"".join(frames))

    def read_until(self, predicate, timeout: float):
        """Frames until one satisfies `predicate` (returned), the server's close (returned), or EOF."""
        deadline = time.monotonic() + timeout
        while True:
            frame = self.frames.next()
            while frame is not None:
                if frame.opcode == CLOSE or predicate(frame):
                    return frame
                frame = self.frames.next()
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"nothing awaited within {timeout}s"
            self.sock.settimeout(remaining)
            chunk = self.sock.recv(65536)
            if not chunk:
                self.eof_at = time.monotonic()
                return None
            self.frames.feed(chunk)

    def close_code(self, timeout: float = 5.0) -> int:
        """The code of the server's close frame; data frames before it are taken and dropped."""
        frame = self.read_until(lambda f: False, timeout)
        assert frame is not None and frame.opcode == CLOSE, "the server closed the socket without a close frame"
        return struct.unpack(">H", frame.payload[:2])[0]

    def wait_eof(self, timeout: float) -> float:
        """Reads until the server closes the socket; fails on any byte after its close."""
        started = time.monotonic()
        assert self.read_until(lambda f: False, timeout) is None, "a second close frame"
        return self.eof_at - started

    def close(self) -> None:
        self.sock.close()


def frame(opcode: int, payload: bytes, fin: bool = True, rsv: int = 0) -> bytes:
    """One masked client frame (RFC 6455 §5.2)."""
    mask = os.urandom(4)
    header = bytes([(0x80 if fin else 0) | rsv | opcode])
    length = len(payload)
    if length < 126:
        header += bytes([0x80 | length])
    else:
        header += bytes([0x80 | 126]) + struct.pack(">H", length)
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def deflated(payload: bytes) -> bytes:
    """`payload` compressed as permessage-deflate sends it (RFC 7692 §7.2.1): raw deflate, the
    final empty block's 00 00 ff ff taken off."""
    compressor = zlib.compressobj(wbits=-15)
    data = compressor.compress(payload) + compressor.flush(zlib.Z_SYNC_FLUSH)
    assert data.endswith(b"\x00\x00\xff\xff")
    return data[:-4]


def violations(srv, reason: str) -> float:
    return metric(srv.base_url, "layercast_websocket_violations_total", reason=reason)


PING_MESSAGE = b'{"type":"ping","id":7,"note":"'
INVALID_UTF8 = {
    "lone_ff": [frame(TEXT, PING_MESSAGE + b'\xff"}')],
    "overlong_slash": [frame(TEXT, PING_MESSAGE + b'\xc0\xaf"}')],
    "surrogate": [frame(TEXT, PING_MESSAGE + b'\xed\xa0\x80"}')],
    "above_10ffff": [frame(TEXT, PING_MESSAGE + b'\xf4\x90\x80\x80"}')],
    "truncated_at_the_end": [frame(TEXT, PING_MESSAGE + b'"}\xe2\x82')],
    "invalid_inside_a_fragment": [frame(TEXT, PING_MESSAGE, fin=False), frame(CONTINUATION, b'ok \xff"}')],
    "truncated_between_fragments": [frame(TEXT, PING_MESSAGE + b'\xe2\x82', fin=False), frame(CONTINUATION, b'"}')],
}


@pytest.mark.parametrize("case", list(INVALID_UTF8))
def test_text_that_is_not_utf8_fails_the_connection_with_1007(srv, case):
    before = violations(srv, "invalid_utf8")
    ws = RawSocket(srv)
    try:
        ws.read_until(lambda f: True, 5)              # the welcome: the client is in the hub
        ws.send(*INVALID_UTF8[case])
        assert ws.close_code() == 1007
        ws.send(frame(CLOSE, struct.pack(">H", 1000)))
        ws.wait_eof(CLOSE_WAIT + 2)                     # and nothing after the close frame
    finally:
        ws.close()
    assert violations(srv, "invalid_utf8") == before + 1


def test_compressed_text_that_is_not_utf8_fails_the_connection_with_1007(srv):
    ws = RawSocket(srv, deflate=True)
    try:
        ws.read_until(lambda f: True, 5)
        ws.send(frame(TEXT, deflated(PING_MESSAGE + b'\xed\xa0\x80"}'), rsv=0x40))
        assert ws.close_code() == 1007
    finally:
        ws.close()


def test_valid_multibyte_text_split_across_fragments_is_taken(srv):
    message = '{"type":"ping","id":41,"note":"红包 €😀"}'.encode()
    cut = message.index("😀".encode()) + 2          # inside the 4-byte character
    ws = RawSocket(srv)
    try:
        ws.send(frame(TEXT, message[:cut], fin=False), frame(CONTINUATION, message[cut:]))
        pong = ws.read_until(lambda f: b'"pong"' in f.payload, 5)
        assert pong is not None and pong.opcode != CLOSE, "closed instead of answering"
        assert b'"id":41' in pong.payload
    finally:
        ws.close()


def unmasked(opcode: int, payload: bytes) -> bytes:
    return bytes([0x80 | opcode, len(payload)]) + payload


PROTOCOL_ERRORS = {     # the frame, and its reason in layercast_websocket_violations_total
    "rsv2_without_extension": (frame(TEXT, b'{"type":"ping","id":1}', rsv=0x20), "rsv_bits"),
    "rsv1_without_deflate": (frame(TEXT, b'{"type":"ping","id":1}', rsv=0x40), "rsv_bits"),
    "reserved_opcode": (frame(0x3, b""), "opcode"),
    "fragmented_ping": (frame(PING, b"x", fin=False), "control_frame"),
    "ping_of_126_bytes": (frame(PING, b"x" * 126), "control_frame"),
    "continuation_of_nothing": (frame(CONTINUATION, b'{"type":"ping","id":1}'), "continuation"),
    "message_inside_a_message": (frame(TEXT, b'{"type":', fin=False) + frame(TEXT, b'"ping"}'), "continuation"),
    "unmasked_text": (unmasked(TEXT, b'{"type":"ping","id":1}'), "unmasked"),
}


@pytest.mark.parametrize("case", list(PROTOCOL_ERRORS))
def test_a_protocol_error_fails_the_connection_with_1002_and_nothing_follows(srv, case):
    """A failed connection (RFC 6455 §7.1.7) gets the close frame, then its socket is closed at
    once: no data frame after it, no wait for an answer the server may not process."""
    data, reason = PROTOCOL_ERRORS[case]
    before = violations(srv, reason)
    ws = RawSocket(srv)
    try:
        ws.read_until(lambda f: True, 5)
        ws.send(data)
        assert ws.close_code() == 1002
        took = ws.wait_eof(CLOSE_WAIT + 2)
    finally:
        ws.close()
    assert took < 0.7 * CLOSE_WAIT, f"the socket closed {took:.2f}s after the close frame, not at once"
    assert violations(srv, reason) == before + 1


CLOSES_THAT_END_AT_ONCE = {   # the client's close payload, and the code the server's close carries
    # the server's own close (1002 for a code a client may not send), answered by the client's
    "server_close_answered": (struct.pack(">H", 5000), 1002),
    # the client's close, echoed
    "client_close_echoed": (struct.pack(">H", 1000) + b"bye", 1000),
}


@pytest.mark.parametrize("case", list(CLOSES_THAT_END_AT_ONCE))
def test_a_finished_close_handshake_ends_the_socket_at_once(srv, case):
    """Nothing follows the server's close frame, and the socket ends well before `CLOSE_WAIT`."""
    payload, code = CLOSES_THAT_END_AT_ONCE[case]
    ws = RawSocket(srv)
    try:
        ws.read_until(lambda f: True, 5)
        ws.send(frame(CLOSE, payload))
        assert ws.close_code() == code
        took = ws.wait_eof(CLOSE_WAIT + 2)
    finally:
        ws.close()
    assert took < 0.7 * CLOSE_WAIT, f"the socket closed {took:.2f}s after the close frame, not at once"


def test_pings_one_at_a_time_are_each_answered_with_their_payload(srv):
    ws = RawSocket(srv)
    try:
        ws.read_until(lambda f: True, 5)
        for i in range(3):
            ws.send(frame(PING, f"one {i}".encode()))
            got = ws.read_until(lambda f: f.opcode == PONG, 5)
            assert got is not None and got.payload == f"one {i}".encode(), got
    finally:
        ws.close()


def test_a_burst_of_pings_gets_a_pong_for_the_last(srv):
    ws = RawSocket(srv)
    try:
        ws.read_until(lambda f: True, 5)
        ws.send(*(frame(PING, f"ping {i}".encode()) for i in range(10)))
        pongs = []
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline and b"ping 9" not in pongs:
            try:
                got = ws.read_until(lambda f: f.opcode == PONG, deadline - time.monotonic())
            except (AssertionError, socket.timeout):
                break
            assert got is not None and got.opcode == PONG, "closed instead of answering the pings"
            pongs.append(got.payload)
    finally:
        ws.close()
    assert pongs and pongs[-1] == b"ping 9", f"pongs for {pongs}"


def read_408(sock: socket.socket, timeout: float) -> tuple[bytes, float]:
    started = time.monotonic()
    sock.settimeout(timeout)
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data, time.monotonic() - started


def test_a_dripping_request_head_is_cut_at_the_head_timeout(srv):
    before = refused(srv, "head_timeout")
    head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200
    with socket.create_connection(("127.0.0.1", srv.port), timeout=HEAD_TIMEOUT + 5) as sock:
        started = time.monotonic()
        answer = drip(sock, head, 0.25)             # 200+ bytes: far longer than the timeout
        elapsed = time.monotonic() - started
    assert answer.startswith(b"HTTP/1.1 408 "), answer
    # The gate looks every 2 ms; 1.5 s of slack is for a loaded machine's scheduling.
    assert HEAD_TIMEOUT - 0.2 <= elapsed <= HEAD_TIMEOUT + 1.5, f"cut after {elapsed:.1f}s"
    assert refused(srv, "head_timeout") == before + 1


def test_a_silent_partial_head_is_cut_at_the_head_timeout(srv):
    with socket.create_connection(("127.0.0.1", srv.port)) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127")
        answer, elapsed = read_408(sock, HEAD_TIMEOUT + 5)
    assert answer.startswith(b"HTTP/1.1 408 "), answer
    assert HEAD_TIMEOUT - 0.2 <= elapsed <= HEAD_TIMEOUT + 1.5, f"cut after {elapsed:.1f}s"  # as above


def open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def test_held_sockets_whose_peers_leave_free_their_descriptors_at_once():
    _require_binary()
    server = ServerProcess(["--rain-every", "0", "--head-timeout", "30"])
    try:
        time.sleep(0.5)
        baseline = open_fds(server.proc.pid)
        before = refused(server, "peer_gone")
        socks = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(50)]
        for sock in socks:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHo")
        deadline = time.monotonic() + 5
        while open_fds(server.proc.pid) < baseline + 50 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert open_fds(server.proc.pid) >= baseline + 50, "the server did not hold the connections"
        for sock in socks:
            sock.close()
        deadline = time.monotonic() + 3                # far below the 30 s head timeout
        while open_fds(server.proc.pid) > baseline and time.monotonic() < deadline:
            time.sleep(0.05)
        assert open_fds(server.proc.pid) <= baseline, f"{open_fds(server.proc.pid) - baseline} descriptors still held"
        assert refused(server, "peer_gone") == before + 50
    finally:
        server.stop()
