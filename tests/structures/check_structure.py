#!/usr/bin/env python3
"""Checks a PASTA profile of a program-structure test against the counts its
source derives by hand (tests/structures/README.md). Standard library only:
it runs on the GPU machine.

usage: check_structure.py PROFILE SOURCE... [--mode MODE] [--stderr FILE]

The expectations are the `EXPECT:` lines of the SOURCE files (in their
header comments). `EXPECT(m1,m2):` lines apply only to those modes,
`EXPECT(!m1):` to every mode but m1. A line is one check:

  kernel RE [matches=N|matches>=N] FIELD=V FIELD>=V ...
      the entries of "kernels" whose mangled name matches RE (whole; the
      display name is tried too): N of them (default exactly 1); each FIELD
      (dotted: load_bytes.global) summed over them
  function RE [matches=...] FIELD=V ...
      the same over "device_functions" (the functions several kernels
      reach; FIELD calls, flops.f32, ...)
  launch RE [matches=...] FIELD=V ...
      the same over the launch table ("launches"."kernels"); a FIELD that
      is a list (shapes, call_paths) compares its length
  name MANGLED DISPLAY
      the kernel MANGLED is displayed as DISPLAY (the rest of the line)
  consistent
      every kernel's device-side launch count equals its launch-table
      count, and the launch table has no launch it cannot name
  stderr REGEX / no-stderr REGEX
      stderr (--stderr) has / has no line matching REGEX
  allow-stderr REGEX
      a `pasta: warning|error` line matching REGEX is not a failure

Without allow-stderr, any `pasta: warning` or `pasta: error` line on stderr
is a failure (a structure must not lose anything). Prints one line per
check, then `RESULT: ok` or `RESULT: FAIL: <the first failures>`; exits 1
on any failure, 2 on bad usage.

check_structure.py --self-test runs the checker on the fixtures in
tests/structures/fixtures/ (a profile that must pass and ones that must
fail).
"""
import json
import os
import re
import sys

OPS = (">=", "<=", "=")
NOISE = re.compile(r"pasta: (warning|error)")


def field(entry, path):
    v = entry
    for part in path.split("."):
        v = v[part]
    if isinstance(v, list):
        return len(v)
    return v


def compare(got, op, want):
    if op == "=":
        return got == want
    if op == ">=":
        return got >= want
    return got <= want


def split_term(term):
    for op in OPS:
        if op in term:
            lhs, rhs = term.split(op, 1)
            return lhs, op, int(rhs)
    raise ValueError("no comparison in %r" % term)


def expectations(sources, mode):
    """(source:line, text) for every EXPECT line that applies to mode."""
    rx = re.compile(r"EXPECT(?:\(([^)]*)\))?:\s*(.*\S)")
    out = []
    for src in sources:
        with open(src, encoding="utf-8") as f:
            for no, line in enumerate(f, 1):
                m = rx.search(line)
                if not m:
                    continue
                if m.group(1):
                    modes = [x.strip() for x in m.group(1).split(",")]
                    neg = [x[1:] for x in modes if x.startswith("!")]
                    pos = [x for x in modes if not x.startswith("!")]
                    if neg and mode in neg:
                        continue
                    if pos and mode not in pos:
                        continue
                text = re.sub(r"\s*\*/$", "", m.group(2))  # a C comment's end
                out.append(("%s:%d" % (os.path.basename(src), no), text))
    return out


def match_entries(entries, rx):
    pat = re.compile(rx)
    return [
        e for e in entries
        if pat.fullmatch(e.get("mangled") or "") or pat.fullmatch(e.get("name") or "")
    ]


