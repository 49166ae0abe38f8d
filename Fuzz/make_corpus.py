#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora (Fuzz/corpus/<target>/) from the tests' own messages.

Client messages are the `decode(#"…"#)` literals of Tests/LayercastWireTests/ClientMessageTests.swift;
admin bodies, join queries and tokens are those the integration tests and docs/protocol.md send;
sample documents are examples/*.json and bad shape, gradient and replicator documents. Each input is one file named by its SHA-1 (libFuzzer's own
naming), with the target's selector byte first where the target has one (see Fuzz/Targets).
Run it again after changing the tests; the output is committed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "Fuzz" / "corpus"
SECRET = b"fuzz-secret-0123456789"   # the secret of FuzzPlayerToken and FuzzJoinRequest
NOW = 1_795_000_000                   # their fixed "now"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def sign(payload: str) -> str:
    first = b64url(payload.encode("utf-8"))
    return first + "." + b64url(hmac.new(SECRET, first.encode("ascii"), hashlib.sha256).digest())


def client_messages() -> list[bytes]:
    text = (REPO / "Tests/LayercastWireTests/ClientMessageTests.swift").read_text()
    found = [m.encode("utf-8") for m in re.findall(r'decode\(#"(.*?)"#\)', text)]
    return found + [b'{"type":"tap","x":207,"y":368,"viewTime":12.3,"id":41}',
                    b'{"type":"drag","phase":"moved","x":10,"y":20,"viewTime":12.3}']


def payloads() -> list[str]:
    return [json.dumps({"sub": "player-42", "name": "Ada", "exp": NOW + 3600}, separators=(",", ":")),
            json.dumps({"sub": "p:1.x_y-z", "name": " Zoë ", "iat": NOW - 10, "exp": NOW + 60}),
            json.dumps({"sub": "anon-AAAAAAAAAAAAAAAA", "name": "x", "exp": NOW + 60}),
            json.dumps({"sub": "player-42", "name": "A\u202eB", "exp": NOW + 60}),
            json.dumps({"sub": "player-42", "name": "Ada", "exp": (NOW + 60) * 1000}),
            '{"sub":"a","name":"b","exp":1e3,"sub":"c"}', "[1,2]"]


def tokens() -> list[bytes]:
    docs_token = ("eyJzdWIiOiJwbGF5ZXItNDIiLCJuYW1lIjoiQWRhIiwiZXhwIjoxNzk1MzQxNjAwfQ."
                  "lrGtphKsha1gvMqCKlSaDNFwyrq_Vn5CmuTmsztXbwg")
    raw = [docs_token, sign(payloads()[0]), sign(payloads()[0]) + "=", "a.b.c", "", "x" * 60]
    return [b"\x00" + t.encode() for t in raw] + [b"\x01" + p.encode() for p in payloads()]


def join_queries() -> list[bytes]:
    token = sign(payloads()[0])
    queries = ["scene=radar&room=lobby&role=player", "scene=rain&room=campaign&role=spectator",
               "scene=cubes&room=a_b-C&role=player&player=anon-Xy3kQ0mZr8u1T5bWcV9a2w",
               f"scene=rain&room=campaign&role=player&token={token}",
               "scene=book&room=" + "r" * 33, "scene=snow&role=admin", "room=lobby", "scene=nope",
               "scene=radar&player=anon-short&player=anon-AAAAAAAAAAAAAAAAAAAA"]
    return [bytes([policy]) + q.encode() for q in queries for policy in (0, 3)]


def admin_bodies() -> list[bytes]:
    rain = [{}, {"duration": 30, "pool": 1000, "winners": 40, "seed": 7}, {"duration": "long"},
            {"duration": 0.5}, {"winners": 81}, {"pool": 5}, {"minCoins": 9, "maxCoins": 8}, {"seed": -1},
            {"seed": 1.5}, {"colour": "red"}]
    snow = [{"images": ["petal"], "rate": 30, "mode": "exact"}, {"images": ["snowflake-star"], "rate": 20},
            {"images": "snowflake"}, {"images": []}, {"images": ["rp_normal"]}, {"images": ["petal", "petal"]},
            {"rate": -1}, {"rate": 1000}, {"mode": "demo"}]
    raw = [b"", b"  \n", b"{", b"[]", b"null"]
    return ([b"\x00" + json.dumps(b).encode() for b in rain] + [b"\x01" + json.dumps(b).encode() for b in snow]
            + [selector + r for r in raw for selector in (b"\x00", b"\x01")])


def bad_layer_kinds() -> list[bytes]:
    """The bad shape, gradient and replicator documents of Tests/conformance/test_sample_errors.py:
    a malformed path, an unknown gradient type, a negative instance count, NaN, a huge dash pattern."""
    def root(fields: str) -> bytes:
        return ('{"root":{"name":"k",' + fields + '},"times":[0,0.5]}').encode()
    return [root('"type":"shape","path":[["move",0,0],["arc",1,2]]'),
            root('"type":"shape","path":[["line",1,2]]'),
            root('"type":"shape","animations":[{"keyPath":"path","fromValue":[["move",0,0]],"toValue":[["move"]]}]'),
            root('"type":"gradient","gradientType":"diamond"'),
            root('"type":"replicator","instanceCount":-1'),
            root('"type":"shape","lineWidth":NaN'),
            root('"type":"shape","path":[["move",NaN,0]]'),
            root('"type":"shape","lineDashPattern":[' + ",".join(["1"] * 65) + ']'),
            root('"type":"shape","lineDashPattern":[4,1e7]'),
            root('"type":"shape","lineDashPattern":[0,0]'),
            root('"animations":[{"keyPath":"strokeEnd","toValue":0.5}]'),
            root('"mask":{"bounds":[0,0,1,1],"colour":1}')]


def sample_documents() -> list[bytes]:
    docs = [p.read_bytes() for p in sorted((REPO / "examples").glob("*.json"))]
    return docs + [b'{"root":{"bounds":[0,0,10,10]},"times":[0,0.5],"hitTests":[{"time":0,"point":[1,1]}]}',
                   b'{"root":{"sublayers":[{"name":"a","animations":[{"type":"basic","keyPath":"opacity",'
                   b'"fromValue":0,"toValue":1,"duration":1}]}]},"times":[-1,0.25]}'] + bad_layer_kinds()


def main() -> None:
    sets = {"FuzzClientMessage": client_messages(), "FuzzJoinRequest": join_queries(),
            "FuzzAdminBody": admin_bodies(), "FuzzPlayerToken": tokens(),
            "FuzzSampleDocument": sample_documents()}
    for target, inputs in sets.items():
        folder = CORPUS / target
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        for data in inputs:
            (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)
        print(f"{target}: {len(set(inputs))} inputs")


if __name__ == "__main__":
    main()
