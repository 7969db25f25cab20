#!/usr/bin/env python3
"""Writes N synthetic rank profiles (docs/profile-format.md, version 4), as
the ranks of one MPI job would: the same kernels, host functions and lines
in each, counts that differ from rank to rank.

usage: gen_rank_profiles.py N DIR [--kernels K] [--host H] [--lines L]
                                  [--divergence]

DIR/rank<r>.json for r = 0..N-1 (DIR is created). Kernel k of rank r runs
10 + (7r + 3k) % 13 launches; its counts and its lines' scale with that, so
every figure of a merge follows from r and k. --divergence gives kernels
and lines the figures of a divergence run (divergence(), scaled the same
way). For scripts/bench_merge.sh and the HTML report's tests.
"""
import argparse
import json
import os

SPACES = ["global", "shared", "local", "constant", "generic"]
PRECISIONS = ["f16", "bf16", "f32", "f64"]


def spaces(value, where):
    return {s: (value if s == where else 0) for s in SPACES}


def func(name, calls_key, calls, kind_space, module):
    return {"name": name, "mangled": name, "module": module, "file": module,
            "line": 10, calls_key: calls,
            "loads": spaces(calls * 4096, kind_space), "stores": spaces(calls * 1024, kind_space),
            "load_bytes": spaces(calls * 16384, kind_space),
            "store_bytes": spaces(calls * 4096, kind_space),
            "atomics": spaces(0, kind_space), "atomic_bytes": spaces(0, kind_space),
            "flops": {p: (calls * 8192 if p == "f32" else 0) for p in PRECISIONS},
            "special": 0, "compute_intensity": 0.4}


def divergence(warps):
    """The figures of `warps` warp-level executions of a strided access:
    two global requests each, 8 sectors where 4 would do, one branch that
    diverges every fourth time, 24 of 32 lanes active."""
    return {"requests_global": 2 * warps, "requests_shared": 0,
            "requested_bytes": 256 * warps,
            "distinct_bytes_global": 256 * warps, "distinct_bytes_shared": 0,
            "sectors": 16 * warps, "ideal_sectors": 8 * warps,
            "bank_conflicts": 0, "branches": warps,
            "divergent_branches": warps // 4, "warp_executions": 4 * warps,
            "thread_executions": 96 * warps}


def line(file, number, function, kind, executions, kind_space):
    return {"file": file, "line": number, "function": function, "kind": kind,
            "executions": executions,
            "load_bytes": spaces(executions * 8, kind_space),
            "store_bytes": spaces(executions * 4, kind_space),
            "atomic_bytes": spaces(0, kind_space),
            "flops": {p: (executions * 2 if p == "f32" else 0) for p in PRECISIONS},
            "special": 0}


def profile(rank, n, args):
    kernels, hosts, lines = [], [], []
    for k in range(args.kernels):
        launches = 10 + (7 * rank + 3 * k) % 13
        kernels.append(func(f"kernel_{k}", "launches", launches, "global", "app.cu"))
    for h in range(args.host):
        hosts.append(func(f"host_{h}", "calls", 1 + (rank + h) % 5, "generic", "main.c"))
    for i in range(args.lines):
        k = i % args.kernels
        launches = 10 + (7 * rank + 3 * k) % 13
        lines.append(line("app.cu", 100 + i, f"kernel_{k}", "kernel", launches * 65536, "global"))
        if args.divergence:
            lines[-1]["divergence"] = divergence(launches * 2048)
    if args.divergence:
        for k in kernels:
            k["divergence"] = divergence(k["launches"] * 2048)
    return {"schema": "pasta-profile", "version": 4, "program": "./app",
            "pid": 100000 + rank, "created": "2026-01-01T00:00:00Z",
            "job": {"rank": rank, "size": n, "local_rank": rank % 4, "launcher": "openmpi",
                    "host": f"node{rank // 4:04d}", "gpus": []},
            "kernels": kernels, "device_functions": [], "host_functions": hosts,
            "lines": lines}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int)
    ap.add_argument("dir")
    ap.add_argument("--kernels", type=int, default=32)
    ap.add_argument("--host", type=int, default=8)
    ap.add_argument("--lines", type=int, default=256)
    ap.add_argument("--divergence", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    for r in range(args.n):
        with open(os.path.join(args.dir, f"rank{r}.json"), "w") as f:
            json.dump(profile(r, args.n, args), f, separators=(",", ":"))


if __name__ == "__main__":
    main()
