/*===- device_rt.c - PASTA's __device__ runtime ---------------------------===*
 *
 * Freestanding C compiled to bitcode once per GPU target and linked into
 * every instrumented device module by the pass. Threads keep their counts in
 * registers while they run; at exit each thread hands its counts to
 * __pasta_flush_counter, which sums them over the active lanes of the warp
 * and lets one lane add the sum to the counter bank of its thread block. That
 *is one atomic per warp and counter, spread over PASTA_DEVICE_BANKS addresses.
 *
 * Functions marked always_inline are inlined by the pass at their call
 * sites, so counts never go through memory on their way to the atomics;
 * __pasta_flush stays a call, for functions with very many counters.
 *
 * This file holds what every mode uses and counting mode; the other modes
 * are part files it includes (device_rt_ws.inc.c, device_rt_trace.inc.c,
 * device_rt_div.inc.c, device_rt_div_rows.inc.c).
 *===----------------------------------------------------------------------===*/
#include <stddef.h>
#include <stdint.h>

#include "pasta/abi.h"
#include "pasta/div_batch.h"

#if defined(PASTA_DEVICE_RT_HOST_TEST)
/* The unit test (test_device_rt.c) runs this file on the CPU: one thread
 * per call, a warp of one lane, plain pointers. */
#include "host_gpu_shim.h"
#define PASTA_GLOBAL
#else
#include <gpuintrin.h>
#define PASTA_GLOBAL __attribute__((address_space(1)))
#endif
/* Where a function's local variables (allocas) live. */
#if defined(__AMDGPU__)
#define PASTA_PRIVATE __attribute__((address_space(5)))
#else
#define PASTA_PRIVATE
#endif
/* Where the out-of-line flushes' staged counts live (an alloca of the
 * calling kernel): local memory on NVIDIA GPUs. */
#if defined(__NVPTX__)
#define PASTA_STAGING __attribute__((address_space(5)))
#else
#define PASTA_STAGING
#endif
#define PASTA_INLINE __attribute__((always_inline))
#define PASTA_ENTRY __attribute__((noinline))

static uint32_t pasta_linear_block_id(void) {
  return __gpu_block_id_x() +
         __gpu_num_blocks_x() *
             (__gpu_block_id_y() + __gpu_num_blocks_y() * __gpu_block_id_z());
}

static void pasta_atomic_add(PASTA_GLOBAL uint64_t *slot, uint64_t value);

/* Whether this thread may be the grid's first: the x ids alone, which the
 * kernel reads anyway. Every thread tests this at entry; the rest of the
 * test (y and z ids) and the counting go out of line
 * (__pasta_count_launch_first*): inline, ptxas if-converted them, and
 * every thread of every launch executed some 15 instructions to learn it
 * was not the first. */
static int pasta_maybe_first_thread_of_grid(void) {
  return __builtin_expect((__gpu_thread_id_x() | __gpu_block_id_x()) == 0, 0);
}

static int pasta_first_thread_of_grid(void) {
  return pasta_maybe_first_thread_of_grid() &&
         (__gpu_thread_id_y() | __gpu_thread_id_z() | __gpu_block_id_y() |
          __gpu_block_id_z()) == 0;
}

/* The blocks of this launch's grid, and the threads of each block. */
static uint64_t pasta_grid_blocks(void) {
  return (uint64_t)__gpu_num_blocks_x() * __gpu_num_blocks_y() *
         __gpu_num_blocks_z();
}

static uint64_t pasta_block_threads(void) {
  return (uint64_t)__gpu_num_threads_x() * __gpu_num_threads_y() *
         __gpu_num_threads_z();
}

/* The warps of each block: its threads in linear order, a warp's worth of
 * lanes at a time (the last warp may be partial). */
static uint64_t pasta_block_warps(void) {
  uint64_t lanes = __gpu_num_lanes();
  return (pasta_block_threads() + lanes - 1) / lanes;
}

static uint32_t pasta_flush_bank_key(void);

static void pasta_prefetch_line(PASTA_GLOBAL uint64_t *p) {
#if defined(__NVPTX__)
  __asm__ volatile("prefetch.global.L2 [%0];" : : "l"(p));
#else
  (void)p;
#endif
}

/* The grid's first thread, at entry: asks L2 for the lines of the kernel's
 * `n` counters from `launches` (its first, in bank row 0, where the first
 * block's scaled flush adds the counts alike in every block) and from the
 * same counter in its own block's row (`stride` counters a row, `banks`
 * rows), where its warps flush the rest: the first and the last counter's
 * line of each (a kernel's counters span at most 2 lines where it has at
 * most 16). A hint: nothing waits for it, no count depends on it. A `red`
 * at exit to a line that is not in L2 waits for DRAM, and the kernel ends
 * only when it is done: in a kernel of one block (CUB's single-tile
 * reduction) that wait is the kernel's last. Inline, in the branch to the
 * out-of-line launch count (no other thread runs it), three prefetches and
 * no loop: ptxas counts a callee's registers in every caller's, and in the
 * out-of-line call, with a loop over the lines, it took the counting copy
 * of Thrust's mark_sorted from 13 registers to 18 (this: 14). The pass
 * asks for it only with `-mllvm -pasta-prefetch-counter-rows=1`: on an H200
 * one-block kernels were no faster with it. */
static void pasta_prefetch_first_rows(PASTA_GLOBAL uint64_t *launches,
                                      uint32_t stride, uint32_t banks,
                                      uint32_t n) {
  if (n == 0 || !pasta_maybe_first_thread_of_grid())
    return; /* the first thread's warp calls it (PASTA_IF_MAYBE_FIRST_THREAD) */
  PASTA_GLOBAL uint64_t *own =
      launches + (size_t)(pasta_flush_bank_key() & (banks - 1)) * stride;
  pasta_prefetch_line(launches + (n - 1)); /* the first: the launch's red */
  pasta_prefetch_line(own);
  pasta_prefetch_line(own + (n - 1));
}

static PASTA_INLINE void pasta_count_launch_here(PASTA_GLOBAL uint64_t *slot) {
  if (pasta_first_thread_of_grid())
    pasta_atomic_add(slot, 1);
}

static PASTA_INLINE void
pasta_count_launch_threads_here(PASTA_GLOBAL uint64_t *launches,
                                PASTA_GLOBAL uint64_t *threads) {
  if (pasta_first_thread_of_grid()) {
    pasta_atomic_add(launches, 1);
    pasta_atomic_add(threads, pasta_grid_blocks() * pasta_block_threads());
  }
}

PASTA_ENTRY void __pasta_count_launch_first(PASTA_GLOBAL uint64_t *slot) {
  pasta_count_launch_here(slot);
}

PASTA_ENTRY void
__pasta_count_launch_threads_first(PASTA_GLOBAL uint64_t *launches,
                                   PASTA_GLOBAL uint64_t *threads) {
  pasta_count_launch_threads_here(launches, threads);
}

/* Whether this thread may be the grid's first, tested in two steps on
 * NVIDIA GPUs: the block index x (the same in every lane: ptxas branches on
 * it without a reconvergence region), then, in the blocks of index x 0
 * alone, whether the warp holds thread index x 0: a ballot, the same in
 * every lane of the warp, so that this branch needs no reconvergence region
 * either (the call tests the thread itself). As one test of `tid.x |
 * ctaid.x`, every warp of every block set up a reconvergence region around
 * the call (BSSY, BSYNC: about 5 instructions of a kernel whose counts are
 * all derived, transpose_padded's whole counting cost); so did a branch on
 * the thread index x alone in the second step, which ptxas merged with the
 * first (`ISETP.NE.U32.OR` of both, then BSSY, BRA, BSYNC in every warp of
 * the reductions). The thread index is read by volatile assembly so that
 * LLVM cannot fold the two tests into one. */
