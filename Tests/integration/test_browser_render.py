"""The page client in Chromium without a layercast server (issue 28, items 7 and 8): its
renderer against Chromium's own SVG/CSS, and its refusal of a welcome it cannot draw.

render-check/index.html draws the first frame of Tests/vectors/shapes.json (made by the Swift
encoder from a layer tree with a dashed, trimmed shape, an axial gradient, replicator copies with
an alpha offset, a rounded masksToBounds clip and a conic-gradient mask) with public/lib/renderer.js
on the left, and the same tree written by hand as SVG and CSS on the right. The page is served
from the repository by a loopback HTTP server (no layercast server is needed). render-check/
gradients.html does the same for seeded radial and conic gradient layers against CSS gradients.

Tolerance: antialiased edges differ between canvas and SVG rasterisation (and the ring's circle is
four cubics on one side, a true arc on the other), so a pixel counts as different when a channel
differs by more than 40 of 255; at most 0.75 % of each region's pixels may differ, and the mean
channel difference must stay under 2."""

from __future__ import annotations

import functools
import http.server
import pathlib
import threading

import pytest

from browser import chromium, skip_module_without_browser
from conftest import wait_until
from test_browser import decode_png

skip_module_without_browser()

ROOT = pathlib.Path(__file__).resolve().parents[2]
SIZE = 400


@pytest.fixture(scope="module")
def page_url():
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=str(ROOT))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/Tests/integration/render-check/index.html"
    server.shutdown()


def region_difference(rows, bpp, left: int, top: int, width: int, height: int, dx: int):
    """(share of pixels with a channel differing by more than 40, mean channel difference, worst
    pixel) between the region at (left, top) and the one `dx` to its right."""
    bad, total, worst = 0, 0, (0, None)
    for y in range(top, top + height):
        row = rows[y]
        for x in range(left, left + width):
            a = row[x * bpp:x * bpp + 3]
            b = row[(x + dx) * bpp:(x + dx) * bpp + 3]
            d = max(abs(a[i] - b[i]) for i in range(3))
            total += sum(abs(a[i] - b[i]) for i in range(3))
            if d > 40:
                bad += 1
            if d > worst[0]:
                worst = (d, (x, y, tuple(a), tuple(b)))
    count = width * height
    return bad / count, total / (3 * count), worst


def blob_pixels(rows, bpp, size: int, dx: int) -> int:
    """Pixels differing by more than 40 (as in region_difference) with at least 4 of their 8
    neighbours differing too: a patch drawn wrong (a missing cap or miter, a dash out of place)
    rather than the one-pixel-wide seam along an edge that canvas and SVG antialias differently."""
    bad = [[False] * size for _ in range(size)]
    for y in range(size):
        row = rows[y]
        for x in range(size):
            a, b = row[x * bpp:x * bpp + 3], row[(x + dx) * bpp:(x + dx) * bpp + 3]
            bad[y][x] = max(abs(a[i] - b[i]) for i in range(3)) > 40
    return sum(1 for y in range(1, size - 1) for x in range(1, size - 1) if bad[y][x] and
               sum(bad[y + j][x + i] for j in (-1, 0, 1) for i in (-1, 0, 1)) - 1 >= 4)


# The layers of the vector's first frame, as regions of the scene (x, y, w, h).
REGIONS = {
    "ring (fill, dashed trimmed stroke)": (14, 14, 112, 112),
    "shimmer (axial gradient)": (140, 20, 200, 60),
    "dots (replicator copies)": (16, 136, 128, 28),
    "card (rounded clip)": (225, 135, 150, 90),
    "photo (conic mask)": (20, 240, 120, 120),
}


