// flush_strategies.cu - what each way of flushing per-thread counts at a
// kernel's exit costs, on the shape where the flush costs most: the
// reduction (test_kernels/reduction.cu, reduce_f32_kernel), whose threads do
// one load and a few shuffles. Not an instrumented program: each strategy is
// written out by hand here, so that one run on a GPU compares them side by
// side before the pass emits one (docs/lab/2026-11-23-overhead2-2-flushing-counts-at-exit.md
// and docs/lab/2026-11-26-overhead2-2-exit-flush-and-ws-flags.md). Built with nvcc by bench/gpu_flush_strategies.sh.
//
// Every strategy counts the same six blocks as PASTA's counting copy of
// reduce_f32_kernel: one bit per block in a 32-bit mask per thread (blocks
// that run at most once per call, passes/CounterPlacement.h):
//   bit 0 the load (i < n), bit 1 the first shuffle tree, bit 2 lane 0's
//   partial store, bit 3 warp 0's read of the partials, bit 4 the second
//   tree, bit 5 the block sum's store.
// and adds them, warp-summed, to counters[bank][6] (4096 banks, chosen by
// block id, as __pasta_bank_row does). Strategies (argument `mode`):
//   0 plain      no counting at all
//   1 mask       the bits set, never flushed (the increments' own cost)
//   2 redux      per live bit a redux.sync warp sum and a `red` by lane 0:
//                what the pass emits today (__pasta_flush_counter_fast)
//   3 redux-only the warp sums, no `red` (what the atomics cost, by difference)
//   4 ballot     per bit popc(ballot) instead of redux.sync, and the `red`
//   5 packed     five bits per redux.sync (6-bit fields: a warp's sum of a bit
//                is at most 32), then the `red`s
//   6 block      warp sums added to shared memory; the block's last warp to
//                finish (counted by threads, so partial warps and early
//                returns add up) adds the block's sums with one `red` each
//   7 one-redux  all six bits in one redux.sync: 5-bit fields, lane 0 packs
//                none (31 lanes sum to at most 31) and adds its own bits to
//                the sums before its `red`s
//   8 lane0-only lane 0 adds its own bits, no warp sum (counts wrong: the cost
//                of the exit's `red`s and branches without a collective)
//   9 one-sum    a single redux.sync of the mask, kept, no `red` (what one
//                warp collective at the exit costs)
//  10 active     __activemask() alone, kept (what the full-warp test costs)
//  11 one-red    as one-redux, but lane 0 adds the six sums packed into one
//                64-bit `red` (10-bit fields; counts not kept: timing only)
//  12 red32      as one-redux with 32-bit `red`s (timing only)
//  13 warp-row   as one-redux, the row picked by the warp's global index, not
//                the block's (timing only: same-address contention or not)
// The counters of modes 2, 4, 5, 6 and 7 must equal the counts derived on the
// CPU from the same predicates; the program checks them and the sum.
//
// Usage: ./flush_strategies [n]   default 16777216 (1 << 24), 256 threads per
// block. With TK_BENCH=k prints, per mode,
//   bench: flush_<name> runs=k median_us=<x> min_us=<x>
// (CUDA events around one launch, median of k after one warm-up).
// Success prints "flush_strategies: PASSED n=<n>" and exits 0; a wrong count
// prints "flush_strategies: FAILED mode <m> counter <c>: <got> != <want>"
// and exits 1.
#include "bench.h"  // tk_bench; gpu_compat.h's GPU_CHECK

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

enum { kThreads = 256, kBits = 6, kBanks = 4096, kModes = 14 };
static const char* const kModeNames[kModes] = {"plain",  "mask",  "redux",     "redux_only",
                                               "ballot", "packed", "block",    "one_redux",
                                               "lane0_only", "one_sum",  "active",
                                               "one_red",    "red32",    "warp_row"};

__device__ __forceinline__ unsigned warp_sum_redux(unsigned v) {
    unsigned s;
    asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(s) : "r"(v));
    return s;
}

