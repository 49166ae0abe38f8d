"""The snowfall (`scene=snow`, docs/scenes.md §3) against the real server: particles on the wire
(protocol.md, "Particles": birth records, evaluated here at each frame's `t` by the test client),
counts over time, spawn positions, a late joiner's first frame, the admin request
`POST /api/rooms/{room}/snow` and the room's particle cap."""

from __future__ import annotations

import time

import pytest

from conftest import http_post, wait_until
from layercast_client import LayercastClient, particle_states

ADMIN = "snow-admin-token-0123456789"
AUTH = {"Authorization": f"Bearer {ADMIN}"}
# Scene geometry (SnowScene): 414 wide; flakeLayer's line at y = −10 spans x = −207 … 621.
WIDTH = 414
FLAKE_Y = -10


@pytest.fixture
def snow(start_server):
    return start_server("--admin-token", ADMIN, "--rain-every", "0")


def connect(srv, room: str) -> LayercastClient:
    client = LayercastClient.connect(srv.base_url, scene="snow", room=room, role="spectator")
    client.wait_welcome()
    client.wait_frames(2)
    return client


def post_snow(srv, room: str, body) -> "Response":
    return http_post(srv.base_url, f"/api/rooms/{room}/snow", body, headers=AUTH)


def layer(items: list[dict], name: str) -> dict:
    found = [item for item in items if item.get("name") == name]
    assert found, f"no {name} item in {[i.get('name') for i in items]}"
    return found[0]


def particles_of(frame, name: str) -> list[list]:
    """The particles `name`'s records draw at the frame's `t`: `[id, x, y, scale, rotation, alpha,
    colour, image]`, in drawing order (an emitter with nothing on screen has no item: none)."""
    found = [item for item in frame.items if item.get("name") == name]
    if not found:
        return []
    item = found[0]
    images = {kind[0]: kind[1] for kind in item.get("pk", [])}
    kinds = {record[0]: record[1] for record in item.get("pb", [])}
    return [state + [images[kinds[state[0]]]] for state in particle_states(item, frame.t)]


def frames_between(client: LayercastClient, first: int, last: int) -> list:
    """The frames numbered `first` through `last` that were sent: a tick that changes nothing is
    not (protocol.md, `sparse`), and with particle records a snowfall tick without a new record
    or a dropped one changes nothing."""
    return [f for f in client.frames_snapshot() if first <= f.n <= last]


def wait_media_time(client: LayercastClient, t: float, timeout: float = 30):
    """The first frame of media time ≥ t (a fresh room's snow needs time to come down)."""
    return wait_until(lambda: (lambda f: f if f is not None and f.t >= t else None)(client.wait_more_frames(1)),
                      timeout, f"a frame at media time >= {t}", 0)


def test_frames_carry_quantised_particles(snow, room):
    client = connect(snow, room)
    try:
        # A fresh room starts at the top (docs/scenes.md §3, problem 1): flakes born on the line above
        # the screen rise for about 1 s, then fall in from about 2.3 s of age. By media time 8:
        # 10/s × ≈ 5.7 s × about half of the 2W-wide line inside the scene ≈ 28.
        frame = wait_media_time(client, 8)
        assert client.violations == [], client.violations[:3]
        flakes = layer(frame.items, "flakeLayer")
        # One kind: the snowflake falling at yAcceleration 10 (its other speeds 0, left out).
        assert flakes["pk"] == [[flakes["pk"][0][0], "snowflake", 0, 10]], flakes["pk"]
        assert "pt" not in flakes  # the layer's time is the frame clock
        assert len(flakes["pb"]) >= 15
        for record in flakes["pb"]:
            assert 10 <= len(record) <= 12
            pid, kid, b, life, x, y, vx, vy, s, w = record[:10]
            assert isinstance(pid, int) and kid == flakes["pk"][0][0]
            for value, scale in ((b, 1e3), (life, 1e3), (x, 1e2), (y, 1e2), (vx, 1e2), (vy, 1e2), (w, 1e3)):
                assert round(value * scale) == pytest.approx(value * scale, abs=1e-6)
            assert s == 0.2 and y == FLAKE_Y  # demo 1's scale, born on the line
            assert b <= frame.t and 119.75 <= life <= 120.25
        for pid, x, y, *_ in particles_of(frame, "flakeLayer"):
            assert -10 <= x <= WIDTH + 10 and -20 <= y <= 736 + 10
    finally:
        client.close()


