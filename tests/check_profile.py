#!/usr/bin/env python3
"""Checks fields of a PASTA JSON profile against expected values.

usage: check_profile.py PROFILE EXPECTATION...

An expectation is one of
  SECTION:NAME:FIELD=VALUE   e.g. host_functions:dot:calls=3,
                             host_functions:dot:load_bytes.generic=48000
  line:FILE:LINE:FIELD=VALUE e.g. line:dot_scale.c:17:flops.f64=6000
  absent:SECTION:NAME        the section has no entry with that name
  top:FIELD=VALUE            a top-level field, e.g. top:omitted.lines=4
  ran:SECTION                every entry of the section ran (calls or
                             executions above 0)
SECTION may be dotted (launches.kernels). NAME is an entry's "name" (demangled: "ns::scale<float>(float*, int)" with
its return type), its "mangled" symbol, or, when neither matches, its base
name (no return type, template arguments or parameters: "ns::scale").
Fields may be dotted (load_bytes.generic). Prints one line per expectation
and ends with 'N passed, N failed'; exits 1 if any failed.
"""
import json
import sys


def field(obj, path):
    for part in path.split("."):
        obj = obj[part]
    return obj


def base_name(name):
    name = name.replace("(anonymous namespace)", "{anon}")
    cut = min([i for i in (name.find("<"), name.find("(")) if i >= 0],
              default=len(name))
    return name[:cut].strip().split(" ")[-1]


def find(entries, key, value):
    exact = [e for e in entries if value in (e.get(key), e.get("mangled"))]
    if exact:
        return exact
    return [e for e in entries if base_name(e.get(key) or "") == value]


def check(profile, spec):
    if spec.startswith("absent:"):
        _, section, name = spec.split(":", 2)
        hits = find(profile[section], "name", name)
        return not hits, f"{len(hits)} entries named {name}"
    if spec.startswith("ran:"):
        section = spec.split(":", 1)[1]
        idle = [e for e in profile[section]
                if not e.get("calls", e.get("executions", e.get("launches")))]
        return not idle, f"{len(idle)} of {len(profile[section])} did not run"
    lhs, expected = spec.rsplit("=", 1)
    if lhs.startswith("top:"):
        try:
            got = field(profile, lhs[4:])
        except (KeyError, TypeError):
            got = None
    elif lhs.startswith("line:"):
        _, file, line, path = lhs.split(":", 3)
        hits = [l for l in profile["lines"]
                if l["file"] and l["file"].endswith("/" + file) or l["file"] == file]
        hits = [l for l in hits if l["line"] == int(line)]
        got = sum(field(l, path) for l in hits) if hits else None
    else:
        section, name, path = lhs.split(":", 2)
        hits = find(field(profile, section), "name", name)
        got = field(hits[0], path) if len(hits) == 1 else None
    return got is not None and str(got) == expected, f"got {got}"


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        profile = json.load(f)
    if profile.get("schema") != "pasta-profile" or profile.get("version") not in (1, 2, 3, 4, 5, 6):
        print(f"{sys.argv[1]}: not a version 1 to 6 pasta-profile", file=sys.stderr)
        return 1
    passed = failed = 0
    for spec in sys.argv[2:]:
        try:
            ok, detail = check(profile, spec)
        except (KeyError, ValueError, IndexError) as e:
            ok, detail = False, f"error: {e!r}"
        print(f"{'ok  ' if ok else 'FAIL'} {spec} ({detail})")
        passed += ok
        failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
