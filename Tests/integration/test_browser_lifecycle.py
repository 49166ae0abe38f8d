"""The page still draws right after the tab was hidden and shown, the window resized, and the
device pixel ratio changed (issue 36), in headless Chromium against a real server: the radar
(which moves) and the book (which is still), each rasterised in the page's render worker (the
default where OffscreenCanvas exists) and on the page's thread (`?renderer=main`).

After each change the canvas's backing store is its CSS size × devicePixelRatio, and what is in
it is what the frame says, read back from the canvas (copied onto a 2D canvas, then getImageData,
device pixels: a canvas handed to the render worker has no context on the page's thread): the root
item's `bg` wherever the scene shows only the root (points 20 pt clear of every other item's
rect), and nothing (alpha 0) in the letterbox, where the page's own background shows, which a
screenshot confirms; just inside the scene rect's edge the canvas is opaque, just outside it
transparent, so the drawing is neither stale, blank nor stretched. The still book draws nothing
while still (no `draw` event of the view's handle over 2 s, while its keepalives arrive), draws
again after each change, then rests again; the radar draws nothing while hidden and goes on
drawing when shown.

A render worker whose script does not load (its URL swapped for a missing one before the page's
scripts run: a 404) leaves the canvas to the page's thread, which draws the radar as the frames say.

How the changes are made in headless Chromium (checked by the test each time):
- hidden: `Emulation.setFocusEmulationEnabled` off does not hide a fresh page (nor does a second
  tab or a minimized window in headless Chromium), but CDP `Page.setWebLifecycleState` frozen then
  active leaves it hidden (`document.hidden` true, a `visibilitychange`), and from then on focus
  emulation off hides it and on shows it. The freeze closes the page's WebSocket (Chromium logs
  "Page entered Back-Forward Cache"): the page reconnects while hidden and its frames go on
  arriving; the test allows that one disconnection. The second hide, by focus alone, must keep
  the connection open.
- resize and ratio: `Emulation.setDeviceMetricsOverride`. Headless Chromium hands the new
  metrics to the page only when it next captures a frame, not with the page's own animation
  frames (seen with the radar too): a change of the ratio alone reaches the page as neither a
  `resize` nor a media query change until then. So the test takes a screenshot after each change,
  as a shown tab's compositor would present a frame.

Helpers come from test_browser.py; skipped like it when Chromium or Selenium is missing."""

from __future__ import annotations

import base64
import time

import pytest

from browser import Console, chromium
from conftest import wait_until
from layercast_client import item_center, item_contains, item_point, item_size
from test_browser import decode_png, js, view_stats, wait_frames

#: Scene points this far from every item but the root show only the root's background.
CLEAR_MARGIN = 20.0
#: Channel tolerance of a read-back colour (the canvas is not colour managed; antialiasing is
#: kept away by CLEAR_MARGIN).
TOLERANCE = 3
#: Chromium's console line for the page's WebSocket closed by the freeze that hides the page.
FROZEN_SOCKET = "failed: Page entered Back-Forward Cache"
PAGE_BACKGROUND = (5, 8, 15)  # style.css: .scene-page layercast-view { background: #05080f }


@pytest.fixture
def fresh_driver():
    """A browser of the test's own: the emulated metrics and focus it sets do not outlive it."""
    yield from chromium(700, 1000)


COUNT_DRAWS = """
window.layercastDraws = 0;
window.layercastVisibility = [];
document.addEventListener('visibilitychange', () => window.layercastVisibility.push(document.visibilityState));
window.layercastStatuses = [];
document.addEventListener('layercast-status', ({ detail }) => window.layercastStatuses.push(detail));
window.layercastView.on('draw', () => { window.layercastDraws += 1; });
"""


def draws(drv) -> int:
    return js(drv, "return window.layercastDraws;")


def hidden(drv) -> bool:
    return js(drv, "return document.hidden;")


def hide_tab(drv) -> str:
    """Hides the page (module docstring); returns how: "focus" or "freeze"."""
    drv.execute_cdp_cmd("Emulation.setFocusEmulationEnabled", {"enabled": False})
    how = "focus"
    if not wait_hidden(drv, 0.5):
        how = "freeze"
        drv.execute_cdp_cmd("Page.setWebLifecycleState", {"state": "frozen"})
        drv.execute_cdp_cmd("Page.setWebLifecycleState", {"state": "active"})
    wait_until(lambda: hidden(drv), 5, f"document.hidden (by {how})", 0.1)
    assert js(drv, "return document.visibilityState;") == "hidden"
    assert js(drv, "return window.layercastVisibility;")[-1:] == ["hidden"]
    return how


