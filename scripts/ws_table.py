#!/usr/bin/env python3
"""The suite table of the kernel-frequency and working-set analyzers.

  ws_table.py DIR PROGRAM...   reads DIR/<program>.json (counting run) and
  DIR/<program>.ws.json (PASTA_WORKING_SET=1) and prints a Markdown table.
"""
import json
import os
import sys


def mib(b):
    return f"{b / 2**20:,.2f}"


def main():
    d, progs = sys.argv[1], sys.argv[2:]
    print("| program | kernels | launches | GPU time (ms) | top kernel (share) "
          "| allocated peak (MiB) | working set max / median / p90 (MiB) "
          "| tracked launches | outside |")
    print("|---|---|---|---|---|---|---|---|---|")
    ok = True
    for p in progs:
        try:
            c = json.load(open(os.path.join(d, p + ".json")))
            w = json.load(open(os.path.join(d, p + ".ws.json")))
        except (OSError, ValueError) as e:
            print(f"| {p} | error: {e} |||||||")
            ok = False
            continue
        L = c["launches"]
        ks = sorted(L["kernels"], key=lambda k: -k["gpu_time_ns"]["total"])
        top = ks[0] if ks else None
        share = (100 * top["gpu_time_ns"]["total"] / L["gpu_time_ns"]
                 if top and L["gpu_time_ns"] else 0)
        ws = w["working_set"]
        t = ws["touched_bytes"]
        print(f"| {p} | {len(ks)} | {L['total']} | {L['gpu_time_ns'] / 1e6:,.3f} "
              f"| {top['name'] if top else '-'} ({share:.0f}%) "
              f"| {mib(w['memory']['peak_bytes'])} "
              f"| {mib(t['max'])} / {mib(t['median'])} / {mib(t['p90'])} "
              f"| {ws['launches']} | {ws['outside']['accesses']} |")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
