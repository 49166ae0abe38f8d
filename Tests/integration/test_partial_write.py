"""A partial write never corrupts WebSocket framing (protocol.md, Fan-out; issue: "use a client
that reads slowly, then fast").

A raw-socket client with a small receive buffer first reads a few bytes at a time, so the
server's socket backs up and the hub skips the client to the newest frame, then reads as fast as
it can. Every byte it got is parsed here as RFC 6455 server frames, without a WebSocket library
(ServerStream, on raw_frames.ServerFrames): a message boundary lost or doubled by a write cut short would show as a bad
header (RSV bits, opcode, FIN, mask bit, a non-minimal length), text that is not UTF-8 JSON of
a known type, a frame whose n does not increase, or a delta after skipped frames that does not
apply to the frame before it (its `b`: ticks that changed nothing are not sent).

Over loopback the kernel seldom cuts the server's writes short for these frames: the server
sets TCP_NOTSENT_LOWAT (Server.limitUnsent), so `send` takes no more once 32 KiB are unsent, and
a frame written just below that is cut (layercast_partial_writes_total counts such writes; a
few per run of the `kernel-backpressure` case). So the `forced-short-writes` cases run the
server with SHORT_WRITE_SHIM in LD_PRELOAD, which makes its send()s short or EAGAIN as a full
socket buffer would, and count how often; libwebsockets must then keep the rest of the message
and send it before anything else.

The client ends with a close (1000). When part of a message is still unsent at that moment,
libwebsockets closes the connection without a close frame and drops the rest of the message
(check_ending): the stream may end inside that last message, but never carries a broken one.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import socket
import struct
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from conftest import http_post, metric
from raw_frames import CLOSE, TEXT, Frame, FramingError, ServerFrames
from socket_fuzzer import frame as client_frame
from test_server import raw_ws_handshake

MESSAGE_TYPES = {"welcome", "frame", "event", "error", "pong"}
# protocol.md, `frame`: every frame's text starts with these four members, in this order.
FRAME_HEAD = re.compile(rb'^\{"type":"frame","n":(\d+),"t":([0-9.eE+-]+),"full":(true|false)[,}]')
RCVBUF = 4096            # the client's SO_RCVBUF, set before connecting (the kernel doubles it)
SLOW_SECONDS = 6.0       # reading 64-256 bytes every 20-50 ms: ~5 KB/s (the snow test reads less)
FAST_SECONDS = 4.0
FAST_RCVBUF = 1 << 20    # the receive buffer for the fast phase
ADMIN = "partial-write-admin-0123456789"
SHORT_WRITE_CAP = 1500   # the shim's short writes hand the kernel 1 to this many bytes

# An LD_PRELOAD library that makes the server's writes to TCP sockets short, as a full socket
# buffer does: of every two send()/sendto() calls of 2 bytes or more, about one hands the kernel
# only 1..cap bytes (and returns that count), and one in sixteen fails with EAGAIN without
# sending anything. Both are what a non-blocking socket may answer at any time. It counts them
# on stderr (at powers of two and every 256), and how many cut a message at its first byte
# (0x81: FIN + text, the header of every Layercast message).
SHORT_WRITE_SHIM = r'''
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/types.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long state = 0x9E3779B97F4A7C15ull;
static unsigned long shortened, at_frame_start, refused;
static long cap = -1;

static void report(void) {
    fprintf(stderr, "short-write-shim: %lu short writes, %lu at a frame start, %lu EAGAIN\n",
            shortened, at_frame_start, refused);
}

__attribute__((destructor)) static void report_at_exit(void) { report(); }

/* How many of `len` bytes to hand the kernel: len, fewer, or -1 for EAGAIN. */
static long decide(int fd, const void *buf, size_t len) {
    int type = 0;
    socklen_t type_len = sizeof type;
    struct sockaddr_storage addr;
    socklen_t addr_len = sizeof addr;
    if (len < 2 || getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &type_len) != 0 || type != SOCK_STREAM
        || getsockname(fd, (struct sockaddr *)&addr, &addr_len) != 0
        || (addr.ss_family != AF_INET && addr.ss_family != AF_INET6))
        return (long)len;
    long n = (long)len;
    pthread_mutex_lock(&lock);
    if (cap < 0) {
        const char *value = getenv("LAYERCAST_TEST_SHORT_WRITES");
        cap = value ? atol(value) : 0;
    }
    if (cap > 0) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        unsigned long r = (unsigned long)(state >> 33);
        if ((r & 15) == 0) {
            refused++;
            n = -1;
        } else if (r & 16) {
            size_t limit = len - 1 < (size_t)cap ? len - 1 : (size_t)cap;
            n = 1 + (long)((r >> 5) % limit);
            shortened++;
            if (((const unsigned char *)buf)[0] == 0x81) at_frame_start++;
            if ((shortened & (shortened - 1)) == 0 || shortened % 256 == 0) report();
        }
    }
    pthread_mutex_unlock(&lock);
    return n;
}

ssize_t send(int fd, const void *buf, size_t len, int flags) {
    static ssize_t (*real)(int, const void *, size_t, int);
    if (!real) real = (ssize_t (*)(int, const void *, size_t, int))dlsym(RTLD_NEXT, "send");
    long n = decide(fd, buf, len);
    if (n < 0) { errno = EAGAIN; return -1; }
    return real(fd, buf, (size_t)n, flags);
}

ssize_t sendto(int fd, const void *buf, size_t len, int flags, const struct sockaddr *to,
               socklen_t to_len) {
    static ssize_t (*real)(int, const void *, size_t, int, const struct sockaddr *, socklen_t);
    if (!real)
        real = (ssize_t (*)(int, const void *, size_t, int, const struct sockaddr *, socklen_t))
            dlsym(RTLD_NEXT, "sendto");
    long n = decide(fd, buf, len);
    if (n < 0) { errno = EAGAIN; return -1; }
    return real(fd, buf, (size_t)n, flags, to, to_len);
}
'''
SHIM_LINE = re.compile(r"short-write-shim: (\d+) short writes, (\d+) at a frame start, (\d+) EAGAIN")


@dataclass
class Message:
    offset: int          # stream offset of the frame header
    arrival: float       # monotonic time its last byte was read
    text: str
    doc: dict


@dataclass
class ServerStream:
    """What a server sends, as protocol.md messages: its frames as raw_frames.ServerFrames parses
    them (no RSV bit), each text frame's payload a UTF-8 JSON object of a known type."""
    frames: ServerFrames = field(default_factory=ServerFrames)
    messages: list = field(default_factory=list)

    def feed(self, data: bytes, now: float) -> None:
        """Parses `data`, which follows what was fed before; keeps each message it completes."""
        self.frames.feed(data)
        while (frame := self.frames.next()) is not None:
            if frame.opcode == TEXT:
                self._message(frame, now)

    def _fail(self, frame: Frame, why: str) -> None:
        raise FramingError(f"stream offset {frame.offset} (after {len(self.messages)} messages): {why}; "
                           f"payload starts {frame.payload[:48]!r}")

    def _message(self, frame: Frame, now: float) -> None:
        payload = frame.payload
        try:
            text = payload.decode("utf-8")
        except UnicodeDecodeError as error:
            text, why = None, f"text frame of {len(payload)} bytes is not UTF-8 ({error})"
        if text is None:
            self._fail(frame, why)
        try:
            doc, why = json.loads(text), None
        except ValueError as error:
            why = (f"text frame of {len(payload)} bytes is not JSON ({error}): "
                   f"{text[:80]!r}…{text[-40:]!r}")
        if why:
            self._fail(frame, why)
        if not isinstance(doc, dict) or doc.get("type") not in MESSAGE_TYPES:
            self._fail(frame, f"message is not an object of a known type: {text[:120]!r}")
        if doc["type"] == "frame":
            head = FRAME_HEAD.match(payload)
            if not head or int(head.group(1)) != doc.get("n") or (head.group(3) == b"true") != doc.get("full"):
                self._fail(frame, f"frame text does not start as protocol.md says: {text[:80]!r}")
        self.messages.append(Message(frame.offset, now, text, doc))


