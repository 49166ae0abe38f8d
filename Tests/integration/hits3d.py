"""Random 3D layer trees for the exact-hits browser test (issue 28 item 9), written twice: as a
`layercast sample` case and as an HTML page of nested CSS-transformed divs, plus the screen
geometry that decides which hit-test points are unambiguous.

Matrices are 4 × 4 numpy arrays in Core Animation's convention (row vectors, `a @ b` applies a
then b), which is also CSS matrix3d()'s order of the 16 numbers. The CSS mapping of a layer L
with superlayer P (docs/engine-model.md §6, §7):

- the div is `position: absolute` at P's box origin, `width × height` of L's bounds, with
  `transform-origin: 0 0` and `transform: matrix3d(B(L) · M(L) · S(P) · B(P)⁻¹)`, where B(X)
  translates X's box (origin at its bounds origin) into its bounds space, M is §6's
  layer-to-superlayer map (anchorPoint, transform, position, zPosition) and S is P's
  sublayerTransform about P's anchor point (the root has no P: matrix3d(B · M));
- a plain layer is `transform-style: flat` (CSS flattens children into its plane as Core
  Animation does); a CATransformLayer is `transform-style: preserve-3d; pointer-events: none`
  (no plane of its own; its sublayers join the 3D rendering context), its children
  `pointer-events: auto`;
- sublayers are written in Core Animation's drawing order (§7.4): ascending zPosition, array
  order among equals, because a flat CSS parent paints and hit-tests its children in document
  order whatever their depth, while Core Animation orders a plain layer's sublayers by zPosition;
- every plain layer has an opaque background of its own colour (colour()), so that what Chromium
  draws at a point names a layer too;
- `isDoubleSided = false` is `backface-visibility: hidden`, `masksToBounds` is
  `overflow: hidden`, `isHidden` is `display: none` (`visibility: hidden` could be undone by a
  descendant).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

VIEWPORT = 480          # CSS pixels, square
EDGE_MARGIN = 1.5       # px: a point this close to a layer's projected edge is ambiguous
                        # (so the screen pixel holding it lies inside one region)
DEPTH_MARGIN = 1.0      # depth units: two planes this close at a point are ambiguous
MIN_W = 0.25            # a tree with a corner at w below this (near or behind the eye) is redrawn


def translation(x: float, y: float, z: float = 0.0) -> np.ndarray:
    m = np.identity(4)
    m[3, :3] = (x, y, z)
    return m


def rotation(angle: float, axis: str) -> np.ndarray:
    """A rotation about a coordinate axis (CATransform3DMakeRotation's matrix for that axis)."""
    c, s = math.cos(angle), math.sin(angle)
    m = np.identity(4)
    i, j = {"x": (1, 2), "y": (2, 0), "z": (0, 1)}[axis]
    m[i, i], m[i, j], m[j, i], m[j, j] = c, s, -s, c
    return m


def scaling(x: float, y: float, z: float = 1.0) -> np.ndarray:
    return np.diag([x, y, z, 1.0])


def perspective(d: float) -> np.ndarray:
    m = np.identity(4)
    m[2, 3] = -1.0 / d
    return m


def xyw(m: np.ndarray) -> np.ndarray:
    """The 3 × 3 homography a 4 × 4 map induces from the plane z = 0 onto a flattening plane."""
    return m[np.ix_((0, 1, 3), (0, 1, 3))]


# ---- trees --------------------------------------------------------------------------------

@dataclass
class Layer:
    """One layer of a generated tree, with the Core Animation properties the test varies."""
    name: str
    kind: str                              # "layer" or "transformLayer"
    bounds: tuple                          # (x, y, w, h)
    position: tuple
    anchor: tuple = (0.5, 0.5)
    anchor_z: float = 0.0
    z: float = 0.0                         # zPosition
    transform: np.ndarray = field(default_factory=lambda: np.identity(4))
    sublayer_transform: np.ndarray = field(default_factory=lambda: np.identity(4))
    double_sided: bool = True
    hidden: bool = False
    masks: bool = False
    sublayers: list = field(default_factory=list)

    @property
    def flattens(self) -> bool:
        return self.kind == "layer"

    def anchor_in_bounds(self) -> tuple:
        x, y, w, h = self.bounds
        return x + self.anchor[0] * w, y + self.anchor[1] * h

    def local(self) -> np.ndarray:
        """§6's M: bounds space to the superlayer's bounds space before S(superlayer)."""
        ax, ay = self.anchor_in_bounds()
        return (translation(-ax, -ay, -self.anchor_z) @ self.transform
                @ translation(self.position[0], self.position[1], self.z))

    def sublayer_matrix(self) -> np.ndarray:
        """§6's S: the sublayerTransform about the anchor point."""
        ax, ay = self.anchor_in_bounds()
        return translation(-ax, -ay) @ self.sublayer_transform @ translation(ax, ay)

    def box(self) -> np.ndarray:
        """The div's box (origin top-left) into bounds space."""
        return translation(self.bounds[0], self.bounds[1])

    def drawing_order(self) -> list:
        """Sublayers back to front: ascending zPosition, array order among equals (§7.4)."""
        return sorted(self.sublayers, key=lambda s: s.z)

    def walk(self):
        yield self
        for s in self.sublayers:
            yield from s.walk()


class TreeGenerator:
    """Seeded random trees: 2–9 layers up to 4 deep, about a fifth of them CATransformLayers."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.count = 0

    def tree(self) -> Layer:
        rng = self.rng
        self.count = 0
        self.budget = rng.randint(2, 9)
        size = (rng.uniform(220, 380), rng.uniform(220, 380))
        root = Layer(self.name(), "layer", (0.0, 0.0) + size,
                     (VIEWPORT / 2 + rng.uniform(-30, 30), VIEWPORT / 2 + rng.uniform(-30, 30)))
        if rng.random() < 0.3:
            root.transform = rotation(rng.uniform(-0.5, 0.5), "z")
        if rng.random() < 0.2:
            root.transform = root.transform @ rotation(rng.uniform(-0.7, 0.7), rng.choice("xy"))
        root.sublayer_transform = self.sublayer_transform(root_level=True)
        self.children(root, depth=1)
        return root

    def name(self) -> str:
        self.count += 1
        return f"l{self.count}"

    def children(self, parent: Layer, depth: int) -> None:
        rng = self.rng
        n = rng.randint(1, 4) if depth < 4 else 0
        for _ in range(n):
            if self.count >= self.budget:
                return
            parent.sublayers.append(self.layer(parent, depth))

    def layer(self, parent: Layer, depth: int) -> Layer:
        rng = self.rng
        kind = "transformLayer" if depth < 4 and rng.random() < 0.22 else "layer"
        px, py, pw, ph = parent.bounds
        w, h = rng.uniform(30, 0.9 * pw + 20), rng.uniform(30, 0.9 * ph + 20)
        origin = (0.0, 0.0) if rng.random() < 0.6 else (rng.uniform(-30, 30), rng.uniform(-30, 30))
        l = Layer(self.name(), kind, origin + (w, h),
                  (px + rng.uniform(0.1, 0.9) * pw, py + rng.uniform(0.1, 0.9) * ph))
        if rng.random() < 0.4:
            l.anchor = (rng.uniform(0, 1), rng.uniform(0, 1))
        if rng.random() < 0.1:
            l.anchor_z = rng.uniform(-40, 40)
        if rng.random() < 0.6:
            l.z = rng.choice((rng.uniform(-80, 80), float(rng.randint(-3, 3) * 10)))
        l.transform = self.transform()
        if rng.random() < 0.3:
            l.sublayer_transform = self.sublayer_transform(root_level=False)
        if kind == "layer":
            l.double_sided = rng.random() > 0.25
            l.masks = rng.random() < 0.2
        l.hidden = rng.random() < 0.06
        self.children(l, depth + 1)
        return l

    def transform(self) -> np.ndarray:
        """Products of rotations about x, y, z, translations (z too) and scales."""
        rng = self.rng
        m = np.identity(4)
        for _ in range(rng.randint(0, 4)):
            op = rng.choice(("rx", "ry", "rz", "t", "tz", "s"))
            if op in ("rx", "ry"):
                turn = rng.uniform(-1.3, 1.3) if rng.random() < 0.75 else rng.uniform(2.2, 4.1)
                m = m @ rotation(turn, op[1])
            elif op == "rz":
                m = m @ rotation(rng.uniform(-math.pi, math.pi), "z")
            elif op == "t":
                x, y, z = rng.uniform(-40, 40), rng.uniform(-40, 40), rng.uniform(-60, 60)
                m = m @ translation(x, y, z)
            elif op == "tz":
                m = m @ translation(0, 0, rng.uniform(-100, 100))
            else:
                m = m @ scaling(rng.uniform(0.6, 1.4), rng.uniform(0.6, 1.4), rng.uniform(0.6, 1.4))
        return m

    def sublayer_transform(self, root_level: bool) -> np.ndarray:
        """Usually a perspective (m34 = −1/d), sometimes turned or without perspective."""
        rng = self.rng
        if rng.random() < (0.25 if root_level else 0.15):
            return np.identity(4)
        m = np.identity(4)
        if rng.random() < 0.3:
            m = m @ rotation(rng.uniform(-0.6, 0.6), rng.choice("xyz"))
        if rng.random() < 0.85:
            m = m @ perspective(rng.uniform(350, 1200))
        return m


# ---- the two documents --------------------------------------------------------------------

def _numbers(m: np.ndarray) -> list:
    """The 16 numbers m11…m44 (CATransform3D's and matrix3d()'s order)."""
    return [float(x) for x in m.reshape(16)]


def sample_layer(l: Layer) -> dict:
    """The layer as `layercast sample` input (docs/sample.md)."""
    d = {"name": l.name, "type": l.kind, "bounds": list(l.bounds), "position": list(l.position),
         "anchorPoint": list(l.anchor), "anchorPointZ": l.anchor_z, "zPosition": l.z,
         "transform": _numbers(l.transform), "sublayerTransform": _numbers(l.sublayer_transform),
         "sublayers": [sample_layer(s) for s in l.sublayers]}
    if l.hidden:
        d["hidden"] = True
    if not l.double_sided:
        d["doubleSided"] = False
    if l.masks:
        d["masksToBounds"] = True
    return d


def css_matrix(l: Layer, parent: Optional[Layer]) -> np.ndarray:
    """The div's matrix3d(): its box into its parent div's box (the module docstring)."""
    m = l.box() @ l.local()
    if parent is not None:
        m = m @ parent.sublayer_matrix() @ np.linalg.inv(parent.box())
    return m


def colour(name: str) -> tuple:
    """The opaque colour layer `name` ("l1"…"l9") is painted with, distinct per layer and
    never white (the page's background)."""
    n = int(name[1:])
    return (25 * n, 200 if n % 2 else 60, 250 - 25 * n)


def painted_layer(rgb: tuple, names) -> Optional[str]:
    """The layer among `names` painted in colour `rgb`, None for the white background, or
    "unreadable" for any other colour."""
    if rgb == (255, 255, 255):
        return None
    for name in names:
        if max(abs(a - b) for a, b in zip(rgb, colour(name))) <= 2:
            return name
    return "unreadable"


def html_layer(l: Layer, parent: Optional[Layer] = None) -> str:
    """The layer as nested divs (the mapping in the module docstring)."""
    style = ["position:absolute", "left:0", "top:0", f"width:{l.bounds[2]!r}px",
             f"height:{l.bounds[3]!r}px", "transform-origin:0 0",
             "transform:matrix3d({})".format(",".join(map(repr, _numbers(css_matrix(l, parent)))))]
    if l.flattens:
        style += ["transform-style:flat", "pointer-events:auto",
                  "background:rgb({},{},{})".format(*colour(l.name))]
    else:
        style += ["transform-style:preserve-3d", "pointer-events:none"]
    if not l.double_sided:
        style.append("backface-visibility:hidden")
    if l.masks:
        style.append("overflow:hidden")
    if l.hidden:
        style.append("display:none")
    inner = "".join(html_layer(s, l) for s in l.drawing_order())
    return f'<div id="{l.name}" style="{";".join(style)}">{inner}</div>'


# ---- screen geometry ----------------------------------------------------------------------

@dataclass
class Plane:
    """A visible plain layer's plane: the maps from its bounds space up to the screen, one per
    flattening (its own context first), and the 3D group it is depth-sorted in, if any."""
    layer: Layer
    stages: list          # 4 × 4 maps: bounds → context plane, that plane → the next, …
    group: Optional[str]  # the outermost CATransformLayer it is under within its context

    def corners_on_screen(self) -> Optional[list]:
        """The bounds corners on the screen; None when one comes near or behind an eye."""
        x, y, w, h = self.layer.bounds
        points = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
        for m in self.stages:
            mapped = []
            for px, py in points:
                v = np.array([px, py, 0.0, 1.0]) @ m
                if v[3] < MIN_W:
                    return None
                mapped.append((v[0] / v[3], v[1] / v[3]))
            points = mapped
        return points

    def screen_to_context(self, p: tuple) -> Optional[tuple]:
        """The screen point `p` on the plane this layer flattens into."""
        for m in reversed(self.stages[1:]):
            v = np.array([p[0], p[1], 1.0]) @ np.linalg.inv(xyw(m))
            if v[2] <= 0:
                return None
            p = (v[0] / v[2], v[1] / v[2])
        return p

    def depth_at(self, p: tuple) -> Optional[float]:
        """The depth (z / w, larger is nearer) in the context of the plane's point seen at
        screen point `p`."""
        q = self.screen_to_context(p)
        if q is None:
            return None
        m = self.stages[0]
        v = np.array([q[0], q[1], 1.0]) @ np.linalg.inv(xyw(m))
        if v[2] <= 0:
            return None
        h = np.array([v[0] / v[2], v[1] / v[2], 0.0, 1.0]) @ m
        return h[2] / h[3]


def planes(root: Layer) -> Optional[list]:
    """Every plain layer outside hidden subtrees, or None when the tree brings a layer near or
    behind an eye (w < MIN_W at a corner in some context) or projects it degenerately."""
    out: list = []

    def visit(l: Layer, to_context: np.ndarray, above: list, group: Optional[str]) -> bool:
        if l.hidden:
            return True
        if l.flattens:
            plane = Plane(l, [to_context] + above, group)
            corners = plane.corners_on_screen()
            if corners is None or max(abs(c) for xy in corners for c in xy) > 1e4:
                return False
            out.append(plane)
            child_above, child_group = [to_context] + above, None
            base = np.identity(4)
        else:
            child_above, child_group = above, group or l.name
            base = to_context
        s = l.sublayer_matrix()
        return all(visit(c, c.local() @ s @ base, child_above, child_group) for c in l.sublayers)

    return out if visit(root, root.local(), [], None) else None


def _segment_distance(p: tuple, a: tuple, b: tuple) -> float:
    ax, ay, bx, by = a[0], a[1], b[0], b[1]
    dx, dy = bx - ax, by - ay
    t = 0.0 if dx == dy == 0 else ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)
    t = max(0.0, min(1.0, t))
    return math.hypot(p[0] - (ax + t * dx), p[1] - (ay + t * dy))


def _inside(p: tuple, quad: list) -> bool:
    """Whether p is inside the (convex, either-handed) quadrilateral."""
    signs = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        signs.append((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]))
    return all(s > 0 for s in signs) or all(s < 0 for s in signs)


