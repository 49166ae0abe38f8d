#!/usr/bin/env bash
# Installs what Layercast needs on a Debian 12 machine that already has Swift, in two sets:
# - serving (`--serve`, what scripts/run.sh installs): the C libraries' development packages that
#   `swift build` links (libwebsockets with libev, jansson, SQLite, libpq, hiredis, zlib, OpenSSL) and
#   pkg-config. Nothing else: no service is installed, stopped or started, no Python package.
# - everything (no flag; scripts/test.sh, scripts/cluster.sh and .ci/run): the serving set plus
#   PostgreSQL for the ledger tests, redis-server and nginx for the cluster, Chromium with its
#   WebDriver, Node.js for the JavaScript unit tests (node --test Tests/js/), and systemd for
#   `systemd-analyze verify` of deploy/ (via apt), and the Python test packages pytest,
#   websocket-client, websockets, selenium, axe-selenium-python, PyYAML, numpy and schemathesis (via pip).
#   scripts/install-deps.sh [--serve | --bench]
# --bench is everything plus the peers of bench (c)/(d) (bench/peers.py), which no test needs:
# Node.js's ws module, and Go with gorilla/websocket (built offline from /usr/share/gocode).
# Idempotent: installs nothing when everything is present.
# The tests and scripts/cluster.sh start their own redis-server and nginx on free loopback ports,
# so the services Debian's packages start (redis on 6379, nginx on 80) are stopped and disabled
# when they run: with systemctl when systemd is PID 1, else with their init scripts.
set -euo pipefail

export DEBIAN_FRONTEND=noninteractive
# What `swift build` links (Package.swift's system libraries): libwebsockets-dev and libev-dev
# (the event loop lws runs on), libjansson-dev, libsqlite3-dev, libpq-dev (the PostgreSQL ledger's
# client), libhiredis-dev (the cluster's Redis client), zlib1g-dev (permessage-deflate) and
# libssl-dev (libcrypto's SHA-256 and HMAC: tokens, public player ids, ETags, rain commitments).
serving_packages=(pkg-config libwebsockets-dev libev-dev libjansson-dev libsqlite3-dev libpq-dev libhiredis-dev zlib1g-dev libssl-dev)
# For the tests and the cluster: postgresql, the server the ledger tests start
# (scripts/test-postgres.sh), and psql; redis-server and nginx, what the cluster tests and
# scripts/cluster.sh run (redis-server brings redis-tools, whose redis-cli they use); systemd:
# test_deploy.py verifies the units with systemd-analyze.
test_packages=(postgresql redis-server nginx chromium chromium-driver nodejs systemd)
serve_only=false
case ${1:-} in
    --serve) serve_only=true; packages=("${serving_packages[@]}") ;;
    --bench) packages=("${serving_packages[@]}" "${test_packages[@]}" node-ws golang-go golang-github-gorilla-websocket-dev) ;;
    "") packages=("${serving_packages[@]}" "${test_packages[@]}") ;;
    *) echo "usage: scripts/install-deps.sh [--serve | --bench]" >&2; exit 64 ;;
esac

apt_updated=false
# apt_install PACKAGE...: apt-get update (once) and install, with sudo when not root.
apt_install() {
    local sudo_cmd=()
    if [[ $(id -u) -ne 0 ]]; then
        if command -v sudo >/dev/null 2>&1; then
            sudo_cmd=(sudo)
        else
            echo "install-deps: need root (or sudo) to install $*" >&2
            exit 1
        fi
    fi
    if [[ $apt_updated == false ]]; then
        echo "install-deps: apt-get update"
        "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
        apt_updated=true
    fi
    echo "install-deps: apt-get install $*"
    "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y --no-install-recommends "$@"
}

missing=()
for package in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)
    if [[ $status != installed ]]; then
        missing+=("$package")
    fi
