// Structure: shapes of programs nobody here wrote (issue [overhead-3]): a
// kernel calling many small device functions that are not inlined (as
// myocyte's one kernel calls dozens), a kernel of a few microseconds
// launched many times, and vectorized loads. Counts must be exact whatever
// the device functions do with their counts (docs/design.md, "Device
// functions": returned to the caller up to a budget per caller, flushed at
// their return beyond it).
//
// n = 2^16 threads, 256 per block, every thread in range; p[i] = 2 for odd
// i, 0 for even i.
//
// many(p, out, n): s = f0(p, i, 1) + ... + f11(p, i, 1); out[i] = s. Each
//   fK (noinline) loads a = p[i] (4 bytes; p is the kernel's argument at
//   every call: global) and returns a > v ? a * v + K : a - v. clang
//   computes both values and selects one (no branch), so every call runs
//   an fma (2 FLOPs) and a sub (1). f4..f7 are called through g(p, i),
//   itself not inlined (one more level), which adds their four values (3
//   FLOPs) and returns them.
//     per thread: 12 calls, 12 loads of 4 bytes, 12 x 3 FLOPs, the
//     kernel's 8 adds (f0..f3, g, f8..f11: 9 values) and g's 3
//     flops.f32 = n * (12 * 3 + 8 + 3) = 47 n = 3,080,192
//     load_bytes.global = 48 n = 3,145,728; store_bytes.global = 4 n
//   All reached from `many` only: their counts are in many's.
//
// tiny(x): 64 threads, x[t] = x[t] * 0.5 + 1 (an fma: 2 FLOPs), launched
//   200 times: flops.f32 = 200 * 64 * 2 = 25,600; load_bytes.global =
//   store_bytes.global = 200 * 64 * 4 = 51,200.
//
// sum4(in, out, n): out[i] = v.x + v.y + v.z + v.w of a float4 in[i]: one
//   16-byte load, 3 FLOPs, a 4-byte store: flops.f32 = 3 n = 196,608,
//   load_bytes.global = 16 n = 1,048,576, store_bytes.global = 4 n.
//
// Results are checked on the host; prints "callgraph: PASSED" or
// "callgraph: FAILED ..." (exit 1).
//
// clang-format off
// EXPECT: kernel _Z4manyPKfPfi launches=1 flops.f32=3080192 load_bytes.global=3145728 store_bytes.global=262144
// EXPECT: kernel _Z4tinyPf launches=200 flops.f32=25600 load_bytes.global=51200 store_bytes.global=51200
// EXPECT: kernel _Z4sum4PK6float4Pfi launches=1 flops.f32=196608 load_bytes.global=1048576 store_bytes.global=262144
// EXPECT: consistent
// clang-format on
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

constexpr int Threads = 256;

#define DEFINE_F(K)                                                            \
  __device__ __noinline__ float f##K(const float *p, int i, float v) {         \
    float a = p[i];                                                            \
    if (a > v)                                                                 \
      return a * v + (float)K;                                                 \
    return a - v;                                                              \
  }
DEFINE_F(0)
DEFINE_F(1)
DEFINE_F(2)
DEFINE_F(3)
DEFINE_F(4)
DEFINE_F(5)
DEFINE_F(6)
DEFINE_F(7)
DEFINE_F(8)
DEFINE_F(9)
DEFINE_F(10)
DEFINE_F(11)

__device__ __noinline__ float g(const float *p, int i) {
  return f4(p, i, 1.0f) + f5(p, i, 1.0f) + f6(p, i, 1.0f) + f7(p, i, 1.0f);
}

__global__ void many(const float *p, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = f0(p, i, 1.0f) + f1(p, i, 1.0f) + f2(p, i, 1.0f) + f3(p, i, 1.0f) +
            g(p, i) + f8(p, i, 1.0f) + f9(p, i, 1.0f) + f10(p, i, 1.0f) +
            f11(p, i, 1.0f);
  out[i] = s;
}

__global__ void tiny(float *x) {
  int t = threadIdx.x;
  x[t] = x[t] * 0.5f + 1.0f;
}

