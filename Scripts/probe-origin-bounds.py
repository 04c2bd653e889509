#!/usr/bin/env python3
"""Replays the hostile-input probe's findings against `LegacyDemo origin` and prints what the origin did.

Figures only, no verdict: the tests assert the behaviour (HTTPServerBoundsTests, LocalOriginBoundsTests); this
script shows it at the probe's scale with the default limits. Python 3 standard library only; Linux (reads the
origin's resident memory from /proc).

    Scripts/probe-origin-bounds.py [--bin PATH] [--slow 500] [--idle 10050]

--bin defaults to the debug build (`swift build --show-bin-path`). Each finding prints one `PROBE name value unit`
line. Runs about a minute (the header timeout is 20 s).
"""

import argparse
import os
import resource
import select
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def say(name: str, value, unit: str) -> None:
    print(f"PROBE {name} {value} {unit}", flush=True)


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return -1


def connect(port: int, rcvbuf: int | None = None) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.connect(("127.0.0.1", port))
    return sock


class Reader:
    """Reads Content-Length responses off one socket, keeping bytes that belong to the next response."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = b""

    def response(self, timeout: float = 30) -> tuple[int, bytes]:
        """One response as (status, body); (0, b"") at end of stream."""
        self.sock.settimeout(timeout)
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                return 0, b""
            self.buffer += chunk
        head, _, rest = self.buffer.partition(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        while len(rest) < length:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                break
            rest += chunk
        self.buffer = rest[length:]
        return status, rest[:length]


def read_response(sock: socket.socket, timeout: float = 30) -> tuple[int, bytes]:
    """One response of a socket that carries no other (see `Reader` for several)."""
    return Reader(sock).response(timeout)


def get(port: int, target: str) -> tuple[int, bytes, float]:
    started = time.monotonic()
    with connect(port) as sock:
        sock.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        status, body = read_response(sock)
    return status, body, (time.monotonic() - started) * 1000


def publish(port: int, channel: str, text: str, count: int) -> None:
    body = ('"' + text + '"').encode()
    with connect(port) as sock:
        reader = Reader(sock)
        for _ in range(count):
            sock.sendall(
                f"POST /publish/pub/sub/0/{channel}/0 HTTP/1.1\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body
            )
            status, _ = reader.response()
            assert status == 200, status


def slowloris(port: int, count: int) -> None:
    slow = [connect(port) for _ in range(count)]
    for sock in slow:
        sock.sendall(b"GET /time/0 HTTP/1.1\r\nX-Drip: ")
        sock.setblocking(False)
    started = time.monotonic()
    closed_at: dict[int, float] = {}
    answered = failed = 0
    while time.monotonic() - started < 30 and len(closed_at) < count:
        for index, sock in enumerate(slow):
            if index in closed_at:
                continue
            try:
                sock.send(b"a")  # one byte a second per connection
            except OSError:
                closed_at[index] = time.monotonic() - started
                continue
            try:
                sock.recv(65536)  # the 408 answer or end of stream: the server ended the request
            except BlockingIOError:
                continue  # nothing yet: still waiting for the rest of the header
            except OSError:
                pass
            closed_at[index] = time.monotonic() - started
        second_end = time.monotonic() + 1
        while time.monotonic() < second_end:
            status, _, _ = get(port, "/time/0")
            answered, failed = (answered + 1, failed) if status == 200 else (answered, failed + 1)
            time.sleep(0.2)
    times = sorted(closed_at.values())
    say("slowloris_connections", count, "connections")
    say("slowloris_ended_within_30s", len(times), "connections")
    if times:
        say("slowloris_end_p50", f"{times[len(times) // 2]:.1f}", "s")
        say("slowloris_end_max", f"{times[-1]:.1f}", "s")
    say("slowloris_other_client_answered", answered, "requests")
    say("slowloris_other_client_failed", failed, "requests")
    for sock in slow:
        sock.close()


def short_body(port: int) -> None:
    with connect(port) as sock:
        started = time.monotonic()
        sock.sendall(b"POST /publish/pub/sub/0/c/0 HTTP/1.1\r\nContent-Length: 100\r\n\r\n0123456789")
        status, _ = read_response(sock, timeout=60)
        say("short_body_answer", status, "status")
        say("short_body_ended_after", f"{time.monotonic() - started:.1f}", "s")


def idle_connections(port: int, count: int) -> None:
    idle = []
    for _ in range(count):
        try:
            idle.append(connect(port))
        except OSError as error:
            say("idle_connect_failed_after", len(idle), f"connections ({error})")
            break
    time.sleep(2)
    status, _, elapsed = get(port, "/time/0")
    say("idle_connections_open", len(idle), "connections")
    say("idle_then_new_client_status", status, "status")
    say("idle_then_new_client_latency", f"{elapsed:.1f}", "ms")
    ended = 0
    for sock in idle:
        poller = select.poll()
        poller.register(sock, select.POLLIN)
        if poller.poll(0) and sock.recv(1) == b"":
            ended += 1
        sock.close()
    say("idle_connections_reclaimed", ended, "connections")


def amplification(port: int, pid: int) -> None:
    publish(port, "amp", "m" * 1000, 100)
    before = rss_kib(pid)
    names = ",".join(["amp"] * 10_000)
    status, body, elapsed = get(port, f"/v3/history/sub-key/sub/channel/{names}")
    say("v3_history_repeated_channel_request", len(names) + 40, "bytes")
    say("v3_history_repeated_channel_answer", len(body), f"bytes (status {status}, {elapsed:.0f} ms)")
    say("v3_history_repeated_channel_rss_growth", rss_kib(pid) - before, "KiB")


def pipelining(port: int, pid: int) -> None:
    publish(port, "big", "h" * 30_000, 100)
    before = rss_kib(pid)
    request = b"GET /v2/history/sub-key/sub/channel/big?count=100 HTTP/1.1\r\n\r\n"
    with connect(port, rcvbuf=4096) as sock:
        sock.sendall(request * 32)
        time.sleep(2)
        held = rss_kib(pid) - before
        say("pipelined_history_requests", 32, f"requests ({len(request) * 32} bytes, answers 3 MB each)")
        say("pipelined_unread_rss_growth", held, "KiB")
        reader = Reader(sock)
        sizes = [len(reader.response(timeout=60)[1]) for _ in range(32)]
        say("pipelined_answers_read", sum(1 for size in sizes if size > 3_000_000), "answers")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin")
    parser.add_argument("--slow", type=int, default=500)
    parser.add_argument("--idle", type=int, default=10_050)
    args = parser.parse_args()
    binary = args.bin or str(
        Path(subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True,
                            text=True).stdout.strip()) / "LegacyDemo"
    )
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    origin = subprocess.Popen([binary, "origin", "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        first = origin.stdout.readline().strip()
        port = int(first.rsplit(":", 1)[1])
        threading.Thread(target=origin.stdout.read, daemon=True).start()
        say("origin_rss_start", rss_kib(origin.pid), "KiB")
        amplification(port, origin.pid)
        pipelining(port, origin.pid)
        short_body(port)
        slowloris(port, args.slow)
        idle_connections(port, min(args.idle, hard - 100))
        say("origin_rss_end", rss_kib(origin.pid), "KiB")
    finally:
        origin.terminate()
        origin.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
