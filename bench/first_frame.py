#!/usr/bin/env python3
"""The first frame on a phone network (issue 36): headless Chromium (Debian's chromium and
chromium-driver through Selenium, as Tests/integration/browser.py) opens a scene page on a
414×736 window at DPR 2 under CDP network emulation and a 4× slower CPU, and measures the time
from navigation to the scene's first drawn frame, with the requests and bytes it took.

The first drawn frame: a script injected before any of the page's (Page.addScriptToEvaluateOnNewDocument)
marks `layercast-first-frame` (performance.mark) when the render worker answers `painted` to the
first picture with items in it, the picture then being on the page's canvas (the worker draws on
it); or, where the page draws on its own thread (no worker), at the first fill, stroke, text or
image drawn on a 2-D canvas: the view only clears its canvas until it draws a frame's items.
The worker fetches its own modules (a document's `modulepreload` does not reach a worker's module
map): their requests are not in the page's Resource Timing, so "requests" and "kB" are the page's.

Each profile is run `--runs` times fresh (the browser's cache cleared: a first visit) and as
many times from cache (the same page opened once before in the same browser). Requests and
bytes are those of the navigation and of every resource started before the first frame
(Resource Timing `transferSize`: headers and body as sent, compressed; 0 for a cache hit, which
is not counted as a request). The WebSocket is not among them.

    python3 bench/first_frame.py                                  # this checkout's debug build and public/
    python3 bench/first_frame.py --binary /work/bin/layercast-main --public /tmp/main-public/public
    python3 bench/first_frame.py --nginx                          # behind deploy/nginx-layercast.conf
    python3 bench/first_frame.py --runs 1 --profiles 3g           # one profile, once each visit

`--nginx` puts Debian's nginx in front with the locations of deploy/nginx-layercast.conf (TLS with
a throw-away self-signed certificate, HTTP/2), as a deployment serves the pages: one connection
carries every request, where HTTP/1.1 straight to the server opens at most six at a time.
"""
from __future__ import annotations

import argparse
import json
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchlib import REPO, free_port, machine, stop, table, wait_for_port  # noqa: E402

# Lighthouse's mobile throttling (its "Slow 4G") and a 3G one: RTT, down and up in bits/s.
PROFILES = {
    "lighthouse-mobile": {"latency": 150, "down": 1_600_000, "up": 750_000},
    "3g": {"latency": 300, "down": 1_600_000, "up": 750_000},
}
CPU_SLOWDOWN = 4
BROWSER_FLAGS: list[str] = []

MARK = """
(() => {
  let marked = false;
  const mark = () => { if (!marked) { marked = true; performance.mark('layercast-first-frame'); } };
  const proto = CanvasRenderingContext2D.prototype;
  for (const name of ['fill', 'stroke', 'fillText', 'strokeText', 'drawImage', 'fillRect', 'putImageData']) {
    const original = proto[name];
    proto[name] = function (...args) { mark(); return original.apply(this, args); };
  }
  // The render worker's pictures: marked when the first one with items is answered `painted`.
  let withItems = false;
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && message.type === 'paint') withItems = (message.picture?.items?.length ?? 0) > 0;
    return post.call(this, message, ...rest);
  };
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => { if (event.data?.type === 'painted' && withItems) mark(); });
    }
  };
})();
"""

RESULT = """
const mark = performance.getEntriesByName('layercast-first-frame')[0];
if (!mark) return null;
const navigation = performance.getEntriesByType('navigation')[0];
const before = [navigation, ...performance.getEntriesByType('resource').filter((e) => e.startTime < mark.startTime)];
const sent = before.filter((e) => e.transferSize > 0);
return {ms: mark.startTime, requests: sent.length, bytes: sent.reduce((sum, e) => sum + e.transferSize, 0)};
"""


