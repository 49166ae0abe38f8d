#!/usr/bin/env python3
"""Independent reference implementation ("oracle") of docs/engine-model.md.

It evaluates exactly the `layercast sample` contract:

    input   {"root": LAYER, "times": [t...], "hitTests": [{"time": t, "point": [x, y]}...]}
    output  {"samples": [{"time": t, "layers": {NAME: {...}}}...],
             "hits": [{"time": t, "point": [x, y], "layer": NAME | null}...]}

It was written from the model document alone (no engine source was read), using only the
standard library and numpy.  Section numbers in comments (§2, §3.2, ...) refer to
docs/engine-model.md.  Usage:

    python3 oracle.py FILE|-        # prints the sample output; exit 2 + message on bad input
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

import emitters

# ----------------------------------------------------------------------------------------
# Errors
# ----------------------------------------------------------------------------------------


class SpecError(Exception):
    """Malformed input. `path` names the offending value, e.g. root.animations[0].keyTimes."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


# ----------------------------------------------------------------------------------------
# Value kinds (§3) and key paths (§5)
# ----------------------------------------------------------------------------------------

# Number of components of each numeric kind.  Numeric values are tuples of floats (a scalar
# is a 1-tuple), transforms are 16-tuples in CATransform3D field order, bools are bools.
NUMERIC_SIZES = {"scalar": 1, "point": 2, "size": 2, "rect": 4, "colour": 4}

PROPERTY_KINDS = {
    "position": "point",
    "anchorPoint": "point",
    "bounds": "rect",
    "opacity": "scalar",
    "zPosition": "scalar",
    "cornerRadius": "scalar",
    "borderWidth": "scalar",
    "backgroundColor": "colour",
    "borderColor": "colour",
    "hidden": "bool",
    "contents": "image",
    "transform": "transform",
    "sublayerTransform": "transform",
    "shadowOpacity": "scalar",
    "shadowRadius": "scalar",
    "shadowOffset": "size",
    "shadowColor": "colour",
    # CAShapeLayer (§10.1)
    "path": "path",
    "fillColor": "colour",
    "strokeColor": "colour",
    "lineWidth": "scalar",
    "miterLimit": "scalar",
    "lineDashPhase": "scalar",
    "strokeStart": "scalar",
    "strokeEnd": "scalar",
    # CAGradientLayer (§10.2)
    "colors": "colours",
    "locations": "numbers",
    "startPoint": "point",
    "endPoint": "point",
    # CAReplicatorLayer (§10.3)
    "instanceCount": "scalar",
    "instanceDelay": "scalar",
    "instanceTransform": "transform",
    "instanceColor": "colour",
    "instanceRedOffset": "scalar",
    "instanceGreenOffset": "scalar",
    "instanceBlueOffset": "scalar",
    "instanceAlphaOffset": "scalar",
}

# The layer type that has each subclass property (§5: a key path of a subclass's property
# addresses nothing on a layer of another class; the sample refuses it).
PROPERTY_OWNERS = {
    **{p: "shape" for p in ("path", "fillColor", "strokeColor", "lineWidth", "miterLimit",
                            "lineDashPhase", "strokeStart", "strokeEnd")},
    **{p: "gradient" for p in ("colors", "locations", "startPoint", "endPoint")},
    **{p: "replicator" for p in ("instanceCount", "instanceDelay", "instanceTransform",
                                 "instanceColor", "instanceRedOffset", "instanceGreenOffset",
                                 "instanceBlueOffset", "instanceAlphaOffset")},
}

# The subclasses' defaults (§10.1–§10.3), as animatable values: absent colours read as
# transparent black (instanceColor opaque white), path the empty path, lists empty (§5).
SUBCLASS_DEFAULTS = {
    "shape": {"path": (), "fillColor": (0.0, 0.0, 0.0, 1.0), "strokeColor": (0.0, 0.0, 0.0, 0.0),
              "lineWidth": (1.0,), "miterLimit": (10.0,), "lineDashPhase": (0.0,),
              "strokeStart": (0.0,), "strokeEnd": (1.0,),
              "fillRule": "nonZero", "lineCap": "butt", "lineJoin": "miter",
              "lineDashPattern": ()},
    "gradient": {"colors": (), "locations": (), "startPoint": (0.5, 0.0),
                 "endPoint": (0.5, 1.0), "gradientType": "axial"},
    "replicator": {"instanceCount": (1.0,), "instanceDelay": (0.0,),
                   "instanceTransform": None, "instanceColor": (1.0, 1.0, 1.0, 1.0),
                   "instanceRedOffset": (0.0,), "instanceGreenOffset": (0.0,),
                   "instanceBlueOffset": (0.0,), "instanceAlphaOffset": (0.0,),
                   "preservesDepth": False},
}

IDENTITY = (1.0, 0.0, 0.0, 0.0,
            0.0, 1.0, 0.0, 0.0,
            0.0, 0.0, 1.0, 0.0,
            0.0, 0.0, 0.0, 1.0)

# Core Animation defaults of the properties (§ sample contract).
PROPERTY_DEFAULTS = {
    "position": (0.0, 0.0),
    "anchorPoint": (0.5, 0.5),
    "bounds": (0.0, 0.0, 0.0, 0.0),
    "opacity": (1.0,),
    "zPosition": (0.0,),
    "cornerRadius": (0.0,),
    "borderWidth": (0.0,),
    "backgroundColor": (0.0, 0.0, 0.0, 0.0),  # "no colour" reports [0,0,0,0]
    "borderColor": (0.0, 0.0, 0.0, 1.0),
    "hidden": False,
    "contents": None,
    "transform": IDENTITY,
    "sublayerTransform": IDENTITY,
    "shadowOpacity": (0.0,),
    "shadowRadius": (3.0,),
    "shadowOffset": (0.0, -3.0),
    "shadowColor": (0.0, 0.0, 0.0, 1.0),
}


@dataclass(frozen=True)
class KeyPath:
    text: str
    prop: str           # the layer property the key path addresses
    kind: str           # the kind of the animated value
    target: tuple       # ("whole",) | ("comp", i) | ("part", lo, hi) | ("xform", op, axis)


def _keypaths() -> dict[str, KeyPath]:
    table = {name: KeyPath(name, name, kind, ("whole",)) for name, kind in PROPERTY_KINDS.items()}
    for prop in ("position", "anchorPoint"):
        table[prop + ".x"] = KeyPath(prop + ".x", prop, "scalar", ("comp", 0))
        table[prop + ".y"] = KeyPath(prop + ".y", prop, "scalar", ("comp", 1))
    for prop in ("startPoint", "endPoint"):
        table[prop + ".x"] = KeyPath(prop + ".x", prop, "scalar", ("comp", 0))
        table[prop + ".y"] = KeyPath(prop + ".y", prop, "scalar", ("comp", 1))
    table["bounds.origin"] = KeyPath("bounds.origin", "bounds", "point", ("part", 0, 2))
    table["bounds.size"] = KeyPath("bounds.size", "bounds", "size", ("part", 2, 4))
    # transform.* (§5) and, by analogy (docs/sample.md), sublayerTransform.*
    for prop in ("transform", "sublayerTransform", "instanceTransform"):
        for op in ("rotation", "scale", "translation"):
            for axis in ("x", "y", "z"):
                name = f"{prop}.{op}.{axis}"
                table[name] = KeyPath(name, prop, "scalar", ("xform", op, axis))
        table[f"{prop}.rotation"] = KeyPath(f"{prop}.rotation", prop, "scalar",
                                            ("xform", "rotation", "z"))
        table[f"{prop}.scale"] = KeyPath(f"{prop}.scale", prop, "scalar",
                                         ("xform", "scale", "xyz"))
        table[f"{prop}.translation"] = KeyPath(f"{prop}.translation", prop, "size",
                                               ("xform", "translation", "xy"))
    return table


KEYPATHS = _keypaths()

# ----------------------------------------------------------------------------------------
# Matrices (row vectors, CATransform3D layout: M[i][j] = m(i+1)(j+1), translation in row 3)
# ----------------------------------------------------------------------------------------


def mat(t) -> np.ndarray:
    return np.array(t, dtype=float).reshape(4, 4)


def tup(m: np.ndarray) -> tuple:
    return tuple(float(x) for x in np.asarray(m).reshape(16))


def concat(a, b) -> tuple:
    """CATransform3DConcat(a, b): a applied first, then b."""
    return tup(mat(a) @ mat(b))


def translation(x, y, z) -> np.ndarray:
    m = np.identity(4)
    m[3, 0:3] = (x, y, z)
    return m


def scaling(x, y, z) -> np.ndarray:
    return np.diag([x, y, z, 1.0])


def rotation(angle, axis) -> np.ndarray:
    """CATransform3DMakeRotation(angle, axis) for a unit coordinate axis."""
    c, s = math.cos(angle), math.sin(angle)
    m = np.identity(4)
    i, j = {"x": (1, 2), "y": (2, 0), "z": (0, 1)}[axis]
    m[i, i] = c
    m[i, j] = s
    m[j, i] = -s
    m[j, j] = c
    return m


# ---- CSS Transforms Level 2 decomposition, re-derived for row vectors --------------------
#
# A decomposable matrix, normalised so that m44 = 1, is factored as  M = A · P  where
#     A = [[U, 0], [t, 1]]     (U = diag(scale) · K(skew) · Q(rotation), then translate t)
#     P = [[I, p₀₋₂], [0, p₃]] (perspective, applied last)
# K = [[1,0,0],[xy,1,0],[xz,yz,1]]: the rows of U are Gram-Schmidt'ed in order x, y, z,
# exactly the quantities the CSS pseudo-code computes.  Q is orthonormal with det +1
# (a reflection is absorbed by negating all three scales, as in CSS).