@dataclass
class Outcome:
    stream: ServerStream
    slow_end: float
    slow_bytes: int
    fast_bytes: int
    reads: int
    send_q_peak: int     # the most bytes `ss` saw queued in the server's socket for us
    ss_lines: list
    ending: str = ""     # how the stream ended when no close frame came


def server_send_q(port: int, client_port: int) -> tuple[int, str]:
    """Send-Q of the server's end of our connection (bytes its kernel holds, not yet taken by
    us) from `ss`; (-1, why) when ss cannot say."""
    try:
        out = subprocess.run(["ss", "-tnHm", "state", "established",
                              f"( sport = :{port} and dport = :{client_port} )"],
                             capture_output=True, text=True, timeout=5).stdout
    except (OSError, subprocess.TimeoutExpired) as error:
        return -1, str(error)
    fields = out.split()
    try:
        return int(fields[1]), " ".join(out.split())
    except (IndexError, ValueError):
        return -1, out.strip()


def slow_then_fast(srv, path: str, on_tick=None, seed: int = 6455,
                   chunk: tuple[int, int] = (64, 256), slow_seconds: float = SLOW_SECONDS) -> Outcome:
    """Handshakes on `path` with a small receive buffer, reads `chunk` bytes (at most, a random
    size in that range) every 20-50 ms for `slow_seconds`, then as fast as it can for
    FAST_SECONDS, feeding every byte to a ServerStream; then closes (1000) and reads to the
    server's close frame. `on_tick(sock, now)` is called between slow reads (e.g. to tap)."""
    rng = random.Random(seed)
    sock, status, head = raw_ws_handshake(srv.port, path, rcvbuf=RCVBUF)
    stream = ServerStream()
    ss_lines = []
    send_q_peak = -1
    reads = slow_bytes = fast_bytes = 0
    try:
        assert " 101 " in status + " ", f"handshake answered {status!r}"
        assert "sec-websocket-protocol: layercast.v1" in head.lower(), head
        client_port = sock.getsockname()[1]
        start = time.monotonic()
        slow_end = start + slow_seconds
        next_ss = start + 2.0
        sock.settimeout(2.0)
        while (now := time.monotonic()) < slow_end and reads < 2000:
            try:
                data = sock.recv(rng.randint(*chunk))
            except socket.timeout:
                data = None
            reads += 1
            if data == b"":
                break                               # the server closed the connection
            if data:
                slow_bytes += len(data)
                stream.feed(data, time.monotonic())
            if on_tick:
                on_tick(sock, now)
            if now >= next_ss:
                queued, line = server_send_q(srv.port, client_port)
                send_q_peak = max(send_q_peak, queued)
                ss_lines.append(line)
                next_ss = now + 1.5
            time.sleep(rng.uniform(0.02, 0.05))
        # Fast: a big receive buffer too. With the small one, loopback segments (whose kernel
        # size is much larger than their data) overflow it and are dropped, and the server's
        # retransmission timer (200 ms, doubling) would set the pace instead of the client.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, FAST_RCVBUF)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_WINDOW_CLAMP, FAST_RCVBUF)
        # A ping now and then: each segment we send carries our open window, so the server's
        # kernel need not wait for its zero-window probe timer (backed off to seconds while we
        # were slow) to learn that we take data again.
        fast_end = time.monotonic() + FAST_SECONDS
        sock.settimeout(0.25)
        fast_reads = pings = 0
        next_ping = 0.0
        while (now := time.monotonic()) < fast_end and fast_reads < 200_000:
            if now >= next_ping:
                pings += 1
                sock.sendall(client_frame(TEXT, json.dumps({"type": "ping", "id": pings}).encode()))
                next_ping = now + 0.25
            try:
                data = sock.recv(1 << 16)
            except socket.timeout:
                continue
            fast_reads += 1
            if not data:
                break
            fast_bytes += len(data)
            stream.feed(data, time.monotonic())
        reads += fast_reads
        # Close (1000) and read on, bounded, until the server's close frame ends the stream.
        sock.sendall(client_frame(CLOSE, struct.pack("!H", 1000)))
        close_start = time.monotonic()
        ending = "timed out after 10 s"
        while stream.frames.close_payload is None and time.monotonic() < close_start + 10.0:
            try:
                data = sock.recv(1 << 16)
            except socket.timeout:
                continue
            except ConnectionResetError:
                ending = "reset by the server"
                break
            if not data:
                ending = "closed by the server (EOF)"
                break
            fast_bytes += len(data)
            stream.feed(data, time.monotonic())
        if stream.frames.close_payload is not None:
            ending = "the server's close frame"
        ending += f", {time.monotonic() - close_start:.2f} s after our close"
    finally:
        sock.close()
    return Outcome(stream, slow_end, slow_bytes, fast_bytes, reads, send_q_peak, ss_lines, ending)


