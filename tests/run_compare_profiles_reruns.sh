#!/bin/sh
# scripts/compare_profiles.py leaves out a value that varies between runs of
# the first build (a race), seen in any of its reruns, and nothing else: a
# racy value that one rerun happens to repeat is left out once a later rerun
# moves it; a value that differs between the builds but never between runs
# still makes the profiles differ. The GPU comparisons (gpu_divergence.sh)
# rest on this. What the build could not count ("uncounted", which a newer
# PASTA records and an older one did not) is the build's, not a count: a
# profile that has it and one that does not compare equal.
# usage: run_compare_profiles_reruns.sh COMPARE_PROFILES_PY WORKDIR
set -eu
compare=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
profile() { # racy-sectors stable-requests file
  printf '{"pid": %s, "kernels": [{"name": "k", "lines": [{"line": 45, "sectors": %s, "requests": %s}]}]}\n' \
    "$$" "$1" "$2" > "$work/$3"
}
profile 58578 100 before1.json
profile 58609 100 after.json
profile 58578 100 before2.json
profile 58597 100 before3.json
profile 58578 101 before4.json
fails=0
expect() { # exit-status description command...
  want=$1 what=$2
  shift 2
  if "$@" > "$work/out.txt"; then got=0; else got=1; fi
  if [ "$got" != "$want" ]; then
    echo "FAIL: $what (exit $got, expected $want)"; cat "$work/out.txt"
    fails=$((fails + 1))
  fi
}
cd "$work"
expect 1 "the builds differ, no rerun" python3 "$compare" before1.json after.json
expect 1 "one rerun repeats the racy value" \
  python3 "$compare" before1.json after.json before2.json
expect 0 "a second rerun moves it" \
  python3 "$compare" before1.json after.json before2.json before3.json
grep -q "1 values vary from run to run" out.txt ||
  { echo "FAIL: the racy value is not reported as left out"; fails=$((fails + 1)); }
profile 58578 102 after2.json
expect 1 "a stable value that differs between builds is kept" \
  python3 "$compare" before1.json after2.json before3.json
expect 0 "a value that varies in any rerun is left out" \
  python3 "$compare" before1.json after2.json before3.json before4.json
sed 's/^{/{"uncounted": ["inline assembly ... is not counted in '"'k'"'"], /' before1.json > noted.json
expect 0 "a note of what is not counted is the build's, not a count" \
  python3 "$compare" before1.json noted.json
[ "$fails" = 0 ] && echo "compare_profiles reruns: 7 checks passed"
exit "$fails"
