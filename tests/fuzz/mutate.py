#!/usr/bin/env python3
"""mutate.py: a mutation fuzzer for the plugin's front end.

Takes the marked programs of the test suite, mutates each (the clause text,
the loop body, where the mark stands, how deep nests go, where the file
ends) and compiles the mutant with the plugin (-fsyntax-only, which runs the
whole pipeline but code generation). Asserts that clang never crashes or
hangs, and that every error it prints has a location (file:line:col).
Failing mutants are kept in --keep, each with the reason in a comment, to
become regression tests (tests/fuzz/regressions/).

  mutate.py --clang CLANG --plugin SO --include DIR --count N --seed S
            [--jobs J] [--timeout SECONDS] [--keep DIR] SEED_FILES...

Prints one line per failure and a summary; exits 1 if anything failed.
"""
import argparse
import concurrent.futures
import os
import random
import re
import resource
import signal
import subprocess
import sys
import tempfile

CLAUSES = [
    "reduction(", "reduction(+:", "reduction(+: s", "reduction(+: )",
    "reduction(max: m[)", "reduction(argmax: a)", "reduction(argmin: a, b, c)",
    "reduction(%: s)", "block(99999999999999999999)", "block(-4)", "block(0)",
    "block(3)", "span(0)", "span(-1)", "span(all", "split(-1)",
    "split(4294967296)", "dim(q)", "dim()", "strategy()", "strategy(fast)",
    "((((", "))))", "extent(p: )", "extent(: n)", "extent(p: n +* 3)",
    "extent(p: 99999999999999999999999)", "extent(p: -1)", "if(", "if()",
    "if(true)", "if(false || !true)", "if(1.5e3f > 2ull)", "if(n > 0)",
    "if(0 / 0)", "if(1 << 99)", "if(99999999999999999999)", "if(-)",
    "if(a.b)", "if(s[0])", "if(f())", "if(!!!!!!!!1)", "if(1e99999 > 0)",
    "nonsense(1)", "reduction(+: s) reduction(+: s)", "block(64) block(64)",
    "\\", "\"", "'", "/*", "#", "??=", "reduction(+: s,", ",,,,", "é",
]

BODY = [
    "break;", "return;", "goto weft_fuzz_label; weft_fuzz_label:;",
    "throw 1;", "new int;", "delete (int *)0;", "static int weft_s = 0;",
    "int *weft_p = nullptr; *weft_p = 1;", "printf(\"x\");",
    "__builtin_trap();", "try { } catch (...) { }", "while (true) { }",
    "switch (1) { case 1: break; }", "[&] { }();", "(void)sizeof(int[10]);",
    "(void)typeid(int);", "int weft_big[100000000];", "double weft_d = 1e400;",
    "weft_fuzz_recurse(3);", "weft_fuzz_virtual->f();", "asm(\"nop\");",
    "for (;;) { }", "do { } while (0);", "int weft_vla[weft_fuzz_n()];",
    "co_return;", "auto weft_l = [](auto x) { return x; }; weft_l(1);",
    "continue;", "float weft_f = 0x1p-200f;", "long double weft_ld = 1;",
    "int weft_u = 1 / 0;", "int weft_shift = 1 << 40;",
]

PRELUDE = """
#include <cstdio>
#include <typeinfo>
static int weft_fuzz_recurse(int n) { return n ? weft_fuzz_recurse(n - 1) : 0; }
struct WeftFuzzBase { virtual int f() { return 1; } };
static WeftFuzzBase *weft_fuzz_virtual;
static int weft_fuzz_n() { return 3; }
"""

PRAGMA = re.compile(r"^(\s*#pragma weft parallel for)(.*)$")


def mutate(text, rng):
    lines = text.split("\n")
    marks = [i for i, l in enumerate(lines) if PRAGMA.match(l)]
    kind = rng.choice(["clause", "clause", "body", "body", "move", "deep",
                       "truncate", "noise", "noise", "define"])
    if kind == "clause" and marks:
        i = rng.choice(marks)
        m = PRAGMA.match(lines[i])
        tail = rng.choice(CLAUSES)
        if rng.random() < 0.3:
            tail = "".join(rng.choice(CLAUSES) for _ in range(rng.randint(2, 5)))
        if rng.random() < 0.05:
            tail = "reduction(+: " + "s, " * 2000 + "s)"
        lines[i] = m.group(1) + " " + tail
    elif kind == "body" and marks:
        i = rng.choice(marks)
        if i + 2 <= len(lines):
            lines.insert(i + 2, rng.choice(BODY))
    elif kind == "move" and marks:
        i = rng.choice(marks)
        line = lines.pop(i)
        lines.insert(rng.randrange(len(lines) + 1), line)
    elif kind == "deep" and marks:
        i = rng.choice(marks)
        depth = rng.randint(3, 8)
        wrap = []
        for d in range(depth):
            wrap.append("#pragma weft parallel for")
            wrap.append("for (int weft_q%d = 0; weft_q%d < 2; ++weft_q%d)" % (d, d, d))
        lines[i:i] = wrap + [";"]
    elif kind == "truncate":
        return text[:rng.randrange(len(text) + 1)]
    elif kind == "define":
        lines.insert(0, "#define REFUSED 1")
    else:
        for _ in range(rng.randint(1, 3)):
            if not lines:
                break
            j = rng.randrange(len(lines))
            op = rng.choice(["delete", "duplicate", "swap", "number", "ident"])
            if op == "delete":
                lines.pop(j)
            elif op == "duplicate":
                lines.insert(j, lines[j])
            elif op == "swap":
                k = rng.randrange(len(lines))
                lines[j], lines[k] = lines[k], lines[j]
            elif op == "number":
                lines[j] = re.sub(r"\b\d+\b", lambda _: rng.choice(
                    ["0", "-1", "4294967296", "99999999999999999999",
                     "0x7fffffff", "1e308"]), lines[j], count=1)
            else:
                names = re.findall(r"\b[A-Za-z_]\w*\b", lines[j])
                if names:
                    lines[j] = lines[j].replace(rng.choice(names),
                                                rng.choice(["i", "j", "n", "s",
                                                            "this", "nullptr"]), 1)
    return "\n".join(lines)


