#!/usr/bin/env bash
# Installs what serving needs and is missing (scripts/install-deps.sh --serve: the libraries
# `swift build` links, not the test tools), builds Layercast in release mode and starts the service on its
# embedded defaults (http://127.0.0.1:8080/, the browser client in public/). Extra arguments
# go to `layercast serve` (e.g. `scripts/run.sh --port 0 --fps 60`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/install-deps.sh --serve
swift build -c release --product layercast
exec .build/release/layercast serve --public public "$@"