def wait_hidden(drv, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if hidden(drv):
            return True
        time.sleep(0.05)
    return hidden(drv)


def show_tab(drv) -> None:
    drv.execute_cdp_cmd("Emulation.setFocusEmulationEnabled", {"enabled": True})
    wait_until(lambda: not hidden(drv), 5, "document.hidden to be false", 0.1)
    assert js(drv, "return window.layercastVisibility;")[-1:] == ["visible"]


def screenshot(drv) -> bytes:
    return base64.b64decode(drv.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})["data"])


def emulate(drv, width: int, height: int, dpr: float) -> None:
    drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                        {"width": width, "height": height, "deviceScaleFactor": dpr, "mobile": False})
    screenshot(drv)  # the frame that hands the metrics to the page (module docstring)
    wait_until(lambda: js(drv, "return [innerWidth, innerHeight, devicePixelRatio];") == [width, height, dpr],
               5, f"the page at {width} × {height} CSS px, ratio {dpr}", 0.1)


def surface(drv) -> dict:
    return js(drv, """
        const c = document.querySelector('layercast-view canvas'), r = c.getBoundingClientRect();
        const v = window.layercastView, root = v.items()[0];
        const a = v.sceneToPage(0, 0), b = v.sceneToPage(root.s[0], root.s[1]);
        return {width: c.width, height: c.height, cssWidth: r.width, cssHeight: r.height, left: r.left, top: r.top,
                dpr: devicePixelRatio, x0: a.x - r.left, y0: a.y - r.top, x1: b.x - r.left, y1: b.y - r.top};""")


def backing_matches(drv):
    s = surface(drv)
    ok = (abs(s["width"] - s["cssWidth"] * s["dpr"]) <= 1 and abs(s["height"] - s["cssHeight"] * s["dpr"]) <= 1
          and s["width"] > 0 and s["height"] > 0)
    return s if ok else None


def read_pixels(drv, points) -> list[list[int]]:
    """RGBA of the canvas's backing store at device pixels `points` (copied onto a 2D canvas: a canvas
    handed to the render worker has no context on the page's thread)."""
    return js(drv, """
        const canvas = document.querySelector('layercast-view canvas');
        const copy = document.createElement('canvas');
        copy.width = canvas.width;
        copy.height = canvas.height;
        const ctx = copy.getContext('2d');
        ctx.drawImage(canvas, 0, 0);
        return arguments[0].map(([x, y]) => Array.from(ctx.getImageData(x, y, 1, 1).data));""", points)


#: An item with only these keys paints only its border (the radar's pulses: rings that grow
#: over the whole scene): the points well inside it show what is under it.
OUTLINE_KEYS = {"id", "name", "m", "s", "o", "bc", "bw", "cr"}


def covers(item: dict, x: float, y: float) -> bool:
    """Whether `item` may paint near the scene point (x, y) (within CLEAR_MARGIN)."""
    if not item_contains(item, x, y, CLEAR_MARGIN):
        return False
    if "bc" not in item or not set(item) <= OUTLINE_KEYS:
        return True
    w, h = item_size(item)
    reach = CLEAR_MARGIN + float(item.get("bw", 1))
    if float(item.get("cr", 0)) >= min(w, h) / 2 - 0.5:  # a circle: away from its ring
        cx, cy = item_center(item)
        ex, ey = item_point(item, w / 2, 0)
        radius = ((ex - cx) ** 2 + (ey - cy) ** 2) ** 0.5
        return abs(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 - radius) <= reach
    return not item_contains(item, x, y, -reach)  # a rect's outline: near its edges


def hex_rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return tuple(int(colour[i:i + 2], 16) for i in (0, 2, 4))


def close(a, b) -> bool:
    return all(abs(int(p) - int(q)) <= TOLERANCE for p, q in zip(a, b))


