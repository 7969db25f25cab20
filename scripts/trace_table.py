#!/usr/bin/env python3
"""Turns gpu_trace.sh's raw bench lines into the trace-mode overhead table.

Input lines: '<program> <plain|trace-first|trace-all> <label> runs=R
median_us=X min_us=Y'. Output: a Markdown table per kernel step (plain
median, trace mode as shipped and every launch traced, with their ratios to
plain) and the geometric mean and maximum of each ratio."""
import math
import re
import sys

LINE = re.compile(r"^(\S+) (plain|trace-first|trace-all) (.+?) runs=\d+ median_us=([0-9.]+)")


def geo(rs):
    return math.exp(sum(map(math.log, rs)) / len(rs))


def main():
    raw, gpu = sys.argv[1], sys.argv[2]
    times = {}
    for line in open(raw):
        m = LINE.match(line)
        if m:
            prog, variant, label, median = m.groups()
            times.setdefault((prog, label), {})[variant] = float(median)
    print(f"GPU: {gpu}\n")
    print("| program | kernel step | plain median (us) | trace mode (us) | ratio | every launch traced (us) | ratio |")
    print("|---|---|---|---|---|---|---|")
    first, every = [], []
    for (prog, label), t in times.items():
        if "plain" not in t or label.startswith("host_"):
            continue
        cells = [prog, label, f"{t['plain']:,.1f}"]
        for variant, acc in (("trace-first", first), ("trace-all", every)):
            if variant in t:
                r = t[variant] / t["plain"]
                acc.append(r)
                cells += [f"{t[variant]:,.1f}", f"{r:.3f}"]
            else:
                cells += ["-", "-"]
        print("| " + " | ".join(cells) + " |")
    for name, rs in (("trace mode (first 2 launches per kernel traced)", first),
                     ("every launch traced", every)):
        if rs:
            print(f"\n{name}: geometric mean {geo(rs):.3f}; maximum {max(rs):.3f} "
                  f"({len(rs)} kernel steps)")
    return 0 if first else 1


if __name__ == "__main__":
    sys.exit(main())
