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
// and, to find whether the flag stores' cost is the few L2 lines every warp
// of a wave reads and writes (128 pages' flags share a line):
//  12 spread32  as const, each flag in its own 32-byte sector
//  13 spread128 as const, each flag in its own 128-byte line
//  14 storeall  as const, no read: every access stores 1 (fire and forget)
//  15 storeall128 storeall with each flag in its own 128-byte line
//  16 swz16     as const, flags packed but each run of 16 pages' flags
//               spread over 16 lines (a flag's byte: the page's low 4 bits
//               pick the line of a 2,048-page group, the next 7 the byte)
//  17 swz32     the same over 32 lines (4,096-page groups)
//  18 swz16all  swz16 with storeall's marks
//  19 swz4      as swz16 over 4 lines (512-flag groups)
// A second shape, bicg_q's (each thread walks a column of an n x n matrix,
// one row after another: a warp's flags move to the next page every few
// iterations), with the flags packed (as PASTA lays them out), swizzled over
// 16 lines of a 2,048-flag group (abi.h) or over 4 lines of a 512-flag
// group: walk_plain, walk_packed, walk_swz16, walk_swz4.
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

enum { kThreads = 256, kModes = 20, kArgs = 3, kBanks = 16, kPageShift = 16 };
static const char* const kModeNames[kModes] = {"plain", "global", "param", "const",
                                               "nomark", "load",  "early", "cg",
                                               "ca_cg", "warpbank", "blockset", "blockclaim",
                                               "spread32", "spread128", "storeall", "storeall128",
                                               "swz16", "swz32", "swz16all", "swz4"};
// Flag index i's byte in the swizzled modes: within each group of
// 128 << lg flags, i's low lg bits pick the 128-byte line, the next 7 the
// byte in it. (Banks and arrays are multiples of the group here.)
static __host__ __device__ constexpr unsigned long long swizzle(unsigned long long i, unsigned lg) {
    return (i & ~((128ull << lg) - 1)) | ((i & ((1ull << lg) - 1)) << 7) | ((i >> lg) & 127);
}
// Bytes between two flags in a mode (1: packed, as PASTA lays them out).
static __host__ __device__ constexpr unsigned flag_stride(int mode) {
    return mode == 12 ? 32u : mode == 13 || mode == 15 ? 128u : 1u;
}

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
    if (MODE >= 16) {
        // The same flags, each group's pages spread over L lines.
        const unsigned lg = MODE == 17 ? 5 : MODE == 19 ? 2 : 4;
        unsigned long long f[kArgs] = {fa, fb, fc};
        for (int k = 0; k < kArgs; ++k) {
            unsigned char* flag = (unsigned char*)(st.pages + swizzle(f[k] - st.pages, lg));
            if (MODE == 18)
                *flag = 1;
            else if (*flag == 0)
                *flag = 1;
        }
        return;
    }
    if (MODE >= 12) {
        // The same flags, flag_stride(MODE) bytes apart.
        const unsigned long long stride = flag_stride(MODE);
        unsigned long long f[kArgs] = {fa, fb, fc};
        for (int k = 0; k < kArgs; ++k) {
            unsigned char* flag = (unsigned char*)(st.pages + (f[k] - st.pages) * stride);
            if (MODE >= 14)
                *flag = 1;
            else if (*flag == 0)
                *flag = 1;
        }
        return;
    }
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
        if (mode == 12) add_const<12><<<blocks, kThreads>>>(a, b, c, n, g);
        if (mode == 13) add_const<13><<<blocks, kThreads>>>(a, b, c, n, g);
        if (mode == 14) add_const<14><<<blocks, kThreads>>>(a, b, c, n, g);
        if (mode == 15) add_const<15><<<blocks, kThreads>>>(a, b, c, n, g);
        if (mode == 16) add_const<16><<<blocks, kThreads>>>(a, b, c, n, g);
        if (mode == 17) add_const<17><<<blocks, kThreads>>>(a, b, c, n, g);
        if (mode == 18) add_const<18><<<blocks, kThreads>>>(a, b, c, n, g);
        if (mode == 19) add_const<19><<<blocks, kThreads>>>(a, b, c, n, g);
    }
}

// The column walk: out[c] = sum over rows r of m[r * n + c], with the page
// flag of every element read set as the copies set it (read, store 1 where
// 0), laid out as LAYOUT says: 0 packed, 4 over 4 lines, 16 over 16 lines.
template <int LAYOUT>
__device__ __forceinline__ unsigned long long walk_flag(unsigned long long i) {
    if (LAYOUT == 16) return swizzle(i, 4);
    if (LAYOUT == 4) return swizzle(i, 2);
    return i;
}

template <int LAYOUT, bool ROWS>
__global__ void walk(const float* m, float* out, int n, unsigned char* flags,
                     unsigned num_pages) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= n) return;
    unsigned long long bank = (unsigned long long)(blockIdx.x & (kBanks - 1)) * num_pages;
    float sum = 0;
    for (int r = 0; r < n; ++r) {
        // ROWS: thread c walks row c (bicg_q: a warp's lanes on 32 rows, 16 KiB
        // apart, 4 rows to a page: 8 pages per access).
        const float* p = ROWS ? &m[(size_t)c * n + r] : &m[(size_t)r * n + c];
        sum += *p;
        if (LAYOUT >= 0) {
            unsigned long long page = ((unsigned long long)(p - m) * sizeof(float)) >> kPageShift;
            unsigned char* f = flags + walk_flag<LAYOUT>(bank + page);
            if (*f == 0) *f = 1;
        }
    }
    out[c] = sum;
}

