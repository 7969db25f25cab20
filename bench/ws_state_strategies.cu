// ws_state_strategies.cu - where a working-set copy should read its launch
// state from, measured on the shape where the working-set mode costs most
// for its size: vector_add, one element per thread (4.3x plain on an H200;
// docs/lab/2026-11-26-overhead2-2-exit-flush-and-ws-flags.md). Not an
// instrumented program: the page-flag code of
// PASTA's working-set copy (device_rt/device_rt.c: __pasta_ws_resolve_arg's
// range check against the pointer argument's allocation, the thread block's
// bank of flags, __pasta_ws_mark's read of the flags and store of 1 where 0)
// is written out by hand here, with the launch state in each place below, so
// that one run on a GPU compares them before the pass emits one. Built with
// nvcc by bench/gpu_ws_state_strategies.sh.
//
// Modes (argument `mode`):
//   0 plain   no page flags
//   1 global  the state in global memory, its fields loaded at entry
//             (ld.global.nc), as the working-set copy does today
//   2 param   the state passed by value as a kernel parameter (its fields
//             are constant-bank operands); the out-of-line slow path gets the
//             global copy's address, as device functions would
//   3 const   the state in __constant__ memory, written before each launch
// and, to find what the rest costs (state in __constant__ memory):
//   4 nomark  the flags' addresses computed, never read or set (timing only)
//   5 load    the flags read, never set (timing only)
//   6 early   the flags found and read before the data loads, set after the
//             store: the flag loads' latency overlaps the data's
//   7 cg      as const, the flags read from L2 (ld.global.cg): a warp sees
//             a 1 another SM stored, not its own L1's stale 0
//   8 ca_cg   as const, read through L1 and, where that says 0, again from
//             L2; set where both say 0
//   9 warpbank as const, the bank picked by the warp's global index, not the
//             block's (the first stores of a page spread over more warps'
//             banks)
//  10 blockset as const, with the last flag each argument set in this thread
//             block kept in shared memory (cleared at entry, behind a
//             barrier): a warp skips a flag its block already set
//  11 blockclaim as blockset, but a warp claims the flag with an atomic
//             exchange in shared memory, so of a block's warps racing for
//             one flag only the first reads and sets it
// Every mode but plain, nomark and load must set exactly the page flags of the three arrays'
// pages (checked after each checked launch); the sums are checked too.
//
// Usage: ./ws_state_strategies [n]   default 67108864 (1 << 26), 256 threads
// per block. With TK_BENCH=k prints, per mode,
//   bench: ws_state_<name> runs=k median_us=<x> min_us=<x>
// Success prints "ws_state_strategies: PASSED n=<n>" and exits 0; a wrong
// flag or sum prints "ws_state_strategies: FAILED ..." and exits 1.
#include "bench.h"  // tk_bench_runs; gpu_compat.h's GPU_CHECK

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

enum { kThreads = 256, kModes = 12, kArgs = 3, kBanks = 16, kPageShift = 16 };
static const char* const kModeNames[kModes] = {"plain", "global", "param", "const",
                                               "nomark", "load",  "early", "cg",
                                               "ca_cg", "warpbank", "blockset", "blockclaim"};

// The fields a working-set copy reads (a subset of struct pasta_ws_launch,
// same kinds): per pointer argument its allocation's range and first flag.
struct WsArg {
    unsigned long long base, end, flags;
};
struct WsState {
    unsigned long long pages, blocks;
    unsigned num_pages, page_shift, page_banks, reserved;
    WsArg args[kArgs];
};

__constant__ WsState c_state;
__device__ unsigned long long g_slow_calls;  // must stay 0: every access is in range
__device__ unsigned g_sink;                  // keeps timing-only values alive

// The slow path (a table lookup in PASTA), out of line as there; never taken
// here, but present so that the fast path's code has the same shape.
__device__ __noinline__ unsigned long long slow_path(const WsState* st, unsigned long long addr) {
    atomicAdd(&g_slow_calls, 1ull);
    return st->pages + (addr >> 60);  // never used for a flag store (see mark)
}

__device__ __forceinline__ unsigned long long bank_offset(unsigned num_pages, unsigned banks) {
    return (unsigned long long)(blockIdx.x & (banks - 1)) * num_pages;
}

__device__ __forceinline__ unsigned long long resolve(const WsArg& a, unsigned long long bank,
                                                      unsigned shift, unsigned long long hot,
                                                      const WsState* global_st, const void* p) {
    unsigned long long addr = (unsigned long long)p;
    if (addr - a.base < a.end - a.base && !hot) return a.flags + bank + ((addr - a.base) >> shift);
    return slow_path(global_st, addr);
}

