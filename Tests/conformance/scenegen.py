#!/usr/bin/env python3
"""Seeded random generator of `layercast sample` inputs for the conformance test.

    python3 scenegen.py SEED            # prints the case as JSON
    python3 scenegen.py SEED --expect   # prints the oracle's answer for it instead

A case is a tree of 1–6 layers (plain, text and transform layers, random geometry, some
3D transforms, some perspective sublayerTransforms) with random animations of every type,
key path, timing function, calculation mode and fill mode, sampled at exact timing
boundaries (begin, end of a cycle, end of the active duration, offset wrap points) and at
random times, plus hit tests at points inside, near and outside the layers.  About 30 % of
the cases turn one plain layer into an emitter layer (emittergen.py) and add the media times
of its emission boundaries.

The generator steers clear of the places where docs/engine-model.md leaves the answer open
(see README.md); every such restriction is marked "avoid:" below.  Timing values are dyadic
(multiples of 1/16) and boundary times are emitted exactly only when every speed on the way
is a power of two, so that a boundary lands exactly on the boundary in IEEE arithmetic;
otherwise the boundary is bracketed at ±1e-4 s.
"""

from __future__ import annotations

import json
import math
import os
import random
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import emittergen  # noqa: E402
import kindgen  # noqa: E402
import oracle  # noqa: E402

POW2_SPEEDS = (0.25, 0.5, 1.0, 2.0)
EMITTER_SHARE = 0.3  # of the cases have an emitter layer (emittergen.py)
OTHER_SPEEDS = (0.75, 1.25, 1.5, 3.0)
NAMED_TIMING = ("linear", "easeIn", "easeOut", "easeInEaseOut", "default")

XFORM_SUBPATHS = ("transform.rotation", "transform.rotation.x", "transform.rotation.y",
                  "transform.rotation.z", "transform.scale", "transform.scale.x",
                  "transform.scale.y", "transform.scale.z", "transform.translation",
                  "transform.translation.x", "transform.translation.y",
                  "transform.translation.z")
KEYPATH_WEIGHTS = [
    ("position", 10), ("position.x", 4), ("position.y", 4), ("anchorPoint", 3),
    ("anchorPoint.x", 1), ("anchorPoint.y", 1), ("bounds", 5), ("bounds.origin", 2),
    ("bounds.size", 4), ("opacity", 8), ("zPosition", 4), ("cornerRadius", 3),
    ("borderWidth", 3), ("backgroundColor", 6), ("hidden", 3), ("transform", 10),
    ("sublayerTransform", 3),
] + [(p, 1) for p in XFORM_SUBPATHS]


def dyadic(rng: random.Random, lo: float, hi: float, step: float = 1 / 16) -> float:
    return rng.randint(math.ceil(lo / step), math.floor(hi / step)) * step


def is_pow2(x: float) -> bool:
    return x > 0 and math.frexp(x)[0] == 0.5


def r3(x: float) -> float:
    return round(x, 3)


