// div_atomic_parts.cu - where histogram's divergence copy spends its time:
// test_kernels/histogram.cu's grid-stride loop with each part of what
// PASTA's divergence copy adds per iteration written out by hand (the
// copy's full-warp path, read from its PTX), alone and together, and one
// cheaper way to derive the bin atomic's distinct bytes. Not a test of
// PASTA; docs/lab/2026-11-30-divergence-31-tile-kernels.md.
//   plain    the loop as the bundled program has it
//   visit    the loop header's visit count (a register add)
//   latch    the latch's measured branch: activemask, ballot, the lowest
//            lane's three adds (divergent, taken, threads)
//   row      `data[i]`'s FullRow test: activemask == full, lane 0 adds the
//            sectors its own address starts in the 32-byte line
//   match    the shared atomic's distinct bytes as the copy takes them:
//            match.any on the address, the lowest lane of each group by
//            ctz, a ballot of those lanes, popc (requests and requested
//            bytes by the lowest lane)
//   redux    the same distinct bytes from the bin index, which holds 8
//            bits (a 256-bit set, eight redux.sync.or, popc): no match
//   copy     visit + latch + row + match: the divergence copy's parts
//   copy_redux  visit + latch + row + redux
//   window   what a runtime-only change could do: the keys' lowest and
//            highest by redux.sync min/max; within 256 words, redux's set
//            of word offsets, else the match
//   copy_window visit + latch + row + window
// The figures (distinct bytes, divergent latches, sectors) are summed per
// variant and checked: match and redux against the CPU's distinct bytes
// of every warp-iteration, the latch figures against the loop's
// arithmetic; the bins against the CPU's. Usage: ./div_atomic_parts [n]
// (default 1<<28, histogram's benchmark size); TK_BENCH=R times each
// variant (median of R after a warm-up, tk_bench's lines).
#include "bench.h"
#include "test_common.h"

#include <cstdint>
#include <cstring>
#include <vector>

enum Part : unsigned {
  kVisit = 1,
  kLatch = 2,
  kRow = 4,
  kMatch = 8,
  kRedux = 16,
  kWindow = 32
};
enum Figure {
  kVisits,
  kDivergent,
  kTaken,
  kThreads,
  kSectors,
  kDistinct,
  kRequests,
  kFigures
};

__device__ __forceinline__ unsigned lowest_lane_bit(unsigned mask) {
  return mask & (0u - mask);
}

// The copy's full-warp path of a shared atomic's distinct bytes.
__device__ __forceinline__ unsigned
distinct_by_match(const unsigned *addr, unsigned mask, unsigned lane) {
  unsigned same = __match_any_sync(mask, (unsigned)(uintptr_t)addr);
  bool leader = (unsigned)(__ffs(same) - 1) == lane;
  return (unsigned)__popc(__ballot_sync(mask, leader)) * 4u;
}

// The candidate: an 8-bit bin index into one array, so the distinct words
// are the bits set in a 256-bit set of the indices.
__device__ __forceinline__ unsigned distinct_by_redux(unsigned bin,
                                                      unsigned mask) {
  unsigned word = bin >> 5, bit = 1u << (bin & 31u), words = 0;
#pragma unroll
  for (unsigned w = 0; w < 8; ++w) {
    words += (unsigned)__popc(__reduce_or_sync(mask, word == w ? bit : 0u));
  }
  return words * 4u;
}

// What the runtime could do with no help from the pass: the keys' window
// from two redux.sync (min, max); within 256 words of the lowest, the
// 256-bit set of word offsets; else the match.
__device__ __forceinline__ unsigned
distinct_by_window(const unsigned *addr, unsigned mask, unsigned lane) {
  unsigned key = (unsigned)(uintptr_t)addr;
  unsigned low = __reduce_min_sync(mask, key);
  unsigned span = __reduce_max_sync(mask, key) - low;
  if (span >= 256u * 4u) {
    return distinct_by_match(addr, mask, lane);
  }
  return distinct_by_redux((key - low) >> 2, mask);
}

