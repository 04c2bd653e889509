#!/usr/bin/env python3
"""Checks that the repository stands alone: everything Sources/, Tests/, Scripts/ and Package.swift cite exists here.

Fails, printing each offending file:line, when
  - a file reads or cites the workplace's shared folder or its `spec/` documents (anywhere, code or comment);
  - a comment cites a document that does not exist (`docs/NAME.md`, `MIGRATION.md`, …);
  - a cited section `§x.y` is not a numbered heading of that document;
  - a scenario id `S-NN` (comment or code) is not a scenario of docs/BEHAVIOR.md;
  - a decision id after docs/DESIGN.md or docs/API-3.4.md (`A12`, `D4`) is not one of docs/API-3.4.md §5;
  - an old citation form remains in a comment: a bare document name (`BEHAVIOR §3.8`, `DESIGN A5`, `API §3.3`,
    `CRYPTO.md` without `docs/`), a `§` that belongs to no document, or a `#NN` row number of the 3.4 API tables
    (code names a 3.4 method by its selector).
A citation is a document followed by section references: `docs/BEHAVIOR.md §3.8`, `docs/API-3.4.md §2.1.7 and
§2.1.8`, `docs/PROTOCOL.md §2.5–2.9`, `docs/BEHAVIOR.md §4.3–§4.5, S-63`. Sections of external standards
(`RFC 4231 §4.2`, `FIPS 197 §5.1`, `SP 800-38A §6.2`) are left alone.

Before checking the repository it checks itself on planted bad citations (`--self-test` runs only that).
Python 3 standard library only.
"""

import argparse
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ["Sources", "Tests", "Scripts", "Package.swift"]
EXTENSIONS = {".swift", ".py", ".sh", ".txt", ".ini", ".toml", ".cfg"}
# Spelled in pieces so that this file does not cite what it forbids.
SHARED = "../" + "shared"
FORBIDDEN_PATH = re.compile(r"(?:" + re.escape(SHARED) + r"|(?<![\w-])" + "spec" + r"/)")
OLD_NAMES = r"(?:API-3\.4|BEHAVIOR|PROTOCOL|CRYPTO|DESIGN|TEST-APP|STYLE)"

SECTION = r"§\s?[0-9]+(?:\.[0-9]+)*"
SECTION_RANGE = SECTION + r"(?:\s?[–-]\s?§?\s?[0-9]+(?:\.[0-9]+)*)?"
SEPARATOR = r"(?:\s*,\s*|\s+and\s+|\s+or\s+|\s*/\s*|\s*,\s*and\s+)"
DOCUMENT = r"(?<![\w/.-])(?P<doc>(?:[\w.-]+/)*[\w.-]+\.md)"
# A document, optionally followed by section references; whitespace may include a comment's line break.
CITATION = re.compile(DOCUMENT + r"`?(?P<sections>(?:\s+" + SECTION_RANGE + r"(?:" + SEPARATOR + SECTION_RANGE + r")*)?)")
# Decision ids right after a document citation: `docs/DESIGN.md A12`, `docs/DESIGN.md §5, D4`.
DECISION = re.compile(r"(?<![\w-])([AD][0-9]{1,2})(?![\w-])")
EXTERNAL = re.compile(
    r"(?<![\w])(?:RFC|FIPS|SP|ISO|ECMA|IEEE|NIST)[\s-]?[\w.-]*(?:\s+[\w.-]+)?\s+§\s?[A-Z0-9][\w.]*"
    r"(?:\s?[–-]\s?§?\s?[A-Z0-9][\w.]*)?(?:" + SEPARATOR + r"§\s?[A-Z0-9][\w.]*)*"
)
SCENARIO = re.compile(r"(?<![\w-])S-([0-9]{2})(?![0-9])")
BARE_NAME = re.compile(r"(?<![\w/.-])(?:" + OLD_NAMES + r"(?=\s*§|\s+[AD][0-9]|\s+\")|API(?=\s*§))")
ROW_NUMBER = re.compile(r"(?<![\w&#])#[0-9]{1,3}(?![\w])")
ROW_EXCUSE = re.compile(r"(?:issues?|PR|pull request|PKCS)\s*$", re.IGNORECASE)


# MARK: - Comments


