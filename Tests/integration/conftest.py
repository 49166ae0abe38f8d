"""Fixtures for the integration tests: the real `layercast serve` on 127.0.0.1 with a free port.

- `server`: one server with default settings, shared by the whole session (tests keep out of
  each other's way by using their own rooms: the `room` fixture).
- `start_server(*flags)`: a dedicated server for tests that need other flags or stop it; torn
  down at the end of the test.
- `room`: a room name unique to the test (protocol.md: 1-32 of A-Z a-z 0-9 _ -).
- `http_get`, `http_post`, `read_metrics`, `metric`: plain HTTP helpers (raw paths are sent
  verbatim).
- `postgres`: a real PostgreSQL server on a free loopback port for the session
  (scripts/test-postgres.sh); `postgres.new_database()` gives a URL for `--ledger`,
  `psql(url, sql)` the rows of a query. Without PostgreSQL installed the tests that use it skip,
  unless LAYERCAST_REQUIRE_POSTGRES is set (CI sets it to 1): then they fail.
- The cluster of issue 12 (helpers in cluster.py): `redis_server`, a real redis-server on a free
  loopback port (`.stop()`, `.start()` again on the same port); `start_cluster(count=3, *flags)`,
  nodes `node-1`… of `layercast serve --cluster` on it sharing one ledger (`cluster_ledger`: a
  PostgreSQL database when PostgreSQL is installed, else one SQLite `--data` directory);
  `start_nginx(cluster)`, Debian's nginx round-robin in front of three nodes
  (deploy/nginx-cluster.conf). All stopped at the end of the test.
- `long_lived_spectator`: a rain spectator on a server of its own, connected as soon as the
  session's tests are collected (when test_websocket_lifetime.py is among them) and read until
  the session ends, so that its test finds it minutes old.

Every server gets its own ledger directory (`--data`, a fresh temporary directory unless the
flags name one), so tests never share or leave behind a ledger.

Binary: env LAYERCAST_BIN, default .build/debug/layercast (tests skip when it is missing).
"""

from __future__ import annotations

import http.client
import itertools
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Optional

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))

BINARY = Path(os.environ.get("LAYERCAST_BIN") or REPO / ".build" / "debug" / "layercast")
if not BINARY.is_absolute():
    BINARY = REPO / BINARY
URL_LINE = re.compile(r"http://127\.0\.0\.1:(\d+)/")
START_TIMEOUT = 20.0
STOP_TIMEOUT = 10.0


