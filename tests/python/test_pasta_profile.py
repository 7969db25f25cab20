#!/usr/bin/env python3
"""python/pasta_profile against the recorded fixtures (tests/fixtures/html/).

usage: test_pasta_profile.py SOURCE_DIR WORKDIR

Every expected value is computed here from the fixture JSON with plain
Python (no pandas), then compared with the DataFrames the module builds:
kernels, functions, lines, launches, call paths, allocations, working set,
the two-run comparison, excess bytes (on a copy of a fixture given sector
counts), a divergence run's figures (tests/fixtures/coalescing.div.json, a
version 4 profile) in the kernels and lines with their excess sectors,
exact counts above 2^63, bad input, and the documented example
(python/example.py) running to its end, on a plain and a divergence
profile. Prints one line per check; exits 1
if any failed.
"""
import json
import os
import subprocess
import sys

SPACES = ["global", "shared", "local", "constant", "generic"]
GROUPS = ["load_bytes", "store_bytes", "atomic_bytes"]
FAILED = []


def check(what, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + what + ("" if ok else ": " + detail))
    if not ok:
        FAILED.append(what)


def entry_bytes(e, spaces=SPACES):
    return sum(e[g][s] for g in GROUPS for s in spaces)


def entry_flops(e):
    return sum(e["flops"].values())


def test_kernels(pp, prof, doc):
    k = prof.kernels.set_index("mangled")
    check("kernels: one row each", len(k) == len(doc["kernels"]))
    times = {x["mangled"]: x for x in doc["launches"]["kernels"]}
    bound = {x["name"]: x["bound"] for x in doc["bandwidth"]["kernels"]}
    for e in doc["kernels"]:
        row = k.loc[e["mangled"]]
        want = (e["launches"], entry_bytes(e), entry_bytes(e, ["global"]),
                entry_flops(e), e["load_bytes"]["shared"], e["flops"]["f32"])
        got = (row["launches"], row["bytes"], row["global_bytes"],
               row["flops"], row["load_bytes.shared"], row["flops.f32"])
        check("kernel %s: counts" % e["name"][:50],
              tuple(int(v) for v in got) == want, "%s vs %s" % (got, want))
        t = times.get(e["mangled"])
        want_t = None
        if t and t["timed"]:
            ran = t["launches"] - t["failed"]
            want_t = t["gpu_time_ns"]["total"] if t["timed"] >= ran else \
                int(t["gpu_time_ns"]["total"] / t["timed"] * ran + 0.5)
        got_t = row["gpu_time_ns"]
        got_t = None if got_t is None or got_t != got_t else int(got_t)
        check("kernel %s: GPU time" % e["name"][:50], got_t == want_t,
              "%r vs %r" % (got_t, want_t))
        check("kernel %s: bound" % e["name"][:50],
              row["bound"] == bound.get(e["name"]))
    funcs = len(doc["kernels"]) + len(doc["device_functions"]) + \
        len(doc["host_functions"])
    check("functions: every kind", len(prof.functions) == funcs)


def test_lines(pp, prof, doc):
    lines = prof.lines
    check("lines: one row per entry", len(lines) == len(doc["lines"]))
    by_key = {(l["file"], l["line"], l["function"], l["kind"]): l
              for l in doc["lines"]}
    bad = []
    for _, row in lines.iterrows():
        l = by_key[(row["file"], row["line"], row["function"], row["kind"])]
        if (row["executions"] != l["executions"] or
                row["bytes"] != entry_bytes(l) or
                row["flops"] != entry_flops(l) or
                row["store_bytes.global"] != l["store_bytes"]["global"]):
            bad.append((row["file"], row["line"]))
    check("lines: executions, bytes, FLOPs per line", not bad, str(bad[:3]))
    want = sorted(doc["lines"], key=lambda l: -entry_bytes(l))[:3]
    got = pp.top_lines(lines, "bytes", 3)
    check("top_lines by bytes",
          [int(v) for v in got["bytes"]] == [entry_bytes(l) for l in want])


