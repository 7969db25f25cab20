# Shared by check_make_project.sh and check_cmake_project.sh (sourced):
# counting checks, and the checks on a built program that hold whichever
# build system made it.

passed=0 failed=0
check() { # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
    echo "ok   $what"
  else
    failed=$((failed + 1))
    echo "FAIL $what"
  fi
}

# toolchain_build PROJECT WORK PASTA_BUILD: configures PROJECT through
# cmake/pasta-toolchain.cmake (Ninja) into WORK/pasta and builds it: two
# checks, the logs' tails on failure (WORK/configure.log, WORK/pasta.log).
toolchain_build() {
  local project=$1 work=$2 pasta=$3 rc
  cmake -G Ninja -S "$project" -B "$work/pasta" \
    -DCMAKE_TOOLCHAIN_FILE="$here/../../cmake/pasta-toolchain.cmake" \
    -DPASTA_BUILD_DIR="$pasta" > "$work/configure.log" 2>&1
  rc=$?
  check "configure through pasta-toolchain.cmake succeeds" [ $rc = 0 ]
  [ $rc = 0 ] || tail -20 "$work/configure.log"
  cmake --build "$work/pasta" > "$work/pasta.log" 2>&1
  rc=$?
  check "the build succeeds" [ $rc = 0 ]
  [ $rc = 0 ] || tail -20 "$work/pasta.log"
}

# check_program APP LLVM_NM: the program links libpasta_rt.so, and the
# kernels of each kind of source file are instrumented (their plain copies
# are registered): a lambda through a template, Thrust's reduce, and the
# rdc kernel.
check_program() {
  local app=$1 nm=$2
  check "the program links libpasta_rt.so" \
    bash -c "readelf -d '$app' | grep -q 'NEEDED.*libpasta_rt.so'"
  "$nm" "$app" > "$app.symbols.txt" 2> /dev/null
  local kernel
  for kernel in _Z11scale_twicePfm \
    '_Z14for_each_indexIZ9run_saxpy' \
    '_ZN3cub17CUB_[0-9]*_SM_[0-9]*6detail6reduce18DeviceReduceKernel'; do
    check "instrumented (plain copy registered): $kernel" \
      grep -q "__pasta_handle_${kernel}.*__pasta_plain\$" "$app.symbols.txt"
  done
  # The device link happened: the rdc kernel (a library's, calling another
  # file's __device__ function) and its plain copy are in the device image.
  "$(dirname "$nm")/llvm-objcopy" -O binary --only-section=.nv_fatbin \
    "$app" "$app.fatbin" 2> /dev/null
  check "device-linked: the rdc kernel and its copy in the device image" \
    bash -c "grep -aqP '\.nv\.info\._Z11scale_twicePfm\x00' '$app.fatbin' &&
      grep -aqP '\.nv\.info\._Z11scale_twicePfm__pasta_plain\x00' '$app.fatbin'"
}

# plain_twin LOG COMMAND...: builds the twin with the real nvcc where one
# is installed (scripts/gpu_nvcc.sh compares them on a GPU); not needed to
# pass, and not built with PASTA_PLAIN_TWINS=0 (CI: scripts/test.sh).
plain_twin() {
  local log=$1
  shift
  if [ "${PASTA_PLAIN_TWINS:-1}" = 0 ]; then
    echo "note: no plain twin (PASTA_PLAIN_TWINS=0)"
    return
  fi
  if "$@" > "$log" 2>&1; then
    echo "note: plain twin built with the real nvcc"
  else
    echo "note: plain twin did not build with the real nvcc (see $log)"
  fi
}