#if defined(__NVPTX__)
#define PASTA_IF_MAYBE_FIRST_THREAD(call)                                      \
  do {                                                                         \
    if (__builtin_expect(__gpu_block_id_x() == 0, 0)) {                        \
      uint32_t tid_x;                                                          \
      __asm__ volatile("mov.u32 %0, %%tid.x;" : "=r"(tid_x));                  \
      if (__gpu_ballot(__gpu_lane_mask(), tid_x == 0) != 0)                    \
        call;                                                                  \
    }                                                                          \
  } while (0)
#else
#define PASTA_IF_MAYBE_FIRST_THREAD(call)                                      \
  do {                                                                         \
    if (pasta_maybe_first_thread_of_grid())                                    \
      call;                                                                    \
  } while (0)
#endif

/* Called at kernel entry: the first thread of the grid adds 1 to the
 * kernel's launch counter (in bank 0), so a launch is counted exactly once
 * and costs the other threads a test of their block index. */
PASTA_INLINE void __pasta_count_launch(PASTA_GLOBAL uint64_t *slot,
                                       uint32_t stride, uint32_t banks,
                                       uint32_t n) {
  PASTA_IF_MAYBE_FIRST_THREAD(
      (pasta_prefetch_first_rows(slot, stride, banks, n),
       __pasta_count_launch_first(slot)));
}

/* The same for functions counting edges (passes/CounterPlacement.h): the
 * first thread also adds the number of threads the launch started, the
 * count of the kernel's entry edge. */
PASTA_INLINE void __pasta_count_launch_threads(PASTA_GLOBAL uint64_t *launches,
                                               PASTA_GLOBAL uint64_t *threads,
                                               uint32_t stride, uint32_t banks,
                                               uint32_t n) {
  PASTA_IF_MAYBE_FIRST_THREAD(
      (pasta_prefetch_first_rows(launches, stride, banks, n),
       __pasta_count_launch_threads_first(launches, threads)));
}

/* The same two with the first thread's adds inline, in its branch: no
 * call (the pass's default; `-mllvm -pasta-inline-launch-count=0` calls).
 * In a kernel of one block every other warp waits at the block's barriers
 * for the first warp, which makes the call before its own work. (An
 * if-converted form, when the test was one branch, ran in every thread;
 * split into two branches, long grids were no slower with it inline.) */
PASTA_INLINE void __pasta_count_launch_inline(PASTA_GLOBAL uint64_t *slot,
                                              uint32_t stride, uint32_t banks,
                                              uint32_t n) {
  PASTA_IF_MAYBE_FIRST_THREAD(
      (pasta_prefetch_first_rows(slot, stride, banks, n),
       pasta_count_launch_here(slot)));
}

PASTA_INLINE void __pasta_count_launch_threads_inline(
    PASTA_GLOBAL uint64_t *launches, PASTA_GLOBAL uint64_t *threads,
    uint32_t stride, uint32_t banks, uint32_t n) {
  PASTA_IF_MAYBE_FIRST_THREAD(
      (pasta_prefetch_first_rows(launches, stride, banks, n),
       pasta_count_launch_threads_here(launches, threads)));
}

/* k / r (r >= 1) by shifts and subtractions, the remainder in *rest: a
 * 64-bit division is a call of ptxas's own, which raises a kernel that
 * makes it, however rarely, to the calling convention's 32 registers. */
static uint64_t pasta_divide(uint64_t k, uint64_t r, uint64_t *rest) {
  uint64_t q = 0, rem = 0;
#pragma clang loop unroll(disable)
  for (int bit = 63; bit >= 0; --bit) {
    uint64_t carry = rem >> 63; /* rem << 1 would pass 2^64 */
    rem = rem << 1 | (k >> bit & 1);
    if (carry || rem >= r) {
      rem -= r;
      q |= 1ull << bit;
    }
  }
  *rest = rem;
  return q;
}

/* sum_{j=1..k} ceil(j / r), r >= 1, modulo 2^64 (the counters' own
 * arithmetic): with k = a r + b (0 <= b < r), r (1 + ... + a) + b (a + 1).
 * The halving is done before the product, on whichever factor is even. */
static uint64_t pasta_ceil_quotient_sum(uint64_t k, uint64_t r) {
  uint64_t b, a = pasta_divide(k, r, &b);
  uint64_t triangle = a % 2 == 0 ? (a / 2) * (a + 1) : a * (a / 2 + 1);
  return r * triangle + b * (a + 1);
}

/* The runs of the body of a grid-stride loop (passes/GridStrideLoops.h)
 * over one launch: each thread, from its start s = (block x * block size x
 * + thread x) mod 2^width, runs it for s, s + r, s + 2r, ... below n, where
 * r = (blocks x * block size x) mod 2^width; threads sharing their x
 * indices (other y and z indices) each run the same loop: `replicas`. The
 * starts of the T = blocks x * block size x threads are 0..T-1 modulo
 * 2^width: q = T >> width times each of 0..2^width-1, once more each of
 * 0..r-1. A start s < n runs ceil((n - s) / r) times, so the starts 0..m-1
 * run sum_{j=n-min(m,n)+1..n} ceil(j / r) times in all (which is n for m =
 * T without wrap). Exact modulo 2^64 for width <= 32 and any T, or width 64
 * and T < 2^64; r = 0 never leaves the loop (the launch does not end). */
static uint64_t pasta_grid_stride_runs(uint64_t n, uint64_t threads_x,
                                       uint32_t width, uint64_t replicas) {
  uint64_t q = width < 64 ? threads_x >> width : 0;
  uint64_t r = width < 64 ? threads_x & ((1ull << width) - 1) : threads_x;
  if (r == 0 || n == 0)
    return 0;
  uint64_t all_starts = pasta_ceil_quotient_sum(n, r);
  uint64_t wrapped = 0; /* starts 0 .. 2^width - 1, each q times */
  if (q != 0) {
    uint64_t m = 1ull << width < n ? 1ull << width : n;
    wrapped = all_starts - pasta_ceil_quotient_sum(n - m, r);
  }
  uint64_t m = r < n ? r : n; /* starts 0 .. r - 1, once more each */
  uint64_t rest = all_starts - pasta_ceil_quotient_sum(n - m, r);
  return (q * wrapped + rest) * replicas;
}

/* The same for an `int` index (a signed 32-bit i, its start and stride
 * 32-bit products read as signed): start t mod 2^32 of 2^31 or more is
 * negative, and a stride s = T mod 2^32 of 2^31 or more too. A negative or
 * zero stride never leaves the loop or overflows i (no count: the program
 * does not end, or its arithmetic is undefined); otherwise the starts
 * -2^31 .. 2^31-1 run q = T >> 32 times each and 0 .. s-1 once more, and
 * starts lo .. hi-1 below n run G(n - lo) - G(n - min(hi, n)) times (G
 * the sum above). For T < 2^31 that is max(n, 0). `width` is 32 (smaller
 * in the unit test). */
static uint64_t pasta_int_stride_runs(int64_t lo, int64_t hi, int64_t n,
                                      uint64_t stride) {
  if (lo >= n)
    return 0;
  int64_t end = hi < n ? hi : n;
  return pasta_ceil_quotient_sum((uint64_t)(n - lo), stride) -
         pasta_ceil_quotient_sum((uint64_t)(n - end), stride);
}

static uint64_t pasta_grid_stride_runs_int(int64_t n, uint64_t threads_x,
                                           uint32_t width, uint64_t replicas) {
  uint64_t q = threads_x >> width, s = threads_x & ((1ull << width) - 1);
  int64_t half = (int64_t)1 << (width - 1);
  if (s == 0 || s >= (uint64_t)half)
    return 0;
  uint64_t every = q ? pasta_int_stride_runs(-half, half, n, s) : 0;
  return (q * every + pasta_int_stride_runs(0, (int64_t)s, n, s)) * replicas;
}

