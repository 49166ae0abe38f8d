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