def unambiguous(p: tuple, layer_planes: list) -> bool:
    """The rule: `p` is farther than EDGE_MARGIN px from every visible plain layer's projected
    edge (so half-open versus closed edges, rounding and clips cannot matter), and no two layers
    depth-sorted against each other (under the same CATransformLayer in one flattening context)
    and both containing `p` are within DEPTH_MARGIN of each other in depth there."""
    quads = [(pl, pl.corners_on_screen()) for pl in layer_planes]
    for _, q in quads:
        if any(_segment_distance(p, q[i], q[(i + 1) % 4]) < EDGE_MARGIN for i in range(4)):
            return False
    sorted_here: dict = {}
    for pl, q in quads:
        if pl.group is not None and _inside(p, q):
            d = pl.depth_at(p)
            if d is None:
                return False
            sorted_here.setdefault(pl.group, []).append(d)
    for depths in sorted_here.values():
        depths.sort()
        if any(b - a < DEPTH_MARGIN for a, b in zip(depths, depths[1:])):
            return False
    return True


def probe_points(rng: random.Random, layer_planes: list, count: int) -> list:
    """`count` screen points: half uniform over the viewport, half inside random layers' quads."""
    points = []
    quads = [pl.corners_on_screen() for pl in layer_planes]
    for i in range(count):
        if i % 2 == 0 or not quads:
            points.append((rng.uniform(0, VIEWPORT), rng.uniform(0, VIEWPORT)))
            continue
        q = rng.choice(quads)
        u, v = rng.random(), rng.random()
        top = (q[0][0] + u * (q[1][0] - q[0][0]), q[0][1] + u * (q[1][1] - q[0][1]))
        bottom = (q[3][0] + u * (q[2][0] - q[3][0]), q[3][1] + u * (q[2][1] - q[3][1]))
        x, y = top[0] + v * (bottom[0] - top[0]), top[1] + v * (bottom[1] - top[1])
        if 0 <= x < VIEWPORT and 0 <= y < VIEWPORT:
            points.append((x, y))
    return points


