#!/usr/bin/env python3
"""Workloads 1-3 of `LegacyDemo bench`, done by the official PubNub Python SDK (pinned in
Tests/Interop/requirements.txt) against the same origin, printing the same `BENCH` names; Scripts/bench.sh compares.

Usage: bench_python_sdk.py HOST:PORT [--quick] [--ssl] [--publish-key K] [--subscribe-key K]

SDK configuration: `PNConfiguration` with `ssl = False` (`True` with --ssl: TLS, verified by the SDK's httpx, which
trusts the CA file that the SSL_CERT_FILE environment variable names), `origin = HOST:PORT`, the keys (default `demo`), a `user_id`
per client, `enable_subscribe = True`, `daemon = True`, everything else at its default: the synchronous `PubNub`
class with its default request handler (httpx) for publishes, and its threaded subscribe loop delivering to a
`SubscribeCallback`. Two clients, as in the Swift bench: a publisher and a subscriber.

  publish_throughput   `publish().channel(c).message({"n": i}).sync()` in a loop (each call blocks until the
                       origin answers); messages / seconds from the first call to the last answer.
  latency_p50/p99      one message every 2 ms (or as soon as the previous sync() returned, when later), carrying
                       its send time; the subscriber's `message` callback computes the latency on arrival.
  delivery_throughput  publishes back to back while the subscriber's callback counts distinct messages; messages
                       / seconds from the first publish call to the last arrival. delivery_lost: never arrived
                       within 5 s of the last publish.

Progress goes to stderr, figures to stdout. Any failure or missed deadline prints an error and exits 1.
"""

import argparse
import importlib.metadata
import os
import random
import string
import sys
import threading
import time

from pubnub.callbacks import SubscribeCallback
from pubnub.enums import PNStatusCategory
from pubnub.pnconfiguration import PNConfiguration
from pubnub.pubnub import PubNub

FULL = {"publishes": 5000, "latency": 2000, "delivery": 5000}
QUICK = {"publishes": 500, "latency": 250, "delivery": 500}
INTERVAL = 0.002
SETUP_TIMEOUT = 15.0
SECONDS_PER_MESSAGE = 0.02
DRAIN_TIMEOUT = 5.0


def progress(text: str) -> None:
    print(f"python bench: {text}", file=sys.stderr, flush=True)


def bench(name: str, value: float, unit: str, decimals: int = 2) -> None:
    print(f"BENCH {name} {value:.{decimals}f} {unit}", flush=True)


class BenchFailure(Exception):
    pass


class Counter:
    """Distinct numbered events from the SDK's threads; the main thread waits for a number of them."""

    def __init__(self) -> None:
        self.condition = threading.Condition()
        self.seen: set = set()
        self.samples: list = []
        self.last_ns = 0
        self.duplicates = 0

    def record(self, number: int, sample=None) -> None:
        now = time.monotonic_ns()
        with self.condition:
            if number in self.seen:
                self.duplicates += 1
                return
            self.seen.add(number)
            if sample is not None:
                self.samples.append(sample)
            self.last_ns = now
            self.condition.notify_all()

    def wait(self, target: int, timeout: float, what: str, required: bool = True) -> None:
        deadline = time.monotonic() + timeout
        with self.condition:
            while len(self.seen) < target:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    if required:
                        raise BenchFailure(f"{what}: only {len(self.seen)} of {target} after {timeout:.1f} s")
                    return
                self.condition.wait(remaining)


class Listener(SubscribeCallback):
    def __init__(self, latency_channel: str, delivery_channel: str) -> None:
        self.connected = threading.Event()
        self.latency = Counter()
        self.delivery = Counter()
        self.latency_channel = latency_channel
        self.delivery_channel = delivery_channel

    def status(self, pubnub, status) -> None:
        if status.category == PNStatusCategory.PNConnectedCategory:
            self.connected.set()

    def presence(self, pubnub, presence) -> None:
        pass

    def message(self, pubnub, message) -> None:
        now = time.monotonic_ns()
        fields = message.message
        if not isinstance(fields, dict):
            return
        if message.channel == self.latency_channel and "seq" in fields:
            self.latency.record(fields["seq"], (now - fields["t"]) / 1e6)
        elif message.channel == self.delivery_channel and "n" in fields:
            self.delivery.record(fields["n"])


def client(origin: str, name: str, publish_key: str, subscribe_key: str, ssl: bool) -> PubNub:
    config = PNConfiguration()
    config.publish_key = publish_key
    config.subscribe_key = subscribe_key
    config.user_id = f"bench-python-{name}-{os.getpid()}"
    config.origin = origin
    config.ssl = ssl
    config.enable_subscribe = True
    config.daemon = True
    return PubNub(config)


