"""The book scene in the browser client (headless Chromium via Selenium, as test_browser.py):
a click on a book in /scene.html?scene=book opens it for the room; the turning cover reaches the
page as a projective item, the canvas changes to the reading view, and the events arrive.
"""

from __future__ import annotations

import time

from conftest import wait_until
from layercast_client import LayercastClient, item_by_name, item_center
# The shared browser fixtures and helpers (this module is skipped with test_browser.py when
# Chromium or Selenium is missing).
from test_browser import (canvas_pixels, changed_fraction, click_at, console, driver,  # noqa: F401
                          js, page_items, wait_frames)


def events_text(drv) -> str:
    return js(drv, "var e = document.querySelector('#events'); return e ? e.textContent : '';")


def heard(client: LayercastClient, name: str) -> bool:
    return any(m.get("name") == name for m in client.messages_of("event"))


def test_click_a_book_opens_it(driver, console, server, room):  # noqa: F811
    spectator = LayercastClient.connect(server.base_url, scene="book", room=room, role="spectator")
    try:
        spectator.wait_frames(1, 5)
        driver.get(f"{server.base_url}scene.html?scene=book&room={room}&role=player&debug=1")
        wait_frames(driver, 10)
        book = wait_until(lambda: item_by_name(page_items(driver) or [], "book-dracula"), 5,
                          "book-dracula in layercastView.items()", 0.2)
        x, y = item_center(book)
        point = js(driver, "return window.layercastView.sceneToPage(arguments[0], arguments[1]);", x, y)
        _, _, before = canvas_pixels(driver)

        click_at(driver, point["x"], point["y"])
        opened = spectator.wait_event("open", timeout=4)
        assert opened["data"] == {"book": "dracula"}, opened

        # While it turns (≈ 0.5 s grow + 0.91 s turn), poll the page's model for the cover.
        projective = False
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not heard(spectator, "opened"):
            cover = item_by_name(page_items(driver) or [], "cover")
            if cover and len(cover.get("m", [])) == 9 and (cover["m"][6] or cover["m"][7]):
                projective = True
            time.sleep(0.03)
        spectator.wait_event("opened", timeout=4)
        assert projective, "the page never showed the turning cover with a projective matrix"

        wanted = "opened book=dracula key=rotateToOpenBook finished=true"
        wait_until(lambda: wanted in events_text(driver), 4, f"#events to show {wanted!r}", 0.1)
        # The status line says it in words; the raw event is only behind ?debug=1.
        status = js(driver, "return document.querySelector('#status').textContent;")
        assert status == "Reading 《Dracula》", status
        wait_until(lambda: item_by_name(page_items(driver) or [], "reading"), 3,
                   "the reading view in layercastView.items()", 0.1)
        time.sleep(0.3)
        _, _, after = canvas_pixels(driver)
        # The paper page covers the whole scene where the shelf was.
        assert changed_fraction(before, after) > 0.3, changed_fraction(before, after)
        assert js(driver, "return window.layercastErrors;") == []
        assert console.severe() == [], console.severe()
    finally:
        spectator.close()
