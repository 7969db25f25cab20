#!/usr/bin/env python3
"""Checks the profiles of tests/gpu/working_set.cu against hand-derived values.

  check_working_set.py ws SOURCE PROFILE.json HOTNESS.csv
      PASTA_WORKING_SET=1 run: per-launch working sets, statistics, accesses
      outside every allocation (count and line), memory summary, launches per
      kernel, the call path of the first launch, and hotness cells.
  check_working_set.py window PROFILE.json
      PASTA_START_GRID_ID=2 PASTA_END_GRID_ID=3 run: only launches 2 (fill)
      and 3 (bump_global) are counted; every launch is seen.
Prints one line per failed check and "N passed, N failed"; exits 1 on a
failure. The expected numbers come from the comment at the top of
working_set.cu (derived by hand, not from any output).
"""
import csv
import json
import math
import sys

KiB, MiB = 1024, 1024 * 1024
PAGE = 64 * KiB
# (kernel, touched allocations, footprint, touched bytes, outside)
EXPECTED = [
    ("fill", 1, 4 * MiB, PAGE, 0),
    ("copy", 2, (MiB + 100) + 256 * KiB, 100 + PAGE, 0),
    ("fill", 1, 4 * MiB, 4 * PAGE, 0),
    ("bump_global", 0, 0, 0, 64),
    ("fill", 1, 128 * KiB, 2 * PAGE, 0),
    ("copy", 2, 4 * MiB + 512 * KiB, 8 * PAGE + 512 * KiB, 0),
]

passed = failed = 0


def check(what, got, want):
    global passed, failed
    if got == want:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {what}: got {got!r}, expected {want!r}")


def nearest_rank(values, p):
    s = sorted(values)
    return s[max(1, math.ceil(p / 100 * len(s))) - 1]


def short(name):
    """A kernel's name without its parameters: profiles name kernels as
    demangled, `fill(char*, unsigned long, unsigned long)`."""
    return name.split("(")[0] if isinstance(name, str) else name


def kernels_by_name(profile):
    return {short(k["name"]): k for k in profile["launches"]["kernels"]}


def marker_line(source, marker):
    with open(source) as f:
        for n, line in enumerate(f, 1):
            if marker in line:
                return n
    raise SystemExit(f"no {marker} in {source}")


def check_ws(source, path, hotness):
    p = json.load(open(path))
    ws = p["working_set"]
    check("working set enabled", ws["enabled"], True)
    check("page size", ws["page_size"], PAGE)
    per = ws["per_launch"]
    check("tracked launches", len(per), len(EXPECTED))
    for i, (kernel, allocs, foot, touched, outside) in enumerate(EXPECTED):
        if i >= len(per):
            break
        got = per[i]
        check(f"launch {i} id", got["id"], i)
        check(f"launch {i} kernel", short(got["kernel"]), kernel)
        check(f"launch {i} touched allocations", got["touched_allocations"], allocs)
        check(f"launch {i} footprint", got["footprint_bytes"], foot)
        check(f"launch {i} touched bytes", got["touched_bytes"], touched)
        check(f"launch {i} outside", got["outside"], outside)
    touched = [e[3] for e in EXPECTED]
    st = ws["touched_bytes"]
    check("working set max", st["max"], max(touched))
    check("working set min", st["min"], min(touched))
    check("working set median", st["median"], nearest_rank(touched, 50))
    check("working set p90", st["p90"], nearest_rank(touched, 90))
    check("working set mean", round(st["mean"], 1), round(sum(touched) / len(touched), 1))
    out = ws["outside"]
    check("outside accesses", out["accesses"], 64)
    check("outside kernel", short(out["first_kernel"]), "bump_global")
    check("outside line", out["first_line"], marker_line(source, "OUTSIDE-LINE"))

    mem = p["memory"]
    check("device allocations", mem["allocations"]["device"]["count"], 5)
    check("managed allocations", mem["allocations"]["managed"]["count"], 1)
    peak = 4 * MiB + (MiB + 100) + 256 * KiB + 8 * MiB + 128 * KiB
    check("peak bytes", mem["peak_bytes"], peak)
    check("frees", mem["frees"], 6)
    check("unknown frees", mem["unknown_frees"], 0)
    check("d2h copies", mem["copies"]["d2h"]["count"], 2)
    check("memsets", mem["memsets"]["count"], 2)

    ks = kernels_by_name(p)
    for name, n in (("fill", 3), ("copy", 2), ("bump_global", 1)):
        k = ks.get(name, {})
        check(f"{name} launches", k.get("launches"), n)
        check(f"{name} working-set launches", k.get("ws_launches"), n)
        check(f"{name} timed", k.get("timed"), n)
    dev = {short(k["name"]): k["launches"] for k in p["kernels"]}
    check("device-counted fill launches", dev.get("fill"), 3)

    # The first fill launch's call path ends at its <<<>>> line in main.
    lines = sorted(
        f["line"]
        for path in ks.get("fill", {}).get("call_paths", [])
        for f in path["frames"][:1]
        if f["file"] and f["file"].endswith("working_set.cu")
    )
    check("launch 0 call site found", marker_line(source, "LAUNCH-0") in lines, True)

    # Hotness: launch 0 stores 65536 bytes, one per thread, into A's first
    # 2 MiB block; launch 1 reads 100 bytes of B's block 0 and writes C's.
    # (Bytes that are no UTF-8 in a kernel's name are a FAIL, not a crash.)
    cells, names = {}, {}
    with open(hotness, errors="replace") as f:
        for row in csv.DictReader(f):
            cells.setdefault(int(row["launch"]), []).append(
                (int(row["allocation"]), int(row["block"]), int(row["accesses"])))
            names[int(row["launch"])] = short(row["kernel"])
    check("hotness launch 0 kernel", names.get(0), "fill")
    check("hotness launch 1 kernel", names.get(1), "copy")
    check("hotness launch 0", [c[1:] for c in cells.get(0, [])], [(0, 65536)])
    check("hotness launch 1", sorted(c[2] for c in cells.get(1, [])), [100, 100])
    check("hotness launch 3 (nothing known)", cells.get(3), None)


def check_window(path):
    p = json.load(open(path))
    ks = kernels_by_name(p)
    for name, launches, counted in (("fill", 3, 1), ("copy", 2, 0), ("bump_global", 1, 1)):
        k = ks.get(name, {})
        check(f"{name} launches seen", k.get("launches"), launches)
        check(f"{name} launches counted", k.get("counted"), counted)
    dev = {short(k["name"]): k["launches"] for k in p["kernels"]}
    check("device-counted fill", dev.get("fill"), 1)
    check("device-counted bump_global", dev.get("bump_global"), 1)
    check("device-counted copy", dev.get("copy", 0), 0)
    check("window", p["launches"]["window"]["start"], 2)
    check("window end", p["launches"]["window"]["end"], 3)


if sys.argv[1] == "ws":
    check_ws(*sys.argv[2:5])
else:
    check_window(sys.argv[2])
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
