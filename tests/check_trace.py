#!/usr/bin/env python3
"""Validates PASTA trace files against docs/trace-format.md.

usage: check_trace.py [--cats FILE] [--chrome FILE] [--expect-balanced]
       check_trace.py --self-test

--cats    a .cats file: the C.A.T.S. event schema (types, fields per event
          type, scope_type values), scope exits matching the open entry,
          allocation ids unique, deallocations of allocated buffers.
--chrome  a Chrome trace-event file: traceEvents, name/ph/pid/tid on every
          event, ts on every event but metadata, non-negative dur on X
          events, known phases, flow starts and finishes paired.
--expect-balanced  also report scopes still open at the end of the .cats.
--self-test  runs the checks on the documents below, good and bad.
Prints one line per problem and exits 1 if there was any.
"""
import argparse
import json
import sys

SCOPE_TYPES = {"func", "loop", "conditional", "parallel"}
CLASSES = {"unknown", "constant", "stride-1", "stride-k", "indirect"}
PHASES = set("BEXiICbnestfPNODMRc") | {"(", ")"}
METADATA = {"process_name", "process_labels", "process_sort_index",
            "thread_name", "thread_sort_index"}


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def is_str(v):
    return isinstance(v, str)


# Fields each .cats event type must have, with their checks.
COMMON = {"filename": is_str, "funcname": is_str, "line": is_int,
          "col": is_int}
REQUIRED = {
    "scope_entry": {"id": is_int, "scope_type": lambda v: v in SCOPE_TYPES},
    "scope_exit": {"id": is_int},
    "access": {"mode": lambda v: v in ("r", "w"), "buffer_id": is_int,
               "buffer_name": is_str,
               "offset": lambda v: is_int(v) or is_str(v),
               "bytes": is_int},
    "allocation": {"buffer_id": is_int, "buffer_name": is_str,
                   "size": is_int},
    "deallocation": {"buffer_id": is_int, "buffer_name": is_str},
}
OPTIONAL = {"time_ns": is_int, "count": is_int, "iterations": is_int,
            "device": lambda v: v is True, "class": lambda v: v in CLASSES,
            "stride": is_int}


def cats_event_fields(i, e):
    if not isinstance(e, dict):
        return [f"event {i}: not an object"]
    kind = e.get("type")
    if kind not in REQUIRED:
        return [f"event {i}: unknown type {kind!r}"]
    problems = []
    for key, ok in {**COMMON, **REQUIRED[kind]}.items():
        if key not in e:
            problems.append(f"event {i} ({kind}): no {key!r}")
        elif not ok(e[key]):
            problems.append(f"event {i} ({kind}): bad {key!r}: {e[key]!r}")
    for key, ok in OPTIONAL.items():
        if key in e and not ok(e[key]):
            problems.append(f"event {i} ({kind}): bad {key!r}: {e[key]!r}")
    return problems


def cats_structure(i, e, stack, allocated, freed):
    """Scope nesting and buffer lifetimes, as far as `e` has the fields."""
    kind, ident, buf = e.get("type"), e.get("id"), e.get("buffer_id")
    if kind == "scope_entry" and ident is not None:
        stack.append(ident)
    elif kind == "scope_exit" and ident is not None:
        if not stack or stack[-1] != ident:
            open_ = f"scope {stack[-1]} is open" if stack else "none is open"
            if ident in stack:  # recover: close what was left open
                del stack[len(stack) - 1 - stack[::-1].index(ident):]
            return [f"event {i}: exit of scope {ident} while {open_}"]
        stack.pop()
    elif kind == "allocation" and buf is not None:
        if buf in allocated:
            return [f"event {i}: buffer {buf} allocated again"]
        allocated.add(buf)
    elif kind == "deallocation" and buf is not None:
        if buf not in allocated:
            return [f"event {i}: buffer {buf} freed but never allocated"]
        if buf in freed:
            return [f"event {i}: buffer {buf} freed twice"]
        freed.add(buf)
    return []


def check_cats(doc, expect_balanced):
    if not isinstance(doc, dict) or not isinstance(doc.get("events"), list):
        return ["top level: not an object with an \"events\" list"]
    problems = []
    if "format" in doc and doc["format"] != "pasta-cats":
        problems.append(f"top level: format {doc['format']!r}")
    if "version" in doc and not is_int(doc["version"]):
        problems.append(f"top level: version {doc['version']!r}")
    stack, allocated, freed = [], set(), set()
    for i, e in enumerate(doc["events"]):
        problems += cats_event_fields(i, e)
        if isinstance(e, dict):
            problems += cats_structure(i, e, stack, allocated, freed)
    if expect_balanced and stack:
        problems.append(f"end: {len(stack)} scopes still open: {stack}")
    return problems


