"""The example packages build and pass their tests from a copy outside the repository (issue 39's
check): each is copied to a temporary folder, its `.package(name: "Layercast", path: "../..")`
pointed at this checkout by its absolute path (as an author's package names a checkout of any
folder name), then built and tested there with `swift build --build-tests` and `swift test`.

The copies share one build folder of their own outside the repository, so Layercast is built
once for them from nothing, as an author's first build (about a minute on a quiet 2-core machine,
performance.md); LAYERCAST_EXAMPLE_SCRATCH names another folder instead (e.g.
examples/scene-package/.build, where scripts/test.sh built them, to skip that build).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from conftest import REPO

DEPENDENCY = '.package(name: "Layercast", path: "../..")'
# Generous: the first build takes minutes on a loaded 2-core machine.
BUILD_SECONDS = 2400

if shutil.which("swift") is None:
    pytest.skip("swift is not on PATH", allow_module_level=True)


@pytest.fixture(scope="module")
def scratch():
    """The copies' build folder: a new one outside the repository, removed after them."""
    if os.environ.get("LAYERCAST_EXAMPLE_SCRATCH"):
        yield Path(os.environ["LAYERCAST_EXAMPLE_SCRATCH"]).resolve()
        return
    folder = Path(tempfile.mkdtemp(prefix="layercast-example-build-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        # SwiftPM's lock files for a build folder, in the temporary directory: /tmp/a/b → /tmp/_tmp_a_b*.lock.
        for lock in Path(tempfile.gettempdir()).glob(str(folder).replace("/", "_") + "*.lock"):
            lock.unlink(missing_ok=True)


@pytest.mark.parametrize("package", ["scene-package", "api-coverage", "uikit-package"])
def test_an_example_package_builds_and_passes_its_tests_from_a_copy_elsewhere(package, scratch):
    folder = Path(tempfile.mkdtemp(prefix=f"layercast-{package}-"))
    try:
        copy = folder / package
        shutil.copytree(REPO / "examples" / package, copy, ignore=shutil.ignore_patterns(".build", "Package.resolved"))
        manifest = copy / "Package.swift"
        text = manifest.read_text()
        assert text.count(DEPENDENCY) == 1, f"{package}'s manifest no longer names Layercast as {DEPENDENCY}"
        manifest.write_text(text.replace(DEPENDENCY, f'.package(name: "Layercast", path: "{REPO}")'))
        assert not str(copy.resolve()).startswith(str(REPO.resolve()) + os.sep)

        paths = ["--package-path", str(copy), "--scratch-path", str(scratch)]
        build = subprocess.run(["swift", "build", "--build-tests", *paths], capture_output=True, text=True,
                               timeout=BUILD_SECONDS)
        assert build.returncode == 0, build.stdout[-4000:] + build.stderr[-4000:]
        test = subprocess.run(["swift", "test", "--skip-build", *paths], capture_output=True, text=True,
                              timeout=BUILD_SECONDS)
        output = test.stdout + test.stderr
        assert test.returncode == 0, output[-6000:]
        # Every test of the copy ran: as many as its sources declare with @Test.
        declared = sum(len(re.findall(r"^@Test\b", path.read_text(), re.M)) for path in (copy / "Tests").rglob("*.swift"))
        ran = re.search(r"Test run with (\d+) tests?(?: in \d+ suites?)? passed", output)
        assert declared > 0 and ran and int(ran.group(1)) == declared, output[-3000:]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
