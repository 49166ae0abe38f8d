"""The page's cost on a phone (issue 36; docs/performance.md): each shipped scene in its busy phase,
drawn by the page client in headless Chromium with a 414 × 736 window at device pixel ratio 2, at
CPU throttling 1× and 4× (CDP `Emulation.setCPUThrottlingRate`).

Per run it reports
- display fps and the p95 interval between animation frames that drew the page's canvas (an
  injected probe timestamps, with the requestAnimationFrame time (the page's, or the render
  worker's once it holds the canvas), the first clear of the canvas in each animation frame, or
  the render worker's answer that it drew one), both while the view
  moves: the page asks for animation frames only then, so the stretches from each frame asked for
  to that frame's end are its moving time (`movingShare` of the run), and fps is the pictures
  drawn in them per second of them. A scene that rests between taps or pulls (the book, the
  cubes) is not charged for its rests, and a page that falls behind while moving is;
- the main thread's busy share (`Performance.getMetrics` TaskDuration delta / wall time) and its
  script share (ScriptDuration),
- tap latency p95: from a pointer down (CDP `Input.dispatchMouseEvent`, its `timeStamp`) on the
  canvas to the tap message leaving the socket (the probe wraps `WebSocket.prototype.send`),
- WebSocket messages and text kB received a second.

Besides the shipped scenes, `burst`: a 400-particle heart burst every 3 s (a `CAEmitterLayer` whose
cell's birth rate is keyframed 0 → 800 over a second), replayed to the page client by a stand-in
socket from the frames `LayercastFrameBench burst-frames` encodes as a room would
(bench/burst/burst.js); measured by default when that binary is beside `--binary`.

Busy phases: radar, snow and reveal animate on their own (reveal is also replayed by the taps on its
Replay button); rain is measured while raining (the server runs with `--rain-every 1`); cubes is
pulled every 2 s so that it keeps refreshing; book is tapped on a book, which opens and closes it.
Every run taps the canvas four times a second. Scenes in `--still` (default cubes and book, which
rest until touched) are also measured at rest, untouched, first: what a page costs that shows a
still scene.

`--raster on,off` also measures each scene with the page's drawing turned off (`rasterise=0` in
the page's query, a bench-only flag: frames are decoded, interpolated and walked by the renderer,
every call that would put pixels on a canvas is a no-op; rows marked `(no raster)`). The difference
between the two rows is what software rasterising costs this machine's main thread, the most a
phone's GPU could take off it.

The page rasterises in its render worker where the browser has OffscreenCanvas (Chromium does):
"main busy" is then the page's thread without that work, and CDP's CPU throttling does not slow
the worker (docs/performance.md, "Rendering in a worker"). Serve an older `public/` with `--public`
to compare.

Threads and cores (`--layout`, on a machine with two cores; the server always runs on CPU 0):
- `split` (default): the page's main thread alone on CPU 1; the server, the render worker, the
  compositor, the GPU process and the rest of Chromium on CPU 0. As on a phone, the main thread has
  a core of its own and the worker draws beside it. CDP's throttling busy-waits on the throttled
  thread (it spins in a signal handler), so a throttled main thread sharing a core starves
  everything else on it; this layout keeps that spin off the worker's core.
- `shared`: all of Chromium on CPU 1 (the layout of the figures before it), the server on CPU 0.
CDP's throttling does not reach the worker, so every run also reports the worker's time per
picture (from the page asking for it to the finished picture arriving, p95): a phone's worker at a
quarter of this core's speed needs about four times that.
The 1-minute load average is recorded beside each run.

Usage: python3 bench/client.py [--seconds 8] [--scenes radar,rain,...] [--rates 1,4] [--raster on,off]
                               [--layout split|shared] [--json FILE]
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchlib import BINARY, REPO, Server, machine, pinned, table  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
BURST = "burst"
BURST_PAGE = Path(__file__).resolve().parent / "burst"
WIDTH, HEIGHT, RATIO = 414, 736, 2
TAP_EVERY = 0.25
PULL_EVERY = 2.0
SETTLE = 1.0
# One frame of a 60 Hz display, ms.
DISPLAY_FRAME_MS = 1000 / 60

# Installed before the page's scripts run; everything it keeps is on `window.__probe`.
PROBE = r"""
(() => {
  const probe = window.__probe = { frame: -1, counted: -1, draws: [], ticks: [], down: null, taps: [], messages: 0, chars: 0, asked: null, pictures: [] };
  const raf = window.requestAnimationFrame.bind(window);
  // Each animation frame asked for: [when asked, its frame time]. The page asks only while its view changes.
  window.requestAnimationFrame = (callback) => {
    const asked = performance.now();
    return raf((time) => { probe.frame = time; probe.ticks.push([asked, time]); callback(time); });
  };
  const clear = CanvasRenderingContext2D.prototype.clearRect;
  CanvasRenderingContext2D.prototype.clearRect = function (...args) {
    if (probe.frame !== probe.counted && this.canvas.classList && this.canvas.classList.contains('layercast-canvas')) {
      probe.counted = probe.frame;
      probe.draws.push(probe.frame);
    }
    return clear.apply(this, args);
  };
  addEventListener('pointerdown', (event) => {
    if (event.target.classList && event.target.classList.contains('layercast-canvas')) probe.down = event.timeStamp;
  }, true);
  // The render worker's time per picture: from `paint` posted to `painted` received.
  // Once it holds the canvas, the view asks the worker for its animation frames (`frame?`, answered
  // by `frame` with its time), which this notes as the page's own above.
  let frameAsked = null;
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && message.type === 'paint') probe.asked = performance.now();
    if (message && message.type === 'frame?' && frameAsked === null) frameAsked = performance.now();
    return post.call(this, message, ...rest);
  };
  const NativeWorker = window.Worker;
  window.Worker = class extends NativeWorker {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        if (event.data && event.data.type === 'frame') {
          probe.frame = event.data.time - performance.timeOrigin;
          probe.ticks.push([frameAsked ?? probe.frame, probe.frame]);
          frameAsked = null;
          return;
        }
        if (!event.data || event.data.type !== 'painted') return;
        if (probe.asked !== null) probe.pictures.push(performance.now() - probe.asked);
        probe.asked = null;
        if (probe.frame !== probe.counted) { // the worker drew on the page's canvas
          probe.counted = probe.frame;
          probe.draws.push(probe.frame);
        }
      });
    }
  };
  // What the socket sends and receives (also told by the burst page's stand-in socket).
  probe.sent = (data) => {
    if (typeof data === 'string' && data.startsWith('{"type":"tap"') && probe.down !== null) {
      probe.taps.push(performance.now() - probe.down);
      probe.down = null;
    }
  };
  probe.received = (data) => {
    probe.messages += 1;
    probe.chars += typeof data === 'string' ? data.length : 0;
  };
  const Native = window.WebSocket;
  const send = Native.prototype.send;
  Native.prototype.send = function (data) {
    probe.sent(data);
    return send.call(this, data);
  };
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => probe.received(event.data));
    }
  };
})();
"""


def percentile(values: list[float], share: float) -> float | None:
    """The nearest-rank percentile of `values` (None when empty)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def moving_spans(ticks: list[list[float]]) -> list[tuple[float, float]]:
    """The stretches (ms, page clock) in which the view was moving: the union, over every animation
    frame the page asked for, of the time from asking to that frame's end (a display frame after
    its frame time). A page that keeps moving asks for the next frame within the last one, so its
    stretch is unbroken however late the frames come; a page at rest asks for none."""
    spans: list[tuple[float, float]] = []
    for asked, time in sorted(ticks):
        begin, end = min(asked, time), time + DISPLAY_FRAME_MS
        if spans and begin <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], end))
        else:
            spans.append((begin, end))
    return spans


