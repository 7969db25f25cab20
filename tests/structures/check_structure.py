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
      is a list (shapes, call_paths) compares its length (ws_launches,
      ws_max_touched_bytes, ws_max_footprint_bytes: working-set mode)
  ws FIELD=V ...
      the working-set section ("working_set", PASTA_WORKING_SET=1 runs):
      enabled, page_size, launches, skipped, touched_bytes.max,
      footprint_bytes.median, outside.accesses, ...
  ws-launch RE [matches=N|matches>=N] [nth=K] FIELD=V ...
      the tracked launches ("working_set"."per_launch", in launch order) of
      the kernels RE names (whole; their display name, or the mangled name
      the kernel tables give for it): N of them (default exactly 1); with
      nth=K only the K-th of them (from 0; matches= then counts them all,
      and is not checked when left out); each FIELD (touched_allocations,
      footprint_bytes, touched_bytes, outside) summed over them
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
    return check_hits(match_entries(entries, words[0]), words[0], words[1:], what)


def check_hits(hits, rx, terms, what):
    """matches=N (default exactly 1) on hits, then each FIELD summed."""
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
    bad = []
    for lhs, op, v in fields:
        try:
            got = sum(field(e, lhs) for e in hits)
        except (KeyError, TypeError) as e:
            bad.append("%s %s: no field %s (%r)" % (what, rx, lhs, e))
            continue
        if not compare(got, op, v):
            bad.append("%s %s: %s=%d, want %s%d" % (what, rx, lhs, got, op, v))
    return bad


def ws_section(profile):
    sec = profile.get("working_set")
    if not isinstance(sec, dict) or not sec.get("enabled"):
        return None
    return sec


def check_ws_launches(profile, words):
    """A ws-launch line: per_launch rows name their kernel by display name;
    RE may give the mangled name, which the kernel tables map to it."""
    sec = ws_section(profile)
    if sec is None:
        return ["no working-set section (run with PASTA_WORKING_SET=1)"]
    mangled = {}
    tables = list(profile.get("kernels", [])) + list(launch_rows(profile) or [])
    for k in tables:
        if k.get("name") and k.get("mangled"):
            mangled.setdefault(k["name"], set()).add(k["mangled"])
    pat = re.compile(words[0])
    rows = [
        r for r in sec.get("per_launch", [])
        if pat.fullmatch(r.get("kernel") or "")
        or any(pat.fullmatch(m) for m in mangled.get(r.get("kernel"), ()))
    ]
    terms, nth = [], None
    for t in words[1:]:
        lhs, op, v = split_term(t)
        if lhs != "nth":
            terms.append(t)
        elif op != "=":
            raise ValueError("nth takes =, not %s" % op)
        else:
            nth = v
    what = "ws-launch"
    if nth is None:
        return check_hits(rows, words[0], terms, what)
    # matches= counts the kernel's tracked launches; the fields are the
    # nth's alone.
    bad = check_hits(rows, words[0],
                     [t for t in terms if t.startswith("matches")] or ["matches>=0"],
                     what)
    if bad:
        return bad
    if nth >= len(rows):
        return ["%s %s: no launch %d (%d tracked)" % (what, words[0], nth, len(rows))]
    return check_hits([rows[nth]], "%s nth=%d" % (words[0], nth),
                      [t for t in terms if not t.startswith("matches")], what)


def check_fields(entry, terms, what):
    bad = []
    for t in terms:
        lhs, op, v = split_term(t)
        try:
            got = field(entry, lhs)
        except (KeyError, TypeError) as e:
            bad.append("%s: no field %s (%r)" % (what, lhs, e))
            continue
        if not compare(got, op, v):
            bad.append("%s: %s=%s, want %s%d" % (what, lhs, got, op, v))
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
            elif kind == "ws":
                sec = ws_section(profile)
                bad = (["no working-set section (run with PASTA_WORKING_SET=1)"]
                       if sec is None else check_fields(sec, words[1:], "working_set"))
            elif kind == "ws-launch":
                bad = check_ws_launches(profile, words[1:])
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
    bad += self_test_ws(fx)
    bad += lint_sources(here)
    return 1 if bad else 0


