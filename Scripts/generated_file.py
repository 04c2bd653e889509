"""What the scripts that write generated files share (extract-names.py, extract-snippets.py, docc-articles.py):
telling whether a file holds what it should, and the `--check` exit status. Python 3 standard library only.

The scripts import it by name: Python puts the directory of the script it runs first on `sys.path`, and
check-migration.py, which loads extract-names.py and extract-snippets.py as modules, runs from this same directory.
"""

import sys


def problem(path, expected, root, script):
    """None when the file at `path` holds `expected`, else a message naming the file (relative to `root`), whether
    it is missing or out of date, and the `script` that rewrites it."""
    current = path.read_text(encoding="utf-8") if path.exists() else None
    if current == expected:
        return None
    state = "missing" if current is None else "out of date"
    return f"{path.relative_to(root)} is {state}: run {script}"


def check_status(problems, up_to_date, prefix=""):
    """The exit status of a script's `--check`: prints each of `problems` to standard error and returns 1, or prints
    `up_to_date` and returns 0 when there are none."""
    for message in problems:
        print(f"{prefix}{message}", file=sys.stderr)
    if problems:
        return 1
    print(f"{prefix}{up_to_date}")
    return 0
