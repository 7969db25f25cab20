#!/usr/bin/env bash
# Kernel time of several divergence builds of the bundled programs against
# the plain build, in one run on one GPU (an A/B of divergence-mode
# changes): <k>-div-<v> for each v in VARIANTS, staged beside <k> and
# <k>-div in build-gpu/bin/kernels (scripts/stage_div_variants.sh).
# No profile comparison, no ncu: scripts/gpu_divergence.sh does those.
# usage (GPU machine): VARIANTS="div before a b" scripts/gpu_div_variants.sh
# ("div" is <k>-div itself). Writes $OUT/variants.md and $OUT/bench.txt.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
BIN=${PASTA_KERNEL_BIN:-$PWD/build-gpu/bin/kernels}
RUNS=${TK_BENCH:-5}
VARIANTS=${VARIANTS:-div before}
PROGRAMS=${PROGRAMS:-$(sed -n 's/^\([a-z_0-9]*\) .*/\1/p' test_kernels/bench_sizes.txt |
  while read -r k; do [ -x "$BIN/$k-div" ] && echo "$k"; done)}
: > "$OUT/bench.txt"
for k in $PROGRAMS; do
  n=$(awk -v k="$k" '$1 == k { print $2 }' test_kernels/bench_sizes.txt)
  for v in plain $VARIANTS; do
    case $v in plain) exe="$BIN/$k" ;; div) exe="$BIN/$k-div" ;; *) exe="$BIN/$k-div-$v" ;; esac
    [ -x "$exe" ] || continue
    TK_BENCH=$RUNS PASTA_QUIET=1 PASTA_DIVERGENCE=1 PASTA_OUTPUT=/dev/null \
      timeout 45 "$exe" "$n" 2>&1 | sed -n "s/^bench: /$k $v /p" >> "$OUT/bench.txt"
  done
done
python3 - "$OUT/bench.txt" "$VARIANTS" > "$OUT/variants.md" <<'PY'
import math, sys
times = {}
for line in open(sys.argv[1]):
    words = line.split()
    k, v, step, fields = words[0], words[1], " ".join(words[2:-3]), words[-3:]
    f = dict(x.split("=") for x in fields)
    times[(k, step, v)] = float(f["median_us"])
variants = sys.argv[2].split()
steps = sorted({(k, s) for k, s, _ in times})
print("| program | kernel step | plain us | " + " | ".join(variants) + " |")
print("|---|---|---|" + "---|" * len(variants))
logs = {v: [] for v in variants}
for k, s in steps:
    plain = times.get((k, s, "plain"))
    if not plain:
        continue
    cells = []
    for v in variants:
        t = times.get((k, s, v))
        cells.append(f"{t / plain:.2f}x" if t else "-")
        if t:
            logs[v].append(math.log(t / plain))
    print(f"| {k} | {s} | {plain:,.1f} | " + " | ".join(cells) + " |")
print("| **geometric mean** | | | " + " | ".join(
    f"**{math.exp(sum(l) / len(l)):.2f}x** ({len(l)})" if l else "-" for l in logs.values()) + " |")
print("| **max** | | | " + " | ".join(
    f"**{math.exp(max(l)):.2f}x**" if l else "-" for l in logs.values()) + " |")
PY
cat "$OUT/variants.md"
