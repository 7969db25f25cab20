#!/usr/bin/env python3
"""Tabulates bench/cleanup_table.sh's builds: per program and setting, the
CPU seconds of the LLVM step and of ptxas, and per entry the PTX
instructions, registers and spill bytes; SETTING... are compared column by
column (the first is the reference).
usage: cleanup_table.py OUTDIR MODE SETTING... [--entries REGEX]"""
import os
import re
import subprocess
import sys


def ptx_instructions(path):
    """Instructions per .entry/.func body: lines ending in ';' that are not
    directives (.reg, .loc, ...) or labels, inline asm's braces skipped."""
    counts, name, depth = {}, None, 0
    head = re.compile(r'^\s*(?:\.visible\s+|\.weak\s+)?\.(entry|func)\s+'
                      r'(?:\([^)]*\)\s*)?([\w$.]+)')
    for line in open(path):
        s = line.strip()
        if depth == 0:
            m = head.match(line)
            if m:
                name = m.group(2)
                counts[name] = 0
            if s == '{' and name:
                depth = 1
            continue
        if s == '{':
            depth += 1
            continue
        if s == '}':
            depth -= 1
            if depth == 0:
                name = None
            continue
        if not s or s.startswith(('.', '//', '$', '@@')):
            continue
        if s.endswith(';'):
            counts[name] += 1
    return counts


def ptxas_figures(path):
    """name -> (registers, spill store bytes + spill load bytes)."""
    figs, name = {}, None
    for line in open(path):
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            name = m.group(1)
            figs.setdefault(name, [0, 0])
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads",
                      line)
        if m and name:
            figs[name][1] = int(m.group(1)) + int(m.group(2))
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            name = m.group(1)
            figs.setdefault(name, [0, 0])
        m = re.search(r"Used (\d+) registers", line)
        if m and name:
            figs[name][0] = int(m.group(1))
    return figs


def sass_instructions(cubin):
    """name -> SASS instructions: each function's .text section / 16 bytes."""
    out = subprocess.run(['/usr/lib/llvm-22/bin/llvm-readelf', '-S', '--wide',
                          cubin], capture_output=True, text=True).stdout
    n = {}
    for line in out.splitlines():
        w = line.replace('[', ' ').replace(']', ' ').split()
        if len(w) > 6 and w[1].startswith('.text.'):
            n[w[1][len('.text.'):]] = int(w[5], 16) // 16
    return n


def seconds(path):
    u, s = open(path).read().split()[-2:]
    return float(u) + float(s)


def main():
    args = sys.argv[1:]
    regex = None
    if '--entries' in args:
        i = args.index('--entries')
        regex = re.compile(args[i + 1])
        del args[i:i + 2]
    out, mode, settings = args[0], args[1], args[2:]
    programs = sorted({f.split('.')[0] for f in os.listdir(out)
                       if f.endswith('.ptx') and f'.{mode}.' in f})
    print('| program | ' + ' | '.join(
        f'{s}: LLVM s / ptxas s' for s in settings) + ' |')
    print('|---|' + '---|' * len(settings))
    totals = [[0.0, 0.0] for _ in settings]
    rows = []
    for p in programs:
        cells = []
        per = []
        for j, s in enumerate(settings):
            b = f'{out}/{p}.{mode}.{s}'
            if not os.path.exists(b + '.ptx'):
                per.append(None)
                cells.append('-')
                continue
            cc, px = seconds(b + '.cctime'), seconds(b + '.ptxastime')
            totals[j][0] += cc
            totals[j][1] += px
            cells.append(f'{cc:.2f} / {px:.2f}')
            per.append((ptx_instructions(b + '.ptx'), ptxas_figures(b + '.v'),
                        sass_instructions(b + '.cubin')))
        print(f'| {p} | ' + ' | '.join(cells) + ' |')
        rows.append((p, per))
    print('| **sum** | ' + ' | '.join(
        f'{a:.2f} / {b:.2f}' for a, b in totals) + ' |')
    print()
    print('| program | entry | ' + ' | '.join(
        f'{s}: PTX / SASS / regs / spill B' for s in settings) + ' |')
    print('|---|---|' + '---|' * len(settings))
    sums = [[0, 0] for _ in settings]
    for p, per in rows:
        if per[0] is None:
            continue
        for e in per[0][0]:
            if regex and not regex.search(e):
                continue
            cells = []
            for j, f in enumerate(per):
                if f is None or e not in f[0]:
                    cells.append('-')
                    continue
                n, sass = f[0][e], f[2].get(e, 0)
                sums[j][0] += n
                sums[j][1] += sass
                r, sp = f[1].get(e, [0, 0])
                cells.append(f'{n} / {sass} / {r} / {sp}')
            if len(set(cells)) == 1 and os.environ.get('CHANGED_ONLY'):
                continue
            print(f'| {p} | {e[:60]} | ' + ' | '.join(cells) + ' |')
    print('| **sum** | | ' + ' | '.join(f'{a} / {b}' for a, b in sums) + ' |')


if __name__ == '__main__':
    main()