def _quat_from_rows(q: np.ndarray) -> np.ndarray:
    """Unit quaternion (x, y, z, w) of the rotation whose row-vector matrix is q."""
    r = q.T  # column-vector rotation matrix
    trace = r[0, 0] + r[1, 1] + r[2, 2]
    if trace > 0:
        s = math.sqrt(trace + 1.0) * 2
        w = 0.25 * s
        x = (r[2, 1] - r[1, 2]) / s
        y = (r[0, 2] - r[2, 0]) / s
        z = (r[1, 0] - r[0, 1]) / s
    elif r[0, 0] > r[1, 1] and r[0, 0] > r[2, 2]:
        s = math.sqrt(1.0 + r[0, 0] - r[1, 1] - r[2, 2]) * 2
        w = (r[2, 1] - r[1, 2]) / s
        x = 0.25 * s
        y = (r[0, 1] + r[1, 0]) / s
        z = (r[0, 2] + r[2, 0]) / s
    elif r[1, 1] > r[2, 2]:
        s = math.sqrt(1.0 + r[1, 1] - r[0, 0] - r[2, 2]) * 2
        w = (r[0, 2] - r[2, 0]) / s
        x = (r[0, 1] + r[1, 0]) / s
        y = 0.25 * s
        z = (r[1, 2] + r[2, 1]) / s
    else:
        s = math.sqrt(1.0 + r[2, 2] - r[0, 0] - r[1, 1]) * 2
        w = (r[1, 0] - r[0, 1]) / s
        x = (r[0, 2] + r[2, 0]) / s
        y = (r[1, 2] + r[2, 1]) / s
        z = 0.25 * s
    v = np.array([x, y, z, w])
    return v / np.linalg.norm(v)


def _rows_from_quat(qt) -> np.ndarray:
    x, y, z, w = qt
    r = np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])
    return r.T


def _det3(m) -> float:
    return float(m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                 - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                 + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))


@dataclass
class Decomposed:
    translate: np.ndarray    # 3
    scale: np.ndarray        # 3
    skew: np.ndarray         # 3: xy, xz, yz
    perspective: np.ndarray  # 4
    quaternion: np.ndarray   # 4: x, y, z, w


def decompose(t) -> Optional[Decomposed]:
    m = mat(t)
    if m[3, 3] == 0:
        return None
    m = m / m[3, 3]
    a = m.copy()
    a[0:3, 3] = 0.0
    a[3, 3] = 1.0
    if _det3(a[0:3, 0:3]) == 0:  # det(A) = det(U)
        return None
    if m[0, 3] != 0 or m[1, 3] != 0 or m[2, 3] != 0:
        perspective = np.linalg.solve(a, m[:, 3])  # A · p = column 4 of M
    else:
        perspective = np.array([0.0, 0.0, 0.0, 1.0])
    translate = m[3, 0:3].copy()
    rows = [m[i, 0:3].copy() for i in range(3)]
    scale = np.zeros(3)
    skew = np.zeros(3)
    scale[0] = np.linalg.norm(rows[0])
    rows[0] = rows[0] / scale[0]
    skew[0] = rows[0] @ rows[1]
    rows[1] = rows[1] - skew[0] * rows[0]
    scale[1] = np.linalg.norm(rows[1])
    rows[1] = rows[1] / scale[1]
    skew[0] /= scale[1]
    skew[1] = rows[0] @ rows[2]
    rows[2] = rows[2] - skew[1] * rows[0]
    skew[2] = rows[1] @ rows[2]
    rows[2] = rows[2] - skew[2] * rows[1]
    scale[2] = np.linalg.norm(rows[2])
    rows[2] = rows[2] / scale[2]
    skew[1] /= scale[2]
    skew[2] /= scale[2]
    q = np.array(rows)
    if rows[0] @ np.cross(rows[1], rows[2]) < 0:
        scale = -scale
        q = -q
    return Decomposed(translate, scale, skew, perspective, _quat_from_rows(q))


def recompose(d: Decomposed) -> tuple:
    k = np.array([[1.0, 0.0, 0.0], [d.skew[0], 1.0, 0.0], [d.skew[1], d.skew[2], 1.0]])
    u = np.diag(d.scale) @ k @ _rows_from_quat(d.quaternion)
    a = np.identity(4)
    a[0:3, 0:3] = u
    a[3, 0:3] = d.translate
    p = np.identity(4)
    p[0:4, 3] = d.perspective
    return tup(a @ p)


def slerp(qa: np.ndarray, qb: np.ndarray, u: float) -> np.ndarray:
    """Spherical interpolation the short way round; u outside 0…1 extrapolates."""
    dot = float(qa @ qb)
    if dot < 0:
        qb, dot = -qb, -dot
    dot = min(dot, 1.0)
    if dot > 1.0 - 1e-12:
        q = qa + (qb - qa) * u
        return q / np.linalg.norm(q)
    theta = math.acos(dot)
    s = math.sin(theta)
    return qa * (math.sin((1 - u) * theta) / s) + qb * (math.sin(u * theta) / s)


def interpolate_transform(a, b, u: float) -> tuple:
    da, db = decompose(a), decompose(b)
    if da is None or db is None:
        return a if u < 0.5 else b
    d = Decomposed(
        translate=da.translate + (db.translate - da.translate) * u,
        scale=da.scale + (db.scale - da.scale) * u,
        skew=da.skew + (db.skew - da.skew) * u,
        perspective=da.perspective + (db.perspective - da.perspective) * u,
        quaternion=slerp(da.quaternion, db.quaternion, u),
    )
    return recompose(d)


# ----------------------------------------------------------------------------------------
# Value algebra (§3): lerp, ⊕, ⊖, distance
# ----------------------------------------------------------------------------------------

# Paths are tuples of elements (op, coordinates...), op one of move, line, quad, curve, close;
# colour lists tuples of 4-tuples; number lists tuples of floats.
LIST_KINDS = ("path", "colours", "numbers")


def _same_shape(kind: str, a, b) -> bool:
    """§3: paths with the same elements in the same order, lists of the same length."""
    if len(a) != len(b):
        return False
    return kind != "path" or all(x[0] == y[0] for x, y in zip(a, b))


def _flat(kind: str, v) -> list:
    if kind == "path":
        return [c for e in v for c in e[1:]]
    if kind == "colours":
        return [c for colour in v for c in colour]
    return list(v)


def _unflat(kind: str, like, c: list):
    if kind == "numbers":
        return tuple(c)
    out, i = [], 0
    for e in like:
        n = len(e) - 1 if kind == "path" else 4
        chunk = tuple(c[i:i + n])
        out.append((e[0],) + chunk if kind == "path" else chunk)
        i += n
    return tuple(out)


def _list_op(kind: str, a, b, op):
    return _unflat(kind, a, [op(x, y) for x, y in zip(_flat(kind, a), _flat(kind, b))])



def _lerp_tuple(a, b, u: float) -> tuple:
    return tuple(x + (y - x) * u for x, y in zip(a, b))


def lerp(kind: str, a, b, u: float):
    if kind == "transform":
        return interpolate_transform(a, b, u)
    if kind in NUMERIC_SIZES:
        return _lerp_tuple(a, b, u)
    if kind in LIST_KINDS and _same_shape(kind, a, b):
        return _list_op(kind, a, b, lambda x, y: x + (y - x) * u)
    return a if u < 0.5 else b  # bool, image, other shapes: switch at 0.5


def add(kind: str, x, y):
    """x ⊕ y."""
    if kind == "transform":
        return concat(y, x)
    if kind in NUMERIC_SIZES:
        return tuple(p + q for p, q in zip(x, y))
    if kind in LIST_KINDS:
        return _list_op(kind, x, y, lambda p, q: p + q) if _same_shape(kind, x, y) else y
    raise ValueError(f"{kind} values cannot be added")


def subtract(kind: str, x, y):
    """x ⊖ y."""
    if kind == "transform":
        return tup(np.linalg.inv(mat(y)) @ mat(x))
    if kind in NUMERIC_SIZES:
        return tuple(p - q for p, q in zip(x, y))
    if kind in LIST_KINDS:
        return _list_op(kind, x, y, lambda p, q: p - q) if _same_shape(kind, x, y) else x
    raise ValueError(f"{kind} values cannot be subtracted")


def repeat_add(kind: str, e, n: int):
    """n × e = e ⊕ e ⊕ … (n ≥ 1 times)."""
    if kind == "transform":
        return tup(np.linalg.matrix_power(mat(e), n))
    if kind in LIST_KINDS:
        return _unflat(kind, e, [x * n for x in _flat(kind, e)])
    return tuple(x * n for x in e)


def distance(a, b) -> float:
    return math.sqrt(sum((y - x) ** 2 for x, y in zip(a, b)))


def is_numeric(kind: str) -> bool:
    return kind in NUMERIC_SIZES


def is_addable(kind: str) -> bool:
    return kind in NUMERIC_SIZES or kind == "transform" or kind in LIST_KINDS


# ----------------------------------------------------------------------------------------
# Timing functions
# ----------------------------------------------------------------------------------------

NAMED_TIMING_FUNCTIONS = {
    "linear": (0.0, 0.0, 1.0, 1.0),
    "easeIn": (0.42, 0.0, 1.0, 1.0),
    "easeOut": (0.0, 0.0, 0.58, 1.0),
    "easeInEaseOut": (0.42, 0.0, 0.58, 1.0),
    "default": (0.25, 0.1, 0.25, 1.0),
}


