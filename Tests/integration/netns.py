"""Network partitions of one layercast node for the partition tests (issue 38, item 3).

- `Partition`: a network namespace joined to the host by a veth pair, with addresses of a /30 in
  10.213.0.0/16 on its two ends only (`host_address` on the host's, `address` inside). Both ends
  get an htb root whose default class is unshaped. `cut(port)` sends the packets of one TCP port
  (to it inside the namespace, from it on the host's end) into a class of its own whose queue is
  `pfifo limit 0`, so they are dropped: this kernel has neither `action drop` nor `netem`.
  `squeeze(port, rate)` sends them through an htb class of that rate instead; `heal(port)` takes
  the port's filter, queue and class away again. `close()` deletes the namespace (and with it the
  veth pair, its queues and filters); call it in `finally`.
- `Forwarder`: a TCP relay on the host's end of the veth to a server that listens on 127.0.0.1
  only (the session's PostgreSQL), so the namespace reaches it on an address of its own.
- `NamespacedNode`: `layercast serve` run inside the namespace on its address, with the
  `ServerProcess` interface the cluster helpers use.
- `unavailable()`: why namespaces cannot be made here (not root, `ip netns` refused), or None.
"""

from __future__ import annotations

import os
import re
import select
import socket
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from conftest import BINARY, REPO, START_TIMEOUT, ServerProcess

NS_URL_LINE = re.compile(r"http://10\.213\.\d+\.\d+:(\d+)/")


def _run(*cmd: str) -> None:
    result = subprocess.run(list(cmd), capture_output=True, text=True, timeout=20)
    if result.returncode != 0:
        raise RuntimeError(f"`{' '.join(cmd)}` exited {result.returncode}: {result.stderr.strip()}")


def unavailable() -> Optional[str]:
    """Why a namespace with a veth pair and tc queues cannot be made here; None when it can."""
    if os.geteuid() != 0:
        return "the partition tests need root (ip netns, veth, tc)"
    probe = f"lcprobe{os.getpid() % 100000}"
    try:
        _run("ip", "netns", "add", probe)
    except (RuntimeError, OSError) as error:
        return f"`ip netns add` is not permitted here: {error}"
    finally:
        subprocess.run(["ip", "netns", "del", probe], capture_output=True, timeout=20)
    return None


@dataclass(frozen=True)
class VethEnd:
    """One end of the veth for `tc`: the command (`tc`, or `tc -n NS`), the link, and the field
    (`sport`/`dport`) that holds the cut server's port in the packets leaving this end."""
    tc: tuple[str, ...]
    link: str
    field: str


class Partition:
    """One namespace and its veth pair; `index` (0–3) tells apart the partitions of one test run."""

    def __init__(self, index: int = 0):
        tag = f"{os.getpid() % 10000}{index}"
        self.name = f"lcpart{tag}"
        self.host_link, self.inner_link = f"lch{tag}", f"lcn{tag}"
        block = (os.getpid() * 4 + index) % 16000
        base = f"10.213.{block // 64}.{(block % 64) * 4}"
        prefix = base.rsplit(".", 1)[0]
        last = int(base.rsplit(".", 1)[1])
        self.host_address, self.address = f"{prefix}.{last + 1}", f"{prefix}.{last + 2}"
        self.classes: dict[int, int] = {}     # port -> its class number on both ends
        try:
            _run("ip", "netns", "add", self.name)
            _run("ip", "link", "add", self.host_link, "type", "veth", "peer", "name", self.inner_link, "netns", self.name)
            _run("ip", "addr", "add", f"{self.host_address}/30", "dev", self.host_link)
            _run("ip", "link", "set", self.host_link, "up")
            _run("ip", "-n", self.name, "addr", "add", f"{self.address}/30", "dev", self.inner_link)
            _run("ip", "-n", self.name, "link", "set", self.inner_link, "up")
            _run("ip", "-n", self.name, "link", "set", "lo", "up")
            for end in self._ends():
                _run(*end.tc, "qdisc", "add", "dev", end.link, "root", "handle", "1:", "htb", "default", "10")
                _run(*end.tc, "class", "add", "dev", end.link, "parent", "1:", "classid", "1:10", "htb", "rate", "1gbit")
        except Exception:
            self.close()
            raise

    def _ends(self) -> list[VethEnd]:
        return [VethEnd(("tc",), self.host_link, "sport"),                   # the server's answers, into the namespace
                VethEnd(("tc", "-n", self.name), self.inner_link, "dport")]  # the node's packets to the server

    def exec(self, *cmd: str) -> list[str]:
        """`cmd` run inside the namespace."""
        return ["ip", "netns", "exec", self.name, *cmd]

    def cut(self, port: int) -> None:
        """Drops every packet between the node and `port` of the host's end, both ways."""
        self._shape(port, "pfifo", "limit", "0", rate="1gbit")

    def squeeze(self, port: int, rate: str) -> None:
        """Sends every packet between the node and `port` through an htb class of `rate` (e.g. `8kbit`)."""
        self._shape(port, "pfifo", "limit", "1000", rate=rate)

    def _shape(self, port: int, *queue: str, rate: str) -> None:
        assert port not in self.classes, f"port {port} is already cut or squeezed"
        number = 20 + len(self.classes)
        self.classes[port] = number
        for end in self._ends():
            _run(*end.tc, "class", "add", "dev", end.link, "parent", "1:", "classid", f"1:{number}", "htb", "rate", rate, "ceil", rate)
            _run(*end.tc, "qdisc", "add", "dev", end.link, "parent", f"1:{number}", "handle", f"{number}:", *queue)
            _run(*end.tc, "filter", "add", "dev", end.link, "parent", "1:", "protocol", "ip", "prio", str(number), "u32",
                 "match", "ip", end.field, str(port), "0xffff", "flowid", f"1:{number}")

    def heal(self, port: int) -> None:
        """Lets `port`'s packets through again, unshaped."""
        number = self.classes.pop(port)
        for end in self._ends():
            _run(*end.tc, "filter", "del", "dev", end.link, "parent", "1:", "prio", str(number))
            _run(*end.tc, "qdisc", "del", "dev", end.link, "parent", f"1:{number}", "handle", f"{number}:")
            _run(*end.tc, "class", "del", "dev", end.link, "classid", f"1:{number}")

    def answers(self, cmd: list[str], timeout: float = 2.0) -> bool:
        """Whether `cmd`, run inside the namespace, succeeds within `timeout` seconds."""
        try:
            return subprocess.run(self.exec(*cmd), capture_output=True, timeout=timeout).returncode == 0
        except subprocess.TimeoutExpired:
            return False

    def close(self) -> None:
        """Deletes the namespace and the veth pair (their queues and filters go with them)."""
        subprocess.run(["ip", "netns", "del", self.name], capture_output=True, timeout=20)
        subprocess.run(["ip", "link", "del", self.host_link], capture_output=True, timeout=20)