/* Grid-stride loops (passes/GridStrideLoops.h): the grid's first thread
 * adds the runs of the loop's body over the launch to its counter (in bank
 * 0), where every thread kept a count and flushed it at exit. `bound` is
 * the loop's bound (an `int` one sign-extended); flags:
 * PASTA_GRID_STRIDE_SIGNED (a signed compare: a bound below 1 runs
 * nothing), PASTA_GRID_STRIDE_WRAP32 (the start and the stride are 32-bit
 * products), PASTA_GRID_STRIDE_INT32 (and the index is an `int`). Without
 * a wrap the runs are the bound times the replicas; a grid of 2^32 threads
 * or more along x (2^31 for an `int` index) sums its starts on a path of
 * its own (divisions by shifts and subtractions: ptxas's 64-bit division
 * is a call, which took a kernel to the calling convention's 32
 * registers). */
#define PASTA_GRID_STRIDE_SIGNED 1u
#define PASTA_GRID_STRIDE_WRAP32 2u
#define PASTA_GRID_STRIDE_INT32 4u
static PASTA_INLINE void
pasta_count_grid_stride_here(PASTA_GLOBAL uint64_t *slot, uint64_t bound,
                             uint32_t flags) {
  if (!pasta_first_thread_of_grid())
    return;
  uint64_t threads_x = (uint64_t)__gpu_num_blocks_x() * __gpu_num_threads_x();
  uint64_t replicas = (uint64_t)__gpu_num_blocks_y() * __gpu_num_blocks_z() *
                      __gpu_num_threads_y() * __gpu_num_threads_z();
  int below_one =
      (flags & PASTA_GRID_STRIDE_SIGNED) ? (int64_t)bound < 1 : bound == 0;
  uint64_t runs = below_one ? 0 : bound * replicas;
  if ((flags & PASTA_GRID_STRIDE_INT32) && threads_x >> 31 != 0)
    runs = pasta_grid_stride_runs_int((int64_t)bound, threads_x, 32, replicas);
  else if ((flags & PASTA_GRID_STRIDE_WRAP32) && threads_x >> 32 != 0 &&
           !below_one)
    runs = pasta_grid_stride_runs(bound, threads_x, 32, replicas);
  if (runs != 0)
    pasta_atomic_add(slot, runs);
}

PASTA_INLINE void __pasta_count_grid_stride(PASTA_GLOBAL uint64_t *slot,
                                            uint64_t bound, uint32_t flags) {
  PASTA_IF_MAYBE_FIRST_THREAD(pasta_count_grid_stride_here(slot, bound, flags));
}

/* Run-time classification of generic (flat) pointers. */
PASTA_INLINE uint64_t __pasta_is_shared(void *ptr) {
  return __gpu_is_ptr_local(ptr);
}

PASTA_INLINE uint64_t __pasta_is_local(void *ptr) {
  return __gpu_is_ptr_private(ptr);
}

/* The key of a flushing warp's bank row, read where it flushes. Any row is
 * right (the host adds the banks up); the key only spreads the `red`s of
 * warps that flush at the same time. On NVIDIA GPUs: the multiprocessor
 * (%smid) and the low 5 bits of the block index x, so that the blocks
 * resident on one multiprocessor at a time, and every multiprocessor, add
 * to rows of their own: two reads and two operations, where the linear
 * block id took five reads and two multiply-adds in every warp of every
 * block. Volatile reads, so that they stay where the flush is: to LLVM the
 * reads of the block id are pure, it merged them with the kernel's own at
 * entry, and the values then stayed in registers across the kernel's loops
 * until the flush at exit (ptxas does not read a special register again in
 * their place): a grid-stride loop took 38 registers against 32. (%smid
 * with %warpid instead of the block index took HeCBench tsa's kernel to 38
 * registers.) */
static uint32_t pasta_flush_bank_key(void) {
#if defined(__NVPTX__)
  uint32_t sm, x;
  __asm__ volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  __asm__ volatile("mov.u32 %0, %%ctaid.x;" : "=r"(x));
  return (sm << 5) | (x & 31);
#else
  return pasta_linear_block_id();
#endif
}

/* This warp's row of counters: banks spread the flushes of many warps over
 * `num_banks` (a power of two) addresses per counter. */
PASTA_INLINE PASTA_GLOBAL uint64_t *
__pasta_bank_row(PASTA_GLOBAL uint64_t *counters, uint32_t num_counters,
                 uint32_t num_banks) {
  uint32_t bank = pasta_flush_bank_key() & (num_banks - 1);
  return counters + (size_t)bank * num_counters;
}

#if defined(__NVPTX__) && PASTA_NVPTX_REDUX
/* The sum of `value` over the lanes of `lanes`, in every one of them: one
 * redux.sync (sm_80 and later). */
static PASTA_INLINE uint32_t pasta_redux_add_u32(uint64_t lanes,
                                                 uint32_t value) {
  uint32_t sum;
  __asm__ volatile("redux.sync.add.u32 %0, %1, %2;"
                   : "=r"(sum)
                   : "r"(value), "r"((uint32_t)lanes));
  return sum;
}
#endif

/* The sum of `value` over a full warp, in every lane: a butterfly of
 * shuffles, log2(warp size) steps. */
static uint64_t pasta_full_warp_sum(uint64_t lanes, uint64_t value) {
  for (uint32_t step = __gpu_num_lanes() / 2; step > 0; step /= 2)
    value += __gpu_shuffle_idx_u64(lanes, __gpu_lane_id() ^ step, value,
                                   __gpu_num_lanes());
  return value;
}

/* Below this, every lane's value keeps the warp's sum in 32 bits: 2^27 for
 * 32 lanes, 2^26 for AMD's 64 (2^27 there let a full wave64 of counts in
 * [2^26, 2^27) wrap its sum). */
static uint64_t pasta_small_count_limit(void) {
  return (1ull << 32) / __gpu_num_lanes();
}

/* The same when every lane's value is below pasta_small_count_limit(), so
 * that the sum fits in 32 bits: one instruction (redux.sync, sm_80 and
 * later) on NVIDIA GPUs, half the shuffles elsewhere. */
static uint32_t pasta_full_warp_sum_u32(uint64_t lanes, uint32_t value) {
#if defined(__NVPTX__) && PASTA_NVPTX_REDUX
  return pasta_redux_add_u32(lanes, value);
#else
  for (uint32_t step = __gpu_num_lanes() / 2; step > 0; step /= 2)
    value += __gpu_shuffle_idx_u32(lanes, __gpu_lane_id() ^ step, value,
                                   __gpu_num_lanes());
  return value;
#endif
}

/* The sum of a small `value` over `lanes` where pasta_lanes_can_sum allows
 * them (below): one redux.sync over their mask on NVIDIA GPUs, a full
 * warp's shuffles elsewhere. */
static uint32_t pasta_lanes_sum_u32(uint64_t lanes, uint32_t value) {
#if defined(__NVPTX__) && PASTA_NVPTX_REDUX
  return pasta_redux_add_u32(lanes, value);
#else
  return pasta_full_warp_sum_u32(lanes, value);
#endif
}

/* A relaxed add whose result nobody waits for (a reduction, not a
 * read-modify-write round trip), so the warp can retire at once. */
static void pasta_atomic_add(PASTA_GLOBAL uint64_t *slot, uint64_t value) {
#if defined(__NVPTX__)
  __asm__ volatile("red.relaxed.gpu.global.add.u64 [%0], %1;"
                   :
                   : "l"(slot), "l"(value)
                   : "memory");
#else
  __scoped_atomic_fetch_add(slot, value, __ATOMIC_RELAXED,
                            __MEMORY_SCOPE_DEVICE);
#endif
}

/* A partial warp's flush of one counter (a call through a pointer whose
 * lanes went to different functions, a lane's own return): on NVIDIA GPUs
 * (sm_80 and later) the active lanes sum their values with one redux.sync
 * over their own mask, when every value is below 2^27 (32 lanes), and the first
 * of them adds the sum: one `red` for the warp where each lane with a count
 * added its own (32 atomics on one address per call in the `chain` shape
 * of tests/structures/devfn). The lanes of `lanes` are the ones running
 * this code together (it was read right before by the same code): each
 * reaches the redux.sync and none waits for a lane outside it. Elsewhere,
 * and with large counts, each lane with a count adds its own. */
