#!/usr/bin/env python3
"""nests.py: random marked nests, each program checking itself.

Generates programs of 1-3 random nests (depth 1-3; map levels, reductions
over the outermost or an inner level with every operator on int, float and
double, argmax and argmin, element reductions, array reductions (a
histogram's bins picked by the data); sequential loops of steps
(a pivot written by one thread and read by all, a max-reduction and a
break on it); stencils over rows and columns (reads at constant offsets,
clamped neighbours, filters of up to 5 x 5 steps, centred and guarded),
some in each plane of a level of channels outside; if clauses on the
outermost loop; affine reads with guarded
offsets, sequential inner loops, if/else, helper functions (some taking
pointers into the data), loop headers setting variables beside the
index, a struct;
products of two levels and batches of them, in the local-accumulator,
output-accumulating, k-outside-j (CPU order) and in-place forms (in place:
A's rows read from the output span past the outputs, lud's trailing
update), with clauses that
ask for register tiles, and loops that read the span at their own index alone, which the block tiles
in shared memory (some read records of 2 or 4 elements, b[4 * k + c]); recurrences and triangular solves down each iteration's
own column or row of the output, which get thread slices; data held in
spans, vectors, pointers with an extent clause or without one (sized by
their subscripts), vectors of vectors (rows
of 1, 5 or 64 elements, each flat index e element e % row of row e / row)
or a class around a vector reached through an accessor (a(e), a.at(e)
asserting e, or the class's a[e]), its two inputs sometimes one vector,
sometimes read through lambdas that capture them); some written as C89 writes them,
without the reduction clauses their updates imply, or marked on the
outermost loop alone as OpenMP code is, or with the outermost mark written
as `#pragma omp parallel for` (built with -fopenmp; a loop that stays with
OpenMP counts as rejected). Each nest is
emitted twice, marked and not; main() runs both and compares (exactly for
integers; floating-point inputs are multiples of 1/8, so sums come out
exact in any order, and elementwise math gets a tolerance for contraction).
Each program is compiled with the plugin and run on the checked simulator.

  nests.py --clang CLANG --plugin SO --include DIR --lib DIR --count N
           --seed S [--jobs J] [--timeout SECONDS] [--keep DIR] [--kind K]

A failure is a compiler crash or hang, a mismatch, a report of the
simulator's checker (the programs are race-free by construction), or a loop
that fell back to the host. A program the plugin rejects is counted apart
(a form the generator believes weft takes). Failing programs are kept in
--keep. Exits 1 on any failure.
"""
import argparse
import concurrent.futures
import math
import os
import random
import re
import resource
import signal
import subprocess
import sys
import tempfile

TYPES = ["int", "float", "double"]
# LLVM's OpenMP runtime, which programs with `#pragma omp` link.
OPENMP_LIB = "/usr/lib/llvm-22/lib"
OPENMP = os.path.exists(os.path.join(OPENMP_LIB, "libomp.so"))
KINDS = ["map", "outer", "pairs", "inner", "element", "product", "stencil",
         "argmax", "histogram", "sequential", "slice"]
KIND = None  # --kind: every nest of this kind (depth permitting)
OPS = {"int": ["+", "*", "min", "max", "&", "|", "^", "&&", "||"],
       "float": ["+", "*", "min", "max"], "double": ["+", "*", "min", "max"]}
INIT = {"+": "0", "*": "1", "min": "1000000", "max": "-1000000", "&": "-1",
        "|": "0", "^": "0", "&&": "1", "||": "0"}


