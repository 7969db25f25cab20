#!/bin/sh
# What PASTA_OUTPUT may name (host_rt/output_file.h): the program always
# runs to its end and prints its result; the profile goes into a fifo that
# a process reads, the null device, /proc/self/fd/1, or in place of a
# symbolic link (never through it: the file it names is untouched); a fifo
# nobody reads, a directory and a device node get one error line and stay
# what they were.
# usage: run_host_outputs.sh CLANG PLUGIN RUNTIME_LIB SOURCE_DIR WORKDIR
set -eu
clang=$1 plugin=$2 rt=$3 src=$4 work=$5
rm -rf "$work"
mkdir -p "$work"
exe="$work/dot_scale"
PASTA_HOST=1 "$clang" -O2 -g -fpass-plugin="$plugin" "$src/host/dot_scale.c" \
  -o "$exe" "$rt"
fail=0
# run NAME OUTPUT: runs the program, its stdout in $work/NAME.out, stderr in
# $work/NAME.err; the program must pass.
run() {
  PASTA_OUTPUT=$2 PASTA_QUIET=1 "$exe" >"$work/$1.out" 2>"$work/$1.err" || {
    echo "FAIL $1: the program failed"; fail=1; }
  grep -q "dot_scale: PASSED" "$work/$1.out" || {
    echo "FAIL $1: no result"; fail=1; }
}
expect() { # expect NAME CONDITION...
  name=$1; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
has() { grep -qF "$2" "$1"; }

mkfifo "$work/fifo"
run fifo-no-reader "$work/fifo"
expect "fifo without a reader: error line" has "$work/fifo-no-reader.err" \
  "pasta: error: cannot write the profile: $work/fifo is a named pipe that no process is reading"
expect "fifo without a reader: still a fifo" test -p "$work/fifo"

cat "$work/fifo" >"$work/from-fifo.json" &
reader=$!
sleep 1 # the reader has the fifo open
run fifo-reader "$work/fifo"
wait $reader
expect "fifo with a reader: it gets the profile" has "$work/from-fifo.json" \
  '"schema":"pasta-profile"'
expect "fifo with a reader: still a fifo" test -p "$work/fifo"

mkdir "$work/dir"
run dir "$work/dir"
expect "directory: error line" has "$work/dir.err" \
  "pasta: error: cannot write the profile: $work/dir is a directory, not a file"

# The null device under another name where we may make one (as root: a
# broken runtime must never get to replace the real /dev/null), else the
# real one (which only root could replace).
null=/dev/null
if mknod "$work/null" c 1 3 2>/dev/null; then null=$work/null; fi
run null "$null"
expect "null device: no error" test ! -s "$work/null.err"
expect "null device: still a device" test -c "$null"

# /proc/self/fd/1 rather than /dev/stdout, for the same reason.
run stdout /proc/self/fd/1
expect "/proc/self/fd/1: the profile on stdout" has "$work/stdout.out" \
  '"schema":"pasta-profile"'

echo old >"$work/target.json"
# A profile of an earlier run: a minute old. One written just before the
# program starts can carry a later time than the program's start
# (CLOCK_REALTIME_COARSE against the file system's finer timestamps, Linux
# 6.13 and later), and is then kept as another process's file: erring
# toward keeping data, which host-e2e-fork relies on.
touch -d "@$(($(date +%s) - 60))" "$work/target.json"
ln -s "$work/target.json" "$work/link.json"
run link "$work/link.json"
expect "link: replaced by the profile" has "$work/link.json" \
  '"schema":"pasta-profile"'
expect "link: no longer a link" test ! -L "$work/link.json"
expect "link: the file it named is untouched" test "$(cat "$work/target.json")" = old
expect "link: nothing said" test ! -s "$work/link.err"

# A device node other than /dev/null (made where we may: as root).
if mknod "$work/zero" c 1 5 2>/dev/null; then
  run device "$work/zero"
  expect "device: error line" has "$work/device.err" \
    "pasta: error: cannot write the profile: $work/zero is a device, not a file; nothing was written to it"
  expect "device: still a device" test -c "$work/zero"
else
  echo "skip device node (mknod not permitted)"
fi
left=$(find "$work" -name '.*pasta-*' | wc -l)
expect "no temporary file left" test "$left" -eq 0
exit $fail
