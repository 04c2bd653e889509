#!/usr/bin/env python3
"""Fan-out benchmark for LocalOrigin: N parked v2 subscribe long-polls, one publish, time until all are answered.

Usage: origin_fanout.py HOST:PORT [--subscribers 1000] [--rounds 5]
Prints `BENCH origin_fanout_deliveries_per_s <value> deliveries/s` (median of the rounds) and the per-round figures.
Standard library only, loopback only; every socket is closed before it exits.
"""

import argparse
import asyncio
import json
import statistics
import time


async def request(reader, writer, target: str) -> bytes:
    writer.write(f"GET {target} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    return await reader.readexactly(length)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("address")
    parser.add_argument("--subscribers", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    host, port = args.address.rsplit(":", 1)
    prefix = f"fan-{int(time.time() * 1000)}"

    control = await asyncio.open_connection(host, int(port))
    connections = [await asyncio.open_connection(host, int(port)) for _ in range(args.subscribers)]
    rates = []
    try:
        cursor = json.loads(await request(*control, "/time/0"))[0]
        for round_number in range(args.rounds):
            channel = f"{prefix}-{round_number}"  # a fresh channel, so here-now counts only this round's polls
            polls = [
                asyncio.create_task(request(r, w, f"/v2/subscribe/sub-c-bench/{channel}/0?tt={cursor}&uuid=u{i}"))
                for i, (r, w) in enumerate(connections)
            ]
            # Parked when every subscriber is present: here-now occupancy counts live long-polls.
            deadline = time.monotonic() + 60
            while True:
                here = json.loads(await request(*control, f"/v2/presence/sub-key/sub-c-bench/channel/{channel}"))
                if here.get("occupancy", 0) >= args.subscribers:
                    break
                if time.monotonic() > deadline:
                    raise SystemExit("subscribers did not all park within 60 s")
                await asyncio.sleep(0.05)
            started = time.perf_counter()
            published = json.loads(await request(*control, f"/publish/pub-c-bench/sub-c-bench/0/{channel}/0/%22r{round_number}%22"))
            answers = await asyncio.wait_for(asyncio.gather(*polls), timeout=60)
            elapsed = time.perf_counter() - started
            envelopes = [json.loads(body) for body in answers]
            delivered = sum(1 for e in envelopes if any(m["d"] == f"r{round_number}" for m in e["m"]))
            if delivered != args.subscribers:
                raise SystemExit(f"round {round_number}: {delivered} of {args.subscribers} received the message")
            cursor = published[2]  # the next round's polls start after this message
            rates.append(args.subscribers / elapsed)
            print(f"round {round_number}: {args.subscribers} deliveries in {elapsed * 1000:.1f} ms")
    finally:
        for _, writer in [control, *connections]:
            writer.close()
    print(f"BENCH origin_fanout_deliveries_per_s {statistics.median(rates):.0f} deliveries/s")


asyncio.run(main())