# Colours both sides must show, from the layer tree alone (so that two blank sides cannot pass).
PROBES = [
    ((70, 70), (255, 234, 127), "ring fill: gold #ffd600 at alpha 0x80 over white"),
    ((110, 70), (0, 0, 255), "ring stroke starts at the circle's rightmost point"),
    ((70, 30), (255, 234, 127), "strokeEnd 0.5: the top half is not stroked"),
    ((240, 50), (128, 0, 128), "shimmer half way: (red + blue) / 2"),
    ((30, 150), (255, 0, 0), "dot copy 0"),
    ((110, 150), (255, 128, 128), "dot copy 2 at alpha 0.5"),
    ((300, 180), (0, 0, 255), "stripe inside the card"),
    ((235, 180), (255, 255, 255), "stripe clipped outside the card"),
    ((85, 250), (255, 4, 4), "photo just clockwise of the top: mask alpha 0.98"),
    ((75, 250), (255, 251, 251), "photo just anticlockwise of the top: mask alpha 0.02"),
]


def test_renderer_matches_chromium_svg_and_css(page_url):
    for drv in chromium(2 * SIZE, 2 * SIZE):
        drv.get(page_url)
        drawn = wait_until(lambda: drv.execute_script("return document.body.dataset.drawn || null"), 10,
                           "the render check page drew")
        assert drawn == "yes", drawn
        width, height, bpp, rows = decode_png(drv.get_screenshot_as_png())
        assert width >= 2 * SIZE and height >= SIZE, (width, height)
        failures = []
        for (x, y), want, what in PROBES:
            for side, dx in (("ours", 0), ("chromium", SIZE)):
                got = tuple(rows[y][(x + dx) * bpp:(x + dx) * bpp + 3])
                if max(abs(g - w) for g, w in zip(got, want)) > 12:
                    failures.append((side, what, (x, y), got, want))
        for name, (x, y, w, h) in REGIONS.items():
            share, mean, worst = region_difference(rows, bpp, x, y, w, h, SIZE)
            print(f"{name}: {share:.2%} of pixels differ, mean {mean:.2f}, worst {worst}")
            if share > 0.0075 or mean >= 2:
                failures.append((name, share, mean, worst))
        # The whole stage too: nothing drawn on one side only.
        share, mean, worst = region_difference(rows, bpp, 0, 0, SIZE, SIZE, SIZE)
        print(f"stage: {share:.2%} of pixels differ, mean {mean:.2f}, worst {worst}")
        if share > 0.0075 or mean >= 2:
            failures.append(("stage", share, mean, worst))
        assert not failures, failures


@pytest.mark.parametrize("projection", ["webgl", "mesh"])
def test_shapes_through_the_projective_path_match(page_url, projection):
    """The same frame with an invisible perspective row on every matrix: the shapes, gradients,
    copies, clip and mask of 3D-transformed items, translucent ones included (the mesh's triangles
    must leave no seam), to the same tolerance, probes included; drawn through WebGL 2 and through
    the 2D mesh that stands in where WebGL is missing."""
    for drv in chromium(2 * SIZE, 2 * SIZE):
        drv.get(page_url + "?projective=1" + ("&mesh=1" if projection == "mesh" else ""))
        drawn = wait_until(lambda: drv.execute_script("return document.body.dataset.drawn || null"), 10,
                           "the render check page drew")
        assert drawn == "yes", drawn
        assert drv.execute_script("return document.body.dataset.projection") == projection
        _, _, bpp, rows = decode_png(drv.get_screenshot_as_png())
        failures = []
        for (x, y), want, what in PROBES:
            got = tuple(rows[y][x * bpp:x * bpp + 3])
            if max(abs(g - w) for g, w in zip(got, want)) > 12:
                failures.append((what, (x, y), got, want))
        for name, (x, y, w, h) in REGIONS.items():
            share, mean, worst = region_difference(rows, bpp, x, y, w, h, SIZE)
            print(f"{projection} {name}: {share:.2%} of pixels differ, mean {mean:.2f}, worst {worst}")
            if share > 0.0075 or mean >= 2:
                failures.append((name, share, mean, worst))
        assert not failures, failures