def check_drawing(drv, what: str) -> dict:
    """The backing store fits; the root's bg where only the root is; the letterbox empty."""
    s = wait_until(lambda: backing_matches(drv), 5, f"{what}: the backing store to be CSS size × ratio", 0.1)
    items = js(drv, "return window.layercastView.items();")
    root, others = items[0], items[1:]
    assert root.get("bg"), root
    bg = hex_rgb(root["bg"])
    sw, sh = root["s"]
    scale = (s["x1"] - s["x0"]) / sw
    assert abs((s["y1"] - s["y0"]) / sh - scale) < 1e-6, s  # letterboxed, not stretched
    dpr = s["dpr"]

    def device(sx, sy):
        return [int((s["x0"] + sx * scale) * dpr), int((s["y0"] + sy * scale) * dpr)]

    grid = [(sw / 2, sh / 2)] + [(sw * i / 8, sh * j / 16) for i in range(1, 8) for j in range(1, 16)]
    free = [p for p in grid if not any(covers(item, p[0], p[1]) for item in others)]
    assert len(free) >= 8, f"{what}: only {len(free)} clear points"
    pixels = read_pixels(drv, [device(*p) for p in free])
    wrong = [(p, px) for p, px in zip(free, pixels) if not (close(px[:3], bg) and px[3] == 255)]
    assert not wrong, f"{what}: root bg {root['bg']} expected at scene points, got {wrong[:5]} ({s})"

    # The scene rect's edges: opaque 2 device px inside, transparent 2 px outside (when there is a
    # letterbox there): the letterbox is the page's.
    left, top = s["x0"] * dpr, s["y0"] * dpr
    right, bottom = s["x1"] * dpr, s["y1"] * dpr
    mid_x, mid_y = int((left + right) / 2), int((top + bottom) / 2)
    inside = [[int(left) + 2, mid_y], [int(right) - 3, mid_y], [mid_x, int(top) + 2], [mid_x, int(bottom) - 3]]
    assert all(px[3] == 255 for px in read_pixels(drv, inside)), f"{what}: scene edges not drawn ({s})"
    bands = []
    if left >= 6:
        bands += [[int(left) - 3, mid_y], [int(left / 2), mid_y], [int(right) + 2, mid_y]]
    if top >= 6:
        bands += [[mid_x, int(top) - 3], [mid_x, int(top / 2)], [mid_x, int(bottom) + 2]]
    assert bands, f"{what}: the test expects a letterbox ({s})"
    assert all(px[3] == 0 for px in read_pixels(drv, bands)), \
        f"{what}: the letterbox is drawn on: {read_pixels(drv, bands)} ({s})"
    # On screen the letterbox shows the page's background.
    shot_w, shot_h, bpp, rows = decode_png(screenshot(drv))
    band = bands[1]
    sx = int(round(s["left"] * dpr + band[0])) * shot_w // round(js(drv, "return innerWidth;") * dpr)
    sy = int(round(s["top"] * dpr + band[1])) * shot_h // round(js(drv, "return innerHeight;") * dpr)
    on_screen = tuple(rows[sy][sx * bpp:sx * bpp + 3])
    assert close(on_screen, PAGE_BACKGROUND), f"{what}: letterbox on screen is {on_screen}"
    return s


def assert_still(drv, seconds: float, what: str) -> None:
    """The book draws nothing for `seconds` while its keepalives go on arriving."""
    before, frames = draws(drv), view_stats(drv)["framesReceived"]
    time.sleep(seconds)
    after, stats = draws(drv), view_stats(drv)
    assert after == before, f"{what}: {after - before} draws in {seconds} s of a still scene"
    assert stats["fps"] == 0, stats
    assert stats["framesReceived"] > frames, f"{what}: no keepalive in {seconds} s ({stats})"


def settle(drv, what: str) -> None:
    """Waits until the still book has stopped drawing (the draw after a change is done)."""
    def quiet():
        n = draws(drv)
        time.sleep(0.5)
        return draws(drv) == n
    wait_until(quiet, 8, f"{what}: the still page to stop drawing", 0.1)


def assert_moving(drv, what: str) -> None:
    before = draws(drv)
    time.sleep(1.0)
    assert draws(drv) - before >= 10, f"{what}: {draws(drv) - before} draws in 1 s of the radar"