def comment_lines(path, text):
    """[(line number, comment text)] of the comments of a file: `//` and `/* */` in Swift, `#` in Python, shell
    and configuration files, plus Python's triple-quoted strings (docstrings). Strings are skipped."""
    lines = text.splitlines()
    return [
        (number, " ".join(lines[number - 1][start:end] for start, end in spans))
        for number, spans in comment_spans(path, text)
    ]


def comment_spans(path, text):
    """[(line number, [(start, end)])]: where the comment text of each commented line is (columns, the comment
    marker excluded)."""
    if path.suffix == ".swift":
        return swift_comment_spans(text)
    if path.suffix == ".py":
        return python_comment_spans(text)
    return [(number, [(line.index("#") + 1, len(line))]) for number, line in enumerate(text.splitlines(), 1) if "#" in line]


def swift_comment_spans(text):
    out = []
    in_block = False
    in_multiline_string = False
    for number, line in enumerate(text.splitlines(), 1):
        index, length = 0, len(line)
        in_string = False
        spans = []
        while index < length:
            if in_block:
                end = line.find("*/", index)
                spans.append((index, end if end >= 0 else length))
                if end < 0:
                    index = length
                else:
                    in_block, index = False, end + 2
                continue
            if in_multiline_string:
                end = line.find('"""', index)
                if end < 0:
                    index = length
                else:
                    in_multiline_string, index = False, end + 3
                continue
            char = line[index]
            if in_string:
                if char == "\\":
                    index += 2
                    continue
                if char == '"':
                    in_string = False
                index += 1
                continue
            if line.startswith('"""', index):
                in_multiline_string, index = True, index + 3
                continue
            if char == '"':
                in_string, index = True, index + 1
                continue
            if line.startswith("//", index):
                start = index + 2
                while start < length and line[start] in "/!":  # `///` and `//!` doc comments
                    start += 1
                spans.append((start, length))
                break
            if line.startswith("/*", index):
                in_block, index = True, index + 2
                continue
            index += 1
        if spans:
            out.append((number, spans))
    return out


def python_comment_spans(text):
    out = []
    in_triple = None
    for number, line in enumerate(text.splitlines(), 1):
        index, length = 0, len(line)
        quote = None
        spans = []
        while index < length:
            if in_triple:
                end = line.find(in_triple, index)
                spans.append((index, end if end >= 0 else length))
                if end < 0:
                    index = length
                else:
                    index, in_triple = end + 3, None
                continue
            char = line[index]
            if quote:
                if char == "\\":
                    index += 2
                    continue
                if char == quote:
                    quote = None
                index += 1
                continue
            if line.startswith('"""', index) or line.startswith("'''", index):
                in_triple, index = line[index : index + 3], index + 3
                continue
            if char in "\"'":
                quote, index = char, index + 1
                continue
            if char == "#":
                spans.append((index + 1, length))
                break
            index += 1
        if spans:
            out.append((number, spans))
    return out


def comment_blocks(lines):
    """Groups consecutive comment lines: [[(line number, text)]]."""
    blocks = []
    for number, text in lines:
        if blocks and blocks[-1][-1][0] == number - 1:
            blocks[-1].append((number, text))
        else:
            blocks.append([(number, text)])
    return blocks


def joined(block):
    """The block's text with one newline per comment line, and where each line starts in it."""
    starts, parts, offset = [], [], 0
    for number, text in block:
        starts.append((offset, number))
        parts.append(text)
        offset += len(text) + 1
    return "\n".join(parts), starts


def line_at(starts, offset):
    number = starts[0][1]
    for start, line in starts:
        if start <= offset:
            number = line
    return number


# MARK: - Documents


class Documents:
    """The repository's Markdown files: headings, scenario ids and decision ids."""

    def __init__(self, root):
        self.root = root
        self.headings = {}
        behavior = root / "docs" / "BEHAVIOR.md"
        self.scenarios = set(re.findall(r"\*\*S-([0-9]{2})\b", behavior.read_text(encoding="utf-8"))) if behavior.exists() else set()
        api = root / "docs" / "API-3.4.md"
        self.decisions = set(re.findall(r"^\|\s*([AD][0-9]{1,2})\s*\|", api.read_text(encoding="utf-8"), re.M)) if api.exists() else set()

    def resolve(self, name):
        """The file a cited name stands for, or None."""
        candidate = (self.root / name).resolve()
        if candidate.is_file() and self.root in candidate.parents:
            return candidate
        return None

    def sections(self, path):
        if path not in self.headings:
            numbers = set()
            in_fence = False
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.lstrip().startswith("```"):
                    in_fence = not in_fence
                match = None if in_fence else re.match(r"^#{1,6}\s+([0-9]+(?:\.[0-9]+)*)\.?(?:\s|$)", line)
                if match:
                    numbers.add(match.group(1))
            self.headings[path] = numbers
        return self.headings[path]


