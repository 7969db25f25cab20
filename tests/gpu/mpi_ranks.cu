// CUDA + MPI test (scripts/gpu_mpi.sh): one rank per GPU, each picking its
// GPU from its local rank, with unequal work per rank. Everything
// scripts/check_gpu_mpi.py expects follows from N and LAUNCHES below (it
// reads them from this file):
//   relax_kernel:  rank r launches it LAUNCHES[r] times over N floats; each
//                  thread loads and stores one float (4 + 4 bytes) and does
//                  one multiply-add (2 f32 FLOPs): 8 * N bytes and 2 * N
//                  FLOPs per launch.
//   sum_kernel:    once on every rank: each thread loads one float and adds
//                  it atomically to one float (an f32 atomic: 4 bytes).
// After k launches from 0 every element is 2 * (1 - 2^-k), exactly; the
// ranks check their sums together with MPI_Allreduce.
#include <cstdio>
#include <cuda_runtime.h>
#include <mpi.h>

#define N (1 << 20)
static const int LAUNCHES[] = {1, 3};
#define NUM_RANKS (int)(sizeof LAUNCHES / sizeof LAUNCHES[0])

__global__ void relax_kernel(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * 0.5f + 1.0f; // RELAX_LINE
}

__global__ void sum_kernel(const float *x, int n, float *sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(sum, x[i]);
}

static double relaxed(int k) {
  double p = 1.0;
  for (int i = 0; i < k; ++i)
    p *= 0.5;
  return 2.0 * (1.0 - p);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, local_rank, gpus = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL,
                      &node);
  MPI_Comm_rank(node, &local_rank);
  if (size != NUM_RANKS || cudaGetDeviceCount(&gpus) != cudaSuccess ||
      gpus < 1) {
    std::printf("mpi_ranks: FAILED (rank %d: %d ranks, %d GPUs)\n", rank, size,
                gpus);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int device = local_rank % gpus; // one rank per GPU
  float *x = nullptr, *sum = nullptr;
  if (cudaSetDevice(device) != cudaSuccess ||
      cudaMalloc(&x, N * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&sum, sizeof(float)) != cudaSuccess ||
      cudaMemset(x, 0, N * sizeof(float)) != cudaSuccess ||
      cudaMemset(sum, 0, sizeof(float)) != cudaSuccess)
    MPI_Abort(MPI_COMM_WORLD, 2);
  for (int k = 0; k < LAUNCHES[rank]; ++k)
    relax_kernel<<<N / 256, 256>>>(x, N);
  sum_kernel<<<N / 256, 256>>>(x, N, sum);
  float mine = 0.0f;
  if (cudaMemcpy(&mine, sum, sizeof mine, cudaMemcpyDeviceToHost) !=
      cudaSuccess)
    MPI_Abort(MPI_COMM_WORLD, 2);
  cudaFree(x);
  cudaFree(sum);
  double total = 0.0, want = 0.0, m = mine;
  MPI_Allreduce(&m, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r)
    want += N * relaxed(LAUNCHES[r]);
  int ok = total == want;
  std::printf("mpi_ranks: rank %d on GPU %d of %d, %d launches\n", rank, device,
              gpus, LAUNCHES[rank]);
  if (rank == 0)
    std::printf("mpi_ranks: %s (sum %.1f, expected %.1f)\n",
                ok ? "PASSED" : "FAILED", total, want);
  MPI_Comm_free(&node);
  MPI_Finalize();
  return ok ? 0 : 1;
}