def load1() -> float:
    return float(open("/proc/loadavg").read().split()[0])


def browser():
    """Headless Chromium at 414 × 736 CSS pixels, device pixel ratio 2 (CDP metrics override)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="layercast-bench-chromium-")
    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={WIDTH},{HEIGHT}",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                f"--user-data-dir={profile}"):
        options.add_argument(arg)
    drv = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    drv.set_page_load_timeout(20)
    drv.set_script_timeout(10)
    drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                        {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": RATIO, "mobile": True})
    drv.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": PROBE})
    drv.execute_cdp_cmd("Performance.enable", {"timeDomain": "timeTicks"})
    return drv, profile


def wait(drv, script: str, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = drv.execute_script(script)
        if value:
            return value
        time.sleep(0.1)
    raise RuntimeError(f"timed out after {seconds} s waiting for {what}")


def main_thread(drv) -> dict[str, float]:
    metrics = drv.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]
    return {m["name"]: m["value"] for m in metrics}


def mouse(drv, kind: str, point: dict) -> None:
    drv.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "x": point["x"], "y": point["y"],
                                                     "button": "left", "buttons": 1 if kind != "mouseReleased" else 0,
                                                     "clickCount": 1})


def to_page(drv, x: float, y: float) -> dict:
    return drv.execute_script("return window.layercastView.sceneToPage(arguments[0], arguments[1]);", x, y)


def tap_point(drv, scene: str) -> tuple[float, float]:
    """Where taps land, in scene points: on a book (to open and close it), on Replay, else mid-stage."""
    if scene == "book":
        items = drv.execute_script("return window.layercastView.items();")
        book = next(i for i in items if str(i.get("name", "")).startswith("book-"))
        a, b, c, d, tx, ty = book["m"][:6]
        w, h = book["s"]
        return a * w / 2 + c * h / 2 + tx, b * w / 2 + d * h / 2 + ty
    if scene == "reveal":
        return 207, 560
    return 207, 400


def pull(drv) -> None:
    """A full pull of the cube loader: down at (207, 420), 140 points down in steps, up."""
    start = to_page(drv, 207, 420)
    end = to_page(drv, 207, 560)
    mouse(drv, "mousePressed", start)
    for k in range(1, 8):
        point = {"x": start["x"], "y": start["y"] + (end["y"] - start["y"]) * k / 7}
        drv.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": point["x"], "y": point["y"],
                                                         "button": "left", "buttons": 1})
        time.sleep(0.02)
    mouse(drv, "mouseReleased", end)


def measure(drv, scene: str, rate: float, seconds: float, still: bool = False, raster: bool = True) -> dict:
    """One run: throttle, settle, then `seconds` of taps (and pulls; none when `still`) with the probe
    reset at the start."""
    drv.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": rate})
    time.sleep(SETTLE)
    x, y = tap_point(drv, scene)
    drv.execute_script("const p = window.__probe; p.draws = []; p.ticks = []; p.taps = []; p.messages = 0; p.chars = 0;"
                       " p.down = null; p.pictures = []; p.asked = null;")
    before = main_thread(drv)
    start = time.monotonic()
    next_tap, next_pull = start, start
    while time.monotonic() - start < seconds:
        now = time.monotonic()
        if still:
            pass
        elif scene == "cubes" and now >= next_pull:
            pull(drv)
            next_pull += PULL_EVERY
        elif now >= next_tap:
            point = to_page(drv, x, y)
            mouse(drv, "mousePressed", point)
            mouse(drv, "mouseReleased", point)
            next_tap += TAP_EVERY
        time.sleep(0.02)
    after = main_thread(drv)
    wall = time.monotonic() - start
    probe = drv.execute_script("const p = window.__probe;"
                               " return {draws: p.draws, ticks: p.ticks, taps: p.taps, messages: p.messages, chars: p.chars,"
                               " pictures: p.pictures};")
    drv.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": 1})
    draws = probe["draws"]
    spans = moving_spans(probe["ticks"])
    moving = sum(end - begin for begin, end in spans) / 1000
    inside = lambda a, b: any(begin <= a and b <= end for begin, end in spans)  # noqa: E731 (one stretch holds a…b)
    intervals = [b - a for a, b in zip(draws, draws[1:]) if inside(a, b)]
    return {
        "scene": scene + (" (still)" if still else "") + ("" if raster else " (no raster)"), "cpuThrottle": rate, "seconds": round(wall, 2),
        "fps": round(sum(1 for d in draws if inside(d, d)) / moving, 1) if moving > 0 else None,
        "movingShare": round(moving / wall, 3),
        "drawsPerSecond": round(len(draws) / wall, 1),
        "frameIntervalP95Ms": round(percentile(intervals, 0.95), 1) if intervals else None,
        "mainThreadBusy": round((after["TaskDuration"] - before["TaskDuration"]) / wall, 3),
        "scriptShare": round((after["ScriptDuration"] - before["ScriptDuration"]) / wall, 3),
        "tapLatencyP95Ms": round(percentile(probe["taps"], 0.95), 1) if probe["taps"] else None,
        "taps": len(probe["taps"]),
        "workerPictureP95Ms": round(percentile(probe["pictures"], 0.95), 1) if probe["pictures"] else None,
        "messagesPerSecond": round(probe["messages"] / wall, 1),
        "kilobytesPerSecond": round(probe["chars"] / wall / 1000, 1),
        "load1": load1(),
    }


def split_threads() -> None:
    """Pins each Chromium renderer's main thread to CPU 1 and every other Chromium thread to CPU 0
    (`--layout split`); threads started later inherit their starter's core, so this runs before
    each measurement."""
    for stat in glob.glob("/proc/[0-9]*/task/[0-9]*/stat"):
        pid, tid = stat.split("/")[2], stat.split("/")[4]
        try:
            if "chrom" not in Path(f"/proc/{pid}/comm").read_text():
                continue
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            renderer_main = re.search(r"--type=renderer\b", command) is not None and pid == tid
            os.sched_setaffinity(int(tid), {1} if renderer_main else {0})
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue   # a thread or process that ended meanwhile


def page_of(scene: dict, room: str, raster: bool = True) -> str:
    page = scene.get("page")
    query = "" if raster else "&rasterise=0"
    return (f"{page}?room={room}&role=player" if page else f"scene.html?scene={scene['id']}&room={room}&role=player") + query


def with_burst_page(public: Path, frame_bench: Path, seconds: float) -> Path:
    """A copy of `public` with the burst page beside it (bench-burst/: bench/burst/ and the frames
    `frame_bench burst-frames` writes, enough for `seconds` of measuring); the caller removes it."""
    served = Path(tempfile.mkdtemp(prefix="layercast-bench-public-"))
    shutil.copytree(public, served / "public")
    shutil.copytree(BURST_PAGE, served / "public" / "bench-burst")
    frames = subprocess.run([str(frame_bench), "burst-frames", str(int(seconds) + 30)], check=True,
                            capture_output=True, text=True, timeout=300).stdout
    (served / "public" / "bench-burst" / "frames.jsonl").write_text(frames)
    return served


def run(args) -> dict:
    two_cores = (os.cpu_count() or 1) >= 2
    split = two_cores and args.layout == "split"
    rain_duration = min(600, int(len(args.raster) * len(args.rates) * (args.seconds + SETTLE + 3) + 20))
    burst = BURST in args.scenes if args.scenes else args.frame_bench.exists()
    if burst and not args.frame_bench.exists():
        sys.exit(f"the burst needs {args.frame_bench} (swift build -c release --product LayercastFrameBench)")
    if not burst and not args.scenes:
        print(f"no {args.frame_bench}: the burst is not measured", file=sys.stderr)
    measured_seconds = len(args.raster) * (len(args.rates) * (args.seconds + SETTLE + 2) + 5)
    served = with_burst_page(args.public, args.frame_bench, measured_seconds) if burst else None
    public = served / "public" if served else args.public
    # A later --public overrides the one Server passes (the last given wins).
    try:
        with Server("--rain-every", "1", "--rain-duration", str(rain_duration), "--public", str(public),
                    binary=args.binary, prefix=pinned("0")) as server:
            return measure_all(args, server, two_cores, split, burst)
    finally:
        if served:
            shutil.rmtree(served, ignore_errors=True)


def measure_all(args, server: Server, two_cores: bool, split: bool, burst: bool) -> dict:
    """Every wanted scene's runs against `server`, the burst's among them when `burst`; Chromium
    pinned as `two_cores` and `split` say (`--layout`)."""
    base = f"http://127.0.0.1:{server.port}/"
    shipped = json.loads(urllib.request.urlopen(base + "api/scenes", timeout=5).read())
    shipped = shipped.get("scenes", shipped) if isinstance(shipped, dict) else shipped
    by_id = {scene["id"]: scene for scene in shipped}
    by_id[BURST] = {"id": BURST, "page": "bench-burst/burst.html"}
    wanted = args.scenes or [*(name for name in by_id if name != BURST), *([BURST] if burst else [])]
    if two_cores:
        os.sched_setaffinity(0, {0} if split else {1})   # Chromium and chromedriver inherit it
    drv, profile = browser()
    runs = []
    try:
        for name in wanted:
            for raster in args.raster:
                drv.get(base + page_of(by_id[name], f"bench-{name}-{os.getpid()}", raster))
                wait(drv, "return window.layercastView && window.layercastView.stats().framesReceived > 5", 20,
                     f"{name}'s first frames")
                if split:
                    split_threads()
                if name in args.still:
                    for rate in args.rates:
                        result = measure(drv, name, rate, args.seconds, still=True, raster=raster)
                        runs.append(result)
                        print(f"{result['scene']} at {rate:g}x: {result}", file=sys.stderr)
                if name == "rain":
                    wait(drv, "return window.rainState && window.rainState.phase === 'raining'", 30, "the rain to fall")
                for rate in args.rates:
                    result = measure(drv, name, rate, args.seconds, raster=raster)
                    runs.append(result)
                    print(f"{result['scene']} at {rate:g}x: {result}", file=sys.stderr)
    finally:
        drv.quit()
        shutil.rmtree(profile, ignore_errors=True)
    return {"machine": machine(), "window": {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": RATIO},
            "pinned": ("server and Chromium on CPU 0 but the page's main thread, alone on CPU 1" if split
                       else "server on CPU 0, Chromium on CPU 1" if two_cores else "not pinned (one core)"),
            "runs": runs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8, help="measured seconds per scene and rate")
    parser.add_argument("--scenes", type=lambda s: [x for x in s.split(",") if x], default=None,
                        help="comma-separated scene ids, `burst` included (default: every scene of GET /api/scenes, "
                             "and the burst)")
    parser.add_argument("--rates", type=lambda s: [float(x) for x in s.split(",")], default=[1.0, 4.0],
                        help="CPU throttling rates (default 1,4)")
    parser.add_argument("--still", type=lambda s: [x for x in s.split(",") if x], default=["cubes", "book"],
                        help="scenes also measured at rest, untouched (default cubes,book)")
    parser.add_argument("--raster", type=lambda s: [{"on": True, "off": False}[x] for x in s.split(",") if x],
                        default=[True], help="on, off or on,off: the page drawing as usual and/or with rasterising "
                                             "turned off (the page's bench-only rasterise=0; default on)")
    parser.add_argument("--layout", choices=["split", "shared"], default="split",
                        help="split: the page's main thread alone on CPU 1, the rest of Chromium with the server "
                             "on CPU 0 (default); shared: all of Chromium on CPU 1")
    parser.add_argument("--frame-bench", type=Path, default=None,
                        help="the LayercastFrameBench that writes the burst's frames (default: beside --binary)")
    parser.add_argument("--binary", type=Path, default=Path(os.environ.get("LAYERCAST_BIN") or BINARY))
    parser.add_argument("--public", type=Path, default=REPO / "public",
                        help="the page client to serve (e.g. an older checkout of public/ to compare)")
    parser.add_argument("--json", type=Path, help="also write the report here")
    args = parser.parse_args()
    args.frame_bench = args.frame_bench or args.binary.parent / "LayercastFrameBench"
    report = run(args)
    print(f"machine: {report['machine']}; {report['pinned']}; window {WIDTH}x{HEIGHT} at DPR {RATIO}")
    headers = ["scene", "CPU ×", "fps", "moving", "p95 frame ms", "main busy", "script", "tap p95 ms (taps)",
               "worker p95 ms", "msgs/s", "kB/s", "load 1 min"]
    rows = [[r["scene"], f"{r['cpuThrottle']:g}", r["fps"] or "–", f"{r['movingShare']:.0%}", r["frameIntervalP95Ms"], f"{r['mainThreadBusy']:.0%}",
             f"{r['scriptShare']:.0%}", f"{r['tapLatencyP95Ms']} ({r['taps']})", r["workerPictureP95Ms"] or "–",
             r["messagesPerSecond"],
             r["kilobytesPerSecond"], r["load1"]] for r in report["runs"]]
    print(table(headers, rows))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
