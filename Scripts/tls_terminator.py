#!/usr/bin/env python3
"""A TLS terminator in front of a plain-HTTP origin (`LegacyDemo origin`, LocalOrigin), with test certificates.

Python's `ssl` module serves TLS; certificates are made with the `openssl` command-line tool. Used by the Swift tests
(Tests/PubNubLegacyTests/Support/TLSProxy.swift), Scripts/bench.sh and the README's TLS soak.

  tls_terminator.py ca DIR
      A test CA valid for 2 days: DIR/ca.pem (the certificate a client trusts) and DIR/ca.key.
  tls_terminator.py issue DIR NAME --san SAN [--days-from A --days-to B] [--self-signed]
      DIR/NAME.pem and DIR/NAME.key: a server certificate for SAN (OpenSSL syntax, e.g. "IP:127.0.0.1,DNS:localhost"),
      signed by DIR's CA (or self-signed), valid from A days to B days from now (default -1 .. 2; negative numbers
      are in the past, so --days-from -30 --days-to -1 gives an expired certificate).
  tls_terminator.py serve --upstream PORT (--cert PEM --key PEM | --test-ca DIR) [--port 0] [--mode MODE]
                          [--lifeline] [--cleanup DIR] [--quiet]
      Listens on 127.0.0.1 (port 0: the kernel chooses) and relays every connection to 127.0.0.1:PORT. One port takes
      TLS and plain HTTP alike: a first byte 0x16 opens a TLS handshake, anything else is relayed as it is. Prints
      `listening PORT` first, then one line per connection (unless --quiet): `tls`, `tls-rejected` (the handshake
      failed with the client's alert, e.g. it refused the certificate), `tls-abandoned` (the client closed the
      connection mid-handshake without an alert), `tls-cut` (--mode cut-handshake) or `plain` (followed by the
      request line, `plain GET /time/0?uuid=u HTTP/1.1`, when it has arrived whole by the time it is read).
      --test-ca DIR makes a CA and a certificate for 127.0.0.1/localhost in DIR (printing `ca DIR/ca.pem`) and serves it.
      --mode cut-handshake reads the start of each TLS handshake and closes the connection.
      --lifeline ends the terminator when its standard input closes (tests hold it open); --cleanup DIR deletes DIR
      then. SIGINT/SIGTERM end it too.
"""

import argparse
import datetime
import os
import select
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading

CURVE = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]

CA_CONFIG = """[ ca ]
default_ca = test
[ test ]
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = any
unique_subject = no
copy_extensions = none
[ any ]
commonName = supplied
[ leaf ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = $ENV::SAN
"""


def openssl(arguments, cwd, env=None):
    result = subprocess.run(["openssl"] + arguments, cwd=cwd, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"tls_terminator.py: openssl {arguments[0]} failed: {result.stderr.strip()}")


def make_ca(folder):
    os.makedirs(folder, exist_ok=True)
    openssl(["req", "-x509"] + CURVE + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
            "-subj", "/CN=PubNubLegacy test CA", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign"], folder)
    with open(os.path.join(folder, "ca.cnf"), "w") as config:
        config.write(CA_CONFIG)
    open(os.path.join(folder, "index.txt"), "w").close()
    with open(os.path.join(folder, "serial"), "w") as serial:
        serial.write("01\n")
    return os.path.join(folder, "ca.pem")


def stamp(days):
    moment = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=days)
    return moment.strftime("%Y%m%d%H%M%SZ")


def issue(folder, name, san, days_from=-1.0, days_to=2.0, self_signed=False):
    key, pem = f"{name}.key", f"{name}.pem"
    if self_signed:
        days = max(1, int(days_to))
        openssl(["req", "-x509"] + CURVE + ["-keyout", key, "-out", pem, "-days", str(days), "-subj",
                f"/CN={name}", "-addext", f"subjectAltName={san}"], folder)
    else:
        openssl(["req"] + CURVE + ["-keyout", key, "-out", f"{name}.csr", "-subj", f"/CN={name}"], folder)
        openssl(["ca", "-batch", "-config", "ca.cnf", "-extensions", "leaf", "-cert", "ca.pem", "-keyfile", "ca.key",
                 "-in", f"{name}.csr", "-out", pem, "-startdate", stamp(days_from), "-enddate", stamp(days_to),
                 "-notext"], folder, env=dict(os.environ, SAN=san))
    return os.path.join(folder, pem), os.path.join(folder, key)


SAY_LOCK = threading.Lock()


