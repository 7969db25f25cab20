// Divergence mode: a kernel launched with blocks of one thread.
//
// Its warps have one active lane, lane 0. The runtime launches the
// kernel's one-lane copy (abi.h, PASTA_DIV_ONE_LANE_SUFFIX: the divergence
// copy with the block 1 x 1 x 1 put in, passes/DivergenceOneLane.h) for
// such blocks (host_rt/launch.c, runs_one_lane); its figures must be the
// divergence copy's.
//
// walk<<<4, 1>>>(a, out, 10): each of 4 blocks' one thread walks 10
// elements of a (a[i] = i % 3, i = 10 b + k) in a loop, keeps the odd ones
// in shared memory and writes one sum. Expected figures by hand (ints of
// 4 bytes at multiples of 4, so one sector each; a warp of one lane has no
// partner: its bytes are distinct, no bank conflict, no divergent branch):
//  - line 36 (the load of a[i]): 40 requests of 4 bytes: requests 40,
//    requested and distinct bytes 160, sectors and ideal sectors 40;
//  - line 37 (`if (v & 1)`): 40 executions, none divergent;
//  - line 38 (the shared store, v odd: i % 3 == 1 for 13 of i = 0..39):
//    13 shared requests, 52 requested and distinct bytes, 0 conflicts;
//  - line 41 (the store to out[b]): 4 requests, 16 bytes, 4 sectors.
// The same source built with -mllvm -pasta-div-one-lane=0 runs the
// divergence copy itself; scripts/gpu_div_one_lane.sh compares the two
// profiles. Prints "div_one_lane: PASSED" and exits 0 when every out[b] is
// right.
#include <cstdio>
#include <cuda_runtime.h>

static const int kBlocks = 4, kSteps = 10;

// clang-format off
__global__ void walk(const int *a, int *out, int n) {
  __shared__ volatile int odd[16]; // volatile: kept, though never read
  int b = blockIdx.x;
  int sum = 0;
#pragma unroll 1 // one branch of line 37 a step: no remainder test there
  for (int k = 0; k < n; ++k) {
    int v = a[b * n + k];
    if (v & 1)
      odd[k & 15] = v;
    sum += v;
  }
  out[b] = sum;
}
// clang-format on

int main() {
  int h_a[kBlocks * kSteps], h_out[kBlocks];
  for (int i = 0; i < kBlocks * kSteps; ++i)
    h_a[i] = i % 3;
  int *a = nullptr, *out = nullptr;
  if (cudaMalloc(&a, sizeof h_a) != cudaSuccess ||
      cudaMalloc(&out, sizeof h_out) != cudaSuccess ||
      cudaMemcpy(a, h_a, sizeof h_a, cudaMemcpyHostToDevice) != cudaSuccess)
    return 2;
  walk<<<kBlocks, 1>>>(a, out, kSteps);
  if (cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost) !=
      cudaSuccess)
    return 2;
  for (int b = 0; b < kBlocks; ++b) {
    int want = 0;
    for (int k = 0; k < kSteps; ++k)
      want += h_a[b * kSteps + k];
    if (h_out[b] != want) {
      std::printf("div_one_lane: FAILED at %d: got %d expected %d\n", b,
                  h_out[b], want);
      return 1;
    }
  }
  std::printf("div_one_lane: PASSED\n");
  return 0;
}
