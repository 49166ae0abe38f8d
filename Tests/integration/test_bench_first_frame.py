"""The first-frame bench (bench/first_frame.py, issue 36) runs: the radar opened once fresh and once
from cache on the Lighthouse mobile profile, in headless Chromium against its own server. A benchmark,
not a timed test: only the report's shape is checked, with the values any working run has (a first
frame seen, requests made, fewer bytes from cache). It failed silently once, when the render worker
took over the drawing and the bench's mark, on the page's own 2-D contexts, never fired."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from browser import skip_module_without_browser
from conftest import BINARY, REPO, _require_binary

skip_module_without_browser()


def test_first_frame_bench_sees_the_worker_draw_the_first_frame():
    _require_binary()
    done = subprocess.run([sys.executable, str(REPO / "bench" / "first_frame.py"), "--binary", str(BINARY), "--runs", "1",
                           "--profiles", "lighthouse-mobile"], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    samples = {}
    for line in done.stderr.splitlines():
        if line.startswith("{"):
            row = json.loads(line)
            samples[row["cached"]] = row["samples"][0]
    assert set(samples) == {False, True}, done.stderr[-3000:]
    fresh, cached = samples[False], samples[True]
    # Two round trips of 150 ms at least before any frame (the page, then the socket); within the bench's 30 s.
    assert 300 < fresh["ms"] < 30_000 and 300 < cached["ms"] < 30_000, samples
    # A fresh visit fetches the page's modules (over 30 files, about 60 kB gzip'd: docs/performance.md,
    # "The first frame on a phone network") and 135 kB of fonts; at least part of that by the first frame.
    assert fresh["requests"] >= 10 and fresh["bytes"] > 50_000, fresh
    # From cache the fonts are not fetched again, and what is revalidated moves no body.
    assert cached["bytes"] < fresh["bytes"] / 2, samples
    assert "| lighthouse-mobile | fresh |" in done.stdout and "| lighthouse-mobile | cache |" in done.stdout, done.stdout