def chrome_event(i, e):
    if not isinstance(e, dict):
        return [f"event {i}: not an object"]
    ph = e.get("ph")
    if ph not in PHASES:
        return [f"event {i}: unknown ph {ph!r}"]
    problems = []
    checks = {"name": is_str, "pid": is_int, "tid": is_int}
    if ph != "M":
        checks["ts"] = is_num
    if ph == "X":
        checks["dur"] = lambda v: is_num(v) and v >= 0
    if ph in "stf":
        checks["id"] = lambda v: is_int(v) or is_str(v)
    for key, ok in checks.items():
        if key not in e:
            problems.append(f"event {i} ({ph}): no {key!r}")
        elif not ok(e[key]):
            problems.append(f"event {i} ({ph}): bad {key!r}: {e[key]!r}")
    if "args" in e and not isinstance(e["args"], dict):
        problems.append(f"event {i} ({ph}): args is not an object")
    if ph == "M" and not problems:
        problems += chrome_metadata(i, e)
    return problems


def chrome_metadata(i, e):
    args = e.get("args", {})
    if e["name"] not in METADATA:
        return [f"event {i}: unknown metadata {e['name']!r}"]
    if e["name"].endswith("_name") and not is_str(args.get("name")):
        return [f"event {i}: {e['name']} without a string args.name"]
    if e["name"].endswith("_sort_index") and not is_int(args.get("sort_index")):
        return [f"event {i}: {e['name']} without an integer args.sort_index"]
    return []


def check_chrome(doc):
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"),
                                                   list):
        return ["top level: not an object with a \"traceEvents\" list"]
    problems = []
    if doc.get("displayTimeUnit", "ms") not in ("ms", "ns"):
        problems.append(f"top level: displayTimeUnit "
                        f"{doc['displayTimeUnit']!r}")
    starts, finishes = {}, {}
    for i, e in enumerate(doc["traceEvents"]):
        found = chrome_event(i, e)
        problems += found
        if not found and e["ph"] in "sf":
            side = starts if e["ph"] == "s" else finishes
            key = (e.get("cat"), e["id"])
            if key in side:
                problems.append(f"event {i}: second flow {e['ph']!r} with id "
                                f"{e['id']!r}")
            side[key] = i
    for key in starts.keys() - finishes.keys():
        problems.append(f"event {starts[key]}: flow {key[1]!r} never finishes")
    for key in finishes.keys() - starts.keys():
        problems.append(f"event {finishes[key]}: flow {key[1]!r} never starts")
    return problems


def report(path, problems, events):
    for p in problems:
        print(f"{path}: {p}")
    if not problems:
        print(f"{path}: ok ({events} events)")
    return bool(problems)


def load(path):
    with open(path, "rb") as f:
        return json.loads(f.read().decode("utf-8"))


# -- Self-test -----------------------------------------------------------------

def ev(kind, **fields):
    return {"type": kind, "filename": "a.c", "funcname": "f", "line": 1,
            "col": 2, **fields}


GOOD_CATS = {"format": "pasta-cats", "version": 1, "events": [
    ev("scope_entry", id=1, scope_type="func", time_ns=0, count=1),
    ev("allocation", buffer_id=1, buffer_name="a", size=8),
    ev("scope_entry", id=2, scope_type="loop", iterations=4, count=1),
    ev("access", mode="r", buffer_id=1, buffer_name="a", offset="4*i",
       bytes=4, **{"class": "stride-k"}, stride=4, device=True),
    ev("access", mode="w", buffer_id=1, buffer_name="a", offset=0, bytes=8),
    ev("scope_exit", id=2),
    ev("deallocation", buffer_id=1, buffer_name="a"),
    ev("scope_exit", id=1),
]}


