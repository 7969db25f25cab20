#!/usr/bin/env python3
"""The counting copy of tests/structures/casinsert/casinsert.cu keeps the
counters of its loops, which wait for global atomics, in local memory
(issue [overhead-3]; SlabHash's build_table_kernel took 48 registers
against 26 with them in 64-bit registers, 58.6% of the warps active
against 92.5%). Checked on the PTX and on ptxas's register counts, without
a GPU:

- the loops' blocks add to local memory (st.local.b64), none to a 64-bit
  register (`add.s64 R, R, 1`);
- no call in the loops (a wrap guard's flush of 32-bit counters there
  held registers of its own: 56);
- the counting copy's registers round up (by 8, the allocation unit) to
  no more than its plain copy's (__pasta_plain): the same occupancy.

usage: check_ptx.py CLANG PLUGIN CUDA_PATH SOURCE WORKDIR
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from ptx_tools import (Checks, compile_from_argv, loop_lines,  # noqa: E402
                       ptx_entries, ptxas_resources, run)

KERNEL = "_Z12insert_pairsPj9SlabTable"


def main():
    text, ptx, cuda = compile_from_argv("casinsert")
    ents = ptx_entries(text)
    check = Checks()
    counting = ents.get(KERNEL, "")
    check(counting, "the counting copy %s is in the PTX" % KERNEL)
    loops = loop_lines(counting)
    stores = sum(1 for line in loops if "st.local.b64" in line)
    adds = sum(1 for line in loops
               if re.search(r"add\.s64\s+(%rd\d+), \1, 1;", line))
    check(stores >= 4 and adds == 0,
          "the loops count in local memory (%d st.local.b64), not in 64-bit "
          "registers (%d adds of 1)" % (stores, adds))
    calls = sum(1 for line in loops if re.search(r"\bcall", line))
    check(calls == 0, "no call in the loops (%d)" % calls)
    log = run(["%s/bin/ptxas" % cuda, "-arch=sm_90", "-v", ptx, "-o",
               os.path.splitext(ptx)[0] + ".cubin"])
    res = ptxas_resources(log)
    mine = res.get(KERNEL, (0, 0))[0]
    plain = res.get(KERNEL + "__pasta_plain", (0, 0))[0]
    check(0 < mine and -(-mine // 8) <= -(-plain // 8),
          "%d registers, plain copy %d" % (mine, plain))
    if check.failed:
        sys.exit("FAIL: %d checks" % check.failed)
    print("PASS")


if __name__ == "__main__":
    main()
