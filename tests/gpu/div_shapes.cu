// Divergence mode: one kernel launched with blocks of four shapes.
//
// A kernel copy whose accesses are proven in warps of one 32-lane row is a
// body for such warps alone, with no test of the block's shape; the
// runtime launches the kernel's general copy (abi.h,
// PASTA_DIV_GENERAL_SUFFIX) for blocks whose warps are not rows of 32
// (host_rt/launch.c, runs_general). Launching the body for rows of 32 for
// those would give other figures: it takes a warp's 32 lanes as one row.
//
// Expected figures of lines 37 (the load of a) and 38 (the store to out),
// the same for both, by hand (i = blockIdx.x * blockDim.x + threadIdx.x,
// 4-byte floats, buffers from cudaMalloc, 256-byte aligned):
//  - 32 blocks of 256 x 1: 256 warps of one row of 32 consecutive floats:
//    128 bytes, 4 sectors each: requests 256, bytes 32,768, distinct
//    32,768, sectors and ideal sectors 1,024;
//  - 512 blocks of 16 x 4 (rows of 16: the general copy): 1,024 warps of
//    two rows of the same 16 floats, 64 bytes from a multiple of 64: 128
//    bytes requested, 64 distinct, 2 sectors: requests 1,024, bytes
//    131,072, distinct 65,536, sectors and ideal sectors 2,048;
//  - 128 blocks of 48 x 1 (one row a block): a warp of 32 floats from a
//    multiple of 192 bytes (4 sectors) and one of 16 from 128 past it (2):
//    requests 256, bytes and distinct 24,576, sectors and ideal 768;
//  - 256 blocks of 32 x 2 (rows of 32, two of the same floats a block):
//    512 warps of 128 bytes, 4 sectors: requests 512, bytes and distinct
//    65,536, sectors and ideal 2,048.
// In all: requests 2,048, requested bytes 253,952, distinct bytes 188,416,
// sectors and ideal sectors 5,888.
// Prints "div_shapes: PASSED" and exits 0 when out = 2 a after every
// launch.
#include <cstdio>
#include <cuda_runtime.h>

static const int kN = 8192;

__global__ void scale(const float *a, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i];
  out[i] = 2.0f * v;
}

int main() {
  static float h_a[kN], h_out[kN];
  for (int i = 0; i < kN; ++i)
    h_a[i] = float(i % 13);
  float *a = nullptr, *out = nullptr;
  if (cudaMalloc(&a, sizeof h_a) != cudaSuccess ||
      cudaMalloc(&out, sizeof h_out) != cudaSuccess ||
      cudaMemcpy(a, h_a, sizeof h_a, cudaMemcpyHostToDevice) != cudaSuccess)
    return 2;
  const dim3 grids[4] = {dim3(32), dim3(512), dim3(128), dim3(256)};
  const dim3 blocks[4] = {dim3(256), dim3(16, 4), dim3(48), dim3(32, 2)};
  for (int s = 0; s < 4; ++s) {
    int n = grids[s].x * blocks[s].x; // elements this launch writes
    if (cudaMemset(out, 0, sizeof h_out) != cudaSuccess)
      return 2;
    scale<<<grids[s], blocks[s]>>>(a, out);
    if (cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost) !=
        cudaSuccess)
      return 2;
    for (int i = 0; i < kN; ++i)
      if (h_out[i] != (i < n ? 2.0f * h_a[i] : 0.0f)) {
        std::printf("div_shapes: FAILED in launch %d at %d: %g\n", s, i,
                    h_out[i]);
        return 1;
      }
  }
  std::printf("div_shapes: PASSED\n");
  return 0;
}