class Nest:
    def __init__(self, rng, k, T, holder):
        self.rng, self.k, self.T, self.holder = rng, k, T, holder
        self.depth = rng.choice([1, 1, 2, 2, 3])
        if KIND in ("inner", "element", "product") and self.depth < 2:
            self.depth = 2
        if KIND == "stencil":
            # A level of channels outside the rows and columns, or not.
            self.depth = rng.choice([2, 2, 3])
        self.ext = [rng.choice([1, 2, 7, 31, 33, 64, 100, 257])
                    for _ in range(self.depth)]
        while self.product() > 40000:
            self.ext[rng.randrange(self.depth)] //= 2
            self.ext = [max(1, e) for e in self.ext]
        kinds = ["map", "map", "outer", "pairs"]
        if self.depth >= 2:
            kinds += ["inner", "inner", "element", "product", "product"]
        if self.depth >= 2:
            kinds += ["stencil", "stencil"]
        kinds += ["argmax", "histogram", "sequential", "slice"]
        self.kind = KIND or rng.choice(kinds)
        if holder == "object" and self.kind in ("histogram", "element"):
            # (A reduction clause names data, not a class holding it.)
            self.kind = "map"
        if self.kind in ("sequential", "slice") and self.depth > 2:
            self.depth, self.ext = 2, self.ext[:2]
        # A histogram's bins (out's first elements).
        self.bins = rng.choice([1, 3, 16, 100])
        # The loop's length in products and in loops over all of b.
        self.nk = rng.choice([1, 3, 4, 8, 9, 16, 33])
        # A stencil's reach in rows and columns (its halo plus one).
        self.halo = (rng.choice([1, 2, 3, 5]), rng.choice([2, 3, 5]))
        self.idx = ["i%d" % d for d in range(self.depth)]
        self.pointer_extents = ["a", "b", "p", "out"] if holder == "pointer" else []
        # Pointers as legacy code passes them: sometimes without the extent
        # clause (the plugin bounds their subscripts over the loops); a
        # histogram's bins, which its data picks, keep theirs.
        if holder == "pointer" and rng.random() < 0.5:
            self.pointer_extents = ["out"] if self.kind == "histogram" else []
        # Sometimes written as C89 writes it: indices and scalar locals
        # declared at the function's top (the plugin privatizes them).
        self.c89 = rng.random() < 0.3
        # Sometimes without the reduction clauses the updates imply (the
        # plugin infers them).
        self.infer = rng.random() < 0.3
        # Sometimes marked as OpenMP code is, on the outermost loop alone
        # (the plugin makes the inner loops it proves parallel levels).
        self.outer_only = rng.random() < 0.2
        # A loop over all of b reading records of b (b[4 * k + c]: the
        # block's tiles as one array of records), or b[k] alone.
        self.record = rng.choice([0, 0, 2, 4]) if self.kind == "pairs" else 0
        self.lines = None
        # Sometimes a and b read through lambdas that capture them, as
        # modern C++ writes an accessor (`auto A_ = [&](int e) { return
        # a[e]; };`).
        self.lambdas = holder in ("span", "vector", "pointer") and \
            rng.random() < 0.25
        # Sometimes its outermost mark written as OpenMP's `#pragma omp
        # parallel for` (built with -fopenmp, where LLVM's OpenMP runtime
        # is installed). Drawn apart, so that each seed's programs are
        # otherwise those it gave before.
        draw = random.Random(repr((k, T, holder, self.depth, self.ext,
                                   self.kind, self.bins, self.nk)))
        self.openmp = OPENMP and draw.random() < 0.3

    def product(self):
        p = 1
        for e in self.ext:
            p *= e
        return p

    def need(self):
        """Elements a, b, p and out must hold."""
        if self.kind == "pairs":
            # (Its loop runs to nk or to s, which is 3.)
            return max(self.product(), max(self.record, 1) * max(self.nk, 3))
        if self.kind == "stencil":
            # Room for the loops' reach, or for a point's row and column
            # past the last (n1 + 2 wide), in each channel's plane.
            ky, kx = max(self.halo[0], 3), max(self.halo[1], 3)
            channels = self.ext[0] if self.depth == 3 else 1
            return max(channels * (self.ext[-2] + ky - 1) *
                       (self.ext[-1] + kx - 1), ky * kx)
        if self.kind == "histogram":
            return max(self.product(), self.bins)
        if self.kind == "slice":
            # nk rows (or columns) a thread, and a triangle's coefficients.
            return max(self.product() * self.nk, self.nk * self.nk)
        if self.kind != "product":
            return self.product()
        batch = self.ext[0] if self.depth == 3 else 1
        rows, cols = self.ext[-2], self.ext[-1]
        # In place, the rows of A come from out past the outputs.
        return max(self.product() + batch * rows * self.nk,
                   batch * self.nk * cols)

    def flat(self, upto):
        """Row-major index of the first `upto` levels."""
        f = self.idx[0]
        for d in range(1, upto):
            f = "(%s * n%d + %s)" % (f, d, self.idx[d])
        return f

    def lit(self, v):
        return {"int": "%d" % v, "float": "%.1ff" % v, "double": "%.1f" % v}[self.T]

    def expr(self, depth, where, seq=None, exact=False):
        rng, T = self.rng, self.T
        if depth == 0 or rng.random() < 0.3:
            leaf = rng.choice(["a", "a", "guard", "index", "lit", "pair",
                               "pairop", "pairconst", "scalar"])
            if leaf == "a":
                return "a[%s]" % where
            if leaf == "guard":
                c = rng.choice([-3, -1, 1, 2, 5])
                at = "(%s + %d)" % (where, c) if seq is None else \
                    "(%s + %s + %d)" % (where, seq, c)
                return "(%s >= 0 && %s < na ? b[%s] : (%s)1)" % (at, at, at, T)
            if leaf == "index":
                return "(%s)(%s %% 5)" % (T, rng.choice(self.idx))
            if leaf == "lit":
                return "(%s)%s" % (T, self.lit(rng.choice([1, 2, 3])))
            if leaf == "pair":
                return "(%s)p[%s].%s" % (T, where, rng.choice(["x", "y"]))
            if leaf == "pairconst" and rng.random() < 0.2:
                # Rounding to integers and classification.
                return rng.choice([
                    "(%s)std::lround((double)a[%s] * 0.5)" % (T, where),
                    "(std::isnan((double)a[%s]) ? (%s)3 : (%s)1)" % (where, T, T)])
            if leaf == "pairconst":
                # Elements only read through const methods, const
                # references and temporaries built from them (bound, not
                # written: never stored back nor made by one thread).
                return rng.choice([
                    "(%s)p[%s].sum()" % (T, where),
                    "(%s)Pair(a[%s], 1).dot(p[%s])" % (T, where, where),
                    "(%s)norm(p[%s])" % (T, where),
                    "(%s)twice(a[%s] + (%s)1)" % (T, where, T)])
            if leaf == "pairop":  # the struct's constructor and operators
                return rng.choice([
                    "(%s)(p[%s] + Pair((%s)1, 2)).x" % (T, where, T),
                    "(%s)(2 * p[%s]).y" % (T, where),
                    "(p[%s] < Pair((%s)0, 3) ? (%s)1 : (%s)2)" % (where, T, T, T)])
            return "(%s)s" % T
        op = rng.choice(["+", "-", "*", "max", "min", "cond", "helper"] +
                        (["%", "&", "^"] if T == "int" else
                         ([] if exact else ["sqrt"])))
        a = self.expr(depth - 1, where, seq, exact)
        b = self.expr(depth - 1, where, seq, exact)
        if op in "+-":
            return "(%s %s %s)" % (a, op, b)
        if op == "*":  # bounded: one factor in [-2, 2]
            return "(%s * (%s)((%s) > 0 ? 2 : -1))" % (a, T, b)
        if op in ("max", "min"):
            return "std::%s(%s, %s)" % (op, a, b)
        if op == "cond":
            return "(%s > %s ? %s : %s)" % (a, b, a, b)
        if op == "helper":
            return "helper(%s, %s)" % (a, b)
        if op == "sqrt":
            return "std::sqrt(std::fabs(%s))" % a
        if op == "%":
            return "(%s %% 7)" % a
        return "(%s %s 15)" % (a, op)

    def header(self, d, marked, clauses="", extent=True):
        lines = []
        if marked:
            extra = []
            if d == 0 and self.pointer_extents and extent:
                extra.append("extent(%s: na)" % ", ".join(self.pointer_extents))
            if d == 0 and extent and self.rng.random() < 0.15:
                # Sometimes the host loop, sometimes the kernel.
                extra.append("if(n0 > %d && s != 0)" % self.rng.choice(
                    [0, 7, 100000]))
            if clauses:
                extra.append(clauses)
            lines.append("#pragma weft parallel for " + " ".join(extra))
        i = self.idx[d]
        if marked and self.rng.random() < 0.12:
            # Counting down, as legacy code does: the same indices.
            lines.append(self.rng.choice([
                "for (int %s = n%d - 1; %s >= 0; --%s)" % (i, d, i, i),
                "for (int %s = n%d - 1; %s > -1; %s--)" % (i, d, i, i),
                "for (int %s = n%d - 1; 0 <= %s; %s -= 1)" % (i, d, i, i),
                # By two: every other index, from the last.
                "for (int %s = n%d - 1; %s >= 0; %s -= 2)" % (i, d, i, i)]))
        else:
            lines.append(self.rng.choice(
                ["for (int %s = 0; %s < n%d; ++%s)" % (i, i, d, i)] * 8 + [
                    # Variables the header sets beside the index: a bound
                    # computed once, a second index stepping with it.
                    "for (int %s = 0, %s_end = n%d; %s < %s_end; ++%s)"
                    % (i, i, d, i, i, i),
                    "for (int %s = 0, %s_by2 = 0; %s < n%d; ++%s, %s_by2 += 2)"
                    % (i, i, i, d, i, i)]))
        return lines

    def product_body(self, marked):
        """C = A B (a batch of them at depth 3): a local accumulator or the
        output accumulating, sometimes a prologue and an epilogue, clauses
        that ask for a register tile or a block shape."""
        rng, T, D = self.rng, self.T, self.depth
        ind = lambda n: "  " * n
        i, j = self.idx[-2], self.idx[-1]
        nr, nc = "n%d" % (D - 2), "n%d" % (D - 1)
        if D == 3:
            p = self.idx[0]
            arow = "(%s * %s + %s)" % (p, nr, i)
            brow = "(%s * %d + k)" % (p, self.nk)
        else:
            arow, brow = i, "k"
        where = self.flat(D)
        clauses = {D - 2: ["", "", "span(4)", "span(2)", "block(8)", "dim(y)"],
                   D - 1: ["", "", "span(4)", "span(8)", "block(16)"]}
        lines = []
        for d in range(D):
            c = rng.choice(clauses.get(d, [""]))
            lines += [ind(d) + l for l in self.header(d, marked, c)]
        term = "a[%s * %d + k] * b[%s * %s + %s]" % (arow, self.nk, brow, nc, j)
        if rng.random() < 0.3:
            term = "%s * (%s)p[%s * %d + k].x" % (term, T, arow, self.nk)
        # BLAS's alpha: a factor every read of a tile is multiplied by
        # first (its tile staged scaled), or one that is not.
        factor = rng.choice(["", "", "", "(%s)s * " % T, "(%s)0.5 * " % T,
                             "a*s", "* s"])
        if factor == "a*s":
            term = term.replace("a[%s * %d + k]" % (arow, self.nk),
                                "(a[%s * %d + k] * (%s)s)" % (arow, self.nk, T), 1)
        elif factor == "* s":
            term = "%s * (%s)s" % (term, T)
        else:
            term = factor + term
        form = rng.choice(["local", "output", "scaled", "inplace", "kj"])
        if form == "kj":
            # As CPU code orders it: the row of outputs set by one marked
            # loop, then each step of k adding into it by another (the
            # plugin moves k inside and fuses the two); sometimes A's
            # element held in a local for the row.
            lines = []
            for d in range(D - 1):
                c = rng.choice(clauses.get(d, [""]))
                lines += [ind(d) + l for l in self.header(d, marked, c)]
            c = rng.choice(clauses[D - 1])
            a = "a[%s * %d + k]" % (arow, self.nk)
            if rng.random() < 0.4 and a in term:
                hoist = ["const %s aik = %s;" % (T, a)]
                term = term.replace(a, "aik", 1)
            else:
                hoist = []
            init = "(%s)0" % T if rng.random() < 0.5 else "(%s)2 * b[%s]" % (T, where)
            lines += [ind(D - 2) + "{"]
            lines += [ind(D - 1) + l for l in self.header(D - 1, marked, c)]
            lines += [ind(D) + "out[%s] = %s;" % (where, init)]
            lines += [ind(D - 1) + "for (int k = 0; k < %d; ++k) {" % self.nk]
            lines += [ind(D) + x for x in hoist]
            lines += [ind(D) + l for l in self.header(D - 1, marked, c)]
            lines += [ind(D + 1) + "out[%s] += %s;" % (where, term)]
            lines += [ind(D - 1) + "}", ind(D - 2) + "}"]
            return lines
        if form == "inplace":
            # lud's trailing update: A's rows read from out past the
            # outputs, each output written after the loop (written tiles).
            term = term.replace("a[", "out[%d + " % self.product(), 1)
            s = ["%s acc = (%s)0;" % (T, T),
                 "for (int k = 0; k < %d; ++k)" % self.nk,
                 "  acc += %s;" % term,
                 "out[%s] %s acc;" % (where, rng.choice(["=", "-=", "+="]))]
        elif form == "local":
            s = ["%s acc = %s;" % (T, rng.choice(["(%s)0" % T, "b[%s]" % where])),
                 "for (int k = 0; k < %d; ++k)" % self.nk,
                 "  acc += %s;" % term,
                 "out[%s] = %s;" % (where, rng.choice(["acc", "acc + a[%s]" % where,
                                                        "std::max(acc, (%s)0)" % T]))]
        else:
            s = ["out[%s] = %s;" % (where, "(%s)0" % T if form == "output"
                                    else "(%s)2 * b[%s]" % (T, where)),
                 "for (int k = 0; k < %d; ++k)" % self.nk,
                 "  out[%s] += %s;" % (where, term)]
        lines += [ind(D - 1) + "{"] + [ind(D) + x for x in s] + [ind(D - 1) + "}"]
        return lines

    def slice_body(self, marked):
        """Each iteration of the innermost level works down its own column
        (or row) of out, nk long, reading what it wrote at the steps before
        (thread slices): a recurrence or a triangular solve, sometimes with
        a read through a permuted row the analysis leaves in place (which
        sees the iteration's writes through the span)."""
        rng, T, D = self.rng, self.T, self.depth
        ind = lambda n: "  " * n
        R, j = self.nk, self.idx[-1]
        owner = "(%s * n%d + %s)" % (self.idx[0], D - 1, j) if D == 2 else j
        if rng.random() < 0.5:  # a column: rows of nk, n_last wide
            base = "%s * %d + " % (self.idx[0], R) if D == 2 else ""
            at = lambda x: "(%s%s) * n%d + %s" % (base, x, D - 1, j)
        else:  # a row of nk a thread
            at = lambda x: "%s * %d + %s" % (owner, R, x)
        lines = []
        for d in range(D):
            c = rng.choice(["", "", "block(32)", "block(64)"]) if d == D - 1 else ""
            lines += [ind(d) + l for l in self.header(d, marked, c)]
        half = "(%s)0.5" % T if T != "int" else "3"
        wrap = (lambda e: "(%s) %% 89" % e) if T == "int" else (lambda e: e)
        extra = ""
        if rng.random() < 0.4:
            extra = " + out[%s] * %s" % (at("(k * 5) %% %d" % R), half)
        if rng.random() < 0.5:
            start = rng.choice([1, 2])
            s = ["for (int k = %d; k < %d; ++k)" % (start, R),
                 "  out[%s] = %s;" % (at("k"), wrap(
                     "out[%s] * %s + out[%s] + a[%s]%s" % (
                         at("k - %d" % start), half, at("k"), at("k"), extra)))]
        else:
            s = ["for (int r = 1; r < %d; ++r) {" % R,
                 "  %s acc = (%s)0;" % (T, T),
                 "  for (int k = 0; k < r; ++k)",
                 "    acc += out[%s] * b[r * %d + k]%s;" % (at("k"), R, extra),
                 "  out[%s] %s;" % (at("r"), "= (out[%s] - acc) %% 89" % at("r")
                                    if T == "int" else
                                    "-= acc * (%s)0.25" % T),
                 "}"]
        lines += [ind(D - 1) + "{"] + [ind(D) + x for x in s] + \
                 [ind(D - 1) + "}"]
        return lines

    def sequential_body(self):
        """A sequential loop of steps, each one block's: a pivot element
        (sometimes written first, by one thread, then read by all), a
        marked nest updating every other element from it, sometimes a
        max-reduction whose result the step adds into out past the nest's
        elements, and a break on it."""
        rng, T, D = self.rng, self.T, self.depth
        ind = lambda n: "  " * n
        total = self.product()
        where = self.flat(D)
        mark = "#pragma weft sequential for"
        if self.pointer_extents:
            mark += " extent(%s: na)" % ", ".join(self.pointer_extents)
        if rng.random() < 0.15:
            mark += " if(n0 > %d)" % rng.choice([0, 7, 100000])
        if T == "int":
            lead = "(out[piv] + a[piv]) % 101"
            update = "(out[%s] + c + a[%s]) %% 89" % (where, where)
            limit = rng.choice(["20", "60", "1000"])
        else:
            lead = "out[piv] * (%s)0.5 + a[piv]" % T
            update = "out[%s] * (%s)0.5 + c * (%s)0.25 + a[%s] * (%s)0.125" % (
                where, T, T, where, T)
            limit = "(%s)%s" % (T, rng.choice(["0.5", "1.5", "1000"]))
        if D == 2 and rng.random() < 0.35:
            # Steps that each rework every element of a block of rows and
            # columns from what the step before left (resident in shared
            # memory for the loop): no pivot.
            step = []
            for d in range(D):
                step += [ind(d) + l for l in self.header(d, True, extent=False)]
            rework = ("(out[%s] + t + a[%s]) %% 89" % (where, where)
                      if T == "int" else
                      "out[%s] * (%s)0.5 + (%s)t * (%s)0.25 + a[%s] * (%s)0.125"
                      % (where, T, T, T, where, T))
            step.append(ind(D) + "out[%s] = %s;" % (where, rework))
            return [mark, "for (int t = 0; t < %d; ++t) {" % min(self.nk, 9)] + \
                ["  " + l for l in step] + ["}"]
        step = ["const int piv = (t * 7) %% %d;" % total]
        if rng.random() < 0.6:
            step.append("out[piv] = %s;" % lead)
        step.append("const %s c = out[piv];" % T)
        for d in range(D):
            step += [ind(d) + l for l in self.header(d, True, extent=False)]
        step.append(ind(D) + "if (%s != piv) out[%s] = %s;" % (where, where,
                                                                 update))
        if rng.random() < 0.6:
            step.append("%s m = (%s)-1000000;" % (T, T))
            step += self.header(0, True, "reduction(max: m)", extent=False)
            for d in range(1, D):
                step += [ind(d) + l for l in self.header(d, False)]
            step.append(ind(D) + "m = std::max(m, out[%s]);" % where)
            step.append("out[%d] += m;" % total)
            if rng.random() < 0.5:
                step.append("if (m > %s) break;" % limit)
        steps = min(self.nk, 9)
        return [mark, "for (int t = 0; t < %d; ++t) {" % steps] + \
            ["  " + l for l in step] + ["}"]

    def combine(self, var, op, e):
        forms = {"+": ["%s += %s;", "%s = %s + %s;"],
                 "*": ["%s *= (%s) > 0 ? (T)1 : (T)-1;"],
                 "min": ["%s = std::min(%s, %s);", "if (%s < %s) %s = %s;",
                         "%s = %s < %s ? %s : %s;"],
                 "max": ["%s = std::max(%s, %s);", "if (%s > %s) %s = %s;",
                         "%s = %s > %s ? %s : %s;"],
                 "&": ["%s &= %s;"], "|": ["%s |= %s;"], "^": ["%s ^= %s;"],
                 "&&": ["%s = %s && (%s) > 0;"], "||": ["%s = %s || (%s) > 0;"]}
        f = self.rng.choice(forms[op])
        if f.startswith("if (%s < %s)") or f.startswith("if (%s > %s)"):
            return f % (e, var, var, e)
        if f.count("%s") == 5:
            return f % (var, e, var, e, var)
        if f.count("%s") == 3:
            return f % (var, var, e)
        if op == "*":
            return (f % (var, e)).replace("(T)", "(%s)" % self.T)
        return f % (var, e)

    def body(self, marked):
        """The nest's statements; the function returns r."""
        rng, T, D = self.rng, self.T, self.depth
        out = ["%s r = 0;" % T]
        ind = lambda n: "  " * n
        if self.kind == "product":
            return out + self.product_body(marked) + ["return r;"]
        if self.kind == "sequential":
            return out + self.sequential_body() + ["return r;"]
        if self.kind == "slice":
            return out + self.slice_body(marked) + ["return r;"]
        if self.kind == "stencil":
            # Reads at the thread's index plus the loops': halo windows; at
            # depth 3 in each channel's plane (the outermost level's).
            ky, kx = self.halo
            lines = []
            r, c = self.idx[D - 2], self.idx[D - 1]
            nr, nc = "n%d" % (D - 2), "n%d" % (D - 1)
            # Blocks of one row, or of several (windows of rows by
            # columns, as the search picks unforced).
            levels = [(D - 2, ["", "block(1)", "block(1)", "block(2)",
                               "block(8)"]),
                      (D - 1, ["", "block(32)", "block(64)"])]
            if D == 3:
                levels.insert(0, (0, ["", "", "block(1)"]))
            for d, options in levels:
                lines += [ind(d) + l for l in
                          self.header(d, marked, rng.choice(options))]
            inner = D - 1
            plane_rows = max(ky, 3) - 1

            def at(row, width, col):
                # Row `row` of the channel's plane, column `col`.
                if D == 3:
                    row = "%s * (%s + %d) + %s" % (self.idx[0], nr,
                                                  plane_rows, row)
                return "(%s) * %s + %s" % (row, width, col)

            width = "(%s + %d)" % (nc, kx - 1)
            cy, cx = rng.randrange(ky), rng.randrange(kx)
            row, col = "%s + dy" % r, "%s + dx" % c
            guard = None
            if cy or cx:
                # Centred: reads before the first row or column are guarded.
                row, col = "%s + dy - %d" % (r, cy), "%s + dx - %d" % (c, cx)
                guard = "if (%s >= 0 && %s >= 0)" % (row, col)
            if rng.random() < 0.4:
                # Reads at constant offsets (a 5- or 9-point stencil): one
                # window, each read at its row and column.
                offsets = rng.sample([(y, x) for y in (-1, 0, 1)
                                      for x in (-1, 0, 1)], rng.randint(2, 6))
                span = rng.choice(["a", "b"])
                terms = []
                wide = "(%s + 2)" % nc
                if rng.random() < 0.35:
                    # Neighbours clamped at the first row and column, as
                    # locals (Rodinia's hotspot): windows over their range.
                    decls = []
                    for k, (oy, ox) in enumerate(offsets):
                        decls += ["int ry%d = %s + %d >= 0 ? %s + %d : %s;"
                                  % (k, r, oy, r, oy, r),
                                  "int rx%d = %s + %d < 0 ? %s : %s + %d;"
                                  % (k, c, ox, c, c, ox)]
                        terms.append("%s[%s]" % (span, at("ry%d" % k, wide,
                                                          "rx%d" % k)))
                    s = decls + ["%s acc = %s;" % (T, " + ".join(terms)),
                                 "out[%s] = acc;" % self.flat(D)]
                    lines += [ind(inner) + "{"] + \
                        [ind(inner + 1) + x for x in s] + [ind(inner) + "}"]
                    return out + lines + ["return r;"]
                for oy, ox in offsets:
                    orow = "(%s + %d)" % (r, oy) if oy else r
                    ocol = c + (" + %d" % ox if ox > 0 else
                                " - %d" % -ox if ox else "")
                    terms.append("(%s + %d >= 0 && %s + %d >= 0 ? %s[%s] : (%s)1)"
                                 % (r, oy, c, ox, span, at(orow, wide, ocol),
                                    T))
                s = ["%s acc = %s;" % (T, " + ".join(terms)),
                     "out[%s] = acc;" % self.flat(D)]
                lines += [ind(inner) + "{"] + \
                    [ind(inner + 1) + x for x in s] + [ind(inner) + "}"]
                return out + lines + ["return r;"]
            weight = rng.choice(["(%s)(dy + 2 * dx + 1)" % T,
                                 "b[dy * %d + dx]" % kx])
            read = "%s[%s]" % (rng.choice(["a", "b"]), at(row, width, col))
            body = "acc += %s * %s;" % (read, weight)
            s = ["%s acc = (%s)0;" % (T, T),
                 "for (int dy = 0; dy < %d; ++dy)" % ky,
                 "  for (int dx = 0; dx < %d; ++dx)" % kx]
            s += (["    " + guard, "      " + body] if guard else
                  ["    " + body])
            s.append("out[%s] = acc;" % self.flat(D))
            lines += [ind(inner) + "{"] + [ind(inner + 1) + x for x in s] + \
                [ind(inner) + "}"]
            return out + lines + ["return r;"]
        if self.kind == "pairs":
            # The loop reads b and p at k alone: the whole block's tiles.
            lines = []
            for d in range(D):
                lines += [ind(d) + l for l in self.header(d, marked)]
            where = self.flat(D)
            nb = rng.choice(["s", str(self.nk)])
            first = rng.random() < 0.5
            s = ["const %s own = %s;" % (T, self.expr(1, where)) if first else
                 "%s own = a[%s];" % (T, where),
                 "%s acc = (%s)0;" % (T, T),
                 "for (int k = 0; k < %s; ++k) {" % nb]
            if rng.random() < 0.3:
                s.append("  if (k == %s) continue;" % self.idx[-1])
            read = ["b[k]"]
            if self.record:
                # Most of each record, in any order.
                fields = list(range(self.record))
                rng.shuffle(fields)
                if self.record == 4 and rng.random() < 0.5:
                    fields = fields[:3]
                read = ["b[%d * k + %d]" % (self.record, c) if c else
                        "b[%d * k]" % self.record for c in fields]
            s += ["  acc += std::%s(own, %s)%s + (%s)p[k].%s;" % (
                      rng.choice(["min", "max"]), read[0],
                      "".join(" - " + r for r in read[1:]), T,
                      rng.choice(["x", "y"])),
                  "}",
                  "out[%s] = acc;" % where]
            lines += [ind(D - 1) + "{"] + [ind(D) + x for x in s] + \
                     [ind(D - 1) + "}"]
            return out + lines + ["return r;"]
        if self.kind == "map":
            lines = []
            for d in range(D):
                lines += [ind(d) + l for l in self.header(d, marked)]
            where = self.flat(D)
            stmt = rng.choice(["plain", "if", "seq", "local", "call"])
            if stmt == "plain":
                s = ["out[%s] = %s;" % (where, self.expr(3, where))]
            elif stmt == "if":
                s = ["if (%s > %s) {" % (self.expr(1, where), self.expr(1, where)),
                     "  out[%s] = %s;" % (where, self.expr(2, where)),
                     "} else {", "  out[%s] = %s;" % (where, self.expr(2, where)), "}"]
            elif stmt == "seq":
                s = ["%s acc = (%s)0;" % (T, T),
                     "for (int k = 0; k < %d; ++k)" % rng.choice([1, 3, 4]),
                     "  acc += %s;" % self.expr(2, where, seq="k"),
                     "out[%s] = acc;" % where]
            # Drawn apart, so that each seed's programs are otherwise those
            # it gave before.
            alt = random.Random(repr(("stmt", self.k, where, T, stmt)))
            if stmt == "call" and self.holder != "rows":
                # Functions taking pointers into the data, as C factors a
                # loop: weft compiles them into the loop at each call.
                s = ["const %s t = window(&a[%s], &b[%s], %d);"
                     % (T, where, where, rng.choice([1, 3, 8])),
                     "put(&out[%s], t * (%s)2 - %s);"
                     % (where, T, self.expr(1, where))]
                form = alt.random()
                if form < 0.2:
                    # A function taking a span over part of the data, and a
                    # local span over another part.
                    s = ["const std::span<const %s> win(&b[%s], 2);"
                         % (T, where),
                         "const %s t = spansum(std::span<const %s>(&a[%s], "
                         "3)) - win[1] * (%s)win.size();"
                         % (T, T, where, T)] + s[1:]
                elif form < 0.6:
                    # Such a function called twice, the second time past
                    # the first pointer, itself calling another twice
                    # (Rodinia particlefilter's shape), and inside its own
                    # argument (compiled in at two depths).
                    s[0] = ("const %s t = pairs(&a[%s], 0) + pairs(&a[%s] + 1, "
                            "1) - scaled(&b[%s], pairs(&b[%s], 1));"
                            % (T, where, where, where, where))
            else:
                s = ["const %s t = %s;" % (T, self.expr(2, where)),
                     "out[%s] = t * (%s)2 - %s;" % (where, T, self.expr(1, where))]
                form = alt.choice(["plain"] * 4 + [
                    "lambdas", "switch", "array", "stdarray", "clamp",
                    "array2d"])
                i0 = self.idx[0]
                if form == "lambdas":
                    # Two lambdas of one signature, defined in the loop.
                    s = ["auto F1_ = [](%s v) { return v + (%s)1; };" % (T, T),
                         "auto F2_ = [](%s v) { return v * (%s)2; };" % (T, T),
                         "const %s t = F1_(%s) - F2_(%s);"
                         % (T, self.expr(1, where), self.expr(1, where)),
                         s[1]]
                elif form == "switch":
                    s = ["%s t = (%s)0;" % (T, T),
                         "switch (%s %% 3) {" % i0,
                         "case 0:", "  t = %s;" % self.expr(1, where),
                         "  break;",
                         "case 1:", "  t = %s;" % self.expr(1, where),
                         "  break;",
                         "default:", "  t = %s;" % self.expr(1, where), "}",
                         s[1]]
                elif form == "array":
                    # A per-iteration array: filled, swapped, summed by
                    # index and by a range loop.
                    s = ["%s arr[4] = {%s, %s, (%s)1, (%s)0};"
                         % (T, self.expr(1, where), self.expr(1, where), T, T),
                         "std::swap(arr[0], arr[3]);",
                         "%s t = (%s)0;" % (T, T),
                         "for (int q = 0; q < 4; ++q)",
                         "  t += arr[q] * (%s)(q + 1);" % T,
                         "for (%s v : arr)" % T,
                         "  t -= v;",
                         s[1]]
                elif form == "stdarray":
                    s = ["std::array<%s, 3> arr;" % T,
                         "std::memset(arr.data(), 0, sizeof arr);",
                         "arr[%s %% 3] = %s;" % (i0, self.expr(1, where)),
                         "const %s t = arr[0] + arr[1] - arr[2];" % T,
                         s[1]]
                elif form == "array2d":
                    # An array of two dimensions, every element written
                    # before any is read (in C89 form a scratch array at the
                    # function's top, as NAS writes them).
                    s = ["%s m2[2][3];" % T,
                         "for (int r = 0; r < 2; ++r)",
                         "  for (int c = 0; c < 3; ++c)",
                         "    m2[r][c] = %s + (%s)(r * 3 + c);"
                         % (self.expr(1, where), T),
                         "%s t = m2[1][2] - m2[0][%s %% 3];" % (T, i0),
                         "for (int r = 0; r < 2; ++r)",
                         "  t += m2[r][r + 1] * (%s)2;" % T,
                         s[1]]
                elif form == "clamp":
                    s = ["const %s t = std::clamp(%s, (%s)-8, (%s)8);"
                         % (T, self.expr(2, where), T, T),
                         s[1]]
            lines += ["{"] + ["  " + x for x in s] + ["}"]
            return out + lines + ["return r;"]
        if self.kind == "outer":
            op = rng.choice(OPS[T])
            where = self.flat(D)
            lines = ["%s red = (%s)%s;" % (T, T, INIT[op])]
            lines += self.header(0, marked, "reduction(%s: red)" % op)
            inner = []
            for d in range(1, D):
                inner += [ind(d - 1) + l for l in self.header(d, False)]
            e = self.expr(2, where, exact=True)
            lines += ["{"] + ["  " + l for l in inner] + \
                     ["  " + ind(D - 1) + self.combine("red", op, e), "}"]
            return out + lines + ["r = red;", "return r;"]
        if self.kind == "argmax":
            op = rng.choice(["argmax", "argmin"])
            cmp = {"argmax": rng.choice([">", ">="]), "argmin": rng.choice(["<", "<="])}[op]
            where = self.flat(D)
            init = "-1000000" if op == "argmax" else "1000000"
            lines = ["%s best = (%s)%s;" % (T, T, init), "int at = -5;"]
            lines += self.header(0, marked, "reduction(%s: best, at)" % op)
            inner = []
            for d in range(1, D):
                inner += [ind(d - 1) + l for l in self.header(d, False)]
            e = self.expr(2, where, exact=True)
            lines += ["{"] + ["  " + l for l in inner] + [
                "  " + ind(D - 1) + "if (%s %s best) { best = %s; at = i0; }" % (e, cmp, e), "}"]
            return out + lines + ["r = best + (%s)at;" % T, "return r;"]
        if self.kind == "histogram":
            # An array reduction: the deepest body combines into out at a
            # bin its data picks; the clause on one of the levels.
            op = rng.choice(OPS[T][:7] if T == "int" else OPS[T])
            at = rng.randrange(D)
            lines = []
            for d in range(D):
                clause = "reduction(%s: out)" % op if d == at else ""
                lines += [ind(d) + l for l in self.header(d, marked, clause)]
            where = self.flat(D)
            e = self.expr(2, where, exact=True)
            bin_ = "((int)(a[%s] * (%s)8) %% %d + %d) %% %d" % (
                where, T, self.bins, self.bins, self.bins)
            o = "out[bin]"
            forms = {"+": ["%s += %s;" % (o, e), "%s = %s + %s;" % (o, o, e),
                           "%s = %s + %s;" % (o, e, o), "++%s;" % o,
                           "%s--;" % o, "%s -= %s;" % (o, e)],
                     "*": ["%s *= (%s) > 0 ? (%s)1 : (%s)-1;" % (o, e, T, T)],
                     "min": ["%s = std::min(%s, %s);" % (o, o, e),
                             "%s = std::min(%s, %s);" % (o, e, o)],
                     "max": ["%s = std::max(%s, %s);" % (o, o, e),
                             "%s = std::max(%s, %s);" % (o, e, o)],
                     "&": ["%s &= %s;" % (o, e)], "|": ["%s |= %s;" % (o, e)],
                     "^": ["%s = %s ^ %s;" % (o, o, e)]}
            s = ["const int bin = %s;" % bin_, rng.choice(forms[op])]
            lines += [ind(D - 1) + "{"] + [ind(D) + x for x in s] + \
                     [ind(D - 1) + "}"]
            return out + lines + ["return r;"]
        # inner and element reductions: the last level reduces into its
        # enclosing level's local (or out element).
        op = rng.choice(OPS[T]) if self.kind == "inner" else "+"
        lines = []
        for d in range(D - 1):
            lines += [ind(d) + l for l in self.header(d, marked)]
        outer = self.flat(D - 1)
        where = self.flat(D)
        e = self.expr(2, where, exact=True)
        s = []
        if self.kind == "inner":
            s.append("%s part = (%s)%s;" % (T, T, INIT[op]))
            s += self.header(D - 1, marked, "reduction(%s: part)" % op)
            s.append("  " + self.combine("part", op, e))
            s.append("out[%s] = part;" % outer)
        else:
            s.append("out[%s] = (%s)0;" % (outer, T))
            s += self.header(D - 1, marked, "reduction(+: out[%s])" % outer)
            s.append("  out[%s] += %s;" % (outer, e))
        lines += ["{"] + ["  " + x for x in s] + ["}"]
        return out + lines + ["return r;"]

    def function(self, marked):
        T = self.T
        if self.holder == "rows":
            data = "const std::vector<std::vector<%s>> &a, const std::vector<std::vector<%s>> &b, const std::vector<std::vector<Pair>> &p, std::vector<std::vector<%s>> &out" % (T, T, T)
        elif self.holder == "span":
            data = "std::span<const %s> a, std::span<const %s> b, std::span<const Pair> p, std::span<%s> out" % (T, T, T)
        elif self.holder == "vector":
            data = "const std::vector<%s> &a, const std::vector<%s> &b, const std::vector<Pair> &p, std::vector<%s> &out" % (T, T, T)
        elif self.holder == "object":
            data = "const Store<%s> &a, const Store<%s> &b, const Store<Pair> &p, Store<%s> &out" % (T, T, T)
        else:
            data = "const %s *a, const %s *b, const Pair *p, %s *out" % (T, T, T)
        ns = ", ".join("int n%d" % d for d in range(self.depth))
        name = "nest%d_%s" % (self.k, "weft" if marked else "serial")
        # One body: the serial copy is the marked one without its marks.
        if self.lines is None:
            self.lines = self.body(True)
        body = [l for l in self.lines
                if marked or not l.strip().startswith("#pragma weft")]
        if self.outer_only:
            body = outermost_mark_only(body)
        if self.infer:
            body = without_implied_reductions(body)
        if self.openmp and marked and not self.infer:
            # Drawn apart, so each seed's programs are otherwise those it
            # gave before.
            form = random.Random(repr(("omp-form", self.k, T, len(body)))) \
                .choice(["parallel for", "region", "orphaned"])
            body = as_openmp(body, form)
        if self.c89:
            body = c89(body, T)
        if self.lambdas and not any(re.search(r"&(a|b)\[", l) for l in body):
            body = ["auto A_ = [&](int e) { return a[e]; };",
                    "auto B_ = [&](int e) { return b[e]; };"] + \
                [through_lambdas(l) for l in body]
        if self.holder == "rows":
            body = [in_rows(l, self.row) for l in body]
        if self.holder == "object":
            # An accessor's asserts go before the statement that calls it,
            # so weft refuses it in a branch of ?:, && or ||.
            accessor = self.accessor
            if accessor == "at" and any(re.search(r"\?|&&|\|\|", l)
                                        for l in body):
                accessor = "()"
            body = [through_accessor(l, accessor) for l in body]
        # Some nests' weft marks written as attributes, which mean the same
        # (drawn apart, so each seed's programs are otherwise those it gave
        # before).
        if marked and random.Random(repr(("attribute", self.k, T,
                                          len(body)))).random() < 0.15:
            body = [as_attribute(l) for l in body]
        return "%s %s(%s, int na, int s, %s) {\n%s\n}\n" % (
            T, name, data, ns, "\n".join("  " + l for l in body))


