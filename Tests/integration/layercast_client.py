"""A scripted Layercast client written from docs/protocol.md only.

It connects with the `layercast.v1` subprotocol (package `websocket-client`), reads `welcome`,
keeps its own model of the display list by applying full and delta frames exactly as the
document says, records every other message, and sends `tap`, `drag` and `ping`.

A reader thread takes every message as soon as it arrives (so the client is a well-behaved,
prompt reader) and notes anything that breaks the protocol in `violations` (wrong `n`, a delta
that does not apply, malformed messages) and anything that merely departs from the document's
wording in `style_notes` (empty `set` lists, fields repeated with unchanged values). Tests
assert on both. Every wait is bounded by a timeout.
"""

from __future__ import annotations

import collections
import copy
import json
import math
import re
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import websocket  # pip package websocket-client

SUBPROTOCOL = "layercast.v1"

# Draw-item defaults (protocol.md, "Draw items").
IDENTITY = [1, 0, 0, 1, 0, 0]
ITEM_DEFAULTS: dict[str, Any] = {"m": IDENTITY, "s": [0, 0], "o": 1, "bw": 0, "cr": 0,
                                 "g": "resize"}
ITEM_KEYS = {"id", "name", "m", "s", "o", "bg", "bc", "bw", "cr", "img", "it", "g", "text", "sh", "pk",
             "pt", "pb", "grad", "fill", "stroke", "rm", "grp"}
# An emitter item's particle changes in a delta's `set` entry (protocol.md, "Particles").
PARTICLE_DELTA_KEYS = {"pk", "pt", "pbr", "pba"}


def apply_paths(table: dict, msg: dict) -> dict:
    """The frame's path table after `msg` (protocol.md, "Paths"): a full frame's `paths`
    (`[[id, data], ...]`) is the whole table; a delta drops its `unpaths` ids, then adds its
    `paths`. `table` is not modified."""
    if msg.get("full"):
        return {entry[0]: entry[1] for entry in msg.get("paths", [])}
    table = dict(table)
    for path_id in msg.get("unpaths", []):
        table.pop(path_id, None)
    table.update({entry[0]: entry[1] for entry in msg.get("paths", [])})
    return table


def referenced_paths(items: list) -> set:
    """The path ids the items' `fill` and `stroke` name, mask items (`grp.mask`) included."""
    ids = set()
    for item in items:
        for key in ("fill", "stroke"):
            if isinstance(item.get(key), dict):
                ids.add(item[key].get("path"))
        ids |= referenced_paths((item.get("grp") or {}).get("mask") or [])
    return ids


# --------------------------------------------------------------------------------------------
# Particle birth records (protocol.md, "Particles")


def particle_local_time(item: dict, t: float) -> float:
    """The emitter's local time at frame-clock time `t`: rate·t + offset (`pt`, [1, 0] when absent)."""
    rate, offset = item.get("pt", [1, 0])
    return rate * t + offset


def prune_records(item: dict, t: float) -> None:
    """Drops the records of `item` dead at frame time `t` (age ≥ l): natural death needs no bytes.
    An item left with no records has no `pb`, as a full frame writes it."""
    if "pb" not in item:
        return
    local = particle_local_time(item, t)
    item["pb"] = [r for r in item["pb"] if local - r[2] < r[3]]
    if not item["pb"]:
        item.pop("pb")


def apply_birth_delta(item: dict, entry: dict, t: float) -> None:
    """Applies a `set` entry's particle keys to `item` at its frame's `t`, in place: the new `pk`
    table and `pt` clock (null: [1, 0]), then natural deaths, then `pbr` dropped and `pba`
    inserted in drawing order (by b, then id). Empty `pk`/`pb` are left out, as a full frame writes them."""
    if "pk" in entry:
        item["pk"] = copy.deepcopy(entry["pk"] or [])
        if not item["pk"]:
            item.pop("pk")
    if "pt" in entry:
        if entry["pt"] is None or entry["pt"] == [1, 0]:
            item.pop("pt", None)
        else:
            item["pt"] = list(entry["pt"])
    prune_records(item, t)
    removed = set(entry.get("pbr") or [])
    held = {r[0] for r in item.get("pb", [])}
    records = [list(r) for r in item.get("pb", []) if r[0] not in removed]
    records += [list(r) for r in entry.get("pba") or [] if r[0] not in held]
    records.sort(key=lambda r: (r[2], r[0]))
    item["pb"] = records
    if not records:
        item.pop("pb")


