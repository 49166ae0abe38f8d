#!/usr/bin/env bash
# Installs what Layercast needs on a Debian 12 machine that already has Swift:
# the C libraries' development packages (via apt) and pytest (via pip).
# Idempotent: installs nothing when everything is present.
set -euo pipefail

export DEBIAN_FRONTEND=noninteractive
packages=(pkg-config libwebsockets-dev libjansson-dev libsqlite3-dev)

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

if ! command -v python3 >/dev/null 2>&1; then
    apt_install python3 python3-pytest
elif python3 -c 'import pytest' >/dev/null 2>&1; then
    echo "install-deps: pytest present"
else
    echo "install-deps: python3 -m pip install pytest"
    if ! python3 -m pip install pytest; then
        # Debian's own python3 refuses pip installs (PEP 668) or may lack pip: use its package.
        echo "install-deps: pip failed, falling back to Debian's python3-pytest"
        apt_install python3-pytest
    fi
fi
python3 -c 'import pytest' >/dev/null 2>&1 || {
    echo "install-deps: pytest still not importable by $(command -v python3)" >&2
    exit 1
}
