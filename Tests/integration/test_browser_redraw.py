"""Drawing only what changed (issue 36, item 2), in headless Chromium against a real server: the
cube loader at rest still gets frames (empty deltas, 30 a second; or, from a server that sends
frames only when something changed, a keepalive a second), but the page draws none of them, and
draws again at once when the window is resized (which blanks the canvas). Skipped like
test_browser.py when Chromium, chromium-driver or selenium are missing."""

from __future__ import annotations

import time

from conftest import wait_until
from test_browser import (canvas_pixels, console, driver, drawn_fraction,  # noqa: F401
                          view_stats, wait_frames)


def test_a_still_scene_draws_nothing_while_its_frames_arrive(driver, console, server, room):  # noqa: F811
    driver.get(f"{server.base_url}scene.html?scene=cubes&room={room}&role=spectator")
    wait_frames(driver, 10)
    # The loader rests until pulled: once the first second's draws have left the rate window, none.
    stats = wait_until(lambda: (lambda s: s if s["fps"] == 0 else None)(view_stats(driver)), 5,
                       "the page to stop drawing the still loader", 0.2)
    time.sleep(2.2)
    later = view_stats(driver)
    assert 2 <= later["framesReceived"] - stats["framesReceived"] <= 80, (stats, later)
    assert later["fps"] == 0, later
    width, height, pixels = canvas_pixels(driver)
    assert drawn_fraction(pixels) > 0.01, "the loader is on the canvas"

    driver.set_window_size(500, 800)
    resized = wait_until(lambda: (lambda c: c if c[0] != width else None)(canvas_pixels(driver)), 5,
                         "the canvas to take the new size")
    assert drawn_fraction(resized[2]) > 0.01, "the resized canvas was drawn again"
    assert view_stats(driver)["fps"] >= 1
    wait_until(lambda: view_stats(driver)["fps"] == 0, 5, "the page to stop drawing again", 0.2)
    assert console.severe() == [], console.severe()
