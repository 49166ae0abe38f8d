"""The prize reveal in the browser client: /scene.html?scene=reveal in headless Chromium against a
real server, through the generic scene page (nothing in public/ knows this scene). Skipped like
test_browser.py when Chromium, chromium-driver or selenium are missing.

Scene facts (RevealScene, docs/scenes.md §6): a campaign-red screen RGB(176, 18, 30); the
progress ring is a circle of radius 110 about (207, 330), 10 points wide, gold RGB(255, 196, 40),
full 2 s after its round starts; the replay button is 200 × 56 at (107, 532); a tap on it
announces `replay` with the new round, and 2.6 s later `revealed` with the same round. Set
LAYERCAST_SCREENSHOT=path.png to keep a screenshot of the revealed prize.
"""

from __future__ import annotations

import math
import os

from conftest import wait_until
from test_browser import (canvas_pixels, click_at, console, driver,  # noqa: F401
                          js, view_stats, wait_frames)

BACKGROUND = (176, 18, 30)
CENTRE = (207, 330)
RING_RADIUS = 110
REPLAY = (207, 560)


def events_text(drv) -> str:
    return js(drv, "var e = document.querySelector('#events'); return e ? e.textContent : '';")


def canvas_point(drv, x: float, y: float) -> tuple[int, int]:
    """The canvas pixel (column, row) showing scene point (x, y)."""
    at = js(drv, "var p = window.layercastView.sceneToPage(arguments[0], arguments[1]);"
                 "var r = document.querySelector('canvas').getBoundingClientRect();"
                 "return p && {x: p.x - r.left, y: p.y - r.top};", x, y)
    assert at is not None, "sceneToPage is null: no welcome yet"
    return int(round(at["x"])), int(round(at["y"]))


def ring_pixels(drv) -> list[tuple[int, int, int]]:
    """The canvas colours at 16 points on the ring's centre line."""
    width, _, pixels = canvas_pixels(drv)
    points = [canvas_point(drv, CENTRE[0] + RING_RADIUS * math.cos(2 * math.pi * k / 16),
                           CENTRE[1] + RING_RADIUS * math.sin(2 * math.pi * k / 16)) for k in range(16)]
    return [pixels[y * width + x] for x, y in points]


def drawn_fraction(drv) -> float:
    """The share of the canvas pixels in the 300-point square about the ring that are not the
    background."""
    width, height, pixels = canvas_pixels(drv)
    left, top = canvas_point(drv, CENTRE[0] - 150, CENTRE[1] - 150)
    right, bottom = canvas_point(drv, CENTRE[0] + 150, CENTRE[1] + 150)
    area = [pixels[y * width + x] for y in range(max(top, 0), min(bottom, height))
            for x in range(max(left, 0), min(right, width))]
    return sum(1 for c in area if c != BACKGROUND) / len(area)


def is_gold(colour) -> bool:
    r, g, b = colour
    return r > 230 and 150 < g < 230 and b < 110


def test_the_reveal_draws_its_ring_and_replays_on_a_tap(driver, console, server, room):  # noqa: F811
    driver.get(f"{server.base_url}scene.html?scene=reveal&room={room}&role=player&debug=1")
    wait_frames(driver, 10)
    assert len(driver.find_elements("css selector", "canvas")) == 1

    # Once the round's ring is full (2 s after the room started) every point of it is gold.
    wait_until(lambda: all(is_gold(c) for c in ring_pixels(driver)) or None, 8,
               "the ring's 16 sample points to be gold", 0.2)
    # The ring alone covers about 8 % of the 300-point square about it; from 2.6 s the revealed
    # card (140 × 140) adds about 22 %, so more than 20 % differs from the background once the
    # round's mask has opened (the page may have joined before or after that).
    wait_until(lambda: drawn_fraction(driver) > 0.2 or None, 8,
               "more than 20 % of the square about the ring to differ from the background", 0.2)

    if os.environ.get("LAYERCAST_SCREENSHOT"):
        driver.save_screenshot(os.environ["LAYERCAST_SCREENSHOT"])

    # A click on the replay button restarts the round: `replay` for the room, then its reveal.
    button = js(driver, "return window.layercastView.sceneToPage(arguments[0], arguments[1]);", *REPLAY)
    click_at(driver, button["x"], button["y"])
    wait_until(lambda: "replay 2 by" in events_text(driver), 5, "`replay 2 by …` in #events", 0.05)
    # The status line says it in the scene's words (RevealScene.info), this page's tap "by you".
    assert js(driver, "return document.querySelector('#status').textContent;") == "Round 2 started by you"
    wait_until(lambda: "revealed 2" in events_text(driver), 8, "`revealed 2` in #events", 0.1)
    assert view_stats(driver)["connected"] is True
    assert js(driver, "return window.layercastErrors;") == []
    assert console.severe() == [], console.severe()


def test_the_index_lists_the_reveal_last_with_a_link_to_the_generic_page(driver, console, server):  # noqa: F811
    from selenium.webdriver.common.by import By
    driver.get(server.base_url + "index.html")
    cards = wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#scenes a[data-scene]") or None, 8,
                       "index.html to list the scenes", 0.2)
    assert [c.get_attribute("data-scene") for c in cards] == ["radar", "rain", "cubes", "snow", "book", "reveal"]
    assert cards[-1].find_element(By.TAG_NAME, "h3").text == "Prize reveal"
    assert "scene.html?scene=reveal&room=lobby" in cards[-1].get_attribute("href")
    # Each card says what to do, in the scene's words; the rain's card opens the page its info names.
    assert cards[-1].find_element(By.CSS_SELECTOR, "p.summary").text == \
        "Watch the prize appear; tap the button below it to see it again."
    assert cards[1].get_attribute("href").endswith("rain.html?room=lobby")
    driver.get(server.base_url + "index.html?lang=zh")
    summary = wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#scenes a[data-scene=book] p.summary") or None, 8,
                         "index.html in Chinese to list the book", 0.2)
    assert summary[0].text == "点书架上的书打开它,再点书页把它放回去。"
    assert console.severe() == [], console.severe()
