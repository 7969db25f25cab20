#!/usr/bin/env python3
"""Kernel time per kernel from Nsight Compute CSV logs, side by side.

usage: ncu_kernel_times.py PLAIN.csv INSTRUMENTED.csv [MORE.csv...]
Each log comes from `ncu --csv --page raw --print-kernel-base mangled
--metrics gpu__time_duration.sum`. Kernels are matched by name, with PASTA's
copy suffixes (__pasta_ws, __pasta_plain, __pasta_trace, __pasta_div,
__pasta_capped) removed; times are summed over launches. Prints a Markdown
table: each kernel's plain time, and for each other log its time and ratio
to plain, then the geometric mean and maximum of each ratio and the ratio of
the totals.
"""
import csv
import math
import re
import sys

SUFFIX = re.compile(r"__pasta_(ws|plain|trace|div|capped)$")


def kernel_times(path):
    """{kernel: (launches, total ns)} from one ncu raw CSV log."""
    rows = [line for line in open(path, errors="replace") if line.startswith('"')]
    times = {}
    reader = csv.DictReader(rows)
    for row in reader:
        name = row.get("Kernel Name", "")
        value = row.get("gpu__time_duration.sum", "")
        try:
            ns = float(value.replace(",", ""))
        except ValueError:
            continue  # the units row
        name = SUFFIX.sub("", name)
        n, total = times.get(name, (0, 0.0))
        times[name] = (n + 1, total + ns)
    return times


def short(name):
    """A readable name: CUB's kernel template name, or the symbol."""
    m = re.search(r"\d+((?:Device|static_|transform_)\w*?[Kk]ernel\w*?)I", name)
    return m.group(1) if m else name[:60]


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    logs = [kernel_times(p) for p in sys.argv[1:]]
    plain = logs[0]
    names = sorted(plain, key=lambda k: -plain[k][1])
    head = "| kernel | launches | plain (us) |"
    rule = "|---|---|---|"
    for i in range(1, len(logs)):
        head += f" {sys.argv[1 + i].rsplit('/', 1)[-1]} (us) | ratio |"
        rule += "---|---|"
    print(head)
    print(rule)
    ratios = [[] for _ in logs]
    totals = [0.0 for _ in logs]
    for k in names:
        n, t = plain[k]
        row = f"| {short(k)} | {n} | {t / 1000:,.1f} |"
        totals[0] += t
        for i in range(1, len(logs)):
            if k in logs[i]:
                u = logs[i][k][1]
                totals[i] += u
                ratios[i].append(u / t)
                row += f" {u / 1000:,.1f} | {u / t:.3f} |"
            else:
                row += " - | - |"
        print(row)
    print()
    for i in range(1, len(logs)):
        rs = ratios[i]
        if not rs:
            continue
        geo = math.exp(sum(map(math.log, rs)) / len(rs))
        print(f"{sys.argv[1 + i].rsplit('/', 1)[-1]}: geometric mean {geo:.3f}, "
              f"maximum {max(rs):.3f} over {len(rs)} kernels; all kernels together "
              f"{totals[i] / totals[0]:.3f}x")
    return 0 if names else 1


if __name__ == "__main__":
    sys.exit(main())
