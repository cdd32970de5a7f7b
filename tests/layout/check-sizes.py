#!/usr/bin/env python3
"""check-sizes.py: no source file of plugin/, runtime/, contract/ or include/
over 700 lines, no function over 150 (a function: a definition at the left
margin, as clang-format lays them out, to its closing brace there).

The files and functions over the limits today are listed below with their
sizes: a listed size is what the file or function has (a ratchet: one that
shrinks lowers its entry, one back within the limit leaves the list), never
more, and a new one over the limit fails. Issue 57 empties the list.
Usage: check-sizes.py SOURCE_DIR
"""
import os
import re
import sys

FILE_LIMIT, FUNCTION_LIMIT = 700, 150
# path: lines
OVER_FILES = {
}
# (path, the definition's first line up to its '('): lines
OVER_FUNCTIONS = {
}
NOT_A_FUNCTION = re.compile(
    r"(namespace|class|struct|enum|union|extern|template\s*<[^>]*>\s*(struct|class)"
    r"|#|//|using|typedef|public:|private:|protected:)")


def functions(lines):
    """(name, first line, length) of each definition at the left margin."""
    candidate = start = None
    for i, line in enumerate(lines):
        if start is None:
            if line and not line[0].isspace() and not line.startswith("}") \
                    and not NOT_A_FUNCTION.match(line):
                candidate = i
            if candidate is not None:
                text = line.rstrip()
                if text.endswith(";"):
                    candidate = None
                elif text.endswith("{"):
                    header = " ".join(lines[candidate:i + 1])
                    if "(" in header:
                        start = candidate
                    candidate = None
        elif line.startswith("}"):
            yield lines[start].split("(")[0].strip(), start + 1, i - start + 1
            start = None


def main():
    root = sys.argv[1]
    failures, checked = [], 0
    seen_files, seen_functions = {}, {}
    for top in ("plugin", "runtime", "contract", "include"):
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                if not name.endswith((".cpp", ".h", ".def", ".in")):
                    continue
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, root)
                lines = open(path, errors="replace").read().split("\n")
                checked += 1
                seen_files[rel] = len(lines) - 1
                allowed = OVER_FILES.get(rel, FILE_LIMIT)
                if len(lines) - 1 > allowed:
                    failures.append("%s: %d lines (at most %d)" %
                                    (rel, len(lines) - 1, allowed))
                for fn, at, length in functions(lines):
                    seen_functions[(rel, fn)] = max(
                        length, seen_functions.get((rel, fn), 0))
                    allowed = OVER_FUNCTIONS.get((rel, fn), FUNCTION_LIMIT)
                    if length > allowed:
                        failures.append("%s:%d: %s is %d lines (at most %d)" %
                                        (rel, at, fn, length, allowed))
    for rel, listed in OVER_FILES.items():
        if seen_files.get(rel, 0) < listed:
            failures.append("%s: listed at %d lines, has %s: %s" % (
                rel, listed, seen_files.get(rel, "none"),
                "remove its entry" if seen_files.get(rel, 0) <= FILE_LIMIT
                else "lower its entry"))
    for key, listed in OVER_FUNCTIONS.items():
        if seen_functions.get(key, 0) < listed:
            failures.append("%s: %s listed at %d lines, has %s: %s" % (
                key[0], key[1], listed, seen_functions.get(key, "none"),
                "remove its entry" if seen_functions.get(key, 0) <=
                FUNCTION_LIMIT else "lower its entry"))
    for f in failures:
        print("FAIL: " + f)
    print("%d files checked, %d over their limits" % (checked, len(failures)))
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
