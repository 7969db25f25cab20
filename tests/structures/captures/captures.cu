// Structure: kernels whose pointers arrive inside by-value parameters, as
// library code passes them: a kernel template for_each(n, f) taking a lambda
// or a functor by value, launched through a templated parallel_for. In
// working-set mode the first 16 pointer fields of a kernel's by-value
// parameters are checked against the allocation the host found for each at
// the launch (launch slots PASTA_WS_MAX_ARGS + j, include/pasta/abi.h); the
// rest go through the thread's cache. Every kernel is for_each<F>, 256
// threads per block, every thread in range (n a multiple of 256).
//
// Kernels (captures in closure order: j numbers the pointer fields):
//   fold (lambda #1 of main, HeCBench unfold's shape): captures out (j 0),
//     len (j 1), in (j 2) and two 64-bit ints stride = n, offset = 8192; n
//     = 65,536 threads; thread i adds in[k * stride + offset + i] to *o =
//     out[i] for k < m = len[i] = 1 + i % 4 (a trip count read from memory).
//     in may alias out, so clang keeps the store of *o in every iteration
//     and forwards it to the next one (one load of *o before the loop):
//     per thread loads len[i], *o, m x in; m stores; m f32 adds.
//     Sum of m = 65,536 x (1 + 2 + 3 + 4) / 4 = 163,840.
//       load_bytes.global  = 4 (2 x 65,536 + 163,840) = 1,179,648
//       store_bytes.global = 4 x 163,840 = 655,360; flops.f32 = 163,840
//   Blend (a functor): wa, a nested struct Sources {a (j 0), b (j 1)}, an
//     array dst[2] (j 2, j 3), wb, shift = n; n = 65,536 threads: dst[0][i]
//     = wa a[i] + wb b[i + n] (2 multiplies, 1 add), and where i % 4 == 0
//     also dst[1][i / 4] (16,384 threads).
//       load_bytes.global = 8 x 65,536 = 524,288
//       store_bytes.global = 4 x 65,536 + 4 x 16,384 = 327,680
//       flops.f32 = 3 x 65,536 = 196,608
//   mid (lambda #2 of main): captures mid (j 0), a pointer into the middle
//     of allocation D (49,402 floats in), whole (j 1), allocation C, and
//     back = 49,402; 16,384 threads: mid[i] = 2 whole[4 i] + mid[i - back]
//     (mid[i - back] is D[i]: the same field, another part of D).
//       load_bytes.global = 8 x 16,384 = 131,072
//       store_bytes.global = 4 x 16,384 = 65,536; flops.f32 = 32,768
//   add_optional (the lambda of add_optional): captures opt (j 0) and dst
//     (j 1); dst[i] += opt[i] when opt is not null, else dst[i] += 1;
//     16,384 threads, launched 3 times: opt null (no access through it), in
//     allocation E, and at the __device__ array g_bias (outside every
//     allocation: its slot is empty, and every access through it is counted
//     outside). Per launch 4 B loaded from dst, 4 B stored, 1 add; 4 B
//     more loaded from opt in the last two.
//       load_bytes.global = 3 x 65,536 + 2 x 65,536 = 327,680
//       store_bytes.global = 3 x 65,536 = 196,608; flops.f32 = 49,152
//   Gather (a functor): 18 pointer fields, src[0..16] then dst: src[0] to
//     src[15] get slots (j 0 to 15); src[16] and dst go through the cache.
//     32,768 threads: dst[i] = src[0][i] + ... + src[16][i] (16 adds).
//       load_bytes.global = 17 x 4 x 32,768 = 2,228,224
//       store_bytes.global = 4 x 32,768 = 131,072
//       flops.f32 = 16 x 32,768 = 524,288
//
// Working set (PASTA_WORKING_SET=1, default 64 KiB pages, P = 65,536 B;
// pages count from each allocation's base, the last clipped to its size;
// launch order as below, one tracked launch each but add_optional's 3):
//   0 fold: in = 8 rows of n floats (2,097,152 B, 32 pages); row k is read
//     at bytes [k 262,144 + 32,768, + 262,144): pages 4k to 4k + 4, rows 0
//     to 3 (row 3 by threads i % 4 == 3, which every one of its pages
//     holds): pages 0 to 16, 17 P = 1,114,112 B. len and out (262,144 B
//     each) whole. 3 allocations; footprint 2,097,152 + 2 x 262,144 =
//     2,621,440; touched 1,114,112 + 524,288 = 1,638,400.
//   1 Blend: a (262,144 B) whole; b (524,288 B) read at floats n to 2n - 1:
//     pages 4 to 7, 262,144 B; dst[0] (262,144 B) whole; dst[1] (262,144 B)
//     floats 0 to 16,383: page 0. 4 allocations; footprint 1,310,720;
//     touched 3 x 262,144 + 65,536 = 851,968.
//   2 mid: whole = C (n floats, 262,144 B) read at floats 0, 4, ..,
//     65,532: pages 0 to 3, 262,144 B; D = n + 250 floats (263,144 B,
//     pages 0 to 4, the last 1,000 B): D[0 .. 16,383] (page 0) and floats
//     49,402 to 65,785, bytes 197,608 to 263,143 (pages 3 and 4):
//     2 P + 1,000 = 132,072 B. 2 allocations; footprint 262,144 + 263,144
//     = 525,288; touched 262,144 + 132,072 = 394,216.
//   3 add_optional, opt null: dst = F (16,384 floats, 65,536 B) whole:
//     1 allocation; footprint = touched = 65,536; outside 0.
//   4 add_optional, opt = E (65,536 floats, 262,144 B) read at floats 0 to
//     16,383 (page 0): 2 allocations; footprint 327,680; touched 131,072.
//   5 add_optional, opt = g_bias: F only: 1 allocation; footprint =
//     touched = 65,536; outside 16,384 (one access per thread).
//   6 Gather: 18 allocations of 32,768 floats (131,072 B, 2 pages), all
//     read or written whole: footprint = touched = 18 x 131,072 =
//     2,359,296.
// Over the 7 launches, touched: 65,536, 65,536, 131,072, 394,216, 851,968,
// 1,638,400, 2,359,296 (sorted): max 2,359,296, min 65,536, median (4th)
// 394,216, p90 (7th) 2,359,296; footprint: 65,536, 65,536, 327,680,
// 525,288, 1,310,720, 2,359,296, 2,621,440: max 2,621,440, median 525,288.
// The 16,384 accesses outside give one `pasta: warning` line (allowed).
// Kernel names (LLVM's demangler): void for_each<main::'lambda'(long)>(long,
// main::'lambda'(long)), ..., void for_each<Blend>(long, Blend).
//
// Results are checked against the host's; the checksum (the sum of every
// result) must be the plain build's.
//
// clang-format off
// EXPECT(!ws): kernel _Z8for_eachIZ4mainEUllE_EvlT_ launches=1 load_bytes.global=1179648 store_bytes.global=655360 flops.f32=163840
// EXPECT(!ws): kernel _Z8for_eachI5BlendEvlT_ launches=1 load_bytes.global=524288 store_bytes.global=327680 flops.f32=196608
// EXPECT(!ws): kernel _Z8for_eachIZ4mainEUllE0_EvlT_ launches=1 load_bytes.global=131072 store_bytes.global=65536 flops.f32=32768
// EXPECT(!ws): kernel _Z8for_eachIZL12add_optionalPfPKflEUllE_EvlT_ launches=3 load_bytes.global=327680 store_bytes.global=196608 flops.f32=49152
// EXPECT(!ws): kernel _Z8for_eachI6GatherEvlT_ launches=1 load_bytes.global=2228224 store_bytes.global=131072 flops.f32=524288
// EXPECT: consistent
// EXPECT(ws): ws enabled=1 page_size=65536 launches=7 skipped=0 outside.accesses=16384
// EXPECT(ws): ws touched_bytes.max=2359296 touched_bytes.min=65536 touched_bytes.median=394216 touched_bytes.p90=2359296
// EXPECT(ws): ws footprint_bytes.max=2621440 footprint_bytes.min=65536 footprint_bytes.median=525288 footprint_bytes.p90=2621440
// EXPECT(ws): ws-launch _Z8for_eachIZ4mainEUllE_EvlT_ touched_allocations=3 footprint_bytes=2621440 touched_bytes=1638400 outside=0
// EXPECT(ws): ws-launch _Z8for_eachI5BlendEvlT_ touched_allocations=4 footprint_bytes=1310720 touched_bytes=851968 outside=0
// EXPECT(ws): ws-launch _Z8for_eachIZ4mainEUllE0_EvlT_ touched_allocations=2 footprint_bytes=525288 touched_bytes=394216 outside=0
// EXPECT(ws): ws-launch _Z8for_eachIZL12add_optionalPfPKflEUllE_EvlT_ matches=3 nth=0 touched_allocations=1 footprint_bytes=65536 touched_bytes=65536 outside=0
// EXPECT(ws): ws-launch _Z8for_eachIZL12add_optionalPfPKflEUllE_EvlT_ matches=3 nth=1 touched_allocations=2 footprint_bytes=327680 touched_bytes=131072 outside=0
// EXPECT(ws): ws-launch _Z8for_eachIZL12add_optionalPfPKflEUllE_EvlT_ matches=3 nth=2 touched_allocations=1 footprint_bytes=65536 touched_bytes=65536 outside=16384
// EXPECT(ws): ws-launch _Z8for_eachI6GatherEvlT_ touched_allocations=18 footprint_bytes=2359296 touched_bytes=2359296 outside=0
// EXPECT(ws): launch _Z8for_eachIZ4mainEUllE_EvlT_ launches=1 ws_launches=1 ws_max_touched_bytes=1638400 ws_max_footprint_bytes=2621440
// EXPECT(ws): launch _Z8for_eachIZL12add_optionalPfPKflEUllE_EvlT_ launches=3 ws_launches=3 ws_max_touched_bytes=131072 ws_max_footprint_bytes=327680
// EXPECT(ws): launch _Z8for_eachI6GatherEvlT_ launches=1 ws_launches=1 ws_max_touched_bytes=2359296 ws_max_footprint_bytes=2359296
// EXPECT(ws): allow-stderr 16384 accesses outside every known allocation
// clang-format on
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

