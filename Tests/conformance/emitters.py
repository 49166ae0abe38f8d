"""The oracle's emitter layers: docs/engine-model.md §9, written from that page alone.

`particles(emitter, t, cells_set_at)` lists the particles of an emitter layer at its local time
t, as `layercast sample` reports them (docs/sample.md); `births_bound` and `too_fast` are the
sample's limits on an emitter layer.  Everything is a pure function of the parameters, which a
sample sets once, at media time 0: each cell has one rate for all time.  Section numbers refer
to docs/engine-model.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

FLOAT_MAX = 3.4028234663852886e38
WORD = (1 << 64) - 1
INVERSE_GOLDEN_RATIO = 0.6180339887498949  # 1/Φ, the sub-cell phase step (§9.2)

# The draws of a particle, by number (§9.2, Randomness).
LIFETIME, VELOCITY, CONE_COSINE, CONE_TURN, SPIN, SCALE = 1, 2, 3, 4, 5, 6
RED = 7  # 7–10: red, green, blue, alpha
SHAPE_A, SHAPE_B, SHAPE_C = 11, 12, 13


def single(x: float) -> float:
    """A value assigned to a Float property: rounded to single precision (§9.1)."""
    return float(np.float32(x))


# ---- randomness (§9.2) -------------------------------------------------------------------


def finalise(z: int) -> int:
    """SplitMix64's finaliser on a 64-bit word."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & WORD
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & WORD
    return z ^ (z >> 31)


def hash2(a: int, b: int) -> int:
    return finalise(a ^ finalise((b + 0x9E3779B97F4A7C15) & WORD))


def unit(h: int) -> float:
    """u(h) = ⌊h / 2¹¹⌋ · 2⁻⁵³, in [0, 1)."""
    return (h >> 11) * 2.0 ** -53


# ---- the model ---------------------------------------------------------------------------


@dataclass
class Cell:
    name: Optional[str] = None
    enabled: bool = True
    birth_rate: float = 0.0        # Float
    lifetime: float = 0.0          # Float
    lifetime_range: float = 0.0    # Float
    velocity: float = 0.0
    velocity_range: float = 0.0
    acceleration: tuple = (0.0, 0.0, 0.0)
    longitude: float = 0.0
    latitude: float = 0.0
    emission_range: float = 0.0
    spin: float = 0.0
    spin_range: float = 0.0
    scale: float = 1.0
    scale_range: float = 0.0
    scale_speed: float = 0.0
    color: Optional[tuple] = (1.0, 1.0, 1.0, 1.0)   # None: opaque white
    color_range: tuple = (0.0, 0.0, 0.0, 0.0)       # Floats
    color_speed: tuple = (0.0, 0.0, 0.0, 0.0)       # Floats
    contents: Optional[str] = None
    begin_time: float = 0.0
    duration: float = math.inf
    cells: list = field(default_factory=list)


@dataclass
class Emitter:
    position: tuple = (0.0, 0.0)
    z_position: float = 0.0
    size: tuple = (0.0, 0.0)
    depth: float = 0.0
    shape: str = "point"
    mode: str = "volume"
    birth_rate: float = 1.0   # the five multipliers are Floats
    lifetime: float = 1.0
    velocity: float = 1.0
    scale: float = 1.0
    spin: float = 1.0
    seed: int = 0
    max_particles: int = 5000
    cells: list = field(default_factory=list)


def rate(cell: Cell, em: Emitter) -> float:
    """r = cell.birthRate × layer.birthRate per source, 0 when disabled or negative (§9.2)."""
    return max(0.0, cell.birth_rate * em.birth_rate) if cell.enabled else 0.0


def longest_lifetime(cell: Cell, em: Emitter) -> float:
    return max(0.0, em.lifetime * (cell.lifetime + abs(cell.lifetime_range) / 2))


def reach(cell: Cell, em: Emitter) -> float:
    """How long after its birth a particle of `cell` or a descendant can be alive."""
    return longest_lifetime(cell, em) + max((reach(c, em) for c in cell.cells), default=0.0)


def window_end(begin: float, duration: float) -> float:
    """Emission ends `duration` after it begins when that is finite and > 0 (§9.2)."""
    return begin + duration if 0 < duration < math.inf else math.inf


# ---- where particles are born (§9.3) --------------------------------------------------------


def _vertex(vertices: list, a: float) -> np.ndarray:
    return vertices[min(int(a * len(vertices)), len(vertices) - 1)]


def _along(edges: list, a: float) -> np.ndarray:
    lengths = [float(np.linalg.norm(q - p)) for p, q in edges]
    distance = a * sum(lengths)
    for (p, q), length in zip(edges, lengths):
        if length <= 0:
            continue
        if distance < length:
            return p + (q - p) * (distance / length)
        distance -= length
    return edges[0][0]


