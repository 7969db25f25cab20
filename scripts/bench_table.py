#!/usr/bin/env python3
"""Turns gpu_bench.sh's raw lines into the overhead table.

Input lines: '<program> <plain|pasta|pasta-ws> <label> runs=R median_us=X
min_us=Y'. Output: a Markdown table (program, step, plain median,
instrumented median, ratio, and with pasta-ws lines the working-set mode's
median and ratio) and the geometric mean and maximum of each ratio.
"""
import math
import re
import sys

# Labels may contain blanks: "<prog> <variant> <label...> runs=R median_us=X ..."
LINE = re.compile(r"^(\S+) (plain|pasta-ws|pasta-blocks|pasta) (.+?) runs=\d+ median_us=([0-9.]+)")


def main():
    raw, gpu = sys.argv[1], sys.argv[2]
    times = {}
    for line in open(raw):
        m = LINE.match(line)
        if not m:
            continue
        prog, variant, label, median = m.groups()
        times.setdefault((prog, label), {})[variant] = float(median)
    rows, ratios, host, ws_ratios, blocks_ratios = [], [], [], [], []
    with_ws = any("pasta-ws" in t for t in times.values())
    with_blocks = any("pasta-blocks" in t for t in times.values())
    for (prog, label), t in times.items():
        if "plain" not in t or ("pasta" not in t and "pasta-ws" not in t):
            continue
        ratio = t["pasta"] / t["plain"] if "pasta" in t else None
        if label.startswith("host_"):  # host-side figures, not kernel time
            if ratio is not None:
                host.append(f"| {prog} | {label} | {t['plain']:.3f} | {t['pasta']:.3f} | "
                            f"{t['pasta'] - t['plain']:+.3f} |")
            continue
        if ratio is None:
            row = f"| {prog} | {label} | {t['plain']:,.1f} | - | - |"
        else:
            ratios.append(ratio)
            row = f"| {prog} | {label} | {t['plain']:,.1f} | {t['pasta']:,.1f} | {ratio:.3f} |"
        if with_blocks:
            if "pasta-blocks" in t:
                blocks = t["pasta-blocks"] / t["plain"]
                blocks_ratios.append(blocks)
                row += f" {t['pasta-blocks']:,.1f} | {blocks:.3f} |"
            else:
                row += " - | - |"
        if with_ws:
            if "pasta-ws" in t:
                ws = t["pasta-ws"] / t["plain"]
                ws_ratios.append(ws)
                row += f" {t['pasta-ws']:,.1f} | {ws:.3f} |"
            else:
                row += " - | - |"
        rows.append(row)
    print(f"GPU: {gpu}\n")
    head = "| program | kernel step | plain median (us) | instrumented median (us) | ratio |"
    rule = "|---|---|---|---|---|"
    if with_blocks:
        head += " without placement median (us) | ratio |"
        rule += "---|---|"
    if with_ws:
        head += " working-set mode median (us) | ratio |"
        rule += "---|---|"
    print(head)
    print(rule)
    print("\n".join(rows))
    for name, rs in (("counting", ratios),
                     ("counting without placement", blocks_ratios),
                     ("working-set mode", ws_ratios)):
        if rs:
            geo = math.exp(sum(map(math.log, rs)) / len(rs))
            print(f"\n{name}: geometric mean {geo:.3f}; maximum {max(rs):.3f} "
                  f"({len(rs)} kernel steps)")
    if host:
        print("\n| program | host figure | plain (us) | instrumented (us) | added (us) |")
        print("|---|---|---|---|---|")
        print("\n".join(host))
    return 0 if ratios else 1


if __name__ == "__main__":
    sys.exit(main())
