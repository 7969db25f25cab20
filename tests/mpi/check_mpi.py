#!/usr/bin/env python3
"""Checks the profiles of tests/mpi/imbalance.c on 4 ranks and their merge.

usage: check_mpi.py SOURCE PASTA_REPORT WORKDIR

Every expected figure is computed here from N and CALLS, read from SOURCE,
as its header comment derives them; nothing is taken from the outputs.
WORKDIR holds ranks/rank<r>.json (PASTA_OUTPUT=rank%r.json) and
hosts/<host>-<r>.json (PASTA_OUTPUT=%h-%r.json) from run_mpi.sh. Checks:
  - each rank's profile names its rank, size, local rank, launcher and host;
  - %r and %h name the files;
  - `pasta-report merge` of the directory, of a pattern, and of two merges
    of two ranks each: per function (relax, exchange, extra) and per line,
    the per-rank min, mean, max, imbalance and the rank holding the max of
    calls, bytes and FLOPs;
  - `show` prints them (table and CSV).
Prints one line per check and 'N passed, N failed'; exits 1 if any failed.
"""
import csv
import io
import json
import os
import re
import socket
import subprocess
import sys

from rank_checks import check, check_spread, close, finish


def source_facts(path):
    text = open(path).read()
    n = int(re.search(r"#define N (\d+)", text).group(1))
    calls = [int(c) for c in re.search(r"CALLS\[\] = \{([^}]*)\}", text).group(1).split(",")]
    lines = {}
    for i, line in enumerate(text.splitlines(), 1):
        m = re.search(r"/\* (\w+)_LINE \*/", line)
        if m:
            lines[m.group(1).lower()] = i
    return n, calls, lines


def per_rank_values(n, calls):
    """Each function's (calls, bytes, flops) on each rank, from the source's
    header comment."""
    last = len(calls) - 1
    return {
        "relax": [(c, 16 * n * c, 2 * n * c) for c in calls],
        "exchange": [(1, 8 * n, n) for _ in calls],
        "extra": [(1, 8 * n, n) if r == last else (0, 0, 0) for r in range(len(calls))],
    }


def host_function(profile, name):
    hits = [f for f in profile["host_functions"] if f["name"] == name]
    return hits[0] if len(hits) == 1 else None


def source_line(profile, line):
    hits = [l for l in profile["lines"]
            if l["line"] == line and (l["file"] or "").endswith("imbalance.c")]
    return hits[0] if len(hits) == 1 else None


def check_rank_profiles(work, calls):
    host = socket.gethostname()
    short = host.split(".")[0]
    for r in range(len(calls)):
        path = os.path.join(work, "ranks", f"rank{r}.json")
        check(os.path.exists(path), f"%r names rank {r}'s profile {os.path.basename(path)}")
        if not os.path.exists(path):
            continue
        p = json.load(open(path))
        job = p.get("job") or {}
        check(p["version"] == 6 and job.get("rank") == r and job.get("size") == len(calls)
              and job.get("local_rank") == r and job.get("launcher") == "openmpi"
              and job.get("host") == host and job.get("gpus") == [],
              f"rank {r}'s profile says where it ran", f"got {job}")
        hpath = os.path.join(work, "hosts", f"{short}-{r}.json")
        check(os.path.exists(hpath), f"%h-%r names rank {r}'s profile {os.path.basename(hpath)}")


def merge(report, out, *inputs):
    proc = subprocess.run([report, "merge", "--force", out, *inputs],
                          capture_output=True, text=True)
    check(proc.returncode == 0, f"merge {' '.join(os.path.basename(i) for i in inputs)}",
          proc.stderr.strip())
    return json.load(open(out)) if proc.returncode == 0 else None


