#!/usr/bin/env python3
"""Writes the porting guide's DocC articles from MIGRATION.md (and README.md's LocalOrigin section), so the
documentation catalogs and the guide are one text: each article is a section of the document with its headings
moved up a level, its in-document links turned into DocC links (`<doc:Article>`, `<doc:Article#Heading>`) where the
target is an article of the same catalog, and links to files of the repository turned into plain text.

Usage (from anywhere):
    Scripts/docc-articles.py           # (re)write the generated articles
    Scripts/docc-articles.py --check   # exit 1 if an article is not what the documents give (Scripts/build-docs.sh)

The articles live in `Sources/<Module>/<Module>.docc/Generated/`; that folder holds nothing else, and every file in it
is rewritten. Python 3 standard library only.
"""

import argparse
import re
import sys
from pathlib import Path

import generated_file

ROOT = Path(__file__).resolve().parent.parent

# (module, article file name, document, heading of the section, title). The heading is matched exactly, without
# its leading `#`s; None takes the document's introduction (everything before its first `## ` heading).
ARTICLES = [
    ("PubNubLegacy", "PortingGuide", "MIGRATION.md", None, "Porting guide: from PubNub 3.4 to PubNubLegacy"),
    ("PubNubLegacy", "AddingThePackage", "MIGRATION.md", "1. Adding the package", None),
    ("PubNubLegacy", "NamingRule", "MIGRATION.md", "2. The naming rule", None),
    ("PubNubLegacy", "StartCodingExample", "MIGRATION.md", '3. The 3.4 "start coding" example, ported', None),
    ("PubNubLegacy", "DeliveryOrder", "MIGRATION.md", "4. Delivery: one event, four channels, one queue", None),
    ("PubNubLegacy", "DifferencesFrom342", "MIGRATION.md", "5. Behaviour that differs from 3.4.2", None),
    ("PubNubLegacy", "NotificationsGuide", "MIGRATION.md", "6. Notifications", None),
    ("PubNubLegacy", "ObservationCenterGuide", "MIGRATION.md", "7. PNObservationCenter", None),
    ("PubNubLegacy", "EncryptionErrorsLogging", "MIGRATION.md", "8. Encryption, errors and logging", None),
    ("PubNubLegacy", "Reference", "MIGRATION.md", "9. Reference: every 3.4 name", None),
    ("PubNubLegacy", "PortingARealApp", "MIGRATION.md", "10. Porting a real app", None),
    ("PubNubLegacy", "ModernisingAPortedApp", "MIGRATION.md", "11. Modernising a ported app", None),
    ("PNObservation", "ObservationCenterGuide", "MIGRATION.md", "7. PNObservationCenter", None),
    ("PNObservation", "DeliveryOrder", "MIGRATION.md", "4. Delivery: one event, four channels, one queue", None),
    ("PubNubAsync", "ModernisingAPortedApp", "MIGRATION.md", "11. Modernising a ported app", None),
    ("LocalOrigin", "DevelopingOffline", "MIGRATION.md", "Developing offline with LocalOrigin", None),
    ("LocalOrigin", "LocalOriginFromSwift", "README.md", "Use LocalOrigin from Swift", "Using LocalOrigin from Swift"),
]

# The abstract of each article: the one sentence DocC shows under its title and beside its link in every topic list.
# A section's own opening often ends in a colon before a list or a code block, or runs to a whole paragraph, which
# reads badly there; so the abstract is written here and the section follows it whole.
ABSTRACTS = {
    "PortingGuide": "Port an app written against the PubNub 3.4 Objective-C client to Swift by one mechanical rule, "
    "keeping its structure.",
    "AddingThePackage": "Depend on the package from a SwiftPM manifest: the products, the platforms line, and the "
    "package name SwiftPM gives a dependency.",
    "NamingRule": "How every 3.4 selector, constant and type gets its Swift name, word for word, so `grep` still "
    "finds it.",
    "StartCodingExample": "The 3.4.2 README's first program, in Objective-C and ported to Swift line by line.",
    "DeliveryOrder": "Each event reaches the delegate, the observation center, the notification and the completion "
    "block, in that order, once each, on the delivery queue.",
    "DifferencesFrom342": "What behaves differently from 3.4.2, and why: the defects fixed, the ambiguities decided, "
    "the lifecycle and TLS rules.",
    "NotificationsGuide": "The 34 `kPN…Notification` names: when each is posted, in which order, and where its "
    "payload is.",
    "ObservationCenterGuide": "`PNObservationCenter`: persistent observers of one kind of event, for the shared "
    "client or any other.",
    "EncryptionErrorsLogging": "The cipher key, the `PNError` codes with their causes, and the log, where this "
    "package goes beyond 3.4.2.",
    "Reference": "Every 3.4 name (method, delegate callback, constant, notification, type) beside its Swift "
    "declaration.",
    "PortingARealApp": "Run `pnport` over a 3.x code base, then port it: three of PubNub's own 3.x programs ported "
    "by the rule, and every line the rule did not carry.",
    "ModernisingAPortedApp": "Once the port runs, move it to `async`/`await` file by file with `PubNubAsync`, on the "
    "same connection as the 3.4 API.",
    "DevelopingOffline": "Run the guide's start-coding program against a `LocalOrigin` in the same process, with no "
    "network and no keys.",
    "LocalOriginFromSwift": "Start a PubNub-compatible origin on 127.0.0.1 in your process and point any PubNub "
    "client at it.",
}

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*```")
COMMENT = re.compile(r"^\s*<!--.*-->\s*$")
LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)")
NUMBER = re.compile(r"^\d+\.\s+")


class ArticleError(Exception):
    """A document the generator cannot turn into articles."""


def github_anchor(text):
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = text.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def docc_fragment(text):
    """The fragment DocC gives a heading: punctuation dropped, white space as hyphens, case kept."""
    text = text.replace("`", "")
    text = re.sub(r"[^\w\s-]", "", text)
    return re.sub(r"\s+", "-", text.strip())


