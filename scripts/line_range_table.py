#!/usr/bin/env python3
"""Tabulates the line-range builds' profiles (WORK/*-lines*.json), like the
seed report's Table 1: per range, the kernel, global bytes, FLOPs and compute
intensity (FLOPs per global byte) of just those lines, next to the whole
kernel's figures from the full build's profile (WORK/<program>.json)."""
import glob
import json
import os
import sys


def totals(k):
    gbytes = (k["load_bytes"]["global"] + k["store_bytes"]["global"]
              + k["atomic_bytes"]["global"])
    flops = sum(k["flops"].values())
    return gbytes, flops


def main():
    work = sys.argv[1]
    print("| build | lines | kernel | launches | global bytes | FLOPs | FLOP/B "
          "| whole kernel: global bytes | FLOPs | FLOP/B |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for path in sorted(glob.glob(os.path.join(work, "*-lines*.json"))):
        name = os.path.basename(path)[:-5]
        prog, spec = name.split("-lines", 1)
        part = json.load(open(path))
        whole = {k["name"]: k for k in json.load(open(os.path.join(work, f"{prog}.json")))["kernels"]}
        for k in part["kernels"]:
            b, f = totals(k)
            wb, wf = totals(whole[k["name"]])
            print(f"| {name} | {spec} | {k['name']} | {k['launches']} | {b:,} | {f:,} | "
                  f"{f / b if b else 0:.4f} | {wb:,} | {wf:,} | {wf / wb if wb else 0:.4f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
