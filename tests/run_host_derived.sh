#!/bin/sh
# Host counter placement keeps counts exact (tests/host/derived.cpp): the
# program built by pasta-clang++ with placement (some block counts derived
# at read-back from others) and without it (PASTA_PLACE_COUNTERS=0: every
# block counted) prints the same and writes the same profile; and the
# placed build does derive some counts (-pasta-print-sites).
# usage: run_host_derived.sh PASTA_CLANG SOURCE WORKDIR OPT ARGS
set -eu
pclang=$1++ src=$2 work=$3 opt=$4 args=$5
mkdir -p "$work"
cd "$work"
rm -f placed.json counted.json
PASTA_HOST=1 "$pclang" "$opt" -mllvm -pasta-print-sites "$src" -o placed \
  2>placed.sites
PASTA_HOST=1 PASTA_PLACE_COUNTERS=0 "$pclang" "$opt" "$src" -o counted
derived=$(grep -c '^pasta: derived' placed.sites || true)
[ "$derived" -gt 0 ] || { echo "FAIL: no host count derived"; exit 1; }
echo "ok   $derived block counts derived"
# shellcheck disable=SC2086
PASTA_OUTPUT=placed.json PASTA_QUIET=1 ./placed $args >placed.out
# shellcheck disable=SC2086
PASTA_OUTPUT=counted.json PASTA_QUIET=1 ./counted $args >counted.out
cmp placed.out counted.out || { echo "FAIL: the output differs"; exit 1; }
echo "ok   same output: $(tail -1 placed.out)"
exec python3 - placed.json counted.json <<'PY'
import json, sys
def counts(path):
    p = json.load(open(path))
    return {k: p[k] for k in ("host_functions", "lines", "omitted")}
a, b = counts(sys.argv[1]), counts(sys.argv[2])
if not a["host_functions"]:
    sys.exit("FAIL: no host function in the profile")
if a != b:
    for k in a:
        for x, y in zip(a[k], b[k]) if isinstance(a[k], list) else []:
            if x != y:
                print("placed: ", json.dumps(x)[:400])
                print("counted:", json.dumps(y)[:400])
                break
    sys.exit("FAIL: the profiles differ")
print("ok   same counts: %d functions, %d lines"
      % (len(a["host_functions"]), len(a["lines"])))
PY
