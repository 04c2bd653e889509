#!/usr/bin/env python3
"""Writes the seed corpora in Fuzz/Corpus/ from real exchanges.

Starts `LegacyDemo origin --port 0` (build it first: `swift build`), sends it the requests the client sends (the
request head of SocketTransport, the paths of Endpoint) and the 3.4.2 forms, and records the raw answers. Each seed
is the target's input format (Fuzz/README.md): control bytes, then the recorded bytes. Run it from the repository
root when a wire format changes: python3 Fuzz/make-corpus.py
"""

import base64
import os
import shutil
import socket
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "Corpus")
SDK = "pnsdk=PubNubLegacy-Swift%2F3.4&uuid=fuzz-seed"


def head(method, target, host, body=None):
    """The request head SocketTransport writes."""
    text = f"{method} {target} HTTP/1.1\r\nHost: {host}\r\n"
    text += "User-Agent: PubNubLegacy-Swift/3.4\r\nAccept: */*\r\nAccept-Encoding: identity\r\nV: 3.4\r\n"
    if body is not None:
        text += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    return text.encode() + b"\r\n" + (body or b"")


def exchange(address, request):
    """Sends one request on a new connection and returns the raw answer (the origin closes after Connection:
    close is added)."""
    host, port = address.rsplit(":", 1)
    request = request.replace(b"\r\nV: 3.4\r\n", b"\r\nV: 3.4\r\nConnection: close\r\n", 1)
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(request)
        chunks = []
        while True:
            data = sock.recv(65536)
            if not data:
                break
            chunks.append(data)
    return b"".join(chunks)


def split_answer(raw):
    head_end = raw.index(b"\r\n\r\n")
    status = int(raw.split(b" ", 2)[1])
    return status, raw[head_end + 4:]


def write(target, name, data):
    directory = os.path.join(CORPUS, target)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "wb") as handle:
        handle.write(data)


def main():
    binary = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.strip() + "/LegacyDemo"
    origin = subprocess.Popen([binary, "origin", "--port", "0", "--long-poll-timeout", "1"], stdout=subprocess.PIPE,
                              text=True)
    try:
        address = origin.stdout.readline().split()[-1]
        record(address)
    finally:
        origin.terminate()
        origin.wait()