def test_counts_grow_at_the_exact_rate(snow, room):
    client = connect(snow, room)
    try:
        resp = post_snow(snow, room, {"images": ["petal"], "rate": 30, "mode": "exact"})
        assert resp.status == 200, resp.body
        changed = resp.json()["time"]
        start = client.wait_more_frames(1).n
        frame = client.wait_frame_n(start + 150, timeout=10)  # about 5 s later
        petals = [p for p in particles_of(frame, "flakeLayer") if p[-1] == "petal"]
        # 30 per second since `changed`; none has reached the bottom yet (≈ 11 s to fall); a
        # particle is sent while its 4 pt drawn radius (24×32 at 0.2) touches x = 0 … 414, so
        # (414 + 8) / 828 of the line's births show, once they have fallen the ≈ 5.5 pt from
        # y = −10 into the scene (0.4–1.1 s at 5–15 pt/s: 0.7 s taken off). Where along the line
        # each is born is random, so the count is binomial: ±35 % is about 4 standard deviations.
        expected = 30 * (frame.t - changed - 0.7) * (WIDTH + 8) / (2 * WIDTH)
        assert expected * 0.65 <= len(petals) <= expected * 1.35, (len(petals), expected)
    finally:
        client.close()


def test_new_flakes_appear_along_the_top_edge(snow, room):
    client = connect(snow, room)
    try:
        first = wait_media_time(client, 4).n
        client.wait_frame_n(first + 90, timeout=8)
        frames = frames_between(client, first, first + 90)
        assert client.gaps == [], client.gaps
        assert frames[0].n == first
        seen = {p[0] for p in particles_of(frames[0], "flakeLayer")}
        appeared = []
        for frame in frames[1:]:
            for particle in particles_of(frame, "flakeLayer"):
                if particle[0] not in seen:
                    appeared.append(particle)
                    seen.add(particle[0])
        # 10 per second for 3 s, about half of the 2W line inside the scene: ≈ 15.
        assert len(appeared) >= 5, appeared
        # Born on y = −10, a flake is sent from the frame its drawn disc (radius ½ · 32√2 · 0.2
        # = 4.53 pt) reaches the scene, y > −4.53; it falls at most 15 pt/s: 1.5 pt in 0.1 s, allowing for ticks the server skipped.
        # Flakes drifting sideways (emissionRange π/4) may enter from the left or right edge.
        radius = 0.5 * 32 * 2 ** 0.5 * 0.2
        top = [p for p in appeared if p[2] <= -radius + 1.5]
        assert len(top) >= 3, appeared
        for pid, x, y, *_ in appeared:
            assert FLAKE_Y <= y, (pid, x, y)
            at_edge = y <= -radius + 1.5 or x <= -radius + 1.5 or x >= WIDTH + radius - 1.5
            assert at_edge, (pid, x, y)
    finally:
        client.close()


def test_fresh_room_starts_at_the_top(snow, room):
    client = connect(snow, room)
    try:
        # The room's first frames: nothing has come down yet (docs/scenes.md §3, problem 1). Every
        # flake is born on y = −10 and rises for about a second, so none is on screen in the
        # first 1.5 s, let alone below the top quarter.
        wait_media_time(client, 1.6)
        frames = [f for f in client.frames_snapshot() if f.t <= 1.5]
        assert frames and frames[0].t < 0.5, [f.t for f in frames[:3]]
        for frame in frames:
            # (an emitter with no particle on screen draws nothing and is left out of the frame)
            ys = [p[2] for p in particles_of(frame, "flakeLayer")]
            assert all(y < 736 / 4 for y in ys), (frame.t, ys)
    finally:
        client.close()


