#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests (the Swift ledger tests and Tests/integration):
#
#   scripts/test-postgres.sh start DIR [PID]   initdb into DIR (an empty directory), start the
#                                              server on a free port of 127.0.0.1 only, and print
#                                              its URL, postgres://postgres@127.0.0.1:PORT/postgres
#                                              (trust auth); with PID, a watcher stops it once
#                                              process PID has gone, even if it was killed
#   scripts/test-postgres.sh stop DIR          stop that server and remove DIR
#
# It uses Debian's postgresql (/usr/lib/postgresql/*/bin, the newest). PostgreSQL refuses to run
# as root, so as root the server runs as the system user layercast-pg, created when missing.
# Exits 3 when PostgreSQL is not installed, 1 when it cannot be started (with its log).
set -euo pipefail

command=${1:-}
dir=${2:-}
owner=${3:-}
if [[ -z $command || -z $dir || ! -d $dir ]]; then
    echo "usage: $0 start DIR [PID] | stop DIR (an existing directory)" >&2
    exit 2
fi
dir=$(cd "$dir" && pwd)
user=layercast-pg

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [[ -z $bindir || ! -x $bindir/initdb ]]; then
    echo "test-postgres: PostgreSQL is not installed (apt-get install postgresql; scripts/install-deps.sh does it)" >&2
    exit 3
fi

# as_owner COMMAND...: runs COMMAND as the server's owner (layercast-pg when we are root).
as_owner() {
    if [[ $(id -u) -eq 0 ]]; then
        runuser -u "$user" -- "$@"
    else
        "$@"
    fi
}

case $command in
start)
    if [[ $(id -u) -eq 0 ]]; then
        id -u "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
        chown "$user:" "$dir"
    fi
    chmod 700 "$dir"
    as_owner "$bindir/initdb" --pgdata "$dir/data" --username postgres --auth trust --encoding UTF8 \
        --no-locale --no-sync >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    # A port nobody answers on; another process may take it before the server does, so try a few.
    for _ in 1 2 3 4 5; do
        port=$((20000 + RANDOM % 40000))
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then continue; fi
        if as_owner "$bindir/pg_ctl" --pgdata "$dir/data" --log "$dir/server.log" --wait --timeout 60 \
            -o "-c listen_addresses=127.0.0.1 -p $port -k $dir" start >/dev/null; then
            if [[ -n $owner ]]; then
                setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 2; done; exec bash "$2" stop "$3"' \
                    watcher "$owner" "${BASH_SOURCE[0]}" "$dir" </dev/null >/dev/null 2>&1 &
            fi
            echo "postgres://postgres@127.0.0.1:$port/postgres"
            exit 0
        fi
    done
    echo "test-postgres: the server did not start; its log:" >&2
    cat "$dir/server.log" >&2 || true
    exit 1
    ;;
stop)
    if [[ -f $dir/data/postmaster.pid ]]; then
        as_owner "$bindir/pg_ctl" --pgdata "$dir/data" --mode fast --wait stop >/dev/null || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: $0 start DIR [PID] | stop DIR" >&2
    exit 2
    ;;
esac
