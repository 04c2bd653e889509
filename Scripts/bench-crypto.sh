#!/usr/bin/env bash
# Our pure-Swift AES-256-CBC (the 3.4 message scheme) beside OpenSSL, on this machine, in one run:
# µs per 1 KiB message (encrypt, decrypt) and MB/s on 1 MiB.
#   swift_*        MessageCryptorThroughputTests in a release build: JSON text -> "base64" and back (AES-256-CBC,
#                  PKCS#7, base64, UTF-8 check), best of 9 rounds.
#   openssl_*      the same work per message through Python's `cryptography` (OpenSSL), same rounds
#                  (Scripts/bench_crypto_openssl.py); its 1 KiB figures include Python's call overhead.
#   openssl_cli_*  `openssl speed -evp aes-256-cbc` at 1024 and 1048576 bytes: raw AES only, no padding or base64.
# RATIO lines say how many times longer our code takes than OpenSSL for the same figure (> 1: slower).
# Usage: Scripts/bench-crypto.sh
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.venv-interop
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check -r Scripts/bench-requirements.txt

out="$(mktemp)"
trap 'rm -f "$out" "$out.bench"' EXIT

echo "# $(nproc) cores; $(swift --version 2>&1 | head -1)"
swift test -c release -Xswiftc -enable-testing --filter MessageCryptorThroughputTests >"$out" 2>&1 || {
    cat "$out"
    exit 1
}
grep '^BENCH ' "$out" | tee "$out.bench"
"$venv/bin/python" Scripts/bench_crypto_openssl.py | tee -a "$out.bench"

echo "# $(openssl version)"
speed() { # name direction bytes unit
    local rate
    rate="$(openssl speed -evp aes-256-cbc $2 -bytes "$3" -seconds 1 2>/dev/null | awk '/^AES-256-CBC/ {sub("k", "", $2); print $2}')"
    if [ "$4" = us ]; then
        awk -v n="$1" -v b="$3" -v r="$rate" 'BEGIN { printf "BENCH %s %.3f us\n", n, b / (r * 1000) * 1e6 }'
    else
        awk -v n="$1" -v r="$rate" 'BEGIN { printf "BENCH %s %.3f MB/s\n", n, r / 1000 }'
    fi
}
{
    speed openssl_cli_encrypt_1KiB "" 1024 us
    speed openssl_cli_decrypt_1KiB -decrypt 1024 us
    speed openssl_cli_encrypt_1MiB "" 1048576 MB/s
    speed openssl_cli_decrypt_1MiB -decrypt 1048576 MB/s
} | tee -a "$out.bench"

awk '
    $1 == "BENCH" { value[$2] = $3 }
    END {
        split("encrypt_1KiB decrypt_1KiB encrypt_1MiB decrypt_1MiB", figures, " ")
        for (i = 1; i <= 4; i++) {
            f = figures[i]
            for (j = 1; j <= 2; j++) {
                peer = (j == 1 ? "openssl_" : "openssl_cli_") f
                if (!(("swift_" f) in value) || !(peer in value)) { print "missing figure for " f > "/dev/stderr"; exit 1 }
                # µs figures: ours / theirs; MB/s figures: theirs / ours. Both are "times longer than OpenSSL".
                ratio = (f ~ /1KiB/) ? value["swift_" f] / value[peer] : value[peer] / value["swift_" f]
                printf "RATIO swift_vs_%s %.2f\n", peer, ratio
            }
        }
    }
' "$out.bench"