static void pasta_flush_partial(PASTA_GLOBAL uint64_t *slot, uint64_t lanes,
                                uint64_t value) {
#if defined(__NVPTX__) && PASTA_NVPTX_REDUX
  if (__gpu_ballot(lanes, value >= pasta_small_count_limit()) == 0) {
    uint32_t sum = pasta_redux_add_u32(lanes, (uint32_t)value);
    if (sum != 0 && __gpu_lane_id() == (uint32_t)__builtin_ctzll(lanes))
      pasta_atomic_add(slot, sum);
    return;
  }
#else
  (void)lanes;
#endif
  if (value != 0)
    pasta_atomic_add(slot, value);
}

/* Adds `value` of every active lane to *slot, and does nothing at all when
 * every lane holds 0. A full warp sums its values (in 32 bits when they are
 * small, the usual case) and its first lane adds the sum: one atomic per
 * warp. A partial warp (divergent exits, the tail of a block) lets each lane
 * with a count add its own: rare, and it needs no assumption about which
 * lanes are active. */
PASTA_INLINE void __pasta_flush_counter(PASTA_GLOBAL uint64_t *slot,
                                        uint64_t value) {
  uint64_t lanes = __gpu_lane_mask();
  if (__gpu_ballot(lanes, value != 0) == 0)
    return;
  uint64_t full = __gpu_num_lanes() == 64 ? ~0ull : 0xffffffffull;
  if (lanes != full) {
    pasta_flush_partial(slot, lanes, value);
    return;
  }
  uint64_t sum;
  if (__gpu_ballot(lanes, value >= pasta_small_count_limit()) == 0)
    sum = pasta_full_warp_sum_u32(lanes, (uint32_t)value);
  else
    sum = pasta_full_warp_sum(lanes, value);
  if (__gpu_lane_id() == 0)
    pasta_atomic_add(slot, sum);
}

/* The grid's first thread block flushing a count that is alike in every
 * thread block, for all of them (passes/BlockInvariance.h): out of line, as
 * only that block runs it. */
PASTA_ENTRY void __pasta_flush_scaled(PASTA_GLOBAL uint64_t *slot,
                                      uint64_t value, uint64_t scale) {
  __pasta_flush_counter(slot, value * scale);
}

/* Non-zero when the fast path of the flush applies: a full warp, and every
 * count of every lane (`any` is their bitwise or) below
 * pasta_small_count_limit(), so that warp sums fit in 32 bits. */
PASTA_INLINE uint64_t __pasta_flush_is_fast(uint64_t any) {
  uint64_t lanes = __gpu_lane_mask();
  uint64_t full = __gpu_num_lanes() == 64 ? ~0ull : 0xffffffffull;
  /* Both tests always (a ballot over the active lanes is valid in any
   * warp): with `&&` the result was a phi whose constant 0, coalesced with
   * the counters' initial zeros, stayed in a register pair across the
   * kernel's loops. */
  return (lanes == full) &
         (__gpu_ballot(lanes, any >= pasta_small_count_limit()) == 0);
}

/* The fast path for one counter: a 32-bit warp sum, and one `red` by lane 0
 * when the sum is not zero. Only after __pasta_flush_is_fast said so. */
PASTA_INLINE void __pasta_flush_counter_fast(PASTA_GLOBAL uint64_t *slot,
                                             uint64_t value) {
  uint64_t full = __gpu_num_lanes() == 64 ? ~0ull : 0xffffffffull;
  uint32_t sum = pasta_full_warp_sum_u32(full, (uint32_t)value);
  if (sum != 0 && __gpu_lane_id() == 0)
    pasta_atomic_add(slot, sum);
}

/* The fast-path test of a flush whose live counters are all bits (blocks
 * run at most once per call, each lane's count 0 or 1): no count can be
 * large, so a full warp is enough. */
PASTA_INLINE uint64_t __pasta_flush_is_full_warp(void) {
  uint64_t full = __gpu_num_lanes() == 64 ? ~0ull : 0xffffffffull;
  return __gpu_lane_mask() == full;
}

/* Whether any lane of the warp has a count to flush. Where only bounds
 * checks' cold edges are counted (CounterPlacement.h), most warps hold only
 * zeros at exit: one vote lets them skip the flush, its counter row and its
 * warp sums. */
PASTA_INLINE uint64_t __pasta_flush_any(uint64_t value) {
  return __gpu_ballot(__gpu_lane_mask(), value != 0) != 0;
}

/* The number of thread blocks in the grid's first thread block, 0 in every
 * other: counts that are alike in every thread block are flushed by the
 * first alone, times this (passes/BlockInvariance.h). On NVIDIA GPUs the
 * block index x is tested first and the rest (volatile reads, which LLVM
 * cannot move above that test) only where it is 0: as one test of the
 * linear block id, every warp of every block read five special registers
 * and did two multiply-adds at exit to learn it was not the first
 * (backprop's layerforward, whose counts are all alike), and dgemm's
 * counting copy took 40 registers against 32. (The block index x read
 * volatile too took matmul_tiled's working-set copy from 48 registers to
 * 49, past an allocation step.) */
PASTA_INLINE uint64_t __pasta_first_block_scale(void) {
#if defined(__NVPTX__)
  uint32_t y, z;
  if (__builtin_expect(__gpu_block_id_x() != 0, 1))
    return 0;
  __asm__ volatile("mov.u32 %0, %%ctaid.y;" : "=r"(y));
  __asm__ volatile("mov.u32 %0, %%ctaid.z;" : "=r"(z));
  if ((y | z) != 0)
    return 0;
#else
  if (pasta_linear_block_id() != 0)
    return 0;
#endif
  return pasta_grid_blocks();
}

/* Up to four bit counters of one mask in one warp sum (the first thread
 * block's flush of bits alike in every block, full warps): bit b<k> of
 * `mask` goes to slot s<k>, for k < n. Each lane's bits are packed
 * PASTA_BIT_FIELD bits apart (a full warp's sum of one bit is at most 64 <
 * 2^7, so fields do not carry into each other) and lane 0 adds each
 * non-zero field. The pass passes constants for the b<k> and n: written
 * out, not as a loop, because nothing unrolls a loop after the runtime is
 * inlined. */
enum { PASTA_BIT_FIELD = 7, PASTA_BITS_PER_SUM = 4 };

static PASTA_INLINE uint32_t pasta_bit_field(uint32_t mask, uint32_t bit,
                                             uint32_t k) {
  return ((mask >> (bit & 31)) & 1u) << (PASTA_BIT_FIELD * k);
}

static PASTA_INLINE void pasta_add_field(PASTA_GLOBAL uint64_t *slot,
                                         uint32_t sum, uint32_t k,
                                         uint64_t scale) {
  uint32_t field =
      (sum >> (PASTA_BIT_FIELD * k)) & ((1u << PASTA_BIT_FIELD) - 1);
  if (field != 0)
    pasta_atomic_add(slot, field * scale);
}

static PASTA_INLINE void
pasta_flush_bits_scaled(PASTA_GLOBAL uint64_t *s0, PASTA_GLOBAL uint64_t *s1,
                        PASTA_GLOBAL uint64_t *s2, PASTA_GLOBAL uint64_t *s3,
                        uint32_t mask, uint32_t b0, uint32_t b1, uint32_t b2,
                        uint32_t b3, uint32_t n, uint64_t scale) {
  uint32_t packed = pasta_bit_field(mask, b0, 0);
  if (n > 1)
    packed |= pasta_bit_field(mask, b1, 1);
  if (n > 2)
    packed |= pasta_bit_field(mask, b2, 2);
  if (n > 3)
    packed |= pasta_bit_field(mask, b3, 3);
  uint64_t full = __gpu_num_lanes() == 64 ? ~0ull : 0xffffffffull;
  uint32_t sum = pasta_full_warp_sum_u32(full, packed);
  if (sum == 0 || __gpu_lane_id() != 0)
    return;
  pasta_add_field(s0, sum, 0, scale);
  if (n > 1)
    pasta_add_field(s1, sum, 1, scale);
  if (n > 2)
    pasta_add_field(s2, sum, 2, scale);
  if (n > 3)
    pasta_add_field(s3, sum, 3, scale);
}

