#!/usr/bin/env bash
# Builds the release LegacyDemo that Scripts/bench.sh, cost.sh and bench-origin.sh measure, and prints its path.
# On Linux the binary links the Swift runtime and Foundation statically (`--static-swift-stdlib`, in .build-static),
# the way Swift server applications are deployed there: an idle subscribed client is then about 6 MB smaller
# resident than with the shared libraries (BENCHMARKS.md, "The goals of issue 29"). `--dynamic` builds the usual
# .build one.
# Usage: Scripts/release-build.sh [--dynamic]   (the build's output is shown only when it fails)
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --product LegacyDemo)
case "${1:-}" in
    "") [ "$(uname -s)" = Linux ] && flags+=(--static-swift-stdlib --scratch-path .build-static) ;;
    --dynamic) ;;
    *) echo "usage: Scripts/release-build.sh [--dynamic]" >&2; exit 2 ;;
esac
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# The static link prints glibc's warning about Foundation's use of mktemp; it is not ours, so the log is kept quiet.
swift build "${flags[@]}" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
echo "$(swift build "${flags[@]}" --show-bin-path)/LegacyDemo"
