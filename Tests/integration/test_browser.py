"""The browser client (public/) in headless Chromium, driven by Selenium, against a real server.

Needs Debian's `chromium` and `chromium-driver` (/usr/bin/chromium, /usr/bin/chromedriver) and
the pip package `selenium`. Without them the tests are skipped, unless LAYERCAST_REQUIRE_BROWSER
is set (CI sets it to 1), in which case they fail.

Page contract: /scene.html?scene=radar&room=R&role=player sets `window.layercastView` (items(),
stats(), viewTime(), sceneToPage(x, y)) and `window.layercastErrors`; `#events` shows
`select item-N` after a selection. /embed.html posts a `ready` message to its parent.
"""

from __future__ import annotations

import collections
import http.server
import json
import re
import struct
import threading
import time
import zlib

import pytest

from browser import Console, chromium, skip_module_without_browser
from conftest import metric, read_metrics, unique_room, wait_until
from layercast_client import LayercastClient, item_center

ITEM_NAME = re.compile(r"^item-(\d+)$")

skip_module_without_browser()


@pytest.fixture(scope="module")
def driver():
    yield from chromium(700, 1000)


@pytest.fixture
def console(driver):
    c = Console(driver)
    c.poll()            # drop what earlier tests left
    return c


# ---------------------------------------------------------------------------------------------
# helpers


def js(drv, script: str, *args):
    return drv.execute_script(script, *args)


def view_stats(drv):
    return js(drv, "return window.layercastView ? window.layercastView.stats() : null;")


def wait_frames(drv, count: int, timeout: float = 15.0) -> dict:
    return wait_until(lambda: (lambda s: s if s and s.get("framesReceived", 0) >= count else None)(
        view_stats(drv)), timeout, f"layercastView.stats().framesReceived >= {count}", 0.2)


def decode_png(data: bytes):
    """(width, height, bytes per pixel, rows) of an 8-bit RGB/RGBA PNG, e.g. a screenshot."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, bytearray()
    width = height = depth = colour = interlace = None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        chunk = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        elif kind == b"IEND":
            break
    assert depth == 8 and interlace == 0 and colour in (2, 6), (depth, colour, interlace)
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(bytes(idat))
    stride = width * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        if kind == 1:
            for x in range(bpp, stride):
                line[x] = (line[x] + line[x - bpp]) & 255
        elif kind == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif kind == 3:
            for x in range(stride):
                left = line[x - bpp] if x >= bpp else 0
                line[x] = (line[x] + ((left + prev[x]) >> 1)) & 255
        elif kind == 4:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b = prev[x]
                c = prev[x - bpp] if x >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def canvas_pixels(drv):
    """Pixels of the page's (largest) canvas as drawn on screen: (w, h, list of RGB tuples)."""
    from selenium.webdriver.common.by import By
    canvases = drv.find_elements(By.CSS_SELECTOR, "canvas")
    assert canvases, "the page has no <canvas>"
    canvas = max(canvases, key=lambda c: c.size["width"] * c.size["height"])
    width, height, bpp, rows = decode_png(canvas.screenshot_as_png)
    pixels = []
    for row in rows:
        for x in range(0, len(row), bpp):
            pixels.append((row[x], row[x + 1], row[x + 2]))
    return width, height, pixels


def drawn_fraction(pixels) -> float:
    """Share of pixels that differ from the most common colour (the background)."""
    background, count = collections.Counter(pixels).most_common(1)[0]
    return 1 - count / len(pixels)


def changed_fraction(a, b) -> float:
    assert len(a) == len(b), "canvas size changed between snapshots"
    return sum(1 for p, q in zip(a, b) if p != q) / len(a)


def open_scene(drv, base_url: str, room: str, page: str = "scene.html", role: str = "player"):
    drv.get(f"{base_url}{page}?scene=radar&room={room}&role={role}&debug=1")


def page_items(drv):
    return js(drv, "return window.layercastView.items();")


def opaque_page_item(drv, timeout: float = 8.0):
    def find():
        items = [i for i in page_items(drv) or []
                 if ITEM_NAME.match(i.get("name") or "") and i.get("o", 1) >= 0.99]
        return max(items, key=lambda i: int(ITEM_NAME.match(i["name"]).group(1))) if items else None
    return wait_until(find, timeout, "an item with o >= 0.99 in layercastView.items()", 0.2)


def click_at(drv, x: float, y: float) -> None:
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput
    actions = ActionBuilder(drv, mouse=PointerInput(interaction.POINTER_MOUSE, "mouse"))
    actions.pointer_action.move_to_location(int(round(x)), int(round(y))).click()
    actions.perform()


# ---------------------------------------------------------------------------------------------
# tests


