#!/usr/bin/env python3
"""Turns gpu_trace.sh's raw bench lines into the trace-mode overhead table.

Input lines: '<program> <plain|trace-first|trace-all>[-before] <label> runs=R
median_us=X min_us=Y'. Output: a Markdown table per kernel step (plain
median, trace mode as shipped and every launch traced, with their ratios to
plain; the -before variants, an earlier runtime, when present) and the
geometric mean and maximum of each ratio."""
import math
import re
import sys

LINE = re.compile(r"^(\S+) (plain|trace-first(?:-before)?|trace-all(?:-before)?) (.+?) runs=\d+ median_us=([0-9.]+)")


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
    named = [("trace-first", "trace mode (us)"),
             ("trace-all", "every launch traced (us)")]
    if any("trace-all-before" in t for t in times.values()):
        named += [("trace-first-before", "before: trace mode (us)"),
                  ("trace-all-before", "before: every launch traced (us)")]
    print("| program | kernel step | plain median (us) | "
          + " | ".join(f"{title} | ratio" for _, title in named) + " |")
    print("|---|---|---|" + "---|---|" * len(named))
    ratios = {variant: [] for variant, _ in named}
    for (prog, label), t in times.items():
        if "plain" not in t or label.startswith("host_"):
            continue
        cells = [prog, label, f"{t['plain']:,.1f}"]
        for variant, _ in named:
            if variant in t:
                r = t[variant] / t["plain"]
                ratios[variant].append(r)
                cells += [f"{t[variant]:,.1f}", f"{r:.3f}"]
            else:
                cells += ["-", "-"]
        print("| " + " | ".join(cells) + " |")
    names = {"trace-first": "trace mode (first 2 launches per kernel traced)",
             "trace-all": "every launch traced",
             "trace-first-before": "before: trace mode (first 2 launches per kernel traced)",
             "trace-all-before": "before: every launch traced"}
    for variant, _ in named:
        rs = ratios[variant]
        if rs:
            print(f"\n{names[variant]}: geometric mean {geo(rs):.3f}; "
                  f"maximum {max(rs):.3f} ({len(rs)} kernel steps)")
    first = ratios["trace-first"]
    return 0 if first else 1


if __name__ == "__main__":
    sys.exit(main())