def test_sections(pp, prof, doc):
    ks = doc["launches"]["kernels"]
    check("launches: one row per kernel", len(prof.launches) == len(ks))
    check("launches: gpu_time_ns.total",
          sorted(prof.launches["gpu_time_ns.total"]) ==
          sorted(k["gpu_time_ns"]["total"] for k in ks))
    paths = [(k["name"], p["launches"]) for k in ks for p in k["call_paths"]]
    check("call paths: one row each", len(prof.call_paths) == len(paths))
    check("call paths: launches",
          sorted(prof.call_paths["launches"]) == sorted(n for _, n in paths))
    mem = doc["memory"]
    a = prof.allocations.set_index(["what", "kind"])
    check("allocations: device count and bytes",
          (int(a.loc[("allocations", "device"), "count"]),
           int(a.loc[("allocations", "device"), "bytes"])) ==
          (mem["allocations"]["device"]["count"],
           mem["allocations"]["device"]["bytes"]))
    check("allocations: h2d copies",
          int(a.loc[("copies", "h2d"), "bytes"]) ==
          mem["copies"]["h2d"]["bytes"])
    ws = doc["working_set"]
    check("working set: one row per launch",
          len(prof.working_set) == len(ws["per_launch"]))
    check("working set: touched bytes per launch",
          list(prof.working_set["touched_bytes"]) ==
          [r["touched_bytes"] for r in ws["per_launch"]])
    st = prof.working_set_stats.set_index("measure")
    for m in ("touched_bytes", "footprint_bytes"):
        check("working set stats: %s" % m,
              [st.loc[m, c] for c in ("min", "median", "p90", "max")] ==
              [ws[m][c] for c in ("min", "median", "p90", "max")])
    # The statistics' own definition, from the rows (nearest rank).
    t = sorted(r["touched_bytes"] for r in ws["per_launch"])
    check("working set: p90 is the nearest-rank one",
          ws["touched_bytes"]["p90"] == t[-(-9 * len(t) // 10) - 1])


def test_compare(pp, before_path, after_path):
    b, a = pp.read(before_path), pp.read(after_path)
    db, da = json.load(open(before_path)), json.load(open(after_path))
    k = pp.compare(b, a, "kernels").set_index("mangled")
    for e in da["kernels"]:
        eb = next(x for x in db["kernels"] if x["mangled"] == e["mangled"])
        row = k.loc[e["mangled"]]
        want = (eb["launches"], e["launches"],
                entry_bytes(e) - entry_bytes(eb),
                entry_flops(e) - entry_flops(eb))
        got = tuple(int(row[c]) for c in ("launches_before", "launches_after",
                                          "bytes_change", "flops_change"))
        check("compare kernels %s" % e["name"][:40], got == want,
              "%s vs %s" % (got, want))
    lines = pp.compare(b, a, "lines")
    keys = {(l["file"], l["line"], l["function"], l["kind"])
            for l in db["lines"] + da["lines"]}
    check("compare lines: one row per line of either run",
          len(lines) == len(keys))
    total = sum(entry_bytes(l) for l in da["lines"]) - \
        sum(entry_bytes(l) for l in db["lines"])
    check("compare lines: bytes changes add up",
          int(lines["bytes_change"].sum()) == total)


def test_excess(pp, doc, work):
    d = json.loads(json.dumps(doc))
    for i, l in enumerate(d["lines"]):
        l["divergence"] = {"sectors": 10 * i + 7, "ideal_sectors": 4 * i}
    path = os.path.join(work, "divergence.json")
    json.dump(d, open(path, "w"))
    p = pp.read(path)
    got = list(pp.excess_bytes(p.lines))
    want = [(6 * i + 7) * 32 for i in range(len(d["lines"]))]
    check("excess bytes: (sectors - ideal) x 32", got == want)
    try:
        pp.excess_bytes(pp.read(os.path.join(work, "plain.json")).lines)
        check("excess bytes without the figures: an error", False)
    except pp.ProfileError as e:
        check("excess bytes without the figures: an error",
              "PASTA_DIVERGENCE" in str(e))


DIV_KEYS = ["requests_global", "requests_shared", "requested_bytes",
            "distinct_bytes_global", "distinct_bytes_shared", "sectors",
            "ideal_sectors", "bank_conflicts", "branches",
            "divergent_branches", "warp_executions", "thread_executions"]


def test_divergence(pp, path):
    """Every divergence figure of every kernel and line comes through as a
    divergence.<figure> column, and excess sectors follow from them."""
    doc = json.load(open(path))
    prof = pp.read(path)
    for what, frame, entries, key in (
            ("kernel", prof.kernels, doc["kernels"], ["mangled"]),
            ("line", prof.lines, doc["lines"], ["file", "line", "function"])):
        check("divergence: one %s row per entry" % what,
              len(frame) == len(entries))
        rows = frame.set_index(key)
        bad = []
        for e in entries:
            row = rows.loc[tuple(e[k] for k in key) if len(key) > 1
                           else e[key[0]]]
            d = e["divergence"]
            label = e.get("name") or "line %d" % e["line"]
            got = [int(row["divergence." + k]) for k in DIV_KEYS]
            if got != [d[k] for k in DIV_KEYS]:
                bad.append(label)
            if int(pp.excess_sectors(row.to_frame().T).iloc[0]) != \
                    max(0, d["sectors"] - d["ideal_sectors"]):
                bad.append("excess sectors of " + label)
        check("divergence: every %s figure of every entry" % what, not bad,
              str(bad[:3]))
    lines = prof.lines.assign(excess_sectors=pp.excess_sectors(prof.lines))
    top = pp.top_lines(lines, "excess_sectors", 1)
    want = max(doc["lines"], key=lambda l: l["divergence"]["sectors"] -
               l["divergence"]["ideal_sectors"])
    check("divergence: top line by excess sectors",
          (int(top["line"].iloc[0]), int(top["excess_sectors"].iloc[0])) ==
          (want["line"], want["divergence"]["sectors"] -
           want["divergence"]["ideal_sectors"]), str(top))


def test_sampled_time(pp, doc, work):
    """10 of 15 launches timed (sampled timing), 1 failed: the time is the
    mean times the 14 that ran."""
    d = json.loads(json.dumps(doc))
    k = d["launches"]["kernels"][0]
    k.update(launches=15, failed=1, timed=10)
    k["gpu_time_ns"]["total"] = 1000
    path = os.path.join(work, "sampled.json")
    json.dump(d, open(path, "w"))
    row = pp.read(path).kernels.set_index("mangled").loc[k["mangled"]]
    check("sampled timing: estimated time",
          int(row["gpu_time_ns"]) == 1400 and bool(row["gpu_time_estimated"]),
          "%r %r" % (row["gpu_time_ns"], row["gpu_time_estimated"]))


def test_big_and_bad(pp, doc, work):
    d = json.loads(json.dumps(doc))
    big = 2**64 - 1
    d["lines"][0]["executions"] = big
    path = os.path.join(work, "big.json")
    json.dump(d, open(path, "w"))
    got = pp.read(path).lines["executions"].iloc[0]
    check("a count of 2^64 - 1 stays exact", int(got) == big, repr(got))
    for what, text in (("not JSON", "{"), ("another schema", '{"schema":"x"}'),
                       ("another version",
                        '{"schema":"pasta-profile","version":99}')):
        bad = os.path.join(work, "bad.json")
        open(bad, "w").write(text)
        try:
            pp.read(bad)
            check("bad input (%s): an error" % what, False)
        except pp.ProfileError as e:
            check("bad input (%s): an error naming the file" % what,
                  bad in str(e), str(e))


def test_omitted(pp, doc, work):
    check("a version 4 profile: nothing omitted",
          pp.Profile(doc).omitted == {"device_functions": 0,
                                      "host_functions": 0, "lines": 0})
    d = json.loads(json.dumps(doc))
    d["version"] = 5
    d["omitted"] = {"device_functions": 1, "host_functions": 2, "lines": 30}
    path = os.path.join(work, "omitted.json")
    json.dump(d, open(path, "w"))
    got = pp.read(path).omitted
    check("version 5: what did not run is counted", got == d["omitted"],
          repr(got))


def test_uncounted(pp, doc, work):
    check("a profile without notes: nothing uncounted",
          pp.Profile(doc).uncounted == [])
    d = json.loads(json.dumps(doc))
    d["uncounted"] = ["inline assembly that loads, stores or copies memory "
                      "is not counted (its accesses and bytes are missing "
                      "from the profile) in 'k'"]
    path = os.path.join(work, "uncounted.json")
    json.dump(d, open(path, "w"))
    got = pp.read(path).uncounted
    check("what the counts miss is read", got == d["uncounted"], repr(got))


def main(argv):
    src, work = argv[1], argv[2]
    os.makedirs(work, exist_ok=True)
    sys.path.insert(0, os.path.join(src, "python"))
    try:
        import pasta_profile as pp
    except ImportError as e:
        print("FAIL import pasta_profile: %s (scripts/setup.sh installs "
              "python3-pandas)" % e)
        return 1
    fixtures = os.path.join(src, "tests", "fixtures", "html")
    lud = os.path.join(fixtures, "lud_ws.json")
    doc = json.load(open(lud))
    json.dump(doc, open(os.path.join(work, "plain.json"), "w"))
    prof = pp.read(lud)
    test_kernels(pp, prof, doc)
    test_lines(pp, prof, doc)
    test_sections(pp, prof, doc)
    thrust = pp.read(os.path.join(fixtures, "thrust_ws.json"))
    tdoc = json.load(open(os.path.join(fixtures, "thrust_ws.json")))
    test_kernels(pp, thrust, tdoc)
    test_lines(pp, thrust, tdoc)
    test_compare(pp, os.path.join(fixtures, "lud_256.json"),
                 os.path.join(fixtures, "lud_512.json"))
    test_excess(pp, doc, work)
    coalescing = os.path.join(src, "tests", "fixtures", "coalescing.div.json")
    test_divergence(pp, coalescing)
    test_sampled_time(pp, doc, work)
    test_big_and_bad(pp, doc, work)
    test_omitted(pp, doc, work)
    test_uncounted(pp, doc, work)
    r = subprocess.run([sys.executable, os.path.join(src, "python",
                                                     "example.py"),
                        os.path.join(fixtures, "lud_256.json"),
                        os.path.join(fixtures, "lud_512.json")],
                       env=dict(os.environ,
                                PYTHONPATH=os.path.join(src, "python")),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    check("the documented example runs", r.returncode == 0 and
          "Lines whose bytes changed most" in r.stdout, r.stderr[-500:])
    r = subprocess.run([sys.executable, os.path.join(src, "python",
                                                     "example.py"),
                        coalescing],
                       env=dict(os.environ,
                                PYTHONPATH=os.path.join(src, "python")),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    after = r.stdout.split("Top lines by excess sectors")[-1].split("\n")
    check("the documented example on a divergence run: line 42 first",
          r.returncode == 0 and len(after) > 2 and
          after[2].split()[1:3] == ["42", "1835008"], r.stdout[-800:])
    print("%d failed" % len(FAILED))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
