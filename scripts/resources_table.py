#!/usr/bin/env python3
"""Registers, local memory and occupancy per kernel, plain copy -> counting
copy, as the runtime recorded them (profile version 5, "resources":
docs/profile-format.md), one Markdown row per kernel of each profile.

usage: resources_table.py PROFILE.json...
The program is the profile's file name without ".json". The last column
says "yes" when the counting copy fits fewer blocks per SM than the plain
copy or uses more local memory per thread (the report's note). Exits 1 when
no profile had resources (a runtime older than version 5, or host code).
"""
import json
import os
import sys


def fig(v):
    return "-" if v is None else str(v)


def pct(v):
    return "-" if v is None else f"{100 * v:.0f}%"


def changed(plain, counting):
    def both(key):
        return plain.get(key) is not None and counting.get(key) is not None
    fewer = both("blocks_per_sm") and counting["blocks_per_sm"] < plain["blocks_per_sm"]
    local = both("local_bytes") and counting["local_bytes"] > plain["local_bytes"]
    return fewer or local


def main():
    print("| program | kernel | block | registers | local bytes | static shared bytes "
          "| blocks per SM | occupancy | changed |")
    print("|---|---|---|---|---|---|---|---|---|")
    rows = 0
    for path in sys.argv[1:]:
        try:
            doc = json.load(open(path))
        except (OSError, ValueError) as e:
            print(f"resources_table: {path}: {e}", file=sys.stderr)
            continue
        program = os.path.basename(path)[:-5] if path.endswith(".json") else path
        for k in (doc.get("launches") or {}).get("kernels", []):
            r = k.get("resources")
            if not r:
                continue
            p, c = r.get("plain") or {}, r.get("counting") or {}
            cells = [f"{fig(p.get(key))} -> {fig(c.get(key))}"
                     for key in ("registers", "local_bytes", "shared_bytes", "blocks_per_sm")]
            occ = f"{pct(p.get('occupancy'))} -> {pct(c.get('occupancy'))}"
            print(f"| {program} | {k.get('name')} | {r.get('block_threads')} | "
                  + " | ".join(cells) + f" | {occ} | {'yes' if changed(p, c) else ''} |")
            rows += 1
    return 0 if rows else 1


if __name__ == "__main__":
    sys.exit(main())
