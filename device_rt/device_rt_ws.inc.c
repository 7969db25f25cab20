/*===- device_rt_ws.inc.c - working-set mode -------------------------------===*
 * Part of device_rt.c, which includes it: one translation unit (and one
 * bitcode) per GPU target. Not compiled on its own.
 *===----------------------------------------------------------------------===*/

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
    /* Not unrolled: every function that calls this inlines it, and a
     * kernel's register count is the most any function it calls needs.
     * Unrolled, the full path keeps eight loads in flight (four times over
     * in a batch); rolled, one. The full path is rare; occupancy is not.
     * (Not measured alone.) */
#pragma clang loop unroll(disable)
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

/* Sets up to four page flags (0: none; addresses as if flags were stored in
 * order, swizzled here), after the accesses they stand for: 1 is stored
 * in each (flags go from 0 to 1 only within a launch, so a store where
 * the flag is 1 already changes nothing). */
PASTA_INLINE void __pasta_ws_mark(uint64_t f0, uint64_t f1, uint64_t f2,
                                  uint64_t f3) {
  /* Where each flag is stored (abi.h); 0 stays 0. */
  f0 = pasta_ws_flag_swizzle(f0);
  f1 = pasta_ws_flag_swizzle(f1);
  f2 = pasta_ws_flag_swizzle(f2);
  f3 = pasta_ws_flag_swizzle(f3);
#if defined(__NVPTX__)
  /* A store of 1 to each flag, no read first: the warp does not wait for
   * a load before it goes on (reading the flag and storing where 0 left
   * vector_add's copy waiting on L1TEX 20.6 of every 29.7 cycles, ncu on
   * an H200; bench/ws_state_strategies.cu measured 1.43x against 1.75x
   * for the two, flags spread over lines as here). Predicated, so no basic
   * blocks (ptxas's time grows faster than a function's blocks). Not a
   * memory clobber: the flags are PASTA's own memory, which the program
   * never reads. */
  __asm__ volatile("{\n\t"
                   ".reg .pred %%pn<4>;\n\t"
                   ".reg .b16 %%one;\n\t"
                   "setp.ne.u64 %%pn0, %0, 0;\n\t"
                   "setp.ne.u64 %%pn1, %1, 0;\n\t"
                   "setp.ne.u64 %%pn2, %2, 0;\n\t"
                   "setp.ne.u64 %%pn3, %3, 0;\n\t"
                   "mov.b16 %%one, 1;\n\t"
                   "@%%pn0 st.global.u8 [%0], %%one;\n\t"
                   "@%%pn1 st.global.u8 [%1], %%one;\n\t"
                   "@%%pn2 st.global.u8 [%2], %%one;\n\t"
                   "@%%pn3 st.global.u8 [%3], %%one;\n\t"
                   "}" ::"l"(f0),
                   "l"(f1), "l"(f2), "l"(f3));
#else
  PASTA_GLOBAL uint8_t *f[4] = {(PASTA_GLOBAL uint8_t *)(uintptr_t)f0,
                                (PASTA_GLOBAL uint8_t *)(uintptr_t)f1,
                                (PASTA_GLOBAL uint8_t *)(uintptr_t)f2,
                                (PASTA_GLOBAL uint8_t *)(uintptr_t)f3};
  for (int i = 0; i < 4; ++i)
    if (f[i])
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
/* A flag with bit 63 set (PASTA_WS_SLOW, or one out of its parameter's
 * range) is one only the full path knows: no device address has that bit,
 * and a batch tests all four flags with two ORs and one shift. */
#define PASTA_WS_SLOW_BIT 63u

/* The flag of an access traced to a kernel parameter whose allocation is
 * [arg_base, arg_end), its first page's flag at arg_flags; bit 63 set
 * where the access is outside that range. Not a select of PASTA_WS_SLOW:
 * that took two selects and two compares per access (64-bit) where this
 * takes one instruction on the high word. */
PASTA_INLINE uint64_t __pasta_ws_flag_arg(uint64_t arg_base, uint64_t arg_end,
                                          uint64_t arg_flags,
                                          uint32_t page_shift, void *ptr) {
  uint64_t offset = (uint64_t)(uintptr_t)ptr - arg_base;
  uint64_t outside = offset >= arg_end - arg_base;
  /* In range, the page's index fits 32 bits (num_pages is 32-bit): one
   * shift, not two. */
  uint32_t page = (uint32_t)(offset >> page_shift);
  return (arg_flags + page) | outside << PASTA_WS_SLOW_BIT;
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
 * pass emits per batch, so the call passes six values. A loop's mark (a
 * batch of one) also carries in bits 8-15 the launch state's slot + 1 of
 * the kernel parameter its address was traced to (0: none). */
struct pasta_ws_batch {
  uint32_t site[4], generic;
};

/* The full path of a batch of accesses traced to kernel parameters:
 * without the cache (such a copy keeps none). One access at a time, its
 * flag set before the next one's is found: ptxas compiles this function
 * again inside every kernel that calls it, and written out four times it
 * was a quarter of what Thrust's working-set copies add to ptxas's time.
 * Rolled, that fell by 0.2 s and most working-set kernels need up to 8
 * registers fewer (a few 2 to 4 more); the flags, outside and hotness
 * counts are the same, the four pointers go through local memory on this
 * path only (32 bytes of stack frame in the kernels that call this, used
 * only here: the fast path's only cost is setting the stack pointer at
 * entry). Kept in registers instead (rotated, p0 = p1, ...), the callee
 * needed more of them, and ptxas counts the callee's toward every kernel
 * that calls it: srad_update's copy 40 -> 48, hotspot 46 -> 54, bfs_expand
 * 72 -> 76, vector_add 30 -> 32. */
PASTA_ENTRY void
__pasta_ws_mark_uncached(const PASTA_GLOBAL struct pasta_ws_launch *st,
                         void *p0, void *p1, void *p2, void *p3,
                         const PASTA_GLOBAL struct pasta_ws_batch *batch) {
  uint64_t hot = st->blocks;
  uint32_t shift = st->page_shift, generic = batch->generic;
  void *p[4] = {p0, p1, p2, p3};
#pragma clang loop unroll(disable)
  for (uint32_t k = 0; k < 4; ++k)
    if (p[k])
      __pasta_ws_mark(pasta_ws_resolve_uncached(st, hot, shift, p[k],
                                                batch->site[k],
                                                (generic >> k) & 1u),
                      0, 0, 0);
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
  return __builtin_expect(
      (((f0 | f1 | f2 | f3) >> PASTA_WS_SLOW_BIT) | hot) != 0, 0);
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

/*-- Compact working-set copies ------------------------------------------*
 * A kernel whose working-set copy would have more accesses than the pass's
 * budget (PASTA_WS_COMPACT_ABOVE) gets a compact copy: nothing inline but
 * one call per batch, here, which finds the four flags itself. ptxas spent
 * most of such a copy's time on the inline flags (issue [overhead-3]: a
 * myocyte-shaped kernel of 427 accesses). The
 * same flags, outside counts and hotness counts as the inline path: an
 * access traced to kernel parameter K (args byte k: K + 1, 0 for none) is
 * checked against that parameter's allocation first, as
 * __pasta_ws_flag_arg does; anything else, or a launch counting hotness,
 * takes the full path without the cache. */
struct pasta_ws_compact_batch {
  struct pasta_ws_batch sites; /* what the full path needs */
  uint32_t args;
};

static inline __attribute__((always_inline)) uint64_t pasta_ws_resolve_compact(
    const PASTA_GLOBAL struct pasta_ws_launch *st, uint64_t hot,
    uint32_t page_shift, uint64_t bank, void *ptr, uint32_t site,
    uint32_t generic, uint32_t arg) {
  if (arg && !hot) {
    const PASTA_GLOBAL struct pasta_ws_arg *a = &st->args[arg - 1];
    uint64_t flag =
        __pasta_ws_flag_arg(a->base, a->end, a->flags + bank, page_shift, ptr);
    if (!(flag >> PASTA_WS_SLOW_BIT))
      return flag;
  }
  return pasta_ws_resolve_uncached(st, hot, page_shift, ptr, site, generic);
}

/* The flag of a compact batch's access `ptr` traced to kernel parameter
 * `arg` - 1: bit 63 set where only the full path knows it (no parameter,
 * or outside its allocation); 0 for no access. */
static inline __attribute__((always_inline)) uint64_t pasta_ws_flag_traced(
    const PASTA_GLOBAL struct pasta_ws_launch *st, uint32_t page_shift,
    uint64_t bank, void *ptr, uint32_t arg) {
  if (!ptr)
    return 0;
  if (!arg)
    return PASTA_WS_SLOW;
  const PASTA_GLOBAL struct pasta_ws_arg *a = &st->args[arg - 1];
  return __pasta_ws_flag_arg(a->base, a->end, a->flags + bank, page_shift, ptr);
}

/* A compact copy's batch of up to four accesses (null: no access), after
 * them. Only the range checks of traced accesses are here; a batch with
 * any other access, or in a launch counting hotness, goes the full path
 * out of line (__pasta_ws_mark_uncached: the same flags, outside and
 * hotness counts, one access at a time). With that path inline (table
 * searches, and votes and shuffles over the active lanes, though no batch
 * of the run took it), the callers' block counts came out wrong in
 * working-set mode on an H200, their data unchanged: the unbuffered
 * copies of a myocyte-like kernel (issue [overhead-3]). */
PASTA_ENTRY void __pasta_ws_mark_compact(
    const PASTA_GLOBAL struct pasta_ws_launch *st, void *p0, void *p1, void *p2,
    void *p3, const PASTA_GLOBAL struct pasta_ws_compact_batch *batch) {
  uint32_t shift = st->page_shift, args = batch->args;
  uint64_t bank = __pasta_ws_bank_offset(st->num_pages, st->page_banks);
  uint64_t f0 = pasta_ws_flag_traced(st, shift, bank, p0, args & 0xffu);
  uint64_t f1 = pasta_ws_flag_traced(st, shift, bank, p1, (args >> 8) & 0xffu);
  uint64_t f2 = pasta_ws_flag_traced(st, shift, bank, p2, (args >> 16) & 0xffu);
  uint64_t f3 = pasta_ws_flag_traced(st, shift, bank, p3, args >> 24);
  if (pasta_ws_batch_slow(st->blocks, f0, f1, f2, f3))
    __pasta_ws_mark_uncached(st, p0, p1, p2, p3, &batch->sites);
  else
    __pasta_ws_mark(f0, f1, f2, f3);
}

/* A buffered compact copy's accesses since its last call, in the first n
 * slots of the buffer in the copy's frame (KernelVariants.cpp,
 * insertBufferedMarks): per access an address and (in the buffer or in
 * the call's table, below) a word of its site (bits
 * 0-31), whether the address is a generic pointer (bit 32), the kernel
 * parameter it is traced to + 1 (bits 40-47, 0 for none) and a signed
 * 16-bit offset to add to the address (bits 48-63: the pass stores an
 * earlier access's address where the two differ by a constant, so the copy
 * keeps fewer addresses live). A slot whose address is 0 holds no access
 * (a path that skipped it); each slot read is cleared. In order, one at a
 * time, as __pasta_ws_mark_compact marks its batches: the same flags,
 * outside counts and hotness counts. */
struct pasta_ws_buffered {
  uint64_t ptr, word;
};

/* `words`, a constant the pass made for the call site, holds the word of
 * each slot where one access only can be in it there (the copy then stores
 * none: the word stores were a third of a buffered copy's ptxas time,
 * myocyte 12, issue [overhead-3]); PASTA_WS_WORD_IN_BUFFER where several
 * can: the word is in the buffer. words == 0: every word in the buffer. */

PASTA_ENTRY void
__pasta_ws_mark_buffer(const PASTA_GLOBAL struct pasta_ws_launch *st,
                       PASTA_PRIVATE struct pasta_ws_buffered *buffer,
                       uint32_t n, const PASTA_GLOBAL uint64_t *words) {
  uint64_t hot = st->blocks;
  uint32_t shift = st->page_shift;
  uint64_t bank = __pasta_ws_bank_offset(st->num_pages, st->page_banks);
#pragma clang loop unroll(disable)
  for (uint32_t k = 0; k < n; ++k) {
    uint64_t base = buffer[k].ptr;
    uint64_t word = words ? words[k] : PASTA_WS_WORD_IN_BUFFER;
    if (word == PASTA_WS_WORD_IN_BUFFER)
      word = buffer[k].word;
    buffer[k].ptr = 0;
    void *ptr =
        (void *)(uintptr_t)(base + (uint64_t)(int64_t)(int16_t)(word >> 48));
    if (base)
      __pasta_ws_mark(pasta_ws_resolve_compact(st, hot, shift, bank, ptr,
                                               (uint32_t)word,
                                               (uint32_t)(word >> 32) & 1u,
                                               (uint32_t)(word >> 40) & 0xffu),
                      0, 0, 0);
  }
}

/*-- Marks of a loop's accesses, set once in front of the loop -------------*
 * An access the pass proved to run once in each iteration of a loop whose
 * trip count is known at its entry is not marked in the loop: the loop's
 * preheader calls __pasta_ws_mark_loop once for all its iterations
 * (WorkingSetLoops.cpp; `batch` names the access as a batch of one).
 * Iteration k's address is base + scale * x(k), x(k)
 * = a + k * b taken to `ext & 0xff` bits (64: as is) and sign-extended (bit
 * 8 of ext) or zero-extended: an int index of a 64-bit pointer.
 * The flags set, the accesses counted outside every allocation and the
 * hotness counts are those of the `count` accesses marked one by one.
 * Returns 1 where it only set flags (a repeat with the same operands would
 * set the same), 0 where it also counted (accesses outside every
 * allocation, hotness).
 * Where the loop runs in every iteration of an outer loop, `rows` of them,
 * __pasta_ws_mark_nest covers the whole nest, if it can: in outer
 * iteration j the base is base + rscale * y(j), y(j) = ra + j * rb taken
 * to `rext` bits as x to `ext`; with bit 9 of rext, x(k) and y(j) are one
 * index, extended together (ra + j * rb + a + k * b taken to `rext`, rscale
 * = scale). */

/* x(k) (above). */
static uint64_t pasta_ws_loop_index(uint64_t a, uint64_t b, uint64_t k,
                                    uint32_t ext) {
  uint64_t x = a + k * b;
  uint32_t bits = ext & 0xffu;
  if (bits >= 64)
    return x;
  uint64_t low = x & ((UINT64_C(1) << bits) - 1);
  uint64_t sign = UINT64_C(1) << (bits - 1);
  return ext & 0x100u ? (low ^ sign) - sign : low;
}

/* Whether x(k) for k < count is a + k * b without wrapping: then the
 * addresses are a progression. x moves one way, so its ends decide. */
/* Whether least..most are all values of an index of `ext & 0xff` (at most
 * 32) bits, signed where bit 8 of ext says so. */
static int pasta_ws_index_holds(int64_t least, int64_t most, uint32_t ext) {
  uint32_t bits = ext & 0xffu;
  int64_t lo = ext & 0x100u ? -((int64_t)1 << (bits - 1)) : 0;
  int64_t hi =
      ext & 0x100u ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
  return least >= lo && most <= hi;
}

static int pasta_ws_loop_in_range(uint64_t a, uint64_t b, uint64_t count,
                                  uint32_t ext) {
  uint32_t bits = ext & 0xffu;
  if (bits >= 64)
    return 1;
  if (count > (UINT64_C(1) << 31) || bits > 32)
    return 0;
  /* a is x(0), already extended and so in range; |b| < 2^32 for bits <= 32
   * (extended from them), so the product below stays within 63 bits. */
  int64_t last = (int64_t)a + (int64_t)(count - 1) * (int64_t)b;
  return pasta_ws_index_holds(last, last, ext);
}

/* Whether x(k) + y(j) stays in range for the extension they share (ext
 * with bit 9: the rows' index adds to the loop's before the extension, as
 * in a[c * n + f]): each is within it already (pasta_ws_loop_in_range), so
 * the sums below fit in 64 bits, and x(k) + y(j) moves one way along each. */
static int pasta_ws_loop_sum_in_range(uint64_t a, uint64_t b, uint64_t count,
                                      uint64_t ra, uint64_t rb, uint64_t rows,
                                      uint32_t ext) {
  uint32_t bits = ext & 0xffu;
  if (bits > 32)
    return 0;
  int64_t x0 = (int64_t)a, x1 = x0 + (int64_t)(count - 1) * (int64_t)b;
  int64_t y0 = (int64_t)ra, y1 = y0 + (int64_t)(rows - 1) * (int64_t)rb;
  return pasta_ws_index_holds((x0 < x1 ? x0 : x1) + (y0 < y1 ? y0 : y1),
                              (x0 < x1 ? x1 : x0) + (y0 < y1 ? y1 : y0), ext);
}

/* The step of a progression in bytes, scale * b, and its magnitude: 0 where
 * it does not fit in 63 bits (then the caller takes no progression). */
static int pasta_ws_loop_step(uint64_t scale, uint64_t b, uint64_t *step,
                              uint64_t *magnitude) {
  int64_t bytes;
  if (__builtin_mul_overflow((int64_t)scale, (int64_t)b, &bytes) ||
      bytes == INT64_MIN)
    return 0;
  *step = (uint64_t)bytes;
  *magnitude = bytes < 0 ? (uint64_t)-bytes : (uint64_t)bytes;
  return 1;
}

/* The flags of accesses at addr + k * step (k < n) inside an allocation
 * whose first page's flag is `flags`, one at a time: this function sets
 * the register count of every kernel that calls it (the most any function
 * it calls needs), and runs once per loop, not per access. */
static void pasta_ws_mark_strided(uint64_t flags, uint64_t base, uint32_t shift,
                                  uint64_t addr, uint64_t step, uint64_t n) {
#pragma clang loop unroll(disable)
  for (uint64_t k = 0; k < n; ++k)
    __pasta_ws_mark(flags + ((addr + k * step - base) >> shift), 0, 0, 0);
}

/* The pages from lo's to hi's, each once. */
static void pasta_ws_mark_pages(uint64_t flags, uint64_t base, uint32_t shift,
                                uint64_t lo, uint64_t hi) {
  pasta_ws_mark_strided(flags, base, shift, lo, UINT64_C(1) << shift,
                        ((hi - base) >> shift) - ((lo - base) >> shift) + 1);
}

/* A bulk copy's flags, after it (counted inline PTX: cp.async.bulk moves
 * `bytes`, up to many pages, from or to `ptr`; one flag would mark only
 * the first page): the pages of its bytes from the first to the last, or
 * to the end of the allocation holding the first. Counted as the one
 * access it is where it lies outside every allocation and in hotness.
 * `generic`: the address may be other than global (then not marked). */
PASTA_ENTRY void
__pasta_ws_mark_range(const PASTA_GLOBAL struct pasta_ws_launch *st, void *ptr,
                      uint32_t bytes, uint32_t site, uint32_t generic) {
  if (generic && !pasta_ws_is_global(ptr))
    return;
  uint64_t addr = (uint64_t)(uintptr_t)ptr;
  uint32_t i = pasta_ws_find_counted(st, addr, site);
  if (i == PASTA_NONE)
    return;
  const PASTA_GLOBAL struct pasta_ws_alloc *t =
      (const PASTA_GLOBAL struct pasta_ws_alloc *)(uintptr_t)st->allocs;
  uint64_t base = t[i].base, left = t[i].size - (addr - base);
  if (st->blocks)
    __pasta_ws_hot_at(st, addr, base);
  uint64_t span = bytes < left ? bytes : left;
  uint64_t last = addr + (span ? span - 1 : 0);
  uint64_t flags = st->pages +
                   __pasta_ws_bank_offset(st->num_pages, st->page_banks) +
                   t[i].first_page;
  pasta_ws_mark_pages(flags, base, st->page_shift, addr, last);
}

/* The flags of a nest's accesses where they lie in one allocation and
 * hotness is not counted: returns 1, having set them. Else 0, nothing set.
 * `arg`: the launch state's slot + 1 of the kernel parameter (or pointer
 * field) the address was traced to, 0 for none; where the box lies in that
 * allocation, the table is not searched (a search per call was most of the
 * instructions of a Thrust transform's copy). */
static inline __attribute__((always_inline)) uint32_t
pasta_ws_mark_box(const PASTA_GLOBAL struct pasta_ws_launch *st,
                  uint64_t origin, uint64_t scale, uint64_t a, uint64_t b,
                  uint64_t count, uint32_t ext, uint64_t rscale, uint64_t ra,
                  uint64_t rb, uint64_t rows, uint32_t rext, uint32_t arg) {
  uint32_t shift = st->page_shift;
  const PASTA_GLOBAL struct pasta_ws_alloc *t =
      (const PASTA_GLOBAL struct pasta_ws_alloc *)(uintptr_t)st->allocs;
  uint64_t first = origin + rscale * ra + scale * a;
  uint64_t step = 0, magnitude = 0, rstep = 0, rmagnitude = 0;
  /* The addresses' box, spans of the inner and outer progressions, without
   * wrapping past either end of the address space (a wrapped progression
   * "in one allocation" would name flags outside the flag array; such a
   * loop faults plain, but only after this ran). */
  uint64_t span = 0, rspan = 0, box = 0;
  int progression =
      count && rows && !st->blocks &&
      pasta_ws_loop_in_range(a, b, count, ext) &&
      pasta_ws_loop_in_range(ra, rb, rows, rext) &&
      (!(rext & 0x200u) ||
       pasta_ws_loop_sum_in_range(a, b, count, ra, rb, rows, rext)) &&
      pasta_ws_loop_step(scale, b, &step, &magnitude) &&
      pasta_ws_loop_step(rscale, rb, &rstep, &rmagnitude) &&
      !__builtin_mul_overflow(count - 1, magnitude, &span) &&
      !__builtin_mul_overflow(rows - 1, rmagnitude, &rspan) &&
      !__builtin_add_overflow(span, rspan, &box);
  /* How far below the first address the box reaches (<= box). */
  uint64_t below =
      ((int64_t)step < 0 ? span : 0) + ((int64_t)rstep < 0 ? rspan : 0);
  uint64_t lo = first - below, hi = lo + box;
  progression = progression && first >= below && hi >= lo;
  uint64_t base, flags;
  const PASTA_GLOBAL struct pasta_ws_arg *in =
      arg && arg <= PASTA_WS_ARG_SLOTS ? &st->args[arg - 1] : 0;
  if (progression && in && lo - in->base < in->end - in->base &&
      hi - in->base < in->end - in->base) {
    base = in->base;
    flags = in->flags;
  } else {
    uint32_t i =
        progression ? pasta_ws_find(t, st->num_allocs, lo) : PASTA_NONE;
    if (i == PASTA_NONE || hi - t[i].base >= t[i].size)
      return 0;
    base = t[i].base;
    flags = st->pages + t[i].first_page;
  }
  /* All in one allocation, hence global memory; this block's bank. */
  flags += __pasta_ws_bank_offset(st->num_pages, st->page_banks);
  uint64_t page = UINT64_C(1) << shift;
  if (magnitude <= page && rmagnitude <= span + page) {
    /* No page between lo and hi is skipped: in a row none is, and each row
     * starts at most a page past the last one's end. Each of them once. */
    pasta_ws_mark_pages(flags, base, shift, lo, hi);
    return 1;
  }
#pragma clang loop unroll(disable)
  for (uint64_t j = 0; j < rows; ++j) {
    uint64_t row = first + j * rstep;
    if (magnitude <= page)
      pasta_ws_mark_pages(flags, base, shift,
                          (int64_t)step < 0 ? row - span : row,
                          (int64_t)step < 0 ? row : row + span);
    else
      pasta_ws_mark_strided(flags, base, shift, row, step, count);
  }
  return 1;
}

/* The flags of a loop's `count` accesses (above) one by one, each counted
 * where it lies outside every allocation or hotness is counted. */
static inline __attribute__((always_inline)) void
pasta_ws_loop_one_by_one(const PASTA_GLOBAL struct pasta_ws_launch *st,
                         uint64_t origin, uint64_t scale, uint64_t a,
                         uint64_t b, uint64_t count, uint32_t ext,
                         const PASTA_GLOBAL struct pasta_ws_batch *batch) {
  uint64_t hot = st->blocks;
  uint32_t shift = st->page_shift;
  for (uint64_t k = 0; k < count; ++k)
    __pasta_ws_mark(
        pasta_ws_resolve_uncached(
            st, hot, shift,
            (void *)(uintptr_t)(origin +
                                scale * pasta_ws_loop_index(a, b, k, ext)),
            batch->site[0], batch->generic & 1u),
        0, 0, 0);
}

PASTA_ENTRY uint32_t __pasta_ws_mark_loop(
    const PASTA_GLOBAL struct pasta_ws_launch *st, void *base, uint64_t scale,
    uint64_t a, uint64_t b, uint64_t count, uint32_t ext,
    const PASTA_GLOBAL struct pasta_ws_batch *batch) {
  uint64_t origin = (uint64_t)(uintptr_t)base;
  if (pasta_ws_mark_box(st, origin, scale, a, b, count, ext, 0, 0, 0, 1, 64,
                        batch->generic >> 8 & 0xffu))
    return 1;
  /* Not one progression inside one allocation, or hotness counted: access
   * by access, inline (a call here, with the loop's values live across it,
   * would add their registers to the callee's in every kernel that calls
   * this). */
  pasta_ws_loop_one_by_one(st, origin, scale, a, b, count, ext, batch);
  return 0;
}

/* The flags of a loop nest's accesses (rows of a loop, above), where they
 * lie in one allocation and hotness is not counted: returns 1. Else 0,
 * nothing set: the caller then marks row by row, with __pasta_ws_mark_loop
 * in front of the inner loop in each iteration of the outer (access by
 * access there would hold the nest's values across the inner loop: 22 more
 * registers in kmeans' copy). */
PASTA_ENTRY uint32_t __pasta_ws_mark_nest(
    const PASTA_GLOBAL struct pasta_ws_launch *st, void *base, uint64_t scale,
    uint64_t a, uint64_t b, uint64_t count, uint32_t ext, uint64_t rscale,
    uint64_t ra, uint64_t rb, uint64_t rows, uint32_t rext) {
  return pasta_ws_mark_box(st, (uint64_t)(uintptr_t)base, scale, a, b, count,
                           ext, rscale, ra, rb, rows, rext, 0);
}

/*-- The same marks, made when the outer loop they cover is left ---------*
 * Where a loop's mark covers the iterations of an outer loop (its operands
 * do not change there, or a nest), the copy makes it once that outer loop
 * is left (WorkingSetLoops.cpp): few of the kernel's values are live
 * there, and the calls leave the outer loop's body. The flags need only be
 * set before the thread ends. */

/* __pasta_ws_mark_loop as `times` iterations of the outer loop would have
 * made it in front of the inner loop, until the first that only set flags:
 * the figures of the `times` loops' accesses marked one by one (times > 0). */
PASTA_ENTRY void __pasta_ws_mark_loop_after(
    const PASTA_GLOBAL struct pasta_ws_launch *st, void *base, uint64_t scale,
    uint64_t a, uint64_t b, uint64_t count, uint32_t ext,
    const PASTA_GLOBAL struct pasta_ws_batch *batch, uint64_t times) {
  uint64_t origin = (uint64_t)(uintptr_t)base;
  if (pasta_ws_mark_box(st, origin, scale, a, b, count, ext, 0, 0, 0, 1, 64,
                        batch->generic >> 8 & 0xffu))
    return;
#pragma clang loop unroll(disable)
  for (uint64_t t = 0; t < times; ++t)
    pasta_ws_loop_one_by_one(st, origin, scale, a, b, count, ext, batch);
}

/* A nest's flags (__pasta_ws_mark_nest's operands, and the batch of its
 * access): where the nest is not one box in one allocation, or hotness is
 * counted, row by row and access by access: row j is the loop at base +
 * rscale * y(j), or, with bit 9 of rext, the loop whose index starts at
 * a + ra + j * rb (extended as x). */
PASTA_ENTRY void __pasta_ws_mark_nest_after(
    const PASTA_GLOBAL struct pasta_ws_launch *st, void *base, uint64_t scale,
    uint64_t a, uint64_t b, uint64_t count, uint32_t ext, uint64_t rscale,
    uint64_t ra, uint64_t rb, uint64_t rows, uint32_t rext,
    const PASTA_GLOBAL struct pasta_ws_batch *batch) {
  uint64_t origin = (uint64_t)(uintptr_t)base;
  if (pasta_ws_mark_box(st, origin, scale, a, b, count, ext, rscale, ra, rb,
                        rows, rext, batch->generic >> 8 & 0xffu))
    return;
#pragma clang loop unroll(disable)
  for (uint64_t j = 0; j < rows; ++j) {
    int one = (rext & 0x200u) != 0;
    pasta_ws_loop_one_by_one(
        st,
        one ? origin : origin + rscale * pasta_ws_loop_index(ra, rb, j, rext),
        scale, one ? pasta_ws_loop_index(a + ra + j * rb, 0, 0, ext) : a, b,
        count, ext, batch);
  }
}