/* The bits of `mask` set in any lane of a full warp (fast path only): one
 * redux.sync on sm_80 and later, shuffles elsewhere. The same in every
 * lane. */
PASTA_INLINE uint32_t __pasta_warp_or(uint32_t mask) {
#if defined(__NVPTX__) && PASTA_NVPTX_REDUX
  uint32_t any;
  __asm__ volatile("redux.sync.or.b32 %0, %1, %2;"
                   : "=r"(any)
                   : "r"(mask), "r"(0xffffffffu));
  return any;
#else
  uint64_t full = __gpu_num_lanes() == 64 ? ~0ull : 0xffffffffull;
  for (uint32_t step = __gpu_num_lanes() / 2; step > 0; step /= 2)
    mask |= __gpu_shuffle_idx_u32(full, __gpu_lane_id() ^ step, mask,
                                  __gpu_num_lanes());
  return mask;
#endif
}

/* This lane's number in its warp, read once for a flush's bits. */
PASTA_INLINE uint32_t __pasta_lane_id(void) { return __gpu_lane_id(); }

/* One bit counter of a full warp at an inline flush (fast path only): bit
 * `bit` of `mask` counted over the warp (a ballot) and added by lane 0
 * (`lane` is __pasta_lane_id()), tested first in `any`, the warp's
 * __pasta_warp_or(mask), which is the same in every lane: a bit that no lane
 * has costs that test alone. Bits were packed four to a warp sum: about as
 * many instructions per bit that is set, and as many again for a group none
 * has; in the reductions, warps 1-7 hold one bit of six at exit, and the
 * flush was 47% of the counting copy's instructions. */
PASTA_INLINE void __pasta_flush_bit_fast(PASTA_GLOBAL uint64_t *slot,
                                         uint32_t mask, uint32_t any,
                                         uint32_t bit, uint32_t lane) {
  if (((any >> (bit & 31)) & 1u) == 0)
    return;
  uint64_t full = __gpu_num_lanes() == 64 ? ~0ull : 0xffffffffull;
  uint32_t n = (uint32_t)__builtin_popcountll(
      __gpu_ballot(full, (mask >> (bit & 31)) & 1u));
  if (lane == 0)
    pasta_atomic_add(slot, n);
}

/* One bit counter of a block that one lane of a warp runs (`if (lane ==
 * 0)`: passes/CounterEmission.cpp, flushOwnLanes): the lane whose `mask` has
 * bit `bit` adds 1 itself, with no warp sum and no vote. Exact in any warp:
 * where more lanes have the bit, each adds its own. The lane adds its bit,
 * not a constant 1: ptxas turned a `red` of the constant 1 at this
 * warp-uniform address into a warp-aggregated one (VOTEU.ANY, UPOPC, UFLO,
 * the leader's test: 11 more SASS instructions a warp) that buys nothing
 * where one lane holds the bit; a value it cannot see makes it add as
 * written. The empty asm hides the value from clang, which would fold it to
 * 1 under the test. */
PASTA_INLINE void __pasta_flush_bit_lane(PASTA_GLOBAL uint64_t *slot,
                                         uint32_t mask, uint32_t bit) {
  uint32_t own = (mask >> (bit & 31)) & 1u;
#if defined(__NVPTX__)
  __asm__("" : "+r"(own));
#endif
  if (own != 0)
    pasta_atomic_add(slot, own);
}

/* The lanes running this code together, where a thread enters its kernel's
 * wait-free tail (passes/ExitGather.h): from there on none of them waits
 * for another thread, so each comes to the return. */
PASTA_INLINE uint32_t __pasta_tail_lanes(void) {
  return (uint32_t)__gpu_lane_mask();
}

/* Before a kernel's exit flush: the lanes that entered its wait-free tail
 * together (`lanes`, from __pasta_tail_lanes; 0 where a thread entered it
 * by a way the pass did not mark) wait for each other, then flush once, on
 * the full-warp path where they are the whole warp. Lanes that leave a
 * data-dependent loop apart come to the return in several groups, as ptxas
 * sets no reconvergence before a return, and each group flushed on its own
 * on the partial-warp path (a Huffman decoder's warps: 2.8 groups each, the
 * flush twice the kernel's own instructions). */
PASTA_INLINE void __pasta_gather_lanes(uint32_t lanes) {
#if defined(__NVPTX__)
  if (lanes != 0)
    __gpu_sync_lane(lanes);
#else
  (void)lanes;
#endif
}

/* A bounds check's cold edge, taken by few threads (the lanes past the end
 * of the data in the last warp), counted where it is taken rather than kept
 * in a bit until exit: the first of the lanes running this code together
 * adds their number. Each lane is in one such group, so each is counted
 * once, however the warp is split. Every warp that does not take the edge
 * pays nothing; in the reductions, a bit for it cost every warp a vote at
 * exit (passes/CounterEmission.cpp, InPlace). */
PASTA_INLINE void __pasta_count_lanes(PASTA_GLOBAL uint64_t *counters,
                                      uint32_t num_counters, uint32_t num_banks,
                                      uint32_t index) {
  uint64_t lanes = __gpu_lane_mask();
#if defined(__NVPTX__)
  /* Every lane computes the slot (a warp instruction costs the same for
   * one lane or all) and the first of them adds under a predicate: no
   * branch, so no reconvergence around it, and the first lane is the one
   * with no running lane below it (%lanemask_lt), not a count of trailing
   * zeros compared with the lane id. MCX's crowded photon loop runs such a
   * site 104 million times a run: about 21 SASS instructions a site with
   * the branch, most of them the election and the reconvergence. */
  uint32_t below;
  __asm__("mov.u32 %0, %%lanemask_lt;" : "=r"(below));
  PASTA_GLOBAL uint64_t *slot =
      __pasta_bank_row(counters, num_counters, num_banks) + index;
  __asm__ volatile("{\n\t.reg .pred first;\n\t"
                   "setp.eq.b32 first, %2, 0;\n\t"
                   "@first red.relaxed.gpu.global.add.u64 [%0], %1;\n\t}"
                   :
                   : "l"(slot), "l"((uint64_t)__builtin_popcountll(lanes)),
                     "r"((uint32_t)lanes & below)
                   : "memory");
#else
  if (__gpu_lane_id() == (uint32_t)__builtin_ctzll(lanes))
    pasta_atomic_add(__pasta_bank_row(counters, num_counters, num_banks) +
                         index,
                     (uint64_t)__builtin_popcountll(lanes));
#endif
}

/* A group of PASTA_DYN_NUM (8) counters that are usually all zero (the
 * run-time address-space counts of one site): one ballot skips them all. */
#define PASTA_GROUP_FLUSH(name, flush_one)                                     \
  PASTA_INLINE void name(PASTA_GLOBAL uint64_t *slot, uint64_t v0,             \
                         uint64_t v1, uint64_t v2, uint64_t v3, uint64_t v4,   \
                         uint64_t v5, uint64_t v6, uint64_t v7) {              \
    uint64_t any = v0 | v1 | v2 | v3 | v4 | v5 | v6 | v7;                      \
    if (__gpu_ballot(__gpu_lane_mask(), any != 0) == 0)                        \
      return;                                                                  \
    uint64_t v[8] = {v0, v1, v2, v3, v4, v5, v6, v7};                          \
    for (int i = 0; i < 8; ++i)                                                \
      flush_one(&slot[i], v[i]);                                               \
  }
