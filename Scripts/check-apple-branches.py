#!/usr/bin/env python3
"""Type-checks, on Linux, the code that only Apple platforms compile.

Nothing Apple-only can be built here, so the package keeps it in seam files (README "Platforms"): a file whose
whole content sits under `#if canImport(Security)` or `#if canImport(Darwin)` is Apple-only, and its counterpart
for every other platform sits under `#if !canImport(…)` with the same names. This script
  1. checks that rule over Sources/: outside seam files, a compile condition about the platform may only choose a
     module to import (`#if canImport(Glibc)` / `import Glibc` / `#elseif canImport(Musl)` … — no `#else`), so no
     branch that Linux does not build hides in a shared file;
  2. compiles the stand-in modules of Tests/AppleStandIns (`Security`, `CoreFoundation`, `Darwin`: exactly the
     Apple names the seam files use, with the signatures of Apple's SDK; each declaration's doc comment must name the SDK header it comes
     from and quote its declaration there) and type-checks, target by target, every Apple-only file with
     the stand-ins on the import path, in Swift 6 mode with warnings as errors, together with the rest of its
     target (so `canImport(Security)` and `canImport(Darwin)` hold and the counterpart files drop out). The files
     that use what a seam file declares are type-checked too, so both sides of each seam must agree. The modules a
     target imports come from the build (`swift build` first). Not checked: that a method meant to meet an
     optional Objective-C requirement (a URLSession delegate method) has its exact labels — swift-corelibs-
     foundation's protocols give every such requirement a default implementation, which any check by conformance
     would find instead.
Before that it tests itself: planted rule breaks must be reported, and each Apple-only file with a misspelled call
to a stand-in name must fail the type check (a check that cannot fail proves nothing). `--self-test` runs only
those.

Usage: Scripts/check-apple-branches.py [--self-test] [--build-path .build/debug]
Python 3 standard library only.
"""

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "Sources"
STAND_INS = ROOT / "Tests" / "AppleStandIns"

SEAM_GUARD = re.compile(r"^#if\s+(!?)canImport\((Security|Darwin)\)\s*$")
DIRECTIVE = re.compile(r"^\s*#(if|elseif|else|endif)\b(.*)$")
PLATFORM = re.compile(
    r"canImport\((?:Darwin|Security|Glibc|Musl|Android|WinSDK|UIKit|AppKit|ObjectiveC|Network|CoreFoundation)\)"
    r"|\bos\(|\btargetEnvironment\(|\barch\(|\b_runtime\("
)
CHAIN = re.compile(r"^#(?:if|elseif)\s+canImport\((Glibc|Musl|Android|Darwin|FoundationNetworking)\)\s*$")
IMPORT = re.compile(r"^(?:@preconcurrency\s+)?import\s+(\w+)\s*$")
DECLARED = re.compile(r"\b(?:class|struct|enum|protocol|actor|func|var|let|typealias|case)\s+([A-Za-z_]\w*)")
CALLED = re.compile(r"(?<!func )\b([A-Za-z_]\w*)\s*\(")


class CheckError(Exception):
    pass


# MARK: - The rule


def code_lines(text):
    """[(line number, stripped line)] of the lines that are not blank and not `//` comments."""
    return [
        (number, line.strip())
        for number, line in enumerate(text.splitlines(), 1)
        if line.strip() and not line.strip().startswith("//")
    ]


