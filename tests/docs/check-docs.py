#!/usr/bin/env python3
"""check-docs.py: the documentation held to the code, so that it cannot drift.

  check-docs.py blocks ROOT --clang CLANG --plugin SO --lib DIR
      Every C++ block (```cpp) of README.md, docs/, samples/README.md and
      benchmarks/README.md compiled with the plugin; one with a main() built
      and run on the checked simulator, which must exit 0. A block without
      <weft/weft.hpp> gets it and the common standard headers first. Lines
      of a block may say what it needs and what the plugin must print:
        // flags: -fopenmp -std=c++17     more compile flags
        // expect-error: TEXT             the build fails, printing TEXT
        // expect-warning: TEXT           (-remark: ...) printed, build passes
      Otherwise the build must print no error and no warning.
  check-docs.py names ROOT
      Every environment variable, plugin argument, clause and test path the
      docs name exists in the code; every variable the runtime reads, every
      plugin argument, clause and public function of weft.hpp is in
      docs/reference.md.
  check-docs.py diagnostics ROOT
      Every message docs/troubleshooting.md quotes (a table's first column,
      in backticks) is one the plugin or the runtime prints: each run of
      its text between quoted names is in their sources' string literals;
      and every message the plugin's diagnostics and the runtime's warnings
      start with is listed there.

Prints one line per problem and 'N passed, N failed' at the end; exits 1 on
any failure.
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

PREAMBLE = """#include <weft/weft.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <span>
#include <vector>
using std::size_t;
"""


def doc_files(root):
    files = [os.path.join(root, "README.md")]
    files += sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    for extra in ("samples/README.md", "benchmarks/README.md"):
        if os.path.exists(os.path.join(root, extra)):
            files.append(os.path.join(root, extra))
    return files


def fenced_blocks(path):
    """(line, info, text) of each fenced block."""
    blocks, info, start, lines = [], None, 0, []
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        if info is None:
            m = re.match(r"^```(\S*)", line)
            if m:
                info, start, lines = m.group(1), n, []
        elif line.startswith("```"):
            blocks.append((start, info, "".join(lines)))
            info = None
        else:
            lines.append(line)
    return blocks


class Tally:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL: " + what)

    def finish(self):
        print("%d passed, %d failed" % (self.passed, self.failed))
        return 1 if self.failed else 0


def check_blocks(args, tally):
    for path in doc_files(args.root):
        rel = os.path.relpath(path, args.root)
        for line, info, text in fenced_blocks(path):
            if info not in ("cpp", "c++"):
                continue
            where = "%s:%d" % (rel, line)
            flags = sum((m.split() for m in
                         re.findall(r"//\s*flags:(.*)", text)), [])
            expected = re.findall(r"//\s*expect-(error|warning|remark):\s*(.*)",
                                  text)
            source = text if "<weft/weft.hpp>" in text else PREAMBLE + text
            has_main = re.search(r"\bint\s+main\s*\(", text) is not None
            with tempfile.TemporaryDirectory() as tmp:
                src = os.path.join(tmp, "block.cpp")
                open(src, "w").write(source)
                exe = os.path.join(tmp, "block")
                cmd = [args.clang, "-std=c++20", "-I" + os.path.join(args.root, "include"),
                       "-fplugin=" + args.plugin, "-fno-color-diagnostics"]
                cmd += flags + [src]
                if has_main and not expected:
                    cmd += ["-o", exe, "-L" + args.lib, "-Wl,-rpath," + args.lib, "-lweft"]
                else:
                    cmd += ["-fsyntax-only"]
                if "-fopenmp" in flags:
                    omp = "/usr/lib/llvm-%s/lib" % re.sub(r"\D", "", os.path.basename(args.clang))[:2]
                    if has_main and not expected:
                        cmd += ["-L" + omp, "-Wl,-rpath," + omp]
                built = subprocess.run(cmd, capture_output=True, text=True)
                out = built.stdout + built.stderr
                if expected:
                    for kind, want in expected:
                        tally.check(("%s: " % kind) in out and want.strip() in out,
                                    "%s: the plugin does not print %s '%s'; it printed:\n%s"
                                    % (where, kind, want.strip(), out[-2000:]))
                    if not any(k == "error" for k, _ in expected):
                        tally.check(built.returncode == 0, "%s: does not build:\n%s"
                                    % (where, out[-2000:]))
                    continue
                clean = built.returncode == 0 and not re.search(r"\b(error|warning): ", out)
                tally.check(clean, "%s: does not build cleanly with the plugin:\n%s"
                            % (where, out[-2000:]))
                if not clean or not has_main:
                    continue
                env = dict(os.environ, WEFT_BACKEND="sim", WEFT_SIM_CHECK="1",
                           WEFT_ON_FAULT="error", WEFT_CACHE_DIR=os.path.join(tmp, "cache"))
                ran = subprocess.run([exe], capture_output=True, text=True, env=env,
                                     timeout=600)
                tally.check(ran.returncode == 0, "%s: exits %d on the checked simulator:\n%s"
                            % (where, ran.returncode, (ran.stdout + ran.stderr)[-2000:]))


def read(root, *patterns):
    text = ""
    for pattern in patterns:
        for path in glob.glob(os.path.join(root, pattern), recursive=True):
            if os.path.isfile(path):
                text += open(path, encoding="utf-8", errors="replace").read() + "\n"
    return text


CODE = ("plugin/**/*.cpp", "plugin/**/*.h", "runtime/**/*.cpp", "runtime/**/*.h",
        "include/**/*.h", "include/**/*.hpp", "contract/**/*.cpp", "contract/**/*.h",
        "contract/**/*.def", "cmake/**/*", "scripts/*", "tests/**/*.py", "tests/**/*.sh",
        "tests/**/*.cpp", "tests/**/*.txt", "benchmarks/**/*.sh", "benchmarks/**/*.cpp",
        "samples/**/*.sh", "samples/**/*.h", "samples/**/*.cpp", "**/CMakeLists.txt")


def table_column(text, heading):
    """The first column's cells of the first table after heading."""
    part = text.split("\n## " + heading + "\n", 1)
    if len(part) < 2:
        return []
    cells = []
    for line in part[1].split("\n## ", 1)[0].splitlines():
        if line.startswith("|") and not line.startswith("| ---"):
            cells.append(line.split("|")[1].strip())
    return cells[1:]


