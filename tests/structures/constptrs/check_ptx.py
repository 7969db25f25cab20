#!/usr/bin/env python3
"""The counting copies of tests/structures/constptrs/constptrs.cu (device
pointers in a __constant__ struct the host fills, AutoDock-GPU's GpuData)
count the accesses through those pointers as global, with no run-time
address-space test (isspacep) in the kernel sweep or in score's twin, and
the twin, left with few counters, returns them to the kernel instead of
flushing them at each of its calls (its value and counts in a struct, no
red in it). Before
(generic accesses, four counters a site) both held isspacep tests. The
plain copies have no test either way. Checked on the PTX, without a GPU.

usage: check_ptx.py CLANG PLUGIN CUDA_PATH SOURCE WORKDIR
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from ptx_tools import Checks, compile_from_argv, ptx_functions  # noqa: E402

KERNEL = "_Z5sweepi"
TWIN = "_Z5scoreif__pasta_callee"


def main():
    text = compile_from_argv("constptrs")[0]
    funcs = ptx_functions(text)
    check = Checks()
    for name in (KERNEL, TWIN, KERNEL + "__pasta_plain"):
        if not check(name in funcs, "%s is in the PTX" % name):
            sys.exit(1)
    for name in (KERNEL, TWIN):
        tests = funcs[name].count("isspacep")
        check(tests == 0, "%s tests no address space at run time (%d "
              "isspacep)" % (name, tests))
    returns = re.search(r"\.func\s+\(\.param \.align \d+ \.b8 "
                        r"func_retval0\[\d+\]\)\s+%s\($" % TWIN, text, re.M)
    check(returns is not None and "red." not in funcs[TWIN],
          "%s returns its counts with its value (a struct) and adds to no "
          "counter itself" % TWIN)
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
