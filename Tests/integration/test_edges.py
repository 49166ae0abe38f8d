"""The edges an attacker or a broken proxy reaches (issue 18), with raw sockets: strict HTTP
framing, methods, slow bodies, security headers on every answer, the name rule, the RFC 6455
close rules, and a damaged ledger at start.

Each bad request must get its documented status or close code and be counted in /metrics, while
the server stays up and a bystander spectator keeps the room's 30 frames/s (docs/protocol.md,
"Strict requests"; docs/operations.md, "The ledger").
"""

from __future__ import annotations

import base64
import os
import shutil
import signal
import socket
import sqlite3
import struct
import subprocess
import time
import urllib.parse

import pytest

from conftest import BINARY, REPO, ServerProcess, _require_binary, drip, http_get, metric, unique_room
from layercast_client import LayercastClient
from test_rain import ADMIN, COUNTDOWN, connect_player, events, play, start_rain, wait_phase

FPS = 30
BODY_TIMEOUT = 2


# ---------------------------------------------------------------------------------------------
# fixtures and helpers


@pytest.fixture(scope="module")
def edge_server():
    _require_binary()
    srv = ServerProcess(["--admin-token", ADMIN, "--rain-every", "0", "--body-timeout", str(BODY_TIMEOUT)])
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def bystander(edge_server):
    client = LayercastClient.connect(edge_server.base_url, room=unique_room("bystander"), role="spectator")
    client.wait_welcome(5)
    client.wait_frames(2, 5)
    yield client
    client.close()


@pytest.fixture
def unharmed(edge_server, bystander):
    """After the test: the server still answers, and the bystander got every frame at the
    room's rate over at least one second while the test ran."""
    first = bystander.latest().n
    started = time.monotonic()
    yield
    time.sleep(max(0.0, 1.0 - (time.monotonic() - started)))
    assert http_get(edge_server.base_url, "/healthz").status == 200, "the server stopped answering"
    records = [r for r in bystander.frames_snapshot() if r.n > first]
    problems = bystander.check_stream(since_n=first + 1, max_interval=0.5)
    assert not problems, f"the bystander's stream broke: {problems[:5]}"
    elapsed = records[-1].arrival - records[0].arrival
    rate = (len(records) - 1) / elapsed
    assert rate >= 0.8 * FPS, f"the bystander got {rate:.1f} frames/s, the room runs at {FPS}"


def exchange(srv, data: bytes, timeout: float = 5.0) -> tuple[int, dict, bytes, bool]:
    """Sends `data` on a new connection and reads one answer: (status, headers by lower-case
    name, body, whether the server then closed the connection)."""
    with socket.create_connection(("127.0.0.1", srv.port), timeout=timeout) as sock:
        sock.sendall(data)
        return read_answer(sock)


def read_answer(sock: socket.socket) -> tuple[int, dict, bytes, bool]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"the connection closed without an answer (got {data!r})"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, "the connection closed in the middle of the body"
        body += chunk
    try:
        closed = sock.recv(1) == b""
    except socket.timeout:
        closed = False
    return int(lines[0].split()[1]), headers, body[:length], closed


def refused(srv, reason: str) -> float:
    return metric(srv.base_url, "layercast_http_refused_total", reason=reason)


def has_security_headers(headers: dict) -> bool:
    return ("frame-ancestors 'self'" in headers.get("content-security-policy", "")
            and headers.get("x-content-type-options") == "nosniff")


# ---------------------------------------------------------------------------------------------
# strict framing: one case per shape of a smuggled or broken request


H = b"Host: 127.0.0.1\r\n"
RAIN = b"/api/rooms/edge/rain"

