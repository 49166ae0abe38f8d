"""Self-checks of the oracle against answers derived by hand from docs/engine-model.md.

These run without the layercast binary.  Every expected number below is worked out in the
comment next to it from the model's rules, not by running the oracle.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import emitters  # noqa: E402
import oracle  # noqa: E402
import scenegen  # noqa: E402

APPROX = 1e-6


def run(animations, times, prop, layer=None):
    """Sample one property of a single 100×100 root layer carrying `animations`."""
    root = {"name": "r", "bounds": [0, 0, 100, 100]}
    root.update(layer or {})
    root["animations"] = animations if isinstance(animations, list) else [animations]
    out = oracle.sample({"root": root, "times": times})
    return [s["layers"]["r"][prop] for s in out["samples"]]


def close(a, b, tol=APPROX):
    if isinstance(a, list):
        return len(a) == len(b) and all(close(x, y, tol) for x, y in zip(a, b))
    return abs(a - b) <= tol


OPACITY_0_1 = {"type": "basic", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 2}

# ---- §2 timing ---------------------------------------------------------------------------


def test_linear_basic_midpoint():
    # f = t/d = 1/2 → lerp(0, 1, 0.5)
    assert close(run(OPACITY_0_1, [1], "opacity"), [0.5])


def test_ease_in_ease_out_is_symmetric_at_half():
    # (0.42,0,0.58,1) is point-symmetric about (0.5, 0.5): x(s) = 0.5 at s = 0.5, y = 0.5
    out = run(dict(OPACITY_0_1, timingFunction="easeInEaseOut"), [1], "opacity")
    assert close(out, [0.5], 1e-8)


def test_custom_linear_control_points_are_identity():
    # control points on the diagonal: x(s) = y(s) for all s, so the curve is y = x
    out = run(dict(OPACITY_0_1, timingFunction=[0.3, 0.3, 0.7, 0.7]), [0.5], "opacity")
    assert close(out, [0.25], 1e-8)


def test_ease_in_is_slow_at_first():
    # easeIn's y lags x everywhere inside (0, 1): y(s) = 3(1−s)s²·1 + s³ < x(s)
    out = run(dict(OPACITY_0_1, timingFunction="easeIn"), [0.5, 1.0, 1.5], "opacity")
    assert all(v < x for v, x in zip(out, (0.25, 0.5, 0.75)))


def test_timing_function_endpoints_are_exact():
    for name in oracle.NAMED_TIMING_FUNCTIONS:
        tf = oracle.NAMED_TIMING_FUNCTIONS[name]
        assert oracle.timing(tf, 0.0) == 0.0 and oracle.timing(tf, 1.0) == 1.0


def test_default_duration_is_quarter_second():
    # duration 0 at top level → 0.25 s: at 0.125 the fraction is 0.5
    anim = {"type": "basic", "keyPath": "opacity", "fromValue": 0, "toValue": 1}
    assert close(run(anim, [0.125, 0.25], "opacity"), [0.5, 1.0])  # at 0.25: removed → model 1


FILL = {"type": "basic", "keyPath": "opacity", "fromValue": 0.2, "toValue": 0.6,
        "duration": 1, "beginTime": 1}


@pytest.mark.parametrize("fill, removed, expected", [
    # times 0.5 (before), 1 (start), 1.5 (middle), 2 (= end of active duration), 2.5 (after)
    ("removed", True, [1, 0.2, 0.4, 1, 1]),
    ("removed", False, [1, 0.2, 0.4, 1, 1]),
    ("forwards", True, [1, 0.2, 0.4, 1, 1]),      # removed on completion: never fills
    ("forwards", False, [1, 0.2, 0.4, 0.6, 0.6]),  # a = A: end of the last cycle
    ("backwards", True, [0.2, 0.2, 0.4, 1, 1]),    # a = 0 before the start
    ("backwards", False, [0.2, 0.2, 0.4, 1, 1]),
    ("both", True, [0.2, 0.2, 0.4, 1, 1]),
    ("both", False, [0.2, 0.2, 0.4, 0.6, 0.6]),
])
def test_fill_modes(fill, removed, expected):
    anim = dict(FILL, fillMode=fill, removedOnCompletion=removed)
    assert close(run(anim, [0.5, 1, 1.5, 2, 2.5], "opacity"), expected)


def test_autoreverse():
    # d = 1, C = 2: t = c for c ≤ 1, else 2 − c.  Model opacity 0.9 shows removal.
    anim = {"type": "basic", "keyPath": "opacity", "fromValue": 0, "toValue": 1,
            "duration": 1, "autoreverses": True}
    got = run(anim, [0.25, 1, 1.5, 1.75, 2], "opacity", {"opacity": 0.9})
    assert close(got, [0.25, 1, 0.5, 0.25, 0.9])
    # filling forwards: l = A = C → i = 0, c = C → t = 2d − C = 0 → the from value
    filled = run(dict(anim, fillMode="forwards", removedOnCompletion=False), [2, 3], "opacity")
    assert close(filled, [0, 0])


def test_time_offset_wraps():
    # d = 3, o = 1: plays 1→3 then 0→1; l = mod(a + 1, 3)
    anim = {"type": "basic", "keyPath": "position.x", "fromValue": 0, "toValue": 3,
            "duration": 3, "timeOffset": 1}
    got = run(anim, [0, 1.5, 2, 2.5, 3], "position")
    assert close([p[0] for p in got], [1, 2.5, 0, 0.5, 0])  # at 3: removed → model x = 0
    # forwards fill: a = A = 3, mod(o, A) = 1 ≠ 0 → l = mod(4, 3) = 1
    filled = run(dict(anim, fillMode="forwards", removedOnCompletion=False), [3, 5], "position")
    assert close([p[0] for p in filled], [1, 1])


def test_time_offset_multiple_of_active_duration_ends_at_end():
    # o = A: mod(o, A) = 0 and a = A → l = A → the end value, not the start
    anim = {"type": "basic", "keyPath": "position.x", "fromValue": 0, "toValue": 10,
            "duration": 2, "timeOffset": 2, "fillMode": "forwards", "removedOnCompletion": False}
    got = run(anim, [0.5, 2.5], "position")
    assert close([p[0] for p in got], [2.5, 10])  # l = mod(0.5 + 2, 2) = 0.5 → 2.5


def test_repeat_count_end_shows_end_of_last_cycle():
    anim = {"type": "basic", "keyPath": "position.x", "fromValue": 0, "toValue": 10,
            "duration": 1, "repeatCount": 2, "fillMode": "forwards", "removedOnCompletion": False}
    # t=1: l = 1 → i = 1, c = 0 → 0 (start of the 2nd cycle); t=2: l = A → i = 1, c = C → 10
    got = run(anim, [0.5, 1, 1.5, 2, 3], "position")
    assert close([p[0] for p in got], [5, 0, 5, 10, 10])


def test_fractional_repeat_count_ends_mid_cycle():
    # A = 2.5: at the end l = 2.5 → i = 2, c = 0.5 → 5
    anim = {"type": "basic", "keyPath": "position.x", "fromValue": 0, "toValue": 10,
            "duration": 1, "repeatCount": 2.5, "fillMode": "both", "removedOnCompletion": False}
    got = run(anim, [2, 2.25, 2.5, 4], "position")
    assert close([p[0] for p in got], [0, 2.5, 5, 5])


def test_repeat_duration():
    # A = 1.5 with d = 1: the second cycle stops half-way; without fill it is removed
    anim = {"type": "basic", "keyPath": "position.x", "fromValue": 0, "toValue": 10,
            "duration": 1, "repeatDuration": 1.5}
    got = run(anim, [1.25, 1.5], "position", {"position": [7, 7]})
    assert close([p[0] for p in got], [2.5, 7])


def test_infinite_repeat():
    anim = {"type": "basic", "keyPath": "position.x", "fromValue": 0, "toValue": 10,
            "duration": 1, "repeatCount": "inf"}
    got = run(anim, [0.5, 100.25], "position")
    assert close([p[0] for p in got], [5, 2.5])


def test_cumulative():
    # iteration i adds i × (value at f = 1) = i × 10
    anim = {"type": "basic", "keyPath": "position.x", "fromValue": 0, "toValue": 10,
            "duration": 1, "repeatCount": 3, "cumulative": True,
            "fillMode": "forwards", "removedOnCompletion": False}
    got = run(anim, [0.5, 1.5, 2.5, 3, 4], "position")
    assert close([p[0] for p in got], [5, 15, 25, 30, 30])  # end: i = 2, c = C → 10 + 20


def test_animation_speed():
    # e = (p − b)·s = 0.5·2 = 1 → f = 1/2
    assert close(run(dict(OPACITY_0_1, speed=2), [0.5], "opacity"), [0.5])


def test_layer_speed():
    # local(root) = (0.5 − 0)·2 + 0 = 1 → f = 1/2
    assert close(run(OPACITY_0_1, [0.5], "opacity", {"speed": 2}), [0.5])


def test_begin_time_zero_means_now_in_layer_time():
    # timeOffset 1: local(0) = 1 = b. At T = 0.5, p = 1.5 → e = 0.5 → f = 0.25
    assert close(run(OPACITY_0_1, [0.5], "opacity", {"timeOffset": 1}), [0.25])
    # layer beginTime 1: local(0) = −1 = b; at T = 0.5, p = −0.5 → e = 0.5 → f = 0.25
    assert close(run(OPACITY_0_1, [0.5], "opacity", {"beginTime": 1}), [0.25])


def test_explicit_begin_time_is_layer_time():
    # layer timeOffset 1, animation beginTime 2 → starts when local = 2, i.e. T = 1
    anim = dict(OPACITY_0_1, beginTime=2)
    assert close(run(anim, [0.5, 2], "opacity", {"timeOffset": 1}), [1, 0.5])


def test_sublayer_time_chain():
    # child speed 2 under a root with timeOffset 1: local(child) = ((T + 1) − 0)·2
    # now = local(child, 0) = 2; at T = 0.25, p = 2.5 → e = 0.5 → f = 0.25
    root = {"name": "r", "timeOffset": 1, "sublayers": [
        {"name": "c", "speed": 2, "animations": [OPACITY_0_1]}]}
    out = oracle.sample({"root": root, "times": [0.25]})
    assert close(out["samples"][0]["layers"]["c"]["opacity"], 0.25)


# ---- §3 values ---------------------------------------------------------------------------


def test_from_to_by_table():
    base = {"type": "basic", "keyPath": "opacity", "duration": 1}
    model = {"opacity": 0.2}
    cases = [
        ({"fromValue": 0.1, "byValue": 0.4}, 0.3),   # 0.1 → 0.5
        ({"byValue": 0.4, "toValue": 0.9}, 0.7),     # 0.5 → 0.9
        ({"fromValue": 0.6}, 0.4),                   # 0.6 → cur 0.2
        ({"toValue": 1.0}, 0.6),                     # cur 0.2 → 1
        ({"byValue": 0.4}, 0.4),                     # 0.2 → 0.6
        ({}, 0.2),                                   # cur → cur
    ]
    for fields, expected in cases:
        assert close(run(dict(base, **fields), [0.5], "opacity", model), [expected]), fields


def test_additive():
    # cur ⊕ v = (100, 100) + lerp((0,0), (10,20), 0.5)
    anim = {"type": "basic", "keyPath": "position", "fromValue": [0, 0], "toValue": [10, 20],
            "duration": 1, "additive": True}
    assert close(run(anim, [0.5], "position", {"position": [100, 100]}), [[105, 110]])


def test_sub_paths():
    anims = [
        {"type": "basic", "keyPath": "position.y", "fromValue": 0, "toValue": 40, "duration": 1},
        {"type": "basic", "keyPath": "bounds.size", "fromValue": [10, 10], "toValue": [30, 50],
         "duration": 1},
    ]
    root = {"name": "r", "position": [5, 6], "bounds": [1, 2, 3, 4], "animations": anims}
    out = oracle.sample({"root": root, "times": [0.5]})["samples"][0]["layers"]["r"]
    assert close(out["position"], [5, 20])
    assert close(out["bounds"], [1, 2, 20, 30])


def test_composition_order_and_replacement_by_key():
    anims = [
        {"key": "k", "type": "basic", "keyPath": "opacity", "fromValue": 0, "toValue": 1,
         "duration": 1},
        {"key": "j", "type": "basic", "keyPath": "opacity", "byValue": 0.1, "duration": 1,
         "additive": True},
        {"key": "k", "type": "basic", "keyPath": "opacity", "toValue": 0.5, "duration": 1},
    ]
    # the first "k" is removed; "j": cur 0.3 ⊕ lerp(0.3, 0.4, .5) = 0.65;
    # then the new "k": lerp(0.65, 0.5, 0.5) = 0.575
    assert close(run(anims, [0.5], "opacity", {"opacity": 0.3}), [0.575])


def test_colour_and_missing_background():
    anim = {"type": "basic", "keyPath": "backgroundColor", "fromValue": [1, 0, 0, 1],
            "toValue": [0, 0, 1, 0], "duration": 1}
    assert close(run(anim, [0.25], "backgroundColor"), [[0.75, 0, 0.25, 0.75]])
    assert close(run([], [0], "backgroundColor"), [[0, 0, 0, 0]])


def test_hidden_switches_at_half():
    anim = {"type": "basic", "keyPath": "hidden", "fromValue": False, "toValue": True,
            "duration": 1}
    assert run(anim, [0.4, 0.6], "hidden") == [False, True]


def test_extrapolation():
    # control points (0, 2), (1, 2): x(s) = 3s² − 2s³ = 0.5 at s = 0.5, and
    # y(0.5) = 3·0.25·0.5·2 + 3·0.5·0.25·2 + 0.125 = 1.625, so f = 1.625 → x = 16.25
    anim = {"type": "basic", "keyPath": "position.x", "fromValue": 0, "toValue": 10,
            "duration": 1, "timingFunction": [0, 2, 1, 2]}
    assert close([p[0] for p in run(anim, [0.5], "position")], [16.25], 1e-6)


# ---- transforms ----------------------------------------------------------------------------


def rot_z(a):
    c, s = math.cos(a), math.sin(a)
    return [c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]


IDENT = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]


def test_transform_rotation_interpolates_by_angle():
    anim = {"type": "basic", "keyPath": "transform", "fromValue": IDENT,
            "toValue": rot_z(math.pi / 2), "duration": 1}
    assert close(run(anim, [0.5], "transform")[0], rot_z(math.pi / 4), 1e-9)


def test_transform_rotation_takes_the_short_way():
    # 0 → 350° is −10° the short way: half-way is −5°
    anim = {"type": "basic", "keyPath": "transform", "fromValue": IDENT,
            "toValue": rot_z(math.radians(350)), "duration": 1}
    assert close(run(anim, [0.5], "transform")[0], rot_z(math.radians(-5)), 1e-9)


def test_transform_scale_and_translation_interpolate_linearly():
    frm = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 0, 0, 1]
    to = [3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 1, 0, 30, -20, 8, 1]
    anim = {"type": "basic", "keyPath": "transform", "fromValue": frm, "toValue": to,
            "duration": 1}
    expect = [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0, 20, -10, 4, 1]
    assert close(run(anim, [0.5], "transform")[0], expect, 1e-9)


def test_transform_perspective_interpolates_linearly():
    frm = list(IDENT)
    to = list(IDENT)
    to[11] = -1 / 500  # m34
    anim = {"type": "basic", "keyPath": "transform", "fromValue": frm, "toValue": to,
            "duration": 1}
    expect = list(IDENT)
    expect[11] = -1 / 1000
    assert close(run(anim, [0.5], "transform")[0], expect, 1e-12)


def test_singular_transform_switches_at_half():
    sing = [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    anim = {"type": "basic", "keyPath": "transform", "fromValue": IDENT, "toValue": sing,
            "duration": 1}
    assert run(anim, [0.4, 0.6], "transform") == [IDENT, sing]


def test_transform_by_value_concatenates():
    # from ⊕ by = Concat(by, from): by (translate 5,0) first, then from (scale 2) → m41 = 10
    frm = [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    by = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1]
    anim = {"type": "basic", "keyPath": "transform", "fromValue": frm, "byValue": by,
            "duration": 1, "fillMode": "forwards", "removedOnCompletion": False}
    expect = [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 10, 0, 0, 1]
    assert close(run(anim, [1], "transform")[0], expect, 1e-9)


def test_transform_sub_path_composes_before_model_transform():
    # Concat(Rotation(π/2), model) with the model translating by (10, 0, 0)
    model = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 0, 0, 1]
    anim = {"type": "basic", "keyPath": "transform.rotation.z", "fromValue": 0,
            "toValue": math.pi, "duration": 1}
    got = run(anim, [0.5], "transform", {"transform": model})[0]
    assert close(got, [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 10, 0, 0, 1], 1e-9)
    # additive makes no difference for transform.* sub-paths
    got = run(dict(anim, additive=True), [0.5], "transform", {"transform": model})[0]
    assert close(got, [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 10, 0, 0, 1], 1e-9)


def test_transform_scale_and_translation_sub_paths():
    anims = [
        {"type": "basic", "keyPath": "transform.scale", "fromValue": 1, "toValue": 3,
         "duration": 1},
        {"type": "basic", "keyPath": "transform.translation", "fromValue": [0, 0],
         "toValue": [8, 4], "duration": 1},
    ]
    # scale 2 first, then Concat(T(4, 2), S(2)) = translate first, then scale → (8, 4)
    got = run(anims, [0.5], "transform")[0]
    assert close(got, [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 8, 4, 0, 1], 1e-9)


def test_decompose_recompose_round_trip():
    rng = random.Random(7)
    for _ in range(500):
        m = np.identity(4)
        for _ in range(4):
            op = rng.choice("xyzstpk")
            if op in "xyz":
                m = m @ oracle.rotation(rng.uniform(-3, 3), op)
            elif op == "s":
                m = m @ oracle.scaling(*[rng.choice((-1, 1)) * rng.uniform(0.2, 3)
                                         for _ in range(3)])
            elif op == "t":
                m = m @ oracle.translation(*[rng.uniform(-100, 100) for _ in range(3)])
            elif op == "p":
                p = np.identity(4)
                p[2, 3] = -1 / rng.uniform(100, 1000)
                m = m @ p
            else:
                k = np.identity(4)
                k[rng.choice((1, 2)), 0] = rng.uniform(-1, 1)
                m = m @ k
        t = oracle.tup(m)
        back = np.array(oracle.recompose(oracle.decompose(t)))
        want = np.array(t) / t[15]
        assert np.allclose(back, want, atol=1e-9 * max(1, np.abs(want).max()))


# ---- §3.2 keyframes ------------------------------------------------------------------------


def kf(values, **extra):
    return dict({"type": "keyframe", "keyPath": "position.x", "values": values,
                 "duration": 1}, **extra)


def xs(anim, times):
    return [p[0] for p in run(anim, times, "position")]


def test_keyframes_linear():
    # evenly spaced keyTimes 0, .5, 1
    assert close(xs(kf([0, 10, 30]), [0.25, 0.75]), [5, 20])
    # keyTimes 0, .25, 1: at f = .5 → segment 1, u = .25/.75 → 10 + 20/3
    assert close(xs(kf([0, 10, 30], keyTimes=[0, 0.25, 1]), [0.5]), [10 + 20 / 3])
    # f ≤ k0 → v0
    assert close(xs(kf([0, 10, 30], keyTimes=[0.5, 0.75, 1]), [0.25]), [0])


def test_keyframes_segment_timing_functions():
    # segment 0 uses [.3,.3,.7,.7] (identity), segment 1 has none (linear)
    anim = kf([0, 10, 30], timingFunctions=[[0.3, 0.3, 0.7, 0.7]])
    assert close(xs(anim, [0.25, 0.75]), [5, 20], 1e-8)


def test_keyframes_discrete():
    # default keyTimes i/n = 0, 1/3, 2/3
    anim = kf([0, 10, 30], calculationMode="discrete")
    assert close(xs(anim, [0.2, 0.5, 0.7]), [0, 10, 30])
    # n + 1 keyTimes: the last only caps
    anim = kf([0, 10, 30], calculationMode="discrete", keyTimes=[0, 0.1, 0.2, 1])
    assert close(xs(anim, [0.05, 0.15, 0.9]), [0, 10, 30])


def test_keyframes_paced():
    # 1-D: distances 10 and 20, L = 30 → f·L
    anim = kf([0, 10, 30], calculationMode="paced", keyTimes=[0, 0.9, 1])
    assert close(xs(anim, [0.5]), [15])
    # 2-D: (0,0) → (30,40) is 50, (30,40) → (30,0) is 40; f = .5 → 45 → u = .9 in segment 0
    anim = {"type": "keyframe", "keyPath": "position", "values": [[0, 0], [30, 40], [30, 0]],
            "calculationMode": "paced", "duration": 1}
    assert close(run(anim, [0.5], "position"), [[27, 36]])


def test_keyframes_cubic():
    # segment 0 at u = .5, tangents m0 = (10 − 0)/2 = 5, m1 = (30 − 0)/2 = 15:
    # .5·0 + .125·5 + .5·10 − .125·15 = 3.75
    assert close(xs(kf([0, 10, 30], calculationMode="cubic"), [0.25]), [3.75])


def test_keyframes_cubic_paced():
    # one segment, v(u) = −10u³ + 15u² + 5u, monotonic: paced → distance f·10
    anim = kf([0, 10], calculationMode="cubicPaced")
    assert close(xs(anim, [0.5]), [5], 1e-9)  # v″(.5) = 0: no chord error
    assert close(xs(anim, [0.25]), [2.5], 5e-3)


def test_keyframes_edge_counts():
    assert close(xs(kf([]), [0.5]), [0])        # no values: no effect
    assert close(xs(kf([7]), [0.5]), [7])       # one value: constant


def test_keyframes_cumulative():
    # e = value at f = 1 = 30; second iteration adds 30
    anim = kf([0, 10, 30], repeatCount=2, cumulative=True)
    assert close(xs(anim, [1.25]), [35])


# ---- §3.4 springs ----------------------------------------------------------------------------


@pytest.mark.parametrize("damping, expected", [
    # ζ = 0.5: x = 1 − e^{−5t}(cos ωt + (5/ω) sin ωt), ω = √75; t = .1 → 0.34030
    (10, 0.3402998),
    # ζ = 1: x = 1 − (1 + 10t)e^{−10t}; t = .1 → 1 − 2/e
    (20, 1 - 2 / math.e),
    # ζ = 1.3: roots −10(1.3 ∓ √.69); x(.1) = 0.2314487
    (26, 0.2314487),
])
def test_spring_closed_form(damping, expected):
    anim = {"type": "spring", "keyPath": "opacity", "fromValue": 0, "toValue": 1,
            "duration": 1, "damping": damping, "timingFunction": "easeIn"}  # ignored
    assert close(run(anim, [0.1], "opacity"), [expected], 1e-6)


def test_spring_initial_velocity_and_mass():
    # m = 4, k = 100, c = 0 (undamped): ω = 5, x = 1 − cos 5t + (v0/5) sin 5t
    anim = {"type": "spring", "keyPath": "opacity", "fromValue": 0, "toValue": 1,
            "duration": 1, "mass": 4, "damping": 0, "initialVelocity": 2}
    t = 0.2
    expected = 1 - math.cos(5 * t) + 0.4 * math.sin(5 * t)
    assert close(run(anim, [t], "opacity"), [expected], 1e-9)


# ---- §4 groups ---------------------------------------------------------------------------------


def test_group_children():
    group = {"type": "group", "duration": 2, "animations": [
        {"type": "basic", "keyPath": "opacity", "fromValue": 0, "toValue": 1},  # d = 2
        {"type": "basic", "keyPath": "position.x", "fromValue": 0, "toValue": 10,
         "beginTime": 1, "duration": 0.5},
    ]}
    root = {"name": "r", "opacity": 0.9, "position": [3, 3], "animations": [group]}
    out = oracle.sample({"root": root, "times": [0.5, 1.25, 1.75, 2]})
    layers = [s["layers"]["r"] for s in out["samples"]]
    assert close([l["opacity"] for l in layers], [0.25, 0.625, 0.875, 0.9])
    assert close([l["position"][0] for l in layers], [3, 5, 3, 3])


def test_group_child_fills_forwards_inside_group():
    group = {"type": "group", "duration": 2, "animations": [
        {"type": "basic", "keyPath": "position.x", "fromValue": 0, "toValue": 10,
         "duration": 0.5, "fillMode": "forwards"},  # removedOnCompletion ignored in groups
    ]}
    root = {"name": "r", "animations": [group]}
    out = oracle.sample({"root": root, "times": [1, 2]})
    assert close([s["layers"]["r"]["position"][0] for s in out["samples"]], [10, 0])


def test_group_timing_function_drives_child_time():
    # easeInEaseOut at the middle is 0.5 → child time 1 of 2
    group = {"type": "group", "duration": 2, "timingFunction": "easeInEaseOut",
             "animations": [{"type": "basic", "keyPath": "opacity", "fromValue": 0,
                             "toValue": 1}]}
    assert close(run(group, [1], "opacity"), [0.5], 1e-8)


# ---- §7 hit testing ------------------------------------------------------------------------------


def hit(root, points, time=0):
    out = oracle.sample({"root": root, "times": [],
                         "hitTests": [{"time": time, "point": p} for p in points]})
    return [h["layer"] for h in out["hits"]]


def square(name, x, y, size, **extra):
    return dict({"name": name, "bounds": [0, 0, size, size],
                 "position": [x + size / 2, y + size / 2]}, **extra)


def test_hit_half_open_bounds():
    root = square("r", 0, 0, 200, sublayers=[square("c", 10, 10, 10)])
    # c covers [10, 20) × [10, 20) in root space
    assert hit(root, [[10, 10], [20, 15], [19.999, 19.999], [200, 5], [-0.001, 5]]) == \
        ["c", "r", "c", None, None]


def test_hit_order_z_position_then_later_sibling():
    a = square("a", 0, 0, 50, zPosition=5)
    b = square("b", 0, 0, 50)
    c = square("c", 0, 0, 50)
    assert hit(square("r", 0, 0, 200, sublayers=[a, b]), [[10, 10]]) == ["a"]
    assert hit(square("r", 0, 0, 200, sublayers=[b, c]), [[10, 10]]) == ["c"]


def test_hit_masks_to_bounds_and_hidden():
    child = square("c", 0, 0, 100)
    parent = square("p", 0, 0, 50, sublayers=[child])
    root = square("r", 0, 0, 200, sublayers=[parent])
    assert hit(root, [[75, 75]]) == ["c"]
    parent["masksToBounds"] = True
    assert hit(root, [[75, 75], [25, 25]]) == ["r", "c"]
    parent["hidden"] = True
    assert hit(root, [[25, 25]]) == ["r"]


def test_hit_double_sided():
    # rotated by π about y the layer shows its back (mirrored in x about its centre)
    c, s = math.cos(math.pi), math.sin(math.pi)
    flip = [c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1]
    child = square("c", 50, 50, 50, transform=flip)
    root = square("r", 0, 0, 200, sublayers=[child])
    assert hit(root, [[60, 60]]) == ["c"]
    child["doubleSided"] = False
    assert hit(root, [[60, 60]]) == ["r"]


def test_hit_perspective_and_behind_the_eye():
    # root anchor (200,200); child at the anchor, zPosition 250, perspective d = 500:
    # w = 1 − 250/500 = .5 so the child appears twice as large: root x = 2(qx − 50) + 200
    persp = list(IDENT)
    persp[11] = -1 / 500
    child = {"name": "c", "bounds": [0, 0, 100, 100], "position": [200, 200], "zPosition": 250}
    root = square("r", 0, 0, 400, sublayerTransform=persp, sublayers=[child])
    assert hit(root, [[280, 200], [310, 200], [95, 200]]) == ["c", "r", "r"]
    child["zPosition"] = 600  # w = −0.2: behind the eye
    assert hit(root, [[200, 200]]) == ["r"]


def test_hit_transform_layer_orders_by_depth():
    # a is nearer (translated 20 towards the viewer) although b has the higher zPosition
    ta = list(IDENT)
    ta[14] = 20
    a = square("a", 0, 0, 50, transform=ta)
    b = square("b", 0, 0, 50, zPosition=5)
    tl = {"name": "t", "type": "transformLayer", "bounds": [0, 0, 100, 100],
          "position": [50, 50], "sublayers": [a, b]}
    root = square("r", 0, 0, 200, sublayers=[tl])
    assert hit(root, [[10, 10], [150, 150]]) == ["a", "r"]
    tl["type"] = "layer"  # a plain layer uses zPosition order instead
    assert hit(root, [[10, 10]]) == ["b"]


def test_hit_uses_presentation_values():
    anim = {"type": "basic", "keyPath": "position.x", "fromValue": 15, "toValue": 115,
            "duration": 1}
    root = square("r", 0, 0, 200, sublayers=[square("c", 0, 0, 30, animations=[anim])])
    out = oracle.sample({"root": root, "times": [],
                         "hitTests": [{"time": 0.5, "point": [70, 10]},
                                      {"time": 1.5, "point": [70, 10]}]})
    assert [h["layer"] for h in out["hits"]] == ["c", "r"]


# ---- §9 emitters ----------------------------------------------------------------------------


def particles(cells, times, **layer):
    """The particles of a root emitter layer at each media time (its local time, unless
    `layer` gives it timing)."""
    root = dict({"name": "e", "type": "emitter", "bounds": [0, 0, 100, 100],
                 "emitterCells": cells}, **layer)
    out = oracle.sample({"root": root, "times": times})
    return [s["layers"]["e"]["particles"] for s in out["samples"]]


def cell(**fields):
    return dict({"name": "c", "birthRate": 4, "lifetime": 10, "contents": "star"}, **fields)


def test_splitmix64_finaliser():
    # SplitMix64 seeded with 0 outputs f(γ), f(2γ), … (Vigna's splitmix64.c): e220a8397b1dcdaf,
    # 6e789e6aa1b965f4; hash(a, b) = f(a ^ f(b + γ)), so hash(0, 0) = f(e220a8397b1dcdaf).
    gamma = 0x9E3779B97F4A7C15
    assert emitters.finalise(gamma) == 0xE220A8397B1DCDAF
    assert emitters.finalise(2 * gamma % 2 ** 64) == 0x6E789E6AA1B965F4
    assert emitters.hash2(0, 0) == emitters.finalise(0xE220A8397B1DCDAF)
    # u(h) keeps the top 53 bits: u(2^64 − 1) = 1 − 2^−53, u(2^11 − 1) = 0
    assert emitters.unit(2 ** 64 - 1) == 1 - 2 ** -53 and emitters.unit(2 ** 11 - 1) == 0


def test_first_birth_one_period_after_emission_starts():
    # φ = 0: births at k/r = 0.25, 0.5, …; with beginTime 1 at 1.25, 1.5, …
    at = particles([cell()], [0.2499, 0.25, 1.0])
    assert [len(p) for p in at] == [0, 1, 4]
    assert at[1][0]["birthTime"] == 0.25 and at[1][0]["age"] == 0
    late = particles([cell(beginTime=1)], [1.2499, 1.25])
    assert [[q["birthTime"] for q in p] for p in late] == [[], [1.25]]


def test_alive_while_age_below_lifetime():
    # rate 1, lifetime 2: births at 1, 2, 3; at t = 3 the first has age 2 = L and is gone
    at = particles([cell(birthRate=1, lifetime=2)], [3])
    assert [q["birthTime"] for q in at[0]] == [2, 3]
    assert [q["age"] for q in at[0]] == [1, 0]


def test_float_properties_are_single_precision():
    # lifetime 0.1 is the Float 0.100000001490116…: the particle born at 1 is still alive at
    # t = 1.1 (age 0.1000000000000001 in doubles), which a double 0.1 would not allow
    at = particles([cell(birthRate=1, lifetime=0.1)], [1.1])
    assert [q["birthTime"] for q in at[0]] == [1]
    assert at[0][0]["lifetime"] == float(np.float32(0.1))


def test_window_is_open_at_its_start_and_closed_at_its_end():
    # beginTime 5, duration 10, rate 2: births at 5.5, 6, …, 15 → 20
    at = particles([cell(birthRate=2, lifetime=100, beginTime=5, duration=10)], [15, 40])
    assert [len(p) for p in at] == [20, 20]
    assert at[1][0]["birthTime"] == 5.5 and at[1][-1]["birthTime"] == 15


def test_layer_birth_rate_multiplies_the_cell_rate():
    # 1.5/s × 2 = 3/s: births at 1/3, 2/3, 1
    at = particles([cell(birthRate=1.5)], [1], birthRate=2)
    assert close([q["birthTime"] for q in at[0]], [1 / 3, 2 / 3, 1], 1e-12)


def test_cap_keeps_the_newest():
    # rate 4 up to t = 2: births at 0.25 … 2 (8 of them); maxParticles 3 keeps 1.5, 1.75, 2
    at = particles([cell()], [2], maxParticles=3)
    assert [q["birthTime"] for q in at[0]] == [1.5, 1.75, 2]
    assert particles([cell()], [2], maxParticles=0) == [[]]


def test_warm_start():
    # timeOffset 100: at media 0 the layer's local time is 100 and emission began at local 0;
    # rate 2, lifetime 3: the births in (97, 100] are alive, 97.5 … 100 → 6
    at = particles([cell(birthRate=2, lifetime=3)], [0], timeOffset=100)
    assert [q["birthTime"] for q in at[0]] == [97.5, 98, 98.5, 99, 99.5, 100]


def test_seed_container_makes_seven_snowflakes_a_second():
    # 10 containers/s × 0.35 s × 2/s = 7 snowflakes per second. Containers are born at k/10;
    # by t one has emitted ⌊φ + 2·min(L, t − k/10)⌋ flakes, and consecutive parents average
    # r·L without noise: the total is Σ 2·min(0.35, t − k/10) (the last containers are still
    # emitting) within the phases' discrepancy
    snow = cell(name="snow", birthRate=2, lifetime=1000)
    container = {"name": "container", "birthRate": 10, "lifetime": 0.35, "emitterCells": [snow]}

    def expected(containers_per_s, flakes_per_s):
        return sum(flakes_per_s * min(0.35, 60 - k / containers_per_s)
                   for k in range(1, 60 * containers_per_s + 1))

    at = particles([container], [60])
    # 596 containers born by 59.65 finished (× 0.7), then 2 × (0.3 + 0.2 + 0.1 + 0)
    assert close(expected(10, 2), 596 * 0.7 + 1.2, 1e-9)
    assert abs(len(at[0]) - expected(10, 2)) <= 2
    assert all(q["cellName"] == "snow" and q["cellPath"] == [0, 0] for q in at[0])
    # the layer's birthRate multiplies both levels: (10·2) × 0.35 × (2·2) = 28 a second
    assert abs(len(particles([container], [60], birthRate=2)[0]) - expected(20, 4)) <= 2


def test_sub_cells_emit_only_from_when_the_cells_were_set():
    # timeOffset 5: the cells are set at local 5. Containers (1/s) born at 1 … 5 emit their
    # sub-cell (1/s) only from 5: none by local 5, one each (N goes from φ to φ + 1) by local 6;
    # the container born at 6 has none yet
    child = cell(birthRate=1, lifetime=100)
    container = {"birthRate": 1, "lifetime": 100, "emitterCells": [child]}
    at = particles([container], [0, 1], timeOffset=5)
    assert [len(p) for p in at] == [0, 5]
    assert all(5 < q["birthTime"] <= 6 for q in at[1])


def test_sub_particles_start_at_their_parents_position():
    # parents fly along +x at 50 pt/s (range 0 is the axis, longitude 0) and their children
    # stay put, so a child's x is 50 × its parent's age at its birth
    child = cell(birthRate=1, lifetime=100, name="child")
    parent = {"birthRate": 1, "lifetime": 1, "velocity": 50, "emitterCells": [child]}
    at = particles([parent], [30.5])
    assert len(at[0]) in (29, 30)
    for q in at[0]:
        parent_age = q["birthTime"] - math.ceil(q["birthTime"] - 1)  # parents born at 1, 2, …
        assert close(q["position"], [50 * parent_age, 0], 1e-9)


def test_direction_axis_and_motion():
    # range 0: the axis. Longitude π/2 is +y (down); at age a: p = v·a + ½·acc·a²
    at = particles([cell(birthRate=1, velocity=10, emissionLongitude=math.pi / 2,
                         xAcceleration=4)], [3], emitterPosition=[5, 7], emitterZPosition=2)
    ages = [q["age"] for q in at[0]]
    assert ages == [2, 1, 0]
    for q, a in zip(at[0], ages):
        assert close(q["position"], [5 + 2 * a * a, 7 + 10 * a], 1e-9)
        assert close(q["zPosition"], 2, 1e-9)
    # latitude π/2 tilts the axis to +z
    up = particles([cell(birthRate=1, velocity=10, emissionLatitude=math.pi / 2)], [3])
    assert close([q["zPosition"] for q in up[0]], [20, 10, 0], 1e-9)


def test_drawn_values_stay_in_their_ranges():
    # velocity 100 ± 20 in a cone of half-angle 0.2 about +x; spin (2 ± 0.5) × layer spin 2;
    # lifetime (10 ± 2) × 1.5; red 0.5 ± 0.1
    c = cell(birthRate=50, velocity=100, velocityRange=40, emissionRange=0.2, spin=2,
             spinRange=1, lifetimeRange=4, color=[0.5, 0.5, 0.5, 1], redRange=0.2)
    at = particles([c], [10], spin=2, lifetime=1.5)[0]
    moving = [q for q in at if q["age"] > 0]
    assert len(at) == 500
    for q in moving:
        x, y, z, a = q["position"][0], q["position"][1], q["zPosition"], q["age"]
        speed = math.sqrt(x * x + y * y + z * z) / a
        assert 80 - 1e-9 <= speed <= 120 + 1e-9
        assert math.acos(min(1, x / (speed * a))) <= 0.2 + 1e-9
        assert 3 - 1e-9 <= q["rotation"] / a <= 5 + 1e-9
    assert all(12 - 1e-6 <= q["lifetime"] <= 18 + 1e-6 for q in at)
    assert all(0.4 - 1e-9 <= q["color"][0] <= 0.6 + 1e-9 for q in at)


def test_scale_and_colour_are_clamped():
    # scale 1 − a, alpha 0.5 − 0.5a: at age 3 both are clamped to 0; red 0.5 + 0.25·3 → 1
    c = cell(birthRate=1, scaleSpeed=-1, color=[0.5, 0.5, 0.5, 0.5], alphaSpeed=-0.5,
             redSpeed=0.25)
    q = particles([c], [4])[0][0]
    assert q["age"] == 3 and q["scale"] == 0 and q["color"] == [1, 0.5, 0.5, 0]


def test_shapes_points_and_outline():
    # a line's points mode gives its two ends; a rectangle's outline lies on the perimeter
    ends = particles([cell(birthRate=20)], [5], emitterShape="line", emitterMode="points",
                     emitterSize=[80, 40], emitterPosition=[100, 100])[0]
    assert {tuple(q["position"]) for q in ends} == {(60, 100), (140, 100)}
    rim = particles([cell(birthRate=20)], [5], emitterShape="rectangle", emitterMode="outline",
                    emitterSize=[80, 40], emitterPosition=[100, 100])[0]
    for q in rim:
        x, y = q["position"][0] - 100, q["position"][1] - 100
        assert (close(abs(x), 40) and abs(y) <= 20 + 1e-9) or \
            (close(abs(y), 20) and abs(x) <= 40 + 1e-9)


# ---- §10 shape, gradient and replicator layers, masks ---------------------------------------


def layer_of(kind, fields, animations, times, name="r"):
    """Sample a single 100×100 root layer of type `kind`; the layer's entries at each time."""
    root = {"name": "r", "type": kind, "bounds": [0, 0, 100, 100], **fields}
    if animations:
        root["animations"] = animations
    out = oracle.sample({"root": root, "times": times})
    return [s["layers"][name] for s in out["samples"]]


