#!/usr/bin/env bash
# The client's figures beside the official PubNub Python SDK's, on one LocalOrigin, on this machine.
#   1. starts one release `LegacyDemo origin --port 0`;
#   2. `LegacyDemo bench --origin …` (release build): publish throughput, latency, delivery, fan-out, crypto, RSS;
#   3. Scripts/bench_python_sdk.py: workloads 1–3 with the pinned Python SDK (Tests/Interop/requirements.txt);
#   4. `wrk -t1 -c1` on a publish URL: the origin's own limit for publishes on one connection.
# Then prints the figures side by side, `RATIO <name> <value>` lines oriented so that > 1 means this layer is
# better (throughputs: ours / Python's; latencies: Python's / ours), and `GOAL` lines (met or missed).
# Installs what it needs on a fresh clone: the venv (.venv-interop, as Scripts/test.sh) and `wrk` (Debian).
# Usage: Scripts/bench.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
quick=()
case "${1:-}" in
    "") ;;
    --quick) quick=(--quick) ;;
    *) echo "usage: Scripts/bench.sh [--quick]" >&2; exit 2 ;;
esac

if ! command -v wrk >/dev/null; then
    echo "installing wrk (Debian package)" >&2
    (apt-get update -qq && apt-get install -y -qq wrk) >/dev/null
fi
venv=.venv-interop
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check -r Tests/Interop/requirements.txt
echo "building LegacyDemo (release)" >&2
swift build -c release --product LegacyDemo >/dev/null
bin="$(swift build -c release --show-bin-path)/LegacyDemo"

work="$(mktemp -d)"
"$bin" origin --port 0 >"$work/origin.log" 2>&1 &
origin_pid=$!
trap 'kill "$origin_pid" 2>/dev/null; wait "$origin_pid" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do grep -q '^listening on ' "$work/origin.log" && break; sleep 0.1; done
address="$(sed -n 's/^listening on //p' "$work/origin.log" | head -1)"
[ -n "$address" ] || { echo "the origin did not start:"; cat "$work/origin.log"; exit 1; }

echo "# machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo "# $(swift --version 2>&1 | head -1); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# origin: release LegacyDemo origin at $address; command: Scripts/bench.sh${quick[*]:+ ${quick[*]}}"

"$bin" bench --origin "$address" "${quick[@]}" | tee "$work/layer.txt"
"$venv/bin/python" Scripts/bench_python_sdk.py "$address" "${quick[@]}" | tee "$work/python.txt"
wrk_seconds=5
[ ${#quick[@]} -gt 0 ] && wrk_seconds=2
rps="$(wrk -t1 -c1 -d"${wrk_seconds}s" "http://$address/publish/demo/demo/0/bench-wrk/0/%22hello%22?uuid=wrk" \
    | awk '/Requests\/sec/ {print $2}')"
echo "BENCH http_publish_c1 $rps requests/s" | tee "$work/http.txt"

awk '
    FNR == 1 { file++ }
    $1 == "BENCH" && file == 1 { ours[$2] = $3; unit[$2] = $4; order[++n] = $2 }
    $1 == "BENCH" && file == 2 { theirs[$2] = $3 }
    $1 == "BENCH" && file == 3 { http = $3 }
    END {
        printf "\n%-28s %14s %14s  %s\n", "figure", "LegacyDemo", "Python SDK", "unit"
        for (i = 1; i <= n; i++) {
            f = order[i]
            printf "%-28s %14s %14s  %s\n", f, ours[f], (f in theirs ? theirs[f] : "-"), unit[f]
        }
        printf "%-28s %14s %14s  %s\n", "http_publish_c1 (wrk)", http, "", "requests/s"
        print ""
        split("publish_throughput delivery_throughput", higher, " ")
        split("latency_p50 latency_p99", lower, " ")
        for (i in higher) if (theirs[higher[i]] > 0) ratio[higher[i]] = ours[higher[i]] / theirs[higher[i]]
        for (i in lower) if (ours[lower[i]] > 0) ratio[lower[i]] = theirs[lower[i]] / ours[lower[i]]
        split("publish_throughput latency_p50 latency_p99 delivery_throughput", names, " ")
        for (i = 1; i <= 4; i++) {
            if (!(names[i] in ratio)) { print "missing figure " names[i] > "/dev/stderr"; exit 1 }
            printf "RATIO %s %.2f\n", names[i], ratio[names[i]]
        }
        printf "RATIO publish_vs_http_c1 %.2f\n", (http > 0 ? ours["publish_throughput"] / http : 0)
        print "# RATIO > 1: this layer is better (throughput: ours / Python; latency: Python / ours)."
        print "# publish_vs_http_c1: our publishes/s over raw keep-alive HTTP publishes/s on one connection."
        goal("publish >= 3x Python SDK", ratio["publish_throughput"] >= 3)
        goal("latency p50 <= 1 ms", ours["latency_p50"] <= 1)
        goal("latency p99 <= 5 ms and <= 1/3 of Python", ours["latency_p99"] <= 5 && ratio["latency_p99"] >= 3)
        goal("delivery >= 20000 msg/s", ours["delivery_throughput"] >= 20000)
        goal("delivery lost = 0", ours["delivery_lost"] == 0)
        goal("fan-out <= 5 us/event", ours["fanout_per_event"] <= 5)
        goal("100k-message answer: peak RSS <= 200 MB", ours["batch_100k_peak_rss"] <= 200 * 1024)
        goal("100k-message answer: RSS back within 50 MB", ours["batch_100k_rss_growth"] <= 50 * 1024)
        goal("100k-message answer: delivery >= 50000 msg/s", ours["batch_100k_delivery"] >= 50000)
    }
    function goal(text, met) { printf "GOAL %s: %s\n", (met ? "met" : "MISSED"), text }
' "$work/layer.txt" "$work/python.txt" "$work/http.txt"
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
