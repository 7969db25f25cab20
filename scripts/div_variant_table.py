#!/usr/bin/env python3
"""Kernel time of several divergence builds, from gpu_divergence.sh's
bench.txt ("<program> <build> <step> runs=N median_us=T" lines): a markdown
table with each build's median and its ratio to the plain build, and the
geometric mean of the ratios per build.

usage: div_variant_table.py BENCH_TXT BUILD...
"""
import math
import re
import sys

LINE = re.compile(r"^(\S+) (\S+) (.+?) runs=\d+ median_us=([0-9.]+)")


def main():
    path, builds = sys.argv[1], sys.argv[2:]
    times = {}
    for line in open(path):
        m = LINE.match(line)
        if m:
            prog, build, step, median = m.groups()
            times.setdefault((prog, step), {})[build] = float(median)
    print("| program | kernel step | plain us | " +
          " | ".join(builds) + " |")
    print("|---|---|---|" + "---|" * len(builds))
    logs = {b: [] for b in builds}
    for (prog, step), t in sorted(times.items()):
        plain = t.get("plain")
        if not plain:
            continue
        cells = []
        for b in builds:
            if b in t:
                cells.append(f"{t[b]:,.1f} ({t[b] / plain:.2f}x)")
                logs[b].append(math.log(t[b] / plain))
            else:
                cells.append("-")
        print(f"| {prog} | {step} | {plain:,.1f} | " + " | ".join(cells) + " |")
    print("| **geometric mean** | | | " + " | ".join(
        f"**{math.exp(sum(v) / len(v)):.2f}x** ({len(v)})" if v else "-"
        for v in logs.values()) + " |")


if __name__ == "__main__":
    main()
