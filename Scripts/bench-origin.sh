#!/usr/bin/env bash
# LocalOrigin throughput on this machine: /time/0 and publish with 1 and 16 keep-alive connections (wrk, from
# Debian's packages, installed if missing), and one publish fanned out to 1,000 parked subscribers.
# Usage: Scripts/bench-origin.sh [SECONDS per wrk run, default 5]
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-5}"

if ! command -v wrk >/dev/null; then
    echo "installing wrk (Debian package)"
    (apt-get update -qq && apt-get install -y -qq wrk) >/dev/null
fi
bin="$(Scripts/release-build.sh)"

log="$(mktemp)"
"$bin" origin --port 0 >"$log" &
origin_pid=$!
trap 'kill "$origin_pid" 2>/dev/null; wait "$origin_pid" 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 100); do grep -q '^listening on ' "$log" && break; sleep 0.1; done
address="$(sed -n 's/^listening on //p' "$log" | head -1)"
[ -n "$address" ] || { echo "origin did not start"; exit 1; }
echo "origin at $address ($(nproc) cores; wrk shares them with the origin)"

run_wrk() { # name connections path
    local threads=$(( $2 < 2 ? 1 : 2 ))
    local rps
    rps="$(wrk -t"$threads" -c"$2" -d"${duration}s" "http://$address$3" | awk '/Requests\/sec/ {print $2}')"
    echo "BENCH $1 $rps requests/s"
}
run_wrk origin_time_c1 1 /time/0
run_wrk origin_time_c16 16 /time/0
run_wrk origin_publish_c1 1 '/publish/pub-c-bench/sub-c-bench/0/bench-ch/0/%22hello%22?uuid=wrk'
run_wrk origin_publish_c16 16 '/publish/pub-c-bench/sub-c-bench/0/bench-ch/0/%22hello%22?uuid=wrk'
python3 Scripts/origin_fanout.py "$address" --subscribers 1000 --rounds 5
