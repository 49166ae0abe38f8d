"""The cube loader (`scene=cubes`, docs/protocol.md "The cube loader") over the real server.

Scene facts used here (from CubesScene's contract): four cubes `cube-0` … `cube-3`, each drawn
as three face items `cube-N-top|front|left`; the loader sits at (207, 200) scaled by 3 under the
rotation rotate(π/4 about X)·rotate(−π/4 about Z); a cube at local (x, y) has its top face's
centre at local (x, y, 10), which lands on the scene point
    (207 + 3·(x + y)·√½,  200 + 3·((y − x)/2 − 10·√½)).
Key points of cube 0 (u = 20, h = 10): (−10,−20), (10,−20), (10,0), (10,0), (10,20), (−10,20),
(−10,0), (−10,0); cube k starts at key point 2k. A drag's vertical distance maps to the pull,
120 pt = 100 %.
"""

from __future__ import annotations

import math
import time

import pytest

from layercast_client import LayercastClient, item_by_name, item_center

R = math.sqrt(0.5)
KEY_POINTS = [(-10, -20), (10, -20), (10, 0), (10, 0), (10, 20), (-10, 20), (-10, 0), (-10, 0)]
FACE_NAMES = {f"cube-{k}-{face}" for k in range(4) for face in ("top", "front", "left")}


def top_centre(x: float, y: float) -> tuple[float, float]:
    """Scene point of the top face's centre of a cube at local (x, y) (see the module doc)."""
    return 207 + 3 * (x + y) * R, 200 + 3 * ((y - x) / 2 - 10 * R)


def lerp(a, b, u):
    return a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u


def pulled(k: int, percent: float) -> tuple[float, float]:
    """Cube k's local place at pull `percent` (the seed's getPositionWithPercent, 2 steps)."""
    step = int(percent / 0.5)
    sub = (percent - step * 0.5) / 0.5
    return lerp(KEY_POINTS[(step + 2 * k) % 8], KEY_POINTS[(step + 1 + 2 * k) % 8], sub)


def tops(items) -> dict[str, tuple[float, float]]:
    """Top-face centres by cube name."""
    out = {}
    for k in range(4):
        item = item_by_name(items, f"cube-{k}-top")
        if item is not None:
            out[f"cube-{k}"] = item_center(item)
    return out


def near(a, b, tolerance=0.05) -> bool:
    return abs(a[0] - b[0]) <= tolerance and abs(a[1] - b[1]) <= tolerance


def seed_curve_max_slope() -> float:
    """The steepest dy/dx of cubic-bezier(0.24, 0.52, 0.43, 0.8), sampled along its parameter."""
    def d(t, p1, p2):
        u = 1 - t
        return 3 * u * u * p1 + 6 * u * t * (p2 - p1) + 3 * t * t * (1 - p2)
    return max(d(t, 0.52, 0.8) / d(t, 0.24, 0.43) for t in (i / 10000 for i in range(10001)))


# The fastest a top face can move while looping: a key-point segment is 20 local points, which
# the loader shows as 3·|(20·√½, ±10)| = 3·√300 points, crossed in 0.25 s eased by the curve.
MAX_SPEED = 3 * math.sqrt(300) / 0.25 * seed_curve_max_slope()


@pytest.fixture
def open_client(server):
    made: list[LayercastClient] = []

    def make(room, role="player") -> LayercastClient:
        client = LayercastClient.connect(server.base_url, scene="cubes", room=room, role=role)
        made.append(client)
        client.wait_welcome(5)
        client.wait_frames(1, 5)
        return client

    yield make
    for client in made:
        client.close()


def test_welcome_and_first_frame(open_client, room):
    viewer = open_client(room, role="spectator")
    welcome = viewer.welcome
    assert welcome["scene"] == "cubes"
    assert welcome["interactions"] == ["drag"]
    assert welcome["size"] == {"width": 414, "height": 736}
    items = viewer.latest().items
    faces = {i["name"] for i in items if i.get("name", "").startswith("cube-")}
    # Three faces of each cube face the viewer; bottom, back and right are culled.
    assert faces == FACE_NAMES
    # Form 0: cube k on key point 2k.
    for k in range(4):
        assert near(tops(items)[f"cube-{k}"], top_centre(*KEY_POINTS[2 * k])), (k, tops(items))
    top = item_by_name(items, "cube-0-top")
    assert top["bg"] == "#487ac8" and top["sh"]["o"] == 0.3 and top["sh"]["dx"] == -30


