"""The client-cost bench (bench/client.py, issue 36) runs: 2 s of the radar at CPU throttling 1×, drawn
and with its drawing turned off (--raster on,off), in headless Chromium against its own server. A benchmark, not a timed test: only the report's shape
is checked (its figures depend on the machine), with the values any working run has (frames drawn,
taps sent, messages received). The 400-particle burst is replayed to the page the same way (2 s at 1×)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from browser import skip_module_without_browser
from conftest import BINARY, REPO, _require_binary

skip_module_without_browser()

KEYS = {"scene", "cpuThrottle", "seconds", "fps", "movingShare", "drawsPerSecond", "frameIntervalP95Ms", "mainThreadBusy",
        "scriptShare", "tapLatencyP95Ms", "taps", "workerPictureP95Ms", "messagesPerSecond", "kilobytesPerSecond",
        "load1"}


def test_client_bench_reports_one_run_per_scene_and_rate(tmp_path):
    _require_binary()
    report_file = tmp_path / "client.json"
    done = subprocess.run([sys.executable, str(REPO / "bench" / "client.py"), "--seconds", "2", "--scenes", "radar",
                           "--rates", "1", "--raster", "on,off", "--json", str(report_file)],
                          env={**os.environ, "LAYERCAST_BIN": str(BINARY)}, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "| radar | 1 |" in done.stdout, done.stdout
    report = json.loads(report_file.read_text())
    assert report["window"] == {"width": 414, "height": 736, "deviceScaleFactor": 2}
    assert isinstance(report["machine"], str) and report["pinned"]
    if (os.cpu_count() or 1) >= 2:   # the default layout: the page's main thread alone on a core
        assert report["pinned"].startswith("server and Chromium on CPU 0"), report["pinned"]
    run, unrasterised = report["runs"]
    assert set(run) == KEYS and set(unrasterised) == KEYS, set(run) ^ KEYS
    assert run["scene"] == "radar" and run["cpuThrottle"] == 1
    # The page with its drawing turned off (rasterise=0) still walks every frame it would draw.
    assert unrasterised["scene"] == "radar (no raster)" and unrasterised["cpuThrottle"] == 1
    assert unrasterised["fps"] > 0 and unrasterised["taps"] >= 4, unrasterised
    assert 1.9 <= run["seconds"] <= 10, run
    assert run["fps"] > 0 and run["frameIntervalP95Ms"] > 0, run
    # The radar sweeps all the time: its view moves through nearly all of the run (its first frames
    # may come a little after the run starts, and the last stretch ends a display frame after it).
    assert 0.8 <= run["movingShare"] <= 1.05, run
    assert 0 < run["mainThreadBusy"] <= 1.05 and 0 <= run["scriptShare"] <= run["mainThreadBusy"], run
    assert run["taps"] >= 4 and run["tapLatencyP95Ms"] >= 0, run
    # Chromium draws in the render worker: its time per picture is measured.
    assert run["workerPictureP95Ms"] > 0, run
    assert run["messagesPerSecond"] > 10 and run["kilobytesPerSecond"] > 0, run
    assert run["load1"] >= 0


def test_client_bench_replays_the_burst_to_the_page(tmp_path):
    """The burst (`LayercastFrameBench burst-frames`, beside the server binary) is replayed to the page
    client by the bench's stand-in socket, and the page draws it: frames arrive, pictures are drawn,
    taps leave through the stand-in."""
    _require_binary()
    frame_bench = BINARY.parent / "LayercastFrameBench"
    assert frame_bench.exists(), f"{frame_bench} is built with the package (swift build --build-tests)"
    report_file = tmp_path / "burst.json"
    done = subprocess.run([sys.executable, str(REPO / "bench" / "client.py"), "--seconds", "2", "--scenes", "burst",
                           "--rates", "1", "--json", str(report_file)],
                          env={**os.environ, "LAYERCAST_BIN": str(BINARY)}, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    [run] = json.loads(report_file.read_text())["runs"]
    assert set(run) == KEYS and run["scene"] == "burst", run
    assert run["fps"] > 0 and run["workerPictureP95Ms"] > 0, run
    assert run["messagesPerSecond"] > 5 and run["kilobytesPerSecond"] > 0, run
    assert run["taps"] >= 4, run
