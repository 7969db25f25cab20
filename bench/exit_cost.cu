// exit_cost.cu - where a short one-block kernel's fixed counting cost comes
// from (CUB's DeviceReduceSingleTileKernel: 2.8 -> 4.3 us under ncu on an
// H200, one block of 256 threads). Not an instrumented program: the parts
// of PASTA's counting copy are written out by hand, one per kernel, so
// that ncu (caches flushed before each launch, as in the Thrust table)
// times each alone:
//   plain         the block sum of 512 values (two loads a thread, warp
//                 shuffles, partials in shared memory, thread 0 stores)
//   entry_call    + the grid's first thread adds a launch count through an
//                 out-of-line call (as __pasta_count_launch_threads_first)
//   entry_inline  + the same add written inline under the block test
//   exit_red      + every warp adds one warp sum to its counter row with a
//                 `red` (the inline flush's fast path, one counter)
//   exit_prefetch + exit_red, and the first thread prefetches that row's
//                 line (and exit_call's) into L2 at entry (prefetch.global.L2)
//   exit_call     + every warp calls an out-of-line flush (redux.sync and a
//                 `red` by lane 0, as __pasta_flush_bits_scaled)
//   counting      entry_call + exit_red + exit_call: today's copy's parts
//   counting_warm entry_inline + exit_prefetch + exit_call
//   call_warm_line entry_call + exit_call adding to the line the entry's
//                 `red`s brought into L2 (ExclusiveSum's case: its flush is
//                 the first block's out-of-line call, into that line)
//   no_calls      entry_inline + exit_red + exit_call's flush written inline:
//                 today's parts with no call (-pasta-inline-launch-count
//                 with -pasta-inline-first-block-flush)
//   exit_call_warmed exit_call, and warp 0 calls the same flush (adding
//                 nothing) at entry, so that its code is cached at exit:
//                 against exit_call, what the callee's cold code costs
//   entry_red_near entry_inline's adds, into a line of the input's own
//                 allocation (16 KiB past its data: its page, not its lines)
//   exit_red_near exit_red into that line: against entry_inline and
//                 exit_red, whether the counters' page (a TLB walk) or their
//                 line (a DRAM read for the atomic) costs
// Counter rows are 4 MiB apart from the data, as PASTA's own counters are
// (a module global). Each kernel runs `launches` times; the result is
// checked each time. Usage: ./exit_cost [launches] (default 20). Prints
// "exit_cost: PASSED" (exit 0) or "exit_cost: FAILED ..." (exit 1). Times
// come from ncu (bench/gpu_exit_cost.sh), not from the program.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                      \
    do {                                                                              \
        cudaError_t e = (x);                                                          \
        if (e != cudaSuccess) {                                                       \
            std::printf("exit_cost: FAILED %s: %s\n", #x, cudaGetErrorString(e));     \
            std::exit(1);                                                             \
        }                                                                             \
    } while (0)

enum { kThreads = 256, kItems = 512, kRowWords = 320, kRows = 1024 };

// Rows of 2,560 bytes from a 128-byte boundary: each counter used below
// sits in a line of its own.
__device__ __align__(128) unsigned long long g_counters[kRows * kRowWords];

__device__ __forceinline__ void red_add(unsigned long long* p, unsigned long long v) {
    asm volatile("red.relaxed.gpu.global.add.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

__device__ __forceinline__ unsigned row_key() {
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    return ((sm << 5) | (blockIdx.x & 31)) & (kRows - 1);
}

__device__ __noinline__ void launch_first(unsigned long long* launches) {
    if ((threadIdx.x | blockIdx.x) == 0) {
        red_add(launches, 1);
        red_add(launches + 1, (unsigned long long)gridDim.x * blockDim.x);
    }
}

__device__ __noinline__ void flush_call(unsigned long long* slot, unsigned bits) {
    unsigned s;
    asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(s) : "r"(bits));
    if (s != 0 && threadIdx.x % 32 == 0) red_add(slot, s);
}

enum { kPlain, kEntryCall, kEntryInline, kExitRed, kExitPrefetch, kExitCall, kCounting,
       kCountingWarm, kCallWarmLine, kNoCalls, kExitCallWarmed, kEntryRedNear, kExitRedNear,
       kModes };
static const char* const kNames[kModes] = {
    "plain",         "entry_call",     "entry_inline", "exit_red",
    "exit_prefetch", "exit_call",      "counting",     "counting_warm",
    "call_warm_line", "no_calls",      "exit_call_warmed", "entry_red_near",
    "exit_red_near"};

template <int M>
__global__ void __launch_bounds__(kThreads)
    block_sum(const long long* in, long long* out, unsigned long long* near) {
    __shared__ long long partial[kThreads / 32];
    const bool entry_call = M == kEntryCall || M == kCounting || M == kCallWarmLine;
    const bool entry_inline = M == kEntryInline || M == kCountingWarm || M == kNoCalls;
    const bool exit_red = M == kExitRed || M == kExitPrefetch || M == kCounting ||
                          M == kCountingWarm || M == kNoCalls;
    const bool prefetch = M == kExitPrefetch || M == kCountingWarm;
    const bool exit_call = M == kExitCall || M == kCounting || M == kCountingWarm ||
                           M == kCallWarmLine || M == kExitCallWarmed;
    unsigned long long* row0 = g_counters + 200;
    if (entry_call && blockIdx.x == 0 && threadIdx.x == 0) launch_first(row0);  // as PASTA
    if ((entry_inline || prefetch) && blockIdx.x == 0 && threadIdx.x == 0) {
        if (entry_inline) {
            red_add(row0, 1);
            red_add(row0 + 1, (unsigned long long)gridDim.x * blockDim.x);
        }
        if (prefetch) {  // the lines exit_red's and exit_call's `red`s add to
            asm volatile("prefetch.global.L2 [%0];" ::"l"(g_counters + row_key() * kRowWords + 244));
            asm volatile("prefetch.global.L2 [%0];" ::"l"(row0 + 8));
        }
    }
    if (M == kExitCallWarmed && threadIdx.x < 32) flush_call(row0 + 8, 0);  // adds nothing
    if (M == kEntryRedNear && blockIdx.x == 0 && threadIdx.x == 0) {
        red_add(near, 1);
        red_add(near + 1, (unsigned long long)gridDim.x * blockDim.x);
    }
    unsigned bits = 0;
    long long v = in[threadIdx.x] + in[threadIdx.x + kThreads];
    bits |= 1;
    for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
    if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        bits |= 2;
        long long w = threadIdx.x < kThreads / 32 ? partial[threadIdx.x] : 0;
        for (int d = 16; d > 0; d /= 2) w += __shfl_xor_sync(0xffffffffu, w, d);
        if (threadIdx.x == 0) *out = w;
    }
    if (exit_red) {
        unsigned s;
        asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(s) : "r"(bits & 1));
        if (threadIdx.x % 32 == 0) red_add(g_counters + row_key() * kRowWords + 244, s);
    }
    if (exit_call) flush_call(row0 + (M == kCallWarmLine ? 2 : 8), bits >> 1);
    if (M == kExitRedNear) {
        unsigned s;
        asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(s) : "r"(bits & 1));
        if (threadIdx.x % 32 == 0) red_add(near + 2, s);
    }
    if (M == kNoCalls) {  // flush_call's body, inline
        unsigned s;
        asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(s) : "r"(bits >> 1));
        if (s != 0 && threadIdx.x % 32 == 0) red_add(row0 + 8, s);
    }
}

