#!/usr/bin/env bash
# Runs tests/exit/exit_paths MODE in a fresh directory and checks its
# profile (the expected counts are derived in exit_paths.c's header).
# usage: run_exit_paths.sh EXE LIB CHECK_PROFILE MODE
set -u
exe=$1 lib=$2 check=$3 mode=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
PASTA_OUTPUT=$work/p.json "$exe" "$mode" "$lib" > out.txt 2> err.txt
status=$?
cat out.txt err.txt
fail() { echo "FAILED: $*"; echo "0 passed, 1 failed"; exit 1; }
[ -f p.json ] || fail "no profile written"
grep -q "driver shutting down" err.txt && fail "the profile was read after the vendor runtime's teardown"
app="kernels:app_kernel"
# The registers, local memory and blocks per SM the fake vendor gives the
# kernel's counting kernel (40, 16 bytes, 6) and plain copy (32, 0, 8), read
# once at its first launch, are in the profile and in the report's note
# (on a GPU of 2048 threads per SM, blocks of 256 threads: 75% and 100%).
if [ "$mode" = return ]; then
  grep -q "note: the counting copy raised registers 32 -> 40, raised local memory (stack, spills) 0 -> 16 bytes per thread and lowered occupancy 100% -> 75%" err.txt ||
    fail "no note on the counting copy's resources"
  python3 - p.json <<'PY' || fail "the profile's resources"
import json, sys
k = [k for k in json.load(open(sys.argv[1]))["launches"]["kernels"]
     if k["name"] == "app_kernel"][0]
r = k["resources"]
sys.exit(0 if (r["block_threads"], r["plain"]["registers"], r["counting"]["registers"],
               r["counting"]["local_bytes"], r["plain"]["blocks_per_sm"],
               r["counting"]["blocks_per_sm"], r["counting"]["occupancy"])
         == (256, 32, 40, 16, 8, 6, 0.75) else 1)
PY
fi
case $mode in
  return | exit-thread | quick-exit)
    [ $status = 0 ] || fail "exit status $status"
    exec python3 "$check" p.json $app:launches=3 $app:stores.global=3072 \
      $app:store_bytes.global=12288 ;;
  dlclose)
    [ $status = 0 ] || fail "exit status $status"
    exec python3 "$check" p.json $app:launches=3 $app:stores.global=3072 \
      kernels:lib_kernel:launches=1 kernels:lib_kernel:stores.global=512 \
      kernels:lib_kernel:store_bytes.global=2048 ;;
  reset | atexit)
    [ $status = 0 ] || fail "exit status $status"
    exec python3 "$check" p.json $app:launches=4 $app:stores.global=4096 \
      $app:store_bytes.global=16384 ;;
  fault)
    [ $status = 1 ] || fail "exit status $status (the program sees its fault)"
    grep -q "pasta: error: device counts are missing: launch 2 (launch 3 of kernel 'app_kernel') failed on the GPU: an illegal memory access was encountered (error 700)" err.txt ||
      fail "no line naming the faulting launch"
    grep -q "no instrumented function was registered" err.txt &&
      fail "says no function was registered"
    grep -q "1 instrumented device module could not be read" err.txt ||
      fail "does not say a module could not be read"
    # The host's launch records are in the profile.
    exec python3 - p.json <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
k = [k for k in p["launches"]["kernels"] if k["name"] == "app_kernel"]
ok = len(k) == 1 and k[0]["launches"] == 3
print("launch records: " + ("ok" if ok else "wrong: %r" % k))
print("%d passed, %d failed" % (ok, not ok))
sys.exit(0 if ok else 1)
PY
    ;;
esac
fail "unknown mode $mode"
