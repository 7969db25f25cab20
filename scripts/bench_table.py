#!/usr/bin/env python3
"""Turns gpu_bench.sh's raw lines into the overhead table.

Input lines: '<program> <plain|pasta> <label> runs=R median_us=X min_us=Y'.
Output: a Markdown table (program, step, plain median, instrumented median,
ratio) and the geometric mean and maximum of the ratios.
"""
import math
import re
import sys

# Labels may contain blanks: "<prog> <variant> <label...> runs=R median_us=X ..."
LINE = re.compile(r"^(\S+) (plain|pasta) (.+?) runs=\d+ median_us=([0-9.]+)")


def main():
    raw, gpu = sys.argv[1], sys.argv[2]
    times = {}
    for line in open(raw):
        m = LINE.match(line)
        if not m:
            continue
        prog, variant, label, median = m.groups()
        times.setdefault((prog, label), {})[variant] = float(median)
    rows, ratios, host = [], [], []
    for (prog, label), t in times.items():
        if "plain" not in t or "pasta" not in t:
            continue
        ratio = t["pasta"] / t["plain"]
        if label.startswith("host_"):  # host-side figures, not kernel time
            host.append(f"| {prog} | {label} | {t['plain']:.3f} | {t['pasta']:.3f} | "
                        f"{t['pasta'] - t['plain']:+.3f} |")
            continue
        ratios.append(ratio)
        rows.append(f"| {prog} | {label} | {t['plain']:,.1f} | {t['pasta']:,.1f} | {ratio:.3f} |")
    print(f"GPU: {gpu}\n")
    print("| program | kernel step | plain median (us) | instrumented median (us) | ratio |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))
    if ratios:
        geo = math.exp(sum(map(math.log, ratios)) / len(ratios))
        print(f"\nGeometric mean: {geo:.3f}; maximum: {max(ratios):.3f} "
              f"({len(ratios)} kernel steps)")
    if host:
        print("\n| program | host figure | plain (us) | instrumented (us) | added (us) |")
        print("|---|---|---|---|---|")
        print("\n".join(host))
    return 0 if ratios else 1


if __name__ == "__main__":
    sys.exit(main())
