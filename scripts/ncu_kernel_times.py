#!/usr/bin/env python3
"""Kernel time per kernel from Nsight Compute CSV logs, side by side.

usage: ncu_kernel_times.py [--median R] [--metric M] PLAIN.csv INSTRUMENTED.csv [MORE.csv...]
Each log comes from `ncu --csv --page raw --print-kernel-base mangled
--metrics gpu__time_duration.sum`. Kernels are matched by name, with PASTA's
copy suffixes (__pasta_ws, __pasta_plain, __pasta_trace, __pasta_div,
__pasta_capped) removed; times are summed over launches. Prints a Markdown
table: each kernel's plain time, and for each other log its time and ratio
to plain, then the geometric mean and maximum of each ratio and the ratio of
the totals.

--metric M: the same table of another metric the logs hold (ncu's
--metrics named it too, e.g. l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum,
the bytes a kernel stored to local memory), summed over launches, in its
own units.

--median R: each log ran the program's work R times (Thrust's
THRUST_REPEAT); a kernel's time is then the median of its launches' times
times its launches per run (launches / R), one run's time that one slow or
fast launch does not move. A log may be several joined by "+" (rounds of
the same build: R runs each).
"""
import csv
import math
import re
import statistics
import sys

SUFFIX = re.compile(r"__pasta_(ws|plain|trace|div|capped)$")


METRIC = "gpu__time_duration.sum"


def launch_times(path):
    """{kernel: [ns of each launch]} from one ncu raw CSV log (or METRIC's
    value of each launch)."""
    rows = [line for line in open(path, errors="replace") if line.startswith('"')]
    times = {}
    reader = csv.DictReader(rows)
    for row in reader:
        name = row.get("Kernel Name", "")
        value = row.get(METRIC, "")
        try:
            ns = float(value.replace(",", ""))
        except ValueError:
            continue  # the units row
        times.setdefault(SUFFIX.sub("", name), []).append(ns)
    return times


def kernel_times(arg, repeats=0):
    """{kernel: (launches, ns)} from one log or several joined by "+": the
    total time, or with repeats (runs per log) one run's time from the
    median launch."""
    paths = arg.split("+")
    times = {}
    for path in paths:
        for name, ns in launch_times(path).items():
            times.setdefault(name, []).extend(ns)
    if not repeats:
        return {k: (len(v), sum(v)) for k, v in times.items()}
    runs = repeats * len(paths)
    return {k: (len(v) // runs or 1, statistics.median(v) * (len(v) / runs))
            for k, v in times.items()}


def short(name):
    """A readable name: CUB's kernel template name, or the symbol."""
    m = re.search(r"\d+((?:Device|static_|transform_)\w*?[Kk]ernel\w*?)I", name)
    return m.group(1) if m else name[:60]


def label(arg):
    """A log's name in the table: its file name(s)."""
    return "+".join(p.rsplit("/", 1)[-1] for p in arg.split("+"))


def main():
    args = sys.argv[1:]
    repeats = 0
    global METRIC
    while args[:1] in (["--median"], ["--metric"]) and len(args) > 1:
        if args[0] == "--median":
            repeats = int(args[1])
        else:
            METRIC = args[1]
        args = args[2:]
    # Times in microseconds; another metric as ncu gives it.
    scale, unit = (1000, "us") if METRIC == "gpu__time_duration.sum" else (1, METRIC)
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    sys.argv[1:] = args  # the names below
    logs = [kernel_times(p, repeats) for p in args]
    plain = logs[0]
    names = sorted(plain, key=lambda k: -plain[k][1])
    head = f"| kernel | launches | plain ({unit}) |"
    rule = "|---|---|---|"
    for i in range(1, len(logs)):
        head += f" {label(sys.argv[1 + i])} ({unit}) | ratio |"
        rule += "---|---|"
    print(head)
    print(rule)
    ratios = [[] for _ in logs]
    totals = [0.0 for _ in logs]
    for k in names:
        n, t = plain[k]
        row = f"| {short(k)} | {n} | {t / scale:,.1f} |"
        totals[0] += t
        for i in range(1, len(logs)):
            if k in logs[i]:
                u = logs[i][k][1]
                totals[i] += u
                ratio = u / t if t else float("inf") if u else 1.0
                ratios[i].append(ratio)
                row += f" {u / scale:,.1f} | {ratio:.3f} |"
            else:
                row += " - | - |"
        print(row)
    print()
    for i in range(1, len(logs)):
        rs = ratios[i]
        if not rs:
            continue
        # A metric may be 0 in one build (no local memory plain).
        finite = [r for r in rs if 0 < r < math.inf] or [1.0]
        geo = math.exp(sum(map(math.log, finite)) / len(finite))
        print(f"{label(sys.argv[1 + i])}: geometric mean {geo:.3f}, "
              f"maximum {max(rs):.3f} over {len(rs)} kernels; all kernels together "
              f"{totals[i] / totals[0]:.3f}x")
    return 0 if names else 1


if __name__ == "__main__":
    sys.exit(main())
