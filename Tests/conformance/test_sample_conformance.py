"""Conformance of `layercast sample` with the independent oracle (oracle.py).

For each seed, scenegen.py generates a case; the binary's answer must match the oracle's:
every number within 0.01 (or 1e-6 relative, for large numbers), every bool, string and
hit-test result exactly (so an emitter layer's particles match one for one: ids, cells, order).

    LAYERCAST_BIN                 the binary (default: .build/debug/layercast in the repo)
    LAYERCAST_CONFORMANCE_CASES   number of seeds (default 300)
    LAYERCAST_CONFORMANCE_SEED    first seed (default 0)

Reproduce a failing seed:
    python3 Tests/conformance/scenegen.py SEED | .build/debug/layercast sample -
    python3 Tests/conformance/scenegen.py SEED --expect      # the oracle's answer
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))

import oracle  # noqa: E402
import scenegen  # noqa: E402

BINARY = Path(os.environ.get("LAYERCAST_BIN") or REPO / ".build" / "debug" / "layercast")
CASES = int(os.environ.get("LAYERCAST_CONFORMANCE_CASES", "300"))
FIRST_SEED = int(os.environ.get("LAYERCAST_CONFORMANCE_SEED", "0"))
TIMEOUT = 10.0
ABS_TOL = 0.01
REL_TOL = 1e-6

if not (BINARY.is_file() and os.access(BINARY, os.X_OK)):
    pytest.skip(f"layercast binary not found at {BINARY} (run `swift build` or set "
                f"LAYERCAST_BIN)", allow_module_level=True)

SEEDS = list(range(FIRST_SEED, FIRST_SEED + CASES))


def run_binary(text: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BINARY), "sample", "-"], input=text, capture_output=True,
                          text=True, timeout=TIMEOUT)


def first_difference(expected, actual, path: str = ""):
    """The first place where `actual` differs from `expected`: (path, expected, actual)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return path, expected, actual
        for key, value in expected.items():
            sub = f"{path}.{key}" if path else key
            if key not in actual:
                return sub, value, "<missing>"
            found = first_difference(value, actual[key], sub)
            if found:
                return found
        if path.endswith("layers"):
            extra = sorted(set(actual) - set(expected))
            if extra:
                return f"{path}.{extra[0]}", "<no such layer>", actual[extra[0]]
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return path, expected, actual
        for i, (e, a) in enumerate(zip(expected, actual)):
            found = first_difference(e, a, f"{path}[{i}]")
            if found:
                return found
        if len(actual) != len(expected):  # e.g. particles: the first missing or extra one
            i = min(len(actual), len(expected))
            return f"{path}[{i}]", expected[i:i + 1] or "<none>", actual[i:i + 1] or "<none>"
        return None
    if isinstance(expected, bool) or expected is None or isinstance(expected, str):
        same = type(actual) is type(expected) and actual == expected
        return None if same else (path, expected, actual)
    if isinstance(actual, bool) or not isinstance(actual, (int, float)):
        return path, expected, actual
    if abs(expected - actual) <= max(ABS_TOL, REL_TOL * abs(expected)):
        return None
    return path, expected, actual


@functools.lru_cache(maxsize=None)
def all_runs():
    """Generate every case, run the binary on all of them in parallel (once per session)."""
    docs = {seed: scenegen.generate(seed) for seed in SEEDS}
    texts = {seed: json.dumps(doc) for seed, doc in docs.items()}

    def job(seed):
        try:
            return seed, run_binary(texts[seed])
        except subprocess.TimeoutExpired:
            return seed, None

    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 2)) as pool:
        runs = dict(pool.map(job, SEEDS))
    return {seed: (docs[seed], runs[seed]) for seed in SEEDS}


@pytest.mark.parametrize("seed", SEEDS)
def test_sample_matches_oracle(seed):
    doc, proc = all_runs()[seed]
    shown = os.path.relpath(BINARY, REPO) if BINARY.is_relative_to(REPO) else BINARY
    repro = (f"reproduce: python3 Tests/conformance/scenegen.py {seed} | {shown} sample -\n"
             f"oracle:    python3 Tests/conformance/scenegen.py {seed} --expect")
    if proc is None:
        pytest.fail(f"seed {seed}: layercast timed out after {TIMEOUT} s\n{repro}", pytrace=False)
    if proc.returncode != 0:
        pytest.fail(f"seed {seed}: layercast exited {proc.returncode}\n"
                    f"stderr: {proc.stderr.strip()[:2000]}\n{repro}", pytrace=False)
    try:
        actual = json.loads(proc.stdout)
    except ValueError as err:
        pytest.fail(f"seed {seed}: output is not JSON ({err}): {proc.stdout[:500]!r}\n{repro}",
                    pytrace=False)
    expected = oracle.sample(doc)
    found = first_difference(expected, actual)
    if found:
        path, want, got = found
        pytest.fail(f"seed {seed}: first difference at {path}\n"
                    f"  oracle:    {json.dumps(want)}\n"
                    f"  layercast: {json.dumps(got)}\n{repro}", pytrace=False)
