#!/bin/sh
# Host code instrumented by PASTA (PASTA_HOST=1 pasta-clang -c) in objects
# that plain gcc links: a static library linked into a gcc-compiled
# program, and a shared library linked by `gcc -shared` that the program
# opens with dlopen (host/*.c derive the counts). No link names the PASTA
# runtime, yet
#  - everything links (the runtime's symbols are weak references);
#  - the program runs with the stdout of its uninstrumented twin, loads the
#    runtime beside the plugin (ONE runtime for both libraries) and writes a
#    profile with the hand-derived counts;
#  - with the runtime missing (PASTA_RUNTIME at a path that does not exist)
#    or not a PASTA runtime of this ABI version, it runs with the same stdout,
#    writes no profile and says so in one line on stderr per instrumented
#    object that looked for it (the executable's static library and the
#    dlopen'ed library: two);
#  - linked with libpasta_rt.so, or with libpasta_rt.a, by gcc, the runtime
#    linked in is used (PASTA_RUNTIME is then ignored).
# usage: check_host_link.sh PASTA_BIN_DIR GCC WORKDIR
set -eu
bin=$1 gcc=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
src=$here/host
lib=$(cd "$bin/../lib" && pwd)
rm -rf "$work"
mkdir -p "$work"
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

# Instrumented objects; everything else, and every link, by gcc.
PASTA_HOST=1 "$bin/pasta-clang" -O2 -g -c "$src/vecops.c" -o vecops.o
ar rcs libvecops.a vecops.o
PASTA_HOST=1 "$bin/pasta-clang" -O2 -g -fPIC -c "$src/plugin.c" -o plugin.o
"$gcc" -shared plugin.o -o libplugin.so
"$gcc" -O2 -c "$src/main.c" -o main.o
"$gcc" main.o -L. -lvecops -o prog -ldl
echo "ok   gcc linked the instrumented static and shared libraries"
ldd prog | grep -q libpasta_rt && fail "prog names libpasta_rt"

# The uninstrumented twin.
"$gcc" -O2 -c "$src/vecops.c" -o vecops.plain.o
"$gcc" -O2 -fPIC -shared "$src/plugin.c" -o libplugin_plain.so
"$gcc" main.o vecops.plain.o -o prog.plain -ldl
./prog.plain ./libplugin_plain.so > plain.out

counts="host_functions:vec_dot:calls=3 host_functions:vec_scale:calls=2
  host_functions:plugin_sum:calls=4 host_functions:vec_dot:flops.f64=3000
  host_functions:vec_scale:flops.f32=1000 host_functions:plugin_sum:flops.f64=400"

# run NAME [ENV...]: runs PROG with ./libplugin.so, stdout to NAME.out,
# stderr to NAME.err, profile to NAME.json; the stdout must be the twin's.
run() {
  name=$1 exe=$2
  shift 2
  env PASTA_OUTPUT="$work/$name.json" PASTA_QUIET=1 "$@" "./$exe" ./libplugin.so \
    > "$name.out" 2> "$name.err" || fail "$name: exit status $?"
  cmp -s plain.out "$name.out" || fail "$name: stdout differs from the plain build's"
}

# One runtime, loaded by the first library's binder, found by the second;
# the same program linked by g++ where there is one.
exes=prog
gxx=$(dirname "$gcc")/g++
[ -x "$gxx" ] || gxx=$(command -v g++ || true)
if [ -n "$gxx" ]; then
  "$gxx" main.o -L. -lvecops -o prog.gxx -ldl
  exes="prog prog.gxx"
fi
for exe in $exes; do
  run "loaded-$exe" "$exe"
  [ -s "loaded-$exe.err" ] && { cat "loaded-$exe.err"; fail "$exe: unexpected stderr"; }
  # shellcheck disable=SC2086
  python3 "$here/../check_profile.py" "loaded-$exe.json" $counts
done

# The runtime missing, or not PASTA's: one warning line per instrumented
# object (the executable, the dlopen'ed library), no profile.
for bad in missing notpasta; do
  case $bad in
    missing) path=$work/gone/libpasta_rt.so want="cannot load the PASTA runtime $path" ;;
    notpasta) path=$work/libplugin_plain.so want="$path is not a PASTA runtime of ABI version" ;;
  esac
  run "$bad" prog PASTA_RUNTIME="$path"
  [ "$(wc -l < "$bad.err")" = 2 ] || { cat "$bad.err"; fail "$bad: want two lines on stderr"; }
  [ "$(grep -c "^pasta: warning: $want.*set PASTA_RUNTIME to" "$bad.err")" = 2 ] ||
    { cat "$bad.err"; fail "$bad: the warnings do not say '$want' and how to fix it"; }
  [ ! -e "$bad.json" ] || fail "$bad: a profile was written"
  echo "ok   $bad runtime: same stdout, one warning per object, no profile"
done

# gcc links the runtime itself: shared (through an rpath; Debian's gcc
# links --as-needed, which drops a library only weakly referred to), found
# by the dlopen'ed library's code too; or static (the executable's code
# only: a static runtime is not visible to libraries, docs/user-guide.md).
"$gcc" main.o -L. -lvecops -Wl,--no-as-needed "$lib/libpasta_rt.so" -Wl,-rpath,"$lib" \
  -o prog.shared -ldl
run prog.shared prog.shared PASTA_RUNTIME="$work/gone/libpasta_rt.so"
[ -s prog.shared.err ] && { cat prog.shared.err; fail "prog.shared: unexpected stderr"; }
# shellcheck disable=SC2086
python3 "$here/../check_profile.py" prog.shared.json $counts

"$gcc" main.o -L. -lvecops "$lib/libpasta_rt.a" -o prog.static -ldl -lm -pthread
nm prog.static | grep -q ' T __pasta_register_host_module' ||
  fail "prog.static does not hold the runtime (libpasta_rt.a pulled nothing)"
./prog.plain > static.plain.out
PASTA_OUTPUT="$work/prog.static.json" PASTA_QUIET=1 PASTA_RUNTIME="$work/gone/libpasta_rt.so" \
  ./prog.static > prog.static.out 2> prog.static.err || fail "prog.static: exit status $?"
cmp -s static.plain.out prog.static.out || fail "prog.static: stdout differs from the plain build's"
[ -s prog.static.err ] && { cat prog.static.err; fail "prog.static: unexpected stderr"; }
python3 "$here/../check_profile.py" prog.static.json host_functions:vec_dot:calls=3 \
  host_functions:vec_scale:calls=2 host_functions:vec_dot:flops.f64=3000
echo "host link check: passed"
