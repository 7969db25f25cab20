/*===- device_rt_ws.inc.c - working-set mode -------------------------------===*
 * Part of device_rt.c, which includes it: one translation unit (and one
 * bitcode) per GPU target. Not compiled on its own.
 *===----------------------------------------------------------------------===*/

/*===-- Working-set mode ---------------------------------------------------===*
 * The working-set copy of a kernel loads what every access needs of the
 * launch's struct pasta_ws_launch once at entry (the pass emits the loads)
 * and, after each global (or generic) access, finds the page flag it sets
 * with __pasta_ws_resolve (those fields and the state's address: a cache
 * miss reads the rest itself); __pasta_ws_mark sets up to four at a time. Each
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

/* Out of line, reading the launch state itself: a miss is rare in a loop
 * (the cache holds the last two allocations). Inlined at every access, the
 * table scan, search and atomics made ptxas take longer on the working-set
 * copies of large kernels (CUB's sort: ~100 accesses) than on the rest of
 * the program, and kept the table's address, size and bank in registers for
 * the whole kernel. */
PASTA_ENTRY struct pasta_ws_hit
__pasta_ws_lookup(const PASTA_GLOBAL struct pasta_ws_launch *st, uint64_t addr,
                  uint32_t site) {
  const PASTA_GLOBAL struct pasta_ws_alloc *t =
      (const PASTA_GLOBAL struct pasta_ws_alloc *)(uintptr_t)st->allocs;
  uint32_t i = pasta_ws_find(t, st->num_allocs, addr);
  /* One atomic per warp for its lanes outside every allocation (e.g. a
   * __device__ array every thread reads): one address for the whole grid. */
  uint64_t lost = __gpu_ballot(__gpu_lane_mask(), i == PASTA_NONE);
  if (i == PASTA_NONE) {
    if (__gpu_is_first_in_lane(lost))
      pasta_ws_outside((PASTA_GLOBAL uint64_t *)(uintptr_t)st->outside, site,
                       (uint64_t)__builtin_popcountll(lost));
    return (struct pasta_ws_hit){0, 0, 0};
  }
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

/* The same for an access the pass traced back to a pointer parameter of the
 * kernel: the host already looked the argument's allocation up (struct
 * pasta_ws_arg), so an access inside it costs a range check. Anything else
 * (an argument outside every allocation, an access past its end) takes the
 * full path. */
PASTA_INLINE uint64_t __pasta_ws_resolve_arg(
    uint64_t arg_base, uint64_t arg_end, uint64_t arg_flags,
    const PASTA_GLOBAL struct pasta_ws_launch *st, uint64_t hot,
    uint32_t page_shift, void *ptr, uint32_t site, uint32_t generic,
    PASTA_PRIVATE uint64_t *base0, PASTA_PRIVATE uint64_t *end0,
    PASTA_PRIVATE uint64_t *flags0, PASTA_PRIVATE uint64_t *base1,
    PASTA_PRIVATE uint64_t *end1, PASTA_PRIVATE uint64_t *flags1) {
  uint64_t addr = (uint64_t)(uintptr_t)ptr;
  if (addr - arg_base < arg_end - arg_base && !hot)
    return arg_flags + ((addr - arg_base) >> page_shift);
  return __pasta_ws_resolve(st, hot, page_shift, ptr, site, generic, base0,
                            end0, flags0, base1, end1, flags1);
}

/* Sets up to four page flags (0: none), after the accesses they stand for.
 * All four are read first, so that their latencies overlap, then 1 is
 * stored where a flag was 0. The reads are cached (not volatile): every
 * warp of the grid reads the same few flags, which must not all go to one
 * L2 slice. A stale 0 only costs a second store of 1; flags go from 0 to 1
 * only within a launch. */
PASTA_INLINE void __pasta_ws_mark(uint64_t f0, uint64_t f1, uint64_t f2,
                                  uint64_t f3) {
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
}
