#!/usr/bin/env python3
"""What a divergence copy's out-of-line access-helper calls cost ptxas:
count them, or rewrite a PTX module so that ptxas can be timed on fewer
calls or on other helper bodies (timing only: the rewritten PTX computes
no figures).

  ptx_div_calls.py census IN.ptx          the calls of __pasta_div_access_out
      and __pasta_div_access_lanes_out per function, and how many distinct
      source lines (with their inlined-at context) and guard predicates
      they have: what one call per line or per guard would leave
  ptx_div_calls.py keep N IN.ptx OUT.ptx  keep 1 call in N (N = 0: none;
      N = -1: the first of each function's source line, what one call per
      line would leave), the others removed and their return value 0
  ptx_div_calls.py stub IN.ptx OUT.ptx    the two helpers' bodies `return 0`
  ptx_div_calls.py wrap IN.ptx OUT.ptx    each helper a thin function that
      calls its body, renamed (does ptxas's cost follow the callee or what
      it calls?)

Time the copy alone, as clang runs ptxas:
  ptxas -m64 -O2 -lineinfo --gpu-name sm_90 -e ENTRY__pasta_div OUT.ptx
(docs/lab/2026-12-01-divergence-70-compile.md).
"""
import collections
import re
import sys

HELPERS = {
    "__pasta_div_access_out": ["b64", "b32", "b32", "b32", "b32", "b64"],
    "__pasta_div_access_lanes_out":
        ["b64", "b32", "b32", "b32", "b32", "b32", "b64"],
}
FUNC = re.compile(r"^(\.visible |\.weak )?\.(entry|func)\s+(\([^)]*\)\s*)?([\w$]+)")
HELPER_CALL = re.compile(r"call\.uni \(retval0\), (__pasta_div_access\w*_out),")
RETVAL = re.compile(r"\s*ld\.param\.b32\s+(%r\d+),\s*\[retval0\];")


def census(lines):
    fn = loc = guard = None
    calls = collections.Counter()
    rows, guards = collections.defaultdict(set), collections.defaultdict(set)
    for line in lines:
        if m := FUNC.match(line):
            fn = m.group(4)
        if m := re.search(r"\.loc\s+\d+ \d+ \d+\s*//\s*(.*)", line):
            # the line and its inlined-at chain, columns dropped
            loc = re.sub(r":\d+(?=\s|$|\])", "", m.group(1)).strip()
        if m := re.match(r"\s*@(!?%p\d+) bra", line):
            guard = m.group(1)
        elif line.startswith("$L__BB"):  # a join: the call is not guarded
            guard = None
        if m := HELPER_CALL.search(line):
            calls[(fn, m.group(1))] += 1
            rows[fn].add(loc)
            guards[fn].add(guard or len(guards[fn]))  # unguarded: alone
    print("calls  lines  guards  helper in function")
    for (fn, helper), n in sorted(calls.items()):
        print(f"{n:5d} {len(rows[fn]):6d} {len(guards[fn]):7d}  {helper} in {fn}")
    print(f"{sum(calls.values()):5d} {sum(map(len, rows.values())):6d} "
          f"{sum(map(len, guards.values())):7d}  in all")


def callseqs(lines):
    """Yield (start, end) of each callseq block calling an access helper."""
    i = 0
    while i < len(lines):
        if lines[i].strip().startswith("{ // callseq"):
            j = i
            while not lines[j].strip().startswith("} // callseq"):
                j += 1
            if any(HELPER_CALL.search(b) for b in lines[i:j + 1]):
                yield i, j
            i = j
        i += 1


def line_of_calls(lines):
    """Each access-helper callseq's start -> (function, line with its
    inlined-at chain), as census reads them."""
    fn = loc = None
    starts = {i for i, _ in callseqs(lines)}
    keys = {}
    for i, line in enumerate(lines):
        if m := FUNC.match(line):
            fn = m.group(4)
        if m := re.search(r"\.loc\s+\d+ \d+ \d+\s*//\s*(.*)", line):
            loc = re.sub(r":\d+(?=\s|$|\])", "", m.group(1)).strip()
        if i in starts:
            keys[i] = (fn, loc)
    return keys