def _cuboid_face(centre: np.ndarray, half: np.ndarray, a: float, b: float, c: float) -> np.ndarray:
    weights = []
    for axis in range(3):
        other = half[(axis + 1) % 3] * half[(axis + 2) % 3]
        weights += [other, other]  # the − face, then the + face
    pick = a * sum(weights)
    face = 0
    while face < 5 and pick >= weights[face]:
        pick -= weights[face]
        face += 1
    axis = face // 2
    offset = np.zeros(3)
    offset[axis] = -1.0 if face % 2 == 0 else 1.0
    offset[(axis + 1) % 3] = 2 * b - 1
    offset[(axis + 2) % 3] = 2 * c - 1
    return centre + offset * half


def birth_place(em: Emitter, a: float, b: float, c: float) -> np.ndarray:
    centre = np.array([em.position[0], em.position[1], em.z_position])
    half = np.array([em.size[0], em.size[1], em.depth]) / 2
    w = em.size[0]
    shape, mode = em.shape, em.mode
    if shape == "line":
        ends = [centre - [half[0], 0, 0], centre + [half[0], 0, 0]]
        if mode == "points":
            return _vertex(ends, a)
        return centre + np.array([(2 * a - 1) * half[0], 0.0, 0.0])
    if shape == "rectangle":
        corners = [centre + np.array([sx, sy, 0.0]) * half
                   for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        if mode == "points":
            return _vertex(corners, a)
        if mode == "outline":
            return _along([(corners[i], corners[(i + 1) % 4]) for i in range(4)], a)
        return centre + np.array([(2 * a - 1) * half[0], (2 * b - 1) * half[1], 0.0])
    if shape == "cuboid":
        corners = [centre + np.array([1.0 if i & bit else -1.0 for bit in (1, 2, 4)]) * half
                   for i in range(8)]
        if mode == "points":
            return _vertex(corners, a)
        if mode == "outline":
            edges = [(corners[i], corners[i + m]) for i in range(8) for m in (1, 2, 4)
                     if not i & m]
            return _along(edges, a)
        if mode == "surface":
            return _cuboid_face(centre, half, a, b, c)
        return centre + np.array([2 * a - 1, 2 * b - 1, 2 * c - 1]) * half
    if shape == "circle":
        if mode == "points":
            return centre
        radius = w if mode == "outline" else w * math.sqrt(b)
        angle = 2 * math.pi * a
        return centre + radius * np.array([math.cos(angle), math.sin(angle), 0.0])
    if shape == "sphere":
        if mode == "points":
            return centre
        z = 2 * b - 1
        ring = math.sqrt(1 - z * z)
        angle = 2 * math.pi * a
        direction = np.array([math.cos(angle) * ring, math.sin(angle) * ring, z])
        radius = w * math.cbrt(c) if mode == "volume" else w
        return centre + radius * direction
    return centre  # point, and unknown shapes


# ---- a particle's state (§9.4) -------------------------------------------------------------


def direction(cell: Cell, u3: float, u4: float) -> np.ndarray:
    lon, lat = cell.longitude, cell.latitude
    axis = np.array([math.cos(lat) * math.cos(lon), math.cos(lat) * math.sin(lon), math.sin(lat)])
    across = np.array([-math.sin(lon), math.cos(lon), 0.0])
    up = np.array([-math.sin(lat) * math.cos(lon), -math.sin(lat) * math.sin(lon), math.cos(lat)])
    cone = min(max(cell.emission_range, 0.0), math.pi)
    cos_theta = 1 - u3 * (1 - math.cos(cone))
    sin_theta = math.sqrt(max(0.0, 1 - cos_theta * cos_theta))
    psi = 2 * math.pi * u4
    return cos_theta * axis + sin_theta * (math.cos(psi) * across + math.sin(psi) * up)


@dataclass
class Particle:
    id: int
    cell: Cell
    path: list
    birth: float
    lifetime: float
    origin: np.ndarray
    velocity: np.ndarray
    spin: float
    scale: float
    scale_speed: float
    color: tuple

    def position(self, age: float) -> np.ndarray:
        return self.origin + self.velocity * age + np.array(self.cell.acceleration) * (0.5 * age * age)

    def report(self, t: float) -> dict:
        age = t - self.birth
        p = self.position(age)
        cell = self.cell
        return {
            "id": str(self.id),
            "cellName": cell.name,
            "cellPath": list(self.path),
            "contents": cell.contents,
            "position": [float(p[0]), float(p[1])],
            "zPosition": float(p[2]),
            "scale": max(0.0, self.scale + self.scale_speed * age),
            "rotation": self.spin * age,
            "color": [min(1.0, max(0.0, c + s * age)) for c, s in zip(self.color, cell.color_speed)],
            "birthTime": self.birth,
            "age": age,
            "lifetime": self.lifetime,
        }


def born(em: Emitter, cell: Cell, path: list, pid: int, birth: float,
         origin: Optional[np.ndarray]) -> Particle:
    key = hash2(em.seed, pid)

    def draw(n: int) -> float:
        return unit(hash2(key, n))

    def spread(mean: float, width: float, n: int) -> float:
        return mean + width * (draw(n) - 0.5)

    if origin is None:
        origin = birth_place(em, draw(SHAPE_A), draw(SHAPE_B), draw(SHAPE_C))
    speed = em.velocity * spread(cell.velocity, cell.velocity_range, VELOCITY)
    base = cell.color if cell.color is not None else (1.0, 1.0, 1.0, 1.0)
    return Particle(
        id=pid, cell=cell, path=path, birth=birth,
        lifetime=em.lifetime * max(0.0, spread(cell.lifetime, cell.lifetime_range, LIFETIME)),
        origin=origin,
        velocity=speed * direction(cell, draw(CONE_COSINE), draw(CONE_TURN)),
        spin=em.spin * spread(cell.spin, cell.spin_range, SPIN),
        scale=em.scale * spread(cell.scale, cell.scale_range, SCALE),
        scale_speed=em.scale * cell.scale_speed,
        color=tuple(spread(base[i], cell.color_range[i], RED + i) for i in range(4)),
    )


# ---- births (§9.2) and what particles(at:) returns (§9.5) -----------------------------------


def _emit(em: Emitter, cell: Cell, path: list, source: int, parent: Optional[Particle],
          start: float, end: float, phase: float, t: float, cells_set_at: float, out: list):
    """Births of `cell` from one source over the window (start, end], as seen at t."""
    r = rate(cell, em)
    if r <= 0 or not start < end:
        return
    last = math.floor(phase + r * (min(t, end) - start))
    # Births earlier than t − reach have no particle, nor descendant, alive at t: skip them
    # (with a margin, so that rounding never skips one that matters).
    horizon = reach(cell, em)
    first = max(1, math.floor(phase + r * (t - horizon - start)) - 1)
    for k in range(first, last + 1):
        birth = start + (k - phase) / r
        pid = hash2(source, k)
        origin = None if parent is None else parent.position(birth - parent.birth)
        particle = born(em, cell, path, pid, birth, origin)
        age = t - birth
        if cell.contents is not None and 0 <= age < particle.lifetime:
            out.append(particle)
        for j, sub in enumerate(cell.cells):
            sub_phase = math.fmod(unit(hash2(source, j)) + k * INVERSE_GOLDEN_RATIO, 1.0)
            begin = birth + sub.begin_time
            _emit(em, sub, path + [j], hash2(pid, j), particle,
                  max(begin, cells_set_at),
                  min(birth + particle.lifetime, window_end(begin, sub.duration)),
                  sub_phase, t, cells_set_at, out)


def particles(em: Emitter, t: float, cells_set_at: float) -> list:
    """The visible particles alive at local time t, oldest first by (birth time, id), at most
    maxParticles (the newest).  `cells_set_at`: the local time `emitterCells` was set."""
    found: list = []
    for i, cell in enumerate(em.cells):
        _emit(em, cell, [i], hash2(0, i), None, max(0.0, cell.begin_time),
              window_end(cell.begin_time, cell.duration), 0.0, t, cells_set_at, found)
    found.sort(key=lambda p: (p.birth, p.id))
    kept = found[max(0, len(found) - em.max_particles):] if em.max_particles > 0 else []
    return [p.report(t) for p in kept]


# ---- the sample's limits (docs/sample.md, Errors) -------------------------------------------


def too_fast(em: Emitter, path: str):
    """The path of the first cell (depth first) whose rate exceeds 1e6 per second, or None."""
    def walk(cells, at):
        for i, cell in enumerate(cells):
            here = f"{at}[{i}]"
            if rate(cell, em) > 1e6:
                return f"{here}.birthRate"
            found = walk(cell.cells, f"{here}.emitterCells")
            if found:
                return found
        return None
    return walk(em.cells, f"{path}.emitterCells")


def births_bound(em: Emitter) -> float:
    """The births one evaluation may need, by the sample's formula."""
    def bound(cell: Cell, window: Optional[float]) -> float:
        r = rate(cell, em)
        if r == 0:
            return 0.0
        span = reach(cell, em)
        if window is not None:
            span = min(span, window + max(0.0, -cell.begin_time))
        life = longest_lifetime(cell, em)
        return (r * span + 1) * (1 + sum(bound(c, life) for c in cell.cells))
    return sum(bound(c, None) for c in em.cells)
