"""Fixtures for the interop suite: a `LegacyDemo origin` process and official-SDK clients talking to it.

The origin binary comes from $LEGACY_DEMO_BIN (set by Scripts/test.sh); without it the suite asks SwiftPM where the
debug build is. Each test module gets one origin on a kernel-chosen port, stopped when the module ends.
"""

import os
import queue
import subprocess
import threading
import time
import uuid as uuidlib
from pathlib import Path

import pytest
from pubnub.callbacks import SubscribeCallback
from pubnub.pnconfiguration import PNConfiguration
from pubnub.pubnub import PubNub

PACKAGE_ROOT = Path(__file__).resolve().parents[2]
PUB_KEY = "pub-c-interop"
SUB_KEY = "sub-c-interop"


def _demo_binary() -> str:
    explicit = os.environ.get("LEGACY_DEMO_BIN")
    if explicit:
        return explicit
    bin_dir = subprocess.run(
        ["swift", "build", "--show-bin-path"], cwd=PACKAGE_ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()
    return str(Path(bin_dir) / "LegacyDemo")


class OriginProcess:
    """A `LegacyDemo origin --port 0` child process; `address` is HOST:PORT from its first stdout line."""

    def __init__(self, *extra_args: str) -> None:
        self.process = subprocess.Popen(
            [_demo_binary(), "origin", "--port", "0", "--verbose", *extra_args],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        first = queue.Queue()
        self.log_lines: list[str] = []

        def pump() -> None:
            for index, line in enumerate(self.process.stdout):
                if index == 0:
                    first.put(line.rstrip("\n"))
                else:
                    self.log_lines.append(line.rstrip("\n"))
            first.put(None)

        threading.Thread(target=pump, daemon=True).start()
        try:
            line = first.get(timeout=30)
        except queue.Empty:
            self.stop()
            raise RuntimeError("LegacyDemo origin printed nothing within 30 s")
        if not line or not line.startswith("listening on "):
            self.stop()
            raise RuntimeError(f"unexpected first line from LegacyDemo origin: {line!r}")
        self.address = line[len("listening on "):]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def origin():
    process = OriginProcess()
    yield process
    process.stop()
    assert process.process.returncode == 0, f"origin exited with {process.process.returncode}"


class Listener(SubscribeCallback):
    """Collects everything the SDK's subscribe loop reports; `wait_*` block with a deadline, never a bare sleep."""

    def __init__(self) -> None:
        self.messages: "queue.Queue" = queue.Queue()
        self.presence_events: "queue.Queue" = queue.Queue()
        self.statuses: "queue.Queue" = queue.Queue()

    def message(self, pubnub, message) -> None:
        self.messages.put(message)

    def presence(self, pubnub, presence) -> None:
        self.presence_events.put(presence)

    def status(self, pubnub, status) -> None:
        self.statuses.put(status)

    @staticmethod
    def wait_for(q: "queue.Queue", predicate, timeout: float = 10.0):
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no matching event within {timeout} s; saw {seen!r}")
            try:
                item = q.get(timeout=remaining)
            except queue.Empty:
                continue
            if predicate(item):
                return item
            seen.append(item)


@pytest.fixture
def make_client(origin):
    """Builds SDK clients bound to the test origin; all of them are stopped after the test."""
    clients = []

    def build(user_id=None, cipher_key=None, random_iv=True, crypto_module=None, presence_timeout=None):
        config = PNConfiguration()
        config.publish_key = PUB_KEY
        config.subscribe_key = SUB_KEY
        config.user_id = user_id or f"py-{uuidlib.uuid4().hex[:8]}"
        config.origin = origin.address
        config.ssl = False
        config.enable_subscribe = True
        if cipher_key is not None:
            config.cipher_key = cipher_key
            config.use_random_initialization_vector = random_iv
        if presence_timeout is not None:
            config.set_presence_timeout(presence_timeout)
        client = PubNub(config)
        if crypto_module is not None:
            client.crypto = crypto_module(config)
        clients.append(client)
        return client

    yield build
    for client in clients:
        try:
            client.unsubscribe_all()
        finally:
            client.stop()


def unique(prefix: str) -> str:
    return f"{prefix}-{uuidlib.uuid4().hex[:10]}"
