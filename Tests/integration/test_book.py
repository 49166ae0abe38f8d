"""The book scene (docs/scenes.md §4) against docs/protocol.md, "The book (`scene=book`)".

A scripted player finds a book by its item name in the frames, taps its centre, and everyone in
the room (a spectator here) hears `open` then `opened`; while the cover turns, its item's matrix
is projective (perspective, the default) or affine (`--book-flat`), hinged on the scene's left
edge. A tap on the reading view closes the book: `close`, `closed`, `shelved`, and the display
list is the shelf again.
"""

from __future__ import annotations

from layercast_client import LayercastClient, item_by_name, item_center, item_point, normalized

SCREEN_W, SCREEN_H = 414, 736
# A rotation is 0.5 s at speed 0.55 (the seed): 0.5 / 0.55 ≈ 0.91 s; the grow and shrink 0.5 s.
ROTATION = 0.5 / 0.55


def connect(base_url: str, room: str, role: str) -> LayercastClient:
    client = LayercastClient.connect(base_url, scene="book", room=room, role=role)
    client.wait_welcome(5)
    client.wait_frames(1, 5)
    return client


def cover_items(client: LayercastClient, since_n: int) -> list[tuple[float, dict]]:
    """(t, cover item) of every frame after `since_n` that shows the cover."""
    out = []
    for record in client.frames_snapshot():
        if record.n > since_n:
            cover = item_by_name(record.items, "cover")
            if cover is not None:
                out.append((record.t, cover))
    return out


def turning(items: list[tuple[float, dict]]) -> list[dict]:
    """The cover items that are neither the book's rect growing nor the flat full screen: the
    ones whose right edge is no longer at x = 414 while the cover fills the height at x = 0."""
    out = []
    for _, item in items:
        s = item.get("s", [0, 0])
        if s != [SCREEN_W, SCREEN_H]:
            continue
        right = item_point(item, SCREEN_W, 0)[0]
        if abs(right - SCREEN_W) > 1:
            out.append(item)
    return out


def open_and_close(base_url: str, room: str, book: str):
    """Plays one open and close as a player with a spectator listening; returns
    (player, spectator, shelf items, n of the first frame after the tap)."""
    player = connect(base_url, room, "player")
    spectator = connect(base_url, room, "spectator")
    shelf = player.latest().items
    item = item_by_name(shelf, f"book-{book}")
    assert item is not None, [i.get("name") for i in shelf]
    x, y = item_center(item)
    start_n = player.latest().n
    player.tap(x, y)
    return player, spectator, shelf, start_n


def test_open_and_close_over_the_server(server, room):
    player, spectator, shelf, start_n = open_and_close(server.base_url, room, "walden")
    try:
        me = player.welcome["client"]
        # Room-wide: the spectator hears the player's open.
        opened_by = spectator.wait_event("open", timeout=3)
        assert opened_by["data"] == {"book": "walden"} and opened_by["by"] == me, opened_by
        # A second tap while the cover grows and turns is ignored (no second open).
        player.tap(SCREEN_W / 2, SCREEN_H / 2)
        opened = spectator.wait_event("opened", timeout=5)
        assert opened["data"] == {"book": "walden", "key": "rotateToOpenBook", "finished": True}, opened
        assert "by" not in opened, opened

        # Mid-rotation with perspective: projective, hinged at the left edge, the free edge
        # nearer the eye (W < 1) and so taller than the screen.
        player.wait_more_frames(2, 3)
        turns = turning(cover_items(player, start_n))
        assert len(turns) >= 5, f"only {len(turns)} frames of the turning cover in ~{ROTATION:.2f} s"
        for item in turns:
            m = item["m"]
            assert len(m) == 9 and (m[6] != 0 or m[7] != 0), m
            for hinge in [(0, 0), (0, SCREEN_H)]:
                px, py = item_point(item, *hinge)
                assert abs(px - hinge[0]) < 0.05 and abs(py - hinge[1]) < 0.05, (hinge, px, py, m)
            g, h, w = m[6], m[7], m[8]
            assert g * SCREEN_W + w < 1, m
            top = item_point(item, SCREEN_W, 0)[1]
            bottom = item_point(item, SCREEN_W, SCREEN_H)[1]
            assert top < 0 and bottom > SCREEN_H, (top, bottom, m)

        # Open: the cover has faded out (opacity 0 is left out), the reading view shows.
        record, reading = player.wait_item(lambda i: i.get("name") == "reading", 3, "the reading view")
        player.wait_more_frames(1, 3)
        latest = player.latest().items
        assert item_by_name(latest, "cover") is None, item_by_name(latest, "cover")
        assert item_by_name(latest, "title")["text"]["runs"][0]["t"] == "Walden"

        mark = spectator.mark()
        player.tap(*item_center(reading))
        close = spectator.wait_event("close", timeout=3, since=mark)
        assert close["data"] == {"book": "walden"} and close["by"] == me, close
        closed = spectator.wait_event("closed", timeout=5, since=mark)
        assert closed["data"] == {"book": "walden", "key": "rotateToCloseBook", "finished": True}, closed
        shelved = spectator.wait_event("shelved", timeout=5, since=mark)
        assert shelved["data"] == {"book": "walden"}, shelved
        names = [m["name"] for m in spectator.messages_of("event")]
        assert names == ["open", "opened", "close", "closed", "shelved"], names

        # Back on the shelf: the same display list as before the tap.
        player.wait_more_frames(2, 3)
        assert normalized(player.latest().items) == normalized(shelf)
        for client in (player, spectator):
            assert client.violations == [], client.violations
    finally:
        player.close()
        spectator.close()


def test_book_flat_turns_without_perspective(start_server, room):
    srv = start_server("--book-flat")
    player, spectator, _, start_n = open_and_close(srv.base_url, room, "emma")
    try:
        spectator.wait_event("opened", timeout=5)
        player.wait_more_frames(2, 3)
        turns = turning(cover_items(player, start_n))
        assert len(turns) >= 5, f"only {len(turns)} frames of the turning cover"
        widths = []
        for item in turns:
            m = item["m"]
            # Affine (or 9 numbers with g = h = 0): the cover narrows about its left edge and keeps
            # its height (the seed's look).
            assert len(m) == 6 or (m[6] == 0 and m[7] == 0), m
            assert abs(m[4]) < 0.05 and abs(m[5]) < 0.05 and abs(m[3] - 1) < 1e-3, m
            widths.append(m[0] * SCREEN_W)
        assert widths == sorted(widths, reverse=True) and widths[0] < SCREEN_W and widths[-1] >= 0, widths
    finally:
        player.close()
        spectator.close()