def section_numbers(text):
    """Every section number a run of `§…` references names, range ends included."""
    return re.findall(r"§?\s?([0-9]+(?:\.[0-9]+)*)", text)


# MARK: - Checks


def check_file(path, text, documents, relative):
    problems = []

    def report(number, message):
        problems.append(f"{relative}:{number}: {message}")

    for number, line in enumerate(text.splitlines(), 1):
        match = FORBIDDEN_PATH.search(line)
        if match:
            report(number, f"reads or cites the shared workplace folder ('{match.group(0)}'); use docs/ or a fixture")
        for match in SCENARIO.finditer(line):
            if documents.scenarios and match.group(1) not in documents.scenarios:
                report(number, f"S-{match.group(1)} is not a scenario of docs/BEHAVIOR.md §9")

    for block in comment_blocks(comment_lines(path, text)):
        body, starts = joined(block)
        covered = []
        for match in CITATION.finditer(body):
            number = line_at(starts, match.start())
            name = match.group("doc")
            covered.append((match.start(), match.end()))
            if (re.fullmatch(OLD_NAMES + r"\.md", name) or name.startswith("spec/")) and documents.resolve(
                "docs/" + name.split("/")[-1]
            ):
                report(number, f"'{name}' without 'docs/': cite it as docs/{name.split('/')[-1]}")
                continue
            target = documents.resolve(name)
            if target is None:
                report(number, f"cites '{name}', which is not a file of the repository")
                continue
            sections = match.group("sections") or ""
            known = documents.sections(target) if sections else set()
            for section in section_numbers(sections):
                if section not in known:
                    report(number, f"{name} has no section §{section}")
            tail = body[match.end() : match.end() + 40]
            decisions = re.match(r"(?:\s*,?\s*)((?:[AD][0-9]{1,2}(?:\s*,\s*|\s+and\s+|\s*/\s*)?)+)", tail)
            if name in ("docs/DESIGN.md", "docs/API-3.4.md") and decisions:
                covered.append((match.end(), match.end() + decisions.end()))
                for decision in DECISION.findall(decisions.group(1)):
                    if documents.decisions and decision not in documents.decisions:
                        report(number, f"{decision} is not a decision id of docs/API-3.4.md §5")
        for match in EXTERNAL.finditer(body):
            covered.append((match.start(), match.end()))
        for match in BARE_NAME.finditer(body):
            report(line_at(starts, match.start()), f"old citation form '{match.group(0)}': cite docs/NAME.md §x")
        for match in re.finditer("§", body):
            if not any(start <= match.start() < end for start, end in covered):
                context = body[max(0, match.start() - 20) : match.start() + 12].replace("\n", " ")
                report(line_at(starts, match.start()), f"'§' that belongs to no document: '…{context}…'")
        for match in ROW_NUMBER.finditer(body):
            if ROW_EXCUSE.search(body[max(0, match.start() - 16) : match.start()]):
                continue
            report(
                line_at(starts, match.start()),
                f"row number '{match.group(0)}' of the 3.4 API tables: name the 3.4 selector instead",
            )
    return problems


def scanned_files(root):
    for entry in SCANNED:
        path = root / entry
        if path.is_file():
            yield path
        elif path.is_dir():
            for file in sorted(path.rglob("*")):
                if file.is_file() and file.suffix in EXTENSIONS and not any(p.startswith(".") for p in file.parts):
                    yield file


def check(root):
    documents = Documents(root)
    problems = []
    if not documents.scenarios:
        problems.append("docs/BEHAVIOR.md: no scenario ids found (expected **S-01** … in §9)")
    this = Path(__file__).resolve()
    for path in scanned_files(root):
        if path.resolve() == this:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        problems += check_file(path, text, documents, path.relative_to(root))
    return problems


# MARK: - Self-test


