// Structure: CUDA graphs, the two ways real code makes them.
//
// 1. Stream capture: cap_inc, cap_half and cap_acc are launched with <<<>>>
//    on a stream between cudaStreamBeginCapture and cudaStreamEndCapture
//    (nothing runs then), the graph is instantiated once and the instance
//    launched R = 100 times (cudaGraphLaunch), as a solver's time loop does.
// 2. A graph built by hand: two kernel nodes (cudaGraphAddKernelNode, the
//    second depending on the first), node_fill then node_square,
//    instantiated once and launched G = 10 times.
//
// n = 2^14 elements, 256 threads per block (64 blocks), one element per
// thread, every thread in range. Per launch and thread:
//   cap_inc   a[i] += 1         1 load + 1 store of 4 bytes, 1 f32 add
//   cap_half  b[i] = 0.5 * a[i] 1 load + 1 store of 4 bytes, 1 f32 multiply
//   cap_acc   c[i] += b[i]      2 loads + 1 store of 4 bytes, 1 f32 add
//   node_fill   d[i] = 3        1 store of 4 bytes
//   node_square d[i] = d[i]^2   1 load + 1 store of 4 bytes, 1 f32 multiply
//
// Expected counts (a kernel's launches are counted on the GPU, by its first
// thread, so every graph launch counts):
//   cap_inc:   launches = 100, load_bytes.global = 100 x 16384 x 4 =
//              6,553,600, store_bytes.global = 6,553,600, flops.f32 =
//              100 x 16384 = 1,638,400
//   cap_half:  the same: 100; 6,553,600; 6,553,600; 1,638,400
//   cap_acc:   launches = 100, load_bytes.global = 13,107,200,
//              store_bytes.global = 6,553,600, flops.f32 = 1,638,400
//   node_fill: launches = 10, load_bytes.global = 0, store_bytes.global =
//              10 x 16384 x 4 = 655,360, flops.f32 = 0
//   node_square: launches = 10, load_bytes.global = 655,360,
//              store_bytes.global = 655,360, flops.f32 = 163,840
// The launch table should say the same: each graph launch runs each of its
// kernels once (100 launches of each cap_* kernel, 10 of each node_*).
// The capture itself runs nothing.
//
// Results: a, b, c start at 0, so after r replays a = r, b = r / 2 and
// c = (1 + ... + r) / 2; after 100: a = 100, b = 50, c = 2525 (exact in
// f32). d = 9 after any number of launches of the second graph. Checksum:
// n x (100 + 50 + 2525 + 9) = 43,974,656.
//
// clang-format off
// EXPECT: kernel _Z7cap_incPf launches=100 load_bytes.global=6553600 store_bytes.global=6553600 flops.f32=1638400
// EXPECT: kernel _Z8cap_halfPKfPf launches=100 load_bytes.global=6553600 store_bytes.global=6553600 flops.f32=1638400
// EXPECT: kernel _Z7cap_accPfPKf launches=100 load_bytes.global=13107200 store_bytes.global=6553600 flops.f32=1638400
// EXPECT: kernel _Z9node_fillPf launches=10 load_bytes.global=0 store_bytes.global=655360 flops.f32=0
// EXPECT: kernel _Z11node_squarePf launches=10 load_bytes.global=655360 store_bytes.global=655360 flops.f32=163840
// EXPECT: launch _Z7cap_incPf launches=100 failed=0
// EXPECT: launch _Z8cap_halfPKfPf launches=100 failed=0
// EXPECT: launch _Z7cap_accPfPKf launches=100 failed=0
// EXPECT: launch _Z9node_fillPf launches=10 failed=0
// EXPECT: launch _Z11node_squarePf launches=10 failed=0
// clang-format on
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

__global__ void cap_inc(float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] += 1.0f;
}
__global__ void cap_half(const float *a, float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  b[i] = 0.5f * a[i];
}
__global__ void cap_acc(float *c, const float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] += b[i];
}
__global__ void node_fill(float *d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  d[i] = 3.0f;
}
__global__ void node_square(float *d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  d[i] = d[i] * d[i];
}

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "graphs: %s: %s\n", #call, cudaGetErrorString(e_)); \
      std::printf("graphs: FAILED\n");                                         \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main() {
  const int n = 1 << 14, block = 256, grid = n / block, replays = 100,
            node_runs = 10;
  float *a, *b, *c, *d;
  CHECK(cudaMalloc(&a, 4 * n * sizeof(float)));
  b = a + n;
  c = b + n;
  d = c + n;
  CHECK(cudaMemset(a, 0, 4 * n * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  // 1. Stream capture of three launches.
  cudaGraph_t captured;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cap_inc<<<grid, block, 0, s>>>(a);
  cap_half<<<grid, block, 0, s>>>(a, b);
  cap_acc<<<grid, block, 0, s>>>(c, b);
  CHECK(cudaStreamEndCapture(s, &captured));
  cudaGraphExec_t run_captured;
  CHECK(cudaGraphInstantiate(&run_captured, captured, 0));
  for (int r = 0; r < replays; ++r)
    CHECK(cudaGraphLaunch(run_captured, s));
  CHECK(cudaStreamSynchronize(s));

  // 2. A graph of two kernel nodes, built by hand.
  cudaGraph_t built;
  CHECK(cudaGraphCreate(&built, 0));
  void *fill_args[] = {&d}, *square_args[] = {&d};
  cudaKernelNodeParams p = {};
  p.gridDim = dim3(grid);
  p.blockDim = dim3(block);
  p.func = (void *)node_fill;
  p.kernelParams = fill_args;
  cudaGraphNode_t fill, square;
  CHECK(cudaGraphAddKernelNode(&fill, built, nullptr, 0, &p));
  p.func = (void *)node_square;
  p.kernelParams = square_args;
  CHECK(cudaGraphAddKernelNode(&square, built, &fill, 1, &p));
  cudaGraphExec_t run_built;
  CHECK(cudaGraphInstantiate(&run_built, built, 0));
  for (int r = 0; r < node_runs; ++r)
    CHECK(cudaGraphLaunch(run_built, s));
  CHECK(cudaStreamSynchronize(s));

  std::vector<float> h(4 * n);
  CHECK(cudaMemcpy(h.data(), a, 4 * n * sizeof(float), cudaMemcpyDeviceToHost));
  double sum = 0;
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    ok = ok && h[i] == 100.0f && h[n + i] == 50.0f && h[2 * n + i] == 2525.0f &&
         h[3 * n + i] == 9.0f;
    sum += h[i] + h[n + i] + h[2 * n + i] + h[3 * n + i];
  }
  cudaGraphExecDestroy(run_captured);
  cudaGraphExecDestroy(run_built);
  cudaGraphDestroy(captured);
  cudaGraphDestroy(built);
  cudaStreamDestroy(s);
  cudaFree(a);
  std::printf("graphs: %s checksum %.0f\n", ok ? "PASSED" : "FAILED", sum);
  return ok ? 0 : 1;
}
