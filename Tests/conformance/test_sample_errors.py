"""Malformed inputs: `layercast sample` must exit non-zero and name the offending path.

Each case runs against the binary (skipped when it is not built) and against the oracle,
which follows the same error contract.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
BINARY = Path(os.environ.get("LAYERCAST_BIN") or REPO / ".build" / "debug" / "layercast")
ORACLE = HERE / "oracle.py"


def doc(root_animations=None, sublayer_animations=None, **root_fields) -> str:
    root = {"name": "root", "bounds": [0, 0, 100, 100], "position": [50, 50]}
    root.update(root_fields)
    if root_animations is not None:
        root["animations"] = root_animations
    if sublayer_animations is not None:
        root["sublayers"] = [{"name": "child", "bounds": [0, 0, 10, 10],
                              "animations": sublayer_animations}]
    return json.dumps({"root": root, "times": [0, 0.5], "hitTests": []})


def emitter(cells=None, times=(0, 0.5), sublayer=None, **fields) -> str:
    """A root emitter layer with `cells` (one visible cell by default), or a plain root with
    the emitter `sublayer`."""
    layer = {"name": "e", "type": "emitter", "bounds": [0, 0, 100, 100],
             "emitterCells": [{"birthRate": 2, "lifetime": 1, "contents": "star"}]
             if cells is None else cells}
    layer.update(fields)
    root = layer
    if sublayer is not None:
        layer.update(sublayer)
        root = {"name": "root", "bounds": [0, 0, 100, 100], "sublayers": [layer]}
    return json.dumps({"root": root, "times": list(times), "hitTests": []})


def kind(type_, animations=None, **fields) -> str:
    """A root layer of `type_` (shape, gradient, replicator) with `fields` and `animations`."""
    root = {"name": "k", "type": type_, "bounds": [0, 0, 100, 100], **fields}
    if animations is not None:
        root["animations"] = animations
    return json.dumps({"root": root, "times": [0, 0.5], "hitTests": []})


def basic(**fields):
    return dict({"type": "basic", "keyPath": "opacity", "fromValue": 0, "toValue": 1,
                 "duration": 1}, **fields)


# (id, input text, path that stderr must name, or None when only a message is required)
CASES = [
    ("malformed-json", '{"root": {"name": "root", "bounds": [0, 0, 1', None),
    ("not-an-object", "[1, 2, 3]", None),
    ("unknown-keypath", doc([basic(keyPath="positon")]), "root.animations[0].keyPath"),
    ("position-toValue-3-numbers",
     doc([basic(keyPath="position", fromValue=[0, 0], toValue=[1, 2, 3])]),
     "root.animations[0].toValue"),
    ("opacity-toValue-array", doc([basic(toValue=[1, 2])]), "root.animations[0].toValue"),
    ("keyTimes-out-of-order",
     doc(sublayer_animations=[{"type": "keyframe", "keyPath": "opacity",
                               "values": [0, 1, 0.5, 1], "keyTimes": [0, 0.6, 0.4, 1],
                               "duration": 1}]),
     "root.sublayers[0].animations[0].keyTimes"),
    ("negative-duration", doc([basic(duration=-1)]), "root.animations[0].duration"),
    ("huge-number-layer",
     doc().replace('"position": [50, 50]', '"position": [50, 50], "opacity": 1e400'),
     "root.opacity"),
    ("huge-number-animation",
     doc([basic()]).replace('"toValue": 1', '"toValue": 1e400'),
     "root.animations[0].toValue"),
    ("unknown-animation-type", doc([basic(type="bouncy")]), "root.animations[0].type"),
    ("unknown-calculationMode",
     doc([{"type": "keyframe", "keyPath": "opacity", "values": [0, 1],
           "calculationMode": "smooth", "duration": 1}]),
     "root.animations[0].calculationMode"),
    ("group-child-unknown-keypath",
     doc([{"type": "group", "duration": 1,
           "animations": [basic(), basic(keyPath="opacityy")]}]),
     "root.animations[0].animations[1].keyPath"),
    # emitter layers (docs/sample.md)
    ("emitter-key-on-plain-layer", doc(emitterShape="line"), "root.emitterShape"),
    ("emitter-unknown-shape", emitter(emitterShape="hexagon"), "root.emitterShape"),
    ("emitter-unknown-mode", emitter(emitterMode="edges"), "root.emitterMode"),
    ("emitter-unknown-render-mode", emitter(renderMode="newestFirst"), "root.renderMode"),
    ("emitter-fractional-seed", emitter(seed=1.5), "root.seed"),
    ("emitter-seed-beyond-32-bits", emitter(seed=2 ** 32), "root.seed"),
    ("emitter-negative-maxParticles", emitter(maxParticles=-1), "root.maxParticles"),
    ("emitter-multiplier-beyond-float", emitter(lifetime=1e39), "root.lifetime"),
    ("emitter-cells-not-an-array", emitter(cells={"birthRate": 1}), "root.emitterCells"),
    ("cell-unknown-key", emitter([{"birthrate": 1}]), "root.emitterCells[0].birthrate"),
    ("cell-colour-3-numbers", emitter([{"color": [1, 1, 1]}]), "root.emitterCells[0].color"),
    ("cell-negative-duration", emitter([{"duration": -1}]), "root.emitterCells[0].duration"),
    ("cell-rate-beyond-float", emitter([{"birthRate": -1e39}]), "root.emitterCells[0].birthRate"),
    ("subcell-contents-number",
     emitter([{"birthRate": 1, "emitterCells": [{}, {"contents": 5}]}]),
     "root.emitterCells[0].emitterCells[1].contents"),
    ("cell-rate-beyond-a-million", emitter([{"birthRate": 2e6, "lifetime": 1e-9}]),
     "root.emitterCells[0].birthRate"),
    ("subcell-rate-beyond-a-million",
     emitter([{"birthRate": 1, "emitterCells": [{"birthRate": 1e6}]}], birthRate=2),
     "root.emitterCells[0].emitterCells[0].birthRate"),
    ("emitter-too-many-births", emitter([{"birthRate": 1000, "lifetime": 1000}]),
     "root.emitterCells"),
    ("emitter-local-time-at-0-beyond-1e9", emitter(sublayer={"timeOffset": 2e9}),
     "root.sublayers[0]:"),
    ("emitter-sampled-local-time-beyond-1e9", emitter(times=(0, 1e9), speed=2), "times[1]"),
    # shape, gradient and replicator layers, masks (docs/sample.md)
    ("path-unknown-element", kind("shape", path=[["move", 0, 0], ["arc", 1, 2]]), "root.path[1]"),
    ("path-element-missing-a-number", kind("shape", path=[["move", 0, 0], ["line", 1]]),
     "root.path[1]"),
    ("path-not-starting-with-a-move", kind("shape", path=[["line", 1, 2]]), "root.path[0]"),
    ("path-coordinate-a-string", kind("shape", path=[["move", 0, "1"]]), "root.path[0][2]"),
    ("path-animation-value-malformed",
     kind("shape", [basic(keyPath="path", fromValue=[["move", 0, 0]], toValue=[["move"]])]),
     "root.animations[0].toValue[0]"),
    ("nan-line-width", kind("shape").replace('"bounds"', '"lineWidth": NaN, "bounds"'),
     "root.lineWidth"),
    ("nan-in-a-path", kind("shape").replace('"bounds"', '"path": [["move", NaN, 0]], "bounds"'),
     "root.path[0][1]"),
    ("dash-pattern-too-long", kind("shape", lineDashPattern=[1] * 65), "root.lineDashPattern"),
    ("dash-length-huge", kind("shape", lineDashPattern=[4, 1e7]), "root.lineDashPattern[1]"),
    ("dash-length-negative", kind("shape", lineDashPattern=[-1, 2]), "root.lineDashPattern[0]"),
    ("dash-pattern-all-zero", kind("shape", lineDashPattern=[0, 0]), "root.lineDashPattern"),
    ("unknown-line-cap", kind("shape", lineCap="pointy"), "root.lineCap"),
    ("shape-key-on-plain-layer", doc(fillColor=[1, 0, 0, 1]), "root.fillColor"),
    ("unknown-gradient-type", kind("gradient", gradientType="diamond"), "root.gradientType"),
    ("gradient-colour-3-numbers", kind("gradient", colors=[[1, 0, 0, 1], [1, 0, 0]]),
     "root.colors[1]"),
    ("gradient-locations-too-long", kind("gradient", locations=[0.5] * 1001), "root.locations"),
    ("gradient-key-on-shape", kind("shape", startPoint=[0, 0]), "root.startPoint"),
    ("negative-instance-count", kind("replicator", instanceCount=-1), "root.instanceCount"),
    ("fractional-instance-count", kind("replicator", instanceCount=2.5), "root.instanceCount"),
    ("instance-count-too-large", kind("replicator", instanceCount=10001), "root.instanceCount"),
    ("instance-offset-beyond-float", kind("replicator", instanceRedOffset=1e39),
     "root.instanceRedOffset"),
    ("shape-key-path-on-plain-layer", doc([basic(keyPath="strokeEnd")]),
     "root.animations[0].keyPath"),
    ("replicator-key-path-in-group-on-gradient",
     kind("gradient", [{"type": "group", "duration": 1,
                        "animations": [basic(keyPath="locations", fromValue=[0], toValue=[1]),
                                       basic(keyPath="instanceCount")]}]),
     "root.animations[0].animations[1].keyPath"),
    ("mask-not-an-object", doc(mask=[1, 2]), "root.mask"),
    ("mask-unknown-key", doc(mask={"bounds": [0, 0, 1, 1], "colour": 1}), "root.mask.colour"),
]


def run(kind: str, text: str) -> subprocess.CompletedProcess:
    if kind == "layercast":
        if not (BINARY.is_file() and os.access(BINARY, os.X_OK)):
            pytest.skip(f"layercast binary not found at {BINARY} (run `swift build` or set "
                        f"LAYERCAST_BIN)")
        cmd = [str(BINARY), "sample", "-"]
    else:
        cmd = [sys.executable, str(ORACLE), "-"]
    return subprocess.run(cmd, input=text, capture_output=True, text=True, timeout=10)


@pytest.mark.parametrize("kind", ["layercast", "oracle"])
@pytest.mark.parametrize("name, text, path", CASES, ids=[c[0] for c in CASES])
def test_malformed_input_is_rejected(kind, name, text, path):
    proc = run(kind, text)
    assert proc.returncode != 0, f"{kind} accepted {name}; stdout: {proc.stdout[:300]!r}"
    assert proc.stderr.strip(), f"{kind} rejected {name} without a message"
    if path is not None:
        assert path in proc.stderr, (f"{kind}: the message for {name} does not name "
                                     f"{path!r}: {proc.stderr.strip()!r}")
