#!/usr/bin/env python3
"""The counting copies of tests/structures/framecallee/framecallee.cu (a
device function of some 30 counters, over the twins' return limit, called
in a loop by two kernels, AutoDock-GPU's gpu_calc_energrad shape): the
function's twin adds its counts into a frame its caller owns (a parameter
more than the plain copy's, local loads and stores) and flushes nothing
itself (no red or atom, no call of a flush); each kernel's counting copy
owns the frame (a local depot) and flushes it at its exit, with -mllvm
-pasta-callee-frames (off by default). Before that rule, the twin flushed
at every return. Checked on the PTX, without a GPU.

usage: check_ptx.py CLANG PLUGIN CUDA_PATH SOURCE WORKDIR
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from ptx_tools import Checks, compile_from_argv, ptx_functions  # noqa: E402

KERNELS = ("_Z5sweepPKfPfS1_ii", "_Z13sweep_boundedPKfPfS1_ii")
TWIN = "_Z4termPKfPfii__pasta_callee"
PLAIN = TWIN + "__pasta_plain"


def parameters(ptx, name):
    """The number of parameters of the definition of name in ptx."""
    m = re.search(r"^\.func\s+(?:\(.*\)\s+)?%s\(\n(.*?)\n\)[^\n]*\n" % name,
                  ptx, re.M | re.S)
    return len(re.findall(r"\.param ", m.group(1))) if m else -1


def main():
    text = compile_from_argv("framecallee",
                             ["-mllvm", "-pasta-callee-frames"])[0]
    funcs = ptx_functions(text)
    check = Checks()
    for name in KERNELS + (TWIN, PLAIN):
        if not check(name in funcs, "%s is in the PTX" % name):
            sys.exit(1)
    twin = funcs[TWIN]
    flushes = len(re.findall(r"\b(?:red|atom)\.", twin)) + twin.count(
        "__pasta_flush")
    check(flushes == 0, "%s flushes nothing itself (%d red, atom or flush "
          "calls)" % (TWIN, flushes))
    check(parameters(text, TWIN) == parameters(text, PLAIN) + 1,
          "%s takes one parameter more than its plain copy (%d, %d)" %
          (TWIN, parameters(text, TWIN), parameters(text, PLAIN)))
    check("ld.local" in twin and "st.local" in twin,
          "%s adds into its caller's frame (local loads and stores)" % TWIN)
    for k in KERNELS:
        check("__local_depot" in funcs[k], "%s owns a frame" % k)
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
