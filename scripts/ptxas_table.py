#!/usr/bin/env python3
"""Registers, stack and spills per kernel, from `ptxas -v` logs.

usage: ptxas_table.py PLAIN.log INSTRUMENTED.log [NAME]
Each log is the stderr of one compile with `-Xcuda-ptxas -v`. Prints one
Markdown row per kernel of the plain build: registers, stack frame and spill
bytes (stores + loads) of the plain kernel, of its counting copy (same name)
and of its working-set copy (name + __pasta_ws), as "regs/stack/spill".
"""
import re
import sys

ENTRY = re.compile(
    r"Compiling entry function '(\S+)' for '\w+'\n"
    r"(?:.*\n)*?ptxas info\s*: Function properties for \S+\n"
    r"\s*(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads\n"
    r".*?Used (\d+) registers")


def parse(path):
    text = open(path, errors="replace").read()
    return {m.group(1): (int(m.group(5)), int(m.group(2)),
                         int(m.group(3)) + int(m.group(4)))
            for m in ENTRY.finditer(text)}


def short(name):
    m = re.search(r"\d+((?:Device|static_|transform_)\w*?[Kk]ernel\w*?)I", name)
    if m:
        return m.group(1)
    m = re.match(r"_Z\d+(\w+?)P", name) or re.match(r"_Z\d+(\w+)", name)
    return m.group(1) if m else name[:50]


def fmt(t):
    return "-" if t is None else f"{t[0]} / {t[1]} / {t[2]}"


def main():
    plain, pasta = parse(sys.argv[1]), parse(sys.argv[2])
    program = sys.argv[3] if len(sys.argv) > 3 else ""
    for k in sorted(plain):
        print(f"| {program} | {short(k)} | {fmt(plain[k])} | {fmt(pasta.get(k))} "
              f"| {fmt(pasta.get(k + '__pasta_ws'))} |")
    return 0 if plain else 1


if __name__ == "__main__":
    sys.exit(main())
