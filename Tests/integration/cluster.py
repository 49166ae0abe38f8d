"""Helpers for the cluster tests (issue 12): a real redis-server, N `layercast serve --cluster`
nodes and Debian's nginx in front of them, all on 127.0.0.1 with free ports, every wait bounded.
The fixtures that start and stop them are in conftest.py (`redis_server`, `start_cluster`,
`start_nginx`).

- `RedisServer`: `redis-server` on a free loopback port, no persistence (no RDB, no AOF), in a
  temporary directory of its own; `stop()` and `start()` again keep the port.
- `Cluster`: nodes `node-1` … `node-N`, each a `ServerProcess` (conftest.py) with `--cluster
  redis://127.0.0.1:PORT --node-id node-I`, its own `--data` directory, one shared ledger and one
  shared `--player-id-secret`; `kill(node)` SIGKILLs one, `pause(node)` SIGSTOPs one and
  `wake(node)` SIGCONTs it.
- `Nginx`: deploy/nginx-cluster.conf (the template scripts/cluster.sh uses too) filled in with a
  free port and the first three nodes' ports, run in the foreground with its own prefix, pid,
  temp and log paths.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Optional

import pytest

from conftest import BINARY, REPO, ServerProcess, http_get, wait_until

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
NGINX_TEMPLATE = REPO / "deploy" / "nginx-cluster.conf"
PLAYER_ID_SECRET = "test-player-id-secret-0123456789"   # test_rain.py's: every node needs the same
START_TIMEOUT = 10.0
STOP_TIMEOUT = 10.0


def free_port() -> int:
    """A port of 127.0.0.1 nobody listens on now (another process may take it before us)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _stop_process(proc: subprocess.Popen, sig: int = signal.SIGTERM) -> Optional[int]:
    """Sends `sig` and waits (bounded); SIGKILL if it does not stop. Returns the exit status."""
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            return proc.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
            return None
    return proc.returncode


# ---------------------------------------------------------------------------------------------
# Redis


