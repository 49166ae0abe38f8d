"""The snowfall in the browser (public/lib/particles.js): scene.html?scene=snow in headless
Chromium draws the emitter items' particles and they move. Helpers and the driver come from
test_browser.py; skipped like it when Chromium or Selenium is missing."""

from __future__ import annotations

import time

from test_browser import (canvas_pixels, changed_fraction, console, driver, drawn_fraction,  # noqa: F401
                          js, page_items, wait_frames)


def test_snow_page_draws_falling_particles(driver, console, server, room):
    driver.get(f"{server.base_url}scene.html?scene=snow&room={room}&role=spectator")
    wait_frames(driver, 15)
    items = page_items(driver)
    flakes = [i for i in items if i.get("name") == "flakeLayer"]
    assert flakes and len(flakes[0].get("p", [])) >= 30, [i.get("name") for i in items]
    time.sleep(0.5)  # let the snowflake image load and be drawn
    _, _, first = canvas_pixels(driver)
    # ≈ 56 flakes of about 6 × 6 pt on a black 414 × 736 scene: well over 0.1 % of the canvas.
    assert drawn_fraction(first) > 0.001, "the canvas shows only the background"
    time.sleep(0.7)
    _, _, second = canvas_pixels(driver)
    assert changed_fraction(first, second) > 0.0005, "the snow did not move in 0.7 s"
    assert js(driver, "return window.layercastErrors;") == []
    assert console.severe() == [], console.severe()
