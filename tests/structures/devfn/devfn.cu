// Structure: device functions that are not inlined, called many times per
// thread (issue [overhead-3]: a clustering kernel calling its distance 27.9
// million times ran 6.5x when every call flushed its counts). Called
// directly, they return their counts to their callers and the kernel
// flushes them once per thread at its exit; called through a pointer, they
// flush at their return (docs/design.md, "Device functions"); the totals
// must be exact either way.
//
// n = 2^16 threads, 256 per block (256 blocks), every thread in range.
//
// assign(points, centers, label, n, k, d): the clustering shape. k = 8
//   centers, d = 4 features, both kernel arguments (the loops stay loops).
//   Each thread calls dist (noinline) once per center: 8 calls per thread,
//   524,288 in all. dist loops over the d features: t = a[f] - b[f];
//   s += t * t: 3 FLOPs (a sub, a mul and an add, or a sub and an fma) and
//   2 loads of 4 bytes per feature.
//     flops.f32 = n * k * d * 3 = 6,291,456
//     load_bytes.global = n * k * d * 8 = 16,777,216 (dist's pointers are
//       generic: the kernel's arguments at every call, so global)
//     store_bytes.global = 4 n = 262,144 (label[i])
//   dist is reached from assign only: its counts are in assign's.
//
// chain(x, sel, y, n): several device functions, one calling another, and
//   an indirect call. Per thread, v = x[i] (4 B), s = sel[i] (4 B):
//     poly(v): p = 1; three times p = p * v + 1: 6 FLOPs
//     outer(v) = inner(v) + inner(v + 1), inner(u) = u * u + 0.5: 2 + 2 * 2
//       = 6 FLOPs (outer calls inner, both noinline)
//     sq(v) = v * v, called directly: 1 FLOP
//     ops[s](v), ops = {sq, half} a __device__ table (8 B load), half(u) =
//       u * 0.5: 1 FLOP either way (sq through the pointer: the original
//       symbol, which flushes its counts at its return; half is reached only
//       through the pointer and is not instrumented: its FLOP is not
//       counted, see below)
//     y[i] = poly + outer + sq + op: 3 FLOPs, a 4-byte store
//   sel[i] = i % 2 (sq for even i). half, reached by no direct call, is not
//   counted (docs/counting-conventions.md: device functions are those a
//   kernel reaches by direct calls). sq is reached from two kernels (chain
//   and squares): its counts are its own, under device_functions (below).
//     flops.f32 = n * (6 + 6 + 3) = 983,040
//     load_bytes.global = n * (4 + 4 + 8) = 1,048,576
//     store_bytes.global = 4 n = 262,144
//
// squares(x, y, n): y[i] = sq(x[i]), one call per thread (the second kernel
//   calling sq).
//     flops.f32 = 0 (sq's are sq's), load_bytes.global = store_bytes.global
//       = 4 n = 262,144
//
// sq (device_functions): calls = n (chain, directly) + n / 2 (chain,
//   through the table, for even i) + n (squares) = 163,840; one FLOP each:
//   flops.f32 = 163,840.
//
// Results: label[i] is a nearest center (checked against the host's
// distances, with a tolerance for contraction); y[i] matches the host's
// value to 1e-5 relative.
//
// clang-format off
// EXPECT: kernel _Z6assignPKfS0_Piiii launches=1 flops.f32=6291456 load_bytes.global=16777216 store_bytes.global=262144
// EXPECT: kernel _Z5chainPKfPKiPfi launches=1 flops.f32=983040 load_bytes.global=1048576 store_bytes.global=262144
// EXPECT: kernel _Z7squaresPKfPfi launches=1 flops.f32=0 load_bytes.global=262144 store_bytes.global=262144
// EXPECT: function _Z2sqf calls=163840 flops.f32=163840
// EXPECT: consistent
// clang-format on
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

constexpr int Threads = 256;

__device__ __noinline__ float dist(const float *a, const float *b, int d) {
  float s = 0.0f;
  for (int f = 0; f < d; ++f) {
    float t = a[f] - b[f];
    s += t * t;
  }
  return s;
}

__global__ void assign(const float *points, const float *centers, int *label,
                       int n, int k, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float best = 3.0e38f;
  int bi = 0;
  for (int c = 0; c < k; ++c) {
    float e = dist(points + i * d, centers + c * d, d);
    if (e < best) {
      best = e;
      bi = c;
    }
  }
  label[i] = bi;
}