__global__ void sum4(const float4 *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 v = in[i];
  out[i] = v.x + v.y + v.z + v.w;
}

static int check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::printf("callgraph: FAILED: %s: %s\n", what, cudaGetErrorString(e));
    return 1;
  }
  return 0;
}

// The value many() stores for thread i: the kernel's sum in its order.
static float expected_many(int i) {
  float a = (i & 1) ? 2.0f : 0.0f, s = 0.0f;
  for (int k = 0; k < 12; ++k)
    s += a > 1.0f ? a + (float)k : a - 1.0f;
  return s;
}

// callgraph [LOG2N [REPEATS]]: 2^LOG2N threads (default 16) for many and
// sum4, tiny launched 200 times, all REPEATS times (default 1); the EXPECT
// lines are for the defaults, larger ones are for timing
// (scripts/gpu_devfn.sh).
int main(int argc, char **argv) {
  const int logn = argc > 1 ? std::atoi(argv[1]) : 16;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 1;
  if (logn < 8 || logn > 24 || repeats < 1 || repeats > 100) {
    std::printf("callgraph: FAILED: usage: callgraph [LOG2N [REPEATS]]\n");
    return 1;
  }
  const int n = 1 << logn, blocks = n / Threads;
  std::vector<float> p(n), in4(4 * (size_t)n), out(n), x(64, 1.0f);
  for (int i = 0; i < n; ++i) {
    p[i] = (i & 1) ? 2.0f : 0.0f;
    for (int c = 0; c < 4; ++c)
      in4[4 * (size_t)i + c] = (float)((i + c) % 7);
  }
  float *dp, *dout, *dx;
  float4 *din4;
  if (check(cudaMalloc(&dp, n * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&dout, n * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&din4, n * sizeof(float4)), "cudaMalloc") ||
      check(cudaMalloc(&dx, 64 * sizeof(float)), "cudaMalloc") ||
      check(cudaMemcpy(dp, p.data(), n * sizeof(float), cudaMemcpyHostToDevice),
            "copy p") ||
      check(cudaMemcpy(din4, in4.data(), n * sizeof(float4),
                       cudaMemcpyHostToDevice),
            "copy in4") ||
      check(
          cudaMemcpy(dx, x.data(), 64 * sizeof(float), cudaMemcpyHostToDevice),
          "copy x"))
    return 1;
  int bad = 0;
  for (int r = 0; r < repeats; ++r) {
    many<<<blocks, Threads>>>(dp, dout, n);
    if (check(cudaMemcpy(out.data(), dout, n * sizeof(float),
                         cudaMemcpyDeviceToHost),
              "many"))
      return 1;
    for (int i = 0; i < n; ++i)
      if (out[i] != expected_many(i) && !bad++)
        std::printf("callgraph: FAILED: many[%d] = %g, expected %g\n", i,
                    out[i], expected_many(i));
    for (int t = 0; t < 200; ++t)
      tiny<<<1, 64>>>(dx);
    sum4<<<blocks, Threads>>>(din4, dout, n);
    if (check(cudaMemcpy(out.data(), dout, n * sizeof(float),
                         cudaMemcpyDeviceToHost),
              "sum4"))
      return 1;
    for (int i = 0; i < n; ++i) {
      float want = 0.0f;
      for (int c = 0; c < 4; ++c)
        want += (float)((i + c) % 7);
      if (out[i] != want && !bad++)
        std::printf("callgraph: FAILED: sum4[%d] = %g, expected %g\n", i,
                    out[i], want);
    }
  }
  if (check(
          cudaMemcpy(x.data(), dx, 64 * sizeof(float), cudaMemcpyDeviceToHost),
          "tiny"))
    return 1;
  // x = x * 0.5 + 1 from 1, 200 * repeats times: converges to 2.
  for (int t = 0; t < 64; ++t)
    if ((x[t] < 1.99f || x[t] > 2.0f) && !bad++)
      std::printf("callgraph: FAILED: tiny[%d] = %g\n", t, x[t]);
  if (bad)
    return 1;
  std::printf("callgraph: PASSED\n");
  return 0;
}
