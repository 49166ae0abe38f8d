"""A data directory the ledger cannot use is refused at start with a clear message and a non-zero
exit (issue 14, "Disk trouble"): a read-only one, and a full one. Each is a small tmpfs mounted
for the test (root only; skipped where mounting is not allowed). A corrupt ledger file is issue
18's start check."""

from __future__ import annotations

import os
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest

from conftest import BINARY, REPO, _require_binary


@contextmanager
def tmpfs(path: Path, options: str):
    path.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)], capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def serve(data: Path) -> subprocess.CompletedProcess:
    """`layercast serve` on a free port with `--data data`, expected to exit at once."""
    _require_binary()
    return subprocess.run([str(BINARY), "serve", "--host", "127.0.0.1", "--port", "0", "--public", str(REPO / "public"),
                           "--data", str(data)], capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL)


pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")


def test_read_only_data_directory_is_refused_at_start(tmp_path):
    with tmpfs(tmp_path / "ro", "ro,size=1m") as data:
        run = serve(data)
    assert run.returncode != 0 and "serving" not in run.stdout, run
    assert "ledger" in run.stderr and str(data) in run.stderr, run.stderr
    assert "read-only" in run.stderr.lower() or "readonly" in run.stderr.lower() or "unable to open" in run.stderr, run.stderr


def test_full_data_directory_is_refused_at_start(tmp_path):
    with tmpfs(tmp_path / "full", "size=64k") as data:
        fd = os.open(data / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            while os.write(fd, b"\0" * 4096) > 0:
                pass
        except OSError:
            pass   # ENOSPC: full
        finally:
            os.close(fd)
        run = serve(data)
    assert run.returncode != 0 and "serving" not in run.stdout, run
    assert "ledger" in run.stderr and str(data) in run.stderr, run.stderr