def as_attribute(line):
    """A weft mark as its attribute: `#pragma weft parallel for CLAUSES`
    as `[[weft::parallel("CLAUSES")]]`, `sequential for` likewise."""
    m = re.match(r"(\s*)#pragma weft (parallel|sequential) for\s*(.*)$", line)
    if not m:
        return line
    clauses = m.group(3).strip()
    return "%s[[weft::%s%s]]" % (m.group(1), m.group(2),
                                 '("%s")' % clauses if clauses else "")


def outermost_mark_only(lines):
    """The first mark alone, where it is a parallel loop's: the inner loops
    run in order in each iteration, as the serial copy runs them. Not where
    an inner mark combines into an array (its atomic updates are what keep
    the outer iterations apart too)."""
    marks = [k for k, l in enumerate(lines)
             if l.strip().startswith("#pragma weft")]
    if not marks or "parallel for" not in lines[marks[0]] or \
            any(": out)" in lines[k] for k in marks[1:]):
        return lines
    return [l for k, l in enumerate(lines) if k not in marks[1:]]


def without_implied_reductions(lines):
    """The marks without reduction clauses over a scalar whose every update
    is a statement of the clause's operator in one of the forms old code
    writes (`red += e;`, `red = red + e;`, `if (e > red) red = e;`,
    `red = std::max(red, e);`, ...), and without argmax and argmin clauses
    (`if (e > best) { best = e; at = i0; }`): the plugin infers those."""
    out = []
    for l in lines:
        m = re.search(r" reduction\(([-+*&|^]|min|max|&&|\|\||argmax|argmin): "
                      r"(\w+)(, at)?\)", l)
        if m and l.strip().startswith("#pragma weft parallel for"):
            op, var = m.group(1), m.group(2)
            v = re.escape(var)
            combine = re.compile(
                r"^\s*(%s\s*[-+*&|^]=|%s = %s (\+|&&|\|\|) |"
                r"%s = std::(min|max)\(%s, |if \(.* [<>] %s\) %s = |"
                r"%s = .* [<>] %s \? .* : %s;|"
                r"if \(.* [<>]=? %s\) \{ %s = .*; at = i0; \})"
                % ((v,) * 12))
            plain = [x for x in lines
                     if re.search(r"(?<![\w.])%s\s*=[^=]" % v, x) and
                     not re.match(r"\s*(const\s+)?\w+\s+%s\s*=" % v, x) and
                     not combine.match(x)]
            updates = [x for x in lines if combine.match(x)]
            if not plain and updates:
                l = l.replace(m.group(0), "")
        out.append(l)
    return out


