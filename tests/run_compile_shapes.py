#!/usr/bin/env python3
"""Compile-time shapes of issue [overhead-3] stay within a constant factor of
the plain code. Checked on code size, not time (time is what grew with it):

- device: a kernel inlining 3 device functions, each a loop of about 30
  statements with branches (bench/gen_compile_shapes.py inlined 3), compiled
  to PTX (no ptxas) with PASTA_DIVERGENCE=1: the divergence copy
  (__pasta_div) has at most 6.5 times the plain kernel's basic blocks
  (before [overhead-3]'s fix: 52 times; 9 after; 5.8 since an exit flush
  of more than 8 counters is out of line), its uncapped twin
  (__pasta_divu) is a stub of no block (the copy makes more than 50 calls
  of the divergence helpers; a full twin had as many blocks as the copy),
  and the counting kernel at most 1.25 times (4 times with the flush
  inline, 1.1 out of line). Without PASTA_DIVERGENCE, the working-set copy
  has at most 3.5 times the plain kernel's blocks (10 times before its flags
  were found without branches and set with one branch per batch of four;
  5.8 times after; 3.0 with the flush out of line). Its accesses are
  more than the default budget: built with PASTA_WS_COMPACT_ABOVE=100000,
  so that the inline flags are what is checked.
- device: a myocyte-like kernel calling 4 small device functions
  (gen_compile_shapes.py myocyte 4), two of them not inlined: the
  working-set copy of the kernel and of each device function has at most
  5.5 times the blocks of the plain function (before: 30 times for the
  kernel, 16 and 19 times for the device functions; 7.7, 6.6 and 7.2
  after; 4.8, 4.3 and 3.7 on 2026-11-29). The device functions get the kernel's
  pointers: their copies check them against the kernel parameters' ranges
  and call no full path that passes and returns the cache
  (__pasta_ws_mark_slow: 147 calls in myocyte 12, two fifths of its ptxas
  time). Its tree tracks more accesses than the default budget: compiled
  with PASTA_WS_COMPACT_ABOVE=100000, so that its copies find their flags
  inline, as every kernel within the budget does.
  Their full path (__pasta_ws_mark_uncached, which ptxas compiles again
  for every kernel that calls it) has at most 20 PTX blocks: it finds and
  sets one access's flag at a time (14; 56 with the four written out).
- device: gen_compile_shapes.py myocyte 12, whose kernel and its five
  device functions not inlined track over 800 accesses, more than the
  default budget (PASTA_WS_COMPACT_ABOVE=32): each working-set copy is
  compact and has at most 1.5 times the plain function's blocks (1.0 to
  1.4; 3.7 to 5.5 with the inline flags, whose ptxas time made the build
  6.7 times the plain one); by default compact copies of a tree over 256
  accesses buffer them: at most 60 calls of __pasta_ws_mark_buffer in all
  (31; 294 calls of __pasta_ws_mark_compact, one per batch of four, when
  the buffer was opt-in, which ptxas kept the copy's registers around: 218
  registers, 124 buffered).
- device: gen_compile_shapes.py myocyte 12 with PASTA_DIVERGENCE=1: the
  kernel's divergence copy calls the access helpers out of line, so its
  uncapped twin __pasta_divu is a stub of no basic block (a full twin
  doubled ptxas's time on the divergence code: 22.7x the plain build).
- device: gen_compile_shapes.py generic 14, a kernel of 14 generic
  loads (a run-time address-space group of counters each), with
  -pasta-flush-groups-out-of-line=8 (off by default): its counting kernel
  has at most 6 times the plain kernel's blocks, its working-set copy 7
  (13.5 and 14.7 with the exit flush's general path writing out each
  group's loop, as by default; 4.6 and 5.8 out of line); its capped copy
  keeps the inline path, at least 10 times (13.5).
- host: a C function of about 1,500 basic blocks and 500 counters
  (gen_compile_shapes.py host 1500), PASTA_HOST=1, -O2: its instrumented IR
  has at most 2.5 times the plain function's instructions (before: 27
  times, a flush point's code grew with the counters before it; 2.2 times
  after).

usage: run_compile_shapes.py GENERATOR CLANG PLUGIN CUDA_PATH WORKDIR
"""
import os
import re
import subprocess
import sys


