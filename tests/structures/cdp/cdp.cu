// Structure: dynamic parallelism, a kernel that launches itself from the
// device (Learn-CUDA-Programming's CDP quicksort: one
// thread of each launch launches the two halves' grids, recursively). Built
// with relocatable device code and CUDA's device runtime (-fgpu-rdc,
// --offload-link, -lcudadevrt), as nvcc's -rdc=true builds it.
//
// Kernel node(src, dst, idx, depth), 64 threads, one block: node idx (a
// heap index, 1 for the root) owns the window w = (idx - 1) * 64 of 64
// ints; thread t does dst[w + t] = src[w + t] + depth. Thread 0 of a node
// above depth 3 then launches node 2 idx and node 2 idx + 1 at depth + 1
// (two `node<<<1, 64>>>` from the device, into the block's own stream).
// The host launches the root once: nodes at depths 0..3, 1 + 2 + 4 + 8 =
// 15 launches of 64 threads, 14 of them from the device (by the 7 nodes of
// depths 0..2).
//
// Expected counts (PASTA counts a kernel's launches on the GPU, the first
// thread of each grid adding 1, so device-side launches are in `launches`;
// the launch table holds what the host launched):
//   launches           = 15 (1 from the host, 14 from the device)
//   load_bytes.global  = 15 nodes x 64 threads x 4 bytes = 3,840
//   store_bytes.global = the windows, 15 x 64 x 4 = 3,840, plus each
//                        device-side launch's arguments written to its
//                        parameter buffer (cudaGetParameterBuffer's memory,
//                        global; one store per argument: src 8, dst 8, idx
//                        4, depth 4 = 24 bytes), 14 x 24 = 336: 4,176
//   stores.global      = 960 + 14 x 4 = 1,016
//   store_bytes.local  = each device-side launch passes its grid and block
//                        dimensions (two dim3, 3 x 4 bytes each) by value to
//                        cudaLaunchDevice, through the launching thread's
//                        local memory: 14 x 24 = 336
// Launch table: node with 1 launch (the host's), one shape. The profile is
// therefore not `consistent` (14 launches the host never made): by design.
//
// Result: dst[w + t] = (w + t) + depth(idx); the checksum is the sum of
// 0..959 plus 64 x (0 + 2 x 1 + 4 x 2 + 8 x 3) = 460,320 + 2,176 = 462,496.
//
// clang-format off
// EXPECT: kernel _Z4nodePKiPiii launches=15 load_bytes.global=3840 store_bytes.global=4176 stores.global=1016 store_bytes.local=336
// EXPECT: launch _Z4nodePKiPiii launches=1 failed=0 shapes=1
// clang-format on
#include <cstdio>
#include <cuda_runtime.h>

namespace {
constexpr int kWindow = 64, kDepths = 4, kNodes = (1 << kDepths) - 1;
} // namespace

__global__ void node(const int *src, int *dst, int idx, int depth) {
  int i = (idx - 1) * kWindow + threadIdx.x;
  dst[i] = src[i] + depth;
  if (threadIdx.x == 0 && depth + 1 < kDepths) {
    node<<<1, kWindow>>>(src, dst, 2 * idx, depth + 1);
    node<<<1, kWindow>>>(src, dst, 2 * idx + 1, depth + 1);
  }
}

int main() {
  const int n = kNodes * kWindow;
  int *src, *dst, h[kNodes * kWindow];
  for (int i = 0; i < n; ++i)
    h[i] = i;
  if (cudaMalloc(&src, sizeof h) != cudaSuccess ||
      cudaMalloc(&dst, sizeof h) != cudaSuccess) {
    std::printf("cdp: FAILED (cudaMalloc)\n");
    return 1;
  }
  cudaMemcpy(src, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(dst, 0xff, sizeof h);
  node<<<1, kWindow>>>(src, dst, 1, 0);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(h, dst, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(src);
  cudaFree(dst);
  if (e != cudaSuccess) {
    std::printf("cdp: FAILED (%s)\n", cudaGetErrorString(e));
    return 1;
  }
  long sum = 0;
  int bad = 0;
  for (int idx = 1; idx <= kNodes; ++idx) {
    int depth = 31 - __builtin_clz(idx); // heap level of idx
    for (int t = 0; t < kWindow; ++t) {
      int i = (idx - 1) * kWindow + t;
      bad += h[i] != i + depth;
      sum += h[i];
    }
  }
  std::printf("cdp: checksum %ld (expected 462496): %s\n", sum,
              bad || sum != 462496 ? "FAILED" : "PASSED");
  return bad || sum != 462496;
}
