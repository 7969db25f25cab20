#!/usr/bin/env python3
"""The counting copies of tests/structures/hotshapes/hotshapes.cu keep the
plain kernels' occupancy (issue [overhead-3]; HeCBench's tsa and extrema ran
1.70x and 1.55x with a quarter of their warps gone). Checked on the PTX and
on ptxas's register counts, without a GPU:

- relax_tile flushes 36 bits at exit: no call there (an out-of-line
  __pasta_flush_bits took tsa's kernel from 32 registers to 38; the only
  call left is the grid's first thread counting the launch), and no table
  of their counters is read (the indices are packed in constants);
- local_rank's exit flush reads the block id itself (a second %ctaid.x read
  after the one at entry): merged with the kernel's own read, the value
  stayed in a register across the grid-stride loop (extrema: 38 registers
  against 32);
- faces' loop adds no 1 to a 64-bit register: its faces, under branches
  the loop does not change, set bits of a mask, and the loop's exit adds
  the trip count (HeCBench stencil3d: a 64-bit register per face through
  the loop, 71 registers against 40);
- split_rows' loop (a signed 32-bit bound) counts its two blocks on loaded
  data in 32-bit registers, with no add of 1 to a 64-bit one;
- bit_planes' loop (10 counted blocks) adds to its coldest counters,
  those beyond 8, in local memory (st.local in the loop) when built with
  -pasta-loop-counter-registers=8 (off by default: Thrust's histogram ran
  4.2x that way, 2.0x without);
- partial_tiles' partial-tile copies (behind the tile check `n - at >=
  512` of its tile loop) are counted where taken (an activemask read each,
  in the loop), and its portion loop flushes on its back edge (the scaled
  flush of its alike counters inside the loop): CUB's radix-sort histogram
  held them all in 64-bit registers (96 against 32 plain);
- each counting copy (the kernel's own name) takes at most 32 registers
  when its plain copy (__pasta_plain) does: 32 is where an SM still holds
  its 64 warps (sm_90, 64K registers).

usage: check_ptx.py CLANG PLUGIN CUDA_PATH SOURCE WORKDIR
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from ptx_tools import (Checks, compile_from_argv, loop_lines,  # noqa: E402
                       ptx_entries, ptxas_resources, run)


def main():
    text, ptx, cuda = compile_from_argv("hotshapes", [
        # bit_planes' check: counters in local memory are off by default,
        # and its 10 counted blocks (the same sites) would share fewer
        "-mllvm", "-pasta-loop-counter-registers=8",
        "-mllvm", "-pasta-share-like-counters=0"])
    ents = ptx_entries(text)
    log = run([os.path.join(cuda, "bin", "ptxas"), "-arch=sm_90", "-O3", "-v",
               ptx, "-o", os.devnull])
    regs = {k: r for k, (r, _) in ptxas_resources(log).items()}
    check = Checks()

    relax, rank = "_Z10relax_tilePfiif", "_Z10local_rankPKiPiii"
    faces = "_Z5facesPKfPfi"
    split = "_Z10split_rowsPKfPfS1_S1_iiff"
    planes = "_Z10bit_planesPKiPiS1_ii"
    for k in (relax, rank, faces, split, planes):
        if k not in ents or k + "__pasta_plain" not in ents:
            sys.exit("FAIL: %s or its plain copy is not in %s" % (k, ptx))
    calls = re.findall(r"call(?:\.uni)?\s+\(?[^,;]*?(__pasta_\w+)", ents[relax])
    check(all(c.startswith("__pasta_count_launch") for c in calls),
          "relax_tile's counting copy calls only the launch count (calls: %s)"
          % (", ".join(calls) or "none"))
    shuffles = [len(re.findall(r"shfl\.sync\.idx", ents[k]))
                for k in (relax, relax + "__pasta_plain")]
    check(shuffles[0] > shuffles[1] and "__pasta_bit_table" not in ents[relax],
          "relax_tile flushes its bits inline (the shape still takes that "
          "path: %d shuffles against %d plain), their counters' indices "
          "packed in constants, not read from a table" % tuple(shuffles))
    reads = len(re.findall(r"%ctaid\.x", ents[rank]))
    check(reads >= 2, "local_rank's counting copy reads %%ctaid.x %d times "
          "(at least 2: the kernel's, and the flush's at exit)" % reads)
    in_loop = loop_lines(ents[faces])
    adds = [l.strip() for l in in_loop
            if re.search(r"add\.s64\s+(%rd\d+), \1, 1;", l)]
    check(in_loop and not adds,
          "faces' counting copy adds no 1 to a 64-bit register in its loop "
          "(%d loop lines; adds: %s)" % (len(in_loop), "; ".join(adds) or "none"))
    # split_rows' loop (an `int` bound: below 2^31 trips) counts its two
    # data-dependent blocks in 32-bit registers.
    in_loop = loop_lines(ents[split])
    adds = [l.strip() for l in in_loop
            if re.search(r"add\.s64\s+(%rd\d+), \1, 1;", l)]
    adds32 = [l for l in in_loop
              if re.search(r"add\.s32\s+(%r\d+), \1, 1;", l)]
    check(in_loop and not adds and len(adds32) >= 2,
          "split_rows' counting copy adds 1 to two 32-bit registers in its "
          "loop, to no 64-bit one (64-bit adds: %s; 32-bit adds: %d)"
          % ("; ".join(adds) or "none", len(adds32)))
    # bit_planes' loop has 10 counted blocks, more than the 8 counters a
    # loop keeps in registers: the others are added in local memory.
    in_loop = loop_lines(ents[planes])
    local = [l for l in in_loop if re.search(r"\bst\.local\.", l)]
    check(in_loop and len(local) >= 2,
          "bit_planes' counting copy adds to counters in local memory in its "
          "loop (%d st.local)" % len(local))
    # partial_tiles: the partial tile's 4 guarded copies counted where
    # taken; the portion loop's counters flushed on its back edge.
    tiles = "_Z13partial_tilesPKiPiS1_xx"
    if tiles not in ents:
        sys.exit("FAIL: %s is not in %s" % (tiles, ptx))
    in_loop = loop_lines(ents[tiles])
    masks = [l for l in in_loop if "activemask" in l]
    scaled = [l for l in in_loop if "__pasta_flush_scaled" in l]
    check(len(masks) >= 4 and scaled,
          "partial_tiles' counting copy counts its partial tile's copies "
          "where taken (%d activemask reads in its loops, 4 wanted) and "
          "flushes on the portion loop's back edge (%d scaled flushes in it)"
          % (len(masks), len(scaled)))
    for k in (relax, rank, faces, split, planes):
        plain, counting = regs.get(k + "__pasta_plain"), regs.get(k)
        if plain is None or counting is None:
            sys.exit("FAIL: no ptxas register count for %s" % k)
        check(plain > 32 or counting <= 32,
              "%s: %d registers counting, %d plain (at most 32 when the "
              "plain copy fits in 32)" % (k, counting, plain))
    sys.exit(1 if check.failed else 0)


main()
