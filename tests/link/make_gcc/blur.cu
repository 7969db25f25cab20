/* The kernels of the gcc-linked project (Makefile): ITERS = 4 passes of a
 * 3-point blur over N = 2^20 floats, ping-ponging between two buffers.
 * Each thread (N of them per launch, 256 per block, N a multiple of 256)
 * loads its element and its two neighbours (clamped at the ends: always 3
 * loads), adds them (2 f32 adds), scales by 1/3 (1 f32 multiply) and
 * stores one float. Per launch: 12 N load bytes, 4 N store bytes, 3 N
 * FLOPs; for 4 launches (scripts/gpu_structures.sh checks these with
 * tests/structures/check_structure.py): */
/* clang-format off */
// EXPECT: kernel _Z9blur_stepPKfPfi launches=4 load_bytes.global=50331648 store_bytes.global=16777216 flops.f32=12582912
// EXPECT: launch _Z9blur_stepPKfPfi launches=4 failed=0
// EXPECT: consistent
/* clang-format on */
#include "blur.h"

#include <cuda_runtime.h>

__global__ void blur_step(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int l = i > 0 ? i - 1 : 0;
  int r = i < n - 1 ? i + 1 : n - 1;
  out[i] = (in[l] + in[i] + in[r]) * (1.0f / 3.0f);
}

extern "C" int blur_gpu(float *x, int n, int iters) {
  float *a = 0, *b = 0;
  size_t bytes = (size_t)n * sizeof(float);
  cudaError_t err = cudaMalloc((void **)&a, bytes);
  if (err == cudaSuccess)
    err = cudaMalloc((void **)&b, bytes);
  if (err == cudaSuccess)
    err = cudaMemcpy(a, x, bytes, cudaMemcpyHostToDevice);
  for (int it = 0; it < iters && err == cudaSuccess; it++) {
    blur_step<<<(n + 255) / 256, 256>>>(a, b, n);
    err = cudaGetLastError();
    float *t = a;
    a = b;
    b = t;
  }
  if (err == cudaSuccess)
    err = cudaMemcpy(x, a, bytes, cudaMemcpyDeviceToHost);
  cudaFree(a);
  cudaFree(b);
  return (int)err;
}
