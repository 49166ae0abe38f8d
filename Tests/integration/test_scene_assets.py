"""A scene's images ship as resources of its module and are served at /assets/{scene}/{file}
with a strong ETag (SHA-256 of the bytes, 32 hex digits) and `Cache-Control: public,
max-age=3600`; `If-None-Match` gets a 304. A missing image file stops the start (exit 2),
naming the scene, the image and the path, before anything is written (docs/protocol.md,
"Scene images")."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from conftest import BINARY, REPO, _require_binary, http_get, unique_room
from layercast_client import LayercastClient

RESOURCES = REPO / "Sources/LayercastScenes/Resources"
# The resource bundle of LayercastScenes, which Bundle.module looks for next to the binary first.
BUNDLE = "Layercast_LayercastScenes.resources"
SHIPPED = {
    "radar": {"radar-item": "radar-item.svg"},
    "rain": {"rp_normal": "rp-normal.svg", "rp_yes": "rp-yes.svg", "rp_no": "rp-no.svg"},
    "snow": {"snowflake": "snowflake.svg", "snowflake-star": "snowflake-star.svg", "petal": "petal.svg"},
    "book": {f"cover-{slug}": f"book-{slug}.svg" for slug in
             ["moby-dick", "pride-and-prejudice", "walden", "dracula", "emma", "frankenstein"]},
}


def etag(data: bytes) -> str:
    return '"' + hashlib.sha256(data).hexdigest()[:32] + '"'


@pytest.mark.parametrize("scene", sorted(SHIPPED))
def test_welcome_points_at_the_scenes_images_and_each_is_served(server, scene):
    client = LayercastClient.connect(server.base_url, scene=scene, room=unique_room(scene), role="spectator")
    try:
        client.wait_welcome(5)
        assets = client.welcome["assets"]
    finally:
        client.close()
    assert {k: v["url"] for k, v in assets.items()} == {
        asset: f"/assets/{scene}/{file}" for asset, file in SHIPPED[scene].items()}
    for file in SHIPPED[scene].values():
        data = (RESOURCES / file).read_bytes()
        resp = http_get(server.base_url, f"/assets/{scene}/{file}")
        assert resp.status == 200, repr(resp)
        assert resp.body == data
        assert resp.header_values("Content-Type") == ["image/svg+xml"]
        assert resp.header_values("ETag") == [etag(data)]
        assert resp.header_values("Cache-Control") == ["public, max-age=3600"]
        assert resp.header_values("X-Content-Type-Options") == ["nosniff"]
        assert any("frame-ancestors" in v for v in resp.header_values("Content-Security-Policy"))


def test_if_none_match_gets_304_without_a_body(server):
    data = (RESOURCES / "radar-item.svg").read_bytes()
    path = "/assets/radar/radar-item.svg"
    for sent in [etag(data), "W/" + etag(data), f'"0123", {etag(data)}', "*"]:
        resp = http_get(server.base_url, path, headers={"If-None-Match": sent})
        assert resp.status == 304, (sent, repr(resp))
        assert resp.body == b""
        assert resp.header_values("ETag") == [etag(data)]
        assert resp.header_values("Cache-Control") == ["public, max-age=3600"]
    resp = http_get(server.base_url, path, headers={"If-None-Match": '"0123"'})
    assert resp.status == 200 and resp.body == data


def test_unknown_images_are_404_and_public_assets_stay(server):
    for path in ["/assets/radar/nope.svg", "/assets/rain/radar-item.svg", "/assets/cubes/x.svg",
                 "/assets/nosuchscene/radar-item.svg", "/assets/nosuch.svg"]:
        resp = http_get(server.base_url, path)
        assert resp.status == 404, f"GET {path} answered {resp.status}"
    # An image's earlier flat URL (when it lay in public/assets/) answers the scene's file as it is.
    scene = http_get(server.base_url, "/assets/radar/radar-item.svg")
    flat = http_get(server.base_url, "/assets/radar-item.svg")
    assert flat.status == 200 and flat.body == scene.body == (RESOURCES / "radar-item.svg").read_bytes()
    assert flat.header_values("ETag") == scene.header_values("ETag") and flat.header_values("ETag")
    assert flat.header_values("Cache-Control") == ["public, max-age=3600"]
    for path in ["/assets/radar/../../Package.swift", "/assets/radar/%2e%2e/%2e%2e/Package.swift",
                 "/assets/radar/..%2f..%2fPackage.swift"]:
        resp = http_get(server.base_url, path)
        assert resp.status != 200 and b"swift-tools-version" not in resp.body, f"GET {path}: {resp!r}"
    resp = http_get(server.base_url, "/assets/logo.svg")   # a file of public/, as before
    assert resp.status == 200 and resp.body == (REPO / "public/assets/logo.svg").read_bytes()
    assert resp.header_values("Cache-Control") == ["no-cache"]   # revalidated (protocol.md, Static files)


def test_a_missing_image_stops_the_start_naming_it():
    """The binary beside a copy of its resource bundle that lacks petal.svg: Bundle.module
    prefers the bundle next to the executable, so the snow scene's petal is missing."""
    _require_binary()
    with tempfile.TemporaryDirectory(prefix="layercast-assets-") as directory:
        binary = Path(directory) / "layercast"
        try:
            os.link(BINARY, binary)
        except OSError:
            shutil.copy2(BINARY, binary)
        bundle = Path(directory) / BUNDLE
        shutil.copytree(RESOURCES, bundle)
        (bundle / "petal.svg").unlink()
        data = Path(directory) / "data"
        done = subprocess.run([str(binary), "serve", "--host", "127.0.0.1", "--port", "0",
                               "--public", str(REPO / "public"), "--data", str(data)],
                              capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL)
        assert done.returncode == 2, (done.returncode, done.stderr)
        assert (f'the scene "snow" cannot serve its image "petal": {bundle}/petal.svg: no such file'
                in done.stderr), done.stderr
        assert not data.exists(), "a refused start made the data directory"
        assert "http://" not in done.stdout