class Generator:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.keypath_weights = KEYPATH_WEIGHTS  # kindgen.py widens it for its layer types

    # ---- values ------------------------------------------------------------------------

    def timing_function(self, overshoot: bool = True):
        rng = self.rng
        if rng.random() < 0.55:
            return rng.choice(NAMED_TIMING)
        lo, hi = (-0.4, 1.4) if overshoot else (0.0, 1.0)
        return [r3(rng.uniform(0, 1)), r3(rng.uniform(lo, hi)),
                r3(rng.uniform(0, 1)), r3(rng.uniform(lo, hi))]

    def transform(self, perspective: bool = False, one_sided: bool = False):
        """A random transform: z rotations, tilts about x/y, scales, translations, skews."""
        rng = self.rng
        m = oracle.np.identity(4)
        if perspective:
            p = oracle.np.identity(4)
            p[2, 3] = -1 / rng.choice((300, 500, 800, 1000))
            m = m @ p
        for _ in range(rng.randint(1, 3)):
            op = rng.choice(("rz", "rz", "rxy", "s", "t", "t", "k"))
            if op == "rz":
                m = m @ oracle.rotation(rng.uniform(-math.pi, math.pi), "z")
            elif op == "rxy":
                m = m @ oracle.rotation(self.tilt(one_sided), rng.choice("xy"))
            elif op == "s":
                s = [rng.uniform(0.5, 1.5) for _ in range(3)]
                m = m @ oracle.scaling(*s)
                if rng.random() < 0.15:
                    # A reflection.  avoid: reflections whose decomposed rotation is a half
                    # turn (plain 2D flips, a flip and one tilt): its quaternion is orthogonal
                    # to those of every z rotation or identity, so "the short way" is
                    # undefined.  A flip, a turn about z and a tilt make a generic rotation.
                    m = m @ oracle.scaling(-1, 1, 1)
                    m = m @ oracle.rotation(rng.choice((-1, 1)) * rng.uniform(0.4, 2.6), "z")
                    m = m @ oracle.rotation(rng.choice((-1, 1)) * rng.uniform(0.4, 1.0),
                                            rng.choice("xy"))
            elif op == "t":
                m = m @ oracle.translation(rng.uniform(-40, 40), rng.uniform(-40, 40),
                                           rng.uniform(-30, 30))
            else:
                k = oracle.np.identity(4)
                k[1, 0] = rng.uniform(-0.5, 0.5)
                m = m @ k
        return [round(float(x), 6) for x in m.reshape(16)]

    def tilt(self, one_sided: bool = False) -> float:
        """A rotation angle about x or y; one-sided layers often turn their back."""
        rng = self.rng
        if not one_sided:
            return rng.uniform(-1.2, 1.2)
        if rng.random() < 0.5:
            return rng.uniform(-0.6, 0.6)
        return rng.choice((-1, 1)) * rng.uniform(2.6, math.pi)

    def value(self, keypath: str, layer: dict, narrow: bool = False):
        """A random value of the key path's shape, near the layer's model value."""
        rng = self.rng
        if keypath in ("position", "bounds.origin"):
            base = layer.get("position", [0, 0]) if keypath == "position" else [0, 0]
            spread = 120 if keypath == "position" else 20
            return [r3(base[0] + rng.uniform(-spread, spread)),
                    r3(base[1] + rng.uniform(-spread, spread))]
        if keypath == "position.x":
            return r3(layer.get("position", [0, 0])[0] + rng.uniform(-120, 120))
        if keypath == "position.y":
            return r3(layer.get("position", [0, 0])[1] + rng.uniform(-120, 120))
        if keypath == "anchorPoint":
            return [r3(rng.uniform(0, 1)), r3(rng.uniform(0, 1))]
        if keypath in ("anchorPoint.x", "anchorPoint.y"):
            return r3(rng.uniform(0, 1))
        if keypath == "bounds":
            return [r3(rng.uniform(-20, 20)), r3(rng.uniform(-20, 20)),
                    r3(rng.uniform(40, 220)), r3(rng.uniform(40, 220))]
        if keypath == "bounds.size":
            return [r3(rng.uniform(40, 220)), r3(rng.uniform(40, 220))]
        if keypath == "opacity":
            return r3(rng.uniform(0.15, 0.85) if narrow else rng.uniform(0, 1))
        if keypath == "zPosition":
            return r3(rng.uniform(-40, 40))
        if keypath == "cornerRadius":
            return r3(rng.uniform(5, 30))
        if keypath == "borderWidth":
            return r3(rng.uniform(2, 10))
        if keypath == "backgroundColor":
            lo, hi = (0.15, 0.85) if narrow else (0, 1)
            return [r3(rng.uniform(lo, hi)) for _ in range(4)]
        if keypath == "hidden":
            return rng.random() < 0.5
        if keypath == "transform":
            if rng.random() < 0.04:  # exactly singular: interpolation switches at u = 0.5
                return [0, 0, 0, 0, 0, r3(rng.uniform(0.5, 1.5)), 0, 0, 0, 0, 1, 0,
                        r3(rng.uniform(-40, 40)), r3(rng.uniform(-40, 40)), 0, 1]
            return self.transform(perspective=rng.random() < 0.15)
        if keypath == "sublayerTransform":
            return self.transform(perspective=rng.random() < 0.6)
        if keypath.startswith("transform.rotation"):
            if keypath[-2:] in (".x", ".y"):
                return r3(self.tilt())
            return r3(rng.uniform(-math.pi, math.pi))
        if keypath.startswith("transform.scale"):
            return r3(rng.uniform(0.5, 1.6))
        if keypath == "transform.translation":
            return [r3(rng.uniform(-60, 60)), r3(rng.uniform(-60, 60))]
        if keypath.startswith("transform.translation"):
            return r3(rng.uniform(-60, 60))
        raise AssertionError(keypath)

    def by_value(self, keypath: str, layer: dict):
        rng = self.rng
        if keypath in ("transform", "sublayerTransform"):
            return self.transform()
        if keypath in ("bounds", "bounds.size"):
            size = [r3(rng.uniform(-15, 30)), r3(rng.uniform(-15, 30))]
            return ([r3(rng.uniform(-10, 10)), r3(rng.uniform(-10, 10))] + size
                    if keypath == "bounds" else size)
        if keypath.startswith("transform.scale"):
            return r3(rng.uniform(-0.3, 0.5))
        v = self.value(keypath, layer)
        if isinstance(v, list):
            return [r3(x * 0.3) for x in v] if keypath != "position" else \
                [r3(rng.uniform(-60, 60)), r3(rng.uniform(-60, 60))]
        if keypath in ("position.x", "position.y"):
            return r3(rng.uniform(-60, 60))
        return r3(v * 0.3)

    # ---- animations --------------------------------------------------------------------

    def timing_fields(self, anim: dict, in_group: bool, group_duration: float = 0.0):
        rng = self.rng
        if in_group:
            if rng.random() < 0.7:
                anim["duration"] = dyadic(rng, 0.125, max(0.125, group_duration))
            if rng.random() < 0.4:
                anim["beginTime"] = dyadic(rng, 0, group_duration * 0.75)
        else:
            if rng.random() < 0.9:
                anim["duration"] = dyadic(rng, 0.125, 3)
            if rng.random() < 0.2:
                anim["beginTime"] = dyadic(rng, 0.0625, 1.5)
        if rng.random() < 0.3:
            anim["speed"] = rng.choice(POW2_SPEEDS if rng.random() < 0.7 else OTHER_SPEEDS)
        if rng.random() < 0.2:
            anim["timeOffset"] = dyadic(rng, 0, 2)
        roll = rng.random()
        if roll < 0.25:
            anim["repeatCount"] = rng.choice((0.5, 1, 1.25, 1.5, 2, 2.5, 3))
        elif roll < 0.33:
            anim["repeatCount"] = "inf"
        elif roll < 0.42:
            anim["repeatDuration"] = dyadic(rng, 0.25, 4)
        if rng.random() < 0.3:
            anim["autoreverses"] = True
        fill = rng.choice(("removed", "forwards", "backwards", "both", None))
        if fill is not None:
            anim["fillMode"] = fill
        if rng.random() < 0.5:
            anim["removedOnCompletion"] = rng.random() < 0.3

    def property_animation(self, layer: dict, kind: str, in_group: bool,
                           group_duration: float) -> dict:
        rng = self.rng
        weights = self.keypath_weights
        keypath = rng.choices([k for k, _ in weights], [w for _, w in weights])[0]
        if kind == "spring" and keypath == "hidden":
            keypath = rng.choice(("position", "transform", "bounds.size", "opacity"))
        anim: dict = {"type": kind, "keyPath": keypath}
        self.timing_fields(anim, in_group, group_duration)
        is_bool = keypath == "hidden"
        is_xform_sub = oracle.KEYPATHS[keypath].target[0] == "xform"
        fully_specified = True
        if kind in ("basic", "spring"):
            if is_bool:
                sets = ["from_to", "from", "to"]
            elif is_xform_sub:
                # avoid: the spec leaves `cur` of a transform.* sub-path open
                sets = ["from_to", "from_by", "by_to"]
            else:
                sets = ["from_to"] * 4 + ["from_by", "by_to", "from", "to", "to", "by", "none"]
            which = rng.choice(sets)
            if which in ("from_to", "from_by", "from"):
                anim["fromValue"] = self.value(keypath, layer)
            if which in ("from_to", "by_to", "to"):
                anim["toValue"] = self.value(keypath, layer)
            if which in ("from_by", "by_to", "by"):
                anim["byValue"] = self.by_value(keypath, layer)
            fully_specified = which in ("from_to", "from_by", "by_to")
            if rng.random() < 0.6:
                anim["timingFunction"] = self.timing_function()
        else:
            mode = rng.choice(("linear", "discrete") if is_bool else
                              ("linear", "linear", "discrete", "paced", "cubic", "cubicPaced"))
            n = rng.choices((0, 1, 2, 3, 4, 5), (2, 5, 25, 30, 25, 13))[0]
            narrow = mode in ("cubic", "cubicPaced")  # splines overshoot a little
            anim["values"] = [self.value(keypath, layer, narrow) for _ in range(n)]
            if mode != "linear" or rng.random() < 0.5:
                anim["calculationMode"] = mode
            paced = mode in ("paced", "cubicPaced")
            transform_paced = paced and keypath in ("transform", "sublayerTransform")
            if rng.random() < 0.5 and n > 0 and not transform_paced:
                count = n + 1 if (mode == "discrete" and rng.random() < 0.4) else n
                anim["keyTimes"] = self.key_times(count)
            if rng.random() < 0.4 and n >= 2 and not transform_paced:
                anim["timingFunctions"] = [self.timing_function()
                                           for _ in range(rng.randint(1, n - 1))]
            if rng.random() < 0.5:
                # avoid: paced modes with f outside 0…1 (clamping is unspecified)
                anim["timingFunction"] = self.timing_function(overshoot=not paced)
        if kind == "spring":
            anim["mass"] = r3(rng.uniform(0.5, 3))
            anim["stiffness"] = r3(rng.uniform(20, 300))
            damping = rng.uniform(2, 30)
            critical = 2 * math.sqrt(anim["mass"] * anim["stiffness"])
            if abs(damping / critical - 1) < 0.03:  # avoid: near-critical round-off
                damping = critical * 0.9
            anim["damping"] = r3(damping)
            if rng.random() < 0.6:
                anim["initialVelocity"] = r3(rng.uniform(-5, 10))
        # Additive or cumulative animations whose from or to value is `cur` follow the
        # model's text literally (cur ⊕ interp(cur, to, f); e includes cur), which is not
        # SMIL's by-animation.  Nothing is clamped: opacity and colours may leave 0…1.
        if not is_bool and rng.random() < 0.2:
            anim["additive"] = True
        if not is_bool and rng.random() < (0.2 if fully_specified else 0.1):
            anim["cumulative"] = True
        return anim

    def key_times(self, count: int) -> list:
        rng = self.rng
        if count == 0:
            return []
        picks = sorted(rng.sample(range(1, 32), max(0, count - 2)))
        inner = [k / 32 for k in picks]
        if count == 1:
            return [rng.choice((0.0, 0.25))]
        first = 0.0 if rng.random() < 0.8 else 1 / 64
        last = 1.0 if rng.random() < 0.8 else 63 / 64
        return [first] + inner + [last]

    def animation(self, layer: dict, in_group: bool = False,
                  group_duration: float = 0.0, depth: int = 0) -> dict:
        rng = self.rng
        kinds = ["basic"] * 8 + ["keyframe"] * 6 + ["spring"] * 3 + ["group"] * (3 if depth < 2 else 0)
        kind = rng.choice(kinds)
        if kind != "group":
            return self.property_animation(layer, kind, in_group, group_duration)
        anim: dict = {"type": "group"}
        self.timing_fields(anim, in_group, group_duration)
        if "duration" not in anim and not in_group and rng.random() < 0.5:
            anim["duration"] = dyadic(rng, 0.5, 3)
        d = anim.get("duration", group_duration if in_group else 0.25)
        if rng.random() < 0.4:
            anim["timingFunction"] = self.timing_function()
        anim["animations"] = [self.animation(layer, True, d, depth + 1)
                              for _ in range(rng.randint(1, 3))]
        return anim

    # ---- layers ------------------------------------------------------------------------

    def case(self) -> dict:
        rng = self.rng
        count = rng.randint(1, 6)
        layers: list[dict] = []
        parents: list[int] = []
        for i in range(count):
            layer: dict = {"name": f"L{i}"}
            if i == 0:
                parent = -1
                kind = rng.choices(("layer", "transformLayer", "text"), (8, 1, 1))[0]
            else:
                parent = rng.randrange(i)
                tls = [j for j in range(i) if layers[j].get("type") == "transformLayer"]
                if tls and rng.random() < 0.5:
                    parent = rng.choice(tls)  # transform layers get several sublayers
                kind = rng.choices(("layer", "transformLayer", "text"), (7, 2, 1))[0]
                if layers[parent].get("type") == "transformLayer" and kind == "transformLayer":
                    kind = "layer"  # avoid: the depth of a transform layer inside one
            if kind != "layer" or rng.random() < 0.2:
                layer["type"] = kind
            layers.append(layer)
            parents.append(parent)
        children = {i: [j for j in range(count) if parents[j] == i] for i in range(count)}
        leaves = {i for i in range(count) if not children[i]}
        one_sided = {i for i in leaves if layers[i].get("type") != "transformLayer"
                     and rng.random() < 0.3}

        for i, layer in enumerate(layers):
            parent = layers[parents[i]] if parents[i] >= 0 else None
            pw, ph = (400, 400) if parent is None else parent["bounds"][2:]
            if rng.random() < 0.25:
                origin = [dyadic(rng, -20, 20, 0.25), dyadic(rng, -20, 20, 0.25)]
            else:
                origin = [0, 0]
            layer["bounds"] = origin + [dyadic(rng, 20, 220, 0.25), dyadic(rng, 20, 220, 0.25)]
            layer["position"] = [dyadic(rng, 0, pw, 0.25), dyadic(rng, 0, ph, 0.25)]
            if rng.random() < 0.4:
                layer["anchorPoint"] = [rng.choice((0, 0.25, 0.5, 0.75, 1)),
                                        dyadic(rng, 0, 1, 1 / 16)]
            if rng.random() < 0.3:
                layer["zPosition"] = rng.randint(-20, 20)
            in_3d = parent is not None and parent.get("type") == "transformLayer"
            if rng.random() < (0.6 if (i in one_sided or in_3d) else 0.35):
                layer["transform"] = self.transform(perspective=rng.random() < 0.1,
                                                    one_sided=i in one_sided)
            if children[i] and rng.random() < 0.4:
                st = oracle.np.identity(4)
                st[2, 3] = -1 / rng.choice((200, 400, 500, 800, 1000))
                if rng.random() < 0.4:
                    st = oracle.rotation(self.tilt(), rng.choice("xy")) @ st
                layer["sublayerTransform"] = [round(float(x), 9) for x in st.reshape(16)]
            if rng.random() < 0.3:
                layer["opacity"] = r3(rng.uniform(0, 1))
            if rng.random() < 0.05:
                layer["hidden"] = True
            if i in one_sided:
                layer["doubleSided"] = False
            if layer.get("type") != "transformLayer" and rng.random() < 0.2:
                layer["masksToBounds"] = True  # avoid: masking by a transform layer
            if rng.random() < 0.85:
                layer["backgroundColor"] = [r3(rng.uniform(0, 1)) for _ in range(4)]
            if rng.random() < 0.2:
                layer["borderColor"] = [r3(rng.uniform(0, 1)) for _ in range(4)]
            if rng.random() < 0.3:
                layer["borderWidth"] = r3(rng.uniform(0, 5))
            if rng.random() < 0.3:
                layer["cornerRadius"] = r3(rng.uniform(0, 20))
            if rng.random() < 0.1:
                layer["beginTime"] = dyadic(rng, -1, 1)
            if rng.random() < 0.12:
                layer["speed"] = rng.choice(POW2_SPEEDS if rng.random() < 0.7 else OTHER_SPEEDS)
            if rng.random() < 0.1:
                layer["timeOffset"] = dyadic(rng, 0, 2)

        # transform-layer children get distinct depths (avoid: coplanar depth ties)
        for i in range(count):
            if layers[i].get("type") == "transformLayer":
                zs = rng.sample(range(-6, 7), len(children[i]))
                cx = layers[i]["bounds"][0] + layers[i]["bounds"][2] / 2
                cy = layers[i]["bounds"][1] + layers[i]["bounds"][3] / 2
                for j, z in zip(children[i], zs):
                    layers[j]["zPosition"] = z * 3
                    if rng.random() < 0.7:  # overlap, so that depth order decides hits
                        layers[j]["position"] = [cx + dyadic(rng, -20, 20, 0.25),
                                                 cy + dyadic(rng, -20, 20, 0.25)]

        for i, layer in enumerate(layers):
            anims = []
            for k in range(rng.choices((0, 1, 2, 3), (2, 4, 3, 2))[0]):
                if anims and rng.random() < 0.1:
                    key = rng.choice(anims)["key"]  # replaces the earlier animation
                else:
                    key = f"a{k}"
                anims.append({"key": key, **self.animation(layer)})
            if any(self.mentions(a, "backgroundColor") for a in anims):
                layer.setdefault("backgroundColor", [0.5, 0.5, 0.5, 1])
            if anims:
                layer["animations"] = anims

        for i in range(count - 1, 0, -1):
            layers[parents[i]].setdefault("sublayers", []).insert(0, layers[i])
        return {"root": layers[0]}

    @staticmethod
    def mentions(anim: dict, keypath: str) -> bool:
        if anim["type"] == "group":
            return any(Generator.mentions(a, keypath) for a in anim["animations"])
        return anim["keyPath"] == keypath