// Times the four layouts; returns 0 when every page's flag was set (in page
// order, any bank) and every sum is right.
template <bool ROWS>
static int run_walk(int runs) {
    const int n = 4096;  // 64 MiB: 1,024 pages of 64 KiB
    size_t elems = (size_t)n * n, bytes = elems * sizeof(float);
    std::vector<float> h_m(elems), h_out(n);
    for (size_t i = 0; i < elems; ++i) h_m[i] = (float)(i % 3);
    float *d_m, *d_out;
    GPU_CHECK(cudaMalloc(&d_m, bytes));
    GPU_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    GPU_CHECK(cudaMemcpy(d_m, h_m.data(), bytes, cudaMemcpyHostToDevice));
    unsigned num_pages = 2048;  // whole groups: 1,024 pages padded
    size_t flag_bytes = (size_t)num_pages * kBanks;
    unsigned char* d_flags;
    GPU_CHECK(cudaMalloc(&d_flags, flag_bytes));
    std::vector<unsigned char> h_flags(flag_bytes);
    const char* names[4] = {"walk_plain", "walk_packed", "walk_swz16", "walk_swz4"};
    const char* row_names[4] = {"rows_plain", "rows_packed", "rows_swz16", "rows_swz4"};
    if (ROWS)
        for (int k = 0; k < 4; ++k) names[k] = row_names[k];
    cudaEvent_t start, stop;
    GPU_CHECK(cudaEventCreate(&start));
    GPU_CHECK(cudaEventCreate(&stop));
    int blocks = (n + kThreads - 1) / kThreads;
    for (int mode = 0; mode < 4; ++mode) {
        std::vector<float> times;
        for (int r = 0; r <= runs; ++r) {
            GPU_CHECK(cudaMemset(d_flags, 0, flag_bytes));
            GPU_CHECK(cudaEventRecord(start));
            if (mode == 0) walk<-1, ROWS><<<blocks, kThreads>>>(d_m, d_out, n, d_flags, num_pages);
            if (mode == 1) walk<0, ROWS><<<blocks, kThreads>>>(d_m, d_out, n, d_flags, num_pages);
            if (mode == 2) walk<16, ROWS><<<blocks, kThreads>>>(d_m, d_out, n, d_flags, num_pages);
            if (mode == 3) walk<4, ROWS><<<blocks, kThreads>>>(d_m, d_out, n, d_flags, num_pages);
            GPU_CHECK(cudaEventRecord(stop));
            GPU_CHECK(cudaEventSynchronize(stop));
            float ms = 0;
            GPU_CHECK(cudaEventElapsedTime(&ms, start, stop));
            if (r > 0) times.push_back(ms * 1000.0f);
        }
        GPU_CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
        GPU_CHECK(cudaMemcpy(h_flags.data(), d_flags, flag_bytes, cudaMemcpyDeviceToHost));
        for (int c = 0; c < n; ++c) {
            double want = 0;
            for (int r = 0; r < n; ++r) want += h_m[ROWS ? (size_t)c * n + r : (size_t)r * n + c];
            if (h_out[c] != (float)want) {
                std::printf("ws_state_strategies: FAILED %s sum at %d\n", names[mode], c);
                return 1;
            }
        }
        for (unsigned p = 0; p < 1024 && mode > 0; ++p) {
            int any = 0;
            for (int bank = 0; bank < kBanks; ++bank) {
                unsigned long long i = (unsigned long long)bank * num_pages + p;
                unsigned long long at = mode == 1 ? i : swizzle(i, mode == 2 ? 4 : 2);
                any |= h_flags[at];
            }
            if (!any) {
                std::printf("ws_state_strategies: FAILED %s page %u flag 0\n", names[mode], p);
                return 1;
            }
        }
        if (!times.empty()) {
            std::sort(times.begin(), times.end());
            std::printf("bench: ws_state_%s runs=%d median_us=%.1f min_us=%.1f\n", names[mode],
                        runs, times[times.size() / 2], times[0]);
        }
    }
    GPU_CHECK(cudaFree(d_m));
    GPU_CHECK(cudaFree(d_out));
    GPU_CHECK(cudaFree(d_flags));
    return 0;
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
    size_t flag_bytes = (size_t)num_pages * kBanks * flag_stride(13);
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
            for (int bank = 0; bank < kBanks; ++bank)
                any |= h_flags[mode >= 16 ? swizzle((size_t)bank * num_pages + p,
                                                    mode == 17 ? 5 : mode == 19 ? 2 : 4)
                                          : ((size_t)bank * num_pages + p) * flag_stride(mode)];
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
    if (runs > 0 && (run_walk<false>(runs) || run_walk<true>(runs))) return 1;
    std::printf("ws_state_strategies: PASSED n=%ld\n", n);
    return 0;
}
