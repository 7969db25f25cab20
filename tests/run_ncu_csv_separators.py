#!/usr/bin/env python3
"""The readers of Nsight Compute CSV in scripts/ and bench/ on recorded
output whose numbers carry thousands separators.

The ncu on the GPU machine (CUDA 13) prints "33,779,728" even with
`--csv --print-units base`. The fixtures (tests/fixtures/ncu/separators/)
are recorded output trimmed to a few rows:
  raw.ncu.csv      `--csv --page raw --print-units base --print-kernel-base
                   mangled` of NVIDIA's Jacobi solver (round 16, H200): the
                   first launch of each kernel, FLOP metrics and time
  details.ncu.csv  `--csv` (one metric a row, "Metric Value") of bfs's
                   kernel (session 22, H200): its time
Every expected value below is read off the fixtures by hand, separators
dropped; a reader that stops at the first comma or rejects the value fails.

usage: run_ncu_csv_separators.py REPO_ROOT
"""
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
sys.path.insert(0, os.path.join(root, "scripts"))
sys.path.insert(0, os.path.join(root, "bench"))
fixtures = os.path.join(root, "tests", "fixtures", "ncu", "separators")
RAW = os.path.join(fixtures, "raw.ncu.csv")
DETAILS = os.path.join(fixtures, "details.ncu.csv")

import bandwidth_table  # noqa: E402
import compare_ncu  # noqa: E402
import ncu_kernel_times  # noqa: E402
import short_kernels_table  # noqa: E402

JACOBI = "_Z13jacobi_kernelILi32ELi32EEvPfPKfS0_iiib"
EDGE = "_Z13jacobi_kernelILi128ELi1EEvPfPKfS0_iiib"
INIT = "_Z21initialize_boundariesPfS_fiiii"
failures = []


def expect(what, got, want):
    ok = got == want
    print(f"{'ok  ' if ok else 'FAIL'} {what}: {got!r}" +
          ("" if ok else f" (want {want!r})"))
    if not ok:
        failures.append(what)


# compare_ncu.py (and compare_divergence.py, which reads through it).
k = compare_ncu.read_ncu(RAW)
m = k.get(JACOBI, {})
expect("compare_ncu fadd", m.get("smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"),
       33779728.0)
expect("compare_ncu hfma", m.get("smsp__sass_thread_inst_executed_op_hfma_pred_on.sum"),
       4194304.0)
# 33,779,728 + 8,372,232 + 2 x 0; f16: 2 x 4,194,304.
expect("compare_ncu f32 FLOPs", compare_ncu.ncu_flops(m, "f32"), 42151960)
expect("compare_ncu f16 FLOPs", compare_ncu.ncu_flops(m, "f16"), 8388608)
# 4,096 + 8,193 + 2 x 36,872.
expect("compare_ncu f64 FLOPs", compare_ncu.ncu_flops(k.get(INIT, {}), "f64"),
       86033)
expect("compare_ncu time", k.get(EDGE, {}).get("gpu__time_duration.sum"), 2560.0)

# ncu_kernel_times.py (gpu_real_programs.sh, gpu_ws_before_after.sh, ...).
t = ncu_kernel_times.launch_times(RAW)
expect("ncu_kernel_times", t.get(JACOBI), [30880.0])
expect("ncu_kernel_times initialize", t.get(INIT), [3648.0])
# --metric reads another column of the same rows (the fadd count above).
ncu_kernel_times.METRIC = "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"
expect("ncu_kernel_times --metric", ncu_kernel_times.launch_times(RAW).get(JACOBI),
       [33779728.0])
ncu_kernel_times.METRIC = "gpu__time_duration.sum"

# bench/short_kernels_table.py (in microseconds).
expect("short_kernels_table", short_kernels_table.launch_times([RAW]).get(EDGE),
       [2.56])

# bandwidth_table.py reads the one-metric-a-row form.
b = bandwidth_table.ncu_kernels(DETAILS)
expect("bandwidth_table seconds", b.get("bfs_expand_kernel", [0, 0, 0])[1],
       27264 * 1e-9)

if failures:
    print("RESULT: FAIL: " + ", ".join(failures))
    sys.exit(1)
print("RESULT: ok")