// The for-each of library code (Kokkos, RAJA, Thrust's for_each_n): a
// kernel template taking the loop body by value.
template <typename F> __global__ void for_each(long n, F f) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    f(i);
}

template <typename F> static void parallel_for(long n, F f) {
  for_each<<<(unsigned)((n + 255) / 256), 256>>>(n, f);
}

// A functor: a nested struct of two pointers, then an array of two.
struct Sources {
  const float *a;
  const float *b;
};
struct Blend {
  float wa;
  Sources src;
  float *dst[2];
  float wb;
  long shift;
  __device__ void operator()(long i) const {
    float v = wa * src.a[i] + wb * src.b[i + shift];
    dst[0][i] = v;
    if ((i & 3) == 0)
      dst[1][i >> 2] = v;
  }
};

// 17 source pointers and a destination in one struct: 18 pointer fields,
// of which the first 16 (src[0] to src[15]) get launch slots.
constexpr int Sources17 = 17;
struct Gather {
  const float *src[Sources17];
  float *dst;
  __device__ void operator()(long i) const {
    float acc = src[0][i];
#pragma unroll
    for (int j = 1; j < Sources17; ++j)
      acc += src[j][i];
    dst[i] = acc;
  }
};

constexpr long OptN = 16384;
__device__ float g_bias[OptN]; // no allocation PASTA sees

