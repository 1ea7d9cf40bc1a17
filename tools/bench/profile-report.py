#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""profile-report.py - the table of make bench-profile (tools/vm/bench.sh).

Reads the four profiles of one operation that tbprof (tools/bench/tbprof.c)
wrote, n and 2n operations with nothing loaded (none1, none2) and with full
tracking (full1, full2), names each block by the function it starts in,
and prints, per function, the instructions one operation costs: the 2n
boot less the n boot, over n times the passes aie_bench makes of a run
(a warm-up and its rounds). Boot, module load and unload cancel out, as
they are the same in both boots of a pair; what is left is the operation
and what it brings about (the timer's interrupts among them, which come
with the instructions under -icount).

Kernel functions are named from the guest's /proc/kallsyms (the S lines of
none1.log; the boots run with nokaslr, so that the addresses hold from one
boot to the next), allocinfo_ext's from its .ko and the address of its
text in the guest (the M text line of the full logs). Other modules'
blocks are "[module]".
"""
import argparse
import bisect
import collections
import os
import subprocess
import sys

MODULES_START = 0xFFFFFFFFC0000000


def die(msg):
    sys.exit("profile-report.py: " + msg)


def read_log(path):
    syms, text = [], None
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 3 and w[0] == "S":
                syms.append((int(w[1], 16), w[2]))
            elif len(w) == 3 and w[:2] == ["M", "text"]:
                text = int(w[2], 16)
    return syms, text


def module_syms(ko, base):
    """allocinfo_ext's functions in .text, at @base, and the text's end."""
    out = subprocess.run(["objdump", "-t", "-h", ko], capture_output=True,
                         text=True, check=True).stdout
    syms, size = [], None
    for line in out.splitlines():
        w = line.split()
        # section header: "<idx> .text <size> <vma> <lma> <off> <align>"
        if len(w) >= 3 and w[1] == ".text" and w[0].isdigit():
            size = int(w[2], 16)
        # symbol: "<value> <flags> F .text <size> <name>"
        elif len(w) >= 6 and w[-3] == ".text" and "F" in w[1:-3]:
            syms.append((base + int(w[0], 16), "[allocinfo_ext] " + w[-1]))
    if size is None:
        die(ko + ": no .text section")
    return syms, base + size


class Namer:
    def __init__(self, kernel, module, text_end):
        self.syms = sorted(kernel + module)
        self.addrs = [a for a, _ in self.syms]
        self.text_start = min(a for a, _ in module)
        self.text_end = text_end

    def name(self, addr):
        if addr >= MODULES_START and not (
                self.text_start <= addr < self.text_end):
            return "[module]"
        i = bisect.bisect_right(self.addrs, addr) - 1
        return self.syms[i][1] if i >= 0 else "[unknown]"


def profile(path, namer):
    total = collections.Counter()
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                die(path + ": " + line[1:].strip())
            va, insns, runs = line.split()
            total[namer.name(int(va, 16))] += int(insns) * int(runs)
    return total


def result(path, cfg, op):
    """The bench's own figure of the boot: its fastest round, per op."""
    with open(path) as f:
        for line in f:
            w = line.split()
            if w[:3] == ["R", cfg, op] and len(w) >= 5:
                return int(w[4]) / int(w[3])
    die(path + ": no result for " + op)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--op", required=True)
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--passes", type=int, required=True,
                    help="operations per n: aie_bench's passes of a run, "
                    "or a workload's operations a round")
    ap.add_argument("--rounds", action="store_true",
                    help="n counts a userspace workload's rounds")
    ap.add_argument("--ko", required=True)
    ap.add_argument("--kernel", default="")
    ap.add_argument("--min", type=float, default=0.5,
                    help="leave out functions whose added instructions "
                    "are fewer, either way")
    ap.add_argument("--all", action="store_true",
                    help="every function that runs --min or more "
                    "instructions an operation, added or not")
    ap.add_argument("dir")
    a = ap.parse_args()
    if a.n <= 0 or a.passes <= 0:
        die("--n and --passes want positive counts")

    def p(name):
        return os.path.join(a.dir, name)

    kernel, _ = read_log(p("none1.log"))
    _, text1 = read_log(p("full1.log"))
    _, text2 = read_log(p("full2.log"))
    if not kernel:
        die("none1.log has no kernel symbols")
    if text1 is None or text1 != text2:
        die("allocinfo_ext's text moved between the full boots")
    module, text_end = module_syms(a.ko, text1)
    namer = Namer(kernel, module, text_end)
    prof = {k: profile(p(k + ".tb"), namer)
            for k in ("none1", "none2", "full1", "full2")}
    ops = a.n * a.passes
    none = {f: (prof["none2"][f] - prof["none1"][f]) / ops
            for f in set(prof["none1"]) | set(prof["none2"])}
    full = {f: (prof["full2"][f] - prof["full1"][f]) / ops
            for f in set(prof["full1"]) | set(prof["full2"])}
    rows = []
    for f in set(none) | set(full):
        nv, fv = none.get(f, 0.0), full.get(f, 0.0)
        if abs(fv - nv) >= a.min or (
                a.all and max(abs(nv), abs(fv)) >= a.min):
            rows.append((fv - nv, f, nv, fv))
    rows.sort(key=lambda r: (-r[0], r[1]))
    tn, tf = sum(none.values()), sum(full.values())

    w = max([len(r[1]) for r in rows] + [40])
    rule = "=" * w + "  " + "  ".join(["=" * 11] * 3)
    if a.rounds:
        how = ("%d and %d rounds of %d operations"
               % (a.n, 2 * a.n, a.passes))
    else:
        how = ("runs of %d and %d operations, %d passes each"
               % (a.n, 2 * a.n, a.passes))
    print("%s%s: instructions per operation, from %s"
          % (a.op, " on " + a.kernel if a.kernel else "", how))
    print()
    print(rule)
    print("%-*s  %11s  %11s  %11s" % (w, "function", "not loaded", "full",
                                     "added"))
    print(rule)
    for added, f, nv, fv in rows:
        print("%-*s  %11.1f  %11.1f  %+11.1f" % (w, f, nv, fv, added))
    print("%-*s  %11.1f  %11.1f  %+11.1f" % (w, "all functions", tn, tf,
                                             tf - tn))
    print(rule)
    print()
    print("make bench's figure for the same boots (%s round): "
          "%.1f not loaded, %.1f full tracking"
          % ("median" if a.rounds else "fastest",
             result(p("none2.log"), "none", a.op),
             result(p("full2.log"), "full", a.op)))


if __name__ == "__main__":
    main()
