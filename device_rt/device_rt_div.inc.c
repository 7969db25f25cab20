/*===- device_rt_div.inc.c - divergence mode, general helpers --------------===*
 * Part of device_rt.c, which includes it: one translation unit (and one
 * bitcode) per GPU target. Not compiled on its own.
 *===----------------------------------------------------------------------===*/

/*===- Divergence mode: warp-level memory and branch figures --------------===*
 * The divergence copy of a kernel (passes/DivergenceMeasures.cpp) calls these
 * at each memory access, conditional branch and counted block. Every active
 * lane computes the same warp-level figure with ballots, match_any and
 * shuffles; only the first active lane adds it to its per-thread register (the
 * pointers are allocas the pass promotes), so the flush at exit, a warp sum,
 * yields the warp-level total. No atomics run while the kernel runs.
 *
 * The registers are 32 bits wide (a 64-bit one takes two of the copy's
 * registers, and the copies run under a register cap). One call adds little:
 * at most 64 lanes times the access size. The copies read a register as a
 * signed value, since an access helper adds its measured figures less those
 * the pass derives, which may be negative, and flush it before it can hold
 * 2^31 (passes/DivergenceMeasures.cpp, "drain").
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
  return pasta_redux_add_u32(lanes, value);
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
 * nothing, when the starts are out of order. `aligned`: every lane's
 * address is a multiple of the size, a power of 2 up to 32 (a constant in
 * the copies). */
static PASTA_INLINE int pasta_div_ordered_units(uint64_t lanes, uint64_t order,
                                                uint64_t addr, uint32_t size,
                                                uint32_t sectored, int aligned,
                                                uint64_t *bytes,
                                                uint64_t *sectors) {
  uint32_t lane = __gpu_lane_id();
  int in = (order >> lane) & 1;
  uint64_t below = order & ((1ull << lane) - 1); /* lane < 64 */
  /* In a whole warp the lane below is lane - 1 (a constant `order` folds
   * the test, and the search for the nearest lane below goes). */
  uint64_t full = __gpu_num_lanes() == 64 ? ~0ull : 0xffffffffull;
  uint32_t prev_lane = order == full ? (lane ? lane - 1 : lane)
                       : below       ? 63u - (uint32_t)__builtin_clzll(below)
                                     : lane;
  uint64_t prev =
      __gpu_shuffle_idx_u64(lanes, prev_lane, addr, __gpu_num_lanes());
  if (__gpu_ballot(lanes, in && addr < prev) != 0)
    return 0;
  if (aligned) {
    /* Aligned elements of one size coincide or are disjoint, and each lies
     * in one sector: a lane adds its element when its address differs from
     * the lane's below, its sector when the sector number does; one ballot
     * each instead of the ranges' 64-bit arithmetic and two warp sums. */
    int first = in && !below;
    *bytes = size * (uint64_t)__builtin_popcountll(
                        __gpu_ballot(lanes, first || (in && addr != prev)));
    *sectors = sectored ? (uint64_t)__builtin_popcountll(__gpu_ballot(
                              lanes, first || (in && addr >> 5 != prev >> 5)))
                        : 0;
    return 1;
  }
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

/* How pasta_div_units may take an access's units (flags). */
enum {
  /* Try the ordered fast path (loads and stores). */
  PASTA_DIV_UNITS_ORDERED = 1,
  /* Try it again without lanes that repeat the lane 16 below: only where
   * rows of 16 lanes may be (not in rows of 32, a one-dimensional block). */
  PASTA_DIV_UNITS_REPEATS = 2,
  /* Every lane's address is a multiple of the size (the IR says so:
   * PASTA_DIV_ALIGNED), so no ballot tests it. */
  PASTA_DIV_UNITS_ALIGNED = 4,
  /* Try the aligned path (__pasta_div_access: the lanes helper's general
   * path, whose lanes rarely get there aligned and scattered, keeps the
   * general count alone, and its copies' registers). */
  PASTA_DIV_UNITS_TRY_ALIGNED = 8,
};

/* The flags of a load or store (`sectored`) or an atomic in a warp of rows
 * `width` lanes wide (0: not known). */
static PASTA_INLINE uint32_t pasta_div_units_flags(uint32_t sectored,
                                                   uint32_t width) {
  if (!sectored)
    return 0;
  return PASTA_DIV_UNITS_ORDERED | (width == 32 ? 0 : PASTA_DIV_UNITS_REPEATS);
}

/* Tallies of the aligned path, for the unit test only. */
#if defined(PASTA_DEVICE_RT_HOST_TEST)
static uint64_t pasta_div_fast_aligned;
#endif

/* Whether the aligned path below takes accesses of `size` bytes: a power
 * of 2 up to 32 (a constant in the copies, so the test folds). */
static PASTA_INLINE int pasta_div_aligned_size(uint32_t size) {
  return size != 0 && size <= 32 && (size & (size - 1)) == 0;
}

#if defined(__NVPTX__) && PASTA_NVPTX_REDUX
/* One redux.sync `op` (min, max, or) of `value` over the lanes of `lanes`. */
#define PASTA_DIV_REDUX(op, type)                                              \
  static PASTA_INLINE uint32_t pasta_div_redux_##op(uint64_t lanes,            \
                                                    uint32_t value) {          \
    uint32_t r;                                                                \
    __asm__ volatile("redux.sync." #op "." #type " %0, %1, %2;"                \
                     : "=r"(r)                                                 \
                     : "r"(value), "r"((uint32_t)lanes));                      \
    return r;                                                                  \
  }
