#!/usr/bin/env bash
# Builds and tests Layercast: dependencies, Swift build and tests, the example scene package's
# build and tests, the JavaScript unit tests (node --test Tests/js/), then the Python
# conformance tests and the integration tests when there are any, then the reliability runs
# (docs/reliability.md): every libFuzzer target for 30 s and a 2-minute soak, about 10 minutes;
# LAYERCAST_QUICK=1 leaves those two out. Exits non-zero as soon as a step fails.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

run() {
    echo "+ $*"
    "$@"
}

run bash scripts/install-deps.sh
run swift build --build-tests
# The public API a scene author compiles against, as docs/public-api.txt lists it (writing-a-scene.md §8).
run python3 scripts/public-api.py --check --require-docs
# The API reference (README, "API reference"): DocC archives of Layercast, the engine and the kit.
run python3 scripts/reference.py
run swift test
# The example scene package (docs/writing-a-scene.md): a package of its own that depends on
# Layercast by path, builds its card-flip scene and its binary (which the integration tests
# serve: test_example_package.py, and test_cluster_scenes.py beside ours) and runs the scene's
# tests. It has its own .build, so this is a second debug build of Layercast's modules.
run swift build --package-path examples/scene-package
run swift test --package-path examples/scene-package
# The UIKit example package (docs/writing-a-scene.md §3, "UIKit code"): three UIKit projects ported,
# built in the scene package's build folder so that Layercast's modules are not built a third time.
run swift build --package-path examples/uikit-package --scratch-path examples/scene-package/.build
run swift test --package-path examples/uikit-package --scratch-path examples/scene-package/.build
# The scene API's compile test (examples/api-coverage): a package that imports Layercast alone and implements
# every public scene protocol requirement, built and tested in the same build folder.
run swift build --build-tests --package-path examples/api-coverage --scratch-path examples/scene-package/.build
run swift test --package-path examples/api-coverage --scratch-path examples/scene-package/.build
# The guides' Swift blocks marked as compiled (docs/writing-a-scene.md §8), built in a package of
# their own that shares the example's build folder, so Layercast's modules are not built again.
run python3 scripts/doc-snippets.py --scratch-path examples/scene-package/.build
# The browser client's pure modules (public/lib/) and the golden vectors (Tests/vectors/), with
# node's own test runner: no npm, no DOM.
run node --test Tests/js/

shopt -s nullglob
conformance_tests=(Tests/conformance/test_*.py)
shopt -u nullglob
if [[ -d Tests/conformance ]] && (( ${#conformance_tests[@]} > 0 )); then
    echo "+ python3 -m pytest -q Tests/conformance"
    status=0
    python3 -m pytest -q Tests/conformance || status=$?
    if (( status == 5 )); then
        echo "test.sh: pytest collected no tests"
    elif (( status != 0 )); then
        exit "$status"
    fi
else
    echo "test.sh: no Tests/conformance/test_*.py, skipping pytest"
fi

# Integration tests: the real `layercast serve` (built above by `swift build --build-tests`)
# against docs/protocol.md, with a scripted WebSocket client and headless Chromium.
shopt -s nullglob
integration_tests=(Tests/integration/test_*.py)
shopt -u nullglob
if (( ${#integration_tests[@]} > 0 )); then
    echo "+ LAYERCAST_BIN=.build/debug/layercast python3 -m pytest -q Tests/integration"
    status=0
    LAYERCAST_BIN=.build/debug/layercast python3 -m pytest -q Tests/integration || status=$?
    if (( status == 5 )); then
        echo "test.sh: pytest collected no integration tests"
    elif (( status != 0 )); then
        exit "$status"
    fi
else
    echo "test.sh: no Tests/integration/test_*.py, skipping"
fi

# Reliability (docs/reliability.md); the socket fuzzer, schemathesis and the deploy checks are
# integration tests above.
if [[ ${LAYERCAST_QUICK:-0} == 1 ]]; then
    echo "test.sh: LAYERCAST_QUICK=1, skipping the fuzzers and the soak"
else
    run scripts/fuzz.sh 30
    run python3 bench/soak.py --minutes 2 --binary .build/debug/layercast
fi

echo "test.sh: all steps passed"