class ServerProcess:
    """A running `layercast serve` (or `binary serve`, a program built on the Layercast
    library); `base_url` is `http://127.0.0.1:PORT/`."""

    def __init__(self, args: list[str], public: str | Path = "public", binary: Path = BINARY):
        self.args = list(args)
        if "--data" not in self.args:
            self.args += ["--data", tempfile.mkdtemp(prefix="layercast-data-")]
        self.data_dir = Path(self.args[self.args.index("--data") + 1])
        self.log = tempfile.NamedTemporaryFile(prefix="layercast-serve-", suffix=".log",
                                               delete=False)
        self.stdout_lines: list[str] = []
        self.exit_code: Optional[int] = None
        cmd = [str(binary), "serve", "--host", "127.0.0.1", "--port", "0",
               "--public", str(public), *self.args]
        self.cmd = cmd
        self.proc = subprocess.Popen(cmd, cwd=REPO, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=self.log, text=True,
                                     bufsize=1)
        self._url_found = threading.Event()
        self.base_url: Optional[str] = None
        self.port: Optional[int] = None
        self._reader = threading.Thread(target=self._read_stdout, daemon=True)
        self._reader.start()
        if not self._url_found.wait(START_TIMEOUT):
            self.stop()
            raise RuntimeError(f"`{' '.join(cmd)}` printed no http://127.0.0.1:PORT/ line within "
                               f"{START_TIMEOUT}s; exit={self.proc.poll()} "
                               f"stdout={self.stdout_lines[-5:]} stderr tail:\n{self.log_tail()}")

    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:       # drains stdout for the process's whole life
            self.stdout_lines.append(line.rstrip("\n"))
            if self.base_url is None:
                match = URL_LINE.search(line)
                if match:
                    self.port = int(match.group(1))
                    self.base_url = f"http://127.0.0.1:{self.port}/"
                    self._url_found.set()
        self._url_found.set()

    def log_tail(self, lines: int = 30) -> str:
        try:
            text = Path(self.log.name).read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def url(self, path: str) -> str:
        assert self.base_url
        return self.base_url.rstrip("/") + path

    def signal(self, sig: int) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)

    def wait(self, timeout: float) -> Optional[int]:
        try:
            self.exit_code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None
        return self.exit_code

    def stop(self) -> Optional[int]:
        """SIGTERM and wait (bounded); SIGKILL if it does not stop. Returns the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            if self.wait(STOP_TIMEOUT) is None:
                self.proc.kill()
                self.wait(5)
                self.exit_code = None
                return None
        self.exit_code = self.proc.returncode
        return self.exit_code


def _require_binary() -> None:
    if not (BINARY.is_file() and os.access(BINARY, os.X_OK)):
        pytest.skip(f"layercast binary not found at {BINARY} (run `swift build` or set "
                    f"LAYERCAST_BIN)")


@pytest.fixture(scope="session")
def server():
    _require_binary()
    proc = ServerProcess([])
    yield proc
    status = proc.stop()
    if status != 0:
        print(f"warning: shared layercast serve exited with {status}; stderr tail:\n"
              f"{proc.log_tail()}", file=sys.stderr)


@pytest.fixture
def start_server():
    """start_server(*flags, public="public") -> ServerProcess, stopped after the test."""
    _require_binary()
    started: list[ServerProcess] = []

    def start(*flags: str, public: str | Path = "public") -> ServerProcess:
        proc = ServerProcess([str(f) for f in flags], public=public)
        started.append(proc)
        return proc

    yield start
    for proc in started:
        proc.stop()


def serve_example(binary: Path, package: str, variable: str):
    """Serves an example package's binary for a module's tests (yield from it in a fixture), and
    stops it after them; skips when the binary is not built (examples/`package`, or `variable`)."""
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        pytest.skip(f"example binary not found at {binary} (swift build --package-path "
                    f"examples/{package}, or set {variable})")
    proc = ServerProcess([], binary=binary)
    yield proc
    assert proc.stop() == 0, proc.log_tail()


_room_counter = itertools.count(1)


def unique_room(hint: str = "t") -> str:
    hint = re.sub(r"[^A-Za-z0-9_-]", "-", hint).strip("-")[:16] or "t"
    return f"{hint}-{os.getpid() % 10000}-{next(_room_counter)}"[:32]


@pytest.fixture
def room(request) -> str:
    name = request.node.name.removeprefix("test_")
    return unique_room(name)


# ---------------------------------------------------------------------------------------------
# HTTP helpers


class Response:
    def __init__(self, status: int, headers: list[tuple[str, str]], body: bytes):
        self.status = status
        self.header_list = headers
        self.headers = {k.lower(): v for k, v in headers}
        self.body = body

    def header_values(self, name: str) -> list[str]:
        return [v for k, v in self.header_list if k.lower() == name.lower()]

    def json(self):
        import json
        return json.loads(self.body.decode("utf-8"))

    def __repr__(self) -> str:
        return f"<Response {self.status} {self.headers.get('content-type')} {self.body[:80]!r}>"


def http_get(base_url: str, path: str, headers: Optional[dict] = None,
             timeout: float = 5.0, method: str = "GET") -> Response:
    """Sends `path` exactly as given (no normalisation) to the server at base_url."""
    parts = urllib.parse.urlsplit(base_url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        conn.putrequest(method, path, skip_accept_encoding=True)
        for key, value in (headers or {}).items():
            conn.putheader(key, value)
        conn.endheaders()
        resp = conn.getresponse()
        body = resp.read()
        return Response(resp.status, resp.getheaders(), body)
    finally:
        conn.close()


def http_post(base_url: str, path: str, body: bytes | str | dict | None = None,
              headers: Optional[dict] = None, timeout: float = 5.0) -> Response:
    """POSTs `body` (a dict is sent as JSON) to `path` at base_url."""
    import json
    if isinstance(body, dict):
        body = json.dumps(body)
    data = body.encode("utf-8") if isinstance(body, str) else (body or b"")
    parts = urllib.parse.urlsplit(base_url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        conn.request("POST", path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
        resp = conn.getresponse()
        return Response(resp.status, resp.getheaders(), resp.read())
    finally:
        conn.close()


METRIC_LINE = re.compile(r'^([A-Za-z_:][A-Za-z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+\d+)?$')
LABEL = re.compile(r'([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"')


def parse_metrics(text: str) -> list[tuple[str, dict, float]]:
    samples = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        match = METRIC_LINE.match(line)
        if not match:
            raise AssertionError(f"/metrics line is not Prometheus text format: {line!r}")
        labels = dict(LABEL.findall(match.group(3) or ""))
        value = match.group(4)
        samples.append((match.group(1), labels,
                        float("inf") if value == "+Inf" else float(value)))
    return samples


def read_metrics(base_url: str) -> list[tuple[str, dict, float]]:
    resp = http_get(base_url, "/metrics")
    assert resp.status == 200, f"/metrics answered {resp.status}"
    return parse_metrics(resp.body.decode("utf-8"))


def metric(samples_or_url, name: str, **labels: str) -> float:
    """Sum of the samples of `name` whose labels include `labels` (0 when there is none: a
    labelled counter may appear only once it has been incremented)."""
    samples = (read_metrics(samples_or_url) if isinstance(samples_or_url, str)
               else samples_or_url)
    return sum(value for sample_name, sample_labels, value in samples
               if sample_name == name
               and all(sample_labels.get(k) == v for k, v in labels.items()))


def has_metric(samples, name: str, **labels: str) -> bool:
    return any(sample_name == name and all(sample_labels.get(k) == v for k, v in labels.items())
               for sample_name, sample_labels, _ in samples)


def wait_until(predicate, timeout: float, what: str, interval: float = 0.1):
    """Polls `predicate` until truthy (bounded); returns its value."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        last = predicate()
        if last:
            return last
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what} (last: {last!r})")
        time.sleep(interval)


