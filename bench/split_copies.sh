#!/usr/bin/env bash
# What ptxas would spend if some kinds of kernel copies were left out of the
# build's SASS and compiled only when a run first needs them (PTX the driver
# compiles at module load): splits one instrumented device module by kind of
# copy and times ptxas on each part. The device IR after PASTA and the
# optimizer (--cuda-device-only -emit-llvm) is edited: the kernels of the
# kinds a part leaves out return at once (their device functions then go:
# globaldce), then llc (sm_90, PTX 8.8 as clang-22 with CUDA 13) and ptxas (-O2 -lineinfo, as clang runs it)
# compile the part. Parts: "all" (every copy: about the build as it is),
# "build" (the kinds in KEEP, default "counting capped plain divu": what the
# build would still compile), "blobs" (build, carrying the other parts'
# PTX zlib-compressed as byte arrays) and one part per other kind present
# (what a first use of that kind would compile, in the driver's JIT
# instead). The left-out parts keep the module's other functions and data
# (the originals of the device functions, PASTA's tables): upper bounds.
# Prints ptxas's user + system seconds per part (median of ROUNDS runs in
# turn) and llc's for "all" and "build".
# usage: split_copies.sh ROUNDS SOURCE.cu PLUGIN.so
#   (PASTA_* variables reach the plugin, e.g. PASTA_DIVERGENCE=1;
#   EXTRA_FLAGS reaches clang; KEEP="counting plain" sets the build's kinds;
#   DIR=... keeps the parts' IR, PTX and times there)
set -euo pipefail
rounds=$1 src=$2 plugin=$3
bin=/usr/lib/llvm-22/bin
dir=${DIR:-$(mktemp -d)}
mkdir -p "$dir"
keep=" ${KEEP:-counting capped plain divu} "
clang++-22 -x cuda --cuda-path=/usr/local/cuda --offload-arch=sm_90 \
  -Wno-unknown-cuda-version -O2 -gline-tables-only --cuda-device-only -c \
  -emit-llvm ${EXTRA_FLAGS:-} -fpass-plugin="$plugin" -o "$dir/module.bc" "$src"
"$bin/llvm-dis" "$dir/module.bc" -o "$dir/module.ll"

# The kind of copy a kernel's name says, and the name a define line defines.
kind_awk='
  function kind(n) {
    if (n ~ /__pasta_plain$/) return "plain"
    if (n ~ /__pasta_ws$/) return "ws"
    if (n ~ /__pasta_divu$/) return "divu"
    if (n ~ /__pasta_div$/) return "div"
    if (n ~ /__pasta_trace$/) return "trace"
    if (n ~ /__pasta_capped$/) return "capped"
    return "counting" }
  function defined(line) { sub(/^[^@]*@/, "", line); sub(/\(.*/, "", line)
                           return line }'
kinds=$(awk "$kind_awk"'
          /^define .*ptx_kernel/ { print kind(defined($0)) }' \
          "$dir/module.ll" | sort -u | tr '\n' ' ')
# part NAME KINDS...: module.ll with every kernel of another kind stubbed.
part() {
  local name=$1
  shift
  local want=" $* "
  awk -v want="$want" "$kind_awk"'
    skipping { if ($0 == "}") { print; skipping = 0 } ; next }
    /^define .*ptx_kernel/ {
      if (index(want, " " kind(defined($0)) " ") == 0) {
        print; print "  ret void"; skipping = 1; next } }
    { print }' "$dir/module.ll" > "$dir/$name.ll"
  "$bin/opt" -passes=globaldce "$dir/$name.ll" -o "$dir/$name.bc"
  /usr/bin/time -f "%U %S" -o "$dir/$name.llc" "$bin/llc" -O2 \
    -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx88 "$dir/$name.bc" -o "$dir/$name.ptx"
}
parts=(all build)
part all $kinds
part build $keep
left=()
for k in $kinds; do
  [[ $keep == *" $k "* ]] && continue
  part "$k" "$k"
  left+=("$k")
done
# "blobs": the build's PTX carrying each left-out part's PTX, compressed
# (zlib), as a byte array: what ptxas would also read in such a build.
python3 - "$dir" "${left[@]}" << 'EOF'
import sys, zlib
d = sys.argv[1]
with open(d + "/build.ptx") as f:
    out = f.read()
for k in sys.argv[2:]:
    with open("%s/%s.ptx" % (d, k), "rb") as f:
        z = zlib.compress(f.read(), 6)
    out += ".global .align 1 .b8 __pasta_ptx_%s[%d] = {%s};\n" % (
        k, len(z), ",".join(str(b) for b in z))
with open(d + "/blobs.ptx", "w") as f:
    f.write(out)
EOF
parts+=(blobs "${left[@]}")
cpu() { awk '{ printf "%.2f\n", $1 + $2 }' "$1"; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for ((r = 0; r < rounds; ++r)); do
  for p in "${parts[@]}"; do
    /usr/bin/time -f "%U %S" -o "$dir/$p.time" ptxas -m64 -O2 -lineinfo \
      --gpu-name sm_90 "$dir/$p.ptx" -o /dev/null
    cpu "$dir/$p.time" >> "$dir/$p.ptxas"
  done
done
echo "$(basename "$src"): kinds $kinds; the build keeps:$keep"
for p in "${parts[@]}"; do
  printf '  %-8s ptxas %s s (%s)' "$p" "$(median < "$dir/$p.ptxas")" \
    "$(tr '\n' ' ' < "$dir/$p.ptxas" | sed 's/ $//')"
  [[ $p == all || $p == build ]] && printf ', llc %s s' "$(cpu "$dir/$p.llc")"
  printf ', %s lines of PTX\n' "$(wc -l < "$dir/$p.ptx")"
done
