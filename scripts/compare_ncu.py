#!/usr/bin/env python3
"""Compares PASTA profiles with Nsight Compute metrics (the ground truth) and
writes the validation and kernel-time tables. Used by scripts/gpu_check.sh.

Conventions (docs/counting-conventions.md):
  FLOPs per precision = add + mul + 2 * fma thread instructions (SASS);
  bytes = sm__sass_data_bytes_mem_<space>_op_<ld|st>, atomics = op_atom +
  op_red. PASTA's "special" operations (div, sqrt, transcendentals) become
  FFMA/MUFU sequences in SASS, so FLOPs are only required to match where a
  kernel has none. Nsight Compute adds a generic load's or store's bytes to
  both its global and its shared metric (space_cells).
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
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


def demangled(names):
    """Each name that ncu left mangled (it does so for kernels of internal
    linkage, `_ZL...`, such as a `static __global__` function) with
    c++filt's spelling, where c++filt is there; the others as they are."""
    mangled = sorted(n for n in names if n.startswith("_Z"))
    tool = shutil.which("c++filt")
    if not mangled or not tool:
        return {}
    out = subprocess.run([tool], input="\n".join(mangled), text=True,
                         capture_output=True).stdout.splitlines()
    return dict(zip(mangled, out)) if len(out) == len(mangled) else {}


def read_ncu(path):
    """Per kernel: summed metrics and the launch count, keyed by the name in
    ncu's output (the mangled name with --print-kernel-base mangled) and by
    its base name."""
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("==")]
    header, data = rows[0], rows[2:]  # rows[1] holds the units
    name_col = header.index("Kernel Name")
    readable = demangled({row[name_col] for row in data})
    kernels = {}
    for row in data:
        raw = row[name_col]
        for name in {raw, base_name(readable.get(raw, raw))}:
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


def space_cells(ours, m, op):
    """The global, shared and local cells of one direction (op "ld" or
    "st"; ours: the profile's bytes by space), whether the required
    agreements hold, and a note where ncu counted generic bytes.

    ncu adds a generic instruction's bytes to both its global and its shared
    metric (the space is known only at run time); PASTA gives each access
    its space. Where PASTA counted no shared bytes the kernel made no shared
    access, so ncu's shared figure is all generic bytes: the global cell is
    then compared with ncu's global less them, and PASTA's global plus
    local (where those accesses went) is required to reach ncu's global.
    Local is shown, not required: ptxas's spills are local accesses the IR
    does not have, and ptxas keeps some private arrays in registers. Where
    all of ncu's global bytes are generic, the global bytes are reported
    as not checked."""
    g, s, loc = (ncu_bytes(m, space, op) for space in ("global", "shared", "local"))
    generic = s if ours["shared"] == 0 else 0
    cells, ok = [], True
    for space, theirs in (("global", g - generic), ("shared", s - generic)):
        extra = f" + {generic:,} generic" if generic else ""
        cells.append(f"{ours[space]:,} / {theirs:,}{extra} {verdict(ours[space], theirs)}")
        ok &= ours[space] >= theirs
    cells.append(f"{ours['local']:,} / {loc:,} {verdict(ours['local'], loc)}")
    if not generic:
        return cells, ok, ""
    reach = ours["global"] + ours["local"]
    note = (f"{generic:,} generic bytes (ncu's shared figure; PASTA counted no "
            f"shared bytes); PASTA's global + local {reach:,} ")
    if g <= generic:
        # Every byte ncu counted as global is generic: nothing is left to
        # compare PASTA's global with, and its local (private arrays that
        # ptxas may keep in registers) can exceed any figure, so the global
        # bytes are not checked rather than passed.
        return cells, ok, (note + f"against ncu's global {g:,}: not checked "
                           "(all of ncu's global bytes are generic)")
    ok &= reach >= g
    return cells, ok, (note + f"reaches ncu's global {g:,}: "
                       f"{'yes' if reach >= g else 'NO'}")