def classify(name, text):
    """('apple' | 'counterpart' | 'shared', [problems]) for one Swift file."""
    lines = code_lines(text)
    kind = "shared"
    body = lines
    if lines:
        guard = SEAM_GUARD.match(lines[0][1])
        if guard:
            if lines[-1][1] != "#endif" or not outermost_ends_last(lines):
                return kind, [f"{name}:{lines[0][0]}: a seam file's guard must enclose the whole file"]
            kind = "counterpart" if guard.group(1) else "apple"
            body = lines[1:-1]
    problems = []
    i = 0
    while i < len(body):
        number, line = body[i]
        directive = DIRECTIVE.match(line)
        if directive and directive.group(1) in ("if", "elseif") and PLATFORM.search(directive.group(2)):
            chain = CHAIN.match(line)
            following = body[i + 1][1] if i + 1 < len(body) else ""
            imported = IMPORT.match(following)
            if not (chain and imported and imported.group(1) == chain.group(1)):
                problems.append(
                    f"{name}:{number}: a platform condition outside a seam file may only choose a module to import "
                    f"(`{line}`); move the code into a `+Darwin`/`+Security` seam file and its counterpart"
                )
            else:
                # The chain goes on with `#elseif canImport(M)` / `import M` pairs and ends with `#endif`.
                modules = [chain.group(1)]
                j = i + 2
                while j < len(body) and CHAIN.match(body[j][1]):
                    modules.append(CHAIN.match(body[j][1]).group(1))
                    j += 2
                if j < len(body) and DIRECTIVE.match(body[j][1]) and body[j][1].startswith("#else"):
                    problems.append(
                        f"{name}:{body[j][0]}: an import chain ends with `#endif`, never `#else` (a branch "
                        "Linux does not build)"
                    )
                problems += chain_problems(name, number, modules)
                i = j
                continue
        i += 1
    return kind, problems


def chain_problems(name, number, modules):
    """A C library chain offers every C library Swift has a module for (`Glibc`, `Musl` for the static Linux SDK,
    `Android`) before `Darwin`, which comes last: Linux, and this check with its `Darwin` stand-in, pick the C library
    shared code is written for, and Apple platforms, which have none of the others, pick Darwin."""
    libraries = [module for module in modules if module in ("Glibc", "Musl", "Android", "Darwin")]
    if not libraries:
        return []
    expected = ["Glibc", "Musl", "Android", "Darwin"]
    if libraries != expected:
        return [f"{name}:{number}: a C library import chain is `{' / '.join(expected)}` in that order, not "
                f"`{' / '.join(libraries)}`"]
    return []


def outermost_ends_last(lines):
    """Whether the `#if` on the first code line is closed by the `#endif` on the last one (no `#else` at its level)."""
    depth = 0
    for index, (_, line) in enumerate(lines):
        directive = DIRECTIVE.match(line)
        if not directive:
            continue
        word = directive.group(1)
        if word == "if":
            depth += 1
        elif word in ("else", "elseif") and depth == 1:
            return False
        elif word == "endif":
            depth -= 1
            if depth == 0:
                return index == len(lines) - 1
    return False


