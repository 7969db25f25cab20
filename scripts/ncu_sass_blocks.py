#!/usr/bin/env python3
"""Groups an Nsight Compute SASS source page (ncu --page source --csv
--print-source sass, as scripts/gpu_ncu_source.sh writes it) into runs of
consecutive instructions with the same executed count (basic blocks, as far
as the counts tell) and prints the heaviest: where a kernel's executed
instructions and stall samples go.
usage: ncu_sass_blocks.py FILE.csv [TOP]"""
import csv
import sys


def column(header, *names):
    for n in names:
        for i, h in enumerate(header):
            if h.strip() == n:
                return i
    return None


def main():
    path = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    rows = list(csv.reader(open(path, newline='')))
    start = next(i for i, r in enumerate(rows) if r and r[0].strip() == 'Address')
    header, body = rows[start], rows[start + 1:]
    c_src = column(header, 'Source')
    c_exe = column(header, 'Instructions Executed')
    c_stall = column(header, 'Warp Stall Sampling (All Samples)')
    def num(r, c):
        try:
            return int(float(r[c].replace(',', ''))) if c is not None else 0
        except (ValueError, IndexError):
            return 0
    blocks = []
    for r in body:
        if len(r) <= max(c_src, c_exe):
            continue
        n = num(r, c_exe)
        if blocks and blocks[-1]['count'] == n:
            b = blocks[-1]
        else:
            b = {'count': n, 'insts': [], 'stall': 0, 'first': r[0]}
            blocks.append(b)
        b['insts'].append(r[c_src].strip())
        b['stall'] += num(r, c_stall)
    total = sum(b['count'] * len(b['insts']) for b in blocks)
    stalls = sum(b['stall'] for b in blocks) or 1
    print(f'{path}: {total:,} warp instructions executed, '
          f'{len(blocks)} runs, {stalls:,} stall samples')
    blocks.sort(key=lambda b: -b['count'] * len(b['insts']))
    for b in blocks[:top]:
        t = b['count'] * len(b['insts'])
        ops = ' '.join(i.split()[0] if not i.startswith('@') else
                       i.split()[1] for i in b['insts'][:14] if i)
        print(f"{100 * t / total:5.1f}% {t:>13,} = {b['count']:>10,} x "
              f"{len(b['insts']):3d}  stall {100 * b['stall'] / stalls:4.1f}%"
              f"  @{b['first']}: {ops}")


main()
