#!/usr/bin/env bash
# A newcomer's first steps, as MIGRATION.md §1 and §3 give them, against this checkout, in an empty folder:
#   1. the MIGRATION.md §1 manifest word for word but its URL, pointed at a bare clone of this checkout named as
#      the URL names it (`PubNubLegacy.git`) and tagged with the release number (`kPNPackageVersion`, the tag
#      CHANGELOG.md says each release carries): `from: "X.Y.Z"` resolves, and the products and package names
#      are right;
#   2. the same manifest by path (a local clone): a new executable whose main.swift is MIGRATION.md §3's offline
#      example ("Developing offline with LocalOrigin"), built with warnings as errors and run, in Swift 6 language
#      mode and then in Swift 5 mode (the library builds once; only the app is built twice).
# The build goes to .build-newcomer, kept between runs (about 35 s of CPU the first time on 2 cores, a few seconds
# after). Needs git and the Swift toolchain only; every request stays on loopback.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$root/.build-newcomer"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fail() { echo "check-newcomer: $*" >&2; exit 1; }

version="$(sed -n 's/^public let kPNPackageVersion = "\(.*\)"$/\1/p' "$root/Sources/PubNubLegacy/Client/PackageVersion.swift")"
[ -n "$version" ] || fail "kPNPackageVersion not found"
manifest="$(python3 "$root/Scripts/extract-snippets.py" --print manifest)"
example="$(python3 "$root/Scripts/extract-snippets.py" --print run "Developing offline with LocalOrigin")"
url="$(grep -o 'url: "[^"]*"' <<<"$manifest" | head -1 | cut -d'"' -f2)"
[ -n "$url" ] || fail "the MIGRATION.md §1 manifest has no .package(url:)"
name="$(basename "$url" .git)"
grep -q "from: \"$version\"" <<<"$manifest" || fail "the MIGRATION.md §1 manifest does not ask for from: \"$version\""

# 1. By URL. The bare clone holds the checkout as it is (uncommitted changes to tracked files included).
git -C "$root" rev-parse --git-dir >/dev/null 2>&1 || fail "$root is not a git checkout (the URL form needs a clone)"
revision="$(git -C "$root" stash create)"
revision="${revision:-HEAD}"
remote="$work/remote/$name.git"
git init -q --bare "$remote"
git -C "$root" push -q "$remote" "$revision:refs/heads/main"
git -C "$remote" tag "$version" main
mkdir -p "$work/by-url/Sources/ChatApp"
sed "s|$url|file://$remote|" <<<"$manifest" >"$work/by-url/Package.swift"
printf '%s\n' "$example" >"$work/by-url/Sources/ChatApp/main.swift"
echo "by URL: file://$remote, from: \"$version\""
for command in resolve describe; do
    swift package --package-path "$work/by-url" --scratch-path "$work/by-url/.build" "$command" >"$work/out.txt" 2>&1 \
        || { cat "$work/out.txt"; fail "swift package $command: the MIGRATION.md §1 manifest does not work by URL"; }
done
resolved="$(python3 -c 'import json,sys; pins = json.load(open(sys.argv[1]))["pins"]; print(pins[0]["identity"], pins[0]["state"].get("version"))' "$work/by-url/Package.resolved")"
[ "$resolved" = "$(tr 'A-Z' 'a-z' <<<"$name") $version" ] || fail "resolved $resolved, expected $name $version"
echo "  resolved $resolved"

# 2. By path, built and run in both language modes. The folder is named as the URL names the package, so the
# manifest's `package:` names stay valid (MIGRATION.md §1 says what changes otherwise).
ln -s "$root" "$work/$name"
mkdir -p "$work/by-path/Sources/ChatApp"
printf '%s\n' "$example" >"$work/by-path/Sources/ChatApp/main.swift"
printf '%s\n' "$manifest" >"$work/manifest.swift"
for mode in 6 5; do
    python3 - "$work/manifest.swift" "$work/by-path/Package.swift" "$mode" "../$name" "$url" <<'EOF'
import re, sys
source, path, mode, dependency, url = sys.argv[1:]
text = open(source).read()
text, count = re.subn(r'\.package\(\s*url:\s*"' + re.escape(url) + r'"[^)]*\)', f'.package(path: "{dependency}")', text)
if count != 1:
    sys.exit(f"the manifest's .package(url: {url}) was not found")
closing = text.rindex(")")
text = text[:closing].rstrip() + f",\n    swiftLanguageModes: [.v{mode}]\n)\n"
open(path, "w").write(text)
EOF
    echo "by path, Swift $mode mode: build and run MIGRATION.md §3's offline example"
    swift build --package-path "$work/by-path" --scratch-path "$scratch" -Xswiftc -warnings-as-errors >"$work/build.txt" 2>&1 \
        || { cat "$work/build.txt"; fail "the app does not build in Swift $mode mode"; }
    # The example checks itself: it ends with status 0 only when it received the text it published.
    output="$("$scratch/debug/ChatApp" 2>&1)" || fail "the app failed in Swift $mode mode: $output"
    echo "  the app received its message${output:+ (its output: $output)}"
done
echo "check-newcomer: OK"
