#!/usr/bin/env python3
"""Checks MIGRATION.md against the package and against the 3.4 API reference, so neither can drift.

  (a) Every Swift spelling in MIGRATION.md's mapping tables is a public declaration of the package: the
      declarations come from `swift package dump-symbol-graph --minimum-access-level public`.
  (b) Every 3.4 name listed in the tables of section 2 of docs/API-3.4.md appears in the "3.4" column of a
      MIGRATION.md table that declares that section.
  (c) Tests/SnippetTests/Snippets.generated.swift is what Scripts/extract-snippets.py makes of the documents.
  (d) Sources/PNPort/Names.generated.swift, the porting assistant's name table, is what Scripts/extract-names.py
      makes of these same tables.
Before them it tests its own comparison rules on fixed samples, so a bug there cannot make every check pass.

Prints what is missing on either side and exits 1 on any mismatch. Python 3 standard library only.

MIGRATION.md table convention. A mapping table is preceded by a marker comment (the last non-blank line before it):

    <!-- check: spec=2.1.1,2.1.2 Swift=PubNub Alias=- -->

- `spec=` lists the docs/API-3.4.md sections whose names the table's "3.4" column covers (optional).
- Every other `Column=Container` pair names a column whose `code spans` are Swift declarations, written as the
  symbol graph prints them (`static func connect()`, `var origin: String`, `case PNMessageSent`), and the type
  that declares them (`PubNub`, `Notification.Name`, `-` for top level). Spans are compared after normalising:
  whitespace, accessor blocks (`{ get }`), leading attributes and modifiers (`@discardableResult`, `final`,
  `convenience`, `required`, `override`), the `any` keyword and internal parameter names are ignored.
- Any table with a column named "Swift" must have a marker.

Options: --symbol-graph-dir DIR reads an existing symbol graph instead of dumping one; --skip-symbols skips (a).
"""

import argparse
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MIGRATION = ROOT / "MIGRATION.md"
SPEC = ROOT / "docs" / "API-3.4.md"
PACKAGE_MODULES = {"PubNubLegacy", "PNObservation", "LocalOrigin", "PubNubAsync"}
# Header names of the docs/API-3.4.md section-2 columns that hold 3.4 names.
SPEC_NAME_COLUMNS = {
    "ObjC selector",
    "ObjC",
    "Constant",
    "Enum",
    "Cases (raw value)",
    "Name",
    "Member",
    "Property",
    "Property (Swift)",
    "Getter name (ObjC)",
}
CONTAINER_ALIASES = {"NSNotification.Name": "Notification.Name"}



def load_script(file_name, module_name):
    """A script of this folder as a module (its file name is not an identifier)."""
    sys.dont_write_bytecode = True
    path = Path(__file__).resolve().parent / file_name
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


extract_snippets = load_script("extract-snippets.py", "extract_snippets")

MARKER = re.compile(r"^<!--\s*check:(.*?)-->$")
HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
SECTION_NUMBER = re.compile(r"^(\d+(?:\.\d+)*)\s")
CODE_SPAN = re.compile(r"`([^`]+)`")


class CheckError(Exception):
    """A document the checker cannot read."""


# MARK: - Markdown tables


def split_row(line):
    cells = re.split(r"(?<!\\)\|", line.strip())
    if cells and cells[0] == "":
        cells = cells[1:]
    if cells and cells[-1] == "":
        cells = cells[:-1]
    return [cell.strip().replace("\\|", "|") for cell in cells]


def read_tables(text):
    """Yields (line number, section, marker text or None, header cells, rows of cells) for each table."""
    lines = text.splitlines()
    section = ""
    last_nonblank = ""
    i = 0
    in_fence = False
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        if in_fence or not line.lstrip().startswith("|"):
            heading = None if in_fence else HEADING.match(line)
            if heading:
                number = SECTION_NUMBER.match(heading.group(2))
                section = number.group(1) if number else heading.group(2)
            if line.strip():
                last_nonblank = line.strip()
            i += 1
            continue
        start = i
        block = []
        while i < len(lines) and lines[i].lstrip().startswith("|"):
            block.append(lines[i])
            i += 1
        if len(block) < 2 or not re.match(r"^\|?[\s:|-]+\|?$", block[1].strip()):
            raise CheckError(f"line {start + 1}: a '|' line that is not a table (no separator row)")
        marker = MARKER.match(last_nonblank)
        yield start + 1, section, marker.group(1) if marker else None, split_row(block[0]), [
            split_row(row) for row in block[2:]
        ]
        last_nonblank = block[-1].strip()


