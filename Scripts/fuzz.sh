#!/usr/bin/env bash
# Builds and runs the libFuzzer targets in Fuzz/ (Fuzz/README.md lists what each one reads and checks).
#
#   Scripts/fuzz.sh TARGET|all [SECONDS]   fuzz one target or each in turn, SECONDS each (default 60; 0: only run the
#                                          corpus once, no new inputs)
#   Scripts/fuzz.sh TARGET FILE...         run the target on saved inputs (a crash file, a corpus entry) and stop
#   Scripts/fuzz.sh list                   print the target names
#
# Each module is compiled once per change into a static library with AddressSanitizer and fuzzer coverage, and each
# harness is linked against it; everything lands in .build-fuzz/ (git-ignored): O/ or Onone/ (libraries and
# binaries per optimization level), corpus/TARGET (what the fuzzer learnt, seeded from Fuzz/Corpus/TARGET),
# artifacts/TARGET (crashes, leaks, slow inputs). Any crash, leak, input slower than 1 s or RSS above 2 GB ends the
# run with a non-zero status, except a timeout that does not reproduce: its input is run again at once, and if it
# then takes less than 1 s the run was starved by a loaded machine (the limit is wall-clock time), which is reported
# as `result=stalled` and does not fail. The last line of each run is
# `FUZZ TARGET runs=N cov=N ft=N corpus=N seconds=N result=ok|stalled|FAILED`.
# Only the Swift toolchain is needed: it ships libFuzzer, ASan and lld. FUZZ_FLAGS adds libFuzzer flags;
# FUZZ_OPT=-Onone builds about three times faster and runs slower (Scripts/test.sh's smoke run uses it).
set -euo pipefail
cd "$(dirname "$0")/.."

out=.build-fuzz
opt=${FUZZ_OPT:--O}
case "$opt" in
-O | -Onone) ;;
*) echo "FUZZ_OPT must be -O or -Onone, not $opt" >&2; exit 2 ;;
esac
build="$out/${opt#-}"
targets=(origin-http-parser origin-json origin-router client-http-response client-responses client-decrypt
    client-arguments client-certificates)

usage() {
    sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

module_of() {
    case "$1" in
    origin-*) echo LocalOrigin ;;
    client-*) echo PubNubLegacy ;;
    *) echo "unknown target: $1 (Scripts/fuzz.sh list)" >&2; exit 2 ;;
    esac
}

adapter_of() {
    case "$1" in
    LocalOrigin) echo Fuzz/Adapters/OriginEntryPoints.swift ;;
    PubNubLegacy) echo Fuzz/Adapters/ClientEntryPoints.swift ;;
    esac
}

dictionary_of() {
    case "$1" in
    origin-http-parser | client-http-response) echo http ;;
    origin-router) echo router ;;
    *) echo json ;;
    esac
}

# True when $1 is missing or older than any of the other paths.
stale() {
    local product=$1
    shift
    [ -e "$product" ] || return 0
    [ -n "$(find "$@" -newer "$product" -print -quit)" ]
}

swift_flags=("$opt" -g -swift-version 6 -warnings-as-errors -parse-as-library -sanitize=fuzzer,address)

# PlatformSupport (the lock box, latch and POSIX shim both modules use) is built first; the others import it.
build_module() {
    local module=$1
    local lib="$build/lib/lib$module.a"
    [ "$module" = PlatformSupport ] || build_module PlatformSupport
    if stale "$lib" "Sources/$module" Sources/PlatformSupport Scripts/fuzz.sh; then
        echo "==> building $module with ASan and fuzzer coverage" >&2
        mkdir -p "$build/lib"
        local sources=()
        while IFS= read -r file; do sources+=("$file"); done < <(find "Sources/$module" -name '*.swift' | sort)
        swiftc "${swift_flags[@]}" -enable-testing -emit-library -static -module-name "$module" -I "$build/lib" \
            -package-name pubnublegacy -emit-module -emit-module-path "$build/lib/$module.swiftmodule" \
            -o "$lib" "${sources[@]}"
    fi
}