def publish(pubnub: PubNub, channel: str, message: dict) -> None:
    envelope = pubnub.publish().channel(channel).message(message).sync()
    if envelope.status.is_error():
        raise BenchFailure(f"publish failed: {envelope.status.error_data}")


def publish_throughput(pubnub: PubNub, channel: str, count: int) -> float:
    started = time.monotonic_ns()
    for number in range(count):
        publish(pubnub, channel, {"n": number})
    return count / ((time.monotonic_ns() - started) / 1e9)


def latency(pubnub: PubNub, listener: Listener, count: int):
    started = time.monotonic_ns()
    slipped = 0
    for number in range(count):
        slot = started + int(number * INTERVAL * 1e9)
        now = time.monotonic_ns()
        if now < slot:
            time.sleep((slot - now) / 1e9)  # pacing: the next message is due at its slot
        elif number > 0 and now > slot + int(INTERVAL * 1e9):
            slipped += 1
        publish(pubnub, listener.latency_channel, {"seq": number, "t": time.monotonic_ns()})
    listener.latency.wait(count, SETUP_TIMEOUT, "latency: delivery")
    samples = sorted(listener.latency.samples)

    def nearest_rank(p: float) -> float:
        rank = max(1, min(len(samples), int(-(-p * len(samples) // 1))))
        return samples[rank - 1]

    return nearest_rank(0.5), nearest_rank(0.99), slipped


def delivery(pubnub: PubNub, listener: Listener, count: int):
    started = time.monotonic_ns()
    for number in range(count):
        publish(pubnub, listener.delivery_channel, {"n": number})
    listener.delivery.wait(count, DRAIN_TIMEOUT, "delivery", required=False)
    counter = listener.delivery
    with counter.condition:
        received, last, duplicates = len(counter.seen), counter.last_ns, counter.duplicates
    if received == 0:
        raise BenchFailure("delivery: no message arrived")
    return received / ((last - started) / 1e9), count - received, duplicates


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("origin")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--ssl", action="store_true")
    parser.add_argument("--publish-key", default="demo")
    parser.add_argument("--subscribe-key", default="demo")
    args = parser.parse_args()
    counts = QUICK if args.quick else FULL
    run = "".join(random.choices(string.ascii_lowercase + string.digits, k=7))
    publisher = client(args.origin, "publisher", args.publish_key, args.subscribe_key, args.ssl)
    subscriber = client(args.origin, "subscriber", args.publish_key, args.subscribe_key, args.ssl)
    listener = Listener(f"pybench-{run}-latency", f"pybench-{run}-delivery")
    version = importlib.metadata.version("pubnub")
    over = " over TLS" if args.ssl else ""
    print(f"# official PubNub Python SDK {version} on {args.origin}{over}, Python {sys.version.split()[0]}", flush=True)
    try:
        subscriber.add_listener(listener)
        subscriber.subscribe().channels([listener.latency_channel, listener.delivery_channel]).execute()
        if not listener.connected.wait(SETUP_TIMEOUT):
            raise BenchFailure(f"subscribe: not connected within {SETUP_TIMEOUT:.0f} s")

        progress(f"1/3 publish throughput, {counts['publishes']} messages, sync() in a loop")
        bench("publish_throughput", publish_throughput(publisher, f"pybench-{run}-publish", counts["publishes"]),
              "msg/s", 0)

        progress(f"2/3 latency, {counts['latency']} messages, one every {INTERVAL * 1000:.1f} ms")
        p50, p99, slipped = latency(publisher, listener, counts["latency"])
        if slipped:
            progress(f"{slipped} latency messages went out late (previous sync() not yet returned)")
        bench("latency_p50", p50, "ms")
        bench("latency_p99", p99, "ms")

        progress(f"3/3 delivery throughput, {counts['delivery']} messages")
        rate, lost, duplicates = delivery(publisher, listener, counts["delivery"])
        if duplicates:
            progress(f"{duplicates} messages arrived twice")
        bench("delivery_throughput", rate, "msg/s", 0)
        bench("delivery_lost", lost, "msg", 0)
        return 0
    except Exception as failure:  # every failure ends the run with its reason
        print(f"bench_python_sdk.py: {type(failure).__name__}: {failure}", file=sys.stderr, flush=True)
        return 1
    finally:
        publisher.stop()
        subscriber.stop()


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # The SDK's subscribe thread may still be winding down; the figures are complete, so leave now.
    os._exit(code)
