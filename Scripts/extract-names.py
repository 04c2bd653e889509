#!/usr/bin/env python3
"""Writes the name table of the porting assistant (`pnport`) from MIGRATION.md's checked mapping tables into
Sources/PNPort/Names.generated.swift, so the assistant and Scripts/check-migration.py read one table.

Usage (from anywhere):
    Scripts/extract-names.py           # (re)write the generated file
    Scripts/extract-names.py --check   # exit 1 if the generated file is not what MIGRATION.md gives

The tables are read with Scripts/check-migration.py's own reader (`read_tables`, `parse_marker`, `code_spans`):
every table with a `<!-- check: … -->` marker becomes one line per row. Why a generated file and not MIGRATION.md
read at run time: the `pnport` binary then works wherever it is copied (a team runs it on its own app, outside this
repository), and a renamed or added row shows in review as a change of the table the assistant uses.
check-migration.py runs `--check`, as it does for the snippets. Python 3 standard library only.

Line format of `NameTable.migrationRows` (fields separated by " ‖ ", lists by " ¦ "):
    section ‖ heading ‖ 3.4 spans ‖ container::Swift span … ‖ note
- section: the number of the `## N.` section the table is in; heading: the nearest `###`/`####` heading;
- 3.4 spans: the code spans of the "3.4" (or "3.4 (protected)", "3.x app's declaration") column;
- the Swift spans of every column the marker names, each with the type that declares it (`-` for top level);
- note: the row's last cell, only for rows whose Swift column is `—` (a 3.4 name the package does not have).
`NameTable.migrationSections` lists the `## N. Title` headings, so the assistant cites sections that exist.
"""

import argparse
import importlib.util
import re
import sys
from pathlib import Path

import generated_file

ROOT = Path(__file__).resolve().parent.parent
MIGRATION = ROOT / "MIGRATION.md"
OUTPUT = ROOT / "Sources" / "PNPort" / "Names.generated.swift"
OBJC_COLUMNS = ["3.4", "3.4 (protected)", "3.x app's declaration"]
FIELD = " ‖ "
ITEM = " ¦ "
SECTION_HEADING = re.compile(r"^##\s+(\d+)\.\s+(.*?)\s*$")
SUB_HEADING = re.compile(r"^#{3,4}\s+(.*?)\s*$")


class NamesError(Exception):
    """MIGRATION.md cannot be turned into the table."""


def load_checker():
    """Scripts/check-migration.py as a module (its file name is not an identifier)."""
    sys.dont_write_bytecode = True
    path = Path(__file__).resolve().parent / "check-migration.py"
    spec = importlib.util.spec_from_file_location("check_migration", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def headings_by_line(text):
    """For each line number (1-based): (section number, nearest ### or #### heading) in force there."""
    result, section, heading, in_fence = {}, "", "", False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        if not in_fence:
            top = SECTION_HEADING.match(line)
            sub = SUB_HEADING.match(line)
            if top:
                section, heading = top.group(1), top.group(2)
            elif sub:
                heading = sub.group(1).replace("`", "")
        result[number] = (section, heading)
    return result


def sections(text):
    """[(number, title)] of the `## N. Title` headings outside code fences."""
    found, in_fence = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        match = None if in_fence else SECTION_HEADING.match(line)
        if match:
            found.append((match.group(1), match.group(2)))
    return found


def clean(text):
    for forbidden in (FIELD.strip(), ITEM.strip(), '"""#'):
        if forbidden in text:
            raise NamesError(f"MIGRATION.md uses {forbidden!r}, which the generated table reserves: {text}")
    return " ".join(text.split())


def rows(text, checker):
    """The lines of `migrationRows`."""
    where = headings_by_line(text)
    lines = []
    for line, _, marker, header, table_rows in checker.read_tables(text):
        if marker is None:
            continue
        _, columns = checker.parse_marker(marker, f"MIGRATION.md:{line}")
        section, heading = where[line]
        objc_column = next((name for name in OBJC_COLUMNS if name in header), None)
        for row in table_rows:
            cells = dict(zip(header, row))
            objc = checker.code_spans(cells.get(objc_column, "")) if objc_column else []
            swift = [
                f"{container}::{span}"
                for column, container in columns.items()
                for span in checker.code_spans(cells.get(column, ""))
            ]
            note = ""
            if not swift and row and row[-1] != cells.get(objc_column):
                note = re.sub(r"`", "", row[-1])
            fields = [clean(section), clean(heading), ITEM.join(map(clean, objc)), ITEM.join(map(clean, swift)), clean(note)]
            lines.append(FIELD.join(fields).rstrip())
    if not lines:
        raise NamesError("MIGRATION.md has no marked mapping table")
    return lines


def generated_text(root=ROOT):
    path = root / MIGRATION.relative_to(ROOT)
    if not path.exists():
        raise NamesError(f"{path} is missing")
    text = path.read_text(encoding="utf-8")
    checker = load_checker()
    out = [
        "// swift-format-ignore-file",
        "// Generated by Scripts/extract-names.py from MIGRATION.md's checked tables: do not edit, edit MIGRATION.md",
        "// and run the script. Scripts/check-migration.py fails when this file is out of date.",
        "",
        "extension NameTable {",
        "    /// MIGRATION.md's numbered sections, one `number ‖ title` a line.",
        '    static let migrationSections = #"""',
    ]
    out += [f"    {clean(number)}{FIELD}{clean(title)}" for number, title in sections(text)]
    out += [
        '    """#',
        "",
        "    /// Every row of MIGRATION.md's checked tables: `section ‖ heading ‖ 3.4 spans ‖ container::Swift spans ‖",
        "    /// note`, lists separated by ` ¦ ` (Scripts/extract-names.py says what each field holds).",
        '    static let migrationRows = #"""',
    ]
    out += [f"    {line}" for line in rows(text, checker)]
    out += ['    """#', "}"]
    return "\n".join(out) + "\n"


def check(root=ROOT):
    """None when the generated file is up to date, else a message saying what to do."""
    return generated_file.problem(root / OUTPUT.relative_to(ROOT), generated_text(root), root, "Scripts/extract-names.py")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only verify that the generated file is up to date")
    args = parser.parse_args()
    try:
        if args.check:
            problems = [problem for problem in [check()] if problem]
            return generated_file.check_status(problems, f"{OUTPUT.relative_to(ROOT)} is up to date")
        text = generated_text()
        OUTPUT.parent.mkdir(parents=True, exist_ok=True)
        OUTPUT.write_text(text, encoding="utf-8")
        rows_text = text.split("static let migrationRows", 1)[1]
        print(f"wrote {OUTPUT.relative_to(ROOT)} ({rows_text.count(chr(10)) - 3} rows)")
        return 0
    except NamesError as error:
        print(f"extract-names: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