def code_spans(cell):
    return [span.strip() for span in CODE_SPAN.findall(cell)]


# MARK: - Declarations


def matching_close(text, open_index):
    pairs = {"(": ")", "[": "]", "<": ">"}
    stack = []
    for index in range(open_index, len(text)):
        char = text[index]
        if char in pairs:
            stack.append(pairs[char])
        elif stack and char == stack[-1]:
            if char == ">" and index > 0 and text[index - 1] == "-":
                continue
            stack.pop()
            if not stack:
                return index
    return -1


def split_top_level(text, separator):
    parts, depth, current = [], 0, ""
    for index, char in enumerate(text):
        if char in "([<":
            depth += 1
        elif char in ")]" or (char == ">" and not (index > 0 and text[index - 1] == "-")):
            depth -= 1
        if char == separator and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return parts


def normalize(declaration):
    """The comparable form of a declaration; see the module comment for what is ignored."""
    text = " ".join(declaration.split())
    text = re.sub(r"\s*\{\s*get(\s+set)?\s*\}\s*$", "", text)
    while True:
        stripped = re.sub(r"^(@\w+(\([^)]*\))?|final|convenience|required|override|open|public|nonisolated)\s+", "", text)
        if stripped == text:
            break
        text = stripped
    text = re.sub(r"\bany\s+(?=[A-Za-z_(])", "", text)
    signature = re.match(r"^((?:static\s+|class\s+)?(?:func\s+[^(<\s]+(?:<[^>]*>)?|init[?!]?(?:<[^>]*>)?))\(", text)
    if signature:
        open_index = len(signature.group(1))
        close_index = matching_close(text, open_index)
        if close_index < 0:
            return text
        parameters = []
        inside = text[open_index + 1 : close_index]
        for parameter in split_top_level(inside, ",") if inside.strip() else []:
            head, colon, kind = parameter.partition(":")
            names = head.split()
            label = names[0] if names else ""
            parameters.append(f"{label}: {kind.strip()}" if colon else parameter.strip())
        text = f"{text[:open_index]}({', '.join(parameters)}){text[close_index + 1:]}"
    text = re.sub(r"\s*([,:])\s*", r"\1 ", text)
    text = re.sub(r"\(\s+", "(", text)
    text = re.sub(r"\s+\)", ")", text)
    text = re.sub(r"\[\s+", "[", text)
    text = re.sub(r"\s+\]", "]", text)
    text = re.sub(r"\s+\?", "?", text)
    return " ".join(text.split())


def declared_name(declaration):
    """The declared identifier of a normalised declaration, for hints."""
    match = re.search(r"\b(?:func|var|let|case|typealias|class|enum|struct|protocol)\s+([^\s(<:=]+)", declaration)
    if match:
        return match.group(1)
    return "init" if re.match(r"^(static\s+)?init", declaration) else declaration


# MARK: - Symbol graph


def dump_symbol_graph():
    """Runs SwiftPM and returns the directory it wrote the graph to."""
    command = ["swift", "package", "dump-symbol-graph", "--minimum-access-level", "public"]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    output = result.stdout + result.stderr
    if result.returncode != 0:
        raise CheckError(
            f"{' '.join(command)} failed (it needs every module built: run `swift build --build-tests` first):\n"
            f"{output[-3000:]}"
        )
    match = re.search(r"Files written to (.+)", output)
    if not match:
        raise CheckError(f"{' '.join(command)} did not say where it wrote the graph:\n{output[-2000:]}")
    return Path(match.group(1).strip())