# Working-set lines (fixtures/ws.cu over fixtures/ws.ok.json): the profile
# passes; each change below to one figure must fail it.
WS_BREAKS = [
    ("a launch's touched bytes one page short",
     lambda p: p["working_set"]["per_launch"][2].update(touched_bytes=65536)),
    ("a launch's touched bytes one byte over",
     lambda p: p["working_set"]["per_launch"][0].update(touched_bytes=65537)),
    ("no accesses outside in the copy launch",
     lambda p: p["working_set"]["per_launch"][1].update(outside=0)),
    ("one allocation touched, not two",
     lambda p: p["working_set"]["per_launch"][1].update(touched_allocations=1)),
    ("a footprint one page over",
     lambda p: p["working_set"]["per_launch"][1].update(footprint_bytes=393216)),
    ("the last launch untracked",
     lambda p: p["working_set"]["per_launch"].pop()),
    ("the first launch named after the other kernel",
     lambda p: p["working_set"]["per_launch"][0].update(kernel="copy")),
    ("working-set mode off", lambda p: p["working_set"].update(enabled=False)),
    ("no working-set section", lambda p: p.pop("working_set")),
    ("one access outside fewer",
     lambda p: p["working_set"]["outside"].update(accesses=63)),
    ("another median", lambda p: p["working_set"]["touched_bytes"].update(median=65536)),
    ("the launch table's largest working set",
     lambda p: p["launches"]["kernels"][0].update(ws_max_touched_bytes=65536)),
]


def self_test_ws(fx):
    import copy
    import io
    import tempfile
    src, err = os.path.join(fx, "ws.cu"), os.path.join(fx, "ws.err")
    with open(os.path.join(fx, "ws.ok.json"), encoding="utf-8") as f:
        ok_profile = json.load(f)
    cases = [("as recorded", None, "ws", err, 0),
             # Not a working-set run: EXPECT(ws) lines (allow-stderr too)
             # do not apply.
             ("mode return", None, "return", os.path.join(fx, "empty.err"), 0),
             ("mode return, the ws warning", None, "return", err, 1)]
    cases += [(what, change, "ws", err, 1) for what, change in WS_BREAKS]
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for what, change, mode, stderr, want in cases:
            prof = copy.deepcopy(ok_profile)
            if change:
                change(prof)
            path = os.path.join(tmp, "ws.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(prof, f)
            buf = io.StringIO()
            got = check(path, [src], mode, stderr, buf)
            last = buf.getvalue().strip().splitlines()[-1]
            ok = got == want
            bad += not ok
            print("%s ws.ok.json, %s (mode %s): status %d (want %d): %s"
                  % ("ok  " if ok else "FAIL", what, mode, got, want, last))
    return bad


KINDS_WITH_RE = ("kernel", "function", "launch", "ws-launch")


def lint(text):
    """Why an EXPECT line cannot be checked, or None."""
    words = text.split()
    kind = words[0] if words else ""
    try:
        if kind in KINDS_WITH_RE or kind == "ws":
            if kind != "ws":
                if len(words) < 2:
                    return "no regular expression"
                re.compile(words[1])
            terms = words[1 if kind == "ws" else 2:]
            if not terms and kind == "ws":
                return "nothing to check"
            for t in terms:
                split_term(t)
        elif kind == "name":
            if len(words) < 3:
                return "name takes MANGLED DISPLAY"
        elif kind in ("stderr", "no-stderr", "allow-stderr"):
            if len(words) < 2:
                return "no regular expression"
            re.compile(text.split(None, 1)[1])
        elif kind != "consistent" or len(words) != 1:
            return "unknown check"
    except (ValueError, re.error) as e:
        return str(e)
    return None


def lint_sources(here):
    """Every EXPECT line of the structures' sources can be checked (they
    run on a GPU only: a typo would show there first)."""
    srcs = [os.path.join(here, "..", "link", "make_gcc", "blur.cu")]
    for root, _, files in os.walk(here):
        if os.path.basename(root) == "fixtures":
            continue
        srcs += [os.path.join(root, f) for f in files
                 if f.endswith((".cu", ".c", ".cpp"))]
    rx = re.compile(r"EXPECT(?:\(([^)]*)\))?:\s*(.*\S)")
    bad = lines = 0
    for src in sorted(srcs):
        if not os.path.exists(src):
            continue
        with open(src, encoding="utf-8") as f:
            for no, line in enumerate(f, 1):
                m = rx.search(line)
                if not m:
                    continue
                lines += 1
                why = lint(re.sub(r"\s*\*/$", "", m.group(2)))
                if why:
                    bad += 1
                    print("FAIL %s:%d: %s: %s" % (os.path.relpath(src, here), no, why,
                                                  m.group(2)))
    print("%s %d EXPECT lines of the structures' sources parse"
          % ("ok  " if not bad else "FAIL", lines - bad))
    for text in ("kernel _Z1fv launches", "ws touched_bytes.max=1x", "ws",
                 "ws-launch ( touched_bytes=1", "wslaunch k touched_bytes=1",
                 "consistent launches=1"):
        if lint(text) is None:
            bad += 1
            print("FAIL the lint passes %r" % text)
    return bad


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
