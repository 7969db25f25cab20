#!/usr/bin/env python3
"""Tests of pasta-report on the recorded profiles in profiles/.

usage: test_pasta_report.py GROUP PASTA_REPORT PROFILES_DIR WORKDIR
GROUP: show, csv, json, merge, diff or errors.

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
import subprocess
import sys

SPACES = ["global", "shared", "local", "constant", "generic"]
PRECISIONS = ["f16", "bf16", "f32", "f64"]
FUNC_GROUPS = ["loads", "stores", "load_bytes", "store_bytes", "atomics",
               "atomic_bytes"]
LINE_GROUPS = ["load_bytes", "store_bytes", "atomic_bytes"]
U64_MAX = 2**64 - 1

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
        check(out == original, f"json: {os.path.basename(path)} round-trips byte for byte")
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


def compare_merge(merged, inputs, what):
    funcs, lines = expected_merge(inputs)
    got_funcs = {}
    for sec in ("kernels", "device_functions", "host_functions"):
        for e in merged[sec]:
            got_funcs[func_key(sec, e)] = e
    check(set(got_funcs) == set(funcs),
          f"{what}: one entry per (kind, mangled, module)",
          set(got_funcs) ^ set(funcs))
    bad = [k for k in funcs if k in got_funcs and
           {x: y for x, y in got_funcs[k].items() if x != "compute_intensity"} !=
           {x: y for x, y in funcs[k].items() if x != "compute_intensity"}]
    check(not bad, f"{what}: every function's counts are the inputs' sums", bad[:3])
    got_lines = {(l["file"], l["line"], l["function"], l["kind"]): l
                 for l in merged["lines"]}
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
         "created": "2026-11-20T09:15:02Z"},
        {"file": r1, "program": "./saxpy_stencil", "pid": 48214,
         "created": "2026-11-20T09:15:07Z"}],
        "merge: merged_from lists the inputs", merged.get("merged_from"))
    check(merged["program"] == "./saxpy_stencil" and merged["pid"] == 0 and
          merged["created"] == "2026-11-20T09:15:07Z",
          "merge: program of the inputs, pid 0, newest created")
    check(merged["schema"] == "pasta-profile" and merged["version"] == 1,
          "merge: a version-1 profile")
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
    run("merge", "--force", out, out, bp)
    again = load(out)
    check([s["pid"] for s in again["merged_from"]] == [48213, 48214, 48213],
          "merge of a merged profile: merged_from flattened")
    sax = [k for k in again["kernels"] if k["name"] == "saxpy"][0]
    check(sax["launches"] == U64_MAX, "merge: sums saturate at 2^64 - 1")

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
    run("merge", "--force", hout, HOST_REC, HOST_REC)
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
                return [re.sub(r"\s+", " ", x.strip()) for x in lines[i:i + 4]]
        return None

    # Hand-derived: saxpy 4 -> 6 launches; 48 MiB -> 72 MiB global;
    # 8388608 -> 12582912 FLOPs.
    check(block("saxpy") == [
        "saxpy changed launches 4 6 +2 +50.0%",
        "global bytes 50331648 75497472 +25165824 +50.0%",
        "FLOPs 8388608 12582912 +4194304 +50.0%",
        "special 0 0 0 -"], "diff: saxpy", block("saxpy"))
    check(block("histogram") == [
        "histogram removed launches 2 - -2 -100.0%",
        "global bytes 4194304 - -4194304 -100.0%",
        "FLOPs 0 - 0 -", "special 0 - 0 -"], "diff: histogram removed",
        block("histogram"))
    check(block("transpose") == [
        "transpose added launches - 2 +2 -",
        "global bytes - 524288 +524288 -",
        "FLOPs - 65536 +65536 -", "special - 5 +5 -"], "diff: transpose added",
        block("transpose"))
    check(block("stencil_1d") is not None and block("stencil_1d")[0].startswith(
        "stencil_1d same launches 1 1 0 +0.0%"), "diff: stencil_1d same")
    names = [l.split()[0] for l in lines if re.match(r"^  \S+\s+(changed|same|added|removed)\s", l)]
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


# ---------------------------------------------------------------- errors
def one_error(p, what, *needles):
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 2 and lines and lines[0].startswith("pasta-report: error: ")
          and all(n in lines[0] for n in needles),
          what, f"exit {p.returncode}, stderr {p.stderr!r}")
    return lines


def test_errors():
    v2 = load(GPU)
    v2["version"] = 2
    path = save(v2, "v2.json")
    for cmd in (["show", path], ["diff", GPU, path], ["merge", os.path.join(WORK, "x.json"), path]):
        lines = one_error(run(*cmd, expect_rc=None), f"{cmd[0]}: version 2 rejected",
                          f"{path}: ", "version (2)", "reads version 1")
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


def main():
    global REPORT, WORK, GPU, HOST_DOT, HOST_REC
    if len(sys.argv) != 5:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    group, REPORT, profiles, WORK = sys.argv[1:]
    WORK = os.path.join(WORK, group)
    os.makedirs(WORK, exist_ok=True)
    GPU = os.path.join(profiles, "gpu_saxpy_stencil.json")
    HOST_DOT = os.path.join(profiles, "host_dot_scale.json")
    HOST_REC = os.path.join(profiles, "host_recursion.json")
    tests = {"show": test_show, "csv": test_csv, "json": test_json,
             "merge": test_merge, "diff": test_diff, "errors": test_errors}
    if group not in tests:
        print(f"unknown group {group}", file=sys.stderr)
        return 2
    tests[group]()
    print(f"{group}: {'all passed' if not failures else f'{failures} failed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
