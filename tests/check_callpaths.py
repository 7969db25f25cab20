#!/usr/bin/env python3
"""Call paths recorded where libdwarf is missing, resolved by pasta-report.

usage: check_callpaths.py TEST_CALLPATH PASTA_REPORT LIBRARY WORKDIR

Runs TEST_CALLPATH (host_rt/test_callpath.c) with PASTA_LIBDWARF=none, as
on the GPU machine, which has no libdwarf: its profile's frames must name
their functions (ELF symbol tables) and carry module, build id and address,
but no file:line. Then `pasta-report show` must print each launch site as
"FUNCTION (FILE:LINE)", the lines the program printed (taken with __LINE__
at each call), for the executable and for the shared object LIBRARY; also
when the library's recorded path no longer exists and --search-dir points
to it, and never from a file of another build id. Finally without
PASTA_LIBDWARF the program resolves file:line itself.
"""
import json
import os
import re
import shutil
import subprocess
import sys

passed = failed = 0
twice_site = None  # (function, file, line) of two launch calls on one line


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {what}")
    else:
        failed += 1
        print(f"FAIL {what} {detail}")


def run(cmd, env=None):
    return subprocess.run(cmd, capture_output=True, text=True, env=env)


def frames(profile):
    for k in profile["launches"]["kernels"]:
        for p in k.get("call_paths", []):
            yield from p["frames"]


def record(test, out, libdwarf):
    env = dict(os.environ)
    env.pop("PASTA_LIBDWARF", None)
    if libdwarf is not None:
        env["PASTA_LIBDWARF"] = libdwarf
    p = run([test, out], env)
    if p.returncode != 0:
        sys.exit(f"check_callpaths: {test} failed: {p.stderr}")
    global twice_site
    sites = [l.split()[1:] for l in p.stdout.splitlines() if l.startswith("site ")]
    for l in p.stdout.splitlines():
        if l.startswith("twice "):
            fn, file, line = l.split()[1:]
            twice_site = (fn, file, int(line))
    with open(out) as f:
        return json.load(f), [(fn, file, int(line)) for fn, file, line in sites]


def at(fs, fn, file, line):
    """Whether some frame is fn at file:line."""
    return any(f["function"] == fn and (f["file"] or "").endswith("/" + file)
               and f["line"] == line for f in fs)


def site_text(fn, file, line):
    return f"{fn} ({file}:{line})"


def main():
    test, report, library, work = sys.argv[1:5]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    lib_name = os.path.basename(library)

    # 1. Recorded as on a machine without libdwarf.
    path = os.path.join(work, "nodwarf.json")
    profile, sites = record(test, path, "none")
    check(profile["version"] == 6, "profile version 6")
    fs = list(frames(profile))
    by_fn = {f["function"]: f for f in fs if f["function"]}
    runtime = sorted(fn for fn in by_fn if fn.startswith(("__pasta", "pasta__")))
    check(not runtime, "call paths start above the runtime's own frames",
          runtime)
    for fn, file, line in sites:
        f = by_fn.get(fn)
        check(f is not None, f"run time: frame of {fn} named (ELF symbols)",
              sorted(by_fn))
        if not f:
            continue
        check(f["file"] is None and f["line"] == 0,
              f"run time: {fn} has no file:line without libdwarf", f)
        check(f["vaddr"] > 0 and f["object"] and os.path.isabs(f["object"]),
              f"run time: {fn} has module and address", f)
        check(bool(re.fullmatch(r"[0-9a-f]{16,128}", f["build_id"] or "")),
              f"run time: {fn} has a build id", f.get("build_id"))
    lib = by_fn.get("pasta_test_lib_launch")
    check(lib is not None and os.path.basename(lib["object"]) == lib_name,
          "run time: the library frame names the library", lib)
    exe = by_fn.get("main")
    check(exe is not None and os.path.samefile(exe["object"], test),
          "run time: the main frame names the executable", exe)
    # ELF addresses: a PIE's and a shared object's are their offsets from
    # the load base (their first segment is at address 0).
    check(lib and lib["vaddr"] == lib["offset"],
          "run time: shared object address = offset from its base", lib)

    # 2. Resolved by pasta-report on this machine.
    out = run([report, "show", path])
    check(out.returncode == 0, "show: exit 0", out.stderr)
    for fn, file, line in sites:
        check(site_text(fn, file, line) in out.stdout,
              f"show: {site_text(fn, file, line)}")
    # (_start, from crt1.o, has no DWARF: it keeps its module+offset.)
    check("? (" not in out.stdout, "show: every frame has a function", out.stdout)
    js = run([report, "show", path, "--format", "json"])
    shown = list(frames(json.loads(js.stdout)))
    for site in sites:
        check(at(shown, *site), f"show --format json: {site_text(*site)}")

    # 3. The library moved: found by name and build id in a search dir; a
    # file of that name but another build id is not used.
    moved = json.loads(open(path).read())
    for f in frames(moved):
        if f["object"] and os.path.basename(f["object"]) == lib_name:
            f["object"] = os.path.join(work, "gone", lib_name)
    moved_path = os.path.join(work, "moved.json")
    with open(moved_path, "w") as f:
        json.dump(moved, f)
    lib_site = next(s for s in sites if s[0] == "pasta_test_lib_launch")
    out = run([report, "show", moved_path])
    check(site_text(*lib_site) not in out.stdout,
          "moved library: no file:line without --search-dir")
    check("pasta_test_lib_launch (" + lib_name + "+0x" in out.stdout,
          "moved library: function and module+offset without --search-dir",
          out.stdout)
    found = os.path.join(work, "found")
    os.makedirs(os.path.join(found, "sub"))
    shutil.copy(library, os.path.join(found, "sub", lib_name))
    out = run([report, "show", moved_path, "--search-dir", found])
    check(site_text(*lib_site) in out.stdout,
          "moved library: resolved from --search-dir", out.stdout)
    for f in frames(moved):
        if f["object"] and os.path.basename(f["object"]) == lib_name:
            f["build_id"] = "00" * 20
    with open(moved_path, "w") as f:
        json.dump(moved, f)
    out = run([report, "show", moved_path, "--search-dir", found])
    check(site_text(*lib_site) not in out.stdout,
          "moved library: a file of another build id is not read", out.stdout)

    # 4. With libdwarf at run time, the program resolves file:line itself.
    profile, sites = record(test, os.path.join(work, "dwarf.json"), None)
    fs = list(frames(profile))
    for site in sites:
        check(at(fs, *site), f"run time with libdwarf: {site_text(*site)}")
    # Two launches from two calls on one line: one path of 2 launches.
    twice = [p for k in profile["launches"]["kernels"]
             for p in k.get("call_paths", [])
             if at(p["frames"], *twice_site)]
    check(len(twice) == 1 and twice[0]["launches"] == 2,
          f"run time with libdwarf: one path of 2 launches at "
          f"{site_text(*twice_site)}", twice)

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