# ---- times ---------------------------------------------------------------------------------


def _layer_chain(layer: oracle.Layer) -> list:
    chain = []
    while layer is not None:
        chain.append(layer)
        layer = layer.parent
    return chain  # layer first, root last


def _media_time(layer: oracle.Layer, local: float) -> float:
    for l in _layer_chain(layer):
        local = (local - l.time_offset) / l.speed + l.begin_time
    return local


def _exact_media_time(layer: oracle.Layer, local: Fraction) -> Fraction:
    for l in _layer_chain(layer):
        local = (local - Fraction(l.time_offset)) / Fraction(l.speed) + Fraction(l.begin_time)
    return local


def _active(a: oracle.Animation, d: float) -> tuple[float, float]:
    cycle = 2 * d if a.autoreverses else d
    if a.repeat_duration > 0:
        return cycle, a.repeat_duration
    if a.repeat_count > 0:
        return cycle, a.repeat_count * cycle
    return cycle, cycle


def _targets(a: oracle.Animation, d: float) -> list[float]:
    cycle, active = _active(a, d)
    targets = [0.0, d, cycle]
    if math.isfinite(active):
        targets += [active, 2 * cycle if 2 * cycle < active else active]
        wrap = active - oracle.fmod(a.time_offset, active)
        if 0 < wrap < active:
            targets.append(wrap)
    else:
        targets.append(2 * cycle)
    return [t for t in targets if t <= 12]