FRAMING = {
    "content_length_and_chunked":
        (b"POST " + RAIN + b" HTTP/1.1\r\n" + H + b"Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}",
         400, "content_length_and_transfer_encoding"),
    "two_different_content_lengths":
        (b"POST " + RAIN + b" HTTP/1.1\r\n" + H + b"Content-Length: 2\r\nContent-Length: 7\r\n\r\n{}",
         400, "duplicate_content_length"),
    "space_before_the_colon":
        (b"POST " + RAIN + b" HTTP/1.1\r\n" + H + b"Transfer-Encoding : chunked\r\n\r\n0\r\n\r\n",
         400, "bad_header"),
    "content_length_not_a_number":
        (b"POST " + RAIN + b" HTTP/1.1\r\n" + H + b"Content-Length: 2abc\r\n\r\n{}",
         400, "bad_content_length"),
    "folded_header":
        (b"GET /healthz HTTP/1.1\r\n" + H + b"X-A: 1\r\n  continued\r\n\r\n", 400, "bad_header"),
    "two_hosts":
        (b"GET /healthz HTTP/1.1\r\n" + H + b"Host: evil.example\r\n\r\n", 400, "duplicate_host"),
    "lowercase_method":
        (b"get /healthz HTTP/1.1\r\n" + H + b"\r\n", 405, "bad_method"),
    "unknown_method":
        (b"BREW /healthz HTTP/1.1\r\n" + H + b"\r\n", 405, "bad_method"),
    "put":
        (b"PUT /healthz HTTP/1.1\r\n" + H + b"Content-Length: 0\r\n\r\n", 405, "bad_method"),
    "other_subprotocol_only":
        (b"GET /ws?scene=radar HTTP/1.1\r\n" + H + b"Upgrade: websocket\r\nConnection: Upgrade\r\n"
         b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
         b"Sec-WebSocket-Protocol: chat\r\n\r\n", 400, "subprotocol"),
}


@pytest.mark.parametrize("case", list(FRAMING))
def test_bad_framing_is_refused_and_closed(edge_server, unharmed, case):
    request, status, reason = FRAMING[case]
    before = refused(edge_server, reason)
    got, headers, body, closed = exchange(edge_server, request)
    assert got == status, f"{case}: {got} {body!r}"
    assert closed, f"{case}: the connection stayed open after the refusal"
    assert has_security_headers(headers), headers
    if status == 405:
        assert headers.get("allow") == "GET, POST", headers
    if reason == "subprotocol":
        assert b"layercast.v1" in body, body
    assert refused(edge_server, reason) == before + 1, f"{case} not counted as {reason}"


def test_every_connection_carries_one_request_so_each_is_checked(edge_server, unharmed):
    """A second request on a connection would reach lws unjudged: the answer closes it."""
    with socket.create_connection(("127.0.0.1", edge_server.port), timeout=5) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\n" + H + b"\r\n")
        status, headers, body, closed = read_answer(sock)
        assert status == 200 and body.startswith(b'{"status":"ok","node":') and headers["connection"] == "close" and closed
    with socket.create_connection(("127.0.0.1", edge_server.port), timeout=5) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\n" + H + b"\r\nget /healthz HTTP/1.1\r\n" + H + b"\r\n")
        answers = b""
        while chunk := sock.recv(65536):
            answers += chunk
        assert answers.count(b"HTTP/1.1 ") == 1 and answers.startswith(b"HTTP/1.1 200"), answers[:200]


def test_answered_clients_that_keep_their_sockets_leave_the_server_idle(start_server):
    """Holding a kept-alive connection after its answer once made lws spin at about 80 % of a core."""
    srv = start_server()
    pid = srv.proc.pid
    sockets = [socket.create_connection(("127.0.0.1", srv.port), timeout=5) for _ in range(3)]
    for sock in sockets:
        sock.sendall(b"GET /healthz HTTP/1.1\r\n" + H + b"\r\n")
        read_answer(sock)
    before = cpu_seconds(pid)
    time.sleep(2)
    assert cpu_seconds(pid) - before < 0.5, "the server spins with answered connections open"
    for sock in sockets:
        sock.close()


def cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_a_trickled_post_body_is_cut_off(edge_server, unharmed):
    before = refused(edge_server, "body_timeout")
    with socket.create_connection(("127.0.0.1", edge_server.port), timeout=BODY_TIMEOUT + 3) as sock:
        sock.sendall(b"POST " + RAIN + b" HTTP/1.1\r\n" + H + f"Authorization: Bearer {ADMIN}\r\n".encode()
                     + b"Content-Length: 20\r\n\r\n")
        started = time.monotonic()
        answer = drip(sock, b'{"duration": 1}    ', 0.5)
        elapsed = time.monotonic() - started
    assert answer and answer.startswith(b"HTTP/1.1 408 "), answer
    assert BODY_TIMEOUT - 0.2 <= elapsed <= BODY_TIMEOUT + 1.5, f"cut off after {elapsed:.1f}s"
    assert refused(edge_server, "body_timeout") == before + 1


def test_answers_lws_makes_itself_carry_the_security_headers(edge_server, unharmed):
    # A target that is not an absolute path: libwebsockets answers 403 on its own.
    status, headers, _, _ = exchange(edge_server, b"GET nowhere HTTP/1.1\r\n" + H + b"\r\n")
    assert status == 403 and has_security_headers(headers), headers
    status, headers, _, _ = exchange(edge_server, b"GET /no-such-file HTTP/1.1\r\n" + H + b"Connection: close\r\n\r\n")
    assert status == 404 and has_security_headers(headers), headers


