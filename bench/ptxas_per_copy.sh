#!/usr/bin/env bash
# Where ptxas spends a counting build's time, copy by copy: compiles one
# CUDA source's device half to PTX (plain, then with each plugin), runs
# ptxas on it as clang does (-m64 -O2 -lineinfo --gpu-name sm_90) with -v,
# and adds up ptxas's own per-entry "Compile time" by kind of copy: the
# counting kernels (no suffix), the plain copies (__pasta_plain) and the
# working-set copies (__pasta_ws), and with PASTA_DIVERGENCE=1 the
# divergence copies (__pasta_div) and their uncapped twins (__pasta_divu);
# an entry's time includes the device
# functions it calls (ptxas compiles them again for every kernel that calls
# them). The per-entry times are ptxas's wall clock, and it may compile
# entries in parallel (their sum can pass its CPU time): compare them on
# a quiet machine, or in rounds. Also prints ptxas's user + system seconds and the
# registers of each kind's entries (max).
# usage: ptxas_per_copy.sh SOURCE.cu PLUGIN.so [PLUGIN.so...]
#   (EXTRA_FLAGS reaches every build, e.g. -isystem /usr/local/cuda/include/cccl;
#   PASTA_* variables in the environment reach the instrumented ones;
#   KEEP=DIR keeps each build's PTX and ptxas -v output there)
set -euo pipefail
src=$1
shift
flags=(-x cuda --cuda-path=/usr/local/cuda --offload-arch=sm_90
       -Wno-unknown-cuda-version -O2 -gline-tables-only --cuda-device-only -S
       ${EXTRA_FLAGS:-})
dir=${KEEP:-$(mktemp -d)}
mkdir -p "$dir"
n=0
for p in plain "$@"; do
  out=$dir/build$n
  n=$((n + 1))
  plugin=()
  [[ $p != plain ]] && plugin=(-fpass-plugin="$p")
  clang++-22 "${flags[@]}" "${plugin[@]}" -o "$out.ptx" "$src" 2> "$out.cc" ||
    { echo "ptxas_per_copy: compile failed: $p (see $out.cc)" >&2; exit 1; }
  /usr/bin/time -f "%U %S" -o "$out.time" ptxas -m64 -O2 -lineinfo \
    --gpu-name sm_90 -v "$out.ptx" -o /dev/null 2> "$out.v" ||
    { echo "ptxas_per_copy: ptxas failed: $p (see $out.v)" >&2; exit 1; }
  # One line per entry: milliseconds, registers, name.
  awk -F"'" '/Compiling entry function/ { name = $2 }
       /Used [0-9]+ registers/ { split($0, w, " ");
                                 for (i = 1; i in w; ++i)
                                   if (w[i] == "Used") regs = w[i + 1] }
       /Compile time = / { split($0, w, " ");
                           for (i = 1; i in w; ++i)
                             if (w[i] == "=") ms = w[i + 1]
                           print ms, regs, name }' "$out.v" > "$out.entries"
  awk -v p="$p" -v t="$(cat "$out.time")" '
    { kind = p == "plain" ? "kernels" : "counting"
      if ($3 ~ /__pasta_ws$/) kind = "ws"
      if ($3 ~ /__pasta_plain$/) kind = "plain"
      if ($3 ~ /__pasta_div$/) kind = "div"
      if ($3 ~ /__pasta_divu$/) kind = "divu"
      ms[kind] += $1; ++cnt[kind]; if ($2 > regs[kind]) regs[kind] = $2 }
    END { split(t, u, " ");
          printf "%s: ptxas %.2f s (user + system)", p, u[1] + u[2];
          for (k in ms)
            printf "; %s %d entries %.0f ms, max %d registers", k, cnt[k],
                   ms[k], regs[k];
          printf "\n" }' "$out.entries"
done
[[ -n ${KEEP:-} ]] || rm -rf "$dir"
