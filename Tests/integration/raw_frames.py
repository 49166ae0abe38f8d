"""A server's WebSocket frames parsed from raw bytes (RFC 6455 §5.2), refusing any it may not send."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import NoReturn

TEXT, CLOSE, PONG = 0x1, 0x8, 0xA
MAX_PAYLOAD = 1 << 22    # no message of ours comes near this; a larger length is a corrupt header


class FramingError(AssertionError):
    """Bytes from the server that are not frames it may send."""


@dataclass
class Frame:
    """One whole frame as ServerFrames.next takes it from the stream."""
    offset: int          # stream offset of its header
    size: int            # its bytes on the wire, header and payload
    rsv1: bool           # compressed (permessage-deflate, RFC 7692)
    opcode: int          # TEXT or CLOSE
    payload: bytes


@dataclass
class ServerFrames:
    """Incremental parser of what a server sends: FIN set, RSV2 and RSV3 clear (RSV1 too unless
    `rsv1_allowed`), text frames and pongs (of at most 125 bytes), then at most one close frame (of at
    most 125 bytes) that ends the stream, no mask, minimal 7/16/64-bit lengths, payloads of at most MAX_PAYLOAD bytes."""
    rsv1_allowed: bool = False
    buffer: bytearray = field(default_factory=bytearray)   # what follows the last frame taken
    consumed: int = 0                                       # stream offset of buffer[0]
    frames: int = 0                                         # frames taken so far
    close_payload: bytes | None = None                      # the close frame's, once taken

    @property
    def total(self) -> int:
        """Bytes fed so far."""
        return self.consumed + len(self.buffer)

    def fail(self, at: int, why: str) -> NoReturn:
        """Raises FramingError for stream offset `at` (still in `buffer`), with the bytes around it."""
        local = at - self.consumed
        around = bytes(self.buffer[max(0, local - 16):local + 48])
        raise FramingError(f"stream offset {at} (after {self.frames} frames): {why}; "
                           f"bytes around it: {around!r}")

    def feed(self, data: bytes) -> None:
        """Appends `data`, which follows what was fed before, to `buffer`."""
        if self.close_payload is not None and data:
            self.fail(self.total, f"{len(data)} bytes after the close frame")
        self.buffer += data

    def next(self) -> Frame | None:
        """The frame at the start of `buffer`, taken out of it; None until all its bytes are there."""
        frame = self._first()
        if frame is None:
            return None
        if frame.opcode == CLOSE:
            self.close_payload = frame.payload
            if frame.size != len(self.buffer):
                self.fail(self.consumed + frame.size, "bytes after the close frame")
        del self.buffer[:frame.size]
        self.consumed += frame.size
        self.frames += 1
        return frame

    def _first(self) -> Frame | None:
        """The whole frame at the start of `buffer` (left there), or None while bytes are to come."""
        buf = self.buffer
        if len(buf) < 2:
            return None
        b0, b1 = buf[0], buf[1]
        at = self.consumed
        if b0 & (0x30 if self.rsv1_allowed else 0x70):
            self.fail(at, f"RSV bits set in first byte 0x{b0:02x}")
        opcode = b0 & 0x0F
        if opcode not in (TEXT, CLOSE, PONG):
            self.fail(at, f"opcode {opcode} (the server sends only text frames and pongs, then close)")
        if not b0 & 0x80:
            self.fail(at, "FIN clear: every message is one unfragmented text frame")
        if b1 & 0x80:
            self.fail(at, "mask bit set on a server frame")
        length, header = b1 & 0x7F, 2
        if length == 126:
            if len(buf) < 4:
                return None
            length, header = struct.unpack_from("!H", buf, 2)[0], 4
            if length < 126:
                self.fail(at, f"16-bit length {length} that fits in 7 bits")
        elif length == 127:
            if len(buf) < 10:
                return None
            length, header = struct.unpack_from("!Q", buf, 2)[0], 10
            if length >> 63 or length < 1 << 16:
                self.fail(at, f"64-bit length {length}: top bit set or fits in 16 bits")
        if opcode in (CLOSE, PONG) and length > 125:
            self.fail(at, f"control frame of {length} bytes")
        if length > MAX_PAYLOAD:
            self.fail(at, f"length {length}: no Layercast message is that large")
        if len(buf) - header < length:
            return None
        return Frame(at, header + length, bool(b0 & 0x40), opcode, bytes(buf[header:header + length]))