# ---------------------------------------------------------------------------------------------
# names


def test_a_room_name_with_a_line_break_is_bad_room(edge_server, unharmed):
    before = metric(edge_server.base_url, "layercast_messages_rejected_total", reason="bad_room")
    client = LayercastClient.connect(edge_server.base_url, room="lobby\r\nSet-Cookie:x=", role="spectator")
    try:
        error = client.wait_error("bad_room", 3)
        assert "1–32" in error["message"] and "Set-Cookie" not in error["message"]
        assert client.wait_closed(3) == 1008
    finally:
        client.close()
    assert metric(edge_server.base_url, "layercast_messages_rejected_total", reason="bad_room") == before + 1


def test_a_scene_name_is_never_echoed_unless_it_follows_the_rule(edge_server, unharmed):
    client = LayercastClient.connect(edge_server.base_url, scene="radar\r\nX-Injected: 1", room="r1")
    try:
        error = client.wait_error("unknown_scene", 3)
        assert "X-Injected" not in error["message"], error
        assert client.wait_closed(3) == 1008
    finally:
        client.close()


@pytest.mark.parametrize("path,code", [
    ("/api/rooms/has%20space/leaderboard", "bad_room"),
    ("/api/rooms/" + "x" * 33 + "/leaderboard", "bad_room"),
    ("/api/players/ada%22%3Cb%3E", "bad_player"),
])
def test_api_names_follow_the_rule(edge_server, unharmed, path, code):
    before = metric(edge_server.base_url, "layercast_api_errors_total", code=code)
    resp = http_get(edge_server.base_url, path)
    assert resp.status == 400 and resp.json()["error"] == code, resp
    assert "<b>" not in resp.body.decode()
    assert metric(edge_server.base_url, "layercast_api_errors_total", code=code) == before + 1


def test_a_path_with_an_encoded_line_break_is_refused(edge_server, unharmed):
    before = refused(edge_server, "bad_target")
    status, headers, body, closed = exchange(
        edge_server, b"GET /api/players/ada%0d%0aSet-Cookie:x=1 HTTP/1.1\r\n" + H + b"\r\n")
    assert status == 400 and closed and b"control characters" in body, body
    assert "set-cookie" not in headers
    assert refused(edge_server, "bad_target") == before + 1


def test_admin_routes_refuse_a_bad_room(edge_server, unharmed):
    status, _, body, _ = exchange(edge_server, b"POST /api/rooms/a%20b/rain HTTP/1.1\r\n" + H
                                  + f"Authorization: Bearer {ADMIN}\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{{}}".encode())
    assert status == 400 and b'"bad_room"' in body, body
    assert metric(edge_server.base_url, "layercast_api_errors_total", code="bad_room") >= 1


# ---------------------------------------------------------------------------------------------
# WebSocket close rules (RFC 6455 §5.5.1, §7.4)


def ws_open(srv, room: str) -> tuple[socket.socket, bytes]:
    sock = socket.create_connection(("127.0.0.1", srv.port), timeout=5)
    key = base64.b64encode(os.urandom(16))
    sock.sendall(b"GET /ws?scene=radar&room=" + room.encode() + b"&role=spectator HTTP/1.1\r\n" + H
                 + b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + key
                 + b"\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: layercast.v1\r\n\r\n")
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, rest = data.partition(b"\r\n\r\n")
    assert b" 101 " in head.split(b"\r\n")[0], head
    return sock, rest


def ws_frame(opcode: int, payload: bytes, masked: bool = True) -> bytes:
    assert len(payload) < 126
    mask = os.urandom(4) if masked else b""
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload)) if masked else payload
    return bytes([0x80 | opcode, (0x80 if masked else 0) | len(payload)]) + mask + body


