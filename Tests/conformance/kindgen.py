"""Seeded random shape, gradient and replicator layers and masks for the conformance cases.

`add_kinds(rng, root)` turns some plain layers of a generated case (scenegen.py) into
CAShapeLayers (a random path of moves, lines, quad and cubic curves and closes, fill and stroke
colours or none, every line style, dash patterns, stroke ends), CAGradientLayers (0–4 colours,
locations of that length or another, points, every type) and CAReplicatorLayers (0–6 copies, a
delay, a 2D or 3D instance transform, an instance colour and the four offsets), gives some layer a
`mask` (a plain, shape or gradient layer, animated too), and adds animations of every type on the
new key paths: paths of the same structure (interpolated point by point) and of another
(switching at 0.5), colour and number lists of the same and of other lengths, the points and
their `.x`/`.y`, `instanceTransform` and its sub-paths, counts, delays, colours and offsets.

What the model leaves open is avoided (marked "avoid:"): the `cur` of an `instanceTransform.*`
sub-path with only to/by values (as for `transform.*`), instance counts that land within a
rounding error of an integer (the truncation would depend on it; scenegen.valid checks the
presented values), paced modes over path or list values of different shapes, and
depth-preserving replicators (transform-layer depth rules).
"""

from __future__ import annotations

import math
import random

import oracle

KIND_SHARE = 0.75       # of the cases get at least one shape, gradient or replicator layer
MASK_SHARE = 0.3        # of the cases give one layer a mask

SHAPE_KEYPATHS = [("path", 6), ("fillColor", 3), ("strokeColor", 3), ("lineWidth", 3),
                  ("miterLimit", 1), ("lineDashPhase", 2), ("strokeStart", 4), ("strokeEnd", 5)]
GRADIENT_KEYPATHS = [("colors", 5), ("locations", 5), ("startPoint", 3), ("endPoint", 3),
                     ("startPoint.x", 1), ("startPoint.y", 1), ("endPoint.x", 1),
                     ("endPoint.y", 1)]
REPLICATOR_KEYPATHS = [("instanceCount", 5), ("instanceDelay", 3), ("instanceTransform", 4),
                       ("instanceColor", 3), ("instanceRedOffset", 2), ("instanceGreenOffset", 2),
                       ("instanceBlueOffset", 2), ("instanceAlphaOffset", 2),
                       ("instanceTransform.rotation", 1), ("instanceTransform.rotation.x", 1),
                       ("instanceTransform.scale", 1), ("instanceTransform.scale.y", 1),
                       ("instanceTransform.translation", 1), ("instanceTransform.translation.x", 1),
                       ("instanceTransform.translation.z", 1)]
KEYPATHS = {"shape": SHAPE_KEYPATHS, "gradient": GRADIENT_KEYPATHS,
            "replicator": REPLICATOR_KEYPATHS}


def _r3(x: float) -> float:
    return round(x, 3)


def _colour(rng: random.Random) -> list:
    return [_r3(rng.uniform(0, 1)) for _ in range(4)]


def _point(rng: random.Random, w: float, h: float) -> list:
    return [_r3(rng.uniform(-0.1, 1.1) * w), _r3(rng.uniform(-0.1, 1.1) * h)]


def path_structure(rng: random.Random) -> list:
    """Element names: a move, then lines and curves, maybe closes and further moves."""
    ops = ["move"]
    for _ in range(rng.randint(1, 6)):
        op = rng.choices(("line", "quad", "curve", "close", "move"), (4, 2, 3, 1, 1))[0]
        ops.append(op)
    return ops


def path_with(rng: random.Random, ops: list, w: float, h: float) -> list:
    counts = {"move": 1, "line": 1, "quad": 2, "curve": 3, "close": 0}
    return [[op] + [c for _ in range(counts[op]) for c in _point(rng, w, h)] for op in ops]


def path_like(rng: random.Random, model: list, w: float, h: float) -> list:
    """A path of the model's structure (mostly, so it interpolates) or of another."""
    ops = [e[0] for e in model] if model and rng.random() < 0.85 else path_structure(rng)
    return path_with(rng, ops, w, h)


def _count(rng: random.Random) -> float:
    """An instance count that is not an integer (avoid: truncation at a rounding error)."""
    return _r3(rng.randint(0, 5) + rng.uniform(0.2, 0.8))