class RedisServer:
    """A throwaway redis-server on 127.0.0.1 (and on each address of `also_bind`, for a node in a
    network namespace: netns.py); `url` is `redis://127.0.0.1:PORT`."""

    def __init__(self, also_bind: tuple[str, ...] = ()):
        self.also_bind = also_bind
        if not os.access(REDIS_SERVER, os.X_OK):
            pytest.fail(f"redis-server is missing ({REDIS_SERVER}): apt-get install redis-server "
                        f"(scripts/install-deps.sh does)")
        self.directory = Path(tempfile.mkdtemp(prefix="layercast-redis-"))
        self.port = free_port()
        self.proc: Optional[subprocess.Popen] = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Starts it on its port (the same one after a stop) and waits for PONG."""
        assert self.proc is None or self.proc.poll() is not None, "redis-server is already running"
        # Protected mode refuses every address but loopback; with `also_bind` the bind list alone limits them.
        cmd = [REDIS_SERVER, "--bind", "127.0.0.1", *self.also_bind, "--port", str(self.port),
               "--protected-mode", "no" if self.also_bind else "yes",
               "--save", "", "--appendonly", "no", "--dir", str(self.directory), "--daemonize", "no",
               "--logfile", str(self.directory / "redis.log")]
        # The port may still be held for a moment after a stop: retry, bounded.
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL)
            while time.monotonic() < deadline and self.proc.poll() is None and not self.ping():
                time.sleep(0.05)
            if self.ping():
                return
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(5)
            if time.monotonic() >= deadline:
                raise RuntimeError(f"redis-server did not answer PING on port {self.port} within "
                                   f"{START_TIMEOUT}s; its log:\n{self.log_tail()}")
            time.sleep(0.2)

    def ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(64).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        """Stops it (SIGTERM; it saves nothing) and waits until the port refuses connections."""
        if self.proc is not None:
            _stop_process(self.proc)
        wait_until(lambda: not self.ping(), 5, f"redis on port {self.port} to stop")

    def command(self, *args: str) -> str:
        """The output of redis-cli running `args` against it (for looking at the cluster's keys)."""
        result = subprocess.run(["redis-cli", "-h", "127.0.0.1", "-p", str(self.port), *args],
                                capture_output=True, text=True, timeout=10)
        return result.stdout

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join((self.directory / "redis.log").read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def close(self) -> None:
        if self.proc is not None:
            _stop_process(self.proc)
        shutil.rmtree(self.directory, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# The nodes


_cluster_mode: Optional[bool] = None


def require_cluster_mode() -> None:
    """Fails (never skips) when the binary has no `serve --cluster`: issue 12 is not built in."""
    global _cluster_mode
    if _cluster_mode is None:
        shown = subprocess.run([str(BINARY), "serve", "--help"], capture_output=True, text=True, timeout=30)
        _cluster_mode = "--cluster" in shown.stdout
    if not _cluster_mode:
        pytest.fail(f"{BINARY} has no `layercast serve --cluster` (its `serve --help` does not list it): "
                    f"these tests need the cluster mode of issue 12 built in")


class Cluster:
    """Nodes `node-1` … `node-N` of one cluster on `redis`, sharing the ledger that
    `ledger_flags` names (`--ledger URL`, or one `--data DIR` for all)."""

    def __init__(self, redis: RedisServer, count: int, ledger_flags: list[str], flags: list[str]):
        require_cluster_mode()
        self.redis = redis
        self.nodes: list[ServerProcess] = []
        self.ids: dict[int, str] = {}      # id(ServerProcess) → node id
        for i in range(1, count + 1):
            node = ServerProcess(["--cluster", redis.url, "--node-id", f"node-{i}",
                                  "--player-id-secret", PLAYER_ID_SECRET, *ledger_flags, *flags])
            self.nodes.append(node)
            self.ids[id(node)] = f"node-{i}"

    def node_id(self, node: ServerProcess) -> str:
        return self.ids[id(node)]

    def node(self, node_id: str) -> ServerProcess:
        for node in self.nodes:
            if self.node_id(node) == node_id:
                return node
        raise AssertionError(f"no node {node_id!r} in this cluster ({sorted(self.ids.values())})")

    def alive(self) -> list[ServerProcess]:
        return [node for node in self.nodes if node.proc.poll() is None]

    def health(self, node: ServerProcess) -> dict:
        resp = http_get(node.base_url, "/healthz", timeout=2)
        assert resp.status in (200, 503), f"{self.node_id(node)} /healthz answered {resp.status}"
        return resp.json()

    def room(self, name: str, via: Optional[ServerProcess] = None) -> Optional[dict]:
        """The room object /api/rooms of `via` (else the first live node) gives for room `name`."""
        via = via or self.alive()[0]
        resp = http_get(via.base_url, "/api/rooms", timeout=3)
        assert resp.status == 200, resp
        return next((r for r in resp.json()["rooms"] if r["room"] == name), None)

    def origin(self, name: str, via: Optional[ServerProcess] = None, timeout: float = 5.0) -> ServerProcess:
        """The node that /api/rooms names as room `name`'s origin (waits until it names one)."""
        found = wait_until(lambda: (self.room(name, via) or {}).get("origin"), timeout,
                         f"/api/rooms to name an origin for room {name!r}")
        return self.node(found)

    def kill(self, node: ServerProcess) -> float:
        """SIGKILLs `node` and waits for it to be gone; returns time.monotonic() of the kill."""
        killed = time.monotonic()
        node.proc.send_signal(signal.SIGKILL)
        assert node.wait(5) is not None, f"{self.node_id(node)} outlived SIGKILL"
        return killed

    def pause(self, node: ServerProcess) -> float:
        """SIGSTOPs `node` (it holds its sockets and keeps what arrives unread); returns
        time.monotonic() of the signal."""
        paused = time.monotonic()
        node.proc.send_signal(signal.SIGSTOP)
        return paused

    def wake(self, node: ServerProcess) -> float:
        """SIGCONTs a paused `node`; returns time.monotonic() of the signal."""
        woken = time.monotonic()
        node.proc.send_signal(signal.SIGCONT)
        return woken

    def restart(self, node: ServerProcess, same_port: bool = False) -> ServerProcess:
        """Starts a dead node again with its flags and id, on a new port or (`same_port`, for a
        proxy that names it) on its old one; returns the new process."""
        assert node.proc.poll() is not None, f"{self.node_id(node)} is still running"
        fresh = ServerProcess(list(node.args) + (["--port", str(node.port)] if same_port else []))
        fresh.args = list(node.args)
        index = self.nodes.index(node)
        self.nodes[index] = fresh
        self.ids[id(fresh)] = self.ids[id(node)]
        return fresh

    def logs(self) -> str:
        return "\n".join(f"--- {self.node_id(n)} (exit {n.proc.poll()}):\n{n.log_tail(15)}" for n in self.nodes)

    def stop(self) -> dict[str, Optional[int]]:
        """Stops every node still running (a paused one is woken first, so that it can stop);
        returns each node's exit status."""
        for node in self.alive():
            node.proc.send_signal(signal.SIGCONT)
        return {self.node_id(node): node.stop() for node in self.nodes}


# ---------------------------------------------------------------------------------------------
# nginx


class Nginx:
    """Debian's nginx running deploy/nginx-cluster.conf in front of the first three `nodes`;
    `base_url` is `http://127.0.0.1:PORT/`. `connections` replaces the template's
    `worker_connections` (each proxied WebSocket takes two) and sets the worker's open-files
    limit to match, for a bench's thousands of clients."""

    def __init__(self, nodes: list[ServerProcess], connections: Optional[int] = None):
        if not os.access(NGINX, os.X_OK):
            pytest.fail(f"nginx is missing ({NGINX}): apt-get install nginx (scripts/install-deps.sh does)")
        assert len(nodes) >= 3, "deploy/nginx-cluster.conf names three upstream nodes"
        self.prefix = Path(tempfile.mkdtemp(prefix="layercast-nginx-"))
        # Run as root, nginx's workers become `nobody`: they must be able to reach the temp paths.
        self.prefix.chmod(0o755)
        self.port = free_port()
        text = NGINX_TEMPLATE.read_text().replace("@LISTEN_PORT@", str(self.port))
        for i, node in enumerate(nodes[:3], start=1):
            # A node in a network namespace (netns.py) listens on its own address.
            text = text.replace(f"127.0.0.1:@NODE{i}_PORT@", f"{getattr(node, 'address', '127.0.0.1')}:{node.port}")
        if connections is not None:
            assert "worker_connections 4096;" in text, "the template's worker_connections line changed"
            text = text.replace("worker_connections 4096;", f"worker_connections {connections};")
            text = text.replace("worker_processes 1;", f"worker_processes 1;\nworker_rlimit_nofile {connections + 64};")
        assert "@" not in "".join(l.split("#")[0] for l in text.splitlines()), "a placeholder was left"
        self.conf = self.prefix / "nginx.conf"
        self.conf.write_text(text)
        self.base_url = f"http://127.0.0.1:{self.port}/"
        test = subprocess.run([NGINX, "-t", "-q", "-p", str(self.prefix), "-c", str(self.conf),
                               "-e", str(self.prefix / "error.log")], capture_output=True, text=True, timeout=30)
        assert test.returncode == 0, f"nginx -t refused {self.conf}:\n{test.stderr}"
        self.proc = subprocess.Popen([NGINX, "-p", str(self.prefix), "-c", str(self.conf),
                                      "-e", str(self.prefix / "error.log")],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            wait_until(self._answers, START_TIMEOUT, f"nginx to answer on port {self.port}")
        except AssertionError:
            self.stop()
            raise AssertionError(f"nginx did not start on port {self.port}; its error log:\n{self.log_tail()}")

    def _answers(self) -> bool:
        if self.proc.poll() is not None:
            raise AssertionError(f"nginx exited with {self.proc.returncode}:\n{self.log_tail()}")
        try:
            return http_get(self.base_url, "/healthz", timeout=1).status in (200, 503)
        except OSError:
            return False

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join((self.prefix / "error.log").read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        # SIGQUIT is nginx's graceful stop; open WebSockets would hold it, so SIGTERM (fast).
        _stop_process(self.proc, signal.SIGTERM)
        shutil.rmtree(self.prefix, ignore_errors=True)


def healthz(base_url: str) -> dict:
    resp = http_get(base_url, "/healthz", timeout=2)
    return json.loads(resp.body)