def check_names(args, tally):
    root = args.root
    docs = "".join(open(p, encoding="utf-8").read() for p in doc_files(root))
    reference = open(os.path.join(root, "docs", "reference.md"), encoding="utf-8").read()
    code = read(root, *CODE)

    # Environment variables: named in the docs -> in the code; read by the
    # runtime -> in the reference.
    for name in sorted(set(re.findall(r"\bWEFT_[A-Z][A-Z_0-9]*[A-Z0-9]\b", docs))):
        tally.check(name in code, "the docs name %s, which no code reads or defines" % name)
    runtime = read(root, "runtime/**/*.cpp", "include/**/*.h", "include/**/*.hpp")
    for name in sorted(set(re.findall(r'getenv\("(WEFT_[A-Z_0-9]+)"\)', runtime))):
        tally.check("`%s`" % name in reference,
                    "the runtime reads %s, which docs/reference.md does not list" % name)

    # Plugin arguments.
    plugin_main = open(os.path.join(root, "plugin", "PluginOptions.cpp")).read()
    parsed = set(re.findall(r'\(A == "([a-z-]+)', plugin_main)) | set(
        re.findall(r'consume_front\("([a-z-]+)=', plugin_main))
    for name in sorted(set(re.findall(r"-fplugin-arg-weft-([a-z-]+)", docs))):
        tally.check(name in parsed, "the docs name -fplugin-arg-weft-%s, which the plugin "
                    "does not take" % name)
    listed = {re.match(r"`([a-z-]+)", c).group(1)
              for c in table_column(reference, "Plugin arguments") if c.startswith("`")}
    for name in sorted(parsed):
        tally.check(name in listed, "the plugin takes -fplugin-arg-weft-%s, which "
                    "docs/reference.md does not list" % name)

    # Clauses.
    clauses_src = open(os.path.join(root, "plugin", "syntax", "Clauses.cpp")).read()
    taken = set(re.findall(r'Name == "([a-z_]+)"', clauses_src))
    documented = {re.match(r"`([a-z_]+)\(", c).group(1)
                  for c in table_column(reference, "Clauses") if re.match(r"`[a-z_]+\(", c)}
    for name in sorted(documented):
        tally.check(name in taken, "docs/reference.md lists the clause %s(...), which "
                    "the plugin does not take" % name)
    for name in sorted(taken):
        tally.check(name in documented, "the plugin takes the clause %s(...), which "
                    "docs/reference.md does not list" % name)

    # Public functions and types of namespace weft (not weft::detail).
    public = set()
    for header in ("include/weft/weft.hpp", "include/weft/abi.h"):
        stack = []
        for line in open(os.path.join(root, header), encoding="utf-8"):
            m = re.match(r"\s*namespace\s+(\w+)\s*\{", line)
            if m:
                stack.append(m.group(1))
                continue
            if re.match(r"\s*\}\s*//\s*namespace", line) and stack:
                stack.pop()
                continue
            if stack != ["weft"] or line.startswith((" ", "\t", "/", "#")):
                continue
            m = re.match(r"(?:WEFT_WEAK\s+)?(?:inline\s+|constexpr\s+)*"
                         r"(?:class|struct)\s+(\w+)\s*\{", line) or re.match(
                r"(?:WEFT_WEAK\s+)?(?:inline\s+|constexpr\s+)*[\w:<>,\s\*&]+?[\s\*&](\w+)\(",
                line)
            if m and not m.group(1).startswith("_"):
                public.add(m.group(1))
    section = reference.split("## Public functions", 1)[-1]
    for name in sorted(public):
        tally.check(re.search(r"\b%s\b" % re.escape(name), section) is not None,
                    "weft::%s is public in weft.hpp, and docs/reference.md does not "
                    "list it" % name)

    # Tools' options: each the reference lists is one the tool takes.
    tools = {"weft-config": open(os.path.join(root, "cmake", "weft-config.in")).read(),
             "weft-tune": open(os.path.join(root, "runtime", "tools", "weft-tune.cpp")).read(),
             "weft-report": open(os.path.join(root, "runtime", "tools", "weft-report")).read()}
    for line in reference.split("## Tools", 1)[-1].split("\n## ", 1)[0].splitlines():
        m = re.match(r"\| `(weft-config|weft-tune|weft-report)` \| ([^|]*)\|", line)
        if not m:
            continue
        for option in re.findall(r"`(--?[a-z-]+|[a-z]+)[ =`]", m.group(2)):
            tally.check(option in tools[m.group(1)], "docs/reference.md lists %s %s, "
                        "which it does not take" % (m.group(1), option))

    # Tests the docs point at.
    for path in sorted(set(re.findall(r"`(tests/[\w./-]+\.(?:cpp|sh|py|cu))`", docs))):
        tally.check(os.path.exists(os.path.join(root, path)),
                    "the docs point at %s, which does not exist" % path)


