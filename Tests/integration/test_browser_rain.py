"""The red-packet rain page (public/rain.html) on a phone-sized headless Chromium, driven by
Selenium, against a real `layercast serve` with the admin API on and no scheduled rains.

Needs Debian's `chromium` and `chromium-driver` and the pip package `selenium`; without them the
tests are skipped, unless LAYERCAST_REQUIRE_BROWSER is set (CI sets it to 1): then they fail.

Page contract (rain.js): `window.layercastView` is the view's handle (items(), viewTime(),
sceneToPage(x, y), on(event, fn)); `window.rainState` is `{player: {id, name}, total, phase,
lastTap, leaderboard, connected, joins, errors, …}`; the HUD shows `#hud-name`, `#hud-total`, `#hud-state`;
the results card is `#results` with one row per leaderboard entry in `#results-rows` (the
player's own row has class `me`). The anonymous id is kept in localStorage `layercast.player`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import time

import pytest

from browser import Console, chromium, skip_module_without_browser
from conftest import http_post, wait_until
from layercast_client import item_center

ADMIN = "rain-admin-token-for-browser-tests"
PHONE = {"width": 414, "height": 736}
PACKET = re.compile(r"^packet-\d+$")
STORAGE_KEY = "layercast.player"
# Every packet pays 10 coins, so any packet hit is a win.
RAIN = {"duration": 6, "winners": 24, "pool": 240, "minCoins": 10, "maxCoins": 10, "seed": 5}
TAP_ATTEMPTS = 10


skip_module_without_browser()


@pytest.fixture(scope="module")
def phone():
    """Headless Chromium emulating a 414 × 736 touch phone (1 device pixel per CSS pixel)."""
    yield from chromium(PHONE["width"], PHONE["height"], mobile={**PHONE, "pixelRatio": 1.0, "touch": True})


@pytest.fixture
def console(phone):
    phone.get("about:blank")  # an earlier test's page would go on reconnecting to its stopped server
    c = Console(phone)
    c.poll()            # drop what earlier tests left
    return c


@pytest.fixture
def rain_server(start_server):
    """A server with the admin API on and the rain schedule off (rains start only on request);
    conftest gives every server its own ledger directory (--data)."""
    return start_server("--admin-token", ADMIN, "--rain-every", "0")


# ---------------------------------------------------------------------------------------------
# helpers


def js(drv, script: str, *args):
    return drv.execute_script(script, *args)


def text_of(drv, element_id: str) -> str:
    return js(drv, "var e = document.getElementById(arguments[0]); return e ? e.textContent : null;",
              element_id) or ""


def rain_state(drv) -> dict:
    return js(drv, "return window.rainState ? JSON.parse(JSON.stringify(window.rainState)) : null;") or {}


def stored_player(drv):
    return js(drv, "try { return localStorage.getItem(arguments[0]); } catch (e) { return null; }",
              STORAGE_KEY)


def wait_welcome(drv, timeout: float = 15.0) -> dict:
    """Waits for the page to be joined and to know its player; returns rainState."""
    def joined():
        state = rain_state(drv)
        frames = js(drv, "return window.layercastView ? window.layercastView.stats().framesReceived : 0;")
        return state if state.get("connected") and state.get("player") and frames >= 3 else None
    return wait_until(joined, timeout, "rain.html to join (rainState.player) and get frames", 0.2)


def start_rain(srv, room: str) -> dict:
    resp = http_post(srv.base_url, f"/api/rooms/{room}/rain", RAIN,
                     headers={"Authorization": f"Bearer {ADMIN}"})
    assert resp.status == 201, (resp, resp.body)
    return resp.json()


def tap_at(drv, x: float, y: float) -> None:
    """A real touch tap (touchstart + touchend) at viewport position (x, y), as a phone sends."""
    point = {"x": round(x, 1), "y": round(y, 1), "radiusX": 4, "radiusY": 4, "force": 1, "id": 0}
    drv.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    drv.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def free_packet(drv, viewport: dict):
    """A falling, unclaimed packet whose centre is well inside the screen, as
    (item, scene centre, viewport point), or None."""
    items = js(drv, "return window.layercastView.items();") or []
    best = None
    for item in items:
        if not PACKET.match(item.get("name") or "") or item.get("img") != "rp_normal":
            continue
        try:
            x, y = item_center(item)
        except ValueError:
            continue
        if not (40 <= x <= PHONE["width"] - 40 and 150 <= y <= PHONE["height"] - 150):
            continue
        # prefer the packet nearest the middle of the screen (most time left to reach it)
        score = abs(y - PHONE["height"] * 0.45)
        if best is None or score < best[0]:
            best = (score, item, (x, y))
    if best is None:
        return None
    _, item, (x, y) = best
    point = js(drv, "return window.layercastView.sceneToPage(arguments[0], arguments[1]);", x, y)
    if not point or not (0 <= point["x"] < viewport["w"] and 0 <= point["y"] < viewport["h"]):
        return None
    return item, (x, y), point


def install_gold_recorder(drv) -> None:
    """Notes in window.sawGoldLabel whether any frame carried a text with "金币" (the floating
    "+10金币" label is drawn from frames, never by the page itself)."""
    js(drv, """
        window.sawGoldLabel = false;
        window.layercastView.on('frame', function (message) {
          if (!window.sawGoldLabel && JSON.stringify(message).indexOf('\\u91d1\\u5e01') >= 0) {
            window.sawGoldLabel = true;
          }
        });
    """)


# ---------------------------------------------------------------------------------------------
# tests


def test_rain_page_tap_wins_coins_and_keeps_identity(phone, console, rain_server, room):
    drv = phone
    drv.get(f"{rain_server.base_url}rain.html?room={room}")
    state = wait_welcome(drv)

    # A new guest: the page made up a secret anonymous id and keeps it; it shows the public id
    # the server derives from it, never the secret, and total 0.
    player = state["player"]
    assert re.fullmatch(r"p-[0-9a-f]{16}", player["id"]), state
    assert state["total"] == 0, state
    secret = wait_until(lambda: stored_player(drv), 3, f"localStorage {STORAGE_KEY} to hold the secret", 0.1)
    assert re.fullmatch(r"anon-[A-Za-z0-9_-]{22}", secret) and secret not in drv.page_source
    assert text_of(drv, "hud-name").startswith("Guest"), text_of(drv, "hud-name")
    assert text_of(drv, "hud-total") == "0", text_of(drv, "hud-total")
    viewport = js(drv, "return {w: window.innerWidth, h: window.innerHeight};")
    assert viewport == {"w": PHONE["width"], "h": PHONE["height"]}, viewport
    assert js(drv, "return getComputedStyle(document.getElementById('view')).touchAction;") == "none"
    wait_until(lambda: text_of(drv, "hud-state") == "Next rain soon", 5, "the HUD to say 'Next rain soon'", 0.1)

    # A dropped connection comes back as the same player, with the same secret. (20 bad messages within 10 s make the
    # server close the connection; the view reconnects after its backoff.)
    js(drv, "for (var i = 0; i < 20; i++) window.layercastView.send({type: 'bogus'});")
    state = wait_until(lambda: (lambda s: s if s.get("joins", 0) >= 2 and s.get("connected") else None)(
        rain_state(drv)), 10, "the page to be dropped and to join again", 0.1)
    assert state["player"]["id"] == player["id"], (state["player"], player)
    assert state["total"] == 0 and stored_player(drv) == secret, state
    assert any(e.get("code") == "unknown_type" for e in state["errors"]), state["errors"]
    assert text_of(drv, "hud-state") == "Next rain soon"

    install_gold_recorder(drv)
    started = start_rain(rain_server, room)
    assert started["packets"] == 24 and started["winners"] == 24, started
    wait_until(lambda: rain_state(drv).get("phase") in ("countdown", "raining"), 5,
               "a rain event (countdown)", 0.1)
    assert re.match(r"^(Rain starts in \d|Get ready|Tap the red packets!)", text_of(drv, "hud-state")), text_of(drv, "hud-state")
    wait_until(lambda: rain_state(drv).get("phase") == "raining", 8, "the rain to start", 0.1)
    wait_until(lambda: re.match(r"^Tap the red packets! \d+ s left$", text_of(drv, "hud-state")), 2,
               "the HUD to count the rain down", 0.1)
    bumps = rain_state(drv)["bumps"]

    # Tap falling packets (touch) until one is won; a packet can move away between reading
    # the display list and the tap, so a miss is retried (bounded).
    answers = []
    for _ in range(TAP_ATTEMPTS):
        target = wait_until(lambda: free_packet(drv, viewport), 6,
                            "a packet well inside the screen in layercastView.items()", 0.05)
        _, _, point = target
        before = (rain_state(drv).get("lastTap") or {}).get("at", 0)
        tap_at(drv, point["x"], point["y"])
        tap = wait_until(lambda: (lambda t: t if t and t.get("at", 0) > before else None)(
            rain_state(drv).get("lastTap")), 3, "the server's answer to the tap (rainState.lastTap)", 0.05)
        answers.append(tap)
        if tap["result"] == "award":
            break
        assert tap["result"] in ("miss", "taken", "too_soon"), answers
        # The answer is shown at the tap point; the coin pill does not move for a tap that won nothing.
        assert rain_state(drv)["bumps"] == bumps, (answers, rain_state(drv)["bumps"])
        if rain_state(drv).get("phase") != "raining":
            break
    tap = rain_state(drv)["lastTap"]
    assert tap["result"] == "award", f"no tap won a packet in {len(answers)} tries: {answers}"
    assert tap["coins"] == 10, tap

    wait_until(lambda: text_of(drv, "hud-total") == "10", 3, "the HUD total to become 10", 0.1)
    assert rain_state(drv)["total"] == 10
    assert rain_state(drv)["bumps"] == bumps + 1, "the coin pill animates once, when the total changes"
    assert any("You won 10" in a for a in rain_state(drv)["announcements"]), rain_state(drv)["announcements"]
    wait_until(lambda: js(drv, "return window.sawGoldLabel;"), 3,
               "a frame with the floating '+10金币' label", 0.1)
    assert text_of(drv, "tap-label") == "+10 金币!", text_of(drv, "tap-label")  # (kept once it fades)

    # The results card: this rain's numbers and the room's leaderboard, the player first.
    wait_until(lambda: rain_state(drv).get("phase") == "results", RAIN["duration"] + 10,
               "the rain's results", 0.2)
    assert js(drv, "return !document.getElementById('results').hidden;"), "results card hidden"
    rows = wait_until(lambda: js(drv, """
        var rows = document.querySelectorAll('#results-rows tr.me');
        return rows.length ? Array.prototype.map.call(rows, function (r) {
          return Array.prototype.map.call(r.cells, function (c) { return c.textContent; });
        }) : null;"""), 5, "the leaderboard to show the player's row", 0.2)
    assert len(rows) == 1, rows
    rank, name, coins = rows[0]
    assert rank == "1" and coins == "10" and name.startswith(player["name"]), rows
    board = rain_state(drv)["leaderboard"]
    assert board and board[0]["player"] == player["id"] and board[0]["coins"] == 10, board
    results = rain_state(drv)["results"]
    assert results["claimed"] >= 1 and results["awarded"] >= 10, results
    assert "10" in text_of(drv, "results-total"), text_of(drv, "results-total")

    # A reload comes back as the same anonymous player, with the coins won.
    drv.refresh()
    state = wait_welcome(drv)
    assert state["player"]["id"] == player["id"], (state, player)
    assert state["total"] == 10, state
    wait_until(lambda: text_of(drv, "hud-total") == "10", 3, "the HUD total 10 after reload", 0.1)
    assert stored_player(drv) == secret
    assert rain_state(drv)["errors"] == []
    assert console.severe() == [], console.severe()


def sign_token(secret: str, sub: str, name: str, exp: int) -> str:
    """A player token as protocol.md "Signing a token" makes it."""
    def b64url(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")
    payload = json.dumps({"sub": sub, "name": name, "exp": exp}, separators=(",", ":"))
    first = b64url(payload.encode("utf-8"))
    mac = hmac.new(secret.encode("utf-8"), first.encode("ascii"), hashlib.sha256).digest()
    return first + "." + b64url(mac)


def test_rain_page_plays_with_a_token_and_stores_nothing(phone, console, start_server, room):
    secret = "rain-browser-test-token-secret-0123456789"
    srv = start_server("--admin-token", ADMIN, "--rain-every", "0", "--token-secret", secret)
    token = sign_token(secret, "player-42", "Ada", int(time.time()) + 3600)
    phone.get(f"{srv.base_url}rain.html?room={room}&token={token}")
    state = wait_welcome(phone)
    assert state["player"]["name"] == "Ada" and re.fullmatch(r"p-[0-9a-f]{16}", state["player"]["id"]), state
    assert text_of(phone, "hud-name") == "Ada"
    assert text_of(phone, "hud-total") == "0"
    assert stored_player(phone) is None, "a token player must not store an anonymous id"
    assert console.severe() == [], console.severe()


def test_rain_page_spectator_watches(phone, console, rain_server, room):
    drv = phone
    drv.get(f"{rain_server.base_url}rain.html?room={room}&role=spectator")
    wait_until(lambda: rain_state(drv).get("connected")
               and js(drv, "return window.layercastView.stats().framesReceived;") >= 3, 15,
               "the spectator page to join and get frames", 0.2)
    state = rain_state(drv)
    assert state["player"] is None and state["role"] == "spectator", state
    assert text_of(drv, "hud-name") == "watching"
    assert js(drv, "return document.getElementById('hud-coins').hidden;") is True
    wait_until(lambda: "watching" in text_of(drv, "hud-state"), 5, "the state line to say watching", 0.1)

    start_rain(rain_server, room)
    wait_until(lambda: rain_state(drv).get("phase") == "raining", 10, "the rain to start", 0.1)
    packet = wait_until(lambda: free_packet(drv, js(drv, "return {w: innerWidth, h: innerHeight};")),
                        6, "a packet on screen", 0.05)
    tap_at(drv, packet[2]["x"], packet[2]["y"])
    time.sleep(0.5)
    state = rain_state(drv)
    assert state["lastTap"] is None and state["errors"] == [], state   # a spectator sends no taps
    assert console.severe() == [], console.severe()


def test_index_links_rain_to_rain_page(phone, console, rain_server):
    from selenium.webdriver.common.by import By
    phone.get(rain_server.base_url + "index.html")

    def rain_link():
        for a in phone.find_elements(By.CSS_SELECTOR, "a[data-scene='rain']"):
            href = a.get_attribute("href") or ""
            if href:
                return href
        return None
    href = wait_until(rain_link, 8, "index.html to list the rain scene", 0.2)
    assert re.search(r"/rain\.html\?room=lobby$", href), href
    assert console.severe() == [], console.severe()


# ---------------------------------------------------------------------------------------------
# connection states, tap answers at the edges


def canvas_brightness(drv) -> float:
    """Mean brightness (0…255) of the stage's canvas as drawn on screen."""
    from test_browser import canvas_pixels
    _, _, pixels = canvas_pixels(drv)
    step = max(1, len(pixels) // 4000)
    sample = pixels[::step]
    return sum(sum(p) for p in sample) / (3 * len(sample))


def countdown_seconds(drv):
    clock = rain_state(drv).get("countdown")
    return clock and clock.get("seconds"), clock and clock.get("estimated")


def test_rain_page_shows_a_lost_connection_and_recovers(phone, console, start_server, room, tmp_path):
    data = str(tmp_path / "ledger")
    srv = start_server("--admin-token", ADMIN, "--rain-every", "0", "--data", data)
    drv = phone
    drv.get(f"{srv.base_url}rain.html?room={room}")
    wait_welcome(drv)
    js(drv, "window.notReloaded = true;")
    http_post(srv.base_url, f"/api/rooms/{room}/rain", {**RAIN, "duration": 30},
              headers={"Authorization": f"Bearer {ADMIN}"})
    wait_until(lambda: rain_state(drv).get("phase") == "raining", 10, "the rain to start", 0.1)
    wait_until(lambda: countdown_seconds(drv)[0], 2, "a rain countdown", 0.1)
    bright = canvas_brightness(drv)

    srv.proc.kill()                                  # the server dies under the open page
    srv.wait(5)
    killed = time.monotonic()
    wait_until(lambda: "Reconnecting" in text_of(drv, "hud-conn"), 2, "#hud-conn to say Reconnecting", 0.05)
    assert time.monotonic() - killed <= 2.0
    assert js(drv, "return document.body.classList.contains('offline');")
    assert js(drv, "return document.querySelector('#view canvas').dataset.connection;") == "reconnecting"
    assert re.search(r"attempt \d", text_of(drv, "hud-conn")), text_of(drv, "hud-conn")
    dim = canvas_brightness(drv)
    assert dim < bright * 0.75, (bright, dim)         # the stage is dimmed
    # The rain's countdown goes on from the last known server time, marked as an estimate.
    first, estimated = countdown_seconds(drv)
    assert estimated is True and "(estimate)" in text_of(drv, "hud-state"), text_of(drv, "hud-state")
    time.sleep(2.2)
    second, estimated = countdown_seconds(drv)
    assert estimated is True and second <= first - 2, (first, second)

    # The server comes back on the same port: the page rejoins by itself, without a reload.
    start_server("--admin-token", ADMIN, "--rain-every", "0", "--data", data, "--port", str(srv.port))
    wait_until(lambda: rain_state(drv).get("connected") and rain_state(drv).get("joins", 0) >= 2, 20,
               "the page to rejoin the restarted server", 0.2)
    wait_until(lambda: not js(drv, "return document.body.classList.contains('offline');"), 1,
               "the dimming to clear", 0.05)
    assert js(drv, "return window.notReloaded === true;"), "the page was reloaded"
    assert js(drv, "return document.getElementById('hud-conn').hidden;") is True
    assert js(drv, "return document.querySelector('#view canvas').dataset.connection;") == "connected"
    wait_until(lambda: canvas_brightness(drv) > dim * 1.2, 2, "the stage to be bright again", 0.1)
    # The failed attempts while the server was down are the only console errors.
    time.sleep(0.5)
    others = [e for e in console.severe() if "ERR_CONNECTION_REFUSED" not in e.get("message", "")]
    assert others == [], others


def label_contrast(png: bytes, rect: dict) -> float:
    """The luminance contrast of a label's glyphs against the plate just around them: the
    plate is the most common colour inside the label's box, the glyphs its most contrasting
    pixels."""
    from collections import Counter
    from test_browser import decode_png

    def lum(rgb):
        def channel(c):
            c /= 255
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
        r, g, b = (channel(v) for v in rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    width, height, bpp, rows = decode_png(png)
    pixels = []
    for y in range(int(rect["top"]) + 4, int(rect["bottom"]) - 4):
        row = rows[y]
        for x in range(int(rect["left"]) + 10, int(rect["right"]) - 10):
            pixels.append(tuple(row[x * bpp:x * bpp + 3]))
    plate = Counter(pixels).most_common(1)[0][0]
    lp = lum(plate)
    ratios = sorted(((max(lum(p), lp) + 0.05) / (min(lum(p), lp) + 0.05) for p in pixels), reverse=True)
    return ratios[max(0, len(ratios) // 50)]         # the glyph cores, ignoring a few stray pixels


def test_tap_answers_stay_on_the_stage_and_are_legible(phone, console, rain_server, room):
    drv = phone
    drv.get(f"{rain_server.base_url}rain.html?room={room}")
    wait_welcome(drv)
    start_rain(rain_server, room)
    wait_until(lambda: rain_state(drv).get("phase") == "raining", 10, "the rain to start", 0.1)
    stage = js(drv, "var r = document.getElementById('stage').getBoundingClientRect();"
                    "return {left: r.left, top: r.top, right: r.right, bottom: r.bottom};")
    canvas = js(drv, "var r = document.querySelector('#view canvas').getBoundingClientRect();"
                     "return {left: r.left, top: r.top, right: r.right, bottom: r.bottom};")
    w, h = stage["right"] - stage["left"], stage["bottom"] - stage["top"]
    points = {"left": (stage["left"] + 3, stage["top"] + h / 2), "right": (stage["right"] - 3, stage["top"] + h / 2),
              "top": (stage["left"] + w / 2, stage["top"] + 3), "bottom": (stage["left"] + w / 2, stage["bottom"] - 3)}
    for edge, (x, y) in points.items():
        if rain_state(drv).get("phase") != "raining":
            break
        before = (rain_state(drv).get("lastTap") or {}).get("at", 0)
        tap_at(drv, x, y)
        wait_until(lambda: (rain_state(drv).get("lastTap") or {}).get("at", 0) > before, 3,
                   f"the answer to the tap at the {edge} edge", 0.05)
        time.sleep(0.3)                                # the label has faded in
        label = js(drv, "var e = document.getElementById('tap-label'); if (e.hidden) return null;"
                        "var r = e.getBoundingClientRect(); return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, text: e.textContent};")
        assert label, f"no tap answer shown for the tap at the {edge} edge"
        for side, inside in (("left", lambda a, b: a >= b), ("top", lambda a, b: a >= b),
                             ("right", lambda a, b: a <= b), ("bottom", lambda a, b: a <= b)):
            assert inside(label[side], canvas[side]), (edge, side, label, canvas)
        ratio = label_contrast(drv.get_screenshot_as_png(), label)
        assert ratio >= 4.5, (edge, label["text"], ratio)
    assert console.severe() == [], console.severe()


def test_rain_page_says_when_the_operator_stopped_the_rain(phone, console, rain_server, room):
    drv = phone
    drv.get(f"{rain_server.base_url}rain.html?room={room}&role=spectator")
    wait_until(lambda: rain_state(drv).get("connected"), 15, "the spectator page to join", 0.2)
    start_rain(rain_server, room)
    wait_until(lambda: rain_state(drv).get("phase") == "raining", 10, "the rain to start", 0.1)
    stopped = http_post(rain_server.base_url, f"/api/rooms/{room}/stop-rain", b"",
                        headers={"Authorization": f"Bearer {ADMIN}"})
    assert stopped.status == 200, (stopped, stopped.body)
    wait_until(lambda: rain_state(drv).get("phase") == "results", 5, "the results after the stop", 0.1)
    assert js(drv, "return !document.getElementById('results').hidden;"), "results card hidden"
    summary = text_of(drv, "results-summary")
    assert summary.startswith(("The organiser ended this rain early. ", "主办方提前结束了本场红包雨。 ")), summary
    wait_until(lambda: not [i for i in js(drv, "return window.layercastView.items();") if PACKET.match(i.get("name") or "")],
               2, "the packets to go from the screen", 0.1)
    assert console.severe() == [], console.severe()
