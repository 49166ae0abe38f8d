"""`layercast serve` against docs/protocol.md: HTTP, the WebSocket protocol, fan-out, limits.

Every test talks to a real server on 127.0.0.1 (fixtures in conftest.py) through the scripted
client in layercast_client.py, which knows only what protocol.md says. Scene facts used here
come from the radar scene's contract: 414x736, 44x44 image items named item-1, item-2, ...
added every 0.5 s and fading in over 1 s; a tap on an item raises
`event {"name":"select","by":<client>,"data":{"item":"item-N"}}` for the whole room.
"""

from __future__ import annotations

import base64
import json
import math
import os
import re
import signal
import socket
import subprocess
import time

import pytest

from conftest import (BINARY, REPO, has_metric, http_get, metric, read_metrics, unique_room,
                      wait_until)
from layercast_client import (ConnectRefused, LayercastClient, check_item,
                              decimals_ok, item_center, item_contains, item_corners,
                              item_point, normalized)

SCENE_W, SCENE_H = 414, 736
RADAR_CENTRE = (207.0, 368.0)
RADAR_RADIUS = 207.0
ITEM_NAME = re.compile(r"^item-(\d+)$")
CSP_SELF = re.compile(r"frame-ancestors\s+'self'")
# A well-behaved client's frames must keep coming: no gap in n, and no pause longer than this.
MAX_FRAME_INTERVAL = 0.5


# ---------------------------------------------------------------------------------------------
# helpers


@pytest.fixture
def open_client(server):
    """open_client(room, role="player", srv=None, wait=True, **connect_kwargs) -> client that
    has its welcome and first frame (when wait); every client is closed after the test."""
    made: list[LayercastClient] = []

    def make(room, role="player", srv=None, wait=True, **kwargs) -> LayercastClient:
        base = (srv or server).base_url
        client = LayercastClient.connect(base, room=room, role=role, **kwargs)
        made.append(client)
        if wait:
            client.wait_welcome(5)
            client.wait_frames(1, 5)
        return client

    yield make
    for client in made:
        client.close()


def is_item(item: dict) -> bool:
    return bool(ITEM_NAME.match(item.get("name") or ""))


def item_number(item: dict) -> int:
    return int(ITEM_NAME.match(item["name"]).group(1))


def opaque_item(client: LayercastClient, timeout: float = 6.0):
    """Waits for a radar item with o >= 0.99 and returns (frame record, item), the youngest
    such item (the one with the most life left)."""
    def find():
        record = client.frames[-1] if client.frames else None
        if record is None:
            return None
        items = [i for i in record.items if is_item(i) and i.get("o", 1) >= 0.99]
        if not items:
            return None
        return record, max(items, key=item_number)
    return client.wait_for(find, timeout, "a radar item with o >= 0.99")


def free_scene_points(items: list[dict]) -> list[tuple[float, float]]:
    """Points inside the radar disc, well clear (8 pt) of every item, plus points outside the
    radar square: places where a tap hits no item."""
    points = []
    cx, cy = RADAR_CENTRE
    for r_frac in (0.0, 0.35, 0.6, 0.85):
        for k in range(12):
            angle = 2 * math.pi * k / 12
            x = cx + r_frac * RADAR_RADIUS * math.cos(angle)
            y = cy + r_frac * RADAR_RADIUS * math.sin(angle)
            if not any(item_contains(i, x, y, margin=8) for i in items if is_item(i)):
                points.append((round(x, 2), round(y, 2)))
    return points


def stream_ok(client: LayercastClient, since_n: int, min_frames: int) -> None:
    """A well-behaved client kept getting frames: from since_n on, no gap, no long pause, at
    least min_frames frames, no protocol violation."""
    records = [r for r in client.frames_snapshot() if r.n >= since_n]
    problems = client.check_stream(since_n=since_n, max_interval=MAX_FRAME_INTERVAL)
    assert not problems, f"well-behaved client's stream broke: {problems[:5]}"
    assert len(records) >= min_frames, (
        f"well-behaved client got {len(records)} frames since n={since_n}, expected at least "
        f"{min_frames}")


def ping_barrier(client: LayercastClient, ping_id: float, timeout: float = 3.0) -> dict:
    """Sends ping and waits for its pong: everything the server had to say about earlier
    messages of this client has been sent by then (one connection, in order)."""
    mark = client.mark()
    client.ping(ping_id)
    return client.wait_message("pong", lambda m: m.get("id") == ping_id, timeout, mark,
                               f"pong {ping_id}")


def rooms_listing(srv) -> list[dict]:
    resp = http_get(srv.base_url, "/api/rooms")
    assert resp.status == 200, f"/api/rooms answered {resp.status}"
    return resp.json()["rooms"]


def room_entry(srv, room: str, scene: str = "radar"):
    for entry in rooms_listing(srv):
        if entry.get("room") == room and entry.get("scene") == scene:
            return entry
    return None


