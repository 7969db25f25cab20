#!/bin/sh
# scripts/compare_ncu.py on recorded data (tests/fixtures/ncu: VanitySearch's
# comp_keys_comp, two launches of `VanitySearch -g 4,32 -check` on an H200,
# 2026-11-30: PASTA's profile of the pasta-nvcc build, Nsight Compute's
# ncu_metrics.txt on the clang-plain build, both trimmed to what the script
# reads), then on a small synthetic profile of two kernels. Every figure
# below is derived by hand from the fixtures.
# usage: run_compare_ncu_recorded.sh COMPARE_NCU.PY FIXTURES WORKDIR
set -eu
script=$1 fixtures=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
cp "$fixtures"/v-check.json "$fixtures"/v-check.ncu.csv "$fixtures"/gpu.csv "$work/"
python3 "$script" --work "$work" --kernels v-check --validation "$work/table.md" || true
check() {
  grep -qF -- "$1" "$work/table.md" && return
  echo "FAIL: the table lacks '$1'"
  cat "$work/table.md"
  exit 1
}
# The kernel's 16,384 global load bytes and its device function CheckPoint's
# 3,145,728 (several kernels reach CheckPoint, so the profile lists it apart;
# only comp_keys_comp ran). ncu's global 14,730,016 is all generic bytes: its
# shared figure is the same and PASTA counted no shared access.
check "| 3,162,112 / 0 + 14,730,016 generic "
check "| 0 / 0 + 14,730,016 generic = |"
# Local loads: the kernel 127,926,272 + CheckPoint 3,146,588 + RIPEMD160
# 132,120,576 + SHA256 201,326,592 + _ModInv 83,680 + _ModInvGrouped
# 71,327,744, against ncu's LDL bytes 8,841,294 + 8,841,170 (shown).
check "| 535,931,452 / 17,682,464 "
# Where the generic bytes went: global + local, 3,162,112 + 535,931,452;
# all of ncu's global bytes are generic, so nothing checks PASTA's global.
check "PASTA's global + local 539,093,564 against ncu's global 14,730,016: not checked (all of ncu's global bytes are generic)"
# Atomics: 43 hits in PASTA's run, 48 in ncu's (the check draws random keys
# each run): still required, so the verdict is NO for that reason alone.
check "| 172 / 192 -10.42% |"
check "Required agreements hold: NO"

# Synthetic (two-kernels.*): two kernels ran, and a device function both
# reach, listed apart with 40 load bytes. Each kernel alone is below ncu's
# (100 < 120, 50 < 30 + 30), all of them with the function are not:
# 100 + 50 + 40 = 190 against 120 + 60, stores 8 + 8 against 8 + 4 + 4.
cp "$fixtures"/two-kernels.json "$fixtures"/two-kernels.ncu.csv "$work/"
python3 "$script" --work "$work" --kernels two-kernels --validation "$work/table.md" || true
check "| two-kernels | all kernels + shared_helper(float*) | 3 / 3 |"
check "| 190 / 180 +5.56% |"
check "| 16 / 16 = |"
check "Required agreements hold: yes"
echo "compare_ncu on recorded data: ok"