def _bezier(p1: float, p2: float, s: float) -> float:
    return 3 * (1 - s) ** 2 * s * p1 + 3 * (1 - s) * s * s * p2 + s ** 3


def timing(tf: Optional[tuple], x: float) -> float:
    """Evaluate a cubic-bezier timing function (None = linear) at x."""
    if tf is None:
        return x
    c1x, c1y, c2x, c2y = tf
    if c1x == c1y and c2x == c2y:  # control points on the diagonal: the identity
        return x
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lo, hi = 0.0, 1.0
    while hi - lo > 1e-12:  # bisection on the curve parameter s
        mid = (lo + hi) / 2
        bx = _bezier(c1x, c2x, mid)
        if bx == x:
            return _bezier(c1y, c2y, mid)
        if bx < x:
            lo = mid
        else:
            hi = mid
    return _bezier(c1y, c2y, (lo + hi) / 2)


# ----------------------------------------------------------------------------------------
# Springs (§3.4): m·x″ + c·x′ + k·(x − 1) = 0, x(0) = 0, x′(0) = v₀
# ----------------------------------------------------------------------------------------


def spring_fraction(t: float, m: float, k: float, c: float, v0: float) -> float:
    w0 = math.sqrt(k / m)
    zeta = c / (2 * math.sqrt(k * m))
    # y = x − 1 with y(0) = −1, y′(0) = v0
    if zeta < 1:
        wd = w0 * math.sqrt(1 - zeta * zeta)
        alpha = zeta * w0
        y = math.exp(-alpha * t) * (-math.cos(wd * t) + (v0 - alpha) / wd * math.sin(wd * t))
    elif zeta == 1:
        y = (-1 + (v0 - w0) * t) * math.exp(-w0 * t)
    else:
        root = math.sqrt(zeta * zeta - 1)
        r1 = -w0 * (zeta - root)
        r2 = -w0 * (zeta + root)
        c2 = (v0 + r1) / (r2 - r1)
        c1 = -1 - c2
        y = c1 * math.exp(r1 * t) + c2 * math.exp(r2 * t)
    return 1 + y


# ----------------------------------------------------------------------------------------
# Model objects
# ----------------------------------------------------------------------------------------


@dataclass
class Animation:
    path: str                      # JSON path, for messages
    type: str                      # basic | keyframe | group | spring
    key: Optional[str] = None
    keypath: Optional[KeyPath] = None
    from_value: Any = None
    to_value: Any = None
    by_value: Any = None
    values: list = field(default_factory=list)
    key_times: Optional[list] = None
    timing_functions: list = field(default_factory=list)
    calculation_mode: str = "linear"
    timing_function: Optional[tuple] = None
    begin_time: float = 0.0
    duration: float = 0.0
    speed: float = 1.0
    time_offset: float = 0.0
    repeat_count: float = 0.0
    repeat_duration: float = 0.0
    autoreverses: bool = False
    fill_mode: str = "removed"
    removed_on_completion: bool = True
    additive: bool = False
    cumulative: bool = False
    children: list = field(default_factory=list)
    mass: float = 1.0
    stiffness: float = 100.0
    damping: float = 10.0
    initial_velocity: float = 0.0


@dataclass
class Layer:
    path: str
    name: str
    type: str = "layer"            # layer | transformLayer | text | emitter | shape | gradient | replicator
    model: dict = field(default_factory=dict)
    anchor_point_z: float = 0.0
    double_sided: bool = True
    masks_to_bounds: bool = False
    begin_time: float = 0.0
    speed: float = 1.0
    time_offset: float = 0.0
    sublayers: list = field(default_factory=list)
    animations: list = field(default_factory=list)
    parent: Optional["Layer"] = None   # the time parent: the superlayer, or for a mask its owner
    emitter: Optional[emitters.Emitter] = None   # emitter layers (§9)
    mask: Optional["Layer"] = None     # §10.4
    is_mask: bool = False              # the layer is some layer's mask (no superlayer)

    @property
    def is_transform_layer(self) -> bool:
        """No plane of its own (§6, §10.3): a transform layer, a depth-preserving replicator."""
        return self.type == "transformLayer" or (self.type == "replicator"
                                                 and self.model.get("preservesDepth", False))

    def walk(self):
        """Every layer of the tree, masks and their subtrees included."""
        yield self
        if self.mask is not None:
            yield from self.mask.walk()
        for child in self.sublayers:
            yield from child.walk()

    def tree(self):
        """The layer and its sublayers' subtrees, without masks (what hit testing searches)."""
        yield self
        for child in self.sublayers:
            yield from child.tree()


@dataclass
class Case:
    root: Layer
    times: list
    hit_tests: list  # [(time, (x, y))]


# ----------------------------------------------------------------------------------------
# Parsing and validation
# ----------------------------------------------------------------------------------------