def test_shape_defaults_are_apples():
    # §10.1: fill opaque black, no stroke (transparent black), width 1, miter 10, stroke 0…1
    s = layer_of("shape", {}, [], [0])[0]
    assert s["fillColor"] == [0, 0, 0, 1] and s["strokeColor"] == [0, 0, 0, 0]
    assert (s["lineWidth"], s["miterLimit"], s["strokeStart"], s["strokeEnd"]) == (1, 10, 0, 1)
    assert (s["fillRule"], s["lineCap"], s["lineJoin"], s["path"]) == ("nonZero", "butt", "miter", [])


def test_stroke_end_halfway():
    # strokeEnd 0 → 1 over 2 s, linear: at 1 s f = 1/2, so half the path's length is stroked
    anim = {"keyPath": "strokeEnd", "fromValue": 0, "toValue": 1, "duration": 2}
    assert close([s["strokeEnd"] for s in layer_of("shape", {}, [anim], [1])], [0.5])


def test_path_between_same_structure_paths_moves_every_stored_point():
    # §3: both paths are move, line, curve, close: every stored point (controls included) moves
    # a quarter of the way at f = 1/4: (0,0)→(8,4) gives (2,1); (10,0)→(10,20) gives (10,5);
    # control (0,10)→(4,10) gives (1,10); (5,5)→(9,1) gives (6,4); end (10,10)→(30,10) gives (15,10)
    a = [["move", 0, 0], ["line", 10, 0], ["curve", 0, 10, 5, 5, 10, 10], ["close"]]
    b = [["move", 8, 4], ["line", 10, 20], ["curve", 4, 10, 9, 1, 30, 10], ["close"]]
    anim = {"keyPath": "path", "fromValue": a, "toValue": b, "duration": 1}
    path = layer_of("shape", {"path": a}, [anim], [0.25])[0]["path"]
    assert path[0] == ["move", 2, 1] and path[1] == ["line", 10, 5] and path[3] == ["close"]
    assert path[2][0] == "curve" and close(path[2][1:], [1, 10, 6, 4, 15, 10])


