// Divergence mode: a loop long enough to overflow a 32-bit register.
//
// What a divergence copy measures in a loop whose lanes change goes to
// 32-bit registers, which the copy adds to the counters and zeroes every
// 2^31 / (the most one iteration adds) loop-header visits
// (passes/DivergenceMeasures.cpp, drainBeforeOverflow). Here one warp runs a
// loop of kIters iterations, and lane t one more when t is odd (a divergent
// exit: the loop's lanes change, so its figures go to registers). Each
// iteration gathers one 8-byte element per lane through an index the pass
// cannot see (perm[t], read before the loop), so the general access
// helper measures it and adds its figures to the registers every
// iteration.
//
// Expected figures of line 39, derived by hand (kIters = L = 10,000,000):
//  - requests: L full-warp executions + 1 of the 16 odd lanes = 10,000,001;
//  - requested bytes: 32 lanes x 8 B x L + 16 x 8 B = 2,560,000,128, more
//    than 2^31: without the drain the byte register would wrap;
//  - distinct bytes: perm is the identity, lanes read consecutive
//    elements: the same, 2,560,000,128;
//  - sectors: a full warp's 256 bytes from a 256-byte boundary are 8
//    sectors; the odd lanes' elements lie two in each of the same 8
//    sectors: 8 x (L + 1) = 80,000,008;
//  - ideal sectors: ceil(distinct / 32) per execution: 8 L + 4 =
//    80,000,004.
// The results: lane t adds L + (t & 1) ones.
// Prints "div_long_loop: PASSED" and exits 0 when every lane's sum is right.
#include <cstdio>
#include <cuda_runtime.h>

static const long long kIters = 10000000;

__global__ void long_loop(const long long *in, const int *perm, long long *out,
                          long long iters) {
  int t = threadIdx.x;
  int p = perm[t];
  long long mine = iters + (t & 1);
  long long sum = 0;
  for (long long i = 0; i < mine; ++i)
    sum += in[(i & 1023) * 32 + p];
  out[t] = sum;
}

int main() {
  const int n = 1024 * 32;
  long long *in = nullptr, *out = nullptr;
  int *perm = nullptr;
  long long *h_in = new long long[n];
  for (int i = 0; i < n; ++i)
    h_in[i] = 1;
  int h_perm[32];
  for (int t = 0; t < 32; ++t)
    h_perm[t] = t;
  if (cudaMalloc(&in, n * sizeof(long long)) != cudaSuccess ||
      cudaMalloc(&perm, sizeof h_perm) != cudaSuccess ||
      cudaMalloc(&out, 32 * sizeof(long long)) != cudaSuccess ||
      cudaMemcpy(in, h_in, n * sizeof(long long), cudaMemcpyHostToDevice) !=
          cudaSuccess ||
      cudaMemcpy(perm, h_perm, sizeof h_perm, cudaMemcpyHostToDevice) !=
          cudaSuccess)
    return 2;
  long_loop<<<1, 32>>>(in, perm, out, kIters);
  long long h_out[32];
  if (cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost) !=
      cudaSuccess)
    return 2;
  for (int t = 0; t < 32; ++t)
    if (h_out[t] != kIters + (t & 1)) {
      std::printf("div_long_loop: FAILED at lane %d: %lld\n", t, h_out[t]);
      return 1;
    }
  std::printf("div_long_loop: PASSED\n");
  delete[] h_in;
  return 0;
}