def loop_end(lines, k):
    """Where the loop whose header is lines[k] ends (one past its last
    line): the generator indents a loop's body past its header, and a
    body in braces (after the header, or after headers nested in it) may
    sit at the header's indent, ending at the brace closing it."""
    indent = lambda l: len(l) - len(l.lstrip())
    at = indent(lines[k])
    j = k + 1
    while j < len(lines) and (not lines[j].strip() or indent(lines[j]) > at):
        j += 1
    before = next((lines[i].strip() for i in range(j - 1, k - 1, -1)
                   if lines[i].strip()), "")
    if j < len(lines) and lines[j].strip() == "{" and \
            indent(lines[j]) == at and before.endswith(")"):
        depth = 0
        while j < len(lines):
            depth += lines[j].count("{") - lines[j].count("}")
            j += 1
            if depth == 0:
                return j
        return None
    return j


def as_openmp(lines, form="parallel for"):
    """The body with its outermost mark written as OpenMP's `#pragma omp
    parallel for` with the same reduction and if clauses (inner marks stay
    weft's), where the mark has no other clauses, reduces scalars with
    operators OpenMP has, and its loop's header is in OpenMP's canonical
    form (one variable set); else the body as it is. Form "region": an
    `omp for` in a parallel region with a barrier after it (its team
    launches it); "orphaned": an `omp for` alone, in the function the
    program calls outside any region (a team of one votes, then
    launches)."""
    marks = [k for k, l in enumerate(lines)
             if l.strip().startswith("#pragma weft")]
    if not marks or not lines[marks[0]].strip().startswith(
            "#pragma weft parallel for"):
        return lines
    k = marks[0]
    text = lines[k].strip()[len("#pragma weft parallel for"):].strip()
    clauses = re.findall(r"(\w+)(\((?:[^()]|\([^()]*\))*\))", text)
    if "".join(n + a for n, a in clauses).replace(" ", "") != \
            text.replace(" ", ""):
        return lines
    omp = []
    for name, arg in clauses:
        m = re.match(r"\(\s*([-+*&|^]|&&|\|\||min|max)\s*:\s*([\w\s,]+)\)$", arg)
        if name == "reduction" and m and "out" not in m.group(2).split(", "):
            omp.append("reduction(%s : %s)" % (m.group(1), m.group(2).strip()))
        elif name == "if":
            omp.append("if" + arg)
        else:
            return lines
    header = lines[k + 1] if k + 1 < len(lines) else ""
    if not re.match(r"\s*for \(int \w+ = [^,;]*;", header):
        return lines
    clauses = " ".join(omp)
    # (An orphaned loop's reduction must go into a variable the team
    # shares: a local of the function is not one.)
    if form == "orphaned" and "if(" not in clauses and \
            "reduction" not in clauses:
        return lines[:k] + [("#pragma omp for " + clauses).strip()] + \
            lines[k + 1:]
    end = loop_end(lines, k + 1) if form == "region" else None
    if end is not None and "if(" not in clauses:
        return lines[:k] + ["#pragma omp parallel", "{",
                            ("#pragma omp for " + clauses).strip()] + \
            lines[k + 1:end] + ["#pragma omp barrier", "}"] + lines[end:]
    return lines[:k] + [("#pragma omp parallel for " + clauses).strip()] + \
        lines[k + 1:]


