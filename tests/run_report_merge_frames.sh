#!/usr/bin/env bash
# Merging two recorded profiles keeps every call-path frame's strings,
# build ids included (a merge once freed them before writing: a
# use-after-free under ASan). The merged frames must be the inputs' frames.
# Usage: run_report_merge_frames.sh PASTA_REPORT A.json B.json
set -euo pipefail
report=$1 a=$2 b=$3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$report" merge "$out/m.json" "$a" "$b" >/dev/null
python3 - "$out/m.json" "$a" "$b" <<'PY'
import json, sys
def frames(path):
    d = json.load(open(path))
    return {(f.get("function"), f.get("object"), f.get("build_id"), f.get("vaddr"))
            for k in d["launches"]["kernels"] for p in k["call_paths"] for f in p["frames"]}
merged, inputs = frames(sys.argv[1]), frames(sys.argv[2]) | frames(sys.argv[3])
ok = merged == inputs and all(f[2] for f in inputs)
print("report-merge-frames: %d frames, %s" % (len(merged), "same as the inputs'" if ok else "DIFFER"))
sys.exit(0 if ok else 1)
PY