def check_stream(outcome: Outcome, scene: str, role: str) -> tuple[list, list]:
    """The frame rules of protocol.md over everything received; returns (frames, gaps) where
    gaps are (previous n, n, arrival) for each frame after a skip."""
    messages = outcome.stream.messages
    summary = (f"{len(messages)} messages, {outcome.slow_bytes} bytes read slowly and "
               f"{outcome.fast_bytes} fast in {outcome.reads} reads")
    assert messages, f"nothing received: {summary}"
    welcome = messages[0].doc
    assert welcome["type"] == "welcome", f"first message is not welcome: {messages[0].text[:120]!r}"
    assert (welcome["scene"], welcome["role"], welcome["protocol"]) == (scene, role, 2), welcome
    assert not [m for m in messages if m.doc["type"] == "error"], "the server sent an error"
    frames = [m for m in messages if m.doc["type"] == "frame"]
    assert len(frames) >= 10, f"only {len(frames)} frames: {summary}"
    assert frames[0].doc["full"] is True, "the first frame after welcome must be full"
    gaps = []
    for before, this in zip(frames, frames[1:]):
        n0, n1 = before.doc["n"], this.doc["n"]
        assert n1 > n0, f"frame n went from {n0} to {n1}"
        assert this.doc["t"] >= before.doc["t"], f"frame t went back at n={n1}"
        # A delta applies to the frames from its `b` (n - 1 without it) on: ticks between that
        # changed nothing were not sent (sparse). Anything else after a jump must be full.
        if not this.doc["full"]:
            base = this.doc.get("b", n1 - 1)
            assert base <= n0, (
                f"frame {n1} follows frame {n0} (frames skipped) but is a delta from {base}: a client "
                f"could not apply it ({summary})")
        elif n1 != n0 + 1:
            gaps.append((n0, n1, this.arrival))
    for m in frames:
        if m.doc["full"]:
            assert isinstance(m.doc.get("items"), list), f"full frame {m.doc['n']} has no items"
        else:
            assert "items" not in m.doc, f"delta frame {m.doc['n']} carries items"
    return frames, gaps


