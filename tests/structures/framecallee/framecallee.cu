// Structure: a device function of some 30 counters, not inlined, called in
// a loop by two kernels, one of them under __launch_bounds__(128, 8)
// (issue [overhead-3]: AutoDock-GPU's gpu_calc_energrad, called ~249 M
// times, has 16 64-bit counts and 33 bits, over the twins' return limit of
// 8, and flushes them at every call). Built with -mllvm
// -pasta-callee-frames (scripts/build_structures.sh): its twin adds its
// counts into a frame each kernel owns, flushed once at the kernel's exit
// (docs/design.md, "Device functions"). The totals must be exact either
// way.
//
// n = 25 * 128 = 3,200 threads, 128 per block (25 blocks), every thread in
// range; thread i takes x = i % 25 (0..24): each x is taken by 128
// threads. w[k] = k + 0.5 (k = 0..31).
//
// term(w, rows, i, x) (noinline), e starting at x:
//  A. 24 steps, unrolled (24 blocks on no cycle: bits): load w[k] (4 B);
//     where x > w[k], that is k < x: e += w[k] (1 FLOP) and store e to
//     rows[i * 40 + k] (4 B). x of them taken.
//  B. for j < x: load w[j + 8] (4 B); where w[j + 8] > 12, that is
//     j >= 4: e += it (1 FLOP), store e to rows[i * 40 + 24 + (j & 7)]
//     (4 B). max(0, x - 4) taken.
//  C. for j < x: where j % 3 == 0: load w[j] (4 B; the load's only use is
//     in the branch, and clang sinks it there), e += w[j] (1 FLOP), store
//     e to rows[i * 40 + 32 + (j & 7)] (4 B). ceil(x / 3) taken.
//  Per call: loads 96 + 4x + 4 ceil(x / 3) B; FLOPs x + max(0, x - 4) +
//  ceil(x / 3); stores 4 times the FLOPs.
//  Sums over x = 0..24: x 300; max(0, x - 4) 1 + ... + 20 = 210;
//  ceil(x / 3) 3 * (1 + 2 + ... + 8) = 108. So over the 25 values of x:
//  loads 25 * 96 + 4 * 300 + 4 * 108 = 4,032 B; FLOPs 300 + 210 + 108 =
//  618; stores 2,472 B. One call by every thread (128 threads per x):
//  loads 516,096 B; FLOPs 79,104; stores 316,416 B.
//
// term is reached from both kernels: its counts are a device function's
// row ("device_functions"), not the kernels'. 8 + 3 = 11 calls a thread:
//   calls = 11 * 3,200 = 35,200
//   flops.f32 = 11 * 79,104 = 870,144
//   load_bytes.global = 11 * 516,096 = 5,677,056
//   store_bytes.global = 11 * 316,416 = 3,480,576
// The kernels' own: sweep (acc += term 8 times, 1 FLOP each; out[i] = acc,
// 4 B): flops.f32 = 8 * 3,200 = 25,600, store_bytes.global = 12,800, no
// load; sweep_bounded (3 times): flops.f32 = 9,600, store_bytes.global =
// 12,800.
//
// Results: every value is a whole multiple of 0.5 below 2^20, exact in
// float; the host computes the same sums and compares for equality.
//
// clang-format off
// EXPECT: kernel _Z5sweepPKfPfS1_ii launches=1 flops.f32=25600 load_bytes.global=0 store_bytes.global=12800
// EXPECT: kernel _Z13sweep_boundedPKfPfS1_ii launches=1 flops.f32=9600 load_bytes.global=0 store_bytes.global=12800
// EXPECT: function _Z4termPKfPfii calls=35200 flops.f32=870144 load_bytes.global=5677056 store_bytes.global=3480576
// clang-format on
#include <cstdio>
#include <vector>

#define STEPS 24
#define ROW 40
#define VALUES 25

