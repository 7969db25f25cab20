// Structure: half-precision arithmetic the way CUDA programs write it
// (issue 44 [overhead-3] counts): cuda_fp16.h's __hfma, __half's operators,
// __hfma2 on pairs, cuda_bf16.h's __hmul / __hadd and __hfma2 on bfloat16
// pairs, and C++ _Float16. CUDA's headers implement every one of them in
// inline PTX (`{fma.rn.f16 %0,%1,%2,%3;}`, `{ add.bf16 %0,%1,%2; }` on
// sm_90), which PASTA reads (passes/InlineAsmMemory.cpp: .f16, .bf16 and
// the pairs .f16x2, .bf16x2, counted per element); _Float16 is IR
// arithmetic. Until session 27 none of the header forms was counted. The
// FLOPs count at the line that called the header's function, not at a row
// of cuda_fp16.hpp (passes/IRHelpers.h, userLocation). Every figure below is
// derived by hand.
//
// Each kernel runs over N = 10,000 elements (or pairs) in 79 blocks of
// 128 threads, guarded by i < n. Inputs x[i] = i % 7, y[i] = i % 5 and the
// scale 2: small integers, exact in half and bfloat16, checked against the
// host's.
//
// half_fma: y[i] = __hfma(2, x[i], y[i]): one fma.rn.f16, 2 FLOPs an element
//   (20,000 f16); loads x and y (2 B each: 40,000 B), stores y (20,000 B).
// half_ops: z[i] = (x[i] + y[i]) * x[i] with __half's operators: add.f16 and
//   mul.f16, 2 FLOPs an element (20,000 f16); 40,000 B loaded, 20,000 B
//   stored.
// half2_fma: z[i] = __hfma2(x[i], 2, y[i]) over __half2 pairs: one
//   fma.rn.f16x2, 2 elements x 2 FLOPs (40,000 f16); 4 B a load: 80,000 B
//   loaded, 40,000 B stored.
// bf16_ops: z[i] = __hadd(__hmul(x[i], 2), y[i]) over __nv_bfloat16: mul.bf16
//   and add.bf16 on sm_90, 2 FLOPs an element (20,000 bf16); 40,000 B
//   loaded, 20,000 B stored.
// bf162_fma: z[i] = __hfma2(x[i], 2, y[i]) over __nv_bfloat162 pairs: one
//   fma.rn.bf16x2, 4 FLOPs a pair (40,000 bf16); 80,000 B loaded, 40,000 B
//   stored.
// native_half: z[i] = x[i] * 2 + y[i] in _Float16: IR fmul and fadd (or the
//   fma clang contracts them into), 2 FLOPs an element (20,000 f16); 40,000
//   B loaded, 20,000 B stored.
//
// clang-format off
// EXPECT: kernel _Z8half_fmaPK6__halfPS_S_i launches=1 load_bytes.global=40000 store_bytes.global=20000 flops.f16=20000 flops.bf16=0 flops.f32=0
// EXPECT: kernel _Z8half_opsPK6__halfS1_PS_i launches=1 load_bytes.global=40000 store_bytes.global=20000 flops.f16=20000 flops.f32=0
// EXPECT: kernel _Z9half2_fmaPK7__half2S1_PS_i launches=1 load_bytes.global=80000 store_bytes.global=40000 flops.f16=40000 flops.f32=0
// EXPECT: kernel _Z8bf16_opsPK13__nv_bfloat16S1_PS_i launches=1 load_bytes.global=40000 store_bytes.global=20000 flops.bf16=20000 flops.f16=0 flops.f32=0
// EXPECT: kernel _Z9bf162_fmaPK14__nv_bfloat162S1_PS_i launches=1 load_bytes.global=80000 store_bytes.global=40000 flops.bf16=40000 flops.f32=0
// EXPECT: kernel _Z11native_halfPKDF16_S0_PDF16_i launches=1 load_bytes.global=40000 store_bytes.global=20000 flops.f16=20000 flops.f32=0
// EXPECT: consistent
// clang-format on
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <vector>

constexpr int N = 10000;
constexpr int Block = 128;
constexpr int Grid = (N + Block - 1) / Block;

__global__ void half_fma(const __half *x, __half *y, __half a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __hfma(a, x[i], y[i]);
}

__global__ void half_ops(const __half *x, const __half *y, __half *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    z[i] = (x[i] + y[i]) * x[i];
}

__global__ void half2_fma(const __half2 *x, const __half2 *y, __half2 *z,
                          int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    z[i] = __hfma2(x[i], __float2half2_rn(2.0f), y[i]);
}

