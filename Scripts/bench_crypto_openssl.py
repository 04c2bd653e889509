"""OpenSSL's figures for Scripts/bench-crypto.sh, through Python's `cryptography` package.

Does per message what MessageCryptorThroughputTests times for the Swift client, in the 3.4 standard scheme
(docs/CRYPTO.md §1): encrypt = JSON text -> '"' + base64(AES-256-CBC(PKCS#7(text))) + '"'; decrypt = base64 ->
AES-256-CBC -> padding removed -> UTF-8 text. Same messages, same timing rule (best of 9 rounds of >= 50 ms).
Prints `BENCH <name> <value> <unit>` lines. The per-message figures include the Python interpreter's own overhead.
"""

import base64
import hashlib
import time

from cryptography.hazmat.backends.openssl import backend
from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

KEY = hashlib.sha256(b"enigma").hexdigest()[:32].encode()
IV = b"0123456789012345"


def encrypt(text: str) -> str:
    padder = padding.PKCS7(128).padder()
    padded = padder.update(text.encode()) + padder.finalize()
    encryptor = Cipher(algorithms.AES(KEY), modes.CBC(IV)).encryptor()
    return '"' + base64.b64encode(encryptor.update(padded) + encryptor.finalize()).decode() + '"'


def decrypt(payload: str) -> str:
    decryptor = Cipher(algorithms.AES(KEY), modes.CBC(IV)).decryptor()
    padded = decryptor.update(base64.b64decode(payload, validate=True)) + decryptor.finalize()
    unpadder = padding.PKCS7(128).unpadder()
    return (unpadder.update(padded) + unpadder.finalize()).decode("utf-8")


def seconds_per_run(body, round_seconds: float = 0.05, rounds: int = 9) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        runs = 0
        while True:
            body()
            runs += 1
            elapsed = time.perf_counter() - start
            if elapsed >= round_seconds:
                break
        best = min(best, elapsed / runs)
    return best


def main() -> None:
    kib = '"' + ("PubNub 1KiB payload " * 52)[:1022] + '"'
    mib = '"' + ("PubNub 1MiB payload " * 52_429)[:1_048_574] + '"'
    assert len(kib.encode()) == 1024 and len(mib.encode()) == 1_048_576
    print(f"# {backend.openssl_version_text()}")
    for name, message in (("1KiB", kib), ("1MiB", mib)):
        wire = encrypt(message)
        payload = wire[1:-1]
        assert decrypt(payload) == message
        enc = seconds_per_run(lambda: encrypt(message))
        dec = seconds_per_run(lambda: decrypt(payload))
        if name == "1KiB":
            print(f"BENCH openssl_encrypt_1KiB {enc * 1e6:.3f} us")
            print(f"BENCH openssl_decrypt_1KiB {dec * 1e6:.3f} us")
        else:
            print(f"BENCH openssl_encrypt_1MiB {len(message) / enc / 1e6:.3f} MB/s")
            print(f"BENCH openssl_decrypt_1MiB {len(message) / dec / 1e6:.3f} MB/s")


if __name__ == "__main__":
    main()