def kernel_row(prog, k, m):
    """One kernel's cells (k: the profile's entry, m: ncu's summed metrics),
    whether its launches agree, whether its FLOPs and bytes agree, and its
    notes."""
    cells = [prog, k["name"], f"{k['launches']} / {m['launches']}"]
    counts_ok, notes = True, []
    for prec in ("f32", "f64", "f16"):
        ours, theirs = k["flops"][prec], ncu_flops(m, prec)
        if prec == "f16":
            # ncu's h* metrics count bfloat16 instructions too (HFMA2.BF16).
            ours += k["flops"].get("bf16", 0)
        cells.append(f"{ours:,} / {theirs:,} {verdict(ours, theirs)}")
        # ptxas uses HFMA2.MMA/HADD2 as register moves, so ncu's half
        # counts include instructions that are no arithmetic: f16 is
        # shown, not required.
        if prec != "f16" and k["special"] == 0 and ours != theirs:
            counts_ok = False
    for op, key in (("ld", "load_bytes"), ("st", "store_bytes")):
        space, holds, note = space_cells(k[key], m, op)
        cells += space
        counts_ok &= holds
        if note:
            notes.append(f"- {prog} `{k['name']}`, {key.split('_')[0]}s: {note}")
    ours = k["atomic_bytes"]["global"]
    theirs = ncu_bytes(m, "global", "atom") + ncu_bytes(m, "global", "red")
    cells.append(f"{ours:,} / {theirs:,} {verdict(ours, theirs)}")
    counts_ok &= ours >= theirs
    cells.append(f"{k['special']:,}")
    return "| " + " | ".join(cells) + " |", k["launches"] == m["launches"], counts_ok, notes


COUNTED = ("flops", "load_bytes", "store_bytes", "atomic_bytes", "special")


def summed(entries, name):
    """The counts of several profile entries (kernels, device functions)
    added up, as one entry named `name`."""
    total = {"name": name, "launches": sum(e.get("launches", 0) for e in entries)}
    for key in COUNTED:
        if key == "special":
            total[key] = sum(e[key] for e in entries)
        else:
            total[key] = {sub: sum(e[key].get(sub, 0) for e in entries)
                          for sub in entries[0][key]}
    return total


def summed_ncu(ms):
    """ncu's metrics of several kernels added up."""
    total = {}
    for m in ms:
        for metric, value in m.items():
            total[metric] = total.get(metric, 0) + value
    return total


def validation_rows(work, kernels):
    """Table rows, notes, and whether every required agreement holds.

    A kernel's entry holds the device functions only it reaches; those that
    several kernels reach are listed apart (docs/profile-format.md), while
    ncu counts their work in the kernel that called them. Where one kernel
    ran they are added to it; where several ran, a row of all the kernels
    and those functions is compared with ncu's sum, and the kernels' own
    rows are shown (their launches still required)."""
    rows, notes, ok = [], [], True
    for prog in kernels:
        profile = json.load(open(os.path.join(work, f"{prog}.json")))
        ncu = read_ncu(os.path.join(work, f"{prog}.ncu.csv"))
        ran = [k for k in profile["kernels"] if k["launches"] > 0]
        shared = [f for f in profile.get("device_functions", []) if f.get("calls", 0) > 0]
        apart = bool(shared) and len(ran) > 1
        if shared and len(ran) == 1:
            ran = [dict(summed(ran + shared, ran[0]["name"]), mangled=ran[0].get("mangled"),
                        launches=ran[0]["launches"])]
            notes.append(f"- {prog} `{ran[0]['name']}`: with the device functions "
                         f"it alone called this run ({', '.join(f['name'] for f in shared)})")
        matched = []
        for k in ran:
            # The mangled name where ncu printed mangled names: exact, also
            # for template instances and lambdas that share a base name.
            m = ncu.get(k.get("mangled") or "") or ncu.get(base_name(k["name"]))
            if m is None:
                rows.append(f"| {prog} | {k['name']} | not in ncu output |" + " |" * 11)
                ok = False
                continue
            row, launches_ok, counts_ok, knotes = kernel_row(prog, k, m)
            rows.append(row)
            notes += knotes
            ok &= launches_ok and (counts_ok or apart)
            matched.append((k, m))
        if apart and matched:
            name = "all kernels + " + ", ".join(f["name"] for f in shared)
            row, _, counts_ok, knotes = kernel_row(
                prog, summed([k for k, _ in matched] + shared, name),
                summed_ncu([m for _, m in matched]))
            rows.append(row)
            notes += knotes
            ok &= counts_ok
    return rows, notes, ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--kernels", nargs="+", required=True)
    ap.add_argument("--validation", required=True)
    args = ap.parse_args()

    gpu = open(os.path.join(args.work, "gpu.csv")).read().strip().splitlines()[-1]
    rows, notes, ok = validation_rows(args.work, args.kernels)
    with open(args.validation, "w") as f:
        f.write(f"GPU: {gpu}\n\n")
        f.write("Each cell: PASTA / ncu, then `=` or PASTA's relative difference.\n\n")
        f.write("| program | kernel | launches | f32 FLOPs | f64 FLOPs | f16+bf16 FLOPs | "
                "global load B | shared load B | local load B | global store B | "
                "shared store B | local store B | global atomic B | special |\n")
        f.write("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
        f.write("\n".join(rows) + "\n\n")
        if notes:
            f.write("Notes (ncu counts a generic access's bytes as global and as shared):\n\n")
            f.write("\n".join(notes) + "\n\n")
        f.write(f"Required agreements hold: {'yes' if ok else 'NO'}\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
