#!/usr/bin/env python3
"""Writes every ```swift block of README.md and MIGRATION.md into Tests/SnippetTests/Snippets.generated.swift,
so the SnippetTests target compiles them and the documents cannot drift from the API.

Usage (from anywhere):
    Scripts/extract-snippets.py           # (re)write the generated file
    Scripts/extract-snippets.py --check   # exit 1 if the generated file is not what the documents give
    Scripts/extract-snippets.py --print KIND [HEADING]
                                          # print the first block of KIND (under HEADING) as the document has it,
                                          # imports included: what Scripts/check-newcomer.sh builds

How a block is wrapped depends on the HTML comment on the last non-blank line before its fence:
    (none)                          the block is the body of its own `func <doc>Snippet<N>() throws`, so blocks
                                    do not clash; it is compiled, never called.
    <!-- snippet: run -->           the same, and SnippetTests calls it: only for cheap, loopback-only code.
    <!-- snippet: main-actor -->    the body of a `@MainActor func …() throws`, compiled, never called: code that runs
                                    on the main actor in an app (top-level code, UIKit callbacks) and uses main-actor
                                    types such as a `@MainActor` delegate.
    <!-- snippet: file-scope -->    the block is copied to file scope as it is (type declarations, extensions).
    <!-- snippet: manifest -->      a `Package.swift` excerpt of a package that depends on this one. Manifests are
                                    not compiled (PackageDescription is not available to a test target); instead
                                    every `.product(name:package:)` must name a product of this package's
                                    Package.swift, with the package identity the `.package(url:)` gives.
`import` lines are taken out of every block and merged into the file's imports. Python 3 standard library only.
"""

import argparse
import re
import sys
from pathlib import Path

import generated_file

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = ["README.md", "MIGRATION.md"]
OUTPUT = ROOT / "Tests" / "SnippetTests" / "Snippets.generated.swift"
BASE_IMPORTS = {"Foundation", "LocalOrigin", "PNObservation", "PubNubLegacy"}
KINDS = {"function", "run", "main-actor", "file-scope", "manifest"}

MARKER = re.compile(r"^<!--\s*snippet:\s*([a-z-]+)\s*-->$")
FENCE_OPEN = re.compile(r"^(\s*)```swift\s*$")
FENCE_CLOSE = re.compile(r"^\s*```\s*$")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
IMPORT = re.compile(r"^import\s+(\w+)\s*$")


class SnippetError(Exception):
    """A document the extractor cannot turn into Swift."""


class Snippet:
    def __init__(self, document, index, kind, heading, lines):
        self.document = document
        self.index = index
        self.kind = kind
        self.heading = heading
        self.lines = lines

    @property
    def function_name(self):
        stem = Path(self.document).stem.lower()
        return f"{stem}Snippet{self.index}"


def read_snippets(root=ROOT):
    """All swift blocks of the documents that exist, in document order."""
    snippets = []
    for document in DOCUMENTS:
        path = root / document
        if path.exists():
            snippets.extend(parse_document(document, path.read_text(encoding="utf-8")))
    return snippets


def parse_document(document, text):
    snippets = []
    lines = text.splitlines()
    heading = ""
    last_nonblank = ""
    index = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        match = FENCE_OPEN.match(line)
        if not match:
            heading_match = HEADING.match(line)
            if heading_match:
                heading = heading_match.group(1)
            if line.strip():
                last_nonblank = line.strip()
            i += 1
            continue
        indent = match.group(1)
        marker = MARKER.match(last_nonblank)
        kind = marker.group(1) if marker else "function"
        if kind not in KINDS:
            raise SnippetError(f"{document}:{i + 1}: unknown snippet kind '{kind}' (use one of {sorted(KINDS)})")
        body = []
        i += 1
        while i < len(lines) and not FENCE_CLOSE.match(lines[i]):
            content = lines[i]
            if content.startswith(indent):
                content = content[len(indent):]
            elif content.strip():
                raise SnippetError(f"{document}:{i + 1}: line is indented less than its ```swift fence")
            body.append(content.rstrip())
            i += 1
        if i == len(lines):
            raise SnippetError(f"{document}: ```swift block opened near line {len(lines)} is never closed")
        index += 1
        snippets.append(Snippet(document, index, kind, heading, body))
        last_nonblank = "```"
        i += 1
    return snippets


def package_products(root=ROOT):
    """The product names this package's Package.swift declares."""
    manifest = (root / "Package.swift").read_text(encoding="utf-8")
    return set(re.findall(r'\.(?:library|executable)\(\s*name:\s*"([^"]+)"', manifest))


def package_platforms(root=ROOT):
    """This package's `platforms: [...]` argument, white space normalised, or None when it declares none."""
    manifest = (root / "Package.swift").read_text(encoding="utf-8")
    found = re.search(r"platforms:\s*\[[^\]]*\]", manifest)
    return " ".join(found.group(0).split()) if found else None


