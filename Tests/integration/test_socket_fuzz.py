"""The socket fuzzer (socket_fuzzer.py) against a server of its own, for
LAYERCAST_SOCKET_FUZZ_SECONDS (default 60, as CI runs it): whatever malformed frames and
messages arrive, a bystander spectator keeps at least 28 frames per second in every 5-second
window, and the server stays up and keeps serving new clients."""

from __future__ import annotations

import os

import socket_fuzzer
from conftest import http_get
from layercast_client import LayercastClient

SECONDS = float(os.environ.get("LAYERCAST_SOCKET_FUZZ_SECONDS", "60"))


def test_server_survives_socket_fuzzing_and_bystander_keeps_its_rate(start_server):
    srv = start_server()
    figures = socket_fuzzer.run(srv.base_url, SECONDS, seed=14)
    print(f"socket fuzzer: {figures.summary()}")
    assert srv.proc.poll() is None, f"the server died:\n{srv.log_tail()}"
    assert figures.server_up
    assert figures.bystander_error is None, figures.summary()
    assert figures.connections >= SECONDS, f"the fuzzer made too few connections to mean much: {figures.summary()}"
    assert len(figures.bystander_windows) >= int(SECONDS // 5) - 1, figures.summary()
    assert figures.min_fps >= 28, figures.summary()
    assert http_get(srv.base_url, "/healthz").json()["status"] == "ok"
    fresh = LayercastClient.connect(srv.base_url, scene="radar", room="after-fuzz", role="spectator")
    try:
        fresh.wait_frames(10, timeout=5)
    finally:
        fresh.close()