PASTA_DIV_REDUX(min, u32)
PASTA_DIV_REDUX(max, u32)
PASTA_DIV_REDUX(or, b32)
#undef PASTA_DIV_REDUX

/* The distinct keys of a full warp's narrow keys, each a multiple of
 * `size` (a power of 2 up to 32), when they lie within 256 sizes of the
 * lowest (a histogram's bins): the bits of a 256-bit set of their offsets
 * from it, two redux.sync for the lowest and highest and eight for the
 * set's words, in place of a match_any (which stalls a warp far longer
 * than a redux; bench/div_atomic_parts.cu). The low 32 bits of keys within
 * 2^32 of each other are distinct where the keys are; a span wrapping
 * past 2^32 in them is too wide here. Returns 0 when the keys are not
 * within the window (a count is never 0 in a full warp). */
static PASTA_INLINE uint32_t pasta_div_window_keys(uint64_t lanes, uint64_t key,
                                                   uint32_t size) {
  uint32_t shift = (uint32_t)__builtin_ctz(size);
  uint32_t k = (uint32_t)key, low = pasta_div_redux_min(lanes, k);
  if ((pasta_div_redux_max(lanes, k) - low) >> shift >= 256)
    return 0;
  uint32_t offset = (k - low) >> shift, word = offset >> 5, count = 0;
  for (uint32_t w = 0; w < 8; ++w)
    count += (uint32_t)__builtin_popcount(
        pasta_div_redux_or(lanes, word == w ? 1u << (offset & 31) : 0));
  return count;
}
#endif

/* The distinct addresses of `subset`'s lanes, each a multiple of `size`:
 * by the 256-bit window in a full warp of narrow keys (sm_80 and later),
 * else by the groups of a match_any (pasta_div_key_leaders). */
static PASTA_INLINE uint64_t pasta_div_distinct_aligned_keys(
    uint64_t lanes, uint64_t subset, uint64_t key, uint32_t size, int narrow) {
#if defined(__NVPTX__) && PASTA_NVPTX_REDUX
  if (narrow && subset == lanes && lanes == 0xffffffffull) {
    uint32_t count = pasta_div_window_keys(lanes, key, size);
    if (count)
      return count;
  }
#else
  (void)size;
#endif
  return (uint64_t)__builtin_popcountll(
      pasta_div_key_leaders(lanes, subset, key, narrow));
}

/* Distinct bytes and sectors of an access of such a size whose lanes are
 * all aligned to it (the caller's ballot): ranges of one length at
 * multiples of it coincide or are disjoint, and none straddles a sector, so
 * the bytes are the size times the distinct addresses and the sectors the
 * distinct sector numbers, one match_any each (one in all for 32 bytes),
 * without the general path's shuffle of a length and test of each
 * start. */
static PASTA_INLINE void
pasta_div_aligned_units(uint64_t lanes, uint64_t subset, uint64_t addr,
                        uint32_t size, uint32_t sectored, int narrow,
                        uint64_t *bytes, uint64_t *sectors) {
  uint64_t distinct =
      pasta_div_distinct_aligned_keys(lanes, subset, addr, size, narrow);
  *bytes = size * distinct;
  if (sectored)
    *sectors = size == 32
                   ? distinct
                   : (uint64_t)__builtin_popcountll(
                         pasta_div_key_leaders(lanes, subset, addr >> 5, 0));
}