def drip(sock, data: bytes, interval: float) -> bytes:
    """Sends `data` one byte every `interval` seconds until the server answers (its first bytes,
    returned) or stops taking them (b"")."""
    sock.settimeout(interval)
    for byte in data:
        try:
            sock.sendall(bytes([byte]))
        except OSError:
            return b""
        try:
            return sock.recv(65536)
        except socket.timeout:
            continue
    return b""


# ---------------------------------------------------------------------------------------------
# PostgreSQL


class PostgresServer:
    """The session's PostgreSQL server (scripts/test-postgres.sh); `url` is its `postgres` database."""

    def __init__(self, url: str, directory: str):
        self.url = url
        self.directory = directory

    def new_database(self) -> str:
        name = f"ledger_{os.getpid()}_{next(_database_counter)}"
        psql(self.url, f"CREATE DATABASE {name}")
        return self.url.rsplit("/", 1)[0] + "/" + name


_database_counter = itertools.count(1)


def psql(url: str, sql: str) -> list[list[str]]:
    """The rows of `sql` run by psql against `url`, each a list of column texts; fails on an error."""
    result = subprocess.run(["psql", "-X", "-At", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, f"psql {sql!r}: {result.stderr}"
    return [line.split("\t") for line in result.stdout.splitlines()]


@pytest.fixture(scope="session")
def postgres():
    script = REPO / "scripts" / "test-postgres.sh"
    directory = tempfile.mkdtemp(prefix="layercast-pg-")
    result = subprocess.run(["bash", str(script), "start", directory, str(os.getpid())], capture_output=True, text=True,
                            timeout=120)
    if result.returncode != 0:
        subprocess.run(["rm", "-rf", directory])
        if result.returncode == 3 and not os.environ.get("LAYERCAST_REQUIRE_POSTGRES"):
            pytest.skip(f"PostgreSQL is not installed: {result.stderr.strip()}")
        pytest.fail(f"scripts/test-postgres.sh start exited {result.returncode}: {result.stderr}")
    server = PostgresServer(result.stdout.strip().splitlines()[-1], directory)
    yield server
    subprocess.run(["bash", str(script), "stop", directory], capture_output=True, timeout=120)


# ---------------------------------------------------------------------------------------------
# The cluster (issue 12); the classes are in cluster.py.


@pytest.fixture
def redis_server():
    """A redis-server of the test's own on a free loopback port, without persistence."""
    from cluster import RedisServer
    redis = RedisServer()
    yield redis
    redis.close()


@pytest.fixture
def cluster_ledger(request, tmp_path) -> list[str]:
    """The flags that give every node of a test the same ledger: a new PostgreSQL database
    (`--ledger`) when PostgreSQL is installed (required when LAYERCAST_REQUIRE_POSTGRES is set),
    else one SQLite directory (`--data`) that all the nodes open, in WAL mode."""
    try:
        pg = request.getfixturevalue("postgres")
    except pytest.skip.Exception as skipped:
        print(f"cluster ledger: shared SQLite under --data ({skipped})", file=sys.stderr)
        shared = tmp_path / "shared-ledger"
        shared.mkdir()
        return ["--data", str(shared)]
    return ["--ledger", pg.new_database()]


@pytest.fixture
def start_cluster(redis_server, cluster_ledger):
    """start_cluster(count=3, *flags) -> cluster.Cluster on `redis_server`; stopped after the test."""
    from cluster import Cluster
    _require_binary()
    started = []

    def start(count: int = 3, *flags: str):
        cluster = Cluster(redis_server, count, cluster_ledger, [str(f) for f in flags])
        started.append(cluster)
        return cluster

    yield start
    for cluster in started:
        cluster.stop()


@pytest.fixture
def start_nginx():
    """start_nginx(cluster) -> cluster.Nginx in front of its first three nodes; stopped after."""
    from cluster import Nginx
    started = []

    def start(cluster):
        proxy = Nginx(cluster.nodes)
        started.append(proxy)
        return proxy

    yield start
    for proxy in started:
        proxy.stop()


# ---------------------------------------------------------------------------------------------
# A connection as old as the session (test_websocket_lifetime.py)

LIFETIME_TEST = "test_websocket_lifetime.py"


class LongLivedSpectator:
    """A rain spectator of room `lifetime` on a server of its own (2 fps), read on a thread: each
    message's arrival, each WebSocket PING from the server (answered by websocket-client), and
    how the connection ended, if it did."""

    def __init__(self):
        import websocket
        from layercast_client import SUBPROTOCOL, LayercastClient
        self.server = ServerProcess(["--fps", "2"])
        url = LayercastClient.ws_url(self.server.base_url, "rain", "lifetime", "spectator")
        self.ws = websocket.create_connection(url, timeout=5, subprotocols=[SUBPROTOCOL], suppress_origin=True)
        self.ws.settimeout(0.5)
        self.opened = time.monotonic()
        self.messages: list[float] = []
        self.pings: list[float] = []
        self.ended: Optional[tuple[float, str]] = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        import websocket
        while not self._stop.is_set():
            try:
                opcode, frame = self.ws.recv_data_frame(control_frame=True)
            except websocket.WebSocketTimeoutException:
                continue
            except Exception as error:  # the connection ended
                self.ended = (time.monotonic(), repr(error))
                return
            now = time.monotonic()
            if opcode == websocket.ABNF.OPCODE_PING:
                self.pings.append(now)
            elif opcode == websocket.ABNF.OPCODE_CLOSE:
                self.ended = (now, f"close frame {bytes(frame.data[:2]).hex()}")
                return
            elif opcode == websocket.ABNF.OPCODE_TEXT:
                self.messages.append(now)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        try:
            self.ws.close()
        except Exception:
            pass
        self.server.stop()


def pytest_collection_modifyitems(session, config, items):
    if any(Path(str(item.fspath)).name == LIFETIME_TEST for item in items) and BINARY.is_file():
        config._long_lived_spectator = LongLivedSpectator()


def pytest_sessionfinish(session, exitstatus):
    spectator = getattr(session.config, "_long_lived_spectator", None)
    if spectator is not None:
        spectator.stop()


@pytest.fixture(scope="session")
def long_lived_spectator(request) -> LongLivedSpectator:
    _require_binary()
    spectator = getattr(request.config, "_long_lived_spectator", None)
    assert spectator is not None, f"the spectator starts when {LIFETIME_TEST} is collected"
    return spectator