def check_merged(m, n, calls, lines, how):
    values = per_rank_values(n, calls)
    check(len(m["merged_from"]) == len(calls)
          and [s["job"]["rank"] for s in m["merged_from"]] == list(range(len(calls))),
          f"{how}: merged_from lists ranks 0..{len(calls) - 1} in order")
    for name, per_rank in values.items():
        f = host_function(m, name)
        check(f is not None and "ranks" in f, f"{how}: {name} has per-rank figures")
        if not f or "ranks" not in f:
            continue
        for i, metric in enumerate(("calls", "bytes", "flops")):
            check_spread(f["ranks"][metric], [v[i] for v in per_rank],
                         f"{how}: {name} {metric} per rank")
    for name, per_rank in values.items():
        l = source_line(m, lines[name])
        check(l is not None and "ranks" in l, f"{how}: line {lines[name]} ({name}) has per-rank figures")
        if not l or "ranks" not in l:
            continue
        for i, metric in ((1, "bytes"), (2, "flops")):
            check_spread(l["ranks"][metric], [v[i] for v in per_rank],
                         f"{how}: line {lines[name]} ({name}) {metric} per rank")
    # A line's executions per call do not depend on the rank (same N), so
    # relax's spread over ranks is that of its calls, scaled.
    l = source_line(m, lines["relax"])
    if l and "ranks" in l:
        e = l["ranks"]["executions"]
        per_call = l["executions"] / sum(calls)
        check_spread(e, [int(round(per_call * c)) for c in calls],
                     f"{how}: line {lines['relax']} (relax) executions per rank follow its calls")


def check_show(report, merged_path, calls, host):
    table = subprocess.run([report, "show", merged_path], capture_output=True, text=True)
    top = max(calls)
    want_rank = calls.index(top)
    row = [l for l in table.stdout.splitlines()
           if re.match(r"\s*host\s+relax\s+calls\s", l)]
    check(table.returncode == 0 and len(row) == 1
          and re.search(rf"\s{min(calls)}\s+{sum(calls) / len(calls):.2f}\s+{top}\s+"
                        rf"{top / (sum(calls) / len(calls)):.2f}\s+rank {want_rank} \({re.escape(host)}\)$",
                        row[0]),
          "show: the per-rank table's relax calls row", "\n".join(row) or table.stdout[-500:])
    out = subprocess.run([report, "show", "--format", "csv", merged_path],
                         capture_output=True, text=True).stdout
    funcs = list(csv.DictReader(io.StringIO(out.split("\n\n")[0])))
    relax = [r for r in funcs if r["name"] == "relax"]
    ok = len(relax) == 1 and int(relax[0]["ranks.calls.max"]) == top \
        and int(relax[0]["ranks.calls.min"]) == min(calls) \
        and int(relax[0]["ranks.calls.max_rank"]) == want_rank \
        and close(float(relax[0]["ranks.calls.imbalance"]), top / (sum(calls) / len(calls)))
    check(ok, "show --format csv: relax's ranks.calls columns", str(relax))
    block = out.split("# processes\n")[1].split("\n\n")[0] if "# processes\n" in out else ""
    procs = list(csv.DictReader(io.StringIO(block)))
    check([int(p["rank"]) for p in procs] == list(range(len(calls)))
          and all(p["host"] == host for p in procs),
          "show --format csv: the processes block names each rank and host")


def main():
    src, report, work = sys.argv[1:4]
    n, calls, lines = source_facts(src)
    check_rank_profiles(work, calls)
    ranks = os.path.join(work, "ranks")
    merged = os.path.join(work, "merged.json")
    m = merge(report, merged, ranks)
    if m:
        check_merged(m, n, calls, lines, "directory")
    g = merge(report, os.path.join(work, "merged-glob.json"), os.path.join(ranks, "rank*.json"))
    if g:
        check_merged(g, n, calls, lines, "pattern")
    half = len(calls) // 2
    a, b = os.path.join(work, "a.json"), os.path.join(work, "b.json")
    merge(report, a, *[os.path.join(ranks, f"rank{r}.json") for r in range(half)])
    merge(report, b, *[os.path.join(ranks, f"rank{r}.json") for r in range(half, len(calls))])
    nested = merge(report, os.path.join(work, "nested.json"), a, b)
    if nested:
        check_merged(nested, n, calls, lines, "merge of merges")
    if m:
        check_show(report, merged, calls, socket.gethostname())
    return finish()


if __name__ == "__main__":
    sys.exit(main())