def record(address):
    for target in os.listdir(CORPUS) if os.path.isdir(CORPUS) else []:
        shutil.rmtree(os.path.join(CORPUS, target))
    sub = "demo"
    message = b'{"text":"hello","n":1}'
    requests = {
        "time": ("GET", f"/time/0?{SDK}", None),
        "publish-get": ("GET", f"/publish/demo/{sub}/0/chat/0/%7B%22text%22%3A%22hello%22%7D?{SDK}", None),
        "publish-post": ("POST", f"/publish/demo/{sub}/0/chat/0?{SDK}", message),
        "subscribe-handshake": ("GET", f"/v2/subscribe/{sub}/chat,chat-pnpres/0?tt=0&{SDK}", None),
        "history": ("GET", f"/v2/history/sub-key/{sub}/channel/chat?count=100&reverse=false&{SDK}", None),
        "here-now": ("GET", f"/v2/presence/sub-key/{sub}/channel/chat?{SDK}", None),
        "where-now": ("GET", f"/v2/presence/sub-key/{sub}/uuid/fuzz-seed?{SDK}", None),
        "state": ("GET", f"/v2/presence/sub-key/{sub}/channel/chat/uuid/fuzz-seed/data?state=%7B%22a%22%3A1%7D&{SDK}",
                  None),
        "leave": ("GET", f"/v2/presence/sub-key/{sub}/channel/chat/leave?{SDK}", None),
        "push-add": ("GET", f"/v1/push/sub-key/{sub}/devices/ABCD?add=chat&type=apns&{SDK}", None),
        "push-list": ("GET", f"/v1/push/sub-key/{sub}/devices/ABCD?type=apns&{SDK}", None),
        "subscribe-v1-jsonp": ("GET", f"/subscribe/{sub}/chat/cb7/0?{SDK}", None),
        "not-found": ("GET", f"/v9/nothing?{SDK}", None),
        "bad-key": ("GET", f"/v2/subscribe//chat/0?tt=0&{SDK}", None),
    }
    answers = {}
    for name, (method, target, body) in requests.items():
        request = head(method, target, address, body)
        answers[name] = exchange(address, request)
        # origin-http-parser: control byte 0 (default limits, unsplit), then the request as sent.
        write("origin-http-parser", name, b"\x00" + request)
        # origin-router: method letter, target, tab, body.
        write("origin-router", name, method[0].encode() + target.encode() + (b"\t" + body if body else b""))
    # A subscribe that returns the published message and a join, after the handshake's cursor.
    handshake_status, handshake = split_answer(answers["subscribe-handshake"])
    cursor = handshake.split(b'"t":"', 1)[1].split(b'"', 1)[0].decode()
    answers["subscribe-messages"] = exchange(
        address, head("GET", f"/v2/subscribe/{sub}/chat,chat-pnpres/0?tt={cursor}&{SDK}", address))
    write("origin-http-parser", "pipelined",
          b"\x03\x05\x11\x40" + head("GET", f"/time/0?{SDK}", address) + head("POST", "/publish/demo/demo/0/c/0",
                                                                             address, b"[1]"))
    write("origin-router", "session", b"\n".join([
        f"P/publish/demo/{sub}/0/chat/0?{SDK}\t[1,{{\"a\":null}}]".encode(),
        f"G/v2/subscribe/{sub}/chat/0?tt=0&heartbeat=60&{SDK}".encode(),
        f"G/v2/history/sub-key/{sub}/channel/chat?include_token=true&{SDK}".encode(),
        f"G/v1/channel-registration/sub-key/{sub}/channel-group/g?add=chat&{SDK}".encode(),
        f"G/v2/subscribe/{sub}/,/0?channel-group=g&tt=0&{SDK}".encode(),
        f"G/v3/history/sub-key/{sub}/channel/chat?max=10&{SDK}".encode(),
    ]))

    # client-http-response: control 0x40 (the stream ends after the bytes), then the answer; and framings the
    # origin does not use.
    for name in ("time", "subscribe-messages", "history", "bad-key"):
        write("client-http-response", name, b"\x40" + answers[name])
    status, body = split_answer(answers["history"])
    chunked = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
    for start in range(0, len(body), 7):
        piece = body[start:start + 7]
        chunked += f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
    write("client-http-response", "chunked", b"\x43\x03\x10\x01" + chunked + b"0\r\nX-Trailer: 1\r\n\r\n")
    write("client-http-response", "close-delimited", b"\x40HTTP/1.0 200 OK\r\nContent-Type: text/javascript\r\n\r\n"
          + body)
    write("client-http-response", "interim", b"\x02\x05\x09HTTP/1.1 100 Continue\r\n\r\n" + answers["time"])

    # client-responses: operation, status index (0: 200, 5: 400, 7: 403), cipher (0: none), body mode 0 (as is).
    operations = {"time": 0, "publish-get": 1, "subscribe-messages": 2, "history": 3, "here-now": 4, "leave": 5,
                  "push-list": 6, "push-add": 5}
    for name, operation in operations.items():
        status, body = split_answer(answers[name])
        write("client-responses", name, bytes([operation, 0, 0, 0]) + body)
    write("client-responses", "error-400", bytes([2, 5, 0, 0]) + split_answer(answers["bad-key"])[1])
    write("client-responses", "error-403",
          bytes([2, 7, 0, 0]) + b'{"message":"Forbidden","payload":{"channels":["chat"]},"error":true,"service":'
          b'"Access Manager","status":403}')
    write("client-responses", "publish-refused", bytes([1, 5, 0, 0]) + b'[0,"Invalid Key","14000000000000000"]')
    # An encrypted history answer (3.4 standard, key "enigma": "Hello World" from docs/CRYPTO.md §1.3).
    write("client-responses", "history-encrypted",
          bytes([3, 0, 1, 0]) + b'[["06UDjczkvAAYcqWfNwkOiQ=="],14000000000000000,14000000000000001]')
    write("client-responses", "built-subscribe", bytes([2, 0, 0, 1, 6, 3, 0, 6, 1, 2, 3, 7, 2]))

    # origin-json: mode 0 (the text as it is): what clients publish and store, and the origin's own answers.
    for name, text in {
        "message": message,
        "state": b'{"mood":"\\u263a","age":30,"tags":["a","b"],"deep":{"x":[null,true,-1.5e3]}}',
        "escapes": b'["\\ud83d\\ude00","\\ud800","\\/\\b\\f\\n\\r\\t","\xc3\xa9"]',
        "numbers": b"[0,-0,1e400,18446744073709551616,0.5E-2,17000000000000000]",
        "subscribe-answer": split_answer(answers["subscribe-messages"])[1],
        "history-answer": split_answer(answers["history"])[1],
    }.items():
        write("origin-json", name, b"\x00" + text)
    write("origin-json", "built", bytes([1, 6, 3, 0, 7, 2, 4, 8, 3, 1, 3, 5]))

    # client-decrypt: control, key, 0, payload (see the target's comment for the paths).
    write("client-decrypt", "standard", b"\x00enigma\x00" + b'06UDjczkvAAYcqWfNwkOiQ==')
    write("client-decrypt", "compat33", b"\x01enigma\x00" + b'UzIyeVhanI+QnyaNqVob2A==')
    write("client-decrypt", "random-iv-bytes", b"\x0aenigma\x00" + base64.b64decode("06UDjczkvAAYcqWfNwkOiQ==") * 2)
    write("client-decrypt", "cryptor-header", b"\x10enigma\x00\x01ACRH\x10" + bytes(range(16)) + bytes(32))
    write("client-decrypt", "compat33-structure", b"\x19enigma\x00\x07\x03\x04\x05\x04\x07\x01\x04\x06")
    write("client-decrypt", "round-trip", b"\x20enigma\x00\x06\x02\x04\x01\x03\x0a")
    write("client-decrypt", "header-round-trip", b"\x28enigma\x00" + bytes(range(16)) + message)

    # client-arguments: selector, then the fields (see the target's comment).
    write("client-arguments", "channel", b"\x00\x00chat\x00fuzz-seed\x00auth-key")
    write("client-arguments", "channel-utf16", b"\x00\x01\x00c\xd8\x00\x00h\x00fuzz-seed")
    write("client-arguments", "message-text", b"\x01" + message)
    write("client-arguments", "message-value", bytes([2, 17, 3, 19, 0, 4, 1, 10, 4, 0x00, 0x61, 0xd8, 0x00]))
    write("client-arguments", "origin", b"\x03127.0.0.1:8090")
    write_certificate_seeds()
    print(f"corpora written to {CORPUS}")


