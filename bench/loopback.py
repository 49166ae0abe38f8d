#!/usr/bin/env python3
"""The floor under the fan-out: what one `send` of one frame-sized message to one of N loopback
TCP connections costs, with nothing else done. A sender process writes --size bytes to each of
--connections sockets in turn (one `send` each, as the server writes one frame to each client),
while a reader process drains them all (epoll, 64 KiB reads), for --seconds. Prints the
sender's CPU time per send (user + system: the kernel's TCP and loopback path, receive side
included, which loopback runs on the sending CPU), sends per second and bytes per second.
Only 127.0.0.1. Prints numbers; asserts nothing.

    python3 bench/loopback.py [--connections 1000] [--size 480] [--seconds 5]
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import select
import socket
import time


def reader(port: int, count: int, ready, stop) -> None:
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(count)
    ready.set()
    poller = select.epoll()
    connections = {}
    while len(connections) < count:
        conn, _ = listener.accept()
        conn.setblocking(False)
        connections[conn.fileno()] = conn
        poller.register(conn.fileno(), select.EPOLLIN)
    while not stop.is_set():
        for fd, _ in poller.poll(0.1):
            try:
                connections[fd].recv(65536)
            except BlockingIOError:
                pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--size", type=int, default=480, help="bytes per message (a radar delta frame is about 476 + 4 of framing)")
    parser.add_argument("--seconds", type=float, default=5)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    ready, stop = multiprocessing.Event(), multiprocessing.Event()
    process = multiprocessing.Process(target=reader, args=(port, args.connections, ready, stop))
    process.start()
    ready.wait(10)
    sockets = [socket.create_connection(("127.0.0.1", port)) for _ in range(args.connections)]
    message = b"x" * args.size
    sends = 0
    cpu0, wall0 = time.process_time(), time.monotonic()
    deadline = wall0 + args.seconds
    while time.monotonic() < deadline:
        for s in sockets:
            s.send(message)
        sends += len(sockets)
    cpu, wall = time.process_time() - cpu0, time.monotonic() - wall0
    stop.set()
    process.join(10)
    for s in sockets:
        s.close()
    print(f"{args.connections} connections, {args.size} B per send: {sends / wall:,.0f} sends/s "
          f"({sends * args.size / wall / 1e6:.0f} MB/s), sender CPU {cpu / sends * 1e6:.2f} µs per send "
          f"({cpu / wall * 100:.0f}% of a core); at 30 fps that is {sends / wall / 30:,.0f} client-frames per second's worth "
          f"of clients, {1e6 / (cpu / sends * 1e6) / 30:,.0f} clients per core")


if __name__ == "__main__":
    main()
