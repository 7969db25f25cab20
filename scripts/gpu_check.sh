#!/usr/bin/env bash
# GPU validation run for the bundled kernels. Runs on the GPU machine, from
# the repository root, over a tree built on a development machine
# (`scripts/setup.sh && cmake ... && ninja -C build`); the GPU machine has no
# clang. Stage the executables with scripts/stage_gpu.sh, then through the
# device tool: run(command="PASTA_KERNEL_BIN=build-gpu/bin/kernels bash
# scripts/gpu_check.sh", carry=["build-gpu"]).
#
# For every kernel program it
#  1. runs the plain and the instrumented build at the default size and checks
#     both pass and print the same checksum (results unchanged);
#  2. profiles the plain build with Nsight Compute (the ground truth) and
#     compares PASTA's counts with it (scripts/compare_ncu.py);
#  3. tables the registers, local memory and occupancy of each kernel's
#     plain and counting copies from the profiles ($OUT/resources.md);
# Kernel time overhead is measured by scripts/gpu_bench.sh.
# Results: $OUT/validation.md, logs in $OUT/work.tar.gz.
set -u
OUT=${OUT:-$PWD/gpu-out}
W=$OUT/work
mkdir -p "$W"
BIN=${PASTA_KERNEL_BIN:-build/bin/kernels}
# One line of names separated by blanks: the line-range loop below matches
# " $KERNELS " against " <name> ".
KERNELS=${KERNELS:-$(sed -n 's/^\([a-z_0-9]*\) .*/\1/p' test_kernels/bench_sizes.txt | grep -v launch_overhead | tr '\n' ' ')}

. "$(dirname "$0")/lib/gpu.sh"
NCU=$(pasta_find_ncu)
[ -x "$NCU" ] || { echo "gpu_check: ncu not found"; exit 1; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > "$W/gpu.csv"
"$NCU" --version > "$W/ncu-version.txt" 2>&1

# The Nsight Compute metrics PASTA's counts are compared with
# (scripts/compare_ncu.py says how).
METRICS=$(tr -d ' \n' < scripts/ncu_metrics.txt)

status=0
for k in $KERNELS; do
  echo "== $k"
  # The optional third column of bench_sizes.txt: a smaller validation size.
  size=$(awk -v k="$k" '$1 == k && NF >= 3 { print $3 }' test_kernels/bench_sizes.txt)
  "$BIN/$k" $size > "$W/$k.plain.out" 2>&1; rc_plain=$?
  PASTA_OUTPUT="$W/$k.json" "$BIN/$k-pasta" $size > "$W/$k.pasta.out" 2> "$W/$k.pasta.err"; rc_pasta=$?
  cat "$W/$k.plain.out" "$W/$k.pasta.out"
  if [ $rc_plain -ne 0 ] || [ $rc_pasta -ne 0 ] ||
     ! cmp -s "$W/$k.plain.out" "$W/$k.pasta.out"; then
    echo "gpu_check: $k: results differ or failed (plain rc=$rc_plain, pasta rc=$rc_pasta)"
    status=1
  fi
  "$NCU" --csv --page raw --print-units base --metrics "$METRICS" \
    --log-file "$W/$k.ncu.csv" "$BIN/$k" $size > /dev/null 2>&1 || status=1

done

# What instrumentation did to each kernel's registers, local memory and
# occupancy, as the runtime read them at its first launch (the profiles
# above; docs/performance.md, "Registers, spills and occupancy").
python3 scripts/resources_table.py $(for k in $KERNELS; do echo "$W/$k.json"; done) \
  > "$OUT/resources.md" || echo "gpu_check: no resources in the profiles"
cat "$OUT/resources.md"

# How counts are collected when main does not simply return
# (tests/gpu/exit_paths.cu): through main's return, through exit(), and
# across a cudaDeviceReset (the counts are saved before it), the profile must
# be exact.
for mode in return exit reset; do
  PASTA_OUTPUT="$W/exit_$mode.json" "$BIN/exit_paths-pasta" $mode \
    > "$W/exit_$mode.out" 2> "$W/exit_$mode.err"; rc=$?
  echo "exit_paths $mode: rc=$rc $(cat "$W/exit_$mode.out")"
  [ $rc -eq 0 ] || status=1
  grep "pasta: warning" "$W/exit_$mode.err" && status=1
  python3 tests/check_profile.py "$W/exit_$mode.json" kernels:fill_ones:launches=1 \
    kernels:fill_ones:store_bytes.global=16384 || status=1
done

# Every GPU holds its own counters (tests/gpu/multi_gpu.cu): the profile must
# sum them. With G GPUs: G launches, G * 16384 store bytes.
gpus=$(nvidia-smi -L | wc -l); [ "$gpus" -gt 8 ] && gpus=8
PASTA_OUTPUT="$W/multi_gpu.json" "$BIN/multi_gpu-pasta" > "$W/multi_gpu.out" 2> "$W/multi_gpu.err" || status=1
echo "multi_gpu ($gpus GPUs): $(cat "$W/multi_gpu.out")"
grep "pasta: warning" "$W/multi_gpu.err" && status=1
python3 tests/check_profile.py "$W/multi_gpu.json" kernels:fill_device_id:launches=$gpus \
  kernels:fill_device_id:store_bytes.global=$((gpus * 16384)) || status=1

# Relocatable device code (tests/gpu/rdc_*.cu): both units' kernels counted.
PASTA_OUTPUT="$W/rdc.json" "$BIN/rdc-pasta" > "$W/rdc.out" 2> "$W/rdc.err" || status=1
echo "rdc: $(cat "$W/rdc.out")"
grep "pasta: warning" "$W/rdc.err" && status=1
python3 tests/check_profile.py "$W/rdc.json" kernels:add_one:launches=1 \
  kernels:add_one:load_bytes.global=128 kernels:add_one:store_bytes.global=128 \
  kernels:add_one:flops.f32=32 kernels:double_it:launches=1 \
  kernels:double_it:store_bytes.global=128 kernels:double_it:flops.f32=32 || status=1

# Line-range builds (the seed report's Table 1, test_kernels/CMakeLists.txt):
# each must still compute the same result, counting only its lines.
for exe in "$BIN"/*-lines*; do
  name=$(basename "$exe")
  case " $KERNELS " in *" ${name%%-lines*} "*) ;; *) continue ;; esac
  PASTA_OUTPUT="$W/$name.json" "$exe" > "$W/$name.out" 2> "$W/$name.err" || status=1
  cmp -s "$W/$name.out" "$W/${name%%-lines*}.plain.out" || { echo "$name: result differs"; status=1; }
done
python3 scripts/line_range_table.py "$W" > "$OUT/line_ranges.md" || status=1
cat "$OUT/line_ranges.md"

# Program structures (tests/structures/README.md): every structure plain and
# instrumented, each profile against the counts its source derives by hand
# (scripts/gpu_structures.sh; table in $OUT/structures.md, logs in
# $OUT/structures.log). Staged next to the kernels by scripts/stage_gpu.sh.
PASTA_STRUCTURES_BIN=${PASTA_STRUCTURES_BIN:-$(dirname "$BIN")/structures} \
  OUT=$OUT bash scripts/gpu_structures.sh > /dev/null 2>&1 || status=1
cat "$OUT/structures.md"

python3 scripts/compare_ncu.py --work "$W" --kernels $KERNELS \
  --validation "$OUT/validation.md" || status=1
cat "$OUT/validation.md"
tar czf "$OUT/work.tar.gz" -C "$OUT" work && rm -rf "$W"
exit $status
