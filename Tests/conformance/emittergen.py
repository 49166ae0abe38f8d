"""Seeded random emitter layers for the conformance cases (scenegen.py).

`add_emitter(rng, root)` turns one plain layer of a generated case into a CAEmitterLayer with
random shape, mode, multipliers, seed and a cap small enough to bite sometimes, and 1–3 cells
(visible ones, invisible containers with sub-cells, nested up to two levels, beginTime/duration
windows, disabled cells, every mean-and-range and speed property), and gives the layer timing
(beginTime, speed, timeOffset: warm starts, and sub-cells that start late).  `emitter_times`
lists the media times at its emission boundaries.  Rates are dyadic or short decimals (which
single precision rounds), so births fall both exactly on and between sampled times.

What docs/engine-model.md §9 leaves open, or the sample cannot express, is avoided (marked
"avoid:"): rate and parameter changes over time (the sample sets everything at media time 0),
a cell listed inside its own sub-cells (JSON cells are a tree), and evaluations so large that
the sample refuses them.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import emitters
import oracle

SHAPES = ("point", "line", "rectangle", "cuboid", "circle", "sphere")
MODES = ("points", "outline", "surface", "volume")
RENDER_MODES = ("unordered", "oldestFirst", "oldestLast", "backToFront", "additive")
RATES = (0.5, 1, 2, 4, 8, 16, 0.25, 3, 5, 0.35, 1.5, 7.5)
IMAGES = ("snowflake", "star", "petal", "")
BIRTHS_PER_TIME = 250  # keeps the oracle quick; the sample's own limit is far above


def _dyadic(rng: random.Random, lo: float, hi: float, step: float = 1 / 16) -> float:
    return rng.randint(math.ceil(lo / step), math.floor(hi / step)) * step


def _r3(x: float) -> float:
    return round(x, 3)


def cell(rng: random.Random, depth: int, serial: list) -> dict:
    """A random CELL; cells at depth 0 are the layer's own."""
    serial[0] += 1
    c: dict = {}
    if rng.random() < 0.85:
        c["name"] = f"c{serial[0]}"
    c["birthRate"] = rng.choice(RATES) if depth == 0 else rng.choice((0.5, 1, 2, 3, 4, 1.5))
    c["lifetime"] = rng.choice((0.25, 0.5, 1, 1.5, 2, 3, 0.35, 0.7)) if depth == 0 else \
        rng.choice((0.5, 1, 2, 0.75))
    if rng.random() < 0.3:
        c["lifetimeRange"] = rng.choice((0.5, 1, 0.2))
    if rng.random() < 0.8:
        c["velocity"] = _r3(rng.uniform(-60, 120))
    if rng.random() < 0.4:
        c["velocityRange"] = _r3(rng.uniform(0, 60))
    for axis in "xyz":
        if rng.random() < 0.25:
            c[f"{axis}Acceleration"] = _r3(rng.uniform(-40, 40))
    if rng.random() < 0.5:
        c["emissionLongitude"] = _r3(rng.uniform(-math.pi, math.pi))
    if rng.random() < 0.25:
        c["emissionLatitude"] = _r3(rng.uniform(-1.5, 1.5))
    if rng.random() < 0.5:
        c["emissionRange"] = _r3(rng.uniform(-0.2, 3.5))  # clamped to 0…π
    if rng.random() < 0.3:
        c["spin"] = _r3(rng.uniform(-3, 3))
    if rng.random() < 0.3:
        c["spinRange"] = _r3(rng.uniform(0, 2))
    if rng.random() < 0.3:
        c["scale"] = _r3(rng.uniform(0.2, 2))
    if rng.random() < 0.3:
        c["scaleRange"] = _r3(rng.uniform(0, 0.5))
    if rng.random() < 0.25:
        c["scaleSpeed"] = _r3(rng.uniform(-0.8, 0.5))  # clamped at 0 when it shrinks past it
    roll = rng.random()
    if roll < 0.5:
        c["color"] = [_r3(rng.uniform(0, 1)) for _ in range(4)]
    elif roll < 0.55:
        c["color"] = None  # opaque white
    for channel in ("red", "green", "blue", "alpha"):
        if rng.random() < 0.2:
            c[f"{channel}Range"] = _r3(rng.uniform(0, 0.6))
        if rng.random() < 0.2:
            c[f"{channel}Speed"] = _r3(rng.uniform(-0.4, 0.3))  # clamped to 0…1
    if rng.random() < 0.05:
        c["enabled"] = False
    if depth == 0:
        if rng.random() < 0.2:
            c["beginTime"] = _dyadic(rng, -1, 3)
        if rng.random() < 0.2:
            c["duration"] = _dyadic(rng, 0, 4)
    else:
        if rng.random() < 0.2:
            c["beginTime"] = _dyadic(rng, -0.25, 0.5)  # negative: before the parent's birth
        if rng.random() < 0.15:
            c["duration"] = _dyadic(rng, 0, 1)
    container = depth < 2 and rng.random() < (0.3 if depth == 0 else 0.15)
    if not container or rng.random() < 0.3:
        c["contents"] = rng.choice(IMAGES)
    elif rng.random() < 0.2:
        c["contents"] = None
    if container:
        c["emitterCells"] = [cell(rng, depth + 1, serial) for _ in range(rng.randint(1, 2))]
    return c


