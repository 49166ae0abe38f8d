"""Static files on a phone network (issue 36; docs/protocol.md, "Static files"): gzip negotiated
by Accept-Encoding with `Vary`, an ETag per body and 304 on `If-None-Match`, a year's
`immutable` caching for a URL whose `?v=` is the file's version and `no-cache` for the rest; and
still nothing outside `--public`."""

from __future__ import annotations

import gzip
import os
import time

import pytest
from conftest import REPO, http_get

PUBLIC = REPO / "public"
SECURITY = ("content-security-policy", "x-content-type-options")


def fnv1a64(data: bytes) -> str:
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{value:016x}"


def one(resp, name: str) -> str:
    values = resp.header_values(name)
    assert len(values) == 1, f"{name}: {values} in {resp.header_list}"
    return values[0]


@pytest.mark.parametrize("path", ["/index.html", "/layercast.js", "/lib/renderer.js", "/style.css",
                                  "/assets/logo.svg", "/fonts/layercast-sans.css"])
def test_text_is_gzipped_when_accepted_and_identity_otherwise(server, path):
    data = (PUBLIC / path.lstrip("/")).read_bytes()
    plain = http_get(server.base_url, path)
    assert plain.status == 200 and plain.body == data
    assert plain.header_values("Content-Encoding") == []
    assert one(plain, "Vary") == "Accept-Encoding"
    assert one(plain, "ETag") == f'"{fnv1a64(data)}"'
    assert int(one(plain, "Content-Length")) == len(data)

    packed = http_get(server.base_url, path, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert packed.status == 200
    assert one(packed, "Content-Encoding") == "gzip"
    assert one(packed, "Vary") == "Accept-Encoding"
    assert gzip.decompress(packed.body) == data
    assert len(packed.body) < len(data) and int(one(packed, "Content-Length")) == len(packed.body)
    assert one(packed, "ETag") == f'"{fnv1a64(data)}-gzip"'
    assert one(packed, "Content-Type") == one(plain, "Content-Type")
    for name in SECURITY:
        assert packed.header_values(name) == plain.header_values(name) and plain.header_values(name)

    refused = http_get(server.base_url, path, headers={"Accept-Encoding": "gzip;q=0, br"})
    assert refused.body == data and refused.header_values("Content-Encoding") == []


def test_fonts_are_not_compressed_and_their_versioned_url_is_immutable(server):
    path = "/fonts/layercast-sans-bold.woff2"
    data = (PUBLIC / path.lstrip("/")).read_bytes()
    version = fnv1a64(data)
    resp = http_get(server.base_url, f"{path}?v={version}", headers={"Accept-Encoding": "gzip"})
    assert resp.status == 200 and resp.body == data
    assert resp.header_values("Content-Encoding") == [] and resp.header_values("Vary") == []
    assert one(resp, "Content-Type") == "font/woff2"
    assert one(resp, "Cache-Control") == "public, max-age=31536000, immutable"
    for query in ["", "?v=0123456789abcdef", f"?v={version.upper()}", f"?w={version}"]:
        assert one(http_get(server.base_url, path + query), "Cache-Control") == "no-cache", query


def test_every_static_answer_says_how_to_cache_it(server):
    for path in ["/", "/scene.html", "/lib/font.js", "/fonts/OFL.txt"]:
        resp = http_get(server.base_url, path, headers={"Accept-Encoding": "gzip"})
        assert resp.status == 200 and one(resp, "Cache-Control") == "no-cache", path
        assert one(resp, "Connection").lower() == "close", path
    css = (PUBLIC / "style.css").read_bytes()
    resp = http_get(server.base_url, f"/style.css?v={fnv1a64(css)}")
    assert one(resp, "Cache-Control") == "public, max-age=31536000, immutable"
    # The API keeps the vhost's no-cache.
    assert http_get(server.base_url, "/healthz").header_values("Cache-Control") == ["no-cache"]


def test_if_none_match_gets_a_304_for_the_same_body(server):
    path = "/layercast.js"
    for accept in [None, "gzip"]:
        headers = {"Accept-Encoding": accept} if accept else {}
        first = http_get(server.base_url, path, headers=headers)
        etag = one(first, "ETag")
        again = http_get(server.base_url, path, headers={**headers, "If-None-Match": etag})
        assert again.status == 304 and again.body == b""
        assert one(again, "ETag") == etag and one(again, "Vary") == "Accept-Encoding"
        assert one(again, "Cache-Control") == "no-cache"
        assert again.header_values("Content-Encoding") == []
        for name in SECURITY:
            assert again.header_values(name), name
        weak = http_get(server.base_url, path, headers={**headers, "If-None-Match": f'"x", W/{etag}'})
        assert weak.status == 304
    plain_tag = one(http_get(server.base_url, path), "ETag")
    # The identity body's tag does not match the gzip body, nor a stale tag either.
    assert http_get(server.base_url, path, headers={"Accept-Encoding": "gzip", "If-None-Match": plain_tag}).status == 200
    assert http_get(server.base_url, path, headers={"If-None-Match": '"0000000000000000"'}).status == 200


def test_a_changed_file_gets_a_new_version(start_server, tmp_path):
    public = tmp_path / "www"
    public.mkdir()
    page = public / "app.js"
    page.write_text("export const answer = 1;\n" * 40)
    srv = start_server(public=public)
    first = http_get(srv.base_url, "/app.js", headers={"Accept-Encoding": "gzip"})
    page.write_text("export const answer = 2;\n" * 41)
    os.utime(page, (time.time() + 5, time.time() + 5))
    second = http_get(srv.base_url, "/app.js", headers={"Accept-Encoding": "gzip", "If-None-Match": one(first, "ETag")})
    assert second.status == 200 and gzip.decompress(second.body) == page.read_bytes()
    assert one(second, "ETag") == f'"{fnv1a64(page.read_bytes())}-gzip"'


def test_a_scene_page_preloads_its_scenes_images(server):
    resp = http_get(server.base_url, "/scene.html?scene=radar&room=x", headers={"Accept-Encoding": "gzip"})
    assert one(resp, "Link") == "</assets/radar/radar-item.svg>; rel=preload; as=image"
    assert http_get(server.base_url, "/assets/radar/radar-item.svg").status == 200
    for path in ["/scene.html", "/scene.html?scene=nosuchscene", "/lib/font.js?scene=radar"]:
        assert http_get(server.base_url, path).header_values("Link") == [], path


@pytest.mark.parametrize("path", ["/nope.js", "/../Package.swift", "/%2e%2e/Package.swift", "/lib/../../Package.swift",
                                  "/..%2fPackage.swift", "/.hidden", "/lib/"])
def test_missing_files_and_escapes_are_still_refused(server, path):
    resp = http_get(server.base_url, path, headers={"Accept-Encoding": "gzip"})
    assert resp.status in (400, 403, 404), f"GET {path}: {resp!r}"
    assert b"swift-tools-version" not in resp.body
    assert resp.header_values("Content-Encoding") == [] and resp.header_values("ETag") == []
