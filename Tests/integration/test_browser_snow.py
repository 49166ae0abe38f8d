"""The snowfall in the browser (public/lib/particles.js): scene.html?scene=snow in headless
Chromium draws the emitter items' particle records (protocol.md, "Particles") and they move. Helpers and the driver come from
test_browser.py; skipped like it when Chromium or Selenium is missing."""

from __future__ import annotations

import time

from conftest import wait_until
from layercast_client import LayercastClient
from test_browser import (canvas_pixels, changed_fraction, console, driver, drawn_fraction,  # noqa: F401
                          js, page_items, wait_frames)


def test_snow_page_draws_falling_particles(driver, console, server, room):
    driver.get(f"{server.base_url}scene.html?scene=snow&room={room}&role=spectator")
    wait_frames(driver, 15)
    # A fresh room's snow starts at the top: by media time 7 about 25 flakes have come down.
    wait_until(lambda: (js(driver, "return window.layercastView.viewTime();") or 0) >= 7, 12, "view time 7 s", 0.2)
    ys = flake_ys(driver)
    assert len(ys) >= 12, ([i.get("name") for i in page_items(driver)], ys)
    time.sleep(0.5)  # let the snowflake image load and be drawn
    _, _, first = canvas_pixels(driver)
    # ≥ 12 flakes of about 6 × 6 pt on a black 414 × 736 scene: over 0.03 % of the canvas.
    assert drawn_fraction(first) > 0.0003, "the canvas shows only the background"
    time.sleep(0.7)
    _, _, second = canvas_pixels(driver)
    assert changed_fraction(first, second) > 0.0002, "the snow did not move in 0.7 s"
    assert js(driver, "return window.layercastErrors;") == []
    assert console.severe() == [], console.severe()


HEIGHT = 736


#: The y of each flake the page draws at its view time, by the page's own evaluator (particle-record.js).
FLAKE_YS = """
const done = arguments[arguments.length - 1];
import(new URL('lib/particle-record.js', location.href).href).then((records) => {
  const view = window.layercastView, d = view.viewTime(), state = new records.ParticleState(), ys = [];
  for (const item of view.items()) {
    if (item.name !== 'flakeLayer' || !item.pb) continue;
    const kinds = records.kindsOf(item.pk), local = records.localTime(item, d);
    for (const record of item.pb) if (records.evaluate(record, kinds.get(record[1]), local, state)) ys.push(state.y);
  }
  done(ys);
}, (error) => done(String(error)));
"""


def flake_ys(driver) -> list[float]:
    ys = driver.execute_async_script(FLAKE_YS)
    assert isinstance(ys, list), ys
    return ys


def bright_rows(driver) -> list[int]:
    """Rows of the scene (in scene points) that have bright (snow) pixels on the canvas."""
    width, height, pixels = canvas_pixels(driver)
    rect = js(driver, "var a = window.layercastView.sceneToPage(0, 0), b = window.layercastView.sceneToPage(414, 736),"
                      "c = document.querySelector('canvas').getBoundingClientRect();"
                      "return {x0: a.x - c.left, y0: a.y - c.top, x1: b.x - c.left, y1: b.y - c.top};")
    rows = set()
    for y in range(max(0, int(rect["y0"])), min(height, int(rect["y1"]))):
        for x in range(max(0, int(rect["x0"])), min(width, int(rect["x1"]))):
            r, g, b = pixels[y * width + x]
            if r + g + b > 300:
                rows.add(int((y - rect["y0"]) * HEIGHT / (rect["y1"] - rect["y0"])))
                break
    return sorted(rows)


def test_fresh_snow_room_starts_at_the_top(driver, console, server, room):  # noqa: F811
    # docs/scenes.md §3, problem 1: the first snow of a room starts at the top.
    driver.get(f"{server.base_url}scene.html?scene=snow&room={room}&role=spectator")
    wait_frames(driver, 1)
    t = wait_until(lambda: (lambda v: v if v is not None and v >= 0.3 else None)(
        js(driver, "return window.layercastView.viewTime();")), 5, "view time 0.3 s", 0.02)
    assert t < 1.0, t
    ys = flake_ys(driver)
    assert all(y < HEIGHT / 4 for y in ys), ys
    rows = bright_rows(driver)
    assert not [r for r in rows if r > HEIGHT / 4], rows[:10]


def test_late_snow_joiner_sees_the_whole_height(driver, console, server, room):  # noqa: F811
    first = LayercastClient.connect(server.base_url, scene="snow", room=room, role="spectator")
    try:
        first.wait_frames(1, 5)
        wait_until(lambda: first.latest() and first.latest().t >= 20, 30, "the room's media time 20 s", 0.2)
        driver.get(f"{server.base_url}scene.html?scene=snow&room={room}&role=spectator")
        wait_frames(driver, 3)
        ys = flake_ys(driver)
        assert len(ys) >= 30, len(ys)
        assert min(ys) < HEIGHT / 4 and max(ys) > HEIGHT * 3 / 4, (min(ys), max(ys))
        time.sleep(0.5)  # the snowflake image is loaded and drawn
        rows = bright_rows(driver)
        assert rows and rows[0] < HEIGHT / 4 and rows[-1] > HEIGHT * 3 / 4, rows[:3] + rows[-3:]
        assert console.severe() == [], console.severe()
    finally:
        first.close()