RANDOM_CASES = 16


@pytest.mark.parametrize("case", range(RANDOM_CASES))
def test_random_trees_match_chromium_svg(page_url, case):
    """render-check/random.json (made by Tests/LayercastWireTests/RenderCheckFixtureTests.swift):
    seeded trees of filled and stroked ellipses, rounded rects and triangles (caps, joins, dashes with a
    phase, or a strokeEnd), an axial gradient, a replicator of dots with an alpha offset and a
    layer masked by an ellipse, each as our renderer draws its display list and as Chromium draws
    its SVG, over the whole stage: at most 0.1 % of its pixels (160) may have a channel off by
    more than 40 (antialiased edges: the worst case differs in 96), and the mean channel
    difference must stay under 0.5, and no differing pixel may sit in a patch (blob_pixels), so
    that a dash phase, a line cap or a miter drawn wrong fails."""
    for drv in chromium(2 * SIZE, 2 * SIZE):
        drv.get(page_url.replace("index.html", f"random.html?case={case}"))
        drawn = wait_until(lambda: drv.execute_script("return document.body.dataset.drawn || null"), 10,
                           "the random render check page drew")
        assert drawn == "yes", drawn
        _, _, bpp, rows = decode_png(drv.get_screenshot_as_png())
        share, mean, worst = region_difference(rows, bpp, 0, 0, SIZE, SIZE, SIZE)
        blobs = blob_pixels(rows, bpp, SIZE, SIZE)
        print(f"case {case}: {share:.2%} of pixels differ, {blobs} in patches, mean {mean:.2f}, worst {worst}")
        inked = sum(1 for y in range(SIZE) for x in range(SIZE) if rows[y][x * bpp:x * bpp + 3] != b"\xff\xff\xff")
        assert inked > 0.05 * SIZE * SIZE, f"case {case}: our side is almost blank ({inked} pixels)"
        assert share <= 0.001 and mean < 0.5 and blobs == 0, (case, share, blobs, mean, worst)


GRADIENT_SEEDS = 8


@pytest.mark.parametrize("projection", [None, "webgl", "mesh"], ids=["affine", "webgl", "mesh"])
@pytest.mark.parametrize("seed", range(1, GRADIENT_SEEDS + 1))
def test_radial_and_conic_gradients_match_chromium_css(page_url, seed, projection):
    """render-check/gradients-check.js: six seeded radial and conic gradient layers (2 to 4 stops,
    evenly or at locations reaching outside 0…1, some rounded, some translucent), drawn by our
    renderer from their `grad` items and by Chromium from CSS radial-gradient/conic-gradient written
    from engine-model.md §10.2, over the whole stage, to the random trees' tolerance (at most 0.1 %
    of pixels off by more than 40, none in a patch, mean under 0.5). Projective: every matrix with
    an invisible perspective row, so the gradients are rastered and drawn through WebGL 2 or the
    2D triangle mesh, translucent ones included (the mesh's overlapping triangles must not
    show)."""
    query = f"gradients.html?seed={seed}" + {None: "", "webgl": "&projective=1", "mesh": "&projective=1&mesh=1"}[projection]
    for drv in chromium(2 * SIZE, 2 * SIZE):
        drv.get(page_url.replace("index.html", query))
        drawn = wait_until(lambda: drv.execute_script("return document.body.dataset.drawn || null"), 10,
                           "the gradient render check page drew")
        assert drawn == "yes", drawn
        if projection:
            assert drv.execute_script("return document.body.dataset.projection") == projection
        _, _, bpp, rows = decode_png(drv.get_screenshot_as_png())
        share, mean, worst = region_difference(rows, bpp, 0, 0, SIZE, SIZE, SIZE)
        blobs = blob_pixels(rows, bpp, SIZE, SIZE)
        print(f"seed {seed}: {share:.2%} of pixels differ, {blobs} in patches, mean {mean:.2f}, worst {worst}")
        inked = sum(1 for y in range(SIZE) for x in range(SIZE) if rows[y][x * bpp:x * bpp + 3] != b"\xff\xff\xff")
        assert inked > 0.2 * SIZE * SIZE, f"seed {seed}: our side is almost blank ({inked} pixels)"
        assert share <= 0.001 and mean < 0.5 and blobs == 0, (seed, share, blobs, mean, worst)


