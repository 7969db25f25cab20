#!/usr/bin/env python3
"""The working-set copies of tests/structures/captures/captures.cu check the
pointers their lambdas and functors captured against the allocation the
host found for each (launch slot PASTA_WS_MAX_ARGS + j, include/pasta/abi.h),
not through the thread's cache. Checked without a GPU, on three outputs of
the plugin:

- the device IR with the runtime left unlinked: every __pasta_ws_flag_arg
  call of a copy reads a slot's range from the launch state at offsets
  56 + 24 (32 + j) and + 8 (struct pasta_ws_arg), and the slots j read are
  the captured pointers' numbers (closure order, captures.cu's header);
  only Gather's src[16] and dst, fields 17 and 18, take the cache
  (__pasta_ws_flag, 2 calls);
- the PTX (runtime linked): the copies of the four kernels whose pointers
  all have slots never call __pasta_ws_mark_slow (the cache's miss path);
  Gather's does;
- the host assembly: the (parameter, offset) tables the host registers
  (__pasta_register_kernel_fields) are the same fields, parameter 1 (the
  functor; parameter 0 is n).

usage: check_ptx.py CLANG PLUGIN CUDA_PATH SOURCE WORKDIR
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from ptx_tools import Checks, ptx_entries, run  # noqa: E402

STATE_ARGS = 56  # offsetof(struct pasta_ws_launch, args)
ARG_SIZE = 24  # sizeof(struct pasta_ws_arg): base, end, flags
MAX_ARGS = 32  # PASTA_WS_MAX_ARGS

FOLD = "_Z8for_eachIZ4mainEUllE_EvlT_"
BLEND = "_Z8for_eachI5BlendEvlT_"
MID = "_Z8for_eachIZ4mainEUllE0_EvlT_"
OPTIONAL = "_Z8for_eachIZL12add_optionalPfPKflEUllE_EvlT_"
GATHER = "_Z8for_eachI6GatherEvlT_"
# The pointer fields with slots, by kernel (captures.cu's header); fold's
# in (field 2) is read in the fold loop, whose trip count the kernel reads
# from memory: its pages are flagged access by access in the loop, against
# its slot, not by a __pasta_ws_mark_loop call in front (a loop of a few
# iterations costs less so: passes/WorkingSetLoops.cpp).
SLOTS = {FOLD: {0, 1, 2}, BLEND: {0, 1, 2, 3}, MID: {0, 1}, OPTIONAL: {0, 1},
         GATHER: set(range(16))}
# (parameter, offset) of each pointer field the host registers.
FIELDS = {FOLD: [(1, 0), (1, 8), (1, 16)],
          BLEND: [(1, 8), (1, 16), (1, 24), (1, 32)],
          MID: [(1, 0), (1, 8)], OPTIONAL: [(1, 0), (1, 8)],
          GATHER: [(1, 8 * j) for j in range(16)]}


def ir_functions(ll):
    """The body of each defined function of an .ll file, by name."""
    out, name = {}, None
    for line in ll.splitlines():
        m = re.match(r"define .*@([\w$.]+)\(", line)
        if m:
            name = m.group(1)
            out[name] = [line]
        elif name is not None:
            out[name].append(line)
            if line == "}":
                name = None
    return out


def flag_arg_slots(body):
    """(slots j of the __pasta_ws_flag_arg calls, problems)."""
    # The state: the last parameter, its address (global) or, in a kernel's
    # copy, the state by value (abi.h: byval, the parameter space).
    state = re.search(r"ptr [^,]*?(%[\w.]+)\) [^(]*\{$", body[0])
    if not state:
        return set(), ["no launch-state parameter"]
    gep = {}  # value -> byte offset into the state
    loaded = {}  # value -> offset it was loaded from
    slots, bad = set(), []
    for line in body:
        m = re.match(r"\s*(%[\w.]+) = getelementptr inbounds i8, ptr "
                     r"(?:addrspace\(\d+\) )?" + re.escape(state.group(1)) +
                     r", i64 (\d+)", line)
        if m:
            gep[m.group(1)] = int(m.group(2))
        m = re.match(r"\s*(%[\w.]+) = load i64, ptr (?:addrspace\(\d+\) )?"
                     r"(%[\w.]+),", line)
        if m and m.group(2) in gep:
            loaded[m.group(1)] = gep[m.group(2)]
        m = re.search(r"call i64 @__pasta_ws_flag_arg\(i64 (%[\w.]+), "
                      r"i64 (%[\w.]+),", line)
        if m:
            base, end = loaded.get(m.group(1)), loaded.get(m.group(2))
            if base is None or end != base + 8:
                bad.append("a flag_arg call whose range is not a slot's: %s"
                           % line.strip())
                continue
            slot, rem = divmod(base - STATE_ARGS, ARG_SIZE)
            if rem:
                bad.append("offset %d is no slot's" % base)
            elif slot >= MAX_ARGS:
                slots.add(slot - MAX_ARGS)
            else:
                bad.append("slot %d is a pointer parameter's (for_each has "
                           "none)" % slot)
    return slots, bad


def ptx_calls(text):
    return re.findall(r"call(?:\.uni)?\s+(?:\([^)]*\),\s*)?(__pasta_\w+)", text)


def host_field_tables(asm):
    """Each .L__pasta_kernel_fields* table as [(parameter, offset)]."""
    tables, cur = [], None
    for line in asm.splitlines():
        if re.match(r"\.L__pasta_kernel_fields[\w.]*:$", line):
            cur = []
            tables.append(cur)
        elif cur is not None:
            m = re.match(r"\s*\.long\s+(\d+)", line)
            if m:
                cur.append(int(m.group(1)))
            elif not line.strip().startswith("#"):
                cur = None
    return sorted([tuple(zip(t[0::2], t[1::2])) for t in tables])


def main():
    clang, plugin, cuda, source, work = sys.argv[1:6]
    plugin, source = os.path.abspath(plugin), os.path.abspath(source)
    os.makedirs(work, exist_ok=True)
    common = [clang, "-x", "cuda", "--cuda-path=" + cuda,
              "--offload-arch=sm_90", "-Wno-unknown-cuda-version", "-O2",
              "-gline-tables-only", "-fpass-plugin=" + plugin]
    ll = os.path.join(work, "captures.unlinked.ll")
    run(common + ["--cuda-device-only", "-S", "-emit-llvm", "-mllvm",
                  "-pasta-link-runtime=0", source, "-o", ll])
    # One whole compile keeps the PTX and the host assembly.
    run(common + ["-c", "-save-temps", source, "-o", "captures.o"], cwd=work)
    ptx = asm = None
    for f in os.listdir(work):
        if f.endswith(".s") and "nvptx64" in f:
            ptx = open(os.path.join(work, f)).read()
        elif f.endswith(".s") and "host" in f:
            asm = open(os.path.join(work, f)).read()
    if ptx is None or asm is None:
        sys.exit("FAIL: -save-temps left no PTX or host assembly in " + work)
    check = Checks()

    funcs = ir_functions(open(ll).read())
    ents = ptx_entries(ptx)
    for k, want in SLOTS.items():
        copy = k + "__pasta_ws"
        if copy not in funcs or copy not in ents:
            sys.exit("FAIL: no working-set copy %s" % copy)
        body = funcs[copy]
        slots, bad = flag_arg_slots(body)
        for b in bad:
            check(False, "%s: %s" % (k, b))
        check(slots == want, "%s: flag_arg reads slots %s (want %s)"
              % (k, sorted(slots), sorted(want)))
        cached = sum(l.count("call i64 @__pasta_ws_flag(") for l in body)
        want_cached = 2 if k == GATHER else 0
        check(cached == want_cached, "%s: %d accesses through the cache "
              "(want %d)" % (k, cached, want_cached))
        slow = ptx_calls(ents[copy]).count("__pasta_ws_mark_slow")
        check((slow > 0) == (k == GATHER),
              "%s: the copy's PTX calls __pasta_ws_mark_slow %d times (%s)"
              % (k, slow, "its 17th and 18th fields" if k == GATHER
                 else "want none"))
    loops = sum(l.count("@__pasta_ws_mark_loop(") for l in funcs[FOLD + "__pasta_ws"])
    check(loops == 0, "fold: in's pages flagged in the fold loop, whose "
          "count is loaded (%d __pasta_ws_mark_loop calls, want 0)" % loops)
    tables = host_field_tables(asm)
    want = sorted(tuple(v) for v in FIELDS.values())
    check(tables == want, "the host registers the same fields: %s" % tables)
    sys.exit(1 if check.failed else 0)


main()
