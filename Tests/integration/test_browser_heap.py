"""No growing allocation on the draw path (issue 36): the snow page's used JS heap, and its render
worker's (which draws), measured after a garbage collection, are no bigger after a minute of
snowfall than before it (within 10 % and 1 MiB each). Headless Chromium against a real server,
through CDP (`HeapProfiler.collectGarbage`, then `Runtime.getHeapUsage`; a full heap snapshot is too
slow for the suite); the worker is reached through the browser's own CDP socket, attached to its
target. Helpers and the driver come from test_browser.py; skipped like it when Chromium or
Selenium is missing."""

from __future__ import annotations

import itertools
import json
import time
import urllib.request

import websocket

from conftest import wait_until
from test_browser import console, driver, js, view_stats, wait_frames  # noqa: F401

MIB = 1024 * 1024
#: The issue asks for a minute; the whole test takes about 70 s (start-up, 5 s warm-up, 60 s).
SPELL = 60.0


def used_heap_after_gc(drv) -> int:
    """The page's used JS heap in bytes, after two full garbage collections (the second frees what
    the first's finalizers let go)."""
    drv.execute_cdp_cmd("HeapProfiler.enable", {})
    for _ in range(2):
        drv.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
    return int(drv.execute_cdp_cmd("Runtime.getHeapUsage", {})["usedSize"])


class WorkerHeap:
    """The render worker's used JS heap, through a CDP session of its own on the browser's socket."""

    def __init__(self, drv):
        address = drv.capabilities["goog:chromeOptions"]["debuggerAddress"]
        version = json.loads(urllib.request.urlopen(f"http://{address}/json/version", timeout=5).read())
        self.socket = websocket.create_connection(version["webSocketDebuggerUrl"], timeout=10, suppress_origin=True)
        self.ids = itertools.count(1)
        self.attached: list[dict] = []
        pages = [t for t in self.call("Target.getTargets")["targetInfos"] if t["type"] == "page"]
        assert len(pages) == 1, f"pages: {pages}"
        page = self.call("Target.attachToTarget", targetId=pages[0]["targetId"], flatten=True)["sessionId"]
        # A dedicated worker is a target of its page's session: auto-attaching announces it.
        self.call("Target.setAutoAttach", page, autoAttach=True, waitForDebuggerOnStart=False, flatten=True)
        deadline = time.monotonic() + 5
        while not any("render-worker.js" in t["url"] for t in self.attached) and time.monotonic() < deadline:
            self.receive(timeout=0.1)
        workers = [t for t in self.attached if "render-worker.js" in t["url"]]
        assert len(workers) == 1, f"render workers: {workers}"
        self.session = workers[0]["sessionId"]

    def call(self, method: str, session: str | None = None, **params) -> dict:
        ident = next(self.ids)
        self.socket.send(json.dumps({"id": ident, "method": method, "params": params,
                                     **({"sessionId": session} if session else {})}))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            message = self.receive()
            if message.get("id") == ident:
                assert "error" not in message, message
                return message["result"]
        raise TimeoutError(method)

    def receive(self, timeout: float = 10) -> dict:
        """The next message within `timeout` seconds ({} if none), noting each target attached
        (`Target.attachedToTarget`)."""
        self.socket.settimeout(timeout)
        try:
            message = json.loads(self.socket.recv())
        except websocket.WebSocketTimeoutException:
            return {}
        if message.get("method") == "Target.attachedToTarget":
            params = message["params"]
            self.attached.append({"sessionId": params["sessionId"], "url": params["targetInfo"]["url"]})
        return message

    def used_after_gc(self) -> int:
        self.call("HeapProfiler.enable", self.session)
        for _ in range(2):
            self.call("HeapProfiler.collectGarbage", self.session)
        return int(self.call("Runtime.getHeapUsage", self.session)["usedSize"])

    def close(self) -> None:
        self.socket.close()


def test_snow_page_heap_stays_flat_while_it_snows(driver, console, server, room):  # noqa: F811
    driver.get(f"{server.base_url}scene.html?scene=snow&room={room}&role=spectator")
    wait_frames(driver, 15)
    # Warm up: the snowflake image has loaded, the code is compiled, the first flakes are drawn.
    wait_until(lambda: (js(driver, "return window.layercastView.viewTime();") or 0) >= 5, 15,
               "view time 5 s", 0.2)
    flakes = [i for i in js(driver, "return window.layercastView.items();") if i.get("name") == "flakeLayer"]
    assert flakes and len(flakes[0].get("pb", [])) >= 8, "the snow is falling before the first measure"
    before_stats = view_stats(driver)
    before = used_heap_after_gc(driver)
    worker = WorkerHeap(driver)
    worker_before = worker.used_after_gc()

    start = time.monotonic()
    drawing = []
    while time.monotonic() - start < SPELL:
        time.sleep(5)
        drawing.append(view_stats(driver)["fps"])
    after = used_heap_after_gc(driver)
    worker_after = worker.used_after_gc()
    worker.close()
    after_stats = view_stats(driver)

    # The page drew the snow all along, so the draw path ran. Frames carry only the new flakes'
    # birth records now (protocol.md, "Particles"), a few a second; the page draws every display
    # frame while a flake lives, between frames too.
    received = after_stats["framesReceived"] - before_stats["framesReceived"]
    assert received >= SPELL, (before_stats, after_stats)
    assert min(drawing) >= 10, f"draws per second, every 5 s: {drawing}"
    print(f"used JS heap after GC: {before / MIB:.2f} MiB before, {after / MIB:.2f} MiB after "
          f"{SPELL:.0f} s ({received} frames; draws per second every 5 s: {drawing})")
    print(f"the render worker's: {worker_before / MIB:.2f} MiB before, {worker_after / MIB:.2f} MiB after")
    assert after <= before * 1.1 + MIB, (
        f"used JS heap after GC grew from {before / MIB:.2f} MiB to {after / MIB:.2f} MiB "
        f"in {SPELL:.0f} s of snowfall ({received} frames)")
    assert worker_after <= worker_before * 1.1 + MIB, (
        f"the render worker's used JS heap after GC grew from {worker_before / MIB:.2f} MiB to "
        f"{worker_after / MIB:.2f} MiB in {SPELL:.0f} s of snowfall")
    assert js(driver, "return window.layercastErrors;") == []
    assert console.severe() == [], console.severe()