def say(text):
    # One whole line at a time: connection threads report concurrently, and `print` writes the text and its newline
    # separately (two reports once came out as `plaintls-rejected`).
    with SAY_LOCK:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


def relay(client, origin):
    peers = {client: origin, origin: client}
    while True:
        if isinstance(client, ssl.SSLSocket) and client.pending():
            ready = [client]
        else:
            ready, _, _ = select.select(list(peers), [], [])
        for sock in ready:
            data = sock.recv(65536)
            if not data:
                return
            peers[sock].sendall(data)


def serve_connection(client, context, upstream, mode, quiet):
    origin = None
    try:
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        first = client.recv(1, socket.MSG_PEEK)
        if not first:
            return
        if first[0] == 0x16:
            if mode == "cut-handshake":
                client.recv(5)  # the record header of the ClientHello, then nothing more
                if not quiet:
                    say("tls-cut")
                return
            try:
                client = context.wrap_socket(client, server_side=True)
            except (ssl.SSLError, OSError) as error:
                # A client that refuses the certificate (or the protocol) says so with a TLS alert; one that only
                # closed the connection mid-handshake (it gave up: a timeout or a cancelled request) sent none.
                alert = isinstance(error, ssl.SSLError) and "ALERT" in (error.reason or "")
                if not quiet:
                    say("tls-rejected" if alert else "tls-abandoned")
                return
            if not quiet:
                say("tls")
        elif not quiet:
            # With the request line when it has come whole (a test tells its own client's plain requests, by their
            # `uuid`, from another test's client still trying a port this terminator has been given since).
            head = client.recv(2048, socket.MSG_PEEK)
            line = head.split(b"\r\n", 1)[0] if b"\r\n" in head else b""
            text = "".join(c if " " <= c <= "~" else "?" for c in line.decode("latin-1"))
            say(f"plain {text}" if text else "plain")
        # Connected only now: an origin that refuses shows as a closed connection after the handshake, as a refused
        # plain connection would, never as a TLS failure.
        origin = socket.create_connection(("127.0.0.1", upstream))
        origin.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        relay(client, origin)
    except OSError:
        pass
    finally:
        for sock in (client, origin):
            if sock is not None:
                sock.close()


def serve(args):
    if args.test_ca:
        ca = make_ca(args.test_ca)
        certificate, key = issue(args.test_ca, "origin", "IP:127.0.0.1,DNS:localhost")
        say(f"ca {ca}")
    elif args.cert and args.key:
        certificate, key = args.cert, args.key
    else:
        sys.exit("tls_terminator.py serve: give --cert and --key, or --test-ca DIR")

    def finish(*_):
        if args.cleanup:
            shutil.rmtree(args.cleanup, ignore_errors=True)
        os._exit(0)

    signal.signal(signal.SIGTERM, finish)
    signal.signal(signal.SIGINT, finish)
    if args.lifeline:
        def end_with_parent():
            sys.stdin.buffer.read()
            finish()

        threading.Thread(target=end_with_parent, daemon=True).start()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, key)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", args.port))
    listener.listen(128)
    say(f"listening {listener.getsockname()[1]}")
    while True:
        connection, _ = listener.accept()
        threading.Thread(target=serve_connection, args=(connection, context, args.upstream, args.mode, args.quiet),
                         daemon=True).start()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    ca = commands.add_parser("ca")
    ca.add_argument("folder")
    leaf = commands.add_parser("issue")
    leaf.add_argument("folder")
    leaf.add_argument("name")
    leaf.add_argument("--san", required=True)
    leaf.add_argument("--days-from", type=float, default=-1.0)
    leaf.add_argument("--days-to", type=float, default=2.0)
    leaf.add_argument("--self-signed", action="store_true")
    server = commands.add_parser("serve")
    server.add_argument("--upstream", type=int, required=True)
    server.add_argument("--port", type=int, default=0)
    server.add_argument("--cert")
    server.add_argument("--key")
    server.add_argument("--test-ca")
    server.add_argument("--mode", choices=["relay", "cut-handshake"], default="relay")
    server.add_argument("--lifeline", action="store_true")
    server.add_argument("--cleanup")
    server.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    if args.command == "ca":
        say(make_ca(args.folder))
    elif args.command == "issue":
        certificate, key = issue(args.folder, args.name, args.san, args.days_from, args.days_to, args.self_signed)
        say(f"{certificate} {key}")
    else:
        serve(args)


if __name__ == "__main__":
    main()