LOCATED = re.compile(r"^.+:\d+:\d+: (fatal )?error: ")


def clang_says_so(cmd, line):
    """True when clang alone, without the plugin, prints the same line:
    some of clang's own errors have no location (\"templates can only be
    declared in namespace or class scope\" after a broken declaration)."""
    plain = [c for c in cmd if not c.startswith("-fplugin=")]
    p = subprocess.run(plain, capture_output=True, text=True, errors="replace")
    return line in p.stderr.splitlines()


def check(args, number, source):
    """Compiles one mutant; returns "accepted", "rejected" (with located
    errors only), or the reason it failed."""
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "mutant%d.cpp" % number)
        with open(path, "w") as f:
            f.write(source)
        cmd = [args.clang, "-std=c++20", "-I" + args.include,
               "-fplugin=" + args.plugin, "-fsyntax-only",
               "-fno-color-diagnostics", "-fno-caret-diagnostics",
               "-ferror-limit=0", path]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True,
                               errors="replace", timeout=args.timeout)
        except subprocess.TimeoutExpired:
            # A loaded machine can stall one compile (a process at low
            # priority may wait minutes for a core): a hang must repeat,
            # measured in the compiler's own CPU time, within 30 times the
            # time on the clock.
            limit = lambda: resource.setrlimit(
                resource.RLIMIT_CPU, (args.timeout, args.timeout + 5))
            try:
                p = subprocess.run(cmd, capture_output=True, text=True,
                                   errors="replace", preexec_fn=limit,
                                   timeout=30 * args.timeout)
            except subprocess.TimeoutExpired:
                return "hang (over %d s, then over %d s waiting)" % (
                    args.timeout, 30 * args.timeout)
            if p.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
                return "hang (over %d s, then over %d s of CPU)" % (
                    args.timeout, args.timeout)
        err = p.stderr
        if p.returncode not in (0, 1) or "PLEASE submit a bug report" in err \
                or "Stack dump" in err:
            return "crash (exit %d)" % p.returncode
        for line in err.splitlines():
            if line.startswith(" "):
                continue  # a line of source or a stack frame, not a diagnostic
            if " error: " in line or line.startswith(("error:", "fatal error:")):
                if (not LOCATED.match(line) or "<scratch space>" in line) \
                        and not clang_says_so(cmd, line):
                    return "error without a location: " + line.strip()
    if p.returncode == 1 and "error:" not in err:
        return "failed without an error"
    return "rejected" if p.returncode else "accepted"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clang", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--keep", default="")
    ap.add_argument("seeds", nargs="+")
    args = ap.parse_args()

    corpus = []
    for s in args.seeds:
        with open(s, errors="replace") as f:
            text = f.read()
        if "#pragma weft parallel for" in text:
            corpus.append((os.path.basename(s), text))
    rng = random.Random(args.seed)
    # Kept regressions are checked as they are, then mutated like the rest.
    mutants = [(-1 - i, os.path.basename(s), open(s, errors="replace").read())
               for i, s in enumerate(args.seeds) if "/regressions/" in s]
    for n in range(args.count):
        name, text = rng.choice(corpus)
        source = text
        for _ in range(rng.randint(1, 3)):
            source = mutate(source, rng)
        mutants.append((n, name, PRELUDE + source))

    failures = 0
    outcomes = {"accepted": 0, "rejected": 0}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = pool.map(lambda m: (m, check(args, m[0], m[2])), mutants)
        for done, ((n, name, source), why) in enumerate(results, 1):
            if done % 250 == 0:
                # A long run cut short still tells how far it got.
                print("progress: %d of %d mutants, %d accepted, %d rejected, "
                      "%d failures" % (done, len(mutants), outcomes["accepted"],
                                       outcomes["rejected"], failures),
                      flush=True)
            if why in outcomes:
                outcomes[why] += 1
                continue
            failures += 1
            print("FAIL: mutant %d of %s (seed %d): %s" % (n, name, args.seed, why))
            if args.keep:
                os.makedirs(args.keep, exist_ok=True)
                with open(os.path.join(args.keep, "mutant-%d-%d.cpp" % (args.seed, n)), "w") as f:
                    f.write("// %s\n// from %s\n%s" % (why, name, source))
    print("mutate: %d mutants of %d programs, seed %d: %d accepted, %d "
          "rejected with located errors, %d failures (crashes, hangs, "
          "errors without a location)"
          % (len(mutants), len(corpus), args.seed, outcomes["accepted"],
             outcomes["rejected"], failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