def ws_close_answer(sock: socket.socket, buffer: bytes, timeout: float = 3.0):
    """The server's close frame: (code or None, reason bytes); frames before it are skipped.
    Fails when none comes within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    sock.settimeout(timeout)
    while time.monotonic() < deadline:
        while len(buffer) >= 2:
            opcode, length, offset = buffer[0] & 0x0F, buffer[1] & 0x7F, 2
            if length == 126:
                length, offset = struct.unpack(">H", buffer[2:4])[0], 4
            elif length == 127:
                length, offset = struct.unpack(">Q", buffer[2:10])[0], 10
            if len(buffer) < offset + length:
                break
            payload, buffer = buffer[offset:offset + length], buffer[offset + length:]
            if opcode == 8:
                return (struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else None), payload[2:]
        chunk = sock.recv(65536)
        assert chunk, "the server closed the socket without a close frame"
        buffer += chunk
    raise AssertionError(f"no close frame within {timeout}s")


CLOSES = {
    "code_5000": (struct.pack(">H", 5000) + b"bye", 1002, "close_code"),
    "one_byte_payload": (b"\x03", 1002, "close_payload"),
    "reason_not_utf8": (struct.pack(">H", 1000) + b"\xff\xfe", 1007, "close_reason_utf8"),
    "code_1005_on_the_wire": (struct.pack(">H", 1005), 1002, None),   # lws answers 1002 itself
    "code_1015_on_the_wire": (struct.pack(">H", 1015), 1002, None),
}


@pytest.mark.parametrize("case", list(CLOSES))
def test_bad_close_frames_fail_the_connection(edge_server, unharmed, case):
    payload, code, reason = CLOSES[case]
    before = reason and metric(edge_server.base_url, "layercast_websocket_violations_total", reason=reason)
    sock, rest = ws_open(edge_server, unique_room("close"))
    with sock:
        sock.sendall(ws_frame(8, payload))
        got, _ = ws_close_answer(sock, rest)
    assert got == code, f"{case}: closed with {got}, expected {code}"
    if reason:
        assert metric(edge_server.base_url, "layercast_websocket_violations_total", reason=reason) == before + 1


def test_a_good_close_frame_is_echoed(edge_server, unharmed):
    sock, rest = ws_open(edge_server, unique_room("close"))
    with sock:
        sock.sendall(ws_frame(8, struct.pack(">H", 1000) + "au revoir é".encode()))
        assert ws_close_answer(sock, rest) == (1000, "au revoir é".encode())


def test_an_unmasked_client_frame_fails_the_connection(edge_server, unharmed):
    sock, rest = ws_open(edge_server, unique_room("mask"))
    with sock:
        sock.sendall(ws_frame(1, b'{"type":"ping","id":1}', masked=False))
        code, _ = ws_close_answer(sock, rest)
    assert code == 1002


# ---------------------------------------------------------------------------------------------
# the ledger: damaged copies refused at start, backup and restore


@pytest.fixture(scope="module")
def recorded_ledger(tmp_path_factory):
    """A ledger with one finished rain and its awards; its write-ahead log as it was mid-run;
    and the rain as the API served it."""
    _require_binary()
    base = tmp_path_factory.mktemp("ledger")
    data = base / "data"
    srv = ServerProcess(["--admin-token", ADMIN, "--rain-every", "0", "--rain-results", "1", "--data", str(data)])
    try:
        room = unique_room("ledger")
        player = connect_player(srv, room)
        rain = start_rain(srv, room, duration=3, winners=12, pool=120, minCoins=10, maxCoins=10, seed=18)
        wait_phase(player, "raining", COUNTDOWN + 3)
        play([player], time.monotonic() + 3)
        wait_phase(player, "results", 6)
        player.close()
        assert events(player, "award"), "no award was made"
        wal = base / "mid-run.sqlite-wal"
        shutil.copyfile(data / "layercast.sqlite-wal", wal)
        document = http_get(srv.base_url, f"/api/rains/{rain['rain']}").json()
        board = http_get(srv.base_url, f"/api/rooms/{room}/leaderboard?limit=100").json()
        yield {"server": srv, "data": data, "wal": wal, "base": base, "rain": document, "room": room, "board": board}
    finally:
        srv.stop()


def run_layercast(*args: str, timeout: float = 30) -> subprocess.CompletedProcess:
    return subprocess.run([str(BINARY), *args], cwd=REPO, capture_output=True, text=True, timeout=timeout)


def damaged_copy(recorded, kind: str):
    """A copy of the stopped ledger, damaged as `kind` says."""
    recorded["server"].stop()
    with sqlite3.connect(recorded["data"] / "layercast.sqlite") as db:   # all in the main file
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    target = recorded["base"] / f"copy-{kind}"
    target.mkdir()
    path = target / "layercast.sqlite"
    shutil.copyfile(recorded["data"] / "layercast.sqlite", path)
    size = path.stat().st_size
    page = 4096
    assert size >= 6 * page, f"the ledger is too small ({size} bytes) to damage its middle"
    if kind == "empty":
        path.write_bytes(b"")
    elif kind == "empty_beside_its_wal":
        path.write_bytes(b"")
        shutil.copyfile(recorded["wal"], target / "layercast.sqlite-wal")
    elif kind == "garbage_page_in_the_middle":
        with open(path, "r+b") as f:
            f.seek((size // page // 2) * page)
            f.write(os.urandom(page))
    elif kind == "garbage_header":
        with open(path, "r+b") as f:
            f.write(os.urandom(100))
    elif kind == "truncated_in_half":
        os.truncate(path, size // 2)
    return target


@pytest.mark.parametrize("kind", ["empty", "empty_beside_its_wal", "garbage_page_in_the_middle",
                                  "garbage_header", "truncated_in_half"])
def test_a_damaged_ledger_is_refused_at_start(recorded_ledger, kind):
    target = damaged_copy(recorded_ledger, kind)
    before = sorted(p.name for p in target.iterdir())
    result = run_layercast("serve", "--port", "0", "--public", "public", "--data", str(target))
    assert result.returncode == 2, f"{kind}: exit {result.returncode}; stdout {result.stdout!r} stderr {result.stderr!r}"
    message = result.stderr
    assert str(target / "layercast.sqlite") in message, message
    assert "move layercast.sqlite" in message and "backup" in message, message
    assert "serving" not in result.stdout
    assert sorted(p.name for p in target.iterdir()) == before, "the refused ledger was changed"
    check = run_layercast("ledger", "check", "--data", str(target))
    assert check.returncode == 1, check
    assert "layercast.sqlite" in check.stderr


def test_backup_while_serving_then_restore_gives_back_every_award(recorded_ledger, start_server, tmp_path):
    recorded = recorded_ledger
    recorded["server"].stop()
    srv = start_server("--data", str(recorded["data"]), "--rain-every", "0")
    backup = tmp_path / "backup.sqlite"
    result = run_layercast("ledger", "backup", str(backup), "--data", str(recorded["data"]))
    assert result.returncode == 0, result.stderr
    awards = recorded["rain"]["awards"]
    assert f"{len(awards)} awards" in result.stdout, result.stdout
    again = run_layercast("ledger", "backup", str(backup), "--data", str(recorded["data"]))
    assert again.returncode == 2 and "already exists" in again.stderr
    srv.stop()

    restored = tmp_path / "restored"
    restored.mkdir()
    shutil.copyfile(backup, restored / "layercast.sqlite")
    check = run_layercast("ledger", "check", "--data", str(restored))
    assert check.returncode == 0 and f"{len(awards)} awards" in check.stdout, check
    back = start_server("--data", str(restored), "--rain-every", "0")
    document = http_get(back.base_url, f"/api/rains/{recorded['rain']['rain']}").json()
    assert document["awards"] == awards
    assert document["plan"] == recorded["rain"]["plan"]
    board = http_get(back.base_url, f"/api/rooms/{recorded['room']}/leaderboard?limit=100").json()
    assert board == recorded["board"]


def test_ledger_check_without_a_ledger_exits_2(tmp_path):
    _require_binary()
    result = run_layercast("ledger", "check", "--data", str(tmp_path / "none"))
    assert result.returncode == 2 and "no ledger" in result.stderr
    assert not (tmp_path / "none").exists(), "check created a ledger"


def test_joins_open_no_more_rooms_than_the_limit_and_api_404s_are_json(start_server):
    srv = start_server("--max-rooms", "2")
    first = LayercastClient.connect(srv.base_url, scene="radar", room="one", role="spectator")
    second = LayercastClient.connect(srv.base_url, scene="snow", room="one", role="spectator")
    first.wait_welcome(5)
    second.wait_welcome(5)
    third = LayercastClient.connect(srv.base_url, scene="radar", room="two", role="spectator")
    assert "2 rooms" in third.wait_error("server_full", 5)["message"] and third.wait_closed(5) == 1013
    # An open room still takes joins.
    again = LayercastClient.connect(srv.base_url, scene="radar", room="one", role="spectator")
    again.wait_welcome(5)
    for client in (first, second, third, again):
        client.close()
    resp = http_get(srv.base_url, "/api/nothing-here")
    assert resp.status == 404 and resp.json()["error"] == "not_found"


def test_a_stop_signal_right_after_start_is_never_lost(tmp_path):
    """SIGTERM or SIGINT sent the moment `serving` is printed stops the server at once, ten times
    out of ten (systemd and Kubernetes stop nodes this way; a lost signal means a kill later)."""
    _require_binary()
    for attempt in range(10):
        proc = subprocess.Popen([str(BINARY), "serve", "--port", "0", "--data", str(tmp_path / f"data-{attempt}")],
                                cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert "serving" in proc.stdout.readline()
            proc.send_signal(signal.SIGTERM if attempt % 2 else signal.SIGINT)
            assert proc.wait(5) == 0, attempt
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(5)
