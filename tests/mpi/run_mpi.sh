#!/bin/sh
# The MPI end-to-end test: builds tests/mpi/imbalance.c with Open MPI's
# mpicc around PASTA's compiler wrapper (PASTA_HOST=1), runs it on 4 ranks
# under mpirun twice (PASTA_OUTPUT with %r, then with %h and %r), and checks
# the per-rank profiles and their merge (check_mpi.py).
# usage: run_mpi.sh PASTA_CLANG PASTA_REPORT SOURCE WORKDIR
# Exits 77 (ctest: skipped, with the reason) when mpirun or mpicc is missing.
set -eu
wrapper=$1 report=$2 src=$3 work=$4
for tool in mpirun mpicc; do
  if ! command -v "$tool" > /dev/null 2>&1; then
    echo "skipped: no $tool (scripts/setup.sh installs openmpi-bin and libopenmpi-dev)"
    exit 77
  fi
done
rm -rf "$work"
mkdir -p "$work/ranks" "$work/hosts"
# mpicc adds MPI's flags and libraries; OMPI_CC (Open MPI) and MPICH_CC
# (MPICH) make it call pasta-clang, which adds the plugin and the runtime.
env PASTA_HOST=1 OMPI_CC="$wrapper" MPICH_CC="$wrapper" \
  mpicc -O2 -g "$src" -o "$work/imbalance"
# Open MPI refuses root (CI containers run as root) and would look for
# networks: shared memory only ("vader" in 4.x, "sm" from 5.0).
flags=
case $(mpirun --version 2>&1) in
*"Open MPI) 4"* | *"Open MPI) 3"*)
  flags="--oversubscribe --allow-run-as-root --mca btl self,vader" ;;
*"Open MPI"*) flags="--oversubscribe --allow-run-as-root --mca btl self,sm" ;;
esac
export OMPI_MCA_btl_vader_single_copy_mechanism=none
# shellcheck disable=SC2086
PASTA_QUIET=1 PASTA_OUTPUT="$work/ranks/rank%r.json" \
  mpirun $flags -np 4 "$work/imbalance"
# shellcheck disable=SC2086
PASTA_QUIET=1 PASTA_OUTPUT="$work/hosts/%h-%r.json" \
  mpirun $flags -np 4 "$work/imbalance"
exec python3 "$(dirname "$0")/check_mpi.py" "$src" "$report" "$work"