class KindGenerator:
    """Values and animations on one layer type's key paths, with scenegen's timing machinery."""

    def __init__(self, rng: random.Random, base):
        self.rng = rng
        self.base = base
        self.plain_value = base.value        # scenegen's, for the key paths of every layer
        self.plain_by_value = base.by_value

    def value(self, keypath: str, layer: dict, narrow: bool = False):
        rng = self.rng
        w, h = layer["bounds"][2], layer["bounds"][3]
        if keypath == "path":
            return path_like(rng, layer.get("path") or [], w, h)
        if keypath in ("fillColor", "strokeColor", "instanceColor"):
            lo, hi = (0.15, 0.85) if narrow else (0, 1)
            return [_r3(rng.uniform(lo, hi)) for _ in range(4)]
        if keypath == "lineWidth":
            return _r3(rng.uniform(0.5, 12))
        if keypath == "miterLimit":
            return _r3(rng.uniform(1, 20))
        if keypath == "lineDashPhase":
            return _r3(rng.uniform(-20, 20))
        if keypath in ("strokeStart", "strokeEnd"):
            return _r3(rng.uniform(0, 1))
        if keypath == "colors":
            n = len(layer.get("colors") or [])
            if rng.random() < 0.2 or n == 0:
                n = rng.randint(0, 4)
            return [_colour(rng) for _ in range(n)]
        if keypath == "locations":
            n = len(layer.get("colors") or [])
            if rng.random() < 0.2:
                n = rng.randint(0, 4)
            return sorted(_r3(rng.uniform(-0.1, 1.1)) for _ in range(n))
        if keypath in ("startPoint", "endPoint"):
            return [_r3(rng.uniform(-0.2, 1.2)), _r3(rng.uniform(-0.2, 1.2))]
        if keypath.endswith((".x", ".y")) and keypath.split(".")[0] in ("startPoint", "endPoint"):
            return _r3(rng.uniform(-0.2, 1.2))
        if keypath == "instanceCount":
            return _count(rng)
        if keypath == "instanceDelay":
            return _r3(rng.uniform(0, 0.5))
        if keypath.startswith("instance") and keypath.endswith("Offset"):
            return _r3(rng.uniform(-0.35, 0.35))
        if keypath == "instanceTransform":
            return self.base.transform(perspective=rng.random() < 0.1)
        if keypath.startswith("instanceTransform."):
            return self.plain_value("transform" + keypath[len("instanceTransform"):], layer, narrow)
        return self.plain_value(keypath, layer, narrow)

    def by_value(self, keypath: str, layer: dict):
        rng = self.rng
        if keypath == "instanceTransform":
            return self.base.transform()
        if keypath.startswith("instanceTransform."):
            return self.plain_by_value("transform" + keypath[len("instanceTransform"):], layer)
        if keypath == "instanceCount":
            return _r3(rng.choice((-1, 1)) * (rng.randint(0, 2) + rng.uniform(0.2, 0.8)))
        if oracle.KEYPATHS[keypath].prop not in oracle.PROPERTY_OWNERS:
            return self.plain_by_value(keypath, layer)
        v = self.value(keypath, layer)
        if keypath == "path":
            return [[e[0]] + [_r3(c * 0.2) for c in e[1:]] for e in v]
        if keypath == "colors":
            return [[_r3(c * 0.3) for c in colour] for colour in v]
        if isinstance(v, list):
            return [_r3(x * 0.3) for x in v]
        return _r3(v * 0.3)


def _walk(layer: dict):
    yield layer
    for child in layer.get("sublayers", []):
        yield from _walk(child)


def make_shape(rng: random.Random, layer: dict) -> None:
    layer["type"] = "shape"
    w, h = layer["bounds"][2], layer["bounds"][3]
    if rng.random() < 0.9:
        layer["path"] = path_with(rng, path_structure(rng), w, h)
    if rng.random() < 0.5:
        layer["fillColor"] = None if rng.random() < 0.2 else _colour(rng)
    if rng.random() < 0.6:
        layer["strokeColor"] = None if rng.random() < 0.1 else _colour(rng)
    for key, lo, hi in (("lineWidth", 0, 10), ("miterLimit", 1, 20), ("lineDashPhase", -10, 10),
                        ("strokeStart", 0, 1), ("strokeEnd", 0, 1)):
        if rng.random() < 0.35:
            layer[key] = _r3(rng.uniform(lo, hi))
    for key, names in (("fillRule", ("nonZero", "evenOdd")), ("lineCap", ("butt", "round", "square")),
                       ("lineJoin", ("miter", "round", "bevel"))):
        if rng.random() < 0.4:
            layer[key] = rng.choice(names)
    if rng.random() < 0.3:
        layer["lineDashPattern"] = [_r3(rng.uniform(0.5, 12)) for _ in range(rng.randint(1, 4))]


def make_gradient(rng: random.Random, layer: dict) -> None:
    layer["type"] = "gradient"
    n = rng.choices((0, 1, 2, 3, 4), (1, 1, 4, 3, 2))[0]
    if n or rng.random() < 0.5:
        layer["colors"] = [_colour(rng) for _ in range(n)]
    if rng.random() < 0.5:
        m = n if rng.random() < 0.8 else rng.randint(0, 4)
        layer["locations"] = sorted(_r3(rng.uniform(0, 1)) for _ in range(m))
    for key in ("startPoint", "endPoint"):
        if rng.random() < 0.5:
            layer[key] = [_r3(rng.uniform(0, 1)), _r3(rng.uniform(0, 1))]
    if rng.random() < 0.6:
        layer["gradientType"] = rng.choice(("axial", "radial", "conic"))