__device__ __forceinline__ void red_add(unsigned long long* p, unsigned long long v) {
    asm volatile("red.relaxed.gpu.global.add.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

__device__ __forceinline__ void red_add32(unsigned* p, unsigned v) {
    asm volatile("red.relaxed.gpu.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

__device__ unsigned g_sink;  // keeps mode 3's sums alive

// The flush at every exit of the kernel. `mask` holds this thread's bits.
template <int MODE>
__device__ __forceinline__ void flush(unsigned mask, unsigned long long* counters,
                                      unsigned* block_sums) {
    unsigned long long* row = counters + (size_t)(blockIdx.x & (kBanks - 1)) * kBits;
    if (MODE == 13) row = counters + (size_t)((blockIdx.x * 8 + threadIdx.x / 32) & (kBanks - 1)) * kBits;
    unsigned lane = threadIdx.x % 32;
    if (MODE == 1) {
        if (mask == 0xdeadbeefu) g_sink = mask;
        return;
    }
    if (MODE == 8) {
        for (int b = 0; b < kBits && lane == 0; ++b)
            if ((mask >> b) & 1u) red_add(&row[b], 1);
        return;
    }
    unsigned active = __activemask();
    if (MODE == 10) {
        if (active == 0xdeadbeefu) g_sink = active;
        return;
    }
    if (MODE != 6 && active != 0xffffffffu) {  // partial warp: each lane adds its own
        for (int b = 0; b < kBits; ++b)
            if ((mask >> b) & 1u) red_add(&row[b], 1);
        return;
    }
    if (MODE == 2 || MODE == 3) {
        for (int b = 0; b < kBits; ++b) {
            unsigned s = warp_sum_redux((mask >> b) & 1u);
            if (MODE == 3) {
                if (s == 0xdeadbeefu) g_sink = s;
            } else if (s != 0 && lane == 0) {
                red_add(&row[b], s);
            }
        }
        return;
    }
    if (MODE == 4) {
        for (int b = 0; b < kBits; ++b) {
            unsigned s = __popc(__ballot_sync(0xffffffffu, (mask >> b) & 1u));
            if (s != 0 && lane == 0) red_add(&row[b], s);
        }
        return;
    }
    if (MODE == 5) {
        for (int b0 = 0; b0 < kBits; b0 += 5) {
            unsigned packed = 0;
            for (int k = 0; k < 5 && b0 + k < kBits; ++k) packed |= ((mask >> (b0 + k)) & 1u) << (6 * k);
            unsigned s = warp_sum_redux(packed);
            if (lane != 0 || s == 0) continue;
            for (int k = 0; k < 5 && b0 + k < kBits; ++k) {
                unsigned f = (s >> (6 * k)) & 63u;
                if (f != 0) red_add(&row[b0 + k], f);
            }
        }
        return;
    }
    if (MODE == 7 || MODE == 11 || MODE == 12 || MODE == 13) {
        unsigned packed = 0;
        for (int k = 0; k < kBits; ++k) packed |= ((mask >> k) & 1u) << (5 * k);
        unsigned s = warp_sum_redux(lane == 0 ? 0u : packed);
        if (lane != 0) return;
        unsigned long long all = 0;
        for (int k = 0; k < kBits; ++k) {
            unsigned f = ((s >> (5 * k)) & 31u) + ((mask >> k) & 1u);
            if (MODE == 11)
                all |= (unsigned long long)f << (10 * k);
            else if (f != 0 && MODE == 12)
                red_add32((unsigned*)&row[k], f);
            else if (f != 0)
                red_add(&row[k], f);
        }
        if (MODE == 11 && all != 0) red_add(&row[0], all);
        return;
    }
    if (MODE == 9) {
        unsigned s = warp_sum_redux(mask);
        if (s == 0xdeadbeefu) g_sink = s;
        return;
    }
    // MODE 6: block_sums[0..kBits) the block's sums, block_sums[kBits] the
    // threads done. Lanes of a partial warp each add their own bits.
    unsigned leader = __ffs(active) - 1;
    for (int b = 0; b < kBits; ++b) {
        unsigned s = __popc(__ballot_sync(active, (mask >> b) & 1u));
        if (s != 0 && lane == leader) atomicAdd(&block_sums[b], s);
    }
    if (lane != leader) return;
    __threadfence_block();
    unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    unsigned done = atomicAdd(&block_sums[kBits], (unsigned)__popc(active)) + __popc(active);
    if (done != threads) return;
    __threadfence_block();
    for (int b = 0; b < kBits; ++b) {
        unsigned s = *(volatile unsigned*)&block_sums[b];
        if (s != 0) red_add(&row[b], s);
    }
}

template <int MODE>
__global__ void reduce_counted(const float* in, float* out, int n, unsigned long long* counters) {
    extern __shared__ float warp_sums[];
    __shared__ unsigned block_sums[kBits + 1];
    if (MODE == 6) {
        if (threadIdx.x <= kBits) block_sums[threadIdx.x] = 0;
        __syncthreads();
    }
    unsigned mask = 0;
    int base = blockIdx.x * blockDim.x;
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x / 32;
    if (base + warp * 32 >= n) {
        if (MODE != 0) flush<MODE>(mask, counters, block_sums);
        return;
    }
    int i = base + threadIdx.x;
    float v = 0.0f;
    if (i < n) {
        mask |= 1u;
        v = in[i];
    }
    mask |= 2u;
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (lane == 0) {
        mask |= 4u;
        warp_sums[warp] = v;
    }
    __syncthreads();
    if (warp != 0) {
        if (MODE != 0) flush<MODE>(mask, counters, block_sums);
        return;
    }
    int live = (n - base + 31) / 32;
    float w = 0.0f;
    if (lane < live && lane < (int)(blockDim.x / 32)) {
        mask |= 8u;
        w = warp_sums[lane];
    }
    mask |= 16u;
    for (int offset = 16; offset > 0; offset /= 2) w += __shfl_down_sync(0xffffffffu, w, offset);
    if (lane == 0) {
        mask |= 32u;
        out[blockIdx.x] = w;
    }
    if (MODE != 0) flush<MODE>(mask, counters, block_sums);
}

typedef void (*kernel_fn)(const float*, float*, int, unsigned long long*);
static const kernel_fn kKernels[kModes] = {
    reduce_counted<0>, reduce_counted<1>, reduce_counted<2>, reduce_counted<3>, reduce_counted<4>,
    reduce_counted<5>, reduce_counted<6>, reduce_counted<7>, reduce_counted<8>, reduce_counted<9>,
    reduce_counted<10>, reduce_counted<11>, reduce_counted<12>, reduce_counted<13>};

// The six counts the kernel must give, from its predicates.
static void expected_counts(int n, int blocks, unsigned long long want[kBits]) {
    std::fill(want, want + kBits, 0ull);
    for (int b = 0; b < blocks; ++b) {
        int base = b * kThreads;
        for (int w = 0; w < kThreads / 32; ++w) {
            if (base + w * 32 >= n) continue;
            int in_range = std::min(32, n - (base + w * 32));
            want[0] += (unsigned long long)in_range;
            want[1] += 32;
            want[2] += 1;
            if (w != 0) continue;
            int live = (n - base + 31) / 32;
            want[3] += (unsigned long long)std::min(std::min(live, kThreads / 32), 32);
            want[4] += 32;
            want[5] += 1;
        }
    }
}

int main(int argc, char** argv) {
    long n = argc > 1 ? std::strtol(argv[1], nullptr, 10) : (1l << 24);
    if (n < 1 || n > (1l << 28)) {
        std::fprintf(stderr, "flush_strategies: n must be in [1, 2^28], got '%s'\n", argv[1]);
        return 2;
    }
    int blocks = (int)((n + kThreads - 1) / kThreads);
    std::vector<float> h_in((size_t)n);
    for (long i = 0; i < n; ++i) h_in[(size_t)i] = (float)((i % 3) - 1);
    float *d_in, *d_out;
    unsigned long long* d_counters;
    size_t counters_bytes = sizeof(unsigned long long) * kBanks * kBits;
    GPU_CHECK(cudaMalloc(&d_in, sizeof(float) * (size_t)n));
    GPU_CHECK(cudaMalloc(&d_out, sizeof(float) * (size_t)blocks));
    GPU_CHECK(cudaMalloc(&d_counters, counters_bytes));
    GPU_CHECK(cudaMemcpy(d_in, h_in.data(), sizeof(float) * (size_t)n, cudaMemcpyHostToDevice));
    unsigned long long want[kBits];
    expected_counts((int)n, blocks, want);
    size_t shmem = sizeof(float) * (kThreads / 32);
    std::vector<unsigned long long> h_counters((size_t)kBanks * kBits);
    for (int mode = 0; mode < kModes; ++mode) {
        // Checked launch first: the counters of one launch.
        GPU_CHECK(cudaMemset(d_counters, 0, counters_bytes));
        kKernels[mode]<<<blocks, kThreads, shmem>>>(d_in, d_out, (int)n, d_counters);
        GPU_CHECK(cudaGetLastError());
        GPU_CHECK(cudaMemcpy(h_counters.data(), d_counters, counters_bytes, cudaMemcpyDeviceToHost));
        bool counts = mode == 2 || mode == 4 || mode == 5 || mode == 6 || mode == 7;
        for (int c = 0; counts && c < kBits; ++c) {
            unsigned long long got = 0;
            for (int b = 0; b < kBanks; ++b) got += h_counters[(size_t)b * kBits + c];
            if (got != want[c]) {
                std::printf("flush_strategies: FAILED mode %d counter %d: %llu != %llu\n", mode, c, got,
                            want[c]);
                return 1;
            }
        }
        char label[64];
        std::snprintf(label, sizeof label, "flush_%s", kModeNames[mode]);
        tk_bench(label, [&] { kKernels[mode]<<<blocks, kThreads, shmem>>>(d_in, d_out, (int)n, d_counters); });
    }
    std::printf("flush_strategies: PASSED n=%ld\n", n);
    return 0;
}