def nginx(upstream: int, directory: Path) -> tuple[subprocess.Popen, int]:
    """nginx on a free port with deploy/nginx-layercast.conf's server block, proxying to `upstream`;
    the browsers started afterwards trust its certificate (by its SPKI hash, so that they cache)."""
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-keyout", str(directory / "key.pem"), "-out", str(directory / "cert.pem")],
                   check=True, capture_output=True)
    port = free_port()
    site = (REPO / "deploy" / "nginx-layercast.conf").read_text()
    site = (site.replace("listen 443 ssl http2 backlog=4096;", f"listen 127.0.0.1:{port} ssl http2;")
            .replace("/etc/ssl/certs/layercast.pem", str(directory / "cert.pem"))
            .replace("/etc/ssl/private/layercast.key", str(directory / "key.pem"))
            .replace("127.0.0.1:8080", f"127.0.0.1:{upstream}"))
    (directory / "nginx.conf").write_text(
        f"daemon off; worker_processes 1; pid {directory}/nginx.pid; error_log {directory}/error.log;\n"
        f"events {{ worker_connections 1024; }}\n"
        f"http {{ access_log off; client_body_temp_path {directory}; proxy_temp_path {directory};\n{site}\n}}\n")
    spki = subprocess.run(f"openssl x509 -in {directory / 'cert.pem'} -pubkey -noout | openssl pkey -pubin -outform der"
                          " | openssl dgst -sha256 -binary | base64", shell=True, check=True, capture_output=True, text=True)
    BROWSER_FLAGS.append(f"--ignore-certificate-errors-spki-list={spki.stdout.strip()}")
    proc = subprocess.Popen(["nginx", "-p", str(directory), "-c", str(directory / "nginx.conf")])
    wait_for_port(port, proc)
    return proc, port


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.TemporaryDirectory(prefix="layercast-first-frame-")
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=414,736",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                f"--user-data-dir={profile.name}", *BROWSER_FLAGS):
        options.add_argument(arg)
    drv = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    drv.set_page_load_timeout(60)
    drv._layercast_profile = profile
    drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                        {"width": 414, "height": 736, "deviceScaleFactor": 2, "mobile": True})
    drv.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": MARK})
    drv.execute_cdp_cmd("Network.enable", {})
    return drv


def throttle(drv, profile: dict | None) -> None:
    if profile is None:
        drv.execute_cdp_cmd("Network.emulateNetworkConditions",
                            {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        drv.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": 1})
        return
    drv.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": profile["latency"],
        "downloadThroughput": profile["down"] / 8, "uploadThroughput": profile["up"] / 8})
    drv.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})


def first_frame(drv, url: str, timeout: float = 30) -> dict:
    drv.get("about:blank")
    drv.get(url)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = drv.execute_script(RESULT)
        if result:
            return result
        time.sleep(0.05)
    raise RuntimeError(f"no frame drawn within {timeout} s: {url}")


def run(base: str, scene: str, runs: int, profiles: list[str]) -> list[list[object]]:
    rows = []
    for name in profiles:
        profile = PROFILES[name]
        for cached in (False, True):
            samples = []
            for index in range(runs):
                drv = browser()
                try:
                    url = f"{base}scene.html?scene={scene}&room=ff{int(cached)}{index}-{name[:3]}-{time.time_ns() % 10**9}"
                    if cached:
                        throttle(drv, None)
                        first_frame(drv, url)  # fills the cache
                    throttle(drv, profile)
                    samples.append(first_frame(drv, url))
                finally:
                    drv.quit()
                    drv._layercast_profile.cleanup()
            ms = [s["ms"] for s in samples]
            rows.append([name, "cache" if cached else "fresh", f"{statistics.median(ms):.0f}",
                         f"{min(ms):.0f}–{max(ms):.0f}", samples[0]["requests"],
                         f"{statistics.median(s['bytes'] for s in samples) / 1000:.1f}"])
            print(json.dumps({"profile": name, "cached": cached, "samples": samples}), file=sys.stderr)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(REPO / ".build" / "debug" / "layercast"))
    parser.add_argument("--public", default=str(REPO / "public"))
    parser.add_argument("--scene", default="radar")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--nginx", action="store_true", help="through nginx (TLS, HTTP/2), as deployed")
    parser.add_argument("--profiles", type=lambda s: s.split(","), default=list(PROFILES),
                        help=f"network profiles, comma-separated (default: {','.join(PROFILES)})")
    args = parser.parse_args()
    unknown = set(args.profiles) - set(PROFILES)
    if unknown:
        sys.exit(f"unknown profiles: {', '.join(sorted(unknown))}")

    port = free_port()
    data = tempfile.mkdtemp(prefix="layercast-first-frame-data-")
    proc = subprocess.Popen([args.binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--public", args.public,
                             "--data", data, "--log-level", "warning"], stdout=subprocess.DEVNULL)
    proxy = None
    try:
        wait_for_port(port, proc)
        base = f"http://127.0.0.1:{port}/"
        if args.nginx:
            proxy, proxy_port = nginx(port, Path(tempfile.mkdtemp(prefix="layercast-first-frame-nginx-")))
            base = f"https://127.0.0.1:{proxy_port}/"
        rows = run(base, args.scene, args.runs, args.profiles)
    finally:
        if proxy:
            stop(proxy, signal.SIGQUIT)
        stop(proc)
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"{machine()}; {load}")
    print(f"{args.binary} --public {args.public}{' behind nginx (TLS, HTTP/2)' if args.nginx else ''}; scene.html?scene={args.scene}; {args.runs} runs each; "
          f"window 414×736 at DPR 2, CPU {CPU_SLOWDOWN}× slower")
    print(table(["profile", "visit", "first frame (ms, median)", "range (ms)", "requests", "kB transferred"], rows))


if __name__ == "__main__":
    main()