def keep(lines, n):
    drop = set()
    if n < 0:  # the first call of each (function, line) alone
        seen = set()
        for i, key in sorted(line_of_calls(lines).items()):
            if key in seen:
                drop.add(i)
            seen.add(key)
    for k, (i, j) in enumerate(callseqs(lines)):
        if n == 0 or (n > 0 and k % n):
            drop.add(i)
    out, i = [], 0
    while i < len(lines):
        if i in drop:
            j = i
            while not lines[j].strip().startswith("} // callseq"):
                if m := RETVAL.match(lines[j]):
                    out.append(f"\tmov.b32 \t{m.group(1)}, 0;")
                j += 1
            i = j + 1
            continue
        out.append(lines[i])
        i += 1
    print(f"{len(drop)} calls removed", file=sys.stderr)
    return out


def helper_body(lines, name):
    """(index of the definition's '{', index of its '}')."""
    head = f".func  (.param .b32 func_retval0) {name}("
    i = next(k for k, l in enumerate(lines) if l == head)
    start = lines.index("{", i)
    return i, start, lines.index("}", start)


def stub(lines):
    for name in HELPERS:
        _, start, end = helper_body(lines, name)
        lines[start + 1:end] = ["\tst.param.b32 \t[func_retval0], 0;", "\tret;"]
    return lines


def wrap(lines):
    text = "\n".join(lines)
    for name, types in HELPERS.items():
        big = "__big" + name
        head = f".func  (.param .b32 func_retval0) {name}("
        i = text.index(head)
        j = text.index("\n}\n", i)
        body = text[i:j].replace(head, head.replace(name, big))
        text = text[:i] + body.replace(name + "_param_", big + "_param_") + text[j:]
        params = ",\n".join(f"\t.param .{t} {{0}}_param_{k}"
                            for k, t in enumerate(types))
        decl = (f".func  (.param .b32 func_retval0) {big}\n(\n"
                + params.format(big) + "\n)\n;\n")
        k = text.index(".visible .entry")
        text = text[:k] + decl + text[k:]
        w = [head + "\n" + params.format(name) + "\n)", "{",
             "\t.reg .b32 \t%wr<2>;", "\t.reg .b64 \t%wd<2>;", "\t{"]
        w += [f"\t.param .{t} p{k};" for k, t in enumerate(types)]
        w.append("\t.param .b32 rv;")
        for k, t in enumerate(types):
            r = "%wd0" if t == "b64" else "%wr0"
            w += [f"\tld.param.{t} \t{r}, [{name}_param_{k}];",
                  f"\tst.param.{t} \t[p{k}], {r};"]
        args = ", ".join(f"p{k}" for k in range(len(types)))
        w += [f"\tcall.uni (rv), {big}, ({args});", "\tld.param.b32 \t%wr1, [rv];",
              "\t}", "\tst.param.b32 \t[func_retval0], %wr1;", "\tret;", "}"]
        text += "\n" + "\n".join(w) + "\n"
    return text.split("\n")


def main(argv):
    mode, args = (argv[1], argv[2:]) if len(argv) > 2 else (None, [])
    n = int(args.pop(0)) if mode == "keep" and args else None
    want = 1 if mode == "census" else 2
    if mode not in ("census", "keep", "stub", "wrap") or len(args) != want:
        sys.exit(__doc__)
    with open(args[0]) as f:
        lines = f.read().split("\n")
    if mode == "census":
        census(lines)
        return
    rewrite = {"keep": lambda l: keep(l, n), "stub": stub, "wrap": wrap}[mode]
    with open(args[1], "w") as f:
        f.write("\n".join(rewrite(lines)))


if __name__ == "__main__":
    main(sys.argv)
