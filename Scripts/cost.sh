#!/usr/bin/env bash
# Deterministic cost figures: instructions (callgrind), system calls (perf stat, or strace -c) and context switches
# (getrusage) per sequential publish and per delivered message, and an idle subscribed client's resident memory and
# threads — for this client (release LegacyDemo) and the official Python SDK, against one LocalOrigin in one run.
# Scripts/cost.py says how each figure is taken; BENCHMARKS.md has the latest run.
# Installs what it needs on a fresh clone: valgrind (Debian) and the .venv-interop venv (as Scripts/test.sh).
# Usage: Scripts/cost.sh [--against [NAME=]LEGACY_DEMO_BINARY]... [--no-python] [--no-callgrind] [--keep DIRECTORY]
#                       [--workloads publish,pipelined,sequential,receive,origin,idle] [--dynamic]
#   --against [NAME=]BINARY: also measure another LegacyDemo build (e.g. an earlier commit's release binary) in the
#   same run, in a column NAME (repeatable);
#   --keep: leave the callgrind profiles and perf/strace reports in DIRECTORY (for callgrind_annotate);
#   --dynamic: measure LegacyDemo linked to the shared Swift libraries (Scripts/release-build.sh; on Linux the
#   default links them statically).
set -euo pipefail
cd "$(dirname "$0")/.."
extra=()
linking=()
python=yes
while [ $# -gt 0 ]; do
    case "$1" in
        --against) extra+=(--against "$2"); shift 2 ;;
        --no-callgrind) extra+=(--no-callgrind); shift ;;
        --keep) extra+=(--keep "$2"); shift 2 ;;
        --workloads) extra+=(--workloads "$2"); shift 2 ;;
        --no-python) python=no; shift ;;
        --dynamic) linking=(--dynamic); shift ;;
        *) echo "usage: Scripts/cost.sh [--against [NAME=]BINARY]... [--no-python] [--no-callgrind] [--keep DIRECTORY]" \
               "[--workloads publish,pipelined,sequential,receive,origin,idle] [--dynamic]" >&2
           exit 2 ;;
    esac
done
if ! command -v valgrind >/dev/null; then
    echo "installing valgrind (Debian package)" >&2
    (apt-get update -qq && apt-get install -y -qq valgrind) >/dev/null
fi
if ! command -v perf >/dev/null && ! command -v strace >/dev/null; then
    echo "installing strace (Debian package)" >&2
    (apt-get update -qq && apt-get install -y -qq strace) >/dev/null
fi
if [ "$python" = yes ]; then
    venv=.venv-interop
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r Tests/Interop/requirements.txt
    extra+=(--python "$venv/bin/python")
fi
echo "building LegacyDemo (release${linking[*]:+, ${linking[*]#--}})" >&2
bin="$(Scripts/release-build.sh "${linking[@]}")"
linked="Swift runtime and Foundation linked in statically"
if readelf -d "$bin" 2>/dev/null | grep libswiftCore >/dev/null; then linked="shared Swift runtime and Foundation"; fi
echo "# machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo "# $(swift --version 2>&1 | head -1); commit $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (modified)')"
echo "# LegacyDemo: $linked"
exec python3 -u Scripts/cost.py --bin "$bin" "${extra[@]}"