def scan(root=SOURCES):
    """{target: {"apple": [paths], "all": [paths]}} and the rule's problems, over every Swift file of Sources/."""
    targets = {}
    problems = []
    for path in sorted(root.rglob("*.swift")):
        target = path.relative_to(root).parts[0]
        kind, found = classify(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"))
        problems += found
        entry = targets.setdefault(target, {"apple": [], "all": []})
        entry["all"].append(path)
        if kind == "apple":
            entry["apple"].append(path)
    return targets, problems


# MARK: - Type checking


def package_name(build):
    """The `-package-name` SwiftPM gave this package's modules (so `package` declarations are visible)."""
    description = build.parent / f"{build.name}.yaml"
    if description.exists():
        found = re.search(r'"-package-name","([^"]+)"', description.read_text(encoding="utf-8"))
        if found:
            return found.group(1)
    return ROOT.name.lower()


STAND_IN_DECLARATION = re.compile(
    r"^(\s*)public\s+(?:final\s+)?(?:convenience\s+)?(func|var|let|typealias|class|struct|enum|init)\b"
)
HEADER = re.compile(r"`[\w/]+\.h`")


def provenance_problems(name, text):
    """Each declaration a stand-in makes for Apple's SDK — at the top level, or a member of an `extension` of a
    Foundation type — says where its signature comes from: its doc comment names the SDK header (`` `SecTrust.h` ``)
    and quotes the declaration. (Fields and cases inside a stand-in's own struct or enum quote their header line
    under the type's comment.)"""
    problems = []
    lines = text.splitlines()
    in_extension = False
    for index, line in enumerate(lines):
        if line and not line[0].isspace():
            in_extension = line.startswith("extension ")
        declaration = STAND_IN_DECLARATION.match(line)
        if not declaration or (declaration.group(1) and not in_extension):
            continue
        comment = []
        j = index - 1
        while j >= 0 and lines[j].strip().startswith("///"):
            comment.insert(0, lines[j].strip())
            j -= 1
        if not HEADER.search(" ".join(comment)):
            problems.append(
                f"{name}:{index + 1}: `{line.strip()}` does not say where its signature comes from (its doc comment "
                "names no SDK header, `` `Header.h` ``, with the declaration it quotes)"
            )
    return problems


def build_stand_ins(folder):
    """Compiles each Tests/AppleStandIns/NAME.swift into module NAME in `folder`; returns the names they declare."""
    names = set()
    for source in sorted(STAND_INS.glob("*.swift")):
        problems = provenance_problems(str(source.relative_to(ROOT)), source.read_text(encoding="utf-8"))
        if problems:
            raise CheckError("a stand-in without its source:\n" + "\n".join(problems))
        run(
            [
                "swiftc", "-emit-module", "-parse-as-library", "-swift-version", "6", "-I", str(folder),
                "-module-name", source.stem,
                str(source), "-emit-module-path", str(folder / f"{source.stem}.swiftmodule"),
            ],
            f"the stand-in module {source.stem}",
        )
        names |= set(DECLARED.findall(source.read_text(encoding="utf-8")))
    return names


def run(command, what):
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        raise CheckError(f"{what} does not compile:\n{result.stdout}{result.stderr}")
    return result


def typecheck(target, files, apple, stand_ins, build, package):
    """Type-checks `apple` (and the files that use what they declare) as part of `target`; None or the errors."""
    declared = set()
    for path in apple:
        declared |= set(DECLARED.findall(path.read_text(encoding="utf-8")))
    primaries = [
        path
        for path in files
        if path in apple or declared & set(re.findall(r"[A-Za-z_]\w*", path.read_text(encoding="utf-8")))
    ]
    command = [
        "swiftc", "-frontend", "-typecheck", "-swift-version", "6", "-warnings-as-errors",
        "-module-name", target, "-package-name", package, "-I", str(stand_ins), "-I", str(build / "Modules"),
    ]
    if not any(path.name == "main.swift" for path in files):
        command.append("-parse-as-library")
    for path in files:
        command += (["-primary-file", str(path)] if path in primaries else [str(path)])
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    return None if result.returncode == 0 else (result.stdout + result.stderr).strip()


def check_targets(targets, stand_ins, build, package):
    checked = []
    for target, entry in sorted(targets.items()):
        if not entry["apple"]:
            continue
        errors = typecheck(target, entry["all"], entry["apple"], stand_ins, build, package)
        if errors:
            raise CheckError(f"{target}: the Apple-only code does not type-check against the stand-ins:\n{errors}")
        checked += entry["apple"]
    return checked


# MARK: - Self-test


def self_test(targets, stand_ins, stand_in_names, build, package):
    """Planted rule breaks are reported; every Apple-only file with a misspelled stand-in call fails to type-check."""
    planted = {
        "an Apple branch in a shared file": "import Foundation\n#if canImport(Darwin)\nlet x = 1\n#endif\n",
        "an #else after a platform test": "#if os(Linux)\nlet x = 1\n#else\nlet x = 2\n#endif\n",
        "an import chain ending in #else": "#if canImport(Glibc)\nimport Glibc\n#else\nimport Darwin\n#endif\n",
        "a seam guard that does not enclose the file": "#if canImport(Security)\nlet x = 1\n#endif\nlet y = 2\n",
    }
    for what, text in planted.items():
        if not classify("planted.swift", text)[1]:
            raise CheckError(f"self-test: {what} was not reported")
    chain = (
        "#if canImport(Glibc)\nimport Glibc\n#elseif canImport(Musl)\nimport Musl\n#elseif canImport(Android)\n"
        "import Android\n#elseif canImport(Darwin)\nimport Darwin\n#endif\n"
    )
    if not classify("chain.swift", "#if canImport(Darwin)\nimport Darwin\n#elseif canImport(Glibc)\nimport Glibc\n#endif\n")[1]:
        raise CheckError("self-test: a chain that picks Darwin first (and forgets Musl and Android) was not reported")
    if classify("chain.swift", chain)[1] or classify("seam.swift", "#if canImport(Darwin)\nlet x = 1\n#endif\n")[0] != "apple":
        raise CheckError("self-test: an import chain or a seam file was refused")
    sourced = "/// `SecTrust.h`: `CFIndex SecTrustGetCertificateCount(SecTrustRef trust);`.\npublic func f() {}\n"
    unsourced = {
        "a top-level function": "/// Counts.\npublic func f() {}\n",
        "an extension member": (
            "extension URLCredential {\n    /// `init(trust:)`.\n    public convenience init() {}\n}\n"
        ),
        "a declaration without a comment": "public var errSecSuccess: Int32 { 0 }\n",
    }
    if provenance_problems("sourced.swift", sourced):
        raise CheckError("self-test: a stand-in that names its header was refused")
    for what, text in unsourced.items():
        if not provenance_problems("planted.swift", text):
            raise CheckError(f"self-test: {what} that names no SDK header was not reported")
    count = 0
    with tempfile.TemporaryDirectory() as scratch:
        for target, entry in sorted(targets.items()):
            for path in entry["apple"]:
                text = path.read_text(encoding="utf-8")
                broken = Path(scratch) / path.name
                planted, call = misspell(text, stand_in_names)
                if planted is None:
                    raise CheckError(f"self-test: {path.relative_to(ROOT)} makes no call to misspell")
                broken.write_text(planted, encoding="utf-8")
                files = [broken if other == path else other for other in entry["all"]]
                errors = typecheck(target, files, [broken], stand_ins, build, package)
                if not errors or f"{call}Misspelled" not in errors:
                    raise CheckError(
                        f"self-test: {path.relative_to(ROOT)} with `{call}` misspelled still type-checks "
                        "(the stand-ins are not in effect)"
                    )
                count += 1
    return count


def misspell(text, stand_in_names):
    """`text` with one call misspelled, and the name: the first call to a stand-in name (a Security or Darwin
    function), else the first method call (a seam file that only uses Foundation); (None, None) without either."""
    call = next((name for name in CALLED.findall(text) if name in stand_in_names), None)
    if call is not None:
        return re.sub(rf"\b{call}\s*\(", f"{call}Misspelled(", text, count=1), call
    lines = text.splitlines(keepends=True)
    for index, line in enumerate(lines):
        method = None if line.strip().startswith("//") else re.search(r"\.([a-z]\w*)\s*[({]", line)
        if method:
            call = method.group(1)
            lines[index] = line[: method.start(1)] + f"{call}Misspelled" + line[method.end(1) :]
            return "".join(lines), call
    return None, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--self-test", action="store_true", help="only check that the check catches planted faults")
    parser.add_argument("--build-path", default=".build/debug", help="where `swift build` put the modules")
    args = parser.parse_args()
    build = (ROOT / args.build_path).resolve()
    try:
        if not (build / "Modules").is_dir():
            raise CheckError(f"{build}/Modules is missing: run `swift build` first")
        targets, problems = scan()
        package = package_name(build)
        with tempfile.TemporaryDirectory() as folder:
            stand_ins = Path(folder)
            names = build_stand_ins(stand_ins)
            planted = self_test(targets, stand_ins, names, build, package)
            print(
                f"self-test: planted rule breaks and stand-ins without their source reported; {planted} planted "
                "faults in Apple-only files fail the type check"
            )
            if args.self_test:
                return 0
            if problems:
                raise CheckError("platform code outside seam files:\n" + "\n".join(problems))
            checked = check_targets(targets, stand_ins, build, package)
        files = sum(len(entry["all"]) for entry in targets.values())
        print(
            f"check-apple-branches: OK ({files} files follow the seam rule; {len(checked)} Apple-only files "
            f"type-checked against Tests/AppleStandIns: {', '.join(str(p.relative_to(ROOT)) for p in checked)})"
        )
        return 0
    except CheckError as error:
        print(f"check-apple-branches: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