def check_backpressure_and_recovery(srv, outcome: Outcome, frames: list, gaps: list,
                                    skipped_before: float) -> None:
    summary = (f"{len(frames)} frames, gaps {gaps[:8]}, {outcome.slow_bytes} bytes read slowly, "
               f"{outcome.fast_bytes} fast; server Send-Q peak {outcome.send_q_peak} "
               f"({outcome.ss_lines[-1:]})")
    skipped = metric(srv.base_url, "layercast_frames_skipped_total") - skipped_before
    missed = sum(n1 - n0 - 1 for n0, n1, _ in gaps)
    sizes = sorted(len(m.text) for m in frames)
    print(f"{summary}; frame sizes {sizes[0]}..{sizes[-1]} bytes; frames skipped: {missed} seen by "
          f"the client, {skipped:.0f} counted by the server")
    # The slow reader must have made the server skip it: a gap in n, which the server counts.
    assert gaps, f"no frame was skipped while the client read a few KB/s: no backpressure ({summary})"
    assert skipped >= missed > 0, (f"layercast_frames_skipped_total rose by {skipped}, but the "
                                   f"client saw {missed} frames skipped ({summary})")
    # The server held the client back while it read slowly: frames it made then were never sent.
    # Scene time runs with the clock, and the first frame arrives as it is made (nothing queued
    # yet), so the slow phase ended near scene time `t_slow_end`. A gap after a frame made a
    # second or more before that skipped frames of the slow phase. (Arrivals cannot tell: a frame
    # sent while slow may be read whole only after; nor can the skip counter, which counts when
    # the catching-up frame is sent, for a 14 KB frame at a few KB/s maybe only after.)
    t_slow_end = frames[0].doc["t"] + (outcome.slow_end - frames[0].arrival)
    scene_time = {m.doc["n"]: m.doc["t"] for m in frames}
    assert any(scene_time[n0] <= t_slow_end - 1.0 for n0, _, _ in gaps), (
        f"no skip began in the slow phase (before t = {t_slow_end:.2f}): the server did not hold "
        f"the client back ({summary})")
    # The server's socket backed up while the client was slow (its kernel held many KB for us).
    if outcome.send_q_peak >= 0:
        assert outcome.send_q_peak >= 8 * 1024, f"server Send-Q never passed 8 KiB ({summary})"
    # Fast phase: the stream recovers and carries on with deltas after the last skip.
    # Fast phase: the stream recovers: frames flow again, deltas among them (the server sends a
    # delta only to a client that has taken the frame before). Not necessarily without a skip:
    # the machine may be busy.
    fast = [m for m in frames if m.arrival > outcome.slow_end]
    deltas = [m for m in fast if not m.doc["full"]]
    assert len(fast) >= 10 and len(deltas) >= 3, (
        f"{len(fast)} frames, {len(deltas)} of them deltas, in the fast phase: the stream did "
        f"not recover ({summary})")
    pongs = [m for m in outcome.stream.messages if m.doc["type"] == "pong"]
    assert pongs, f"no pong answered the fast phase's pings ({summary})"