done
if (( ${#missing[@]} == 0 )); then
    echo "install-deps: Debian packages present (${packages[*]})"
else
    apt_install "${missing[@]}"
fi
# Serving stops here: it needs no service quieted and no Python package.
[[ $serve_only == false ]] || exit 0

# quiet_service NAME: stops Debian's NAME service if it runs, and keeps it from starting at boot.
# Without root, or without the service installed, it only says what it left alone.
quiet_service() {
    local name=$1 sudo_cmd=()
    [[ -e /etc/init.d/$name || -e /lib/systemd/system/$name.service ]] || return 0
    if [[ $(id -u) -ne 0 ]]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            sudo_cmd=(sudo -n)
        else
            echo "install-deps: not root, leaving the $name service as it is"
            return 0
        fi
    fi
    if [[ -d /run/systemd/system ]] && command -v systemctl >/dev/null 2>&1; then
        if systemctl is-active --quiet "$name" || systemctl is-enabled --quiet "$name" 2>/dev/null; then
            echo "install-deps: systemctl disable --now $name (tests start their own)"
            "${sudo_cmd[@]}" systemctl disable --now "$name" || true
        fi
    elif [[ -x /etc/init.d/$name ]]; then
        # No systemd (a container, CI): the init script's status says whether it runs.
        if "${sudo_cmd[@]}" /etc/init.d/"$name" status >/dev/null 2>&1; then
            echo "install-deps: /etc/init.d/$name stop (tests start their own)"
            "${sudo_cmd[@]}" /etc/init.d/"$name" stop || true
        fi
        if command -v update-rc.d >/dev/null 2>&1; then
            "${sudo_cmd[@]}" update-rc.d "$name" disable >/dev/null 2>&1 || true
        fi
    fi
}
quiet_service redis-server
quiet_service nginx

# Python test packages: import name, pip name, Debian package (fallback when pip refuses).
python_packages=(
    "pytest pytest python3-pytest"
    "websocket websocket-client python3-websocket"
    "selenium selenium python3-selenium"
    "yaml PyYAML python3-yaml"
    "websockets websockets python3-websockets"
    "numpy numpy python3-numpy"
)
# Only on PyPI: axe-core for the browser tests' accessibility checks (it bundles axe.min.js), and
# schemathesis for test_openapi.py (pinned: the test runs its command line).
pip_only_packages=(
    "axe_selenium_python axe-selenium-python"
    "schemathesis schemathesis==4.32.5"
)
if ! command -v python3 >/dev/null 2>&1; then
    apt_install python3 python3-pip
fi
missing_pip=()
missing_deb=()
for entry in "${python_packages[@]}"; do
    read -r module pip_name deb_name <<<"$entry"
    if python3 -c "import $module" >/dev/null 2>&1; then
        echo "install-deps: python module $module present"
    else
        missing_pip+=("$pip_name")
        missing_deb+=("$deb_name")
    fi
done
if (( ${#missing_pip[@]} > 0 )); then
    echo "install-deps: python3 -m pip install ${missing_pip[*]}"
    if ! python3 -m pip install "${missing_pip[@]}"; then
        # Debian's own python3 refuses pip installs (PEP 668) or may lack pip: use its packages.
        echo "install-deps: pip failed, falling back to Debian's ${missing_deb[*]}"
        apt_install "${missing_deb[@]}"
    fi
fi
for entry in "${pip_only_packages[@]}"; do
    read -r module pip_name <<<"$entry"
    if python3 -c "import $module" >/dev/null 2>&1; then
        echo "install-deps: python module $module present"
    else
        echo "install-deps: python3 -m pip install $pip_name"
        python3 -m pip install "$pip_name" || python3 -m pip install --break-system-packages "$pip_name"
    fi
done
for entry in "${python_packages[@]}" "${pip_only_packages[@]}"; do
    read -r module _ _ <<<"$entry"
    python3 -c "import $module" >/dev/null 2>&1 || {
        echo "install-deps: python module $module still not importable by $(command -v python3)" >&2
        exit 1
    }
done