__device__ __noinline__ float term(const float *w, float *rows, int i, int x) {
  float e = (float)x;
  float *row = rows + (size_t)i * ROW;
#pragma unroll
  for (int k = 0; k < STEPS; ++k) {
    float wk = w[k];
    if (x > wk) {
      e += wk;
      row[k] = e;
    }
  }
  for (int j = 0; j < x; ++j) {
    float v = w[j + 8];
    if (v > 12.0f) {
      e += v;
      row[STEPS + (j & 7)] = e;
    }
  }
  for (int j = 0; j < x; ++j) {
    float v = w[j];
    if (j % 3 == 0) {
      e += v;
      row[STEPS + 8 + (j & 7)] = e;
    }
  }
  return e;
}

__global__ void sweep(const float *w, float *rows, float *out, int n,
                      int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float acc = 0.0f;
  for (int it = 0; it < iters; ++it)
    acc += term(w, rows, i, i % VALUES);
  out[i] = acc;
}

__global__ void __launch_bounds__(128, 8)
    sweep_bounded(const float *w, float *rows, float *out, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float acc = 0.0f;
  for (int it = 0; it < iters; ++it)
    acc += term(w, rows, i, i % VALUES);
  out[i] = acc;
}

// term's sums on the host, in the same order; rows as the device leaves
// them.
static float termHost(const std::vector<float> &w, float *row, int x) {
  float e = (float)x;
  for (int k = 0; k < STEPS; ++k)
    if (x > w[k]) {
      e += w[k];
      row[k] = e;
    }
  for (int j = 0; j < x; ++j)
    if (w[j + 8] > 12.0f) {
      e += w[j + 8];
      row[STEPS + (j & 7)] = e;
    }
  for (int j = 0; j < x; ++j)
    if (j % 3 == 0) {
      e += w[j];
      row[STEPS + 8 + (j & 7)] = e;
    }
  return e;
}

static bool check(cudaError_t e, const char *what) {
  if (e != cudaSuccess)
    fprintf(stderr, "framecallee: %s: %s\n", what, cudaGetErrorString(e));
  return e == cudaSuccess;
}

int main() {
  const int n = VALUES * 128, threads = 128;
  std::vector<float> w(32), out(n), out2(n), rows((size_t)n * ROW);
  std::vector<float> want((size_t)n * ROW, 0.0f);
  for (int k = 0; k < 32; ++k)
    w[k] = k + 0.5f;
  float *dw = nullptr, *drows = nullptr, *dout = nullptr, *dout2 = nullptr;
  if (!check(cudaMalloc(&dw, w.size() * sizeof(float)), "cudaMalloc") ||
      !check(cudaMalloc(&drows, rows.size() * sizeof(float)), "cudaMalloc") ||
      !check(cudaMalloc(&dout, n * sizeof(float)), "cudaMalloc") ||
      !check(cudaMalloc(&dout2, n * sizeof(float)), "cudaMalloc"))
    return 1;
  cudaMemcpy(dw, w.data(), w.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(drows, 0, rows.size() * sizeof(float));
  sweep<<<n / threads, threads>>>(dw, drows, dout, n, 8);
  sweep_bounded<<<n / threads, threads>>>(dw, drows, dout2, n, 3);
  if (!check(cudaDeviceSynchronize(), "sweep"))
    return 1;
  cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(out2.data(), dout2, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(rows.data(), drows, rows.size() * sizeof(float),
             cudaMemcpyDeviceToHost);
  long bad = 0;
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    float e = termHost(w, &want[(size_t)i * ROW], i % VALUES);
    bad += out[i] != 8.0f * e;
    bad += out2[i] != 3.0f * e;
    sum += out[i] + out2[i];
  }
  for (size_t k = 0; k < rows.size(); ++k)
    bad += rows[k] != want[k];
  cudaFree(dw);
  cudaFree(drows);
  cudaFree(dout);
  cudaFree(dout2);
  printf("framecallee: %s (checksum %.1f)\n", bad ? "FAILED" : "PASSED", sum);
  return bad ? 1 : 0;
}