def check_rows(entries, words, what):
    rx, terms = words[0], words[1:]
    hits = match_entries(entries, rx)
    bad = []
    want_matches = ("=", 1)
    fields = []
    for t in terms:
        lhs, op, v = split_term(t)
        if lhs == "matches":
            want_matches = (op, v)
        else:
            fields.append((lhs, op, v))
    if not compare(len(hits), *want_matches):
        return ["%s %s: %d entries match (want %s%d)" % (what, rx, len(hits), *want_matches)]
    for lhs, op, v in fields:
        try:
            got = sum(field(e, lhs) for e in hits)
        except (KeyError, TypeError) as e:
            bad.append("%s %s: no field %s (%r)" % (what, rx, lhs, e))
            continue
        if not compare(got, op, v):
            bad.append("%s %s: %s=%d, want %s%d" % (what, rx, lhs, got, op, v))
    return bad


def launch_rows(profile):
    sec = profile.get("launches")
    if not isinstance(sec, dict) or "kernels" not in sec:
        return None
    return sec["kernels"]


def check_consistent(profile):
    rows = launch_rows(profile)
    if rows is None:
        return ["no launch table"]
    bad = []
    table = {}
    for r in rows:
        if not r.get("mangled"):
            bad.append("launch table: %d launches of a kernel it cannot name (%s)"
                       % (r.get("launches", 0), r.get("name")))
            continue
        table[r["mangled"]] = table.get(r["mangled"], 0) + r.get("launches", 0)
    for k in profile.get("kernels", []):
        dev = k.get("launches", 0)
        host = table.get(k.get("mangled"), 0)
        if dev != host:
            bad.append("%s: %d launches counted on the GPU, %d in the launch table"
                       % (k.get("mangled"), dev, host))
    known = {k.get("mangled") for k in profile.get("kernels", [])}
    for m, n in table.items():
        if m not in known:
            bad.append("%s: %d launches in the launch table, no kernel entry" % (m, n))
    return bad


def run_checks(profile, exps, stderr_lines):
    """[(ok, description)] for the expectations, plus the stderr rule."""
    results = []
    allowed = []
    for where, text in exps:
        words = text.split()
        if words[0] == "allow-stderr":
            allowed.append(re.compile(text.split(None, 1)[1]))
    for where, text in exps:
        words = text.split()
        kind = words[0]
        try:
            if kind == "kernel":
                bad = check_rows(profile.get("kernels", []), words[1:], "kernel")
            elif kind == "function":
                bad = check_rows(profile.get("device_functions", []), words[1:],
                                 "function")
            elif kind == "launch":
                rows = launch_rows(profile)
                bad = (["no launch table"] if rows is None
                       else check_rows(rows, words[1:], "launch"))
            elif kind == "name":
                mangled, want = words[1], text.split(None, 2)[2]
                hits = [k for k in profile.get("kernels", []) if k.get("mangled") == mangled]
                got = hits[0].get("name") if hits else None
                bad = [] if got == want else ["%s is named %r, want %r" % (mangled, got, want)]
            elif kind == "consistent":
                bad = check_consistent(profile)
            elif kind in ("stderr", "no-stderr"):
                rx = re.compile(text.split(None, 1)[1])
                found = [ln for ln in stderr_lines or [] if rx.search(ln)]
                if stderr_lines is None:
                    bad = ["no --stderr file given"]
                elif kind == "stderr":
                    bad = [] if found else ["no stderr line matches %r" % rx.pattern]
                else:
                    bad = ["stderr: %s" % found[0].strip()] if found else []
            elif kind == "allow-stderr":
                continue
            else:
                bad = ["unknown check %r" % kind]
        except (ValueError, re.error, IndexError) as e:
            bad = ["bad expectation: %s" % e]
        results.append((not bad, "%s: %s" % (where, text), bad))
    if stderr_lines is not None:
        noisy = [ln.strip() for ln in stderr_lines
                 if NOISE.search(ln) and not any(a.search(ln) for a in allowed)]
        results.append((not noisy, "stderr has no pasta: warning/error line",
                        ["stderr: " + n for n in noisy[:3]]))
    return results