def test_an_image_tint_multiplies_the_images_colour_and_keeps_its_alpha(page_url):
    """protocol.md, "Replicators": `it` multiplies an image's red, green and blue and keeps its
    alpha, on the affine and the projective path; an item without `it` draws the image as is.
    White × #ff8033 is (255, 128, 51); grey 128 × it is (128, 64, 26) (128·128/255, 128·51/255)."""
    for drv in chromium(400, 400):
        drv.get(page_url.replace("index.html", "tint.html"))
        outcome = wait_until(lambda: drv.execute_script("return window.failure || window.pixels || null"), 10,
                             "the tint page drew")
        assert isinstance(outcome, dict), outcome
        want = {"white": [255, 128, 51, 255], "grey": [128, 64, 26, 255], "clear": [0, 0, 0, 0]}
        untinted = {"white": [255, 255, 255, 255], "grey": [128, 128, 128, 255], "clear": [0, 0, 0, 0]}
        for name in want:
            for path in ("affine", "projective"):
                got = outcome[f"{path} {name}"]
                assert max(abs(g - w) for g, w in zip(got, want[name])) <= 2, (path, name, got)
            got = outcome[f"untinted {name}"]
            assert max(abs(g - w) for g, w in zip(got, untinted[name])) <= 2, ("untinted", name, got)


def test_a_turning_item_keeps_its_raster_until_its_contents_change(page_url):
    """Through WebGL 2 the raster of a projective item's contents is made once and kept while the
    item turns a little (its density stays within a step of 2^1/4) and its contents stay the same;
    when they change (red to blue), it is made again and the new colour is drawn at once. When the
    WebGL context is lost, the item is drawn through the 2D mesh from the next picture on, rastered
    for each. An item whose contents are an image alone is drawn from the image as the texture,
    uploaded once at three sizes on screen."""
    for drv in chromium(200, 200):
        drv.get(page_url.replace("index.html", "projection.html"))
        outcome = wait_until(lambda: drv.execute_script("return window.failure || window.frames || null"), 10,
                             "the projection page drew")
        assert isinstance(outcome, list), outcome
        assert drv.execute_script("return window.projection") == "webgl"
        red, blue, green = outcome[:4], outcome[4:8], outcome[8:]
        assert [f["rastered"] for f in outcome] == [1, 1, 1, 1, 2, 2, 2, 2, 3, 4], outcome
        assert drv.execute_script("return window.afterLoss") == "mesh"
        # An image alone is the texture itself: one upload for three sizes, no raster made.
        images = drv.execute_script("return window.images")
        assert [i["uploads"] for i in images] == [1, 1, 1] and {i["rastered"] for i in images} == {2}, images
        for i in images:
            assert i["left"][:3] == [255, 255, 0] and i["right"][:3] == [255, 0, 255], images
        for frame in green:
            assert frame["pixel"][1] >= 250 and frame["pixel"][0] <= 5 and frame["pixel"][3] == 255, outcome
        for frame in red:
            assert frame["pixel"][0] >= 250 and frame["pixel"][2] <= 5 and frame["pixel"][3] == 255, outcome
        for frame in blue:
            assert frame["pixel"][2] >= 250 and frame["pixel"][0] <= 5 and frame["pixel"][3] == 255, outcome