def boundary_times(root: oracle.Layer) -> tuple[list[float], float]:
    """Media times at the timing boundaries of every animation, and a sampling horizon."""
    out: list[float] = []
    horizon = 1.0
    for layer in root.walk():
        chain_pow2 = all(is_pow2(l.speed) for l in _layer_chain(layer))
        if any(l.speed <= 0 for l in _layer_chain(layer)):
            continue
        now = oracle.layer_local_time(layer, 0.0)
        for a in layer.animations:
            d = a.duration if a.duration > 0 else 0.25
            b = a.begin_time if a.begin_time != 0 else now
            exact_ok = chain_pow2 and is_pow2(a.speed)
            for e in _targets(a, d):
                local = b + e / a.speed
                T = _media_time(layer, local)
                if not math.isfinite(T) or T < 0 or T > 20:
                    continue
                horizon = max(horizon, T)
                exact = (exact_ok and
                         _exact_media_time(layer, Fraction(b) + Fraction(e) / Fraction(a.speed))
                         == Fraction(T)
                         and (oracle.layer_local_time(layer, T) - b) * a.speed == e)
                if exact:
                    out.append(T)
                else:
                    out += [T - 1e-4, T + 1e-4]
            if a.type == "group":
                out += _group_child_times(layer, a, d, b)
    return [t for t in out if t >= 0], horizon


