#!/usr/bin/env python3
"""Checks that the tree obeys the layer diagram of docs/design.md.

Four checks, all must pass:
  includes  every `#include "..."` in a source file names its own folder or a
            folder its layer may use (LAYERS below);
  public    the bottom floor (BOTTOM) includes no public header that a folder
            above it implements: include/pasta/profile.h declares what
            profile/ defines, so it stands with profile/, and a header beside
            it that included it would stand on that floor;
  calls     every pasta symbol an object of the C layers uses is defined in
            its own layer or one below it (from `nm` on the build's objects),
            so no call runs upward either;
  circles   inside the folders of CIRCLE_FREE, no files call each other,
            directly or around a circle (from `nm` on their objects).
Tests (test_*.c) and fuzz targets may use any layer they test.

usage: check_layers.py SOURCE_DIR [BUILD_DIR]
"""
import os
import re
import subprocess
import sys

# folder -> the folders it may include from (besides itself). Order is the
# diagram's, bottom up.
LAYERS = {
    "include/pasta": [],
    "line_ranges": ["include/pasta"],
    "profile": ["include/pasta"],
    "device_rt": ["include/pasta"],
    "passes": ["include/pasta", "line_ranges"],
    "frontend": [],
    "analyzers": ["include/pasta", "profile"],
    "symbolize": ["include/pasta", "profile"],
    "host_rt": ["include/pasta", "profile", "symbolize", "analyzers"],
    "tools": ["include/pasta", "profile", "symbolize", "analyzers"],
    "driver": [],
    "examples": ["include/pasta"],
}
# The folders on the ground floor: they use nothing above it, not even
# through a public header of include/pasta that a folder above implements.
BOTTOM = ["include/pasta", "line_ranges"]
SOURCE = re.compile(r"\.(c|h|cpp)$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(path):
    best = None
    for layer in LAYERS:
        if path == layer or path.startswith(layer + "/"):
            if best is None or len(layer) > len(best):
                best = layer
    return best


def resolve(src, path, inc):
    """The repository path an include names (same folder first)."""
    here = os.path.normpath(os.path.join(os.path.dirname(path), inc))
    if os.path.exists(os.path.join(src, here)):
        return here
    for root in ("", "include/"):
        if os.path.exists(os.path.join(src, root + inc)):
            return os.path.normpath(root + inc)
    return None  # a system header or a generated file


def includes(src, layer):
    """(file, included file) of every quoted include in the layer's sources
    (tests left out) that names a file of this tree."""
    for dirpath, _, files in os.walk(os.path.join(src, layer)):
        for name in files:
            if not SOURCE.search(name) or name.startswith("test_"):
                continue
            path = os.path.relpath(os.path.join(dirpath, name), src)
            text = open(os.path.join(src, path), errors="replace").read()
            for inc in INCLUDE.findall(text):
                target = resolve(src, path, inc)
                if target:
                    yield path, target


def check_includes(src):
    errors = []
    for layer in LAYERS:
        for path, target in includes(src, layer):
            to = layer_of(target)
            if to and to != layer and to not in LAYERS[layer]:
                errors.append(f"{path}: includes {target} ({layer} may "
                              f"not use {to})")
    return errors


COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
# A function definition as clang-format lays it out: a type and the name
# at the start of a line, the parameters (one level of parentheses inside),
# then the body.
DEFINITION = re.compile(
    r"^[A-Za-z_][\w \t*]*?\b([A-Za-z_]\w*)\s*\(((?:[^;{}()]|\([^()]*\))*)\)"
    r"\s*\{", re.M)


def definitions(src):
    """Function name -> the folders (of LAYERS) whose C sources define it."""
    owners = {}
    for layer in LAYERS:
        for dirpath, _, files in os.walk(os.path.join(src, layer)):
            for name in files:
                if not name.endswith(".c") or name.startswith("test_"):
                    continue
                text = open(os.path.join(dirpath, name), errors="replace").read()
                for fn in DEFINITION.findall(COMMENT.sub("", text)):
                    owners.setdefault(fn[0], set()).add(layer)
    return owners


def check_public(src):
    """Includes, from the ground floor, of a public header implemented above."""
    owners = definitions(src)
    public = os.path.join(src, "include/pasta")
    implementer = {}
    for name in sorted(os.listdir(public)):
        text = COMMENT.sub("", open(os.path.join(public, name)).read())
        above = {l for fn in CALLED.findall(text)
                 for l in owners.get(fn, ()) if l not in BOTTOM}
        if above:
            implementer["include/pasta/" + name] = sorted(above)
    errors = []
    for layer in BOTTOM:
        for path, target in includes(src, layer):
            if target in implementer and target != path:
                errors.append(
                    f"{path}: includes {target}, which "
                    f"{', '.join(implementer[target])} implements "
                    f"({layer} stands below it; declare what it names "
                    "instead, as `struct x;`)")
    return errors


# The C layers' objects in the build tree (cmake's object libraries).
OBJECTS = {
    "profile": "profile/CMakeFiles/pasta_profile.dir",
    "symbolize": "symbolize/CMakeFiles/pasta_symbolize.dir",
    "analyzers": "analyzers/CMakeFiles/pasta_analyzers.dir",
    "host_rt": "host_rt/CMakeFiles/pasta_rt.dir",
}


def symbols(src, layer, objdir):
    # Objects whose source is gone (moved or deleted) may linger in a build
    # tree: only those of existing sources count.
    objs = [os.path.join(d, f) for d, _, fs in os.walk(objdir) for f in fs
            if f.endswith(".o") and os.path.exists(os.path.join(
                src, layer, os.path.relpath(os.path.join(d, f[:-2]), objdir)))]
    defined, used = set(), {}
    for o in objs:
        out = subprocess.run(["nm", o], capture_output=True, text=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == "U":
                used.setdefault(parts[1], []).append(o)
            elif len(parts) == 3 and parts[1] in "TDRBCVW":
                defined.add(parts[2])
    return defined, used


def check_calls(src, build):
    errors = []
    seen = {}
    for layer, rel in OBJECTS.items():
        seen[layer] = symbols(src, layer, os.path.join(build, rel))
    for layer, (_, used) in seen.items():
        allowed = {layer, *LAYERS[layer]}
        for sym in used:
            if "pasta" not in sym:
                continue
            owners = [l for l, (d, _) in seen.items() if sym in d]
            if owners and not allowed.intersection(owners):
                errors.append(f"{layer} uses {sym}, defined in "
                              f"{', '.join(owners)}")
    return errors


# Folders whose files form no circle of calls: folder -> its objects.
CIRCLE_FREE = {
    "tools/pasta-report": "tools/pasta-report/CMakeFiles/pasta-report.dir",
}


def circles(graph):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def check_circles(src, build):
    errors = []
    for folder, rel in CIRCLE_FREE.items():
        objdir = os.path.join(build, rel)
        defined, used = {}, {}
        for name in sorted(os.listdir(objdir)) if os.path.isdir(objdir) else []:
            if not name.endswith(".o") or not os.path.exists(
                    os.path.join(src, folder, name[:-2])):
                continue
            out = subprocess.run(["nm", os.path.join(objdir, name)],
                                 capture_output=True, text=True).stdout
            for line in out.splitlines():
                parts = line.split()
                if len(parts) == 2 and parts[0] == "U":
                    used.setdefault(name[:-2], set()).add(parts[1])
                elif len(parts) == 3 and parts[1] in "TDRBCVW":
                    defined[parts[2]] = name[:-2]
        graph = {f: {defined[s] for s in syms if s in defined} - {f}
                 for f, syms in used.items()}
        for comp in circles(graph):
            errors.append(f"{folder}: {', '.join(comp)} call each other "
                          "(a circle)")
    return errors


def main():
    src = sys.argv[1]
    errors = check_includes(src) + check_public(src)
    checks = ["includes", "public"]
    if len(sys.argv) > 2:
        errors += check_calls(src, sys.argv[2])
        errors += check_circles(src, sys.argv[2])
        checks += ["calls", "circles"]
    for e in errors:
        print("layers: " + e)
    print(f"layers: {', '.join(checks)} checked: {len(errors)} violations")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
