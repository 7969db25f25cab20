#!/usr/bin/env python3
"""Registers, stack and spills per kernel, from `ptxas -v` logs.

usage: ptxas_table.py PLAIN.log INSTRUMENTED.log [NAME]
       ptxas_table.py --copies INSTRUMENTED.log [NAME]
Each log is the stderr of one compile with `-Xcuda-ptxas -v`. The first
form prints one Markdown row per kernel of the plain build: registers,
stack frame and spill bytes (stores + loads) of the plain kernel, of its
counting copy (same name) and of its working-set copy (name + __pasta_ws),
as "regs/stack/spill".

--copies reads one instrumented build and compares, per kernel K, its plain
copy (K__pasta_plain, the code launched outside the launch window) with its
counting kernel (K): registers, stack, spills, static shared memory, and
the occupancy the registers allow on sm_90 (65536 registers and at most 64
warps per SM, registers allocated per warp in units of 256), with "yes" in
the last column when counting lowers that occupancy or adds stack or
spills (what the report's note says at run time, from the vendor's
figures: docs/profile-format.md, "Resources").
"""
import re
import sys

ENTRY = re.compile(
    r"Compiling entry function '(\S+)' for '\w+'\n"
    r"(?:.*\n)*?ptxas info\s*: Function properties for \S+\n"
    r"\s*(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads\n"
    r".*?Used (\d+) registers([^\n]*)")

PLAIN_SUFFIX = "__pasta_plain"


def parse(path):
    text = open(path, errors="replace").read()
    out = {}
    for m in ENTRY.finditer(text):
        smem = re.search(r"(\d+) bytes smem", m.group(6))
        out[m.group(1)] = (int(m.group(5)), int(m.group(2)),
                           int(m.group(3)) + int(m.group(4)),
                           int(smem.group(1)) if smem else 0)
    return out


def short(name):
    m = re.search(r"\d+((?:Device|static_|transform_)\w*?[Kk]ernel\w*?)I", name)
    if m:
        return m.group(1)
    m = re.match(r"_Z(\d+)", name)
    if m:  # a function at namespace scope: its name has that many characters
        return name[m.end():m.end() + int(m.group(1))]
    return name[:50]


def fmt(t):
    return "-" if t is None else f"{t[0]} / {t[1]} / {t[2]}"


def reg_occupancy(regs):
    """Fraction of sm_90's 64 warps per SM that `regs` registers per thread
    allow (registers only: block size and shared memory left out)."""
    per_warp = -(-max(regs, 1) * 32 // 256) * 256
    return min(64, 65536 // per_warp) / 64


def copies(log, program):
    ks = parse(log)
    rows = 0
    for k in sorted(ks):
        plain = ks.get(k + PLAIN_SUFFIX)
        if k.endswith(PLAIN_SUFFIX) or "__pasta_" in k or plain is None:
            continue
        c = ks[k]
        po, co = reg_occupancy(plain[0]), reg_occupancy(c[0])
        changed = co < po or c[1] > plain[1] or c[2] > plain[2]
        print(f"| {program} | {short(k)} | {plain[0]} -> {c[0]} | "
              f"{plain[1]} -> {c[1]} | {plain[2]} -> {c[2]} | "
              f"{plain[3]} -> {c[3]} | {po:.0%} -> {co:.0%} | "
              f"{'yes' if changed else ''} |")
        rows += 1
    return 0 if rows else 1


def main():
    if sys.argv[1] == "--copies":
        return copies(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "")
    plain, pasta = parse(sys.argv[1]), parse(sys.argv[2])
    program = sys.argv[3] if len(sys.argv) > 3 else ""
    for k in sorted(plain):
        print(f"| {program} | {short(k)} | {fmt(plain[k])} | {fmt(pasta.get(k))} "
              f"| {fmt(pasta.get(k + '__pasta_ws'))} |")
    return 0 if plain else 1


if __name__ == "__main__":
    sys.exit(main())