def cases(seed: int, trees: int, points_per_tree: int) -> tuple:
    """(tree, its planes, unambiguous probe points) for `trees` trees drawn from `seed` (trees
    that bring a layer near or behind an eye are drawn again), and the number of points probed."""
    generator = TreeGenerator(seed)
    rng = random.Random(seed + 1)
    out, probes = [], 0
    for _ in range(20 * trees):
        if len(out) == trees:
            break
        root = generator.tree()
        layer_planes = planes(root)
        if layer_planes is None:
            continue
        probed = probe_points(rng, layer_planes, points_per_tree)
        probes += len(probed)
        points = [p for p in probed if unambiguous(p, layer_planes)]
        out.append((root, layer_planes, points))
    assert len(out) == trees
    return out, probes


def png_pixels(data: bytes) -> np.ndarray:
    """The height × width × 3 RGB pixels of an 8-bit RGB or RGBA PNG such as a screenshot (rows
    filtered with Up and Sub are undone with numpy, the rare Average and Paeth rows per byte)."""
    import struct
    import zlib
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, bytearray(), None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, chunk = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
    width, height, depth, colour_type, _, _, interlace = header
    assert depth == 8 and interlace == 0 and colour_type in (2, 6), header
    bpp = 3 if colour_type == 2 else 4
    raw = np.frombuffer(zlib.decompress(bytes(idat)), dtype=np.uint8)
    raw = raw.reshape(height, 1 + width * bpp)
    out = np.zeros((height, width * bpp), dtype=np.uint8)
    prev = np.zeros(width * bpp, dtype=np.uint8)
    for y in range(height):
        kind, line = raw[y, 0], raw[y, 1:]
        if kind == 0:
            row = line.copy()
        elif kind == 1:
            sums = np.cumsum(line.reshape(width, bpp).astype(np.int64), axis=0)
            row = (sums % 256).astype(np.uint8).reshape(-1)
        elif kind == 2:
            row = line + prev
        else:
            row = np.zeros_like(line)
            for x in range(width * bpp):
                a = int(row[x - bpp]) if x >= bpp else 0
                b = int(prev[x])
                c = int(prev[x - bpp]) if x >= bpp else 0
                if kind == 3:
                    pred = (a + b) // 2
                else:
                    pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                    pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                row[x] = (int(line[x]) + pred) & 255
        out[y], prev = row, row
    return out.reshape(height, width, bpp)[:, :, :3]
