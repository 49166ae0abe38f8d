#!/usr/bin/env bash
# A Layercast cluster on this machine (issue 12), all on loopback: a redis-server, three
# `layercast serve --cluster` nodes and nginx in front of them, round-robin, on one port
# (deploy/nginx-cluster.conf). Prints the URL; Ctrl-C stops everything.
#
#   scripts/cluster.sh [--port PORT] [--binary PATH] [--redis-port PORT] [--node-ports A,B,C]
#                      [--ledger URL] [-- SERVE_FLAG...]
#
#   --port PORT          nginx's port on 127.0.0.1 (default 8080)
#   --binary PATH        the layercast binary (default .build/debug/layercast, built with
#                        `swift build` when missing)
#   --redis-port PORT    redis-server's port on 127.0.0.1 (default 6390)
#   --node-ports A,B,C   the three nodes' ports on 127.0.0.1 (default 8081,8082,8083)
#   --ledger URL         a PostgreSQL ledger for all three nodes (or env LAYERCAST_LEDGER);
#                        default: one SQLite ledger in the cluster's data directory, shared
#   -- SERVE_FLAG...     passed to every node, e.g. -- --admin-token "$TOKEN" --rain-every 0
#
# Missing packages are installed first (scripts/install-deps.sh, which may ask for sudo). The
# state (redis's, each node's data, nginx's prefix and logs) lives in a temporary directory,
# removed at exit; the nodes' logs are node-1.log … there. Redis keeps nothing on disk.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

port=8080
binary=.build/debug/layercast
redis_port=6390
node_ports=(8081 8082 8083)
ledger=${LAYERCAST_LEDGER:-}
serve_flags=()
while (( $# > 0 )); do
    case $1 in
        --port) port=$2; shift 2 ;;
        --binary) binary=$2; shift 2 ;;
        --redis-port) redis_port=$2; shift 2 ;;
        --node-ports) IFS=, read -r -a node_ports <<<"$2"; shift 2 ;;
        --ledger) ledger=$2; shift 2 ;;
        --) shift; serve_flags=("$@"); break ;;
        -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "cluster: unknown argument $1 (see --help)" >&2; exit 64 ;;
    esac
done
if (( ${#node_ports[@]} != 3 )); then
    echo "cluster: --node-ports needs three ports, A,B,C" >&2
    exit 64
fi

# Packages and the binary.
for tool in redis-server nginx; do
    if ! command -v "$tool" >/dev/null 2>&1 && [[ ! -x /usr/sbin/$tool && ! -x /usr/bin/$tool ]]; then
        echo "cluster: $tool is missing, running scripts/install-deps.sh"
        bash scripts/install-deps.sh
        break
    fi
done
PATH=$PATH:/usr/sbin
if [[ ! -x $binary ]]; then
    if [[ $binary == .build/debug/layercast ]]; then
        echo "cluster: building $binary (swift build)"
        swift build --product layercast
    else
        echo "cluster: no executable at $binary" >&2
        exit 1
    fi
fi
if ! "$binary" serve --help | grep -q -- '--cluster'; then
    echo "cluster: $binary has no \`serve --cluster\` (issue 12); build a version that has" >&2
    exit 1
fi

# port_free PORT: nothing answers on 127.0.0.1:PORT.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for p in "$port" "$redis_port" "${node_ports[@]}"; do
    port_free "$p" || { echo "cluster: port $p of 127.0.0.1 is taken; choose others (see --help)" >&2; exit 1; }
done

state=$(mktemp -d -t layercast-cluster.XXXXXX)
chmod 755 "$state"              # nginx's workers (nobody, when run as root) reach its temp paths
pids=()
stopped=false
stop_all() {
    [[ $stopped == false ]] || return 0
    stopped=true
    echo
    echo "cluster: stopping"
    local pid
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do
        for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$state"
}
trap stop_all EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# wait_port PORT WHAT: waits (at most 20 s) until something answers on 127.0.0.1:PORT.
wait_port() {
    for _ in $(seq 1 200); do
        port_free "$1" || return 0
        sleep 0.1
    done
    echo "cluster: $2 did not listen on 127.0.0.1:$1 within 20 s; logs in $state" >&2
    tail -n 20 "$state"/*.log >&2 || true
    exit 1
}

mkdir -p "$state/redis"
redis-server --bind 127.0.0.1 --port "$redis_port" --protected-mode yes --save "" --appendonly no \
    --dir "$state/redis" --daemonize no --logfile "$state/redis.log" &
pids+=($!)
wait_port "$redis_port" redis-server

ledger_flags=(--data "$state/data")              # one SQLite ledger for all three nodes
[[ -n $ledger ]] && ledger_flags=(--ledger "$ledger")
# Every node needs the same key for public player ids; a fresh one per run unless given.
player_id_secret=${LAYERCAST_PLAYER_ID_SECRET:-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')}
for i in 1 2 3; do
    node_port=${node_ports[i-1]}
    mkdir -p "$state/node-$i" "$state/data"
    LAYERCAST_PLAYER_ID_SECRET=$player_id_secret "$binary" serve --host 127.0.0.1 --port "$node_port" \
        --cluster "redis://127.0.0.1:$redis_port" --node-id "node-$i" \
        --data "$state/node-$i" "${ledger_flags[@]}" --trust-proxy 127.0.0.1/32 \
        "${serve_flags[@]}" >"$state/node-$i.log" 2>&1 &
    pids+=($!)
done
for i in 1 2 3; do wait_port "${node_ports[i-1]}" "node-$i"; done

sed -e "s/@LISTEN_PORT@/$port/" -e "s/@NODE1_PORT@/${node_ports[0]}/" \
    -e "s/@NODE2_PORT@/${node_ports[1]}/" -e "s/@NODE3_PORT@/${node_ports[2]}/" \
    deploy/nginx-cluster.conf >"$state/nginx.conf"
nginx -t -q -p "$state" -c "$state/nginx.conf" -e "$state/error.log"
nginx -p "$state" -c "$state/nginx.conf" -e "$state/error.log" &
pids+=($!)
wait_port "$port" nginx

echo "cluster: redis-server on 127.0.0.1:$redis_port, nodes node-1..3 on ${node_ports[*]}, logs in $state"
echo "cluster: open http://127.0.0.1:$port/   (Ctrl-C stops everything)"
# Until Ctrl-C, or until one of them exits.
while true; do
    for pid in "${pids[@]}"; do
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "cluster: process $pid exited; stopping the rest (logs: $state)" >&2
            tail -n 20 "$state"/*.log >&2 || true
            exit 1
        fi
    done
    sleep 1
done