def _group_child_times(layer, g: oracle.Animation, dg: float, bg: float) -> list[float]:
    """Bracket the boundaries of a simple group's children (linear, no offset/reverse)."""
    if g.timing_function not in (None, oracle.NAMED_TIMING_FUNCTIONS["linear"]) \
            or g.autoreverses or g.time_offset != 0:
        return []
    out = []
    for c in g.children:
        if c.type == "group" or c.speed <= 0:
            continue
        dc = c.duration if c.duration > 0 else dg
        for e in _targets(c, dc):
            tg = c.begin_time + e / c.speed
            if 0 <= tg < dg:
                T = _media_time(layer, bg + tg / g.speed)
                if math.isfinite(T):
                    out += [T - 1e-4, T + 1e-4]
    return out


# ---- hit tests -----------------------------------------------------------------------------


def _is_exact(x: float) -> bool:
    return abs(x) < 2 ** 20 and (x * 64).is_integer()


def _exact_chain(layer: oracle.Layer, states: dict) -> bool:
    """True when layer and all its ancestors are placed by exact dyadic translations only."""
    for l in _layer_chain(layer):
        st = states[l.name]
        if st["transform"] != oracle.IDENTITY or st["sublayerTransform"] != oracle.IDENTITY:
            return False
        numbers = list(st["position"]) + list(st["bounds"]) + list(st["anchorPoint"])
        if not all(_is_exact(x) for x in numbers):
            return False
    return True