def test_late_joiner_sees_the_snow_as_it_is(snow, room):
    first = connect(snow, room)
    try:
        # After 13 s the first flakes have fallen past y = 500 (rising ≤ 1.5 s, then ½ · 10 · t²).
        wait_media_time(first, 13)
        late = connect(snow, room)
        try:
            joined = late.frames_snapshot()[0]
            assert joined.full
            same = first.wait_frame_n(joined.n)
            assert same is not None
            # The full frame holds the records the first client built up from deltas.
            assert layer(joined.items, "flakeLayer") == layer(same.items, "flakeLayer")
            # Not a restart: the screen is full, and particles are spread down the whole screen.
            ys = [p[2] for p in particles_of(joined, "flakeLayer")]
            assert len(ys) >= 30 and max(ys) > 500
        finally:
            late.close()
    finally:
        first.close()


def test_admin_change_switches_images_for_new_particles_only(snow, room):
    client = connect(snow, room)
    try:
        before = wait_media_time(client, 6)          # a fresh room: let the first flakes come down
        old = {p[0]: p[-1] for p in particles_of(before, "flakeLayer")}
        assert set(old.values()) == {"snowflake"}
        resp = post_snow(snow, room, {"images": ["snowflake-star"], "rate": 20})
        assert resp.status == 200, resp.body
        body = resp.json()
        assert body["images"] == ["snowflake-star"] and body["rate"] == 20 and body["mode"] == "exact"
        assert body["emittedRate"] == 20 and body["room"] == room
        start = client.wait_more_frames(1).n + 45
        client.wait_frame_n(start + 30, timeout=5)
        after = frames_between(client, 0, start)[-1]
        images = {p[0]: p[-1] for p in particles_of(after, "flakeLayer")}
        kept = [pid for pid in images if pid in old]
        assert kept, "the falling flakes disappeared"
        assert all(images[pid] == "snowflake" for pid in kept)
        # A particle still above y = 0 1.5 s after the change was born after it (from y = −10 it
        # falls at least 5 · cos 45° pt/s plus ½ · 10 · t²: 16.5 pt in 1.5 s): all are the new image.
        young = {}
        for frame in frames_between(client, start, start + 30):
            young.update({p[0]: p[-1] for p in particles_of(frame, "flakeLayer") if p[2] < 0})
        assert len(young) >= 3, young
        assert set(young.values()) == {"snowflake-star"}, young
        # An empty body answers the settings now in force.
        assert post_snow(snow, room, b"").json()["images"] == ["snowflake-star"]
    finally:
        client.close()


@pytest.mark.parametrize("body, field", [
    ({"images": "snowflake"}, "images"),
    ({"images": []}, "images"),
    ({"images": ["rp_normal"]}, "images"),
    ({"images": ["petal", "petal"]}, "images"),
    ({"rate": -1}, "rate"),
    ({"rate": 1000}, "rate"),
    ({"rate": "fast"}, "rate"),
    ({"mode": "blizzard"}, "mode"),
    ({"wind": 3}, "wind"),
])
def test_bad_admin_bodies_are_refused_and_change_nothing(snow, room, body, field):
    resp = post_snow(snow, room, body)
    assert resp.status == 400, resp.body
    error = resp.json()
    assert error["error"] == "bad_field" and field in error["message"], error
    settings = post_snow(snow, room, b"").json()
    assert (settings["images"], settings["rate"], settings["mode"]) == (["snowflake"], 10, "exact")


def test_admin_needs_the_token_json_and_a_room(snow, room):
    assert http_post(snow.base_url, f"/api/rooms/{room}/snow", {"rate": 5}).status == 401
    resp = post_snow(snow, room, b"{not json")
    assert resp.status == 400 and resp.json()["error"] == "bad_json"
    resp = post_snow(snow, "bad.room", {"rate": 5})
    assert resp.status == 400 and resp.json()["error"] == "bad_room"


def test_the_room_particle_cap(start_server, room):
    srv = start_server("--max-particles", "20", "--rain-every", "0")
    client = connect(srv, room)
    try:
        wait_media_time(client, 6)                   # a fresh room: let the first flakes come down
        frames = [client.wait_more_frames(1) for _ in range(10)]
        for frame in frames:
            total = sum(len(item.get("pb", [])) for item in frame.items)
            # The cap: the emitter items hold at most 20 records together, the oldest evicted (pbr).
            assert 0 < total <= 20, total
    finally:
        client.close()