template <int M>
static void run(long long* in, long long* out, int launches, long long want) {
    for (int l = 0; l < launches; ++l) {
        // 16 KiB past the data, in the same allocation (cudaMalloc below).
        block_sum<M><<<1, kThreads>>>(in, out, (unsigned long long*)(in + kItems + 2048));
        CHECK(cudaGetLastError());
        long long got = 0;
        CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
        if (got != want) {
            std::printf("exit_cost: FAILED %s: %lld != %lld\n", kNames[M], got, want);
            std::exit(1);
        }
    }
}

int main(int argc, char** argv) {
    int launches = argc > 1 ? std::atoi(argv[1]) : 20;
    std::vector<long long> host(kItems);
    long long want = 0;
    for (int i = 0; i < kItems; ++i) want += host[i] = i * 7 - 100;
    long long *in, *out;
    CHECK(cudaMalloc(&in, (kItems + 4096) * sizeof(long long)));
    CHECK(cudaMalloc(&out, sizeof(long long)));
    CHECK(cudaMemcpy(in, host.data(), kItems * sizeof(long long), cudaMemcpyHostToDevice));
    run<kPlain>(in, out, launches, want);
    run<kEntryCall>(in, out, launches, want);
    run<kEntryInline>(in, out, launches, want);
    run<kExitRed>(in, out, launches, want);
    run<kExitPrefetch>(in, out, launches, want);
    run<kExitCall>(in, out, launches, want);
    run<kCounting>(in, out, launches, want);
    run<kCountingWarm>(in, out, launches, want);
    run<kCallWarmLine>(in, out, launches, want);
    run<kNoCalls>(in, out, launches, want);
    run<kExitCallWarmed>(in, out, launches, want);
    run<kEntryRedNear>(in, out, launches, want);
    run<kExitRedNear>(in, out, launches, want);
    std::printf("exit_cost: PASSED launches=%d\n", launches);
    return 0;
}