__device__ __forceinline__ unsigned char load_cg(unsigned long long f) {
    unsigned short v;
    asm volatile("ld.global.cg.u8 %0, [%1];" : "=h"(v) : "l"(f));
    return (unsigned char)v;
}

template <int MODE>
__device__ __forceinline__ void mark_mode(unsigned long long f0, unsigned long long f1,
                                          unsigned long long f2) {
    unsigned long long f[3] = {f0, f1, f2};
    unsigned char set[3];
    for (int i = 0; i < 3; ++i) set[i] = MODE == 7 ? load_cg(f[i]) : *(unsigned char*)f[i];
    if (MODE == 8)
        for (int i = 0; i < 3; ++i)
            if (set[i] == 0) set[i] = load_cg(f[i]);
    for (int i = 0; i < 3; ++i)
        if (set[i] == 0) *(unsigned char*)f[i] = 1;
}

__device__ __forceinline__ void mark(unsigned long long f0, unsigned long long f1,
                                     unsigned long long f2) {
    unsigned char* f[3] = {(unsigned char*)f0, (unsigned char*)f1, (unsigned char*)f2};
    unsigned char set[3];
    for (int i = 0; i < 3; ++i) set[i] = f[i] ? *f[i] : 1;
    for (int i = 0; i < 3; ++i)
        if (set[i] == 0) *f[i] = 1;
}

// The shared body: `st` is where the fields come from (global, param or
// constant memory), `global_st` the global copy the slow path gets.
template <int MODE>
__device__ __forceinline__ void body(const float* a, const float* b, float* c, int n,
                                     const WsState& st, const WsState* global_st) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (MODE != 10 && MODE != 11 && i >= n) return;
    if (MODE == 6) {
        unsigned long long bank = bank_offset(st.num_pages, st.page_banks);
        unsigned shift = st.page_shift;
        unsigned long long hot = st.blocks;
        unsigned long long fa = resolve(st.args[0], bank, shift, hot, global_st, &a[i]);
        unsigned long long fb = resolve(st.args[1], bank, shift, hot, global_st, &b[i]);
        unsigned long long fc = resolve(st.args[2], bank, shift, hot, global_st, &c[i]);
        unsigned char sa = *(unsigned char*)fa, sb = *(unsigned char*)fb,
                      sc = *(unsigned char*)fc;
        float x = a[i];
        float y = b[i];
        c[i] = x + y;
        if (!sa) *(unsigned char*)fa = 1;
        if (!sb) *(unsigned char*)fb = 1;
        if (!sc) *(unsigned char*)fc = 1;
        return;
    }
    __shared__ unsigned long long s_last[kArgs];  // mode 10: the block's last flag set
    if (MODE == 10 || MODE == 11) {
        if (threadIdx.x < kArgs) s_last[threadIdx.x] = 0;
        __syncthreads();
        if (i >= n) return;
    }
    float x = a[i];
    float y = b[i];
    c[i] = x + y;
    if (MODE == 0) return;
    unsigned long long bank = bank_offset(st.num_pages, st.page_banks);
    if (MODE == 9)
        bank = (unsigned long long)(((blockIdx.x * blockDim.x + threadIdx.x) / 32) &
                                    (st.page_banks - 1)) *
               st.num_pages;
    unsigned shift = st.page_shift;
    unsigned long long hot = st.blocks;
    unsigned long long fa = resolve(st.args[0], bank, shift, hot, global_st, &a[i]);
    unsigned long long fb = resolve(st.args[1], bank, shift, hot, global_st, &b[i]);
    unsigned long long fc = resolve(st.args[2], bank, shift, hot, global_st, &c[i]);
    if (MODE == 4) {
        if ((fa ^ fb ^ fc) == 1) g_sink = 1;
        return;
    }
    if (MODE == 5) {
        unsigned v = *(unsigned char*)fa | *(unsigned char*)fb | *(unsigned char*)fc;
        if (v == 7) g_sink = v;
        return;
    }
    if (MODE == 7 || MODE == 8) {
        mark_mode<MODE>(fa, fb, fc);
        return;
    }
    if (MODE == 11) {
        // One lane per warp claims; lanes of a warp share its flags here
        // (one page per warp and array), the other lanes follow lane 0.
        unsigned long long f[kArgs] = {fa, fb, fc};
        unsigned lane = threadIdx.x % 32;
        for (int k = 0; k < kArgs; ++k) {
            unsigned long long mine = __shfl_sync(0xffffffffu, f[k], 0);
            bool same = __all_sync(0xffffffffu, mine == f[k]);
            if (!same) {  // lanes on two pages: each its own
                if (*(unsigned char*)f[k] == 0) *(unsigned char*)f[k] = 1;
                continue;
            }
            if (lane != 0) continue;
            if (atomicExch(&s_last[k], f[k]) == f[k]) continue;  // the block has it
            if (*(unsigned char*)f[k] == 0) *(unsigned char*)f[k] = 1;
        }
        return;
    }
    if (MODE == 10) {
        // A flag the block set already is skipped; a race only costs an
        // extra store (flags go from 0 to 1 only).
        unsigned long long f[kArgs] = {fa, fb, fc};
        unsigned long long last[kArgs];
        for (int k = 0; k < kArgs; ++k) last[k] = ((volatile unsigned long long*)s_last)[k];
        unsigned char set[kArgs];
        for (int k = 0; k < kArgs; ++k) set[k] = f[k] == last[k] ? 1 : *(unsigned char*)f[k];
        for (int k = 0; k < kArgs; ++k)
            if (set[k] == 0) {
                *(unsigned char*)f[k] = 1;
                ((volatile unsigned long long*)s_last)[k] = f[k];
            }
        return;
    }
    mark(fa, fb, fc);
}

