// Structure: device pointers kept in a __constant__ struct, which the host
// fills with cudaMemcpyToSymbol (issue [overhead-3]: AutoDock-GPU's
// GpuData, whose accesses through those pointers were each resolved at run
// time: their address-space counters were 456 of gpu_calc_energrad's 528,
// and its kernels' counting copies spilled 5-14 KB). Device
// code cannot write constant memory, so such a pointer points to global
// memory, as a kernel's pointer argument does, and is counted so without a
// run-time test (docs/design.md, "Counting on the GPU"). The totals must be
// exact either way (the run-time test also says global).
//
// n = 17 * 256 = 4,352 threads, 128 per block (34 blocks), every thread in
// range. K = 16. The host writes cT = {w, rows, out, iters = 8}.
//
// sweep(n): thread i takes x = i % 17 (0..16) and calls score(i, x)
// cT.iters = 8 times, adding each result to acc (1 FLOP a call), then
// stores cT.out[i] = acc (4 B).
// score (noinline) walks K = 16 steps: it loads cT.w[k] (4 B), and where
// x > w[k] it adds w[k] to e (1 FLOP) and stores e to cT.rows[i * K + k]
// (4 B). w[k] = k + 0.5, so step k is taken where k < x: x steps a call.
//   Per call: loads 16 * 4 = 64 B (global); x FLOPs; 4 x store bytes.
//   Sum of x over the threads: 256 * (0 + 1 + ... + 16) = 256 * 136
//     = 34,816.
//   flops.f32 = 8 * 34,816 + 8 * 4,352 = 278,528 + 34,816 = 313,344
//   load_bytes.global = 8 * 4,352 * 64 = 2,228,224
//   store_bytes.global = 4 * 8 * 34,816 + 4 * 4,352 = 1,114,112 + 17,408
//     = 1,131,520
// (The loads of cT's fields are constant-space loads, not checked: how
// often the compiler reloads them is its choice.)
// score is reached from sweep only: its counts are in sweep's.
//
// Results: e = x + sum_{k < x} (k + 0.5), acc = 8 e, rows[i * K + k] the
// partial sum after step k (0 where not taken): whole multiples of 0.5,
// exact in float, checked for equality.
//
// clang-format off
// EXPECT: kernel _Z5sweepi launches=1 flops.f32=313344 load_bytes.global=2228224 store_bytes.global=1131520
// clang-format on
#include <cstdio>
#include <vector>

#define K 16

struct Tables {
  const float *w;
  float *rows;
  float *out;
  int iters;
};

static __constant__ Tables cT;

__device__ __noinline__ float score(int i, float x) {
  float e = x;
  for (int k = 0; k < K; ++k) {
    float wk = cT.w[k];
    if (x > wk) {
      e += wk;
      cT.rows[(size_t)i * K + k] = e;
    }
  }
  return e;
}

__global__ void sweep(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = (float)(i % (K + 1));
  float acc = 0.0f;
  for (int it = 0; it < cT.iters; ++it)
    acc += score(i, x);
  cT.out[i] = acc;
}

static bool check(cudaError_t e, const char *what) {
  if (e != cudaSuccess)
    fprintf(stderr, "constptrs: %s: %s\n", what, cudaGetErrorString(e));
  return e == cudaSuccess;
}

int main() {
  const int n = (K + 1) * 256, threads = 128;
  std::vector<float> w(K), out(n), rows((size_t)n * K);
  for (int k = 0; k < K; ++k)
    w[k] = k + 0.5f;
  Tables t{};
  float *dw = nullptr;
  if (!check(cudaMalloc(&dw, K * sizeof(float)), "cudaMalloc") ||
      !check(cudaMalloc(&t.rows, rows.size() * sizeof(float)), "cudaMalloc") ||
      !check(cudaMalloc(&t.out, n * sizeof(float)), "cudaMalloc"))
    return 1;
  t.w = dw;
  t.iters = 8;
  cudaMemcpy(dw, w.data(), K * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(t.rows, 0, rows.size() * sizeof(float));
  if (!check(cudaMemcpyToSymbol(cT, &t, sizeof t), "cudaMemcpyToSymbol"))
    return 1;
  sweep<<<n / threads, threads>>>(n);
  if (!check(cudaDeviceSynchronize(), "sweep"))
    return 1;
  cudaMemcpy(out.data(), t.out, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(rows.data(), t.rows, rows.size() * sizeof(float),
             cudaMemcpyDeviceToHost);
  long bad = 0;
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    int x = i % (K + 1);
    float e = (float)x;
    for (int k = 0; k < K; ++k) {
      float want = 0.0f;
      if (k < x) {
        e += w[k];
        want = e;
      }
      bad += rows[(size_t)i * K + k] != want;
    }
    bad += out[i] != 8.0f * e;
    sum += out[i];
  }
  cudaFree(dw);
  cudaFree(t.rows);
  cudaFree(t.out);
  printf("constptrs: %s (checksum %.1f)\n", bad ? "FAILED" : "PASSED", sum);
  return bad ? 1 : 0;
}
