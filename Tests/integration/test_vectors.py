"""The golden vectors of Tests/vectors/ (Tests/vectors/README.md), made by the Swift encoder,
applied by the test client's decoder (layercast_client.py): after each message its model of the
display list is exactly the list the vector gives, with no violation and no style note. Needs no
server."""

import copy
import json
import pathlib

import pytest

from layercast_client import apply_delta, apply_paths, delta_base, particle_states, referenced_paths

VECTORS = pathlib.Path(__file__).resolve().parent.parent / "vectors"
# Frame vectors (steps of messages); particle-states.json is the evaluators' (below).
FILES = sorted(p for p in VECTORS.glob("*.json") if p.name != "particle-states.json")


def test_there_are_vectors():
    assert len(FILES) >= 3, FILES


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_client_applies_vector(path):
    vector = json.loads(path.read_text(encoding="utf-8"))
    model = None
    number = -1
    paths = {}
    for index, step in enumerate(vector["steps"]):
        message = step["message"]
        violations, notes = [], []
        if message["full"]:
            model = copy.deepcopy(message["items"])
        else:
            assert model is not None, f"step {index}: a delta before any full frame"
            assert delta_base(message) <= number < message["n"], f"step {index}: does not apply to frame {number}"
            model = apply_delta(copy.deepcopy(model), message, message["n"], violations, notes)
        paths = apply_paths(paths, message)
        number = message["n"]
        where = f"{path.name} step {index} ({step['note']})"
        assert violations == [], where
        assert notes == [], where
        assert model == step["items"], where
        assert sorted([k, v] for k, v in paths.items()) == step.get("paths", []), where
        # The table holds exactly the paths the items use.
        assert referenced_paths(model) == paths.keys(), where


def test_evaluator_gives_the_particle_states():
    """particle-states.json (protocol.md, "Particles"): the Python evaluator of birth records draws
    the same particles as Swift at every display time, within one quantisation step (x, y 1e-2,
    scale 1e-4, rotation and alpha 1e-3, colour one 8-bit step)."""
    vector = json.loads((VECTORS / "particle-states.json").read_text(encoding="utf-8"))
    assert len(vector["cases"]) >= 4
    drawn = 0
    for case in vector["cases"]:
        for d, expected in zip(case["at"], case["states"], strict=True):
            got = particle_states(case["item"], d)
            where = f"{case['note']} at {d}"
            assert [s[0] for s in got] == [s[0] for s in expected], where
            for mine, theirs in zip(got, expected):
                _, x, y, scale, rotation, alpha, colour = mine
                for value, step, written in ((x, 1e-2, theirs[1]), (y, 1e-2, theirs[2]), (scale, 1e-4, theirs[3]),
                                             (rotation, 1e-3, theirs[4]), (alpha, 1e-3, theirs[5])):
                    assert abs(value - written) <= step * 1.0001, (where, mine, theirs)
                rgb = [int(theirs[6][i:i + 2], 16) for i in (1, 3, 5)]
                assert all(abs(c * 255 - b) <= 1 for c, b in zip(colour, rgb)), (where, mine, theirs)
            drawn += len(got)
    assert drawn > 100
