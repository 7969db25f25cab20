#!/usr/bin/env python3
"""Checks the profiles of tests/gpu/mpi_ranks.cu (scripts/gpu_mpi.sh).

usage: check_mpi_ranks.py SOURCE WORKDIR GPUS_CSV

WORKDIR holds rank<r>.json and merged.json; GPUS_CSV is
`nvidia-smi --query-gpu=index,uuid,name --format=csv,noheader`. Every
expected figure comes from N and LAUNCHES, read from SOURCE, as its header
comment derives them:
  - rank r's profile: job rank r, size, local rank r, launcher openmpi, and
    one GPU, device r % GPUs, whose UUID is nvidia-smi's for that index;
    the ranks' UUIDs differ (one rank per GPU);
  - the merge: relax_kernel's launches (LAUNCHES[r]), bytes (8 N each) and
    FLOPs (2 N each) per rank: min, mean, max, imbalance (max / mean) and
    the rank holding the max; the same for its line; sum_kernel's launches
    and bytes, equal on every rank (imbalance 1).
Prints one line per check and 'N passed, N failed'; exits 1 if any failed.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "mpi"))
from rank_checks import check, check_spread, close, finish  # noqa: E402


def kernel(profile, name):
    hits = [k for k in profile["kernels"] if k["name"].split("(")[0] == name]
    return hits[0] if len(hits) == 1 else None


def main():
    src, work, gpus_csv = sys.argv[1:4]
    text = open(src).read()
    n = eval(re.search(r"#define N \((.*)\)", text).group(1))  # "1 << 20"
    launches = [int(v) for v in re.search(r"LAUNCHES\[\] = \{([^}]*)\}", text).group(1).split(",")]
    relax_line = next(i for i, l in enumerate(text.splitlines(), 1) if "RELAX_LINE" in l and "x[i]" in l)
    uuids = {}
    for row in open(gpus_csv):
        cells = [c.strip() for c in row.split(",")]
        if len(cells) >= 2 and cells[0].isdigit():
            uuids[int(cells[0])] = cells[1]
    check(len(uuids) >= 1, f"nvidia-smi lists {len(uuids)} GPUs")
    ranks = len(launches)
    seen = []
    for r in range(ranks):
        path = os.path.join(work, f"rank{r}.json")
        check(os.path.exists(path), f"rank {r}'s profile is rank{r}.json (%r)")
        if not os.path.exists(path):
            continue
        job = json.load(open(path)).get("job") or {}
        device = r % max(len(uuids), 1)
        check(job.get("rank") == r and job.get("size") == ranks and job.get("local_rank") == r
              and job.get("launcher") == "openmpi" and job.get("host"),
              f"rank {r}'s profile names its rank, size, local rank and host", str(job))
        check(job.get("gpus") == [{"index": device, "uuid": uuids.get(device)}],
              f"rank {r} used GPU {device}, {uuids.get(device)}", str(job.get("gpus")))
        seen += [g["uuid"] for g in job.get("gpus", [])]
    check(len(seen) == ranks and len(set(seen)) == min(ranks, len(uuids)),
          "one rank per GPU: the ranks' GPU UUIDs differ", str(seen))
    mpath = os.path.join(work, "merged.json")
    check(os.path.exists(mpath), "merged.json was written")
    if not os.path.exists(mpath):
        return finish()
    m = json.load(open(mpath))
    relax = kernel(m, "relax_kernel")
    check(relax is not None and "ranks" in relax, "relax_kernel has per-rank figures")
    if relax and "ranks" in relax:
        check_spread(relax["ranks"]["launches"], launches, "relax_kernel launches per rank")
        check_spread(relax["ranks"]["bytes"], [8 * n * k for k in launches],
                     "relax_kernel bytes per rank")
        check_spread(relax["ranks"]["flops"], [2 * n * k for k in launches],
                     "relax_kernel FLOPs per rank")
    lines = [l for l in m["lines"] if l["line"] == relax_line and "ranks" in l]
    check(len(lines) == 1, f"line {relax_line} (relax_kernel) has per-rank figures")
    if len(lines) == 1:
        check_spread(lines[0]["ranks"]["bytes"], [8 * n * k for k in launches],
                     f"line {relax_line} bytes per rank")
        check_spread(lines[0]["ranks"]["executions"], [n * k for k in launches],
                     f"line {relax_line} executions per rank (one per thread per launch)")
    total = kernel(m, "sum_kernel")
    check(total is not None and "ranks" in total, "sum_kernel has per-rank figures")
    if total and "ranks" in total:
        check_spread(total["ranks"]["launches"], [1] * ranks, "sum_kernel launches per rank")
        b = total["ranks"]["bytes"]
        check(b["min"] == b["max"] and close(b["imbalance"], 1.0 if b["max"] else None),
              "sum_kernel bytes equal on every rank", str(b))
    return finish()


if __name__ == "__main__":
    sys.exit(main())
