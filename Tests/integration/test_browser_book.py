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
        # Before anything happens the status line says what to do, in the scene's words (BookScene.info).
        assert js(driver, "return document.querySelector('#status').textContent;") == \
            "Tap a book on the shelf to open it; tap the page to put it back."

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


def test_text_fits_its_layers_and_the_turn_has_no_kinks(driver, console, server, room):  # noqa: F811
    driver.get(f"{server.base_url}scene.html?scene=book&room={room}&role=spectator")
    wait_frames(driver, 5)
    # Every text layer's inked glyphs (measured, descenders and outline included) lie inside its
    # rect: "My Books" keeps the bottom of its y.
    result = driver.execute_async_script("""
        var done = arguments[arguments.length - 1];
        Promise.all([import('/lib/text.js'), import('/lib/mesh.js'), import('/lib/homography.js')]).then(function (m) {
          var ctx = document.createElement('canvas').getContext('2d');
          var texts = window.layercastView.items().filter(function (i) { return i.text; }).map(function (i) {
            var layout = m[0].layoutText(ctx, i.text, i.s[0], i.s[1]);
            return {name: i.name, s: i.s, ink: layout && layout.ink};
          });
          // A full-screen cover late in its turn, as the page receives it (the item matrix of a
          // frame about 0.7 s into rotateToOpenBook).
          var cover = [0.2477, -0.3314, 0, 1, 0, 0, -0.0009007, 0, 1];
          var grid = m[1].gridFor(cover, [0, 0, 414, 736]);
          var n = grid[0], worst = 0;
          for (var i = 0; i < n; i++) for (var j = 0; j < n; j++) {
            var x0 = 414 * i / n, x1 = 414 * (i + 1) / n, y0 = 736 * j / n, y1 = 736 * (j + 1) / n;
            var p = m[2].mapPoint(cover, x0, y0), q = m[2].mapPoint(cover, x1, y1), c = m[2].mapPoint(cover, (x0 + x1) / 2, (y0 + y1) / 2);
            worst = Math.max(worst, Math.hypot((p[0] + q[0]) / 2 - c[0], (p[1] + q[1]) / 2 - c[1]));
          }
          done({texts: texts, grid: grid, worst: worst});
        }, function (e) { done({error: String(e)}); });
    """)
    assert "error" not in result, result
    texts = result["texts"]
    assert any(t["name"] == "heading" for t in texts), texts
    for t in texts:
        ink, (w, h) = t["ink"], t["s"]
        assert ink and -0.5 <= ink["top"] and ink["bottom"] <= h + 0.5, t
        assert -0.5 <= ink["left"] and ink["right"] <= w + 0.5, t
    # Straight lines of the turning cover bend under half a pixel between triangles (8 × 8 bent 3 px).
    assert result["worst"] <= 0.4 and result["grid"][0] > 8, result
    assert console.severe() == [], console.severe()
