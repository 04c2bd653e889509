#!/usr/bin/env python3
"""Deterministic cost figures of the client beside the official Python SDK's, on one LocalOrigin (Scripts/cost.sh
prepares the binaries and runs this).

Wall-clock rates on a shared 2-core machine move by a third between runs; what a workload costs in instructions,
system calls and context switches does not depend on how busy the other cores are. Each workload of
`LegacyDemo cost` (and of Scripts/cost_python_sdk.py) runs in a process of its own, twice, with a small and a large
count: the difference of the two runs' totals over the difference of the counts is the cost of one message, with the
process start, the connect and the warm-up cancelled out.

  instructions   valgrind --tool=callgrind: every instruction of every thread of the client process (`summary:`);
  syscalls       perf stat -e raw_syscalls:sys_enter (and per system call), or strace -f -c where perf cannot;
  switches       context switches of the measured window, from the process's own getrusage (voluntary: a thread
                 blocked; involuntary: it was preempted), taken from the large run without valgrind.

Workloads: `publish` (messages published back to back, sent one at a time in call order), `pipelined` (the same
with publishPipelineDepth 32, the publisher of Scripts/bench.sh's delivery_pipelined_throughput; ours only),
`sequential` (each message published from the completion block of the one before, as Scripts/bench.sh's
publish_sequential: the client's delivery queue is on the path of every publish; the Python SDK's `publish`, a
blocking call per message, is already this),
`receive` (messages delivered to one subscriber; they are published by a separate pipelined LegacyDemo while the
subscriber is stopped with SIGSTOP, so every run receives them in the same answers — the first, then full answers of
100 — whatever the timing), and `idle` (one client connected and subscribed, doing nothing: resident memory and
threads); and `origin`: the instructions of LocalOrigin itself (`LegacyDemo origin`, the peer of every figure here and
of Scripts/bench.sh) per message published by a pipelined publisher and delivered to one subscriber.

Prints `COST <client> <figure> <value> <unit>` lines and a table; each `--against [NAME=]PATH` adds another LegacyDemo
binary (e.g. one built from an earlier commit) to every figure of ours, measured in the same run.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

CHANNELS = "cost-a,cost-b,cost-c,cost-d"
IDLE_SECONDS = 7
# Workloads that are another `LegacyDemo cost` subcommand with other flags (and print that subcommand's figures).
SUBCOMMANDS = {"pipelined": "publish"}


def progress(text: str) -> None:
    print(f"cost: {text}", file=sys.stderr, flush=True)


class Client:
    """How to run one client's workloads: `LegacyDemo cost …` or `python cost_python_sdk.py …`."""

    def __init__(self, name: str, command: list, swift: bool, publishes: tuple, receives: tuple) -> None:
        self.name = name
        self.command = command
        self.swift = swift
        self.publishes = publishes
        self.receives = receives

    def workload(self, kind: str, origin: str, count: int) -> list:
        if self.swift:
            arguments = [SUBCOMMANDS.get(kind, kind), "--origin", origin]
        else:
            arguments = [kind, origin]
        if kind in ("publish", "pipelined", "sequential", "receive"):
            arguments += ["--count", str(count), "--channels", CHANNELS if kind == "receive" else "cost-publish"]
        if kind == "pipelined":
            arguments += ["--pipeline-depth", "32"]
        elif kind == "idle":
            # Every client idles as long, past the Swift transport's 5 s worker linger (earlier builds' default was 3 s).
            arguments += ["--seconds", str(IDLE_SECONDS)]
        return self.command + arguments


def parse_costs(text: str) -> dict:
    figures = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0] == "COST":
            figures[parts[1]] = float(parts[2])
    return figures