@pytest.mark.parametrize("renderer", ["worker", "main"])
@pytest.mark.parametrize("scene", ["radar", "book"])
def test_page_draws_right_after_hide_resize_and_ratio_change(fresh_driver, server, room, scene, renderer):
    drv = fresh_driver
    console = Console(drv)
    still = scene == "book"
    # Chromium has OffscreenCanvas: by default the page rasterises in its render worker;
    # ?renderer=main is the page-thread path kept for browsers without it.
    query = "" if renderer == "worker" else "&renderer=main"
    drv.get(f"{server.base_url}scene.html?scene={scene}&room={room}&role=spectator{query}")
    wait_frames(drv, 3)
    started = js(drv, "return performance.getEntriesByType('resource').some((e) => e.name.includes('render-worker.js'));")
    assert started == (renderer == "worker"), f"render worker started: {started}"
    wait_until(lambda: view_stats(drv)["fontAtFirstFrame"] is not None, 10, "the first frame drawn", 0.2)
    js(drv, COUNT_DRAWS)
    if still:
        time.sleep(1.0)  # the covers' images load and are drawn
        settle(drv, "loaded")
        wait_until(lambda: view_stats(drv)["fps"] == 0, 5, "the still page's draw rate to fall to 0", 0.2)
        assert_still(drv, 2.0, "loaded")
    else:
        assert_moving(drv, "loaded")
    check_drawing(drv, "loaded")

    # (a) hidden, then shown, twice: the first time by a freeze (which reconnects), the second by
    # focus emulation alone (which keeps the connection: the book then draws again only because
    # it was shown, not because a keepalive after a reconnect brought a new path table).
    for cycle in (1, 2):
        statuses = len(js(drv, "return window.layercastStatuses;"))
        how = hide_tab(drv)
        before, frames = draws(drv), view_stats(drv)["framesReceived"]
        time.sleep(1.5)
        assert draws(drv) == before, f"hide {cycle} ({how}): the hidden page drew"
        wait_until(lambda: view_stats(drv)["framesReceived"] > frames, 5,
                   f"hide {cycle} ({how}): a frame reaching the hidden page", 0.1)
        show_tab(drv)
        wait_until(lambda: draws(drv) > before, 5, f"hide {cycle} ({how}): a draw once shown", 0.1)
        check_drawing(drv, f"shown again ({cycle}, {how})")
        if still:
            settle(drv, "shown again")
            assert_still(drv, 2.0, "shown again")
        else:
            assert_moving(drv, "shown again")
        if cycle == 2:
            assert how == "focus", "focus emulation no longer hides the page: the second hide froze it"
            assert len(js(drv, "return window.layercastStatuses;")) == statuses, \
                "the connection did not stay open while the page was hidden"

    # (b) resized: narrower and taller, so the letterbox moves from the sides to above and below
    before = draws(drv)
    emulate(drv, 360, 900, 1)
    wait_until(lambda: draws(drv) > before, 5, "a draw after the resize", 0.1)
    check_drawing(drv, "resized to 360 × 900")
    if still:
        settle(drv, "resized")
        assert_still(drv, 2.0, "resized")
    else:
        assert_moving(drv, "resized")

    # (c) the device pixel ratio alone, 1 → 3
    before = draws(drv)
    emulate(drv, 360, 900, 3)
    wait_until(lambda: draws(drv) > before, 5, "a draw after the ratio change", 0.1)
    s = check_drawing(drv, "ratio 3")
    assert s["dpr"] == 3 and s["width"] >= 3 * 360 - 3, s
    if still:
        settle(drv, "ratio 3")
        assert_still(drv, 2.0, "ratio 3")
    else:
        assert_moving(drv, "ratio 3")

    # Only the freeze closed the connection (at most once), and the page is connected again.
    statuses = js(drv, "return window.layercastStatuses;")
    assert sum(1 for st in statuses if not st["connected"]) <= 1 and view_stats(drv)["connected"], statuses
    assert js(drv, "return window.layercastErrors;") == []
    assert [e for e in console.severe() if FROZEN_SOCKET not in e.get("message", "")] == [], console.severe()


#: Installed before the page's scripts: the render worker's script is asked for at a URL that is not served.
MISSING_WORKER = """
const NativeWorker = window.Worker;
window.Worker = class extends NativeWorker {
  constructor(url, options) {
    window.workersAsked = [...(window.workersAsked || []), String(url)];
    super(String(url).replace('render-worker.js', 'no-such-render-worker.js'), options);
  }
};
"""


