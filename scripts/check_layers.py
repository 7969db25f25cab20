#!/usr/bin/env python3
"""Checks that the tree obeys the layer diagram of docs/design.md.

Two checks, both must pass:
  includes  every `#include "..."` in a source file names its own folder or a
            folder its layer may use (LAYERS below);
  calls     every pasta symbol an object of the C layers uses is defined in
            its own layer or one below it (from `nm` on the build's objects),
            so no call runs upward either.
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
    "analyzers": ["include/pasta", "profile"],
    "symbolize": ["include/pasta", "profile"],
    "host_rt": ["include/pasta", "profile", "symbolize", "analyzers"],
    "tools": ["include/pasta", "profile", "symbolize", "analyzers"],
    "driver": [],
    "examples": ["include/pasta"],
}
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


def check_includes(src):
    errors = []
    for layer in LAYERS:
        for dirpath, _, files in os.walk(os.path.join(src, layer)):
            for name in files:
                if not SOURCE.search(name) or name.startswith("test_"):
                    continue
                path = os.path.relpath(os.path.join(dirpath, name), src)
                text = open(os.path.join(src, path), errors="replace").read()
                for inc in INCLUDE.findall(text):
                    target = resolve(src, path, inc)
                    if not target:
                        continue
                    to = layer_of(target)
                    if to and to != layer and to not in LAYERS[layer]:
                        errors.append(f"{path}: includes {target} ({layer} may "
                                      f"not use {to})")
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


def main():
    src = sys.argv[1]
    errors = check_includes(src)
    checks = ["includes"]
    if len(sys.argv) > 2:
        errors += check_calls(src, sys.argv[2])
        checks.append("calls")
    for e in errors:
        print("layers: " + e)
    print(f"layers: {' and '.join(checks)} checked: {len(errors)} violations")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