def string_literals(root):
    """The sources' string literals, adjacent ones joined."""
    joined = []
    for path in glob.glob(os.path.join(root, "plugin/**/*.cpp"), recursive=True) + \
            glob.glob(os.path.join(root, "plugin/**/*.h"), recursive=True) + \
            glob.glob(os.path.join(root, "runtime/**/*.cpp"), recursive=True) + \
            glob.glob(os.path.join(root, "runtime/**/*.h"), recursive=True) + \
            glob.glob(os.path.join(root, "contract/**/*.cpp"), recursive=True) + \
            glob.glob(os.path.join(root, "include/**/*.h*"), recursive=True):
        text = open(path, encoding="utf-8", errors="replace").read()
        text = re.sub(r'"\s*\n\s*"', "", text)  # "abc "\n "def" is "abc def"
        joined += [bytes(s, "utf-8").decode("unicode_escape", errors="replace")
                   for s in re.findall(r'"((?:[^"\\\n]|\\.)*)"', text)]
    # printf's conversions are what the program fills in.
    text = re.sub(r"%[-+ #0-9.]*[a-z]+", "\n", "\n".join(joined))
    # A quote ends a segment: what stands between quotes is a name.
    text = re.sub(r"[ \t]+", " ", re.sub(r"[,;:]", " ", text))
    text = re.sub(r"(?<![A-Za-z])'|'(?![A-Za-z])", "\n", text)
    return "\n" + "\n".join(line.strip() for line in text.split("\n")) + "\n"