PASTA_GROUP_FLUSH(__pasta_flush_group, __pasta_flush_counter)
PASTA_GROUP_FLUSH(__pasta_flush_group_fast, __pasta_flush_counter_fast)

/* The half of a group (PASTA_DYN_NUM / 2 counters from `slot`) that a group
 * of sites which only load, or only store, adds to: one vote skips it. A
 * loop, not four inline flushes: on a kernel with many such groups the
 * general path's 64-bit warp sums, written out four times a group, made
 * ptxas's time twice as long (the ray tracer's `render`). The values rotate
 * through registers, kept rolled: an array would be local memory. */
#define PASTA_HALF_FLUSH(name, flush_one)                                      \
  PASTA_INLINE void name(PASTA_GLOBAL uint64_t *slot, uint64_t v0,             \
                         uint64_t v1, uint64_t v2, uint64_t v3) {              \
    if (__gpu_ballot(__gpu_lane_mask(), (v0 | v1 | v2 | v3) != 0) == 0)        \
      return;                                                                  \
    _Pragma("clang loop unroll(disable)") for (int i = 0; i < 4; ++i) {        \
      flush_one(&slot[i], v0);                                                 \
      v0 = v1;                                                                 \
      v1 = v2;                                                                 \
      v2 = v3;                                                                 \
    }                                                                          \
  }
PASTA_HALF_FLUSH(__pasta_flush_half, __pasta_flush_counter)
PASTA_HALF_FLUSH(__pasta_flush_half_fast, __pasta_flush_counter_fast)

/* The out-of-line flushes below take staged values: values[k] goes to
 * row[indices[k]], or to row[k] where there is no table (`indexed` 0). The
 * helpers are inlined into each flush, where `indexed` is a constant: no
 * test per counter. */
struct pasta_staged {
  const PASTA_STAGING uint64_t *values;
  const PASTA_GLOBAL uint32_t *indices;
  int indexed;
};

/* The caller's staging as the flush reads it: the pass stages the counts in
 * an alloca of the kernel (CounterEmission.cpp, DivergenceMeasures.cpp) and
 * passes it as a generic pointer; on NVIDIA GPUs that is local memory, read
 * with ld.local, where each generic load of bh's flush moved its memory
 * descriptor into two uniform registers first (two R2UR a load). */
static PASTA_INLINE const PASTA_STAGING uint64_t *
pasta_staging(const uint64_t *values) {
  return (const PASTA_STAGING uint64_t *)values;
}

static PASTA_INLINE uint32_t pasta_staged_index(struct pasta_staged s,
                                                uint32_t k) {
  return s.indexed ? s.indices[k] : k;
}

/* Whether the lanes of `lanes` can sum a small value together: any lanes
 * with redux.sync, a full warp with shuffles. */
static int pasta_lanes_can_sum(uint64_t lanes) {
#if defined(__NVPTX__) && PASTA_NVPTX_REDUX
  (void)lanes;
  return 1;
#else
  return lanes == (__gpu_num_lanes() == 64 ? ~0ull : 0xffffffffull);
#endif
}

/* How many staged counters a flush takes at a time: their loads first, then
 * their warp sums, then the adds, so that it waits for memory about n / 8
 * times rather than twice per counter. Lanes that leave a loop one by one
 * (a spin loop, each thread's own number of cells) flush in partial warps
 * while the rest of their warp still runs: a flush of 78 counters one at a
 * time (a vote, a load of the value, one of its index, a sum) held such a
 * warp some 3,500 instructions, and the waits of HeCBench bh's
 * SummarizationKernel tripled. */
#define PASTA_FLUSH_BATCH 8

/* Staged counters [k, k + m) (m a constant, PASTA_FLUSH_BATCH or 1; the
 * loops run to PASTA_FLUSH_BATCH so that they unroll and `sums` stays in
 * registers) flushed by `lanes`, the lanes running this call together (read
 * at its entry). A batch that is zero in every lane costs its loads and one
 * vote: most counters of a kernel whose threads do little are never added
 * to (guarded blocks that are not taken, a site's per-space counts), and
 * each cost a warp sum and a test before. Small counts (each lane's below
 * pasta_small_count_limit()) are summed over the lanes where
 * pasta_lanes_can_sum allows them, and the first of the lanes adds each sum
 * that is not zero: one `red` per counter for the lanes, in a full warp or
 * not; where they cannot sum (a partial warp without redux.sync), each lane
 * adds its own counts. Returns 0 when the batch is flushed, 1 when it has a
 * large count (nothing of it added: the caller's general path takes it).
 * Every branch is on a vote of `lanes` or on m: the lanes stay together. */
static PASTA_INLINE int pasta_flush_staged_batch(PASTA_GLOBAL uint64_t *row,
                                                 struct pasta_staged s,
                                                 uint32_t k, uint32_t m,
                                                 uint64_t lanes) {
  uint32_t sums[PASTA_FLUSH_BATCH];
  uint64_t any = 0;
  for (uint32_t j = 0; j < PASTA_FLUSH_BATCH; ++j) {
    uint64_t value = j < m ? s.values[k + j] : 0;
    any |= value;
    sums[j] = (uint32_t)value; /* the whole count where it is small */
  }
  if (__gpu_ballot(lanes, any != 0) == 0)
    return 0;
  if (__gpu_ballot(lanes, any >= pasta_small_count_limit()) != 0)
    return 1;
  if (!pasta_lanes_can_sum(lanes)) {
    for (uint32_t j = 0; j < PASTA_FLUSH_BATCH; ++j)
      if (sums[j] != 0)
        pasta_atomic_add(&row[pasta_staged_index(s, k + j)], sums[j]);
    return 0;
  }
  for (uint32_t j = 0; j < PASTA_FLUSH_BATCH; ++j)
    if (j < m)
      sums[j] = pasta_lanes_sum_u32(lanes, sums[j]);
  if (__gpu_lane_id() != (uint32_t)__builtin_ctzll(lanes))
    return 0;
  uint32_t slots[PASTA_FLUSH_BATCH];
  for (uint32_t j = 0; j < PASTA_FLUSH_BATCH; ++j)
    slots[j] = j < m ? pasta_staged_index(s, k + j) : 0;
  for (uint32_t j = 0; j < PASTA_FLUSH_BATCH; ++j)
    if (sums[j] != 0)
      pasta_atomic_add(&row[slots[j]], sums[j]);
  return 0;
}

/* Staged values flushed a batch of PASTA_FLUSH_BATCH at a time, the last
 * few one at a time; from the first batch with a large count on, counter by
 * counter by __pasta_flush_counter's general path. */
static PASTA_INLINE void pasta_flush_staged(PASTA_GLOBAL uint64_t *row,
                                            struct pasta_staged s, uint32_t n) {
  uint64_t lanes = __gpu_lane_mask();
  uint32_t k = 0;
  while (k + PASTA_FLUSH_BATCH <= n &&
         !pasta_flush_staged_batch(row, s, k, PASTA_FLUSH_BATCH, lanes))
    k += PASTA_FLUSH_BATCH;
  /* The last few one at a time: a batch of a run-time size took a kernel
   * calling this flush from 32 registers to 40. The general path comes after
   * the loops: inside them, its shuffle operands were live through every
   * batch (48 -> 58). */
  if (k + PASTA_FLUSH_BATCH > n)
    while (k < n && !pasta_flush_staged_batch(row, s, k, 1, lanes))
      ++k;
  for (; k < n; ++k)
    __pasta_flush_counter(&row[pasta_staged_index(s, k)], s.values[k]);
}

/* The out-of-line form for functions with many counters, where inlining one
 * flush per counter at every return would bloat the code: adds values[0..n)
 * to counters [first, first + n) of this block's bank. */