__global__ void bf16_ops(const __nv_bfloat16 *x, const __nv_bfloat16 *y,
                         __nv_bfloat16 *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    z[i] = __hadd(__hmul(x[i], __float2bfloat16(2.0f)), y[i]);
}

__global__ void bf162_fma(const __nv_bfloat162 *x, const __nv_bfloat162 *y,
                          __nv_bfloat162 *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    z[i] = __hfma2(x[i], __float2bfloat162_rn(2.0f), y[i]);
}

__global__ void native_half(const _Float16 *x, const _Float16 *y, _Float16 *z,
                            int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    z[i] = x[i] * (_Float16)2 + y[i];
}

static bool check(const char *what, const std::vector<float> &got,
                  float (*want)(int)) {
  for (int i = 0; i < (int)got.size(); ++i)
    if (got[i] != want(i)) {
      printf("%s: element %d is %g, expected %g\n", what, i, got[i], want(i));
      return false;
    }
  return true;
}

static float xs(int i) { return float(i % 7); }
static float ys(int i) { return float(i % 5); }
static float fma_want(int i) { return 2 * xs(i) + ys(i); }
static float ops_want(int i) { return (xs(i) + ys(i)) * xs(i); }
// A pair i holds elements 2i and 2i + 1: the inputs by element index.
static float pair_want(int e) { return 2 * xs(e) + ys(e); }

template <typename T, typename Conv>
static T *upload(Conv conv, float (*f)(int), int count) {
  std::vector<T> h(count);
  for (int i = 0; i < count; ++i)
    h[i] = conv(f(i));
  T *d = nullptr;
  cudaMalloc(&d, count * sizeof(T));
  cudaMemcpy(d, h.data(), count * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

template <typename T, typename Back>
static std::vector<float> download(const T *d, Back back, int count) {
  std::vector<T> h(count);
  cudaMemcpy(h.data(), d, count * sizeof(T), cudaMemcpyDeviceToHost);
  std::vector<float> f(count);
  for (int i = 0; i < count; ++i)
    f[i] = back(h[i]);
  return f;
}

int main() {
  auto toh = [](float v) { return __float2half(v); };
  auto fromh = [](__half v) { return __half2float(v); };
  auto tob = [](float v) { return __float2bfloat16(v); };
  auto fromb = [](__nv_bfloat16 v) { return __bfloat162float(v); };
  auto tof16 = [](float v) { return (_Float16)v; };
  auto fromf16 = [](_Float16 v) { return (float)v; };
  bool ok = true;

  __half *hx = upload<__half>(toh, xs, 2 * N),
         *hy = upload<__half>(toh, ys, 2 * N);
  __half *hz = upload<__half>(toh, ys, 2 * N);
  half_fma<<<Grid, Block>>>(hx, hz, __float2half(2.0f), N);
  ok &= check("half_fma", download(hz, fromh, N), fma_want);
  half_ops<<<Grid, Block>>>(hx, hy, hz, N);
  ok &= check("half_ops", download(hz, fromh, N), ops_want);
  half2_fma<<<Grid, Block>>>((const __half2 *)hx, (const __half2 *)hy,
                             (__half2 *)hz, N);
  ok &= check("half2_fma", download(hz, fromh, 2 * N), pair_want);

  __nv_bfloat16 *bx = upload<__nv_bfloat16>(tob, xs, 2 * N);
  __nv_bfloat16 *by = upload<__nv_bfloat16>(tob, ys, 2 * N);
  __nv_bfloat16 *bz = upload<__nv_bfloat16>(tob, ys, 2 * N);
  bf16_ops<<<Grid, Block>>>(bx, by, bz, N);
  ok &= check("bf16_ops", download(bz, fromb, N), fma_want);
  bf162_fma<<<Grid, Block>>>((const __nv_bfloat162 *)bx,
                             (const __nv_bfloat162 *)by, (__nv_bfloat162 *)bz,
                             N);
  ok &= check("bf162_fma", download(bz, fromb, 2 * N), pair_want);

  _Float16 *fx = upload<_Float16>(tof16, xs, N),
           *fy = upload<_Float16>(tof16, ys, N);
  _Float16 *fz = upload<_Float16>(tof16, ys, N);
  native_half<<<Grid, Block>>>(fx, fy, fz, N);
  ok &= check("native_half", download(fz, fromf16, N), fma_want);

  cudaError_t err = cudaDeviceSynchronize();
  for (void *p : {(void *)hx, (void *)hy, (void *)hz, (void *)bx, (void *)by,
                  (void *)bz, (void *)fx, (void *)fy, (void *)fz})
    cudaFree(p);
  ok &= err == cudaSuccess;
  printf("halfmath: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