template <unsigned P>
__global__ void hist_parts(const unsigned char *data, unsigned *bins, int n,
                           unsigned long long *figs) {
  __shared__ unsigned local_bins[256];
  local_bins[threadIdx.x] = 0;
  __syncthreads();
  const unsigned lane = threadIdx.x & 31u;
  const unsigned below = (1u << lane) - 1u;
  unsigned f[kFigures] = {0, 0, 0, 0, 0, 0, 0};
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    if (P & kVisit) {
      f[kVisits] += 1;
    }
    const unsigned char *at = &data[i];
    if (P & kRow) {
      if (__activemask() == ~0u && lane == 0) {
        f[kSectors] += (((unsigned)(uintptr_t)at & 31u) + 31u) >> 5;
      }
    }
    unsigned v = *at;
    unsigned *bin = &local_bins[v];
    if (P & (kMatch | kRedux | kWindow)) {
      unsigned mask = __activemask();
      unsigned d = (P & kMatch)   ? distinct_by_match(bin, mask, lane)
                   : (P & kRedux) ? distinct_by_redux(v, mask)
                                  : distinct_by_window(bin, mask, lane);
      if ((mask & below) == 0) {
        f[kDistinct] += d;
        f[kRequests] += 1;
      }
    }
    atomicAdd(bin, 1u);
    if (P & kLatch) {
      bool again = i + stride < n;
      unsigned mask = __activemask();
      unsigned taken = __ballot_sync(mask, again);
      if ((mask & below) == 0) {
        f[kDivergent] += (taken != 0 && taken != mask) ? 1u : 0u;
        f[kTaken] += taken != 0 ? 1u : 0u;
        f[kThreads] += (unsigned)__popc(taken);
      }
    }
  }
  __syncthreads();
  unsigned count = local_bins[threadIdx.x];
  if (count != 0) {
    atomicAdd(&bins[threadIdx.x], count);
  }
  for (int k = 0; k < kFigures; ++k) {
    if (f[k] != 0) {
      atomicAdd(&figs[k], (unsigned long long)f[k]);
    }
  }
}

struct Variant {
  const char *name;
  void (*kernel)(const unsigned char *, unsigned *, int, unsigned long long *);
  unsigned parts;
};

static const Variant kVariants[] = {
    {"plain", hist_parts<0>, 0},
    {"visit", hist_parts<kVisit>, kVisit},
    {"latch", hist_parts<kLatch>, kLatch},
    {"row", hist_parts<kRow>, kRow},
    {"match", hist_parts<kMatch>, kMatch},
    {"redux", hist_parts<kRedux>, kRedux},
    {"copy", hist_parts<kVisit | kLatch | kRow | kMatch>,
     kVisit | kLatch | kRow | kMatch},
    {"copy_redux", hist_parts<kVisit | kLatch | kRow | kRedux>,
     kVisit | kLatch | kRow | kRedux},
    {"window", hist_parts<kWindow>, kWindow},
    {"copy_window", hist_parts<kVisit | kLatch | kRow | kWindow>,
     kVisit | kLatch | kRow | kWindow},
};

// The figures every variant must give, from the data and the launch shape.
static void expected_figures(const unsigned char *h, long n, long threads,
                             long stride, unsigned long long *want) {
  std::memset(want, 0, kFigures * sizeof(*want));
  for (long warp0 = 0; warp0 < threads; warp0 += 32) {
    for (long base = warp0; base < n; base += stride) {
      uint32_t set[8] = {0};
      unsigned lanes = 0, again = 0;
      for (long i = base; i < base + 32 && i < n; ++i) {
        set[h[i] >> 5] |= 1u << (h[i] & 31);
        ++lanes;
        again += i + stride < n;
      }
      for (int w = 0; w < 8; ++w) {
        want[kDistinct] += 4u * (unsigned)__builtin_popcount(set[w]);
      }
      want[kRequests] += 1;
      want[kVisits] += lanes;
      want[kDivergent] += again != 0 && again != lanes;
      want[kTaken] += again != 0;
      want[kThreads] += again;
      // lane 0's extra sectors in full warps (the allocation is aligned)
      want[kSectors] += lanes == 32 ? (((unsigned)base & 31u) + 31u) >> 5 : 0;
    }
  }
}