def c89(lines, T):
    """The body with its loop indices and its scalar locals declared at the
    top, each set where C99 declared it: `for (k = 0; ...)`, `acc = 0;`.
    A name declared twice, or both ways, is left as it is."""
    scalar = r"(?:int|long|unsigned|float|double|bool|%s)" % T
    decl = re.compile(r"^(\s*)(?:const\s+)?(%s)\s+(\w+)\s*=\s*(.*);\s*$" % scalar)
    loop = re.compile(r"for \(int (\w+) = ")
    beside = re.compile(r"for \(int \w+ = [^,;]*, (\w+) = ")
    loops, plain, seen, arrays = {}, {}, {}, {}
    array = re.compile(r"^(\s*)(%s)\s+(\w+)((?:\[\d+\])+)(?:\s*=\s*\{(.*)\})?;\s*$"
                       % scalar)
    for l in lines:
        m = array.match(l)
        if m:
            # A per-iteration array: a scratch array at the top, its
            # initializer's values assigned where it was declared.
            values = top_level_split(m.group(5)) if m.group(5) else []
            dims = [int(d) for d in re.findall(r"\d+", m.group(4))]
            if m.group(5) is None or (len(dims) == 1 and len(values) == dims[0]):
                arrays[m.group(3)] = (m.group(2), m.group(4), values)
            seen[m.group(3)] = seen.get(m.group(3), 0) + 1
            continue
        for m in loop.finditer(l):
            loops[m.group(1)] = "int"
        for m in beside.finditer(l):
            loops[m.group(1)] = "int"
        m = decl.match(l)
        if m and " = " not in m.group(4) and "{" not in m.group(4):
            seen[m.group(3)] = seen.get(m.group(3), 0) + 1
            plain[m.group(3)] = m.group(2)
        elif re.search(r"\b%s\s+\w+\s*[;\[=]" % scalar, l) and not loop.search(l):
            for n in re.findall(r"\b%s\s+(\w+)" % scalar, l):
                seen[n] = seen.get(n, 0) + 2  # declared otherwise: kept
    names = {n: t for n, t in loops.items() if n not in seen}
    names.update({n: t for n, t in plain.items()
                  if seen.get(n) == 1 and n not in loops})
    arrays = {n: a for n, a in arrays.items() if seen.get(n) == 1}
    out = []
    for l in lines:
        m = array.match(l)
        if m and m.group(3) in arrays:
            out += ["%s%s[%d] = %s;" % (m.group(1), m.group(3), e, v)
                    for e, v in enumerate(arrays[m.group(3)][2])]
            continue
        l = loop.sub(lambda m: "for (%s = " % m.group(1) if m.group(1) in names
                     else m.group(0), l)
        m = decl.match(l)
        if m and m.group(3) in names and m.group(3) not in loops:
            l = "%s%s = %s;" % (m.group(1), m.group(3), m.group(4))
        out.append(l)
    top = ["%s %s;" % (t, n) for n, t in sorted(names.items())]
    top += ["%s %s%s;" % (t, n, d) for n, (t, d, _) in sorted(arrays.items())]
    return top + out