def check_manifest(snippet, root=ROOT):
    """Problems of a `manifest` block: unknown products, or a package name that is not the URL's identity."""
    text = "\n".join(snippet.lines)
    where = f"{snippet.document} snippet {snippet.index} (manifest)"
    urls = re.findall(r'\.package\(\s*url:\s*"([^"]+)"', text)
    if len(urls) != 1:
        return [f"{where}: expected one .package(url:), found {len(urls)}"]
    identity = urls[0].rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")
    platforms = package_platforms(root)
    if platforms and platforms not in " ".join(text.split()):
        return [f"{where}: has no `{platforms}` line: an app below this package's minimums cannot depend on it"]
    products = re.findall(r'\.product\(\s*name:\s*"([^"]+)",\s*package:\s*"([^"]+)"\s*\)', text)
    if not products:
        return [f"{where}: names no .product(name:package:)"]
    known = package_products(root)
    problems = []
    for name, package in products:
        if name not in known:
            problems.append(f"{where}: product '{name}' is not one of this package's products {sorted(known)}")
        if package != identity:
            problems.append(f"{where}: package '{package}' is not the identity '{identity}' of {urls[0]}")
    return problems


def strip_blank_edges(lines):
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end]


def render(snippets):
    """The generated Swift file for `snippets`."""
    imports = set(BASE_IMPORTS)
    bodies = []
    for snippet in snippets:
        if snippet.kind == "manifest":
            continue
        kept = []
        for line in snippet.lines:
            found = IMPORT.match(line.strip())
            if found:
                imports.add(found.group(1))
            else:
                kept.append(line)
        kept = strip_blank_edges(kept)
        if not kept:
            raise SnippetError(f"{snippet.document} snippet {snippet.index} has no code besides imports")
        bodies.append((snippet, kept))

    out = [
        "// swift-format-ignore-file",
        "// Generated by Scripts/extract-snippets.py from README.md and MIGRATION.md: do not edit, edit the documents",
        "// and run the script. Scripts/check-migration.py fails when this file is out of date.",
        "//",
        "// Each ```swift block of the documents becomes the body of its own function (or, marked",
        "// `<!-- snippet: file-scope -->`, file-scope code), so compiling this target compiles every block. The",
        "// formatter skips this file: the blocks keep the layout they have in the documents. Blocks marked",
        "// `<!-- snippet: manifest -->` (Package.swift excerpts) are checked by the script instead of compiled.",
        "",
    ]
    out += [f"import {name}" for name in sorted(imports)]
    runnable = []
    current_document = None
    for snippet, body in bodies:
        if snippet.document != current_document:
            current_document = snippet.document
            out += ["", f"// MARK: - {snippet.document}"]
        label = f'{snippet.document} snippet {snippet.index}, under "{snippet.heading}"'
        out.append("")
        if snippet.kind == "file-scope":
            out.append(f"// {label} (file scope).")
            out += body
            continue
        out.append(f"// {label}{' (run by SnippetTests)' if snippet.kind == 'run' else ''}.")
        isolation = "@MainActor " if snippet.kind == "main-actor" else ""
        out.append(f"{isolation}func {snippet.function_name}() throws {{")
        out += [("    " + line) if line else "" for line in body]
        out.append("}")
        if snippet.kind == "run":
            runnable.append(snippet)

    out += [
        "",
        "// MARK: - Runnable snippets",
        "",
        "/// The snippets marked `<!-- snippet: run -->`: cheap and loopback-only, so SnippetTests calls them.",
        "func runnableSnippets() -> [(name: String, run: () throws -> Void)] {",
    ]
    if runnable:
        out.append("    [")
        out += [f'        ("{s.function_name}", {s.function_name}),' for s in runnable]
        out.append("    ]")
    else:
        out.append("    []")
    out.append("}")
    return "\n".join(out) + "\n"


def generated_text(root=ROOT):
    snippets = read_snippets(root)
    problems = [problem for s in snippets if s.kind == "manifest" for problem in check_manifest(s, root)]
    if problems:
        raise SnippetError("; ".join(problems))
    return render(snippets)


def check(root=ROOT):
    """None when the generated file is up to date, else a message saying what to do."""
    return generated_file.problem(root / OUTPUT.relative_to(ROOT), generated_text(root), root, "Scripts/extract-snippets.py")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only verify that the generated file is up to date")
    parser.add_argument("--print", nargs="+", metavar=("KIND", "HEADING"), help="print one block and exit")
    args = parser.parse_args()
    try:
        if args.print:
            kind, heading = args.print[0], " ".join(args.print[1:]) or None
            for snippet in read_snippets():
                if snippet.kind == kind and (heading is None or snippet.heading == heading):
                    print("\n".join(snippet.lines))
                    return 0
            raise SnippetError(f"no block of kind '{kind}'" + (f" under '{heading}'" if heading else ""))
        if args.check:
            problems = [problem for problem in [check()] if problem]
            return generated_file.check_status(problems, f"{OUTPUT.relative_to(ROOT)} is up to date")
        text = generated_text()
        OUTPUT.parent.mkdir(parents=True, exist_ok=True)
        OUTPUT.write_text(text, encoding="utf-8")
        snippets = read_snippets()
        manifests = sum(1 for snippet in snippets if snippet.kind == "manifest")
        print(f"wrote {OUTPUT.relative_to(ROOT)} ({len(snippets) - manifests} snippets; {manifests} manifests checked)")
        return 0
    except SnippetError as error:
        print(f"extract-snippets: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
