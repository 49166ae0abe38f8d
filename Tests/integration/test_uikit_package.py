"""The UIKit example package (examples/uikit-package): its binary serves the three UIKit ports
(like button, roulette, flip cards) next to our scenes; in headless Chromium a tap on each one's
button reaches its UIViewInput and the scene's UIKit completion announces the result.

Binary: env LAYERCAST_UIKIT_EXAMPLE_BIN, default uikit-examples-server in
examples/uikit-package/.build/debug, else in examples/scene-package/.build/debug (where CI builds it
with --scratch-path, sharing Layercast's modules); the tests skip when it is missing.
Browser: as test_browser.py.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from browser import Console, chromium, skip_module_without_browser
from conftest import REPO, http_get, serve_example, unique_room, wait_until

# Its own build folder, or the scene package's when CI builds both there (--scratch-path).
BUILT = [REPO / "examples" / folder / ".build" / "debug" / "uikit-examples-server" for folder in ("uikit-package", "scene-package")]
EXAMPLE_BIN = Path(os.environ.get("LAYERCAST_UIKIT_EXAMPLE_BIN")
                   or next((path for path in BUILT if path.is_file()), BUILT[0]))

skip_module_without_browser()


@pytest.fixture(scope="module")
def example_server():
    yield from serve_example(EXAMPLE_BIN, "uikit-package", "LAYERCAST_UIKIT_EXAMPLE_BIN")


@pytest.fixture(scope="module")
def driver():
    yield from chromium(700, 1000)


def test_the_binary_lists_the_three_ports_after_our_scenes(example_server):
    resp = http_get(example_server.base_url, "/api/scenes")
    assert resp.status == 200
    ids = [s["id"] for s in resp.json()["scenes"]]
    assert ids[-3:] == ["like-button", "roulette", "flip-cards"], ids


# scene, the button's middle in scene coordinates (each scene's source), the layer drawn there,
# the event text the tap gives, the event text the UIKit completion gives (prefix).
PORTS = [
    ("like-button", (207, 368), "like", "like true by ", None),
    ("roulette", (207, 565), "spin", "spin 340 by ", "picked Salad by "),
    ("flip-cards", (207, 605), "flip", None, "flipped green by "),
]


@pytest.mark.parametrize("scene,point,name,on_tap,on_completion", PORTS, ids=[p[0] for p in PORTS])
def test_a_tap_in_the_browser_runs_the_ports_uikit_code(driver, example_server, scene, point, name, on_tap, on_completion):
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    console = Console(driver)
    room = unique_room(scene)
    driver.get(f"{example_server.base_url}scene.html?scene={scene}&room={room}&role=player&debug=1")
    wait_until(lambda: driver.execute_script(
        "return window.layercastView && window.layercastView.stats().framesReceived >= 5;"),
        15, f"five frames of {scene}", 0.2)
    items = driver.execute_script("return window.layercastView.items();")
    assert name in {i.get("name") for i in items}, items

    page = driver.execute_script("return window.layercastView.sceneToPage(arguments[0], arguments[1]);", *point)
    actions = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_MOUSE, "mouse"))
    actions.pointer_action.move_to_location(int(round(page["x"])), int(round(page["y"]))).click()
    actions.perform()

    def events_text():
        return driver.execute_script("var e = document.querySelector('#events'); return e ? e.textContent : '';")
    if on_tap:
        wait_until(lambda: events_text().startswith(on_tap), 4, f"#events to show '{on_tap}'", 0.1)
    if on_completion:
        wait_until(lambda: events_text().startswith(on_completion), 4, f"#events to show '{on_completion}'", 0.1)
    assert driver.execute_script("return window.layercastErrors;") == []
    assert console.severe() == [], console.severe()
