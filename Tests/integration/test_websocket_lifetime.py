"""A WebSocket lives as long as its client wants it (docs/protocol.md, "Idle connections").

libwebsockets 4.1 gives every connection a "validity" timer: a PING 300 s after the handshake and
a hangup at 310 s unless lws itself reads the PONG. The server reads its clients' frames itself,
so lws never saw one and every client was dropped at 310 s, answering or not. The timer is off;
the kernel's TCP keepalive finds peers that vanished instead.

The spectator (conftest.py, `long_lived_spectator`) connects when the session's tests are
collected, so in the whole suite this test finds it many minutes old; run alone, it waits for it
to pass 320 s (bounded).
"""
from __future__ import annotations

import socket
import time

LWS_HANGUP_SECONDS = 310  # lws 4.1's default secs_since_valid_hangup
AGE_SECONDS = LWS_HANGUP_SECONDS + 10


def server_socket_timers(server_port: int, client_port: int) -> list[int]:
    """The kernel's timer codes (`tr` of /proc/net/tcp: 0 none, 1 retransmit, 2 keepalive…) of
    the server's end of the connection from `client_port`, sampled for up to 2 s."""
    local, remote = f"0100007F:{server_port:04X}", f"0100007F:{client_port:04X}"
    codes = []
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and 2 not in codes:
        with open("/proc/net/tcp") as table:
            for line in table.readlines()[1:]:
                fields = line.split()
                if fields[1] == local and fields[2] == remote:
                    codes.append(int(fields[5].split(":")[0], 16))
        time.sleep(0.02)
    return codes


def test_a_spectator_is_served_past_310_seconds_with_no_ping(long_lived_spectator):
    spectator = long_lived_spectator
    deadline = spectator.opened + AGE_SECONDS
    while time.monotonic() < deadline and spectator.ended is None:
        time.sleep(1)
    age = time.monotonic() - spectator.opened
    assert spectator.ended is None, (
        f"the connection ended {spectator.ended[0] - spectator.opened:.1f} s after it opened: {spectator.ended[1]}")
    assert age >= AGE_SECONDS
    recent = [t for t in spectator.messages if t > time.monotonic() - 5]
    assert len(recent) >= 5, f"{len(recent)} messages in the last 5 s at 2 fps, {age:.0f} s in"
    assert spectator.pings == [], f"the server sent WebSocket PINGs at {[round(t - spectator.opened) for t in spectator.pings]} s"


def test_the_kernel_keeps_the_connection_alive(long_lived_spectator):
    spectator = long_lived_spectator
    server_port = spectator.server.port
    client_port = spectator.ws.sock.getsockname()[1]
    codes = server_socket_timers(server_port, client_port)
    assert codes, f"no socket 127.0.0.1:{server_port} ↔ 127.0.0.1:{client_port} in /proc/net/tcp"
    assert 2 in codes, f"the server's socket never showed the keepalive timer (tr 2); saw {sorted(set(codes))}"
    # a connection without SO_KEEPALIVE shows none: the check can fail
    with socket.create_connection(("127.0.0.1", server_port)) as plain:
        bare = server_socket_timers(server_port, plain.getsockname()[1])
    assert bare and 2 not in bare, f"an HTTP connection, never a WebSocket, showed {sorted(set(bare))}"