def test_a_wide_shadow_blurred_coarsely_matches_the_full_resolution_one(page_url):
    """renderer.js blurs a shadow of canvas blur ≥ 8 device pixels cast by an item of 512 × 512
    device pixels or more at a lower resolution and scales it up. Against Chromium's
    full-resolution canvas shadow of the same items (an opaque rounded rect, a 2-point ring, a
    translucent item on the projective path), no premultiplied channel of
    any pixel is off by more than 16 in 255 (Chromium rounds a blur's radius: the worst is 13, at
    a rounded corner of the rect's shadow), and the mean difference stays under 0.2. A shadow
    misplaced by two pixels is off by 30, a stale one left from an earlier item by 51."""
    for drv in chromium(1000, 1000):
        drv.get(page_url.replace("index.html", "shadow.html"))
        outcome = wait_until(lambda: drv.execute_script("return window.failure || window.compared || null"), 10,
                             "the shadow page drew")
        assert isinstance(outcome, dict), outcome
        print(f"coarse shadows: worst {outcome['worst']}, mean {outcome['mean']:.3f}")
        # The shadows and items cover a good part of the stage: a shadow left out would show.
        assert outcome["inked"] > 0.25 * 1000 * 1000, outcome
        assert outcome["worst"] <= 16 and outcome["mean"] < 0.2, outcome


@pytest.mark.parametrize("features, refused", [
    ("paths,shape,gradient,group,replicator,additive,imagetint,births", None),
    ("paths,shape,gradient,group,replicator,additive,imagetint,births,filters",
     "this page cannot draw filters: reload the page"),
    ("paths,shape,gradient,group,replicator,additive,imagetint",
     "this page needs a newer server (features births)"),
])
def test_a_welcome_with_an_unknown_feature_stops_the_view(page_url, features, refused):
    """protocol.md, "Version and features": a feature the page does not know, or the lack of one it
    requires (`births`), stops the view with an `unsupported_protocol` error saying so, closes the
    socket and draws no frame; the features this server sends are accepted and the frame is drawn."""
    url = page_url.replace("index.html", f"refusal.html?features={features}")
    for drv in chromium(400, 400):
        drv.get(url)
        outcome = wait_until(lambda: (lambda o: o if o and o["items"] is not None else None)(
            drv.execute_script("return window.outcome || null")), 10, "the refusal page finished")
        if refused:
            assert [e["code"] for e in outcome["errors"]] == ["unsupported_protocol"], outcome
            assert outcome["errors"][0]["message"] == refused
            assert outcome["closed"], outcome
            assert outcome["items"] == [] and outcome["connection"] == "stopped", outcome
        else:
            assert outcome["errors"] == [] and outcome["closed"] == [], outcome
            assert outcome["items"] == [{"id": 1, "s": [100, 100], "bg": "#ff0000"}], outcome
            assert outcome["connection"] == "connected", outcome


def test_a_particle_moves_between_frames_and_the_page_stops_drawing_when_it_dies(page_url):
    """protocol.md, "Particles" (issue 37 item 2, issue 36 item 2): one frame holding one birth
    record, then no frame at all. The page evaluates the record at its display time, so the dot
    moves on without frames, drawn at every display frame while it lives (0.6 s), and the page
    draws nothing once it has died: a still scene costs nothing."""
    url = page_url.replace("index.html", "births.html")
    for drv in chromium(200, 200):
        drv.get(url)
        outcome = wait_until(lambda: (lambda o: o if o and o["done"] else None)(
            drv.execute_script("return window.outcome || null")), 10, "the births page finished")
        draws = outcome["draws"]
        early, late = outcome["xs"]
        # Born at x = 10 moving 100 pt/s: about 21 at 150 ms and 46 at 400 ms (a frame behind).
        assert early is not None and late is not None, outcome
        assert 10 <= early < late - 10 and late <= 70, outcome
        alive = [t for t in draws if t < 500]
        assert len(alive) >= 8, ("drawn at each display frame while the dot lives", draws)
        assert [t for t in draws if t > 1200] == [], ("drawn after the dot died", draws)
