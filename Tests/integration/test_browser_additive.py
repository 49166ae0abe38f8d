"""Additive emitters as on iOS (issue 36, item 3), in Chromium without a layercast server:
render-check/additive.html draws emitters with `rm: "additive"` with public/lib/renderer.js and
reads pixels back. Their particles add to each other inside the emitter's own group, which is
composited over the backdrop source-over, so a burst on white shows (drawn with `lighter` straight
onto white it would be white), and two overlapping particles on black are twice as bright as one.

Particles are a 30 × 30 image of rgb(100, 40, 0):
- one opaque on white: (100, 40, 0); one at alpha 0.5 on white: 0.5 · (100, 40, 0) + 0.5 · 255
  = (178, 148, 128);
- one on black: (100, 40, 0); two on top of each other: (200, 80, 0); the same two in an emitter
  of opacity 0.5: the group (200, 80, 0) at 0.5 over black, (100, 40, 0)."""

from __future__ import annotations

from browser import chromium, skip_module_without_browser
from conftest import wait_until
from test_browser_render import page_url  # noqa: F401  (the fixture serving render-check/)

skip_module_without_browser()

WANT = {
    "one on white": [100, 40, 0, 255],
    "half on white": [178, 148, 128, 255],
    "one on black": [100, 40, 0, 255],
    "two on black": [200, 80, 0, 255],
    "two at opacity 0.5 on black": [100, 40, 0, 255],
    "white beside": [255, 255, 255, 255],
}


def test_additive_particles_add_in_their_group_and_show_on_white(page_url):  # noqa: F811
    for drv in chromium(400, 400):
        drv.get(page_url.replace("index.html", "additive.html"))
        outcome = wait_until(lambda: drv.execute_script("return window.failure || window.pixels || null"), 10,
                             "the additive page drew")
        assert isinstance(outcome, dict), outcome
        for name, want in WANT.items():
            got = outcome[name]
            assert max(abs(g - w) for g, w in zip(got, want)) <= 2, (name, got, want)
