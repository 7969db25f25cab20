#!/usr/bin/env python3
"""Compares two JSON profiles of the same program run twice, built from two
versions of PASTA: everything must be equal except what differs from run to
run or from binary to binary (times and what is derived from them, process
ids, dates, paths of the executables, code addresses in call paths).

usage: compare_profiles.py [--counts] A.json B.json [A2.json ...]
--counts compares the counts alone, leaving out the working set: a
working-set run's counts (its copy counts too) against a counting run's.
With A2, A3, ... (more runs of A's build), a value that differs between A
and any of them varies from run to run (a race in the program, e.g. bfs's
atomicCAS on the frontier) and is left out too: a racy value that rarely
moves may need more than one more run to be seen moving. Exit 0: equal;
1: differences listed, at most 20.
"""
import json
import os
import sys

# Keys whose values are measured (times and rates) or name the process.
VOLATILE = {
    "pid", "created", "program", "time_ns", "time_total_ns", "time_min_ns",
    "time_max_ns", "gpu_time_ns", "plain_time_ns", "plain_first_ns",
    "seconds", "bandwidth", "unique_bandwidth", "flop_rate",
    "bandwidth_fraction", "flop_fraction", "bound", "bandwidth_measured",
    "bandwidth_theoretical", "time_source", "timed", "untimed",
    "plain_timed", "plain_rest", "offset", "vaddr", "build_id", "object",
    "copy_ns", "flops_peak", "peaks", "clock_khz", "mem_clock_khz",
    # how a line's divergence figures were found (proof or measurement),
    # which two versions of PASTA may differ in: not a figure
    "divergence_proven", "divergence_measured",
}


# What the compiler made of each copy (registers, local memory, occupancy),
# and what it could not count ("uncounted": the plugin's not-counted
# warnings, which a newer PASTA that counts more forms, or an older one that
# did not record them, words differently): properties of the build, like
# build_id, which two builds may differ in (scripts/gpu_resources.sh
# tabulates the first; the report prints the second).
BUILD = {"resources", "uncounted"}


def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items()
                if k not in VOLATILE and k not in BUILD}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v


def diff(a, b, path, out, limit=20):
    if len(out) >= limit:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}.{k}: only in {'B' if k in b else 'A'}")
            else:
                diff(a[k], b[k], f"{path}.{k}", out, limit)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} vs {len(b)} entries")
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, f"{path}[{i}]", out, limit)
    elif a != b:
        out.append(f"{path}: {a!r} vs {b!r}")


def without_ws(v):
    """v without the working set's figures (the top-level working_set and
    every key starting ws_)."""
    if isinstance(v, dict):
        return {k: without_ws(x) for k, x in v.items()
                if k != "working_set" and not k.startswith("ws_")}
    if isinstance(v, list):
        return [without_ws(x) for x in v]
    return v


def load(path, counts):
    profile = strip(json.load(open(path)))
    return without_ws(profile) if counts else profile


def main():
    counts = len(sys.argv) > 1 and sys.argv[1] == "--counts"
    if counts:
        del sys.argv[1]
    a, b = (load(f, counts) for f in sys.argv[1:3])
    out = []
    diff(a, b, "", out, 10**6)
    name = os.path.basename(sys.argv[1])
    if len(sys.argv) > 3:
        racy = []
        for rerun in sys.argv[3:]:
            diff(a, load(rerun, counts), "", racy, 10**6)
        varies = {line.split(": ")[0] for line in racy}
        kept = [line for line in out if line.split(": ")[0] not in varies]
        if len(kept) < len(out):
            print(f"{name}: {len(out) - len(kept)} values vary from run to "
                  f"run (left out)")
        out = kept
    out = out[:20]
    for line in out:
        print(f"{name}: {line}")
    print(f"{name}: {'same' if not out else 'DIFFERENT'}")
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main())