// One lambda (one kernel) launched with opt null, in an allocation and at a
// __device__ array.
static void add_optional(float *dst, const float *opt, long n) {
  parallel_for(n, [=] __device__(long i) {
    if (opt)
      dst[i] += opt[i];
    else
      dst[i] += 1.0f;
  });
}

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::printf("captures: FAILED: %s: %s\n", #call,                         \
                  cudaGetErrorString(err_));                                   \
      return 1;                                                                \
    }                                                                          \
  } while (0)

template <typename T> static T *upload(const std::vector<T> &h) {
  T *d = nullptr;
  if (cudaMalloc(&d, h.size() * sizeof(T)) != cudaSuccess ||
      cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice) !=
          cudaSuccess)
    return nullptr;
  return d;
}

template <typename T> static std::vector<T> download(const T *d, size_t n) {
  std::vector<T> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return h;
}

int main() {
  const long n = 1 << 16, rows = 8;
  long stride = n, offset = 8192; // captured (not constants)
  bool ok = true;
  double sum = 0;

  // 1. fold: out[i] += in[k * stride + offset + i] for k < len[i].
  std::vector<float> h_in(rows * n), h_out(n, 1.0f);
  std::vector<int> h_len(n);
  for (long j = 0; j < rows * n; ++j)
    h_in[j] = (float)(j / n + 1 + (j & 1));
  for (long i = 0; i < n; ++i)
    h_len[i] = 1 + (int)(i & 3);
  const float *in = upload(h_in);
  const int *len = upload(h_len);
  float *out = upload(h_out);
  if (!in || !len || !out) {
    std::printf("captures: FAILED: allocation\n");
    return 1;
  }
  parallel_for(n, [=] __device__(long i) {
    float *o = out + i;
    int m = len[i];
    for (long k = 0; k < m; ++k)
      *o += in[k * stride + offset + i];
  });
  CHECK(cudaGetLastError());
  std::vector<float> g_out = download(out, n);
  for (long i = 0; i < n; ++i) {
    float want = h_out[i];
    for (long k = 0; k < h_len[i]; ++k)
      want += h_in[k * stride + offset + i];
    ok = ok && g_out[i] == want;
    sum += g_out[i];
  }

  // 2. Blend: a nested struct of pointers and an array of two.
  std::vector<float> h_a(n), h_b(2 * n);
  for (long i = 0; i < n; ++i)
    h_a[i] = (float)(i & 7);
  for (long i = 0; i < 2 * n; ++i)
    h_b[i] = (float)(i & 15);
  const float *a = upload(h_a), *b = upload(h_b);
  float *d0 = upload(std::vector<float>(n, 0.0f));
  float *d1 = upload(std::vector<float>(n, 0.0f));
  if (!a || !b || !d0 || !d1) {
    std::printf("captures: FAILED: allocation\n");
    return 1;
  }
  Blend blend{2.0f, {a, b}, {d0, d1}, 0.5f, n};
  parallel_for(n, blend);
  CHECK(cudaGetLastError());
  std::vector<float> g_d0 = download(d0, n), g_d1 = download(d1, n);
  for (long i = 0; i < n; ++i) {
    float want = 2.0f * h_a[i] + 0.5f * h_b[i + n];
    ok = ok && g_d0[i] == want;
    ok = ok && g_d1[i] == (i < n / 4 ? 2.0f * h_a[4 * i] + 0.5f * h_b[4 * i + n]
                                     : 0.0f);
    sum += g_d0[i] + g_d1[i];
  }

  // 3. A pointer to an allocation and a pointer into the middle of another.
  const long mid_n = 16384, d_len = n + 250;
  long back = 49402; // captured
  std::vector<float> h_c(n), h_d(d_len);
  for (long i = 0; i < n; ++i)
    h_c[i] = (float)(i % 5);
  for (long i = 0; i < d_len; ++i)
    h_d[i] = (float)(i % 3);
  const float *whole = upload(h_c);
  float *dd = upload(h_d);
  if (!whole || !dd) {
    std::printf("captures: FAILED: allocation\n");
    return 1;
  }
  float *mid = dd + back;
  parallel_for(mid_n, [=] __device__(long i) {
    mid[i] = 2.0f * whole[4 * i] + mid[i - back];
  });
  CHECK(cudaGetLastError());
  std::vector<float> g_d = download(dd, d_len);
  for (long i = 0; i < d_len; ++i) {
    float want = h_d[i];
    if (i >= back)
      want = 2.0f * h_c[4 * (i - back)] + h_d[i - back];
    ok = ok && g_d[i] == want;
    sum += g_d[i];
  }

  // 4. A captured pointer that is null (guarded), in an allocation, and at
  // a __device__ array outside every allocation.
  std::vector<float> h_e(4 * OptN), h_bias(OptN);
  for (long i = 0; i < 4 * OptN; ++i)
    h_e[i] = (float)(i % 11);
  for (long i = 0; i < OptN; ++i)
    h_bias[i] = (float)(i % 13);
  const float *e = upload(h_e);
  float *f = upload(std::vector<float>(OptN, 0.0f));
  float *bias = nullptr;
  if (!e || !f) {
    std::printf("captures: FAILED: allocation\n");
    return 1;
  }
  CHECK(cudaMemcpyToSymbol(g_bias, h_bias.data(), OptN * sizeof(float)));
  CHECK(cudaGetSymbolAddress((void **)&bias, g_bias));
  add_optional(f, nullptr, OptN);
  add_optional(f, e, OptN);
  add_optional(f, bias, OptN);
  CHECK(cudaGetLastError());
  std::vector<float> g_f = download(f, OptN);
  for (long i = 0; i < OptN; ++i) {
    ok = ok && g_f[i] == 1.0f + h_e[i] + h_bias[i];
    sum += g_f[i];
  }

  // 5. 18 pointer fields in one struct.
  const long gn = 32768;
  Gather gather{};
  std::vector<float> h_src(gn);
  for (int j = 0; j < Sources17; ++j) {
    for (long i = 0; i < gn; ++i)
      h_src[i] = (float)((j + 1) * (1 + (i & 1)));
    gather.src[j] = upload(h_src);
    if (!gather.src[j]) {
      std::printf("captures: FAILED: allocation\n");
      return 1;
    }
  }
  gather.dst = upload(std::vector<float>(gn, 0.0f));
  if (!gather.dst) {
    std::printf("captures: FAILED: allocation\n");
    return 1;
  }
  parallel_for(gn, gather);
  CHECK(cudaGetLastError());
  std::vector<float> g_g = download(gather.dst, gn);
  for (long i = 0; i < gn; ++i) {
    ok = ok && g_g[i] == (float)(153 * (1 + (i & 1)));
    sum += g_g[i];
  }

  CHECK(cudaDeviceSynchronize());
  for (const void *p :
       {(const void *)in, (const void *)len, (const void *)out, (const void *)a,
        (const void *)b, (const void *)d0, (const void *)d1,
        (const void *)whole, (const void *)dd, (const void *)e, (const void *)f,
        (const void *)gather.dst})
    cudaFree(const_cast<void *>(p));
  for (int j = 0; j < Sources17; ++j)
    cudaFree(const_cast<float *>(gather.src[j]));
  std::printf("captures: %s checksum %.0f\n", ok ? "PASSED" : "FAILED", sum);
  return ok ? 0 : 1;
}