PLANTED = {
    "Sources/Good.swift": (
        "// Fine: docs/BEHAVIOR.md §3.8, docs/BEHAVIOR.md §2.1 and §2.2, docs/DESIGN.md §5, D4 and docs/DESIGN.md A1.\n"
        "// In a code span: `docs/BEHAVIOR.md` §2.2.\n"
        "/// Wrapped: docs/BEHAVIOR.md\n/// §2.1; S-01; RFC 4231 §4.2–§4.8; FIPS 197 §5.1; issue #12; PKCS#7.\n"
        'let url = "http://example.invalid/#1 §9"  // strings are not comments: docs/BEHAVIOR.md §2.2\n'
    ),
    "Sources/Bad.swift": (
        "// BEHAVIOR §3.8 is the old form\n"  # 1
        "// docs/NOPE.md §1 does not exist\n"  # 2
        "// docs/BEHAVIOR.md §7.7 is no heading\n"  # 3
        "// see S-99\n"  # 4
        "// spec/API-3.4.md §2.1\n"  # 5
        "// row #67 of the table\n"  # 6
        "// a bare §2.2 here\n"  # 7
        "// DESIGN A5 and docs/DESIGN.md A99\n"  # 8
        'let p = "../' + 'shared/spec/x.json"\n'  # 9
        "// API §3.3 and CRYPTO.md\n"  # 10
    ),
    "Scripts/bad.py": '"""Docstring citing PROTOCOL.md §1.5."""\nx = "BEHAVIOR §1"  # fine in a string, DESIGN §6 not\n',
}
EXPECTED = [
    ("Sources/Bad.swift:1:", "old citation form"),
    ("Sources/Bad.swift:2:", "not a file"),
    ("Sources/Bad.swift:3:", "no section §7.7"),
    ("Sources/Bad.swift:4:", "S-99"),
    ("Sources/Bad.swift:5:", "shared workplace folder"),
    ("Sources/Bad.swift:5:", "without 'docs/'"),
    ("Sources/Bad.swift:6:", "row number '#67'"),
    ("Sources/Bad.swift:7:", "belongs to no document"),
    ("Sources/Bad.swift:8:", "old citation form 'DESIGN'"),
    ("Sources/Bad.swift:8:", "A99 is not a decision id"),
    ("Sources/Bad.swift:9:", "shared workplace folder"),
    ("Sources/Bad.swift:10:", "old citation form 'API'"),
    ("Sources/Bad.swift:10:", "'CRYPTO.md' without 'docs/'"),
    ("Scripts/bad.py:1:", "'PROTOCOL.md' without 'docs/'"),
    ("Scripts/bad.py:2:", "old citation form 'DESIGN'"),
]


def self_test():
    """Problems of the checker itself: it must report every planted problem and nothing in the good file."""
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "docs").mkdir()
        (root / "docs" / "BEHAVIOR.md").write_text("# B\n## 2. States\n### 2.1 A\n### 2.2 B\n## 3. Loop\n### 3.8 Errors\n"
                                                  "## 9. Scenarios\n**S-01 One.** Text.\n", encoding="utf-8")
        for name in ("DESIGN.md", "CRYPTO.md", "PROTOCOL.md"):
            (root / "docs" / name).write_text("# D\n## 1. One\n### 1.5 Part\n## 5. Decisions\n", encoding="utf-8")
        (root / "docs" / "API-3.4.md").write_text("# A\n## 3. Matrix\n### 3.3 Pre-flight\n## 5. Defects\n| Id | x |\n"
                                                  "|---|---|\n| D4 | x |\n| A1 | x |\n| A5 | x |\n", encoding="utf-8")
        for name, text in PLANTED.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text, encoding="utf-8")
        problems = check(root)
    for where, what in EXPECTED:
        if not any(problem.startswith(where) and what in problem for problem in problems):
            failures.append(f"planted problem not reported: {where} {what}")
    for problem in problems:
        if problem.startswith("Sources/Good.swift"):
            failures.append(f"false alarm on a good citation: {problem}")
        if not any(problem.startswith(where) for where, _ in EXPECTED):
            failures.append(f"unexpected report: {problem}")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--self-test", action="store_true", help="only check the checker on planted citations")
    args = parser.parse_args()
    failures = self_test()
    print(f"self-test on planted citations: {'FAILED' if failures else 'OK'}")
    if failures:
        for failure in failures:
            print(f"  - {failure}", file=sys.stderr)
        return 1
    if args.self_test:
        return 0
    problems = check(ROOT)
    if problems:
        print(f"\ncheck-citations: {len(problems)} problem(s):", file=sys.stderr)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    print("check-citations: OK (every citation of Sources/, Tests/, Scripts/ and Package.swift resolves in this repository)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