def particle_states(item: dict, d: float) -> list:
    """The particles `item`'s records draw at display time `d`, in drawing order, by protocol.md's
    formula: `[id, x, y, scale, rotation, alpha, (r, g, b)]`, x and y in the item's rect
    coordinates, colour components 0…1 (unrounded)."""
    kinds = {k[0]: (k + [0] * 9)[:9] for k in item.get("pk", [])}
    local = particle_local_time(item, d)
    states = []
    for record in item.get("pb", []):
        rid, kid, b, life, x, y, vx, vy, s, w = record[:10]
        alpha0 = record[10] if len(record) > 10 else 1
        rgb = record[11] if len(record) > 11 else "#ffffff"
        age = local - b
        if not 0 <= age < life or kid not in kinds:
            continue
        _, _, ax, ay, ds, da, dr, dg, db = kinds[kid]
        scale = max(0.0, s + ds * age)
        alpha = min(max(alpha0 + da * age, 0.0), 1.0)
        # Drawn only when scale and alpha quantise above 0 (1e-4 and 1e-3, ties away from zero).
        if math.floor(scale * 1e4 + 0.5) <= 0 or math.floor(alpha * 1e3 + 0.5) <= 0:
            continue
        channels = [int(rgb[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        colour = tuple(min(max(c + v * age, 0.0), 1.0) for c, v in zip(channels, (dr, dg, db)))
        states.append([rid, x + vx * age + 0.5 * ax * age * age, y + vy * age + 0.5 * ay * age * age,
                       scale, w * age, alpha, colour])
    return states


GRAVITIES = {"resize", "resizeAspect", "resizeAspectFill", "center", "top", "bottom", "left",
             "right", "topLeft", "topRight", "bottomLeft", "bottomRight"}
COLOUR = re.compile(r"^#[0-9a-f]{6}([0-9a-f]{2})?$")


def delta_base(msg: dict) -> int:
    """The first frame a delta applies to (protocol.md, "frame"): its `b`, or `n - 1` without it.
    A delta applies to a client holding any frame from there through `n - 1`."""
    base = msg.get("b", msg["n"] - 1)
    if not isinstance(base, int) or isinstance(base, bool) or not 0 <= base < msg["n"]:
        raise ValueError(f"delta n={msg['n']}: b={base!r} is not a frame number below n")
    return base


def apply_delta(model: list[dict], msg: dict, n: int, violations: list[str],
                style_notes: list[str]) -> list[dict]:
    """protocol.md: drop every particle record dead at the frame's `t`, delete the `remove` ids,
    then for each entry of `set` replace the listed fields (null returns to default) and apply
    its particle keys, then append `add` in order; `order` gives the new order when appending
    does not."""
    t = msg.get("t", 0)
    for key in ("set", "add", "remove", "order"):
        if key in msg and not isinstance(msg[key], list):
            violations.append(f"delta n={n}: {key} is not a list")
            return model
        if key in msg and key != "order" and not msg[key]:
            style_notes.append(f"delta n={n}: empty {key!r} (keys with nothing to say "
                               f"are left out)")
    remove = msg.get("remove", [])
    present = {item["id"] for item in model}
    for rid in remove:
        if rid not in present:
            violations.append(f"delta n={n}: remove of id {rid!r} not in the list")
    removed = set(remove)
    model = [item for item in model if item["id"] not in removed]
    by_id = {item["id"]: item for item in model}
    # Items whose particles change prune under their new clock (apply_birth_delta).
    touched: set = set()
    for entry in msg.get("set", []):
        if not isinstance(entry, dict) or "id" not in entry:
            violations.append(f"delta n={n}: set entry without id: {entry!r}")
            continue
        item = by_id.get(entry["id"])
        if item is None:
            violations.append(f"delta n={n}: set of id {entry['id']!r} not in the list")
            continue
        if len(entry) == 1:
            style_notes.append(f"delta n={n}: set entry for id {entry['id']} lists "
                               f"no field")
        if PARTICLE_DELTA_KEYS & entry.keys():
            apply_birth_delta(item, entry, t)
            touched.add(entry["id"])
        for key, value in entry.items():
            if key == "id" or key in PARTICLE_DELTA_KEYS:
                continue
            if key not in ITEM_KEYS:
                violations.append(f"delta n={n}: set of unknown key {key!r}")
            if value is None:
                if key not in item:
                    style_notes.append(
                        f"delta n={n}: id {entry['id']} field {key!r} set to null but "
                        f"was already default")
                item.pop(key, None)
            else:
                if key in item and item[key] == value:
                    style_notes.append(
                        f"delta n={n}: id {entry['id']} field {key!r} listed unchanged "
                        f"({value!r})")
                item[key] = copy.deepcopy(value)
    for item in model:
        if item["id"] not in touched:
            prune_records(item, t)
    for added in msg.get("add", []):
        if not isinstance(added, dict) or "id" not in added:
            violations.append(f"delta n={n}: add entry without id: {added!r}")
            continue
        if added["id"] in by_id:
            violations.append(f"delta n={n}: add of id {added['id']} already present")
        model.append(copy.deepcopy(added))
        by_id[added["id"]] = model[-1]
    if "order" in msg:
        order = msg["order"]
        current = [item["id"] for item in model]
        if sorted(order, key=repr) != sorted(current, key=repr) or len(order) != len(current):
            violations.append(f"delta n={n}: order {order} is not a permutation of "
                              f"the ids {current}")
        else:
            if order == current:
                style_notes.append(f"delta n={n}: order given though appending "
                                   f"already gives it")
            model = [by_id[i] for i in order]
    return model


class Timeout(AssertionError):
    """A bounded wait ran out."""


class ConnectRefused(Exception):
    """The WebSocket handshake was refused (HTTP status in `status`)."""

    def __init__(self, status: Optional[int], message: str):
        super().__init__(message)
        self.status = status


# --------------------------------------------------------------------------------------------
# Geometry of draw items


def matrix(item: dict) -> tuple[float, ...]:
    """The item's matrix as 9 numbers (a, b, c, d, tx, ty, g, h, w)."""
    m = item.get("m", IDENTITY)
    if len(m) == 6:
        return (*m, 0.0, 0.0, 1.0)
    if len(m) == 9:
        return tuple(m)
    raise ValueError(f"m must have 6 or 9 numbers, got {m!r}")


def item_point(item: dict, x: float, y: float) -> tuple[float, float]:
    """Maps a point of the item's rect (0,0)-(s0,s1) to scene points (protocol.md, Matrices)."""
    a, b, c, d, tx, ty, g, h, w = matrix(item)
    X = a * x + c * y + tx
    Y = b * x + d * y + ty
    W = g * x + h * y + w
    if W <= 0:
        raise ValueError(f"point ({x}, {y}) of item {item.get('id')} is at or behind the eye")
    return X / W, Y / W


def item_size(item: dict) -> tuple[float, float]:
    s = item.get("s", [0, 0])
    return float(s[0]), float(s[1])


def item_center(item: dict) -> tuple[float, float]:
    """Scene-space centre of the item (the image of its rect's centre; a projective map keeps
    the diagonals' intersection, so this is the centre of the drawn quadrilateral too)."""
    w, h = item_size(item)
    return item_point(item, w / 2, h / 2)


def item_corners(item: dict) -> list[tuple[float, float]]:
    w, h = item_size(item)
    return [item_point(item, 0, 0), item_point(item, w, 0), item_point(item, w, h),
            item_point(item, 0, h)]


def item_contains(item: dict, x: float, y: float, margin: float = 0.0) -> bool:
    """Whether the scene point lies in the item's drawn quadrilateral grown by `margin` points
    (the quadrilateral is convex: a projective image of a rectangle in front of the eye)."""
    try:
        quad = item_corners(item)
    except ValueError:
        return False
    if margin:
        cx = sum(p[0] for p in quad) / 4
        cy = sum(p[1] for p in quad) / 4
        grown = []
        for px, py in quad:
            dx, dy = px - cx, py - cy
            length = math.hypot(dx, dy) or 1.0
            grown.append((px + dx / length * margin * 1.5, py + dy / length * margin * 1.5))
        quad = grown
    sign = 0
    for i in range(4):
        x1, y1 = quad[i]
        x2, y2 = quad[(i + 1) % 4]
        cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
        if abs(cross) < 1e-12:
            continue
        s = 1 if cross > 0 else -1
        if sign == 0:
            sign = s
        elif s != sign:
            return False
    return True


def normalized(items: list[dict]) -> list[dict]:
    """The display list with every default written out and 9-number identity-perspective
    matrices written as 6, so lists that mean the same compare equal."""
    out = []
    for item in items:
        norm = {k: v for k, v in item.items() if v is not None}
        for key, default in ITEM_DEFAULTS.items():
            norm.setdefault(key, default)
        m = list(norm["m"])
        if len(m) == 9 and m[6] == 0 and m[7] == 0 and m[8] == 1:
            m = m[:6]
        norm["m"] = m
        out.append(norm)
    return out


def item_by_name(items: list[dict], name: str) -> Optional[dict]:
    for item in items:
        if item.get("name") == name:
            return item
    return None


def decimals_ok(value: Any, step_exponent: int) -> bool:
    """Whether a number is a multiple of 10**-step_exponent (up to float noise)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    scaled = value * (10 ** step_exponent)
    return abs(scaled - round(scaled)) < 1e-6 * max(1.0, abs(scaled)) + 1e-6


def check_item(item: dict, assets: Optional[dict], full: bool = True) -> list[str]:
    """Problems with one draw item as sent (full item, or `add` entry): kinds, ranges and
    quantisation from protocol.md."""
    problems = []
    iid = item.get("id")
    where = f"item id={iid!r} name={item.get('name')!r}"
    if not isinstance(iid, int) or isinstance(iid, bool):
        problems.append(f"{where}: id must be an integer")
    for key in item:
        if key not in ITEM_KEYS:
            problems.append(f"{where}: unknown key {key!r}")
    if "name" in item and not isinstance(item["name"], str):
        problems.append(f"{where}: name must be a string")
    if "m" in item:
        m = item["m"]
        if not (isinstance(m, list) and len(m) in (6, 9)
                and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in m)):
            problems.append(f"{where}: m must be 6 or 9 numbers, got {m!r}")
        else:
            for i, v in enumerate(m[:4]):
                if not decimals_ok(v, 4):
                    problems.append(f"{where}: m[{i}]={v!r} not quantised to 1e-4")
            for i in (4, 5):
                if not decimals_ok(m[i], 2):
                    problems.append(f"{where}: m[{i}]={m[i]!r} not quantised to 1e-2")
            if len(m) == 9:
                for i in (6, 7):
                    if not decimals_ok(m[i], 7):
                        problems.append(f"{where}: m[{i}]={m[i]!r} not quantised to 1e-7")
                if m[8] != 1:
                    problems.append(f"{where}: projective m must be scaled so w = 1, got {m[8]!r}")
    if "s" in item:
        s = item["s"]
        if not (isinstance(s, list) and len(s) == 2 and all(decimals_ok(v, 2) for v in s)):
            problems.append(f"{where}: s must be [w, h] quantised to 1e-2, got {s!r}")
    if "o" in item:
        o = item["o"]
        if not decimals_ok(o, 3) or not (0 < o <= 1):
            problems.append(f"{where}: o must be in (0, 1] quantised to 1e-3, got {o!r}")
    for key in ("bw", "cr"):
        if key in item and not decimals_ok(item[key], 2):
            problems.append(f"{where}: {key}={item[key]!r} not quantised to 1e-2")
    for key in ("bg", "bc"):
        if key in item and not (isinstance(item[key], str) and COLOUR.match(item[key])):
            problems.append(f"{where}: {key}={item[key]!r} is not #rrggbb[aa]")
        elif key in item and len(item[key]) == 9 and item[key].endswith("ff"):
            problems.append(f"{where}: {key}={item[key]!r} has alpha ff (should be #rrggbb)")
    if "it" in item and not (isinstance(item["it"], str) and COLOUR.match(item["it"])
                             and len(item["it"]) == 7 and item["it"].lower() != "#ffffff"):
        problems.append(f"{where}: it={item['it']!r} is not an opaque #rrggbb other than white")
    if "it" in item and "img" not in item:
        problems.append(f"{where}: it without img")
    if "g" in item and item["g"] not in GRAVITIES:
        problems.append(f"{where}: unknown gravity {item['g']!r}")
    if "img" in item and assets is not None and item["img"] not in assets:
        problems.append(f"{where}: img {item['img']!r} is not a key of welcome.assets")
    return problems


# --------------------------------------------------------------------------------------------
# The client


@dataclass
class FrameRecord:
    n: int
    t: float
    full: bool
    arrival: float          # time.monotonic() when the message was read
    size: int               # bytes of the message text
    items: list[dict]       # the client's model of the display list after this frame
    raw: dict = field(repr=False)
    base: int = -1          # a delta's first frame (`b`, or n - 1); -1 for a full frame


@dataclass
class Message:
    arrival: float
    data: dict


class LayercastClient:
    """One WebSocket connection. Use `LayercastClient.connect(...)`."""

    def __init__(self, ws: websocket.WebSocket, url: str, history: int = 3000):
        self.ws = ws
        self.url = url
        self.subprotocol = ws.getsubprotocol()
        self._cond = threading.Condition()
        self.welcome: Optional[dict] = None
        self.frames: collections.deque[FrameRecord] = collections.deque(maxlen=history)
        self.first_seen: dict[str, float] = {}  # item name → `t` of the first frame that showed it
        self.frame_count = 0
        self.full_count = 0
        self.model: Optional[list[dict]] = None
        # The frame's path table (protocol.md, "Paths"), id -> SVG path data.
        self.paths: dict = {}
        self.last_n: Optional[int] = None
        self.last_t: Optional[float] = None
        self.gaps: list[tuple[int, int]] = []   # (previous n, n) of full frames that skipped
        self.messages: list[Message] = []       # every non-frame message, in order
        self.violations: list[str] = []
        self.style_notes: list[str] = []
        self.close_code: Optional[int] = None
        self.close_reason: str = ""
        self.closed = False
        self.closed_error: Optional[str] = None
        self.closed_at: Optional[float] = None
        self._stop = False
        self._thread = threading.Thread(target=self._run, name=f"layercast-client {url}",
                                        daemon=True)
        self._thread.start()

    # ---- connecting

    @staticmethod
    def ws_url(base_url: str, scene: Optional[str] = "radar", room: Optional[str] = None,
               role: Optional[str] = None, query: Optional[dict] = None) -> str:
        parts = urllib.parse.urlsplit(base_url)
        params = {}
        if scene is not None:
            params["scene"] = scene
        if room is not None:
            params["room"] = room
        if role is not None:
            params["role"] = role
        params.update(query or {})
        return urllib.parse.urlunsplit(("ws", parts.netloc, "/ws", urllib.parse.urlencode(params),
                                        ""))

    @classmethod
    def connect(cls, base_url: str, scene: Optional[str] = "radar", room: Optional[str] = None,
                role: Optional[str] = "player", origin: Optional[str] = None,
                query: Optional[dict] = None, timeout: float = 5.0,
                subprotocols: tuple[str, ...] = (SUBPROTOCOL,),
                headers: Optional[dict] = None) -> "LayercastClient":
        """Connects (handshake bounded by `timeout`, with extra `headers`) and starts reading.
        Raises ConnectRefused when the handshake gets a non-101 answer."""
        url = cls.ws_url(base_url, scene, room, role, query)
        options: dict[str, Any] = {"timeout": timeout, "subprotocols": list(subprotocols)}
        if headers:
            options["header"] = [f"{name}: {value}" for name, value in headers.items()]
        if origin is None:
            options["suppress_origin"] = True   # a script: no Origin header
        else:
            options["origin"] = origin
        try:
            ws = websocket.create_connection(url, **options)
        except websocket.WebSocketBadStatusException as exc:
            raise ConnectRefused(getattr(exc, "status_code", None), str(exc)) from exc
        ws.settimeout(0.5)
        return cls(ws, url)

    # ---- reading (reader thread)

    def _run(self) -> None:
        while not self._stop:
            try:
                opcode, frame = self.ws.recv_data_frame(control_frame=False)
            except websocket.WebSocketTimeoutException:
                continue
            except Exception as exc:  # connection reset, EOF, protocol error
                with self._cond:
                    if not self._stop and not self.closed:
                        self.closed_error = f"{type(exc).__name__}: {exc}"
                    self.closed = True
                    self.closed_at = time.monotonic()
                    self._cond.notify_all()
                return
            arrival = time.monotonic()
            if opcode == websocket.ABNF.OPCODE_CLOSE:
                code, reason = None, ""
                data = frame.data or b""
                if len(data) >= 2:
                    code = int.from_bytes(data[:2], "big")
                    reason = data[2:].decode("utf-8", "replace")
                with self._cond:
                    self.close_code = code
                    self.close_reason = reason
                    self.closed = True
                    self.closed_at = arrival
                    self._cond.notify_all()
                return
            if opcode == websocket.ABNF.OPCODE_BINARY:
                self._violation(f"server sent a binary frame ({len(frame.data)} bytes)")
                continue
            text = frame.data.decode("utf-8") if isinstance(frame.data, bytes) else frame.data
            self._on_text(text, arrival)

    def _violation(self, text: str) -> None:
        with self._cond:
            self.violations.append(text)
            self._cond.notify_all()

    def _on_text(self, text: str, arrival: float) -> None:
        try:
            msg = json.loads(text)
        except ValueError as exc:
            self._violation(f"server sent text that is not JSON ({exc}): {text[:200]!r}")
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            self._violation(f"server message is not an object with a string type: {text[:200]!r}")
            return
        with self._cond:
            kind = msg["type"]
            if kind == "frame":
                self._on_frame(msg, arrival, len(text.encode("utf-8")))
            else:
                if kind == "welcome":
                    if self.welcome is not None:
                        self.violations.append("a second welcome")
                    if self.frame_count:
                        self.violations.append("welcome after a frame")
                    self.welcome = msg
                self.messages.append(Message(arrival, msg))
            self._cond.notify_all()

    def _on_frame(self, msg: dict, arrival: float, size: int) -> None:
        n, t, full = msg.get("n"), msg.get("t"), msg.get("full")
        if not isinstance(n, int) or isinstance(n, bool):
            self.violations.append(f"frame n is not an integer: {n!r}")
            return
        if not isinstance(t, (int, float)) or isinstance(t, bool):
            self.violations.append(f"frame n={n}: t is not a number: {t!r}")
            return
        if not isinstance(full, bool):
            self.violations.append(f"frame n={n}: full is not a boolean: {full!r}")
            return
        if self.welcome is None:
            self.violations.append(f"frame n={n} before welcome")
        if self.last_t is not None and t < self.last_t:
            self.violations.append(f"frame n={n}: t={t} went back from {self.last_t}")
        if self.frame_count == 0 and not full:
            self.violations.append(f"first frame n={n} is a delta, not a full frame")
        if full:
            items = msg.get("items")
            if not isinstance(items, list):
                self.violations.append(f"full frame n={n}: items is not a list")
                return
            if self.last_n is not None:
                if n <= self.last_n:
                    self.violations.append(f"full frame n={n} after n={self.last_n} (n must grow)")
                elif n != self.last_n + 1:
                    self.gaps.append((self.last_n, n))
            model = copy.deepcopy(items)
            self.full_count += 1
            for key in ("set", "add", "remove", "order"):
                if key in msg:
                    self.style_notes.append(f"full frame n={n} carries delta key {key!r}")
        else:
            if "items" in msg:
                self.style_notes.append(f"delta n={n} carries items")
            if self.model is None or self.last_n is None:
                self.violations.append(f"delta n={n} with no full frame to apply it to")
                return
            try:
                base = delta_base(msg)
            except ValueError as exc:
                self.violations.append(str(exc))
                return
            if not base <= self.last_n < n:
                self.violations.append(f"delta n={n} does not follow n={self.last_n}: it applies to "
                                       f"n={base}..{n - 1} (a client should reconnect)")
                # Keep the model: later frames are compared against it anyway.
            model = self._apply_delta(copy.deepcopy(self.model), msg, n)
        self.paths = apply_paths(self.paths, msg)
        for path_id in sorted(referenced_paths(model) - self.paths.keys()):
            self.violations.append(f"frame n={n}: path {path_id} is not in the path table")
        ids = [item.get("id") for item in model]
        if len(set(ids)) != len(ids):
            self.violations.append(f"frame n={n}: duplicate ids in the display list {ids}")
        self.model = model
        for item in model:
            if isinstance(item.get("name"), str):
                self.first_seen.setdefault(item["name"], float(t))
        self.last_n = n
        self.last_t = float(t)
        self.frame_count += 1
        self.frames.append(FrameRecord(n, float(t), full, arrival, size, model, msg,
                                       -1 if full else delta_base(msg)))

    def _apply_delta(self, model: list[dict], msg: dict, n: int) -> list[dict]:
        return apply_delta(model, msg, n, self.violations, self.style_notes)

    # ---- waiting (all bounded)

    def wait_for(self, predicate: Callable[[], Any], timeout: float, what: str) -> Any:
        """Waits until `predicate()` (called under the lock) is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                value = predicate()
                if value:
                    return value
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise Timeout(f"timed out after {timeout:.1f}s waiting for {what} "
                                  f"({self.describe()})")
                self._cond.wait(min(remaining, 0.25))

    def describe(self) -> str:
        recent = [m.data for m in self.messages[-4:]]
        return (f"url={self.url} frames={self.frame_count} last_n={self.last_n} "
                f"closed={self.closed} close_code={self.close_code} "
                f"closed_error={self.closed_error} recent messages={recent}")

    def wait_welcome(self, timeout: float = 5.0) -> dict:
        return self.wait_for(lambda: self.welcome, timeout, "welcome")

    def wait_frames(self, count: int, timeout: float = 5.0) -> FrameRecord:
        """Waits until `count` frames have arrived in all; returns the newest."""
        self.wait_for(lambda: self.frame_count >= count, timeout, f"{count} frames")
        with self._cond:
            return self.frames[-1]

    def wait_more_frames(self, count: int, timeout: float = 5.0) -> FrameRecord:
        with self._cond:
            target = self.frame_count + count
        return self.wait_frames(target, timeout)

    def wait_frame_n(self, n: int, timeout: float = 5.0) -> FrameRecord:
        self.wait_for(lambda: self.last_n is not None and self.last_n >= n, timeout,
                      f"frame n >= {n}")
        return self.frame_at(n) or self.latest()

    def frame_at(self, n: int) -> Optional[FrameRecord]:
        with self._cond:
            for record in reversed(self.frames):
                if record.n == n:
                    return record
                if record.n < n:
                    return None
        return None

    def latest(self) -> Optional[FrameRecord]:
        with self._cond:
            return self.frames[-1] if self.frames else None

    def frames_snapshot(self) -> list[FrameRecord]:
        with self._cond:
            return list(self.frames)

    def messages_of(self, kind: str, since: int = 0) -> list[dict]:
        with self._cond:
            return [m.data for m in self.messages[since:] if m.data.get("type") == kind]

    def mark(self) -> int:
        """An index into `messages` for `since=` arguments."""
        with self._cond:
            return len(self.messages)

    def wait_message(self, kind: str, predicate: Callable[[dict], bool] = lambda m: True,
                     timeout: float = 3.0, since: int = 0, what: str = "") -> dict:
        def find():
            for m in self.messages[since:]:
                if m.data.get("type") == kind and predicate(m.data):
                    return m.data
            return None
        return self.wait_for(find, timeout, what or f"a {kind!r} message")

    def wait_error(self, code: Optional[str] = None, timeout: float = 3.0, since: int = 0) -> dict:
        return self.wait_message("error", lambda m: code is None or m.get("code") == code,
                                 timeout, since, f"error {code!r}")

    def wait_event(self, name: str, predicate: Callable[[dict], bool] = lambda m: True,
                   timeout: float = 3.0, since: int = 0) -> dict:
        return self.wait_message("event", lambda m: m.get("name") == name and predicate(m),
                                 timeout, since, f"event {name!r}")

    def wait_closed(self, timeout: float = 5.0) -> Optional[int]:
        """Waits for the connection to end; returns the close code (None without one)."""
        self.wait_for(lambda: self.closed, timeout, "the server to close the connection")
        return self.close_code

    def wait_item(self, predicate: Callable[[dict], bool], timeout: float = 5.0,
                  what: str = "an item") -> tuple[FrameRecord, dict]:
        """Waits for a frame whose display list has an item matching `predicate`; returns the
        frame record and the item (the newest match)."""
        def find():
            if not self.frames:
                return None
            record = self.frames[-1]
            matches = [item for item in record.items if predicate(item)]
            return (record, matches[-1]) if matches else None
        return self.wait_for(find, timeout, what)

    # ---- sending

    def send_json(self, obj: Any) -> None:
        self.send_text(json.dumps(obj))

    def send_text(self, text: str) -> None:
        self.ws.send(text, opcode=websocket.ABNF.OPCODE_TEXT)

    def send_binary(self, data: bytes) -> None:
        self.ws.send(data, opcode=websocket.ABNF.OPCODE_BINARY)

    def view_time(self) -> float:
        """The media time of what this client shows: the newest frame's `t`."""
        latest = self.latest()
        if latest is None:
            raise AssertionError("no frame received yet, so no viewTime")
        return latest.t

    def tap(self, x: float, y: float, view_time: Optional[float] = None,
            tap_id: Optional[float] = None) -> None:
        message = {"type": "tap", "x": x, "y": y,
                   "viewTime": self.view_time() if view_time is None else view_time}
        if tap_id is not None:
            message["id"] = tap_id
        self.send_json(message)

    def drag(self, phase: str, x: float, y: float, view_time: Optional[float] = None) -> None:
        self.send_json({"type": "drag", "phase": phase, "x": x, "y": y,
                        "viewTime": self.view_time() if view_time is None else view_time})

    def ping(self, ping_id: Any = None) -> None:
        self.send_json({"type": "ping"} if ping_id is None else {"type": "ping", "id": ping_id})

    # ---- closing

    def close(self, code: int = 1000, timeout: float = 2.0) -> None:
        """Sends a close frame, waits (bounded) for the server's, then drops the socket."""
        if not self.closed:
            try:
                self.ws.send_close(code)
            except Exception:
                pass
            try:
                self.wait_for(lambda: self.closed, timeout, "the close handshake")
            except Timeout:
                pass
        self._stop = True
        try:
            self.ws.shutdown()
        except Exception:
            pass
        self._thread.join(timeout=2.0)

    def __enter__(self) -> "LayercastClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ---- checks over what was received

    def check_stream(self, since_n: Optional[int] = None, max_interval: Optional[float] = None,
                     allow_gaps: bool = False) -> list[str]:
        """Problems in the frames received (from `since_n` on): protocol violations, gaps in n,
        and inter-arrival times over `max_interval` seconds."""
        with self._cond:
            problems = list(self.violations)
            records = [r for r in self.frames if since_n is None or r.n >= since_n]
            if not allow_gaps:
                problems += [f"frames skipped: n={a} then full n={b}" for a, b in self.gaps
                             if since_n is None or b >= since_n]
        for prev, cur in zip(records, records[1:]):
            follows = cur.base <= prev.n < cur.n if not cur.full else cur.n == prev.n + 1
            if not follows and not allow_gaps:
                problems.append(f"n jumped from {prev.n} to {cur.n}" + ("" if cur.full else f" (b={cur.base})"))
            if max_interval is not None and cur.arrival - prev.arrival > max_interval:
                problems.append(f"{cur.arrival - prev.arrival:.3f}s between frames n={prev.n} "
                                f"and n={cur.n} (limit {max_interval}s)")
        return problems