def test_path_of_another_structure_switches_at_half():
    # §3: a line and a quad curve have different elements: from until u = 0.5, then to
    a = [["move", 0, 0], ["line", 10, 0]]
    b = [["move", 0, 0], ["quad", 5, 5, 10, 0]]
    anim = {"keyPath": "path", "fromValue": a, "toValue": b, "duration": 1}
    out = layer_of("shape", {}, [anim], [0.49, 0.5])
    assert out[0]["path"] == a and out[1]["path"] == b


def test_gradient_locations_interpolate_element_by_element():
    # [0, 1] → [0.5, 1] at f = 0.4: [0.2, 1]; colours of one length too: red → blue gives
    # (0.6, 0, 0.4, 1) in the first stop
    anims = [{"keyPath": "locations", "fromValue": [0, 1], "toValue": [0.5, 1], "duration": 1},
             {"keyPath": "colors", "fromValue": [[1, 0, 0, 1], [0, 0, 0, 1]],
              "toValue": [[0, 0, 1, 1], [0, 0, 0, 1]], "duration": 1}]
    g = layer_of("gradient", {"colors": [[1, 0, 0, 1], [0, 0, 0, 1]]}, anims, [0.4])[0]
    assert close(g["locations"], [0.2, 1]) and close(g["colors"][0], [0.6, 0, 0.4, 1])


