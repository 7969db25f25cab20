#!/usr/bin/env python3
"""The counting copies of tests/structures/spaceptrs/spaceptrs.cu (six
fields of objects read through a list of pointers in global memory, one
line each, in a loop: a ray tracer's shape) still test each object's
address space at run time, but add its shared and local counts only
behind a branch (a block of its own, outside the loop's straight path),
in local memory: no 64-bit count is carried through the loop in a
register, and the counting copy takes no more registers than the plain
copy (up to ptxas's allocation unit of 8). Before, six sites' four counts
each rode the loop: 72 registers against 32, the working-set copy 128.
The counts a called function's twin returns into a loop are added the
same way (scene_calls).
Checked on the PTX and on ptxas's register counts, without a GPU.

usage: check_ptx.py CLANG PLUGIN CUDA_PATH SOURCE WORKDIR
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from ptx_tools import (Checks, compile_from_argv, ptx_entries,  # noqa: E402
                       ptxas_resources, run)

KERNEL = "_Z5scenePKPK6SphereiPf"
# The same sum through a non-inlined sphere_sum, whose twin returns its
# four run-time counts to the loop: 32 registers against the plain copy's
# 23 (9 for the block counts and the returned values), 40 with the
# returned counts carried through the loop in registers.
CALLS = "_Z11scene_callsPKPK6SphereiPf"


def rounded(registers):
    return -(-registers // 8)


def main():
    text, ptx, cuda = compile_from_argv("spaceptrs")
    ents = ptx_entries(text)
    check = Checks()
    counting = ents.get(KERNEL, "")
    if not check(counting, "the counting copy %s is in the PTX" % KERNEL):
        sys.exit(1)
    tests = counting.count("isspacep.shared")
    check(tests >= 1, "it tests the objects' space at run time (%d "
          "isspacep.shared)" % tests)
    local = len(re.findall(r"\bst\.local\.(?:u|b)64", counting))
    check(local >= 1, "it adds the shared and local counts in local memory "
          "(%d 64-bit local stores)" % local)
    log = run(["%s/bin/ptxas" % cuda, "-arch=sm_90", "-v", ptx, "-o",
               os.path.splitext(ptx)[0] + ".cubin"])
    res = ptxas_resources(log)
    mine = res.get(KERNEL, (0, 0))[0]
    plain = res.get(KERNEL + "__pasta_plain", (0, 0))[0]
    check(0 < mine and rounded(mine) <= rounded(plain),
          "%d registers, plain copy %d" % (mine, plain))
    ws = res.get(KERNEL + "__pasta_ws", (0, 0))[0]
    check(0 < ws <= 2 * plain,
          "working-set copy %d registers, at most twice the plain copy's"
          % ws)
    calls = res.get(CALLS, (0, 0))[0]
    calls_plain = res.get(CALLS + "__pasta_plain", (0, 0))[0]
    check(0 < calls <= calls_plain + 12,
          "%s: %d registers, plain copy %d (the returned counts are not "
          "carried through the loop)" % (CALLS, calls, calls_plain))
    if check.failed:
        sys.exit("FAIL: %d checks" % check.failed)
    print("PASS")


if __name__ == "__main__":
    main()