def top_level_split(text):
    """text's comma-separated parts, commas inside brackets kept."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


def each_element(line, write):
    """The line with every element of a, b, p and out (`a[e]`, brackets
    balanced) replaced by write(name, e)."""
    out, i = [], 0
    while i < len(line):
        m = re.match(r"(a|b|p|out)\[", line[i:])
        if m and (i == 0 or not (line[i - 1].isalnum() or line[i - 1] == "_")):
            start = i + len(m.group(0))
            depth, j = 1, start
            while depth:
                depth += {"[": 1, "]": -1}.get(line[j], 0)
                j += 1
            out.append(write(m.group(1), line[start:j - 1]))
            i = j
        else:
            out.append(line[i])
            i += 1
    return "".join(out)


def in_rows(line, row):
    """The line with every element of a, b, p and out, flat index e, as
    element e % row of row e / row of rows held apart (element 0 of row e
    for rows of one)."""
    def write(name, e):
        e = in_rows(e, row)
        # Rows of one: row e itself, so that the proofs over rows held
        # apart (a row affine in the indices) see them.
        return "%s[%s][0]" % (name, e) if row == 1 else \
            "%s[(%s) / %d][(%s) %% %d]" % (name, e, row, e, row)
    return each_element(line, write)


def through_lambdas(line):
    """The line with every element of a and b read through the lambdas
    A_ and B_ that capture them."""
    return each_element(line, lambda name, e: (
        "%s_(%s)" if name in ("a", "b") else "%s[%s]") % (
            name.upper() if name in ("a", "b") else name, through_lambdas(e)))


def through_accessor(line, accessor):
    """The line with every element of a, b, p and out reached through the
    Store's accessor: `a(e)`, `a.at(e)` (which asserts e) or `a[e]` (the
    class's operator[])."""
    if accessor == "[]":
        return line
    return each_element(line, lambda name, e: "%s%s(%s)" % (
        name, "" if accessor == "()" else ".at",
        through_accessor(e, accessor)))


