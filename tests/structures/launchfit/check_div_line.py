#!/usr/bin/env python3
"""check_div_line.py PROFILE LINE FUNC_RE KEY=V ...: the divergence figures
of the line entries of LINE in functions matching FUNC_RE, summed, against
the expected values (KEY=none: no entry has divergence figures)."""
import json, re, sys
prof, line, func = sys.argv[1], int(sys.argv[2]), re.compile(sys.argv[3])
want = dict(a.split("=", 1) for a in sys.argv[4:])
with open(prof) as f:
    p = json.load(f)
rows = [e for e in p.get("lines", []) if e.get("line") == line
        and func.search(e.get("function", "")) and "divergence" in e]
bad = []
if "none" in want:
    if rows:
        bad.append("has divergence figures: %s" % rows[0]["divergence"])
else:
    if not rows:
        bad.append("no line entry with divergence figures")
    for k, v in want.items():
        got = sum(int(r["divergence"].get(k, 0)) for r in rows)
        print("  %s = %d (want %s)%s" % (k, got, v, "" if got == int(v) else "  MISMATCH"))
        if got != int(v):
            bad.append(k)
print("DIVLINE:", "ok" if not bad else "FAIL: " + ", ".join(bad))
sys.exit(1 if bad else 0)