/* Distinct bytes and (when `sectored`) 32-byte sectors of one access by
 * the lanes of `subset`: the ordered fast path if the flags ask for it and
 * it applies (tried as is, then, with PASTA_DIV_UNITS_REPEATS, without
 * lanes that repeat the lane 16 below), else, for a power-of-2 size up
 * to 32 with every lane aligned to it, the aligned one, else the general
 * one; `narrow` for shared memory (pasta_div_key_leaders). */
static PASTA_INLINE void pasta_div_units(uint64_t lanes, uint64_t subset,
                                         uint64_t addr, uint32_t size,
                                         uint32_t sectored, uint32_t flags,
                                         int narrow, uint64_t *bytes,
                                         uint64_t *sectors) {
  *bytes = *sectors = 0;
  if (!subset)
    return;
  int aligned =
      (flags & PASTA_DIV_UNITS_ALIGNED) && pasta_div_aligned_size(size);
  if (size <= 64 && (flags & PASTA_DIV_UNITS_ORDERED) &&
      (pasta_div_ordered_units(lanes, subset, addr, size, sectored, aligned,
                               bytes, sectors) ||
       ((flags & PASTA_DIV_UNITS_REPEATS) &&
        pasta_div_ordered_units(
            lanes, subset & ~pasta_div_repeats(lanes, subset, addr), addr, size,
            sectored, aligned, bytes, sectors)))) {
    PASTA_DIV_TALLY(pasta_div_fast_ordered, lanes);
    return;
  }
  uint64_t last = addr + (size ? size - 1 : 0);
  if ((flags & PASTA_DIV_UNITS_TRY_ALIGNED) && pasta_div_aligned_size(size)) {
    /* One ballot: every lane aligned takes the aligned path; else the
     * bytes need the general count (pasta_div_distinct_units would find
     * the same lane off its alignment). */
    int in = (subset >> __gpu_lane_id()) & 1;
    if ((flags & PASTA_DIV_UNITS_ALIGNED) ||
        __gpu_ballot(lanes, in && (addr & (size - 1)) != 0) == 0) {
      PASTA_DIV_TALLY(pasta_div_fast_aligned, lanes);
      pasta_div_aligned_units(lanes, subset, addr, size, sectored, narrow,
                              bytes, sectors);
      return;
    }
    *bytes = pasta_div_distinct_units_slow(lanes, subset, addr, last);
  } else {
    *bytes = pasta_div_distinct_units(lanes, subset, addr, last, size, narrow);
  }
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
 * lane, indexed by enum pasta_div_index; `width` is the warp's row width
 * (__pasta_div_row_width) or 0 when not known; `aligned`: 0 for the
 * general count alone, PASTA_DIV_UNITS_TRY_ALIGNED for the aligned path
 * first, with PASTA_DIV_UNITS_ALIGNED when the IR says that the address is
 * a multiple of the size (PASTA_DIV_ALIGNED). */
static PASTA_INLINE void
pasta_div_access_figures(void *ptr, uint32_t size, uint32_t hint,
                         uint32_t sectored, uint32_t width, uint32_t aligned,
                         uint64_t lanes, uint64_t f[PASTA_DIV_NUM]) {
  uint64_t addr = (uint64_t)(uintptr_t)ptr;
  uint64_t global = pasta_div_lanes_in(lanes, ptr, hint, PASTA_DIV_GLOBAL);
  uint64_t shared = pasta_div_lanes_in(lanes, ptr, hint, PASTA_DIV_SHARED);
  uint64_t unused;
  /* Atomics skip the ordered attempts: the copies send here only those
   * whose addresses the pass cannot shape, which are scattered (a
   * histogram's bins, a graph's visited flags) far more often than ordered,
   * and the two attempts cost more than the match that follows them. */
  uint32_t flags = pasta_div_units_flags(sectored, width) | aligned;
  pasta_div_units(lanes, global, addr, size, sectored, flags, 0,
                  &f[PASTA_DIV_DISTINCT_GLOBAL], &f[PASTA_DIV_SECTORS]);
  pasta_div_units(lanes, shared, addr, size, 0, flags, 1,
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