class Runner:
    def __init__(self, origin: str, publisher: list, work: str, syscall_tool: str) -> None:
        self.origin = origin
        self.publisher = publisher
        self.work = work
        self.syscall_tool = syscall_tool
        self.serial = 0

    def path(self, name: str) -> str:
        self.serial += 1
        return os.path.join(self.work, f"{self.serial:03d}-{name}")

    def wrap(self, tool: str, output: str) -> list:
        if tool == "callgrind":
            return ["valgrind", "--tool=callgrind", "--fair-sched=yes", f"--callgrind-out-file={output}",
                    f"--log-file={output}.log"]
        if tool == "perf":
            return ["perf", "stat", "-x", ",", "-o", output, "-e", "raw_syscalls:sys_enter,syscalls:sys_enter_*"]
        if tool == "strace":
            return ["strace", "-f", "-c", "-o", output]
        return []

    def run(self, client: Client, kind: str, count: int, tool: str) -> tuple:
        """Runs one workload under `tool` (or none); returns (its COST figures, the tool's output file)."""
        output = self.path(f"{client.name}-{kind}-{count}-{tool or 'plain'}")
        command = self.wrap(tool, output) + client.workload(kind, self.origin, count)
        if kind != "receive":
            done = subprocess.run(command, capture_output=True, text=True, timeout=1800)
            if done.returncode != 0:
                raise RuntimeError(f"{' '.join(command)} failed:\n{done.stderr[-3000:]}")
            return parse_costs(done.stdout), output
        return self.receive(command, client, count), output

    def receive(self, command: list, client: Client, count: int) -> dict:
        """Starts the subscriber, stops it once it is subscribed, publishes `count` messages from a separate pipelined
        LegacyDemo, lets the subscriber go on and waits for it to count them."""
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = process.stdout.readline()
            match = re.match(r"ready (\d+)", line)
            if not match:
                raise RuntimeError(f"{client.name} receive did not get ready: {line!r} {process.stderr.read()[-3000:]}")
            pid = int(match.group(1))
            # Give the long-poll a moment to be parked at the origin; nothing depends on it being there (a message
            # published before it arrives is stored and returned by it).
            time.sleep(0.5)
            os.kill(pid, signal.SIGSTOP)
            try:
                publish = self.publisher + ["publish", "--origin", self.origin, "--count", str(count), "--channels",
                                            CHANNELS, "--warm-up", "0", "--pipeline-depth", "32"]
                done = subprocess.run(publish, capture_output=True, text=True, timeout=600)
                if done.returncode != 0:
                    raise RuntimeError(f"publisher failed: {done.stderr[-3000:]}")
            finally:
                os.kill(pid, signal.SIGCONT)
            stdout, stderr = process.communicate(timeout=1800)
            if process.returncode != 0:
                raise RuntimeError(f"{client.name} receive failed: {stderr[-3000:]}")
            return parse_costs(line + stdout)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


def instructions(path: str) -> int:
    with open(path, encoding="utf-8", errors="replace") as profile:
        for line in profile:
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    raise RuntimeError(f"no instruction total in {path}")


def syscalls(path: str, tool: str) -> dict:
    """Calls per system call name, and `total`."""
    counts = {}
    with open(path, encoding="utf-8", errors="replace") as report:
        for line in report:
            if tool == "perf":
                fields = line.strip().split(",")
                if len(fields) < 3 or not fields[0].strip().isdigit():
                    continue
                event = fields[2]
                if event == "raw_syscalls:sys_enter":
                    counts["total"] = int(fields[0])
                elif event.startswith("syscalls:sys_enter_"):
                    counts[event[len("syscalls:sys_enter_"):]] = int(fields[0])
            else:
                fields = line.split()
                # strace -c: % time, seconds, usecs/call, calls, [errors], syscall
                if len(fields) >= 5 and fields[-1] != "syscall" and fields[3].isdigit():
                    counts["total" if fields[-1] == "total" else fields[-1]] = int(fields[3])
    if "total" not in counts:
        raise RuntimeError(f"no system call total in {path}")
    return counts