def program(rng):
    T = rng.choice(TYPES)
    holder = rng.choice(["span", "vector", "pointer", "rows", "object"])
    nests = [Nest(rng, k, T, holder) for k in range(rng.randint(1, 3))]
    # Data in a class around a std::vector, as C++ code wraps it, reached
    # through one of its accessors.
    accessor = rng.choice(["()", "at", "[]"])
    for x in nests:
        x.accessor = accessor
    # Rows held apart (vectors of vectors) of one length: the nests index
    # them as they index flat data, element e at row e / row.
    row = rng.choice([1, 5, 64])
    for x in nests:
        x.row = row
    n = max(x.need() for x in nests) + 8
    if holder == "rows":
        n = (n + row - 1) // row * row
    fill = "(%s)((int)(Seed %% 17u) - 8) / (%s)8" % (T, T) if T != "int" else \
        "(int)(Seed % 19u) - 9"
    src = ["#include <weft/weft.hpp>", "#include <algorithm>", "#include <array>",
           "#include <cassert>", "#include <cstring>",
           "#include <cmath>", "#include <cstdio>", "#include <vector>",
           # A class holding data: its accessors are compiled into the loop.
           "template <typename E> struct Store { std::vector<E> v; int n;"
           " E &operator()(int e) { return v[e]; } const E &operator()(int e) const { return v[e]; }"
           " E &at(int e) { assert(e >= 0 && e < n); return v[e]; }"
           " const E &at(int e) const { assert(e >= 0 && e < n); return v[e]; }"
           " E &operator[](int e) { return v[e]; } const E &operator[](int e) const { return v[e]; } };",
           # A C++ value type: constructors, operators as a member and
           # as a free function.
           "struct Pair { %s x; int y; int z; Pair() = default;"
           " Pair(%s X, int Y) : x(X), y(Y), z(0) {}"
           " Pair operator+(const Pair &O) const { return Pair(x + O.x, y + O.y); }"
           " bool operator<(const Pair &O) const { return x < O.x || (x == O.x && y < O.y); }"
           " %s sum() const { return x + (%s)y; }"
           " %s dot(const Pair &O) const { return x * (%s)(O.y %% 5) + (%s)(y * O.y %% 7); } };" % (T, T, T, T, T, T, T),
           "static %s norm(const Pair &Q) { return Q.x + (%s)(2 * Q.y %% 9); }" % (T, T),
           "static %s twice(const %s &v) { return v + v; }" % (T, T),
           "static Pair operator*(int K, Pair Q) { Q.x = Q.x * (%s)K; Q.y *= K; return Q; }" % T,
           "static %s helper(%s u, %s v) { if (u > v) return u - v; return v * (%s)2 + u; }" % (T, T, T, T),
           # (The data holds 8 elements past the last index any nest uses.)
           "static %s window(const %s *u, const %s *v, int len) { %s w = (%s)0; for (int k = 0; k < len; ++k) w += u[k] - v[k] * (%s)2; return w; }" % ((T,) * 6),
           "static void put(%s *o, %s v) { o[0] = v; }" % (T, T),
           "static %s first(const %s *u, int k) { return u[k]; }" % (T, T),
           "static %s spansum(std::span<const %s> v) { %s w = (%s)0; for (std::size_t k = 0; k < v.size(); ++k) w += v[k] * (%s)(k + 1); return w; }" % ((T,) * 5),
           "static %s pairs(const %s *u, int k) { return first(u, k) + (%s)2 * first(u + 1, k); }" % (T, T, T),
           "static %s scaled(const %s *u, %s f) { return first(u, 0) * (f > (%s)0 ? (%s)1 : (%s)-1); }" % ((T,) * 6)]
    for x in nests:
        src.append(x.function(True))
        src.append(x.function(False))
    tol = {"int": "0", "float": "1e-5", "double": "1e-12"}[T]
    main = ["int main() {", "  unsigned Seed = 12345u;",
            "  auto Next = [&] { Seed = Seed * 1103515245u + 12345u; return Seed >> 8; };",
            "  const int N = %d;" % n,
            "  std::vector<%s> A(N), B(N);" % T, "  std::vector<Pair> P(N);",
            "  for (int I = 0; I < N; ++I) { Next(); A[I] = %s; Next(); B[I] = %s;"
            " Next(); P[I] = {%s, (int)(Seed %% 7u)}; }" % (fill, fill, fill),
            "  auto Same = [](double X, double Y) { return X == Y || std::fabs(X - Y)"
            " <= %s * (1 + std::fabs(X) + std::fabs(Y)); };" % tol,
            "  int Bad = 0;"]
    # Sometimes one vector for both inputs: the launch keeps one device
    # copy of data two parameters share.
    second = "A" if rng.random() < 0.25 else "B"
    if holder == "rows":
        main += ["  auto Rows = [](const auto &V) { std::vector<std::vector<typename std::decay_t<decltype(V)>::value_type>> X(V.size() / %d);" % row,
                 "    for (std::size_t I = 0; I < V.size(); ++I) X[I / %d].push_back(V[I]); return X; };" % row,
                 "  auto Flat = [](const auto &X, auto &V) { for (std::size_t I = 0; I < V.size(); ++I) V[I] = X[I / %d][I %% %d]; };" % (row, row),
                 "  const auto AR = Rows(A), BR = Rows(B);", "  const auto PR = Rows(P);"]
    if holder == "object":
        main += ["  const Store<%s> AO{A, N}, BO{B, N};" % T,
                 "  const Store<Pair> PO{P, N};"]
    for x in nests:
        ns = ", ".join(str(e) for e in x.ext)
        if holder == "pointer":
            args = "A.data(), %s.data(), P.data(), %%s.data()" % second
        elif holder == "object":
            args = "AO, %sO, PO, %%s" % second
        elif holder == "rows":
            args = "AR, %sR, PR, %%s" % second
        else:
            args = "A, %s, P, %%s" % second
        rows = holder == "rows"
        main += ["  {", "    std::vector<%s> OutW(N), OutS(N);" % T,
                 "    for (int I = 0; I < N; ++I) OutW[I] = OutS[I] = B[(I * 7 + 3) %% N] + (%s)1;" % T]
        if rows:
            main += ["    auto OutWR = Rows(OutW), OutSR = Rows(OutS);"]
        if holder == "object":
            main += ["    Store<%s> OutWO{OutW, N}, OutSO{OutS, N};" % T]
        suffix = "R" if rows else "O" if holder == "object" else ""
        main += ["    const %s RW = nest%d_weft(%s, N, 3, %s);" % (T, x.k, args % ("OutW" + suffix), ns),
                 "    const %s RS = nest%d_serial(%s, N, 3, %s);" % (T, x.k, args % ("OutS" + suffix), ns)]
        if rows:
            main += ["    Flat(OutWR, OutW);", "    Flat(OutSR, OutS);"]
        if holder == "object":
            main += ["    OutW = OutWO.v;", "    OutS = OutSO.v;"]
        main += [
                 "    if (!Same(RW, RS)) { std::printf(\"MISMATCH nest %d result %%g %%g\\n\", (double)RW, (double)RS); Bad = 1; }" % x.k,
                 "    for (int I = 0; I < N; ++I) if (!Same(OutW[I], OutS[I])) {"
                 " std::printf(\"MISMATCH nest %d out[%%d] %%g %%g\\n\", I, (double)OutW[I], (double)OutS[I]); Bad = 1; break; }" % x.k,
                 "  }"]
    main += ["  std::printf(Bad ? \"FAILED\\n\" : \"OK\\n\");", "  return Bad;", "}"]
    return "\n".join(src + main) + "\n"


