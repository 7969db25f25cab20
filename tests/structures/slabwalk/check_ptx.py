#!/usr/bin/env python3
"""The counting copy of tests/structures/slabwalk/slabwalk.cu keeps one
counter for its 32 list walks (issue [overhead-3]; SlabHash's bulk search
ran 3.9x its plain kernel with a 64-bit counter per walk, 85 registers
against 20, flushed one by one at the exit). Checked on the PTX and on
ptxas's register counts, without a GPU:

- every walk adds 1 (or -1, as LLVM may count down) to the same 64-bit
  register: 32 such adds in loop blocks, one register;
- the exit flushes no counter table (no __pasta_flush_indexed call, no
  local array of counts: no stack frame);
- the counting copy takes no more registers than its plain copy
  (__pasta_plain) plus 4.

usage: check_ptx.py CLANG PLUGIN CUDA_PATH SOURCE WORKDIR
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from ptx_tools import (Checks, compile_from_argv, loop_lines,  # noqa: E402
                       ptx_entries, ptxas_resources, run)

KERNEL = "_Z11lookup_bulkPKjS0_S0_S0_Pj"


def main():
    text, ptx, cuda = compile_from_argv("slabwalk")
    ents = ptx_entries(text)
    check = Checks()
    counting = ents.get(KERNEL, "")
    check(counting, "the counting copy %s is in the PTX" % KERNEL)
    adds = [re.search(r"add\.s64\s+(%rd\d+), \1, -?1;", line)
            for line in loop_lines(counting)]
    regs = {m.group(1) for m in adds if m}
    check(sum(1 for m in adds if m) == 32 and len(regs) == 1,
          "32 adds of 1 in the walks, all to one register (%d adds, "
          "registers %s)" % (sum(1 for m in adds if m), sorted(regs)))
    check("__pasta_flush_indexed" not in counting,
          "no out-of-line flush of a counter table")
    log = run(["%s/bin/ptxas" % cuda, "-arch=sm_90", "-v", ptx, "-o",
               os.path.splitext(ptx)[0] + ".cubin"])
    res = ptxas_resources(log)
    mine = res.get(KERNEL, (0, -1))
    plain = res.get(KERNEL + "__pasta_plain", (0, 0))
    check(mine[1] == 0, "no stack frame (%d bytes)" % mine[1])
    check(0 < mine[0] <= plain[0] + 4,
          "%d registers, plain copy %d" % (mine[0], plain[0]))
    if check.failed:
        sys.exit("FAIL: %d checks" % check.failed)
    print("PASS")


if __name__ == "__main__":
    main()