def _number(v, path: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise SpecError(path, "expected a number")
    try:
        x = float(v)
    except OverflowError:
        raise SpecError(path, "number out of range") from None
    if not math.isfinite(x):
        raise SpecError(path, "number is not finite")
    return x


def _bool(v, path: str) -> bool:
    if not isinstance(v, bool):
        raise SpecError(path, "expected true or false")
    return v


def _string(v, path: str) -> str:
    if not isinstance(v, str):
        raise SpecError(path, "expected a string")
    return v


def _list(v, path: str) -> list:
    if not isinstance(v, list):
        raise SpecError(path, "expected an array")
    return v


def _object(v, path: str) -> dict:
    if not isinstance(v, dict):
        raise SpecError(path, "expected an object")
    return v


def _numbers(v, n: int, path: str) -> tuple:
    if not isinstance(v, list) or len(v) != n:
        raise SpecError(path, f"expected an array of {n} numbers")
    return tuple(_number(x, f"{path}[{i}]") for i, x in enumerate(v))


PATH_OPS = {"move": 2, "line": 2, "quad": 4, "curve": 6, "close": 0}
PATH_LIMIT = 10_000   # elements of a path (docs/sample.md)
LIST_LIMIT = 1_000    # entries of a colour or number list


def parse_path(v, path: str) -> tuple:
    """A PATH: [["move", x, y], ["line", x, y], ["quad", ...], ["curve", ...], ["close"]]."""
    items = _list(v, path)
    if len(items) > PATH_LIMIT:
        raise SpecError(path, f"more than {PATH_LIMIT} elements")
    out = []
    for i, item in enumerate(items):
        ipath = f"{path}[{i}]"
        if not isinstance(item, list) or not item or not isinstance(item[0], str):
            raise SpecError(ipath, "expected an array starting with an element name")
        op = item[0]
        if op not in PATH_OPS:
            raise SpecError(ipath, f"unknown path element {op!r}")
        if len(item) != PATH_OPS[op] + 1:
            raise SpecError(ipath, f"{op} takes {PATH_OPS[op]} numbers")
        coords = tuple(_number(x, f"{ipath}[{j + 1}]") for j, x in enumerate(item[1:]))
        if i == 0 and op != "move":
            raise SpecError(ipath, "a path starts with a move")
        out.append((op,) + coords)
    return tuple(out)


def parse_list(v, kind: str, path: str) -> tuple:
    items = _list(v, path)
    if len(items) > LIST_LIMIT:
        raise SpecError(path, f"more than {LIST_LIMIT} entries")
    if kind == "colours":
        return tuple(_numbers(x, 4, f"{path}[{i}]") for i, x in enumerate(items))
    return tuple(_number(x, f"{path}[{i}]") for i, x in enumerate(items))


def parse_value(v, kind: str, path: str):
    if kind == "path":
        return parse_path(v, path)
    if kind in ("colours", "numbers"):
        return parse_list(v, kind, path)
    if kind == "scalar":
        return (_number(v, path),)
    if kind in NUMERIC_SIZES:
        return _numbers(v, NUMERIC_SIZES[kind], path)
    if kind == "transform":
        return _numbers(v, 16, path)
    if kind == "bool":
        return _bool(v, path)
    if v is not None and not isinstance(v, str):
        raise SpecError(path, "expected an image name or null")
    return v  # image: opaque


def parse_timing_function(v, path: str) -> Optional[tuple]:
    if v is None:
        return None
    if isinstance(v, str):
        if v not in NAMED_TIMING_FUNCTIONS:
            raise SpecError(path, f"unknown timing function {v!r}")
        return NAMED_TIMING_FUNCTIONS[v]
    pts = _numbers(v, 4, path)
    if not (0 <= pts[0] <= 1 and 0 <= pts[2] <= 1):
        raise SpecError(path, "control point x coordinates must lie in 0...1")
    return pts


def _repeat(v, path: str) -> float:
    if isinstance(v, str):
        if v.lower() in ("inf", "infinity"):
            return math.inf
        raise SpecError(path, "expected a number or \"inf\"")
    return _number(v, path)


ANIMATION_KEYS = {
    "key", "type", "keyPath", "fromValue", "toValue", "byValue", "values", "keyTimes",
    "timingFunctions", "calculationMode", "timingFunction", "beginTime", "duration", "speed",
    "timeOffset", "repeatCount", "repeatDuration", "autoreverses", "fillMode",
    "removedOnCompletion", "additive", "cumulative", "animations", "mass", "stiffness",
    "damping", "initialVelocity",
}
ANIMATION_TYPES = ("basic", "keyframe", "group", "spring")
CALCULATION_MODES = ("linear", "discrete", "paced", "cubic", "cubicPaced")
FILL_MODES = ("removed", "forwards", "backwards", "both")


def parse_animation(obj, path: str) -> Animation:
    obj = _object(obj, path)
    for k in obj:
        if k not in ANIMATION_KEYS:
            raise SpecError(f"{path}.{k}", "unknown animation property")
    kind = _string(obj.get("type", "basic"), f"{path}.type")
    if kind not in ANIMATION_TYPES:
        raise SpecError(f"{path}.type", f"unknown animation type {kind!r}")
    a = Animation(path=path, type=kind)
    if "key" in obj and obj["key"] is not None:
        a.key = _string(obj["key"], f"{path}.key")

    def num(name, default):
        return _number(obj[name], f"{path}.{name}") if name in obj else default

    def flag(name, default):
        return _bool(obj[name], f"{path}.{name}") if name in obj else default

    a.begin_time = num("beginTime", 0.0)
    a.duration = num("duration", 0.0)
    if a.duration < 0:
        raise SpecError(f"{path}.duration", "duration must not be negative")
    a.speed = num("speed", 1.0)
    a.time_offset = num("timeOffset", 0.0)
    if "repeatCount" in obj:
        a.repeat_count = _repeat(obj["repeatCount"], f"{path}.repeatCount")
    if "repeatDuration" in obj:
        a.repeat_duration = _repeat(obj["repeatDuration"], f"{path}.repeatDuration")
    a.autoreverses = flag("autoreverses", False)
    a.fill_mode = _string(obj.get("fillMode", "removed"), f"{path}.fillMode")
    if a.fill_mode not in FILL_MODES:
        raise SpecError(f"{path}.fillMode", f"unknown fill mode {a.fill_mode!r}")
    a.removed_on_completion = flag("removedOnCompletion", True)
    a.additive = flag("additive", False)
    a.cumulative = flag("cumulative", False)
    a.timing_function = parse_timing_function(obj.get("timingFunction"), f"{path}.timingFunction")

    if kind == "group":
        children = _list(obj.get("animations", []), f"{path}.animations")
        a.children = [parse_animation(c, f"{path}.animations[{i}]") for i, c in enumerate(children)]
        return a

    if "keyPath" not in obj:
        raise SpecError(f"{path}.keyPath", "missing key path")
    kp_text = _string(obj["keyPath"], f"{path}.keyPath")
    if kp_text not in KEYPATHS:
        raise SpecError(f"{path}.keyPath", f"unknown key path {kp_text!r}")
    a.keypath = kp = KEYPATHS[kp_text]

    if kind in ("basic", "spring"):
        for name, attr in (("fromValue", "from_value"), ("toValue", "to_value"),
                           ("byValue", "by_value")):
            if name in obj and obj[name] is not None:
                setattr(a, attr, parse_value(obj[name], kp.kind, f"{path}.{name}"))
        if a.by_value is not None and not is_addable(kp.kind):
            raise SpecError(f"{path}.byValue", f"{kp.kind} values cannot be added")
    if kind == "spring":
        a.mass = num("mass", 1.0)
        a.stiffness = num("stiffness", 100.0)
        a.damping = num("damping", 10.0)
        a.initial_velocity = num("initialVelocity", 0.0)
        if a.mass <= 0:
            raise SpecError(f"{path}.mass", "mass must be positive")
        if a.stiffness <= 0:
            raise SpecError(f"{path}.stiffness", "stiffness must be positive")
        if a.damping < 0:
            raise SpecError(f"{path}.damping", "damping must not be negative")
    if kind == "keyframe":
        values = _list(obj.get("values", []), f"{path}.values")
        a.values = [parse_value(v, kp.kind, f"{path}.values[{i}]") for i, v in enumerate(values)]
        a.calculation_mode = _string(obj.get("calculationMode", "linear"),
                                     f"{path}.calculationMode")
        if a.calculation_mode not in CALCULATION_MODES:
            raise SpecError(f"{path}.calculationMode",
                            f"unknown calculation mode {a.calculation_mode!r}")
        if obj.get("keyTimes") is not None:
            kt_path = f"{path}.keyTimes"
            kts = [_number(x, f"{kt_path}[{i}]")
                   for i, x in enumerate(_list(obj["keyTimes"], kt_path))]
            for i in range(1, len(kts)):
                if kts[i] < kts[i - 1]:
                    raise SpecError(kt_path, f"key times out of order at index {i}")
            if any(k < 0 or k > 1 for k in kts):
                raise SpecError(kt_path, "key times must lie in 0...1")
            n = len(a.values)
            allowed = (n, n + 1) if a.calculation_mode == "discrete" else (n,)
            if a.calculation_mode not in ("paced", "cubicPaced") and len(kts) not in allowed:
                raise SpecError(kt_path, f"expected {n} key times, got {len(kts)}")
            a.key_times = kts
        if obj.get("timingFunctions") is not None:
            tfs_path = f"{path}.timingFunctions"
            a.timing_functions = [parse_timing_function(t, f"{tfs_path}[{i}]")
                                  for i, t in enumerate(_list(obj["timingFunctions"], tfs_path))]
    return a


EMITTER_KEYS = {
    "emitterPosition", "emitterZPosition", "emitterSize", "emitterDepth", "emitterShape",
    "emitterMode", "birthRate", "lifetime", "velocity", "scale", "spin", "seed", "maxParticles",
    "renderMode", "emitterCells",
}
CELL_KEYS = {
    "name", "enabled", "birthRate", "lifetime", "lifetimeRange", "velocity", "velocityRange",
    "xAcceleration", "yAcceleration", "zAcceleration", "emissionLongitude", "emissionLatitude",
    "emissionRange", "spin", "spinRange", "scale", "scaleRange", "scaleSpeed", "color",
    "redRange", "greenRange", "blueRange", "alphaRange", "redSpeed", "greenSpeed", "blueSpeed",
    "alphaSpeed", "contents", "beginTime", "duration", "emitterCells",
}
SHAPE_KEYS = {"path", "fillColor", "fillRule", "strokeColor", "lineWidth", "lineCap", "lineJoin",
              "miterLimit", "lineDashPattern", "lineDashPhase", "strokeStart", "strokeEnd"}
GRADIENT_KEYS = {"colors", "locations", "startPoint", "endPoint", "gradientType"}
REPLICATOR_KEYS = {"instanceCount", "instanceDelay", "instanceTransform", "instanceColor",
                   "instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset",
                   "instanceAlphaOffset", "preservesDepth"}
LAYER_KEYS = {
    "name", "type", "bounds", "position", "anchorPoint", "zPosition", "transform",
    "sublayerTransform", "opacity", "hidden", "doubleSided", "masksToBounds",
    "backgroundColor", "borderColor", "borderWidth", "cornerRadius", "beginTime", "speed",
    "timeOffset", "sublayers", "animations",
    # also accepted (docs/sample.md), none of them changes a reported value except
    # anchorPointZ, which enters M(layer)
    "anchorPointZ", "shadowColor", "shadowOpacity", "shadowRadius", "shadowOffset",
    "contents", "string", "fontSize", "mask",
} | EMITTER_KEYS | SHAPE_KEYS | GRADIENT_KEYS | REPLICATOR_KEYS
MODEL_PROPERTIES = (
    "bounds", "position", "anchorPoint", "zPosition", "transform", "sublayerTransform",
    "opacity", "hidden", "backgroundColor", "borderColor", "borderWidth", "cornerRadius",
    "shadowColor", "shadowOpacity", "shadowRadius", "shadowOffset", "contents",
)
LAYER_TYPES = ("layer", "transformLayer", "text", "emitter", "shape", "gradient", "replicator")
TYPE_KEYS = {"emitter": EMITTER_KEYS, "shape": SHAPE_KEYS, "gradient": GRADIENT_KEYS,
             "replicator": REPLICATOR_KEYS}
DASH_COUNT_LIMIT = 64        # lengths of a lineDashPattern (docs/sample.md)
DASH_LENGTH_LIMIT = 1e6      # each length in 0…this, not all 0
INSTANCE_COUNT_LIMIT = 10_000
LISTED_COPIES = 100          # instances lists copies 1 … min(instanceCount, this) − 1
EMITTER_SHAPES = ("point", "line", "rectangle", "cuboid", "circle", "sphere")
EMITTER_MODES = ("points", "outline", "surface", "volume")
RENDER_MODES = ("unordered", "oldestFirst", "oldestLast", "backToFront", "additive")


def _single(v, path: str) -> float:
    """A number for a property that is Float in Apple's API (§9.1)."""
    x = _number(v, path)
    if abs(x) > emitters.FLOAT_MAX:
        raise SpecError(path, "out of single-precision range")
    return emitters.single(x)


def _integer(v, lo: int, hi: int, path: str) -> int:
    x = _number(v, path)
    if not x.is_integer() or not lo <= x <= hi:
        raise SpecError(path, f"expected an integer in {lo}...{hi}")
    return int(x)


def _one_of(v, names: tuple, path: str) -> str:
    name = _string(v, path)
    if name not in names:
        raise SpecError(path, f"unknown value {name!r}")
    return name


def _present(obj: dict, key: str) -> bool:
    return key in obj and obj[key] is not None


def parse_cells(obj: dict, path: str) -> list:
    if not _present(obj, "emitterCells"):
        return []
    cells = _list(obj["emitterCells"], f"{path}.emitterCells")
    return [parse_cell(c, f"{path}.emitterCells[{i}]") for i, c in enumerate(cells)]


def parse_cell(obj, path: str) -> emitters.Cell:
    obj = _object(obj, path)
    for k in obj:
        if k not in CELL_KEYS:
            raise SpecError(f"{path}.{k}", "unknown emitter cell property")
    cell = emitters.Cell()
    if _present(obj, "name"):
        cell.name = _string(obj["name"], f"{path}.name")
    if _present(obj, "enabled"):
        cell.enabled = _bool(obj["enabled"], f"{path}.enabled")
    for key, attr in (("birthRate", "birth_rate"), ("lifetime", "lifetime"),
                      ("lifetimeRange", "lifetime_range")):
        if _present(obj, key):
            setattr(cell, attr, _single(obj[key], f"{path}.{key}"))
    for key, attr in (("velocity", "velocity"), ("velocityRange", "velocity_range"),
                      ("emissionLongitude", "longitude"), ("emissionLatitude", "latitude"),
                      ("emissionRange", "emission_range"), ("spin", "spin"),
                      ("spinRange", "spin_range"), ("scale", "scale"),
                      ("scaleRange", "scale_range"), ("scaleSpeed", "scale_speed"),
                      ("beginTime", "begin_time")):
        if _present(obj, key):
            setattr(cell, attr, _number(obj[key], f"{path}.{key}"))
    cell.acceleration = tuple(
        _number(obj[key], f"{path}.{key}") if _present(obj, key) else 0.0
        for key in ("xAcceleration", "yAcceleration", "zAcceleration"))
    if "color" in obj:
        cell.color = None if obj["color"] is None else _numbers(obj["color"], 4, f"{path}.color")
    channels = ("red", "green", "blue", "alpha")
    cell.color_range = tuple(_single(obj[f"{c}Range"], f"{path}.{c}Range")
                             if _present(obj, f"{c}Range") else 0.0 for c in channels)
    cell.color_speed = tuple(_single(obj[f"{c}Speed"], f"{path}.{c}Speed")
                             if _present(obj, f"{c}Speed") else 0.0 for c in channels)
    if _present(obj, "contents"):
        cell.contents = _string(obj["contents"], f"{path}.contents")
    if _present(obj, "duration"):
        cell.duration = _number(obj["duration"], f"{path}.duration")
        if cell.duration < 0:
            raise SpecError(f"{path}.duration", "duration must not be negative")
    cell.cells = parse_cells(obj, path)
    return cell


def parse_emitter(obj: dict, path: str) -> emitters.Emitter:
    em = emitters.Emitter()
    if _present(obj, "emitterPosition"):
        em.position = _numbers(obj["emitterPosition"], 2, f"{path}.emitterPosition")
    if _present(obj, "emitterSize"):
        em.size = _numbers(obj["emitterSize"], 2, f"{path}.emitterSize")
    if _present(obj, "emitterZPosition"):
        em.z_position = _number(obj["emitterZPosition"], f"{path}.emitterZPosition")
    if _present(obj, "emitterDepth"):
        em.depth = _number(obj["emitterDepth"], f"{path}.emitterDepth")
    if _present(obj, "emitterShape"):
        em.shape = _one_of(obj["emitterShape"], EMITTER_SHAPES, f"{path}.emitterShape")
    if _present(obj, "emitterMode"):
        em.mode = _one_of(obj["emitterMode"], EMITTER_MODES, f"{path}.emitterMode")
    for key, attr in (("birthRate", "birth_rate"), ("lifetime", "lifetime"),
                      ("velocity", "velocity"), ("scale", "scale"), ("spin", "spin")):
        if _present(obj, key):
            setattr(em, attr, _single(obj[key], f"{path}.{key}"))
    if _present(obj, "seed"):
        em.seed = _integer(obj["seed"], 0, 2 ** 32 - 1, f"{path}.seed")
    if _present(obj, "maxParticles"):
        em.max_particles = _integer(obj["maxParticles"], 0, 1_000_000, f"{path}.maxParticles")
    if _present(obj, "renderMode"):
        _one_of(obj["renderMode"], RENDER_MODES, f"{path}.renderMode")  # stored for clients only
    em.cells = parse_cells(obj, path)
    return em


def parse_layer(obj, path: str, names: set, parent: Optional[Layer]) -> Layer:
    obj = _object(obj, path)
    for k in obj:
        if k not in LAYER_KEYS:
            raise SpecError(f"{path}.{k}", "unknown layer property")
    name = _string(obj["name"], f"{path}.name") if "name" in obj else path
    if name in names:
        raise SpecError(f"{path}.name", f"duplicate layer name {name!r}")
    names.add(name)
    ltype = _string(obj.get("type", "layer"), f"{path}.type")
    if ltype not in LAYER_TYPES:
        raise SpecError(f"{path}.type", f"unknown layer type {ltype!r}")
    layer = Layer(path=path, name=name, type=ltype, parent=parent)
    for owner, keys in TYPE_KEYS.items():
        if owner != ltype:
            for k in obj:
                if k in keys:
                    raise SpecError(f"{path}.{k}", f"only {owner} layers have this property")
    if ltype == "emitter":
        layer.emitter = parse_emitter(obj, path)
    layer.model = dict(PROPERTY_DEFAULTS)
    if ltype in SUBCLASS_DEFAULTS:
        layer.model.update(SUBCLASS_DEFAULTS[ltype])
        if ltype == "replicator":
            layer.model["instanceTransform"] = IDENTITY
        parse_subclass(obj, path, ltype, layer.model)
    for prop in MODEL_PROPERTIES:
        if prop in obj and obj[prop] is not None:
            layer.model[prop] = parse_value(obj[prop], PROPERTY_KINDS[prop], f"{path}.{prop}")
    if "anchorPointZ" in obj:
        layer.anchor_point_z = _number(obj["anchorPointZ"], f"{path}.anchorPointZ")
    for prop in ("string", "fontSize"):
        if prop in obj and ltype != "text":
            raise SpecError(f"{path}.{prop}", "only text layers have this property")
    if "string" in obj and obj["string"] is not None:
        _string(obj["string"], f"{path}.string")
    if "fontSize" in obj:
        _number(obj["fontSize"], f"{path}.fontSize")
    if "doubleSided" in obj:
        layer.double_sided = _bool(obj["doubleSided"], f"{path}.doubleSided")
    if "masksToBounds" in obj:
        layer.masks_to_bounds = _bool(obj["masksToBounds"], f"{path}.masksToBounds")
    for prop, attr in (("beginTime", "begin_time"), ("speed", "speed"),
                       ("timeOffset", "time_offset")):
        if prop in obj:
            setattr(layer, attr, _number(obj[prop], f"{path}.{prop}"))
    if _present(obj, "mask"):
        layer.mask = parse_layer(obj["mask"], f"{path}.mask", names, layer)
        for sub in layer.mask.walk():
            sub.is_mask = True
    subs = _list(obj.get("sublayers", []), f"{path}.sublayers")
    layer.sublayers = [parse_layer(s, f"{path}.sublayers[{i}]", names, layer)
                       for i, s in enumerate(subs)]
    anims = _list(obj.get("animations", []), f"{path}.animations")
    added: list[Animation] = []
    for i, a in enumerate(anims):
        anim = parse_animation(a, f"{path}.animations[{i}]")
        check_owner(anim, ltype)
        if anim.key is not None:  # adding under an existing key replaces the old animation
            added = [x for x in added if x.key != anim.key]
        added.append(anim)
    layer.animations = added
    return layer


def check_owner(a: Animation, ltype: str) -> None:
    """§5/§11: a key path of a subclass's property on a layer of another class is refused."""
    for child in a.children:
        check_owner(child, ltype)
    if a.keypath is not None:
        owner = PROPERTY_OWNERS.get(a.keypath.prop)
        if owner is not None and owner != ltype:
            raise SpecError(f"{a.path}.keyPath", f"only {owner} layers have {a.keypath.prop}")


def _optional_colour(obj: dict, key: str, path: str, absent: tuple) -> tuple:
    return absent if obj[key] is None else _numbers(obj[key], 4, f"{path}.{key}")


def parse_subclass(obj: dict, path: str, ltype: str, model: dict) -> None:
    """A shape, gradient or replicator layer's own properties (docs/sample.md)."""
    def num(key):
        return (_number(obj[key], f"{path}.{key}"),)

    if ltype == "shape":
        if _present(obj, "path"):
            model["path"] = parse_path(obj["path"], f"{path}.path")
        for key in ("fillColor", "strokeColor"):
            if key in obj:
                model[key] = _optional_colour(obj, key, path, (0.0, 0.0, 0.0, 0.0))
        for key in ("lineWidth", "miterLimit", "lineDashPhase", "strokeStart", "strokeEnd"):
            if _present(obj, key):
                model[key] = num(key)
        for key, names in (("fillRule", ("nonZero", "evenOdd")),
                           ("lineCap", ("butt", "round", "square")),
                           ("lineJoin", ("miter", "round", "bevel"))):
            if _present(obj, key):
                model[key] = _one_of(obj[key], names, f"{path}.{key}")
        if _present(obj, "lineDashPattern"):
            dpath = f"{path}.lineDashPattern"
            items = _list(obj["lineDashPattern"], dpath)
            if len(items) > DASH_COUNT_LIMIT:
                raise SpecError(dpath, f"more than {DASH_COUNT_LIMIT} lengths")
            lengths = tuple(_number(x, f"{dpath}[{i}]") for i, x in enumerate(items))
            for i, x in enumerate(lengths):
                if not 0 <= x <= DASH_LENGTH_LIMIT:
                    raise SpecError(f"{dpath}[{i}]", "must be a length in 0...1e6")
            if lengths and not any(x > 0 for x in lengths):
                raise SpecError(dpath, "needs a length greater than 0")
            model["lineDashPattern"] = lengths
    elif ltype == "gradient":
        for key, kind in (("colors", "colours"), ("locations", "numbers")):
            if _present(obj, key):
                model[key] = parse_list(obj[key], kind, f"{path}.{key}")
        for key in ("startPoint", "endPoint"):
            if _present(obj, key):
                model[key] = _numbers(obj[key], 2, f"{path}.{key}")
        if _present(obj, "gradientType"):
            model["gradientType"] = _one_of(obj["gradientType"], ("axial", "radial", "conic"),
                                            f"{path}.gradientType")
    else:
        if _present(obj, "instanceCount"):
            model["instanceCount"] = (float(_integer(obj["instanceCount"], 0, INSTANCE_COUNT_LIMIT,
                                                     f"{path}.instanceCount")),)
        if _present(obj, "instanceDelay"):
            model["instanceDelay"] = num("instanceDelay")
        if _present(obj, "instanceTransform"):
            model["instanceTransform"] = _numbers(obj["instanceTransform"], 16,
                                                  f"{path}.instanceTransform")
        if "instanceColor" in obj:
            model["instanceColor"] = _optional_colour(obj, "instanceColor", path,
                                                      (1.0, 1.0, 1.0, 1.0))
        for c in ("Red", "Green", "Blue", "Alpha"):
            key = f"instance{c}Offset"
            if _present(obj, key):
                model[key] = (_single(obj[key], f"{path}.{key}"),)
        if _present(obj, "preservesDepth"):
            model["preservesDepth"] = _bool(obj["preservesDepth"], f"{path}.preservesDepth")


def parse_case(doc) -> Case:
    doc = _object(doc, "$")
    if "root" not in doc:
        raise SpecError("root", "missing root layer")
    root = parse_layer(doc["root"], "root", set(), None)
    times = [_number(t, f"times[{i}]") for i, t in enumerate(_list(doc.get("times", []), "times"))]
    hits = []
    for i, h in enumerate(_list(doc.get("hitTests", []), "hitTests")):
        h = _object(h, f"hitTests[{i}]")
        if "time" not in h:
            raise SpecError(f"hitTests[{i}].time", "missing time")
        if "point" not in h:
            raise SpecError(f"hitTests[{i}].point", "missing point")
        hits.append((_number(h["time"], f"hitTests[{i}].time"),
                     _numbers(h["point"], 2, f"hitTests[{i}].point")))
    for layer in root.walk():
        if layer.emitter is not None:
            check_emitter_limits(layer, times)
    return Case(root, times, hits)


def check_emitter_limits(layer: Layer, times: list) -> None:
    """The sample's bounds on an emitter layer (docs/sample.md, Errors)."""
    if not abs(layer_local_time(layer, 0.0)) <= 1e9:
        raise SpecError(layer.path, "local time at media time 0 beyond 1e9 s")
    fast = emitters.too_fast(layer.emitter, layer.path)
    if fast:
        raise SpecError(fast, "rate beyond 1e6 per second")
    for i, T in enumerate(times):
        if not abs(layer_local_time(layer, T)) <= 1e9:
            raise SpecError(f"times[{i}]", f"emitter layer {layer.path} beyond 1e9 s")
    if times and not emitters.births_bound(layer.emitter) * len(times) <= 1e6:
        raise SpecError(f"{layer.path}.emitterCells", "more than 1e6 births to evaluate")


class NonFinite:
    """NaN, Infinity or -Infinity in the text: not JSON, refused where the value is read, so
    that the message names its path."""

    def __init__(self, name: str):
        self.name = name


def load_json(text: str):
    return json.loads(text, parse_constant=NonFinite)


# ----------------------------------------------------------------------------------------
# Time (§1, §2)
# ----------------------------------------------------------------------------------------


def fmod(a: float, b: float) -> float:
    """mod(a, b) = a − b·⌊a/b⌋, literally."""
    return a - b * math.floor(a / b)


def layer_local_time(layer: Layer, T: float) -> float:
    parent = T if layer.parent is None else layer_local_time(layer.parent, T)
    return (parent - layer.begin_time) * layer.speed + layer.time_offset


@dataclass
class Phase:
    t: float   # simple time
    i: int     # iteration


def animation_phase(a: Animation, p: float, d: float, b: float, in_group: bool) -> Optional[Phase]:
    """§2: simple time and iteration at parent time p, or None when it does not apply."""
    cycle = 2 * d if a.autoreverses else d
    if a.repeat_duration > 0:
        active = a.repeat_duration
    elif a.repeat_count > 0:
        active = a.repeat_count * cycle
    else:
        active = cycle
    e = (p - b) * a.speed
    if e < 0:
        if a.fill_mode not in ("backwards", "both"):
            return None
        at = 0.0
    elif e >= active:
        if a.fill_mode not in ("forwards", "both"):
            return None
        if a.removed_on_completion and not in_group:
            return None
        at = active
    else:
        at = e
    o = a.time_offset
    if math.isinf(active):
        local = max(0.0, at + o)
    elif at == active and fmod(o, active) == 0:
        local = active
    else:
        local = fmod(at + o, active)
    i = math.floor(local / cycle)
    c = local - i * cycle
    if c == 0 and local > 0 and local == active:
        i -= 1
        c = cycle
    t = c if (not a.autoreverses or c <= d) else 2 * d - c
    return Phase(t, int(i))


# ----------------------------------------------------------------------------------------
# Keyframes (§3.2)
# ----------------------------------------------------------------------------------------


def _hermite(v0, v1, m0, m1, u: float) -> tuple:
    u2, u3 = u * u, u * u * u
    h00 = 2 * u3 - 3 * u2 + 1
    h10 = u3 - 2 * u2 + u
    h01 = -2 * u3 + 3 * u2
    h11 = u3 - u2
    return tuple(h00 * a + h10 * b + h01 * c + h11 * e for a, b, c, e in zip(v0, m0, v1, m1))


def _tangents(values: list) -> list:
    n = len(values)
    out = []
    for i in range(n):
        prev = values[max(i - 1, 0)]
        nxt = values[min(i + 1, n - 1)]
        out.append(tuple((y - x) / 2 for x, y in zip(prev, nxt)))
    return out


def _segment(key_times: list, f: float):
    """The segment (i, u) of `f` for linear/cubic keyframes, or an end index."""
    n = len(key_times)
    if f <= key_times[0]:
        return ("end", 0)
    if f >= key_times[n - 1]:
        return ("end", n - 1)
    i = max(j for j in range(n - 1) if key_times[j] <= f)
    u = (f - key_times[i]) / (key_times[i + 1] - key_times[i])
    return ("seg", i, u)


def _linear_keyframes(kind, values, key_times, tfs, f):
    seg = _segment(key_times, f)
    if seg[0] == "end":
        return values[seg[1]]
    _, i, u = seg
    if i < len(tfs) and tfs[i] is not None:
        u = timing(tfs[i], u)
    return lerp(kind, values[i], values[i + 1], u)


def _evenly(n: int) -> list:
    return [i / (n - 1) for i in range(n)]


def _paced_polyline(values, f):
    n = len(values)
    lengths = [distance(values[i], values[i + 1]) for i in range(n - 1)]
    total = sum(lengths)
    if total == 0 or f <= 0:
        return values[0]
    if f >= 1:
        return values[-1]
    target = f * total
    acc = 0.0
    for i, seg in enumerate(lengths):
        if seg > 0 and target <= acc + seg:
            return _lerp_tuple(values[i], values[i + 1], (target - acc) / seg)
        acc += seg
    return values[-1]


def _cubic_paced(values, f):
    n = len(values)
    tangents = _tangents(values)
    chords = 64
    table = []  # (cumulative length at the chord's start, segment, k, chord length)
    total = 0.0
    for i in range(n - 1):
        prev = values[i]
        for k in range(chords):
            nxt = _hermite(values[i], values[i + 1], tangents[i], tangents[i + 1], (k + 1) / chords)
            length = distance(prev, nxt)
            table.append((total, i, k, length))
            total += length
            prev = nxt
    if total == 0 or f <= 0:
        return values[0]
    if f >= 1:
        return values[-1]
    target = f * total
    for start, i, k, length in table:
        if length > 0 and target <= start + length:
            u = (k + (target - start) / length) / chords
            return _hermite(values[i], values[i + 1], tangents[i], tangents[i + 1], u)
    return values[-1]


def _list_spline(kind, values, i: int, u: float):
    """§3.2 cubic for path and list values: the spline over their components when the four
    values around segment i have one shape, otherwise §3's interpolation from vᵢ to vᵢ₊₁."""
    n = len(values)
    quad = [values[max(i - 1, 0)], values[i], values[i + 1], values[min(i + 2, n - 1)]]
    if not all(_same_shape(kind, values[i], v) for v in quad):
        return lerp(kind, values[i], values[i + 1], u)
    p0, p1, p2, p3 = (tuple(_flat(kind, v)) for v in quad)
    m1 = tuple((y - x) / 2 for x, y in zip(p0, p2))
    m2 = tuple((y - x) / 2 for x, y in zip(p1, p3))
    return _unflat(kind, values[i], list(_hermite(p1, p2, m1, m2, u)))


def _list_distance(kind, a, b) -> float:
    """Paced distance between path or list values of one shape (§3.2 leaves other shapes open;
    this takes their common leading components)."""
    return distance(_flat(kind, a), _flat(kind, b))


def _list_paced(kind, values, f: float, cubic: bool):
    """§3.2 paced and cubicPaced for path and list values (64 chords per cubic segment)."""
    n = len(values)
    steps = 64 if cubic else 1
    table = []  # (cumulative length at the chord's end, segment, u at the chord's end)
    total = 0.0
    for i in range(n - 1):
        prev = values[i]
        for k in range(1, steps + 1):
            u = k / steps
            point = _list_spline(kind, values, i, u) if cubic else values[i + 1]
            total += _list_distance(kind, prev, point)
            table.append((total, i, u))
            prev = point
    if total == 0:
        return values[0]
    target = min(max(f, 0.0), 1.0) * total
    start, start_u, start_i = 0.0, 0.0, 0
    for end, i, u in table:
        if target <= end and end > start:
            w = (target - start) / (end - start)
            uu = (start_u if start_i == i else 0.0) + (u - (start_u if start_i == i else 0.0)) * w
            return _list_spline(kind, values, i, uu) if cubic else lerp(kind, values[i],
                                                                         values[i + 1], uu)
        start, start_u, start_i = end, u, i
    return values[-1]


def keyframe_value(a: Animation, f: float):
    kind = a.keypath.kind
    values = a.values
    n = len(values)
    if n == 1:
        return values[0]
    mode = a.calculation_mode
    if kind in LIST_KINDS and mode in ("paced", "cubicPaced"):
        return _list_paced(kind, values, f, mode == "cubicPaced")
    if kind in LIST_KINDS and mode == "cubic":
        kts = a.key_times if a.key_times is not None else _evenly(n)
        seg = _segment(kts, f)
        if seg[0] == "end":
            return values[seg[1]]
        _, i, u = seg
        if i < len(a.timing_functions) and a.timing_functions[i] is not None:
            u = timing(a.timing_functions[i], u)
        return _list_spline(kind, values, i, u)
    if mode in ("paced", "cubicPaced") and not is_numeric(kind):
        # transforms (and, by extension, bools) fall back to evenly spaced linear
        return _linear_keyframes(kind, values, _evenly(n), [], f)
    if mode == "discrete":
        kts = a.key_times if a.key_times is not None else [i / n for i in range(n)]
        if f < kts[0]:
            return values[0]
        i = max(j for j in range(len(kts)) if kts[j] <= f)
        return values[min(i, n - 1)]
    if mode == "paced":
        return _paced_polyline(values, f)
    if mode == "cubicPaced":
        return _cubic_paced(values, f)
    kts = a.key_times if a.key_times is not None else _evenly(n)
    if mode == "cubic" and is_numeric(kind):
        seg = _segment(kts, f)
        if seg[0] == "end":
            return values[seg[1]]
        _, i, u = seg
        if i < len(a.timing_functions) and a.timing_functions[i] is not None:
            u = timing(a.timing_functions[i], u)
        m = _tangents(values)
        return _hermite(values[i], values[i + 1], m[i], m[i + 1], u)
    return _linear_keyframes(kind, values, kts, a.timing_functions, f)


# ----------------------------------------------------------------------------------------
# Composition (§3.1, §3.3, §4, §5)
# ----------------------------------------------------------------------------------------


def _xform_matrix(op: str, axis: str, v: tuple) -> np.ndarray:
    if op == "rotation":
        return rotation(v[0], axis)
    if op == "scale":
        s = v[0]
        return scaling(s if "x" in axis else 1.0, s if "y" in axis else 1.0,
                       s if "z" in axis else 1.0)
    if axis == "xy":
        return translation(v[0], v[1], 0.0)
    return translation(*(v[0] if axis == c else 0.0 for c in "xyz"))


def read_keypath(state: dict, kp: KeyPath):
    target = kp.target
    if target[0] == "whole":
        return state[kp.prop]
    if target[0] == "comp":
        return (state[kp.prop][target[1]],)
    if target[0] == "part":
        return state[kp.prop][target[1]:target[2]]
    # transform.* sub-paths: the identity element of the sub-path (choice, see README)
    op, axis = target[1], target[2]
    if op == "scale":
        return (1.0,)
    return (0.0, 0.0) if axis == "xy" else (0.0,)


def write_keypath(state: dict, kp: KeyPath, v):
    _write_keypath(state, kp, v)
    if kp.prop == "instanceCount":  # §5: stored truncated towards zero, as each animation writes it
        x = state["instanceCount"][0]
        if 0 < abs(x - round(x)) < 1e-6:  # for scenegen: a rounding error could change the count
            state["_instanceCountNearInteger"] = True
        state["instanceCount"] = (float(math.trunc(max(-1e9, min(1e9, x))))
                                  if math.isfinite(x) else 0.0,)


def _write_keypath(state: dict, kp: KeyPath, v):
    target = kp.target
    if target[0] == "whole":
        state[kp.prop] = v
    elif target[0] == "comp":
        old = list(state[kp.prop])
        old[target[1]] = v[0]
        state[kp.prop] = tuple(old)
    elif target[0] == "part":
        old = list(state[kp.prop])
        old[target[1]:target[2]] = v
        state[kp.prop] = tuple(old)
    else:
        state[kp.prop] = tup(_xform_matrix(target[1], target[2], v) @ mat(state[kp.prop]))


def _basic_endpoints(a: Animation, cur):
    kind = a.keypath.kind
    fr, to, by = a.from_value, a.to_value, a.by_value
    if fr is not None and to is not None:
        return fr, to
    if fr is not None and by is not None:
        return fr, add(kind, fr, by)
    if by is not None and to is not None:
        return subtract(kind, to, by), to
    if fr is not None:
        return fr, cur
    if to is not None:
        return cur, to
    if by is not None:
        return cur, add(kind, cur, by)
    return cur, cur


def apply_animation(a: Animation, p: float, state: dict, parent_duration: Optional[float],
                    now: float) -> None:
    """Apply animation `a` at parent time p to the running property values in `state`."""
    in_group = parent_duration is not None
    d = a.duration if a.duration > 0 else (parent_duration if in_group else 0.25)
    b = a.begin_time if (in_group or a.begin_time != 0) else now
    phase = animation_phase(a, p, d, b, in_group)
    if phase is None:
        return
    if a.type == "group":
        child_time = d * timing(a.timing_function, phase.t / d)
        for child in a.children:
            apply_animation(child, child_time, state, d, now)
        return

    kp = a.keypath
    kind = kp.kind
    cur = read_keypath(state, kp)
    if a.type == "keyframe":
        if not a.values:
            return
        v = keyframe_value(a, timing(a.timing_function, phase.t / d))
        end = (lambda: keyframe_value(a, 1.0))
    else:
        frm, to = _basic_endpoints(a, cur)
        if a.type == "spring":
            f = spring_fraction(phase.t, a.mass, a.stiffness, a.damping, a.initial_velocity)
        else:
            f = timing(a.timing_function, phase.t / d)
        v = lerp(kind, frm, to, f)
        end = (lambda: lerp(kind, frm, to, 1.0))
    if a.cumulative and phase.i > 0 and is_addable(kind):
        v = add(kind, v, repeat_add(kind, end(), phase.i))
    if a.additive and is_addable(kind) and kp.target[0] != "xform":
        v = add(kind, cur, v)
    write_keypath(state, kp, v)


def presentation(layer: Layer, T: float, p: Optional[float] = None) -> dict:
    """The layer's values at media time T; `p`, when given, is its local time instead of the
    one T gives (a replicator's copies, §10.3)."""
    state = dict(layer.model)
    state["anchorPointZ"] = layer.anchor_point_z
    if T < 0:  # every animation is added at media time 0: nothing is attached before that
        return state
    if p is None:
        p = layer_local_time(layer, T)
    now = layer_local_time(layer, 0.0)
    for a in layer.animations:
        apply_animation(a, p, state, None, now)
    return state


def presentation_tree(root: Layer, T: float) -> dict:
    return {layer.name: presentation(layer, T) for layer in root.walk()}


# ----------------------------------------------------------------------------------------
# Geometry (§6) and hit testing (§7)
# ----------------------------------------------------------------------------------------


def _std_rect(bounds):
    x, y, w, h = bounds
    return min(x, x + w), min(y, y + h), abs(w), abs(h)


def anchor_in_bounds(state: dict) -> tuple:
    min_x, min_y, w, h = _std_rect(state["bounds"])
    ax, ay = state["anchorPoint"]
    return min_x + ax * w, min_y + ay * h


def sublayer_matrix(state: dict) -> np.ndarray:
    """S(layer) = Translate(−anchor) · sublayerTransform · Translate(anchor)."""
    ax, ay = anchor_in_bounds(state)
    return translation(-ax, -ay, 0) @ mat(state["sublayerTransform"]) @ translation(ax, ay, 0)


def layer_matrix(state: dict, parent_state: Optional[dict]) -> np.ndarray:
    """M(layer): the layer's bounds space to its superlayer's bounds space."""
    ax, ay = anchor_in_bounds(state)
    px, py = state["position"]
    az = state.get("anchorPointZ", 0.0)
    m = (translation(-ax, -ay, -az) @ mat(state["transform"])
         @ translation(px, py, state["zPosition"][0]))
    if parent_state is not None:
        m = m @ sublayer_matrix(parent_state)
    return m


def unproject(p: tuple, g: np.ndarray):
    """Unproject 2D point p of the context plane onto the z = 0 plane of the layer mapped by g.

    Returns (q, depth, facing_away) or None when the plane is edge-on or p is behind the eye.
    """
    h = g[np.ix_([0, 1, 3], [0, 1, 3])]
    det = _det3(h)
    if det == 0:
        return None
    adj = np.array([
        [h[1, 1] * h[2, 2] - h[1, 2] * h[2, 1], h[0, 2] * h[2, 1] - h[0, 1] * h[2, 2],
         h[0, 1] * h[1, 2] - h[0, 2] * h[1, 1]],
        [h[1, 2] * h[2, 0] - h[1, 0] * h[2, 2], h[0, 0] * h[2, 2] - h[0, 2] * h[2, 0],
         h[0, 2] * h[1, 0] - h[0, 0] * h[1, 2]],
        [h[1, 0] * h[2, 1] - h[1, 1] * h[2, 0], h[0, 1] * h[2, 0] - h[0, 0] * h[2, 1],
         h[0, 0] * h[1, 1] - h[0, 1] * h[1, 0]],
    ])
    r = np.array([p[0], p[1], 1.0]) @ adj / det
    if r[2] <= 0:  # w = 1/r[2] ≤ 0: behind the eye
        return None
    q = (float(r[0] / r[2]), float(r[1] / r[2]))
    x, y, z, w = np.array([q[0], q[1], 0.0, 1.0]) @ g
    return q, float(z / w), det < 0


def bounds_contains(bounds, q) -> bool:
    min_x, min_y, w, h = _std_rect(bounds)
    return min_x <= q[0] < min_x + w and min_y <= q[1] < min_y + h


def _search_order(layer: Layer, states: dict) -> list:
    """Sublayers top to bottom: highest zPosition first, then the later sibling."""
    indexed = list(enumerate(layer.sublayers))
    indexed.sort(key=lambda item: (-states[item[1].name]["zPosition"][0], -item[0]))
    return [child for _, child in indexed]


def _hit(layer: Layer, p: tuple, g: np.ndarray, states: dict):
    """Hit-test `layer`, whose bounds space maps into the current context by g.

    Returns (layer, depth of the candidate at p in the context) or None.
    """
    st = states[layer.name]
    if st["hidden"]:
        return None
    if layer.is_transform_layer:
        # No plane of its own: candidates share the context; the nearest hit wins,
        # ties keep the usual top-to-bottom order.
        best = None
        for child in _search_order(layer, states):
            gc = layer_matrix(states[child.name], st) @ g
            found = _hit(child, p, gc, states)
            if found is not None and (best is None or found[1] > best[1]):
                best = found
        return best
    un = unproject(p, g)
    if un is None:
        return None
    q, depth, facing_away = un
    if not layer.double_sided and facing_away:
        return None
    if layer.masks_to_bounds and not bounds_contains(st["bounds"], q):
        return None
    for child in _search_order(layer, states):  # this layer flattens: q is the new context
        found = _hit(child, q, layer_matrix(states[child.name], st), states)
        if found is not None:
            return found[0], depth
    if bounds_contains(st["bounds"], q):
        return layer, depth
    return None


def hit_test(root: Layer, states: dict, point: tuple) -> Optional[str]:
    found = _hit(root, point, layer_matrix(states[root.name], None), states)
    return None if found is None else found[0].name


def context_matrix(layer: Layer, states: dict) -> tuple[np.ndarray, Optional[Layer]]:
    """The map from layer's bounds space to the space of its nearest flattening ancestor
    (None = the root's superlayer), as used by hit testing."""
    chain = layer_matrix(states[layer.name],
                         None if layer.parent is None else states[layer.parent.name])
    parent = layer.parent
    while parent is not None and parent.is_transform_layer:
        grand = parent.parent
        chain = chain @ layer_matrix(states[parent.name],
                                     None if grand is None else states[grand.name])
        parent = grand
    return chain, parent


def to_root_space(layer: Layer, states: dict, q: tuple) -> Optional[tuple]:
    """Project a point of layer's bounds plane into the root's superlayer space (None if it
    lands behind the eye somewhere on the way)."""
    point = (q[0], q[1])
    current = layer
    while current is not None:
        g, context = context_matrix(current, states)
        x, y, z, w = np.array([point[0], point[1], 0.0, 1.0]) @ g
        if w <= 0:
            return None
        point = (float(x / w), float(y / w))
        current = context
    return point


# ----------------------------------------------------------------------------------------
# The sample contract
# ----------------------------------------------------------------------------------------


def _path_json(path: tuple) -> list:
    return [[e[0], *e[1:]] for e in path]


def _subclass_report(layer: Layer, state: dict) -> dict:
    """A shape, gradient or replicator layer's own values (docs/sample.md, Output)."""
    if layer.type == "shape":
        return {"path": _path_json(state["path"]), "fillColor": list(state["fillColor"]),
                "fillRule": state["fillRule"], "strokeColor": list(state["strokeColor"]),
                "lineWidth": state["lineWidth"][0], "lineCap": state["lineCap"],
                "lineJoin": state["lineJoin"], "miterLimit": state["miterLimit"][0],
                "lineDashPattern": list(state["lineDashPattern"]),
                "lineDashPhase": state["lineDashPhase"][0],
                "strokeStart": state["strokeStart"][0], "strokeEnd": state["strokeEnd"][0]}
    if layer.type == "gradient":
        return {"colors": [list(c) for c in state["colors"]],
                "locations": list(state["locations"]), "startPoint": list(state["startPoint"]),
                "endPoint": list(state["endPoint"]), "gradientType": state["gradientType"]}
    if layer.type == "replicator":
        out = {key: state[key][0] for key in ("instanceCount", "instanceDelay",
                                              "instanceRedOffset", "instanceGreenOffset",
                                              "instanceBlueOffset", "instanceAlphaOffset")}
        out["instanceCount"] = int(out["instanceCount"])
        out["instanceTransform"] = list(state["instanceTransform"])
        out["instanceColor"] = list(state["instanceColor"])
        out["preservesDepth"] = bool(state["preservesDepth"])
        return out
    return {}


def replicator_instance(state: dict, k: int) -> dict:
    """§10.3: how copy k is drawn — transform about the bounds' centre, colour, time shift."""
    min_x, min_y, w, h = _std_rect(state["bounds"])
    cx, cy = min_x + w / 2, min_y + h / 2
    power = np.linalg.matrix_power(mat(state["instanceTransform"]), k)
    transform = translation(-cx, -cy, 0) @ power @ translation(cx, cy, 0)
    offsets = [state[f"instance{c}Offset"][0] for c in ("Red", "Green", "Blue", "Alpha")]
    colour = [min(1.0, max(0.0, base + k * off))
              for base, off in zip(state["instanceColor"], offsets)]
    return {"index": k, "transform": tup(transform), "color": colour,
            "timeShift": -k * state["instanceDelay"][0]}


def replicator_copies(layer: Layer, state: dict, T: float) -> list:
    """Copies 1 … min(n, 100) − 1 with their sublayers' values, whose parent time is the
    replicator's local time minus k·instanceDelay (§10.3). Masks are not copies' layers."""
    count = min(int(state["instanceCount"][0]), LISTED_COPIES)
    out = []
    for k in range(1, count):
        inst = replicator_instance(state, k)
        layers = {}

        def visit(child: Layer, parent_time: float):
            local = (parent_time - child.begin_time) * child.speed + child.time_offset
            layers[child.name] = _report(child, presentation(child, T, local))
            for sub in child.sublayers:
                visit(sub, local)

        for child in layer.sublayers:
            visit(child, layer_local_time(layer, T) + inst["timeShift"])
        out.append({"index": k, "transform": list(inst["transform"]), "color": inst["color"],
                    "timeShift": inst["timeShift"], "layers": layers})
    return out


def _report(layer: Layer, state: dict) -> dict:
    return _subclass_report(layer, state) | {
        "position": list(state["position"]),
        "bounds": list(state["bounds"]),
        "anchorPoint": list(state["anchorPoint"]),
        "opacity": state["opacity"][0],
        "zPosition": state["zPosition"][0],
        "transform": list(state["transform"]),
        "backgroundColor": list(state["backgroundColor"]),
        "hidden": bool(state["hidden"]),
        "cornerRadius": state["cornerRadius"][0],
        "borderWidth": state["borderWidth"][0],
    }


def _particles(layer: Layer, T: float) -> list:
    """§9: particles(at:) at the emitter layer's local time; its cells were set at media 0."""
    return emitters.particles(layer.emitter, layer_local_time(layer, T),
                              layer_local_time(layer, 0.0))


def sample_case(case: Case) -> dict:
    samples = []
    by_name = {layer.name: layer for layer in case.root.walk()}
    for T in case.times:
        states = presentation_tree(case.root, T)
        reports = {}
        for name, st in states.items():
            layer = by_name[name]
            reports[name] = _report(layer, st)
            if layer.emitter is not None:
                reports[name]["particles"] = _particles(layer, T)
            if layer.type == "replicator":
                reports[name]["instances"] = replicator_copies(layer, st, T)
        samples.append({"time": T, "layers": reports})
    hits = []
    for T, point in case.hit_tests:
        states = presentation_tree(case.root, T)
        hits.append({"time": T, "point": list(point), "layer": hit_test(case.root, states, point)})
    return {"samples": samples, "hits": hits}


def sample(doc) -> dict:
    """Evaluate a parsed JSON document (dict) and return the sample output."""
    return sample_case(parse_case(doc))


def sample_text(text: str) -> dict:
    try:
        doc = load_json(text)
    except ValueError as err:
        raise SpecError("$", f"malformed JSON: {err}") from None
    return sample(doc)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: oracle.py FILE|-", file=sys.stderr)
        return 2
    text = sys.stdin.read() if argv[1] == "-" else open(argv[1], encoding="utf-8").read()
    try:
        out = sample_text(text)
    except SpecError as err:
        print(f"oracle: {err}", file=sys.stderr)
        return 2
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