def check(profile_path, sources, mode, stderr_path, out=sys.stdout):
    stderr_lines = None
    if stderr_path:
        try:
            with open(stderr_path, encoding="utf-8", errors="replace") as f:
                stderr_lines = f.readlines()
        except OSError as e:
            print("RESULT: FAIL: cannot read stderr (%s)" % e, file=out)
            return 1
    exps = expectations(sources, mode)
    if not exps:
        print("RESULT: FAIL: no EXPECT lines for mode %r in %s" % (mode, " ".join(sources)), file=out)
        return 1
    try:
        with open(profile_path, encoding="utf-8") as f:
            profile = json.load(f)
    except (OSError, ValueError) as e:
        print("RESULT: FAIL: no profile (%s)" % e, file=out)
        return 1
    if profile.get("schema") != "pasta-profile" or profile.get("version") not in (1, 2, 3, 4, 5, 6):
        print("RESULT: FAIL: not a pasta-profile of version 1 to 6", file=out)
        return 1
    results = run_checks(profile, exps, stderr_lines)
    failures = []
    for ok, what, bad in results:
        print("%s %s" % ("ok  " if ok else "FAIL", what), file=out)
        for b in bad:
            print("       " + b, file=out)
        failures += bad
    passed = sum(1 for r in results if r[0])
    print("%d passed, %d failed" % (passed, len(results) - passed), file=out)
    if failures:
        more = " (+%d more)" % (len(failures) - 2) if len(failures) > 2 else ""
        print("RESULT: FAIL: " + "; ".join(failures[:2]) + more, file=out)
        return 1
    print("RESULT: ok", file=out)
    return 0


def self_test():
    import io
    here = os.path.dirname(os.path.abspath(__file__))
    fx = os.path.join(here, "fixtures")
    src = os.path.join(here, "threads", "threads.cu")
    cases = [  # profile, stderr, expected status
        ("threads.ok.json", "empty.err", 0),
        ("threads.lost.json", "lost.err", 1),  # counts lost at exit
        ("threads.ok.json", "lost.err", 1),  # right counts, but a warning
        ("threads.short.json", "empty.err", 1),  # launch table one short
        ("missing.json", "empty.err", 1),
    ]
    bad = 0
    for prof, err, want in cases:
        buf = io.StringIO()
        got = check(os.path.join(fx, prof), [src], "", os.path.join(fx, err), buf)
        last = buf.getvalue().strip().splitlines()[-1]
        ok = got == want
        bad += not ok
        print("%s %s + %s: status %d (want %d): %s"
              % ("ok  " if ok else "FAIL", prof, err, got, want, last))
    # Device functions (functions.cu: one function line).
    funcs = os.path.join(fx, "functions.cu")
    for prof, want in (("functions.ok.json", 0), ("functions.short.json", 1),
                       ("threads.ok.json", 1)):
        buf = io.StringIO()
        got = check(os.path.join(fx, prof), [funcs], "",
                    os.path.join(fx, "empty.err"), buf)
        last = buf.getvalue().strip().splitlines()[-1]
        ok = got == want
        bad += not ok
        print("%s %s + functions.cu: status %d (want %d): %s"
              % ("ok  " if ok else "FAIL", prof, got, want, last))
    # The fault mode of main_c.c: the stderr rules.
    main_c = os.path.join(here, "main_c.c")
    for err, want in (("fault.err", 0), ("lost.err", 1)):
        buf = io.StringIO()
        got = check(os.path.join(fx, "fault.json"), [main_c], "fault",
                    os.path.join(fx, err), buf)
        last = buf.getvalue().strip().splitlines()[-1]
        ok = got == want
        bad += not ok
        print("%s fault.json + %s: status %d (want %d): %s"
              % ("ok  " if ok else "FAIL", err, got, want, last))
    return 1 if bad else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    args, mode, stderr_path = [], "", None
    it = iter(argv[1:])
    for a in it:
        if a == "--mode":
            mode = next(it, "")
        elif a == "--stderr":
            stderr_path = next(it, None)
        else:
            args.append(a)
    if len(args) < 2:
        print(__doc__.strip().splitlines()[3], file=sys.stderr)
        return 2
    return check(args[0], args[1:], mode, stderr_path)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
