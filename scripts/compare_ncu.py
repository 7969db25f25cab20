#!/usr/bin/env python3
"""Compares PASTA profiles with Nsight Compute metrics (the ground truth) and
writes the validation and kernel-time tables. Used by scripts/gpu_check.sh.

Conventions (docs/counting-conventions.md):
  FLOPs per precision = add + mul + 2 * fma thread instructions (SASS);
  bytes = sm__sass_data_bytes_mem_<space>_op_<ld|st>, atomics = op_atom +
  op_red. PASTA's "special" operations (div, sqrt, transcendentals) become
  FFMA/MUFU sequences in SASS, so FLOPs are only required to match where a
  kernel has none.
"""
import argparse
import csv
import json
import math
import os
import sys

PREC = {"f32": ("fadd", "fmul", "ffma"), "f64": ("dadd", "dmul", "dfma"),
        "f16": ("hadd", "hmul", "hfma")}


def read_ncu(path):
    """Per kernel (short name): summed metrics and the launch count."""
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("==")]
    header, data = rows[0], rows[2:]  # rows[1] holds the units
    name_col = header.index("Kernel Name")
    kernels = {}
    for row in data:
        name = row[name_col].split("(")[0].split("<")[0].strip()
        entry = kernels.setdefault(name, {"launches": 0})
        entry["launches"] += 1
        for col, metric in enumerate(header):
            if "__" not in metric:
                continue
            try:
                value = float(row[col].replace(",", ""))
            except ValueError:
                continue
            entry[metric] = entry.get(metric, 0.0) + value
    return kernels


def ncu_flops(m, prec):
    add, mul, fma = (m.get(f"smsp__sass_thread_inst_executed_op_{op}_pred_on.sum", 0)
                     for op in PREC[prec])
    return int(add + mul + 2 * fma)


def ncu_bytes(m, space, op):
    return int(m.get(f"sm__sass_data_bytes_mem_{space}_op_{op}.sum", 0))


def verdict(ours, theirs):
    if ours == theirs:
        return "="
    if theirs == 0:
        return "≠"
    return f"{100.0 * (ours - theirs) / theirs:+.2f}%"


def validation_rows(work, kernels):
    rows, exact = [], True
    for prog in kernels:
        profile = json.load(open(os.path.join(work, f"{prog}.json")))
        ncu = read_ncu(os.path.join(work, f"{prog}.ncu.csv"))
        for k in profile["kernels"]:
            if k["launches"] == 0:
                continue
            m = ncu.get(k["name"])
            if m is None:
                rows.append(f"| {prog} | {k['name']} | not in ncu output |" + " |" * 9)
                exact = False
                continue
            cells = [prog, k["name"], f"{k['launches']} / {m['launches']}"]
            for prec in ("f32", "f64"):
                ours, theirs = k["flops"][prec], ncu_flops(m, prec)
                cells.append(f"{ours:,} / {theirs:,} {verdict(ours, theirs)}")
                if k["special"] == 0 and ours != theirs:
                    exact = False
            for space, field, op in (("global", "load_bytes", "ld"),
                                     ("global", "store_bytes", "st"),
                                     ("shared", "load_bytes", "ld"),
                                     ("shared", "store_bytes", "st")):
                ours, theirs = k[field][space], ncu_bytes(m, space, op)
                cells.append(f"{ours:,} / {theirs:,} {verdict(ours, theirs)}")
                exact &= ours == theirs
            ours = k["atomic_bytes"]["global"]
            theirs = ncu_bytes(m, "global", "atom") + ncu_bytes(m, "global", "red")
            cells.append(f"{ours:,} / {theirs:,} {verdict(ours, theirs)}")
            exact &= ours == theirs
            cells.append(str(k["special"]))
            rows.append("| " + " | ".join(cells) + " |")
    return rows, exact


def timing_rows(work, kernels):
    rows, ratios = [], []
    for prog in kernels:
        plain = read_ncu(os.path.join(work, f"{prog}.time-plain.csv"))
        inst = read_ncu(os.path.join(work, f"{prog}.time-pasta.csv"))
        for name, m in plain.items():
            if name not in inst:
                continue
            t0 = m["gpu__time_duration.sum"] / m["launches"]
            t1 = inst[name]["gpu__time_duration.sum"] / inst[name]["launches"]
            ratio = t1 / t0
            ratios.append(ratio)
            rows.append(f"| {prog} | {name} | {m['launches']} | {t0 / 1e3:,.1f} | "
                        f"{t1 / 1e3:,.1f} | {ratio:.3f} |")
    geo = math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else float("nan")
    return rows, geo, max(ratios, default=float("nan"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--kernels", nargs="+", required=True)
    ap.add_argument("--validation", required=True)
    ap.add_argument("--performance", required=True)
    args = ap.parse_args()

    gpu = open(os.path.join(args.work, "gpu.csv")).read().strip().splitlines()[-1]
    rows, exact = validation_rows(args.work, args.kernels)
    with open(args.validation, "w") as f:
        f.write(f"GPU: {gpu}\n\n")
        f.write("Each cell: PASTA / ncu, then `=` or the relative difference.\n\n")
        f.write("| program | kernel | launches | f32 FLOPs | f64 FLOPs | global load B | "
                "global store B | shared load B | shared store B | global atomic B | special |\n")
        f.write("|---|---|---|---|---|---|---|---|---|---|---|\n")
        f.write("\n".join(rows) + "\n\n")
        f.write(f"All counts exact: {'yes' if exact else 'NO'}\n")

    rows, geo, worst = timing_rows(args.work, args.kernels)
    with open(args.performance, "w") as f:
        f.write(f"GPU: {gpu}\n\n")
        f.write("Mean kernel time per launch from ncu `gpu__time_duration.sum` "
                "(ncu locks clocks and flushes caches before every launch).\n\n")
        f.write("| program | kernel | launches | plain (us) | instrumented (us) | ratio |\n")
        f.write("|---|---|---|---|---|---|\n")
        f.write("\n".join(rows) + "\n\n")
        f.write(f"Geometric mean ratio: {geo:.3f}; worst: {worst:.3f}\n")
    return 0 if exact else 1


if __name__ == "__main__":
    sys.exit(main())
