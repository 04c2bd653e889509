#!/usr/bin/env python3
"""The workloads of `LegacyDemo cost`, done by the official PubNub Python SDK (pinned in Tests/Interop/requirements.txt)
against the same origin, printing the same `COST` names; Scripts/cost.py runs both and compares.

Usage:
  cost_python_sdk.py publish HOST:PORT --count N [--channels a,b] [--warm-up N]
  cost_python_sdk.py receive HOST:PORT --count N --channels a,b,...
  cost_python_sdk.py idle HOST:PORT [--seconds S]

SDK configuration as in Scripts/bench_python_sdk.py: the synchronous `PubNub` class with its default request handler
(httpx); `publish().channel(c).message({"n": i}).sync()` in a loop for publish (each call blocks until the origin
answers); its threaded subscribe loop delivering to a `SubscribeCallback` for receive and idle. Context switches and
CPU time come from `resource.getrusage(RUSAGE_SELF)` around the measured window, as in the Swift workload.
"""

import argparse
import os
import resource
import sys
import threading
import time

from pubnub.callbacks import SubscribeCallback
from pubnub.enums import PNStatusCategory
from pubnub.pnconfiguration import PNConfiguration
from pubnub.pubnub import PubNub


def cost(name: str, value: float, unit: str, decimals: int = 3) -> None:
    print(f"COST {name} {value:.{decimals}f} {unit}", flush=True)


def usage():
    return resource.getrusage(resource.RUSAGE_SELF)


def report(prefix: str, before, after, messages: int, seconds: float) -> None:
    per = max(messages, 1)
    voluntary = after.ru_nvcsw - before.ru_nvcsw
    involuntary = after.ru_nivcsw - before.ru_nivcsw
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    cost(f"{prefix}_messages", messages, "msg", 0)
    cost(f"{prefix}_switches_per_message", (voluntary + involuntary) / per, "switches")
    cost(f"{prefix}_voluntary_switches_per_message", voluntary / per, "switches")
    cost(f"{prefix}_involuntary_switches_per_message", involuntary / per, "switches")
    cost(f"{prefix}_cpu_per_message", cpu / per * 1e6, "us")
    cost(f"{prefix}_rate", messages / max(seconds, 1e-9), "msg/s", 0)


def client(origin: str, name: str) -> PubNub:
    config = PNConfiguration()
    config.publish_key = "demo"
    config.subscribe_key = "demo"
    config.user_id = f"cost-python-{name}-{os.getpid()}"
    config.origin = origin
    config.ssl = False
    config.enable_subscribe = True
    config.daemon = True
    return PubNub(config)


class Listener(SubscribeCallback):
    """Counts distinct (channel, n) messages from the SDK's threads; `done` is set at the target."""

    def __init__(self, target: int) -> None:
        self.connected = threading.Event()
        self.done = threading.Event()
        self.target = target
        self.seen = set()
        self.lock = threading.Lock()

    def status(self, pubnub, status) -> None:
        if status.category == PNStatusCategory.PNConnectedCategory:
            self.connected.set()

    def presence(self, pubnub, presence) -> None:
        pass

    def message(self, pubnub, message) -> None:
        fields = message.message
        if not isinstance(fields, dict) or "n" not in fields:
            return
        with self.lock:
            self.seen.add((message.channel, fields["n"]))
            if len(self.seen) >= self.target:
                self.done.set()


def publish(args) -> None:
    pubnub = client(args.origin, "publisher")
    channels = args.channels.split(",")
    try:

        def round_of(count: int) -> None:
            for number in range(count):
                envelope = pubnub.publish().channel(channels[number % len(channels)]).message({"n": number}).sync()
                if envelope.status.is_error():
                    raise RuntimeError(f"publish failed: {envelope.status.error_data}")

        round_of(args.warm_up)
        before = usage()
        started = time.monotonic()
        round_of(args.count)
        seconds = time.monotonic() - started
        report("publish", before, usage(), args.count, seconds)
    finally:
        pubnub.stop()


def receive(args) -> None:
    pubnub = client(args.origin, "subscriber")
    listener = Listener(args.count)
    pubnub.add_listener(listener)
    pubnub.subscribe().channels(args.channels.split(",")).execute()
    if not listener.connected.wait(300):
        raise RuntimeError("subscribe: not connected within 300 s")
    before = usage()
    started = time.monotonic()
    print(f"ready {os.getpid()}", flush=True)
    if not listener.done.wait(120 + args.count * 0.05):
        raise RuntimeError(f"receive: only {len(listener.seen)} of {args.count}")
    seconds = time.monotonic() - started
    report("receive", before, usage(), args.count, seconds)


def idle(args) -> None:
    pubnub = client(args.origin, "idle")
    listener = Listener(1)
    pubnub.add_listener(listener)
    pubnub.subscribe().channels(["cost-idle"]).execute()
    if not listener.connected.wait(300):
        raise RuntimeError("subscribe: not connected within 300 s")
    before = usage()
    time.sleep(args.seconds)  # the workload is doing nothing
    after = usage()
    with open("/proc/self/status", encoding="utf-8") as status:
        fields = dict(line.split(":", 1) for line in status if ":" in line)
    cost("idle_rss", int(fields["VmRSS"].split()[0]), "KiB", 0)
    cost("idle_threads", int(fields["Threads"].split()[0]), "threads", 0)
    switches = (after.ru_nvcsw - before.ru_nvcsw) + (after.ru_nivcsw - before.ru_nivcsw)
    cost("idle_switches_per_second", switches / args.seconds, "switches")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("workload", choices=["publish", "receive", "idle"])
    parser.add_argument("origin")
    parser.add_argument("--count", type=int, default=0)
    parser.add_argument("--channels", default="cost")
    parser.add_argument("--warm-up", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=7.0)
    args = parser.parse_args()
    try:
        {"publish": publish, "receive": receive, "idle": idle}[args.workload](args)
        return 0
    except Exception as failure:  # every failure ends the run with its reason
        print(f"cost_python_sdk.py: {type(failure).__name__}: {failure}", file=sys.stderr, flush=True)
        return 1


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # The SDK's subscribe thread may still be winding down; the figures are complete, so leave now.
    os._exit(code)
