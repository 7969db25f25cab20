#!/usr/bin/env python3
"""By default (-mllvm -pasta-park-counts-after-loops), the counting copy of
tests/structures/crowdedloops/crowdedloops.cu (decoding attention's shape:
three loops, then one of 16 float accumulators and two 16-byte loads a
trip) parks the first loops' counters in local memory ahead of the fourth
loop (st.local after the first loop), and takes fewer registers than the
same copy built with the option off, whose counters live through that loop (60
against 48 at the time of writing; the plain copy 45): checked on the PTX
and on ptxas's register counts, without a GPU. The plain copy is the same
either way.

usage: check_ptx.py CLANG PLUGIN CUDA_PATH SOURCE WORKDIR
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from ptx_tools import (Checks, compile_ptx, ptx_entries,  # noqa: E402
                       ptxas_resources, run)

KERNEL = "_Z6attend5Heads"


def build(clang, plugin, cuda, source, ptx, extra):
    """The entries of source's device PTX and ptxas's registers of each."""
    compile_ptx(clang, plugin, cuda, source, ptx, extra)
    text = open(ptx).read()
    log = run([os.path.join(cuda, "bin", "ptxas"), "-arch=sm_90", "-O3", "-v",
               ptx, "-o", os.devnull])
    return ptx_entries(text), {k: r for k, (r, _) in
                               ptxas_resources(log).items()}


def main():
    clang, plugin, cuda, source, work = sys.argv[1:6]
    os.makedirs(work, exist_ok=True)
    kept, kept_regs = build(
        clang, plugin, cuda, source, os.path.join(work, "kept.ptx"),
        ["-mllvm", "-pasta-park-counts-after-loops=0"])
    parked, parked_regs = build(clang, plugin, cuda, source,
                                os.path.join(work, "parked.ptx"), [])
    for ents in (kept, parked):
        if KERNEL not in ents or KERNEL + "__pasta_plain" not in ents:
            sys.exit("FAIL: %s or its plain copy is not in the PTX" % KERNEL)
    check = Checks()
    stores = len(re.findall(r"\bst\.local\.", parked[KERNEL]))
    check(stores >= 1 and "st.local" not in kept[KERNEL],
          "the counting copy parks counters in local memory by default "
          "(%d st.local), none with the option off" % stores)
    check(parked[KERNEL + "__pasta_plain"] == kept[KERNEL + "__pasta_plain"],
          "the plain copy is the same with and without the option")
    check(parked_regs.get(KERNEL, 999) < kept_regs.get(KERNEL, 0),
          "the counting copy takes fewer registers parked: %s against %s "
          "(plain copy %s)" % (parked_regs.get(KERNEL), kept_regs.get(KERNEL),
                               kept_regs.get(KERNEL + "__pasta_plain")))
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