def printed(run, literals):
    """Whether run is what literals print one after another: split at word
    boundaries into pieces, the longest first, each a literal's whole
    segment where another piece follows or precedes it (the end of one
    literal, the start of the next), punctuation aside."""
    words = re.sub(r"[,;:]", " ", run).split()
    first = True
    while words:
        for n in range(len(words), 0, -1):
            piece = " ".join(words[:n])
            last = n == len(words)
            key = ("" if first else "\n") + piece + ("" if last else "\n")
            if key in literals:
                words, first = words[n:], False
                break
        else:
            return False
    return True


def check_diagnostics(args, tally):
    path = os.path.join(args.root, "docs", "troubleshooting.md")
    literals = string_literals(args.root)
    for line in open(path, encoding="utf-8"):
        if not line.startswith("| `"):
            continue
        message = re.match(r"\| `([^`]+)`", line).group(1)
        message = re.sub(r"^(weft: )?(warning|error|remark|note): ", "", message)
        # What the program fills in: quoted names, numbers, file:line, and
        # what the quote leaves out (...).
        chunks = re.split(r"'[^'\s]*'|\('[^']*'\)|\b\w+\([^)]*\)|\b\w\b(?= =)|-?\b\d+\b|\.\.\.|\bweft: |\bwarning: ", message)
        runs = [c.strip(" :;,.()") for c in chunks]
        # Runs of two words or more; a short message ("expected 'for' after
        # ...") is checked by its longer single words.
        runs = [c for c in runs if len(c.split()) >= 2] or \
            [c for c in runs if len(c) >= 5]
        missing = [c for c in runs if not printed(c, literals)]
        tally.check(runs and not missing,
                    "docs/troubleshooting.md quotes `%s`, and no source prints %s"
                    % (message, "it" if not runs else "'" + "', '".join(missing) + "'"))


def check_every_message_listed(args, tally):
    """The other way: each message a diagnostic of the plugin (fail, error,
    diagnose) or a warning of the runtime (warn, fault) starts with, its
    first literal up to the first name it quotes, is in troubleshooting.md."""
    listed = re.sub(r"\s+", " ", open(os.path.join(
        args.root, "docs", "troubleshooting.md"), encoding="utf-8").read())
    calls = {"plugin": r"\b(fail|failExpr|error|diagnose)\(",
             "runtime": r"\b(warn|fault)\("}
    for folder, call in calls.items():
        for path in sorted(glob.glob(os.path.join(args.root, folder, "**", "*.*"),
                                     recursive=True)):
            if not path.endswith((".cpp", ".h")):
                continue
            text = re.sub(r'"\s*\n\s*"', "", open(path, encoding="utf-8").read())
            for m in re.finditer(call, text):
                start = text.rfind("\n", 0, m.start()) + 1
                before = text[start:m.start()]
                if before.lstrip().startswith("//") or "void " in before:
                    continue  # a comment's example, or the declaration
                literal = re.search(r'"((?:[^"\\]|\\.)*)"', text[m.end():m.end() + 300])
                if not literal:
                    continue
                head = literal.group(1).split("'")[0].strip(" ;:(")
                if len(head) < 15:
                    continue  # a name comes first: its message is listed by a later run
                line = text[:m.start()].count("\n") + 1
                tally.check(head[:30] in listed,
                            "%s:%d prints '%s...', which docs/troubleshooting.md does not list"
                            % (os.path.relpath(path, args.root), line, head[:30]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=["blocks", "names", "diagnostics"])
    parser.add_argument("root")
    parser.add_argument("--clang")
    parser.add_argument("--plugin")
    parser.add_argument("--lib")
    args = parser.parse_args()
    tally = Tally()
    if args.mode == "blocks":
        if not (args.clang and args.plugin and args.lib):
            parser.error("blocks needs --clang, --plugin and --lib")
        check_blocks(args, tally)
    elif args.mode == "names":
        check_names(args, tally)
    else:
        check_diagnostics(args, tally)
        check_every_message_listed(args, tally)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