def test_scene_page_draws_and_animates(driver, console, server, room):
    open_scene(driver, server.base_url, room)
    stats = wait_frames(driver, 15)
    assert stats["connected"] is True, stats
    assert stats["lastFrameNumber"] >= 1
    before = view_stats(driver)
    time.sleep(1.0)
    stats = view_stats(driver)
    received = stats["framesReceived"] - before["framesReceived"]
    assert 22 <= received <= 38, f"page received {received} frames in 1 s from a 30 fps server"
    assert stats["lastFrameNumber"] - before["lastFrameNumber"] == received, (before, stats)
    assert stats["fps"] > 0, stats
    assert 0 <= stats["frameAgeMs"] < 1000, stats
    assert stats["bytesPerSecond"] > 0, stats
    items = page_items(driver)
    assert any(i.get("name") == "radar" or i.get("bg") for i in items), items[:3]
    _, _, first = canvas_pixels(driver)
    assert drawn_fraction(first) > 0.005, "the canvas is blank (only background pixels)"
    time.sleep(0.7)
    _, _, second = canvas_pixels(driver)
    assert changed_fraction(first, second) > 0.001, "the canvas did not change in 0.7 s"
    assert js(driver, "return window.layercastErrors;") == []
    assert console.severe() == [], console.severe()


def test_page_model_matches_server(driver, console, server, room):
    client = LayercastClient.connect(server.base_url, room=room, role="spectator")
    try:
        client.wait_frames(1, 5)
        open_scene(driver, server.base_url, room)
        wait_frames(driver, 10)
        view_time = js(driver, "return window.layercastView.viewTime();")
        assert abs(view_time - client.view_time()) < 0.5, (view_time, client.view_time())
        names = {i.get("name") for i in page_items(driver) if i.get("name")}
        mine = {i.get("name") for i in client.latest().items if i.get("name")}
        # the page and the script follow the same room: same named layers, give or take the
        # item added in the last half second
        assert len(names ^ mine) <= 2, f"page {sorted(names)} vs protocol client {sorted(mine)}"
        assert js(driver, "return window.layercastErrors;") == []
    finally:
        client.close()


def test_click_item_selects_in_page_and_for_others(driver, console, server, room):
    other = LayercastClient.connect(server.base_url, room=room, role="spectator")
    try:
        other.wait_frames(1, 5)
        open_scene(driver, server.base_url, room)
        wait_frames(driver, 10)
        item = opaque_page_item(driver)
        x, y = item_center(item)
        point = js(driver, "return window.layercastView.sceneToPage(arguments[0], arguments[1]);",
                   x, y)
        vw, vh = js(driver, "return [window.innerWidth, window.innerHeight];")
        assert 0 <= point["x"] < vw and 0 <= point["y"] < vh, (point, vw, vh)
        mark = other.mark()
        click_at(driver, point["x"], point["y"])
        wanted = f"select {item['name']}"
        wait_until(lambda: wanted in js(driver, "var e = document.querySelector('#events');"
                                                 "return e ? e.textContent : '';"),
                   4, f"#events to show {wanted!r}", 0.1)
        event = other.wait_event("select", timeout=3, since=mark)
        assert event["data"] == {"item": item["name"]}, event
        assert isinstance(event.get("by"), str) and event["by"], event
        assert js(driver, "return window.layercastErrors;") == []
        assert console.severe() == [], console.severe()
    finally:
        other.close()


#: Notes every message the page's socket sends from now on.
NOTE_SENT = """
window.sentMessages = [];
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) { window.sentMessages.push(JSON.parse(data)); return send.call(this, data); };
"""


@pytest.mark.parametrize("scene,taps_on_down", [("radar", True), ("cubes", False)])
def test_a_tap_leaves_as_the_pointer_goes_down_where_the_scene_takes_no_drags(driver, console, server, room, scene, taps_on_down):
    """The radar takes taps alone: the press is the tap, sent before the pointer comes up. The cube
    loader takes drags: a press is followed until it comes up, and is a tap only then."""
    driver.get(f"{server.base_url}scene.html?scene={scene}&room={room}")
    wait_frames(driver, 3)
    js(driver, NOTE_SENT)
    rect = js(driver, "const r = document.querySelector('canvas.layercast-canvas').getBoundingClientRect();"
                      " return [r.left + r.width / 2, r.top + r.height / 2];")
    press = {"x": rect[0], "y": rect[1], "button": "left", "clickCount": 1}
    driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mousePressed", **press})
    time.sleep(0.2)
    taps = lambda: [m for m in js(driver, "return window.sentMessages;") if m["type"] in ("tap", "drag")]
    assert [m["type"] for m in taps()] == (["tap"] if taps_on_down else []), taps()
    driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseReleased", **press})
    wait_until(lambda: taps() or None, 2, "the tap sent", 0.05)
    time.sleep(0.2)
    assert [m["type"] for m in taps()] == ["tap"], f"one tap a press: {taps()}"
    # At the scene's point under the pointer (the page sends it to 0.01 point: well within 0.5 px).
    tap = taps()[0]
    at = js(driver, "const p = window.layercastView.sceneToPage(arguments[0], arguments[1]); return [p.x, p.y];", tap["x"], tap["y"])
    assert abs(at[0] - rect[0]) < 0.5 and abs(at[1] - rect[1]) < 0.5, (tap, at, rect)


