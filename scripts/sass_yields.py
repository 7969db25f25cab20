#!/usr/bin/env python3
"""Where ptxas put YIELD instructions in a `cuobjdump -sass` listing.

usage: sass_yields.py LISTING[.gz] ...

A YIELD lets the warp scheduler switch between the divergent groups of a
warp. In the myocyte-like shape's unbuffered compact working-set copies
(docs/performance.md, "Known gaps"), the builds whose working-set counts were
wrong on an H200 (unbuf, unbufcstore) had exactly one YIELD, at the entry
of __pasta_ws_mark_compact (called from 288 sites, in both arms of
data-dependent branches); the exact builds (buf4, unbufempty, the fixed
one) had none. This lists, per kernel listing, each YIELD and whether it
is in a called function's first instructions (device functions are not
named in the listing: a callee is known by its address and how many CALLs
reach it), so that every staged build shows whether a runtime callee got
one. Prints one line per YIELD, or "no YIELD" per kernel.
"""
import gzip
import re
import sys

INSTR = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
CALL = re.compile(r"\bCALL\.\S+\s+(0x[0-9a-f]+)")
YIELD = re.compile(r"(@!?U?P\w+\s+)?YIELD")
# A YIELD this many instructions past a call target counts as its entry.
ENTRY_WINDOW = 4


def read_lines(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", errors="replace") as f:
        return f.readlines()


def kernels(lines):
    """(name, [(address, instruction)]) per `Function :` section."""
    name, body = None, []
    for line in lines:
        if "Function :" in line:
            if name is not None:
                yield name, body
            name, body = line.split("Function :", 1)[1].strip(), []
            continue
        m = INSTR.search(line)
        if m and name is not None:
            body.append((int(m.group(1), 16), m.group(2)))
    if name is not None:
        yield name, body


def yields_of(body):
    """(address, where) for each YIELD of one kernel's listing."""
    calls = {}
    for _, text in body:
        m = CALL.search(text)
        if m:
            target = int(m.group(1), 16)
            calls[target] = calls.get(target, 0) + 1
    addresses = [a for a, _ in body]
    found = []
    for i, (address, text) in enumerate(body):
        if not YIELD.fullmatch(text.strip()):
            continue
        where = "body"
        for target, sites in sorted(calls.items()):
            if target <= address and target in addresses:
                start = addresses.index(target)
                if i - start < ENTRY_WINDOW:
                    where = "entry of callee %#x (%d call sites)" % (target, sites)
        found.append((address, where))
    return found


def main(paths):
    if not paths:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    for path in paths:
        for name, body in kernels(read_lines(path)):
            ys = yields_of(body)
            if not ys:
                print("%s: %s: no YIELD" % (path, name))
            for address, where in ys:
                print("%s: %s: YIELD at %#x, %s" % (path, name, address, where))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