def run_limited(cmd, args, env=None):
    """Runs cmd; None where it ran out of time twice: over --timeout on the
    clock, then over --timeout of its own CPU time (a loaded machine stalls
    a process at low priority for minutes; within 30 times the time on the
    clock)."""
    try:
        return subprocess.run(cmd, capture_output=True, text=True,
                              errors="replace", timeout=args.timeout, env=env)
    except subprocess.TimeoutExpired:
        pass
    return run_cpu_bounded(cmd, env, args.timeout)


def run_cpu_bounded(cmd, env, seconds):
    """Runs cmd with its own CPU time limited to seconds (within 30 times
    that on the clock): the result, or None where it ran past that (for a
    simulated run, a hang: the kernel compiles, processes of their own, do
    not count in)."""
    cpu = math.ceil(seconds)
    limit = lambda: resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
    try:
        r = subprocess.run(cmd, capture_output=True, text=True,
                           errors="replace", timeout=30 * cpu, env=env,
                           preexec_fn=limit)
    except subprocess.TimeoutExpired:
        return None
    return None if r.returncode in (-signal.SIGXCPU, -signal.SIGKILL) else r


def host_cpu_seconds(exe, env):
    """The CPU time of the program with every loop run as written."""
    p = subprocess.Popen([exe], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL,
                         env=dict(env, WEFT_BACKEND="host"))
    _, _, usage = os.wait4(p.pid, 0)
    return usage.ru_utime + usage.ru_stime


# The configurations each program also runs under beside the search's own
# mapping: each fixed strategy (a compile of its own), and a sample of the
# kernels' tuning space and of the simulator's schedules. Two configurations
# that disagree are a bug even where one matches the serial loop; every one
# is compared with it.
STRATEGIES = ["1d", "thread_block", "warp"]
RUN_CONFIGS = [
    {"WEFT_KERNEL_DEFINES": "WEFT_STAGING=0"},
    {"WEFT_KERNEL_DEFINES": "WEFT_STAGED_RANGES=1"},
    {"WEFT_KERNEL_DEFINES": "WEFT_UNROLL_STEPS=0"},
    {"WEFT_KERNEL_DEFINES": "WEFT_STAGING=0 WEFT_UNROLL_STEPS=0"},
    {"WEFT_SIM_ORDER": "forward"},
    {"WEFT_SIM_WARP": "64"},
]
CONFIGS = [("strategy", s) for s in STRATEGIES] + \
    [("run", c) for c in RUN_CONFIGS]


def config_name(config):
    kind, value = config
    if kind == "strategy":
        return "strategy=" + value
    return " ".join("%s=%s" % kv for kv in value.items())


def verdict(r, config=""):
    at = " [%s]" % config if config else ""
    if "sim checker" in r.stderr:
        return "false checker report%s: %s" % (
            at, r.stderr.strip().splitlines()[0])
    if r.returncode != 0 or "MISMATCH" in r.stdout:
        return "mismatch%s: %s" % (
            at, (r.stdout + r.stderr).strip().replace("\n", " | ")[:300])
    if r.stderr.strip():
        return "fell back or warned%s: %s" % (
            at, r.stderr.strip().splitlines()[0])
    return None


def check(args, number, source, configs=()):
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "nests%d.cpp" % number)
        exe = os.path.join(work, "nests%d" % number)
        with open(path, "w") as f:
            f.write(source)
        cmd = [args.clang, "-std=c++20", "-O1", "-I" + args.include,
               "-fplugin=" + args.plugin, path, "-L" + args.lib,
               "-Wl,-rpath," + args.lib, "-lweft"]
        openmp = "#pragma omp" in source
        if openmp:
            # What stays with OpenMP says so in a remark: a form the
            # generator believes weft takes.
            cmd += ["-fopenmp", "-fplugin-arg-weft-remarks",
                    "-L" + OPENMP_LIB, "-Wl,-rpath," + OPENMP_LIB]
        c = run_limited(cmd + ["-o", exe], args)
        if c is None:
            return "compiler hang"
        if c.returncode not in (0, 1) or "PLEASE submit" in c.stderr:
            return "compiler crash (exit %d)" % c.returncode
        if c.returncode:
            first = [l for l in c.stderr.splitlines() if "error:" in l][:1]
            return "rejected: " + (first[0] if first else "?")
        stays = [l for l in c.stderr.splitlines() if "stays with OpenMP" in l]
        if stays:
            return "rejected: " + stays[0]
        env = dict(os.environ, WEFT_BACKEND="sim", WEFT_SIM_CHECK="1",
                   WEFT_ON_FAULT="error", WEFT_CACHE_DIR=args.cache,
                   OMP_NUM_THREADS="2")
        # A hang is a simulated run whose CPU time passes a multiple of the
        # host loops' (with a floor for the simulator's start).
        budget = max(args.sim_cpu_floor,
                     args.sim_cpu_ratio * host_cpu_seconds(exe, env))
        r = run_cpu_bounded([exe], env, budget)
        if r is None:
            return "hang on the simulator (over %.0f s of CPU)" % budget
        why = verdict(r)
        if why:
            return why
        for config in configs:
            kind, value = config
            name = config_name(config)
            run = exe
            if kind == "strategy":
                run = exe + "-" + value
                c = run_limited(cmd + ["-o", run,
                                       "-fplugin-arg-weft-strategy=" + value],
                                args)
                if c is None:
                    return "compiler hang [%s]" % name
                if c.returncode not in (0, 1) or "PLEASE submit" in c.stderr:
                    return "compiler crash (exit %d) [%s]" % (c.returncode,
                                                              name)
                if c.returncode:
                    # A fixed strategy the generator cannot build, or
                    # clauses it breaks, is an error with a location: not a
                    # failure of this program.
                    if not re.search(r":\d+:\d+: error:", c.stderr):
                        return "error without a location [%s]" % name
                    continue
            r = run_cpu_bounded([run], dict(env, **(value if kind == "run"
                                                    else {})), budget)
            if r is None:
                return "hang on the simulator (over %.0f s of CPU) [%s]" % (
                    budget, name)
            why = verdict(r, name)
            if why:
                return why
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for a in ("--clang", "--plugin", "--include", "--lib"):
        ap.add_argument(a, required=True)
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--keep", default="")
    ap.add_argument("--print", action="store_true",
                    help="print the first program and stop")
    ap.add_argument("--kind", choices=KINDS,
                    help="only nests of this kind (a focused run)")
    ap.add_argument("--configs", default="2",
                    help="configurations each program also runs under "
                    "(fixed strategies, tuning macros, simulator schedules): "
                    "a number drawn at random, or 'all' (default 2)")
    ap.add_argument("--sim-cpu-floor", type=float, default=30,
                    help="a simulated run's CPU seconds that never count "
                    "as a hang (default 30)")
    ap.add_argument("--sim-cpu-ratio", type=float, default=1000,
                    help="a simulated run past this many times the host "
                    "loops' CPU time (and the floor) is a hang (default 1000)")
    args = ap.parse_args()
    global KIND
    KIND = args.kind
    rng = random.Random(args.seed)
    programs = [(n, program(rng)) for n in range(args.count)]
    # Drawn apart, so each seed's programs are those it gave before.
    pick = random.Random(args.seed * 7919 + 1)
    if args.configs == "all":
        configs = [list(CONFIGS) for _ in programs]
    else:
        k = min(int(args.configs), len(CONFIGS))
        configs = [pick.sample(CONFIGS, k) for _ in programs]
    if args.print:
        print(programs[0][1])
        return 0
    failures = rejected = 0
    with tempfile.TemporaryDirectory() as cache:
        args.cache = cache
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for done, ((n, src), why) in enumerate(pool.map(
                    lambda p: (p, check(args, p[0], p[1], configs[p[0]])),
                    programs), 1):
                if done % 100 == 0:
                    # A long run cut short still tells how far it got.
                    print("progress: %d of %d programs, %d rejected, %d "
                          "failures" % (done, len(programs), rejected,
                                        failures), flush=True)
                if why is None:
                    continue
                if why.startswith("rejected"):
                    rejected += 1
                else:
                    failures += 1
                print("%s: program %d (seed %d): %s" % (
                    "REJECTED" if why.startswith("rejected") else "FAIL", n,
                    args.seed, why))
                if args.keep:
                    os.makedirs(args.keep, exist_ok=True)
                    with open(os.path.join(args.keep, "nests-%d-%d.cpp" % (args.seed, n)), "w") as f:
                        f.write("// %s\n%s" % (why, src))
    print("nests: %d programs, seed %d: %d ran and matched, %d rejected, %d "
          "failures (crashes, hangs, mismatches, checker reports, fallbacks)"
          % (len(programs), args.seed, len(programs) - failures - rejected,
             rejected, failures))
    return 1 if failures or rejected else 0


if __name__ == "__main__":
    sys.exit(main())
