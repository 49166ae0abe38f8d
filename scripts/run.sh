#!/usr/bin/env bash
# Installs what is missing, builds Layercast in release mode and runs it. Until the streaming
# service lands (`layercast serve`), this evaluates the bundled radar example with
# `layercast sample`; extra arguments replace the example (e.g. `scripts/run.sh sample my.json`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/install-deps.sh
swift build -c release --product layercast
if (( $# == 0 )); then
    set -- sample examples/radar-pulse.json --pretty
fi
exec .build/release/layercast "$@"
