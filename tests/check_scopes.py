#!/usr/bin/env python3
"""Checks the .cats traces of tests/host/scopes.c against the structure the
program's comment derives by hand.

usage: check_scopes.py SMALL.cats R_SMALL LARGE.cats R_LARGE

Both traces must be balanced (every entry closed by an exit of the same id,
innermost first), have the executions and trip counts the source implies
for their R, and have the same events apart from counts and times: the
trace's size follows the program, not the run (C.A.T.S. de-duplication).
Prints one line per check and "N passed, N failed"."""
import json
import sys

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}")


def tree(events):
    """The scope tree: nodes {kind, func, count, iterations, children}."""
    root = {"kind": "root", "func": "", "children": [], "id": None}
    stack = [root]
    balanced = True
    for e in events:
        if e["type"] == "scope_entry":
            node = {"kind": e["scope_type"], "func": e["funcname"],
                    "count": e.get("count"), "iterations": e.get("iterations"),
                    "id": e["id"], "children": []}
            stack[-1]["children"].append(node)
            stack.append(node)
        elif e["type"] == "scope_exit":
            if len(stack) == 1 or stack[-1]["id"] != e["id"]:
                balanced = False
                break
            stack.pop()
    return root, balanced and len(stack) == 1


def only(nodes, kind, func=None):
    found = [n for n in nodes if n["kind"] == kind and
             (func is None or n["func"] == func)]
    return found[0] if len(found) == 1 else None


def check_trace(path, r):
    events = json.load(open(path))["events"]
    root, balanced = tree(events)
    check(balanced, f"{path}: entries and exits nest")
    main = only(root["children"], "func", "main")
    check(main and main["count"] == 1, f"{path}: main once")
    if not main:
        return events
    loop = only(main["children"], "loop")
    check(loop and loop["count"] == 1 and loop["iterations"] == r,
          f"{path}: main's loop once, {r} iterations: {loop and loop['iterations']}")
    if not loop:
        return events
    kids = loop["children"]
    cond = only(kids, "conditional")
    check(cond and cond["count"] == r, f"{path}: r % 2 conditional {r} times")
    if cond:
        ev, od = only(cond["children"], "func", "even"), only(
            cond["children"], "func", "odd")
        check(ev and ev["count"] == (r + 1) // 2, f"{path}: even() {(r + 1) // 2} times")
        check(od and od["count"] == r // 2, f"{path}: odd() {r // 2} times")
    tri = only(kids, "func", "tri")
    check(tri and tri["count"] == r, f"{path}: tri() {r} times")
    outer = tri and only(tri["children"], "loop")
    check(outer and outer["count"] == r and outer["iterations"] == 6 * r,
          f"{path}: tri's outer loop {r} times, {6 * r} iterations")
    inner = outer and only(outer["children"], "loop")
    check(inner and inner["count"] == 6 * r and inner["iterations"] == 15 * r,
          f"{path}: tri's inner loop {6 * r} times, {15 * r} iterations: "
          f"{inner and (inner['count'], inner['iterations'])}")
    find = only(kids, "func", "find")
    floop = find and only(find["children"], "loop")
    check(floop and floop["count"] == r and floop["iterations"] == 2 * r,
          f"{path}: find's loop {r} times, {2 * r} completed iterations "
          f"(left by return): {floop and floop['iterations']}")
    # depth(3) recurses three times: four nested activations, each once per
    # round (conditional scopes may sit between them).
    levels, node = 0, only(kids, "func", "depth")
    while node:
        check(node["count"] == r, f"{path}: depth level {levels} runs {r} times")
        levels += 1
        below, frontier = None, list(node["children"])
        while frontier and not below:
            n = frontier.pop(0)
            if n["kind"] == "func" and n["func"] == "depth":
                below = n
            else:
                frontier.extend(n["children"])
        node = below
    check(levels == 4, f"{path}: depth() nests 4 activations, found {levels}")
    return events


def shape(events):
    return [(e["type"], e.get("scope_type"), e["funcname"], e["line"],
             e["col"], e.get("id")) for e in events]


def main():
    small, r_small, large, r_large = sys.argv[1:5]
    a = check_trace(small, int(r_small))
    b = check_trace(large, int(r_large))
    check(shape(a) == shape(b),
          f"the traces of R={r_small} and R={r_large} have the same events "
          f"({len(a)} and {len(b)})")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