__device__ __noinline__ float poly(float v) {
  float p = 1.0f;
#pragma unroll 1
  for (int k = 0; k < 3; ++k)
    p = p * v + 1.0f;
  return p;
}

__device__ __noinline__ float inner(float u) { return u * u + 0.5f; }
__device__ __noinline__ float outer(float v) {
  return inner(v) + inner(v + 1.0f);
}
__device__ __noinline__ float sq(float u) { return u * u; }
__device__ __noinline__ float half(float u) { return u * 0.5f; }

typedef float (*op_t)(float);
__device__ op_t ops[2] = {sq, half};

__global__ void chain(const float *x, const int *sel, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  y[i] = poly(v) + outer(v) + sq(v) + ops[sel[i]](v);
}

__global__ void squares(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  y[i] = sq(x[i]);
}

static int check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::printf("devfn: FAILED: %s: %s\n", what, cudaGetErrorString(e));
    return 1;
  }
  return 0;
}

static float host_dist(const float *a, const float *b, int d) {
  float s = 0.0f;
  for (int f = 0; f < d; ++f)
    s += (a[f] - b[f]) * (a[f] - b[f]);
  return s;
}

// devfn [LOG2N [K]]: 2^LOG2N threads (default 16), K centers (default 8);
// the EXPECT lines are for the defaults, larger ones are for timing
// (scripts/gpu_devfn.sh).
int main(int argc, char **argv) {
  const int logn = argc > 1 ? std::atoi(argv[1]) : 16;
  const int k = argc > 2 ? std::atoi(argv[2]) : 8, d = 4;
  if (logn < 8 || logn > 24 || k < 1 || k > 1024) {
    std::printf("devfn: FAILED: usage: devfn [LOG2N (8-24) [K (1-1024)]]\n");
    return 2;
  }
  const int n = 1 << logn;
  std::vector<float> points(n * d), centers(k * d), x(n), y(n), y2(n);
  std::vector<int> sel(n), label(n);
  for (int i = 0; i < n * d; ++i)
    points[i] = (float)((i * 37 + 11) % 101) / 10.0f;
  for (int i = 0; i < k * d; ++i)
    centers[i] = (float)((i * 53 + 7) % 97) / 10.0f;
  for (int i = 0; i < n; ++i) {
    x[i] = (float)(i % 17) / 8.0f - 1.0f;
    sel[i] = i % 2;
  }
  float *dp, *dc, *dx, *dy, *dy2;
  int *dl, *ds;
  if (check(cudaMalloc(&dp, n * d * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&dc, k * d * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&dl, n * sizeof(int)), "cudaMalloc") ||
      check(cudaMalloc(&dx, n * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&dy, n * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&dy2, n * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&ds, n * sizeof(int)), "cudaMalloc"))
    return 1;
  cudaMemcpy(dp, points.data(), n * d * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dc, centers.data(), k * d * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(ds, sel.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  assign<<<n / Threads, Threads>>>(dp, dc, dl, n, k, d);
  chain<<<n / Threads, Threads>>>(dx, ds, dy, n);
  squares<<<n / Threads, Threads>>>(dx, dy2, n);
  if (check(cudaDeviceSynchronize(), "kernels"))
    return 1;
  cudaMemcpy(label.data(), dl, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(y2.data(), dy2, n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  double checksum = 0;
  for (int i = 0; i < n; ++i) {
    float best = 3.0e38f;
    for (int c = 0; c < k; ++c)
      best = std::fmin(best, host_dist(&points[i * d], &centers[c * d], d));
    int l = label[i];
    float got = l >= 0 && l < k ? host_dist(&points[i * d], &centers[l * d], d)
                                : 3.0e38f;
    if (got > best * (1.0f + 1e-5f) + 1e-6f)
      ++bad;
    float v = x[i];
    float p = 1.0f;
    for (int j = 0; j < 3; ++j)
      p = p * v + 1.0f;
    float want = p + (v * v + 0.5f) + ((v + 1.0f) * (v + 1.0f) + 0.5f) + v * v +
                 (sel[i] ? v * 0.5f : v * v);
    if (std::fabs(y[i] - want) > 1e-5f * std::fmax(1.0f, std::fabs(want)))
      ++bad;
    if (y2[i] != v * v)
      ++bad;
    checksum += l + y[i] + y2[i];
  }
  std::printf("devfn: checksum %.3f\n", checksum);
  std::printf("devfn: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
