#!/usr/bin/env python3
"""Turns gpu_bench.sh's raw lines into the overhead table.

Input lines: '<program> <variant> <label> runs=R median_us=X min_us=Y',
variant plain, pasta (the counting build), pasta-blocks (counting without
placement), pasta-ws (the counting build with PASTA_WORKING_SET=1), or
<build>-ws / <build> for another build staged next to them (e.g. "before-ws":
bin/kernels/<program>-before in working-set mode), <build>-wsNbank: working-set
mode with N banks of page flags (PASTA_WS_PAGE_BANKS=N). Output: a Markdown table
(program, step, plain median, and for each other variant its median and
ratio to plain, in the order they first appear) and the geometric mean and
maximum of each ratio.
"""
import math
import re
import sys

# Labels may contain blanks: "<prog> <variant> <label...> runs=R median_us=X ..."
LINE = re.compile(r"^(\S+) (\S+) (.+?) runs=\d+ median_us=([0-9.]+)")
NAMES = {"pasta": ("instrumented", "counting"),
         "pasta-blocks": ("without placement", "counting without placement"),
         "pasta-ws": ("working-set mode", "working-set mode")}


def names(variant):
    """(column heading, summary name) of a variant."""
    if variant in NAMES:
        return NAMES[variant]
    m = re.fullmatch(r"(.+)-ws([0-9]+)bank", variant)
    if m:
        build, banks = m.group(1), int(m.group(2))
        what = "one flag bank" if banks == 1 else f"{banks} flag banks"
        return (f"working-set mode, {what}, {build} build",
                f"working-set mode, {what}, {build} build")
    if variant.endswith("-ws"):
        build = variant[:-3]
        return (f"working-set mode, {build} build",
                f"working-set mode, {build} build")
    return (f"{variant} build", f"{variant} build")


def geo(rs):
    return math.exp(sum(map(math.log, rs)) / len(rs))


def main():
    raw, gpu = sys.argv[1], sys.argv[2]
    times, variants = {}, []
    for line in open(raw):
        m = LINE.match(line)
        if not m:
            continue
        prog, variant, label, median = m.groups()
        times.setdefault((prog, label), {})[variant] = float(median)
        if variant != "plain" and variant not in variants:
            variants.append(variant)
    # The counting build first, as before; the others as they came.
    if "pasta" in variants:
        variants.remove("pasta")
        variants.insert(0, "pasta")
    ratios = {v: [] for v in variants}
    rows, host = [], []
    for (prog, label), t in times.items():
        if "plain" not in t or not any(v in t for v in variants):
            continue
        if label.startswith("host_"):  # host-side figures, not kernel time
            if "pasta" in t:
                host.append(f"| {prog} | {label} | {t['plain']:.3f} | {t['pasta']:.3f} | "
                            f"{t['pasta'] - t['plain']:+.3f} |")
            continue
        row = f"| {prog} | {label} | {t['plain']:,.1f} |"
        for v in variants:
            if v in t:
                r = t[v] / t["plain"]
                ratios[v].append(r)
                row += f" {t[v]:,.1f} | {r:.3f} |"
            else:
                row += " - | - |"
        rows.append(row)
    print(f"GPU: {gpu}\n")
    head = "| program | kernel step | plain median (us) |"
    rule = "|---|---|---|"
    for v in variants:
        head += f" {names(v)[0]} median (us) | ratio |"
        rule += "---|---|"
    print(head)
    print(rule)
    print("\n".join(rows))
    for v in variants:
        rs = ratios[v]
        if rs:
            print(f"\n{names(v)[1]}: geometric mean {geo(rs):.3f}; maximum {max(rs):.3f} "
                  f"({len(rs)} kernel steps)")
    if host:
        print("\n| program | host figure | plain (us) | instrumented (us) | added (us) |")
        print("|---|---|---|---|---|")
        print("\n".join(host))
    return 0 if any(ratios.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