def test_a_worker_that_does_not_start_leaves_the_canvas_to_the_page(fresh_driver, server, room):
    drv = fresh_driver
    drv.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": MISSING_WORKER})
    drv.get(f"{server.base_url}scene.html?scene=radar&room={room}&role=spectator")
    wait_frames(drv, 3)
    asked = js(drv, "return window.workersAsked || [];")
    assert len(asked) == 1 and asked[0].endswith("/lib/render-worker.js"), asked
    wait_until(lambda: view_stats(drv)["fontAtFirstFrame"] is not None, 10, "the first frame drawn", 0.2)
    js(drv, COUNT_DRAWS)
    assert_moving(drv, "no worker")
    check_drawing(drv, "no worker")
    # The canvas was not handed to a worker: the page's thread draws on it with its 2D context.
    assert js(drv, "return document.querySelector('layercast-view canvas').getContext('2d') !== null;")


#: Installed before the page's scripts: notes each worker asked for, and the modules on the stack that asked.
COUNT_WORKERS = """
const NativeWorker = window.Worker;
window.Worker = class extends NativeWorker {
  constructor(url, options) {
    const by = [...new Set((new Error().stack.match(/[\\w-]+\\.js/g) || []))];
    window.workersAsked = [...(window.workersAsked || []), { url: String(url), by }];
    super(url, options);
  }
};
"""


@pytest.mark.parametrize("page", ["scene.html?scene=radar&", "rain.html?"])
def test_the_render_worker_starts_before_the_view_and_the_view_takes_it(fresh_driver, server, room, page):
    """The pages start the render worker as soon as its module has loaded (lib/render-worker-start.js),
    while the rest still loads; the view takes that one when it mounts and starts no other, and the
    worker draws on the page's canvas."""
    drv = fresh_driver
    drv.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": COUNT_WORKERS})
    drv.get(f"{server.base_url}{page}room={room}&role=spectator")
    wait_frames(drv, 3)
    wait_until(lambda: view_stats(drv)["fontAtFirstFrame"] is not None, 10, "the first frame drawn", 0.2)
    asked = js(drv, "return window.workersAsked || [];")
    assert len(asked) == 1 and asked[0]["url"].endswith("/lib/render-worker.js"), asked
    # Asked for by the start module, not by the view's mount (layercast.js).
    assert "render-worker-start.js" in asked[0]["by"] and "layercast.js" not in asked[0]["by"], asked
    if "radar" in page:  # the rain page rests between rains
        js(drv, COUNT_DRAWS)
        assert_moving(drv, "the early worker")
    # The canvas was handed to the worker: the page can no longer take a context of it.
    assert js(drv, """try { document.querySelector('canvas.layercast-canvas').getContext('2d'); return false; }
                      catch (error) { return error.name; }""") == "InvalidStateError"


#: Counts the page's own animation frames asked for from now on.
COUNT_PAGE_FRAMES = """
window.pageFramesAsked = 0;
const ask = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (callback) => { window.pageFramesAsked += 1; return ask(callback); };
"""


@pytest.mark.parametrize("renderer", ["worker", "main"])
def test_the_view_moves_in_the_animation_frames_of_the_thread_that_draws_it(fresh_driver, server, room, renderer):
    """Once the render worker holds the canvas, the view draws in the worker's animation frames:
    the page's thread asks for none of its own while the radar moves, so it runs no rendering
    step for a picture. Drawn on the page's thread (`?renderer=main`), it asks for one a draw."""
    drv = fresh_driver
    query = "" if renderer == "worker" else "&renderer=main"
    drv.get(f"{server.base_url}scene.html?scene=radar&room={room}&role=spectator{query}")
    wait_frames(drv, 3)
    wait_until(lambda: view_stats(drv)["fontAtFirstFrame"] is not None, 10, "the first frame drawn", 0.2)
    js(drv, COUNT_DRAWS)
    # A picture on the canvas: a worker has it then, and its first frames, asked for of the page's
    # thread before it had, are past.
    wait_until(lambda: draws(drv) >= 2, 5, "a picture on the canvas", 0.05)
    js(drv, COUNT_PAGE_FRAMES + "window.layercastDraws = 0;")
    assert_moving(drv, renderer)
    asked, drawn = js(drv, "return [window.pageFramesAsked, window.layercastDraws];")
    if renderer == "worker":
        assert asked == 0, f"the page asked for {asked} animation frames of its own in {drawn} draws"
    else:
        # (the frame of the first draw counted may have been asked for before the count began)
        assert asked >= drawn - 1 and drawn >= 10, f"{asked} page animation frames for {drawn} draws"
    check_drawing(drv, renderer)