build_target() {
    local target=$1 module
    module=$(module_of "$target")
    build_module "$module"
    local bin="$build/bin/$target" adapter
    adapter=$(adapter_of "$module")
    local inputs=("Fuzz/Targets/$target.swift" "$adapter" Fuzz/Support/*.swift)
    if stale "$bin" "$build/lib/lib$module.a" "$build/lib/libPlatformSupport.a" "${inputs[@]}"; then
        echo "==> linking $target" >&2
        mkdir -p "$build/bin"
        swiftc "${swift_flags[@]}" -use-ld=lld -I "$build/lib" -L "$build/lib" -l"$module" -lPlatformSupport -o "$bin" \
            "${inputs[@]}"
    fi
}

# Symbolized reports, leaks checked, and a crash report that names the file to replay.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:symbolize=1}"
# Swift's own crash backtracer would fight ASan for the crash; libFuzzer reports it instead.
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0}"
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ] && command -v llvm-symbolizer >/dev/null; then
    export ASAN_SYMBOLIZER_PATH="$(command -v llvm-symbolizer)"
fi

run_target() {
    local target=$1 seconds=$2
    build_target "$target"
    local corpus="$out/corpus/$target" artifacts="$out/artifacts/$target/" seeds="Fuzz/Corpus/$target"
    mkdir -p "$corpus" "$artifacts"
    local flags=(-timeout=1 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 -artifact_prefix="$artifacts")
    flags+=(-dict="Fuzz/Dictionaries/$(dictionary_of "$target").dict")
    if [ "$seconds" = 0 ]; then flags+=(-runs=0); else flags+=(-max_total_time="$seconds"); fi
    # shellcheck disable=SC2206 # FUZZ_FLAGS is a list of flags on purpose
    flags+=(${FUZZ_FLAGS:-})
    local log="$out/$target.log" status=0 started=$SECONDS
    echo "==> fuzzing $target for ${seconds}s (log: $log)" >&2
    "$build/bin/$target" "${flags[@]}" "$corpus" "$seeds" >"$log" 2>&1 || status=$?
    local elapsed=$((SECONDS - started)) runs cov ft size result=ok
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    # The last status line ("#N DONE cov: C ft: F corp: K/…" or a pulse) carries coverage and corpus size.
    local line
    line=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$line")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$line")
    size=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$line")
    local slow
    slow=$(sed -n "s/.*Test unit written to \(.*timeout-[0-9a-f]*\)\$/\1/p" "$log" | tail -1)
    if [ "$status" != 0 ] && [ -n "$slow" ] && "$build/bin/$target" -timeout=1 -runs=1 "$slow" >"$log.replay" 2>&1; then
        result=stalled
        echo "$target: $slow timed out under load but ran in $(sed -n 's/.* in \([0-9]* ms\)$/\1/p' "$log.replay")" \
            "when run again: not a slow input" >&2
        status=0
    elif [ "$status" != 0 ]; then
        result=FAILED
        grep -E 'ERROR: |==ERROR|SUMMARY|Test unit written|fuzz invariant broken|Fatal error' "$log" >&2 || tail -40 "$log" >&2
    fi
    echo "FUZZ $target runs=${runs:-0} cov=${cov:-0} ft=${ft:-0} corpus=${size:-0} seconds=$elapsed result=$result"
    return "$status"
}

replay() {
    local target=$1
    shift
    build_target "$target"
    "$build/bin/$target" -timeout=1 -rss_limit_mb=2048 "$@"
}

[ $# -ge 1 ] || usage
case "$1" in
list)
    printf '%s\n' "${targets[@]}"
    ;;
all)
    seconds=${2:-60}
    failed=()
    for target in "${targets[@]}"; do build_target "$target"; done
    for target in "${targets[@]}"; do run_target "$target" "$seconds" || failed+=("$target"); done
    if [ ${#failed[@]} -gt 0 ]; then
        echo "fuzzing failed: ${failed[*]} (inputs under $out/artifacts/)" >&2
        exit 1
    fi
    ;;
-h | --help)
    usage
    ;;
*)
    module_of "$1" >/dev/null
    if [ $# -ge 2 ] && [ -e "$2" ]; then
        replay "$@"
    else
        [ $# -le 2 ] || usage
        run_target "$1" "${2:-60}"
    fi
    ;;
esac
