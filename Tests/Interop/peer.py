"""A one-shot peer for the Swift interop tests: the official PubNub Python SDK against a LocalOrigin.

The Swift tests (Tests/PubNubLegacyTests/Interop) run it with the interpreter of `.venv-interop` and talk to it
through lines on stdout; every line starts with a word, the rest is JSON where there is any.

    peer.py publish --origin HOST:PORT --channel C --key K --mode fixed|random|module
        stdin: a JSON array of messages. Publishes them in order (POST for texts over 1 KiB, GET otherwise),
        printing `PUBLISHED <index> <timetoken>` for each, then `DONE`.

    peer.py read --origin HOST:PORT --channel C --key K --mode fixed|random|module --count N
        Subscribes, prints `READY` once connected, prints `MESSAGE {"message": ..., "error": bool}` for each of the
        first N messages, then `HISTORY [...]` with the channel's stored messages as the SDK's history() decrypts
        them, then `DONE`.

Modes: `fixed` = cipher key with use_random_initialization_vector False (the 3.4 standard), `random` = the SDK's
default legacy random IV, `module` = AesCbcCryptoModule (PNED header, ACRH cryptor). An empty --key means no cipher
key at all (plain messages; use it with `fixed`).
Any failure or a wait past --timeout prints `FAILED <reason>` and exits 1. Output is ASCII (JSON with \\u escapes).
"""

import argparse
import json
import os
import queue
import sys
import time

from pubnub.callbacks import SubscribeCallback
from pubnub.crypto import AesCbcCryptoModule
from pubnub.enums import PNStatusCategory
from pubnub.pnconfiguration import PNConfiguration
from pubnub.pubnub import PubNub

PUB_KEY = "pub-c-test"
SUB_KEY = "sub-c-test"


def say(*words: str) -> None:
    print(" ".join(words), flush=True)


def client_for(args) -> PubNub:
    config = PNConfiguration()
    config.publish_key = PUB_KEY
    config.subscribe_key = SUB_KEY
    config.user_id = f"python-peer-{os.getpid()}"
    config.origin = args.origin
    config.ssl = False
    config.enable_subscribe = True
    config.cipher_key = args.key or None
    config.use_random_initialization_vector = args.mode == "random"
    if args.mode == "module":
        config.crypto_module = AesCbcCryptoModule(config)
    return PubNub(config)


class Listener(SubscribeCallback):
    def __init__(self) -> None:
        self.events: "queue.Queue" = queue.Queue()

    def message(self, pubnub, message) -> None:
        self.events.put(("message", message))

    def status(self, pubnub, status) -> None:
        self.events.put(("status", status))

    def presence(self, pubnub, presence) -> None:
        pass

    def next(self, deadline: float):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("no event before the deadline")
        try:
            return self.events.get(timeout=remaining)
        except queue.Empty:
            raise TimeoutError("no event before the deadline")


def publish(args, client: PubNub) -> None:
    messages = json.load(sys.stdin)
    for index, message in enumerate(messages):
        use_post = len(json.dumps(message)) > 1024
        result = client.publish().channel(args.channel).message(message).use_post(use_post).sync()
        say("PUBLISHED", str(index), str(result.result.timetoken))


def read(args, client: PubNub) -> None:
    deadline = time.monotonic() + args.timeout
    listener = Listener()
    client.add_listener(listener)
    client.subscribe().channels([args.channel]).execute()
    while True:
        kind, event = listener.next(deadline)
        if kind == "status" and event.category == PNStatusCategory.PNConnectedCategory:
            break
    say("READY")
    received = 0
    while received < args.count:
        kind, event = listener.next(deadline)
        if kind == "message":
            received += 1
            say("MESSAGE", json.dumps({"message": event.message, "error": bool(event.error)}))
    client.unsubscribe_all()
    history = client.history().channel(args.channel).count(100).sync().result.messages
    say("HISTORY", json.dumps([item.entry for item in history]))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["publish", "read"])
    parser.add_argument("--origin", required=True)
    parser.add_argument("--channel", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--mode", choices=["fixed", "random", "module"], required=True)
    parser.add_argument("--count", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=30)
    args = parser.parse_args()
    client = client_for(args)
    try:
        if args.command == "publish":
            publish(args, client)
        else:
            read(args, client)
        say("DONE")
        return 0
    except Exception as failure:  # any failure is the test's answer, reported on the protocol line
        say("FAILED", json.dumps(f"{type(failure).__name__}: {failure}"))
        return 1
    finally:
        client.stop()


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    # The SDK's subscribe threads may still be winding down; the answer is complete, so leave now.
    os._exit(code)
