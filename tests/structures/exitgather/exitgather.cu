// Structure: threads that leave a data-dependent loop apart and come to the
// kernel's return in groups, one kernel with a `__syncthreads()` inside its
// bounds check (issue [overhead-3]: a Huffman decoder's and kmeans' shape).
// The counting copy reads, on each way into the part of the kernel where
// no thread waits for another, which lanes come together, and has them wait
// for each other at the return before the flush (passes/ExitGather.h).
// Gathering instead every lane the launch started in the warp hung both
// programs on an H200: the lanes past n wait at the return for lanes that
// wait at the barrier for them. This program must end, with the counts
// below.
//
// Each thread i < n decodes a run of len(i) = i mod 29 symbols (len read
// from memory, so the lanes of a warp leave the loop apart): a float
// accumulator adds w[k mod 16] for k < len(i), then stores it.
// n = 65,523 = 256 * 256 - 13, 256 threads a block: 256 blocks; the last
// block's warp 7 holds 19 lanes inside and 13 past n.
//   sum of len(i) over i < n: n = 29 * 2,259 + 12, so
//   2,259 * (0 + 1 + ... + 28) + (0 + ... + 11) = 2,259 * 406 + 66 = 917,220
//
// decode_after_barrier(lens, w, out, n): inside `if (i < n)`, stages
//   lens[i] in shared memory, `__syncthreads()`, reads it back, decodes.
//     load_bytes.global = 4 n + 4 * 917,220 = 262,092 + 3,668,880 = 3,930,972
//     store_bytes.shared = load_bytes.shared = 4 n = 262,092
//     store_bytes.global = 4 n = 262,092
//     flops.f32 = 917,220
//
// decode_free(lens, w, out, n): threads past n return at once; no barrier,
//   so the whole kernel is where lanes may wait for each other.
//     load_bytes.global = 3,930,972, store_bytes.global = 262,092,
//     flops.f32 = 917,220
//
// w[] holds small integers, so every sum is exact; results are checked
// against the host's.
//
// clang-format off
// EXPECT: kernel _Z20decode_after_barrierPKiPKfPfi launches=1 load_bytes.global=3930972 store_bytes.global=262092 load_bytes.shared=262092 store_bytes.shared=262092 flops.f32=917220
// EXPECT: kernel _Z11decode_freePKiPKfPfi launches=1 load_bytes.global=3930972 store_bytes.global=262092 flops.f32=917220
// EXPECT: consistent
// clang-format on
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

constexpr int Threads = 256, Weights = 16;

__global__ void decode_after_barrier(const int *lens, const float *w,
                                     float *out, int n) {
  __shared__ int staged[Threads];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    staged[threadIdx.x] = lens[i];
    __syncthreads(); // inside the bounds check, as the decoder has it
    const int len = staged[threadIdx.x];
    float s = 0.0f;
    for (int k = 0; k < len; ++k)
      s += w[k % Weights];
    out[i] = s;
  }
}

__global__ void decode_free(const int *lens, const float *w, float *out,
                            int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const int len = lens[i];
  float s = 0.0f;
  for (int k = 0; k < len; ++k)
    s += w[k % Weights];
  out[i] = s;
}

static int check(cudaError_t e, const char *what) {
  if (e == cudaSuccess)
    return 0;
  std::printf("exitgather: FAILED: %s: %s\n", what, cudaGetErrorString(e));
  return 1;
}

// The host's decode of thread i, to check both kernels' results.
static float expected(const std::vector<int> &lens, const std::vector<float> &w,
                      int i) {
  float s = 0.0f;
  for (int k = 0; k < lens[i]; ++k)
    s += w[k % Weights];
  return s;
}

int main() {
  const int n = Threads * Threads - 13, blocks = (n + Threads - 1) / Threads;
  std::vector<int> lens(n);
  std::vector<float> w(Weights), a(n), b(n);
  for (int i = 0; i < n; ++i)
    lens[i] = i % 29;
  for (int k = 0; k < Weights; ++k)
    w[k] = (float)(k % 5) - 2.0f;
  int *dlens;
  float *dw, *da, *db;
  if (check(cudaMalloc(&dlens, n * sizeof(int)), "cudaMalloc") ||
      check(cudaMalloc(&dw, Weights * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&da, n * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&db, n * sizeof(float)), "cudaMalloc"))
    return 1;
  cudaMemcpy(dlens, lens.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dw, w.data(), Weights * sizeof(float), cudaMemcpyHostToDevice);
  decode_after_barrier<<<blocks, Threads>>>(dlens, dw, da, n);
  decode_free<<<blocks, Threads>>>(dlens, dw, db, n);
  if (check(cudaDeviceSynchronize(), "kernels"))
    return 1;
  cudaMemcpy(a.data(), da, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(b.data(), db, n * sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
  double checksum = 0.0;
  for (int i = 0; i < n; ++i) {
    const float e = expected(lens, w, i);
    wrong += (a[i] != e) + (b[i] != e);
    checksum += a[i];
  }
  std::printf("exitgather: checksum %.1f, %d wrong\n", checksum, wrong);
  std::printf("exitgather: %s\n", wrong == 0 ? "PASSED" : "FAILED");
  return wrong == 0 ? 0 : 1;
}