PASTA_ENTRY void __pasta_flush(PASTA_GLOBAL uint64_t *counters,
                               uint32_t num_counters, uint32_t num_banks,
                               uint32_t first, const uint64_t *values,
                               uint32_t n) {
  pasta_flush_staged(__pasta_bank_row(counters, num_counters, num_banks) +
                         first,
                     (struct pasta_staged){pasta_staging(values), NULL, 0}, n);
}

/* The same for the counters live at one return of a function counting
 * edges: values[k] goes to counter first + indices[k]. Functions with more
 * than a few counters flush this way (passes/CounterEmission.cpp: an inline
 * flush is a warp sum and a branch per counter, and ptxas's time grew with
 * them), with the inline flush's fast path: lanes whose counts are all
 * small cost one warp sum per counter, and one `red` where the sum is not
 * zero, in a partial warp too where redux.sync can sum its lanes. */
PASTA_ENTRY void __pasta_flush_indexed(PASTA_GLOBAL uint64_t *counters,
                                       uint32_t num_counters,
                                       uint32_t num_banks, uint32_t first,
                                       const uint64_t *values,
                                       const PASTA_GLOBAL uint32_t *indices,
                                       uint32_t n) {
  pasta_flush_staged(
      __pasta_bank_row(counters, num_counters, num_banks) + first,
      (struct pasta_staged){pasta_staging(values), indices, 1}, n);
}

/* The lowest set bit of *rest, cleared there. */
static uint32_t pasta_next_bit(uint32_t *rest) {
  uint32_t bit = (uint32_t)__builtin_ctz(*rest);
  *rest &= *rest - 1;
  return bit;
}

/* Where bit `bit`'s count goes: indices[bit] from the pass's table, or,
 * where indices is NULL, byte `bit` of the four packed words (the pass packs
 * tables of indices below 256: no load of a cold table line between the
 * flush and its `red`s; __pasta_flush_bits_packed). */
struct pasta_bit_indices {
  const PASTA_GLOBAL uint32_t *table;
  uint64_t p0, p1, p2, p3;
};

static PASTA_INLINE uint32_t pasta_bit_index(struct pasta_bit_indices at,
                                             uint32_t bit) {
  if (at.table)
    return at.table[bit];
  /* Selects, not an indexed array: that would stay in local memory. */
  uint64_t low = bit & 8u ? at.p1 : at.p0, high = bit & 8u ? at.p3 : at.p2;
  uint64_t word = bit & 16u ? high : low;
  return (uint32_t)(word >> (bit % 8 * 8)) & 0xffu;
}

static PASTA_INLINE void pasta_flush_bits(PASTA_GLOBAL uint64_t *row,
                                          uint32_t mask, uint32_t live,
                                          struct pasta_bit_indices at) {
  if (!__pasta_flush_is_full_warp()) {
#if defined(__NVPTX__) && PASTA_NVPTX_REDUX
    /* A partial warp: for each bit any of its lanes has (one redux.sync
     * over their own mask, as in pasta_flush_partial), a ballot counts the
     * lanes and the first of them adds the count: one `red` per bit for
     * the warp where each lane added each of its bits. */
    uint64_t lanes = __gpu_lane_mask();
    uint32_t first_lane = (uint32_t)__builtin_ctzll(lanes);
    uint32_t any;
    __asm__ volatile("redux.sync.or.b32 %0, %1, %2;"
                     : "=r"(any)
                     : "r"(mask & live), "r"((uint32_t)lanes));
    for (uint32_t rest = any; rest != 0;) {
      uint32_t bit = pasta_next_bit(&rest);
      uint32_t n = (uint32_t)__builtin_popcountll(
          __gpu_ballot(lanes, (mask >> bit) & 1u));
      if (__gpu_lane_id() == first_lane)
        pasta_atomic_add(&row[pasta_bit_index(at, bit)], n);
    }
#else
    /* A partial warp (rare): each lane adds its own bits. */
    for (uint32_t rest = mask & live; rest != 0;)
      pasta_atomic_add(&row[pasta_bit_index(at, pasta_next_bit(&rest))], 1);
#endif
    return;
  }
  /* A full warp: the warp's masks, a 32 x 32 matrix of bits (lane, bit),
   * transposed in five shuffle steps, so that lane b holds bit b of every
   * lane of its 32 and its population count is the warp's count of bit b;
   * then every lane with a count adds it: one `red` for the warp, whatever
   * the number of bits. Lane 0 adding each count in turn (a warp sum per
   * four bits) ran some 15 instructions per bit and a `red` each, 55% of
   * the instructions of a kernel of 63 bits; and as an out-of-line call
   * the flush raised that kernel's registers from 32 to 38. */
  uint64_t full = __gpu_num_lanes() == 64 ? ~0ull : 0xffffffffull;
  uint32_t lane = __gpu_lane_id(), rows = mask;
  static const uint32_t low_half[5] = {0x0000ffffu, 0x00ff00ffu, 0x0f0f0f0fu,
                                       0x33333333u, 0x55555555u};
  for (uint32_t k = 0, j = 16; k < 5; ++k, j /= 2) {
    /* Swap the (lane & j, bit & j) = (0, 1) block with the (1, 0) one:
     * the lower lane of each pair keeps its bits b with b & j clear and
     * takes its partner's there, shifted up; the upper one the others.
     * Selects, not branches. */
    uint32_t other =
        __gpu_shuffle_idx_u32(full, lane ^ j, rows, __gpu_num_lanes());
    int lower = (lane & j) == 0;
    uint32_t keep = lower ? low_half[k] : ~low_half[k];
    uint32_t moved = lower ? other << j : other >> j;
    rows = (rows & keep) | (moved & ~keep);
  }
  uint32_t count = (uint32_t)__builtin_popcount(rows);
  if (__gpu_num_lanes() == 64) /* two matrices of 32 lanes */
    count += __gpu_shuffle_idx_u32(full, lane ^ 32, count, 64);
  if (lane < 32 && (live >> lane & 1u) && count != 0)
    pasta_atomic_add(&row[pasta_bit_index(at, lane)], count);
}

/* Counters kept in one bit each of a 32-bit mask (blocks that run at most
 * once per call): bit b of `mask`, where `live` has it, goes to counter
 * first + indices[b]. The mask comes by value: nothing is staged. */
PASTA_INLINE void __pasta_flush_bits(PASTA_GLOBAL uint64_t *counters,
                                     uint32_t num_counters, uint32_t num_banks,
                                     uint32_t first, uint32_t mask,
                                     uint32_t live,
                                     const PASTA_GLOBAL uint32_t *indices) {
  pasta_flush_bits(__pasta_bank_row(counters, num_counters, num_banks) + first,
                   mask, live, (struct pasta_bit_indices){indices, 0, 0, 0, 0});
}

/* The same into `row` (the bank row's counter `first`, which the pass reads
 * once for this flush and the inline flush after it) with bit b's counter
 * index in byte b of p0..p3 (indices below 256), which the pass passes as
 * constants. */
PASTA_INLINE void __pasta_flush_bits_packed(PASTA_GLOBAL uint64_t *row,
                                            uint32_t mask, uint32_t live,
                                            uint64_t p0, uint64_t p1,
                                            uint64_t p2, uint64_t p3) {
  pasta_flush_bits(row, mask, live,
                   (struct pasta_bit_indices){NULL, p0, p1, p2, p3});
}

/* The grid's first thread block flushing up to four bit counters alike in
 * every thread block, for all of them (passes/BlockInvariance.h): bit b<k>
 * of `mask` to slot s<k>, each warp sum (or, in a partial warp, each lane's
 * bit) times `scale`, the number of thread blocks. Out of line: inlined,
 * the flush raised the register count of every thread block (matmul_tiled
 * 32 -> 40); slots by value, not a table: the first block's flush ends
 * every launch of a small grid (nw_tile). */