def bad_cats():
    """(name, document, expect_balanced) that must be rejected."""
    def edit(i, **fields):
        doc = json.loads(json.dumps(GOOD_CATS))
        doc["events"][i].update(fields)
        return doc

    def drop(i, key):
        doc = json.loads(json.dumps(GOOD_CATS))
        del doc["events"][i][key]
        return doc

    unbalanced = json.loads(json.dumps(GOOD_CATS))
    unbalanced["events"].pop()
    return [
        ("no events", {"format": "pasta-cats"}, False),
        ("bad type", edit(0, type="scope_start"), False),
        ("bad scope_type", edit(0, scope_type="kernel"), False),
        ("no scope id", drop(0, "id"), False),
        ("line as string", edit(1, line="1"), False),
        ("no size", drop(1, "size"), False),
        ("bad mode", edit(3, mode="rw"), False),
        ("float offset", edit(4, offset=1.5), False),
        ("bad class", edit(3, **{"class": "strided"}), False),
        ("mismatched exit", edit(5, id=1), False),
        ("freed, not allocated", edit(6, buffer_id=9), False),
        ("allocated twice", dup_alloc(), False),
        ("left open", unbalanced, True),
        ("device not true", edit(3, device=1), False),
    ]


def dup_alloc():
    doc = json.loads(json.dumps(GOOD_CATS))
    doc["events"].insert(2, dict(doc["events"][1]))
    return doc


GOOD_CHROME = {"traceEvents": [
    {"name": "process_name", "ph": "M", "pid": 1, "tid": 0,
     "args": {"name": "Host"}},
    {"name": "process_sort_index", "ph": "M", "pid": 1, "tid": 0,
     "args": {"sort_index": 0}},
    {"name": "thread_name", "ph": "M", "pid": 2, "tid": 3,
     "args": {"name": "stream 3"}},
    {"name": "cudaLaunchKernel", "cat": "api", "ph": "X", "pid": 1, "tid": 0,
     "ts": 1.5, "dur": 0.25},
    {"name": "k", "cat": "kernel", "ph": "X", "pid": 2, "tid": 3, "ts": 2,
     "dur": 0, "args": {"detail": "x"}},
    {"name": "launch", "cat": "launch", "ph": "s", "bp": "e", "id": 1,
     "pid": 1, "tid": 0, "ts": 1.5},
    {"name": "launch", "cat": "launch", "ph": "f", "bp": "e", "id": 1,
     "pid": 2, "tid": 3, "ts": 2},
], "displayTimeUnit": "ns", "otherData": {"format": "pasta-chrome-trace"}}


def bad_chrome():
    def edit(i, **fields):
        doc = json.loads(json.dumps(GOOD_CHROME))
        doc["traceEvents"][i].update(fields)
        return doc

    def drop(i, key):
        doc = json.loads(json.dumps(GOOD_CHROME))
        del doc["traceEvents"][i][key]
        return doc

    return [
        ("bare list", GOOD_CHROME["traceEvents"]),
        ("negative dur", edit(3, dur=-1)),
        ("no dur", drop(3, "dur")),
        ("no ts", drop(4, "ts")),
        ("string pid", edit(3, pid="1")),
        ("float tid", edit(4, tid=3.0)),
        ("unknown ph", edit(3, ph="Z")),
        ("no name", drop(3, "name")),
        ("unpaired flow", edit(6, id=2)),
        ("thread_name without name", edit(2, args={})),
        ("bad displayTimeUnit", {**GOOD_CHROME, "displayTimeUnit": "us"}),
    ]


def self_test():
    passed = failed = 0

    def expect(name, problems, bad):
        nonlocal passed, failed
        if bool(problems) == bad:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {name}: " +
                  ("accepted" if bad else "; ".join(problems)))

    expect("good cats", check_cats(GOOD_CATS, True), False)
    expect("good chrome", check_chrome(GOOD_CHROME), False)
    for name, doc, balanced in bad_cats():
        expect(f"cats: {name}", check_cats(doc, balanced), True)
    for name, doc in bad_chrome():
        expect(f"chrome: {name}", check_chrome(doc), True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cats")
    ap.add_argument("--chrome")
    ap.add_argument("--expect-balanced", action="store_true")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if not args.cats and not args.chrome:
        ap.error("give --cats, --chrome or --self-test")
    bad = False
    for path, check in ((args.cats, lambda d: check_cats(
            d, args.expect_balanced)), (args.chrome, check_chrome)):
        if not path:
            continue
        try:
            doc = load(path)
        except (OSError, ValueError) as e:
            print(f"{path}: {e}")
            bad = True
            continue
        events = doc.get("events", doc.get("traceEvents", [])) \
            if isinstance(doc, dict) else []
        bad |= report(path, check(doc), len(events))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