def write_certificate_seeds():
    """client-certificates: certificates made with the `openssl` tool (EC P-256 and RSA 2048, self-signed), as PEM
    (control 0, a bundle of both with text and a key block between them) and as DER (control 1)."""
    with tempfile.TemporaryDirectory() as folder:
        pems, ders = [], []
        for name, key in [("ec", ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]), ("rsa", ["-newkey", "rsa:2048"])]:
            pem = os.path.join(folder, f"{name}.pem")
            subprocess.run(["openssl", "req", "-x509", "-nodes"] + key + ["-keyout", os.path.join(folder, f"{name}.key"),
                            "-out", pem, "-days", "2", "-subj", f"/CN=fuzz-seed-{name}"], check=True, capture_output=True)
            pems.append(open(pem, "rb").read())
            ders.append(subprocess.run(["openssl", "x509", "-in", pem, "-outform", "DER"], check=True,
                                       capture_output=True).stdout)
        write("client-certificates", "pem-bundle", b"\x00# bundle\n" + pems[0] + b"-----BEGIN PRIVATE KEY-----\nAAAA\n"
              b"-----END PRIVATE KEY-----\n" + pems[1].replace(b"\n", b"\r\n"))
        write("client-certificates", "der-ec", b"\x01" + ders[0])
        write("client-certificates", "der-rsa", b"\x01" + ders[1])


if __name__ == "__main__":
    sys.exit(main())