def make_replicator(rng: random.Random, layer: dict, base) -> None:
    layer["type"] = "replicator"
    if rng.random() < 0.85:
        layer["instanceCount"] = rng.choice((0, 1, 2, 3, 4, 5, 6))
    if rng.random() < 0.6:
        layer["instanceDelay"] = _r3(rng.uniform(0.05, 0.5))
    if rng.random() < 0.7:
        if rng.random() < 0.7:  # a 2D step: turn and shift
            m = oracle.rotation(rng.uniform(-1, 1), "z") @ oracle.translation(
                rng.uniform(-30, 30), rng.uniform(-30, 30), 0)
            layer["instanceTransform"] = [round(float(x), 6) for x in m.reshape(16)]
        else:
            layer["instanceTransform"] = base.transform(perspective=rng.random() < 0.2)
    if rng.random() < 0.4:
        layer["instanceColor"] = None if rng.random() < 0.15 else _colour(rng)
    for c in ("Red", "Green", "Blue", "Alpha"):
        if rng.random() < 0.35:
            layer[f"instance{c}Offset"] = _r3(rng.uniform(-0.3, 0.3))
    if rng.random() < 0.2:
        layer["preservesDepth"] = False  # avoid: depth-preserving replicators (see above)


def _shape_of(value) -> tuple:
    """A path's element names, or a list's length."""
    return tuple(e[0] for e in value) if value and isinstance(value[0][0], str) else (len(value),)


def unpace_mixed_shapes(anim: dict) -> None:
    """avoid: paced modes over path or list values of different shapes (§3.2 leaves them open):
    they become linear, cubicPaced becomes cubic."""
    for child in anim.get("animations", []):
        unpace_mixed_shapes(child)
    values = anim.get("values") or []
    lists = anim.get("keyPath") in ("path", "colors", "locations")
    if lists and len({_shape_of(v) if anim["keyPath"] != "locations" else len(v)
                      for v in values}) > 1:
        mode = anim.get("calculationMode")
        if mode in ("paced", "cubicPaced"):
            anim["calculationMode"] = "linear" if mode == "paced" else "cubic"


def animations(gen, layer: dict, kind: str) -> list:
    """1–3 animations of every type on the layer type's key paths."""
    gen.keypath_weights = KEYPATHS[kind]
    out = []
    for k in range(gen.rng.randint(1, 3)):
        anim = gen.animation(layer)
        unpace_mixed_shapes(anim)
        out.append({"key": f"k{k}", **anim})
    return out


def add_kinds(rng: random.Random, root: dict) -> None:
    """Turns some plain layers of the case into shape, gradient or replicator layers, gives some
    layer a mask, and animates their key paths."""
    import scenegen  # the timing machinery: values come from KindGenerator

    base = scenegen.Generator(rng)
    kinds = KindGenerator(rng, base)
    base.value = kinds.value
    base.by_value = kinds.by_value
    plain = [l for l in _walk(root) if l.get("type", "layer") == "layer"]
    if rng.random() < KIND_SHARE and plain:
        for layer in plain:
            if rng.random() < 0.5:
                continue
            has_children = bool(layer.get("sublayers"))
            kind = rng.choices(("shape", "gradient", "replicator"),
                               (3, 3, 6 if has_children else 1))[0]
            if kind == "shape":
                make_shape(rng, layer)
            elif kind == "gradient":
                make_gradient(rng, layer)
            else:
                make_replicator(rng, layer, base)
            if rng.random() < 0.8:
                layer.setdefault("animations", []).extend(animations(base, layer, kind))
    if rng.random() < MASK_SHARE:
        owner = rng.choice([l for l in _walk(root)])
        w, h = owner["bounds"][2], owner["bounds"][3]
        mask = {"name": "mask", "bounds": [0, 0, _r3(rng.uniform(0.3, 1.2) * w),
                                           _r3(rng.uniform(0.3, 1.2) * h)],
                "position": [_r3(rng.uniform(0, w)), _r3(rng.uniform(0, h))],
                "backgroundColor": _colour(rng)}
        kind = rng.choice(("layer", "shape", "gradient"))
        if kind == "shape":
            make_shape(rng, mask)
        elif kind == "gradient":
            make_gradient(rng, mask)
        if rng.random() < 0.6:
            if kind == "layer":
                base.keypath_weights = [("opacity", 1), ("position", 1), ("bounds.size", 1)]
                mask["animations"] = [{"key": "m", **base.animation(mask)}]
            else:
                mask["animations"] = animations(base, mask, kind)
        if rng.random() < 0.3:
            mask["sublayers"] = [{"name": "maskChild", "bounds": [0, 0, 20, 20],
                                  "position": [_r3(rng.uniform(0, w)), _r3(rng.uniform(0, h))],
                                  "animations": [{"keyPath": "opacity", "fromValue": 0,
                                                  "toValue": 1, "duration": 1}]}]
        owner["mask"] = mask
