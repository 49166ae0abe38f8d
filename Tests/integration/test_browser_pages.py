"""What a player sees on every page, in Debian's headless Chromium (no CJK system font is
installed for the tests: the shipped face must do): legible Chinese, layouts at six window sizes
without scrolling, the rain HUD off the packets' fall area, axe-core with no serious or critical
violations, and screenshots of every page at two sizes for a person to look at (saved under
Tests/integration/.screenshots, or $LAYERCAST_SCREENSHOTS; printed at the end)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from browser import chromium, skip_module_without_browser
from conftest import wait_until

skip_module_without_browser()

SIZES = [(360, 640), (390, 844), (844, 390), (1024, 600), (1280, 720), (1920, 1080)]
SHOT_SIZES = {(390, 844), (1280, 720)}
SHOTS = Path(os.environ.get("LAYERCAST_SCREENSHOTS") or Path(__file__).resolve().parent / ".screenshots")
ADMIN = "pages-admin-token-0123456789"


def js(drv, script: str, *args):
    return drv.execute_script(script, *args)


@pytest.fixture(scope="module")
def pages_server():
    from conftest import ServerProcess, _require_binary
    _require_binary()
    proc = ServerProcess(["--admin-token", ADMIN, "--rain-every", "0"])
    yield proc
    proc.stop()


def browser(width: int, height: int):
    return chromium(width, height, mobile={"width": width, "height": height, "pixelRatio": 1.0,
                                           "touch": width < 900})


def pages(base: str) -> dict[str, str]:
    return {
        "index": f"{base}index.html",
        "rain": f"{base}rain.html?room=pages-rain",
        "scene-radar": f"{base}scene.html?scene=radar&room=pages-radar",
        "scene-cubes": f"{base}scene.html?scene=cubes&room=pages-cubes",
        "scene-snow": f"{base}scene.html?scene=snow&room=pages-snow&role=spectator",
        "scene-book": f"{base}scene.html?scene=book&room=pages-book",
        "embed-demo": f"{base}embed-demo.html?scene=radar&room=pages-embed",
        "embed": f"{base}embed.html?scene=radar&room=pages-embed",
    }


def wait_drawn(drv, name: str) -> None:
    if name in ("index", "embed-demo"):
        time.sleep(1.0)
        return
    wait_until(lambda: js(drv, "return window.layercastView ? window.layercastView.stats().framesReceived : 0;") >= 5,
               15, f"{name} to draw frames", 0.2)
    time.sleep(0.4)


def rect(drv, selector: str):
    return js(drv, "var e = document.querySelector(arguments[0]); if (!e) return null;"
                   "var r = e.getBoundingClientRect(); return {left: r.left, top: r.top, right: r.right, bottom: r.bottom};",
              selector)


def intersects(a, b) -> bool:
    return a["left"] < b["right"] - 0.5 and b["left"] < a["right"] - 0.5 and a["top"] < b["bottom"] - 0.5 and b["top"] < a["bottom"] - 0.5


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_layouts_fit_every_window(pages_server, size):
    width, height = size
    for drv in browser(width, height):
        for name, url in pages(pages_server.base_url).items():
            drv.get(url)
            wait_drawn(drv, name)
            view = js(drv, "return {w: innerWidth, h: innerHeight};")
            assert view == {"w": width, "h": height}, (name, view)
            scroll = js(drv, "var d = document.documentElement; return {w: d.scrollWidth, h: d.scrollHeight};")
            # Nothing scrolls sideways anywhere (the catalogue was 394 px wide in a 360 px phone).
            assert scroll["w"] <= width, (name, size, scroll)
            if name not in ("index", "embed-demo"):
                # The scene pages and the rain page do not scroll at all, and the stage is in view.
                assert scroll["h"] <= height, (name, size, scroll)
                stage = rect(drv, "#stage" if name == "rain" else "canvas")
                assert stage and stage["left"] >= -0.5 and stage["top"] >= -0.5, (name, stage)
                assert stage["right"] <= width + 0.5 and stage["bottom"] <= height + 0.5, (name, size, stage)
            if name == "rain":
                # No HUD element over the packets' fall area (the whole stage).
                stage = rect(drv, "#stage")
                for selector in ("#hud-name", "#hud-coins", "#share", "#hud-state", "#hud-progress", "#hud-feed", "#hud-conn"):
                    box = rect(drv, selector)
                    visible = js(drv, "var e = document.querySelector(arguments[0]); return !!e && e.getClientRects().length > 0;", selector)
                    if box and visible:
                        assert not intersects(box, stage), (size, selector, box, stage)
            if size in SHOT_SIZES:
                SHOTS.mkdir(parents=True, exist_ok=True)
                drv.save_screenshot(str(SHOTS / f"{name}-{width}x{height}.png"))
    print(f"screenshots: {SHOTS}")


def test_chinese_renders_in_the_shipped_font_before_the_first_frame(pages_server):
    for drv in browser(414, 736):
        drv.get(f"{pages_server.base_url}rain.html?room=pages-font")
        wait_until(lambda: (js(drv, "return window.layercastView && window.layercastView.stats().framesReceived;") or 0) >= 3,
                   15, "frames", 0.2)
        wait_until(lambda: js(drv, "return window.layercastView.stats().fontAtFirstFrame;") is not None, 5,
                   "the first frame to be drawn", 0.1)
        # The shipped face was loaded when the first frame was drawn.
        assert js(drv, "return window.layercastView.stats().fontAtFirstFrame;") is True
        assert js(drv, "return document.fonts.check('700 16px \"Layercast Sans\"', '红包金币');") is True
        # Without a CJK system font (the test machine has none), a face that lacks the glyphs
        # draws .notdef boxes: the same for every character. The shipped face draws each
        # character differently, and unlike that box.
        result = js(drv, """
            function draw(text, family) {
              var c = document.createElement('canvas'); c.width = 64; c.height = 64;
              var g = c.getContext('2d'); g.fillStyle = '#fff'; g.fillRect(0, 0, 64, 64);
              g.fillStyle = '#000'; g.font = '700 48px ' + family; g.textBaseline = 'middle';
              g.fillText(text, 8, 32);
              return Array.prototype.join.call(g.getImageData(0, 0, 64, 64).data, ',');
            }
            var box = draw('\\u0378', '"Layercast Sans"');          // an unassigned code point: .notdef
            var hong = draw('\\u7ea2', '"Layercast Sans", monospace'); // 红
            var bao = draw('\\u5305', '"Layercast Sans", monospace');  // 包
            var fallbackHong = draw('\\u7ea2', 'monospace');
            var fallbackBao = draw('\\u5305', 'monospace');
            return {hongIsBox: hong === box, distinct: hong !== bao,
                    systemHasCjk: fallbackHong !== fallbackBao};
        """)
        assert result["hongIsBox"] is False and result["distinct"] is True, result
        # The test image has no CJK font: without the shipped face both are the same box.
        if not os.environ.get("LAYERCAST_ALLOW_CJK_SYSTEM_FONT"):
            assert result["systemHasCjk"] is False, "a CJK system font is installed; the test proves nothing"


def axe_violations(drv) -> list[dict]:
    from axe_selenium_python import Axe
    axe = Axe(drv)
    axe.inject()
    found = axe.run()
    return [{"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:3]}
            for v in found["violations"] if v.get("impact") in ("serious", "critical")]


@pytest.mark.parametrize("size", [(390, 844), (1280, 720)], ids=["phone", "desktop"])
def test_axe_finds_no_serious_problems(pages_server, size):
    for drv in browser(*size):
        problems = {}
        for name, url in pages(pages_server.base_url).items():
            drv.get(url)
            wait_drawn(drv, name)
            found = axe_violations(drv)
            if found:
                problems[name] = found
        assert problems == {}, problems


@pytest.fixture
def foreign_pages():
    """public/ served by a plain HTTP server on 127.0.0.2: an origin Layercast does not allow
    (it always allows its own, localhost and 127.0.0.1 ones)."""
    import functools
    import http.server
    import threading
    handler = functools.partial(http.server.SimpleHTTPRequestHandler,
                                directory=str(Path(__file__).resolve().parents[2] / "public"))
    handler.log_message = lambda *args: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.2", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.2:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


def test_errors_are_plain_words(pages_server, foreign_pages):
    for drv in browser(390, 844):
        # A bad room name: said in words, with what to do; never the bare code.
        drv.get(f"{pages_server.base_url}rain.html?room=bad.room")
        wait_until(lambda: "not valid" in (js(drv, "return document.getElementById('hud-conn').textContent;") or ""),
                   8, "#hud-conn to explain the bad room", 0.2)
        body = js(drv, "return document.body.innerText;")
        assert "bad_room" not in body and "Use 1–32 letters" in body, body
        # The same in the page's language when it is Chinese.
        drv.get(f"{pages_server.base_url}rain.html?room=bad.room&lang=zh")
        wait_until(lambda: "房间名无效" in (js(drv, "return document.getElementById('hud-conn').textContent;") or ""),
                   8, "#hud-conn to explain the bad room in Chinese", 0.2)
        assert js(drv, "return document.documentElement.lang;") == "zh-Hans"
        # A server that refuses this page's origin: the page says so instead of retrying in silence.
        drv.get(f"{foreign_pages}rain.html?room=pages-refused&server={pages_server.base_url}")
        wait_until(lambda: "may not connect" in (js(drv, "return document.getElementById('hud-conn').textContent;") or ""),
                   12, "#hud-conn to say the page may not connect", 0.2)
        drv.get(f"{foreign_pages}scene.html?scene=radar&room=pages-refused&server={pages_server.base_url}")
        wait_until(lambda: "may not connect" in (js(drv, "return document.getElementById('state').textContent;") or ""),
                   12, "scene.html to say the page may not connect", 0.2)


def test_reduced_motion_stills_the_page_chrome(pages_server):
    for drv in browser(390, 844):
        drv.execute_cdp_cmd("Emulation.setEmulatedMedia",
                            {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        drv.get(f"{pages_server.base_url}rain.html?room=pages-motion")
        wait_drawn(drv, "rain")
        styles = js(drv, """
            var coins = document.getElementById('hud-coins'); coins.classList.add('bump');
            var label = document.getElementById('tap-label'); label.hidden = false; label.classList.add('show');
            return {bump: getComputedStyle(coins).animationName, label: getComputedStyle(label).animationName,
                    frames: window.layercastView.stats().framesReceived};""")
        assert styles["bump"] == "none", styles                 # no pill bump
        assert styles["label"] == "fade-only", styles           # labels appear and go without moving
        before = styles["frames"]
        # The scene runs on: between rains it is still, and sends a keepalive a second (sparse).
        time.sleep(1.5)
        assert js(drv, "return window.layercastView.stats().framesReceived;") > before
