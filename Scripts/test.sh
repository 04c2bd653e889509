#!/usr/bin/env bash
# The project's test command (README "Test"). Runs on a fresh clone: everything it reads is in the repository, and
# what it installs it says (the pinned Python SDK from PyPI, the openssl and tmux tools with apt-get when missing).
# Checks that every citation resolves in docs/, builds with warnings as errors, type-checks the Apple-only files
# against SDK stand-ins and a Swift 5 app against the modules, checks the format, builds the DocC documentation,
# builds a newcomer's app on the package, creates the venv with the pinned official PubNub Python SDK (the Swift
# suites use it as a peer), runs the Swift suites (plain and under ThreadSanitizer), then the interop suite that
# drives that SDK against LocalOrigin, then every fuzz target for a few seconds and a quick run of
# `LegacyDemo bench`, as smoke tests. Set SKIP_TSAN=1 to skip the sanitizer run while iterating.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

# First, because it takes a second: every document, section and scenario the code cites exists in this repository
# (the script first checks itself on planted bad citations).
step "citations: every reference in Sources, Tests, Scripts and Package.swift resolves in docs/"
python3 Scripts/check-citations.py

# Tests are built here too. The migration check reads the symbol graphs of the modules built here, and the Apple
# type check imports them.
step "build, tests included (warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

# Nothing Apple-only is built here: the seam files that only Apple platforms compile are type-checked against the
# stand-ins of Tests/AppleStandIns, after the script checks that no other file holds platform code and that a
# misspelled call in each seam file fails (Scripts/check-apple-branches.py). Needs the modules of the build above.
step "Apple-only code: type-checked against the SDK stand-ins (the script first tests itself)"
python3 Scripts/check-apple-branches.py

# A Swift 5 app depends on this package unchanged (the manifest's tools version only asks for Swift 6.1; the language
# mode is per package): Tests/Swift5Consumer, MIGRATION.md §3's delegate and more, type-checked in Swift 5 mode with
# warnings as errors against the modules built above.
step "a Swift 5 app: Tests/Swift5Consumer type-checked in Swift 5 mode (warnings are errors)"
swiftc -typecheck -swift-version 5 -warnings-as-errors -I "$(swift build --show-bin-path)/Modules" \
    Tests/Swift5Consumer/main.swift
echo "Swift 5 consumer: OK"

step "format lint"
swift format lint --strict -r Package.swift Sources Tests Fuzz

step "migration guide: MIGRATION.md against the public symbols and docs/API-3.4.md; snippets up to date"
python3 Scripts/check-migration.py

# The DocC documentation of the four libraries with the toolchain's docc, warnings as errors, and its static site
# (a few seconds on the modules just built); the guide articles generated from MIGRATION.md must be current.
step "documentation: DocC catalogs (warnings are errors) and the static site"
Scripts/build-docs.sh

# MIGRATION.md §1 and §3 as a newcomer follows them: a new app in an empty folder depends on the package by file://
# URL (a tagged clone) and by path, and builds and runs the offline example in Swift 6 and Swift 5 mode.
step "newcomer: a fresh app with MIGRATION.md's manifest, by URL and by path, Swift 6 and 5"
Scripts/check-newcomer.sh

# The Swift suites start the pinned Python SDK as a peer (Tests/Interop/peer.py), so the venv comes first.
step "interop venv: pinned official PubNub Python SDK"
venv=.venv-interop
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check -r Tests/Interop/requirements.txt

# The TLS suites make a test CA at run time with the `openssl` tool (Scripts/tls_terminator.py, which serves TLS
# with Python's own ssl module). Debian's Swift images do not always carry the tool.
step "TLS test tools: the openssl command"
if ! command -v openssl >/dev/null; then
    echo "installing openssl (Debian package)"
    (apt-get update -qq && apt-get install -y -qq openssl) >/dev/null
fi
python3 -c 'import ssl' || { echo "python3 lacks the ssl module, which the TLS terminator needs"; exit 1; }
openssl version

# The console's terminal tests (Tests/LegacyDemoTests/ConsoleTerminalTests.swift) type into it in a real terminal
# emulator, tmux, and read its screen back.
step "console test tools: tmux"
if ! command -v tmux >/dev/null; then
    echo "installing tmux (Debian package)"
    (apt-get update -qq && apt-get install -y -qq --no-install-recommends tmux) >/dev/null
fi
tmux -V

step "swift test"
swift test -Xswiftc -warnings-as-errors

if [ "${SKIP_TSAN:-0}" != "1" ]; then
    # One test at a time: the sanitizer slows every thread several-fold, and on a 2-core machine a parallel run
    # starves the clients' 10 s request timers into firing, which tests would report as false 106 failures.
    step "swift test under ThreadSanitizer (serial)"
    swift test --sanitize=thread --scratch-path .build-tsan -Xswiftc -warnings-as-errors --no-parallel
fi

step "interop: official PubNub Python SDK against LocalOrigin"
LEGACY_DEMO_BIN="$(swift build --show-bin-path)/LegacyDemo" \
    "$venv/bin/python" -m pytest -q -p no:cacheprovider Tests/Interop

# Every libFuzzer target (Fuzz/README.md) briefly, from its seeds: a crash, leak or slow input fails the run. Builds
# the two modules with AddressSanitizer first, unoptimized (-Onone compiles three times faster than -O; the whole
# step took 2 min 20 s on 2 busy cores). FUZZ_SECONDS lengthens it.
step "fuzz smoke: every target for ${FUZZ_SECONDS:-10} s"
FUZZ_OPT=-Onone Scripts/fuzz.sh all "${FUZZ_SECONDS:-10}"

# A smoke test of the benchmark (Scripts/bench.sh runs it in a release build): every workload runs and reports.
# Debug build, quick counts; no figure is judged.
step "LegacyDemo bench --quick (debug build): every figure printed"
bench_out="$("$(swift build --show-bin-path)/LegacyDemo" bench --quick)"
for name in publish_throughput publish_async_throughput publish_sequential publish_async_sequential \
    publish_pipelined_throughput latency_p50 latency_p99 delivery_throughput delivery_lost \
    delivery_pipelined_throughput delivery_pipelined_lost request_new_p50 \
    request_new_p99 request_kept_p50 request_kept_p99 fanout_per_event fanout_bare_per_event \
    fanout_listeners_per_event crypto_encrypt_1KiB crypto_decrypt_1KiB batch_100k_delivery batch_100k_peak_rss \
    batch_100k_rss_growth json_encode_1KiB json_encode_1KiB_foundation json_encode_dict \
    json_encode_dict_foundation rss_start rss_end rss_end_trimmed publish_switches idle_client_rss \
    idle_client_anonymous_rss idle_client_threads; do
    grep -q "^BENCH $name [0-9.-]* [^ ]*\$" <<<"$bench_out" || { echo "missing BENCH $name in:"; echo "$bench_out"; exit 1; }
done
grep -q '^BENCH delivery_lost 0 msg$' <<<"$bench_out" || { echo "delivery lost messages:"; echo "$bench_out"; exit 1; }
grep -q '^BENCH delivery_pipelined_lost 0 msg$' <<<"$bench_out" \
    || { echo "delivery (pipelined publisher) lost messages:"; echo "$bench_out"; exit 1; }
echo "bench smoke test: all figures printed"
