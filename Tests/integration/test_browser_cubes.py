"""The cube loader in the browser client: /scene.html?scene=cubes in headless Chromium, pulled
with the mouse (Selenium ActionChains) against a real server. Skipped like test_browser.py when
Chromium, chromium-driver or selenium are missing.

Scene facts (CubesScene): `cube-0-top` is cube 0's top face; a drag of 120 scene points
downwards is a full pull, and releasing it starts the loop; `refreshed` follows within about
3.5 s. Set LAYERCAST_SCREENSHOT=path.png to keep a screenshot of the pulled loader.
"""

from __future__ import annotations

import os

from conftest import wait_until
from layercast_client import item_center
from test_browser import (canvas_pixels, changed_fraction, console, driver,  # noqa: F401
                          js, page_items, view_stats, wait_frames)


def cube_top(drv):
    items = page_items(drv) or []
    return next((item_center(i) for i in items if i.get("name") == "cube-0-top"), None)


def events_text(drv) -> str:
    return js(drv, "var e = document.querySelector('#events'); return e ? e.textContent : '';")


def test_mouse_pull_moves_the_cubes_and_refreshes(driver, console, server, room):  # noqa: F811
    from selenium.webdriver.common.action_chains import ActionChains

    driver.get(f"{server.base_url}scene.html?scene=cubes&room={room}&role=player&debug=1")
    wait_frames(driver, 10)
    start = cube_top(driver)
    assert start is not None, page_items(driver)
    _, _, before = canvas_pixels(driver)

    # Press at scene (207, 420) and move down in steps to half a pull (60 scene points), hold,
    # then on to a full pull (140 points, clamped to 100 %) and release, all in one gesture
    # (separate `perform` calls make Chromium cancel the pointer).
    origin = js(driver, "return window.layercastView.sceneToPage(207, 420);")
    half = js(driver, "return window.layercastView.sceneToPage(207, 480);")
    full = js(driver, "return window.layercastView.sceneToPage(207, 560);")
    body = driver.find_element("tag name", "body")
    ActionChains(driver).move_to_element_with_offset(body, 0, 0).perform()   # pointer off the canvas
    chain = ActionChains(driver, duration=50)
    pointer = chain.w3c_actions.pointer_action
    pointer.move_to_location(int(origin["x"]), int(origin["y"]))
    pointer.pointer_down()
    for k in range(1, 7):
        pointer.move_to_location(int(origin["x"]), int(round(origin["y"] + (half["y"] - origin["y"]) * k / 6)))
    pointer.pause(0.6)
    for k in range(1, 5):
        pointer.move_to_location(int(origin["x"]), int(round(half["y"] + (full["y"] - half["y"]) * k / 4)))
    pointer.pause(0.2)
    pointer.pointer_up()
    chain.perform()

    # The loader refreshes: the page's display list shows cube 0 looping and the canvas changes.
    wait_until(lambda: "refresh loading" in events_text(driver) or "refresh phase=finishing" in events_text(driver),
               3, "`refresh loading` in #events", 0.05)
    moved = wait_until(lambda: (lambda p: p if p and max(abs(p[0] - start[0]), abs(p[1] - start[1])) > 5 else None)(
        cube_top(driver)), 3, "cube 0 to move in the page's display list", 0.02)
    assert moved != start
    # Forms 0, 2, 4 and 6 look alike, so look until a snapshot catches the cubes between them.
    wait_until(lambda: changed_fraction(before, canvas_pixels(driver)[2]) > 0.002, 3,
               "the canvas to change while refreshing", 0.05)
    if os.environ.get("LAYERCAST_SCREENSHOT"):
        driver.save_screenshot(os.environ["LAYERCAST_SCREENSHOT"])
    wait_until(lambda: "refreshed" in events_text(driver), 8, "`refreshed` in #events", 0.2)
    # The status line says it in words (the raw event above is shown only with ?debug=1).
    assert js(driver, "return document.querySelector('#status').textContent;") == "Refreshed"
    assert view_stats(driver)["connected"] is True
    assert js(driver, "return window.layercastErrors;") == []
    assert console.severe() == [], console.severe()
