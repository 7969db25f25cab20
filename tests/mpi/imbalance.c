/* MPI end-to-end test (tests/mpi/run_mpi.sh): per-rank work made unequal on
 * purpose, counted with host instrumentation (PASTA_HOST=1). Everything
 * check_mpi.py expects follows from N and CALLS below (it reads them from
 * this file):
 *   relax():    rank r calls it CALLS[r] times; per call, per element, one
 *               8-byte load, one 8-byte store and one multiply-add (2 f64
 *               FLOPs): 16 * N bytes and 2 * N FLOPs a call.
 *   exchange(): once on every rank: per element one 8-byte load and one
 *               add: 8 * N bytes and N FLOPs.
 *   extra():    once, on the last rank only (every rank's profile lists it,
 *               with zeros where it never ran): 8 * N bytes, N FLOPs.
 * The result is checked: after k relax() calls from 0, every element is
 * 2 * (1 - 2^-k), exactly. */
#include <mpi.h>
#include <stdio.h>

#define N 1000
static const int CALLS[] = {3, 1, 4, 2};
#define NUM_CALLS (int)(sizeof CALLS / sizeof CALLS[0])

static double x[N];

__attribute__((noinline)) void relax(double *v, int n) {
  for (int i = 0; i < n; ++i)
    v[i] = v[i] * 0.5 + 1.0; /* RELAX_LINE */
}

__attribute__((noinline)) double exchange(const double *v, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += v[i]; /* EXCHANGE_LINE */
  return s;
}

__attribute__((noinline)) double extra(const double *v, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += v[i]; /* EXTRA_LINE */
  return s;
}

/* 2 * (1 - 2^-k): what relax() leaves after k calls. */
static double relaxed(int k) {
  double p = 1.0;
  for (int i = 0; i < k; ++i)
    p *= 0.5;
  return 2.0 * (1.0 - p);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != NUM_CALLS) {
    if (rank == 0)
      fprintf(stderr, "imbalance: run me on %d ranks, not %d\n", NUM_CALLS,
              size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (int c = 0; c < CALLS[rank]; ++c)
    relax(x, N);
  double mine = exchange(x, N);
  if (rank == size - 1)
    mine = extra(x, N); /* the same sum, by another function */
  double total = 0.0, want = 0.0;
  MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r)
    want += N * relaxed(CALLS[r]);
  int ok = total == want;
  if (rank == 0)
    printf("imbalance: %s (sum %g, expected %g)\n", ok ? "PASSED" : "FAILED",
           total, want);
  MPI_Finalize();
  return ok ? 0 : 1;
}