def test_gradient_lists_of_other_lengths_switch_at_half():
    anim = {"keyPath": "locations", "fromValue": [0, 1], "toValue": [0, 0.5, 1], "duration": 1}
    out = layer_of("gradient", {}, [anim], [0.25, 0.75])
    assert out[0]["locations"] == [0, 1] and out[1]["locations"] == [0, 0.5, 1]


def test_gradient_point_sub_path():
    # startPoint defaults to (0.5, 0); startPoint.x 0 → 1 at f = 1/4 replaces x only
    anim = {"keyPath": "startPoint.x", "fromValue": 0, "toValue": 1, "duration": 1}
    assert close(layer_of("gradient", {}, [anim], [0.25])[0]["startPoint"], [0.25, 0])


def replicator(fields, sublayers=(), animations=(), times=(0,)):
    root = {"name": "r", "type": "replicator", "bounds": [0, 0, 100, 100], **fields,
            "sublayers": list(sublayers), "animations": list(animations)}
    out = oracle.sample({"root": root, "times": list(times)})
    return [s["layers"]["r"] for s in out["samples"]]


def test_replicator_colour_offsets_apples_example():
    # Apple's CAReplicatorLayer overview: white copies with blue and green offsets −0.2 lose
    # blue and green step by step: copy k has 1 − 0.2k, so copy 5 has 0 (§10.3, clamped)
    r = replicator({"instanceCount": 7, "instanceBlueOffset": -0.2, "instanceGreenOffset": -0.2})[0]
    colours = {c["index"]: c["color"] for c in r["instances"]}
    assert close(colours[1], [1, 0.8, 0.8, 1], 1e-6)
    assert close(colours[5], [1, 0, 0, 1], 1e-6) and close(colours[6], [1, 0, 0, 1], 1e-6)


