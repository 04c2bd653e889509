#!/usr/bin/env bash
# The DocC documentation of the four libraries, built with the toolchain's own `swift-symbolgraph-extract` and
# `docc` (no package plugin), warnings as errors:
#   1. the generated guide articles (Scripts/docc-articles.py: MIGRATION.md and README.md as DocC articles, and the
#      PubNub class's topics) are what the documents give;
#   2. each library's public symbol graph is extracted from the debug build's modules (`swift build` first);
#   3. `docc convert` builds each catalog (Sources/<Module>/<Module>.docc) with its symbols — an unresolved link, a
#      documented parameter that does not exist, any warning fails;
#   4. `docc merge` joins the four into one static site (plain files: any web server, or a folder on GitHub Pages).
#
# Usage: Scripts/build-docs.sh [--output DIR] [--hosting-base-path PATH]
#   --output DIR               where the site goes (default .build-docs/site); serve it, e.g.
#                              python3 -m http.server -d .build-docs/site, and open /documentation/pubnublegacy
#   --hosting-base-path PATH   the path the site is served under (GitHub Pages: /REPOSITORY)
# Takes a few seconds once the modules are built (the test command runs it after its build).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

output="$root/.build-docs/site"
hosting=()
while [ $# -gt 0 ]; do
    case "$1" in
        --output) output="$2"; shift 2 ;;
        --hosting-base-path) hosting=(--hosting-base-path "$2"); shift 2 ;;
        *) echo "usage: Scripts/build-docs.sh [--output DIR] [--hosting-base-path PATH]" >&2; exit 2 ;;
    esac
done

modules=(PubNubLegacy PNObservation PubNubAsync LocalOrigin)
toolchain="$(dirname "$(command -v swift)")"
docc="${DOCC:-$toolchain/docc}"
extract="$toolchain/swift-symbolgraph-extract"
[ -x "$docc" ] || docc="$(command -v docc)" || { echo "build-docs: no docc beside swift" >&2; exit 1; }
[ -x "$extract" ] || { echo "build-docs: no swift-symbolgraph-extract beside swift" >&2; exit 1; }
bin="$(swift build --show-bin-path)"
triple="$(basename "$(dirname "$bin")")"
for module in "${modules[@]}"; do
    [ -f "$bin/Modules/$module.swiftmodule" ] \
        || { echo "build-docs: $bin/Modules/$module.swiftmodule is missing: run swift build first" >&2; exit 1; }
done

python3 Scripts/docc-articles.py --check

work="$root/.build-docs"
rm -rf "$work/symbol-graphs" "$work/archives"
mkdir -p "$work/symbol-graphs" "$work/archives"
for module in "${modules[@]}"; do
    mkdir -p "$work/symbol-graphs/$module"
    "$extract" -module-name "$module" -target "$triple" -I "$bin/Modules" -minimum-access-level public \
        -skip-inherited-docs -output-dir "$work/symbol-graphs/$module"
    "$docc" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$work/symbol-graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "pubnublegacy.$module" \
        --output-path "$work/archives/$module.doccarchive" \
        --warnings-as-errors ${hosting[@]+"${hosting[@]}"} >"$work/$module.log" 2>&1 \
        || { cat "$work/$module.log"; echo "build-docs: $module's documentation has errors or warnings" >&2; exit 1; }
    echo "$module: $(grep -c '' "Sources/$module/$module.docc/"*.md "Sources/$module/$module.docc/Generated/"*.md \
        | awk -F: '{ lines += $2 } END { print lines }') lines of articles, $(python3 -c \
        'import json, sys; print(len(json.load(open(sys.argv[1]))["symbols"]))' \
        "$work/symbol-graphs/$module/$module.symbols.json") symbols"
done

rm -rf "$output"
mkdir -p "$(dirname "$output")"
archives=()
for module in "${modules[@]}"; do archives+=("$work/archives/$module.doccarchive"); done
"$docc" merge "${archives[@]}" --output-path "$output" \
    --synthesized-landing-page-name PubNubLegacy --synthesized-landing-page-kind Package \
    --synthesized-landing-page-topics-style list >"$work/merge.log" 2>&1 \
    || { cat "$work/merge.log"; exit 1; }
for module in "${modules[@]}"; do
    page="$output/documentation/$(tr 'A-Z' 'a-z' <<<"$module")/index.html"
    [ -f "$page" ] || { echo "build-docs: the site has no $page" >&2; exit 1; }
done
echo "build-docs: site in ${output#"$root/"} (open documentation/pubnublegacy/index.html through a web server)"
