#!/usr/bin/env python3
"""Compares divergence-mode profiles with Nsight Compute (the ground truth)
and times the divergence copies against the plain build. Used by
scripts/gpu_divergence.sh; reads ncu's CSV with compare_ncu.read_ncu.

Per kernel (ncu on the plain build; PASTA_DIVERGENCE=1 on the -div build):
  requests      smsp__sass_inst_executed_op_{global,shared}_{ld,st,atom,red}.sum
                (PASTA counts atomics as requests too)
  distinct B    sm__sass_data_bytes_mem_{global,shared}_op_{ld,st,atom,red}.sum
  sectors       l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum
  bank confl.   l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum
  divergent     smsp__sass_branch_targets_threads_divergent.sum
  lanes/inst    smsp__thread_inst_executed.sum / smsp__inst_executed.sum
docs/user-guide.md ("Divergence mode") and docs/validation.md say why IR-level
and SASS-level figures may differ.
"""
import argparse
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_ncu import base_name, read_ncu, verdict  # noqa: E402

GLOBAL_OPS = ("ld", "st", "atom", "red")


def ncu_figures(m):
    def g(metric):
        return int(m.get(metric, 0))
    requests = sum(g(f"smsp__sass_inst_executed_op_{s}_{op}.sum")
                   for s in ("global", "shared") for op in ("ld", "st"))
    requests += sum(g(f"smsp__sass_inst_executed_op_{s}_{op}.sum")
                    for s in ("global", "shared") for op in ("atom", "red"))
    distinct = sum(g(f"sm__sass_data_bytes_mem_{s}_op_{op}.sum")
                   for s in ("global", "shared") for op in GLOBAL_OPS)
    sectors = sum(g(f"l1tex__t_sectors_pipe_lsu_mem_global_op_{op}.sum")
                  for op in ("ld", "st"))
    conflicts = sum(g(f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum")
                    for op in ("ld", "st"))
    divergent = g("smsp__sass_branch_targets_threads_divergent.sum")
    insts = g("smsp__inst_executed.sum")
    lanes = g("smsp__thread_inst_executed.sum") / insts if insts else None
    return {"requests": requests, "distinct": distinct, "sectors": sectors,
            "conflicts": conflicts, "divergent": divergent, "lanes": lanes}


def pasta_figures(d):
    lanes = (d["thread_executions"] / d["warp_executions"]
             if d.get("warp_executions") else None)
    return {"requests": d["requests_global"] + d["requests_shared"],
            "distinct": d["distinct_bytes_global"] + d["distinct_bytes_shared"],
            "sectors": d["sectors"], "ideal": d["ideal_sectors"],
            "conflicts": d["bank_conflicts"], "divergent": d["divergent_branches"],
            "branches": d["branches"], "lanes": lanes}


def kernels_of(profile):
    """Per base name, the divergence figures of every kernel entry with that
    name summed (template instances, as ncu's base names sum them)."""
    with open(profile) as f:
        doc = json.load(f)
    sums = {}
    for k in doc.get("kernels", []):
        if "divergence" in k:
            total = sums.setdefault(base_name(k["name"]), {})
            for key, value in k["divergence"].items():
                total[key] = total.get(key, 0) + value
    return {name: pasta_figures(d) for name, d in sums.items()}


def ncu_entry(theirs_all, name):
    """ncu's entry for PASTA's kernel `name`: the same base name, else the
    longest base name whose components are PASTA's in order ending with the
    same one (ncu leaves out inline namespaces and shortens CUB's, e.g.
    radix_sort::DeviceRadixSortHistogramKernel for
    cub::CUB_300001_SM_900::detail::radix_sort::DeviceRadixSortHistogramKernel)."""
    if name in theirs_all:
        return theirs_all[name]
    ours = name.split("::")
    best = None
    for key in theirs_all:
        if "(" in key or "<" in key or " " in key:
            continue
        theirs = key.split("::")
        if theirs[-1] != ours[-1]:
            continue
        it = iter(ours)
        if all(c in it for c in theirs) and (best is None or len(key) > len(best)):
            best = key
    return theirs_all.get(best) if best else None


def cell(ours, theirs):
    return f"{ours:,} / {theirs:,} ({verdict(ours, theirs)})"


def validation(work, programs):
    rows = ["| program | kernel | requests PASTA / ncu | distinct B | sectors (ideal) "
            "| bank conflicts | divergent branches | lanes/inst PASTA / ncu |",
            "|---|---|---|---|---|---|---|---|"]
    for prog in programs:
        prof = os.path.join(work, f"{prog}.div.json")
        csvf = os.path.join(work, f"{prog}.ncu-div.csv")
        if not (os.path.exists(prof) and os.path.exists(csvf)):
            rows.append(f"| {prog} | (no profile or ncu output) | | | | | | |")
            continue
        ours_all = kernels_of(prof)
        try:
            theirs_all = read_ncu(csvf)
        except (IndexError, ValueError, OSError):
            rows.append(f"| {prog} | (ncu output unreadable) | | | | | | |")
            continue
        for name, ours in sorted(ours_all.items()):
            m = ncu_entry(theirs_all, name)
            if m is None:
                rows.append(f"| {prog} | {name} | (not in ncu's output) | | | | | |")
                continue
            t = ncu_figures(m)
            lanes = ("-" if ours["lanes"] is None or t["lanes"] is None
                     else f"{ours['lanes']:.2f} / {t['lanes']:.2f}")
            rows.append(
                f"| {prog} | {name} | {cell(ours['requests'], t['requests'])} "
                f"| {cell(ours['distinct'], t['distinct'])} "
                f"| {cell(ours['sectors'], t['sectors'])} ({ours['ideal']:,}) "
                f"| {cell(ours['conflicts'], t['conflicts'])} "
                f"| {cell(ours['divergent'], t['divergent'])} | {lanes} |")
    return "\n".join(rows) + "\n"


LINE = re.compile(r"^(\S+) (plain|div|before) (.+?) runs=\d+ median_us=([0-9.]+)")


def overhead(raw):
    times = {}
    for line in open(raw):
        m = LINE.match(line)
        if m:
            prog, variant, label, median = m.groups()
            times.setdefault((prog, label), {})[variant] = float(median)
    before = any("before" in t for t in times.values())
    rows = ["| program | kernel step | plain us | divergence us | ratio |"
            + (" before us | before ratio |" if before else ""),
            "|---|---|---|---|---|" + ("---|---|" if before else "")]
    ratios, before_ratios = [], []
    for (prog, label), t in sorted(times.items()):
        if "plain" not in t or "div" not in t or label.startswith("host_"):
            continue
        r = t["div"] / t["plain"] if t["plain"] > 0 else float("nan")
        if r == r:
            ratios.append(r)
        row = f"| {prog} | {label} | {t['plain']:,.1f} | {t['div']:,.1f} | {r:.2f}x |"
        if before and "before" in t and t["plain"] > 0:
            b = t["before"] / t["plain"]
            before_ratios.append(b)
            row += f" {t['before']:,.1f} | {b:.2f}x |"
        elif before:
            row += " | |"
        rows.append(row)

    def geo(rs):
        return math.exp(sum(math.log(r) for r in rs) / len(rs))
    if ratios:
        extra = (f" | **{geo(before_ratios):.2f}x** ({len(before_ratios)} steps) |"
                 if before_ratios else (" | |" if before else ""))
        rows.append(f"| **geometric mean** | {len(ratios)} steps | | | **{geo(ratios):.2f}x** |"
                    + extra)
        extra = f" | **{max(before_ratios):.2f}x** |" if before_ratios else (" | |" if before else "")
        rows.append(f"| **max** | | | | **{max(ratios):.2f}x** |" + extra)
    return "\n".join(rows) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--programs", nargs="+", required=True)
    ap.add_argument("--bench", help="raw bench lines: '<prog> plain|div <label> ...'")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    text = "## Divergence mode against Nsight Compute\n\n" + validation(a.work, a.programs)
    if a.bench and os.path.exists(a.bench):
        text += "\n## Divergence-mode kernel time against the plain build\n\n" + overhead(a.bench)
    with open(a.out, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
