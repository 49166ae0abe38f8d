"""The example scene package (examples/scene-package): its own binary, built on the Layercast
library with our six scenes and its card flip, serves the card in headless Chromium and hears
its tap.

Binary: env LAYERCAST_EXAMPLE_BIN, default examples/scene-package/.build/debug/card-flip-server
(scripts/test.sh builds it; the tests skip when it is missing). Browser: as test_browser.py.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from browser import Console, chromium, skip_module_without_browser
from conftest import REPO, http_get, serve_example, unique_room, wait_until

EXAMPLE_BIN = Path(os.environ.get("LAYERCAST_EXAMPLE_BIN")
                   or REPO / "examples" / "scene-package" / ".build" / "debug" / "card-flip-server")
# CardFlipScene: a 200-point card in the middle of a 414 × 736 scene.
CARD_MIDDLE = (207, 368)

skip_module_without_browser()


@pytest.fixture(scope="module")
def example_server():
    yield from serve_example(EXAMPLE_BIN, "scene-package", "LAYERCAST_EXAMPLE_BIN")


@pytest.fixture(scope="module")
def driver():
    yield from chromium(700, 1000)


def test_example_binary_lists_our_scenes_then_its_own(example_server):
    resp = http_get(example_server.base_url, "/api/scenes")
    assert resp.status == 200
    scenes = resp.json()["scenes"]
    assert [s["id"] for s in scenes] == ["radar", "rain", "cubes", "snow", "book", "reveal", "card-flip"]
    card = scenes[-1]
    assert card["title"] == "Card flip"
    assert card["size"] == {"width": 414, "height": 736}
    assert card["interactions"] == ["tap"]
    # An author's scene says its own words (CardFlipScene.info).
    assert card["summary"] == {"en": "Tap the card to flip it over.", "zh": "点卡片把它翻过来。"}
    assert [(w["event"], w["en"]) for w in card["events"]] == [("flip", "Card turning face {face} {by}"),
                                                               ("flipped", "Card face {face}")]


def test_the_cards_image_is_served_from_the_package(example_server):
    """The example ships card-mark.svg as a resource of its CardFlip module; nothing in public/
    holds it."""
    data = (REPO / "examples/scene-package/Sources/CardFlip/Resources/card-mark.svg").read_bytes()
    assert not list((REPO / "public").rglob("card-mark.svg"))
    path = "/assets/card-flip/card-mark.svg"
    resp = http_get(example_server.base_url, path)
    assert resp.status == 200 and resp.body == data, repr(resp)
    etag = '"' + hashlib.sha256(data).hexdigest()[:32] + '"'
    assert resp.header_values("ETag") == [etag]
    assert resp.header_values("Cache-Control") == ["public, max-age=3600"]
    assert resp.header_values("Content-Type") == ["image/svg+xml"]
    again = http_get(example_server.base_url, path, headers={"If-None-Match": etag})
    assert again.status == 304 and again.body == b"", repr(again)
    assert http_get(example_server.base_url, "/assets/card-flip/nope.svg").status == 404
    # Layercast's own scenes keep theirs beside it.
    assert http_get(example_server.base_url, "/assets/radar/radar-item.svg").status == 200


def test_tapping_the_card_in_the_browser_flips_it(driver, example_server):
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    console = Console(driver)
    room = unique_room("card")
    driver.get(f"{example_server.base_url}scene.html?scene=card-flip&room={room}&role=player&debug=1")
    wait_until(lambda: driver.execute_script(
        "return window.layercastView && window.layercastView.stats().framesReceived >= 5;"),
        15, "five frames of the card", 0.2)
    items = driver.execute_script("return window.layercastView.items();")
    assert "card" in {i.get("name") for i in items}, items
    assert [i.get("img") for i in items if i.get("name") == "mark"] == ["card-mark"], items
    # The page loaded the card's mark from the URL welcome.assets gave it.
    wait_until(lambda: any(url.endswith("/assets/card-flip/card-mark.svg") for url in driver.execute_script(
        "return performance.getEntriesByType('resource').map(function (e) { return e.name; });")),
        5, "the page to load the card's mark", 0.1)
    assert driver.find_element("id", "title").text.startswith("Card flip"), driver.find_element("id", "title").text

    point = driver.execute_script("return window.layercastView.sceneToPage(arguments[0], arguments[1]);",
                                  *CARD_MIDDLE)
    actions = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_MOUSE, "mouse"))
    actions.pointer_action.move_to_location(int(round(point["x"])), int(round(point["y"]))).click()
    actions.perform()

    def events_text():
        return driver.execute_script("var e = document.querySelector('#events'); return e ? e.textContent : '';")
    wait_until(lambda: events_text().startswith("flip down by "), 4, "#events to show the flip", 0.1)
    # The turn takes 2 s; then the scene announces that it is over.
    wait_until(lambda: events_text() == "flipped down", 5, "#events to show the end of the turn", 0.1)
    assert driver.execute_script("return window.layercastErrors;") == []
    assert console.severe() == [], console.severe()