def load_symbols(directory):
    """{container: {normalised declaration: raw declaration}} for the package's public symbols."""
    symbols = {}
    files = [path for path in sorted(directory.glob("*.symbols.json")) if path.name.split("@")[0].split(".")[0] in PACKAGE_MODULES]
    if not files:
        raise CheckError(f"no symbol graph of {sorted(PACKAGE_MODULES)} in {directory}")
    for path in files:
        graph = json.loads(path.read_text(encoding="utf-8"))
        for symbol in graph.get("symbols", []):
            fragments = symbol.get("declarationFragments") or []
            raw = "".join(fragment.get("spelling", "") for fragment in fragments)
            container = ".".join(symbol.get("pathComponents", [])[:-1])
            container = CONTAINER_ALIASES.get(container, container) or "-"
            symbols.setdefault(container, {})[normalize(raw)] = raw
    return symbols


# MARK: - Checks


def parse_marker(marker, where):
    specs, columns = [], {}
    for token in marker.split():
        key, equals, value = token.partition("=")
        if not equals or not value:
            raise CheckError(f"{where}: marker token '{token}' is not key=value")
        if key == "spec":
            specs += [part for part in value.split(",") if part]
        else:
            columns[key] = value
    return specs, columns


def migration_tables(text):
    """(spellings to check, 3.4 names by spec section, problems) from MIGRATION.md."""
    spellings, covered, problems = [], {}, []
    for line, _, marker, header, rows in read_tables(text):
        where = f"MIGRATION.md:{line}"
        if marker is None:
            if "Swift" in header:
                problems.append(f"{where}: table with a 'Swift' column has no <!-- check: … --> marker")
            continue
        specs, columns = parse_marker(marker, where)
        for column in columns:
            if column not in header:
                problems.append(f"{where}: marker names column '{column}', the table has {header}")
        if specs and "3.4" not in header:
            problems.append(f"{where}: marker declares spec sections but the table has no '3.4' column")
        for row in rows:
            cells = dict(zip(header, row))
            if specs:
                for name in code_spans(cells.get("3.4", "")):
                    for spec in specs:
                        covered.setdefault(spec, set()).add(name)
            for column, container in columns.items():
                for span in code_spans(cells.get(column, "")):
                    spellings.append((where, container, span))
    return spellings, covered, problems


def spec_names(text):
    """{section: [3.4 names]} from the tables of docs/API-3.4.md section 2."""
    names = {}
    for line, section, _, header, rows in read_tables(text):
        if not section.startswith("2."):
            continue
        columns = [index for index, title in enumerate(header) if title in SPEC_NAME_COLUMNS]
        if not columns:
            raise CheckError(f"docs/API-3.4.md:{line}: table in §{section} has no known name column ({header})")
        for row in rows:
            for index in columns:
                for span in code_spans(row[index] if index < len(row) else ""):
                    property_form = re.match(r"^([A-Za-z_]\w*): ", span)
                    name = property_form.group(1) if property_form else span
                    if name not in names.setdefault(section, []):
                        names[section].append(name)
    return names


def check_spellings(spellings, symbols):
    missing = []
    for where, container, span in spellings:
        declarations = symbols.get(container, {})
        if normalize(span) in declarations:
            continue
        name = declared_name(normalize(span))
        candidates = [raw for key, raw in declarations.items() if declared_name(key) == name]
        hint = f"; the package declares: {' | '.join(candidates)}" if candidates else ""
        where_container = "top level" if container == "-" else container
        missing.append(f"{where}: `{span}` is not a public declaration of {where_container}{hint}")
    return missing