def raw_ws_handshake(port: int, path: str, rcvbuf: int | None = None,
                     origin: str | None = None, timeout: float = 5.0, extensions: str | None = None):
    """Opens a WebSocket by hand; returns (socket, status line, headers).
    With rcvbuf the socket's receive buffer is made small before connecting; `extensions` is
    sent as Sec-WebSocket-Extensions."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(timeout)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Upgrade: websocket",
             "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13",
             "Sec-WebSocket-Protocol: layercast.v1"]
    if origin:
        lines.append(f"Origin: {origin}")
    if extensions:
        lines.append(f"Sec-WebSocket-Extensions: {extensions}")
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    data = b""
    deadline = time.monotonic() + timeout
    while b"\r\n\r\n" not in data and time.monotonic() < deadline:
        chunk = sock.recv(1)          # byte by byte: read nothing past the headers
        if not chunk:
            break
        data += chunk
    head = data.decode("latin-1")
    status = head.split("\r\n", 1)[0]
    return sock, status, head


# ---------------------------------------------------------------------------------------------
# The client's own model (no server needed): it must apply frames exactly as protocol.md says.


def test_client_applies_full_and_delta_frames_as_documented():
    client = LayercastClient.__new__(LayercastClient)
    # the fields the frame code needs
    import threading
    import collections
    client._cond = threading.Condition()
    client.welcome = {"type": "welcome"}
    client.frames = collections.deque(maxlen=10)
    client.first_seen = {}
    client.frame_count = client.full_count = 0
    client.model = client.last_n = client.last_t = None
    client.paths = {}  # the frame's path table (protocol.md, "Paths")
    client.gaps, client.messages, client.violations, client.style_notes = [], [], [], []
    full = {"type": "frame", "n": 120, "t": 4.0, "full": True, "items": [
        {"id": 1, "name": "radar", "m": [1, 0, 0, 1, 0, 161], "s": [414, 414], "bg": "#ffffff"},
        {"id": 2, "name": "pulse-0", "m": [0.75, 0, 0, 0.75, 51.75, 212.75], "s": [414, 414],
         "o": 0.85, "bc": "#7f7f7f", "bw": 1, "cr": 207},
        {"id": 7, "name": "item-1", "m": [1, 0, 0, 1, 10, 10], "s": [44, 44], "img": "radar-item"},
        {"id": 9, "name": "item-3", "m": [1, 0, 0, 1, 120.5, 300.25], "s": [44, 44],
         "img": "radar-item", "o": 0.5}]}
    delta = {"type": "frame", "n": 121, "t": 4.033333, "full": False,
             "set": [{"id": 2, "m": [0.76, 0, 0, 0.76, 49.68, 210.68], "o": 0.84},
                     {"id": 9, "o": None}],
             "add": [{"id": 10, "name": "item-4", "m": [1, 0, 0, 1, 30, 400], "s": [44, 44],
                      "img": "radar-item", "o": 0.03}],
             "remove": [7]}
    reorder = {"type": "frame", "n": 122, "t": 4.066667, "full": False, "order": [1, 10, 2, 9]}
    client._on_text(json.dumps(full), 0.0)
    client._on_text(json.dumps(delta), 0.1)
    assert client.violations == []
    assert [i["id"] for i in client.model] == [1, 2, 9, 10]
    assert client.model[1]["o"] == 0.84 and client.model[1]["m"][4] == 49.68
    assert "o" not in client.model[2], "null must return the field to its default"
    assert normalized(client.model)[2]["o"] == 1
    client._on_text(json.dumps(reorder), 0.2)
    assert [i["id"] for i in client.model] == [1, 10, 2, 9]
    # a delta that skips a frame is flagged
    client._on_text(json.dumps({"type": "frame", "n": 124, "t": 4.13, "full": False}), 0.3)
    assert any("does not follow" in v for v in client.violations)


def test_client_item_centre_affine_and_projective():
    assert item_center({"m": [1, 0, 0, 1, 120.5, 300.25], "s": [44, 44]}) == (142.5, 322.25)
    # a quarter turn: (22, 22) -> (-22 + 100, 22 + 100)
    assert item_center({"m": [0, 1, -1, 0, 100, 100], "s": [44, 44]}) == (78, 122)
    assert item_center({"s": [10, 20]}) == (5, 10)          # m defaults to identity
    projective = {"m": [1, 0, 0, 1, 0, 0, 0.001, 0, 1], "s": [100, 100]}
    cx, cy = item_center(projective)
    assert (cx, cy) == pytest.approx((50 / 1.05, 50 / 1.05))
    # independent check: the drawn quadrilateral's diagonals meet at the centre
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = item_corners(projective)
    # intersection of (p0,p2) and (p1,p3)
    den = (x0 - x2) * (y1 - y3) - (y0 - y2) * (x1 - x3)
    px = ((x0 * y2 - y0 * x2) * (x1 - x3) - (x0 - x2) * (x1 * y3 - y1 * x3)) / den
    py = ((x0 * y2 - y0 * x2) * (y1 - y3) - (y0 - y2) * (x1 * y3 - y1 * x3)) / den
    assert (cx, cy) == pytest.approx((px, py))
    assert item_contains(projective, cx, cy) and not item_contains(projective, 120, 50)
    assert item_point(projective, 100, 0) == pytest.approx((100 / 1.1, 0))


# ---------------------------------------------------------------------------------------------
# HTTP


def test_healthz(server):
    resp = http_get(server.base_url, "/healthz")
    assert resp.status == 200
    assert resp.json()["status"] == "ok" and resp.json()["node"]


def test_api_scenes_lists_radar(server):
    resp = http_get(server.base_url, "/api/scenes")
    assert resp.status == 200
    scenes = resp.json()["scenes"]
    radar = [s for s in scenes if s.get("id") == "radar"]
    assert len(radar) == 1, f"radar not listed once in {scenes}"
    assert radar[0]["size"] == {"width": SCENE_W, "height": SCENE_H}
    assert radar[0]["title"] == "Pulsing radar"
    assert radar[0]["interactions"] == ["tap"]


def content_type(resp) -> str:
    return resp.headers.get("content-type", "").split(";")[0].strip().lower()


@pytest.fixture
def static_server(start_server, tmp_path):
    """A server whose --public is a made-up tree, with a secret file beside it."""
    public = tmp_path / "www"
    (public / "sub" / "deeper").mkdir(parents=True)
    (public / "index.html").write_text("<!doctype html><title>idx</title>INDEX-MARKER")
    (public / "app.js").write_text("console.log('JS-MARKER');")
    (public / "style.css").write_text("body { color: red } /* CSS-MARKER */")
    (public / "pic.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="1" '
                                    'height="1"><!-- SVG-MARKER --></svg>')
    (public / "sub" / "inner.txt").write_text("INNER-MARKER")
    (public / "sub" / "page.html").write_text("<p>SUBPAGE-MARKER</p>")
    (tmp_path / "secret.txt").write_text("TOP-SECRET-MARKER")
    return start_server(public=public)


@pytest.mark.parametrize("path,types,marker", [
    ("/index.html", {"text/html"}, b"INDEX-MARKER"),
    ("/", {"text/html"}, b"INDEX-MARKER"),
    ("/app.js", {"text/javascript", "application/javascript"}, b"JS-MARKER"),
    ("/style.css", {"text/css"}, b"CSS-MARKER"),
    ("/pic.svg", {"image/svg+xml"}, b"SVG-MARKER"),
    ("/sub/page.html", {"text/html"}, b"SUBPAGE-MARKER"),
])
def test_static_files_content_types(static_server, path, types, marker):
    resp = http_get(static_server.base_url, path)
    assert resp.status == 200, f"GET {path} answered {resp.status}"
    assert content_type(resp) in types, f"GET {path}: Content-Type {resp.headers.get('content-type')!r}"
    assert marker in resp.body


def test_static_missing_is_404(static_server, server):
    for srv, path in [(static_server, "/nope.html"), (static_server, "/sub/nope.js"),
                      (server, "/definitely-missing.css"), (server, "/assets/missing.svg")]:
        resp = http_get(srv.base_url, path)
        assert resp.status == 404, f"GET {path} answered {resp.status}, expected 404"


def test_no_directory_listing(static_server, server):
    for path in ["/sub/", "/sub", "/sub/deeper/"]:
        resp = http_get(static_server.base_url, path)
        assert b"inner.txt" not in resp.body and b"page.html" not in resp.body, (
            f"GET {path} lists the directory: {resp.status} {resp.body[:200]!r}")
        assert resp.status in (301, 302, 307, 308, 403, 404), (
            f"GET {path} (a directory without index.html) answered {resp.status}")
    for path in ["/assets/", "/lib/"]:
        resp = http_get(server.base_url, path)
        assert b"radar-item.svg" not in resp.body and b".js\"" not in resp.body, (
            f"GET {path} lists the directory: {resp.status} {resp.body[:200]!r}")
        assert resp.status in (301, 302, 307, 308, 403, 404), f"GET {path} answered {resp.status}"


ESCAPES = ["/../{f}", "/..%2f{f}", "/%2e%2e/{f}", "/%2E%2E/{f}", "/%2e%2e%2f{f}",
           "/sub/../../{f}", "/sub/%2e%2e/%2e%2e/{f}", "/.%2e/{f}", "/%2e./{f}",
           "/..%5c{f}", "/%252e%252e/{f}", "//../{f}", "/./../{f}", "/sub/..%2f..%2f{f}"]


@pytest.mark.parametrize("pattern", ESCAPES)
def test_path_escape_does_not_leak(static_server, server, pattern):
    resp = http_get(static_server.base_url, pattern.format(f="secret.txt"))
    assert b"TOP-SECRET-MARKER" not in resp.body, f"{pattern} leaked a file outside --public"
    assert resp.status != 200 or b"INDEX-MARKER" in resp.body, (
        f"{pattern} answered 200 with {resp.body[:80]!r}")
    resp = http_get(server.base_url, pattern.format(f="Package.swift"))
    assert b"swift-tools-version" not in resp.body, f"{pattern} leaked Package.swift"
    assert resp.status != 200, f"{pattern} answered 200 with {resp.body[:80]!r}"


def test_public_pages_and_assets_served(server):
    for path in ["/", "/index.html", "/scene.html", "/embed.html"]:
        resp = http_get(server.base_url, path)
        assert resp.status == 200, f"GET {path} answered {resp.status}"
        assert content_type(resp) == "text/html", f"GET {path}: {resp.headers.get('content-type')}"
    assert http_get(server.base_url, "/").body == http_get(server.base_url, "/index.html").body
    for path in ["/assets/logo.svg", "/assets/radar/radar-item.svg"]:   # a file of public/, a scene's image
        resp = http_get(server.base_url, path)
        assert resp.status == 200 and content_type(resp) == "image/svg+xml", (path, repr(resp))


def check_frame_headers(resp, path: str, extra_origin: str | None = None) -> None:
    csp = resp.header_values("Content-Security-Policy")
    assert csp, f"GET {path} ({resp.status}) has no Content-Security-Policy"
    assert any(CSP_SELF.search(v) for v in csp), f"GET {path}: CSP {csp} lacks frame-ancestors 'self'"
    if extra_origin:
        assert any(extra_origin in v for v in csp), f"GET {path}: CSP {csp} lacks {extra_origin}"
    assert not resp.header_values("X-Frame-Options"), f"GET {path} sends X-Frame-Options"


def test_every_answer_carries_csp_frame_ancestors(server):
    for path in ["/", "/index.html", "/scene.html", "/assets/logo.svg", "/assets/radar/radar-item.svg", "/api/scenes",
                 "/api/rooms", "/healthz", "/metrics", "/missing-file.html"]:
        check_frame_headers(http_get(server.base_url, path), path)


def test_csp_names_allowed_origin(start_server):
    srv = start_server("--allow-origin", "http://example.test")
    for path in ["/", "/scene.html", "/healthz", "/missing-file.html"]:
        check_frame_headers(http_get(srv.base_url, path), path, extra_origin="http://example.test")


def test_api_rooms_lists_room_and_clients_by_role(server, open_client, room):
    assert room_entry(server, room) is None
    p1 = open_client(room)
    open_client(room)
    spectator = open_client(room, role="spectator")
    entry = wait_until(lambda: room_entry(server, room), 3, f"room {room} in /api/rooms")
    assert entry["scene"] == "radar"
    assert entry["clients"].get("player") == 2, entry
    assert entry["clients"].get("spectator") == 1, entry
    assert entry["fps"] == 30
    assert abs(entry["uptime"] - p1.view_time()) < 2, (entry, p1.view_time())
    assert isinstance(entry["frame"], int) and abs(entry["frame"] - p1.latest().n) <= 30, \
        (entry, p1.latest().n)
    spectator.close()
    wait_until(lambda: (room_entry(server, room) or {}).get("clients", {}).get("spectator", 0) == 0,
               3, "the spectator to leave /api/rooms")
    entry = room_entry(server, room)
    assert entry is not None and entry["clients"].get("player") == 2, entry


def test_metrics_series(server, open_client, room):
    before = read_metrics(server.base_url)
    p_before = metric(before, "layercast_clients", role="player")
    s_before = metric(before, "layercast_clients", role="spectator")
    player = open_client(room)
    spectator = open_client(room, role="spectator")
    player.wait_more_frames(5, 3)
    mark = player.mark()
    player.send_text("{not json")
    player.wait_error("bad_json", 3, mark)
    player.tap(2, 2)
    ping_barrier(player, 1)
    text = http_get(server.base_url, "/metrics").body.decode()
    samples = read_metrics(server.base_url)
    assert metric(samples, "layercast_rooms") >= 1
    assert metric(samples, "layercast_clients", role="player") == p_before + 1
    assert metric(samples, "layercast_clients", role="spectator") == s_before + 1
    assert metric(samples, "layercast_frames_encoded_total", kind="full") >= 1
    assert metric(samples, "layercast_frames_encoded_total", kind="delta") >= 1
    assert has_metric(samples, "layercast_frames_skipped_total")
    assert metric(samples, "layercast_messages_rejected_total", reason="bad_json") >= 1
    assert "layercast_clients_dropped_total" in text, "no layercast_clients_dropped_total family"
    assert re.search(r"^# TYPE layercast_tap_latency_seconds histogram", text, re.M), \
        "layercast_tap_latency_seconds is not declared a histogram"
    count = metric(samples, "layercast_tap_latency_seconds_count")
    assert count >= 1, "a resolved tap is not in layercast_tap_latency_seconds"
    assert has_metric(samples, "layercast_tap_latency_seconds_sum")
    buckets = sorted(((float("inf") if lab["le"] == "+Inf" else float(lab["le"])), v)
                     for name, lab, v in samples
                     if name == "layercast_tap_latency_seconds_bucket" and "le" in lab)
    assert buckets and buckets[-1][0] == float("inf"), "histogram has no +Inf bucket"
    assert [v for _, v in buckets] == sorted(v for _, v in buckets), "buckets not cumulative"
    assert buckets[-1][1] == count
    sent = metric(samples, "layercast_bytes_sent_total")
    assert sent > 0
    player.wait_more_frames(5, 3)
    assert metric(server.base_url, "layercast_bytes_sent_total") > sent
    spectator.close()
    wait_until(lambda: metric(server.base_url, "layercast_clients", role="spectator") == s_before,
               3, "layercast_clients{role=spectator} to drop back")


# ---------------------------------------------------------------------------------------------
# WebSocket: joining


def test_welcome_fields(server, open_client, room):
    client = open_client(room)
    assert client.subprotocol == "layercast.v1"
    w = client.welcome
    assert w["type"] == "welcome" and w["protocol"] == 2
    assert w["room"] == room and w["scene"] == "radar" and w["role"] == "player"
    assert w["title"] == "Pulsing radar"
    assert isinstance(w["client"], str) and w["client"]
    assert w["size"] == {"width": SCENE_W, "height": SCENE_H}
    assert w["fps"] == 30
    assert w["interactions"] == ["tap"]
    assert isinstance(w["time"], (int, float)) and 0 <= w["time"] < 2, \
        f"a new room's clock starts at 0, welcome.time={w['time']}"
    assert decimals_ok(w["time"], 6)
    assets = w["assets"]
    assert isinstance(assets, dict) and assets
    for asset_id, asset in assets.items():
        assert isinstance(asset["url"], str) and asset["url"].startswith("/"), asset
        assert asset["width"] > 0 and asset["height"] > 0, asset
        resp = http_get(server.base_url, asset["url"])
        assert resp.status == 200, f"asset {asset_id} at {asset['url']}: {resp.status}"
    # A player that brought no id: its public id for everyone, the secret it should keep for itself.
    assert re.fullmatch(r"p-[0-9a-f]{16}", w["player"]["id"]) and w["player"]["total"] == 0, w.get("player")
    assert w["player"]["secret"].startswith("anon-") and w["player"]["name"] == "Guest-" + w["player"]["id"][2:6]
    other = open_client(room, role="spectator")
    assert other.welcome["role"] == "spectator" and "player" not in other.welcome
    assert other.welcome["client"] != w["client"], "client ids must be unique"
    assert other.welcome["time"] >= w["time"]


def test_defaults_room_lobby_role_player(server, open_client):
    client = LayercastClient.connect(server.base_url, room=None, role=None)
    try:
        w = client.wait_welcome(5)
        assert w["room"] == "lobby" and w["role"] == "player"
    finally:
        client.close()


@pytest.mark.parametrize("query,code", [
    ({"scene": "no-such-scene", "room": "r1"}, "unknown_scene"),
    ({"room": "r1"}, "unknown_scene"),                       # scene is required
    ({"scene": "radar", "room": "has space"}, "bad_room"),
    ({"scene": "radar", "room": "x" * 33}, "bad_room"),
    ({"scene": "radar", "room": "a/b"}, "bad_room"),
    ({"scene": "radar", "room": "r1", "role": "admin"}, "bad_role"),
])
def test_join_errors(server, query, code):
    client = LayercastClient.connect(server.base_url, scene=None, room=None, role=None,
                                     query=query)
    try:
        err = client.wait_error(code, 3)
        assert isinstance(err.get("message"), str)
        assert client.wait_closed(3) == 1008, f"close code {client.close_code}, expected 1008"
        assert client.welcome is None and client.frame_count == 0
        assert [m.data["type"] for m in client.messages] == ["error"], \
            "exactly one error and nothing else"
    finally:
        client.close()


def test_room_name_limits_accepted(server, open_client):
    name = "A-z_09" + "x" * 26          # 32 characters of the allowed set
    client = open_client(name)
    assert client.welcome["room"] == name


# ---------------------------------------------------------------------------------------------
# WebSocket: frames


def test_ping_pong(server, open_client, room):
    client = open_client(room)
    for ping_id in (5, 7.25, 0):
        pong = ping_barrier(client, ping_id)
        assert pong["id"] == ping_id
        assert isinstance(pong["time"], (int, float))
        assert abs(pong["time"] - client.view_time()) < 1.0, (pong, client.view_time())
    mark = client.mark()
    client.ping()
    pong = client.wait_message("pong", timeout=3, since=mark)
    assert isinstance(pong["time"], (int, float))
    assert client.messages_of("error") == []


def test_first_frame_full_then_deltas(server, open_client, room):
    client = open_client(room)
    first = client.frames_snapshot()[0]
    assert first.full, "the first frame after welcome must be full"
    assert first.t >= client.welcome["time"] - 1e-6
    client.wait_more_frames(45, 5)
    records = client.frames_snapshot()
    assert all(not r.full for r in records[1:]), \
        f"full frames after the first for a prompt client: {[r.n for r in records[1:] if r.full]}"
    assert client.check_stream() == []
    elapsed = records[-1].arrival - records[0].arrival
    rate = (len(records) - 1) / elapsed
    assert 30 * 0.75 <= rate <= 30 * 1.25, f"default --fps 30 but {rate:.1f} frames/s"


def test_frame_rate_and_numbering_fps_20(start_server, open_client, room):
    srv = start_server("--fps", "20")
    client = open_client(room, srv=srv)
    assert client.welcome["fps"] == 20
    client.wait_more_frames(3, 3)
    start = time.monotonic()
    n0 = client.latest().n
    time.sleep(2.0)
    window = [r for r in client.frames_snapshot() if start <= r.arrival <= start + 2.0]
    assert 30 <= len(window) <= 50, f"--fps 20: {len(window)} frames in 2 s, expected 40 +-25%"
    assert [r.n for r in window] == list(range(window[0].n, window[0].n + len(window))), \
        f"n must grow by 1: {[r.n for r in window]}"
    assert window[0].n <= n0 + 2
    dt = (window[-1].t - window[0].t) / (window[-1].n - window[0].n)
    assert dt == pytest.approx(0.05, rel=0.25), f"t advances {dt:.4f} s per frame at 20 fps"
    wall = window[-1].arrival - window[0].arrival
    assert window[-1].t - window[0].t == pytest.approx(wall, rel=0.25), "t does not follow time"
    assert client.check_stream() == []
    entry = room_entry(srv, room)
    assert entry is not None and entry["fps"] == 20


@pytest.mark.parametrize("fps", ["0", "121", "-5"])
def test_fps_out_of_range_refused(fps):
    if not BINARY.is_file():
        pytest.skip(f"no binary at {BINARY}")
    proc = subprocess.Popen([str(BINARY), "serve", "--host", "127.0.0.1", "--port", "0",
                             "--public", "public", f"--fps={fps}"], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        proc.terminate()
        out, err = proc.communicate(timeout=5)
        pytest.fail(f"--fps {fps} (outside 1...120) accepted: the server kept running; "
                    f"stdout {out[:200]!r}")
    assert proc.returncode != 0, f"--fps {fps} accepted: {out[:200]!r}"


def test_frames_well_formed_and_quantised(server, open_client, room):
    client = open_client(room)
    client.wait_for(lambda: client.last_t is not None and client.last_t >= 6.5, 9,
                    "room time 6.5 s (items added and removed)")
    assets = client.welcome["assets"]
    problems, names_by_id = [], {}
    for record in client.frames_snapshot():
        if not decimals_ok(record.t, 6):
            problems.append(f"n={record.n}: t={record.t} not quantised to 1e-6")
        sent_items = record.raw["items"] if record.full else record.raw.get("add", [])
        for item in sent_items:
            problems += [f"n={record.n}: {p}" for p in check_item(item, assets)]
        for entry in record.raw.get("set", []):
            problems += [f"n={record.n} set: {p}" for p in
                         check_item({k: v for k, v in entry.items() if v is not None}, assets)]
        for item in record.items:
            if names_by_id.setdefault(item["id"], item.get("name")) != item.get("name"):
                problems.append(f"n={record.n}: id {item['id']} changed name")
    assert not problems, problems[:10]
    assert client.violations == [], client.violations[:5]
    assert client.style_notes == [], f"deltas depart from protocol.md: {client.style_notes[:5]}"


def test_radar_items_appear_and_fade_in(server, open_client, room):
    client = open_client(room)
    client.wait_for(lambda: client.last_t is not None and client.last_t >= 4.2, 7,
                    "room time 4.2 s")
    first_seen: dict[str, tuple[float, dict]] = {}
    opaque_at: dict[str, float] = {}
    for record in client.frames_snapshot():
        for item in record.items:
            if not is_item(item):
                continue
            first_seen.setdefault(item["name"], (record.t, item))
            if item.get("o", 1) >= 0.99:
                opaque_at.setdefault(item["name"], record.t)
    assets = client.welcome["assets"]
    appeared = sorted(first_seen, key=lambda name: first_seen[name][0])
    assert len(appeared) >= 6, f"by t=4.2 only {appeared} appeared (one every 0.5 s)"
    numbers = [int(ITEM_NAME.match(name).group(1)) for name in appeared]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers), appeared
    for name in appeared:
        t, item = first_seen[name]
        assert item["s"] == [44, 44], item
        assert item.get("img") in assets, item
        assert assets[item["img"]]["width"] == 44 and assets[item["img"]]["height"] == 44
        x, y = item_center(item)
        assert math.hypot(x - RADAR_CENTRE[0], y - RADAR_CENTRE[1]) <= RADAR_RADIUS + 1, \
            f"{name} centre ({x}, {y}) is outside the radar circle"
        if t > client.frames_snapshot()[0].t + 0.05:
            assert item.get("o", 1) <= 0.2, f"{name} appeared with o={item.get('o', 1)}, not fading in"
            if name in opaque_at:
                assert 0.8 <= opaque_at[name] - t <= 1.3, \
                    f"{name} took {opaque_at[name] - t:.2f}s to fade in (1 s)"
    times = [first_seen[name][0] for name in appeared]
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert all(0.4 <= g <= 0.6 for g in gaps), f"items appeared at gaps {gaps} (every 0.5 s)"


def test_late_joiner_full_frame_equals_model(server, open_client, room):
    first = open_client(room)
    checked = 0
    for join_at in (2.5, 6.5):      # after adds; after the 11th item started removals
        first.wait_for(lambda: first.last_t >= join_at, join_at + 3, f"room time {join_at}")
        late = open_client(room)
        full = late.frames_snapshot()[0]
        assert full.full
        mine = first.wait_frame_n(full.n, 3)
        assert mine.n == full.n, f"first client has no frame n={full.n}"
        assert mine.t == full.t
        assert normalized(mine.items) == normalized(full.items), (
            f"at n={full.n} the first client's model (full + deltas) differs from a new "
            f"client's full frame:\nmodel={mine.items}\nfull={full.items}")
        late.wait_more_frames(10, 3)
        for record in late.frames_snapshot()[1:]:
            other = first.frame_at(record.n)
            if other is not None:
                assert normalized(other.items) == normalized(record.items), f"n={record.n}"
                checked += 1
        late.close()
    assert checked >= 15
    assert first.violations == [] and first.gaps == []


def test_deltas_reproduce_full_frames_exactly(server, open_client, room):
    """protocol.md: applying the deltas to a full frame gives *exactly* the later full frames
    (not only the same meaning): fields at their default are absent in both."""
    first = open_client(room)
    first.wait_for(lambda: first.last_t >= 3.2, 6, "room time 3.2")
    late = open_client(room)
    full = late.frames_snapshot()[0]
    mine = first.wait_frame_n(full.n, 3)
    assert mine.n == full.n
    diffs = [(a, b) for a, b in zip(mine.items, full.items) if a != b]
    assert len(mine.items) == len(full.items) and not diffs, (
        f"n={full.n}: model from deltas differs from the full frame in {len(diffs)} items, "
        f"e.g. {diffs[:2]}")


def test_two_clients_same_room_same_frames(server, open_client, room):
    a = open_client(room)
    time.sleep(0.5)
    b = open_client(room, role="spectator")
    b.wait_more_frames(30, 4)
    a.wait_frame_n(b.latest().n, 2)
    common = 0
    for record in b.frames_snapshot():
        other = a.frame_at(record.n)
        assert other is not None, f"client a missed n={record.n}"
        assert other.t == record.t
        assert normalized(other.items) == normalized(record.items), f"n={record.n} differs"
        common += 1
    assert common >= 30
    assert a.check_stream() == [] and b.check_stream() == []


def test_rooms_are_independent(server, open_client):
    room_a, room_b = unique_room("indep-a"), unique_room("indep-b")
    a = open_client(room_a)
    time.sleep(1.0)
    b = open_client(room_b)
    assert b.welcome["time"] < 0.5, "room b must be a new room with its own clock"
    a.wait_more_frames(3, 2)
    b.wait_more_frames(3, 2)
    lag = a.view_time() - b.view_time()
    assert 0.7 <= lag <= 1.5, f"room a started 1 s earlier, but its time leads by {lag:.2f}s"
    rooms = {(e["scene"], e["room"]) for e in rooms_listing(server)}
    assert ("radar", room_a) in rooms and ("radar", room_b) in rooms
    record, item = opaque_item(a)
    mark_b = b.mark()
    a.tap(*item_center(item), view_time=record.t)
    a.wait_event("select", timeout=3)
    time.sleep(0.5)
    assert b.messages_of("event", mark_b) == [], "an event of room a reached room b"


def test_reconnect_same_room_time_continues(server, open_client, room):
    first = open_client(room)
    first.wait_more_frames(20, 3)
    last = first.latest()
    first.close()
    again = open_client(room)
    w = again.welcome
    assert w["room"] == room
    assert w["time"] >= last.t, f"welcome.time {w['time']} went back from {last.t}"
    full = again.frames_snapshot()[0]
    assert full.full
    assert last.t <= full.t <= last.t + 3, f"t {full.t} does not continue from {last.t}"
    assert full.n >= last.n, f"n {full.n} does not continue from {last.n}"
    again.wait_more_frames(5, 2)
    assert again.check_stream() == []
    assert again.welcome["client"] != first.welcome["client"]


def test_room_removed_after_idle(start_server, open_client, room):
    srv = start_server("--room-idle", "1")
    client = open_client(room, srv=srv)
    client.wait_for(lambda: client.last_t >= 1.5, 4, "room time 1.5")
    client.close()
    assert metric(srv.base_url, "layercast_rooms") == 1
    wait_until(lambda: room_entry(srv, room) is None, 5,
               "the empty room to be removed after --room-idle 1")
    assert metric(srv.base_url, "layercast_rooms") == 0
    again = open_client(room, srv=srv)
    assert again.welcome["time"] < 1.0, "a re-created room's clock starts at 0"


def test_room_survives_short_absence(start_server, open_client, room):
    srv = start_server("--room-idle", "3")
    client = open_client(room, srv=srv)
    client.wait_more_frames(10, 3)
    t_before = client.view_time()
    client.close()
    time.sleep(1.0)
    assert room_entry(srv, room) is not None, "room removed before --room-idle 3 elapsed"
    again = open_client(room, srv=srv)
    assert again.welcome["time"] >= t_before + 0.8


# ---------------------------------------------------------------------------------------------
# Taps


def test_tap_on_item_selects_for_everyone_and_highlights(server, open_client, room):
    a = open_client(room)
    b = open_client(room)
    watcher = open_client(room, role="spectator")
    latency_before = metric(server.base_url, "layercast_tap_latency_seconds_count")
    record, item = opaque_item(a)
    x, y = item_center(item)
    marks = [c.mark() for c in (a, b, watcher)]
    a.tap(x, y, view_time=record.t)
    events = [c.wait_event("select", timeout=3, since=m) for c, m in zip((a, b, watcher), marks)]
    for ev in events:
        assert ev.get("by") == a.welcome["client"], ev
        assert ev.get("data") == {"item": item["name"]}, ev
    assert a.messages_of("error") == []
    wait_until(lambda: metric(server.base_url, "layercast_tap_latency_seconds_count")
               >= latency_before + 1, 3, "the tap in layercast_tap_latency_seconds_count")

    before = {k: v for k, v in item.items() if k != "o"}

    def highlighted():
        latest = a.frames[-1]
        for it in latest.items:
            if it["id"] == item["id"]:
                now = {k: v for k, v in it.items() if k != "o"}
                return now if now != before else None
        return None
    changed = a.wait_for(highlighted, 1.5, f"{item['name']} to change (highlight) after select")
    assert changed is not None


def test_tap_view_time_is_clamped(server, open_client, room):
    """The hit is evaluated at clamp(viewTime, now - 0.3, now): a viewTime far in the future or
    the past (finite) is no error and resolves against the present tree."""
    a = open_client(room)
    for view_time in (1e9, -1e9):
        record, item = opaque_item(a)
        mark = a.mark()
        a.tap(*item_center(item), view_time=view_time)
        ev = a.wait_event("select", timeout=3, since=mark)
        assert ev["data"] == {"item": item["name"]}, (view_time, ev)
        assert a.messages_of("error", mark) == []


def test_tap_on_empty_space_selects_nothing(server, open_client, room):
    a = open_client(room)
    b = open_client(room)
    record, _ = opaque_item(a)       # the scene has items by now
    points = free_scene_points(record.items)[:3] + [(5, 5), (SCENE_W - 5, SCENE_H - 5),
                                                    (207, 20)]
    assert len(points) >= 4
    marks = (a.mark(), b.mark())
    for x, y in points:
        a.tap(x, y, view_time=record.t)
    ping_barrier(a, 99)
    time.sleep(1.0)
    assert a.messages_of("event", marks[0]) == [], a.messages_of("event", marks[0])
    assert b.messages_of("event", marks[1]) == []
    assert a.messages_of("error", marks[0]) == []


def test_tap_outside_scene_accepted(server, open_client, room):
    """Points off the scene but within +-100000 are valid input (they just hit nothing)."""
    a = open_client(room)
    mark = a.mark()
    for x, y in [(-50, -50), (100000, -100000), (SCENE_W + 10, 10)]:
        a.tap(x, y)
    ping_barrier(a, 3)
    assert a.messages_of("error", mark) == [] and a.messages_of("event", mark) == []


def test_spectator_tap_and_drag_forbidden(server, open_client, room):
    player = open_client(room)
    spectator = open_client(room, role="spectator")
    before = metric(server.base_url, "layercast_messages_rejected_total", reason="forbidden")
    record, item = opaque_item(player)
    marks = (spectator.mark(), player.mark())
    spectator.tap(*item_center(item), view_time=record.t)
    err = spectator.wait_error("forbidden", 3, marks[0])
    assert isinstance(err.get("message"), str)
    spectator.drag("began", *item_center(item), view_time=record.t)
    ping_barrier(spectator, 2)
    assert [e["code"] for e in spectator.messages_of("error", marks[0])] == ["forbidden"] * 2
    time.sleep(0.3)
    assert player.messages_of("event", marks[1]) == [], "a spectator's tap selected an item"
    assert spectator.messages_of("event", marks[0]) == []
    wait_until(lambda: metric(server.base_url, "layercast_messages_rejected_total",
                              reason="forbidden") == before + 2, 3,
               "messages_rejected_total{reason=forbidden} +2")
    assert not spectator.closed


def test_drag_valid_phases_accepted(server, open_client, room):
    player = open_client(room)
    mark = player.mark()
    for phase in ("began", "moved", "moved", "ended", "began", "cancelled"):
        player.drag(phase, 100, 300)
    ping_barrier(player, 4)
    assert player.messages_of("error", mark) == []


# ---------------------------------------------------------------------------------------------
# Bad input: each gets its error, is counted, and nobody else notices.


def bad_inputs():
    vt = 1.0
    big_pad = "p" * 5000
    return [
        ("malformed_json", '{"type": "tap", "x": 1', "bad_json"),
        ("not_json", "hello", "bad_json"),
        ("array", "[1, 2, 3]", "bad_json"),
        ("json_string", '"tap"', "bad_json"),
        ("json_number", "42", "bad_json"),
        ("unknown_type", {"type": "jump", "x": 1, "y": 1}, "unknown_type"),
        ("missing_type", {"x": 1, "y": 2, "viewTime": vt}, "unknown_type"),
        ("type_not_string", {"type": 5, "x": 1, "y": 2, "viewTime": vt}, "unknown_type"),
        ("server_type", {"type": "welcome"}, "unknown_type"),
        ("missing_x", {"type": "tap", "y": 100, "viewTime": vt}, "bad_field"),
        ("string_x", {"type": "tap", "x": "100", "y": 100, "viewTime": vt}, "bad_field"),
        ("null_y", {"type": "tap", "x": 100, "y": None, "viewTime": vt}, "bad_field"),
        ("huge_x_1e308", '{"type":"tap","x":1e308,"y":100,"viewTime":1}', "bad_field"),
        ("x_out_of_range", {"type": "tap", "x": 100000.5, "y": 100, "viewTime": vt}, "bad_field"),
        ("string_viewTime", {"type": "tap", "x": 1, "y": 1, "viewTime": "now"}, "bad_field"),
        ("missing_viewTime", {"type": "tap", "x": 100, "y": 100}, "bad_field"),
        ("drag_bad_phase", {"type": "drag", "phase": "flying", "x": 1, "y": 1, "viewTime": vt},
         "bad_field"),
        ("drag_missing_phase", {"type": "drag", "x": 1, "y": 1, "viewTime": vt}, "bad_field"),
        ("ping_string_id", {"type": "ping", "id": "five"}, "bad_field"),
        ("too_large", {"type": "tap", "x": 1, "y": 1, "viewTime": vt, "pad": big_pad},
         "too_large"),
        ("too_large_not_json", "x" * 5000, "too_large"),
        ("binary", b'{"type":"ping","id":1}', "binary"),
    ]


@pytest.mark.parametrize("payload,code", [(p, c) for _, p, c in bad_inputs()],
                         ids=[name for name, _, _ in bad_inputs()])
def test_bad_input_rejected_and_counted(server, open_client, room, payload, code):
    watcher = open_client(room, role="spectator")
    offender = open_client(room)
    watcher.wait_more_frames(3, 2)
    since_n = watcher.latest().n
    before = metric(server.base_url, "layercast_messages_rejected_total", reason=code)
    mark = offender.mark()
    if isinstance(payload, bytes):
        offender.send_binary(payload)
    elif isinstance(payload, str):
        offender.send_text(payload)
    else:
        offender.send_json(payload)
    err = offender.wait_error(None, 3, mark)
    assert err.get("code") == code, f"expected error {code!r}, got {err}"
    assert isinstance(err.get("message"), str) and err["message"], err
    ping_barrier(offender, 11)
    errors = offender.messages_of("error", mark)
    assert len(errors) == 1, f"one bad message must earn one error, got {errors}"
    assert offender.messages_of("event", mark) == [], "the offending message had an effect"
    wait_until(lambda: metric(server.base_url, "layercast_messages_rejected_total", reason=code)
               == before + 1, 3, f"layercast_messages_rejected_total{{reason={code}}} == {before + 1}")
    # nothing else changes: the offender keeps its stream, the watcher never noticed
    offender.wait_more_frames(5, 2)
    watcher.wait_more_frames(15, 3)
    assert not offender.closed
    # the offender's own frames stay consistent (a skip to a full frame would be legal for it)
    assert offender.check_stream(allow_gaps=True) == []
    stream_ok(watcher, since_n, 15)


def test_message_of_exactly_4096_bytes_accepted(server, open_client, room):
    client = open_client(room)
    base = {"type": "ping", "id": 4096, "pad": ""}
    base["pad"] = "p" * (4096 - len(json.dumps(base, separators=(",", ":"))))
    text = json.dumps(base, separators=(",", ":"))
    assert len(text.encode()) == 4096
    mark = client.mark()
    client.send_text(text)
    pong = client.wait_message("pong", lambda m: m.get("id") == 4096, 3, mark,
                               "pong to a 4096-byte ping")
    assert pong["id"] == 4096
    assert client.messages_of("error", mark) == []
    base["pad"] += "p"
    client.send_text(json.dumps(base, separators=(",", ":")))      # 4097 bytes
    assert client.wait_error(None, 3, mark)["code"] == "too_large"


def test_tap_flood_rate_limited(server, open_client, room):
    watcher = open_client(room, role="spectator")
    player = open_client(room)
    since_n = watcher.latest().n
    before = metric(server.base_url, "layercast_messages_rejected_total", reason="rate_limited")
    mark = player.mark()
    vt = player.view_time()
    for _ in range(30):                         # 30 taps within a few milliseconds
        player.tap(5, 5, view_time=vt)
    ping_barrier(player, 21)
    errors = player.messages_of("error", mark)
    codes = {e["code"] for e in errors}
    assert codes <= {"rate_limited"}, f"only rate_limited expected, got {errors}"
    assert 5 <= len(errors) <= 10, (
        f"30 taps at once: taps beyond 20 per second must be rate_limited; got {len(errors)} "
        f"errors (expected 10, at least 5)")
    wait_until(lambda: metric(server.base_url, "layercast_messages_rejected_total",
                              reason="rate_limited") == before + len(errors), 3,
               "rate_limited counted in /metrics")
    assert not player.closed
    time.sleep(1.1)                             # a second later taps are welcome again
    mark = player.mark()
    for _ in range(5):
        player.tap(5, 5)
    ping_barrier(player, 22)
    assert player.messages_of("error", mark) == []
    stream_ok(watcher, since_n, 20)


def test_drag_flood_rate_limited(server, open_client, room):
    player = open_client(room)
    mark = player.mark()
    vt = player.view_time()
    for i in range(135):                        # more than 120 drags at once (15 too many:
        player.drag("moved", 100 + i % 10, 300, view_time=vt)   # fewer than 20 errors)
    ping_barrier(player, 23)
    errors = player.messages_of("error", mark)
    assert errors and {e["code"] for e in errors} == {"rate_limited"}, errors[:3]
    assert len(errors) <= 15, f"only drags beyond 120/s may be refused, {len(errors)} were"
    assert not player.closed


def test_repeated_abuse_closed_with_1008(server, open_client, room):
    watcher = open_client(room, role="spectator")
    abuser = open_client(room)
    since_n = watcher.latest().n
    before = metric(server.base_url, "layercast_messages_rejected_total", reason="bad_json")
    mark = abuser.mark()
    for _ in range(19):
        abuser.send_text("{oops")
    ping_barrier(abuser, 19)
    assert len(abuser.messages_of("error", mark)) == 19
    assert not abuser.closed, "closed after 19 errors (the limit is 20 within 10 s)"
    abuser.send_text("{oops")
    code = abuser.wait_closed(3)
    assert code == 1008, f"20 errors within 10 s: close code {code}, expected 1008"
    wait_until(lambda: metric(server.base_url, "layercast_messages_rejected_total",
                              reason="bad_json") == before + 20, 3, "20 bad_json counted")
    watcher.wait_more_frames(10, 2)
    stream_ok(watcher, since_n, 10)
    assert not watcher.closed


# ---------------------------------------------------------------------------------------------
# Fan-out: a client that never reads


def test_stalled_reader_does_not_hold_up_others(start_server, open_client, room):
    """A client that completes the handshake and then never reads: the others keep their
    frames on time, and the server counts it as skipping frames and drops it after
    --stall-timeout (protocol.md, Fan-out)."""
    srv = start_server("--stall-timeout", "2")
    watcher = open_client(room, srv=srv)
    since_n = watcher.latest().n
    skipped_before = metric(srv.base_url, "layercast_frames_skipped_total")
    dropped_before = metric(srv.base_url, "layercast_clients_dropped_total")
    sock, status, head = raw_ws_handshake(srv.port, f"/ws?scene=radar&room={room}&role=player",
                                          rcvbuf=2048)
    try:
        assert " 101 " in status + " ", f"raw handshake answered {status!r}"
        assert "layercast.v1" in head.lower()
        # from here on the raw socket is never read again
        wait_until(lambda: (room_entry(srv, room) or {}).get("clients", {}).get("player") == 2,
                   3, "both players in /api/rooms")
        skipped = dropped = 0.0
        deadline = time.monotonic() + 12.0      # 2 s stall timeout + generous slack
        while time.monotonic() < deadline:
            samples = read_metrics(srv.base_url)
            skipped = metric(samples, "layercast_frames_skipped_total") - skipped_before
            dropped = metric(samples, "layercast_clients_dropped_total") - dropped_before
            if dropped > 0:
                break
            time.sleep(0.25)
        stall_info = subprocess.run(["ss", "-tnm", f"( sport = :{srv.port} )"],
                                    capture_output=True, text=True).stdout.strip()
        watcher.wait_more_frames(5, 2)
        stream_ok(watcher, since_n, 60)
        assert not watcher.closed
        assert skipped > 0 or dropped > 0, (
            f"a client that has read nothing for 12 s shows up neither in "
            f"layercast_frames_skipped_total nor in layercast_clients_dropped_total "
            f"(kernel queues of the stalled socket: {stall_info!r})")
        assert dropped > 0, (f"the stalled client was not dropped within 12 s with "
                             f"--stall-timeout 2 (frames skipped meanwhile: {skipped})")
        wait_until(lambda: (room_entry(srv, room) or {}).get("clients", {}).get("player") == 1,
                   3, "the stalled client to leave /api/rooms")
    finally:
        sock.close()


# ---------------------------------------------------------------------------------------------
# Limits and policy at connection time


def test_max_clients(start_server, open_client):
    srv = start_server("--max-clients", "2")
    c1 = open_client(unique_room("mc-a"), srv=srv)
    open_client(unique_room("mc-b"), srv=srv, role="spectator")
    third = LayercastClient.connect(srv.base_url, room=unique_room("mc-c"))
    try:
        err = third.wait_error("server_full", 3)
        assert err["code"] == "server_full"
        assert third.wait_closed(3) == 1013, f"close code {third.close_code}, expected 1013"
        assert third.welcome is None
    finally:
        third.close()
    c1.close()

    def can_join():
        c = LayercastClient.connect(srv.base_url, room=unique_room("mc-d"))
        try:
            c.wait_for(lambda: c.welcome or c.messages_of("error"), 3, "welcome or error")
            return c.welcome is not None
        finally:
            c.close()
    wait_until(can_join, 5, "a place to free up after a client left", interval=0.3)


def test_origin_policy_default(start_server):
    srv = start_server()
    room = unique_room("origin")
    for origin in ("http://evil.test", "https://127.0.0.1.evil.test", "null"):
        with pytest.raises(ConnectRefused) as info:
            LayercastClient.connect(srv.base_url, room=room, origin=origin).close()
        assert info.value.status == 403, f"Origin {origin}: {info.value}"
    for origin in (f"http://127.0.0.1:{srv.port}", "http://localhost:5173", "http://127.0.0.1",
                   "http://[::1]:8000"):
        client = LayercastClient.connect(srv.base_url, room=room, origin=origin)
        try:
            assert client.wait_welcome(3)["room"] == room, origin
        finally:
            client.close()


def test_allow_origin_flag(start_server):
    srv = start_server("--allow-origin", "http://example.test")
    room = unique_room("allow")
    client = LayercastClient.connect(srv.base_url, room=room, origin="http://example.test")
    try:
        assert client.wait_welcome(3)["room"] == room
        client.wait_frames(1, 3)
    finally:
        client.close()
    for origin in ("http://evil.test", "http://example.test.evil.test", "https://example.test"):
        with pytest.raises(ConnectRefused) as info:
            LayercastClient.connect(srv.base_url, room=room, origin=origin).close()
        assert info.value.status == 403, f"Origin {origin}: {info.value}"


# ---------------------------------------------------------------------------------------------
# Shutdown


def test_sigterm_closes_clients_1001_and_exits_0(start_server, open_client):
    srv = start_server()
    a = open_client(unique_room("term-a"), srv=srv)
    b = open_client(unique_room("term-b"), srv=srv, role="spectator")
    srv.signal(signal.SIGTERM)
    assert a.wait_closed(5) == 1001, f"close code {a.close_code} ({a.closed_error})"
    assert b.wait_closed(5) == 1001, f"close code {b.close_code} ({b.closed_error})"
    status = srv.wait(10)
    assert status == 0, f"exit status {status} after SIGTERM; stderr:\n{srv.log_tail()}"


def test_sigint_exits_0(start_server, open_client):
    srv = start_server()
    a = open_client(unique_room("int"), srv=srv)
    srv.signal(signal.SIGINT)
    assert a.wait_closed(5) == 1001, f"close code {a.close_code} ({a.closed_error})"
    assert srv.wait(10) == 0
