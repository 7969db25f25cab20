#!/usr/bin/env python3
"""Tables of bench/gpu_short_kernels.sh: each kernel's median launch time
per build over every round, and its ratio to the plain build's.

usage: short_kernels_table.py DIR VARIANT... (plain first)
DIR holds PROG.VARIANT.ROUND.csv (ncu --csv --page raw --print-kernel-base
mangled --metrics gpu__time_duration.sum) for PROG thrust and
one_block_sum. Prints one Markdown table per program: kernel, launches per
round, then per build the median (us), the minimum and the ratio of the
medians to plain's; then per build the geometric mean and maximum of the
ratios.
"""
import csv
import glob
import math
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts"))
from ncu_kernel_times import SUFFIX, short  # noqa: E402


def launch_times(paths):
    """{kernel: [us of each launch]} over the ncu logs `paths`."""
    times = {}
    for path in paths:
        rows = [l for l in open(path, errors="replace") if l.startswith('"')]
        for row in csv.DictReader(rows):
            try:
                ns = float(row.get("gpu__time_duration.sum", "").replace(",", ""))
            except ValueError:
                continue  # the units row
            name = SUFFIX.sub("", row.get("Kernel Name", ""))
            times.setdefault(name, []).append(ns / 1000)
    return times


def table(directory, prog, variants):
    runs = {v: sorted(glob.glob(os.path.join(directory, f"{prog}.{v}.*.csv")))
            for v in variants}
    data = {v: launch_times(runs[v]) for v in variants}
    plain = data[variants[0]]
    if not plain:
        print(f"{prog}: no {variants[0]} times")
        return
    rounds = max(1, len(runs[variants[0]]))
    head = f"| {prog} kernel | launches/round | {variants[0]} median (us) | min |"
    rule = "|---|---|---|---|"
    for v in variants[1:]:
        head += f" {v} | min | ratio |"
        rule += "---|---|---|"
    print(head)
    print(rule)
    ratios = {v: [] for v in variants[1:]}
    for k in sorted(plain, key=lambda k: -statistics.median(plain[k])):
        p = statistics.median(plain[k])
        row = f"| {short(k)} | {len(plain[k]) / rounds:g} | {p:.2f} | {min(plain[k]):.2f} |"
        for v in variants[1:]:
            if k not in data[v]:
                row += " - | - | - |"
                continue
            m = statistics.median(data[v][k])
            ratios[v].append(m / p)
            row += f" {m:.2f} | {min(data[v][k]):.2f} | {m / p:.3f} |"
        print(row)
    print()
    for v in variants[1:]:
        if ratios[v]:
            geo = math.exp(sum(map(math.log, ratios[v])) / len(ratios[v]))
            print(f"{prog} {v}: geometric mean {geo:.3f}, maximum "
                  f"{max(ratios[v]):.3f} over {len(ratios[v])} kernels "
                  f"({len(runs[v])} rounds)")
    print()


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    for prog in ("thrust", "one_block_sum"):
        table(sys.argv[1], prog, sys.argv[2:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