def check_ending(outcome: Outcome) -> None:
    """Our close (1000) is answered with a close frame (1000), or, when part of a message was
    still unsent, the server closes the connection there: libwebsockets then drops the rest and
    sends no close frame (lib/roles/ws/ops-ws.c, "Closing on peer close due to Pending tx"). The
    stream may end inside that one message (whose header was checked), never at a boundary
    without a close frame, nor with more after it."""
    frames = outcome.stream.frames
    print(f"end of stream: {outcome.ending}, {len(frames.buffer)} bytes of an unfinished message")
    if frames.close_payload is not None:
        assert frames.close_payload[:2] == struct.pack("!H", 1000), frames.close_payload
        return
    assert outcome.ending.startswith("closed by the server"), (
        f"no close frame answered the client's close ({outcome.ending})")
    assert frames.buffer, "the server closed at a message boundary without a close frame"
    assert frames.buffer[0] == 0x81, f"the stream ends in {bytes(frames.buffer[:16])!r}"


@pytest.fixture(scope="session")
def short_write_shim(tmp_path_factory) -> Path:
    """SHORT_WRITE_SHIM built as an LD_PRELOAD library (skips without a C compiler)."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not compiler:
        pytest.skip("no C compiler for the short-write shim")
    directory = tmp_path_factory.mktemp("short-write-shim")
    source, library = directory / "shim.c", directory / "short-write-shim.so"
    source.write_text(SHORT_WRITE_SHIM)
    result = subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", str(library), str(source),
                             "-ldl", "-lpthread"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"building the shim failed: {result.stderr}"
    return library


def shim_counts(srv) -> tuple[int, int, int]:
    """The largest (short writes, of them at a text frame's first byte, EAGAINs) the shim
    reported in the server's stderr."""
    text = Path(srv.log.name).read_text(errors="replace")
    counts = [tuple(map(int, m.groups())) for m in SHIM_LINE.finditer(text)]
    return tuple(max(column) for column in zip(*counts)) if counts else (0, 0, 0)


def start_snow(start_server, monkeypatch, room: str, shim: Path | None):
    """A server (stall timeout long enough for the slow phase) whose snow room `room` already
    snows at 350 flakes a second (100 in `demo` mode), so its full frames are several KB; with `shim`, every write the
    server makes to a TCP socket may be cut short."""
    with monkeypatch.context() as env:
        if shim:
            env.setenv("LD_PRELOAD", str(shim))
            env.setenv("LAYERCAST_TEST_SHORT_WRITES", str(SHORT_WRITE_CAP))
        srv = start_server("--stall-timeout", "30", "--rain-every", "0", "--admin-token", ADMIN)
    answer = http_post(srv.base_url, f"/api/rooms/{room}/snow", {"rate": 100, "mode": "demo"},
                       headers={"Authorization": f"Bearer {ADMIN}"})
    assert answer.status == 200, answer
    return srv


@pytest.mark.parametrize("forced", [False, True], ids=["kernel-backpressure", "forced-short-writes"])
def test_slow_then_fast_snow_spectator_stays_framed(start_server, monkeypatch, room, forced, request):
    """A snow spectator that reads slowly, then fast: every byte parses as whole text frames of
    protocol.md messages, skips show as gaps in n followed by full frames, and the stream
    recovers. `forced-short-writes` runs the server with the shim, which cuts its writes short
    (proven by its count) while the client is slow and while it is fast."""
    shim = request.getfixturevalue("short_write_shim") if forced else None
    srv = start_snow(start_server, monkeypatch, room, shim)
    skipped_before = metric(srv.base_url, "layercast_frames_skipped_total")
    # Particle records go once (protocol.md, "Particles"), so even 350 flakes a second stream
    # about 15 KB/s, not 100+ KB/s: the slow phase reads 16-64 bytes per step (~1 KB/s) for 12 s
    # to fill the socket buffers and be held back.
    outcome = slow_then_fast(srv, f"/ws?scene=snow&room={room}&role=spectator", chunk=(16, 64), slow_seconds=12)
    frames, gaps = check_stream(outcome, "snow", "spectator")
    check_backpressure_and_recovery(srv, outcome, frames, gaps, skipped_before)
    assert max(len(m.text) for m in frames) >= 4096, "the snow frames are not large"
    check_ending(outcome)
    assert metric(srv.base_url, "layercast_clients_dropped_total") == 0
    if forced:
        assert metric(srv.base_url, "layercast_partial_writes_total") > 0, "the server saw no partial write"
        check_short_writes(srv, frames)


def check_short_writes(srv, frames: list) -> None:
    """The shim cut writes short, also at the first byte of messages (stops the server so its
    count at exit is in the log)."""
    assert srv.stop() == 0, f"the server did not exit cleanly: {srv.log_tail()}"
    short, at_frame_start, refused = shim_counts(srv)
    print(f"shim: {short} short writes ({at_frame_start} at a frame's first byte), {refused} EAGAIN")
    assert short >= 64 and at_frame_start >= 16, (
        f"the shim reported only {short} short writes ({at_frame_start} at a frame's first byte, "
        f"{refused} EAGAIN) over {len(frames)} frames: the partial-write path was not exercised")


def test_slow_then_fast_radar_player_tapping_short_writes(start_server, monkeypatch, room,
                                                          short_write_shim):
    """A radar player that taps now and then while it reads slowly, with the server's writes cut
    short: its events (written ahead of frames) and the frames stay whole messages."""
    with monkeypatch.context() as env:
        env.setenv("LD_PRELOAD", str(short_write_shim))
        env.setenv("LAYERCAST_TEST_SHORT_WRITES", str(SHORT_WRITE_CAP))
        srv = start_server("--stall-timeout", "30", "--rain-every", "0")
    skipped_before = metric(srv.base_url, "layercast_frames_skipped_total")
    taps = []

    def tap(sock, now):
        if not taps or now - taps[-1] >= 0.4:
            taps.append(now)
            body = {"type": "tap", "x": 207, "y": 368, "viewTime": 0, "id": len(taps)}
            sock.sendall(client_frame(TEXT, json.dumps(body).encode()))

    # Radar deltas are a few hundred bytes (about 6 KB/s): read slower still, and for longer,
    # as it takes several seconds to fill the server's 32 KiB of unsent bytes and our buffer.
    outcome = slow_then_fast(srv, f"/ws?scene=radar&room={room}&role=player", on_tick=tap,
                             chunk=(24, 64), slow_seconds=12.0)
    frames, gaps = check_stream(outcome, "radar", "player")
    check_backpressure_and_recovery(srv, outcome, frames, gaps, skipped_before)
    assert len(taps) >= 5
    check_ending(outcome)
    assert metric(srv.base_url, "layercast_messages_rejected_total") == 0
    assert metric(srv.base_url, "layercast_clients_dropped_total") == 0
    check_short_writes(srv, frames)


def test_server_stream_parser_catches_broken_framing():
    """The parser itself (no server): the same messages whatever the read sizes, and a stream
    with a byte lost, a piece repeated or a header bit flipped is refused, not misread."""
    docs = [{"type": "welcome", "protocol": 1, "scene": "snow", "role": "spectator"}]
    docs += [{"type": "frame", "n": n, "t": n / 30, "full": n == 1,
              **({"items": [{"id": 1, "s": [414, 736], "bg": "#fdf6ec"}] * (n * 20)} if n == 1 else
                 {"set": [{"id": 1, "o": 0.5}] * (n * 7)})} for n in range(1, 40)]
    texts = [json.dumps(d, separators=(",", ":")).encode() for d in docs]
    assert {len(t) < 126 for t in texts} == {True, False} and any(len(t) >= 1 << 16 for t in texts) is False
    wire = b"".join(client_frame(TEXT, t, mask=False) for t in texts)

    def parse(data: bytes, rng: random.Random) -> ServerStream:
        stream, pos = ServerStream(), 0
        while pos < len(data):
            step = rng.randint(1, 300)
            stream.feed(data[pos:pos + step], 0.0)
            pos += step
        return stream

    for seed in range(10):
        stream = parse(wire, random.Random(seed))
        assert [m.doc for m in stream.messages] == docs and not stream.frames.buffer
    big = client_frame(TEXT, json.dumps({"type": "event", "name": "x" * 70000}).encode(), mask=False)
    assert parse(big, random.Random(1)).messages[0].doc["name"] == "x" * 70000

    second = len(client_frame(TEXT, texts[0], mask=False))
    corrupt = {
        "a byte lost": wire[:second + 20] + wire[second + 21:],
        "a piece sent twice": wire[:second + 300] + wire[second + 200:],
        "RSV1 set": wire[:second] + bytes([wire[second] | 0x40]) + wire[second + 1:],
        "mask bit set": wire[:second + 1] + bytes([wire[second + 1] | 0x80]) + wire[second + 2:],
        "binary opcode": wire[:second] + bytes([0x82]) + wire[second + 1:],
    }
    for what, data in corrupt.items():
        with pytest.raises(FramingError):
            stream = parse(data, random.Random(7))
            if stream.frames.buffer:    # a stream that ends mid-frame is refused too
                raise FramingError(f"{what}: {len(stream.frames.buffer)} bytes left over")
