#!/usr/bin/env bash
# GPU check of the program structures (tests/structures/README.md): each
# structure built by scripts/build_structures.sh runs instrumented, ends
# the way its mode says, and its profile must hold the hand-derived counts;
# the plain builds must pass too. Run on the GPU machine from the repository
# root over a staged tree:
#   here:  scripts/build_structures.sh build-gpu/structures &&
#          mkdir -p build-gpu/lib && cp build/lib/libpasta_rt.so build-gpu/lib/
#   there: run(command="bash scripts/gpu_structures.sh", carry=["build-gpu"])
# Results: $OUT/structures.md (a table) and $OUT/structures.log.
set -u
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
bin=${PASTA_STRUCTURES_BIN:-$PWD/build-gpu/structures}
export LD_LIBRARY_PATH=$PWD/build-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
log=$OUT/structures.log
: > "$log"
table=$OUT/structures.md
printf '| structure | how it ends | exit | program says | profile check |\n|---|---|---|---|---|\n' > "$table"
pass=0 fail=0
N=1048576
full="scale_a:launches=1 scale_a:load_bytes.global=$((4 * N)) scale_a:store_bytes.global=$((4 * N)) scale_a:flops.f32=$N add_b:launches=1 add_b:load_bytes.global=$((8 * N)) add_b:store_bytes.global=$((4 * N)) add_b:flops.f32=$N"

check() { # PROFILE EXPECTATION... -> prints "ok" or what differs
  python3 - "$@" <<'PY'
import json, sys
try:
    p = json.load(open(sys.argv[1]))
except Exception as e:
    print("no profile (%s)" % e); sys.exit(1)
bad = []
for spec in sys.argv[2:]:
    lhs, want = spec.split("=")
    kernel, path = lhs.split(":")
    rows = [k for k in p.get("kernels", []) if kernel in (k.get("mangled") or k.get("name", ""))]
    got = 0
    for k in rows:
        v = k
        for part in path.split("."):
            v = v[part]
        got += v
    if not rows or got != int(want):
        bad.append("%s=%s (got %s)" % (lhs, want, got if rows else "no kernel"))
print("ok" if not bad else "; ".join(bad))
sys.exit(1 if bad else 0)
PY
}

run() { # NAME MODE EXPECTED_STATUS PROG ARGS...
  local name=$1 mode=$2 want=$3
  shift 3
  local dir=$OUT/w-$(echo "$name-$mode" | tr -c "A-Za-z0-9_.\n-" _)
  rm -rf "$dir" && mkdir -p "$dir"
  (cd "$bin" && PASTA_OUTPUT=$dir/p.json PASTA_QUIET=0 timeout 120 "$@" > "$dir/out" 2> "$dir/err")
  local status=$?
  local said
  said=$(grep -o 'structures: [A-Za-z ]*' "$dir/out" | head -n 1)
  local result
  if [ "$mode" = fault ]; then
    if grep -q "failed on the GPU" "$dir/err" && grep -q "read_fault" "$dir/err" && [ -f "$dir/p.json" ]; then
      result="ok: profile written; $(grep -o 'launch [0-9]* (launch [0-9]* of kernel [^)]*)[^:]*: [^(]*(error [0-9]*)' "$dir/err" | head -n 1)"
    else
      result="no line naming the faulting launch"
    fi
  elif [ "$mode" = plain ]; then
    result=$([ "$said" = "structures: PASSED" ] && echo ok || echo "did not pass")
  else
    result=$(check "$dir/p.json" $full)
  fi
  { echo "== $name $mode (exit $status)"; cat "$dir/out" "$dir/err"; echo "-> $result"; } >> "$log"
  if [ "$status" = "$want" ] && [ "${result%%:*}" = ok ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); result="FAIL: $result"
  fi
  grep -q "driver shutting down" "$dir/err" && result="$result (read after the CUDA runtime's teardown)"
  printf '| %s | %s | %s | %s | %s |\n' "$name" "$mode" "$status" "$said" "$result" >> "$table"
}

run gcc_main plain 0 ./gcc_main.plain return
run cpp_main plain 0 ./cpp_main.plain
run "gcc main, kernels in 2 .cu" return 0 ./gcc_main return
run "gcc main, kernels in 2 .cu" exit-thread 0 ./gcc_main exit-thread
run "gcc main, kernels in 2 .cu" quick-exit 0 ./gcc_main quick-exit
run "gcc main, kernels in 2 .cu" reset 0 ./gcc_main reset
run "C++ main without kernels" return 0 ./cpp_main
run "kernels in a static library" return 0 ./static_main return
run "kernels in a shared library" return 0 ./shared_main return
run "kernels in a shared library" reset 0 ./shared_main reset
run "dlopen + dlclose" dlopen 0 ./dl_main dlopen ./libstructures_kernels.so
run "kernel faults" fault 3 ./gcc_main fault
cat "$table"
echo "$pass passed, $fail failed" | tee -a "$table"