def test_replicator_copy_transform_is_about_the_centre():
    # instanceTransform a quarter turn about z; copy 1 turns about the bounds' centre (50, 50):
    # Translate(−50,−50)·R(π/2)·Translate(50,50) takes (100, 50) to (50, 100)
    quarter = [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    r = replicator({"instanceCount": 2, "instanceTransform": quarter})[0]
    m = np.array(r["instances"][0]["transform"]).reshape(4, 4)
    assert np.allclose(np.array([100, 50, 0, 1]) @ m, [50, 100, 0, 1])


def test_replicator_copies_are_delayed():
    # instanceDelay 0.25: copy 2's sublayer sees parent time 1 − 0.5 = 0.5, so opacity 0 → 1 over
    # 2 s shows 0.25 there, against 0.5 in the original
    child = {"name": "c", "bounds": [0, 0, 10, 10],
             "animations": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 2}]}
    r = replicator({"instanceCount": 3, "instanceDelay": 0.25}, [child], times=[1])[0]
    copy2 = r["instances"][1]
    assert copy2["index"] == 2 and close(copy2["timeShift"], -0.5)
    assert close(copy2["layers"]["c"]["opacity"], 0.25)


def test_animated_instance_count_is_truncated():
    # §5: 1 → 4.5 over 1 s at f = 0.9 is 4.15, truncated to 4: copies 1, 2, 3 are listed
    anim = {"keyPath": "instanceCount", "fromValue": 1, "toValue": 4.5, "duration": 1}
    r = replicator({}, animations=[anim], times=[0.9])[0]
    assert r["instanceCount"] == 4 and [c["index"] for c in r["instances"]] == [1, 2, 3]