def headings(lines):
    """(index, level, text) of every heading outside code blocks."""
    found, fenced = [], False
    for index, line in enumerate(lines):
        if FENCE.match(line):
            fenced = not fenced
            continue
        match = None if fenced else HEADING.match(line)
        if match:
            found.append((index, len(match.group(1)), match.group(2)))
    return found


def section(lines, heading, document):
    """The lines of the section titled `heading` (None: the introduction), heading line excluded, and its level."""
    marks = headings(lines)
    if heading is None:
        first = next((index for index, level, _ in marks if level == 2), len(lines))
        start = next((index for index, level, _ in marks if level == 1), -1) + 1
        return lines[start:first], 1
    for position, (index, level, text) in enumerate(marks):
        if text == heading:
            end = next((later for later, other, _ in marks[position + 1 :] if other <= level), len(lines))
            return lines[index + 1 : end], level
    raise ArticleError(f"{document}: no heading '{heading}'")


def anchor_table(sources):
    """{(document, GitHub anchor): (module, article, DocC fragment or None for the article itself)}: where each
    heading of the documents ends up, per catalog."""
    table = {}
    for module, article, document, heading, _ in ARTICLES:
        lines = sources[document]
        body, level = section(lines, heading, document)
        if heading is not None:
            table.setdefault((document, github_anchor(heading)), {})[module] = (article, None)
        for _, sublevel, text in headings(body):
            if sublevel > level:
                table.setdefault((document, github_anchor(text)), {})[module] = (article, docc_fragment(text))
    return table


def rewrite_links(line, document, module, table, where):
    """`line` with its links made DocC links (same catalog), plain text (other catalog, repository files) or kept
    (web addresses)."""

    def replace(match):
        text, target = match.group(1), match.group(2)
        if re.match(r"^[a-z]+://", target) or target.startswith("mailto:"):
            return match.group(0)
        path, _, anchor = target.partition("#")
        linked_document = path or document
        if anchor and linked_document in ("MIGRATION.md", "README.md"):
            places = table.get((linked_document, anchor))
            if places is None and linked_document == document:
                raise ArticleError(f"{where}: link to #{anchor}, which no article of this list holds")
            if places and module in places:
                article, fragment = places[module]
                return f"[{text}](<doc:{article}{'#' + fragment if fragment else ''}>)"
            return text if linked_document == "MIGRATION.md" else f"{text} (README.md)"
        return text

    return LINK.sub(replace, line)


def render(module, article, document, heading, title, sources, table):
    """The article's Markdown."""
    body, level = section(sources[document], heading, document)
    title = title or NUMBER.sub("", heading)
    if article not in ABSTRACTS:
        raise ArticleError(f"{article}: no abstract in ABSTRACTS")
    out = [f"# {title}", "", ABSTRACTS[article], ""]
    prose = []  # lines of text waiting for their links to be rewritten: a link may span lines

    def flush():
        if prose:
            out.extend(rewrite_links("\n".join(prose), document, module, table, f"{document} ({article})").split("\n"))
            prose.clear()

    fenced = False
    for line in body:
        if FENCE.match(line):
            flush()
            fenced = not fenced
            out.append(line)
        elif fenced:
            out.append(line)
        elif COMMENT.match(line):
            flush()
        elif HEADING.match(line):
            flush()
            match = HEADING.match(line)
            depth = max(2, len(match.group(1)) - (level - 1))
            out.append("#" * depth + " " + rewrite_links(match.group(2), document, module, table, document))
        else:
            prose.append(line)
    flush()
    text = "\n".join(out).strip() + "\n"
    text = re.sub(r"\n{3,}", "\n\n", text)
    source = f'"{heading}"' if heading else "its introduction"
    return text + (
        f"\n<!-- Generated by Scripts/docc-articles.py from {document}, {source}: edit {document} and run the "
        "script; Scripts/build-docs.sh fails when this file is out of date. -->\n"
    )


