#!/usr/bin/env bash
# The 2-GPU MPI validation: tests/gpu/mpi_ranks.cu on 2 ranks under Open
# MPI's mpirun, one rank per GPU (each picks its GPU from its local rank),
# with unequal work; each rank writes its profile (PASTA_OUTPUT=rank%r.json),
# pasta-report merges them, and tests/gpu/check_mpi_ranks.py checks the
# ranks' identities (rank, local rank, host, the UUID of the GPU each used,
# against nvidia-smi) and the merged per-rank min, mean, max, imbalance and
# max rank against the figures derived from the program's source.
#
# On the GPU machine, from the repository root, with what
# scripts/stage_mpi.sh staged on the development machine:
#   run(kind="nvidia-h200-x2", command="bash scripts/gpu_mpi.sh",
#       carry=["build-gpu-mpi"])
# Open MPI comes from build-gpu-mpi/openmpi (unpacked Debian packages),
# relocated with OPAL_PREFIX; nothing is installed.
# Results: $OUT/mpi.md (the summary and the commands), $OUT/mpi/ (each
# rank's stdout and stderr, the profiles, the merge, show's table and CSV,
# the checker's output). OUT defaults to ./gpu-out.
set -u
OUT=${OUT:-$PWD/gpu-out}
stage=${PASTA_MPI_STAGE:-$PWD/build-gpu-mpi}
work=$OUT/mpi
rm -rf "$work"
mkdir -p "$work"
summary=$OUT/mpi.md
if [ ! -x "$stage/bin/mpi_ranks" ]; then
  echo "gpu_mpi: no $stage/bin/mpi_ranks (run scripts/stage_mpi.sh and carry build-gpu-mpi)" | tee "$summary"
  exit 1
fi
stage=$(cd "$stage" && pwd)
root=$stage/openmpi/usr
export OPAL_PREFIX=$root
export PATH=$root/bin:$PATH
export LD_LIBRARY_PATH=$root/lib/x86_64-linux-gnu:$root/lib/x86_64-linux-gnu/openmpi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# One node: processes started here (no ssh), shared memory between them,
# no network components. PMIx's own plugins stay where Debian put them
# (absolute paths, not relocatable); it needs none of them, and the
# compression one's absence is not worth a message.
export OMPI_MCA_plm=isolated OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1
export OMPI_MCA_osc=^ucx OMPI_MCA_btl_vader_single_copy_mechanism=none
export PMIX_MCA_pcompress_base_silence_warning=1
mpirun=(orterun --allow-run-as-root --oversubscribe -np 2)

nvidia-smi --query-gpu=index,uuid,name --format=csv,noheader > "$work/gpus.csv" 2>&1
gpus=$(grep -c '^[0-9]' "$work/gpus.csv")
run_cmd="PASTA_OUTPUT=$work/rank%r.json ${mpirun[*]} $stage/bin/mpi_ranks"
(cd "$work" && PASTA_OUTPUT="$work/rank%r.json" timeout 300 "${mpirun[@]}" \
  "$stage/bin/mpi_ranks" > run.out 2> run.err)
rc=$?
"$stage/bin/pasta-report" merge --force "$work/merged.json" "$work" \
  > "$work/merge.out" 2>&1
merge_rc=$?
"$stage/bin/pasta-report" show "$work/merged.json" > "$work/show.txt" 2>&1
"$stage/bin/pasta-report" show --format csv "$work/merged.json" > "$work/show.csv" 2>&1
python3 tests/gpu/check_mpi_ranks.py tests/gpu/mpi_ranks.cu "$work" \
  "$work/gpus.csv" > "$work/check.txt" 2>&1
check_rc=$?
{
  echo "# MPI job with one rank per GPU ($gpus GPUs: $(cut -d, -f3 "$work/gpus.csv" | sort -u | tr '\n' ' '))"
  echo
  echo "Open MPI $(orterun --version 2>&1 | head -n 1 | sed 's/.*) //'), from build-gpu-mpi/openmpi (unpacked Debian packages)"
  echo
  echo '```'
  echo "$run_cmd"
  echo "pasta-report merge merged.json $work"
  echo '```'
  echo
  echo "- program: exit $rc; $(grep -h 'mpi_ranks: \(PASSED\|FAILED\)' "$work/run.out" | head -n 1)"
  echo "- merge: exit $merge_rc"
  echo "- check: $(tail -n 1 "$work/check.txt")"
  echo
  echo '```'
  sed -n '/^Per-rank balance/,/^$/p' "$work/show.txt"
  echo '```'
} > "$summary"
cat "$summary"
cat "$work/check.txt"
[ "$rc" = 0 ] && [ "$merge_rc" = 0 ] && [ "$check_rc" = 0 ]