def test_chromium_takes_shared_permessage_deflate_both_ways(driver, console, start_server):
    """Chromium offers permessage-deflate; `serve` takes it by default: Chromium inflates the
    room's shared compressed frames and the server inflates its compressed taps
    (test_deflate.py checks the same against Python websockets)."""
    srv = start_server()
    room = unique_room("pmd-browser")
    other = LayercastClient.connect(srv.base_url, room=room, role="spectator")
    try:
        other.wait_frames(1, 5)
        rejected_before = sum(v for n, _, v in read_metrics(srv.base_url)
                              if n == "layercast_messages_rejected_total")
        open_scene(driver, srv.base_url, room)
        stats = wait_frames(driver, 20)
        assert stats["connected"] is True, stats
        assert metric(srv.base_url, "layercast_deflated_bytes_sent_total") > 0, \
            "the page's socket did not take permessage-deflate"
        item = opaque_page_item(driver)
        point = js(driver, "return window.layercastView.sceneToPage(arguments[0], arguments[1]);",
                   *item_center(item))
        mark = other.mark()
        click_at(driver, point["x"], point["y"])
        event = other.wait_event("select", timeout=3, since=mark)
        assert event["data"] == {"item": item["name"]}, event
        rejected = sum(v for n, _, v in read_metrics(srv.base_url)
                       if n == "layercast_messages_rejected_total")
        assert rejected == rejected_before
        assert js(driver, "return window.layercastErrors;") == []
        assert console.severe() == [], console.severe()
    finally:
        other.close()


def test_index_lists_radar(driver, console, server):
    from selenium.webdriver.common.by import By
    driver.get(server.base_url + "index.html")

    def listed():
        links = [a.get_attribute("href") or "" for a in driver.find_elements(By.CSS_SELECTOR, "a")]
        text = driver.find_element(By.TAG_NAME, "body").text
        return ("Pulsing radar" in text or any("scene=radar" in h for h in links)) or None
    wait_until(listed, 8, "index.html to list the radar scene", 0.2)
    assert console.severe() == [], console.severe()


HOST_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>embed host</title><link rel="icon" href="data:,">
<script>
window.received = [];
window.addEventListener("message", function (e) {
  var data = e.data;
  try { data = JSON.parse(JSON.stringify(e.data)); } catch (err) { data = String(e.data); }
  window.received.push({origin: e.origin, data: data});
});
</script></head>
<body><iframe id="lc" src="%s" width="414" height="736" style="border:0"></iframe></body></html>
"""


@pytest.fixture
def host_page_server():
    """A plain HTTP server on 127.0.0.1 (another origin) that serves HOST_PAGE."""
    pages: dict[str, bytes] = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = pages.get(self.path.split("?")[0])
            if body is None:
                self.send_response(404)
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd, pages
    httpd.shutdown()
    httpd.server_close()


def test_embed_in_iframe_posts_ready(driver, console, start_server, host_page_server, room):
    httpd, pages = host_page_server
    host_origin = f"http://127.0.0.1:{httpd.server_address[1]}"
    srv = start_server("--allow-origin", host_origin)
    embed_url = f"{srv.base_url}embed.html?scene=radar&room={room}"
    pages["/host.html"] = (HOST_PAGE % embed_url).encode()
    driver.get(f"{host_origin}/host.html")
    layercast_origin = srv.base_url.rstrip("/")

    def ready():
        for message in js(driver, "return window.received;") or []:
            if message["origin"] == layercast_origin and "ready" in json.dumps(message["data"]):
                return message
        return None
    message = wait_until(ready, 10, "embed.html to post 'ready' to its parent", 0.2)
    assert message
    driver.switch_to.frame(driver.find_element("id", "lc"))
    try:
        wait_until(lambda: drawn_fraction(canvas_pixels(driver)[2]) > 0.005, 10,
                   "embed.html's canvas to be drawn", 0.5)
        assert js(driver, "return window.layercastErrors || [];") == []
    finally:
        driver.switch_to.default_content()
    assert console.severe() == [], console.severe()
