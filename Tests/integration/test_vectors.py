"""The golden vectors of Tests/vectors/ (Tests/vectors/README.md), made by the Swift encoder,
applied by the test client's decoder (layercast_client.py): after each message its model of the
display list is exactly the list the vector gives, with no violation and no style note. Needs no
server."""

import copy
import json
import pathlib

import pytest

from layercast_client import apply_delta, apply_paths, delta_base, referenced_paths

VECTORS = pathlib.Path(__file__).resolve().parent.parent / "vectors"
FILES = sorted(VECTORS.glob("*.json"))


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