def _well_conditioned(layer: oracle.Layer, states: dict) -> bool:
    """avoid: points on a layer (or ancestor) squashed flat, where unprojection is ill-posed."""
    current = layer
    while current is not None:
        g, context = oracle.context_matrix(current, states)
        h = g[oracle.np.ix_([0, 1, 3], [0, 1, 3])]
        if oracle._det3(h) == 0 or oracle.np.linalg.cond(h) > 1e9:
            return False
        current = context
    return True


def hit_tests(rng: random.Random, root: oracle.Layer, times: list[float]) -> list[dict]:
    out = []
    candidates = [l for l in root.tree() if not l.is_transform_layer]  # masks are never hit
    for _ in range(rng.randint(1, 8) if candidates else 0):
        T = rng.choice(times)
        states = oracle.presentation_tree(root, T)
        roll = rng.random()
        exact = [l for l in candidates if _exact_chain(l, states)]
        in_3d = [l for l in candidates if l.parent is not None and l.parent.is_transform_layer]
        if roll < 0.3 and exact:
            layer = rng.choice(exact)
        elif in_3d and rng.random() < 0.4:
            layer = rng.choice(in_3d)  # where depth order decides
        else:
            layer = rng.choice(candidates)
        if not _well_conditioned(layer, states):
            continue
        x, y, w, h = oracle._std_rect(states[layer.name]["bounds"])
        if roll < 0.1:
            point = [round(rng.uniform(-50, 450), 4), round(rng.uniform(-50, 450), 4)]
            out.append({"time": T, "point": point})
            continue
        if roll < 0.3 and layer in exact:
            # exactly on an edge: min edges are inside, max edges outside (half-open)
            q = [rng.choice((x, x + w, x + w / 2)), rng.choice((y, y + h, y + h / 2))]
            p = oracle.to_root_space(layer, states, q)
            if p is not None:
                out.append({"time": T, "point": [p[0], p[1]]})
            continue
        if roll < 0.6:
            q = [x + rng.uniform(0.05, 0.95) * w, y + rng.uniform(0.05, 0.95) * h]
        else:  # near an edge, inside or outside
            d = rng.choice((-1, 1)) * rng.uniform(0.3, 3)
            q = [x + rng.uniform(0, 1) * w, y + rng.uniform(0, 1) * h]
            edge = rng.randrange(4)
            if edge == 0:
                q[0] = x + d
            elif edge == 1:
                q[0] = x + w + d
            elif edge == 2:
                q[1] = y + d
            else:
                q[1] = y + h + d
        p = oracle.to_root_space(layer, states, q)
        if p is not None and all(math.isfinite(c) and abs(c) < 1e5 for c in p):
            out.append({"time": T, "point": [round(p[0], 4), round(p[1], 4)]})
    return out