int main(int argc, char **argv) {
  const long n = tk_parse_size(argc, argv, "div_atomic_parts", 1L << 28, 1024,
                               1L << 30, 1024);
  std::vector<unsigned char> h(n);
  for (long i = 0; i < n; ++i) { // histogram.cu's input
    uint32_t x = tk_hash32(tk_hash32((uint32_t)i) ^ 0x2545f491u);
    h[i] = (x >> 30) == 0 ? 0x65 : (unsigned char)(x & 0xffu);
  }
  unsigned ref[256] = {0};
  for (long i = 0; i < n; ++i)
    ref[h[i]]++;
  const int threads = 256;
  const long want_blocks = (n + threads - 1) / threads;
  const int blocks = (int)(want_blocks < 1024 ? want_blocks : 1024);
  unsigned long long want[kFigures];
  expected_figures(h.data(), n, (long)blocks * threads, (long)blocks * threads,
                   want);

  unsigned char *d_data = nullptr;
  unsigned *d_bins = nullptr;
  unsigned long long *d_figs = nullptr;
  GPU_CHECK(gpuMalloc((void **)&d_data, n));
  GPU_CHECK(gpuMalloc((void **)&d_bins, 256 * sizeof(unsigned)));
  GPU_CHECK(gpuMalloc((void **)&d_figs, kFigures * sizeof(unsigned long long)));
  GPU_CHECK(gpuMemcpy(d_data, h.data(), n, gpuMemcpyHostToDevice));
  int failed = 0;
  for (const Variant &v : kVariants) {
    GPU_CHECK(gpuMemset(d_bins, 0, 256 * sizeof(unsigned)));
    GPU_CHECK(gpuMemset(d_figs, 0, kFigures * sizeof(unsigned long long)));
    v.kernel<<<blocks, threads>>>(d_data, d_bins, (int)n, d_figs);
    GPU_CHECK(gpuGetLastError());
    unsigned got_bins[256];
    unsigned long long got[kFigures];
    GPU_CHECK(
        gpuMemcpy(got_bins, d_bins, sizeof(got_bins), gpuMemcpyDeviceToHost));
    GPU_CHECK(gpuMemcpy(got, d_figs, sizeof(got), gpuMemcpyDeviceToHost));
    int bad = std::memcmp(got_bins, ref, sizeof(ref)) != 0;
    const unsigned needs[kFigures] = {kVisit,
                                      kLatch,
                                      kLatch,
                                      kLatch,
                                      kRow,
                                      kMatch | kRedux | kWindow,
                                      kMatch | kRedux | kWindow};
    for (int k = 0; k < kFigures; ++k) {
      unsigned long long expect = (v.parts & needs[k]) ? want[k] : 0;
      if (got[k] != expect) {
        std::printf("div_atomic_parts: %s: figure %d got %llu expected %llu\n",
                    v.name, k, got[k], expect);
        bad = 1;
      }
    }
    std::printf(
        "div_atomic_parts: %s %s distinct=%llu divergent=%llu sectors=%llu\n",
        v.name, bad ? "FAILED" : "ok", got[kDistinct], got[kDivergent],
        got[kSectors]);
    failed |= bad;
  }
  std::printf("div_atomic_parts: %s n=%ld\n", failed ? "FAILED" : "PASSED", n);
  for (const Variant &v : kVariants) {
    tk_bench(v.name, [&] {
      v.kernel<<<blocks, threads>>>(d_data, d_bins, (int)n, d_figs);
    });
  }
  GPU_CHECK(gpuFree(d_data));
  GPU_CHECK(gpuFree(d_bins));
  GPU_CHECK(gpuFree(d_figs));
  return failed;
}
