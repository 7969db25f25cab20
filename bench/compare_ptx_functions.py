#!/usr/bin/env python3
"""Compares two PTX modules function by function: every .entry and .func
definition by name, its text with what only numbers it within the module
blanked (labels, callseq comments, local depot names, trailing blanks).
Prints the functions only one side defines and those whose code differs;
exits 1 when any differs. Used to check that a change which leaves out
copies (e.g. the working-set copies of divergence builds) leaves every
other function's code as it was.
usage: compare_ptx_functions.py BEFORE.ptx AFTER.ptx"""
import re
import sys

DEFINITION = re.compile(
    r'^(?:\.visible |\.weak )?(?:\.entry|\.func)\s+(?:\([^)]*\)\s*)?'
    r'([\w$]+)\($(.*?)^}$', re.S | re.M)


def normalized(body):
    body = re.sub(r'\$L__(?:func_begin|func_end|tmp|info_string)\d+', 'L',
                  body)
    body = re.sub(r'\$L__BB\d+_', 'BB_', body)
    body = re.sub(r'//[^\n]*', '', body)
    body = re.sub(r'__local_depot\d+', 'D', body)
    return re.sub(r'[ \t]+\n', '\n', body)


def functions(path):
    with open(path) as f:
        text = f.read()
    return {m.group(1): normalized(m.group(2))
            for m in DEFINITION.finditer(text)}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = functions(sys.argv[1]), functions(sys.argv[2])
    only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
    differ = sorted(k for k in set(a) & set(b) if a[k] != b[k])
    print(f"{len(a)} / {len(b)} functions; only before: {only_a}; "
          f"only after: {only_b}; different: {differ}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