def run(cmd, env=None):
    e = dict(os.environ)
    e.update(env or {})
    r = subprocess.run(cmd, env=e, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("FAIL: %s\n%s" % (" ".join(cmd), r.stderr[-2000:]))


def ptx_blocks(path):
    """Basic blocks ($L__BB labels) of each .entry and .func defined in a
    PTX file."""
    blocks, name = {}, None
    with open(path) as f:
        for line in f:
            m = re.match(r"(?:\.visible |\.weak )?\.(?:entry|func)\s+"
                         r"(?:\([^)]*\)\s*)?([\w$]+)\($", line.rstrip())
            if m:
                name = m.group(1)
                blocks[name] = 0
            elif name and line.startswith("$L__BB"):
                blocks[name] += 1
    return blocks


def ptx_lines(path, pattern):
    """Lines matching `pattern` in each .entry and .func defined in a PTX
    file."""
    lines, name = {}, None
    with open(path) as f:
        for line in f:
            m = re.match(r"(?:\.visible |\.weak )?\.(?:entry|func)\s+"
                         r"(?:\([^)]*\)\s*)?([\w$]+)\($", line.rstrip())
            if m:
                name = m.group(1)
                lines[name] = 0
            elif name and re.match(pattern, line):
                lines[name] += 1
    return lines


def ptx_calls(path, callee):
    """Calls of `callee` in each .entry and .func defined in a PTX file."""
    return ptx_lines(path, r"\s*call(\.uni)?\s.*\b%s\b" % callee)


def ir_instructions(path, function):
    """Instructions of one function of an LLVM IR file."""
    n, inside = 0, False
    with open(path) as f:
        for line in f:
            if line.startswith("define") and ("@%s(" % function) in line:
                inside = True
            elif inside and line.startswith("}"):
                break
            elif inside and re.match(r"  \S", line):
                n += 1
    return n


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    gen, clang, plugin, cuda, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    failed = 0

    def check(what, value, bound):
        nonlocal failed
        ok = value <= bound
        failed += not ok
        print("%s %s: %.1f (at most %s)" % ("ok  " if ok else "FAIL", what,
                                            value, bound))

    src = os.path.join(work, "inlined3.cu")
    run([sys.executable, gen, "inlined", "3", src])
    cuda_flags = [clang + "++", "-x", "cuda", "--cuda-path=" + cuda,
                  "--offload-arch=sm_90", "-Wno-unknown-cuda-version", "-O2",
                  "-gline-tables-only", "--cuda-device-only", "-S", src]
    plain, div = os.path.join(work, "plain.ptx"), os.path.join(work, "div.ptx")
    run(cuda_flags + ["-o", plain])
    run(cuda_flags + ["-fpass-plugin=" + plugin, "-o", div],
        {"PASTA_DIVERGENCE": "1"})
    kernel = "_Z14inlined_kernelPKfPfi"
    base = ptx_blocks(plain)[kernel]
    got = ptx_blocks(div)
    check("counting kernel / plain kernel, PTX basic blocks",
          got[kernel] / base, 1.25)
    if kernel + "__pasta_div" not in got:
        failed += 1
        print("FAIL no %s__pasta_div in %s" % (kernel, div))
    else:
        check("__pasta_div copy / plain kernel, PTX basic blocks",
              got[kernel + "__pasta_div"] / base, 6.5)
    # Its copy makes more than 50 calls of the divergence helpers: its
    # uncapped twin is a stub (a full one doubled ptxas's work).
    check("%s__pasta_divu (a stub), PTX basic blocks" % kernel,
          got.get(kernel + "__pasta_divu", 1e9), 0)

    plain_ws = os.path.join(work, "ws.ptx")
    run(cuda_flags + ["-fpass-plugin=" + plugin, "-o", plain_ws],
        {"PASTA_WS_COMPACT_ABOVE": "100000"})
    check("working-set copy / plain kernel, PTX basic blocks",
          ptx_blocks(plain_ws).get(kernel + "__pasta_ws", 1e9) / base, 3.5)

    def myocyte(n, env=None, extra=()):
        """A myocyte shape of n functions compiled plain and with the plugin
        (env its environment, extra more flags): the PTX blocks of each, the
        plugin's PTX."""
        msrc = os.path.join(work, "myocyte%d.cu" % n)
        run([sys.executable, gen, "myocyte", str(n), msrc])
        mflags = cuda_flags[:-1] + [msrc]
        mplain, mcount = (os.path.join(work, "myocyte%d.plain.ptx" % n),
                          os.path.join(work, "myocyte%d.ptx" % n))
        run(mflags + ["-o", mplain])
        run(mflags[:-1] + list(extra) +
            [mflags[-1], "-fpass-plugin=" + plugin, "-o", mcount], env)
        return ptx_blocks(mplain), ptx_blocks(mcount), mcount

    def original(copy):
        """K__pasta_ws copies K; F__pasta_callee__pasta_ws, F's twin,
        copies F."""
        return copy[:-len("__pasta_ws")].replace("__pasta_callee", "")

    # Above the default budget too: the inline flags checked here.
    plain_blocks, got, mcount = myocyte(4, {"PASTA_WS_COMPACT_ABOVE": "100000"})
    copies = [f for f in got if f.endswith("__pasta_ws")]
    if len(copies) < 2:
        failed += 1
        print("FAIL fewer than two working-set copies in %s" % mcount)
    for copy in sorted(copies):
        orig = original(copy)
        check("%s / %s, PTX basic blocks" % (copy, orig),
              got[copy] / max(1, plain_blocks.get(orig, 0)), 5.5)
    slow = ptx_calls(mcount, "__pasta_ws_mark_slow")
    check("calls of __pasta_ws_mark_slow in the working-set copies",
          sum(slow.get(copy, 0) for copy in copies), 0)
    # The copies' full path, compiled again with every kernel that calls
    # it: one access at a time (14 blocks; 56 written out per access).
    full = ptx_blocks(mcount)
    if "__pasta_ws_mark_uncached" not in full:
        failed += 1
        print("FAIL no __pasta_ws_mark_uncached in %s" % mcount)
    check("__pasta_ws_mark_uncached, PTX basic blocks",
          full.get("__pasta_ws_mark_uncached", 1e9), 20)

    # myocyte 12: its kernel's tree tracks over 800 accesses, above the
    # default budget (PASTA_WS_COMPACT_ABOVE=32): compact copies, nothing
    # inline, as many blocks as the counting code, their accesses buffered:
    # a call of __pasta_ws_mark_buffer before and at the end of each loop
    # iteration, at returns and where the buffer may be full: by default
    # for trees over 256 accesses (-pasta-ws-buffer-above; Onesweep's 123
    # keep a call per batch, the buffer cost their run time).
    plain_blocks, got, bcount = myocyte(12)
    copies = sorted(f for f in got if f.endswith("__pasta_ws"))
    buffered = ptx_calls(bcount, "__pasta_ws_mark_buffer")
    batches = ptx_calls(bcount, "__pasta_ws_mark_compact")
    if len(copies) < 6 or not all(buffered.get(c, 0) for c in copies) or \
            any(batches.get(c, 0) for c in copies):
        failed += 1
        print("FAIL not six buffered compact working-set copies in %s" %
              bcount)
    check("myocyte 12 working-set copies, calls of __pasta_ws_mark_buffer",
          sum(buffered.get(c, 0) for c in copies), 60)
    # Their accesses' words are constants of the calls where one access
    # only can be in a slot there: stored (an immediate other than the
    # slots' zeroing at entry) only where several can (991 stored before).
    words = ptx_lines(bcount, r"\s*st\.local\.b64\s+\[[^]]+\],\s*[1-9]")
    check("myocyte 12 working-set copies, words stored",
          sum(words.get(c, 0) for c in copies), 60)
    # Without -fgpu-rdc the device functions nothing calls (the parts the
    # kernel inlined, and those whose calls all went to their counting
    # twins) are left out: ptxas drops them; their counting cost the
    # compile (12 were there).
    parts = [f for f in got if re.match(r"_Z\d+part\d+fPKfPfS0_i$", f)]
    check("myocyte 12 counting build, device functions nothing calls",
          len(parts), 0)
    for copy in copies:
        orig = original(copy)
        check("myocyte 12 %s / %s, PTX basic blocks" % (copy, orig),
              got[copy] / max(1, plain_blocks.get(orig, 0)), 1.5)

    # myocyte 12 with PASTA_DIVERGENCE=1: its kernel's divergence copy
    # calls the access helpers out of line (547 calls with its device
    # functions' copies), so it gets no uncapped twin, only the stub the
    # runtime never launches: ptxas compiled the twin, 18.7 of its 44 s.
    _, got, dcount = myocyte(12, {"PASTA_DIVERGENCE": "1"})
    mkernel = "_Z14myocyte_kernelPfS_PKfi"
    if mkernel + "__pasta_div" not in got:
        failed += 1
        print("FAIL no %s__pasta_div in %s" % (mkernel, dcount))
    check("myocyte 12 %s__pasta_divu (a stub), PTX basic blocks" % mkernel,
          got.get(mkernel + "__pasta_divu", 1e9), 0)

    # generic 14: 14 sites' run-time address-space groups, whose exit flush
    # takes its general path out of line (one call, the counters staged)
    # with -pasta-flush-groups-out-of-line=8 (off by default: the capped
    # copy ran slower): written out, each group's loop follows the fast
    # path's, in every copy (13.5 and 14.7 times the plain kernel's blocks;
    # 4.6 and 5.8 out of line).
    gsrc = os.path.join(work, "generic14.cu")
    run([sys.executable, gen, "generic", "14", gsrc])
    gflags = cuda_flags[:-1] + [gsrc]
    gplain, gcount = (os.path.join(work, "generic.plain.ptx"),
                      os.path.join(work, "generic.count.ptx"))
    run(gflags + ["-o", gplain])
    run(gflags + ["-fpass-plugin=" + plugin, "-mllvm",
                  "-pasta-flush-groups-out-of-line=8", "-o", gcount])
    gkernel = "_Z14generic_kernelPfS_i"
    gbase = ptx_blocks(gplain)[gkernel]
    got = ptx_blocks(gcount)
    for copy in ("", "__pasta_ws"):
        check("generic 14 %s / plain kernel, PTX basic blocks"
              % (gkernel + copy), got.get(gkernel + copy, 1e9) / gbase,
              6 if copy != "__pasta_ws" else 7)
    # The capped copy keeps the inline path (out of line, under .maxnreg 64,
    # it ran 1.46x slower on an H200): each group's loop written out.
    capped = got.get(gkernel + "__pasta_capped", 0) / gbase
    failed += capped < 10
    print("%s generic 14 %s__pasta_capped / plain kernel, PTX basic blocks: "
          "%.1f (at least 10: the inline path)"
          % ("ok  " if capped >= 10 else "FAIL", gkernel, capped))

    csrc = os.path.join(work, "host1500.c")
    run([sys.executable, gen, "host", "1500", csrc])
    host_flags = [clang, "-O2", "-gline-tables-only", "-S", "-emit-llvm", csrc]
    hplain, hcount = (os.path.join(work, "host.plain.ll"),
                      os.path.join(work, "host.count.ll"))
    run(host_flags + ["-o", hplain])
    run(host_flags + ["-fpass-plugin=" + plugin, "-o", hcount],
        {"PASTA_HOST": "1"})
    check("host function of 1,500 blocks: instrumented / plain IR "
          "instructions", ir_instructions(hcount, "big") /
          max(1, ir_instructions(hplain, "big")), 2.5)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
