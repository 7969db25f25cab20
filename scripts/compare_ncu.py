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
import os
import sys

PREC = {"f32": ("fadd", "fmul", "ffma"), "f64": ("dadd", "dmul", "dfma"),
        "f16": ("hadd", "hmul", "hfma")}


def base_name(name):
    """A kernel's base name, the same for ncu's demangled names and PASTA's
    (whose demanglers differ in spacing and in how they spell lambdas):
    without return type, template arguments and parameters, e.g.
    "ns::scale" for "void ns::scale<float>(float *, int)"."""
    name = name.replace("(anonymous namespace)", "{anon}")
    cut = min([i for i in (name.find("<"), name.find("(")) if i >= 0],
              default=len(name))
    return name[:cut].strip().split(" ")[-1]


def read_ncu(path):
    """Per kernel: summed metrics and the launch count, keyed by the name in
    ncu's output (the mangled name with --print-kernel-base mangled) and by
    its base name."""
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("==")]
    header, data = rows[0], rows[2:]  # rows[1] holds the units
    name_col = header.index("Kernel Name")
    kernels = {}
    for row in data:
        for name in {row[name_col], base_name(row[name_col])}:
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
    """Table rows, and whether every required agreement holds."""
    rows, ok = [], True
    for prog in kernels:
        profile = json.load(open(os.path.join(work, f"{prog}.json")))
        ncu = read_ncu(os.path.join(work, f"{prog}.ncu.csv"))
        for k in profile["kernels"]:
            if k["launches"] == 0:
                continue
            # The mangled name where ncu printed mangled names: exact, also
            # for template instances and lambdas that share a base name.
            m = ncu.get(k.get("mangled") or "") or ncu.get(base_name(k["name"]))
            if m is None:
                rows.append(f"| {prog} | {k['name']} | not in ncu output |" + " |" * 9)
                ok = False
                continue
            cells = [prog, k["name"], f"{k['launches']} / {m['launches']}"]
            ok &= k["launches"] == m["launches"]
            for prec in ("f32", "f64", "f16"):
                ours, theirs = k["flops"][prec], ncu_flops(m, prec)
                cells.append(f"{ours:,} / {theirs:,} {verdict(ours, theirs)}")
                # ptxas uses HFMA2.MMA/HADD2 as register moves, so ncu's half
                # counts include instructions that are no arithmetic: f16 is
                # shown, not required.
                if prec != "f16" and k["special"] == 0 and ours != theirs:
                    ok = False
            pairs = [(k["load_bytes"]["global"], ncu_bytes(m, "global", "ld")),
                     (k["store_bytes"]["global"], ncu_bytes(m, "global", "st")),
                     (k["load_bytes"]["shared"], ncu_bytes(m, "shared", "ld")),
                     (k["store_bytes"]["shared"], ncu_bytes(m, "shared", "st")),
                     (k["atomic_bytes"]["global"],
                      ncu_bytes(m, "global", "atom") + ncu_bytes(m, "global", "red"))]
            for ours, theirs in pairs:
                cells.append(f"{ours:,} / {theirs:,} {verdict(ours, theirs)}")
                ok &= ours >= theirs
            cells.append(f"{k['special']:,}")
            rows.append("| " + " | ".join(cells) + " |")
    return rows, ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--kernels", nargs="+", required=True)
    ap.add_argument("--validation", required=True)
    args = ap.parse_args()

    gpu = open(os.path.join(args.work, "gpu.csv")).read().strip().splitlines()[-1]
    rows, ok = validation_rows(args.work, args.kernels)
    with open(args.validation, "w") as f:
        f.write(f"GPU: {gpu}\n\n")
        f.write("Each cell: PASTA / ncu, then `=` or PASTA's relative difference.\n\n")
        f.write("| program | kernel | launches | f32 FLOPs | f64 FLOPs | f16 FLOPs | "
                "global load B | global store B | shared load B | shared store B | "
                "global atomic B | special |\n")
        f.write("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
        f.write("\n".join(rows) + "\n\n")
        f.write(f"Required agreements hold: {'yes' if ok else 'NO'}\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