def self_test():
    """Problems of the checker's own comparison rules, so a bug there cannot make every check pass."""
    same = [
        ("@discardableResult static func send(_ m: Any, to: PNChannel) -> PNMessage?",
         "static func send(_ message: Any, to: PNChannel) -> PNMessage?"),
        ("static func setDelegate(_ delegate: (any PNDelegate)?)", "static func setDelegate(_ d: (PNDelegate)?)"),
        ("convenience init(message errorMessage: String?, code errorCode: Int)", "init(message: String?, code: Int)"),
        ("var origin: String { get set }", "var origin: String"),
        ("static func f(_ e: [String : Any]) -> Bool", "static func f(_ e: [String: Any]) -> Bool"),
    ]
    different = [
        ("static func connect()", "func connect()"),
        ("static func f(_ a: Int, b: Int)", "static func f(_ a: Int, c: Int)"),
        ("static func f(_ a: Int) -> Int", "static func f(_ a: Int) -> Int?"),
        ("var origin: String", "let origin: String?"),
        ("typealias B = (String) -> Void", "typealias B = (String?) -> Void"),
    ]
    problems = [f"normalize: `{a}` and `{b}` should compare equal" for a, b in same if normalize(a) != normalize(b)]
    problems += [f"normalize: `{a}` and `{b}` should differ" for a, b in different if normalize(a) == normalize(b)]
    sample_spec = "## 2. Tables\n### 2.9 `PNDate`\n| Member | Swift |\n|---|---|\n| `timeToken` | x |\n| `+dateWithDate:` | y |\n"
    if spec_names(sample_spec) != {"2.9": ["timeToken", "+dateWithDate:"]}:
        problems.append(f"spec_names read {spec_names(sample_spec)} from a two-row sample")
    sample = "<!-- check: spec=2.9 Swift=PNDate -->\n| 3.4 | Swift |\n|---|---|\n| `timeToken` | `var timeToken: NSNumber` |\n"
    spellings, covered, table_problems = migration_tables(sample)
    if spellings != [("MIGRATION.md:2", "PNDate", "var timeToken: NSNumber")] or covered != {"2.9": {"timeToken"}}:
        problems.append(f"migration_tables read {spellings} / {covered} from a one-row sample")
    missing = check_spellings(spellings, {"PNDate": {normalize("var timeToken: NSDate { get }"): "…"}})
    if len(missing) != 1 or table_problems:
        problems.append("check_spellings accepted a declaration of another type")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--symbol-graph-dir", type=Path, help="use this symbol graph instead of dumping one")
    parser.add_argument("--skip-symbols", action="store_true", help="skip check (a)")
    args = parser.parse_args()
    failures = self_test()
    print(f"self-test of the comparison rules: {'FAILED' if failures else 'OK'}")
    try:
        if not SPEC.exists():
            raise CheckError(f"the 3.4 API reference is missing: expected {SPEC}")
        if not MIGRATION.exists():
            raise CheckError(f"{MIGRATION} is missing")
        spellings, covered, problems = migration_tables(MIGRATION.read_text(encoding="utf-8"))
        failures += problems

        # (b) every 3.4 name of the reference is in MIGRATION.md.
        reference = spec_names(SPEC.read_text(encoding="utf-8"))
        total = sum(len(names) for names in reference.values())
        uncovered = [
            f"docs/API-3.4.md §{section}: `{name}` is in no MIGRATION.md table marked spec={section}"
            for section, names in reference.items()
            for name in names
            if name not in covered.get(section, set())
        ]
        failures += uncovered
        print(f"(b) 3.4 names: {total - len(uncovered)} of {total} in MIGRATION.md ({len(reference)} spec tables)")

        # (a) every Swift spelling of MIGRATION.md is public API.
        if args.skip_symbols:
            print("(a) Swift spellings: skipped (--skip-symbols)")
        else:
            directory = args.symbol_graph_dir or dump_symbol_graph()
            symbols = load_symbols(directory)
            missing = check_spellings(spellings, symbols)
            failures += missing
            print(f"(a) Swift spellings: {len(spellings) - len(missing)} of {len(spellings)} found in the symbol graph")

        # (c) the compiled snippets are those of the documents.
        stale = extract_snippets.check()
        if stale:
            failures.append(stale)
        print(f"(c) snippets: {'out of date' if stale else 'up to date'} ({len(extract_snippets.read_snippets())} blocks)")

        # (d) the porting assistant reads the same tables.
        extract_names = load_script("extract-names.py", "extract_names")
        try:
            stale_names = extract_names.check()
        except extract_names.NamesError as error:
            stale_names = str(error)
        if stale_names:
            failures.append(stale_names)
        print(f"(d) pnport name table: {'out of date' if stale_names else 'up to date'}")
    except (CheckError, extract_snippets.SnippetError) as error:
        failures.append(str(error))

    if failures:
        print(f"\ncheck-migration: {len(failures)} problem(s):", file=sys.stderr)
        for failure in failures:
            print(f"  - {failure}", file=sys.stderr)
        return 1
    print("check-migration: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
