#!/usr/bin/env bash
# pasta-report show re-renders the launch, memory, working-set and bandwidth
# tables of a recorded profile (tests/fixtures/working_set.ws.json, from
# tests/gpu/working_set.cu). The expected lines follow from that program's
# design (its header comment), not from this output:
#   6 launches of 3 kernels, all counted; 5 device and 1 managed allocation;
#   median touched bytes 65636 B = 64.1 KiB, max 1 MiB; 64 accesses outside;
#   every kernel gets a bandwidth row; none has FLOPs, so all are memory-bound.
set -u
report=$1 fixture=$2
out=$("$report" show "$fixture") || { echo "pasta-report show failed"; exit 1; }
pass=0 fail=0
expect() {
  if grep -qF -- "$1" <<< "$out"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "missing: $1"; fi
}
expect "6 launches of 3 kernels, 6 counted"
expect "5 device allocations"
expect "1 managed allocations"
expect "median 64.1 KiB"
expect "max 1.0 MiB"
expect "64 accesses outside every known allocation (first: bump_global"
for k in fill copy bump_global; do
  if grep -qE "^  $k +[0-9]+ +[0-9]+ .* memory$" <<< "$out"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "no bandwidth row for $k"; fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