def measure_origin(runner: Runner, binary: str, name: str, counts: tuple) -> float:
    """Instructions of `binary origin` (LocalOrigin) per message published (pipelined) and delivered to one
    subscriber: the origin runs under callgrind, once per count, with a subscriber and a publisher of that binary."""
    totals = []
    for count in counts:
        output = runner.path(f"{name}-origin-{count}-callgrind")
        origin = subprocess.Popen(runner.wrap("callgrind", output) + [binary, "origin", "--port", "0"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        subscriber = None
        try:
            line = origin.stdout.readline()
            if not line.startswith("listening on "):
                raise RuntimeError(f"{name}: the origin under callgrind did not start: {line!r}")
            address = line.split()[-1]
            subscriber = subprocess.Popen([binary, "cost", "receive", "--origin", address, "--count", str(count),
                                           "--channels", CHANNELS], stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, text=True)
            ready = re.match(r"ready (\d+)", subscriber.stdout.readline())
            if not ready:
                raise RuntimeError(f"{name}: the subscriber did not get ready")
            # Stopped while the messages are published, as in `receive`, so every run serves the same answers.
            time.sleep(0.5)
            os.kill(int(ready.group(1)), signal.SIGSTOP)
            try:
                publish = [binary, "cost", "publish", "--origin", address, "--count", str(count), "--channels",
                           CHANNELS, "--warm-up", "0", "--pipeline-depth", "32"]
                done = subprocess.run(publish, capture_output=True, text=True, timeout=1800)
                if done.returncode != 0:
                    raise RuntimeError(f"{name}: the publisher failed: {done.stderr[-3000:]}")
            finally:
                os.kill(int(ready.group(1)), signal.SIGCONT)
            _, stderr = subscriber.communicate(timeout=1800)
            if subscriber.returncode != 0:
                raise RuntimeError(f"{name}: the subscriber failed: {stderr[-3000:]}")
        finally:
            if subscriber is not None and subscriber.poll() is None:
                subscriber.kill()
                subscriber.wait()
            # SIGINT ends the origin normally, so callgrind writes its profile.
            origin.send_signal(signal.SIGINT)
            origin.wait(timeout=120)
        totals.append(instructions(output))
    return (totals[1] - totals[0]) / (counts[1] - counts[0])


def measure(runner: Runner, client: Client, kind: str, counts: tuple, tools: set) -> dict:
    small, large = counts
    per = large - small
    figures = {}
    if "callgrind" in tools:
        progress(f"{client.name} {kind}: instructions (callgrind, {small} and {large} messages)")
        _, low = runner.run(client, kind, small, "callgrind")
        _, high = runner.run(client, kind, large, "callgrind")
        figures["instructions"] = (instructions(high) - instructions(low)) / per
    tool = runner.syscall_tool
    progress(f"{client.name} {kind}: system calls ({tool}, {small} and {large} messages) and context switches")
    _, low = runner.run(client, kind, small, tool)
    costs, high = runner.run(client, kind, large, tool)
    low_calls, high_calls = syscalls(low, tool), syscalls(high, tool)
    figures["syscalls"] = (high_calls["total"] - low_calls["total"]) / per
    kinds = sorted(high_calls, key=lambda name: -(high_calls[name] - low_calls.get(name, 0)))
    for name in kinds:
        if name != "total" and (high_calls[name] - low_calls.get(name, 0)) / per >= 0.05:
            figures[f"syscalls_{name}"] = (high_calls[name] - low_calls.get(name, 0)) / per
    progress(f"{client.name} {kind}: context switches and CPU time, {large} messages, no tool")
    costs, _ = runner.run(client, kind, large, "")
    prefix = SUBCOMMANDS.get(kind, kind)
    for name in ("switches", "voluntary_switches", "involuntary_switches", "cpu"):
        key = f"{prefix}_{name}_per_message"
        if key in costs:
            figures[name if name != "cpu" else "cpu_us"] = costs[key]
    figures["rate"] = costs.get(f"{prefix}_rate", 0)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="the LegacyDemo binary measured (release build)")
    parser.add_argument("--against", action="append", default=[],
                        help="another LegacyDemo binary measured the same way, e.g. an earlier commit's; repeatable; "
                             "NAME=PATH names its column (default: against, against2, ...)")
    parser.add_argument("--python", help="the Python of a venv with the pinned SDK; without it, no Python figures")
    parser.add_argument("--no-callgrind", action="store_true", help="skip the instruction counts (slow)")
    parser.add_argument("--workloads", default="publish,pipelined,sequential,receive,origin,idle",
                        help="which of publish,pipelined,sequential,receive,origin,idle to run")
    parser.add_argument("--keep", help="a directory to keep the profiles and reports in (callgrind_annotate them)")
    args = parser.parse_args()

    tools = set() if args.no_callgrind or not shutil.which("valgrind") else {"callgrind"}
    syscall_tool = "perf"
    probe = subprocess.run(["perf", "stat", "-e", "raw_syscalls:sys_enter", "true"], capture_output=True, text=True) \
        if shutil.which("perf") else None
    if probe is None or probe.returncode != 0 or "not supported" in probe.stderr:
        syscall_tool = "strace"
    work = args.keep or tempfile.mkdtemp(prefix="cost-")
    os.makedirs(work, exist_ok=True)
    origin_process = subprocess.Popen([args.bin, "origin", "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = origin_process.stdout.readline()
        if not line.startswith("listening on "):
            raise RuntimeError(f"the origin did not start: {line!r}")
        origin = line.split()[-1]
        here = os.path.dirname(os.path.abspath(__file__))
        clients = [Client("ours", [args.bin, "cost"], True, (200, 1200), (400, 2400))]
        for number, against in enumerate(args.against, start=1):
            name, _, path = against.rpartition("=") if "=" in against else ("", "", against)
            name = name or ("against" if number == 1 else f"against{number}")
            clients.append(Client(name, [path, "cost"], True, (200, 1200), (400, 2400)))
        if args.python:
            clients.append(Client("python", [args.python, os.path.join(here, "cost_python_sdk.py")], False,
                                  (100, 400), (400, 2400)))
        runner = Runner(origin, [args.bin, "cost"], work, syscall_tool)
        print(f"# origin: {args.bin} origin at {origin}; instructions: "
              f"{'callgrind' if tools else 'not measured'}; system calls: {syscall_tool}; "
              f"load average at start: {open('/proc/loadavg').read().split()[:3]}", flush=True)
        results = {}
        workloads = args.workloads.split(",")
        for client in clients:
            results[client.name] = {
                "publish": {}, "pipelined": {}, "sequential": {}, "receive": {}, "origin": {}, "idle": {}}
            if "publish" in workloads:
                results[client.name]["publish"] = measure(runner, client, "publish", client.publishes, tools)
            if "pipelined" in workloads and client.swift:
                results[client.name]["pipelined"] = measure(runner, client, "pipelined", client.publishes, tools)
            if "sequential" in workloads and client.swift:
                results[client.name]["sequential"] = measure(runner, client, "sequential", client.publishes, tools)
            if "receive" in workloads:
                results[client.name]["receive"] = measure(runner, client, "receive", client.receives, tools)
            if "origin" in workloads and client.swift and tools:
                progress(f"{client.name} origin: instructions of its LocalOrigin (callgrind, 500 and 2500 messages)")
                results[client.name]["origin"] = {
                    "instructions": measure_origin(runner, client.command[0], client.name, (500, 2500))}
            idle = {}
            if "idle" in workloads:
                progress(f"{client.name} idle: resident memory and threads")
                idle, _ = runner.run(client, "idle", 0, "")
                results[client.name]["idle"] = idle
            for kind in ("publish", "pipelined", "sequential", "receive", "origin"):
                for name, value in results[client.name][kind].items():
                    unit = {"instructions": "instructions", "rate": "msg/s", "cpu_us": "us"}.get(
                        name, "switches" if "switches" in name else "calls")
                    print(f"COST {client.name} {kind}_{name} {value:.2f} {unit}", flush=True)
            for name, value in idle.items():
                print(f"COST {client.name} {name} {value:.2f} {'KiB' if 'rss' in name else 'count'}", flush=True)
        names = [client.name for client in clients]
        print(f"\n{'per message':38}" + "".join(f"{name:>14}" for name in names))
        for kind in ("publish", "pipelined", "sequential", "receive", "origin"):
            keys = []
            for name in names:
                keys += [key for key in results[name][kind] if key not in keys]
            for key in keys:
                row = "".join(
                    f"{results[name][kind][key]:>14,.2f}" if key in results[name][kind] else f"{'-':>14}"
                    for name in names)
                print(f"{kind + ' ' + key:38}{row}")
        for key in ("idle_rss", "idle_anonymous_rss", "idle_threads", "idle_switches_per_second"):
            print(f"{key:38}" + "".join(
                f"{results[name]['idle'][key]:>14,.0f}" if key in results[name]["idle"] else f"{'-':>14}"
                for name in names))
        print(f"# load average at end: {open('/proc/loadavg').read().split()[:3]}")
        return 0
    finally:
        origin_process.terminate()
        origin_process.wait()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