__global__ void add_plain(const float* a, const float* b, float* c, int n, const WsState* g) {
    body<0>(a, b, c, n, *g, g);
}
__global__ void add_global(const float* a, const float* b, float* c, int n, const WsState* g) {
    // As the pass emits it: the fields loaded once, read-only, at entry.
    const WsState st = *(const WsState*)__builtin_assume_aligned(g, 8);
    body<1>(a, b, c, n, st, g);
}
__global__ void add_param(const float* a, const float* b, float* c, int n, const WsState* g,
                          const WsState st) {
    body<2>(a, b, c, n, st, g);
}
template <int MODE>
__global__ void add_const(const float* a, const float* b, float* c, int n, const WsState* g) {
    body<MODE>(a, b, c, n, c_state, g);
}

static void launch(int mode, int blocks, const float* a, const float* b, float* c, int n,
                   const WsState* g, const WsState& h) {
    switch (mode) {
    case 0: add_plain<<<blocks, kThreads>>>(a, b, c, n, g); break;
    case 1: add_global<<<blocks, kThreads>>>(a, b, c, n, g); break;
    case 2: add_param<<<blocks, kThreads>>>(a, b, c, n, g, h); break;
    default:
        // Written before each launch, as the host runtime would.
        GPU_CHECK(cudaMemcpyToSymbolAsync(c_state, &h, sizeof h));
        if (mode == 3) add_const<3><<<blocks, kThreads>>>(a, b, c, n, g);
        if (mode == 4) add_const<4><<<blocks, kThreads>>>(a, b, c, n, g);
        if (mode == 5) add_const<5><<<blocks, kThreads>>>(a, b, c, n, g);
        if (mode == 6) add_const<6><<<blocks, kThreads>>>(a, b, c, n, g);
        if (mode == 7) add_const<7><<<blocks, kThreads>>>(a, b, c, n, g);
        if (mode == 8) add_const<8><<<blocks, kThreads>>>(a, b, c, n, g);
        if (mode == 9) add_const<9><<<blocks, kThreads>>>(a, b, c, n, g);
        if (mode == 10) add_const<10><<<blocks, kThreads>>>(a, b, c, n, g);
        if (mode == 11) add_const<11><<<blocks, kThreads>>>(a, b, c, n, g);
    }
}

