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
 *===----------------------------------------------------------------------===*/
#include <stddef.h>
#include <stdint.h>

#include "pasta/abi.h"

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
#define PASTA_INLINE __attribute__((always_inline))
#define PASTA_ENTRY __attribute__((noinline))

static uint32_t pasta_linear_block_id(void) {
  return __gpu_block_id_x() +
         __gpu_num_blocks_x() *
             (__gpu_block_id_y() + __gpu_num_blocks_y() * __gpu_block_id_z());
}

static void pasta_atomic_add(PASTA_GLOBAL uint64_t *slot, uint64_t value);

/* Tested by every thread at entry, so the usual answer comes from the x ids
 * alone (which the kernel reads anyway): reading y and z costs four more
 * special-register reads per thread, paid only where both x ids are 0. */
static int pasta_first_thread_of_grid(void) {
  if (__builtin_expect((__gpu_thread_id_x() | __gpu_block_id_x()) != 0, 1))
    return 0;
  return (__gpu_thread_id_y() | __gpu_thread_id_z() | __gpu_block_id_y() |
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

/* Called at kernel entry: the first thread of the grid adds 1 to the
 * kernel's launch counter (in bank 0), so a launch is counted exactly once
 * and costs the other threads one predicate. */
PASTA_INLINE void __pasta_count_launch(PASTA_GLOBAL uint64_t *slot) {
  if (pasta_first_thread_of_grid())
    pasta_atomic_add(slot, 1);
}

/* The same for functions counting edges (passes/CounterPlacement.h): the
 * first thread also adds the number of threads the launch started, the
 * count of the kernel's entry edge. */
PASTA_INLINE void __pasta_count_launch_threads(PASTA_GLOBAL uint64_t *launches,
                                               PASTA_GLOBAL uint64_t *threads) {
  if (pasta_first_thread_of_grid()) {
    pasta_atomic_add(launches, 1);
    pasta_atomic_add(threads, pasta_grid_blocks() * pasta_block_threads());
  }
}

/* Run-time classification of generic (flat) pointers. */
PASTA_INLINE uint64_t __pasta_is_shared(void *ptr) {
  return __gpu_is_ptr_local(ptr);
}

PASTA_INLINE uint64_t __pasta_is_local(void *ptr) {
  return __gpu_is_ptr_private(ptr);
}

/* This thread block's row of counters: banks spread the flushes of many
 * warps over `num_banks` (a power of two) addresses per counter. */
PASTA_INLINE PASTA_GLOBAL uint64_t *
__pasta_bank_row(PASTA_GLOBAL uint64_t *counters, uint32_t num_counters,
                 uint32_t num_banks) {
  uint32_t bank = pasta_linear_block_id() & (num_banks - 1);
  return counters + (size_t)bank * num_counters;
}

/* The sum of `value` over a full warp, in every lane: a butterfly of
 * shuffles, log2(warp size) steps. */
static uint64_t pasta_full_warp_sum(uint64_t lanes, uint64_t value) {
  for (uint32_t step = __gpu_num_lanes() / 2; step > 0; step /= 2)
    value += __gpu_shuffle_idx_u64(lanes, __gpu_lane_id() ^ step, value,
                                   __gpu_num_lanes());
  return value;
}

/* The same when every lane's value is below 2^27, so that the sum fits in 32
 * bits: one instruction (redux.sync, sm_80 and later) on NVIDIA GPUs, half
 * the shuffles elsewhere. */
static uint32_t pasta_full_warp_sum_u32(uint64_t lanes, uint32_t value) {
#if defined(__NVPTX__) && PASTA_NVPTX_REDUX
  uint32_t sum;
  __asm__ volatile("redux.sync.add.u32 %0, %1, %2;"
                   : "=r"(sum)
                   : "r"(value), "r"((uint32_t)lanes));
  return sum;
#else
  for (uint32_t step = __gpu_num_lanes() / 2; step > 0; step /= 2)
    value += __gpu_shuffle_idx_u32(lanes, __gpu_lane_id() ^ step, value,
                                   __gpu_num_lanes());
  return value;
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
    if (value != 0)
      pasta_atomic_add(slot, value);
    return;
  }
  uint64_t sum;
  if (__gpu_ballot(lanes, value >= (1ull << 27)) == 0)
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
 * count of every lane (`any` is their bitwise or) below 2^27, so that warp
 * sums fit in 32 bits. */
PASTA_INLINE uint64_t __pasta_flush_is_fast(uint64_t any) {
  uint64_t lanes = __gpu_lane_mask();
  uint64_t full = __gpu_num_lanes() == 64 ? ~0ull : 0xffffffffull;
  return lanes == full && __gpu_ballot(lanes, any >= (1ull << 27)) == 0;
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
 * first alone, times this (passes/BlockInvariance.h). */
PASTA_INLINE uint64_t __pasta_first_block_scale(void) {
  if (pasta_linear_block_id() != 0)
    return 0;
  return pasta_grid_blocks();
}

/* Up to four bit counters of one mask in one warp sum (fast path only):
 * bit b<k> of `mask` goes to slot s<k>, for k < n. Each lane's bits are
 * packed PASTA_BIT_FIELD bits apart (a full warp's sum of one bit is at most
 * 64 < 2^7, so fields do not carry into each other) and lane 0 adds each
 * non-zero field. A warp sum is a costly part of a flush in short kernels:
 * four bits cost one. The
 * pass passes constants for the b<k> and n, and inlining prunes the unused
 * fields: written out, not as a loop, because nothing unrolls a loop after
 * the runtime is inlined. */
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

PASTA_INLINE void
__pasta_flush_bits_fast(PASTA_GLOBAL uint64_t *s0, PASTA_GLOBAL uint64_t *s1,
                        PASTA_GLOBAL uint64_t *s2, PASTA_GLOBAL uint64_t *s3,
                        uint32_t mask, uint32_t b0, uint32_t b1, uint32_t b2,
                        uint32_t b3, uint32_t n) {
  pasta_flush_bits_scaled(s0, s1, s2, s3, mask, b0, b1, b2, b3, n, 1);
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

/* The out-of-line form for functions with many counters, where inlining one
 * flush per counter at every return would bloat the code: adds values[0..n)
 * to counters [first, first + n) of this block's bank. */
PASTA_ENTRY void __pasta_flush(PASTA_GLOBAL uint64_t *counters,
                               uint32_t num_counters, uint32_t num_banks,
                               uint32_t first, const uint64_t *values,
                               uint32_t n) {
  PASTA_GLOBAL uint64_t *row =
      __pasta_bank_row(counters, num_counters, num_banks) + first;
  for (uint32_t i = 0; i < n; ++i)
    __pasta_flush_counter(&row[i], values[i]);
}

/* The same for the counters live at one return of a function counting
 * edges: values[k] goes to counter first + indices[k]. */
PASTA_ENTRY void __pasta_flush_indexed(PASTA_GLOBAL uint64_t *counters,
                                       uint32_t num_counters,
                                       uint32_t num_banks, uint32_t first,
                                       const uint64_t *values,
                                       const PASTA_GLOBAL uint32_t *indices,
                                       uint32_t n) {
  PASTA_GLOBAL uint64_t *row =
      __pasta_bank_row(counters, num_counters, num_banks) + first;
  for (uint32_t i = 0; i < n; ++i)
    __pasta_flush_counter(&row[indices[i]], values[i]);
}

/* Counters kept in one bit each of a 32-bit mask (blocks that run at most
 * once per call): bit b of `mask`, where `live` has it, goes to counter
 * first + indices[b]. The mask comes by value: nothing is staged. */
/* The lowest set bit of *rest, cleared there. */
static uint32_t pasta_next_bit(uint32_t *rest) {
  uint32_t bit = (uint32_t)__builtin_ctz(*rest);
  *rest &= *rest - 1;
  return bit;
}

PASTA_ENTRY void __pasta_flush_bits(PASTA_GLOBAL uint64_t *counters,
                                    uint32_t num_counters, uint32_t num_banks,
                                    uint32_t first, uint32_t mask,
                                    uint32_t live,
                                    const PASTA_GLOBAL uint32_t *indices) {
  PASTA_GLOBAL uint64_t *row =
      __pasta_bank_row(counters, num_counters, num_banks) + first;
  if (!__pasta_flush_is_full_warp()) {
    for (uint32_t b = 0; b < 32; ++b)
      if (live & (1u << b))
        __pasta_flush_counter(&row[indices[b]], (mask >> b) & 1u);
    return;
  }
  /* A full warp: the live bits four at a time, one warp sum each (`live` is
   * the same in every lane, so the loop is too). Scalars, not an array: an
   * array indexed by the loop would live on the stack. */
  for (uint32_t rest = live; rest != 0;) {
    uint32_t b0 = pasta_next_bit(&rest), b1 = b0, b2 = b0, b3 = b0, n = 1;
    if (rest != 0)
      b1 = pasta_next_bit(&rest), n = 2;
    if (rest != 0)
      b2 = pasta_next_bit(&rest), n = 3;
    if (rest != 0)
      b3 = pasta_next_bit(&rest), n = 4;
    __pasta_flush_bits_fast(&row[indices[b0]], &row[indices[b1]],
                            &row[indices[b2]], &row[indices[b3]], mask, b0, b1,
                            b2, b3, n);
  }
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

/*===-- Working-set mode ---------------------------------------------------===*
 * The working-set copy of a kernel loads what every access needs of the
 * launch's struct pasta_ws_launch once at entry (the pass emits the loads)
 * and, after each global (or generic) access, finds the page flag it sets
 * (__pasta_ws_flag_arg, __pasta_ws_flag), up to four at a time set by one
 * __pasta_ws_mark_args / __pasta_ws_mark_cached; the rare rest goes the
 * full path (__pasta_ws_resolve: a cache miss reads the table itself). Each
 * lane finds its own allocation: lanes of a warp read the same table entries,
 * so the memory system serves them together, and no shuffle lengthens the chain
 * of dependent loads. Up to PASTA_WS_LINEAR_MAX allocations are scanned with
 * independent loads (the host pads the table with empty entries); larger
 * tables are searched. A page flag is read through L1 and written only while
 * it is 0. Hotness counts (optional) add a warp's accesses to one 2 MiB block
 * with one atomic when the warp stays in that block.
 *===----------------------------------------------------------------------===*/

/* The allocation holding `addr`, or PASTA_NONE. */
static inline __attribute__((always_inline)) uint32_t pasta_ws_find(
    const PASTA_GLOBAL struct pasta_ws_alloc *t, uint32_t n, uint64_t addr) {
  uint32_t lo = 0;
  if (n <= PASTA_WS_LINEAR_MAX) {
    for (uint32_t j = 0; j < PASTA_WS_LINEAR_MAX; ++j)
      lo += t[j].base <= addr; /* padding entries have base UINT64_MAX */
  } else {
    uint32_t hi = n;
    while (lo < hi) {
      uint32_t mid = (lo + hi) / 2;
      if (t[mid].base <= addr)
        lo = mid + 1;
      else
        hi = mid;
    }
  }
  if (lo == 0 || addr - t[lo - 1].base >= t[lo - 1].size)
    return PASTA_NONE;
  return lo - 1;
}

/* `count` accesses outside every allocation; the first site (+ 1) is kept. */
static void pasta_ws_outside(PASTA_GLOBAL uint64_t *outside, uint32_t site,
                             uint64_t count) {
  pasta_atomic_add(&outside[0], count);
  uint64_t expected = 0;
  if (__scoped_atomic_load_n(&outside[1], __ATOMIC_RELAXED,
                             __MEMORY_SCOPE_DEVICE) == 0)
    __scoped_atomic_compare_exchange_n(&outside[1], &expected,
                                       (uint64_t)site + 1, 0, __ATOMIC_RELAXED,
                                       __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
}

/* Whether a generic pointer addresses global memory: only global pages are
 * tracked. Kernel parameters and constants (C++ functors passed by value,
 * read through generic pointers, as Thrust's are), shared and local memory
 * are not; each would otherwise miss the cache at every access. */
static int pasta_ws_is_global(void *ptr) {
#if defined(__NVPTX__)
  return __nvvm_isspacep_global(ptr);
#else
  return !__gpu_is_ptr_local(ptr) && !__gpu_is_ptr_private(ptr);
#endif
}

static void pasta_ws_hot(uint64_t blocks, uint32_t block) {
  uint64_t lanes = __gpu_lane_mask();
  PASTA_GLOBAL uint64_t *slot =
      (PASTA_GLOBAL uint64_t *)(uintptr_t)blocks +
      (size_t)block * PASTA_WS_HOT_BANKS +
      (pasta_linear_block_id() & (PASTA_WS_HOT_BANKS - 1));
  uint32_t lead = __gpu_read_first_lane_u32(lanes, block);
  if (__gpu_ballot(lanes, block != lead) == 0) {
    if (__gpu_is_first_in_lane(lanes))
      pasta_atomic_add(slot, (uint64_t)__builtin_popcountll(lanes));
  } else {
    pasta_atomic_add(slot, 1);
  }
}

/* This thread block's bank of page flags (PASTA_WS_PAGE_BANKS), as an offset
 * the working-set copy adds to its flag addresses once, at entry. */
PASTA_INLINE uint64_t __pasta_ws_bank_offset(uint32_t num_pages,
                                             uint32_t banks) {
  return (uint64_t)(pasta_linear_block_id() & (banks - 1)) * num_pages;
}

/* The allocation holding an address that missed the cache, as the cache
 * keeps it: its base, end and the flag address of its first page (in this
 * block's bank); base and end are 0 where no allocation holds it. */
struct pasta_ws_hit {
  uint64_t base, end, flags;
};

/* The allocation holding `addr` (its index in st->allocs), or PASTA_NONE,
 * counted as outside every allocation: one atomic per warp for its lanes
 * outside (e.g. a __device__ array every thread reads), one address for the
 * whole grid. */
static inline __attribute__((always_inline)) uint32_t
pasta_ws_find_counted(const PASTA_GLOBAL struct pasta_ws_launch *st,
                      uint64_t addr, uint32_t site) {
  const PASTA_GLOBAL struct pasta_ws_alloc *t =
      (const PASTA_GLOBAL struct pasta_ws_alloc *)(uintptr_t)st->allocs;
  uint32_t i = pasta_ws_find(t, st->num_allocs, addr);
  uint64_t lost = __gpu_ballot(__gpu_lane_mask(), i == PASTA_NONE);
  if (i == PASTA_NONE && __gpu_is_first_in_lane(lost))
    pasta_ws_outside((PASTA_GLOBAL uint64_t *)(uintptr_t)st->outside, site,
                     (uint64_t)__builtin_popcountll(lost));
  return i;
}

/* Out of line, reading the launch state itself: a miss is rare in a loop
 * (the cache holds the last two allocations). Inlined at every access, the
 * table scan, search and atomics made ptxas take longer on the working-set
 * copies of large kernels (CUB's sort: ~100 accesses) than on the rest of
 * the program, and kept the table's address, size and bank in registers for
 * the whole kernel. */
PASTA_ENTRY struct pasta_ws_hit
__pasta_ws_lookup(const PASTA_GLOBAL struct pasta_ws_launch *st, uint64_t addr,
                  uint32_t site) {
  uint32_t i = pasta_ws_find_counted(st, addr, site);
  if (i == PASTA_NONE)
    return (struct pasta_ws_hit){0, 0, 0};
  const PASTA_GLOBAL struct pasta_ws_alloc *t =
      (const PASTA_GLOBAL struct pasta_ws_alloc *)(uintptr_t)st->allocs;
  uint64_t bank = __pasta_ws_bank_offset(st->num_pages, st->page_banks);
  return (struct pasta_ws_hit){t[i].base, t[i].base + t[i].size,
                               st->pages + bank + t[i].first_page};
}

/* Hotness counts (PASTA_WS_HOT), out of line for the same reason. */
PASTA_ENTRY void
__pasta_ws_hot_at(const PASTA_GLOBAL struct pasta_ws_launch *st, uint64_t addr,
                  uint64_t base) {
  const PASTA_GLOBAL struct pasta_ws_alloc *t =
      (const PASTA_GLOBAL struct pasta_ws_alloc *)(uintptr_t)st->allocs;
  uint32_t i = pasta_ws_find(t, st->num_allocs, addr);
  pasta_ws_hot(st->blocks, t[i].first_block + (uint32_t)((addr - base) >>
                                                         PASTA_WS_BLOCK_SHIFT));
}

/* The flag of the page an access touches, as an address, or 0 where it sets
 * none (not global memory, or outside every allocation); counts hotness.
 * `cache`: two allocations this thread touched last, kept in registers by
 * the calling function (six allocas the pass promotes once this is inlined):
 * base, end and flag address of the first page, for each. A thread that
 * keeps to one or two allocations (most loops) skips the table. `hot`: the
 * launch counts hotness (st->blocks, loaded once by the caller). */
PASTA_INLINE uint64_t __pasta_ws_resolve(
    const PASTA_GLOBAL struct pasta_ws_launch *st, uint64_t hot,
    uint32_t page_shift, void *ptr, uint32_t site, uint32_t generic,
    PASTA_PRIVATE uint64_t *base0, PASTA_PRIVATE uint64_t *end0,
    PASTA_PRIVATE uint64_t *flags0, PASTA_PRIVATE uint64_t *base1,
    PASTA_PRIVATE uint64_t *end1, PASTA_PRIVATE uint64_t *flags1) {
  if (generic && !pasta_ws_is_global(ptr))
    return 0;
  uint64_t addr = (uint64_t)(uintptr_t)ptr;
  uint64_t base, flags;
  if (addr - *base0 < *end0 - *base0) {
    base = *base0;
    flags = *flags0;
  } else if (addr - *base1 < *end1 - *base1) {
    base = *base1;
    flags = *flags1;
  } else {
    struct pasta_ws_hit hit = __pasta_ws_lookup(st, addr, site);
    if (hit.end == 0)
      return 0;
    base = hit.base;
    flags = hit.flags;
    *base1 = *base0;
    *end1 = *end0;
    *flags1 = *flags0;
    *base0 = base;
    *end0 = hit.end;
    *flags0 = flags;
  }
  if (hot)
    __pasta_ws_hot_at(st, addr, base);
  return flags + ((addr - base) >> page_shift);
}

/* Sets up to four page flags (0: none), after the accesses they stand for.
 * All four are read first, so that their latencies overlap, then 1 is
 * stored where a flag was 0. The reads are cached (not volatile): every
 * warp of the grid reads the same few flags, which must not all go to one
 * L2 slice. A stale 0 only costs a second store of 1; flags go from 0 to 1
 * only within a launch. */
PASTA_INLINE void __pasta_ws_mark(uint64_t f0, uint64_t f1, uint64_t f2,
                                  uint64_t f3) {
#if defined(__NVPTX__)
  /* The same as the C below, with predicated loads and stores where the C
   * is a branch around each: no basic blocks (ptxas's time grows faster
   * than the blocks of a function; these were eight per mark, most of a
   * working-set copy's blocks). Not a memory clobber: the flags are
   * PASTA's own memory, which the program never reads. */
  __asm__ volatile("{\n\t"
                   ".reg .pred %%pn<4>, %%pz<4>;\n\t"
                   ".reg .b16 %%s<4>;\n\t"
                   "setp.ne.u64 %%pn0, %0, 0;\n\t"
                   "setp.ne.u64 %%pn1, %1, 0;\n\t"
                   "setp.ne.u64 %%pn2, %2, 0;\n\t"
                   "setp.ne.u64 %%pn3, %3, 0;\n\t"
                   "mov.b16 %%s0, 1;\n\t"
                   "mov.b16 %%s1, 1;\n\t"
                   "mov.b16 %%s2, 1;\n\t"
                   "mov.b16 %%s3, 1;\n\t"
                   "@%%pn0 ld.global.u8 %%s0, [%0];\n\t"
                   "@%%pn1 ld.global.u8 %%s1, [%1];\n\t"
                   "@%%pn2 ld.global.u8 %%s2, [%2];\n\t"
                   "@%%pn3 ld.global.u8 %%s3, [%3];\n\t"
                   "setp.eq.u16 %%pz0, %%s0, 0;\n\t"
                   "setp.eq.u16 %%pz1, %%s1, 0;\n\t"
                   "setp.eq.u16 %%pz2, %%s2, 0;\n\t"
                   "setp.eq.u16 %%pz3, %%s3, 0;\n\t"
                   "mov.b16 %%s0, 1;\n\t"
                   "@%%pz0 st.global.u8 [%0], %%s0;\n\t"
                   "@%%pz1 st.global.u8 [%1], %%s0;\n\t"
                   "@%%pz2 st.global.u8 [%2], %%s0;\n\t"
                   "@%%pz3 st.global.u8 [%3], %%s0;\n\t"
                   "}" ::"l"(f0),
                   "l"(f1), "l"(f2), "l"(f3));
#else
  PASTA_GLOBAL uint8_t *f[4] = {(PASTA_GLOBAL uint8_t *)(uintptr_t)f0,
                                (PASTA_GLOBAL uint8_t *)(uintptr_t)f1,
                                (PASTA_GLOBAL uint8_t *)(uintptr_t)f2,
                                (PASTA_GLOBAL uint8_t *)(uintptr_t)f3};
  uint8_t set[4];
  for (int i = 0; i < 4; ++i)
    set[i] = f[i] ? *f[i] : 1;
  for (int i = 0; i < 4; ++i)
    if (set[i] == 0)
      *f[i] = 1;
#endif
}

/* The full path without the cache: the flag of the page `ptr` touches, or
 * 0; counts hotness (`hot`: st->blocks). One table search per access, as
 * the cached path pays on a miss. */
static inline __attribute__((always_inline)) uint64_t pasta_ws_resolve_uncached(
    const PASTA_GLOBAL struct pasta_ws_launch *st, uint64_t hot,
    uint32_t page_shift, void *ptr, uint32_t site, uint32_t generic) {
  if (generic && !pasta_ws_is_global(ptr))
    return 0;
  uint64_t addr = (uint64_t)(uintptr_t)ptr;
  uint32_t i = pasta_ws_find_counted(st, addr, site);
  if (i == PASTA_NONE)
    return 0;
  const PASTA_GLOBAL struct pasta_ws_alloc *t =
      (const PASTA_GLOBAL struct pasta_ws_alloc *)(uintptr_t)st->allocs;
  uint64_t offset = addr - t[i].base;
  if (hot)
    pasta_ws_hot(hot,
                 t[i].first_block + (uint32_t)(offset >> PASTA_WS_BLOCK_SHIFT));
  return st->pages + __pasta_ws_bank_offset(st->num_pages, st->page_banks) +
         t[i].first_page + (offset >> page_shift);
}

/*-- Batches of up to four accesses --------------------------------------*
 * What the working-set copies call (KernelVariants.cpp). Each access's flag
 * is found inline, without a branch, where the pass traced it to a kernel
 * parameter whose allocation the host looked up (struct pasta_ws_arg: an
 * access inside it costs a range check), or in the thread's cache of the
 * two allocations it touched last; anything else (a cache miss, an access
 * outside its argument's allocation, a launch counting hotness) sends the
 * whole batch, once, down the full path, out of line, which finds and sets
 * all four flags itself. Per access, the inline full path (five branches
 * and two calls) was most of a working-set copy's code, and ptxas's time
 * grew faster than that code: minutes on kernels of hundreds of accesses
 * (issue [overhead-3]). */
#define PASTA_WS_SLOW UINT64_MAX /* only the full path knows the flag */

/* The flag of an access traced to a kernel parameter whose allocation is
 * [arg_base, arg_end), its first page's flag at arg_flags. */
PASTA_INLINE uint64_t __pasta_ws_flag_arg(uint64_t arg_base, uint64_t arg_end,
                                          uint64_t arg_flags,
                                          uint32_t page_shift, void *ptr) {
  uint64_t offset = (uint64_t)(uintptr_t)ptr - arg_base;
  return offset < arg_end - arg_base ? arg_flags + (offset >> page_shift)
                                     : PASTA_WS_SLOW;
}

/* The flag of any other access, from the cache (base, end and first page's
 * flag of two allocations, six allocas the pass promotes to registers);
 * 0 for a generic pointer to memory that is not global (the stack,
 * parameters, shared memory: never looked up). */
PASTA_INLINE uint64_t
__pasta_ws_flag(uint32_t page_shift, void *ptr, uint32_t generic,
                PASTA_PRIVATE uint64_t *base0, PASTA_PRIVATE uint64_t *end0,
                PASTA_PRIVATE uint64_t *flags0, PASTA_PRIVATE uint64_t *base1,
                PASTA_PRIVATE uint64_t *end1, PASTA_PRIVATE uint64_t *flags1) {
  uint64_t addr = (uint64_t)(uintptr_t)ptr;
  uint64_t offset0 = addr - *base0, offset1 = addr - *base1;
  int in0 = offset0 < *end0 - *base0, in1 = offset1 < *end1 - *base1;
  uint64_t flag = in0 ? *flags0 + (offset0 >> page_shift)
                      : *flags1 + (offset1 >> page_shift);
  uint64_t miss = generic && !pasta_ws_is_global(ptr) ? 0 : PASTA_WS_SLOW;
  return in0 | in1 ? flag : miss;
}

/* What the full path needs to know of a batch besides the addresses: its
 * sites and (bit k) whether address k is a generic pointer; a constant the
 * pass emits per batch, so the call passes six values. */
struct pasta_ws_batch {
  uint32_t site[4], generic;
};

/* The full path of a batch of accesses traced to kernel parameters:
 * without the cache (such a copy keeps none). Written out per access, not
 * as a loop over arrays: those stayed in local memory. */
PASTA_ENTRY void
__pasta_ws_mark_uncached(const PASTA_GLOBAL struct pasta_ws_launch *st,
                         void *p0, void *p1, void *p2, void *p3,
                         const PASTA_GLOBAL struct pasta_ws_batch *batch) {
  uint64_t hot = st->blocks;
  uint32_t shift = st->page_shift, generic = batch->generic;
#define PASTA_FLAG(k)                                                          \
  (p##k ? pasta_ws_resolve_uncached(st, hot, shift, p##k, batch->site[k],      \
                                    (generic >> k) & 1u)                       \
        : 0)
  uint64_t f0 = PASTA_FLAG(0);
  uint64_t f1 = PASTA_FLAG(1);
  uint64_t f2 = PASTA_FLAG(2);
  uint64_t f3 = PASTA_FLAG(3);
#undef PASTA_FLAG
  __pasta_ws_mark(f0, f1, f2, f3);
}

/* The cache, as the full path leaves it. */
struct pasta_ws_cache {
  uint64_t base0, end0, flags0, base1, end1, flags1;
};

/* The full path of any other batch: in order through the cache, which it
 * returns. (The cache passed as six scalars, c kept in registers, took the
 * kernels some 12 more registers; as a struct it stays in this function's
 * local memory, touched only on this path.) */
PASTA_ENTRY struct pasta_ws_cache
__pasta_ws_mark_slow(const PASTA_GLOBAL struct pasta_ws_launch *st, void *p0,
                     void *p1, void *p2, void *p3,
                     const PASTA_GLOBAL struct pasta_ws_batch *batch,
                     struct pasta_ws_cache c) {
  uint64_t hot = st->blocks;
  uint32_t shift = st->page_shift, generic = batch->generic;
  /* c is this function's own (private) memory, whatever the target calls
   * the address of a local variable. */
#define PASTA_SLOT(x) ((PASTA_PRIVATE uint64_t *)&c.x)
#define PASTA_FLAG(k)                                                          \
  (p##k ? __pasta_ws_resolve(                                                  \
              st, hot, shift, p##k, batch->site[k], (generic >> k) & 1u,       \
              PASTA_SLOT(base0), PASTA_SLOT(end0), PASTA_SLOT(flags0),         \
              PASTA_SLOT(base1), PASTA_SLOT(end1), PASTA_SLOT(flags1))         \
        : 0)
  uint64_t f0 = PASTA_FLAG(0);
  uint64_t f1 = PASTA_FLAG(1);
  uint64_t f2 = PASTA_FLAG(2);
  uint64_t f3 = PASTA_FLAG(3);
#undef PASTA_FLAG
#undef PASTA_SLOT
  __pasta_ws_mark(f0, f1, f2, f3);
  return c;
}

/* Whether a batch takes the full path: an access only it can resolve, or
 * a launch counting hotness (`hot`: st->blocks, loaded once by the copy). */
static inline __attribute__((always_inline)) int
pasta_ws_batch_slow(uint64_t hot, uint64_t f0, uint64_t f1, uint64_t f2,
                    uint64_t f3) {
  return __builtin_expect((f0 == PASTA_WS_SLOW) | (f1 == PASTA_WS_SLOW) |
                              (f2 == PASTA_WS_SLOW) | (f3 == PASTA_WS_SLOW) |
                              (hot != 0),
                          0);
}

/* A batch of up to four accesses, after them: f0..f3 their flags from
 * __pasta_ws_flag_arg / __pasta_ws_flag (0 where none), p0..p3 their
 * addresses (null: no access). The batch's accesses are all traced to
 * kernel parameters (__pasta_ws_mark_args) or not (__pasta_ws_mark_cached,
 * the cache updated by the full path). One branch per batch. */
PASTA_INLINE void
__pasta_ws_mark_args(const PASTA_GLOBAL struct pasta_ws_launch *st,
                     uint64_t hot, uint64_t f0, uint64_t f1, uint64_t f2,
                     uint64_t f3, void *p0, void *p1, void *p2, void *p3,
                     const PASTA_GLOBAL struct pasta_ws_batch *batch) {
  if (pasta_ws_batch_slow(hot, f0, f1, f2, f3))
    __pasta_ws_mark_uncached(st, p0, p1, p2, p3, batch);
  else
    __pasta_ws_mark(f0, f1, f2, f3);
}

PASTA_INLINE void __pasta_ws_mark_cached(
    const PASTA_GLOBAL struct pasta_ws_launch *st, uint64_t hot, uint64_t f0,
    uint64_t f1, uint64_t f2, uint64_t f3, void *p0, void *p1, void *p2,
    void *p3, const PASTA_GLOBAL struct pasta_ws_batch *batch,
    PASTA_PRIVATE uint64_t *base0, PASTA_PRIVATE uint64_t *end0,
    PASTA_PRIVATE uint64_t *flags0, PASTA_PRIVATE uint64_t *base1,
    PASTA_PRIVATE uint64_t *end1, PASTA_PRIVATE uint64_t *flags1) {
  if (pasta_ws_batch_slow(hot, f0, f1, f2, f3)) {
    struct pasta_ws_cache c = {*base0, *end0, *flags0, *base1, *end1, *flags1};
    c = __pasta_ws_mark_slow(st, p0, p1, p2, p3, batch, c);
    *base0 = c.base0;
    *end0 = c.end0;
    *flags0 = c.flags0;
    *base1 = c.base1;
    *end1 = c.end1;
    *flags1 = c.flags1;
  } else {
    __pasta_ws_mark(f0, f1, f2, f3);
  }
}

/*===- Trace mode: C.A.T.S. scope events ---------------------------------===*
 * The trace copy of a kernel (KernelVariants.cpp) decides once per call
 * whether its warp records, then calls __pasta_trace_event at every scope
 * entry and exit. Only sampled warps pay more than a predicate; in them the
 * first active lane appends one record per scope entry or exit it has not
 * recorded yet (per-thread masks, so a loop entered a million times is
 * recorded once). Records past the buffer's capacity are counted (head keeps
 * growing) and reported as dropped by the host. */

/* Nanoseconds on the device's global clock. */
static uint64_t pasta_device_time_ns(void) {
#if defined(__NVPTX__)
  return __nvvm_read_ptx_sreg_globaltimer();
#elif defined(__AMDGPU__)
  /* The constant 100 MHz clock (s_memrealtime on gfx9, s_sendmsg_rtn on
   * gfx11). */
  return __builtin_readsteadycounter() * 10u;
#else
  return 0;
#endif
}

/* 64-bit: blocks times warps per block passes 2^32 on large grids. */
static uint64_t pasta_linear_warp_id(void) {
  uint32_t thread =
      __gpu_thread_id_x() +
      __gpu_num_threads_x() *
          (__gpu_thread_id_y() + __gpu_num_threads_y() * __gpu_thread_id_z());
  return (uint64_t)pasta_linear_block_id() * pasta_block_warps() +
         thread / __gpu_num_lanes();
}

PASTA_INLINE uint32_t
__pasta_trace_sampled(PASTA_GLOBAL struct pasta_trace_launch *state) {
  uint32_t stride = state->warp_stride;
  return stride != 0 && pasta_linear_warp_id() % stride == 0;
}

PASTA_INLINE void
__pasta_trace_event(PASTA_GLOBAL struct pasta_trace_launch *state,
                    uint32_t sampled, uint32_t scope, uint32_t trips,
                    PASTA_PRIVATE uint64_t *seen, uint64_t bit) {
  if (!sampled)
    return;
  uint64_t mask = *seen;
  *seen = mask | bit;
  if ((mask & bit) || !__gpu_is_first_in_lane(__gpu_lane_mask()))
    return;
  uint64_t slot = __scoped_atomic_fetch_add(
      &state->head, (uint64_t)1, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
  if (slot >= state->capacity)
    return; /* dropped: the host reads head - capacity */
  PASTA_GLOBAL struct pasta_trace_record *r =
      (PASTA_GLOBAL struct pasta_trace_record *)(uintptr_t)state->records +
      slot;
  r->scope = scope;
  r->warp = (uint32_t)pasta_linear_warp_id();
  r->trips = trips;
  r->reserved = 0;
  r->time = pasta_device_time_ns();
}

/*===- Divergence mode: warp-level memory and branch figures --------------===*
 * The divergence copy of a kernel (passes/Divergence.cpp) calls these at each
 * memory access, conditional branch and counted block. Every active lane
 * computes the same warp-level figure with ballots, match_any and shuffles;
 * only the first active lane adds it to its per-thread register (the
 * pointers are allocas the pass promotes), so the flush at exit, a warp sum,
 * yields the warp-level total. No atomics run while the kernel runs.
 *
 * The registers are 32 bits wide (a 64-bit one takes two of the copy's
 * registers, and the copies run under a register cap). One call adds little:
 * at most 64 lanes times the access size. The copies read a register as a
 * signed value, since an access helper adds its measured figures less those
 * the pass derives, which may be negative, and flush it before it can hold
 * 2^31 (passes/Divergence.cpp, "drain").
 *
 * Figures (docs/user-guide.md, "Divergence mode", derives each rule):
 *  - distinct bytes: the size of the union of [addr, addr + size) over the
 *    active lanes;
 *  - sectors: distinct 32-byte sectors the lanes touch (an access that
 *    straddles a sector boundary touches two); ideal: ceil(distinct / 32);
 *  - bank conflicts: 32 banks of 4 bytes; a warp's request is served in
 *    phases of 128 / max(size, 4) lanes (all 32 lanes for 1-4 byte
 *    accesses, half-warps for 8, quarter-warps for 16); a phase needs as
 *    many wavefronts as the most distinct words any one bank holds among
 *    its lanes; conflicts = wavefronts - phases with an active lane.
 *===----------------------------------------------------------------------===*/

/* The lanes of `lanes` below the calling lane. On NVIDIA GPUs one 32-bit
 * AND with %lanemask_lt: <gpuintrin.h>'s first-lane test takes a 64-bit
 * mask, and ptxas keeps its 64-bit arithmetic (two population counts,
 * three compares) in every helper. */
static PASTA_INLINE uint64_t pasta_div_below(uint64_t lanes) {
#if defined(__NVPTX__)
  return (uint32_t)lanes & __nvvm_read_ptx_sreg_lanemask_lt();
#else
  return lanes & ((1ull << __gpu_lane_id()) - 1);
#endif
}

/* Whether the calling lane is the first of `lanes`, which holds it (the
 * active lanes). */
static PASTA_INLINE int pasta_div_first(uint64_t lanes) {
  return pasta_div_below(lanes) == 0;
}

/* A copy of pasta_div_below(lanes) that LLVM cannot see through, taken
 * before the first-lane test (after it, GVN in the NVPTX back end would
 * know the value is 0): see pasta_div_lone_add. */
static PASTA_INLINE uint64_t pasta_div_hidden_below(uint64_t below) {
#if defined(__NVPTX__)
  __asm__ volatile("" : "+l"(below));
#endif
  return below;
}

/* pasta_atomic_add by the first of the active lanes alone, `hidden` being
 * pasta_div_hidden_below(...) (0 in that lane). ptxas turns an atomic whose
 * address and value it sees are the same in every active lane into one by
 * a leader of the sum over them (a vote, two population counts, a
 * multiply: a dozen instructions), which a lone lane does not need; adding
 * `hidden` keeps the value lane-dependent as far as it can tell. */
static PASTA_INLINE void pasta_div_lone_add(PASTA_GLOBAL uint64_t *slot,
                                            uint64_t value, uint64_t hidden) {
  pasta_atomic_add(slot, value + hidden);
}

/* The lowest lane of `mask`, or 64 when it is empty. */
static uint32_t pasta_div_lowest(uint64_t mask) {
  return mask ? (uint32_t)__builtin_ctzll(mask) : 64u;
}

/* Lanes of `subset` that are the lowest of their group of equal `key`:
 * one per distinct key. Lanes outside the subset take part in the match
 * with a key no subset lane has. When `narrow` (the keys lie within 2^32
 * of each other: shared-memory addresses of one block) and every lane is
 * in the subset, the low 32 bits tell the keys apart: a 32-bit match. */
static uint64_t pasta_div_key_leaders(uint64_t lanes, uint64_t subset,
                                      uint64_t key, int narrow) {
  int in = (subset >> __gpu_lane_id()) & 1;
  uint64_t same = narrow && subset == lanes
                      ? __gpu_match_any_u32(lanes, (uint32_t)key)
                      : __gpu_match_any_u64(lanes, in ? key : ~0ull);
  return __gpu_ballot(lanes, in && pasta_div_lowest(same) == __gpu_lane_id());
}

/* The sum of `value` over the lanes of `lanes` (any subset), in every lane:
 * one shuffle per lane, for the rare paths. */
static uint64_t pasta_div_sum(uint64_t lanes, uint64_t value) {
  uint64_t sum = 0;
  for (uint64_t m = lanes; m; m &= m - 1)
    sum += __gpu_shuffle_idx_u64(lanes, (uint32_t)__builtin_ctzll(m), value,
                                 __gpu_num_lanes());
  return sum;
}

/* The largest `value` (below 128) over the lanes of `group`, in every lane
 * of `lanes`: its bits from the top, one ballot each. */
static PASTA_INLINE uint64_t pasta_div_max_small(uint64_t lanes, uint64_t group,
                                                 uint64_t value) {
  uint64_t max = 0;
  for (int bit = 6; bit >= 0; --bit) {
    uint64_t candidate = max | (1ull << bit);
    if (__gpu_ballot(lanes, value >= candidate) & group)
      max = candidate;
  }
  return max;
}

/* The sum of `value` (below 2^bits) over the lanes of `lanes`, in every
 * lane: one redux.sync on sm_80 and later, else one ballot per bit. */
static PASTA_INLINE uint64_t pasta_div_sum_small(uint64_t lanes, uint32_t value,
                                                 int bits) {
#if defined(__NVPTX__) && PASTA_NVPTX_REDUX
  (void)bits;
  uint32_t sum;
  __asm__ volatile("redux.sync.add.u32 %0, %1, %2;"
                   : "=r"(sum)
                   : "r"(value), "r"((uint32_t)lanes));
  return sum;
#else
  uint64_t sum = 0;
  for (int bit = 0; bit < bits; ++bit)
    sum +=
        (uint64_t)__builtin_popcountll(__gpu_ballot(lanes, (value >> bit) & 1))
        << bit;
  return sum;
#endif
}

/* Tallies of the fast paths, for the unit test only. */
#if defined(PASTA_DEVICE_RT_HOST_TEST)
static uint64_t pasta_div_fast_ordered, pasta_div_fast_banks;
#define PASTA_DIV_TALLY(counter, lanes)                                        \
  do {                                                                         \
    if (__gpu_is_first_in_lane(lanes))                                         \
      ++(counter);                                                             \
  } while (0)
#else
#define PASTA_DIV_TALLY(counter, lanes) ((void)0)
#endif

/* The fast path of distinct bytes and sectors (no match_any): when the lanes
 * of `order` (a subset of `subset` whose ranges cover all of the subset's)
 * start in non-decreasing order of lane, a lane's range can overlap those of
 * lower lanes only at its start, up to the end of the nearest lower lane's
 * range; it adds the units past that end. Accesses here are at most 64
 * bytes: a lane adds at most 64 bytes and 3 sectors. Returns 0, computing
 * nothing, when the starts are out of order. */
static PASTA_INLINE int pasta_div_ordered_units(uint64_t lanes, uint64_t order,
                                                uint64_t addr, uint32_t size,
                                                uint32_t sectored,
                                                uint64_t *bytes,
                                                uint64_t *sectors) {
  uint32_t lane = __gpu_lane_id();
  int in = (order >> lane) & 1;
  uint64_t below = order & ((1ull << lane) - 1); /* lane < 64 */
  uint32_t prev_lane = below ? 63u - (uint32_t)__builtin_clzll(below) : lane;
  uint64_t prev =
      __gpu_shuffle_idx_u64(lanes, prev_lane, addr, __gpu_num_lanes());
  if (__gpu_ballot(lanes, in && addr < prev) != 0)
    return 0;
  uint64_t last = addr + size - 1, prev_last = prev + size - 1;
  uint64_t from = below && prev_last + 1 > addr ? prev_last + 1 : addr;
  uint32_t new_bytes = in && last >= from ? (uint32_t)(last - from + 1) : 0;
  *bytes = pasta_div_sum_small(lanes, new_bytes, 7);
  *sectors = 0;
  if (sectored) {
    uint64_t s_from = below && (prev_last >> 5) + 1 > (addr >> 5)
                          ? (prev_last >> 5) + 1
                          : addr >> 5;
    uint32_t new_sectors =
        in && (last >> 5) >= s_from ? (uint32_t)((last >> 5) - s_from + 1) : 0;
    *sectors = pasta_div_sum_small(lanes, new_sectors, 2);
  }
  return 1;
}

/* Lanes of `subset` whose address equals that of the lane 16 below, also
 * in `subset` (a 16-wide tile row read by both half-warps): their ranges
 * are covered by lanes that stay. */
static PASTA_INLINE uint64_t pasta_div_repeats(uint64_t lanes, uint64_t subset,
                                               uint64_t addr) {
  uint32_t lane = __gpu_lane_id();
  uint32_t partner = lane >= 16 ? lane - 16 : lane;
  uint64_t theirs =
      __gpu_shuffle_idx_u64(lanes, partner, addr, __gpu_num_lanes());
  int in = (subset >> lane) & 1, partner_in = (subset >> partner) & 1;
  return __gpu_ballot(lanes, in && lane >= 16 && partner_in && theirs == addr);
}

/* The general case of pasta_div_distinct_units, out of line: rare
 * (misaligned or overlapping accesses), and long. */
static __attribute__((noinline)) uint64_t pasta_div_distinct_units_slow(
    uint64_t lanes, uint64_t subset, uint64_t lo, uint64_t hi) {
  int in = (subset >> __gpu_lane_id()) & 1;
  uint64_t len = hi - lo + 1;
  uint64_t units = len > 64 ? 64 : len;
  uint64_t covered = 0; /* bit u: unit lo + u is covered by a lower lane */
  for (uint64_t m = subset; m; m &= m - 1) {
    uint32_t j = (uint32_t)__builtin_ctzll(m);
    uint64_t lo_j = __gpu_shuffle_idx_u64(lanes, j, lo, __gpu_num_lanes());
    uint64_t hi_j = __gpu_shuffle_idx_u64(lanes, j, hi, __gpu_num_lanes());
    if (j >= __gpu_lane_id() || hi_j < lo || lo_j > hi)
      continue;
    uint64_t from = lo_j > lo ? lo_j - lo : 0;
    uint64_t to = hi_j - lo < units - 1 ? hi_j - lo : units - 1;
    for (uint64_t u = from; u <= to; ++u)
      covered |= 1ull << u;
  }
  uint64_t mine = in ? units - (uint64_t)__builtin_popcountll(covered) : 0;
  return pasta_div_sum(lanes, mine);
}

/* The number of distinct units in the union of [lo, hi] (inclusive) over
 * the lanes of `subset`. When every range has the first range's length and
 * starts at a multiple of it, ranges either coincide or are disjoint: the
 * length times the number of distinct starts (one match_any). Otherwise each
 * lane counts the units of its range that no lower lane covers (at most 64
 * per lane: accesses are at most 16 bytes). `len_all` is every range's
 * length when the caller knows it (an access's bytes: its size), else 0;
 * `narrow` as for pasta_div_key_leaders. */
static PASTA_INLINE uint64_t pasta_div_distinct_units(uint64_t lanes,
                                                      uint64_t subset,
                                                      uint64_t lo, uint64_t hi,
                                                      uint64_t len_all,
                                                      int narrow) {
  if (!subset)
    return 0;
  int in = (subset >> __gpu_lane_id()) & 1;
  uint64_t len = hi - lo + 1;
  /* A shuffled length is unknown to the compiler (a 64-bit remainder below,
   * two shuffles); a size it knows is neither. */
  uint64_t len0 = len_all
                      ? len_all
                      : __gpu_shuffle_idx_u64(lanes, pasta_div_lowest(subset),
                                              len, __gpu_num_lanes());
  /* `lo % len0` alone is a 64-bit division call (about 70 instructions)
   * per access. Sizes and most sector spans are powers of 2. */
  uint64_t off = (len0 & (len0 - 1)) == 0 ? lo & (len0 - 1) : lo % len0;
  if (__gpu_ballot(lanes, in && (len != len0 || off != 0)) == 0)
    return len0 * (uint64_t)__builtin_popcountll(
                      pasta_div_key_leaders(lanes, subset, lo, narrow));
  return pasta_div_distinct_units_slow(lanes, subset, lo, hi);
}

/* Distinct bytes and (when `sectored`) 32-byte sectors of one access by
 * the lanes of `subset`: when `ordered`, the ordered fast path if it
 * applies (tried as is, then without lanes that repeat the lane 16 below),
 * else the general one; `narrow` for shared memory (pasta_div_key_leaders). */
static PASTA_INLINE void pasta_div_units(uint64_t lanes, uint64_t subset,
                                         uint64_t addr, uint32_t size,
                                         uint32_t sectored, int ordered,
                                         int narrow, uint64_t *bytes,
                                         uint64_t *sectors) {
  *bytes = *sectors = 0;
  if (!subset)
    return;
  if (size <= 64 && ordered &&
      (pasta_div_ordered_units(lanes, subset, addr, size, sectored, bytes,
                               sectors) ||
       pasta_div_ordered_units(lanes,
                               subset & ~pasta_div_repeats(lanes, subset, addr),
                               addr, size, sectored, bytes, sectors))) {
    PASTA_DIV_TALLY(pasta_div_fast_ordered, lanes);
    return;
  }
  uint64_t last = addr + (size ? size - 1 : 0);
  *bytes = pasta_div_distinct_units(lanes, subset, addr, last, size, narrow);
  if (sectored)
    *sectors =
        pasta_div_distinct_units(lanes, subset, addr >> 5, last >> 5, 0, 0);
}

/* Shared-memory bank conflicts of one request (rule above). Aligned 8- and
 * 16-byte accesses cover consecutive banks from their first word's bank, so
 * two lanes share a bank only when their first words share one: the first
 * word stands for the access. */
static PASTA_INLINE uint64_t pasta_div_bank_conflicts(uint64_t lanes,
                                                      uint64_t subset,
                                                      uint64_t addr,
                                                      uint32_t size) {
  if (!subset)
    return 0;
  int in = (subset >> __gpu_lane_id()) & 1;
  uint32_t per_phase = 128u / (size > 4 ? (size < 128 ? size : 128) : 4);
  uint64_t phase = __gpu_lane_id() / per_phase;
  uint64_t word = addr >> 2;
  /* Fast path: when each phase's words lie within 32 consecutive words from
   * that of its lowest lane, distinct words are in distinct banks: no
   * conflict (broadcasts, consecutive words, a 16-float tile row). */
  uint64_t phase_lanes = per_phase >= 64
                             ? ~0ull
                             : ((1ull << per_phase) - 1) << (phase * per_phase);
  uint64_t first =
      __gpu_shuffle_idx_u64(lanes, pasta_div_lowest(subset & phase_lanes) & 63,
                            word, __gpu_num_lanes());
  if (__gpu_ballot(lanes, in && word - first >= 32) == 0) {
    PASTA_DIV_TALLY(pasta_div_fast_banks, lanes);
    return 0;
  }
  uint64_t bank_key = phase << 5 | (word & 31);
  uint64_t same_bank =
      __gpu_match_any_u64(lanes, in ? bank_key : ~0ull) & subset;
  /* One leader per distinct word in each phase: a word that lanes of two
   * phases read is served once in each (addresses stay below 2^56). */
  uint64_t words = pasta_div_key_leaders(lanes, subset, phase << 56 | word, 0);
  /* Distinct words in this lane's bank within its phase (at most 32). */
  uint64_t depth = in ? (uint64_t)__builtin_popcountll(same_bank & words) : 0;
  uint64_t wavefronts = 0, phases = 0;
  for (uint32_t p = 0; p * per_phase < __gpu_num_lanes(); ++p) {
    uint64_t group =
        per_phase >= 64 ? ~0ull : ((1ull << per_phase) - 1) << (p * per_phase);
    if (!(subset & group))
      continue;
    ++phases;
    wavefronts += pasta_div_max_small(lanes, group, depth);
  }
  return wavefronts - phases;
}

/* Which lanes of `lanes` accessed memory of kind `space` through `ptr`. */
static uint64_t pasta_div_lanes_in(uint64_t lanes, void *ptr, uint32_t hint,
                                   uint32_t space) {
  int mine;
  if (hint != PASTA_DIV_GENERIC) /* known at compile time: no ballot */
    return hint == space ? lanes : 0;
  if (space == PASTA_DIV_SHARED)
    mine = __gpu_is_ptr_local(ptr) != 0;
  else
    mine = !__gpu_is_ptr_local(ptr) && !__gpu_is_ptr_private(ptr);
  return __gpu_ballot(lanes, mine);
}

/* The figures of one warp-level execution (__pasta_div_access), in every
 * lane, indexed by enum pasta_div_index. */
static PASTA_INLINE void pasta_div_access_figures(void *ptr, uint32_t size,
                                                  uint32_t hint,
                                                  uint32_t sectored,
                                                  uint64_t lanes,
                                                  uint64_t f[PASTA_DIV_NUM]) {
  uint64_t addr = (uint64_t)(uintptr_t)ptr;
  uint64_t global = pasta_div_lanes_in(lanes, ptr, hint, PASTA_DIV_GLOBAL);
  uint64_t shared = pasta_div_lanes_in(lanes, ptr, hint, PASTA_DIV_SHARED);
  uint64_t unused;
  /* Atomics skip the ordered attempts: the copies send here only those
   * whose addresses the pass cannot shape, which are scattered (a
   * histogram's bins, a graph's visited flags) far more often than ordered,
   * and the two attempts cost more than the match that follows them. */
  pasta_div_units(lanes, global, addr, size, sectored, sectored, 0,
                  &f[PASTA_DIV_DISTINCT_GLOBAL], &f[PASTA_DIV_SECTORS]);
  pasta_div_units(lanes, shared, addr, size, 0, sectored, 1,
                  &f[PASTA_DIV_DISTINCT_SHARED], &unused);
  f[PASTA_DIV_IDEAL_SECTORS] =
      sectored && global ? (f[PASTA_DIV_DISTINCT_GLOBAL] + 31) / 32 : 0;
  /* ncu's conflict metrics are for ld/st too */
  f[PASTA_DIV_BANK_CONFLICTS] =
      sectored && shared ? pasta_div_bank_conflicts(lanes, shared, addr, size)
                         : 0;
  f[PASTA_DIV_REQUESTS_GLOBAL] = global != 0;
  f[PASTA_DIV_REQUESTS_SHARED] = shared != 0;
  f[PASTA_DIV_BYTES] =
      (uint64_t)size * (uint64_t)__builtin_popcountll(global | shared);
}

/*===- Row-shaped warps: the access helpers' fast path ---------------------===*
 * In a block whose x dimension is 16 lanes, or whose warps hold
 * consecutive thread indices x (a one-dimensional block, or rows of whole
 * warps), a full warp holds 32 / width rows of `width` lanes, lane i of a
 * row holding x = i (__pasta_div_row_width). When each row's lanes access
 * consecutive elements from the row's base (stride = size) or all one
 * element (stride 0), as tiles, stencils and streams do, the warp's bytes
 * are one range or two and every figure is arithmetic on their ends: no
 * match_any, no warp sum, about a third of the general path's
 * instructions. */

#define PASTA_DIV_FULL_WARP 0xffffffffull

/* Units of 2^shift bytes that [b, b + len) touches (len > 0). */
static PASTA_INLINE uint64_t pasta_div_span(uint64_t b, uint64_t len,
                                            unsigned shift) {
  return ((b + len - 1) >> shift) - (b >> shift) + 1;
}

/* The figures f (all of them, as the general path's) of a full warp of
 * rows of `width` lanes (16 or 32) in `space` whose lanes access `size`
 * bytes at their row's base plus `stride` (0 or size) per lane: the base is
 * `mine` in this lane's row, `other` in the other row (the same for one
 * row). The same in every lane (a function of the two bases as a set).
 * Returns 0, computing nothing, when the rows' ranges overlap in part, or
 * a shared access needs the general bank rule. */
static PASTA_INLINE int pasta_div_rows_figures(uint64_t mine, uint64_t other,
                                               uint32_t width, uint32_t size,
                                               uint32_t stride, uint32_t space,
                                               uint32_t sectored,
                                               uint64_t f[PASTA_DIV_NUM]) {
  uint64_t len = stride ? (uint64_t)width * size : size;
  uint64_t lo = mine < other ? mine : other, hi = mine < other ? other : mine;
  int one = lo == hi; /* one row, or two on the same bytes */
  if (size == 0 || (!one && hi - lo < len))
    return 0;
  int shared = space == PASTA_DIV_SHARED;
  if (shared && sectored && ((size & (size - 1)) != 0 || (lo | hi) % size))
    return 0; /* the bank rule below takes aligned powers of two */
  uint64_t distinct = one ? len : 2 * len;
  for (int i = 0; i < PASTA_DIV_NUM; ++i)
    f[i] = 0;
  f[shared ? PASTA_DIV_REQUESTS_SHARED : PASTA_DIV_REQUESTS_GLOBAL] = 1;
  f[PASTA_DIV_BYTES] = 32ull * size;
  f[shared ? PASTA_DIV_DISTINCT_SHARED : PASTA_DIV_DISTINCT_GLOBAL] = distinct;
  if (!sectored)
    return 1;
  if (!shared) {
    uint64_t sectors = pasta_div_span(lo, len, 5);
    if (!one) /* the two ranges may end and start in one sector */
      sectors +=
          pasta_div_span(hi, len, 5) - (((lo + len - 1) >> 5) == hi >> 5);
    f[PASTA_DIV_SECTORS] = sectors;
    f[PASTA_DIV_IDEAL_SECTORS] = (distinct + 31) / 32;
    return 1;
  }
  /* Within a row, consecutive elements or one: no conflict. Accesses of 8
   * bytes or more are served in phases of at most 16 lanes, each within a
   * row. Smaller ones are one phase of both rows: one element each
   * conflicts when the two words share a bank; 4-byte rows of 16 words
   * when their banks are not the two halves of the 32. */
  if (one || size >= 8)
    return 1;
  uint64_t w_lo = lo >> 2, w_hi = hi >> 2;
  if (stride == 0) {
    f[PASTA_DIV_BANK_CONFLICTS] = w_lo != w_hi && ((w_hi - w_lo) & 31) == 0;
    return 1;
  }
  if (size != 4)
    return 0;
  f[PASTA_DIV_BANK_CONFLICTS] = ((w_hi - w_lo) & 31) != 16;
  return 1;
}

/* Whether a full warp of rows proved lane-shaped (as
 * pasta_div_rows_figures takes them) has exactly the figures the pass
 * derives (pasta_div_lanes_derived, 32 lanes): then
 * __pasta_div_access_lanes adds nothing. One row of consecutive elements
 * from a 32-byte boundary (of elements a sector or more apart, from any
 * base), or of one element in one sector; two rows of
 * consecutive elements that do not overlap, each from a 32-byte boundary
 * (global, 2 bytes or more: whole sectors) or in the two halves of the
 * banks (shared, 4 bytes; 8 and more never conflict), or two rows on the
 * same element. In shared memory one row has the derived conflicts (none,
 * or those of its wider stride). The same in every lane. */
static PASTA_INLINE int pasta_div_rows_derived(uint64_t mine, uint64_t other,
                                               uint32_t width, uint32_t size,
                                               uint32_t stride, uint32_t space,
                                               uint32_t sectored) {
  int global = space == PASTA_DIV_GLOBAL && sectored;
  if (width == 32) {
    if (!global) /* aligned: the bank rule's phases hold whole elements */
      return space != PASTA_DIV_SHARED || !sectored ||
             ((size & (size - 1)) == 0 && mine % size == 0);
    /* a stride of a sector or more: a sector per lane from any base */
    return stride ? (mine & 31) == 0 || stride >= 32 : (mine & 31) + size <= 32;
  }
  uint64_t lo = mine < other ? mine : other, hi = mine < other ? other : mine;
  if (stride == 0) /* the derived distinct bytes are one element's */
    return lo == hi && (!global || (lo & 31) + size <= 32);
  if (hi - lo < (uint64_t)width * size)
    return 0;
  if (global) /* rows of whole sectors */
    return size >= 2 && ((lo | hi) & 31) == 0;
  if (space != PASTA_DIV_SHARED || !sectored)
    return 1;
  if ((size & (size - 1)) != 0 || (lo | hi) % size != 0)
    return 0;
  return size >= 8 || (size == 4 && (((hi - lo) >> 2) & 31) == 16);
}

/* The space of every lane of a full warp: `hint` when the pass knows it,
 * else PASTA_DIV_GLOBAL or PASTA_DIV_SHARED when all lanes are there, 0
 * otherwise. */
static PASTA_INLINE uint32_t pasta_div_warp_space(void *ptr, uint32_t hint) {
  if (hint != PASTA_DIV_GENERIC)
    return hint;
  uint64_t full = PASTA_DIV_FULL_WARP;
  if (pasta_div_lanes_in(full, ptr, hint, PASTA_DIV_SHARED) == full)
    return PASTA_DIV_SHARED;
  if (pasta_div_lanes_in(full, ptr, hint, PASTA_DIV_GLOBAL) == full)
    return PASTA_DIV_GLOBAL;
  return 0;
}

/* The base of this lane's row (its address less `stride` per lane before
 * it in the row), and the other row's base in `other`. */
static PASTA_INLINE uint64_t pasta_div_row_bases(uint64_t addr, uint32_t stride,
                                                 uint32_t width,
                                                 uint64_t *other) {
  uint32_t lane = __gpu_lane_id();
  uint64_t mine = addr - (uint64_t)stride * (lane & (width - 1));
  *other = width < 32
               ? __gpu_shuffle_idx_u64(PASTA_DIV_FULL_WARP, lane ^ 16, mine, 32)
               : mine;
  return mine;
}

static PASTA_INLINE int pasta_div_column_figures(uint64_t addr, uint64_t before,
                                                 uint32_t size, uint32_t space,
                                                 uint32_t sectored,
                                                 uint64_t f[PASTA_DIV_NUM]);

/* The figures of a full warp of rows whose shape is not known at compile
 * time (__pasta_div_access): its lanes' addresses are tested (each lane
 * but a row's first is `size` or 0 past the lane before; in one row of 32,
 * any one step: pasta_div_column_figures). Returns 0 when the shape or the
 * space does not hold. */
static PASTA_INLINE int pasta_div_rows_tested(void *ptr, uint32_t size,
                                              uint32_t hint, uint32_t sectored,
                                              uint32_t width,
                                              uint64_t f[PASTA_DIV_NUM]) {
  uint32_t space = pasta_div_warp_space(ptr, hint);
  if (!space)
    return 0;
  uint64_t full = PASTA_DIV_FULL_WARP;
  uint64_t addr = (uint64_t)(uintptr_t)ptr;
  uint32_t lane = __gpu_lane_id();
  uint64_t before = __gpu_shuffle_idx_u64(full, lane ? lane - 1 : 0, addr, 32);
  int inner = (lane & (width - 1)) != 0;
  uint32_t stride;
  if (__gpu_ballot(full, inner && addr - before != size) == 0)
    stride = size;
  else if (__gpu_ballot(full, inner && addr != before) == 0)
    stride = 0;
  else
    return width == 32 &&
           pasta_div_column_figures(addr, before, size, space, sectored, f);
  uint64_t other, mine = pasta_div_row_bases(addr, stride, width, &other);
  return pasta_div_rows_figures(mine, other, width, size, stride, space,
                                sectored, f);
}

/* Tallies of the rows and lone-lane paths, for the unit test only. */
#if defined(PASTA_DEVICE_RT_HOST_TEST)
static uint64_t pasta_div_fast_rows, pasta_div_fast_lone;
#endif

/* The figures of one active lane (a serial kernel, code under
 * `if (tid == 0)`): its access alone, no match, no warp sum: its bytes are
 * distinct, its sectors those it spans, and it has no bank conflict (the
 * bank rule takes an access's first word for it). */
static PASTA_INLINE void pasta_div_lone_figures(void *ptr, uint32_t size,
                                                uint32_t hint,
                                                uint32_t sectored,
                                                uint64_t lanes,
                                                uint64_t f[PASTA_DIV_NUM]) {
  uint64_t addr = (uint64_t)(uintptr_t)ptr;
  int global = pasta_div_lanes_in(lanes, ptr, hint, PASTA_DIV_GLOBAL) != 0;
  int shared = pasta_div_lanes_in(lanes, ptr, hint, PASTA_DIV_SHARED) != 0;
  for (int i = 0; i < PASTA_DIV_NUM; ++i)
    f[i] = 0;
  f[PASTA_DIV_REQUESTS_GLOBAL] = global;
  f[PASTA_DIV_REQUESTS_SHARED] = shared;
  f[PASTA_DIV_BYTES] = global || shared ? size : 0;
  f[PASTA_DIV_DISTINCT_GLOBAL] = global ? size : 0;
  f[PASTA_DIV_DISTINCT_SHARED] = shared ? size : 0;
  if (sectored && global && size != 0) {
    f[PASTA_DIV_SECTORS] = pasta_div_span(addr, size, 5);
    f[PASTA_DIV_IDEAL_SECTORS] = ((uint64_t)size + 31) / 32;
  }
}

/* Adds f less d (the figures the pass derives, or none) to the registers,
 * in the first active lane only; returns whether this lane added. */
static PASTA_INLINE uint32_t pasta_div_add_figures(
    uint64_t lanes, const uint64_t f[PASTA_DIV_NUM],
    const uint64_t d[PASTA_DIV_NUM], PASTA_PRIVATE uint32_t *requests_global,
    PASTA_PRIVATE uint32_t *requests_shared, PASTA_PRIVATE uint32_t *bytes,
    PASTA_PRIVATE uint32_t *distinct_global,
    PASTA_PRIVATE uint32_t *distinct_shared, PASTA_PRIVATE uint32_t *sectors,
    PASTA_PRIVATE uint32_t *ideal_sectors,
    PASTA_PRIVATE uint32_t *bank_conflicts) {
  if (!pasta_div_first(lanes))
    return 0;
  uint32_t g[PASTA_DIV_NUM];
  for (int i = 0; i < PASTA_DIV_NUM; ++i) /* modulo 2^32: exact once derived */
    g[i] = (uint32_t)(f[i] - (d ? d[i] : 0));
  *requests_global += g[PASTA_DIV_REQUESTS_GLOBAL];
  *requests_shared += g[PASTA_DIV_REQUESTS_SHARED];
  *bytes += g[PASTA_DIV_BYTES];
  *distinct_global += g[PASTA_DIV_DISTINCT_GLOBAL];
  *distinct_shared += g[PASTA_DIV_DISTINCT_SHARED];
  *sectors += g[PASTA_DIV_SECTORS];
  *ideal_sectors += g[PASTA_DIV_IDEAL_SECTORS];
  *bank_conflicts += g[PASTA_DIV_BANK_CONFLICTS];
  return 1;
}

/* One warp-level execution of a memory access of `size` bytes at `ptr`:
 * `hint` is its address space when the pass knows it (PASTA_DIV_GLOBAL,
 * PASTA_DIV_SHARED), else PASTA_DIV_GENERIC; `sectored` is 1 for loads and
 * stores (sectors and bank conflicts are counted for those only, as ncu's
 * ld/st metrics do), 0 for atomics; `width` is __pasta_div_row_width().
 * Local (stack) accesses of generic pointers are left out. Returns whether
 * this lane added to the registers (0 in every lane of a warp whose figures
 * are all derived), so that the pass adds them to the counters only then. */
PASTA_INLINE uint32_t __pasta_div_access(
    void *ptr, uint32_t size, uint32_t hint, uint32_t sectored, uint32_t width,
    PASTA_PRIVATE uint32_t *requests_global,
    PASTA_PRIVATE uint32_t *requests_shared, PASTA_PRIVATE uint32_t *bytes,
    PASTA_PRIVATE uint32_t *distinct_global,
    PASTA_PRIVATE uint32_t *distinct_shared, PASTA_PRIVATE uint32_t *sectors,
    PASTA_PRIVATE uint32_t *ideal_sectors,
    PASTA_PRIVATE uint32_t *bank_conflicts) {
  uint64_t lanes = __gpu_lane_mask();
  uint64_t full = __gpu_num_lanes() == 64 ? ~0ull : 0xffffffffull;
  uint64_t f[PASTA_DIV_NUM];
  if (lanes == PASTA_DIV_FULL_WARP && (width == 16 || width == 32) &&
      pasta_div_rows_tested(ptr, size, hint, sectored, width, f)) {
    PASTA_DIV_TALLY(pasta_div_fast_rows, lanes);
  } else if ((lanes & (lanes - 1)) == 0) {
    PASTA_DIV_TALLY(pasta_div_fast_lone, lanes);
    pasta_div_lone_figures(ptr, size, hint, sectored, lanes, f);
  } else if (lanes == full) {
    /* A full warp (the usual case) with the mask a constant: ptxas then
     * checks no lane mask at each shuffle, vote and warp sum. */
    pasta_div_access_figures(ptr, size, hint, sectored, full, f);
  } else {
    pasta_div_access_figures(ptr, size, hint, sectored, lanes, f);
  }
  return pasta_div_add_figures(lanes, f, 0, requests_global, requests_shared,
                               bytes, distinct_global, distinct_shared, sectors,
                               ideal_sectors, bank_conflicts);
}

/* The width of the rows of lanes a warp holds (the access helpers' fast
 * paths): 32 when lane i of every warp holds thread index x = 32k + i (a
 * one-dimensional block, or rows of whole warps); the x dimension when it
 * divides 32 (a 16 x 16 tile: two rows of 16 lanes); 0 when rows straddle
 * warps. Called once per call, at the entry. */
PASTA_INLINE uint32_t __pasta_div_row_width(void) {
  uint32_t x = __gpu_num_threads_x();
  if (__gpu_num_lanes() != 32)
    return 0;
  if ((x & 31) == 0 ||
      (__gpu_num_threads_y() == 1 && __gpu_num_threads_z() == 1))
    return 32;
  /* x divides 32 when it is a power of 2 below it (no remainder: a
   * division costs each warp some twenty instructions at every call). */
  return x < 32 && (x & (x - 1)) == 0 ? x : 0;
}

/* Tallies the one-row path of partial warps, for the unit test only. */
#if defined(PASTA_DEVICE_RT_HOST_TEST)
static uint64_t pasta_div_fast_lanes;
#endif

/* Distinct 32-byte sectors of `lanes` (lane i at base + stride * i, `base`
 * aligned to `size` <= 32, `stride` a multiple of it and a power of 2 up to
 * 32, so no lane straddles): the lanes of one sector are 32 / stride
 * consecutive ones from lane -k, k = (base mod 32) / stride, so the answer
 * is the non-empty groups of 32 / stride bits in lanes << k. */
static PASTA_INLINE uint64_t pasta_div_consecutive_sectors(uint64_t lanes,
                                                           uint64_t base,
                                                           uint32_t size,
                                                           uint32_t stride) {
  /* One run of consecutive lanes (a full warp, or a stencil's edge warp with
   * its first or last lanes off) covers one run of bytes with gaps under a
   * sector: the sectors from its first byte's to its last byte's. */
  uint32_t first = (uint32_t)__builtin_ctzll(lanes);
  uint32_t last = 63u - (uint32_t)__builtin_clzll(lanes);
  uint64_t run = lanes >> first;
  if ((run & (run + 1)) == 0)
    return pasta_div_span(base + (uint64_t)stride * first,
                          (uint64_t)stride * (last - first) + size, 5);
  uint32_t group = 32u / stride; /* lanes per sector: 1..32, a power of 2 */
  uint64_t bits = lanes << ((base & 31) / stride);
  for (uint32_t s = 1; s < group; s <<= 1)
    bits |= bits >> s;
  uint64_t low = 0; /* bit 0 of each group */
  for (uint32_t b = 0; b < 64; b += group)
    low |= 1ull << b;
  return (uint64_t)__builtin_popcountll(bits & low);
}

/* Lanes per bank of a full warp whose lane i reads the word `words` * i
 * past lane 0's (banks repeat every 32 words): gcd(words, 32). */
static PASTA_INLINE uint32_t pasta_div_lanes_per_bank(uint32_t words) {
  uint32_t twos = words ? (uint32_t)__builtin_ctz(words) : 5u;
  return 1u << (twos < 5u ? twos : 5u);
}

/* The wavefronts of a shared access of at most 4 bytes by `lanes` (one
 * row: lane i at base + stride * i, stride a multiple of 4): lanes i and j
 * share a bank when (i - j) * stride / 4 is a multiple of 32, that is when
 * i = j modulo 32 / pasta_div_lanes_per_bank; the fullest of those classes
 * of lanes. */
static PASTA_INLINE uint64_t pasta_div_strided_wavefronts(uint64_t lanes,
                                                          uint32_t stride) {
  uint32_t classes = 32u / pasta_div_lanes_per_bank(stride / 4);
  if (classes == 32)
    return 1;
  /* every `classes`-th lane from lane 0 (a constant once inlined) */
  uint64_t every = classes == 1   ? 0xffffffffull
                   : classes == 2 ? 0x55555555ull
                   : classes == 4 ? 0x11111111ull
                   : classes == 8 ? 0x01010101ull
                                  : 0x00010001ull;
  uint64_t most = 0;
  for (uint32_t r = 0; r < classes; ++r) {
    uint64_t n = (uint64_t)__builtin_popcountll((lanes >> r) & every);
    most = n > most ? n : most;
  }
  return most;
}

/* The figures of a full warp of one row whose lanes' addresses are one
 * step apart (lane i at base + step * i: a column walk, x * n), the step
 * known only at run time, when the mask arithmetic of wider strides covers
 * it (as passes/Divergence.cpp, lanesHelperTakes, allows at compile time:
 * a multiple of a power-of-2 size up to 32, wider than it; a multiple of 4
 * for shared loads and stores of up to 4 bytes, 32 or more or a power of 2
 * for global ones). `before` is the lane below's address. Returns 0,
 * computing nothing, otherwise. */
static PASTA_INLINE int pasta_div_column_figures(uint64_t addr, uint64_t before,
                                                 uint32_t size, uint32_t space,
                                                 uint32_t sectored,
                                                 uint64_t f[PASTA_DIV_NUM]) {
  uint64_t full = PASTA_DIV_FULL_WARP;
  uint32_t lane = __gpu_lane_id();
  uint64_t step = __gpu_shuffle_idx_u64(full, 1, addr - before, 32);
  if (__gpu_ballot(full, lane != 0 && addr - before != step) != 0)
    return 0;
  uint64_t base = addr - step * lane;
  int shared = space == PASTA_DIV_SHARED;
  if (size == 0 || size > 32 || (size & (size - 1)) != 0 || step <= size ||
      step > 0x7fffffffull || step % size != 0 || base % size != 0)
    return 0;
  if (sectored && (shared ? size > 4 || step % 4 != 0
                          : step < 32 && (step & (step - 1)) != 0))
    return 0;
  for (int i = 0; i < PASTA_DIV_NUM; ++i)
    f[i] = 0;
  f[shared ? PASTA_DIV_REQUESTS_SHARED : PASTA_DIV_REQUESTS_GLOBAL] = 1;
  f[PASTA_DIV_BYTES] = 32ull * size;
  f[shared ? PASTA_DIV_DISTINCT_SHARED : PASTA_DIV_DISTINCT_GLOBAL] =
      32ull * size;
  if (!sectored)
    return 1;
  if (shared) {
    f[PASTA_DIV_BANK_CONFLICTS] =
        pasta_div_lanes_per_bank((uint32_t)(step / 4)) - 1;
    return 1;
  }
  /* a sector per lane, or the sectors from the first byte's to the last's
   * (steps under a sector leave no sector out) */
  f[PASTA_DIV_SECTORS] =
      step >= 32 ? 32 : pasta_div_span(base, step * 31 + size, 5);
  f[PASTA_DIV_IDEAL_SECTORS] = size; /* 32 * size bytes */
  return 1;
}

/* What the pass derives from the block's counters for a lane-shaped access
 * of a known space (passes/Divergence.cpp, deriveLaneShaped), per
 * warp-level execution of `active` lanes: its requests and bytes (as for
 * every known space), its distinct bytes (its size per active lane, or per
 * execution for stride 0), for a global load or store the sectors and
 * ideal sectors of a full warp from a 32-byte boundary (1 and
 * ceil(size / 32) for stride 0; else the size for stride = size, and the
 * stride, at most 32, for a wider one), and for a shared one at a wider
 * stride a full warp's bank conflicts. */
static PASTA_INLINE void pasta_div_lanes_derived(uint32_t size, uint32_t stride,
                                                 uint32_t space,
                                                 uint32_t sectored,
                                                 uint64_t active,
                                                 uint64_t d[PASTA_DIV_NUM]) {
  int shared = space == PASTA_DIV_SHARED;
  int wider = stride != 0 && stride != size;
  for (int i = 0; i < PASTA_DIV_NUM; ++i)
    d[i] = 0;
  d[shared ? PASTA_DIV_REQUESTS_SHARED : PASTA_DIV_REQUESTS_GLOBAL] = 1;
  d[PASTA_DIV_BYTES] = (uint64_t)size * active;
  d[shared ? PASTA_DIV_DISTINCT_SHARED : PASTA_DIV_DISTINCT_GLOBAL] =
      stride ? (uint64_t)size * active : size;
  if (!sectored)
    return;
  if (shared) {
    if (wider)
      d[PASTA_DIV_BANK_CONFLICTS] = pasta_div_lanes_per_bank(stride / 4) - 1;
    return;
  }
  d[PASTA_DIV_SECTORS] = !stride       ? 1
                         : !wider      ? size
                         : stride < 32 ? stride
                                       : 32;
  d[PASTA_DIV_IDEAL_SECTORS] = stride ? size : (size + 31) / 32;
}

/* __pasta_div_access for an access the pass proved to be, in a warp whose
 * lanes form rows of thread index x (`width`, __pasta_div_row_width), at a
 * base uniform in each row plus `stride` bytes per thread index x, with
 * stride 0 (every lane of a row the same element), the access size
 * (consecutive elements), or a wider one the pass allows for the access
 * (passes/Divergence.cpp, lanesHelperTakes: a power-of-2 size up to 32, a
 * multiple of 4 for shared loads and stores of at most 4 bytes, 32 or more
 * or a power of 2 for global ones). For a known space, what the pass derives
 * from the block's counters (pasta_div_lanes_derived) is not added here: only
 * the measured figures' difference from it, which is 0 for a full warp of
 * aligned rows (modulo 2^64 otherwise: the sums are exact once derived).
 * One row at a base aligned to the size (a warp of 32-lane rows, or one
 * active row of two): a full warp with the derived figures returns at
 * once, any other takes arithmetic on the mask (the first active lane
 * alone). Full warps of two rows at stride 0 or the size: the rows path.
 * The rest: the general path. Returns what __pasta_div_access returns. */
PASTA_INLINE uint32_t __pasta_div_access_lanes(
    void *ptr, uint32_t size, uint32_t stride, uint32_t hint, uint32_t sectored,
    uint32_t width, PASTA_PRIVATE uint32_t *requests_global,
    PASTA_PRIVATE uint32_t *requests_shared, PASTA_PRIVATE uint32_t *bytes,
    PASTA_PRIVATE uint32_t *distinct_global,
    PASTA_PRIVATE uint32_t *distinct_shared, PASTA_PRIVATE uint32_t *sectors,
    PASTA_PRIVATE uint32_t *ideal_sectors,
    PASTA_PRIVATE uint32_t *bank_conflicts) {
  if (hint == PASTA_DIV_GENERIC) /* nothing derived */
    return __pasta_div_access(ptr, size, hint, sectored, width, requests_global,
                              requests_shared, bytes, distinct_global,
                              distinct_shared, sectors, ideal_sectors,
                              bank_conflicts);
  uint64_t addr = (uint64_t)(uintptr_t)ptr;
  uint64_t lanes = __gpu_lane_mask();
  uint64_t f[PASTA_DIV_NUM], d[PASTA_DIV_NUM];
  /* Lanes of one row: a warp of 32-lane rows, or only one of the two rows
   * of 16 active (a branch on the thread index y). */
  int one_row =
      width == 32 ||
      (width == 16 && ((lanes & 0xffffull) == 0 || (lanes >> 16) == 0));
  if (one_row && size != 0 && size <= 32 && (size & (size - 1)) == 0 &&
      (addr - (uint64_t)stride * __gpu_lane_id()) % size == 0) {
    /* One row (lane i at base + stride * i, base aligned to the size): a
     * full warp from a 32-byte boundary has the derived figures; else
     * distinct bytes and a stride-0 access's sectors are still the derived
     * ones, and a strided global load's or store's sectors follow from the
     * mask. */
    uint64_t base = addr - (uint64_t)stride * __gpu_lane_id();
    if (lanes == PASTA_DIV_FULL_WARP &&
        pasta_div_rows_derived(base, base, 32, size, stride, hint, sectored)) {
      PASTA_DIV_TALLY(pasta_div_fast_rows, lanes);
      return 0;
    }
    if (!pasta_div_first(lanes))
      return 0;
    PASTA_DIV_TALLY(pasta_div_fast_lanes, lanes);
    if (!sectored || stride == 0)
      return 0;
    pasta_div_lanes_derived(size, stride, hint, sectored, 0, d);
    if (hint == PASTA_DIV_SHARED) {
      if (stride == size) /* consecutive words: no conflict */
        return 0;
      *bank_conflicts +=
          (uint32_t)(pasta_div_strided_wavefronts(lanes, stride) - 1 -
                     d[PASTA_DIV_BANK_CONFLICTS]);
      return 1;
    }
    uint64_t active = (uint64_t)__builtin_popcountll(lanes);
    uint64_t measured =
        stride >= 32 ? active
                     : pasta_div_consecutive_sectors(lanes, base, size, stride);
    *sectors += (uint32_t)(measured - d[PASTA_DIV_SECTORS]);
    *ideal_sectors += (uint32_t)(((uint64_t)size * active + 31) / 32 - size);
    return 1;
  }
  /* Two rows take consecutive elements or one element per row only. */
  if (lanes == PASTA_DIV_FULL_WARP && width == 16 &&
      (stride == 0 || stride == size)) {
    uint64_t other, mine = pasta_div_row_bases(addr, stride, width, &other);
    if (pasta_div_rows_derived(mine, other, width, size, stride, hint,
                               sectored)) {
      PASTA_DIV_TALLY(pasta_div_fast_rows, lanes);
      return 0;
    }
    if (pasta_div_rows_figures(mine, other, width, size, stride, hint, sectored,
                               f)) {
      PASTA_DIV_TALLY(pasta_div_fast_rows, lanes);
      pasta_div_lanes_derived(size, stride, hint, sectored, 32, d);
      return pasta_div_add_figures(
          lanes, f, d, requests_global, requests_shared, bytes, distinct_global,
          distinct_shared, sectors, ideal_sectors, bank_conflicts);
    }
  }
  pasta_div_access_figures(ptr, size, hint, sectored, lanes, f);
  pasta_div_lanes_derived(size, stride, hint, sectored,
                          (uint64_t)__builtin_popcountll(lanes), d);
  return pasta_div_add_figures(lanes, f, d, requests_global, requests_shared,
                               bytes, distinct_global, distinct_shared, sectors,
                               ideal_sectors, bank_conflicts);
}

/* Out of line, for divergence copies with many measured accesses
 * (passes/Divergence.cpp, OutOfLineAccessGroups): what __pasta_div_access
 * and __pasta_div_access_lanes add, written to out[0..8) (requests global,
 * requests shared, bytes, distinct global, distinct shared, sectors, ideal
 * sectors, bank conflicts), zeroed first; the pass adds them to its
 * registers. Inlined at each of hundreds of accesses, the helpers made the
 * copy of a big kernel tens of times its size, and ptxas's time grew
 * faster than that. */
PASTA_ENTRY uint32_t __pasta_div_access_out(void *ptr, uint32_t size,
                                            uint32_t hint, uint32_t sectored,
                                            uint32_t width,
                                            PASTA_PRIVATE uint32_t *out) {
  for (int k = 0; k < 8; ++k)
    out[k] = 0;
  return __pasta_div_access(ptr, size, hint, sectored, width, &out[0], &out[1],
                            &out[2], &out[3], &out[4], &out[5], &out[6],
                            &out[7]);
}

PASTA_ENTRY uint32_t __pasta_div_access_lanes_out(
    void *ptr, uint32_t size, uint32_t stride, uint32_t hint, uint32_t sectored,
    uint32_t width, PASTA_PRIVATE uint32_t *out) {
  for (int k = 0; k < 8; ++k)
    out[k] = 0;
  return __pasta_div_access_lanes(ptr, size, stride, hint, sectored, width,
                                  &out[0], &out[1], &out[2], &out[3], &out[4],
                                  &out[5], &out[6], &out[7]);
}

/* One warp-level execution of a two-way conditional branch: divergent when
 * the active lanes do not all take the same side. */
PASTA_INLINE void __pasta_div_branch(uint32_t taken,
                                     PASTA_PRIVATE uint32_t *branches,
                                     PASTA_PRIVATE uint32_t *divergent) {
  uint64_t lanes = __gpu_lane_mask();
  uint64_t yes = __gpu_ballot(lanes, taken != 0);
  if (!pasta_div_first(lanes))
    return;
  *branches += 1;
  *divergent += yes != 0 && yes != lanes;
}

/* The same for a multi-way branch (switch): divergent when the active lanes
 * do not all hold the same value. */
PASTA_INLINE void __pasta_div_switch(uint64_t value,
                                     PASTA_PRIVATE uint32_t *branches,
                                     PASTA_PRIVATE uint32_t *divergent) {
  uint64_t lanes = __gpu_lane_mask();
  uint64_t same = __gpu_match_any_u64(lanes, value);
  if (!pasta_div_first(lanes))
    return;
  *branches += 1;
  *divergent += same != lanes;
}

/* One warp-level execution of `insts` instructions of one source line in a
 * block: they count as warp-level and as thread-level (active lanes)
 * executions; the ratio of the sums is the active lanes per executed
 * instruction. */
PASTA_INLINE void __pasta_div_block(uint32_t insts,
                                    PASTA_PRIVATE uint32_t *warps,
                                    PASTA_PRIVATE uint32_t *threads) {
  uint64_t lanes = __gpu_lane_mask();
  if (!pasta_div_first(lanes))
    return;
  *warps += insts;
  *threads += insts * (uint32_t)__builtin_popcountll(lanes);
}

/* The three above for code outside loops, which runs at most once per call:
 * the first active lane adds straight to the counters, with no register
 * and no test of the values (each helper's code is run by the whole warp,
 * so a test per value costs every warp). The block's active lanes go to
 * `threads` only when `with_threads` (a constant: a null pointer would not
 * fold, as 0 is a valid global address). */
PASTA_INLINE void __pasta_div_branch_add(uint32_t taken,
                                         PASTA_GLOBAL uint64_t *divergent) {
  uint64_t lanes = __gpu_lane_mask();
  uint64_t yes = __gpu_ballot(lanes, taken != 0);
  uint64_t below = pasta_div_below(lanes);
  uint64_t hidden = pasta_div_hidden_below(below);
  if (below == 0 && yes != 0 && yes != lanes)
    pasta_div_lone_add(divergent, 1, hidden);
}

PASTA_INLINE void __pasta_div_switch_add(uint64_t value,
                                         PASTA_GLOBAL uint64_t *divergent) {
  uint64_t lanes = __gpu_lane_mask();
  uint64_t same = __gpu_match_any_u64(lanes, value);
  uint64_t below = pasta_div_below(lanes);
  uint64_t hidden = pasta_div_hidden_below(below);
  if (below == 0 && same != lanes)
    pasta_div_lone_add(divergent, 1, hidden);
}

/* At a kernel's entry, in its divergence copy: the grid's first thread adds
 * the warps and the threads the launch started, which are the entry block's
 * warp-level executions and their active lanes (every warp runs the entry
 * once, with all its lanes), so that no warp measures them. */
PASTA_INLINE void __pasta_div_count_launch(PASTA_GLOBAL uint64_t *warps,
                                           PASTA_GLOBAL uint64_t *threads) {
  if (!pasta_first_thread_of_grid())
    return;
  uint64_t blocks = pasta_grid_blocks();
  pasta_atomic_add(warps, blocks * pasta_block_warps());
  pasta_atomic_add(threads, blocks * pasta_block_threads());
}

PASTA_INLINE void __pasta_div_block_add(PASTA_GLOBAL uint64_t *warps,
                                        PASTA_GLOBAL uint64_t *threads,
                                        uint32_t with_threads) {
  uint64_t lanes = __gpu_lane_mask();
  uint64_t below = pasta_div_below(lanes);
  uint64_t hidden = pasta_div_hidden_below(below);
  if (below != 0)
    return;
  pasta_div_lone_add(warps, 1, hidden);
  if (with_threads)
    pasta_div_lone_add(threads, (uint64_t)__builtin_popcountll(lanes), hidden);
}

/* Adds an access's figure to its counter where it was measured, when that
 * code runs at most once per call (no loop around it): the access helpers
 * leave it in the first active lane and 0 in the others, so only that lane
 * adds, and the figure needs neither a register nor a warp sum at the
 * return. The copies call it only where the helper returned nonzero;
 * blocks, branches and switches there add through the *_add helpers. */
PASTA_INLINE void __pasta_div_add(PASTA_GLOBAL uint64_t *counter,
                                  uint64_t value) {
  if (value != 0)
    pasta_atomic_add(counter, value);
}

/* 1 in every active lane when `pred` is the same in all of them (all true or
 * all false), else 0: whether an address that selects per lane between two
 * of one lane stride (`x > 0 ? a[x - 1] : a[x]`) has that stride in this
 * warp execution. */
PASTA_INLINE uint32_t __pasta_div_uniform(uint32_t pred) {
  uint64_t lanes = __gpu_lane_mask();
  uint64_t yes = __gpu_ballot(lanes, pred != 0);
  return yes == 0 || yes == lanes;
}

/* 1 in every active lane when `pred` holds in all of them, else 0: what the
 * divergence copies test once at a loop's entry for a condition each lane
 * computes (e.g. that its index does not wrap in the loop). */
PASTA_INLINE uint32_t __pasta_div_all_lanes(uint32_t pred) {
  return __gpu_ballot(__gpu_lane_mask(), pred == 0) == 0;
}
