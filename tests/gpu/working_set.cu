// GPU test of the working-set and kernel-frequency analyzers with a known
// access pattern. With PASTA_WORKING_SET=1 and 64 KiB pages, the expected
// per-launch results below are derived by hand from the allocations and the
// launches (tests/check_working_set.py holds the same numbers and compares
// them with the JSON profile and the hotness CSV).
//
//   A = 4 MiB, B = 1 MiB + 100 B, C = 256 KiB, D = 8 MiB (never touched),
//   M = 128 KiB managed; then B is freed and E = 512 KiB allocated.
//
//   launch 0  fill(A, 65536 bytes, stride 1)   1 page of A        65536 B
//   launch 1  copy(B + 1 MiB -> C, 100 bytes)  B's last page (100 B of it)
//                                             + C's first page    65636 B
//   launch 2  fill(A, 4 bytes, stride 1 MiB)   4 pages of A      262144 B
//   launch 3  bump_global()                    only a __device__ array:
//                                             64 accesses outside     0 B
//   launch 4  fill(M, 131072 bytes, stride 1)  2 pages of M      131072 B
//   launch 5  copy(A -> E, 512 KiB)            8 pages of A + all of E
//                                                                1048576 B
// The program checks its own results and prints "working_set: PASSED".
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

__device__ int g_counts[32];

__global__ void fill(char *p, size_t n, size_t stride) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i * stride] = 1;
}

__global__ void copy(const char *src, char *dst, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] = src[i];
}

__global__ void bump_global() {
  g_counts[threadIdx.x] += 1; // OUTSIDE-LINE
}

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "working_set: %s failed: %s\n", #call,                   \
              cudaGetErrorString(err_));                                       \
      return 2;                                                                \
    }                                                                          \
  } while (0)

static unsigned blocks(size_t n) { return (unsigned)((n + 255) / 256); }

int main() {
  const size_t MiB = 1 << 20, KiB = 1 << 10;
  char *a, *b, *c, *d, *m, *e;
  CHECK(cudaMalloc(&a, 4 * MiB));
  CHECK(cudaMalloc(&b, MiB + 100));
  CHECK(cudaMalloc(&c, 256 * KiB));
  CHECK(cudaMalloc(&d, 8 * MiB));
  CHECK(cudaMallocManaged(&m, 128 * KiB));
  CHECK(cudaMemset(a, 0, 4 * MiB));
  CHECK(cudaMemset(b, 7, MiB + 100));

  fill<<<blocks(65536), 256>>>(a, 65536, 1); // LAUNCH-0
  copy<<<1, 128>>>(b + MiB, c, 100);
  fill<<<1, 256>>>(a, 4, MiB);
  bump_global<<<1, 32>>>();
  fill<<<blocks(128 * KiB), 256>>>(m, 128 * KiB, 1);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(b));
  CHECK(cudaMalloc(&e, 512 * KiB));
  copy<<<blocks(512 * KiB), 256>>>(a, e, 512 * KiB);
  CHECK(cudaGetLastError());

  static char host[512 * 1024];
  CHECK(cudaMemcpy(host, e, sizeof host, cudaMemcpyDeviceToHost));
  char cbuf[100];
  CHECK(cudaMemcpy(cbuf, c, sizeof cbuf, cudaMemcpyDeviceToHost));
  int counts[32];
  CHECK(cudaMemcpyFromSymbol(counts, g_counts, sizeof counts));
  // E = A's first 512 KiB: bytes 0..65535 are 1 (launch 0), bytes at
  // k MiB are 1 (launch 2; only k = 0 is below 512 KiB), the rest 0.
  for (size_t i = 0; i < sizeof host; ++i)
    if (host[i] != (i < 65536 ? 1 : 0)) {
      fprintf(stderr, "working_set: FAILED at E[%zu] = %d\n", i, host[i]);
      return 1;
    }
  for (int i = 0; i < 100; ++i)
    if (cbuf[i] != 7 || counts[i % 32] != 1) {
      fprintf(stderr, "working_set: FAILED at C/g_counts %d\n", i);
      return 1;
    }
  for (size_t i = 0; i < 128 * KiB; ++i)
    if (m[i] != 1) {
      fprintf(stderr, "working_set: FAILED at M[%zu]\n", i);
      return 1;
    }
  CHECK(cudaFree(a));
  CHECK(cudaFree(c));
  CHECK(cudaFree(d));
  CHECK(cudaFree(m));
  CHECK(cudaFree(e));
  printf("working_set: PASSED\n");
  return 0;
}