def test_mask_runs_in_its_owners_time_and_is_never_hit():
    # §10.4: the mask's time parent is the masked layer (speed 2: local 2 at media 1), so its
    # opacity 0 → 1 over 4 s shows 0.5; §7: a point on the mask alone hits nothing
    mask = {"name": "m", "bounds": [0, 0, 300, 300], "position": [150, 150],
            "animations": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 4}]}
    root = {"name": "r", "bounds": [0, 0, 100, 100], "position": [50, 50], "speed": 2, "mask": mask}
    out = oracle.sample({"root": root, "times": [1],
                         "hitTests": [{"time": 1, "point": [200, 200]}, {"time": 1, "point": [5, 5]}]})
    assert close(out["samples"][0]["layers"]["m"]["opacity"], 0.5)
    assert [h["layer"] for h in out["hits"]] == [None, "r"]


def test_subclass_key_path_on_another_layer_is_refused():
    with pytest.raises(oracle.SpecError) as err:
        layer_of("layer", {}, [{"keyPath": "strokeEnd", "toValue": 0.5}], [0])
    assert err.value.path == "root.animations[0].keyPath"


# ---- whole-case checks ---------------------------------------------------------------------------


def test_scenegen_is_deterministic_and_valid():
    for seed in range(40):
        doc = scenegen.generate(seed)
        assert doc == scenegen.generate(seed)
        assert doc["times"] == sorted(doc["times"]) and doc["times"][0] >= 0
        out = oracle.sample(json.loads(json.dumps(doc)))
        assert len(out["samples"]) == len(doc["times"])
        assert len(out["hits"]) == len(doc["hitTests"])


def test_command_line_round_trip():
    gen = subprocess.run([sys.executable, os.path.join(HERE, "scenegen.py"), "3"],
                         capture_output=True, text=True, check=True)
    res = subprocess.run([sys.executable, os.path.join(HERE, "oracle.py"), "-"],
                         input=gen.stdout, capture_output=True, text=True, check=True)
    assert json.loads(res.stdout) == oracle.sample(json.loads(gen.stdout))