PASTA_ENTRY void
__pasta_flush_bits_scaled(PASTA_GLOBAL uint64_t *s0, PASTA_GLOBAL uint64_t *s1,
                          PASTA_GLOBAL uint64_t *s2, PASTA_GLOBAL uint64_t *s3,
                          uint32_t mask, uint32_t b0, uint32_t b1, uint32_t b2,
                          uint32_t b3, uint32_t n, uint64_t scale) {
  if (__pasta_flush_is_full_warp()) {
    pasta_flush_bits_scaled(s0, s1, s2, s3, mask, b0, b1, b2, b3, n, scale);
    return;
  }
  PASTA_GLOBAL uint64_t *slot[4] = {s0, s1, s2, s3};
  uint32_t bit[4] = {b0, b1, b2, b3};
  for (uint32_t k = 0; k < n; ++k)
    __pasta_flush_counter(slot[k], ((mask >> bit[k]) & 1u) * scale);
}

/* The same, inline in the kernel for full warps (a partial warp calls the
 * out-of-line flush): no call on the first block's usual exit path, where
 * every warp of a one-block kernel ends (CUB's single-tile reduction). Its
 * registers count in every block's: the pass inlines the bits' flush by
 * default and the 64-bit counts' (below) only with
 * `-mllvm -pasta-inline-first-block-flush=2` (dgemm 32 -> 40 registers). */
PASTA_INLINE void __pasta_flush_bits_scaled_inline(
    PASTA_GLOBAL uint64_t *s0, PASTA_GLOBAL uint64_t *s1,
    PASTA_GLOBAL uint64_t *s2, PASTA_GLOBAL uint64_t *s3, uint32_t mask,
    uint32_t b0, uint32_t b1, uint32_t b2, uint32_t b3, uint32_t n,
    uint64_t scale) {
  if (__builtin_expect(__pasta_flush_is_full_warp() != 0, 1))
    pasta_flush_bits_scaled(s0, s1, s2, s3, mask, b0, b1, b2, b3, n, scale);
  else
    __pasta_flush_bits_scaled(s0, s1, s2, s3, mask, b0, b1, b2, b3, n, scale);
}

/* __pasta_flush_scaled's inline form for the same option: a full warp of
 * small counts sums them in 32 bits inline (scale times the sum, as the
 * out-of-line flush adds the sum of each count times scale); any other
 * warp calls the out-of-line flush. */
PASTA_INLINE void __pasta_flush_scaled_inline(PASTA_GLOBAL uint64_t *slot,
                                              uint64_t value, uint64_t scale) {
  if (__builtin_expect(__pasta_flush_is_fast(value) != 0, 1)) {
    uint64_t full = __gpu_num_lanes() == 64 ? ~0ull : 0xffffffffull;
    uint32_t sum = pasta_full_warp_sum_u32(full, (uint32_t)value);
    if (sum != 0 && __gpu_lane_id() == 0)
      pasta_atomic_add(slot, (uint64_t)sum * scale);
    return;
  }
  __pasta_flush_scaled(slot, value, scale);
}

/* __pasta_flush_scaled behind the warp's test of its count, inline (the
 * pass's default for the first block's 64-bit counts): a warp whose lanes
 * all hold zero skips the call, whose first step is that same test, so the
 * counts are the same. CUB's single-tile reduction (six tile loops of two
 * template instantiations, one instantiation's running) made every warp
 * of its one block call the flush six times, about 33 SASS instructions a
 * call of zeros. */
PASTA_INLINE void __pasta_flush_scaled_nonzero(PASTA_GLOBAL uint64_t *slot,
                                               uint64_t value, uint64_t scale) {
  if (__gpu_ballot(__gpu_lane_mask(), value != 0) != 0)
    __pasta_flush_scaled(slot, value, scale);
}

/* The fast path of the first block's flush of several counts alike in
 * every thread block, after __pasta_flush_is_fast said so for the bitwise
 * or of all of them (a full warp, every lane's counts small): a 32-bit
 * warp sum, and one `red` of the sum times `scale` by lane 0 where the sum
 * is not zero; what __pasta_flush_scaled adds, inline. CUB's single-tile
 * reduction called __pasta_flush_scaled for each of its three running tile
 * loops in every warp of its one block, some 35 SASS instructions a call. */
PASTA_INLINE void __pasta_flush_scaled_fast(PASTA_GLOBAL uint64_t *slot,
                                            uint64_t value, uint64_t scale) {
  uint64_t full = __gpu_num_lanes() == 64 ? ~0ull : 0xffffffffull;
  uint32_t sum = pasta_full_warp_sum_u32(full, (uint32_t)value);
  if (sum != 0 && __gpu_lane_id() == 0)
    pasta_atomic_add(slot, (uint64_t)sum * scale);
}

/* The parts of a full warp's flush of small counts whose warp sums all
 * come first and lane 0's adds after them, in one branch (the pass's
 * emitLaneZeroAdds): each sum followed by its own `if (lane == 0)` made the
 * warp wait for every reduction and reconvergence in turn (CUB's single-tile
 * reduction: six counts, then six bits, in every warp of its one block). */

/* The sum of a small count (below pasta_small_count_limit()) over a full
 * warp, in every lane. Only after __pasta_flush_is_fast said so. */
PASTA_INLINE uint32_t __pasta_warp_sum_small(uint64_t value) {
  uint64_t full = __gpu_num_lanes() == 64 ? ~0ull : 0xffffffffull;
  return pasta_full_warp_sum_u32(full, (uint32_t)value);
}

/* How many lanes of a full warp have bit `bit` of their `mask`, in every
 * lane: one ballot, no branch (a bit no lane has counts 0). */
PASTA_INLINE uint32_t __pasta_warp_bit_count(uint32_t mask, uint32_t bit) {
  uint64_t full = __gpu_num_lanes() == 64 ? ~0ull : 0xffffffffull;
  return (uint32_t)__builtin_popcountll(
      __gpu_ballot(full, (mask >> (bit & 31)) & 1u));
}

/* One lane's add of a warp's count, nothing for zero. */
PASTA_INLINE void __pasta_add_nonzero(PASTA_GLOBAL uint64_t *slot,
                                      uint64_t value) {
  if (value != 0)
    pasta_atomic_add(slot, value);
}

/* Lane 0's add of a warp's count (the same in every lane), nothing for
 * zero, with no branch in the PTX: on NVIDIA GPUs every lane tests and lane
 * 0 alone runs the `red` under the test's predicate (the pass's
 * -pasta-predicated-lane-adds, off by default). The `red` adds lane 0's
 * value and the other lanes' zero (a select on the lane), not the warp's
 * value: a predicated `red` of a warp-uniform value at a warp-uniform
 * address ptxas made a branch around a warp-aggregated add (VOTEU.ANY,
 * UFLO, UPOPC, a product by the count of lanes). ptxas still makes each
 * predicated `red` a branch with a reconvergence region of its own
 * (docs/lab/2026-12-01-overhead3-97-short-kernels.md). */
PASTA_INLINE void __pasta_add_from_lane_zero(PASTA_GLOBAL uint64_t *slot,
                                             uint64_t value, uint32_t lane) {
#if defined(__NVPTX__)
  __asm__ volatile("{\n\t.reg .pred add;\n\t.reg .b64 own;\n\t"
                   "setp.eq.b32 add, %2, 0;\n\t"
                   "selp.b64 own, %1, 0, add;\n\t"
                   "setp.ne.b64 add, own, 0;\n\t"
                   "@add red.relaxed.gpu.global.add.u64 [%0], own;\n\t}"
                   :
                   : "l"(slot), "l"(value), "r"(lane)
                   : "memory");
#else
  if (lane == 0 && value != 0)
    pasta_atomic_add(slot, value);
#endif
}

/* The modes' parts, in this order (each uses what comes before it). */
#include "device_rt_ws.inc.c"

#include "device_rt_trace.inc.c"

#include "device_rt_div.inc.c"

#include "device_rt_div_rows.inc.c"

#include "device_rt_div_versioned.inc.c"
