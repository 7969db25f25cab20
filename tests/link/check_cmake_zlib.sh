#!/bin/sh
# cmake_zlib/ configured with cmake/pasta-toolchain.cmake and -DPASTA_HOST=ON:
# CMake's own checks (compiler identification and ABI, which link test
# programs that are now instrumented) must succeed, so CMAKE_SIZEOF_VOID_P
# and CMAKE_LIBRARY_ARCHITECTURE are known and find_package(ZLIB) and
# find_library(m) work; the project builds, runs with the output of a plain
# build, and its profile counts the project's own function (5 calls).
# usage: check_cmake_zlib.sh CMAKE GENERATOR TOOLCHAIN_FILE PASTA_BUILD_DIR WORKDIR
set -eu
cmake=$1 generator=$2 toolchain=$3 pasta=$4 work=$5
here=$(cd "$(dirname "$0")" && pwd)
src=$here/cmake_zlib
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$cmake" -G "$generator" -S "$src" -B "$work/pasta" \
  -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DPASTA_BUILD_DIR="$pasta" \
  -DPASTA_HOST=ON > "$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "configure with PASTA_HOST=ON failed"; }
cache=$work/pasta/CMakeCache.txt
compiler=$(echo "$work/pasta/CMakeFiles/"*/CMakeCCompiler.cmake)
grep -q 'set(CMAKE_C_SIZEOF_DATA_PTR "8")' "$compiler" ||
  fail "CMake did not learn the pointer size (its ABI check failed)"
grep -q 'set(CMAKE_C_LIBRARY_ARCHITECTURE "..*")' "$compiler" ||
  fail "CMake did not learn the library architecture"
grep -q "^ZLIB_LIBRARY_RELEASE:FILEPATH=/" "$cache" ||
  grep -q "^ZLIB_LIBRARY:FILEPATH=/" "$cache" || fail "find_package(ZLIB) found no library"
grep -q "^MATH_LIBRARY:FILEPATH=/" "$cache" || fail "find_library(m) found nothing"
grep -q -- "-pasta-host=true" "$cache" || fail "PASTA_HOST=ON did not reach the flags"
echo "ok   configured: pointer size, zlib and libm found with PASTA_HOST=ON"
# With ccache as the project's compiler launcher (from the environment, as
# a developer's shell sets it), ccache must hash the pass plugin: it keys a
# compile by its command line, and an object instrumented by an earlier
# plugin came back from the cache (this test failed now and then on
# machines with ccache: its program needed ABI version 15 under a runtime
# of 16). Configure only; CMake's compiler check runs through the
# launcher, so ccache must be installed (scripts/setup.sh installs it).
if [ "$generator" = Ninja ]; then
  CMAKE_C_COMPILER_LAUNCHER=ccache "$cmake" -G "$generator" -S "$src" \
    -B "$work/ccache" -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
    -DPASTA_BUILD_DIR="$pasta" > "$work/configure-ccache.log" 2>&1 ||
    { cat "$work/configure-ccache.log"; fail "configure with a ccache launcher failed"; }
  grep -q "CCACHE_EXTRAFILES=$pasta/lib/libpasta.so ccache " \
    "$work/ccache/CMakeFiles/rules.ninja" ||
    fail "a ccache launcher does not hash the pass plugin (CCACHE_EXTRAFILES)"
  echo "ok   a ccache launcher hashes the pass plugin"
fi
"$cmake" --build "$work/pasta" > "$work/build.log" 2>&1 ||
  { cat "$work/build.log"; fail "build failed"; }

"$cmake" -G "$generator" -S "$src" -B "$work/plain" > /dev/null
"$cmake" --build "$work/plain" > /dev/null
"$work/plain/squeeze" > "$work/plain.out"
PASTA_OUTPUT="$work/squeeze.json" PASTA_QUIET=1 "$work/pasta/squeeze" > "$work/pasta.out" ||
  fail "the instrumented build failed"
cmp -s "$work/plain.out" "$work/pasta.out" || fail "stdout differs from the plain build's"
exec python3 "$here/../check_profile.py" "$work/squeeze.json" \
  host_functions:my_adler:calls=5 host_functions:main:calls=1