int main(int argc, char** argv) {
    long n = argc > 1 ? std::strtol(argv[1], nullptr, 10) : (1l << 26);
    if (n < 1 || n > (1l << 28)) {
        std::fprintf(stderr, "ws_state_strategies: n must be in [1, 2^28], got '%s'\n", argv[1]);
        return 2;
    }
    int runs = tk_bench_runs();
    int blocks = (int)((n + kThreads - 1) / kThreads);
    size_t bytes = sizeof(float) * (size_t)n;
    std::vector<float> h_a((size_t)n), h_b((size_t)n), h_c((size_t)n);
    for (long i = 0; i < n; ++i) h_a[(size_t)i] = (float)(i % 7), h_b[(size_t)i] = (float)(i % 5);
    float *d_a, *d_b, *d_c;
    GPU_CHECK(cudaMalloc(&d_a, bytes));
    GPU_CHECK(cudaMalloc(&d_b, bytes));
    GPU_CHECK(cudaMalloc(&d_c, bytes));
    GPU_CHECK(cudaMemcpy(d_a, h_a.data(), bytes, cudaMemcpyHostToDevice));
    GPU_CHECK(cudaMemcpy(d_b, h_b.data(), bytes, cudaMemcpyHostToDevice));
    // Flags: one per 64 KiB page of each array, kBanks banks of all of them.
    unsigned pages_per = (unsigned)((bytes + (1u << kPageShift) - 1) >> kPageShift);
    unsigned num_pages = kArgs * pages_per;
    size_t flag_bytes = (size_t)num_pages * kBanks;
    unsigned char* d_flags;
    GPU_CHECK(cudaMalloc(&d_flags, flag_bytes));
    WsState h{};
    h.pages = (unsigned long long)d_flags;
    h.num_pages = num_pages;
    h.page_shift = kPageShift;
    h.page_banks = kBanks;
    const float* arrays[kArgs] = {d_a, d_b, d_c};
    for (int k = 0; k < kArgs; ++k)
        h.args[k] = {(unsigned long long)arrays[k], (unsigned long long)arrays[k] + bytes,
                     h.pages + (unsigned long long)k * pages_per};
    WsState* d_state;
    GPU_CHECK(cudaMalloc(&d_state, sizeof h));
    GPU_CHECK(cudaMemcpy(d_state, &h, sizeof h, cudaMemcpyHostToDevice));
    std::vector<unsigned char> h_flags(flag_bytes);
    cudaEvent_t start, stop;
    GPU_CHECK(cudaEventCreate(&start));
    GPU_CHECK(cudaEventCreate(&stop));
    for (int mode = 0; mode < kModes; ++mode) {
        GPU_CHECK(cudaMemset(d_flags, 0, flag_bytes));
        GPU_CHECK(cudaMemset(d_c, 0, bytes));
        launch(mode, blocks, d_a, d_b, d_c, (int)n, d_state, h);
        GPU_CHECK(cudaGetLastError());
        GPU_CHECK(cudaMemcpy(h_c.data(), d_c, bytes, cudaMemcpyDeviceToHost));
        GPU_CHECK(cudaMemcpy(h_flags.data(), d_flags, flag_bytes, cudaMemcpyDeviceToHost));
        for (long i = 0; i < n; ++i)
            if (h_c[(size_t)i] != h_a[(size_t)i] + h_b[(size_t)i]) {
                std::printf("ws_state_strategies: FAILED mode %d sum at %ld\n", mode, i);
                return 1;
            }
        // Each page's flag is set in at least one bank (every page is touched),
        // or in none for plain.
        for (unsigned p = 0; p < num_pages; ++p) {
            int any = 0;
            for (int bank = 0; bank < kBanks; ++bank) any |= h_flags[(size_t)bank * num_pages + p];
            if (any != (mode != 0 && mode != 4 && mode != 5)) {
                std::printf("ws_state_strategies: FAILED mode %d page %u flag %d\n", mode, p, any);
                return 1;
            }
        }
        // Not tk_bench: the flags are cleared before each launch, outside
        // the events (every launch measures first touches).
        std::vector<float> times;
        for (int r = 0; r <= runs && runs > 0; ++r) {
            GPU_CHECK(cudaMemset(d_flags, 0, flag_bytes));  // flags start at 0 each launch
            GPU_CHECK(cudaEventRecord(start));
            launch(mode, blocks, d_a, d_b, d_c, (int)n, d_state, h);
            GPU_CHECK(cudaEventRecord(stop));
            GPU_CHECK(cudaEventSynchronize(stop));
            float ms = 0;
            GPU_CHECK(cudaEventElapsedTime(&ms, start, stop));
            if (r > 0) times.push_back(ms * 1000.0f);  // run 0: warm-up
        }
        if (!times.empty()) {
            std::sort(times.begin(), times.end());
            std::printf("bench: ws_state_%s runs=%d median_us=%.1f min_us=%.1f\n", kModeNames[mode],
                        runs, times[times.size() / 2], times[0]);
        }
    }
    unsigned long long slow = 0;
    GPU_CHECK(cudaMemcpyFromSymbol(&slow, g_slow_calls, sizeof slow));
    if (slow != 0) {
        std::printf("ws_state_strategies: FAILED %llu accesses took the slow path\n", slow);
        return 1;
    }
    std::printf("ws_state_strategies: PASSED n=%ld\n", n);
    return 0;
}
