#!/usr/bin/env python3
"""Checks that a PASTA profile names everything as people read it and puts
every line in its own file.

usage: check_names_lines.py PROFILE SOURCE [NAME-PART...]

- every function name (kernels, device and host functions, and each line's
  function) is demangled: no "_Z" left in it;
- each NAME-PART occurs in some host function's name;
- every line entry has a file, that file exists, and its line lies within
  the file; lines in SOURCE (the program's own file) are code, neither blank
  nor a comment;
- some lines are in SOURCE and some in other files (code inlined from
  headers), so that both checks above check something.
Prints one line per failure and ends with 'N checked, N failed'; exits 1 if
any failed.
"""
import json
import os
import sys


def main():
    path, source = sys.argv[1], os.path.realpath(sys.argv[2])
    parts = sys.argv[3:]
    with open(path) as f:
        doc = json.load(f)
    failed = checked = 0

    def check(ok, what):
        nonlocal failed, checked
        checked += 1
        if not ok:
            failed += 1
            print("FAIL:", what)

    names = []
    for section in ("kernels", "device_functions", "host_functions"):
        names += [e["name"] for e in doc.get(section, [])]
    names += [l["function"] for l in doc["lines"]]
    for name in names:
        check("_Z" not in name, "not demangled: %s" % name)
    hosts = [e["name"] for e in doc["host_functions"]]
    for part in parts:
        check(any(part in n for n in hosts),
              "no host function named with %r among %s" % (part, hosts))

    counts, texts = {}, {}
    in_source = elsewhere = 0
    for l in doc["lines"]:
        where = "%s:%s (%s)" % (l["file"], l["line"], l["function"])
        check(l["file"] is not None and l["line"] > 0,
              "a line without a file or line: " + where)
        if l["file"] is None:
            continue
        real = os.path.realpath(l["file"])
        if real not in counts:
            try:
                with open(real, errors="replace") as f:
                    texts[real] = f.read().split("\n")
            except OSError:
                texts[real] = None
        text = texts[real]
        check(text is not None, "no such file: " + where)
        if text is None:
            continue
        check(1 <= l["line"] <= len(text), "past the end of its file (%d "
              "lines): %s" % (len(text), where))
        if real == source:
            in_source += 1
            code = text[l["line"] - 1].strip() if l["line"] <= len(text) else ""
            check(code and not code.startswith("//"),
                  "not a line of code: %s: %r" % (where, code))
        else:
            elsewhere += 1
    check(in_source > 0, "no line in " + source)
    check(elsewhere > 0, "no line in another file (inlined from a header)")
    print("%d checked, %d failed" % (checked, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