class Forwarder:
    """Relays TCP connections to `listen` (an address of the host's end, a free port) to
    `target`, a server on 127.0.0.1, until `close()`."""

    def __init__(self, listen: str, target: tuple[str, int]):
        self.target = target
        self.server = socket.create_server((listen, 0))
        self.port = self.server.getsockname()[1]
        self.closed = False
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.server.accept()
            except OSError:
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            self.sockets += [client, upstream]
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        peers = {a: b, b: a}
        try:
            while not self.closed:
                readable, _, _ = select.select([a, b], [], [], 0.5)
                for sock in readable:
                    data = sock.recv(65536)
                    if not data:
                        return
                    peers[sock].sendall(data)
        except OSError:
            return
        finally:
            a.close()
            b.close()

    def close(self) -> None:
        self.closed = True
        self.server.close()
        for sock in self.sockets:
            try:
                sock.close()
            except OSError:
                pass


class NamespacedNode(ServerProcess):
    """`layercast serve` inside `partition`, listening on its address; `base_url` is
    `http://ADDRESS:PORT/`. Otherwise a `ServerProcess`."""

    def __init__(self, partition: Partition, args: list[str]):
        self.args = list(args)
        if "--data" not in self.args:
            self.args += ["--data", tempfile.mkdtemp(prefix="layercast-data-")]
        self.data_dir = Path(self.args[self.args.index("--data") + 1])
        self.log = tempfile.NamedTemporaryFile(prefix="layercast-serve-ns-", suffix=".log", delete=False)
        self.stdout_lines: list[str] = []
        self.exit_code: Optional[int] = None
        self.cmd = partition.exec(str(BINARY), "serve", "--host", partition.address, "--port", "0",
                                  "--public", "public", *self.args)
        self.proc = subprocess.Popen(self.cmd, cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=self.log, text=True, bufsize=1)
        self._url_found = threading.Event()
        self.base_url: Optional[str] = None
        self.port: Optional[int] = None
        self.address = partition.address
        threading.Thread(target=self._read_stdout, daemon=True).start()
        if not self._url_found.wait(START_TIMEOUT):
            self.stop()
            raise RuntimeError(f"`{' '.join(self.cmd)}` printed no http://{partition.address}:PORT/ line within "
                               f"{START_TIMEOUT}s; exit={self.proc.poll()} stderr tail:\n{self.log_tail()}")

    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.stdout_lines.append(line.rstrip("\n"))
            match = NS_URL_LINE.search(line)
            if self.base_url is None and match:
                self.port = int(match.group(1))
                self.base_url = f"http://{self.address}:{self.port}/"
                self._url_found.set()
        self._url_found.set()