# MARK: - Topics of the PubNub class, from the reference tables


def split_top_level(text):
    """`text` split at the commas outside brackets and parentheses."""
    parts, depth, current = [], 0, ""
    for index, char in enumerate(text):
        if char in "([<":
            depth += 1
        elif char in ")]" or (char == ">" and text[index - 1 : index] != "-"):
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return parts + [current] if current.strip() else parts


def symbol_path(declaration):
    """The DocC path (below the type) of a Swift declaration as MIGRATION.md's tables spell it, or None."""
    match = re.match(r"^(static\s+)?func\s+(\w+)\((.*)\)(\s*->.*)?$", declaration)
    if match:
        labels = []
        for parameter in split_top_level(match.group(3)):
            head = parameter.split(":", 1)[0].split()
            labels.append((head[0] if head else "_") + ":")
        kind = "-swift.type.method" if match.group(1) else "-swift.method"
        return f"{match.group(2)}({''.join(labels)}){kind}"
    match = re.match(r"^(?:static\s+)?(?:var|let)\s+(\w+)\s*:", declaration)
    return match.group(1) if match else None


def pubnub_topics(lines):
    """The extension page of ``PubNub``: its members grouped as MIGRATION.md §9 groups them."""
    body, _ = section(lines, "PubNub", "MIGRATION.md")
    groups, group, seen = [], None, set()
    for line in body:
        heading = HEADING.match(line)
        if heading:
            group = (heading.group(2), [])
            groups.append(group)
            continue
        if group is None or not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
        for cell in cells[1:]:
            for span in re.findall(r"`([^`]+)`", cell):
                path = symbol_path(span)
                if path and path not in seen and re.match(r"^(static\s+)?(func|var|let)\s", span):
                    seen.add(path)
                    group[1].append(path)
    out = [
        "# ``PubNubLegacy/PubNub``",
        "",
        "## Topics",
    ]
    for title, paths in groups:
        if paths:
            out += ["", f"### {title}", ""] + [f"- ``{path}``" for path in paths]
    return "\n".join(out) + (
        "\n\n<!-- Generated by Scripts/docc-articles.py from the PubNub tables of MIGRATION.md §9: edit MIGRATION.md "
        "and run the script. -->\n"
    )


def generated(root=ROOT):
    """{path: text} of every article."""
    sources = {}
    for _, _, document, _, _ in ARTICLES:
        sources.setdefault(document, (root / document).read_text(encoding="utf-8").splitlines())
    table = anchor_table(sources)
    files = {}
    for module, article, document, heading, title in ARTICLES:
        path = root / "Sources" / module / f"{module}.docc" / "Generated" / f"{article}.md"
        files[path] = render(module, article, document, heading, title, sources, table)
    topics = root / "Sources" / "PubNubLegacy" / "PubNubLegacy.docc" / "Generated" / "PubNub.md"
    files[topics] = pubnub_topics(sources["MIGRATION.md"])
    return files


def stale(root=ROOT):
    """What differs between the generated articles and the files: missing, out of date, or not generated."""
    files = generated(root)
    problems = []
    for path, text in files.items():
        problem = generated_file.problem(path, text, root, "Scripts/docc-articles.py")
        if problem:
            problems.append(problem)
    for folder in {path.parent for path in files}:
        for existing in folder.glob("*") if folder.exists() else []:
            if existing not in files:
                problems.append(
                    f"{existing.relative_to(root)} is not generated (the Generated folders hold only what this"
                    " script writes): run Scripts/docc-articles.py"
                )
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only verify that the articles are up to date")
    args = parser.parse_args()
    try:
        if args.check:
            up_to_date = f"{len(generated())} generated files up to date"
            return generated_file.check_status(stale(), up_to_date, prefix="docc-articles: ")
        files = generated()
        for folder in {path.parent for path in files}:
            folder.mkdir(parents=True, exist_ok=True)
            for existing in folder.glob("*.md"):
                if existing not in files:
                    existing.unlink()
        for path, text in files.items():
            path.write_text(text, encoding="utf-8")
        print(f"docc-articles: wrote {len(files)} files")
        return 0
    except ArticleError as error:
        print(f"docc-articles: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
