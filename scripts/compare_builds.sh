#!/usr/bin/env bash
# Shows that two builds of PASTA behave the same where a restructuring must
# not change anything: the IR the plugin makes of every bundled kernel and
# host test program in every mode (record_ir.sh) and every output of the
# runtime and pasta-report over the recorded profiles (record_outputs.sh).
#
#   git worktree add /tmp/old <rev>      # the tree before, built as usual:
#   cmake -S /tmp/old -B /tmp/old/build ... && ninja -C /tmp/old/build \
#       pasta pasta_rt pasta_rt_shared pasta-report
#   scripts/compare_builds.sh /tmp/old/build build OUT
#
# Each build's lib/ and bin/pasta-report are copied in turn to one place
# (OUT/stage), so that the paths the plugin writes into the IR (the runtime
# beside it) are the same for both. In the IR, inline assembly's `!srcloc`
# (the byte offset of the asm statement in device_rt's source, which moves
# when that file's text moves) is dropped and the metadata numbered afresh
# (llvm-as | llvm-dis). Prints the diff and how many lines it has; exits 0
# when there are none.
# usage: compare_builds.sh BUILD_BEFORE BUILD_AFTER OUT_DIR [JOBS]
set -euo pipefail
[ $# -ge 3 ] || {
  echo "usage: $0 BUILD_BEFORE BUILD_AFTER OUT_DIR [JOBS]" >&2
  exit 2
}
before=$(cd "$1" && pwd)
after=$(cd "$2" && pwd)
mkdir -p "$3"
out=$(cd "$3" && pwd)
jobs=${4:-2}
src=$(cd "$(dirname "$0")/.." && pwd)
llvm=${PASTA_LLVM_BIN:-/usr/lib/llvm-22/bin}
stage=$out/stage

for side in before after; do
  build=$before
  [ "$side" = after ] && build=$after
  rm -rf "$stage" "$out/$side"
  mkdir -p "$stage/bin" "$out/$side"
  cp -a "$build/lib" "$stage/lib"
  cp "$build/bin/pasta-report" "$stage/bin/"
  "$src/scripts/record_ir.sh" "$stage" "$out/$side/ir" "$jobs" >&2
  for f in "$out/$side/ir"/*.ll; do
    sed -E 's/, !srcloc ![0-9]+//g' "$f" | "$llvm/llvm-as" - -o - |
      "$llvm/llvm-dis" - -o "$f.tmp"
    mv "$f.tmp" "$f"
  done
  "$src/scripts/record_outputs.sh" "$stage" "$out/$side/outputs"
done
rm -rf "$stage"
rc=0
diff -r "$out/before" "$out/after" >"$out/diff.txt" || rc=$?
cat "$out/diff.txt"
echo "compare_builds: $(wc -l <"$out/diff.txt") lines of diff" \
  "($(find "$out/before" -type f | wc -l) files recorded per build)"
exit "$rc"