# ---- validity --------------------------------------------------------------------------------


def _valid_state(st: dict) -> bool:
    """avoid: non-positive sizes (origin or standardized minimum?) and non-finite values."""
    x, y, w, h = st["bounds"]
    if w <= 0.5 or h <= 0.5:
        return False
    if st["cornerRadius"][0] < 0 or st["borderWidth"][0] < 0:
        return False
    if st.get("_instanceCountNearInteger"):  # avoid: truncation of a count a rounding away
        return False
    numbers = (list(st["position"]) + list(st["bounds"]) + list(st["anchorPoint"])
               + list(st["transform"]) + list(st["sublayerTransform"]) + [st["zPosition"][0]])
    return all(math.isfinite(v) and abs(v) < 1e5 for v in numbers)


def valid(doc: dict) -> bool:
    case = oracle.parse_case(doc)
    for T in case.times:
        for st in oracle.presentation_tree(case.root, T).values():
            if not _valid_state(st):
                return False
    return True


# ---- entry points ----------------------------------------------------------------------------


def generate(seed: int) -> dict:
    doc: dict = {}
    for attempt in range(100):
        rng = random.Random(f"layercast-conformance-{seed}-{attempt}")
        doc = Generator(rng).case()
        # Emitters draw from their own stream, so the other seeds' cases stay as they were.
        erng = random.Random(f"layercast-emitters-{seed}-{attempt}")
        if erng.random() < EMITTER_SHARE:
            emittergen.add_emitter(erng, doc["root"])
        # Shape, gradient and replicator layers and masks too (kindgen.py).
        kindgen.add_kinds(random.Random(f"layercast-kinds-{seed}-{attempt}"), doc["root"])
        root = oracle.parse_case(doc).root
        bounds, horizon = boundary_times(root)
        horizon = min(horizon + 1.0, 15.0)
        randoms = [rng.uniform(0, horizon) for _ in range(rng.randint(4, 8))]
        if len(bounds) > 24:
            bounds = rng.sample(bounds, 24)
        emitting = emittergen.emitter_times(root, _media_time, _exact_media_time)
        if len(emitting) > 8:
            emitting = erng.sample(emitting, 8)
        times = sorted(set([0.0] + bounds + randoms + emitting))
        doc["times"] = times
        if not valid(doc):
            continue
        doc["hitTests"] = hit_tests(rng, root, times)
        return doc
    return doc


def dumps(value, indent: str = "") -> str:
    """JSON with one line per object member; arrays of scalars stay on one line."""
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = indent + "  "
        items = [f"{inner}{json.dumps(k)}: {dumps(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        inner = indent + "  "
        return "[\n" + ",\n".join(inner + dumps(v, inner) for v in value) + "\n" + indent + "]"
    return json.dumps(value)


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: scenegen.py SEED [--expect]", file=sys.stderr)
        return 2
    doc = generate(int(argv[1]))
    if "--expect" in argv[2:]:
        sys.stdout.write(dumps(oracle.sample(doc)))
    else:
        sys.stdout.write(dumps(doc))
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
