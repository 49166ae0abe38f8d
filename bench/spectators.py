#!/usr/bin/env python3
"""How many spectators one room holds with no skipped frames.

Starts `layercast serve` on a free loopback port, then for each count in --counts connects that
many spectators to one radar room (raw asyncio sockets with a minimal WebSocket reader, so the
client costs little CPU), reads for --seconds, and prints per step: frames each client got
against the expected fps × seconds, gaps in `n`, the server's frames-skipped and bytes-sent
counters, and the server's CPU use. Prints numbers; asserts nothing.

    python3 bench/spectators.py --bin .build/release/layercast --counts 100,200,400,800
"""
import argparse, asyncio, base64, json, os, re, subprocess, sys, time, urllib.request


async def spectator(port, room, stats, stop):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET /ws?scene=radar&room={room}&role=spectator HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                  f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  f"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: layercast.v1\r\n\r\n").encode())
    await writer.drain()
    await reader.readuntil(b"\r\n\r\n")
    last = None
    try:
        while not stop.is_set():
            head = await reader.readexactly(2)
            length = head[1] & 0x7F
            if length == 126:
                length = int.from_bytes(await reader.readexactly(2), "big")
            elif length == 127:
                length = int.from_bytes(await reader.readexactly(8), "big")
            payload = await reader.readexactly(length)
            if head[0] & 0x0F != 1:
                continue
            match = re.match(rb'\{"type":"frame","n":(\d+)', payload)
            if not match:
                continue
            n = int(match.group(1))
            stats["frames"] += 1
            stats["bytes"] += length
            if last is not None and n != last + 1:
                stats["gaps"] += 1
            last = n
    except (asyncio.IncompleteReadError, ConnectionError):
        stats["closed"] += 1
    finally:
        writer.close()


def metric(port, name):
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith(name))


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def step(port, pid, count, seconds, fps, room):
    stats = {"frames": 0, "bytes": 0, "gaps": 0, "closed": 0}
    stop = asyncio.Event()
    tasks = [asyncio.create_task(spectator(port, room, stats, stop)) for _ in range(count)]
    await asyncio.sleep(2)  # let everyone join and settle
    stats.update(frames=0, bytes=0, gaps=0)
    skipped0, sent0, cpu0 = metric(port, "layercast_frames_skipped_total"), metric(port, "layercast_bytes_sent_total"), cpu_seconds(pid)
    await asyncio.sleep(seconds)
    got, gaps, received = stats["frames"], stats["gaps"], stats["bytes"]
    skipped, sent, cpu = (metric(port, "layercast_frames_skipped_total") - skipped0,
                          metric(port, "layercast_bytes_sent_total") - sent0, cpu_seconds(pid) - cpu0)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    expected = count * fps * seconds
    print(f"{count:6d} | {got / expected * 100:6.1f}% | {gaps:5d} | {int(skipped):7d} | {sent / seconds / 1e6:7.2f} MB/s"
          f" | {cpu / seconds * 100:5.1f}% | {stats['closed']:3d}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=".build/release/layercast")
    parser.add_argument("--counts", default="50,100,200,400,800")
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--fps", type=int, default=30)
    args = parser.parse_args()
    server = subprocess.Popen([args.bin, "serve", "--port", "0", "--fps", str(args.fps), "--log-level", "warning", "--max-clients", "100000"],
                              stdout=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", server.stdout.readline()).group(1))
        print(f"one radar room at {args.fps} fps, {args.seconds:g} s per step; server pid {server.pid}")
        print("spectators | frames received of expected | gaps in n | server skipped | sent | server CPU | closed")
        for i, count in enumerate(int(c) for c in args.counts.split(",")):
            asyncio.run(step(port, server.pid, count, args.seconds, args.fps, f"bench{i}"))
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
