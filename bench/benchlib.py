"""Shared pieces of the bench scripts: a release server on a free loopback port, a bounded
`layercast loadtest` run read back from its JSON report, `/metrics`, and process CPU.

Only 127.0.0.1 is ever addressed; every wait is bounded.
"""
from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# LAYERCAST_BINARY: another release build (e.g. from `swift build --scratch-path`).
BINARY = Path(os.environ.get("LAYERCAST_BINARY") or REPO / ".build" / "release" / "layercast")
ADMIN_TOKEN = "bench-admin-token-0123456789"


def raise_open_files() -> int:
    """Raises the soft limit of open files to the hard limit (each client is a socket); returns it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def pinned(cpu: str) -> list[str]:
    """The prefix that runs a command on CPU `cpu` (`taskset -c CPU`), or none on a one-CPU machine."""
    return ["taskset", "-c", cpu] if (os.cpu_count() or 1) >= 2 else []


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, proc: subprocess.Popen, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {seconds} s")


def stop(proc: subprocess.Popen, signum: int = signal.SIGINT) -> None:
    """Sends `signum` to `proc` if it still runs and waits for it to end, killing it after 10 s."""
    if proc.poll() is None:
        proc.send_signal(signum)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


class Server:
    """`layercast serve` (release) on a free port with a fresh ledger, stopped with SIGINT on exit.
    Every simulated client comes from 127.0.0.1, so the per-address limits are lifted. `prefix`
    runs it under another command that execs it (e.g. `taskset -c 0`), so `pid` stays the server's."""

    def __init__(self, *flags: str, binary: Path = BINARY, prefix: list[str] | None = None):
        self.port = free_port()
        self.data = tempfile.mkdtemp(prefix="layercast-bench-")
        cmd = [*(prefix or []), str(binary), "serve", "--port", str(self.port), "--public", str(REPO / "public"), "--data", self.data,
               "--max-clients", "20000", "--room-idle", "2", "--log-level", "warning", "--admin-token", ADMIN_TOKEN,
               "--host-connections", "20000", "--host-anonymous-joins", "100000", "--host-tap-rate", "100000", *flags]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wait_for_port(self.port, self.proc)
        self.url = f"ws://127.0.0.1:{self.port}"
        self.pid = self.proc.pid

    def close(self) -> None:
        stop(self.proc)
        shutil.rmtree(self.data, ignore_errors=True)

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def metrics(port: int) -> dict[str, float]:
    """`/metrics` as {sample line name with labels: value}."""
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    samples = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            samples[name] = float(value)
    return samples


def metric_sum(samples: dict[str, float], prefix: str) -> float:
    return sum(v for k, v in samples.items() if k == prefix or k.startswith(prefix + "{"))


def post_rain(port: int, room: str, body: dict) -> dict:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/rooms/{room}/rain", data=json.dumps(body).encode(),
                                     headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}, method="POST")
    return json.loads(urllib.request.urlopen(request, timeout=5).read())


def cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def loadtest(url: str, *flags: str, seconds: float, server_pid: int | None = None) -> dict:
    """Runs `layercast loadtest --url URL … --json FILE` for `seconds` and returns the report
    (with `exit` added); bounded by the run's seconds + 30."""
    out = Path(tempfile.mkdtemp(prefix="layercast-load-")) / "report.json"
    cmd = [str(BINARY), "loadtest", "--url", url, "--duration", str(seconds), "--json", str(out), *flags]
    if server_pid is not None:
        cmd += ["--server-pid", str(server_pid)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 30)
    if not out.exists():
        raise RuntimeError(f"loadtest wrote no report (exit {proc.returncode}): {proc.stderr[-2000:]}")
    report = json.loads(out.read_text())
    shutil.rmtree(out.parent, ignore_errors=True)
    report["exit"] = proc.returncode
    return report


def next_count(clients: int, passed: bool, best: int, worst: int | None,
               most: int) -> tuple[int, int | None, int | None]:
    """After a step of `clients`: (best pass, least fail or None, next count or None when done); doubles
    until a step fails (done past `most`), then bisects until fail - pass <= max(50, pass // 8)."""
    if passed:
        best = max(best, clients)
    else:
        worst = clients if worst is None else min(worst, clients)
    if worst is None:
        return best, worst, clients * 2 if clients * 2 <= most else None
    if worst - best <= max(50, best // 8):
        return best, worst, None
    return best, worst, (best + worst) // 2


def machine() -> str:
    """One line about this machine: cores, CPU model, memory, kernel."""
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    memory = next((int(line.split()[1]) for line in open("/proc/meminfo") if line.startswith("MemTotal")), 0)
    return f"{os.cpu_count()} cores ({model}), {memory / 1024 / 1024:.0f} GiB, Linux {os.uname().release}"


def table(headers: list[str], rows: list[list[object]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---:" for _ in headers) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)
