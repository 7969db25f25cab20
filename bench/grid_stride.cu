// bench/grid_stride.cu - the time of grid-stride kernels whose threads do
// little (NVIDIA's GUPS init and check shapes; issue [overhead-3],
// docs/lab/2026-11-30-overhead3-58-short-kernels-exit.md), plain against
// PASTA's counting copies, on the GPU.
//   fill_ids(n, t):    t[i] = i, one 8-byte store a turn (GUPS's d_init)
//   count_wrong(n, t, bad): one 8-byte load a turn, an atomicAdd where
//                      t[i] != i (GUPS's d_check; none here)
//   fill_ids on n = 0 ("empty"): every thread tests its guard and leaves,
//                      the kernel's fixed cost per launch and block
// GUPS's launch: 1,024-thread blocks, as many as cover n (one turn each);
// "strided": 264 blocks (2 an SM on an H200), ~248 turns a thread.
// Each kernel is launched REPS times after a warm-up, each launch between
// two events; prints one line a kernel and shape:
//   grid_stride: <kernel> <shape> median_us=<x> min_us=<y>
// and `grid_stride: PASSED n=<n>` when every element is i and no element
// was found wrong (exit 1 otherwise).
// usage: grid_stride [LOG2_N [REPS]]   (default 26: GUPS -n 26; 20)
// The counts of `grid_stride 26 20` (bench/gpu_short_exit.sh checks a
// PASTA build's profile with tests/structures/check_structure.py): each
// shape 21 launches (a warm-up and 20); fill_ids' cover and strided
// launches store n = 2^26 elements of 8 bytes each, its empty ones none:
// 42 x 2^29 = 22,548,578,304 bytes; count_wrong loads as many, no atomic.
// clang-format off
// EXPECT: kernel _Z8fill_idsmPm launches=63 load_bytes.global=0 store_bytes.global=22548578304
// EXPECT: kernel _Z11count_wrongmPKmPj launches=42 load_bytes.global=22548578304 store_bytes.global=0 atomics.global=0
// EXPECT: consistent
// clang-format on
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

// GUPS compares its ptrdiff_t index with its size_t bound (unsigned).
#pragma clang diagnostic ignored "-Wsign-compare"

__global__ void fill_ids(size_t n, uint64_t *t) {
  for (ptrdiff_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    t[i] = i;
}

__global__ void count_wrong(size_t n, const uint64_t *t, unsigned *bad) {
  for (ptrdiff_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    if (t[i] != (uint64_t)i)
      atomicAdd(bad, 1u);
}

template <typename Launch>
static void time_it(const char *kernel, const char *shape, int reps,
                    Launch launch) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  launch(); // warm-up
  std::vector<float> us;
  for (int r = 0; r < reps; ++r) {
    cudaEventRecord(a);
    launch();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    us.push_back(ms * 1000.0f);
  }
  std::sort(us.begin(), us.end());
  printf("grid_stride: %s %s median_us=%.2f min_us=%.2f\n", kernel, shape,
         us[us.size() / 2], us[0]);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
}

int main(int argc, char **argv) {
  int log2n = argc > 1 ? atoi(argv[1]) : 26;
  int reps = argc > 2 ? atoi(argv[2]) : 20;
  if (log2n < 10 || log2n > 30 || reps < 1 || reps > 1000) {
    fprintf(stderr, "usage: grid_stride [LOG2_N (10-30) [REPS (1-1000)]]\n");
    return 2;
  }
  size_t n = (size_t)1 << log2n;
  const unsigned threads = 1024;
  unsigned cover = (unsigned)((n + threads - 1) / threads), strided = 264;
  uint64_t *t = nullptr;
  unsigned *bad = nullptr;
  if (cudaMalloc(&t, n * sizeof(uint64_t)) != cudaSuccess ||
      cudaMalloc(&bad, sizeof(unsigned)) != cudaSuccess) {
    printf("grid_stride: FAILED: no device memory\n");
    return 1;
  }
  cudaMemset(bad, 0, sizeof(unsigned));
  time_it("fill_ids", "cover", reps,
          [&] { fill_ids<<<cover, threads>>>(n, t); });
  time_it("fill_ids", "strided", reps,
          [&] { fill_ids<<<strided, threads>>>(n, t); });
  time_it("fill_ids", "empty", reps,
          [&] { fill_ids<<<cover, threads>>>(0, t); });
  time_it("count_wrong", "cover", reps,
          [&] { count_wrong<<<cover, threads>>>(n, t, bad); });
  time_it("count_wrong", "strided", reps,
          [&] { count_wrong<<<strided, threads>>>(n, t, bad); });
  std::vector<uint64_t> got(n);
  unsigned wrong = 1;
  cudaMemcpy(&wrong, bad, sizeof wrong, cudaMemcpyDeviceToHost);
  cudaError_t err =
      cudaMemcpy(got.data(), t, n * sizeof(uint64_t), cudaMemcpyDeviceToHost);
  bool ok = err == cudaSuccess && wrong == 0;
  for (size_t i = 0; ok && i < n; ++i)
    ok = got[i] == i;
  printf("grid_stride: %s n=%zu\n", ok ? "PASSED" : "FAILED", n);
  cudaFree(t);
  cudaFree(bad);
  return ok ? 0 : 1;
}
