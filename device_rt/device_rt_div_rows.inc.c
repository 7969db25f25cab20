/*===- device_rt_div_rows.inc.c - divergence mode, row-shaped warps --------===*
 * Part of device_rt.c, which includes it: one translation unit (and one
 * bitcode) per GPU target. Not compiled on its own.
 *===----------------------------------------------------------------------===*/

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
 * distinct, its sectors those it spans (one when `aligned`, the pass's
 * PASTA_DIV_UNITS_ALIGNED: an element of a power-of-2 size up to 32 at a
 * multiple of it lies in one sector), and it has no bank conflict (the
 * bank rule takes an access's first word for it). */
static PASTA_INLINE void
pasta_div_lone_figures(void *ptr, uint32_t size, uint32_t hint,
                       uint32_t sectored, uint32_t aligned, uint64_t lanes,
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
    f[PASTA_DIV_SECTORS] =
        (aligned & PASTA_DIV_UNITS_ALIGNED) && pasta_div_aligned_size(size)
            ? 1
            : pasta_div_span(addr, size, 5);
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
 * PASTA_DIV_ALIGNED or-ed into `hint` says that the address is a multiple
 * of `size`, a power of 2 up to 32 (the IR's alignment): not tested then.
 * Local (stack) accesses of generic pointers are left out. Returns whether
 * this lane added to the registers (0 in every lane of a warp whose figures
 * are all derived), so that the pass adds them to the counters only then.
 * pasta_div_access_any computes the figures of the warp's `lanes` into f:
 * one add for every path (two would let LLVM merge their stores into one
 * through a phi of the registers' pointers, which then stay in memory). */
static PASTA_INLINE void pasta_div_access_any(void *ptr, uint32_t size,
                                              uint32_t hint, uint32_t sectored,
                                              uint32_t width, uint64_t lanes,
                                              uint64_t f[PASTA_DIV_NUM]) {
  uint32_t aligned = PASTA_DIV_UNITS_TRY_ALIGNED |
                     (hint & PASTA_DIV_ALIGNED ? PASTA_DIV_UNITS_ALIGNED : 0);
  hint &= ~PASTA_DIV_ALIGNED;
  uint64_t full = __gpu_num_lanes() == 64 ? ~0ull : 0xffffffffull;
  if (lanes == PASTA_DIV_FULL_WARP && (width == 16 || width == 32) &&
      pasta_div_rows_tested(ptr, size, hint, sectored, width, f)) {
    PASTA_DIV_TALLY(pasta_div_fast_rows, lanes);
  } else if (lanes == full) {
    /* A full warp (the usual case) with the mask a constant: ptxas then
     * checks no lane mask at each shuffle, vote and warp sum. Tested before
     * the lone lane, whose 64-bit test a full warp need not run. */
    pasta_div_access_figures(ptr, size, hint, sectored, width, aligned, full,
                             f);
  } else if ((lanes & (lanes - 1)) == 0) {
    PASTA_DIV_TALLY(pasta_div_fast_lone, lanes);
    pasta_div_lone_figures(ptr, size, hint, sectored, aligned, lanes, f);
  } else {
    pasta_div_access_figures(ptr, size, hint, sectored, width, aligned, lanes,
                             f);
  }
}

PASTA_INLINE uint32_t __pasta_div_access(
    void *ptr, uint32_t size, uint32_t hint, uint32_t sectored, uint32_t width,
    PASTA_PRIVATE uint32_t *requests_global,
    PASTA_PRIVATE uint32_t *requests_shared, PASTA_PRIVATE uint32_t *bytes,
    PASTA_PRIVATE uint32_t *distinct_global,
    PASTA_PRIVATE uint32_t *distinct_shared, PASTA_PRIVATE uint32_t *sectors,
    PASTA_PRIVATE uint32_t *ideal_sectors,
    PASTA_PRIVATE uint32_t *bank_conflicts) {
  uint64_t lanes = __gpu_lane_mask();
  uint64_t f[PASTA_DIV_NUM];
  pasta_div_access_any(ptr, size, hint, sectored, width, lanes, f);
  return pasta_div_add_figures(lanes, f, 0, requests_global, requests_shared,
                               bytes, distinct_global, distinct_shared, sectors,
                               ideal_sectors, bank_conflicts);
}

#if defined(__NVPTX__) || defined(PASTA_DEVICE_RT_HOST_TEST)
/* One byte per bin for each warp of a block of up to 1,024 threads
 * (pasta_div_distinct_bins): shared memory on NVIDIA GPUs, where only
 * copies that measure such an atomic reference it, so only their blocks
 * hold it; a plain array in the unit test, whose lanes are threads. */
#if defined(__NVPTX__)
#define PASTA_DIV_TAGS __attribute__((address_space(3)))
#else
#define PASTA_DIV_TAGS
#endif
static PASTA_DIV_TAGS uint8_t pasta_div_bin_tags[32 * 256];

/* The distinct bins over a full warp, `slot` being the lane's bin's byte
 * in its warp's 256 of the tags (__pasta_div_bins_warp() + bin: an address
 * in shared memory on NVIDIA GPUs, an index in the unit test): each lane
 * writes its lane number to that byte and reads it
 * back after the warp's sync; of the lanes of one bin the byte keeps one
 * writer's number, and that lane alone reads its own: one per distinct bin.
 * A store, a load and a ballot in place of the window's ten redux.sync
 * (pasta_div_window_keys). In a full warp no other lane of the warp can
 * write the warp's bytes between the store and the load (every lane is
 * here; the ballot below orders this call before the next). Volatile (on
 * the host, relaxed atomics: its lanes are threads): the load must read
 * what the warp wrote, not what this lane did. */
static PASTA_INLINE uint32_t pasta_div_distinct_bins(uint32_t slot) {
  uint32_t lane = __gpu_lane_id();
#if defined(__NVPTX__)
  volatile PASTA_DIV_TAGS uint8_t *tag =
      (volatile PASTA_DIV_TAGS uint8_t *)(uintptr_t)slot;
#else
  volatile PASTA_DIV_TAGS uint8_t *tag =
      &pasta_div_bin_tags[slot & (32 * 256 - 1)];
#endif
#if defined(PASTA_DEVICE_RT_HOST_TEST)
  __atomic_store_n(tag, (uint8_t)lane, __ATOMIC_RELAXED);
  __gpu_sync_lane(PASTA_DIV_FULL_WARP);
  uint32_t kept = __atomic_load_n(tag, __ATOMIC_RELAXED);
#else
  *tag = (uint8_t)lane;
  __gpu_sync_lane(PASTA_DIV_FULL_WARP);
  uint32_t kept = *tag;
#endif
  return (uint32_t)__builtin_popcountll(
      __gpu_ballot(PASTA_DIV_FULL_WARP, kept == lane));
}
#endif

/* The first of the calling warp's 256 bytes in the bin tags, which the
 * pass reads once at the copy's entry and adds each access's bin to
 * (__pasta_div_access_bins' slot): on NVIDIA GPUs its shared-memory address
 * (32 bits), so that a measurement in a loop forms no address of the array
 * (the block's shared window) again; in the unit test its index. */
PASTA_INLINE uint32_t __pasta_div_bins_warp(void) {
  uint32_t thread =
      __gpu_thread_id_x() +
      __gpu_num_threads_x() *
          (__gpu_thread_id_y() + __gpu_num_threads_y() * __gpu_thread_id_z());
  uint32_t first = (thread >> 5) * 256;
#if defined(__NVPTX__)
  return (uint32_t)(uintptr_t)&pasta_div_bin_tags[first & (32 * 256 - 1)];
#else
  return first;
#endif
}

/* Where __pasta_div_access_bins' address lives: shared memory (the pass
 * passes the atomic's own pointer, no generic one), a plain pointer in the
 * unit test. */
#if defined(PASTA_DEVICE_RT_HOST_TEST)
#define PASTA_DIV_SHARED_PTR
#else
#define PASTA_DIV_SHARED_PTR __attribute__((address_space(3)))
#endif

/* __pasta_div_access for a shared-memory atomic the pass proved to be at
 * B + size * bin in every lane, B the same in all and bin below 256 (a
 * histogram's bins: passes/DivergenceMeasures.cpp, binOf), given as its
 * `slot`, __pasta_div_bins_warp() + bin: its distinct addresses are its
 * distinct bins. A full warp on NVIDIA GPUs counts them
 * by pasta_div_distinct_bins, with the figures __pasta_div_access gives a
 * shared atomic (one request, 32 lanes' bytes, the size per distinct
 * address); other warps, and other GPUs, take __pasta_div_access. `ptr` is
 * the atomic's shared-memory address, made generic only on that path: a
 * generic address passed in was formed in every iteration of a
 * histogram's loop, ahead of the full warp's test (4 SASS of about 63). */
PASTA_INLINE uint32_t __pasta_div_access_bins(
    PASTA_DIV_SHARED_PTR void *ptr, uint32_t size, uint32_t hint,
    uint32_t sectored, uint32_t width, uint32_t slot,
    PASTA_PRIVATE uint32_t *requests_global,
    PASTA_PRIVATE uint32_t *requests_shared, PASTA_PRIVATE uint32_t *bytes,
    PASTA_PRIVATE uint32_t *distinct_global,
    PASTA_PRIVATE uint32_t *distinct_shared, PASTA_PRIVATE uint32_t *sectors,
    PASTA_PRIVATE uint32_t *ideal_sectors,
    PASTA_PRIVATE uint32_t *bank_conflicts) {
  uint64_t lanes = __gpu_lane_mask();
  uint64_t f[PASTA_DIV_NUM];
  int by_bins = 0;
#if defined(__NVPTX__) || defined(PASTA_DEVICE_RT_HOST_TEST)
  by_bins = lanes == PASTA_DIV_FULL_WARP && !sectored &&
            (hint & ~PASTA_DIV_ALIGNED) == PASTA_DIV_SHARED;
  if (by_bins) {
    for (int i = 0; i < PASTA_DIV_NUM; ++i)
      f[i] = 0;
    f[PASTA_DIV_REQUESTS_SHARED] = 1;
    f[PASTA_DIV_BYTES] = 32 * (uint64_t)size;
    f[PASTA_DIV_DISTINCT_SHARED] =
        size * (uint64_t)pasta_div_distinct_bins(slot);
  }
#else
  (void)slot;
#endif
  if (!by_bins)
    pasta_div_access_any((void *)ptr, size, hint, sectored, width, lanes, f);
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
  /* Tests combined without branches (no short-circuit): the copies inline
   * this with __pasta_div_stacked_width, which calls it again, after the
   * last IR cleanup; straight-line twins are one computation to the code
   * generator, branching ones are two. */
  uint32_t x = __gpu_num_threads_x(), y = __gpu_num_threads_y(),
           z = __gpu_num_threads_z();
  /* y | z is 1 where both are (each is at least 1): one test less. */
  uint32_t rows32 = ((x & 31) == 0) | ((y | z) == 1);
  /* x divides 32 when it is a power of 2 below it (no remainder: a
   * division costs each warp some twenty instructions at every call). */
  uint32_t divides = (x < 32) & ((x & (x - 1)) == 0);
  uint32_t w = rows32 ? 32u : divides ? x : 0u;
  return __gpu_num_lanes() == 32 ? w : 0u;
}

/* The width W of the rows of lanes when the rows a warp holds are
 * consecutive ones of one plane of the block, so that lane i holds
 * x = i mod W, y = y0 + i / W (an address B + S * x + W * S * y is then
 * B' + S * i: passes/LaneAffine.h): 32 for rows of 32 (as
 * __pasta_div_row_width); W = x below 32 when no warp holds rows of two
 * z planes (z is 1, or a plane's x * y threads are whole warps); else 0.
 * Called once per call, at the entry. */
PASTA_INLINE uint32_t __pasta_div_stacked_width(void) {
  uint32_t w = __pasta_div_row_width(), y = __gpu_num_threads_y(),
           z = __gpu_num_threads_z();
  uint32_t keep = (w == 0) | (w == 32) | (z == 1) | (((w * y) & 31) == 0);
  return keep ? w : 0u;
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

/* The larger of `most` and the number of `lanes` in class r (lanes
 * r + classes * k, `every` marking those of class 0), for r < classes.
 * In 32 bits: `every` has none above them, so neither has the product
 * (no cleanup after inlining would narrow the 64-bit operations). */
static PASTA_INLINE uint32_t pasta_div_fuller_class(uint32_t most,
                                                    uint64_t lanes,
                                                    uint32_t every, uint32_t r,
                                                    uint32_t classes) {
  if (r >= classes)
    return most;
  uint32_t n = (uint32_t)__builtin_popcount((uint32_t)(lanes >> r) & every);
  return n > most ? n : most;
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
  uint32_t every = classes == 1   ? 0xffffffffu
                   : classes == 2 ? 0x55555555u
                   : classes == 4 ? 0x11111111u
                   : classes == 8 ? 0x01010101u
                                  : 0x00010001u;
  /* Written out, not a loop: the copies inline this after the last loop
   * unrolling, where a loop of constant trips stays a loop (nw_tile's
   * anti-diagonal: two trips of ten PTX instructions at every one). */
  uint32_t most = (uint32_t)__builtin_popcount((uint32_t)lanes & every);
  most = pasta_div_fuller_class(most, lanes, every, 1, classes);
  most = pasta_div_fuller_class(most, lanes, every, 2, classes);
  most = pasta_div_fuller_class(most, lanes, every, 3, classes);
  most = pasta_div_fuller_class(most, lanes, every, 4, classes);
  most = pasta_div_fuller_class(most, lanes, every, 5, classes);
  most = pasta_div_fuller_class(most, lanes, every, 6, classes);
  most = pasta_div_fuller_class(most, lanes, every, 7, classes);
  most = pasta_div_fuller_class(most, lanes, every, 8, classes);
  most = pasta_div_fuller_class(most, lanes, every, 9, classes);
  most = pasta_div_fuller_class(most, lanes, every, 10, classes);
  most = pasta_div_fuller_class(most, lanes, every, 11, classes);
  most = pasta_div_fuller_class(most, lanes, every, 12, classes);
  most = pasta_div_fuller_class(most, lanes, every, 13, classes);
  most = pasta_div_fuller_class(most, lanes, every, 14, classes);
  return pasta_div_fuller_class(most, lanes, every, 15, classes);
}

/* The figures of a full warp of one row whose lanes' addresses are one
 * step apart (lane i at base + step * i: a column walk, x * n), the step
 * known only at run time, when the mask arithmetic of wider strides covers
 * it (as passes/DivergenceFigures.cpp, lanesHelperTakes, allows at compile
 * time: a multiple of a power-of-2 size up to 32, wider than it; a multiple of
 * 4 for shared loads and stores of up to 4 bytes, 32 or more or a power of 2
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
 * of a known space (passes/DivergenceFigures.cpp, deriveLaneShaped), per
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

/* The one-row path of __pasta_div_access_lanes: lanes of one row, lane i
 * at `base` + stride * i, `base` aligned to the size (a power of 2 up to
 * 32). */
static PASTA_INLINE uint32_t pasta_div_access_one_row(
    uint64_t base, uint64_t lanes, uint32_t size, uint32_t stride,
    uint32_t hint, uint32_t sectored, PASTA_PRIVATE uint32_t *sectors,
    PASTA_PRIVATE uint32_t *ideal_sectors,
    PASTA_PRIVATE uint32_t *bank_conflicts) {
  uint64_t d[PASTA_DIV_NUM];
  /* One row (lane i at base + stride * i, base aligned to the size): a
   * full warp from a 32-byte boundary has the derived figures; else
   * distinct bytes and a stride-0 access's sectors are still the derived
   * ones, and a strided global load's or store's sectors follow from the
   * mask. */
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
    *bank_conflicts += (uint32_t)(pasta_div_strided_wavefronts(lanes, stride) -
                                  1 - d[PASTA_DIV_BANK_CONFLICTS]);
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

/* What pasta_div_access_one_row adds to its three registers (sectors, ideal
 * sectors, bank conflicts), as values. */
static PASTA_INLINE void pasta_div_one_row_adds(uint64_t base, uint64_t lanes,
                                                uint32_t size, uint32_t stride,
                                                uint32_t hint,
                                                uint32_t sectored,
                                                uint32_t adds[3]) {
  PASTA_PRIVATE uint32_t *a = (PASTA_PRIVATE uint32_t *)adds;
  a[0] = a[1] = a[2] = 0;
  pasta_div_access_one_row(base, lanes, size, stride, hint, sectored, &a[0],
                           &a[1], &a[2]);
}

/* The most trips __pasta_div_lanes_trips sums: its sums stay far below
 * 2^31 (a trip's adds differ from the first's by at most 32 a figure). */
#define PASTA_DIV_TRIPS_MOST (1u << 15)

/* A uniform loop's access measured at its preheader (the pass's
 * measureOncePerEntry: __pasta_div_access_lanes at the first trip's address
 * `ptr`, its figures times the `trips`), where the address moves by a
 * `step` that is not a multiple of a sector (nw_tile's store loop: rows of
 * 4(n + 1) bytes): when every trip of this warp takes the one-row path of
 * __pasta_div_access_lanes (one row of lanes, its base aligned to the size
 * at every trip), adds to the registers what the trips' calls would have
 * added beyond `trips` times the first's, and returns 1; else returns 0,
 * adding nothing (the pass then measures every trip). The same in every
 * active lane. That path's adds depend on the row's base only through its
 * place in a sector (base mod 32: the bytes' span, the full warp's derived
 * test), which repeats every 32 / gcd(step mod 32, 32) trips, so one call
 * per place, times the trips that have it. */
PASTA_INLINE uint32_t __pasta_div_lanes_trips(
    void *ptr, uint64_t step, uint64_t trips, uint32_t size, uint32_t stride,
    uint32_t hint, uint32_t sectored, uint32_t width,
    PASTA_PRIVATE uint32_t *sectors, PASTA_PRIVATE uint32_t *ideal_sectors,
    PASTA_PRIVATE uint32_t *bank_conflicts) {
  /* A step of whole sectors: every trip's figures are the first's, which
   * the pass tests itself (its step test); nothing to add, at once (the
   * call runs before a loop whatever its step: kmeans' rows of 4n bytes). */
  if ((step & 31) == 0)
    return 0;
  uint64_t lanes = __gpu_lane_mask();
  uint64_t base = (uint64_t)(uintptr_t)ptr - (uint64_t)stride * __gpu_lane_id();
  int one_row =
      width == 32 ||
      (width == 16 && ((lanes & 0xffffull) == 0 || (lanes >> 16) == 0));
  if (!one_row || hint == PASTA_DIV_GENERIC || size == 0 || size > 32 ||
      (size & (size - 1)) != 0 || base % size != 0 || step % size != 0 ||
      trips > PASTA_DIV_TRIPS_MOST)
    return 0;
  unsigned shift = (unsigned)__builtin_ctzll((step & 31) | 32);
  uint64_t period = 32u >> shift;
  uint32_t lo = (uint32_t)__builtin_ctzll(lanes);
  uint32_t hi = 63u - (uint32_t)__builtin_clzll(lanes);
  uint64_t run = lanes >> lo;
  if (hint == PASTA_DIV_GLOBAL && sectored && stride != 0 && stride < 32 &&
      (run & (run + 1)) == 0) {
    /* One run of lanes of a global load or store (nw_tile's 16 lanes):
     * the one-row path adds at each trip the sectors of the run's bytes
     * [a, a + len) less a constant (a full warp at a sector's start adds
     * nothing, its sectors being the constant), and its other adds do not
     * depend on the base: the span at each place, in the first lane. */
    uint64_t a = base + (uint64_t)stride * lo;
    uint64_t len = (uint64_t)stride * (hi - lo) + size;
    uint64_t s0 = pasta_div_span(a, len, 5);
    uint32_t beyond = 0;
    for (uint64_t j = 1; j < period && j < trips; ++j)
      beyond += (uint32_t)(((trips - 1 - j) >> (5 - shift)) + 1) *
                (uint32_t)(pasta_div_span(a + j * step, len, 5) - s0);
    if (pasta_div_first(lanes))
      *sectors += beyond;
    return 1;
  }
  uint32_t first[3], other[3], sum[3] = {0, 0, 0};
  pasta_div_one_row_adds(base, lanes, size, stride, hint, sectored, first);
  for (uint64_t j = 1; j < period && j < trips; ++j) {
    pasta_div_one_row_adds(base + j * step, lanes, size, stride, hint, sectored,
                           other);
    /* the trips j, j + period, ... below `trips` */
    uint32_t times = (uint32_t)(((trips - 1 - j) >> (5 - shift)) + 1);
    for (int f = 0; f < 3; ++f)
      sum[f] += times * (other[f] - first[f]);
  }
  *sectors += sum[0];
  *ideal_sectors += sum[1];
  *bank_conflicts += sum[2];
  return 1;
}

/* pasta_div_access_figures without a row width, out of line: the general
 * path of __pasta_div_access_lanes_cold. A warp takes it only for a
 * misaligned address or rows other than one aligned row or two full ones,
 * while its code inline was most of a measurement's PTX: a copy of many
 * measured groups compiled it once per group (lud's perimeter copy, 27).
 * Its figures go to an array of their own: an array whose address a call
 * takes stays in local memory, which the other paths' must not. */
static __attribute__((noinline)) void
pasta_div_lanes_general(void *ptr, uint32_t size, uint32_t hint,
                        uint32_t sectored, uint64_t lanes,
                        uint64_t g[PASTA_DIV_NUM]) {
  pasta_div_access_figures(ptr, size, hint, sectored, 0, 0, lanes, g);
}

/* __pasta_div_access for an access the pass proved to be, in a warp whose
 * lanes form rows of thread index x (`width`, __pasta_div_row_width), at a
 * base uniform in each row plus `stride` bytes per thread index x, with
 * stride 0 (every lane of a row the same element), the access size
 * (consecutive elements), or a wider one the pass allows for the access
 * (passes/DivergenceFigures.cpp, lanesHelperTakes: a power-of-2 size up to 32,
 * a multiple of 4 for shared loads and stores of at most 4 bytes, 32 or more or
 * a power of 2 for global ones). For a known space, what the pass derives from
 * the block's counters (pasta_div_lanes_derived) is not added here: only the
 * measured figures' difference from it, which is 0 for a full warp of aligned
 * rows (modulo 2^64 otherwise: the sums are exact once derived). One row at a
 * base aligned to the size (a warp of 32-lane rows, or one active row of two):
 * a full warp with the derived figures returns at once, any other takes
 * arithmetic on the mask (the first active lane alone). Full warps of two rows
 * at stride 0 or the size: the rows path. The rest: the general path. Returns
 * what __pasta_div_access returns. */
static PASTA_INLINE uint32_t pasta_div_access_lanes_at(
    void *ptr, uint32_t size, uint32_t stride, uint32_t hint, uint32_t sectored,
    uint32_t width, int general_out_of_line,
    PASTA_PRIVATE uint32_t *requests_global,
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
      (addr - (uint64_t)stride * __gpu_lane_id()) % size == 0)
    return pasta_div_access_one_row(addr - (uint64_t)stride * __gpu_lane_id(),
                                    lanes, size, stride, hint, sectored,
                                    sectors, ideal_sectors, bank_conflicts);
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
  /* Width 0 and no aligned path: the general count as it was (each test
   * more here cost matmul_tiled's loop copy spills under its cap). */
  if (general_out_of_line) {
    uint64_t g[PASTA_DIV_NUM];
    pasta_div_lanes_general(ptr, size, hint, sectored, lanes, g);
    pasta_div_lanes_derived(size, stride, hint, sectored,
                            (uint64_t)__builtin_popcountll(lanes), d);
    return pasta_div_add_figures(lanes, g, d, requests_global, requests_shared,
                                 bytes, distinct_global, distinct_shared,
                                 sectors, ideal_sectors, bank_conflicts);
  }
  pasta_div_access_figures(ptr, size, hint, sectored, 0, 0, lanes, f);
  pasta_div_lanes_derived(size, stride, hint, sectored,
                          (uint64_t)__builtin_popcountll(lanes), d);
  return pasta_div_add_figures(lanes, f, d, requests_global, requests_shared,
                               bytes, distinct_global, distinct_shared, sectors,
                               ideal_sectors, bank_conflicts);
}

PASTA_INLINE uint32_t __pasta_div_access_lanes(
    void *ptr, uint32_t size, uint32_t stride, uint32_t hint, uint32_t sectored,
    uint32_t width, PASTA_PRIVATE uint32_t *requests_global,
    PASTA_PRIVATE uint32_t *requests_shared, PASTA_PRIVATE uint32_t *bytes,
    PASTA_PRIVATE uint32_t *distinct_global,
    PASTA_PRIVATE uint32_t *distinct_shared, PASTA_PRIVATE uint32_t *sectors,
    PASTA_PRIVATE uint32_t *ideal_sectors,
    PASTA_PRIVATE uint32_t *bank_conflicts) {
  return pasta_div_access_lanes_at(ptr, size, stride, hint, sectored, width, 0,
                                   requests_global, requests_shared, bytes,
                                   distinct_global, distinct_shared, sectors,
                                   ideal_sectors, bank_conflicts);
}

/* __pasta_div_access_lanes with its general path out of line, one copy per
 * module (pasta_div_lanes_general), for the pass's large copies
 * (-pasta-div-cold-general-above): the same figures. */
PASTA_INLINE uint32_t __pasta_div_access_lanes_cold(
    void *ptr, uint32_t size, uint32_t stride, uint32_t hint, uint32_t sectored,
    uint32_t width, PASTA_PRIVATE uint32_t *requests_global,
    PASTA_PRIVATE uint32_t *requests_shared, PASTA_PRIVATE uint32_t *bytes,
    PASTA_PRIVATE uint32_t *distinct_global,
    PASTA_PRIVATE uint32_t *distinct_shared, PASTA_PRIVATE uint32_t *sectors,
    PASTA_PRIVATE uint32_t *ideal_sectors,
    PASTA_PRIVATE uint32_t *bank_conflicts) {
  return pasta_div_access_lanes_at(ptr, size, stride, hint, sectored, width, 1,
                                   requests_global, requests_shared, bytes,
                                   distinct_global, distinct_shared, sectors,
                                   ideal_sectors, bank_conflicts);
}

/*===- Full rows: global loads and stores without the helper
 * -----------------===* A global load or store whose address is B + stride * x
 * (lane-shaped, no lane select), of a power-of-2 size up to 32 and aligned to
 * it, at a stride that is a multiple of the size, in a full warp of one 32-lane
 * row (lane i at B' + stride * i): its requests, bytes, distinct bytes and
 * ideal sectors are those the pass derives (pasta_div_lanes_derived with
 * 32 active lanes: no two lanes overlap), and so are its sectors but for
 * the base's place in its sector. The copies test once per block whether
 * the warp is such (__pasta_div_full_row) and then add that difference
 * (__pasta_div_row_sectors) instead of calling __pasta_div_access_lanes,
 * whose mask tests and general paths they keep for the other warps
 * (passes/DivergenceMeasures.cpp, FullRowForm). */

/* The sectors a full warp of one row touches beyond the derived ones
 * (`stride` for a stride below 32, else 32): lane i's bytes are
 * [base + stride * i, + size), `base` aligned to `size` (a power of 2 up to
 * 32, so no lane straddles a sector) and `stride` a multiple of it. Below
 * 32, the warp spans [base, base + 31 * stride + size), whose sectors, all
 * touched when stride <= 32 (no gap reaches a sector), are `stride` or one
 * more when the base is past a sector's start by enough; from 32 on, every
 * lane is in a sector of its own: 0. */
static PASTA_INLINE uint32_t pasta_div_row_extra_sectors(uint64_t base,
                                                         uint32_t size,
                                                         uint32_t stride) {
  if (stride >= 32)
    return 0;
  /* pasta_div_span(base, len, 5) - stride, on base's offset in its sector
   * (32-bit arithmetic: len is under 1024) */
  uint32_t len = stride * 31 + size;
  return ((((uint32_t)base & 31) + len - 1) >> 5) + 1 - stride;
}

/* 1 in every lane when the warp is full and its lanes are one row of 32
 * (`width` is __pasta_div_row_width(), read once per call), else 0. */
PASTA_INLINE uint32_t __pasta_div_full_row(uint32_t width) {
  return width == 32 && __gpu_lane_mask() == PASTA_DIV_FULL_WARP;
}

/* In a full warp of one row (__pasta_div_full_row), for a global load or
 * store at `ptr` of `size` bytes at `stride` bytes per lane, as the block
 * comment above says: the sectors beyond the derived ones in lane 0 (whose
 * address is the row's base), 0 in the other lanes. */
PASTA_INLINE uint32_t __pasta_div_row_sectors(void *ptr, uint32_t size,
                                              uint32_t stride) {
  uint32_t extra =
      pasta_div_row_extra_sectors((uint64_t)(uintptr_t)ptr, size, stride);
  return __gpu_lane_id() == 0 ? extra : 0;
}

/* __pasta_div_access_lanes where the caller knows that the warp's lanes
 * form rows of 32 (__pasta_div_row_width() is 32), the space (global or
 * shared, not generic) and that `ptr` is aligned to `size`, a power of 2 up
 * to 32, at a stride that helper takes for one row: its one-row path alone,
 * without the general path that a full 30 blocks of warp-level code and
 * most of a copy's registers are for. The divergence copies' body for rows
 * of 32 calls it for the loads and stores whose alignment the IR states
 * (passes/DivergenceRows32.cpp). The same figures as that helper. */
PASTA_INLINE uint32_t __pasta_div_access_row32(
    void *ptr, uint32_t size, uint32_t stride, uint32_t hint, uint32_t sectored,
    PASTA_PRIVATE uint32_t *sectors, PASTA_PRIVATE uint32_t *ideal_sectors,
    PASTA_PRIVATE uint32_t *bank_conflicts) {
  uint64_t addr = (uint64_t)(uintptr_t)ptr;
  return pasta_div_access_one_row(
      addr - (uint64_t)stride * __gpu_lane_id(), __gpu_lane_mask(), size,
      stride, hint, sectored, sectors, ideal_sectors, bank_conflicts);
}

/*===- Rows of 16: two rows a warp, any mask, without the general path ----===*
 * In a launch whose blocks are 16 threads wide (__pasta_div_row_width() is
 * 16), lanes 0-15 of a warp are one row of thread index x and lanes 16-31
 * another. A lane-shaped access at stride 0 or the size (a power of 2 up to
 * 32) from row bases aligned to the size has, under any mask, figures that
 * follow from the two bases and the two rows' masks: each lane's bytes are
 * one element, in one word (up to 4 bytes) and one sector, so distinct bytes,
 * sectors and (shared, up to 4 bytes: one phase of 32 lanes) the words of
 * each bank are unions of at most 17 units a row. The copies' body for rows
 * of 16 (passes/DivergenceRows32.cpp) calls this where the general helper
 * would take such warps apart with matches. */

/* Lanes visited one by one (pasta_div_row_units), for the unit test only. */
#if defined(PASTA_DEVICE_RT_HOST_TEST)
static uint64_t pasta_div_rows16_walks; /* lanes pasta_div_row_units walked */
#define PASTA_DIV_WALK() (++pasta_div_rows16_walks)
#else
#define PASTA_DIV_WALK() ((void)0)
#endif

/* The units of 2^shift bytes that the lanes of `mask` (bit i: lane i of a
 * row) touch at `base` + stride * i, each lane within one unit, as bits
 * from `origin` (every unit lies in [origin, origin + 64)). */
static PASTA_INLINE uint64_t pasta_div_row_units(uint32_t mask, uint64_t base,
                                                 uint32_t stride,
                                                 unsigned shift,
                                                 uint64_t origin) {
  /* One element per lane (stride 0), or one unit per element (stride and
   * unit the size): the mask itself, moved to the row's first unit. The
   * per-lane loop below is for units wider than the element (a strided
   * row's sectors): up to 16 dependent steps, run by the first lane while
   * the warp waits. (The runtime is inlined into the copies after the
   * loop passes: even at a constant stride of 0 the loop stays a loop.) */
  if (stride == 0)
    return mask ? 1ull << ((base >> shift) - origin) : 0;
  if (stride == 1u << shift)
    return (uint64_t)mask << ((base >> shift) - origin);
  uint64_t bits = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    PASTA_DIV_WALK();
    uint32_t i = (uint32_t)__builtin_ctz(m);
    bits |= 1ull << (((base + (uint64_t)stride * i) >> shift) - origin);
  }
  return bits;
}

/* The units of 2^shift bytes in the union of two rows' (masks `ma` at `a`,
 * `mb` at `b`); with `banks`, instead whether two distinct units of the
 * union are 32 apart modulo 32 (two words in one bank: the rows' words
 * each span at most 17, so no bank holds more than one of a row). */
static PASTA_INLINE uint64_t pasta_div_two_rows_units(uint32_t ma, uint64_t a,
                                                      uint32_t mb, uint64_t b,
                                                      uint32_t stride,
                                                      unsigned shift,
                                                      int banks) {
  uint64_t ua = a >> shift, ub = b >> shift;
  uint64_t lo = ua < ub ? ua : ub, hi = ua < ub ? ub : ua;
  if (hi - lo <= 47) { /* one window of 64 units (a row spans at most 17) */
    uint64_t both = pasta_div_row_units(ma, a, stride, shift, lo) |
                    pasta_div_row_units(mb, b, stride, shift, lo);
    return banks ? ((both & 0xffffffffull) & (both >> 32)) != 0
                 : (uint64_t)__builtin_popcountll(both);
  }
  /* far apart: no unit in common */
  uint64_t ra = pasta_div_row_units(ma, a, stride, shift, ua);
  uint64_t rb = pasta_div_row_units(mb, b, stride, shift, ub);
  if (!banks)
    return (uint64_t)(__builtin_popcountll(ra) + __builtin_popcountll(rb));
  /* each row's words as banks (rotated by its first word's bank) */
  uint32_t sa = (uint32_t)(ua & 31), sb = (uint32_t)(ub & 31);
  uint64_t ba = (ra << sa | ra >> ((32 - sa) & 31)) & 0xffffffffull;
  uint64_t bb = (rb << sb | rb >> ((32 - sb) & 31)) & 0xffffffffull;
  return (ba & bb) != 0;
}

/* The figures f of two rows of 16 lanes (masks `ma`, `mb`, both nonzero)
 * at row bases `a`, `b` aligned to `size` (a power of 2 up to 32), at
 * `stride` 0 or the size, in `space` (global or shared). */
static PASTA_INLINE void
pasta_div_two_rows_figures(uint32_t ma, uint64_t a, uint32_t mb, uint64_t b,
                           uint32_t size, uint32_t stride, uint32_t space,
                           uint32_t sectored, uint64_t f[PASTA_DIV_NUM]) {
  int shared = space == PASTA_DIV_SHARED;
  unsigned elem = (unsigned)__builtin_ctz(size);
  uint64_t distinct =
      (uint64_t)size * pasta_div_two_rows_units(ma, a, mb, b, stride, elem, 0);
  for (int i = 0; i < PASTA_DIV_NUM; ++i)
    f[i] = 0;
  f[shared ? PASTA_DIV_REQUESTS_SHARED : PASTA_DIV_REQUESTS_GLOBAL] = 1;
  f[PASTA_DIV_BYTES] = (uint64_t)size * (uint64_t)(__builtin_popcount(ma) +
                                                   __builtin_popcount(mb));
  f[shared ? PASTA_DIV_DISTINCT_SHARED : PASTA_DIV_DISTINCT_GLOBAL] = distinct;
  if (!sectored)
    return;
  if (!shared) {
    f[PASTA_DIV_SECTORS] = pasta_div_two_rows_units(ma, a, mb, b, stride, 5, 0);
    f[PASTA_DIV_IDEAL_SECTORS] = (distinct + 31) / 32;
    return;
  }
  /* 8 bytes and more: phases of at most 16 lanes, each within a row of
   * consecutive elements or one, in distinct banks. Up to 4: one phase. */
  if (size <= 4)
    f[PASTA_DIV_BANK_CONFLICTS] =
        pasta_div_two_rows_units(ma, a, mb, b, stride, 2, 1);
}

/* The figures of two lanes at `x` and `y`, one element of `size` (a power
 * of 2 up to 32) each, aligned to it: the elements coincide or are
 * disjoint, each in one sector and (up to 4 bytes) one word; two words of
 * one bank conflict only in one phase (up to 4 bytes: the two rows of 16
 * are one phase; 8 bytes and more put the rows in two phases). */
static PASTA_INLINE void pasta_div_pair_figures(uint64_t x, uint64_t y,
                                                uint32_t size, uint32_t space,
                                                uint32_t sectored,
                                                uint64_t f[PASTA_DIV_NUM]) {
  int shared = space == PASTA_DIV_SHARED;
  uint64_t distinct = (uint64_t)size * (x == y ? 1 : 2);
  for (int i = 0; i < PASTA_DIV_NUM; ++i)
    f[i] = 0;
  f[shared ? PASTA_DIV_REQUESTS_SHARED : PASTA_DIV_REQUESTS_GLOBAL] = 1;
  f[PASTA_DIV_BYTES] = 2 * (uint64_t)size;
  f[shared ? PASTA_DIV_DISTINCT_SHARED : PASTA_DIV_DISTINCT_GLOBAL] = distinct;
  if (!sectored)
    return;
  if (!shared) {
    f[PASTA_DIV_SECTORS] = (x >> 5) == (y >> 5) ? 1 : 2;
    f[PASTA_DIV_IDEAL_SECTORS] = (distinct + 31) / 32;
    return;
  }
  uint64_t wx = x >> 2, wy = y >> 2;
  f[PASTA_DIV_BANK_CONFLICTS] = size <= 4 && wx != wy && ((wx - wy) & 31) == 0;
}

/* __pasta_div_access_rows16 for one lane in each row (a branch on thread
 * index x: backprop's `if (tx == 0)`): the other row's lane's address by
 * one shuffle, the pair's figures in closed form, in place of both rows'
 * bases by two shuffles and the rows' unit sets. */
static PASTA_INLINE uint32_t pasta_div_one_lane_a_row(
    uint64_t addr, uint64_t lanes, uint32_t ma, uint32_t mb, uint32_t size,
    uint32_t stride, uint32_t hint, uint32_t sectored,
    PASTA_PRIVATE uint32_t *requests_global,
    PASTA_PRIVATE uint32_t *requests_shared, PASTA_PRIVATE uint32_t *bytes,
    PASTA_PRIVATE uint32_t *distinct_global,
    PASTA_PRIVATE uint32_t *distinct_shared, PASTA_PRIVATE uint32_t *sectors,
    PASTA_PRIVATE uint32_t *ideal_sectors,
    PASTA_PRIVATE uint32_t *bank_conflicts) {
  uint32_t la = (uint32_t)__builtin_ctz(ma);
  uint32_t lb = 16u + (uint32_t)__builtin_ctz(mb);
  uint32_t from = __gpu_lane_id() == la ? lb : la;
  uint64_t other = __gpu_shuffle_idx_u64(lanes, from, addr, 32);
  uint64_t f[PASTA_DIV_NUM], d[PASTA_DIV_NUM];
  pasta_div_pair_figures(addr, other, size, hint, sectored, f);
  pasta_div_lanes_derived(size, stride, hint, sectored, 2, d);
  return pasta_div_add_figures(lanes, f, d, requests_global, requests_shared,
                               bytes, distinct_global, distinct_shared, sectors,
                               ideal_sectors, bank_conflicts);
}

/* __pasta_div_access_lanes where the caller knows that the warp's lanes
 * form rows of 16 (__pasta_div_row_width() is 16), the space (global or
 * shared, not generic), that the stride is 0 or `size` (a power of 2 up to
 * 32) and that `ptr` is aligned to `size`: the same figures, with no
 * general path (passes/DivergenceRows32.cpp, the body for rows of 16). */
PASTA_INLINE uint32_t __pasta_div_access_rows16(
    void *ptr, uint32_t size, uint32_t stride, uint32_t hint, uint32_t sectored,
    PASTA_PRIVATE uint32_t *requests_global,
    PASTA_PRIVATE uint32_t *requests_shared, PASTA_PRIVATE uint32_t *bytes,
    PASTA_PRIVATE uint32_t *distinct_global,
    PASTA_PRIVATE uint32_t *distinct_shared, PASTA_PRIVATE uint32_t *sectors,
    PASTA_PRIVATE uint32_t *ideal_sectors,
    PASTA_PRIVATE uint32_t *bank_conflicts) {
  uint64_t addr = (uint64_t)(uintptr_t)ptr;
  uint64_t lanes = __gpu_lane_mask();
  uint32_t lane = __gpu_lane_id();
  uint32_t ma = (uint32_t)(lanes & 0xffffull), mb = (uint32_t)(lanes >> 16);
  if (ma == 0 || mb == 0) /* one row: as __pasta_div_access_lanes */
    return pasta_div_access_one_row(addr - (uint64_t)stride * lane, lanes, size,
                                    stride, hint, sectored, sectors,
                                    ideal_sectors, bank_conflicts);
  uint64_t mine = addr - (uint64_t)stride * (lane & 15);
  uint64_t f[PASTA_DIV_NUM], d[PASTA_DIV_NUM];
  if (lanes == PASTA_DIV_FULL_WARP) {
    /* A full warp (the usual case), the mask a constant: one shuffle, then
     * aligned rows have the derived figures, and rows apart or on the same
     * bytes the closed form of __pasta_div_access_lanes's rows path (rows
     * of unaligned bases: gaussian's a[i * n + j] at t % 8 != 0; both rows
     * on the same bytes: its a[t * n + j], backprop's delta[tx], lud's
     * u_s[k][tx]). Without the latter such warps took the per-lane walks
     * below, 64 dependent steps of some 15 instructions an access, in the
     * first lane while the warp waited. */
    uint64_t other =
        __gpu_shuffle_idx_u64(PASTA_DIV_FULL_WARP, lane ^ 16u, mine, 32);
    if (pasta_div_rows_derived(mine, other, 16, size, stride, hint, sectored)) {
      PASTA_DIV_TALLY(pasta_div_fast_rows, lanes);
      return 0;
    }
    if (pasta_div_rows_figures(mine, other, 16, size, stride, hint, sectored,
                               f)) {
      PASTA_DIV_TALLY(pasta_div_fast_rows, lanes);
      pasta_div_lanes_derived(size, stride, hint, sectored, 32, d);
      return pasta_div_add_figures(
          lanes, f, d, requests_global, requests_shared, bytes, distinct_global,
          distinct_shared, sectors, ideal_sectors, bank_conflicts);
    }
  }
  if ((ma & (ma - 1)) == 0 && (mb & (mb - 1)) == 0)
    return pasta_div_one_lane_a_row(addr, lanes, ma, mb, size, stride, hint,
                                    sectored, requests_global, requests_shared,
                                    bytes, distinct_global, distinct_shared,
                                    sectors, ideal_sectors, bank_conflicts);
  /* else each row's base from its first active lane */
  uint64_t a =
      __gpu_shuffle_idx_u64(lanes, (uint32_t)__builtin_ctz(ma), mine, 32);
  uint64_t b =
      __gpu_shuffle_idx_u64(lanes, 16u + (uint32_t)__builtin_ctz(mb), mine, 32);
  if (!pasta_div_first(lanes))
    return 0;
  pasta_div_two_rows_figures(ma, a, mb, b, size, stride, hint, sectored, f);
  pasta_div_lanes_derived(size, stride, hint, sectored,
                          (uint64_t)__builtin_popcountll(lanes), d);
  return pasta_div_add_figures(lanes, f, d, requests_global, requests_shared,
                               bytes, distinct_global, distinct_shared, sectors,
                               ideal_sectors, bank_conflicts);
}

/* Out of line, for divergence copies with many measured accesses
 * (passes/DivergenceMeasures.cpp, OutOfLineAccessGroups): what
 * __pasta_div_access and __pasta_div_access_lanes add, written to out[0..8)
 * (requests global, requests shared, bytes, distinct global, distinct shared,
 * sectors, ideal sectors, bank conflicts), zeroed first; the pass adds them to
 * its registers. Inlined at each of hundreds of accesses, the helpers made the
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

/* __pasta_div_lanes_trips out of line, for copies that call the access
 * helpers out of line: what it adds to the sectors, ideal sectors and bank
 * conflicts goes to out[0..2] (zeroed first). */
PASTA_ENTRY uint32_t __pasta_div_lanes_trips_out(void *ptr, uint64_t step,
                                                 uint64_t trips, uint32_t size,
                                                 uint32_t stride, uint32_t hint,
                                                 uint32_t sectored,
                                                 uint32_t width,
                                                 PASTA_PRIVATE uint32_t *out) {
  out[0] = out[1] = out[2] = 0;
  return __pasta_div_lanes_trips(ptr, step, trips, size, stride, hint, sectored,
                                 width, &out[0], &out[1], &out[2]);
}

/* The accesses of a batch (include/pasta/div_batch.h), each measured as
 * __pasta_div_access_out or __pasta_div_access_lanes_out measures it, at
 * ptrs[i] with table entry i: out[8 * j .. 8 * j + 8) the figures of the
 * entries of line j < `lines` summed, each figure only of the entries that
 * add it and times the entry's count; out[8 * lines ..] is scratch.
 * Returns 0 when no access added a figure. One call of it in place of a
 * call per access: ptxas spent some 10-20 ms on each call in a big
 * kernel's copy (lab divergence-70). */
PASTA_ENTRY uint32_t __pasta_div_access_batch_out(
    uint32_t n, uint32_t lines, void *PASTA_PRIVATE *ptrs,
    const PASTA_GLOBAL uint32_t *table, uint32_t width,
    PASTA_PRIVATE uint32_t *out) {
  for (uint32_t k = 0; k < 8 * lines; ++k)
    out[k] = 0;
  PASTA_PRIVATE uint32_t *f = &out[8 * lines];
  uint32_t added = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const PASTA_GLOBAL uint32_t *e = &table[i * PASTA_DIV_BATCH_WORDS];
    uint32_t flags = e[PASTA_DIV_BATCH_FLAGS];
    uint32_t size = e[PASTA_DIV_BATCH_SIZE], hint = e[PASTA_DIV_BATCH_HINT];
    uint32_t sectored = (flags & PASTA_DIV_BATCH_SECTORED) != 0;
    uint32_t w = flags & PASTA_DIV_BATCH_ROW_WIDTH ? width : 0;
    /* The single helpers called, not inlined: with both bodies inlined in
     * its loop (78 registers) `myocyte 12`'s copy took ptxas longer with
     * half its calls than with all the single ones; with one body per
     * helper (one helper per kind) as long as before, and it ran 19%
     * longer on an H200. */
    if (flags & PASTA_DIV_BATCH_LANES)
      added |= __pasta_div_access_lanes_out(
          ptrs[i], size, e[PASTA_DIV_BATCH_STRIDE], hint, sectored, w, f);
    else
      added |= __pasta_div_access_out(ptrs[i], size, hint, sectored, w, f);
    uint32_t times = flags >> PASTA_DIV_BATCH_TIMES_SHIFT;
    PASTA_PRIVATE uint32_t *sum = &out[8 * e[PASTA_DIV_BATCH_LINE]];
    for (int k = 0; k < 8; ++k)
      if (flags >> k & 1)
        sum[k] += times * f[k];
  }
  return added;
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

/* __pasta_div_branch for a branch in a loop whose `taken` side is a block
 * entered only from it (passes/DivergenceMeasures.cpp, countBodyAtBranch):
 * the lanes that take it are the ballot's, so the block's one warp-level
 * execution (if any lane takes it) and its active lanes come from the same
 * vote, and the block measures nothing itself. `threads` is a discarded
 * register where the counting code counts the block. */
PASTA_INLINE void __pasta_div_branch_body(uint32_t taken,
                                          PASTA_PRIVATE uint32_t *divergent,
                                          PASTA_PRIVATE uint32_t *warps,
                                          PASTA_PRIVATE uint32_t *threads) {
  uint64_t lanes = __gpu_lane_mask();
  uint64_t yes = __gpu_ballot(lanes, taken != 0);
  /* Every lane adds, the others 0 (the flush sums the lanes): selects where
   * the first-lane branch became predicated moves, 3 SASS fewer a trip at
   * bpnn_hidden's latch (33 -> 30 on its full-warp path). */
  uint32_t first = pasta_div_first(lanes) ? ~0u : 0u;
  *divergent += first & (uint32_t)(yes != 0 && yes != lanes);
  *warps += first & (uint32_t)(yes != 0);
  *threads += first & (uint32_t)__builtin_popcountll(yes);
}

/* The trips k < `trips` (at most 32) in which `start` + k u< `bound`: a
 * mask. The values start + k are consecutive modulo 2^32: those below the
 * wrap (k < 2^32 - start) are below `bound` for k < bound - start, those
 * past it (k - (2^32 - start)) for k < 2^32 - start + bound. */
static PASTA_INLINE uint32_t pasta_div_interval_trips(uint32_t start,
                                                      uint32_t bound,
                                                      uint32_t trips) {
  uint64_t t = trips, wrap = (1ull << 32) - start;
  uint64_t below = start < bound ? (uint64_t)(bound - start) : 0;
  uint64_t first = below < t ? below : t;
  first = first < wrap ? first : wrap;
  uint64_t from = wrap < t ? wrap : t, to = wrap + bound;
  to = to < t ? to : t;
  uint64_t past = to > from ? ((1ull << to) - 1) & ~((1ull << from) - 1) : 0;
  return (uint32_t)(((1ull << first) - 1) | past);
}

/* The lane's trips on the interval body's side (bit k: trip k): those in
 * [start, bound) or, with negate, the others of the `trips`. */
static PASTA_INLINE uint32_t pasta_div_interval_side(uint32_t start,
                                                     uint32_t bound,
                                                     uint32_t trips,
                                                     uint32_t negate) {
  uint32_t every = (uint32_t)((1ull << trips) - 1);
  uint32_t mine = pasta_div_interval_trips(start, bound, trips);
  return negate ? ~mine & every : mine;
}

/* The bits set in `mine` of any lane of `lanes`, in every lane: one
 * redux.sync on sm_80 and later, else a ballot per bit. */
static PASTA_INLINE uint32_t pasta_div_lanes_or(uint64_t lanes, uint32_t mine) {
#if defined(__NVPTX__) && PASTA_NVPTX_REDUX
  return pasta_div_redux_or(lanes, mine);
#else
  uint32_t any = 0;
  for (uint32_t bit = 0; bit < 32; ++bit)
    if (__gpu_ballot(lanes, (mine >> bit) & 1))
      any |= 1u << bit;
  return any;
#endif
}

/* __pasta_div_branch_body summed over every trip of a loop whose header
 * runs with the lanes of its preheader in each of its `trips` (at most 32)
 * iterations and branches there on `start` + k u< `bound` in trip k (on its
 * negation when `negate`): nw_tile's anti-diagonal `m - tx u< 16`
 * (passes/DivergenceMeasures.cpp, foldIntervalBody). Each lane knows the
 * trips it takes the body in; a trip is the body's warp execution where
 * some lane does, and divergent where some lane does and some does not.
 * Called once, at the preheader, by those lanes. */
PASTA_INLINE void __pasta_div_interval_body(uint32_t start, uint32_t bound,
                                            uint32_t trips, uint32_t negate,
                                            PASTA_PRIVATE uint32_t *divergent,
                                            PASTA_PRIVATE uint32_t *warps,
                                            PASTA_PRIVATE uint32_t *threads) {
  uint64_t lanes = __gpu_lane_mask();
  uint32_t every = (uint32_t)((1ull << trips) - 1);
  uint32_t mine = pasta_div_interval_side(start, bound, trips, negate);
  uint32_t any = pasta_div_lanes_or(lanes, mine);
  uint32_t all = ~pasta_div_lanes_or(lanes, ~mine & every) & every;
  uint32_t first = pasta_div_first(lanes) ? ~0u : 0u;
  *divergent += first & (uint32_t)__builtin_popcount(any & ~all);
  *warps += first & (uint32_t)__builtin_popcount(any);
  *threads += (uint32_t)__builtin_popcount(mine);
}

/* The bank conflicts beyond the derived ones that __pasta_div_access_lanes
 * adds over the trips of __pasta_div_interval_body's loop for a shared load
 * or store of `size` bytes (a power of 2 up to 4) in the branch's body,
 * aligned to its size, at a lane stride that is a multiple of 4 other than
 * the size (passes/DivergenceMeasures.cpp, foldIntervalConflicts): trip
 * k's lanes are those whose bit k is set, and where they are one row of
 * `width` (__pasta_div_row_width) its one-row path adds the conflicts of
 * those lanes alone (none for a full warp: aligned rows have the derived
 * figures). Called once, at the preheader, by its lanes; returns 1 when
 * every trip's lanes are one row (the first lane added the sum), else 0,
 * adding nothing (the trips measure). */
PASTA_INLINE uint32_t __pasta_div_interval_conflicts(
    uint32_t start, uint32_t bound, uint32_t trips, uint32_t negate,
    uint32_t size, uint32_t stride, uint32_t width,
    PASTA_PRIVATE uint32_t *bank_conflicts) {
  uint64_t lanes = __gpu_lane_mask();
  uint32_t mine = pasta_div_interval_side(start, bound, trips, negate);
  uint64_t d[PASTA_DIV_NUM];
  pasta_div_lanes_derived(size, stride, PASTA_DIV_SHARED, 1, 0, d);
  uint32_t sum = 0, rows = 1;
  for (uint32_t k = 0; k < trips; ++k) {
    uint64_t m = __gpu_ballot(lanes, (mine >> k) & 1);
    if (m == 0) /* the body does not run */
      continue;
    rows &= width == 32 ||
            (width == 16 && ((m & 0xffffull) == 0 || (m >> 16) == 0));
    if (m != PASTA_DIV_FULL_WARP)
      sum += (uint32_t)(pasta_div_strided_wavefronts(m, stride) - 1 -
                        d[PASTA_DIV_BANK_CONFLICTS]);
  }
  if (!rows)
    return 0;
  if (pasta_div_first(lanes))
    *bank_conflicts += sum;
  return 1;
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
  /* Lanes that agree add nothing: tested first, in every lane alike (a
   * branch no warp splits at), so the first-lane test and its %lanemask_lt
   * read run in divergent executions only. */
  if (yes == 0 || yes == lanes)
    return;
  uint64_t below = pasta_div_below(lanes);
  uint64_t hidden = pasta_div_hidden_below(below);
  if (below == 0)
    pasta_div_lone_add(divergent, 1, hidden);
}

/* A two-way branch outside loops whose `taken` side is a block entered only
 * from it (passes/DivergencePlan.cpp, derivedBody): that block's warp
 * executions are the branch's less those in which no active lane takes it,
 * which the first lane adds to `none` (rare where the block is a guarded
 * body), so that the block adds nothing itself; and, when `with_divergent`
 * (a constant: the branch is measured), the branch's divergent executions
 * as __pasta_div_branch_add. When `with_others` (a constant: the counting
 * code does not count the block), also the active lanes that do not take
 * it, to `others`: the block's thread-level executions are the branch's
 * less those. Returns 1 in the lane that added to `none`, else 0. */
PASTA_INLINE uint32_t __pasta_div_branch_none_add(
    uint32_t taken, PASTA_GLOBAL uint64_t *divergent,
    PASTA_GLOBAL uint64_t *none, uint32_t with_divergent,
    PASTA_GLOBAL uint64_t *others, uint32_t with_others) {
  uint64_t lanes = __gpu_lane_mask();
  uint64_t yes = __gpu_ballot(lanes, taken != 0);
  /* Every active lane took it (a guarded body's usual case): nothing to
   * add, tested before the first-lane test as in __pasta_div_branch_add. */
  if (yes == lanes)
    return 0;
  uint64_t below = pasta_div_below(lanes);
  uint64_t hidden = pasta_div_hidden_below(below);
  if (below != 0)
    return 0;
  if (yes == 0)
    pasta_div_lone_add(none, 1, hidden);
  else if (with_divergent && yes != lanes)
    pasta_div_lone_add(divergent, 1, hidden);
  if (with_others && yes != lanes)
    pasta_div_lone_add(others, (uint64_t)__builtin_popcountll(lanes & ~yes),
                       hidden);
  /* 1 in the lane that added to `none` (a launch class's count follows:
   * passes/DivergenceMeasures.cpp), 0 elsewhere. */
  return yes == 0;
}

/* __pasta_div_branch_none_add for a branch whose lanes split in most warps
 * (passes/DivergencePlan.cpp, splitBody: a lane test such as `lane == 0`):
 * every warp execution takes the body's side in no active lane (`none`), in
 * every one (`all`) or in some, so read-back derives the divergent ones as
 * the branch's executions less `none` and `all`, and a warp that splits,
 * the usual one, adds nothing (it added its divergent execution: one `red`
 * a warp). `full_splits` (a constant) says that a full warp splits there
 * (a lane test that some lanes of a 32-lane row pass and some fail, in a
 * body for rows of 32: passes/DivergenceRows32.cpp), which then needs no
 * vote. */
PASTA_INLINE void __pasta_div_branch_split_add(uint32_t taken,
                                               PASTA_GLOBAL uint64_t *all,
                                               PASTA_GLOBAL uint64_t *none,
                                               uint32_t full_splits) {
  uint64_t lanes = __gpu_lane_mask();
  if (full_splits && lanes == PASTA_DIV_FULL_WARP)
    return;
  uint64_t yes = __gpu_ballot(lanes, taken != 0);
  if (yes != 0 && yes != lanes)
    return;
  uint64_t below = pasta_div_below(lanes);
  uint64_t hidden = pasta_div_hidden_below(below);
  if (below == 0)
    pasta_div_lone_add(yes == 0 ? none : all, 1, hidden);
}

/* A two-way branch whose `taken` side is a block entered only from it, in a
 * block every thread of every block runs once with its warp's lanes, on a
 * condition of the thread's place in its block and of values the same in
 * every block (passes/DivergencePlan.cpp, launchBody): every thread block
 * then runs the branch in the same warps with the same lanes each way, so
 * that block's warp executions, and the branch's divergent ones, are the
 * grid's blocks times block 0's. The first lane of each of block 0's warps
 * adds the grid's blocks to `warps` when a lane takes the branch and, when
 * `with_divergent` (a constant: the branch is measured), to `divergent`
 * when the lanes go both ways; the other blocks add nothing. */
PASTA_INLINE void
__pasta_div_branch_launch_add(uint32_t taken, PASTA_GLOBAL uint64_t *divergent,
                              PASTA_GLOBAL uint64_t *warps,
                              uint32_t with_divergent) {
  if ((__gpu_block_id_x() | __gpu_block_id_y() | __gpu_block_id_z()) != 0)
    return;
  uint64_t lanes = __gpu_lane_mask();
  uint64_t yes = __gpu_ballot(lanes, taken != 0);
  uint64_t below = pasta_div_below(lanes);
  uint64_t hidden = pasta_div_hidden_below(below);
  if (below != 0)
    return;
  uint64_t blocks = pasta_grid_blocks();
  if (with_divergent && yes != 0 && yes != lanes)
    pasta_div_lone_add(divergent, blocks, hidden);
  if (yes != 0)
    pasta_div_lone_add(warps, blocks, hidden);
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

/* The grid's first thread adds the warps and the threads the launch
 * started (__pasta_div_count_launch); every other thread adds nothing. */
static PASTA_INLINE void
pasta_div_count_launch_here(PASTA_GLOBAL uint64_t *warps,
                            PASTA_GLOBAL uint64_t *threads) {
  if (!pasta_first_thread_of_grid())
    return;
  uint64_t blocks = pasta_grid_blocks();
  pasta_atomic_add(warps, blocks * pasta_block_warps());
  pasta_atomic_add(threads, blocks * pasta_block_threads());
}

/* The grid's first thread adds the warps the launch started to `warps`;
 * every other thread adds nothing. */
static PASTA_INLINE void
pasta_div_count_launch_warps_here(PASTA_GLOBAL uint64_t *warps) {
  if (pasta_first_thread_of_grid())
    pasta_atomic_add(warps, pasta_grid_blocks() * pasta_block_warps());
}

/* At a kernel's entry, in its divergence copy: the grid's first thread adds
 * the warps and the threads the launch started, which are the entry block's
 * warp-level executions and their active lanes (every warp runs the entry
 * once, with all its lanes), so that no warp measures them. The test is the
 * counting code's two steps (PASTA_IF_MAYBE_FIRST_THREAD): one test of
 * `tid.x | ctaid.x` cost every warp of every block a reconvergence region
 * (BSSY, BSYNC) and the OR, 4 SASS a warp; the block index x alone is the
 * counting code's first-block test, which ptxas shares. */
PASTA_INLINE void __pasta_div_count_launch(PASTA_GLOBAL uint64_t *warps,
                                           PASTA_GLOBAL uint64_t *threads) {
  PASTA_IF_MAYBE_FIRST_THREAD(pasta_div_count_launch_here(warps, threads));
}

/* In a launch of a class a copy derives full warps' figures for (`on`, a
 * value of the launch alone: passes/DivergenceMeasures.cpp, launch-derived
 * figures), the grid's first thread adds the warps the launch started to
 * `warps` too, that class's counter (DivergencePlan::LaunchClass). */
PASTA_INLINE void __pasta_div_count_launch_warps(uint32_t on,
                                                 PASTA_GLOBAL uint64_t *warps) {
  if (on)
    PASTA_IF_MAYBE_FIRST_THREAD(pasta_div_count_launch_warps_here(warps));
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

/* At a kernel's sole return, which every thread of a launch runs once
 * (passes/DivergencePlan.cpp, soleReturn): the first lane of a group that
 * does not hold lane 0 adds 1 to `regroups`. A warp's threads are its
 * lowest lanes, so lane 0 starts in every warp and exactly one of the
 * groups its lanes come in holds it: read-back adds the launch's warps,
 * and a warp that comes whole, the usual one, adds nothing (it added its
 * warp execution and its lanes: two `red`s a warp). */
PASTA_INLINE void __pasta_div_return_add(PASTA_GLOBAL uint64_t *regroups) {
  uint64_t lanes = __gpu_lane_mask();
  uint64_t below = pasta_div_below(lanes);
  uint64_t hidden = pasta_div_hidden_below(below);
  if (below != 0 || (lanes & 1) != 0)
    return;
  pasta_div_lone_add(regroups, 1, hidden);
}

/* A full warp's constant counts at a clean exit (passes/
 * DivergenceMeasures.cpp, cleanWarpExits): `total`, the warp's sum, added
 * by lane 0 alone. */
PASTA_INLINE void __pasta_div_warp_add(PASTA_GLOBAL uint64_t *counter,
                                       uint64_t total) {
  if (__gpu_lane_id() == 0)
    pasta_atomic_add(counter, total);
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

/* 1 in every active lane when at most one of them holds a nonzero register
 * at a return (`any`: the OR of the lane's registers), else 0. The access,
 * branch and block helpers add in a warp's first active lane, so this is
 * the usual case (lane 0 in warps that stayed whole): that lane then adds
 * its registers itself (__pasta_div_add), with no warp sum per register;
 * the sums are the same, every other lane's registers being 0. */
PASTA_INLINE uint64_t __pasta_div_flush_lone(uint64_t any) {
  uint64_t holders = __gpu_ballot(__gpu_lane_mask(), any != 0);
  return (holders & (holders - 1)) == 0;
}

/* That lane's add of one register (__pasta_div_add under the flush's own
 * name: the pass does not count the return's flush among the measurement
 * helpers that decide whether a copy gets its uncapped twin). */
PASTA_INLINE void __pasta_div_flush_add(PASTA_GLOBAL uint64_t *counter,
                                        uint64_t value) {
  __pasta_div_add(counter, value);
}

/* 1 in every active lane when the active lanes can sum a register together
 * (pasta_lanes_can_sum: any lanes with redux.sync, a full warp elsewhere) and
 * every register of every one of them is small (`any`, the OR of a lane's
 * registers, below pasta_small_count_limit()), so that each sum fits in 32
 * bits; else 0. The return's flush tests it where __pasta_flush_is_fast did
 * not hold: a warp of a block narrower than 32 threads (nw_tile's 16) then
 * sums its registers inline instead of staging them. */
PASTA_INLINE uint64_t __pasta_div_flush_lanes_fast(uint64_t any) {
  uint64_t lanes = __gpu_lane_mask();
  return pasta_lanes_can_sum(lanes) &
         (__gpu_ballot(lanes, any >= pasta_small_count_limit()) == 0);
}

/* The lanes running the return's flush together, read once for its sums. */
PASTA_INLINE uint64_t __pasta_div_flush_lanes(void) {
  return __gpu_lane_mask();
}

/* One register's flush by `lanes` (__pasta_div_flush_lanes, after
 * __pasta_div_flush_lanes_fast said so): its 32-bit sum over them, added by
 * the first of them when not zero. */
PASTA_INLINE void __pasta_div_flush_counter_lanes(PASTA_GLOBAL uint64_t *slot,
                                                  uint64_t value,
                                                  uint64_t lanes) {
  uint32_t sum = pasta_lanes_sum_u32(lanes, (uint32_t)value);
  /* `&`, not `&&`: the first-lane test, outside the branch, is the same
   * in every register's flush and is computed once. */
  if ((sum != 0) & (__gpu_lane_id() == (uint32_t)__builtin_ctzll(lanes)))
    pasta_atomic_add(slot, sum);
}

/* The signed form of the two above, for registers that hold figures less
 * derived ones and so may be negative (nw_tile's 16-lane rows add their
 * measured sectors less a full row's, at every trip): 1 in every active
 * lane when the lanes can sum together and every register of every one of
 * them lies in [-L, L), L = pasta_small_count_limit() / 2 (`magnitude`, the
 * OR of the lane's registers each as v ^ (v >> 63): v itself when v >= 0,
 * -v - 1 below 0; an OR of such values is below the power of 2 L exactly
 * when each is), so that each sum fits in a signed 32-bit value; else 0. */
PASTA_INLINE uint64_t __pasta_div_flush_lanes_fast_signed(uint64_t magnitude) {
  uint64_t lanes = __gpu_lane_mask();
  return pasta_lanes_can_sum(lanes) &
         (__gpu_ballot(lanes, magnitude >= pasta_small_count_limit() / 2) == 0);
}

/* One register's flush by `lanes` after __pasta_div_flush_lanes_fast_signed
 * said so: its signed 32-bit sum over them, added (sign-extended: the
 * counters' u64 arithmetic wraps as the registers' adds do) by the first of
 * them when not zero. */
PASTA_INLINE void
__pasta_div_flush_counter_lanes_signed(PASTA_GLOBAL uint64_t *slot,
                                       uint64_t value, uint64_t lanes) {
  int32_t sum = (int32_t)pasta_lanes_sum_u32(lanes, (uint32_t)value);
  if ((sum != 0) & (__gpu_lane_id() == (uint32_t)__builtin_ctzll(lanes)))
    pasta_atomic_add(slot, (uint64_t)(int64_t)sum);
}

/* The lone lane's add (__pasta_div_flush_add) of a register the pass knows
 * is one 32-bit register: tested in 32 bits, sign-extended only when added
 * (hotspot's seven registers were each extended and tested in 64 bits). */
PASTA_INLINE void __pasta_div_flush_add32(PASTA_GLOBAL uint64_t *counter,
                                          uint32_t value) {
  if (value != 0)
    pasta_atomic_add(counter, (uint64_t)(int64_t)(int32_t)value);
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