def emitter_properties(rng: random.Random) -> dict:
    e: dict = {"type": "emitter"}
    if rng.random() < 0.9:
        e["emitterPosition"] = [_dyadic(rng, 0, 200, 0.25), _dyadic(rng, 0, 200, 0.25)]
    if rng.random() < 0.2:
        e["emitterZPosition"] = _dyadic(rng, -20, 20, 0.25)
    if rng.random() < 0.75:
        e["emitterShape"] = rng.choice(SHAPES)
    if rng.random() < 0.75:
        e["emitterMode"] = rng.choice(MODES)
    if rng.random() < 0.7:
        e["emitterSize"] = [_dyadic(rng, 0, 160, 0.25), _dyadic(rng, 0, 120, 0.25)]
    if rng.random() < 0.4:
        e["emitterDepth"] = _dyadic(rng, 0, 60, 0.25)
    for key, choices in (("birthRate", (0.5, 2, 1.5, 0.3)), ("lifetime", (0.5, 1.25, 0.7, 2)),
                         ("velocity", (0.5, 2, 1.5, -1)), ("scale", (0.5, 2, 0.8)),
                         ("spin", (0.5, 2, -1))):
        if rng.random() < 0.2:
            e[key] = rng.choice(choices)
    if rng.random() < 0.8:
        e["seed"] = rng.randrange(2 ** 32)
    if rng.random() < 0.4:
        e["maxParticles"] = rng.choice((0, 1, 3, 8, 20, 40))
    if rng.random() < 0.2:
        e["renderMode"] = rng.choice(RENDER_MODES)
    serial = [0]
    e["emitterCells"] = [cell(rng, 0, serial) for _ in range(rng.choices((1, 2, 3), (5, 3, 1))[0])]
    return e


def _plain_layers(layer: dict) -> list:
    found = [layer] if layer.get("type", "layer") == "layer" else []
    for child in layer.get("sublayers", []):
        found += _plain_layers(child)
    return found


def _small_enough(layer: dict) -> bool:
    return emitters.births_bound(oracle.parse_emitter(layer, "emitter")) <= BIRTHS_PER_TIME


def add_emitter(rng: random.Random, root: dict) -> bool:
    """Makes a random plain layer of the case an emitter layer; False when there is none."""
    candidates = _plain_layers(root)
    if not candidates:
        return False
    layer = rng.choice(candidates)
    for _ in range(20):
        props = emitter_properties(rng)
        if _small_enough(props):  # avoid: evaluations the sample (or the oracle) finds too big
            break
    else:
        props = {"type": "emitter"}
    layer.update(props)
    if rng.random() < 0.35:
        layer["timeOffset"] = rng.choice((_dyadic(rng, 0, 6), 100.0, 1000.0))  # warm starts
    if rng.random() < 0.25:
        layer["beginTime"] = _dyadic(rng, -2, 2)
    if rng.random() < 0.25:
        layer["speed"] = rng.choice((0.5, 2.0, 0.75, 1.25))
    return True


def emitter_times(root: oracle.Layer, media_time, exact_media_time) -> list:
    """Media times at each emitter layer's boundaries: cell windows, first births, first
    deaths, and the time its cells were set (exact when that is exact in IEEE arithmetic,
    else bracketed at ±1e-4 s)."""
    out = []
    for layer in root.walk():
        em = layer.emitter
        if em is None:
            continue
        chain = []
        node = layer
        while node is not None:
            chain.append(node)
            node = node.parent
        if any(l.speed <= 0 for l in chain):
            continue
        locals_ = [oracle.layer_local_time(layer, 0.0)]
        for c in em.cells:
            start = max(0.0, c.begin_time)
            end = emitters.window_end(c.begin_time, c.duration)
            locals_.append(start)
            if math.isfinite(end):
                locals_.append(end)
            r = emitters.rate(c, em)
            if r > 0:
                first = start + 1 / r
                locals_ += [first, first + em.lifetime * c.lifetime]
        for local in locals_:
            T = media_time(layer, local)
            if not math.isfinite(T) or T < 0 or T > 20:
                continue
            if exact_media_time(layer, Fraction(local)) == Fraction(T) and \
                    oracle.layer_local_time(layer, T) == local:
                out.append(T)
            else:
                out += [T - 1e-4, T + 1e-4]
    return [t for t in out if t >= 0]
