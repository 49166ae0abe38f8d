"""The book covers' titles stay inside their frames whatever font draws them: an image cannot use
the page's web font, so each text fixes its own width (textLength, glyphs scaled to fit)."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

from conftest import REPO

SVG = "{http://www.w3.org/2000/svg}"
INNER_FRAME = (18, 88)  # x of the covers' inner frame lines


def test_every_cover_text_has_a_width_inside_the_inner_frame():
    covers = sorted((REPO / "Sources/LayercastScenes/Resources").glob("book-*.svg"))
    assert len(covers) == 6
    for cover in covers:
        root = ElementTree.parse(cover).getroot()
        frame = [r for r in root.iter(f"{SVG}rect") if r.get("stroke-width") == "0.6"]
        assert [(float(r.get("x")), float(r.get("x")) + float(r.get("width"))) for r in frame] == [INNER_FRAME], cover.name
        runs = [t for t in root.iter() if t.tag in (f"{SVG}text", f"{SVG}tspan") and (t.text or "").strip()]
        assert runs, cover.name
        for run in runs:
            width, x = float(run.get("textLength")), float(run.get("x") or "52")
            assert run.get("lengthAdjust") == "spacingAndGlyphs", (cover.name, run.text)
            assert INNER_FRAME[0] < x - width / 2 and x + width / 2 < INNER_FRAME[1], (cover.name, run.text, width)