def test_pull_loop_smooth_stop_and_refreshed(open_client, room):
    player = open_client(room)
    other = open_client(room)
    spectator = open_client(room, role="spectator")
    me = player.welcome["client"]

    # A spectator cannot drag.
    mark = spectator.mark()
    spectator.drag("began", 207, 300)
    assert spectator.wait_error("forbidden", since=mark)["code"] == "forbidden"

    # The first drag takes control; everyone hears it.
    mark = spectator.mark()
    player.drag("began", 207, 300)
    began = spectator.wait_event("pull", since=mark)
    assert began["by"] == me and began["data"] == {"phase": "began"}

    # A second player's drag is ignored while the first controls.
    other.wait_event("pull", lambda m: m.get("by") == me)
    mark_other = other.mark()
    other.drag("began", 207, 300)
    other.drag("moved", 207, 400)
    # Six ticks: had the cubes moved, frames would say so (a still loader sends a keepalive a second).
    time.sleep(6 / 30 + 0.1)
    before = tops(other.latest().items)
    for k in range(4):
        assert near(before[f"cube-{k}"], top_centre(*KEY_POINTS[2 * k])), before
    assert other.messages_of("event", since=mark_other) == []
    assert other.messages_of("error", since=mark_other) == []

    # Half a pull (60 pt): the cubes reach key point 1 at once (implicit animations are off).
    player.drag("moved", 207, 360)
    record = player.wait_item(
        lambda i: i.get("name") == "cube-0-top" and near(item_center(i), top_centre(*pulled(0, 0.5))),
        5, "cube 0 at 50 %")[0]
    for k in range(4):
        assert near(tops(record.items)[f"cube-{k}"], top_centre(*pulled(k, 0.5))), (k, tops(record.items))

    # A full pull and release: the loop, the request, the smooth stop, then `refreshed`.
    player.drag("moved", 207, 420)
    mark = spectator.mark()
    player.drag("ended", 207, 420)
    ended = spectator.wait_event("pull", since=mark)
    assert ended["by"] == me and ended["data"] == {"phase": "ended", "percent": 1, "refresh": True}
    loading = spectator.wait_event("refresh", since=mark)
    assert loading["data"] == {"phase": "loading"}
    finishing = spectator.wait_event("refresh", lambda m: m["data"].get("phase") == "finishing",
                                     timeout=5, since=mark)
    assert "by" not in finishing and 0 <= finishing["data"]["step"] < 8
    refreshed = spectator.wait_event("refreshed", timeout=3, since=mark)
    assert "by" not in refreshed and refreshed["data"] == {}
    arrivals = {(m.data.get("name"), m.data["data"].get("phase")): m.arrival
                for m in spectator.messages[mark:] if m.data.get("type") == "event"}
    finishing_arrival = arrivals[("refresh", "finishing")]
    # Frames come while the cubes move; once they settle, a keepalive a second (sparse).
    time.sleep(1.2)
    last = spectator.latest()

    # Frames read after the release's events were all built after it; none was missed (each
    # delta applies to the frame before it: ticks between them changed nothing).
    frames = [f for f in spectator.frames_snapshot()
              if f.arrival > arrivals[("refresh", "loading")] and f.n <= last.n]
    assert all(not b.full and b.base <= a.n < b.n for a, b in zip(frames, frames[1:])), \
        f"the spectator missed frames: {[(f.n, f.base) for f in frames]}"
    loop_moves, stop_moves, fastest = [], [], 0.0
    for a, b in zip(frames, frames[1:]):
        pa, pb = tops(a.items), tops(b.items)
        move = max(math.dist(pa[name], pb[name]) for name in pa)
        fastest = max(fastest, move / (b.t - a.t))
        (loop_moves if b.arrival < finishing_arrival else stop_moves).append(move)
    # The cubes looped (something moved at a good share of the top speed), and no frame of the
    # loop, the stop or the reset moved a cube faster than the loop's top speed (a jump back to
    # form 0 would be 52 points in one frame, over 1500 points per second).
    assert fastest > 0.3 * MAX_SPEED, fastest
    assert fastest <= MAX_SPEED * 1.02 + 1, (fastest, MAX_SPEED)
    assert loop_moves and stop_moves
    assert max(stop_moves) <= max(loop_moves) * 1.2 + 0.05, (max(stop_moves), max(loop_moves))

    # After `refreshed`: form 0's places (each taken by some cube), still (the frames half a
    # second on, a keepalive among them).
    quiet = [f for f in frames if f.arrival >= arrivals[("refreshed", None)] + 0.5]
    assert quiet, [(f.n, f.arrival) for f in frames[-3:]]
    settled = [set((round(x, 1), round(y, 1)) for x, y in tops(f.items).values()) for f in quiet]
    expected = {(round(x, 1), round(y, 1)) for x, y in (top_centre(*KEY_POINTS[2 * k]) for k in range(4))}
    assert all(s == expected for s in settled), settled

    # The loader is idle again: the other player may now pull.
    mark = spectator.mark()
    other.drag("began", 207, 300)
    began = spectator.wait_event("pull", since=mark)
    assert began["by"] == other.welcome["client"]
    other.drag("cancelled", 207, 300)
    for client in (player, other, spectator):
        assert client.violations == [], client.violations


def test_release_below_threshold_runs_back(open_client, room):
    player = open_client(room)
    mark = player.mark()
    player.drag("began", 207, 300)
    player.drag("moved", 207, 390)          # 75 %
    player.drag("ended", 207, 390)
    ended = player.wait_event("pull", lambda m: m["data"].get("phase") == "ended", since=mark)
    assert ended["data"] == {"phase": "ended", "percent": 0.75, "refresh": False}
    # Back on form 0 within 0.3 × 0.75 s (and a frame or two).
    time.sleep(0.5)
    items = player.wait_more_frames(2).items
    for k in range(4):
        assert near(tops(items)[f"cube-{k}"], top_centre(*KEY_POINTS[2 * k])), tops(items)
    assert player.messages_of("event", since=mark)[-1]["name"] == "pull"
