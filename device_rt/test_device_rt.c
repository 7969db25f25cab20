/*===- test_device_rt.c - The device runtime's logic, run on the CPU ------===*
 *
 * device_rt.c compiled for the host (host_gpu_shim.h: one thread at a time,
 * in a warp of one lane) so that what does not depend on the GPU is tested
 * everywhere, the AMD paths included: the working-set table search (linear
 * and binary), the outside-access counter, the trace events (sampling,
 * de-duplication, record claiming, drops), the 64-bit warp ids, the launch
 * count and the counter flush; and, on a 32-lane warp of fibers,
 * the divergence mode's warp-level arithmetic (distinct bytes, sectors,
 * bank conflicts, branch divergence, active lanes). Every expected value
 * is derived in the comments.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#define PASTA_DEVICE_RT_HOST_TEST 1
#include "device_rt.c"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pasta/div_proofs.h"
#include "tests/unit/check.h"

struct pasta_gpu_shim pasta_shim;
static void place(uint32_t block, uint32_t blocks, uint32_t thread,
                  uint32_t threads) {
  memset(&pasta_shim, 0, sizeof pasta_shim);
  pasta_shim.block[0] = block;
  pasta_shim.blocks[0] = blocks;
  pasta_shim.blocks[1] = pasta_shim.blocks[2] = 1;
  pasta_shim.thread[0] = thread;
  pasta_shim.threads[0] = threads;
  pasta_shim.threads[1] = pasta_shim.threads[2] = 1;
}

static void test_ws_find(void) {
  /* Three allocations, padded to PASTA_WS_LINEAR_MAX entries: scanned. */
  struct pasta_ws_alloc t[PASTA_WS_LINEAR_MAX];
  for (uint32_t i = 0; i < PASTA_WS_LINEAR_MAX; ++i)
    t[i] = (struct pasta_ws_alloc){UINT64_MAX, 0, 0, 0};
  t[0] = (struct pasta_ws_alloc){100, 50, 0, 0};   /* [100, 150) */
  t[1] = (struct pasta_ws_alloc){200, 10, 0, 0};   /* [200, 210) */
  t[2] = (struct pasta_ws_alloc){1000, 100, 0, 0}; /* [1000, 1100) */
  CHECK(pasta_ws_find(t, 3, 100) == 0 && pasta_ws_find(t, 3, 149) == 0);
  CHECK_EQ_INT(pasta_ws_find(t, 3, 150), PASTA_NONE);
  CHECK_EQ_INT(pasta_ws_find(t, 3, 99), PASTA_NONE);
  CHECK(pasta_ws_find(t, 3, 209) == 1 &&
        pasta_ws_find(t, 3, 210) == PASTA_NONE);
  CHECK(pasta_ws_find(t, 3, 1099) == 2 &&
        pasta_ws_find(t, 3, 5000) == PASTA_NONE);
  /* Twelve allocations of 10 bytes every 100: searched. Address 705 is in
   * the eighth ([700, 710)), 710 in none, 1195 in the last ([1100, 1110)
   * ends at 1110: 1195 is past it). */
  struct pasta_ws_alloc big[12];
  for (uint32_t i = 0; i < 12; ++i)
    big[i] = (struct pasta_ws_alloc){100 * i, 10, 0, 0};
  CHECK_EQ_INT(pasta_ws_find(big, 12, 705), 7);
  CHECK_EQ_INT(pasta_ws_find(big, 12, 710), PASTA_NONE);
  CHECK_EQ_INT(pasta_ws_find(big, 12, 1109), 11);
  CHECK_EQ_INT(pasta_ws_find(big, 12, 1195), PASTA_NONE);
  CHECK_EQ_INT(pasta_ws_find(big, 12, 0), 0);
}

static void test_ws_outside(void) {
  /* The counts add up (1 + 3); the first site (+ 1) is kept. */
  uint64_t outside[2] = {0, 0};
  pasta_ws_outside(outside, 7, 1);
  pasta_ws_outside(outside, 9, 3);
  CHECK(outside[0] == 4 && outside[1] == 8);
}

/* The page flags the working-set tests use: aligned to a group, as the host
 * aligns each bank's, so that flag i (in page order) is stored at
 * WS_FLAG(i) (abi.h, pasta_ws_flag_swizzle). Zeroed by each test. */
static _Alignas(PASTA_WS_FLAG_GROUP) uint8_t ws_flags[PASTA_WS_FLAG_GROUP];
#define WS_FLAG(i) ws_flags[pasta_ws_flag_swizzle(i)]

static uint8_t *ws_flags_zeroed(void) {
  memset(ws_flags, 0, sizeof ws_flags);
  return ws_flags;
}

/* The launch state of the working-set tests: A bytes 0..63 at
 * ua (flags 0..3), B bytes 80..111 at ub (flags 4..5), pages of 16 bytes,
 * flags at uf, one bank (the caller may set more). */
static void ws_two_allocations(struct pasta_ws_launch *st,
                               struct pasta_ws_alloc t[PASTA_WS_LINEAR_MAX],
                               uint64_t ua, uint64_t ub, uint64_t uf,
                               uint64_t outside[2]) {
  for (uint32_t i = 0; i < PASTA_WS_LINEAR_MAX; ++i)
    t[i] = (struct pasta_ws_alloc){UINT64_MAX, 0, 0, 0};
  t[0] = (struct pasta_ws_alloc){ua, 64, 0, 0};
  t[1] = (struct pasta_ws_alloc){ub, 32, 4, 0};
  memset(st, 0, sizeof *st);
  st->allocs = (uint64_t)(uintptr_t)t;
  st->pages = uf;
  st->outside = (uint64_t)(uintptr_t)outside;
  st->num_allocs = 2;
  st->page_shift = 4;
  st->num_pages = 6;
  st->page_banks = 1;
}

static void test_ws_touch(void) {
  /* Two allocations in one buffer, pages of 16 bytes (shift 4): A is bytes
   * 0..63 (4 pages, flags 0..3), B bytes 80..111 (2 pages, flags 4..5);
   * bytes 64..79 belong to neither. The table is padded to
   * PASTA_WS_LINEAR_MAX entries; one bank of flags. */
  static uint8_t mem[128];
  uint8_t *a = mem, *b = mem + 80;
  uint8_t *flags = ws_flags_zeroed();
  uint64_t outside[2] = {0, 0};
  struct pasta_ws_alloc t[PASTA_WS_LINEAR_MAX];
  struct pasta_ws_launch st;
  ws_two_allocations(&st, t, (uint64_t)(uintptr_t)a, (uint64_t)(uintptr_t)b,
                     (uint64_t)(uintptr_t)flags, outside);
  uint64_t cache[6] = {0, 0, 0, 0, 0, 0}; /* base, end, flags: 0 and 1 */
  place(0, 1, 0, 32);
#define TOUCH(p, site)                                                         \
  __pasta_ws_mark(__pasta_ws_resolve(&st, 0, 4, (p), (site), 0, &cache[0],     \
                                     &cache[1], &cache[2], &cache[3],          \
                                     &cache[4], &cache[5]),                    \
                  0, 0, 0)
  /* A miss: the table gives A; its third page (bytes 32..47) is flagged and
   * A is cached in slot 0. */
  TOUCH(a + 40, 1);
  CHECK(WS_FLAG(2) == 1 && cache[0] == (uint64_t)(uintptr_t)a &&
        cache[1] == (uint64_t)(uintptr_t)a + 64);
  /* B misses: cached in slot 0, A moves to slot 1. Byte 111 is B's last,
   * on its second page (flag 5). */
  TOUCH(b + 31, 2);
  CHECK(WS_FLAG(5) == 1 && cache[0] == (uint64_t)(uintptr_t)b &&
        cache[3] == (uint64_t)(uintptr_t)a);
  /* A hit in slot 1 flags A's first page from the cache: the cache keeps
   * its order (slot 0 still B). */
  TOUCH(a, 3);
  CHECK(WS_FLAG(0) == 1 && cache[0] == (uint64_t)(uintptr_t)b);
  /* Byte 70 is in neither: counted, site 4 remembered (+ 1), the cache
   * unchanged and no flag set (three so far). */
  TOUCH(mem + 70, 4);
  CHECK(outside[0] == 1 && outside[1] == 5 &&
        cache[0] == (uint64_t)(uintptr_t)b);
  CHECK_EQ_INT(WS_FLAG(0) + WS_FLAG(1) + WS_FLAG(2) + WS_FLAG(3) + WS_FLAG(4) +
                   WS_FLAG(5) + WS_FLAG(6) + WS_FLAG(7),
               3);
  /* Hotness: both allocations start at hotness block 0 (first_block 0),
   * so a touch adds its one lane to block 0's counter in this thread
   * block's bank (bank 0), and flags B's first page (flag 4). */
  uint64_t blocks[PASTA_WS_HOT_BANKS] = {0};
  st.blocks = (uint64_t)(uintptr_t)blocks;
  __pasta_ws_mark(__pasta_ws_resolve(&st, 1, 4, b, 5, 0, &cache[0], &cache[1],
                                     &cache[2], &cache[3], &cache[4],
                                     &cache[5]),
                  0, 0, 0);
  CHECK(blocks[0] == 1 && WS_FLAG(4) == 1);
  /* Thread block 3 of 4 with two banks of 6 flags writes bank 1: a miss
   * (cache emptied) on A's second page sets flag 6 + 1. */
  memset(cache, 0, sizeof cache);
  st.blocks = 0;
  st.page_banks = 2;
  place(3, 4, 0, 32);
  TOUCH(a + 16, 6);
  CHECK_EQ_INT(WS_FLAG(7), 1);
#undef TOUCH
}

static void test_ws_mark(void) {
  /* Flags 0 and 2 unset, flag 1 already set, a null flag ignored; then
   * flag 2 (set by now) and flag 2 again in one mark: afterwards 0..2 are
   * set and flag 3 (never named) is not. */
  uint8_t *flags = ws_flags_zeroed();
  WS_FLAG(1) = 1;
  uint64_t f = (uint64_t)(uintptr_t)flags;
  __pasta_ws_mark(f, f + 1, f + 2, 0);
  __pasta_ws_mark(f + 2, f + 2, 0, 0);
  CHECK(WS_FLAG(0) == 1 && WS_FLAG(1) == 1 && WS_FLAG(2) == 1 &&
        WS_FLAG(3) == 0);
  /* An access resolved to no flag (generic pointer to local memory) sets
   * none: the stand-in's local space is the whole of memory here. */
  struct pasta_ws_launch st;
  memset(&st, 0, sizeof st);
  uint64_t cache[6] = {0, 0, 0, 0, 0, 0};
  pasta_shim.local = 1;
  CHECK_EQ_U64(__pasta_ws_resolve(&st, 0, 4, flags, 1, 1, &cache[0], &cache[1],
                                  &cache[2], &cache[3], &cache[4], &cache[5]),
               0);
  pasta_shim.local = 0;
}

static void test_ws_batches(void) {
  /* The batched path the working-set copies call sets the flags the
   * per-access path (__pasta_ws_resolve, test_ws_touch) sets. Allocations
   * as there: A bytes 0..63 (flags 0..3), B bytes 80..111 (flags 4..5),
   * pages of 16 bytes, one bank; bytes 64..79 in neither. */
  static uint8_t mem[128];
  uint8_t *a = mem, *b = mem + 80;
  uint64_t ua = (uint64_t)(uintptr_t)a, ub = (uint64_t)(uintptr_t)b;
  uint8_t *flags = ws_flags_zeroed();
  uint64_t uf = (uint64_t)(uintptr_t)flags;
  uint64_t outside[2] = {0, 0};
  struct pasta_ws_alloc t[PASTA_WS_LINEAR_MAX];
  struct pasta_ws_launch st;
  ws_two_allocations(&st, t, ua, ub, uf, outside);
  place(0, 1, 0, 32);

  /* A parameter's range (A, first flag at flags[0]): byte 40 is on A's
   * third page; byte 70 is past A, and so is B, and byte -1 before it:
   * only the full path knows (bit 63 set, PASTA_WS_SLOW_BIT). */
  CHECK_EQ_U64(__pasta_ws_flag_arg(ua, ua + 64, uf, 4, a + 40), uf + 2);
  CHECK_EQ_U64(__pasta_ws_flag_arg(ua, ua + 64, uf, 4, a + 63), uf + 3);
  CHECK_EQ_U64(__pasta_ws_flag_arg(ua, ua + 64, uf, 4, mem + 70) >> 63, 1);
  CHECK_EQ_U64(__pasta_ws_flag_arg(ua, ua + 64, uf, 4, b) >> 63, 1);
  CHECK_EQ_U64(__pasta_ws_flag_arg(ub, ub + 32, uf + 4, 4, a + 79) >> 63, 1);

  /* The cache: B in slot 0, A in slot 1; a hit in either gives its flag,
   * byte 70 misses, a generic pointer to local memory sets none. */
  uint64_t c[6] = {ub, ub + 32, uf + 4, ua, ua + 64, uf};
#define FLAG(p, generic)                                                       \
  __pasta_ws_flag(4, (p), (generic), &c[0], &c[1], &c[2], &c[3], &c[4], &c[5])
  CHECK_EQ_U64(FLAG(b + 31, 0), uf + 5);
  CHECK_EQ_U64(FLAG(a + 16, 1), uf + 1);
  CHECK_EQ_U64(FLAG(mem + 70, 1), PASTA_WS_SLOW);
  pasta_shim.local = 1;
  CHECK_EQ_U64(FLAG(mem + 70, 1), 0);
  pasta_shim.local = 0;

  /* A batch all found inline sets its flags and calls nothing: nothing
   * counted outside, the cache as it was. */
  struct pasta_ws_batch sites = {{1, 2, 3, 4}, 0};
  __pasta_ws_mark_cached(&st, 0, FLAG(b + 31, 0), FLAG(a + 16, 0), 0, 0, b + 31,
                         a + 16, NULL, NULL, &sites, &c[0], &c[1], &c[2], &c[3],
                         &c[4], &c[5]);
  CHECK(WS_FLAG(5) == 1 && WS_FLAG(1) == 1 && outside[0] == 0);
  CHECK_EQ_INT(WS_FLAG(0) + WS_FLAG(2) + WS_FLAG(3) + WS_FLAG(4), 0);
  CHECK(c[0] == ub && c[3] == ua);

  /* One access only the full path knows (byte 70, site 3) sends the whole
   * batch there, in order: A's first page from the cache, byte 70 counted
   * outside (site 3 kept, + 1), B's first page; the cache keeps B, A. */
  __pasta_ws_mark_cached(&st, 0, FLAG(a, 0), FLAG(mem + 70, 0), FLAG(b, 0), 0,
                         a, mem + 70, b, NULL, &sites, &c[0], &c[1], &c[2],
                         &c[3], &c[4], &c[5]);
  CHECK(WS_FLAG(0) == 1 && WS_FLAG(4) == 1 && outside[0] == 1 &&
        outside[1] == 3);
  CHECK(c[0] == ub && c[3] == ua);

  /* An empty cache: the full path looks A up and caches it in slot 0. */
  memset(c, 0, sizeof c);
  __pasta_ws_mark_cached(&st, 0, FLAG(a + 32, 0), 0, 0, 0, a + 32, NULL, NULL,
                         NULL, &sites, &c[0], &c[1], &c[2], &c[3], &c[4],
                         &c[5]);
  CHECK(WS_FLAG(2) == 1 && c[0] == ua && c[1] == ua + 64 && c[2] == uf);
#undef FLAG

  /* Accesses traced to parameters: in range, inline; A's last page and one
   * access past B (byte 112, site 4 of the batch) go the full path
   * together, without a cache: A's flag 3 set, byte 112 counted outside. */
  ws_flags_zeroed();
  __pasta_ws_mark_args(&st, 0, __pasta_ws_flag_arg(ua, ua + 64, uf, 4, a + 48),
                       0, 0, 0, a + 48, NULL, NULL, NULL, &sites);
  CHECK(WS_FLAG(3) == 1 && outside[0] == 1);
  WS_FLAG(3) = 0;
  __pasta_ws_mark_args(&st, 0, __pasta_ws_flag_arg(ua, ua + 64, uf, 4, a + 48),
                       __pasta_ws_flag_arg(ub, ub + 32, uf + 4, 4, mem + 112),
                       0, 0, a + 48, mem + 112, NULL, NULL, &sites);
  CHECK(WS_FLAG(3) == 1 && outside[0] == 2);

  /* The full path takes the batch's accesses one at a time, each with its
   * own site, skipping empty slots: byte 70 in slot 1 is counted outside
   * with site 2 (kept + 1), B's last byte in slot 3 sets flag 5. */
  ws_flags_zeroed();
  outside[0] = outside[1] = 0;
  __pasta_ws_mark_args(&st, 0, 0, PASTA_WS_SLOW, 0, PASTA_WS_SLOW, NULL,
                       mem + 70, NULL, b + 31, &sites);
  CHECK(outside[0] == 1 && outside[1] == 3 && WS_FLAG(5) == 1);
  CHECK_EQ_INT(WS_FLAG(0) + WS_FLAG(1) + WS_FLAG(2) + WS_FLAG(3) + WS_FLAG(4),
               0);

  /* Any flag with bit 63 set, not only PASTA_WS_SLOW, sends the batch
   * there (the flag's low bits name no page): byte 70 in slot 0 counted
   * outside with site 1, A's byte 16 in slot 2 sets flag 1, and flag 2,
   * which the low bits of slot 0 would name, stays 0. */
  ws_flags_zeroed();
  outside[0] = outside[1] = 0;
  __pasta_ws_mark_args(&st, 0, (UINT64_C(1) << 63) | (uf + 2), 0,
                       __pasta_ws_flag_arg(ua, ua + 64, uf, 4, a + 16), 0,
                       mem + 70, NULL, a + 16, NULL, &sites);
  CHECK(outside[0] == 1 && outside[1] == 2 && WS_FLAG(1) == 1);
  CHECK_EQ_INT(WS_FLAG(0) + WS_FLAG(2) + WS_FLAG(3) + WS_FLAG(4) + WS_FLAG(5),
               0);

  /* Hotness on: every batch takes the full path, each access counted once
   * in hotness block 0 (both allocations start there), its flag set. */
  uint64_t blocks[PASTA_WS_HOT_BANKS] = {0};
  st.blocks = (uint64_t)(uintptr_t)blocks;
  ws_flags_zeroed();
  __pasta_ws_mark_args(&st, st.blocks,
                       __pasta_ws_flag_arg(ua, ua + 64, uf, 4, a),
                       __pasta_ws_flag_arg(ub, ub + 32, uf + 4, 4, b + 16), 0,
                       0, a, b + 16, NULL, NULL, &sites);
  CHECK(blocks[0] == 2 && WS_FLAG(0) == 1 && WS_FLAG(5) == 1);
  memset(c, 0, sizeof c);
  __pasta_ws_mark_cached(&st, st.blocks, PASTA_WS_SLOW, 0, 0, 0, b, NULL, NULL,
                         NULL, &sites, &c[0], &c[1], &c[2], &c[3], &c[4],
                         &c[5]);
  CHECK(blocks[0] == 3 && WS_FLAG(4) == 1 && c[0] == ub);
}

/* A compact copy's batches (__pasta_ws_mark_compact) set the flags and
 * count what the inline path does: an access traced to a parameter is
 * checked against its range (in this thread block's bank), anything else
 * goes the full path. Allocations as in test_ws_batches: A bytes 0..63
 * (flags 0..3), B bytes 80..111 (flags 4..5), pages of 16 bytes; bytes
 * 64..79 in neither. */
static void test_ws_compact(void) {
  static uint8_t mem[128];
  uint8_t *a = mem, *b = mem + 80;
  uint64_t ua = (uint64_t)(uintptr_t)a, ub = (uint64_t)(uintptr_t)b;
  uint8_t *flags = ws_flags_zeroed();
  uint64_t uf = (uint64_t)(uintptr_t)flags;
  uint64_t outside[2] = {0, 0};
  struct pasta_ws_alloc t[PASTA_WS_LINEAR_MAX];
  struct pasta_ws_launch st;
  ws_two_allocations(&st, t, ua, ub, uf, outside);
  st.page_banks = 2;
  /* Parameter 0 is A, parameter 2 is B (flags without the bank, as the
   * host writes them); thread block 1 writes bank 1 (flags 6..11). */
  st.args[0] = (struct pasta_ws_arg){ua, ua + 64, uf};
  st.args[2] = (struct pasta_ws_arg){ub, ub + 32, uf + 4};
  place(1, 2, 0, 32);

  /* Traced, in range: A's third page, B's second; byte 70 traced to A is
   * outside it and every allocation: counted (site 7, + 1); a generic
   * pointer to local memory, untraced, sets nothing. */
  struct pasta_ws_compact_batch one = {{{5, 6, 7, 8}, 0x8u},
                                       1u | 3u << 8 | 1u << 16};
  pasta_shim.local = 1;
  __pasta_ws_mark_compact(&st, a + 40, b + 16, mem + 70, mem + 8, &one);
  pasta_shim.local = 0;
  CHECK(WS_FLAG(6 + 2) == 1 && WS_FLAG(6 + 5) == 1);
  CHECK(outside[0] == 1 && outside[1] == 8);
  int set = 0;
  for (int i = 0; i < 12; ++i)
    set += WS_FLAG(i);
  CHECK_EQ_INT(set, 2);

  /* Untraced (the table), and traced to B but in A (the table finds A):
   * the same flags as traced ones; null addresses are no accesses. */
  ws_flags_zeroed();
  struct pasta_ws_compact_batch two = {{{1, 2, 0, 0}, 0}, 3u << 8};
  __pasta_ws_mark_compact(&st, b + 31, a, NULL, NULL, &two);
  CHECK(WS_FLAG(6 + 5) == 1 && WS_FLAG(6 + 0) == 1 && outside[0] == 1);

  /* Hotness on: every access goes the full path and is counted once in
   * hotness block 0 (both allocations start there). */
  uint64_t blocks[PASTA_WS_HOT_BANKS] = {0};
  st.blocks = (uint64_t)(uintptr_t)blocks;
  ws_flags_zeroed();
  __pasta_ws_mark_compact(&st, a, b, a + 63, NULL, &one);
  uint64_t hot = 0;
  for (uint32_t i = 0; i < PASTA_WS_HOT_BANKS; ++i)
    hot += blocks[i];
  CHECK(hot == 3 && WS_FLAG(6 + 0) == 1 && WS_FLAG(6 + 4) == 1 &&
        WS_FLAG(6 + 3) == 1);
}

/* A bulk copy's range (__pasta_ws_mark_range): the flags of every page
 * its bytes touch, clipped to the allocation holding its first byte, in
 * this thread block's bank; one access outside every allocation or in
 * hotness. Allocations as in test_ws_batches: A bytes 0..63 (flags 0..3),
 * B bytes 80..111 (flags 4..5), pages of 16 bytes; bytes 64..79 in
 * neither. */
static int ws_flags_set(int n) {
  int set = 0;
  for (int i = 0; i < n; ++i)
    set += WS_FLAG(i);
  return set;
}

static void test_ws_mark_range(void) {
  static uint8_t mem[128];
  uint8_t *a = mem, *b = mem + 80;
  uint64_t ua = (uint64_t)(uintptr_t)a, ub = (uint64_t)(uintptr_t)b;
  uint8_t *flags = ws_flags_zeroed();
  uint64_t uf = (uint64_t)(uintptr_t)flags;
  uint64_t outside[2] = {0, 0};
  struct pasta_ws_alloc t[PASTA_WS_LINEAR_MAX];
  struct pasta_ws_launch st;
  ws_two_allocations(&st, t, ua, ub, uf, outside);
  place(0, 1, 0, 32);

  /* Bytes 8..47 of A: pages 0, 1 and 2, not 3. */
  __pasta_ws_mark_range(&st, a + 8, 40, 3, 0);
  CHECK(WS_FLAG(0) == 1 && WS_FLAG(1) == 1 && WS_FLAG(2) == 1);
  CHECK_EQ_INT(ws_flags_set(6), 3);
  /* 16 bytes from 48: page 3 only, not the next. */
  ws_flags_zeroed();
  __pasta_ws_mark_range(&st, a + 48, 16, 3, 0);
  CHECK(WS_FLAG(3) == 1 && ws_flags_set(6) == 1);
  /* Past A's end (64 bytes from 40): A's pages 2 and 3, none of B's. */
  ws_flags_zeroed();
  __pasta_ws_mark_range(&st, a + 40, 64, 3, 0);
  CHECK(WS_FLAG(2) == 1 && WS_FLAG(3) == 1 && ws_flags_set(6) == 2);
  CHECK(outside[0] == 0);
  /* B whole: flags 4 and 5. */
  ws_flags_zeroed();
  __pasta_ws_mark_range(&st, b, 32, 3, 1);
  CHECK(WS_FLAG(4) == 1 && WS_FLAG(5) == 1 && ws_flags_set(6) == 2);
  /* In neither: one access outside (site 9, + 1), no flag. */
  ws_flags_zeroed();
  __pasta_ws_mark_range(&st, mem + 66, 48, 9, 0);
  CHECK(outside[0] == 1 && outside[1] == 10 && ws_flags_set(6) == 0);
  /* Generic, and not global (local memory): nothing. */
  pasta_shim.local = 1;
  __pasta_ws_mark_range(&st, a, 64, 3, 1);
  pasta_shim.local = 0;
  CHECK(outside[0] == 1 && ws_flags_set(6) == 0);

  /* Thread block 1 of two banks: flags 6..11; hotness counts one access. */
  st.page_banks = 2;
  place(1, 2, 0, 32);
  uint64_t blocks[PASTA_WS_HOT_BANKS] = {0};
  st.blocks = (uint64_t)(uintptr_t)blocks;
  __pasta_ws_mark_range(&st, a + 16, 48, 3, 0);
  uint64_t hot = 0;
  for (uint32_t i = 0; i < PASTA_WS_HOT_BANKS; ++i)
    hot += blocks[i];
  CHECK(hot == 1 && WS_FLAG(6 + 1) == 1 && WS_FLAG(6 + 2) == 1 &&
        WS_FLAG(6 + 3) == 1 && ws_flags_set(12) == 3);
}

/* A buffered compact copy's slots (__pasta_ws_mark_buffer) mark what
 * __pasta_ws_mark_compact's batches do, with the address an earlier
 * access's plus the word's offset, the word from the call's table or the
 * buffer; a slot with address 0 is no access, and every slot read is
 * cleared. Allocations as in test_ws_compact. */
static uint64_t buffer_word(uint32_t site, uint32_t generic, uint32_t arg,
                            int16_t offset) {
  return site | (uint64_t)generic << 32 | (uint64_t)arg << 40 |
         (uint64_t)(uint16_t)offset << 48;
}

static void test_ws_buffer(void) {
  static uint8_t mem[128];
  uint8_t *a = mem, *b = mem + 80;
  uint64_t ua = (uint64_t)(uintptr_t)a, ub = (uint64_t)(uintptr_t)b;
  uint8_t *flags = ws_flags_zeroed();
  uint64_t uf = (uint64_t)(uintptr_t)flags;
  uint64_t outside[2] = {0, 0};
  struct pasta_ws_alloc t[PASTA_WS_LINEAR_MAX];
  struct pasta_ws_launch st;
  ws_two_allocations(&st, t, ua, ub, uf, outside);
  st.page_banks = 2;
  st.args[0] = (struct pasta_ws_arg){ua, ua + 64, uf};
  st.args[2] = (struct pasta_ws_arg){ub, ub + 32, uf + 4};
  place(1, 2, 0, 32);

  /* test_ws_compact's first batch, addresses as a base plus offsets: a + 40
   * (traced to A), b + 16 (to B) stored as a + 96, mem + 70 (traced to A,
   * outside every allocation: counted, site 7) as a + 72 - 2, a skipped
   * slot, and a generic pointer to local memory (sets nothing). */
  struct pasta_ws_buffered buf[5] = {{ua, buffer_word(5, 0, 1, 40)},
                                     {ua, buffer_word(6, 0, 3, 96)},
                                     {ua + 72, buffer_word(7, 0, 1, -2)},
                                     {0, buffer_word(9, 0, 0, 0)},
                                     {ua + 8, buffer_word(8, 1, 0, 0)}};
  /* The call's table holds the words of slots 0, 2 and 4 (the buffer's are
   * then not read: made wrong here), slot 1's is in the buffer. */
  const uint64_t words[5] = {buf[0].word, PASTA_WS_WORD_IN_BUFFER, buf[2].word,
                             0, buf[4].word};
  buf[0].word = buffer_word(5, 0, 3, 0);
  buf[2].word = buffer_word(7, 0, 0, 0);
  buf[4].word = buffer_word(8, 0, 1, 0);
  pasta_shim.local = 1;
  __pasta_ws_mark_buffer(&st, buf, 5, words);
  pasta_shim.local = 0;
  CHECK(WS_FLAG(6 + 2) == 1 && WS_FLAG(6 + 5) == 1);
  CHECK(outside[0] == 1 && outside[1] == 8);
  int set = 0;
  for (int i = 0; i < 12; ++i)
    set += WS_FLAG(i);
  CHECK_EQ_INT(set, 2);
  for (int i = 0; i < 5; ++i)
    CHECK(buf[i].ptr == 0);

  /* Cleared slots mark nothing again; a slot past n is not read. */
  ws_flags_zeroed();
  buf[4] = (struct pasta_ws_buffered){ub, buffer_word(1, 0, 0, 31)};
  __pasta_ws_mark_buffer(&st, buf, 4, NULL);
  CHECK(outside[0] == 1 && buf[4].ptr == ub);
  set = 0;
  for (int i = 0; i < 12; ++i)
    set += WS_FLAG(i);
  CHECK_EQ_INT(set, 0);

  /* Untraced (the table): b + 31; hotness on: every access goes the full
   * path and is counted once in hotness block 0. */
  uint64_t blocks[PASTA_WS_HOT_BANKS] = {0};
  st.blocks = (uint64_t)(uintptr_t)blocks;
  buf[0] = (struct pasta_ws_buffered){ua, buffer_word(1, 0, 1, 63)};
  __pasta_ws_mark_buffer(&st, buf + 4, 1, NULL);
  __pasta_ws_mark_buffer(&st, buf, 1, NULL);
  uint64_t hot = 0;
  for (uint32_t i = 0; i < PASTA_WS_HOT_BANKS; ++i)
    hot += blocks[i];
  CHECK(hot == 2 && WS_FLAG(6 + 5) == 1 && WS_FLAG(6 + 3) == 1);
}

/* __pasta_ws_mark_loop against the accesses marked one by one: the same
 * flags, the same count outside every allocation, the same hotness counts.
 * Pages of 16 bytes; A is bytes 0..1023 (flags 0..63), B bytes 1280..2047
 * (flags 64..111), 1024..1279 in neither. */
static uint64_t loop_outside[2], loop_blocks[PASTA_WS_HOT_BANKS];
static struct pasta_ws_alloc loop_table[PASTA_WS_LINEAR_MAX];

/* x(k) of a loop's address, written as C would compute the index: a 32-bit
 * int or unsigned wraps, a 64-bit one as an address does. */
static uint64_t loop_reference_index(uint64_t a, uint64_t b, uint64_t k,
                                     uint32_t ext) {
  uint64_t x = a + k * b;
  if ((ext & 0xffu) == 64)
    return x;
  return ext & 0x100u ? (uint64_t)(int64_t)(int32_t)(uint32_t)x
                      : (uint64_t)(uint32_t)x;
}

struct loop_case {
  const char *what;
  uint64_t origin_offset, scale, a, b, count;
  uint32_t ext;
  int hot;
  uint32_t expect_flags_only; /* one progression in one allocation; 2: any */
};

/* The rows of a loop nest: the loop's base moves by rscale * y(j). */
struct loop_rows {
  uint64_t rscale, ra, rb, rows;
  uint32_t rext;
};

/* The launch state's slot + 1 a loop's mark names (0: none), as the pass
 * puts it in bits 8-15 of the batch's generic word. */
static uint32_t loop_slot;

static void check_nest_case(struct pasta_ws_launch *st, uint64_t mem,
                            const struct loop_case *c,
                            const struct loop_rows *n) {
  static uint8_t want[PASTA_WS_FLAG_GROUP];
  uint64_t want_outside, want_blocks[PASTA_WS_HOT_BANKS];
  uint64_t origin = mem + c->origin_offset;
  st->blocks = c->hot ? (uint64_t)(uintptr_t)loop_blocks : 0;
  /* One by one, through the cache, as the marks in a loop set them. */
  ws_flags_zeroed();
  memset(loop_outside, 0, sizeof loop_outside);
  memset(loop_blocks, 0, sizeof loop_blocks);
  uint64_t cache[6] = {0, 0, 0, 0, 0, 0};
  for (uint64_t j = 0; j < n->rows; ++j)
    for (uint64_t k = 0; k < c->count; ++k) {
      /* Bit 9 of rext: one index, c->a + y(j) + k * b, extended once. */
      uint64_t addr =
          n->rext & 0x200u
              ? origin +
                    c->scale * loop_reference_index(c->a + n->ra + j * n->rb,
                                                    c->b, k, c->ext)
              : origin +
                    n->rscale * loop_reference_index(n->ra, n->rb, j, n->rext) +
                    c->scale * loop_reference_index(c->a, c->b, k, c->ext);
      __pasta_ws_mark(__pasta_ws_resolve(st, st->blocks, 4,
                                         (void *)(uintptr_t)addr, 9, 0,
                                         &cache[0], &cache[1], &cache[2],
                                         &cache[3], &cache[4], &cache[5]),
                      0, 0, 0);
    }
  memcpy(want, ws_flags, sizeof want);
  want_outside = loop_outside[0];
  memcpy(want_blocks, loop_blocks, sizeof want_blocks);
  /* Once, in front of the loop. */
  ws_flags_zeroed();
  memset(loop_outside, 0, sizeof loop_outside);
  memset(loop_blocks, 0, sizeof loop_blocks);
  struct pasta_ws_batch site = {{9, 0, 0, 0}, loop_slot << 8};
  uint32_t flags_only;
  if (n->rows == 1 && n->rscale == 0) {
    flags_only = __pasta_ws_mark_loop(st, (void *)(uintptr_t)origin, c->scale,
                                      c->a, c->b, c->count, c->ext, &site);
  } else {
    flags_only = __pasta_ws_mark_nest(st, (void *)(uintptr_t)origin, c->scale,
                                      c->a, c->b, c->count, c->ext, n->rscale,
                                      n->ra, n->rb, n->rows, n->rext);
    if (!flags_only) {
      /* Nothing set; then row by row, as the copy falls back. */
      uint64_t any = loop_outside[0];
      for (uint32_t i = 0; i < PASTA_WS_FLAG_GROUP; ++i)
        any += ws_flags[i];
      for (uint32_t b = 0; b < PASTA_WS_HOT_BANKS; ++b)
        any += loop_blocks[b];
      CHECK_MSG(any == 0, "%s: the nest failed but set or counted", c->what);
      for (uint64_t j = 0; j < n->rows; ++j) {
        uint64_t y = loop_reference_index(n->ra, n->rb, j, n->rext & 0x1ffu);
        if (n->rext & 0x200u) /* the loop's start moves, its base stays */
          __pasta_ws_mark_loop(st, (void *)(uintptr_t)origin, c->scale,
                               loop_reference_index(c->a + y, 0, 0, c->ext),
                               c->b, c->count, c->ext, &site);
        else
          __pasta_ws_mark_loop(st, (void *)(uintptr_t)(origin + n->rscale * y),
                               c->scale, c->a, c->b, c->count, c->ext, &site);
      }
    }
  }
  /* "Only flags" (a repeat may be skipped) never where it counted. */
  uint64_t counted = loop_outside[0];
  for (uint32_t b = 0; b < PASTA_WS_HOT_BANKS; ++b)
    counted += loop_blocks[b];
  CHECK_MSG(!flags_only || counted == 0, "%s: returned 1 but counted", c->what);
  CHECK_MSG(c->expect_flags_only == 2 || flags_only == c->expect_flags_only,
            "%s: returned %u", c->what, flags_only);
  CHECK_MSG(memcmp(want, ws_flags, sizeof want) == 0 &&
                want_outside == loop_outside[0] &&
                memcmp(want_blocks, loop_blocks, sizeof want_blocks) == 0,
            "%s: outside %llu, want %llu", c->what,
            (unsigned long long)loop_outside[0],
            (unsigned long long)want_outside);
  /* The same marks made after the outer loop they cover: a nest's once
   * (__pasta_ws_mark_nest_after); a loop's for 3 iterations of an outer
   * loop (__pasta_ws_mark_loop_after): the flags above, and where the marks
   * counted, 3 times the counts (the calls in front would have counted in
   * each iteration). */
  uint64_t times = n->rows == 1 && n->rscale == 0 ? 3 : 1;
  ws_flags_zeroed();
  memset(loop_outside, 0, sizeof loop_outside);
  memset(loop_blocks, 0, sizeof loop_blocks);
  if (times == 3)
    __pasta_ws_mark_loop_after(st, (void *)(uintptr_t)origin, c->scale, c->a,
                               c->b, c->count, c->ext, &site, times);
  else
    __pasta_ws_mark_nest_after(st, (void *)(uintptr_t)origin, c->scale, c->a,
                               c->b, c->count, c->ext, n->rscale, n->ra, n->rb,
                               n->rows, n->rext, &site);
  int same_counts = flags_only ? loop_outside[0] == 0
                               : loop_outside[0] == times * want_outside;
  for (uint32_t b = 0; b < PASTA_WS_HOT_BANKS; ++b)
    same_counts = same_counts &&
                  loop_blocks[b] == (flags_only ? 0 : times * want_blocks[b]);
  CHECK_MSG(memcmp(want, ws_flags, sizeof want) == 0 && same_counts,
            "%s: made after the outer loop: outside %llu, want %llu x %llu",
            c->what, (unsigned long long)loop_outside[0],
            (unsigned long long)want_outside, (unsigned long long)times);
}

/* A loop alone: one row. */
static void check_loop_case(struct pasta_ws_launch *st, uint64_t mem,
                            const struct loop_case *c) {
  const struct loop_rows one = {0, 0, 0, 1, 64};
  check_nest_case(st, mem, c, &one);
}

static void test_ws_mark_loop(void) {
  static uint8_t mem[2048];
  uint64_t um = (uint64_t)(uintptr_t)mem;
  for (uint32_t i = 0; i < PASTA_WS_LINEAR_MAX; ++i)
    loop_table[i] = (struct pasta_ws_alloc){UINT64_MAX, 0, 0, 0};
  loop_table[0] = (struct pasta_ws_alloc){um, 1024, 0, 0};
  loop_table[1] = (struct pasta_ws_alloc){um + 1280, 768, 64, 0};
  struct pasta_ws_launch st;
  memset(&st, 0, sizeof st);
  st.allocs = (uint64_t)(uintptr_t)loop_table;
  st.pages = (uint64_t)(uintptr_t)ws_flags;
  st.outside = (uint64_t)(uintptr_t)loop_outside;
  st.num_allocs = 2;
  st.page_shift = 4;
  st.num_pages = 112;
  st.page_banks = 1;
  place(0, 1, 0, 32);
  const uint32_t s32 = 32 | 0x100u, u32 = 32, i64 = 64;
  const uint64_t int_max = 0x7fffffff, minus = (uint64_t)-1;
  const struct loop_case cases[] = {
      {"floats in a row", 0, 4, 0, 1, 200, s32, 0, 1},
      {"a stride of 36 bytes (> a page)", 0, 4, 3, 9, 25, s32, 0, 1},
      {"downwards", 0, 4, 250, minus * 7, 30, s32, 0, 1},
      {"from A over the gap into B", 0, 1, 1000, 20, 40, s32, 0, 0},
      {"from A to B without touching the gap", 0, 1, 1010, 300, 2, s32, 0, 0},
      {"an int index that wraps", 100 - (int_max - 5), 1, int_max - 5, 10, 3,
       s32, 0, 0},
      {"an unsigned index that wraps", 0, 1, 5, minus * 2, 5, u32, 0, 0},
      {"a 64-bit pointer recurrence", 0, 1, 0, 16, 64, i64, 0, 1},
      {"an address that stays", 0, 1, 5, 0, 10, i64, 0, 1},
      {"an address that stays outside", 1100, 1, 0, 0, 10, i64, 0, 0},
      {"one iteration", 0, 8, 100, 3, 1, s32, 0, 1},
      {"hotness counted", 0, 4, 0, 1, 200, s32, 1, 0},
      {"hotness counted over the gap", 0, 1, 1000, 20, 40, s32, 1, 0},
      /* A 64-bit step of 2^63: the third address wraps back onto the first
       * (the review of 2026-11-29: the progression's ends both in A named a
       * flag far outside the array); access by access, outside counted. */
      {"a step that wraps the address space", 0, 1, 0, UINT64_C(1) << 63, 3,
       i64, 0, 0},
      {"downwards past address 0", 8, 1, 0, minus * 16, 3, i64, 0, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    check_loop_case(&st, um, &cases[i]);
  /* The same with the mark naming a traced parameter's slot, whose range
   * is A's (slot 3) or B's (slot 5): the same flags and counts, whether the
   * progression lies in that allocation or not. */
  st.args[3] = (struct pasta_ws_arg){um, um + 1024, st.pages};
  st.args[5] = (struct pasta_ws_arg){um + 1280, um + 2048, st.pages + 64};
  for (loop_slot = 4; loop_slot <= 6; loop_slot += 2)
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
      check_loop_case(&st, um, &cases[i]);
  loop_slot = 0;
  /* The slot is used: with no table at all, a progression inside A is
   * still marked by A's slot alone (flags only), as with the table. */
  {
    struct pasta_ws_batch slot_a = {{9, 0, 0, 0}, 4u << 8};
    ws_flags_zeroed();
    CHECK(__pasta_ws_mark_loop(&st, (void *)(uintptr_t)um, 4, 0, 1, 200, s32,
                               &slot_a) == 1);
    static uint8_t with_table[PASTA_WS_FLAG_GROUP];
    memcpy(with_table, ws_flags, sizeof with_table);
    ws_flags_zeroed();
    st.num_allocs = 0;
    CHECK_MSG(__pasta_ws_mark_loop(&st, (void *)(uintptr_t)um, 4, 0, 1, 200,
                                   s32, &slot_a) == 1 &&
                  memcmp(with_table, ws_flags, sizeof with_table) == 0,
              "a loop mark with a parameter's slot and no table");
    st.num_allocs = 2;
  }
  /* Loop nests: the inner loop in every iteration of an outer one whose
   * steps move the base (kmeans' centroids: row c at c * nfeatures). */
  const struct {
    struct loop_case c;
    struct loop_rows n;
  } nests[] = {
      {{"8 rows of 16 floats, back to back", 0, 4, 0, 1, 16, s32, 0, 1},
       {4, 0, 16, 8, s32}},
      {{"rows 3 pages apart (a column block)", 0, 4, 0, 1, 2, s32, 0, 1},
       {4, 0, 12, 5, s32}},
      {{"rows downwards", 0, 4, 0, 1, 16, s32, 0, 1},
       {4, 200, minus * 16, 8, s32}},
      {{"rows of strides over a page", 0, 4, 0, 9, 5, s32, 0, 1},
       {4, 3, 3, 4, s32}},
      {{"rows running into the gap", 0, 4, 0, 1, 16, s32, 0, 0},
       {4, 200, 16, 8, s32}},
      {{"a row index that wraps", 100 - (int_max - 5), 1, 0, 1, 4, s32, 0, 0},
       {1, int_max - 5, 5, 3, s32}},
      {{"rows with hotness", 0, 4, 0, 1, 16, s32, 1, 0}, {4, 0, 16, 8, s32}},
      {{"rows of a pointer recurrence", 0, 1, 0, 4, 8, i64, 0, 1},
       {1, 0, 64, 10, i64}},
      {{"rows that stay", 0, 4, 0, 1, 16, s32, 0, 1}, {4, 7, 0, 5, s32}},
      {{"an outer step that wraps the address space", 0, 1, 0, 4, 2, i64, 0, 0},
       {1, 0, UINT64_C(1) << 63, 3, i64}},
      /* a[c * n + f]: the rows' index inside the loop's extension. */
      {{"one index: 8 rows of 16 floats", 0, 4, 0, 1, 16, s32, 0, 1},
       {4, 0, 16, 8, s32 | 0x200u}},
      {{"one index, unsigned, rows apart", 0, 4, 3, 1, 4, u32, 0, 1},
       {4, 0, 40, 6, u32 | 0x200u}},
      /* Each part within an int, their sum not: it wraps to a negative
       * index, far outside A; the nest must not take it as a progression. */
      {{"one index whose sum wraps", 100 - (int_max - 40), 1, int_max - 40, 1,
        16, s32, 0, 0},
       {1, 0, 20, 3, s32 | 0x200u}},
  };
  for (size_t i = 0; i < sizeof nests / sizeof nests[0]; ++i)
    check_nest_case(&st, um, &nests[i].c, &nests[i].n);
  /* Nests of every shape at small sizes: the same figures as one by one. */
  uint64_t seed = 12345;
  for (int k = 0; k < 4000; ++k) {
    uint64_t r[10];
    for (int i = 0; i < 10; ++i) {
      seed =
          seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
      r[i] = seed >> 33;
    }
    const uint32_t exts[] = {s32, u32, i64};
    const struct loop_case c = {"random nest",  r[0] % 1024,    1 + r[1] % 8,
                                r[2] % 64,      r[3] % 41 - 20, 1 + r[4] % 12,
                                exts[r[5] % 3], r[6] % 8 == 0,  2};
    struct loop_rows n = {1 + r[7] % 8, r[8] % 32, r[9] % 61 - 30, 1 + r[6] % 9,
                          exts[r[7] % 3]};
    if (c.ext != i64 && r[8] % 3 == 0) /* one index */
      n = (struct loop_rows){c.scale, r[8] % 32, r[9] % 61 - 30, 1 + r[6] % 9,
                             c.ext | 0x200u};
    check_nest_case(&st, um, &c, &n);
  }
  /* Thread block 1 of 2 with two banks: its flags in bank 1 (from flag 112)
   * on both paths. */
  st.page_banks = 2;
  place(1, 2, 0, 32);
  for (size_t i = 0; i < 4; ++i)
    check_loop_case(&st, um, &cases[i]);
  st.page_banks = 1;
  place(0, 1, 0, 32);
  /* The fast path was taken where it should: a row of 200 floats sets the
   * 50 flags of bytes 0..799 and nothing else. */
  const struct loop_case row = {"row", 0, 4, 0, 1, 200, s32, 0, 1};
  check_loop_case(&st, um, &row);
  int set = 0;
  for (uint32_t i = 0; i < 112; ++i)
    set += WS_FLAG(i);
  CHECK(set == 50 && WS_FLAG(49) == 1 && WS_FLAG(50) == 0);
}

/* A warp's lanes looking up together: lanes 0, 2, 4, ... address one past
 * the allocation's end, the odd lanes inside it. */
static struct pasta_ws_alloc lookup_table[PASTA_WS_LINEAR_MAX];
static uint64_t lookup_outside[2];
static struct pasta_ws_launch lookup_state;
static struct pasta_ws_hit lookup_hits[32];
static void ws_lookup_lane(uint32_t lane, void *arg) {
  (void)arg;
  uint64_t addr = lane % 2 ? 1000 + lane : 1100;
  lookup_hits[lane] = __pasta_ws_lookup(&lookup_state, addr, 6);
}

static void test_ws_lookup_warp(void) {
  for (uint32_t i = 0; i < PASTA_WS_LINEAR_MAX; ++i)
    lookup_table[i] = (struct pasta_ws_alloc){UINT64_MAX, 0, 0, 0};
  lookup_table[0] = (struct pasta_ws_alloc){1000, 100, 7, 0}; /* [1000, 1100) */
  memset(&lookup_state, 0, sizeof lookup_state);
  lookup_state.allocs = (uint64_t)(uintptr_t)lookup_table;
  lookup_state.pages = 5000;
  lookup_state.outside = (uint64_t)(uintptr_t)lookup_outside;
  lookup_state.num_allocs = 1;
  lookup_state.num_pages = 10;
  lookup_state.page_banks = 1;
  /* Lanes 0..7 and 16..31 active: 4 + 8 even lanes outside, added by the
   * first of them (every lane adding the warp's count would give 144; that
   * it is one atomic rather than twelve is not visible here); the odd ones
   * get [1000, 1100) and flags 5000 + 7. */
  uint64_t active = 0xffff00ffull;
  memset(lookup_outside, 0, sizeof lookup_outside);
  memset(lookup_hits, 0xff, sizeof lookup_hits);
  place(0, 1, 0, 32);
  pasta_shim_warp(32, active, 0, 0, ws_lookup_lane, NULL);
  CHECK_EQ_U64(lookup_outside[0], 12);
  CHECK_EQ_U64(lookup_outside[1], 7);
  int odd_ok = 1, even_ok = 1;
  for (uint32_t l = 0; l < 32; ++l) {
    if (!(active >> l & 1))
      continue;
    struct pasta_ws_hit h = lookup_hits[l];
    if (l % 2)
      odd_ok &= h.base == 1000 && h.end == 1100 && h.flags == 5007;
    else
      even_ok &= h.base == 0 && h.end == 0 && h.flags == 0;
  }
  CHECK(odd_ok && even_ok);
}

static void test_trace_sampling(void) {
  /* One-lane warps: a block of 64 threads has 64 warps, so thread t of
   * block b is warp 64 b + t. Stride 3 samples warps 0, 3, 6, ... */
  struct pasta_trace_launch st = {0, 0, 16, 3};
  place(0, 4, 3, 64);
  CHECK_EQ_INT(__pasta_trace_sampled(&st), 1); /* warp 3 */
  place(0, 4, 4, 64);
  CHECK_EQ_INT(__pasta_trace_sampled(&st), 0); /* warp 4 */
  place(1, 4, 2, 64);
  CHECK_EQ_INT(__pasta_trace_sampled(&st), 1); /* warp 66 */
  st.warp_stride = 0;                          /* not tracing */
  CHECK_EQ_INT(__pasta_trace_sampled(&st), 0);
  /* Block 10^8 of 64 threads: warp 6.4e9 + 5, past 32 bits. */
  place(100000000u, 200000000u, 5, 64);
  CHECK_EQ_U64(pasta_linear_warp_id(), 6400000005ull);
}

static void test_trace_events(void) {
  /* Room for 2 records; a third slot stays untouched (canary). */
  struct pasta_trace_record rec[3];
  memset(rec, 0xab, sizeof rec);
  struct pasta_trace_launch st = {(uint64_t)(uintptr_t)rec, 0, 2, 1};
  uint64_t seen_entry = 0, seen_exit = 0;
  place(0, 1, 7, 32); /* warp 7 */
  /* Scope 5, bit 1: recorded once however often it is entered. */
  __pasta_trace_event(&st, 1, 5, 0, &seen_entry, 1);
  __pasta_trace_event(&st, 1, 5, 0, &seen_entry, 1);
  CHECK(st.head == 1 && rec[0].scope == 5 && rec[0].warp == 7 &&
        rec[0].trips == 0 && seen_entry == 1);
  /* Its exit (own mask) with 9 trips. */
  __pasta_trace_event(&st, 1, 5 | PASTA_TRACE_EXIT, 9, &seen_exit, 1);
  CHECK(st.head == 2 && rec[1].scope == (5 | PASTA_TRACE_EXIT) &&
        rec[1].trips == 9);
  /* A third event finds the buffer full: claimed (head 3: one dropped),
   * not written. */
  __pasta_trace_event(&st, 1, 6, 0, &seen_entry, 2);
  CHECK(st.head == 3 && rec[2].scope == 0xabababab);
  /* A warp that is not sampled records nothing; a scope past the first 64
   * (bit 0) is recorded every time. */
  __pasta_trace_event(&st, 0, 8, 0, &seen_entry, 4);
  CHECK_EQ_INT(st.head, 3);
  __pasta_trace_event(&st, 1, 70, 0, &seen_entry, 0);
  __pasta_trace_event(&st, 1, 70, 0, &seen_entry, 0);
  CHECK_EQ_INT(st.head, 5);
}

static void test_counts(void) {
  /* The launch is counted by the grid's first thread only. */
  uint64_t launches = 0;
  place(0, 2, 0, 32);
  __pasta_count_launch(&launches, 1, 1, 1);
  place(0, 2, 1, 32);
  __pasta_count_launch(&launches, 1, 1, 1);
  place(1, 2, 0, 32);
  __pasta_count_launch(&launches, 1, 1, 1);
  CHECK_EQ_INT(launches, 1);
  /* x ids 0 but a y or z id not: not the grid's first thread. */
  place(0, 2, 0, 32);
  pasta_shim.block[1] = 1;
  __pasta_count_launch(&launches, 1, 1, 1);
  place(0, 2, 0, 32);
  pasta_shim.thread[2] = 1;
  __pasta_count_launch(&launches, 1, 1, 1);
  CHECK_EQ_INT(launches, 1);
  /* A flush adds a lane's count; zeros add nothing. */
  uint64_t counter = 10;
  __pasta_flush_counter(&counter, 5);
  __pasta_flush_counter(&counter, 0);
  CHECK_EQ_INT(counter, 15);
  /* Banks: block 5 of a module with 4 counters and 4 banks uses bank 1
   * (5 & 3), i.e. counters + 4. */
  uint64_t counters[16] = {0};
  place(5, 8, 0, 32);
  CHECK(__pasta_bank_row(counters, 4, 4) == counters + 4);
}

/*===- Bit counters flushed four to a warp sum ----------------------------===*/

/* Lane l's mask: bit b set when (l + 1) % (b + 2) != 0 for b < 31, bit 31 in
 * every lane. Over lanes 0..w-1 bit b is set in w - floor(w / (b + 2)) of
 * them: 32 lanes: bit 0 16, bit 3 26, bit 5 28, bit 6 28, bit 9 30, bit 31
 * 32; 64 lanes: bit 31 64 (a field of 6 bits would wrap to 0). */
static uint32_t bit_mask_of(uint32_t lane) {
  uint32_t m = 1u << 31;
  for (uint32_t b = 0; b < 31; ++b)
    if ((lane + 1) % (b + 2) != 0)
      m |= 1u << b;
  return m;
}
static uint64_t lanes_with_bit(uint32_t width, uint32_t b) {
  uint64_t n = 0;
  for (uint32_t l = 0; l < width; ++l)
    n += (bit_mask_of(l) >> b) & 1;
  return n;
}

static uint64_t bit_slots[8];
static uint32_t bit_any[64];
static void flush_bits_fast_lane(uint32_t lane, void *arg) {
  (void)arg;
  /* Bits 0, 3, 31 into slots 0..2 after one warp-wide or; bit 30, which
   * no lane has here, into slot 7, which must stay untouched. */
  uint32_t mask = bit_mask_of(lane) & ~(1u << 30);
  uint32_t any = __pasta_warp_or(mask), me = __pasta_lane_id();
  bit_any[lane] = any;
  __pasta_flush_bit_fast(&bit_slots[0], mask, any, 0, me);
  __pasta_flush_bit_fast(&bit_slots[1], mask, any, 3, me);
  __pasta_flush_bit_fast(&bit_slots[2], mask, any, 31, me);
  __pasta_flush_bit_fast(&bit_slots[7], mask, any, 30, me);
}

static uint32_t live_bits;
static uint32_t bit_indices[32];
static uint64_t bit_counters[4][40]; /* 4 banks of 40 counters */
static void flush_bits_lane(uint32_t lane, void *arg) {
  (void)arg;
  __pasta_flush_bits(&bit_counters[0][0], 40, 4, 2, bit_mask_of(lane),
                     live_bits, bit_indices);
}

/* The same flush with the indices packed a byte each in four words (the
 * pass's form for indices below 256), into the bank row read first. */
static void flush_bits_packed_lane(uint32_t lane, void *arg) {
  (void)arg;
  uint64_t words[4] = {0, 0, 0, 0};
  for (uint32_t b = 0; b < 32; ++b)
    words[b / 8] |= (uint64_t)bit_indices[b] << (b % 8 * 8);
  __pasta_flush_bits_packed(__pasta_bank_row(&bit_counters[0][0], 40, 4) + 2,
                            bit_mask_of(lane), live_bits, words[0], words[1],
                            words[2], words[3]);
}

/* The pass's batched form of a full warp's inline bit flush (counting
 * builds, emitLaneZeroAdds): every live bit's count by a ballot first, then
 * lane 0 adds each non-zero count to the bank row read first. */
static void flush_bits_batched_lane(uint32_t lane, void *arg) {
  (void)arg;
  uint32_t mask = bit_mask_of(lane), counts[32];
  for (uint32_t b = 0; b < 32; ++b)
    counts[b] = live_bits >> b & 1 ? __pasta_warp_bit_count(mask, b) : 0;
  if (__pasta_lane_id() != 0)
    return;
  uint64_t *row = __pasta_bank_row(&bit_counters[0][0], 40, 4) + 2;
  for (uint32_t b = 0; b < 32; ++b)
    if (live_bits >> b & 1)
      __pasta_add_nonzero(row + bit_indices[b], counts[b]);
}

/* The same with lane 0's adds in the form every lane runs
 * (__pasta_add_from_lane_zero: on NVIDIA GPUs a predicated `red`, no branch;
 * here its C form): no lane but 0 may add, and lane 0 adds no zero. */
static void flush_bits_predicated_lane(uint32_t lane, void *arg) {
  (void)arg;
  uint32_t mask = bit_mask_of(lane), counts[32];
  uint32_t id = __pasta_lane_id();
  for (uint32_t b = 0; b < 32; ++b)
    counts[b] = live_bits >> b & 1 ? __pasta_warp_bit_count(mask, b) : 0;
  uint64_t *row = __pasta_bank_row(&bit_counters[0][0], 40, 4) + 2;
  for (uint32_t b = 0; b < 32; ++b)
    if (live_bits >> b & 1)
      __pasta_add_from_lane_zero(row + bit_indices[b], counts[b], id);
}

/* Each live bit b of the flush goes to counter 2 + indices[b] of the block's
 * bank, as the number of active lanes with b set; in both forms. */
static void check_flush_bits_form(uint32_t width, uint64_t active,
                                  void (*lane_flush)(uint32_t, void *));
static void check_flush_bits(uint32_t width, uint64_t active) {
  check_flush_bits_form(width, active, flush_bits_lane);
  check_flush_bits_form(width, active, flush_bits_packed_lane);
  if (active == (width == 64 ? ~0ull : 0xffffffffull)) { /* full warps */
    check_flush_bits_form(width, active, flush_bits_batched_lane);
    check_flush_bits_form(width, active, flush_bits_predicated_lane);
  }
}

static void check_flush_bits_form(uint32_t width, uint64_t active,
                                  void (*lane_flush)(uint32_t, void *)) {
  memset(bit_counters, 0, sizeof bit_counters);
  place(6, 8, 0, width); /* bank 6 & 3 = 2 */
  pasta_shim_warp(width, active, 0, 0, lane_flush, NULL);
  for (uint32_t b = 0; b < 32; ++b) {
    uint64_t want = 0;
    for (uint32_t l = 0; l < width; ++l)
      if ((active >> l & 1) && (live_bits >> b & 1))
        want += (bit_mask_of(l) >> b) & 1;
    if (live_bits >> b & 1)
      CHECK_EQ_U64(bit_counters[2][2 + bit_indices[b]], want);
  }
  uint64_t total = 0;
  for (int bank = 0; bank < 4; ++bank)
    for (int c = 0; c < 40; ++c)
      total += bit_counters[bank][c];
  uint64_t want_total = 0;
  for (uint32_t l = 0; l < width; ++l)
    if (active >> l & 1)
      want_total += (uint64_t)__builtin_popcount(bit_mask_of(l) & live_bits);
  CHECK_EQ_U64(total, want_total); /* nothing anywhere else */
}

static void test_flush_bits(void) {
  for (uint32_t width = 32; width <= 64; width += 32) {
    memset(bit_slots, 0, sizeof bit_slots);
    place(0, 1, 0, width);
    pasta_shim_warp(width, width == 64 ? ~0ull : 0xffffffffull, 0, 0,
                    flush_bits_fast_lane, NULL);
    CHECK_EQ_U64(bit_slots[0], lanes_with_bit(width, 0));
    CHECK_EQ_U64(bit_slots[1], lanes_with_bit(width, 3));
    CHECK_EQ_U64(bit_slots[2], lanes_with_bit(width, 31));
    CHECK_EQ_U64(bit_slots[7], 0);
    for (uint32_t l = 0; l < width; ++l) /* every bit but 30 in some lane */
      CHECK_EQ_U64(bit_any[l], 0xbfffffffu);
  }
  CHECK_EQ_U64(lanes_with_bit(32, 3), 26);
  CHECK_EQ_U64(lanes_with_bit(64, 31), 64);
  /* Six live bits to scattered counters. */
  live_bits =
      (1u << 0) | (1u << 3) | (1u << 5) | (1u << 6) | (1u << 9) | (1u << 31);
  uint32_t k = 0;
  for (uint32_t b = 0; b < 32; ++b)
    bit_indices[b] = live_bits >> b & 1 ? 37 - 7 * k++ : 0;
  check_flush_bits(32, 0xffffffffull);
  check_flush_bits(64, ~0ull);
  /* A partial warp takes the general path: the same counts. */
  check_flush_bits(32, 0x0000fff0ull);
  /* Every bit live (a full mask: each lane of the warp adds one count), to
   * counters in reverse order. */
  live_bits = ~0u;
  for (uint32_t b = 0; b < 32; ++b)
    bit_indices[b] = 37 - b;
  check_flush_bits(32, 0xffffffffull);
  check_flush_bits(64, ~0ull);
  check_flush_bits(64, 0xffff0000ffff0000ull);
}

/*===- A lane's own bits
 * ---------------------------------------------------===*/

/* Slot 0: bit 2, set in lane 0 alone (`lane == 0`); slot 1: bit 7, set in
 * lanes 3, 19, 35, 51 (`threadIdx.x == 3` in blocks 16 threads wide: the
 * guess of one lane wrong); slot 2: bit 9, set in no lane. Each lane with
 * the bit adds 1, in any warp, full or not. */
static uint64_t lane_bit_slots[3];
static uint32_t lane_bit_mask(uint32_t lane) {
  return (lane == 0 ? 1u << 2 : 0) | (lane % 16 == 3 ? 1u << 7 : 0) | 1u;
}
static void flush_bit_lane_lane(uint32_t lane, void *arg) {
  (void)arg;
  uint32_t mask = lane_bit_mask(lane);
  __pasta_flush_bit_lane(&lane_bit_slots[0], mask, 2);
  __pasta_flush_bit_lane(&lane_bit_slots[1], mask, 7);
  __pasta_flush_bit_lane(&lane_bit_slots[2], mask, 9);
}

static void check_flush_bit_lane(uint32_t width, uint64_t active) {
  memset(lane_bit_slots, 0, sizeof lane_bit_slots);
  place(0, 1, 0, width);
  pasta_shim_warp(width, active, 0, 0, flush_bit_lane_lane, NULL);
  uint64_t want[3] = {0, 0, 0};
  for (uint32_t l = 0; l < width; ++l)
    if (active >> l & 1) {
      want[0] += l == 0;
      want[1] += l % 16 == 3;
    }
  for (int k = 0; k < 3; ++k)
    CHECK_EQ_U64(lane_bit_slots[k], want[k]);
}

static void test_flush_bit_lane(void) {
  check_flush_bit_lane(32, 0xffffffffull);         /* 1, 2, 0 */
  check_flush_bit_lane(64, ~0ull);                 /* 1, 4, 0 */
  check_flush_bit_lane(32, 0x000ffff0ull);         /* lane 0 gone: 0, 1, 0 */
  check_flush_bit_lane(64, 0x0008000000000009ull); /* lanes 0, 3, 51 */
  /* The counts written out for the full 32-lane warp, not from the loop. */
  check_flush_bit_lane(32, 0xffffffffull);
  CHECK_EQ_U64(lane_bit_slots[0], 1);
  CHECK_EQ_U64(lane_bit_slots[1], 2);
  CHECK_EQ_U64(lane_bit_slots[2], 0);
  check_flush_bit_lane(64, 0x0008000000000009ull);
  CHECK_EQ_U64(lane_bit_slots[0], 1);
  CHECK_EQ_U64(lane_bit_slots[1], 2);
}

/*===- A cold edge counted where it is taken
 * -------------------------------===*/

/* The lanes running __pasta_count_lanes together: their first adds their
 * number to counter 2 + 3 of its block's bank (block 6 of 4 banks: bank 2);
 * a warp split in two groups (two runs) adds each group's. */
static uint64_t lanes_counters[4][8];
static void count_lanes_lane(uint32_t lane, void *arg) {
  (void)lane;
  (void)arg;
  __pasta_count_lanes(&lanes_counters[0][0], 8, 4, 5);
}

static void test_count_lanes(void) {
  static const struct {
    uint32_t width;
    uint64_t groups[2]; /* the lanes of each group; 0: none */
    uint64_t want;
  } cases[] = {
      {32, {0xffffffffull, 0}, 32},
      {32, {0x80000000ull, 0}, 1},              /* the last lane alone */
      {32, {0x0000fff0ull, 0x00f00000ull}, 16}, /* 12 and 4 */
      {64, {~0ull, 0}, 64},
      {64, {0xff00000000000000ull, 0x1ull}, 9},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    memset(lanes_counters, 0, sizeof lanes_counters);
    place(6, 8, 0, cases[k].width);
    for (int g = 0; g < 2; ++g)
      if (cases[k].groups[g])
        pasta_shim_warp(cases[k].width, cases[k].groups[g], 0, 0,
                        count_lanes_lane, NULL);
    uint64_t total = 0;
    for (int bank = 0; bank < 4; ++bank)
      for (int c = 0; c < 8; ++c)
        total += lanes_counters[bank][c];
    CHECK_EQ_U64(lanes_counters[2][5], cases[k].want);
    CHECK_EQ_U64(total, cases[k].want);
  }
}

/*===- The out-of-line flush of many counters -----------------------------===*/

/* Lane l's count for flushed counter k: (l * (k + 3)) % 7, 0 for k = 4 in
 * every lane; with `big`, lane 5's count for k = 1 is 2^30 (no 32-bit warp
 * sum: the general path). Counter k goes to first (2) + indices[k] of the
 * block's bank (block 6 of 4 banks: bank 2). */
enum { INDEXED_N = 11 };
static const uint32_t indexed_indices[INDEXED_N] = {33, 0,  7, 36, 12, 3,
                                                    20, 29, 1, 14, 25};
static uint64_t indexed_counters[4][40];
static uint64_t indexed_count(uint32_t lane, uint32_t k, int big) {
  if (big && lane == 5 && k == 1)
    return 1ull << 30;
  return k == 4 ? 0 : (lane * (k + 3)) % 7;
}
static void flush_indexed_lane(uint32_t lane, void *arg) {
  int big = *(int *)arg;
  uint64_t values[INDEXED_N];
  for (uint32_t k = 0; k < INDEXED_N; ++k)
    values[k] = indexed_count(lane, k, big);
  __pasta_flush_indexed(&indexed_counters[0][0], 40, 4, 2, values,
                        indexed_indices, INDEXED_N);
}

static void check_flush_indexed(uint32_t width, uint64_t active, int big) {
  memset(indexed_counters, 0, sizeof indexed_counters);
  place(6, 8, 0, width);
  pasta_shim_warp(width, active, 0, 0, flush_indexed_lane, &big);
  uint64_t want_total = 0;
  for (uint32_t k = 0; k < INDEXED_N; ++k) {
    uint64_t want = 0;
    for (uint32_t l = 0; l < width; ++l)
      if (active >> l & 1)
        want += indexed_count(l, k, big);
    CHECK_EQ_U64(indexed_counters[2][2 + indexed_indices[k]], want);
    want_total += want;
  }
  uint64_t total = 0;
  for (int bank = 0; bank < 4; ++bank)
    for (int c = 0; c < 40; ++c)
      total += indexed_counters[bank][c];
  CHECK_EQ_U64(total, want_total); /* nothing anywhere else */
}

/* The collectives (ballots, shuffles) a warp of `active` lanes ran in one
 * indexed flush of small counts. */
static void flush_indexed_collectives(uint64_t active, uint64_t *ballots,
                                      uint64_t *shuffles) {
  uint64_t before[3];
  memcpy(before, pasta_shim_collectives, sizeof before);
  check_flush_indexed(32, active, 0);
  *ballots = pasta_shim_collectives[PASTA_SHIM_BALLOT] - before[0];
  *shuffles = pasta_shim_collectives[PASTA_SHIM_SHUFFLE] - before[1];
}

/* Full warps of small counts take the fast path (a 32-bit warp sum per
 * counter), partial warps and large counts the general one: the same
 * counts. What the paths cost: two votes (any count? a large one?) per
 * batch of 8 counters and per counter of the last few (11: a batch and 3
 * counters), then a full warp's
 * sum per counter (5 shuffles each without redux.sync); a partial warp that
 * cannot sum its lanes (no redux.sync) adds each lane's own counts, with no
 * collective per counter (a vote per counter held lanes that left a spin
 * loop early, and their warp, for thousands of instructions). */
static void test_flush_indexed(void) {
  check_flush_indexed(32, 0xffffffffull, 0);
  check_flush_indexed(64, ~0ull, 0);
  check_flush_indexed(32, 0xffffffffull, 1);
  check_flush_indexed(32, 0x00ff0ff0ull, 0);
  check_flush_indexed(32, 0x00ff0ff0ull, 1);
  uint64_t ballots, shuffles;
  flush_indexed_collectives(0xffffffffull, &ballots, &shuffles);
  CHECK_EQ_U64(ballots, 2 * (1 + 3));
  CHECK_EQ_U64(shuffles, 5 * INDEXED_N);
  flush_indexed_collectives(0x00ff0ff0ull, &ballots, &shuffles);
  CHECK_EQ_U64(ballots, 2 * (1 + 3));
  CHECK_EQ_U64(shuffles, 0);
}

/* A flush of 40 staged counters of which one, counter 13, is added to (2 in
 * lane 3, 1 in lane 9): the threads of a kernel whose guarded blocks are
 * mostly not taken. Counter k goes to first (1) + k of bank 2 (block 6 of
 * 4 banks). */
enum { SPARSE_N = 40 };
static uint64_t sparse_counters[4][SPARSE_N + 1];
static void flush_sparse_lane(uint32_t lane, void *arg) {
  (void)arg;
  uint64_t values[SPARSE_N] = {0};
  values[13] = lane == 3 ? 2 : lane == 9 ? 1 : 0;
  __pasta_flush(&sparse_counters[0][0], SPARSE_N + 1, 4, 1, values, SPARSE_N);
}

/* The batches that are zero in every lane cost one vote each and no warp
 * sum: 5 batches, one with a count (its second vote, a large count?, and
 * its 8 sums of 5 shuffles). A sum per counter was 200 shuffles. */
static void test_flush_sparse(void) {
  memset(sparse_counters, 0, sizeof sparse_counters);
  place(6, 8, 0, 32);
  uint64_t before[3];
  memcpy(before, pasta_shim_collectives, sizeof before);
  pasta_shim_warp(32, 0xffffffffull, 0, 0, flush_sparse_lane, NULL);
  CHECK_EQ_U64(pasta_shim_collectives[PASTA_SHIM_BALLOT] - before[0], 5 + 1);
  CHECK_EQ_U64(pasta_shim_collectives[PASTA_SHIM_SHUFFLE] - before[1], 5 * 8);
  uint64_t total = 0;
  for (int bank = 0; bank < 4; ++bank)
    for (int c = 0; c <= SPARSE_N; ++c)
      total += sparse_counters[bank][c];
  CHECK_EQ_U64(sparse_counters[2][1 + 13], 3);
  CHECK_EQ_U64(total, 3);
}

/*===- A group's half: four counters after one vote, in a loop ----------===*/

/* Lane l holds half_count(l, k) for the group's counter k: a different
 * multiple of l + 1 per counter (small: the fast path's precondition), 0 in
 * lanes l % 4 == k; half_zero makes every lane's four zero (the vote skips
 * them all). Slots 0 and 5 must stay untouched: the half writes slots 1..4
 * only, each its own counter's sum. */
static uint64_t half_slots[6];
static int half_zero;
static uint64_t half_count(uint32_t lane, uint32_t k) {
  if (half_zero || lane % 4 == k)
    return 0;
  return (uint64_t)(lane + 1) * (100 * k + 1);
}
static void flush_half_lane(uint32_t lane, void *arg) {
  int fast = *(const int *)arg;
  uint64_t v0 = half_count(lane, 0), v1 = half_count(lane, 1);
  uint64_t v2 = half_count(lane, 2), v3 = half_count(lane, 3);
  if (fast)
    __pasta_flush_half_fast(&half_slots[1], v0, v1, v2, v3);
  else
    __pasta_flush_half(&half_slots[1], v0, v1, v2, v3);
}

static void check_flush_half(uint32_t width, uint64_t active, int fast) {
  memset(half_slots, 0, sizeof half_slots);
  place(0, 1, 0, width);
  uint64_t ballots = pasta_shim_collectives[PASTA_SHIM_BALLOT];
  pasta_shim_warp(width, active, 0, 0, flush_half_lane, &fast);
  for (uint32_t k = 0; k < 4; ++k) {
    uint64_t want = 0;
    for (uint32_t l = 0; l < width; ++l)
      if (active >> l & 1)
        want += half_count(l, k);
    CHECK_EQ_U64(half_slots[1 + k], want);
  }
  CHECK_EQ_U64(half_slots[0], 0);
  CHECK_EQ_U64(half_slots[5], 0);
  if (half_zero) /* one vote, and nothing after it */
    CHECK_EQ_U64(pasta_shim_collectives[PASTA_SHIM_BALLOT] - ballots, 1);
}

static void test_flush_half(void) {
  for (half_zero = 0; half_zero <= 1; ++half_zero) {
    check_flush_half(32, 0xffffffffull, 1); /* the fast path: full warps */
    check_flush_half(32, 0xffffffffull, 0);
    check_flush_half(32, 0x00ff0f0full, 0); /* a partial warp */
    check_flush_half(64, ~0ull, 1);
    check_flush_half(64, 0xf0f0f0f00000ffffull, 0);
  }
}

/*===- Counts alike in every thread block, flushed by the first ----------===*/

/* Lane l of every thread block counts alike_count(l) (l % 3: 0, 1, 2, ...);
 * a partial warp of lanes 0..19 is the last warp of each block. */
static uint64_t alike_slot;
static uint64_t alike_big; /* added to every count (0: small counts) */
static uint64_t alike_count(uint32_t lane) { return alike_big + lane % 3; }
static void flush_alike_lane(uint32_t lane, void *arg) {
  (void)arg;
  uint64_t scale = __pasta_first_block_scale();
  if (scale != 0)
    __pasta_flush_scaled(&alike_slot, alike_count(lane), scale);
}

/* The inline form: the same sums (a full warp of small counts inline, any
 * other warp through the call). */
static void flush_alike_inline_lane(uint32_t lane, void *arg) {
  (void)arg;
  uint64_t scale = __pasta_first_block_scale();
  if (scale != 0)
    __pasta_flush_scaled_inline(&alike_slot, alike_count(lane), scale);
}

/* The pass's default for the 64-bit counts: the warp's ballot of its
 * count, then the call (a warp of zeros skips it): the same sums. */
static void flush_alike_nonzero_lane(uint32_t lane, void *arg) {
  (void)arg;
  uint64_t scale = __pasta_first_block_scale();
  if (scale != 0)
    __pasta_flush_scaled_nonzero(&alike_slot, alike_count(lane), scale);
}

/* The pass's form for two or more alike counts kept in 32 bits (one shown): the
 * ballot of their or, then in a full warp of small counts the inline sum of
 * each, elsewhere the tested call: the same sums. */
static void flush_alike_fast_lane(uint32_t lane, void *arg) {
  (void)arg;
  uint64_t scale = __pasta_first_block_scale();
  uint64_t count = alike_count(lane);
  if (scale == 0 || __pasta_flush_any(count) == 0)
    return;
  if (__pasta_flush_is_fast(count) != 0)
    __pasta_flush_scaled_fast(&alike_slot, count, scale);
  else
    __pasta_flush_scaled_nonzero(&alike_slot, count, scale);
}

/* The same with the pass's batched fast path (emitLaneZeroAdds): in a full
 * warp of small counts the warp sum first, then lane 0 adds it times the
 * scale where it is not zero; elsewhere the tested call: the same sums. */
static void flush_alike_batched_lane(uint32_t lane, void *arg) {
  (void)arg;
  uint64_t scale = __pasta_first_block_scale();
  uint64_t count = alike_count(lane);
  if (scale == 0 || __pasta_flush_any(count) == 0)
    return;
  if (__pasta_flush_is_fast(count) == 0) {
    __pasta_flush_scaled_nonzero(&alike_slot, count, scale);
    return;
  }
  uint32_t sum = __pasta_warp_sum_small(count);
  if (__pasta_lane_id() == 0)
    __pasta_add_nonzero(&alike_slot, (uint64_t)sum * scale);
}

/* The first block's out-of-line flush of alike bit counters: bits 0, 3 and
 * 31 of test_flush_bits' masks to three slots (the fourth unused), each sum
 * (or each lane's bit, in a partial warp) times 7. */
static uint64_t scaled_slots[8];
static void flush_bits_scaled_lane(uint32_t lane, void *arg) {
  (void)arg;
  __pasta_flush_bits_scaled(&scaled_slots[0], &scaled_slots[1],
                            &scaled_slots[2], &scaled_slots[7],
                            bit_mask_of(lane), 0, 3, 31, 0, 3, 7);
}

/* The same through the inline form (full warps inline, partial warps the
 * out-of-line call): the same sums. */
static void flush_bits_scaled_inline_lane(uint32_t lane, void *arg) {
  (void)arg;
  __pasta_flush_bits_scaled_inline(&scaled_slots[0], &scaled_slots[1],
                                   &scaled_slots[2], &scaled_slots[7],
                                   bit_mask_of(lane), 0, 3, 31, 0, 3, 7);
}

/* The batched form of the first block's alike bits (counting builds): a
 * full warp counts each bit with a ballot and lane 0 adds the counts times
 * 7; a partial warp calls the out-of-line flush: the same sums. */
static void flush_bits_scaled_batched_lane(uint32_t lane, void *arg) {
  (void)arg;
  uint32_t mask = bit_mask_of(lane);
  if (__pasta_flush_is_full_warp() == 0) {
    __pasta_flush_bits_scaled(&scaled_slots[0], &scaled_slots[1],
                              &scaled_slots[2], &scaled_slots[7], mask, 0, 3,
                              31, 0, 3, 7);
    return;
  }
  uint32_t n0 = __pasta_warp_bit_count(mask, 0);
  uint32_t n3 = __pasta_warp_bit_count(mask, 3);
  uint32_t n31 = __pasta_warp_bit_count(mask, 31);
  if (__pasta_lane_id() != 0)
    return;
  __pasta_add_nonzero(&scaled_slots[0], (uint64_t)n0 * 7);
  __pasta_add_nonzero(&scaled_slots[1], (uint64_t)n3 * 7);
  __pasta_add_nonzero(&scaled_slots[2], (uint64_t)n31 * 7);
}

static void check_flush_bits_scaled(uint64_t active,
                                    void (*lane_fn)(uint32_t, void *)) {
  memset(scaled_slots, 0, sizeof scaled_slots);
  place(0, 1, 0, 32);
  pasta_shim_warp(32, active, 0, 0, lane_fn, NULL);
  const uint32_t bits[3] = {0, 3, 31};
  for (int k = 0; k < 3; ++k) {
    uint64_t want = 0;
    for (uint32_t l = 0; l < 32; ++l)
      if (active >> l & 1)
        want += (bit_mask_of(l) >> bits[k]) & 1;
    CHECK_EQ_U64(scaled_slots[k], 7 * want);
  }
  CHECK_EQ_U64(scaled_slots[7], 0);
}

/* Five blocks, each a full warp and a 20-lane warp, through lane_fn, each
 * lane's count raised by `big`: the first block's adds must total `want`. */
static void check_flush_alike(void (*lane_fn)(uint32_t, void *), uint64_t big,
                              uint64_t want) {
  alike_slot = 0;
  alike_big = big;
  for (uint32_t block = 0; block < 5; ++block)
    for (uint32_t warp = 0; warp < 2; ++warp) {
      place(block, 5, 32 * warp, 52);
      pasta_shim_warp(32, warp == 0 ? 0xffffffffull : 0xfffffull, 0, 0, lane_fn,
                      NULL);
    }
  CHECK_EQ_U64(alike_slot, want);
}

static void test_first_block_scale(void) {
  /* The bits of test_flush_bits' six live counters, times 7: a full warp
   * (warp sums) and a partial one (each lane's bit). */
  check_flush_bits_scaled(0xffffffffull, flush_bits_scaled_lane);
  check_flush_bits_scaled(0x0000fff0ull, flush_bits_scaled_lane);
  check_flush_bits_scaled(0xffffffffull, flush_bits_scaled_inline_lane);
  check_flush_bits_scaled(0x0000fff0ull, flush_bits_scaled_inline_lane);
  check_flush_bits_scaled(0xffffffffull, flush_bits_scaled_batched_lane);
  check_flush_bits_scaled(0x0000fff0ull, flush_bits_scaled_batched_lane);
  /* A 3 x 2 grid: the first block sees 6, every other block 0. */
  place(0, 3, 0, 32);
  pasta_shim.blocks[1] = 2;
  CHECK_EQ_U64(__pasta_first_block_scale(), 6);
  pasta_shim.block[0] = 2;
  CHECK_EQ_U64(__pasta_first_block_scale(), 0);
  pasta_shim.block[0] = 0;
  pasta_shim.block[1] = 1;
  CHECK_EQ_U64(__pasta_first_block_scale(), 0);
  /* Blocks of a 32-lane warp and a 20-lane warp, 5 blocks: what every block
   * flushing its own counts would add, 5 * (sum over 32 lanes of l % 3 +
   * the same over 20 lanes) = 5 * (31 + 19) = 250, comes from the first
   * block alone. 32 lanes: 11 zeros, 11 ones, 10 twos = 31; 20 lanes: 7, 7,
   * 6 = 19. */
  check_flush_alike(flush_alike_lane, 0, 250);
  check_flush_alike(flush_alike_inline_lane, 0, 250);
  /* Counts of 2^40 + l % 3 (the inline form's full warp then takes the
   * call): 250 more, and 5 blocks x 52 lanes x 2^40. */
  check_flush_alike(flush_alike_lane, 1ull << 40, 250 + 260 * (1ull << 40));
  check_flush_alike(flush_alike_inline_lane, 1ull << 40,
                    250 + 260 * (1ull << 40));
  check_flush_alike(flush_alike_nonzero_lane, 0, 250);
  check_flush_alike(flush_alike_nonzero_lane, 1ull << 40,
                    250 + 260 * (1ull << 40));
  check_flush_alike(flush_alike_fast_lane, 0, 250);
  check_flush_alike(flush_alike_fast_lane, 1ull << 40,
                    250 + 260 * (1ull << 40));
  check_flush_alike(flush_alike_batched_lane, 0, 250);
  check_flush_alike(flush_alike_batched_lane, 1ull << 40,
                    250 + 260 * (1ull << 40));
  alike_big = 0;
}

/*===- Divergence mode on a 32-lane warp ---------------------------------===*/

/* One access per lane: lane l touches addr(l) with `size` bytes. Every lane
 * keeps its own registers; the flush would sum them, so the warp's figures
 * are the sums over lanes (only the first active lane adds). Registers are
 * 32 bits, read as signed values as the copies read them (div_reg). */
enum { DIV_RG, DIV_RS, DIV_B, DIV_DG, DIV_DS, DIV_SEC, DIV_IDEAL, DIV_BC };
struct div_case {
  uint64_t base, stride, offset;
  uint32_t size, hint, sectored;
  uint32_t per_lane[64][8];
};
static const uint64_t DIV_BASE = 1ull << 20; /* 128-byte aligned */

/* A register's value as the copies flush it: sign-extended, since the lanes
 * helper adds measured less derived figures (modulo 2^32). */
static uint64_t div_reg(uint32_t r) { return (uint64_t)(int64_t)(int32_t)r; }
/* The row width the general helper is given (__pasta_div_row_width): 0,
 * no rows path, unless a test sets it. */
static uint32_t div_width;

static void div_access_lane(uint32_t lane, void *arg) {
  struct div_case *c = arg;
  uint32_t *r = c->per_lane[lane];
  uint64_t addr = c->base + c->offset + c->stride * lane;
  __pasta_div_access((void *)(uintptr_t)addr, c->size, c->hint, c->sectored,
                     div_width, &r[0], &r[1], &r[2], &r[3], &r[4], &r[5], &r[6],
                     &r[7]);
}

/* The warp's figures for lanes `active` touching base + offset + stride * l. */
static void div_run(struct div_case *c, uint64_t active, uint64_t sum[8]) {
  memset(c->per_lane, 0, sizeof c->per_lane);
  pasta_shim_warp(32, active, DIV_BASE * 4, DIV_BASE * 5, div_access_lane, c);
  memset(sum, 0, 8 * sizeof *sum);
  for (int l = 0; l < 64; ++l)
    for (int i = 0; i < 8; ++i)
      sum[i] += div_reg(c->per_lane[l][i]);
  /* Only the first active lane adds. */
  for (int l = 0; l < 64; ++l)
    if (l != __builtin_ctzll(active))
      for (int i = 0; i < 8; ++i)
        CHECK_EQ_U64(c->per_lane[l][i], 0);
}

/* Lane l of a half-warp pattern: 1: word 0 for lanes 0..15, word 32 for
 * 16..31; 2: words 0 and 32 alternating by lane; 3: double l mod 16. */
static int div_pattern;
static void div_pattern_lane(uint32_t lane, void *arg) {
  struct div_case *c = arg;
  uint32_t *r = c->per_lane[lane];
  int high = div_pattern == 1 ? lane >= 16 : (int)(lane & 1);
  uint64_t addr = c->base + (high ? 128 : 0);
  if (div_pattern == 3) /* both half-warps read the same 16 doubles */
    addr = c->base + 8 * (lane % 16);
  __pasta_div_access((void *)(uintptr_t)addr, c->size, c->hint, c->sectored,
                     div_width, &r[0], &r[1], &r[2], &r[3], &r[4], &r[5], &r[6],
                     &r[7]);
}

static void div_run_pattern(struct div_case *c, int pattern, uint64_t sum[8]) {
  div_pattern = pattern;
  memset(c->per_lane, 0, sizeof c->per_lane);
  pasta_shim_warp(32, 0xffffffffull, DIV_BASE * 4, DIV_BASE * 5,
                  div_pattern_lane, c);
  memset(sum, 0, 8 * sizeof *sum);
  for (int l = 0; l < 64; ++l)
    for (int i = 0; i < 8; ++i)
      sum[i] += div_reg(c->per_lane[l][i]);
}

#define FULL 0xffffffffull

static void test_div_global(void) {
  struct div_case c = {DIV_BASE, 4, 0, 4, PASTA_DIV_GLOBAL, 1, {{0}}};
  uint64_t s[8];
  /* Coalesced floats: 32 x 4 = 128 bytes from an aligned base: 4 sectors,
   * ideal 4, one request. */
  div_run(&c, FULL, s);
  CHECK(s[DIV_RG] == 1 && s[DIV_RS] == 0 && s[DIV_B] == 128);
  CHECK(s[DIV_DG] == 128 && s[DIV_SEC] == 4 && s[DIV_IDEAL] == 4);
  /* Every other float: 128 distinct bytes spread over 256: 8 sectors where
   * 4 would do. */
  c.stride = 8;
  div_run(&c, FULL, s);
  CHECK(s[DIV_DG] == 128 && s[DIV_SEC] == 8 && s[DIV_IDEAL] == 4);
  /* Broadcast: 128 bytes requested, 4 distinct, one sector. */
  c.stride = 0;
  div_run(&c, FULL, s);
  CHECK(s[DIV_B] == 128 && s[DIV_DG] == 4 && s[DIV_SEC] == 1 &&
        s[DIV_IDEAL] == 1);
  /* Shifted by 16 bytes: bytes 16..143 span sectors 0..4: 5, ideal 4. */
  c.stride = 4, c.offset = 16;
  div_run(&c, FULL, s);
  CHECK(s[DIV_DG] == 128 && s[DIV_SEC] == 5 && s[DIV_IDEAL] == 4);
  /* Doubles at 28 + 8l: misaligned, each lane's 8 bytes are new (bytes
   * 28..283, 256 of them) and lane 0 straddles sectors 0 and 1: sectors
   * 0..8, nine. */
  c.size = 8, c.stride = 8, c.offset = 28;
  div_run(&c, FULL, s);
  CHECK_EQ_U64(s[DIV_DG], 256);
  CHECK_EQ_U64(s[DIV_SEC], 9);
  CHECK_EQ_U64(s[DIV_IDEAL], 8);
  /* Overlapping floats at 2l: the union is [0, 2 * 31 + 4) = 66 bytes in
   * sectors 0..2; ideal ceil(66 / 32) = 3. */
  c.size = 4, c.stride = 2, c.offset = 0;
  div_run(&c, FULL, s);
  CHECK(s[DIV_DG] == 66 && s[DIV_SEC] == 3 && s[DIV_IDEAL] == 3);
  /* Even lanes only, floats at 4l: 16 lanes, 64 bytes requested and
   * distinct, at 0, 8, ..., 120: sectors 0..3 (4), ideal 2. */
  c.stride = 4;
  div_run(&c, 0x55555555ull, s);
  CHECK(s[DIV_RG] == 1 && s[DIV_B] == 64 && s[DIV_DG] == 64);
  CHECK(s[DIV_SEC] == 4 && s[DIV_IDEAL] == 2);
  /* Atomics: bytes, no sectors. */
  c.sectored = 0;
  div_run(&c, FULL, s);
  CHECK(s[DIV_DG] == 128 && s[DIV_SEC] == 0 && s[DIV_IDEAL] == 0);
}

static void test_div_shared(void) {
  struct div_case c = {DIV_BASE * 4, 4, 0, 4, PASTA_DIV_SHARED, 1, {{0}}};
  uint64_t s[8];
  /* Consecutive words: 32 banks, one word each: no conflict. */
  div_run(&c, FULL, s);
  CHECK(s[DIV_RS] == 1 && s[DIV_RG] == 0 && s[DIV_DS] == 128);
  CHECK(s[DIV_BC] == 0 && s[DIV_SEC] == 0);
  /* Every other word: words 0, 2, ..., 62 fall in the 16 even banks, two
   * per bank: 2 wavefronts, 1 conflict. */
  c.stride = 8;
  div_run(&c, FULL, s);
  CHECK_EQ_U64(s[DIV_BC], 1);
  /* A column of a 32 x 32 float tile: all in bank 0, 32 words: 31. */
  c.stride = 128;
  div_run(&c, FULL, s);
  CHECK_EQ_U64(s[DIV_BC], 31);
  /* Broadcast of one word: one wavefront. */
  c.stride = 0;
  div_run(&c, FULL, s);
  CHECK(s[DIV_BC] == 0 && s[DIV_DS] == 4);
  /* Doubles at 8l: two half-warp phases of 16 lanes x 8 bytes = 128 bytes,
   * conflict-free: 2 wavefronts, 2 phases. */
  c.size = 8, c.stride = 8;
  div_run(&c, FULL, s);
  CHECK(s[DIV_BC] == 0 && s[DIV_DS] == 256);
  /* Doubles at 16l: in a half-warp the first words 0, 4, ..., 60 hit banks
   * 0, 4, ..., 28 twice each: 2 wavefronts per phase, 4 - 2 = 2. */
  c.stride = 16;
  div_run(&c, FULL, s);
  CHECK_EQ_U64(s[DIV_BC], 2);
  /* 16-byte vectors at 16l: four quarter-warp phases of 8 lanes x 16 bytes,
   * conflict-free. At 32l: each quarter's first words 0, 8, ..., 56 hit
   * banks 0, 8, 16, 24 twice: 2 per phase, 8 - 4 = 4. */
  c.size = 16, c.stride = 16;
  div_run(&c, FULL, s);
  CHECK_EQ_U64(s[DIV_BC], 0);
  c.stride = 32;
  div_run(&c, FULL, s);
  CHECK_EQ_U64(s[DIV_BC], 4);
  /* A double every lane reads (a broadcast, as a tile row read by every
   * column thread): one word pair in each half-warp phase, one wavefront
   * each: 0. (Found on the GPU: counting the pair once for the whole warp
   * left the second phase with no wavefront, 1 - 2 wrapped around.) The
   * same for a 16-byte vector over four quarter-warp phases. */
  c.size = 8, c.stride = 0;
  div_run(&c, FULL, s);
  CHECK_EQ_U64(s[DIV_BC], 0);
  CHECK(s[DIV_RS] == 1 && s[DIV_DS] == 8);
  c.size = 16;
  div_run(&c, FULL, s);
  CHECK_EQ_U64(s[DIV_BC], 0);
  /* Two doubles, one per half-warp, both in bank 0 and 1 (words 0 and 32):
   * each phase reads one pair: 0. Within a half-warp, lanes alternating
   * between words 0 and 32: 2 wavefronts each phase, 4 - 2 = 2. */
  c.size = 8, c.stride = 0;
  div_run_pattern(&c, 1, s);
  CHECK_EQ_U64(s[DIV_BC], 0);
  div_run_pattern(&c, 2, s);
  CHECK_EQ_U64(s[DIV_BC], 2);
  /* dgemm's B-tile row: lane l reads double l mod 16, so both half-warps
   * read the same 128 bytes, one wavefront each: 0 (the GPU run's wrap). */
  div_run_pattern(&c, 3, s);
  CHECK(s[DIV_BC] == 0 && s[DIV_DS] == 128);
  /* Atomics: requests and bytes, no bank conflicts (ncu counts those for
   * loads and stores). */
  c.size = 4, c.stride = 128, c.sectored = 0;
  div_run(&c, FULL, s);
  CHECK(s[DIV_RS] == 1 && s[DIV_BC] == 0 && s[DIV_DS] == 128);
  c.sectored = 1;
  /* Only lanes 0..15 of a float column of stride 32 words: 16 words in
   * bank 0: 15 conflicts. */
  c.size = 4, c.stride = 128;
  div_run(&c, 0xffffull, s);
  CHECK_EQ_U64(s[DIV_BC], 15);
}

/* A generic pointer: lanes 0..15 in shared memory, 16..31 in global. */
static void div_generic_lane(uint32_t lane, void *arg) {
  struct div_case *c = arg;
  uint32_t *r = c->per_lane[lane];
  uint64_t addr = (lane < 16 ? DIV_BASE * 4 : DIV_BASE) + 4 * lane;
  __pasta_div_access((void *)(uintptr_t)addr, 4, PASTA_DIV_GENERIC, 1,
                     div_width, &r[0], &r[1], &r[2], &r[3], &r[4], &r[5], &r[6],
                     &r[7]);
}

static void test_div_generic(void) {
  struct div_case c;
  memset(&c, 0, sizeof c);
  pasta_shim_warp(32, FULL, DIV_BASE * 4, DIV_BASE * 5, div_generic_lane, &c);
  uint64_t s[8] = {0};
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < 8; ++i)
      s[i] += div_reg(c.per_lane[l][i]);
  /* One request to each space, 64 bytes each; the global half is bytes
   * 64..127 of an aligned line: sectors 2 and 3. */
  CHECK(s[DIV_RG] == 1 && s[DIV_RS] == 1 && s[DIV_B] == 128);
  CHECK(s[DIV_DG] == 64 && s[DIV_DS] == 64 && s[DIV_SEC] == 2);
}

/*===- The fast paths against a brute-force reference -------------------===*
 * Distinct bytes and sectors have a fast path for lanes whose addresses
 * rise with the lane (after dropping lanes that repeat the lane 16 below),
 * bank conflicts one for phases whose words lie within 32 of their lowest
 * lane's. Every pattern below runs through __pasta_div_access and is
 * compared with the figures computed here by definition: the union of the
 * lanes' byte ranges and of their sector ranges, and per phase the most
 * distinct words in one bank. Chosen patterns must take (or miss) a fast
 * path, counted by the runtime's test tallies. */
struct div_any {
  uint64_t addr[64];
  uint32_t size, hint, sectored;
  uint32_t per_lane[64][8];
  uint32_t added[64]; /* what the helper returned in each lane */
};

/* Or-ed into the hint the helper is given (PASTA_DIV_ALIGNED: the pass's
 * word that every address is a multiple of the size). */
static uint32_t div_any_flags;
static void div_any_lane(uint32_t lane, void *arg) {
  struct div_any *c = arg;
  uint32_t *r = c->per_lane[lane];
  c->added[lane] =
      __pasta_div_access((void *)(uintptr_t)c->addr[lane], c->size,
                         c->hint | div_any_flags, c->sectored, div_width, &r[0],
                         &r[1], &r[2], &r[3], &r[4], &r[5], &r[6], &r[7]);
}

/* The access helpers return 0 in a lane that added nothing to its
 * registers (outside loops the copies add the registers to the counters
 * only where they return nonzero), and nonzero in one lane at most. */
static void div_check_added(const struct div_any *c) {
  int adding = 0;
  for (int l = 0; l < 64; ++l) {
    adding += c->added[l] != 0;
    if (c->added[l] == 0)
      for (int i = 0; i < 8; ++i)
        CHECK_EQ_U64(c->per_lane[l][i], 0);
  }
  CHECK(adding <= 1);
}

static int div_cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Units in the union of [lo[i], lo[i] + len[i]) for n ranges. */
static uint64_t div_union(uint64_t *lo, const uint64_t *len_of_lo, int n) {
  uint64_t pairs[64][2];
  for (int i = 0; i < n; ++i)
    pairs[i][0] = lo[i], pairs[i][1] = lo[i] + len_of_lo[i];
  qsort(pairs, (size_t)n, sizeof pairs[0], div_cmp_u64);
  uint64_t total = 0, end = 0;
  for (int i = 0; i < n; ++i) {
    uint64_t from = pairs[i][0] > end || i == 0 ? pairs[i][0] : end;
    if (pairs[i][1] > from)
      total += pairs[i][1] - from;
    if (i == 0 || pairs[i][1] > end)
      end = pairs[i][1];
  }
  return total;
}

/* The figures by definition (user-guide.md, "Divergence mode"). */
static void div_reference(const struct div_any *c, uint64_t active,
                          uint64_t ref[8]) {
  uint64_t lo[64], len[64], slo[64], slen[64];
  int n = 0, shared = c->hint == PASTA_DIV_SHARED;
  for (int l = 0; l < 32; ++l)
    if (active >> l & 1) {
      lo[n] = c->addr[l], len[n] = c->size;
      slo[n] = c->addr[l] >> 5;
      slen[n] = ((c->addr[l] + c->size - 1) >> 5) - slo[n] + 1;
      ++n;
    }
  memset(ref, 0, 8 * sizeof *ref);
  uint64_t distinct = div_union(lo, len, n);
  ref[shared ? DIV_RS : DIV_RG] = 1;
  ref[DIV_B] = (uint64_t)c->size * (uint64_t)n;
  ref[shared ? DIV_DS : DIV_DG] = distinct;
  if (!c->sectored)
    return;
  if (!shared) {
    ref[DIV_SEC] = div_union(slo, slen, n);
    ref[DIV_IDEAL] = (distinct + 31) / 32;
    return;
  }
  uint32_t per_phase = 128u / (c->size > 4 ? c->size : 4);
  for (uint32_t p = 0; p * per_phase < 32; ++p) {
    uint64_t words[64];
    int k = 0, most = 0;
    for (uint32_t l = p * per_phase; l < (p + 1) * per_phase && l < 32; ++l)
      if (active >> l & 1)
        words[k++] = c->addr[l] >> 2;
    if (!k)
      continue;
    qsort(words, (size_t)k, sizeof words[0], div_cmp_u64);
    for (int bank = 0; bank < 32; ++bank) {
      int in_bank = 0;
      for (int i = 0; i < k; ++i)
        in_bank += (words[i] & 31) == (uint64_t)bank &&
                   (i == 0 || words[i] != words[i - 1]);
      most = in_bank > most ? in_bank : most;
    }
    ref[DIV_BC] += (uint64_t)most - 1;
  }
}

/* Runs c on `active` and compares with the reference; returns which fast
 * paths it took: bit 0 ordered units, bit 1 no-conflict banks, bit 2 rows. */
static int div_check_any(struct div_any *c, uint64_t active) {
  uint64_t ordered = pasta_div_fast_ordered, banks = pasta_div_fast_banks;
  uint64_t rows = pasta_div_fast_rows;
  memset(c->per_lane, 0, sizeof c->per_lane);
  memset(c->added, 0, sizeof c->added);
  pasta_shim_warp(32, active, 0, 0, div_any_lane, c);
  div_check_added(c);
  uint64_t got[8] = {0}, ref[8];
  for (int l = 0; l < 64; ++l)
    for (int i = 0; i < 8; ++i)
      got[i] += div_reg(c->per_lane[l][i]);
  div_reference(c, active, ref);
  for (int i = 0; i < 8; ++i)
    CHECK_EQ_U64(got[i], ref[i]);
  return (pasta_div_fast_ordered != ordered) |
         (pasta_div_fast_banks != banks) << 1 |
         (pasta_div_fast_rows != rows) << 2;
}

/* Lane l at base + offset + stride * (l % 16) + row * (l / 16) (stride and
 * row may be negative); row = 16 * stride is one line of lanes. */
static int div_tile(struct div_any *c, uint64_t active, int64_t offset,
                    int64_t stride, int64_t row) {
  for (int l = 0; l < 64; ++l)
    c->addr[l] = (uint64_t)((int64_t)DIV_BASE + offset + stride * (l % 16) +
                            row * (l / 16));
  return div_check_any(c, active);
}

static void test_div_fast_paths(void) {
  static struct div_any c;
  static const uint32_t sizes[] = {1, 2, 4, 8, 12, 16, 32, 64};
  static const int64_t strides[] = {0, 1, 2, 4, 8, 12, 16, 32, 128, 132, -4};
  static const int64_t offsets[] = {0, 4, 28};
  static const uint64_t masks[] = {FULL, 0x55555555ull, 0xffffull, 1ull << 7,
                                   0xf0f0f0f1ull};
  static const uint32_t hints[] = {PASTA_DIV_GLOBAL, PASTA_DIV_SHARED};
  /* Every size and stride, for each space, as one line of lanes or as
   * 16-lane tile rows: repeated (row 0), 18 floats apart (hotspot's halo
   * tile), descending; offsets and lane masks in turn (each run is a warp of 32
   * fibers: the product of all would take minutes). */
  int turn = 0;
  for (size_t h = 0; h < 2; ++h)
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; ++z)
      for (size_t s = 0; s < sizeof strides / sizeof *strides; ++s, ++turn) {
        c.hint = hints[h], c.size = sizes[z], c.sectored = 1;
        int64_t st = strides[s] * (int64_t)(sizes[z] > 4 ? sizes[z] : 1);
        int64_t rows[] = {16 * st, 0, 72, -4096};
        div_tile(&c, masks[turn % 5], offsets[turn % 3], st, rows[turn % 4]);
      }
  /* Atomics (not sectored) skip the ordered path: the same tiles of the
   * sizes atomics have, and the figures must still be the reference's. */
  for (size_t h = 0; h < 2; ++h)
    for (size_t z = 2; z < 4; ++z)
      for (size_t s = 0; s < sizeof strides / sizeof *strides; ++s, ++turn) {
        c.hint = hints[h], c.size = sizes[z], c.sectored = 0;
        int64_t st = strides[s] * (int64_t)sizes[z];
        int64_t rows[] = {16 * st, 0, 72, -4096};
        uint64_t ordered = pasta_div_fast_ordered;
        div_tile(&c, masks[turn % 5], offsets[turn % 3] & ~3, st,
                 rows[turn % 4]);
        CHECK(pasta_div_fast_ordered == ordered);
      }
  /* Pseudo-random addresses in a 256-byte window: mostly the general path. */
  uint64_t x = 12345;
  for (int t = 0; t < 40; ++t) {
    c.hint = hints[t & 1], c.size = sizes[(t >> 1) % 5], c.sectored = 1;
    for (int l = 0; l < 64; ++l) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      c.addr[l] = DIV_BASE + ((x >> 33) % 256) / c.size * c.size;
    }
    div_check_any(&c, t % 3 ? FULL : 0x0f0f0f0full);
  }
  /* Descending lanes (no ordered path) whose starts differ by one byte in
   * turn, so that their ranges overlap in part; 12-byte elements descending
   * in place. The general distinct bytes test every start's alignment to
   * the size: with a mask for sizes that are powers of 2, else with a
   * remainder. */
  c.hint = PASTA_DIV_GLOBAL, c.sectored = 1;
  for (int k = 0; k < 2; ++k) {
    c.size = k ? 12 : 4;
    for (int l = 0; l < 64; ++l)
      c.addr[l] = DIV_BASE + c.size * (uint64_t)(63 - l) + (k ? 0 : l % 2);
    CHECK_EQ_INT(div_check_any(&c, FULL), 0);
  }
  /* Atomics: no sectors, no conflicts, same bytes. */
  c.hint = PASTA_DIV_SHARED, c.size = 4, c.sectored = 0;
  div_tile(&c, FULL, 0, 128, 16 * 128);

  /* Which path: coalesced floats take both fast paths; a 16-float tile row
   * read by both half-warps (row 0) takes the ordered one after dropping
   * the repeats; hotspot's 18-float halo rows span 34 words in a phase of
   * 32 lanes (general conflicts, 1), ordered bytes; a descending stride
   * takes the general paths (its 0 conflicts included: the window starts at
   * the lowest lane's word), a column of a 32 x 32 tile (31 conflicts) the
   * general conflicts and ordered bytes. */
  c.sectored = 1, c.size = 4, c.hint = PASTA_DIV_SHARED;
  CHECK_EQ_INT(div_tile(&c, FULL, 0, 4, 64), 3);
  CHECK_EQ_INT(div_tile(&c, FULL, 0, 4, 0), 3);
  CHECK_EQ_INT(div_tile(&c, FULL, 0, 4, 72), 1);
  CHECK_EQ_U64(c.per_lane[0][DIV_BC], 1);
  CHECK_EQ_INT(div_tile(&c, FULL, 0, -4, -64), 0);
  CHECK_EQ_INT(div_tile(&c, FULL, 0, 128, 16 * 128), 1);
  CHECK_EQ_U64(c.per_lane[0][DIV_BC], 31);
  /* Global: a broadcast and a strided column are ordered; lanes that go
   * back (row -4096) are not. */
  c.hint = PASTA_DIV_GLOBAL;
  CHECK_EQ_INT(div_tile(&c, FULL, 0, 0, 0), 1);
  CHECK_EQ_INT(div_tile(&c, FULL, 0, 4096, 16 * 4096), 1);
  CHECK_EQ_INT(div_tile(&c, FULL, 0, 4, -4096), 0);
  /* Larger than 64 bytes: the general path, same figures. */
  c.size = 128;
  CHECK_EQ_INT(div_tile(&c, FULL, 0, 128, 16 * 128), 0);
}

/* Data-dependent accesses (bfs's level[v], next[v] and CAS, histogram's
 * shared atomic on a loaded bin, an index list that rises with the lane)
 * through __pasta_div_access, full and partial warps, rows of 32 (1-D
 * blocks) and of unknown width: the figures are the reference's, and the
 * votes, shuffles and matches each warp ran are printed. */
struct div_shape {
  const char *name;
  uint32_t size, hint, sectored, width;
  uint64_t active;
  int kind; /* 0: near the lane (v = u + [-48, 48]), 1: bins of 256,
               2: rising with gaps (an index list) */
};
static void div_shape_addresses(struct div_any *c, int kind, uint64_t *x) {
  uint64_t at = DIV_BASE + 4096;
  for (int l = 0; l < 64; ++l) {
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t r = *x >> 33;
    if (kind == 0)
      c->addr[l] = DIV_BASE + 4096 +
                   (uint64_t)((int64_t)l + (int64_t)(r % 97) - 48) * c->size;
    else if (kind == 1)
      c->addr[l] = DIV_BASE + (r % 256) * c->size;
    else
      c->addr[l] = at += (1 + r % 3) * c->size;
  }
}
static void test_div_data_dependent(void) {
  static struct div_any c;
  static const struct div_shape shapes[] = {
      {"level[v] load, full warp", 4, PASTA_DIV_GLOBAL, 1, 32, FULL, 0},
      {"level[v] load, 9 lanes", 4, PASTA_DIV_GLOBAL, 1, 32, 0x01020ff0ull, 0},
      {"CAS on level[v], 9 lanes", 4, PASTA_DIV_GLOBAL, 0, 32, 0x01020ff0ull,
       0},
      {"shared atomic on a bin", 4, PASTA_DIV_SHARED, 0, 0, FULL, 1},
      {"shared load of a bin", 4, PASTA_DIV_SHARED, 1, 0, FULL, 1},
      {"cols[e], rising, full", 4, PASTA_DIV_GLOBAL, 1, 32, FULL, 2},
      {"8-byte load near the lane", 8, PASTA_DIV_GLOBAL, 1, 32, FULL, 0},
      {"level[v] load, width unknown", 4, PASTA_DIV_GLOBAL, 1, 0, FULL, 0},
  };
  uint64_t x = 99;
  uint32_t saved = div_width;
  /* Each shape as the pass calls it for an access whose alignment the IR
   * does not state, then for one it does (PASTA_DIV_ALIGNED). */
  for (size_t i = 0; i < 2 * (sizeof shapes / sizeof *shapes); ++i) {
    const struct div_shape *sh = &shapes[i / 2];
    uint64_t before[3];
    memcpy(before, pasta_shim_collectives, sizeof before);
    enum { RUNS = 8 };
    div_any_flags = i % 2 ? PASTA_DIV_ALIGNED : 0;
    for (int run = 0; run < RUNS; ++run) {
      c.size = sh->size, c.hint = sh->hint, c.sectored = sh->sectored;
      div_width = sh->width;
      div_shape_addresses(&c, sh->kind, &x);
      div_check_any(&c, sh->active);
    }
    div_any_flags = 0;
    printf(
        "  div collectives per warp, %-30s%s ballots %5.2f shuffles %5.2f "
        "matches %5.2f\n",
        sh->name, i % 2 ? " (aligned)" : "          ",
        (double)(pasta_shim_collectives[PASTA_SHIM_BALLOT] - before[0]) / RUNS,
        (double)(pasta_shim_collectives[PASTA_SHIM_SHUFFLE] - before[1]) / RUNS,
        (double)(pasta_shim_collectives[PASTA_SHIM_MATCH] - before[2]) / RUNS);
  }
  /* The aligned path: every power-of-2 size up to 32, aligned addresses
   * at random in windows of 2, 8 and 128 elements (many repeats, some,
   * few), both spaces, loads, stores and atomics, rows of 32 and of
   * unknown width, full and partial masks: the reference's figures, and
   * the aligned path taken. One lane off by one byte leaves it, for the
   * general path (same figures). */
  static const uint32_t sizes[] = {1, 2, 4, 8, 16, 32};
  static const uint64_t masks[] = {FULL, 0x01020ff0ull, 0x80000001ull};
  static const uint32_t hints[] = {PASTA_DIV_GLOBAL, PASTA_DIV_SHARED};
  int turn = 0;
  for (size_t z = 0; z < sizeof sizes / sizeof *sizes; ++z)
    for (uint32_t window = 2; window <= 128; window *= 8)
      for (int off = 0; off < 2; ++off, ++turn) {
        c.size = sizes[z], c.hint = hints[turn % 2];
        c.sectored = turn % 3 != 0;
        div_width = turn % 4 < 2 ? 32 : 0;
        uint64_t active = masks[turn % 3];
        for (int l = 0; l < 64; ++l) {
          x = x * 6364136223846793005ull + 1442695040888963407ull;
          c.addr[l] = DIV_BASE + 64 + ((x >> 33) % window) * c.size;
        }
        /* a lane off its alignment (sizes above 1 only) */
        int shifted = off && c.size > 1;
        if (shifted)
          c.addr[(uint32_t)__builtin_ctzll(active)] += 1;
        uint64_t aligned = pasta_div_fast_aligned;
        uint64_t ordered = pasta_div_fast_ordered;
        div_check_any(&c, active);
        /* two lanes of one rising pair may take the ordered path first */
        if (pasta_div_fast_ordered == ordered)
          CHECK_EQ_U64(pasta_div_fast_aligned - aligned, shifted ? 0 : 1);
        if (shifted)
          continue;
        /* The pass's word that they are aligned: the same figures. */
        div_any_flags = PASTA_DIV_ALIGNED;
        div_check_any(&c, active);
        div_any_flags = 0;
      }
  /* What the paths cost: a random aligned load in 9 lanes of a row of 32
   * runs one ordered attempt (a shuffle, a ballot), no second attempt
   * without repeated lanes (rows of 16 only), then the aligned path's
   * alignment ballot and two matches with their leaders' ballots. */
  c.size = 4, c.hint = PASTA_DIV_GLOBAL, c.sectored = 1, div_width = 32;
  div_shape_addresses(&c, 0, &x);
  uint64_t before[3];
  memcpy(before, pasta_shim_collectives, sizeof before);
  div_check_any(&c, 0x01020ff0ull);
  CHECK_EQ_U64(pasta_shim_collectives[PASTA_SHIM_SHUFFLE] - before[1], 1);
  CHECK_EQ_U64(pasta_shim_collectives[PASTA_SHIM_BALLOT] - before[0], 4);
  CHECK_EQ_U64(pasta_shim_collectives[PASTA_SHIM_MATCH] - before[2], 2);
  /* Told that the addresses are aligned (PASTA_DIV_ALIGNED): no ballot
   * tests it. */
  div_any_flags = PASTA_DIV_ALIGNED;
  memcpy(before, pasta_shim_collectives, sizeof before);
  div_check_any(&c, 0x01020ff0ull);
  CHECK_EQ_U64(pasta_shim_collectives[PASTA_SHIM_SHUFFLE] - before[1], 1);
  CHECK_EQ_U64(pasta_shim_collectives[PASTA_SHIM_BALLOT] - before[0], 3);
  CHECK_EQ_U64(pasta_shim_collectives[PASTA_SHIM_MATCH] - before[2], 2);
  /* A histogram's shared atomic on loaded bins, so told: one match and its
   * leaders' ballot, nothing else. */
  c.hint = PASTA_DIV_SHARED, c.sectored = 0, div_width = 0;
  div_shape_addresses(&c, 1, &x);
  memcpy(before, pasta_shim_collectives, sizeof before);
  div_check_any(&c, FULL);
  CHECK_EQ_U64(pasta_shim_collectives[PASTA_SHIM_SHUFFLE] - before[1], 0);
  CHECK_EQ_U64(pasta_shim_collectives[PASTA_SHIM_BALLOT] - before[0], 1);
  CHECK_EQ_U64(pasta_shim_collectives[PASTA_SHIM_MATCH] - before[2], 1);
  div_any_flags = 0;
  div_width = saved;
}

/* __pasta_div_access_bins: lane l's shared atomic on bin div_bin[l] of 4-byte
 * bins at the shared window's base, in the block's warp 0 (its slot in the
 * tags is its bin). */
static uint32_t div_bin[64];
static void div_bins_lane(uint32_t lane, void *arg) {
  struct div_case *c = arg;
  uint32_t *r = c->per_lane[lane];
  uint64_t addr = c->base + 4 * (uint64_t)div_bin[lane];
  __pasta_div_access_bins(
      (void *)(uintptr_t)addr, 4, PASTA_DIV_SHARED | PASTA_DIV_ALIGNED, 0, 0,
      div_bin[lane], &r[0], &r[1], &r[2], &r[3], &r[4], &r[5], &r[6], &r[7]);
}

/* Bins by pattern: all one bin, every lane its own, a histogram's (a
 * quarter on bin 0x65, the rest at random), pairs of lanes, the two ends. */
static void div_bins_pattern(int pattern, uint64_t *x) {
  for (uint32_t l = 0; l < 64; ++l) {
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t h = (uint32_t)(*x >> 33);
    div_bin[l] = pattern == 0   ? 7
                 : pattern == 1 ? l * 7 % 256
                 : pattern == 2 ? ((h >> 30) == 0 ? 0x65 : h & 255)
                 : pattern == 3 ? l / 2
                                : (l & 1 ? 255 : 0);
  }
}

/* A full warp counts its distinct bins by its tags (one ballot, no match);
 * other masks by __pasta_div_access. Either way the figures are those by
 * definition: one shared request, 4 bytes a lane, 4 per distinct bin. */
static void test_div_bins(void) {
  static struct div_case c;
  static const uint64_t masks[] = {FULL, 0x0000ffffull, 0x80000001ull};
  uint64_t x = 5;
  c.base = DIV_BASE * 4; /* the shim's shared window */
  for (int pattern = 0; pattern < 5; ++pattern)
    for (size_t m = 0; m < sizeof masks / sizeof *masks; ++m)
      for (int run = 0; run < 4; ++run) {
        uint64_t active = masks[m], sum[8], before[3];
        div_bins_pattern(pattern, &x);
        uint64_t seen[4] = {0};
        for (uint32_t l = 0; l < 32; ++l)
          if (active >> l & 1)
            seen[div_bin[l] >> 6] |= 1ull << (div_bin[l] & 63);
        uint64_t distinct = 0;
        for (int w = 0; w < 4; ++w)
          distinct += (uint64_t)__builtin_popcountll(seen[w]);
        memcpy(before, pasta_shim_collectives, sizeof before);
        memset(c.per_lane, 0, sizeof c.per_lane);
        pasta_shim_warp(32, active, DIV_BASE * 4, DIV_BASE * 5, div_bins_lane,
                        &c);
        memset(sum, 0, sizeof sum);
        for (int l = 0; l < 64; ++l)
          for (int i = 0; i < 8; ++i)
            sum[i] += div_reg(c.per_lane[l][i]);
        CHECK_EQ_U64(sum[DIV_RG], 0);
        CHECK_EQ_U64(sum[DIV_RS], 1);
        CHECK_EQ_U64(sum[DIV_B], 4 * (uint64_t)__builtin_popcountll(active));
        CHECK_EQ_U64(sum[DIV_DG], 0);
        CHECK_EQ_U64(sum[DIV_DS], 4 * distinct);
        CHECK_EQ_U64(sum[DIV_SEC] + sum[DIV_IDEAL] + sum[DIV_BC], 0);
        if (active == FULL) {
          CHECK_EQ_U64(pasta_shim_collectives[PASTA_SHIM_BALLOT] - before[0],
                       1);
          CHECK_EQ_U64(pasta_shim_collectives[PASTA_SHIM_MATCH] - before[2], 0);
        }
      }
}

/* The return's test for a warp whose nonzero registers are all one lane's
 * (__pasta_div_flush_lone): 1 in every active lane when no lane or one lane
 * holds a nonzero OR of its registers, 0 when two or more do; inactive
 * lanes' values do not count. */
struct div_lone_case {
  uint64_t any[64];
  uint64_t got[64];
};
static void div_lone_lane(uint32_t lane, void *arg) {
  struct div_lone_case *c = arg;
  c->got[lane] = __pasta_div_flush_lone(c->any[lane]);
}
static void test_div_flush_lone(void) {
  static struct div_lone_case c;
  static const uint64_t holders[] = {
      0, 1ull, 1ull << 5, 3ull, (1ull << 3) | (1ull << 31), 0xffffffffull};
  static const uint64_t masks[] = {FULL, 0x0000fff0ull};
  for (size_t h = 0; h < sizeof holders / sizeof *holders; ++h)
    for (size_t m = 0; m < 2; ++m) {
      for (int l = 0; l < 64; ++l) {
        c.any[l] = holders[h] >> l & 1 ? (uint64_t)(l + 1) << 20 : 0;
        c.got[l] = 7;
      }
      pasta_shim_warp(32, masks[m], 0, 0, div_lone_lane, &c);
      uint64_t in = holders[h] & masks[m];
      uint64_t want = (in & (in - 1)) == 0;
      for (int l = 0; l < 32; ++l)
        if (masks[m] >> l & 1)
          CHECK_EQ_U64(c.got[l], want);
    }
}

/* The return's flush in lanes whose registers the fast path (a full warp)
 * does not take, e.g. a block of 16 threads (nw_tile):
 * __pasta_div_flush_lanes_fast is 1 in every active lane when the lanes can
 * sum together (any lanes with redux.sync; on the host, whose shim has
 * shuffles only, a full warp) and no active lane's register is large (2^27
 * or more), else 0 (the staged flush takes them); where it is 1,
 * __pasta_div_flush_counter_lanes adds a register's sum over the active
 * lanes, once (by their first lane), and nothing when the sum is 0. */
struct div_flush_lanes_case {
  uint64_t value[64];
  uint64_t fast[64];
  uint64_t slot;
};
static void div_flush_lanes_lane(uint32_t lane, void *arg) {
  struct div_flush_lanes_case *c = arg;
  c->fast[lane] = __pasta_div_flush_lanes_fast(c->value[lane]);
  if (c->fast[lane] != 0)
    __pasta_div_flush_counter_lanes(&c->slot, c->value[lane],
                                    __pasta_div_flush_lanes());
}
static void test_div_flush_lanes(void) {
  static struct div_flush_lanes_case c;
  static const uint64_t masks[] = {FULL, 0x0000ffffull, 0x0000fff0ull,
                                   0x80000001ull};
  for (size_t m = 0; m < sizeof masks / sizeof *masks; ++m)
    for (int shape = 0; shape < 3; ++shape) {
      uint64_t sum = 0;
      int large = 0;
      for (int l = 0; l < 64; ++l) {
        /* 0: small, some lanes 0; 1: all 0; 2: lane 4 large. */
        uint64_t v = shape == 0 && l % 3 != 0 ? (uint64_t)(l + 1) << 20 : 0;
        if (shape == 2)
          v = l == 4 ? 1ull << 27 : 5;
        c.value[l] = v;
        c.fast[l] = 7;
        if (masks[m] >> l & 1) {
          sum += v;
          large |= v >= 1ull << 27;
        }
      }
      c.slot = 0;
      pasta_shim_warp(32, masks[m], 0, 0, div_flush_lanes_lane, &c);
      uint64_t want = masks[m] == FULL && !large;
      for (int l = 0; l < 32; ++l)
        if (masks[m] >> l & 1)
          CHECK_EQ_U64(c.fast[l], want);
      CHECK_EQ_U64(c.slot, want ? sum : 0);
    }
}

/* The signed partial-warp flush (__pasta_div_flush_lanes_fast_signed, then
 * __pasta_div_flush_counter_lanes_signed), given what the pass passes: the
 * OR of each register's magnitude v ^ (v >> 63). Registers hold figures
 * less derived ones, negative in nw_tile's 16-lane rows. It is 1 in every
 * active lane when the lanes can sum (on the host shim, a full warp) and
 * every value lies in [-2^26, 2^26) (a 32-lane warp's signed sum then fits
 * in 32 bits), else 0; where 1, the register's sum over the active lanes,
 * modulo 2^64 as the counters keep it, is added once. */
struct div_flush_signed_case {
  int64_t value[64];
  uint64_t fast[64];
  uint64_t slot;
};
static void div_flush_signed_lane(uint32_t lane, void *arg) {
  struct div_flush_signed_case *c = arg;
  int64_t v = c->value[lane];
  uint64_t magnitude = (uint64_t)(v ^ (v >> 63));
  c->fast[lane] = __pasta_div_flush_lanes_fast_signed(magnitude);
  if (c->fast[lane] != 0)
    __pasta_div_flush_counter_lanes_signed(&c->slot, (uint64_t)v,
                                           __pasta_div_flush_lanes());
}
static void test_div_flush_lanes_signed(void) {
  static struct div_flush_signed_case c;
  static const uint64_t masks[] = {FULL, 0x0000ffffull, 0x80000001ull};
  static const int64_t edges[] = {-(1ll << 26), (1ll << 26) - 1,
                                  -(1ll << 26) - 1, 1ll << 26, -(1ll << 40)};
  int fast = 0;
  for (size_t m = 0; m < sizeof masks / sizeof *masks; ++m)
    for (int shape = 0; shape < 3 + 5; ++shape) {
      uint64_t sum = 0;
      int large = 0;
      for (int l = 0; l < 64; ++l) {
        /* 0: nw's rows (every lane -1 or -2); 1: mixed signs; 2: all 0;
         * 3..: lane 4 at an edge of the range, the others -3 */
        int64_t v = shape == 0   ? -1 - (l & 1)
                    : shape == 1 ? (l % 3 == 0 ? -((int64_t)(l + 1) << 18)
                                               : (int64_t)(l + 7) << 16)
                    : shape == 2 ? 0
                    : l == 4     ? edges[shape - 3]
                                 : -3;
        c.value[l] = v;
        c.fast[l] = 7;
        if (masks[m] >> l & 1) {
          sum += (uint64_t)v;
          large |= v < -(1ll << 26) || v >= 1ll << 26;
        }
      }
      c.slot = 0;
      pasta_shim_warp(32, masks[m], 0, 0, div_flush_signed_lane, &c);
      uint64_t want = masks[m] == FULL && !large;
      fast += (int)want;
      for (int l = 0; l < 32; ++l)
        if (masks[m] >> l & 1)
          CHECK_EQ_U64(c.fast[l], want);
      CHECK_EQ_U64(c.slot, want ? sum : 0);
    }
  CHECK(fast == 5); /* the full warp's shapes 0-3 and 4 */
}

/* __pasta_div_flush_add32: the lone lane's add of a 32-bit register, tested
 * in 32 bits and added sign-extended (a negative register subtracts). */
static void test_div_flush_add32(void) {
  static const uint32_t values[] = {0, 7, 0xfffffffbu, 0x80000000u};
  for (size_t i = 0; i < sizeof values / sizeof *values; ++i) {
    uint64_t slot = 100;
    __pasta_div_flush_add32(&slot, values[i]);
    CHECK_EQ_U64(slot, 100 + (uint64_t)(int64_t)(int32_t)values[i]);
  }
}

/* __pasta_div_lanes_trips (passes/DivergenceMeasures.cpp, measureOncePerEntry
 * with lanesTripsFold): a lane-shaped access of a uniform loop, lane l at
 * base + stride * l + step * k in trip k (nw_tile's store loop: stride 4,
 * step 4(n + 1), or 8(n + 1) unrolled twice), measured once at the
 * preheader: __pasta_div_access_lanes at trip 0's address times the trips,
 * plus what the helper adds. Where it returns 1 (the same in every active
 * lane), that sum must equal __pasta_div_access_lanes run at every trip, in
 * every figure; where it returns 0 it adds nothing. */
struct div_lanes_trips {
  uint64_t base, step, trips;
  uint32_t size, stride, hint, width;
  uint32_t trip; /* 1: measure trip 0 alone; 0: every trip */
  uint32_t ok[64];
  uint32_t regs[64][8];
};

static void div_lanes_trips_call(uint32_t lane, void *arg) {
  struct div_lanes_trips *c = arg;
  uint32_t *r = c->regs[lane];
  void *ptr = (void *)(uintptr_t)(c->base + (uint64_t)c->stride * lane);
  c->ok[lane] =
      __pasta_div_lanes_trips(ptr, c->step, c->trips, c->size, c->stride,
                              c->hint, 1, c->width, &r[5], &r[6], &r[7]);
  /* The out-of-line form (copies that call the access helpers so): the
   * same result, its adds in an array of its own. */
  uint32_t out[3] = {7, 7, 7};
  CHECK_EQ_U64(__pasta_div_lanes_trips_out(ptr, c->step, c->trips, c->size,
                                           c->stride, c->hint, 1, c->width,
                                           out),
               c->ok[lane]);
  CHECK_EQ_U64(out[0], r[5]);
  CHECK_EQ_U64(out[1], r[6]);
  CHECK_EQ_U64(out[2], r[7]);
}

/* Trip 0 alone where c->trip is 1, else every trip. */
static void div_lanes_trips_at(uint32_t lane, void *arg) {
  struct div_lanes_trips *c = arg;
  uint32_t *r = c->regs[lane];
  uint64_t n = c->trip == 1 ? 1 : c->trips;
  for (uint64_t k = 0; k < n; ++k) {
    uint64_t addr = c->base + c->step * k + (uint64_t)c->stride * lane;
    __pasta_div_access_lanes((void *)(uintptr_t)addr, c->size, c->stride,
                             c->hint, 1, c->width, &r[0], &r[1], &r[2], &r[3],
                             &r[4], &r[5], &r[6], &r[7]);
  }
}

/* Returns whether the fold held. */
static int div_lanes_trips_check(struct div_lanes_trips *c, uint64_t active) {
  uint64_t first[8] = {0}, beyond[8] = {0}, want[8] = {0};
  const uint64_t lo = DIV_BASE * 4, hi = DIV_BASE * 5;
  memset(c->regs, 0, sizeof c->regs);
  c->trip = 1;
  pasta_shim_warp(32, active, lo, hi, div_lanes_trips_at, c);
  for (int l = 0; l < 64; ++l)
    for (int i = 0; i < 8; ++i)
      first[i] += div_reg(c->regs[l][i]);
  memset(c->regs, 0, sizeof c->regs);
  pasta_shim_warp(32, active, lo, hi, div_lanes_trips_call, c);
  uint32_t ok = c->ok[__builtin_ctzll(active)];
  for (int l = 0; l < 32; ++l)
    if (active >> l & 1)
      CHECK_EQ_U64(c->ok[l], ok);
  for (int l = 0; l < 64; ++l)
    for (int i = 0; i < 8; ++i)
      beyond[i] += div_reg(c->regs[l][i]);
  if (!ok) {
    for (int i = 0; i < 8; ++i)
      CHECK_EQ_U64(beyond[i], 0);
    return 0;
  }
  memset(c->regs, 0, sizeof c->regs);
  c->trip = 0;
  pasta_shim_warp(32, active, lo, hi, div_lanes_trips_at, c);
  for (int l = 0; l < 64; ++l)
    for (int i = 0; i < 8; ++i)
      want[i] += div_reg(c->regs[l][i]);
  for (int i = 0; i < 8; ++i)
    CHECK_EQ_U64(first[i] * c->trips + beyond[i], want[i]);
  return 1;
}

static void test_div_lanes_trips(void) {
  static struct div_lanes_trips c;
  static const uint64_t actives[] = {FULL,          0xffffull,     0xfff0ull,
                                     0xffff0000ull, 0x5555aaaaull, 1ull << 9};
  static const uint32_t shapes[][2] = {{4, 4}, {4, 8}, {4, 0},
                                       {8, 8}, {1, 1}, {16, 32}};
  static const uint64_t steps[] = {68, 136, 36, 32, (uint64_t)-68, 6};
  static const uint64_t trips[] = {2, 31};
  static const uint32_t widths[] = {32, 16, 0};
  static const uint64_t offsets[] = {0, 20, 2};
  int held = 0, nw_held = 0;
  for (int shared = 0; shared < 2; ++shared)
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; ++s)
      for (size_t st = 0; st < sizeof steps / sizeof *steps; ++st)
        for (size_t t = 0; t < sizeof trips / sizeof *trips; ++t)
          for (size_t w = 0; w < sizeof widths / sizeof *widths; ++w)
            for (size_t o = 0; o < sizeof offsets / sizeof *offsets; ++o)
              for (size_t a = 0; a < sizeof actives / sizeof *actives; ++a) {
                c.size = shapes[s][0], c.stride = shapes[s][1];
                c.hint = shared ? PASTA_DIV_SHARED : PASTA_DIV_GLOBAL;
                /* the trips stay in the window of their space */
                c.base =
                    (shared ? DIV_BASE * 4 : DIV_BASE) + 65536 + offsets[o];
                c.step = steps[st], c.trips = trips[t], c.width = widths[w];
                int ok = div_lanes_trips_check(&c, actives[a]);
                held += ok;
                nw_held += ok && !shared && c.size == 4 && c.stride == 4 &&
                           c.step == 136 && actives[a] == 0xffffull;
              }
  /* nw_tile's store (16 lanes, one row, global) folds at every offset that
   * keeps the base aligned and every trip count */
  /* offsets 0 and 20 (2 is not aligned), widths 32 and 16 (0: no rows) */
  CHECK(nw_held == 2 * 2 * 2);
  CHECK(held > 0);
}

/* hotspot's halo gather, temp[clamp(row0 + k / 18) * n + clamp(col0 + k %
 * 18)] with k = 32 * warp + lane + 256 * trip below 324 (the pass cannot
 * shape it: k % 18 wraps inside a warp): rising addresses, 18-float runs a
 * grid row apart, runs that clamp at the grid's left and right edges
 * (repeated elements); at its top and bottom edges rows clamp too (not
 * rising). The
 * figures are the reference's, with the pass's word that the floats are
 * aligned (PASTA_DIV_ALIGNED) and without; the aligned ordered path of a
 * full warp takes one shuffle and three ballots (order, elements,
 * sectors), no warp sums by ballots per bit (on the tree before: ten
 * ballots, the two sums' nine). */
static void div_halo_addresses(struct div_any *c, int row0, int col0,
                               uint32_t first_k) {
  const int n = 64; /* the grid's side */
  for (uint32_t l = 0; l < 64; ++l) {
    int k = (int)(first_k + l);
    int r = row0 + k / 18, q = col0 + k % 18;
    r = r < 0 ? 0 : r > n - 1 ? n - 1 : r;
    q = q < 0 ? 0 : q > n - 1 ? n - 1 : q;
    c->addr[l] = DIV_BASE + 4 * (uint64_t)(r * n + q);
  }
}
static void test_div_halo_gather(void) {
  static struct div_any c;
  static const int rows0[] = {-1, 15, 46, 47};
  static const int cols0[] = {-1, 15, 47};
  c.size = 4, c.hint = PASTA_DIV_GLOBAL, c.sectored = 1;
  uint32_t saved = div_width;
  div_width = 0; /* the copies pass 0: not lane-shaped */
  for (int flags = 0; flags < 2; ++flags) {
    div_any_flags = flags ? PASTA_DIV_ALIGNED : 0;
    for (size_t r = 0; r < 4; ++r)
      for (size_t q = 0; q < 3; ++q)
        for (uint32_t k = 0; k < 324; k += 32) {
          div_halo_addresses(&c, rows0[r], cols0[q], k);
          uint64_t active = 324 - k >= 32 ? FULL : (1ull << (324 - k)) - 1;
          int paths = div_check_any(&c, active);
          /* rising but where two runs clamp to one row (the grid's top and
           * bottom edges) */
          if (rows0[r] >= 0 && rows0[r] + 17 < 64)
            CHECK_EQ_INT(paths & 1, 1);
        }
  }
  /* One full warp of the interior: the aligned ordered path's collectives. */
  div_any_flags = PASTA_DIV_ALIGNED;
  div_halo_addresses(&c, 15, 15, 32);
  uint64_t before[3];
  memcpy(before, pasta_shim_collectives, sizeof before);
  CHECK_EQ_INT(div_check_any(&c, FULL) & 1, 1);
  CHECK_EQ_U64(pasta_shim_collectives[PASTA_SHIM_SHUFFLE] - before[1], 1);
  CHECK_EQ_U64(pasta_shim_collectives[PASTA_SHIM_BALLOT] - before[0], 3);
  CHECK_EQ_U64(pasta_shim_collectives[PASTA_SHIM_MATCH] - before[2], 0);
  div_any_flags = 0;
  div_width = saved;
}

/* One active lane (a serial kernel, `if (tid == 0)`): __pasta_div_access
 * takes its figures alone, for every size, offset in a line and space
 * (a generic pointer: global memory here), loads, stores and atomics, in
 * any lane; the figures are the reference's. */
static void test_div_lone_lane(void) {
  static struct div_any c;
  static const uint32_t sizes[] = {1, 2, 4, 8, 12, 16, 32, 64};
  static const uint32_t hints[] = {PASTA_DIV_GLOBAL, PASTA_DIV_SHARED,
                                   PASTA_DIV_GENERIC};
  static const uint32_t lanes[] = {0, 5, 31};
  int cases = 0;
  uint64_t lone = pasta_div_fast_lone;
  div_width = 32;
  for (size_t h = 0; h < 3; ++h)
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; ++z)
      for (uint64_t offset = 0; offset < 64; offset += 20)
        for (size_t l = 0; l < 3; ++l, ++cases) {
          c.hint = hints[h], c.size = sizes[z];
          c.sectored = (offset / 20 + l) % 4 != 0;
          for (int k = 0; k < 64; ++k)
            c.addr[k] = DIV_BASE + offset + 4096 * (uint64_t)k;
          div_check_any(&c, 1ull << lanes[l]);
        }
  /* Told that the address is a multiple of the size (PASTA_DIV_ALIGNED):
   * one sector, taken without the span; at every aligned place in two
   * sectors, the reference's figures still. */
  div_any_flags = PASTA_DIV_ALIGNED;
  for (uint32_t size = 1; size <= 32; size *= 2)
    for (uint64_t offset = 0; offset < 64; offset += size)
      for (size_t l = 0; l < 3; ++l, ++cases) {
        c.hint = PASTA_DIV_GLOBAL, c.size = size, c.sectored = 1;
        for (int k = 0; k < 64; ++k)
          c.addr[k] = DIV_BASE + offset + 4096 * (uint64_t)k;
        div_check_any(&c, 1ull << lanes[l]);
      }
  div_any_flags = 0;
  CHECK_EQ_U64(pasta_div_fast_lone - lone, (uint64_t)cases);
}

/* The rows path of __pasta_div_access (row width 16 or 32, full warps):
 * tile rows of every size, stride 0, the size or twice it, rows apart by
 * one row (a contiguous tile), 0 (the same row), 18 floats (hotspot's halo
 * tile), a page, back a page, and half a row (ranges overlapping in part),
 * from offsets in a line, in each space and through generic pointers; a
 * partial mask in turn. Every run against the reference; which ones take
 * the rows path is checked below. */
static void test_div_rows(void) {
  static struct div_any c;
  static const uint32_t sizes[] = {1, 2, 4, 8, 16, 32};
  static const uint32_t hints[] = {PASTA_DIV_GLOBAL, PASTA_DIV_SHARED,
                                   PASTA_DIV_GENERIC};
  static const int64_t offsets[] = {0, 4, 28, 64};
  int turn = 0, rows = 0;
  for (uint32_t width = 16; width <= 32; width *= 2)
    for (size_t h = 0; h < 3; ++h)
      for (size_t z = 0; z < sizeof sizes / sizeof *sizes; ++z)
        for (int64_t times = 0; times < 3; ++times)
          for (int apart = 0; apart < 6; ++apart)
            for (size_t o = 0; o < 4; ++o, ++turn) {
              div_width = width;
              c.size = sizes[z], c.hint = hints[h];
              c.sectored = turn % 5 != 4; /* some atomics */
              int64_t st = times * (int64_t)sizes[z];
              int64_t row[] = {16 * st, 0, 72, 4096, -4096, 8 * st};
              /* lane l at base + offset + st * (l % 16) + row * (l / 16);
               * width 32 reads it as one row when row = 16 * st */
              int64_t off = offsets[o] / (int64_t)c.size * (int64_t)c.size;
              uint64_t base =
                  c.hint == PASTA_DIV_GLOBAL ? DIV_BASE : DIV_BASE * 4;
              for (int l = 0; l < 64; ++l)
                c.addr[l] = (uint64_t)((int64_t)base + 4096 + off +
                                       st * (l % 16) + row[apart] * (l / 16));
              if (c.hint == PASTA_DIV_GENERIC && turn % 2)
                for (int l = 0; l < 64; ++l) /* all in global memory */
                  c.addr[l] -= DIV_BASE * 3;
              rows +=
                  div_check_any(&c, turn % 7 == 6 ? 0xfffffffeull : FULL) >> 2 &
                  1;
            }
  CHECK(rows > 0);
  /* Which take it: consecutive floats from an aligned line (one row, or
   * two rows a page apart); hotspot's halo rows in shared memory (their
   * banks overlap: one conflict); a broadcast per row. Not: lanes that
   * skip an element, rows overlapping in part, a partial warp, rows that
   * straddle warps (width 8). */
  c.size = 4, c.sectored = 1, c.hint = PASTA_DIV_GLOBAL;
  div_width = 32;
  CHECK_EQ_INT(div_tile(&c, FULL, 0, 4, 64), 4);
  CHECK_EQ_U64(c.per_lane[0][DIV_SEC], 4);
  div_width = 16;
  CHECK_EQ_INT(div_tile(&c, FULL, 4, 4, 4096), 4);
  CHECK_EQ_U64(c.per_lane[0][DIV_SEC], 6); /* 3 per row, 4 bytes in */
  CHECK_EQ_INT(div_tile(&c, FULL, 0, 0, 4096) & 4, 4);
  CHECK_EQ_INT(div_tile(&c, FULL, 0, 8, 4096) & 4, 0);
  CHECK_EQ_INT(div_tile(&c, FULL, 0, 4, 32) & 4, 0);
  CHECK_EQ_INT(div_tile(&c, 0xffffull, 0, 4, 4096) & 4, 0);
  c.hint = PASTA_DIV_SHARED;
  for (int l = 0; l < 64; ++l) /* div_tile's base is global memory's */
    c.addr[l] = DIV_BASE * 4 + 72 + 4 * (l % 16) + 72 * (l / 16);
  CHECK_EQ_INT(div_check_any(&c, FULL) & 4, 4);
  CHECK_EQ_U64(c.per_lane[0][DIV_BC], 1);
  for (int l = 0; l < 64; ++l) /* rows 16 words apart: no conflict */
    c.addr[l] = DIV_BASE * 4 + 4 * (l % 16) + 64 * (l / 16);
  CHECK_EQ_INT(div_check_any(&c, FULL) & 4, 4);
  CHECK_EQ_U64(c.per_lane[0][DIV_BC], 0);
  div_width = 8;
  CHECK_EQ_INT(div_check_any(&c, FULL) & 4, 0);
  /* One row of 32 at any one step (a column walk, x * n, n known only at
   * run time): a column of floats a page apart (a sector each), every
   * other float (8 sectors from a line), a shared tile's column (31
   * conflicts) and its padded twin (none); not a 12-byte step in global
   * memory (sectors with no power-of-2 pattern), nor 8-byte shared
   * elements 16 bytes apart (the bank rule of 8 bytes). */
  div_width = 32;
  c.hint = PASTA_DIV_GLOBAL;
  CHECK_EQ_INT(div_tile(&c, FULL, 0, 4096, 16 * 4096) & 4, 4);
  CHECK_EQ_U64(c.per_lane[0][DIV_SEC], 32);
  CHECK_EQ_INT(div_tile(&c, FULL, 0, 8, 16 * 8) & 4, 4);
  CHECK_EQ_U64(c.per_lane[0][DIV_SEC], 8);
  CHECK_EQ_INT(div_tile(&c, FULL, 0, 12, 16 * 12) & 4, 0);
  c.hint = PASTA_DIV_SHARED;
  CHECK_EQ_INT(div_tile(&c, FULL, 0, 128, 16 * 128) & 4, 4);
  CHECK_EQ_U64(c.per_lane[0][DIV_BC], 31);
  CHECK_EQ_INT(div_tile(&c, FULL, 0, 132, 16 * 132) & 4, 4);
  CHECK_EQ_U64(c.per_lane[0][DIV_BC], 0);
  c.size = 8;
  CHECK_EQ_INT(div_tile(&c, FULL, 0, 16, 16 * 16) & 4, 0);
  /* Every size and step against the reference, both spaces, atomics. */
  static const uint32_t steps[] = {8,  12, 16,  24,  32,  60,
                                   64, 96, 128, 132, 4096};
  for (uint32_t size = 1; size <= 32; size *= 2)
    for (size_t k = 0; k < sizeof steps / sizeof *steps; ++k)
      for (int h = 0; h < 2; ++h)
        for (uint32_t sectored = 0; sectored < 2; ++sectored)
          for (int64_t offset = 0; offset < 64; offset += 16) {
            c.size = size, c.sectored = sectored;
            c.hint = h ? PASTA_DIV_SHARED : PASTA_DIV_GLOBAL;
            int64_t st = steps[k];
            div_tile(&c, FULL, offset / size * size, st, 16 * st);
          }
  div_width = 0;
}

struct div_branch {
  uint32_t threshold; /* lanes below it take the branch */
  uint64_t value_mod; /* switch value: lane % value_mod (0: all 0) */
  uint32_t r[64][4];
  /* The helpers for code outside loops, straight to counters: divergent
   * branches, divergent switches, warps and threads of a block, and warps
   * and threads of a block without its threads (which stay 0). */
  uint64_t direct[6];
};

static void div_branch_lane(uint32_t lane, void *arg) {
  struct div_branch *b = arg;
  uint32_t *r = b->r[lane];
  uint64_t value = b->value_mod ? lane % b->value_mod : 0;
  __pasta_div_branch(lane < b->threshold, &r[0], &r[1]);
  __pasta_div_switch(value, &r[0], &r[1]);
  __pasta_div_block(3, &r[2], &r[3]);
  __pasta_div_branch_add(lane < b->threshold, &b->direct[0]);
  __pasta_div_switch_add(value, &b->direct[1]);
  __pasta_div_block_add(&b->direct[2], &b->direct[3], 1);
  __pasta_div_block_add(&b->direct[4], &b->direct[5], 0);
}

/* The registers' sums in s; the direct helpers must agree with them. */
static void div_branch_run(struct div_branch *b, uint64_t active,
                           uint64_t s[4]) {
  memset(b->r, 0, sizeof b->r);
  memset(b->direct, 0, sizeof b->direct);
  pasta_shim_warp(32, active, 0, 0, div_branch_lane, b);
  memset(s, 0, 4 * sizeof *s);
  for (int l = 0; l < 64; ++l)
    for (int i = 0; i < 4; ++i)
      s[i] += div_reg(b->r[l][i]);
  CHECK_EQ_U64(b->direct[0] + b->direct[1], s[1]);
  CHECK_EQ_U64(3 * b->direct[2], s[2]);
  CHECK_EQ_U64(3 * b->direct[3], s[3]);
  CHECK_EQ_U64(b->direct[4], b->direct[2]);
  CHECK_EQ_U64(b->direct[5], 0);
}

static void test_div_branches(void) {
  struct div_branch b = {16, 2, {{0}}, {0}};
  uint64_t s[4];
  /* Lanes 0..15 take the branch, the rest do not: divergent; the switch on
   * lane % 2 too. Two branches, two divergent; three instructions of a
   * block run by 32 lanes: 3 warp-level, 96 thread-level. */
  div_branch_run(&b, FULL, s);
  CHECK(s[0] == 2 && s[1] == 2 && s[2] == 3 && s[3] == 96);
  /* Everyone takes it and switches on 0: no divergence. */
  b.threshold = 32, b.value_mod = 0;
  div_branch_run(&b, FULL, s);
  CHECK(s[0] == 2 && s[1] == 0);
  /* Nobody takes it: none either. */
  b.threshold = 0;
  div_branch_run(&b, FULL, s);
  CHECK(s[1] == 0);
  /* Lanes 0..7 active, threshold 16: they all take it (the inactive lanes
   * do not count); 3 x 8 active lanes for the block. */
  b.threshold = 16;
  div_branch_run(&b, 0xffull, s);
  CHECK(s[0] == 2 && s[1] == 0 && s[2] == 3 && s[3] == 24);
}

/* __pasta_div_branch_body (passes/DivergenceMeasures.cpp, countBodyAtBranch):
 * a loop's branch adding its divergent executions and the warps and lanes of
 * the block its taking lanes enter, from one ballot. The reference: the
 * branch's own helper over the active lanes, then the block's helper run by
 * the lanes that take it (none: the block does not run). */
struct div_branch_body {
  uint64_t takes;    /* lane l takes the branch when bit l is set */
  uint32_t r[64][3]; /* divergent, warps, threads */
};

static void div_branch_body_lane(uint32_t lane, void *arg) {
  struct div_branch_body *b = arg;
  uint32_t *r = b->r[lane];
  __pasta_div_branch_body((uint32_t)(b->takes >> lane & 1), &r[0], &r[1],
                          &r[2]);
}

static void div_branch_body_reference_branch(uint32_t lane, void *arg) {
  struct div_branch_body *b = arg;
  uint32_t branches = 0;
  __pasta_div_branch((uint32_t)(b->takes >> lane & 1), &branches,
                     &b->r[lane][0]);
}

static void div_branch_body_reference_block(uint32_t lane, void *arg) {
  struct div_branch_body *b = arg;
  __pasta_div_block(1, &b->r[lane][1], &b->r[lane][2]);
}

static void div_branch_body_sums(const struct div_branch_body *b,
                                 uint64_t s[3]) {
  memset(s, 0, 3 * sizeof *s);
  for (int l = 0; l < 64; ++l)
    for (int i = 0; i < 3; ++i)
      s[i] += div_reg(b->r[l][i]);
}

static void div_branch_body_check(uint32_t width, uint64_t active,
                                  uint64_t takes) {
  struct div_branch_body b = {takes, {{0}}};
  uint64_t got[3], want[3];
  pasta_shim_warp(width, active, 0, 0, div_branch_body_lane, &b);
  div_branch_body_sums(&b, got);
  memset(b.r, 0, sizeof b.r);
  pasta_shim_warp(width, active, 0, 0, div_branch_body_reference_branch, &b);
  if (active & takes)
    pasta_shim_warp(width, active & takes, 0, 0,
                    div_branch_body_reference_block, &b);
  div_branch_body_sums(&b, want);
  for (int i = 0; i < 3; ++i)
    CHECK_EQ_U64(got[i], want[i]);
}

static void test_div_branch_body(void) {
  static const uint64_t actives[] = {FULL,         0x1ull,        0x80000000ull,
                                     0xffull,      0xffff0000ull, 0x5555aaaaull,
                                     0xfffffffeull};
  static const uint64_t takes[] = {
      0, ~0ull, 0x1ull, 0xffffull, 0xaaaaaaaaull, 0x80000001ull, 0xff00ff00ull};
  for (size_t a = 0; a < sizeof actives / sizeof *actives; ++a)
    for (size_t t = 0; t < sizeof takes / sizeof *takes; ++t)
      div_branch_body_check(32, actives[a], takes[t]);
  /* A wave of 64 (AMD): lanes 32..63 too. */
  div_branch_body_check(64, ~0ull, 0xffffffff00000000ull);
  div_branch_body_check(64, 0xffff0000ffff0000ull, 0x00ff00ff00ff00ffull);
}

/* __pasta_div_interval_body (passes/DivergenceMeasures.cpp,
 * foldIntervalBody): a loop header's branch on start + k u< bound in trip k
 * of `trips`, every lane of the preheader in every trip, counted once at the
 * preheader. The reference: __pasta_div_branch_body at every trip, each lane
 * with its own start (lane-shaped, scattered, and across the 2^32 wrap). */
struct div_interval {
  uint32_t start[64], bound, trips, negate;
  uint32_t r[64][3]; /* divergent, warps, threads */
};

static void div_interval_lane(uint32_t lane, void *arg) {
  struct div_interval *d = arg;
  uint32_t *r = d->r[lane];
  __pasta_div_interval_body(d->start[lane], d->bound, d->trips, d->negate,
                            &r[0], &r[1], &r[2]);
}

static void div_interval_reference(uint32_t lane, void *arg) {
  struct div_interval *d = arg;
  uint32_t *r = d->r[lane];
  for (uint32_t k = 0; k < d->trips; ++k) {
    uint32_t in = d->start[lane] + k < d->bound;
    __pasta_div_branch_body(in ^ d->negate, &r[0], &r[1], &r[2]);
  }
}

static void div_interval_sums(const struct div_interval *d, uint64_t s[3]) {
  memset(s, 0, 3 * sizeof *s);
  for (int l = 0; l < 64; ++l)
    for (int i = 0; i < 3; ++i)
      s[i] += div_reg(d->r[l][i]);
}

static void div_interval_check(struct div_interval *d, uint64_t active) {
  uint64_t got[3], want[3];
  memset(d->r, 0, sizeof d->r);
  pasta_shim_warp(32, active, 0, 0, div_interval_lane, d);
  div_interval_sums(d, got);
  memset(d->r, 0, sizeof d->r);
  pasta_shim_warp(32, active, 0, 0, div_interval_reference, d);
  div_interval_sums(d, want);
  for (int i = 0; i < 3; ++i)
    CHECK_EQ_U64(got[i], want[i]);
}

static void test_div_interval_body(void) {
  static const uint64_t actives[] = {FULL, 0xffffull, 0x1ull, 0xff00ull,
                                     0x5555aaaaull};
  static const uint32_t bounds[] = {0, 1, 16, 0x80000000u, 0xffffffffu};
  static const uint32_t trips[] = {1, 16, 31, 32};
  struct div_interval d;
  for (int shape = 0; shape < 5; ++shape) {
    for (uint32_t l = 0; l < 64; ++l)
      d.start[l] = shape == 0   ? 0u - l           /* nw_tile: m - tx */
                   : shape == 1 ? 5u - (l & 15)    /* rows of 16 */
                   : shape == 2 ? l * 2654435761u  /* scattered */
                   : shape == 3 ? 0xfffffff0u + l  /* across the wrap */
                                : 0x7ffffff8u - l; /* across 2^31 */
    for (size_t b = 0; b < sizeof bounds / sizeof *bounds; ++b)
      for (size_t t = 0; t < sizeof trips / sizeof *trips; ++t)
        for (uint32_t negate = 0; negate < 2; ++negate)
          for (size_t a = 0; a < sizeof actives / sizeof *actives; ++a) {
            d.bound = bounds[b], d.trips = trips[t], d.negate = negate;
            div_interval_check(&d, actives[a]);
          }
  }
}

/* __pasta_div_interval_conflicts (passes/DivergenceMeasures.cpp,
 * foldIntervalConflicts): a shared access in __pasta_div_interval_body's
 * body, lane l at base + step * k + stride * l in trip k (nw_tile's
 * s_score[tx][m - tx]: stride 64, step 4), summed at the preheader. The
 * reference: __pasta_div_access_lanes run in each trip by the lanes that
 * take the body. Where the fold says every trip is one row (returns 1 in
 * every lane), its bank conflicts are the trips' and nothing else; where
 * it returns 0 it adds nothing. */
struct div_interval_bank {
  struct div_interval in;
  uint32_t size, stride, step, width;
  uint32_t trip, ok[64];
  uint32_t regs[64][8];
};

static void div_interval_bank_lane(uint32_t lane, void *arg) {
  struct div_interval_bank *c = arg;
  c->ok[lane] = __pasta_div_interval_conflicts(
      c->in.start[lane], c->in.bound, c->in.trips, c->in.negate, c->size,
      c->stride, c->width, &c->regs[lane][7]);
}

static void div_interval_bank_trip(uint32_t lane, void *arg) {
  struct div_interval_bank *c = arg;
  uint32_t *r = c->regs[lane];
  uint64_t addr =
      DIV_BASE * 4 + (uint64_t)c->step * c->trip + (uint64_t)c->stride * lane;
  __pasta_div_access_lanes((void *)(uintptr_t)addr, c->size, c->stride,
                           PASTA_DIV_SHARED, 1, c->width, &r[0], &r[1], &r[2],
                           &r[3], &r[4], &r[5], &r[6], &r[7]);
}

static void div_interval_bank_check(struct div_interval_bank *c,
                                    uint64_t active) {
  uint64_t got[8] = {0}, want[8] = {0};
  memset(c->regs, 0, sizeof c->regs);
  pasta_shim_warp(32, active, DIV_BASE * 4, DIV_BASE * 5,
                  div_interval_bank_lane, c);
  uint32_t ok = c->ok[__builtin_ctzll(active)];
  for (int l = 0; l < 32; ++l)
    if (active >> l & 1)
      CHECK_EQ_U64(c->ok[l], ok);
  for (int l = 0; l < 64; ++l)
    for (int i = 0; i < 8; ++i)
      got[i] += div_reg(c->regs[l][i]);
  memset(c->regs, 0, sizeof c->regs);
  for (c->trip = 0; c->trip < c->in.trips; ++c->trip) {
    uint64_t takes = 0;
    for (int l = 0; l < 32; ++l)
      if ((active >> l & 1) &&
          ((c->in.start[l] + c->trip < c->in.bound) ^ c->in.negate))
        takes |= 1ull << l;
    if (takes)
      pasta_shim_warp(32, takes, DIV_BASE * 4, DIV_BASE * 5,
                      div_interval_bank_trip, c);
  }
  for (int l = 0; l < 64; ++l)
    for (int i = 0; i < 8; ++i)
      want[i] += div_reg(c->regs[l][i]);
  if (!ok) {
    for (int i = 0; i < 8; ++i)
      CHECK_EQ_U64(got[i], 0);
    /* one row of 32 lanes never falls back */
    CHECK(c->width != 32);
    return;
  }
  for (int i = 0; i < 8; ++i)
    CHECK_EQ_U64(got[i], want[i]);
}

static void test_div_interval_conflicts(void) {
  static const uint64_t actives[] = {FULL, 0xffffull, 0xff00ull, 0x5555aaaaull,
                                     0x10001ull};
  static const uint32_t strides[][2] = {{4, 64}, {4, 60}, {4, 8}, {4, 128},
                                        {2, 4},  {1, 12}, {4, 68}};
  static const uint32_t widths[] = {32, 16, 0};
  static const uint32_t bounds[] = {16, 5, 0xffffffffu};
  struct div_interval_bank c;
  for (int shape = 0; shape < 2; ++shape) {
    for (uint32_t l = 0; l < 64; ++l)
      c.in.start[l] = shape == 0 ? 0u - l : 0u - (l & 15);
    for (size_t s = 0; s < sizeof strides / sizeof *strides; ++s)
      for (size_t w = 0; w < sizeof widths / sizeof *widths; ++w)
        for (size_t b = 0; b < sizeof bounds / sizeof *bounds; ++b)
          for (uint32_t negate = 0; negate < 2; ++negate)
            for (size_t a = 0; a < sizeof actives / sizeof *actives; ++a) {
              c.size = strides[s][0], c.stride = strides[s][1];
              c.step = c.size, c.width = widths[w];
              c.in.bound = bounds[b], c.in.trips = 31, c.in.negate = negate;
              div_interval_bank_check(&c, actives[a]);
            }
  }
}

/* __pasta_div_branch_none_add (passes/DivergencePlan.cpp, derivedBody): an
 * if-then body's warp executions are derived at read-back as its branch's
 * less the executions `none` counts. Over warps of 32 and 64 lanes, masks
 * full, partial, of one lane and scattered, and lanes taking the branch by
 * several patterns, the head's executions less `none` must be the body's by
 * definition (executions in which some active lane takes it), and
 * `divergent` (when asked for) the executions in which the active lanes do
 * not all go one way; without it, that counter stays 0. With `others`, the
 * head's active lanes less those must be the body's. */
/* The active masks the branch helpers' tests run over: full, partial, of
 * one lane and scattered, in warps of 32 and 64 lanes. */
static const uint64_t div_branch_masks[] = {
    ~0ull,         0xffffffffull, 0xffffull,
    1ull,          1ull << 31,    0x80000001ull,
    0xf0f0f0f0ull, ~0ull << 37,   0x5555555555555555ull};
#define DIV_BRANCH_MASKS (sizeof div_branch_masks / sizeof *div_branch_masks)

struct div_none {
  uint64_t takes; /* lanes that take the branch */
  uint32_t with_divergent;
  uint64_t divergent, none, others;
  uint64_t returned; /* the lanes that returned nonzero */
};

static void div_none_lane(uint32_t lane, void *arg) {
  struct div_none *d = arg;
  if (__pasta_div_branch_none_add((uint32_t)(d->takes >> lane & 1),
                                  &d->divergent, &d->none, d->with_divergent,
                                  &d->others, d->with_divergent))
    __atomic_fetch_or(&d->returned, 1ull << lane, __ATOMIC_RELAXED);
}

static void test_div_branch_none(void) {
  const uint64_t *masks = div_branch_masks;
  const uint64_t takes[] = {0,
                            ~0ull,
                            1ull,
                            1ull << 31,
                            0xffffull,
                            0xffff0000ull,
                            ~0ull << 40,
                            0xaaaaaaaaaaaaaaaaull,
                            0x0f0f0f0f0ull};
  for (uint32_t width = 32; width <= 64; width += 32) {
    uint64_t lanes_of_width = width == 64 ? ~0ull : 0xffffffffull;
    uint64_t heads = 0, bodies = 0, none = 0, divergent = 0;
    uint64_t head_lanes = 0, body_lanes = 0, others = 0;
    for (size_t m = 0; m < DIV_BRANCH_MASKS; ++m) {
      uint64_t active = masks[m] & lanes_of_width;
      if (!active)
        continue;
      for (size_t t = 0; t < sizeof takes / sizeof *takes; ++t)
        for (uint32_t with = 0; with <= 1; ++with) {
          struct div_none d = {takes[t], with, 0, 0, 0, 0};
          pasta_shim_warp(width, active, 0, 0, div_none_lane, &d);
          uint64_t yes = takes[t] & active;
          CHECK_EQ_U64(d.none, yes == 0);
          /* 1 in the one lane that added to none (the first active). */
          CHECK_EQ_U64(d.returned, yes == 0 ? active & -active : 0);
          CHECK_EQ_U64(d.divergent, with && yes != 0 && yes != active);
          ++heads, none += d.none, divergent += d.divergent;
          bodies += yes != 0;
          /* The lanes (with_others, passed as with_divergent here). */
          if (with) {
            head_lanes += (uint64_t)__builtin_popcountll(active);
            body_lanes += (uint64_t)__builtin_popcountll(yes);
            others += d.others;
          } else {
            CHECK_EQ_U64(d.others, 0);
          }
        }
    }
    /* The derivations the plan makes: body warps = head warps - none, body
     * lanes = head lanes - others. */
    CHECK_EQ_U64(heads - none, bodies);
    CHECK_EQ_U64(head_lanes - others, body_lanes);
    CHECK(none > 0 && divergent > 0 && bodies > none);
  }
}

/* __pasta_div_return_add (passes/DivergencePlan.cpp, soleReturn): a
 * kernel's sole return's warp executions are derived at read-back as the
 * launch's warps plus what the helper adds. A warp's launch lanes (its
 * lowest ones: 1 to 64 of them) come to the return in groups that split
 * them by several patterns; each group runs the helper once, so the warp's
 * executions by definition are its groups, which must equal 1 plus what
 * the groups added. */
static void div_return_lane(uint32_t lane, void *arg) {
  (void)lane;
  __pasta_div_return_add((uint64_t *)arg);
}

/* The groups of `launch` whose lanes have `pattern`'s bit (lane mod 64),
 * each lane of one such run its own group, then the rest in one group. */
static uint64_t div_return_groups(uint32_t width, uint64_t launch,
                                  uint64_t pattern, uint64_t *regroups) {
  uint64_t groups = 0, rest = launch;
  for (uint32_t lane = 0; lane < width; ++lane) {
    uint64_t bit = 1ull << lane;
    if ((launch & bit) && (pattern & bit)) {
      pasta_shim_warp(width, bit, 0, 0, div_return_lane, regroups);
      ++groups, rest &= ~bit;
    }
  }
  if (rest) {
    pasta_shim_warp(width, rest, 0, 0, div_return_lane, regroups);
    ++groups;
  }
  return groups;
}

static void test_div_return(void) {
  const uint64_t patterns[] = {0,
                               ~0ull,
                               1ull,
                               2ull,
                               1ull << 31,
                               0x80000001ull,
                               0xf0f0f0f0ull,
                               ~1ull,
                               0xaaaaaaaaaaaaaaaaull};
  const uint32_t threads[] = {1, 2, 17, 31, 32, 33, 63, 64};
  uint64_t warps = 0, executions = 0, regroups = 0;
  for (uint32_t width = 32; width <= 64; width += 32)
    for (size_t t = 0; t < sizeof threads / sizeof *threads; ++t) {
      if (threads[t] > width)
        continue;
      uint64_t launch = threads[t] == 64 ? ~0ull : (1ull << threads[t]) - 1;
      for (size_t p = 0; p < sizeof patterns / sizeof *patterns; ++p) {
        uint64_t added = 0;
        uint64_t groups = div_return_groups(width, launch, patterns[p], &added);
        CHECK_EQ_U64(1 + added, groups);
        ++warps, executions += groups, regroups += added;
      }
    }
  /* The derivation the plan makes: return warps = launch warps + regroups;
   * and some warps came apart. */
  CHECK_EQ_U64(warps + regroups, executions);
  CHECK(executions > warps);
}

/* __pasta_div_warp_add (passes/DivergenceMeasures.cpp, cleanWarpExits):
 * a full warp's total, added once (by lane 0), whatever every lane passes. */
static void div_warp_add_lane(uint32_t lane, void *arg) {
  (void)lane;
  __pasta_div_warp_add((uint64_t *)arg, 32);
}

static void test_div_warp_add(void) {
  uint64_t total = 0;
  pasta_shim_warp(32, 0xffffffffull, 0, 0, div_warp_add_lane, &total);
  CHECK_EQ_U64(total, 32);
}

/* __pasta_div_branch_split_add (passes/DivergencePlan.cpp, splitBody): a
 * branch's divergent executions are derived at read-back as its executions
 * less those in which no active lane takes the body's side (`none`) and
 * those in which every one does (`all`). Over warps of 32 and 64 lanes,
 * masks full, partial, of one lane and scattered, and lanes taking the
 * branch by several patterns (lane 0, a prefix, every other lane), `none`
 * and `all` must be those executions by definition, and the executions less
 * both the divergent ones by definition; a warp whose lanes go both ways
 * adds nothing. */
struct div_split {
  uint64_t takes;
  uint32_t full_splits;
  uint64_t all, none;
};

static void div_split_lane(uint32_t lane, void *arg) {
  struct div_split *d = arg;
  __pasta_div_branch_split_add((uint32_t)(d->takes >> lane & 1), &d->all,
                               &d->none, d->full_splits);
}

static void test_div_branch_split(void) {
  const uint64_t *masks = div_branch_masks;
  const uint64_t takes[] = {0,
                            ~0ull,
                            1ull,
                            1ull | 1ull << 32,
                            0xffull,
                            0xffff0000ull,
                            ~0ull << 40,
                            0xaaaaaaaaaaaaaaaaull,
                            0x5555555555555555ull};
  for (uint32_t width = 32; width <= 64; width += 32) {
    uint64_t lanes_of_width = width == 64 ? ~0ull : 0xffffffffull;
    uint64_t execs = 0, none = 0, all = 0, divergent = 0;
    for (size_t m = 0; m < DIV_BRANCH_MASKS; ++m) {
      uint64_t active = masks[m] & lanes_of_width;
      if (!active)
        continue;
      for (size_t t = 0; t < sizeof takes / sizeof *takes; ++t) {
        struct div_split d = {takes[t], 0, 0, 0};
        pasta_shim_warp(width, active, 0, 0, div_split_lane, &d);
        uint64_t yes = takes[t] & active;
        CHECK_EQ_U64(d.none, yes == 0);
        CHECK_EQ_U64(d.all, yes == active);
        ++execs, none += d.none, all += d.all;
        divergent += yes != 0 && yes != active;
        /* full_splits, where the pass gives it (a full 32-lane warp whose
         * lanes split): the same counts, none in such a warp. */
        if (width == 32 && yes != 0 && yes != active) {
          struct div_split f = {takes[t], 1, 0, 0};
          pasta_shim_warp(width, active, 0, 0, div_split_lane, &f);
          CHECK_EQ_U64(f.none, 0);
          CHECK_EQ_U64(f.all, 0);
        }
      }
    }
    /* The derivation the plan makes: divergent = executions - none - all. */
    CHECK_EQ_U64(execs - none - all, divergent);
    CHECK(none > 0 && all > 0 && divergent > 0);
  }
}

/* __pasta_div_branch_launch_add (passes/DivergencePlan.cpp, launchBody): a
 * body whose branch runs once in every thread of every block, on a
 * condition of the thread's place in its block. Every warp of every block
 * of a 2 x 2 grid runs the branch, each lane taking it by the condition
 * (tree steps `t < s`, `ty % m == 0`, `tx == 0`, a checkerboard) for block
 * shapes of whole, partial and 16-wide warps, in warps of 32 and 64 lanes;
 * the body's warps and the branch's divergent executions, counted by block
 * 0 alone (the grid's blocks at a time), must be, over the whole grid, the
 * warps in which some lane takes the branch and those in which the lanes
 * go both ways. */
struct div_launch_body {
  uint64_t takes;
  uint64_t warps, divergent;
};

static void div_launch_body_lane(uint32_t lane, void *arg) {
  struct div_launch_body *d = arg;
  __pasta_div_branch_launch_add((uint32_t)(d->takes >> lane & 1), &d->divergent,
                                &d->warps, 1);
}

static int div_launch_cond(int kind, uint32_t tx, uint32_t ty, uint32_t t) {
  switch (kind) {
  case 0:
    return t < 128;
  case 1:
    return t < 2;
  case 2:
    return ty % 4 == 0;
  case 3:
    return tx == 0;
  default:
    return (tx + ty) % 2 == 0;
  }
}

static void test_div_branch_launch(void) {
  const uint32_t shapes[][2] = {{256, 1}, {16, 16}, {32, 8}, {100, 1}};
  for (uint32_t width = 32; width <= 64; width += 32)
    for (size_t sh = 0; sh < sizeof shapes / sizeof *shapes; ++sh)
      for (int kind = 0; kind < 5; ++kind) {
        uint32_t bx = shapes[sh][0], by = shapes[sh][1], threads = bx * by;
        struct div_launch_body d = {0, 0, 0};
        uint64_t want_warps = 0, want_divergent = 0;
        memset(&pasta_shim, 0, sizeof pasta_shim);
        pasta_shim.blocks[0] = pasta_shim.blocks[1] = 2;
        pasta_shim.blocks[2] = 1;
        pasta_shim.threads[0] = bx, pasta_shim.threads[1] = by;
        pasta_shim.threads[2] = 1;
        for (uint32_t b = 0; b < 4; ++b) {
          pasta_shim.block[0] = b % 2, pasta_shim.block[1] = b / 2;
          for (uint32_t w = 0; w * width < threads; ++w) {
            uint64_t active = 0;
            d.takes = 0;
            for (uint32_t l = 0; l < width && w * width + l < threads; ++l) {
              uint32_t t = w * width + l;
              active |= 1ull << l;
              if (div_launch_cond(kind, t % bx, t / bx, t))
                d.takes |= 1ull << l;
            }
            pasta_shim_warp(width, active, 0, 0, div_launch_body_lane, &d);
            want_warps += d.takes != 0;
            want_divergent += d.takes != 0 && d.takes != active;
          }
        }
        CHECK_EQ_U64(d.warps, want_warps);
        CHECK_EQ_U64(d.divergent, want_divergent);
      }
}

/* __pasta_div_access_lanes against the reference: every power-of-two size,
 * stride 0 and stride = size, bases at every aligned offset in a 128-byte
 * line, several masks, both spaces, loads and atomics, in one row of 32
 * lanes and in two rows of 16 (a page apart, or the same row). Full warps
 * take the rows path, partial ones of one row at an aligned base (one
 * active row of two included) the mask path (both counted); misaligned bases
 * and other row widths fall back to the general path. Either way the helper's
 * figures plus those the pass derives from the block's counters at read-back
 * (passes/DivergenceFigures.cpp, deriveLaneShaped) are the reference's. */
struct div_lanes {
  struct div_any any;
  uint32_t stride, width;
  int cold; /* __pasta_div_access_lanes_cold: its general path out of line */
};

static void div_lanes_lane(uint32_t lane, void *arg) {
  struct div_lanes *c = arg;
  uint32_t *r = c->any.per_lane[lane];
  c->any.added[lane] =
      (c->cold ? __pasta_div_access_lanes_cold : __pasta_div_access_lanes)(
          (void *)(uintptr_t)c->any.addr[lane], c->any.size, c->stride,
          c->any.hint, c->any.sectored, c->width, &r[0], &r[1], &r[2], &r[3],
          &r[4], &r[5], &r[6], &r[7]);
}

/* Runs `lane_fn` (arg, whose lanes' figures are c's) on `active`, compares
 * c's figures with the reference; returns 1 when the rows path ran, 2 when
 * the mask path did, 0 for the general path. */
static int div_check_lanes_with(struct div_lanes *c, uint64_t active,
                                void (*lane_fn)(uint32_t, void *), void *arg) {
  uint64_t rows = pasta_div_fast_rows, mask = pasta_div_fast_lanes;
  memset(c->any.per_lane, 0, sizeof c->any.per_lane);
  memset(c->any.added, 0, sizeof c->any.added);
  pasta_shim_warp(32, active, DIV_BASE * 4, DIV_BASE * 5, lane_fn, arg);
  div_check_added(&c->any);
  uint64_t got[8] = {0}, ref[8];
  for (int l = 0; l < 64; ++l)
    for (int i = 0; i < 8; ++i)
      got[i] += div_reg(c->any.per_lane[l][i]);
  /* What the pass derives: requests (0, 1) and bytes (2) as for any known
   * space, distinct bytes (3 global, 4 shared), a global load's or store's
   * sectors (5) and ideal sectors (6): the size for stride = size, one and
   * ceil(size / 32) for stride 0, and for a wider stride a full warp's from
   * a sector boundary (a sector per 32 / stride lanes, or per lane); a
   * shared one's bank conflicts (7) at a wider stride: a full warp's. */
  uint64_t lanes = (uint64_t)__builtin_popcountll(active & 0xffffffffull);
  uint64_t size = c->any.size, stride = c->stride;
  int shared = c->any.hint == PASTA_DIV_SHARED;
  int wider = stride != 0 && stride != size;
  got[shared ? 1 : 0] += 1;
  got[2] += size * lanes;
  got[shared ? 4 : 3] += stride ? size * lanes : size;
  if (!shared && c->any.sectored) {
    got[5] += !stride        ? 1
              : !wider       ? size
              : stride >= 32 ? 32
                             : 32 * stride / 32;
    got[6] += stride ? size : (size + 31) / 32;
  }
  if (shared && c->any.sectored && wider) {
    /* lanes per bank: how many of 32 words `stride` bytes apart share one */
    uint64_t banks_hit = 0;
    for (uint64_t l = 0; l < 32; ++l)
      banks_hit |= 1ull << ((l * stride / 4) % 32);
    got[7] += 32 / (uint64_t)__builtin_popcountll(banks_hit) - 1;
  }
  div_reference(&c->any, active, ref);
  for (int i = 0; i < 8; ++i)
    CHECK_EQ_U64(got[i], ref[i]);
  return pasta_div_fast_rows != rows ? 1 : pasta_div_fast_lanes != mask ? 2 : 0;
}

static int div_check_lanes(struct div_lanes *c, uint64_t active) {
  return div_check_lanes_with(c, active, div_lanes_lane, c);
}

/* An address that selects per lane between two of one stride (the pass's
 * laneStrideIf: `x > k ? a[x - 1] : a[x]`): the copy hands the helper the
 * row width only when the lanes agree on the condition (__pasta_div_uniform),
 * and the figures plus the derived ones are the reference's either way. */
struct div_select {
  struct div_lanes lanes;
  uint32_t k; /* lanes above k take the left neighbour */
};

static void div_select_lane(uint32_t lane, void *arg) {
  struct div_select *c = arg;
  uint32_t left = lane > c->k;
  uint32_t width = __pasta_div_uniform(left) ? c->lanes.width : 0;
  uint32_t *r = c->lanes.any.per_lane[lane];
  c->lanes.any.added[lane] = __pasta_div_access_lanes(
      (void *)(uintptr_t)c->lanes.any.addr[lane], c->lanes.any.size,
      c->lanes.stride, c->lanes.any.hint, c->lanes.any.sectored, width, &r[0],
      &r[1], &r[2], &r[3], &r[4], &r[5], &r[6], &r[7]);
}

static int div_check_select(struct div_select *c, uint64_t active) {
  return div_check_lanes_with(&c->lanes, active, div_select_lane, c) != 0;
}

static void test_div_select_lanes(void) {
  static struct div_select c;
  c.lanes.any.size = 4, c.lanes.any.sectored = 1;
  c.lanes.stride = 4, c.lanes.width = 32;
  const uint32_t ks[] = {64, 0, 7, 30, 31}; /* 64: no lane left; 31: none */
  int fast = 0, general = 0;
  for (int shared = 0; shared < 2; ++shared)
    for (size_t i = 0; i < sizeof ks / sizeof *ks; ++i) {
      c.k = ks[i];
      c.lanes.any.hint = shared ? PASTA_DIV_SHARED : PASTA_DIV_GLOBAL;
      uint64_t base = (shared ? DIV_BASE * 4 : DIV_BASE) + 64;
      for (uint32_t l = 0; l < 64; ++l)
        c.lanes.any.addr[l] = base + 4 * l - (l > c.k ? 4 : 0);
      /* k = 0: lane 0 alone keeps its own element; lanes 1-31 move left:
       * one partial warp without lane 0 agrees. */
      int full = div_check_select(&c, FULL);
      int upper = div_check_select(&c, FULL & ~1ull);
      fast += (ks[i] == 64 || ks[i] == 31) ? full : upper;
      general += (ks[i] == 7 || ks[i] == 30) && !full;
    }
  CHECK(fast == 2 * 3 && general == 2 * 2);
}

/* An address that clamps a lane-affine index against a bound the same in
 * every lane (the pass's laneStrideIf, LaneArm: srad's `max(x - 1, 0)` and
 * `min(x + 1, n - 1)`): the copy hands the helper the row width only when
 * every active lane takes the index (__pasta_div_all_lanes), and the
 * figures plus the derived ones (those of the index's stride) are the
 * reference's either way. Where every lane takes the bound, the lanes agree
 * and the address is the same in each: __pasta_div_uniform in place of
 * __pasta_div_all_lanes gives wrong figures there (the n = 1 cases). Rows of
 * 32 and two rows of 16, a page apart or next to each other, x = 32 * bx +
 * tx (or 16 * bx + tx). */
struct div_clamp {
  struct div_lanes lanes;
  uint64_t base;
  int64_t pitch;
  int32_t bx, n, up; /* up: min(x + 1, n - 1), else max(x - 1, 0) */
  int tested;        /* lanes: 1 once a width went to the helper */
};

static int32_t div_clamp_x(const struct div_clamp *c, uint32_t lane) {
  uint32_t w = c->lanes.width;
  return c->bx * (int32_t)w + (int32_t)(lane % w);
}

static void div_clamp_lane(uint32_t lane, void *arg) {
  struct div_clamp *c = arg;
  int32_t x = div_clamp_x(c, lane);
  /* what the copy tests: the index's side of the clamp in every lane */
  uint32_t arm = c->up ? x + 1 <= c->n - 1 : x >= 1;
  uint32_t width = __pasta_div_all_lanes(arm) ? c->lanes.width : 0;
  c->tested |= width != 0;
  uint32_t *r = c->lanes.any.per_lane[lane];
  c->lanes.any.added[lane] = __pasta_div_access_lanes(
      (void *)(uintptr_t)c->lanes.any.addr[lane], c->lanes.any.size,
      c->lanes.stride, c->lanes.any.hint, c->lanes.any.sectored, width, &r[0],
      &r[1], &r[2], &r[3], &r[4], &r[5], &r[6], &r[7]);
}

static void test_div_clamp_lanes(void) {
  static struct div_clamp c;
  c.lanes.any.size = 4, c.lanes.any.sectored = 1, c.lanes.stride = 4;
  const int64_t pitches[] = {4096, 64};
  const uint64_t offsets[] = {0, 64, 4};
  const uint64_t masks[] = {FULL, FULL & ~1ull, 0xffff0000ull};
  int tested = 0, untested = 0;
  for (int shared = 0; shared < 2; ++shared)
    for (uint32_t w = 16; w <= 32; w += 16)
      for (size_t p = 0; p < sizeof pitches / sizeof *pitches; ++p)
        for (size_t o = 0; o < sizeof offsets / sizeof *offsets; ++o)
          for (int up = 0; up < 2; ++up)
            for (int k = 0; k < 4; ++k) {
              c.lanes.width = w, c.up = up, c.pitch = pitches[p];
              c.lanes.any.hint = shared ? PASTA_DIV_SHARED : PASTA_DIV_GLOBAL;
              c.base = (shared ? DIV_BASE * 4 : DIV_BASE) + offsets[o];
              /* k: the first block (max clamps lane 0), the second, a
               * bound inside the warp (min), every lane on the bound
               * (n = 1), no lane on it */
              c.bx = k == 1 || k == 3 ? 1 : 0;
              c.n = k == 0 ? 1 : k == 2 ? (int32_t)w / 2 + 3 : 1 << 20;
              if (!up && k == 0)
                c.n = 1 << 20;
              for (uint32_t l = 0; l < 64; ++l) {
                int32_t x = div_clamp_x(&c, l % 32);
                int32_t i = up ? (x + 1 < c.n - 1 ? x + 1 : c.n - 1)
                               : (x - 1 > 0 ? x - 1 : 0);
                c.lanes.any.addr[l] = c.base + (uint64_t)(4 * (int64_t)i) +
                                      (uint64_t)(c.pitch * (l % 32 / w));
              }
              for (size_t m = 0; m < sizeof masks / sizeof *masks; ++m) {
                c.tested = 0;
                div_check_lanes_with(&c.lanes, masks[m], div_clamp_lane, &c);
                tested += c.tested;
                untested += !c.tested;
              }
            }
  CHECK(tested > 0 && untested > 0);
}

/* pasta_div_stacked_conflicts (div_proofs.h): in a full warp of rows of
 * `w` lanes stacked in y, a shared 4-byte access at `stride` bytes per x and
 * `gap` per y from a 4-byte-aligned base has the conflicts it gives, 4 bytes
 * per distinct word it counts and one request, by definition, at every
 * base. Strides of the pass's class (pasta_div_mask_free: 0, the size or an
 * odd number of words), gaps around a row of 16 (hotspot's 18 floats: 72),
 * rows that overlap or share banks, both signs. */
static void test_div_stacked_conflicts(void) {
  static struct div_any c;
  c.size = 4, c.hint = PASTA_DIV_SHARED, c.sectored = 1;
  const int64_t strides[] = {4, 12, 20, -4, 36, 0};
  const int64_t gaps[] = {72,   68,  64,  76, 132, 136, 260, 516, 1028,
                          4100, -72, -68, 4,  32,  0,   8,   48,  128};
  const uint64_t offsets[] = {0, 4, 64, 124};
  int overlapping = 0, conflicted = 0, broadcast = 0;
  for (uint32_t w = 2; w < 32; w *= 2)
    for (size_t s = 0; s < sizeof strides / sizeof *strides; ++s)
      for (size_t g = 0; g < sizeof gaps / sizeof *gaps; ++g) {
        uint32_t words = 0;
        int k = pasta_div_stacked_conflicts(strides[s], gaps[g], w, &words);
        CHECK(k >= 0);
        for (size_t o = 0; o < sizeof offsets / sizeof *offsets; ++o) {
          for (uint32_t l = 0; l < 32; ++l)
            c.addr[l] = DIV_BASE * 4 + (1u << 16) + offsets[o] +
                        (uint64_t)(strides[s] * (int64_t)(l % w) +
                                   gaps[g] * (int64_t)(l / w));
          uint64_t ref[8];
          div_reference(&c, FULL, ref);
          CHECK_EQ_U64(ref[DIV_BC], (uint64_t)k);
          CHECK_EQ_U64(ref[DIV_DS], 4 * (uint64_t)words);
          CHECK_EQ_U64(ref[DIV_RS], 1);
        }
        overlapping += strides[s] != 0 && words < 32;
        conflicted += k > 0;
        broadcast += strides[s] == 0 && words == 32 / w && words > 1;
      }
  /* hotspot's tile: rows of 18 floats read by rows of 16 lanes: lanes 30
   * and 31 share banks with lanes 0 and 1; backprop's in_s[ty]: a word per
   * row of 16, two words in adjacent banks */
  uint32_t words = 0;
  CHECK(pasta_div_stacked_conflicts(4, 72, 16, &words) == 1 && words == 32);
  CHECK(pasta_div_stacked_conflicts(0, 4, 16, &words) == 0 && words == 2);
  CHECK(pasta_div_stacked_conflicts(0, 128, 16, &words) == 1 && words == 2);
  CHECK(pasta_div_stacked_conflicts(4, 6, 16, &words) == -1); /* not words */
  CHECK(pasta_div_stacked_conflicts(4, 72, 32, &words) == -1);
  CHECK(overlapping > 0 && conflicted > 0 && broadcast > 0);
}

/* Whether a FULL warp's global access `c` (its size set, at `off` past a
 * 128-byte boundary) has, by definition, the figures derived for one
 * 32-lane row at `stride` plus the differences `r` gives: the check of the
 * repeat-rows and apart-rows proofs. */
static int rows_figures_hold(const struct div_any *c, int64_t stride,
                             const struct pasta_div_repeat_figures *r,
                             uint64_t off) {
  uint64_t ref[8], d[PASTA_DIV_NUM];
  div_reference(c, FULL, ref);
  pasta_div_lanes_derived(c->size, (uint32_t)stride, PASTA_DIV_GLOBAL, 1, 32,
                          d);
  d[DIV_DG] += (uint64_t)(int64_t)r->distinct;
  d[DIV_IDEAL] += (uint64_t)(int64_t)r->ideal_sectors;
  d[DIV_SEC] += (uint64_t)(int64_t)(r->sectors +
                                    r->past * ((off & 31) >= r->from_offset));
  int same = 1;
  for (int i = 0; i < 8; ++i)
    same &= d[i] == ref[i];
  return same;
}

/* pasta_div_repeat_rows (div_proofs.h): a global load or store of
 * pasta_div_full_row_form without a y term, in a FULL warp of `w`-wide rows
 * stacked in y (every row the same bytes), has the figures derived for one
 * 32-lane row (pasta_div_lanes_derived) plus the differences it gives, by
 * definition, at every aligned base within four sectors; the sectors'
 * difference moves with the base (from_offset) for some strides and not
 * for others. */
static void test_div_repeat_rows(void) {
  const int64_t strides[] = {1,  2,  4,  6,  8,  12,  16,  20,  24,
                             32, 36, 48, 64, 96, 128, 160, 4096};
  static struct div_any c;
  int classes = 0, cases = 0, held = 0, moved = 0, still = 0;
  for (uint32_t w = 2; w <= 16; w *= 2)
    for (uint32_t size = 1; size <= 32; size *= 2)
      for (size_t s = 0; s < sizeof strides / sizeof *strides; ++s) {
        struct pasta_div_repeat_figures r;
        int form =
            pasta_div_full_row_form(size, strides[s], PASTA_DIV_GLOBAL, 1, 1);
        CHECK_EQ_INT(pasta_div_repeat_rows(size, strides[s], w, &r), form);
        if (!form)
          continue;
        ++classes;
        moved += r.from_offset < 32, still += r.from_offset == 32;
        for (uint64_t off = 0; off < 128; off += size) {
          memset(&c, 0, sizeof c);
          for (int l = 0; l < 64; ++l)
            c.addr[l] = DIV_BASE + off + (uint64_t)strides[s] * (l % w);
          c.size = size, c.hint = PASTA_DIV_GLOBAL, c.sectored = 1;
          ++cases;
          held += rows_figures_hold(&c, strides[s], &r, off);
        }
      }
  CHECK(classes >= 4 * 30);
  CHECK_EQ_INT(held, cases);
  CHECK(moved > 0 && still > 0);
  /* gaussian's a[t * n + j]: 16 floats, 2 sectors from a sector's start, 3
   * past it, where one row of 32 derives 4; 64 distinct bytes, not 128 */
  struct pasta_div_repeat_figures g;
  CHECK(pasta_div_repeat_rows(4, 4, 16, &g));
  CHECK(g.distinct == -64 && g.ideal_sectors == -2 && g.sectors == -2 &&
        g.from_offset == 1);
  CHECK(!pasta_div_repeat_rows(4, 4, 32, &g)); /* one row: FullRow's */
  CHECK(!pasta_div_repeat_rows(4, 4, 12, &g));
  CHECK(!pasta_div_repeat_rows(4, 0, 16, &g)); /* one address: proven */
}

/* __pasta_div_access_batch_out (div_batch.h): a batch of accesses adds, in
 * every lane, to each line's figures what each of the line's accesses'
 * out-of-line helper adds, times its entry's count, of the figures its
 * entry says it measures: general and lanes entries, global, shared and
 * generic, loads and an atomic, on two lines, under full, partial and
 * scattered masks. */
enum { BATCH_N = 5, BATCH_LINES = 2 };
struct div_batch {
  uint32_t table[BATCH_N * PASTA_DIV_BATCH_WORDS];
  uint64_t addr[BATCH_N][64];
  uint32_t width;
  uint32_t out[64][8 * (BATCH_LINES + 1)], added[64];
  uint64_t want[64][8 * BATCH_LINES];
  uint32_t want_added[64];
};

static void div_batch_lane(uint32_t lane, void *arg) {
  struct div_batch *c = arg;
  void *ptrs[BATCH_N];
  for (int i = 0; i < BATCH_N; ++i)
    ptrs[i] = (void *)(uintptr_t)c->addr[i][lane];
  c->added[lane] = __pasta_div_access_batch_out(
      BATCH_N, BATCH_LINES, ptrs, c->table, c->width, c->out[lane]);
}

/* The reference: each entry through its own out-of-line helper. */
static void div_batch_single_lane(uint32_t lane, void *arg) {
  struct div_batch *c = arg;
  for (int i = 0; i < BATCH_N; ++i) {
    const uint32_t *e = &c->table[i * PASTA_DIV_BATCH_WORDS];
    uint32_t flags = e[PASTA_DIV_BATCH_FLAGS], f[8];
    uint32_t sectored = (flags & PASTA_DIV_BATCH_SECTORED) != 0;
    uint32_t w = flags & PASTA_DIV_BATCH_ROW_WIDTH ? c->width : 0;
    void *p = (void *)(uintptr_t)c->addr[i][lane];
    uint32_t a =
        flags & PASTA_DIV_BATCH_LANES
            ? __pasta_div_access_lanes_out(
                  p, e[PASTA_DIV_BATCH_SIZE], e[PASTA_DIV_BATCH_STRIDE],
                  e[PASTA_DIV_BATCH_HINT], sectored, w, f)
            : __pasta_div_access_out(p, e[PASTA_DIV_BATCH_SIZE],
                                     e[PASTA_DIV_BATCH_HINT], sectored, w, f);
    c->want_added[lane] |= a;
    uint64_t *sum = &c->want[lane][8 * e[PASTA_DIV_BATCH_LINE]];
    for (int k = 0; k < 8; ++k)
      if (flags >> k & 1)
        sum[k] += (flags >> PASTA_DIV_BATCH_TIMES_SHIFT) * div_reg(f[k]);
  }
}

static void div_batch_entry(struct div_batch *c, int i, uint32_t size,
                            uint32_t stride, uint32_t hint, uint32_t flags,
                            uint32_t times, uint32_t line) {
  uint32_t *e = &c->table[i * PASTA_DIV_BATCH_WORDS];
  e[PASTA_DIV_BATCH_LINE] = line;
  e[PASTA_DIV_BATCH_SIZE] = size, e[PASTA_DIV_BATCH_STRIDE] = stride;
  e[PASTA_DIV_BATCH_HINT] = hint;
  e[PASTA_DIV_BATCH_FLAGS] = flags | times << PASTA_DIV_BATCH_TIMES_SHIFT;
}

static void check_div_batch(struct div_batch *c, uint64_t active) {
  const uint64_t lo = DIV_BASE * 4, hi = DIV_BASE * 5;
  memset(c->out, 0, sizeof c->out), memset(c->added, 0, sizeof c->added);
  memset(c->want, 0, sizeof c->want);
  memset(c->want_added, 0, sizeof c->want_added);
  pasta_shim_warp(32, active, lo, hi, div_batch_lane, c);
  pasta_shim_warp(32, active, lo, hi, div_batch_single_lane, c);
  uint64_t got[8 * BATCH_LINES] = {0}, want[8 * BATCH_LINES] = {0};
  for (int l = 0; l < 64; ++l) {
    CHECK_EQ_U64(c->added[l] != 0, c->want_added[l] != 0);
    for (int k = 0; k < 8 * BATCH_LINES; ++k) {
      got[k] += div_reg(c->out[l][k]);
      want[k] += c->want[l][k];
    }
  }
  for (int k = 0; k < 8 * BATCH_LINES; ++k)
    CHECK_EQ_U64(got[k], want[k]);
}

static void test_div_batch(void) {
  static struct div_batch c;
  const uint32_t global = 1u << (PASTA_DIV_DISTINCT_GLOBAL) |
                          1u << PASTA_DIV_SECTORS |
                          1u << PASTA_DIV_IDEAL_SECTORS;
  const uint32_t shared =
      1u << PASTA_DIV_DISTINCT_SHARED | 1u << PASTA_DIV_BANK_CONFLICTS;
  /* 0: coalesced floats, general helper, twice on the line (a += load and
   * store); 1: floats 32 bytes apart, lanes helper (myocyte's y[8x + k]);
   * 2: shared words at 3 words a lane; 3: a generic 8-byte atomic over both
   * spaces, every figure but the requests; 4: shared doubles, lanes helper
   * at its size. Entries 2 and 4 on the second line. */
  div_batch_entry(&c, 0, 4, 0, PASTA_DIV_GLOBAL | PASTA_DIV_ALIGNED,
                  global | PASTA_DIV_BATCH_SECTORED, 2, 0);
  div_batch_entry(&c, 1, 4, 32, PASTA_DIV_GLOBAL,
                  global | PASTA_DIV_BATCH_SECTORED | PASTA_DIV_BATCH_LANES |
                      PASTA_DIV_BATCH_ROW_WIDTH,
                  1, 0);
  div_batch_entry(&c, 2, 4, 0, PASTA_DIV_SHARED,
                  shared | PASTA_DIV_BATCH_SECTORED | PASTA_DIV_BATCH_ROW_WIDTH,
                  1, 1);
  div_batch_entry(&c, 3, 8, 0, PASTA_DIV_GENERIC, 0xfcu, 3, 0);
  div_batch_entry(&c, 4, 8, 8, PASTA_DIV_SHARED,
                  shared | PASTA_DIV_BATCH_SECTORED | PASTA_DIV_BATCH_LANES |
                      PASTA_DIV_BATCH_ROW_WIDTH,
                  1, 1);
  for (uint32_t l = 0; l < 64; ++l) {
    c.addr[0][l] = DIV_BASE + 64 + 4 * l;
    c.addr[1][l] = DIV_BASE + 8192 + 32 * l;
    c.addr[2][l] = DIV_BASE * 4 + 12 * l;
    c.addr[3][l] = (l % 3 ? DIV_BASE * 4 + 256 : DIV_BASE + 4096) + 8 * (l / 5);
    c.addr[4][l] = DIV_BASE * 4 + 1024 + 8 * l;
  }
  const uint64_t masks[] = {FULL,          1,
                            0xffff0000ull, 0x0f0f0f0full,
                            0x80000001ull, 0x7ffffffeull,
                            0x12345678ull};
  for (uint32_t width = 0; width <= 32; width += 32)
    for (size_t m = 0; m < sizeof masks / sizeof *masks; ++m) {
      c.width = width;
      check_div_batch(&c, masks[m]);
    }
}

/* pasta_div_apart_rows (div_proofs.h): a global load or store at stride 0
 * or of pasta_div_full_row_form, in a FULL warp of `w`-wide rows stacked in
 * y whose rows start a multiple of 32 bytes apart, at least the minimum
 * gap it gives (either way), has the figures derived for one 32-lane row
 * (pasta_div_lanes_derived) plus the differences it gives, by definition,
 * at every aligned base within four sectors. */
static void test_div_apart_rows(void) {
  const int64_t strides[] = {0,  1,  2,  4,  6,  8,  12,  16,  20,
                             24, 32, 36, 48, 64, 96, 128, 160, 4096};
  static struct div_any c;
  int classes = 0, cases = 0, held = 0;
  for (uint32_t w = 2; w <= 16; w *= 2)
    for (uint32_t size = 1; size <= 32; size *= 2)
      for (size_t s = 0; s < sizeof strides / sizeof *strides; ++s) {
        struct pasta_div_repeat_figures r;
        uint32_t min_gap = 0;
        int form =
            strides[s] == 0 ||
            pasta_div_full_row_form(size, strides[s], PASTA_DIV_GLOBAL, 1, 1);
        CHECK_EQ_INT(pasta_div_apart_rows(size, strides[s], w, &r, &min_gap),
                     form);
        if (!form)
          continue;
        ++classes;
        CHECK(min_gap % 32 == 0 && min_gap >= 32);
        for (int64_t k = 0; k < 8; ++k) {
          int64_t gap = (int64_t)min_gap + 32 * (k / 2);
          if (k % 2)
            gap = -gap;
          for (uint64_t off = 0; off < 128; off += size) {
            memset(&c, 0, sizeof c);
            for (int l = 0; l < 64; ++l)
              c.addr[l] = (1ull << 40) + off +
                          (uint64_t)(strides[s] * (l % w)) +
                          (uint64_t)(gap * (int64_t)((l % 32) / w));
            c.size = size, c.hint = PASTA_DIV_GLOBAL, c.sectored = 1;
            ++cases;
            held += rows_figures_hold(&c, strides[s], &r, off);
          }
        }
      }
  CHECK(classes >= 4 * 30);
  CHECK_EQ_INT(held, cases);
  /* gaussian's fan2: m[i * n + t] (stride 0) and a[i * n + j] (16 floats a
   * row) at a row gap of 4n bytes, n a multiple of 8 and at least 24 */
  struct pasta_div_repeat_figures g;
  uint32_t min_gap = 0;
  /* a row of 16 floats at a stride near 2^28 spans over 2^32 bytes: no gap
   * in 32 bits states it (computed in 32 bits it wrapped to 288, and rows
   * one stride apart overlapped: 68 distinct bytes where 128 were given) */
  CHECK(!pasta_div_apart_rows(4, 0x11111120, 16, &g, &min_gap));
  CHECK(pasta_div_apart_rows(4, 0x01000000, 16, &g, &min_gap) &&
        min_gap > 15u * 0x01000000u);
  CHECK(pasta_div_apart_rows(4, 0, 16, &g, &min_gap));
  CHECK(g.distinct == 4 && g.sectors == 1 && g.ideal_sectors == 0 &&
        min_gap == 32);
  CHECK(pasta_div_apart_rows(4, 4, 16, &g, &min_gap));
  CHECK(g.distinct == 0 && g.sectors == 0 && g.past == 2 &&
        g.from_offset == 1 && min_gap == 96);
}

/* Wider lane strides (a tile's column, a padded row): every stride the
 * pass hands __pasta_div_access_lanes (passes/DivergenceFigures.cpp,
 * lanesHelperTakes) for sizes 1 to 32, at aligned offsets across a
 * 128-byte line, both spaces, loads and atomics, several masks: the figures
 * plus the derived ones are the reference's, full warps of one row return
 * at once (rows path) and the others take the one-row mask path. */
static int div_wider_stride_taken(uint32_t size, uint32_t stride, int shared,
                                  int sectored) {
  if (stride <= size || stride % size != 0)
    return 0;
  if (!sectored)
    return 1;
  if (shared)
    return size <= 4 && stride % 4 == 0;
  return stride >= 32 || (stride & (stride - 1)) == 0;
}

static void test_div_wider_strides(void) {
  static struct div_lanes c;
  /* each warp runs 32 fibers (under the sanitizers in CI): offsets
   * and masks are chosen, not exhaustive */
  const uint64_t masks[] = {FULL,          0x0000ffffull, 0x5555aaaaull,
                            0x0ffffff0ull, 0x00000003ull, 0x00000e07ull};
  const uint32_t offsets[] = {0, 4, 28, 32, 68, 96};
  const uint32_t strides[] = {2,  4,  8,  12, 16,  24,  32,  36,
                              60, 64, 68, 96, 128, 132, 256, 4096};
  int cases = 0, fast = 0;
  for (uint32_t size = 1; size <= 32; size *= 2)
    for (size_t s = 0; s < sizeof strides / sizeof *strides; ++s)
      for (int shared = 0; shared < 2; ++shared)
        for (int sectored = 0; sectored < 2; ++sectored) {
          if (!div_wider_stride_taken(size, strides[s], shared, sectored))
            continue;
          for (size_t o = 0; o < sizeof offsets / sizeof *offsets; ++o)
            for (size_t m = 0; m < sizeof masks / sizeof *masks; ++m) {
              uint32_t offset = offsets[o] / size * size;
              c.any.size = size;
              c.any.hint = shared ? PASTA_DIV_SHARED : PASTA_DIV_GLOBAL;
              c.any.sectored = (uint32_t)sectored;
              c.stride = strides[s], c.width = 32;
              uint64_t base = (shared ? DIV_BASE * 4 : DIV_BASE) + offset;
              for (int l = 0; l < 64; ++l)
                c.any.addr[l] = base + (uint64_t)c.stride * (uint64_t)l;
              ++cases;
              int path = div_check_lanes(&c, masks[m]);
              /* full warps from a sector boundary, or of elements a sector
               * or more apart, or in shared memory: derived */
              int derived = m == 0 && (shared || !sectored ||
                                       offset % 32 == 0 || strides[s] >= 32);
              fast += path == (derived ? 1 : 2);
            }
        }
  CHECK(cases > 1000);
  CHECK_EQ_INT(fast, cases);
}

/* pasta_div_strided_wavefronts (the one-row path's shared wavefronts) on
 * every word stride from 1 to 64 and masks full, half, alternate, sparse
 * and pseudo-random: the fullest bank's lanes, counted bank by bank (lane
 * i reads bank stride * i mod 32). */
static void test_div_strided_wavefronts(void) {
  uint64_t masks[40] = {FULL,          0x0000ffffull, 0xffff0000ull,
                        0x55555555ull, 0xaaaaaaaaull, 0x00000001ull,
                        0x80000000ull, 0x0001fffeull, 0x7ffe0000ull,
                        0x00ff00ffull};
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  for (int m = 10; m < 40; ++m) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    masks[m] = (seed >> 32) | 1; /* never empty */
  }
  int cases = 0, equal = 0;
  for (uint32_t words = 1; words <= 64; ++words)
    for (int m = 0; m < 40; ++m) {
      uint32_t per_bank[32] = {0}, most = 0;
      for (uint32_t i = 0; i < 32; ++i)
        if (masks[m] >> i & 1) {
          uint32_t n = ++per_bank[words * i % 32];
          most = n > most ? n : most;
        }
      ++cases;
      equal += pasta_div_strided_wavefronts(masks[m], 4 * words) == most;
    }
  CHECK_EQ_INT(cases, 64 * 40);
  CHECK_EQ_INT(equal, cases);
}

/* __pasta_div_access_row32, the one-row helper of the copies' body for rows
 * of 32 (passes/DivergenceRows32.cpp): in a warp of one 32-lane row, every
 * power-of-2 size, stride 0, the size and every wider stride the pass hands
 * the lanes helper, aligned offsets across a 128-byte line, both spaces,
 * loads and atomics, full and partial masks: its figures plus the derived
 * ones are the reference's. It adds only sectors, ideal sectors and bank
 * conflicts. */
static void div_row32_lane(uint32_t lane, void *arg) {
  struct div_lanes *c = arg;
  uint32_t *r = c->any.per_lane[lane];
  c->any.added[lane] = __pasta_div_access_row32(
      (void *)(uintptr_t)c->any.addr[lane], c->any.size, c->stride, c->any.hint,
      c->any.sectored, &r[5], &r[6], &r[7]);
}

static void test_div_row32(void) {
  static struct div_lanes c;
  const uint64_t masks[] = {FULL, 0x5555aaaaull, 0x0ffffff0ull, 0x80000000ull};
  const uint32_t offsets[] = {0, 4, 28, 68};
  const uint32_t strides[] = {0, 1, 2, 4, 8, 12, 16, 32, 36, 96, 4096};
  int cases = 0;
  for (uint32_t size = 1; size <= 32; size *= 2)
    for (size_t s = 0; s < sizeof strides / sizeof *strides; ++s)
      for (int shared = 0; shared < 2; ++shared)
        for (int sectored = 0; sectored < 2; ++sectored) {
          uint32_t stride = strides[s];
          if (stride != 0 && stride != size &&
              !div_wider_stride_taken(size, stride, shared, sectored))
            continue;
          for (size_t o = 0; o < sizeof offsets / sizeof *offsets; ++o)
            for (size_t m = 0; m < sizeof masks / sizeof *masks; ++m) {
              uint32_t offset = offsets[o] / size * size;
              c.any.size = size;
              c.any.hint = shared ? PASTA_DIV_SHARED : PASTA_DIV_GLOBAL;
              c.any.sectored = (uint32_t)sectored;
              c.stride = stride, c.width = 32;
              uint64_t base = (shared ? DIV_BASE * 4 : DIV_BASE) + offset;
              for (int l = 0; l < 64; ++l)
                c.any.addr[l] = base + (uint64_t)stride * (uint64_t)l;
              ++cases;
              div_check_lanes_with(&c, masks[m], div_row32_lane, &c);
            }
        }
  CHECK(cases > 500);
}

/* __pasta_div_access_rows16, the helper of the copies' body for rows of
 * 16 (passes/DivergenceRows32.cpp): lanes 0-15 one row at base a, lanes
 * 16-31 another at base b, stride 0 or the size, every power-of-2 size,
 * both spaces, loads and atomics, rows on the same bytes, overlapping in
 * part, adjacent, a sector, a bank line or far apart (either way round),
 * full masks, one row, and partial masks of both: its figures plus the
 * derived ones are the reference's, by definition over the lanes. */
static void div_rows16_lane(uint32_t lane, void *arg) {
  struct div_lanes *c = arg;
  uint32_t *r = c->any.per_lane[lane];
  c->any.added[lane] = __pasta_div_access_rows16(
      (void *)(uintptr_t)c->any.addr[lane], c->any.size, c->stride, c->any.hint,
      c->any.sectored, &r[0], &r[1], &r[2], &r[3], &r[4], &r[5], &r[6], &r[7]);
}

static void test_div_rows16(void) {
  static struct div_lanes c;
  const uint64_t masks[] = {FULL,          0x5555aaaaull, 0x0000ffffull,
                            0x00018000ull, 0xfff0ffffull, 0x00010001ull,
                            0x80000001ull};
  /* row b less row a, in elements (the size's multiples) or bytes */
  const int64_t elems[] = {0, 1, 15, 16, 17, -16};
  const int64_t bytes[] = {72, 128, 132, -128, 4096, 1 << 16};
  const size_t n_elems = sizeof elems / sizeof *elems;
  const size_t n_deltas = n_elems + sizeof bytes / sizeof *bytes;
  const uint32_t offsets[] = {0, 28};
  int cases = 0, fast = 0;
  for (uint32_t size = 1; size <= 32; size *= 2)
    for (uint32_t strided = 0; strided < 2; ++strided)
      for (int shared = 0; shared < 2; ++shared)
        for (int sectored = 0; sectored < 2; ++sectored)
          for (size_t o = 0; o < sizeof offsets / sizeof *offsets; ++o)
            for (size_t k = 0; k < n_deltas; ++k) {
              int64_t delta =
                  k < n_elems ? elems[k] * (int64_t)size : bytes[k - n_elems];
              if (delta % (int64_t)size != 0 || (o && k % 2 == 0))
                continue;
              uint32_t offset = offsets[o] / size * size;
              c.any.size = size;
              c.any.hint = shared ? PASTA_DIV_SHARED : PASTA_DIV_GLOBAL;
              c.any.sectored = (uint32_t)sectored;
              c.stride = strided ? size : 0, c.width = 16;
              uint64_t a =
                  (shared ? DIV_BASE * 4 : DIV_BASE) + (1u << 17) + offset;
              for (int l = 0; l < 64; ++l)
                c.any.addr[l] = (uint64_t)((int64_t)a + (l / 16 % 2) * delta) +
                                (uint64_t)c.stride * (uint64_t)(l % 16);
              for (size_t m = 0; m < sizeof masks / sizeof *masks; ++m) {
                if ((!sectored && (m > 1 || o)) || (o && m > 2))
                  continue;
                ++cases;
                fast += div_check_lanes_with(&c, masks[m], div_rows16_lane,
                                             &c) != 0;
              }
            }
  CHECK(cases > 1500);
  CHECK(fast > 0 && fast < cases);
}

/* backprop's layerforward stages `in_s[ty] = input[16 * b + ty]` under
 * `if (tx == 0)`: in 16 x 16 blocks, lanes 0 and 16 alone, one lane a row,
 * at stride 0, the rows one float apart (and, for the test, other
 * distances: the same element, a bank apart, a sector apart). The figures
 * are the reference's, from one shuffle (the other lane's address); on the
 * tree before, two (each row's base) and the rows' unit sets. */
static void test_div_one_lane_a_row(void) {
  static struct div_lanes c;
  const int64_t deltas[] = {4, 0, 128, 32, -4, 4096};
  const uint32_t offsets[] = {0, 28};
  for (int shared = 0; shared < 2; ++shared)
    for (size_t k = 0; k < sizeof deltas / sizeof *deltas; ++k)
      for (size_t o = 0; o < 2; ++o) {
        c.any.size = 4, c.stride = 0, c.width = 16, c.any.sectored = 1;
        c.any.hint = shared ? PASTA_DIV_SHARED : PASTA_DIV_GLOBAL;
        uint64_t a = (shared ? DIV_BASE * 4 : DIV_BASE) + 4096 + offsets[o];
        for (int l = 0; l < 64; ++l)
          c.any.addr[l] = (uint64_t)((int64_t)a + (l / 16 % 2) * deltas[k]);
        uint64_t before[3];
        memcpy(before, pasta_shim_collectives, sizeof before);
        div_check_lanes_with(&c, 0x00010001ull, div_rows16_lane, &c);
        CHECK_EQ_U64(pasta_shim_collectives[PASTA_SHIM_SHUFFLE] - before[1], 1);
        CHECK_EQ_U64(pasta_shim_collectives[PASTA_SHIM_MATCH] - before[2], 0);
      }
}

/* What __pasta_div_access_rows16 runs, in the shapes of the kernels that
 * take the body for rows of 16: a full warp of two rows of 4-byte elements
 * at unaligned bases (gaussian's a[i * n + j] at an odd t), a stride-0
 * column per row (m[i * n + t], lud's l_s[ty][k]) and both rows on the same
 * elements (a[t * n + j], backprop's delta[tx]) take the closed form (the
 * rows tally), with no per-lane walk; partial masks walk no lane for
 * element-wide units (distinct bytes, a 4-byte shared access's banks) nor
 * at stride 0. */
static void test_div_rows16_walks(void) {
  static struct div_lanes c;
  struct {
    uint32_t stride, shared;
    int64_t delta; /* row b less row a, bytes */
    uint64_t mask;
    int closed; /* 1: the rows tally must move; 0: it may not */
  } cases[] = {
      {4, 0, 68, FULL, 1},       {4, 0, 68 * 16, FULL, 1},
      {4, 0, 0, FULL, 1},        {0, 0, 68, FULL, 1},
      {0, 1, 68, FULL, 1},       {4, 1, 68, FULL, 1},
      {0, 0, 68, 0x5555aaaa, 0}, {0, 1, 4, 0x00018000, 0},
      {4, 1, 68, 0x5555aaaa, 0}, {4, 1, 4, 0xfff0ffff, 0},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; ++k) {
    c.any.size = 4;
    c.any.hint = cases[k].shared ? PASTA_DIV_SHARED : PASTA_DIV_GLOBAL;
    c.any.sectored = 1;
    c.stride = cases[k].stride, c.width = 16;
    uint64_t a = (cases[k].shared ? DIV_BASE * 4 : DIV_BASE) + (1u << 17) + 4;
    for (int l = 0; l < 64; ++l)
      c.any.addr[l] = (uint64_t)((int64_t)a + (l / 16 % 2) * cases[k].delta) +
                      (uint64_t)c.stride * (uint64_t)(l % 16);
    uint64_t walks = pasta_div_rows16_walks;
    int path = div_check_lanes_with(&c, cases[k].mask, div_rows16_lane, &c);
    if (cases[k].closed)
      CHECK_EQ_INT(path, 1);
    CHECK_EQ_U64(pasta_div_rows16_walks - walks, 0);
  }
}

static uint32_t div_row_width;
static uint32_t div_stacked_width;
static void div_stacked_width_lane(uint32_t lane, void *arg) {
  (void)lane, (void)arg;
  div_stacked_width = __pasta_div_stacked_width();
}

/* Stacked rows: with lane i at x = i mod W, y = y0 + i / W, an address
 * B + S * x + W * S * y is B' + S * i. Checked by definition: in every
 * warp of the block, lane i's thread has that x and y. */
static void test_div_stacked_width(void) {
  const uint32_t shapes[][3] = {{48, 1, 1}, {48, 2, 1}, {64, 2, 1}, {16, 16, 1},
                                {32, 1, 4}, {8, 1, 2},  {24, 2, 1}, {1, 32, 1},
                                {8, 3, 2},  {8, 4, 2},  {16, 3, 1}, {4, 2, 4},
                                {2, 3, 3},  {16, 2, 3}, {1, 5, 7}};
  for (size_t i = 0; i < sizeof shapes / sizeof *shapes; ++i) {
    memcpy(pasta_shim.threads, shapes[i], sizeof shapes[i]);
    div_stacked_width = 99;
    pasta_shim_warp(32, 1, 0, 0, div_stacked_width_lane, NULL);
    uint32_t w = div_stacked_width, x = shapes[i][0], y = shapes[i][1];
    uint32_t n = x * y * shapes[i][2];
    /* every warp: lane i's (x, y, z) against the claim */
    int holds = 1;
    for (uint32_t t0 = 0; t0 < n; t0 += 32)
      for (uint32_t l = 0; l < 32 && t0 + l < n; ++l) {
        uint32_t t = t0 + l, tx = t % x, ty = t / x % y, tz = t / (x * y);
        uint32_t z0 = t0 / (x * y), y0 = t0 / x % y;
        if (w == 32)
          holds &= tx == (t0 % x) + l && ty == y0 && tz == z0;
        else if (w)
          holds &= tx == l % w && ty == y0 + l / w && tz == z0;
      }
    CHECK_MSG(holds, "shape %u x %u x %u: width %u", x, y, shapes[i][2], w);
    /* and 0 only where it fails at some warp, or where rows straddle */
    if (!w)
      CHECK(x % 32 != 0 && !(y == 1 && shapes[i][2] == 1));
  }
  pasta_shim.threads[0] = 1, pasta_shim.threads[1] = 1;
  pasta_shim.threads[2] = 1;
}

static void div_row_width_lane(uint32_t lane, void *arg) {
  (void)lane, (void)arg;
  div_row_width = __pasta_div_row_width();
}

static void div_both_widths_lane(uint32_t lane, void *arg) {
  (void)lane, (void)arg;
  div_row_width = __pasta_div_row_width();
  div_stacked_width = __pasta_div_stacked_width();
}

/* The two widths as they were written with early returns (before they
 * were made straight-line for the copies' late inlining), the reference
 * of test_div_widths_as_before. */
static uint32_t div_row_width_before(uint32_t x, uint32_t y, uint32_t z) {
  if ((x & 31) == 0 || (y == 1 && z == 1))
    return 32;
  return x < 32 && (x & (x - 1)) == 0 ? x : 0;
}

static uint32_t div_stacked_width_before(uint32_t x, uint32_t y, uint32_t z) {
  uint32_t w = div_row_width_before(x, y, z);
  if (w == 0 || w == 32 || z == 1 || ((w * y) & 31) == 0)
    return w;
  return 0;
}

/* __pasta_div_row_width and __pasta_div_stacked_width on every block
 * shape up to 64 x 8 x 4 (a 32-lane warp): the values of the branching
 * forms they replace. */
static void test_div_widths_as_before(void) {
  int shapes = 0, equal = 0;
  for (uint32_t x = 1; x <= 64; ++x)
    for (uint32_t y = 1; y <= 8; ++y)
      for (uint32_t z = 1; z <= 4; ++z, ++shapes) {
        pasta_shim.threads[0] = x, pasta_shim.threads[1] = y;
        pasta_shim.threads[2] = z;
        div_row_width = div_stacked_width = 99;
        pasta_shim_warp(32, 1, 0, 0, div_both_widths_lane, NULL);
        equal += div_row_width == div_row_width_before(x, y, z) &&
                 div_stacked_width == div_stacked_width_before(x, y, z);
      }
  CHECK_EQ_INT(shapes, 64 * 8 * 4);
  CHECK_EQ_INT(equal, shapes);
  pasta_shim.threads[0] = 1, pasta_shim.threads[1] = 1;
  pasta_shim.threads[2] = 1;
}

/* With `cold`, the same cases through __pasta_div_access_lanes_cold (the
 * pass's large copies): every path gives the reference's figures too. */
static void test_div_access_lanes(int cold) {
  static struct div_lanes c;
  c.cold = cold;
  const uint64_t masks[] = {FULL,          0x0000ffffull, 0xffff0000ull,
                            0x80000001ull, 0x5555aaaaull, 0x00000100ull,
                            0x7ffffffeull, 0xfffffff8ull, 0x0ffffff0ull,
                            0xfff0ffffull};
  int fast = 0, general = 0, cases = 0, two_rows = 0;
  for (uint32_t size = 1; size <= 16; size *= 2)
    for (uint32_t strided = 0; strided < 2; ++strided)
      for (uint32_t offset = 0; offset < 128; offset += size)
        for (size_t m = 0; m < sizeof masks / sizeof *masks; ++m)
          for (int shared = 0; shared < 2; ++shared) {
            c.any.size = size;
            c.any.hint = shared ? PASTA_DIV_SHARED : PASTA_DIV_GLOBAL;
            c.any.sectored = (offset / size + m) % 3 != 0; /* some atomics */
            c.stride = strided ? size : 0;
            c.width = 32;
            uint64_t base = (shared ? DIV_BASE * 4 : DIV_BASE) + offset;
            for (int l = 0; l < 64; ++l)
              c.any.addr[l] = base + (uint64_t)c.stride * (uint64_t)l;
            ++cases;
            /* a full warp with the derived figures returns at once (1),
             * the rest of one row takes the mask path (2) */
            int path = div_check_lanes(&c, masks[m]);
            fast += path == 2 || (m == 0 && path == 1);
            /* The same lanes, not known to form rows: general path. */
            c.width = 0;
            general += div_check_lanes(&c, masks[m]) == 0;
            /* Two rows of 16, a page apart or the same (offset 64, 96). */
            c.width = 16;
            for (int l = 0; l < 64; ++l)
              c.any.addr[l] =
                  base + (uint64_t)c.stride * (uint64_t)(l % 16) +
                  (offset % 64 < 32 ? 4096u * (uint64_t)(l / 16) : 0);
            /* not: shared loads of 1 or 2 bytes per lane in two rows (the
             * general bank rule) */
            int distinct_rows = offset % 64 < 32 && strided;
            uint64_t mk = masks[m];
            int in_one_row = (mk & 0xffffull) == 0 || (mk >> 16) == 0;
            int want = m == 0       ? !(shared && c.any.sectored && size < 4 &&
                                        distinct_rows)
                       : in_one_row ? 2
                                    : 0;
            two_rows += div_check_lanes(&c, mk) == want;
          }
  CHECK(cases ==
        2 * (128 + 64 + 32 + 16 + 8) * (int)(sizeof masks / sizeof *masks) * 2);
  CHECK(fast == cases && general == cases && two_rows == cases);
  /* A base not aligned to the size (2 bytes into an 8-byte element): the
   * general path, same figures, for a partial and a full warp. */
  c.any.size = 8, c.any.hint = PASTA_DIV_GLOBAL, c.any.sectored = 1;
  c.stride = 8, c.width = 32;
  for (int l = 0; l < 64; ++l)
    c.any.addr[l] = DIV_BASE + 2 + 8 * (uint64_t)l;
  CHECK_EQ_INT(div_check_lanes(&c, 0xffffull), 0);
  CHECK_EQ_INT(div_check_lanes(&c, FULL), 0);
  /* A full warp of one row 4 bytes past a sector boundary: the mask path
   * adds the fifth sector; from the boundary, nothing (derived). */
  c.any.size = 4, c.stride = 4;
  for (int l = 0; l < 64; ++l)
    c.any.addr[l] = DIV_BASE + 4 + 4 * (uint64_t)l;
  CHECK_EQ_INT(div_check_lanes(&c, FULL), 2);
  CHECK_EQ_U64(c.any.per_lane[0][DIV_SEC], 1);
  for (int l = 0; l < 64; ++l)
    c.any.addr[l] = DIV_BASE + 4 * (uint64_t)l;
  CHECK_EQ_INT(div_check_lanes(&c, FULL), 1);
  CHECK_EQ_U64(c.any.per_lane[0][DIV_SEC], 0);
  /* Rows of whole warps or of 16 lanes, or none (rows straddle warps). */
  const uint32_t shapes[][3] = {{48, 1, 1}, {48, 2, 1}, {64, 2, 1}, {16, 16, 1},
                                {32, 1, 4}, {8, 1, 2},  {24, 2, 1}, {1, 32, 1}};
  const uint32_t widths[] = {32, 0, 32, 16, 32, 8, 0, 1};
  for (size_t i = 0; i < sizeof widths / sizeof *widths; ++i) {
    memcpy(pasta_shim.threads, shapes[i], sizeof shapes[i]);
    div_row_width = 99;
    pasta_shim_warp(32, 1, 0, 0, div_row_width_lane, NULL);
    CHECK_EQ_INT(div_row_width, widths[i]);
  }
  pasta_shim.threads[0] = 1, pasta_shim.threads[1] = 1;
  pasta_shim.threads[2] = 1;
}

/* A figure added where it is measured (__pasta_div_add): each lane
 * measures into its own zeroed scratch, as the copies do outside loops, and
 * adds it; only the first active lane holds a figure, so the counters get
 * one warp-level execution and the active lanes, once. */
struct div_direct {
  uint64_t warps, threads;
};

static void div_direct_lane(uint32_t lane, void *arg) {
  (void)lane;
  struct div_direct *d = arg;
  uint32_t w = 0, t = 0;
  __pasta_div_block(1, &w, &t);
  __pasta_div_add(&d->warps, 2 * w);
  __pasta_div_add(&d->threads, 2 * t);
}

static void test_div_direct_add(void) {
  struct div_direct d = {0, 0};
  pasta_shim_warp(32, FULL, 0, 0, div_direct_lane, &d);
  CHECK(d.warps == 2 && d.threads == 64);
  d.warps = d.threads = 0;
  pasta_shim_warp(32, 0x0000f0f0ull, 0, 0, div_direct_lane, &d);
  CHECK(d.warps == 2 && d.threads == 16);
}

/* __pasta_div_count_launch: the grid's first thread adds the warps and the
 * threads a launch started, warps counted over each block's threads in
 * linear order (a 100 x 2 block is 200 threads: 7 warps of 32, not 2 x 4),
 * and no other thread adds. */
struct div_launch {
  uint64_t warps, threads;
};

static void div_launch_lane(uint32_t lane, void *arg) {
  (void)lane;
  struct div_launch *d = arg;
  __pasta_div_count_launch(&d->warps, &d->threads);
}

static void test_div_count_launch(void) {
  struct div_launch d = {0, 0};
  place(0, 3, 0, 100);
  pasta_shim_warp(32, 1, 0, 0, div_launch_lane, &d);
  CHECK(d.warps == 3 * 4 && d.threads == 300);
  place(0, 3, 0, 100);
  pasta_shim.threads[1] = 2;
  d.warps = d.threads = 0;
  pasta_shim_warp(32, 1, 0, 0, div_launch_lane, &d);
  CHECK(d.warps == 3 * 7 && d.threads == 600);
  place(0, 3, 0, 100); /* wavefronts of 64 */
  d.warps = d.threads = 0;
  pasta_shim_warp(64, 1, 0, 0, div_launch_lane, &d);
  CHECK(d.warps == 3 * 2 && d.threads == 300);
  place(1, 3, 0, 100); /* another block's thread */
  d.warps = d.threads = 0;
  pasta_shim_warp(32, 1, 0, 0, div_launch_lane, &d);
  CHECK(d.warps == 0 && d.threads == 0);
}

/* __pasta_div_count_launch_warps: in a launch of a class (`on`), the grid's
 * first thread adds the warps __pasta_div_count_launch adds, and no other
 * thread adds; in another launch nothing is added. */
struct div_launch_class {
  uint32_t on;
  uint64_t warps;
  struct div_launch all;
};

static void div_launch_class_lane(uint32_t lane, void *arg) {
  (void)lane;
  struct div_launch_class *d = arg;
  __pasta_div_count_launch_warps(d->on, &d->warps);
  __pasta_div_count_launch(&d->all.warps, &d->all.threads);
}

static void test_div_count_launch_warps(void) {
  for (uint32_t on = 0; on < 2; ++on)
    for (uint32_t lanes = 32; lanes <= 64; lanes += 32)
      for (uint32_t block = 0; block < 2; ++block) {
        struct div_launch_class d = {on, 0, {0, 0}};
        place(block, 3, 0, 100);
        pasta_shim.threads[1] = 2; /* 100 x 2 blocks */
        pasta_shim_warp(lanes, 1, 0, 0, div_launch_class_lane, &d);
        CHECK(d.warps == (on ? d.all.warps : 0));
        CHECK(d.all.warps == (block ? 0 : 3 * (lanes == 32 ? 7 : 4)));
      }
}

/* __pasta_div_all_lanes: 1 in every lane when all hold, 0 in every lane
 * when one active lane does not; inactive lanes do not count. */
struct div_all {
  uint32_t failing; /* this lane's predicate is false (64: none) */
  uint32_t out[64];
};

static void div_all_lane(uint32_t lane, void *arg) {
  struct div_all *a = arg;
  a->out[lane] = __pasta_div_all_lanes(lane != a->failing);
}

static void test_div_all_lanes(void) {
  struct div_all a = {64, {0}};
  pasta_shim_warp(32, FULL, 0, 0, div_all_lane, &a);
  CHECK(a.out[0] == 1 && a.out[31] == 1);
  a.failing = 5;
  pasta_shim_warp(32, FULL, 0, 0, div_all_lane, &a);
  CHECK(a.out[0] == 0 && a.out[5] == 0 && a.out[31] == 0);
  /* Lane 5 inactive: the others all hold. */
  memset(a.out, 0, sizeof a.out);
  pasta_shim_warp(32, FULL & ~(1ull << 5), 0, 0, div_all_lane, &a);
  CHECK(a.out[0] == 1 && a.out[31] == 1 && a.out[5] == 0);
}

/* __pasta_div_uniform: 1 in every lane when the active lanes agree (all
 * true or all false), 0 in every lane when one differs. */
static void div_uniform_lane(uint32_t lane, void *arg) {
  struct div_all *a = arg;
  a->out[lane] = __pasta_div_uniform(lane == a->failing);
}

/* What the pass derives, measuring nothing, for an access of one address
 * in every lane of a known space, an atomic or a naturally aligned load or
 * store of at most 32 bytes (passes/DivergenceMeasures.cpp, wholeAtOnce; the
 * figures deriveFromBlock and deriveLaneShaped give for stride 0): per warp
 * execution one request, the size per active lane in bytes, the size in
 * distinct bytes and, for loads and stores, one sector and one ideal
 * sector and no bank conflict. Every size, every aligned offset in a
 * 128-byte line, both spaces, loads and atomics, several masks against the
 * figures by definition. */
static void test_div_whole_at_once(void) {
  const uint64_t masks[] = {~0ull >> 32, 1,           0x80000000u,
                            0x0f0f0f0fu, 0xdeadbeefu, 0x00010001u};
  for (uint32_t size = 1; size <= 32; size *= 2)
    for (uint64_t off = 0; off < 128; off += size)
      for (int kind = 0; kind < 4; ++kind)
        for (size_t m = 0; m < sizeof masks / sizeof *masks; ++m) {
          int shared = kind & 1, atomic = kind >> 1;
          struct div_any c;
          memset(&c, 0, sizeof c);
          for (int l = 0; l < 64; ++l)
            c.addr[l] = DIV_BASE + off;
          c.size = size;
          c.hint = shared ? PASTA_DIV_SHARED : PASTA_DIV_GLOBAL;
          c.sectored = !atomic;
          uint64_t ref[8], derived[8] = {0};
          div_reference(&c, masks[m], ref);
          uint64_t lanes = (uint64_t)__builtin_popcountll(masks[m]);
          derived[shared ? DIV_RS : DIV_RG] = 1;
          derived[DIV_B] = size * lanes;
          derived[shared ? DIV_DS : DIV_DG] = size;
          if (!shared && !atomic) {
            derived[DIV_SEC] = 1;
            derived[DIV_IDEAL] = (size + 31) / 32;
          }
          for (int i = 0; i < 8; ++i)
            CHECK_EQ_U64(derived[i], ref[i]);
        }
  /* Not naturally aligned: a 4-byte access across a sector boundary
   * touches two sectors, which is why the pass requires the alignment. */
  struct div_any c;
  memset(&c, 0, sizeof c);
  for (int l = 0; l < 64; ++l)
    c.addr[l] = DIV_BASE + 30;
  c.size = 4, c.hint = PASTA_DIV_GLOBAL, c.sectored = 1;
  uint64_t ref[8];
  div_reference(&c, ~0ull >> 32, ref);
  CHECK_EQ_U64(ref[DIV_SEC], 2);
}

/* Lane-affine accesses the pass leaves unmeasured when a warp is one row of
 * 32 lanes (include/pasta/div_proofs.h, pasta_div_mask_free): for every
 * class it admits, every size, every offset in a 128-byte line (aligned to
 * the size where it must be), and masks of every kind (each prefix and
 * suffix: bounds-checked tail warps; single lanes; scattered ones), the
 * figures derived from the block's counters (pasta_div_lanes_derived, as
 * the pass's deriveLaneShaped) are the figures by definition. And each
 * class it leaves out that looks alike (a global load at stride = size, a
 * shared one at an even number of words, an unaligned one) has a mask or
 * offset where they differ: the rule is not wider than it may be. */
static int div_mask_free_holds(uint32_t size, int64_t stride, int shared,
                               int sectored, uint64_t offset, uint64_t active) {
  struct div_any c;
  memset(&c, 0, sizeof c);
  uint64_t base = (shared ? DIV_BASE * 4 : DIV_BASE) + offset;
  for (int l = 0; l < 64; ++l)
    c.addr[l] = (uint64_t)((int64_t)base + stride * l);
  c.size = size;
  c.hint = shared ? PASTA_DIV_SHARED : PASTA_DIV_GLOBAL;
  c.sectored = (uint32_t)sectored;
  uint64_t ref[8], derived[PASTA_DIV_NUM]; /* it writes every figure */
  div_reference(&c, active, ref);
  pasta_div_lanes_derived(size, (uint32_t)stride, c.hint, c.sectored,
                          (uint64_t)__builtin_popcountll(active), derived);
  for (int i = 0; i < 8; ++i)
    if (derived[i] != ref[i])
      return 0;
  return 1;
}

static void test_div_mask_free(void) {
  uint64_t masks[32 + 31 + 32 + 4];
  size_t n = 0;
  for (int k = 1; k <= 32; ++k) /* prefixes, the full warp last */
    masks[n++] = FULL >> (32 - k);
  for (int k = 1; k < 32; ++k) /* suffixes */
    masks[n++] = FULL << k & FULL;
  for (int k = 0; k < 32; ++k)
    masks[n++] = 1ull << k;
  masks[n++] = 0x5555aaaaull, masks[n++] = 0x0f0f0f0full;
  masks[n++] = 0xdeadbeefull, masks[n++] = 0x80000001ull;
  const int64_t strides[] = {0,  1,  2,  4,  8,  12, 16,  20,
                             24, 32, 36, 44, 64, 68, 128, 4096};
  int classes = 0, cases = 0, held = 0;
  for (uint32_t size = 1; size <= 32; size *= 2)
    for (size_t s = 0; s < sizeof strides / sizeof *strides; ++s)
      for (int kind = 0; kind < 4; ++kind) {
        int shared = kind & 1, sectored = !(kind >> 1);
        uint32_t space = shared ? PASTA_DIV_SHARED : PASTA_DIV_GLOBAL;
        for (int aligned = 0; aligned < 2; ++aligned) {
          if (!pasta_div_mask_free(size, strides[s], space, sectored, aligned))
            continue;
          ++classes;
          uint64_t step = aligned ? size : 1;
          for (uint64_t off = 0; off < 128; off += step)
            for (size_t m = 0; m < n; ++m) {
              ++cases;
              held += div_mask_free_holds(size, strides[s], shared, sectored,
                                          off, masks[m]);
            }
        }
      }
  CHECK(classes > 40);
  CHECK_EQ_INT(held, cases);
  /* Left out, and rightly: a tail warp of a coalesced global load (5 of
   * 32 lanes of 4 bytes: one sector, not four), a full warp of one that
   * starts mid-sector (five sectors), a shared load at 2 words per lane
   * (lanes 0 and 16 share a bank in a full warp, not in lanes 0..15), an
   * unaligned 4-byte global load at stride 0 (two sectors). */
  CHECK(!pasta_div_mask_free(4, 4, PASTA_DIV_GLOBAL, 1, 1));
  CHECK(!div_mask_free_holds(4, 4, 0, 1, 0, FULL >> 27));
  CHECK(!div_mask_free_holds(4, 4, 0, 1, 16, FULL));
  CHECK(!pasta_div_mask_free(4, 8, PASTA_DIV_SHARED, 1, 1));
  CHECK(!div_mask_free_holds(4, 8, 1, 1, 0, 0xffffull));
  CHECK(!pasta_div_mask_free(4, 0, PASTA_DIV_GLOBAL, 1, 0));
  CHECK(!div_mask_free_holds(4, 0, 0, 1, 30, FULL));
  /* Generic accesses are never in: their space is a lane's. */
  CHECK(!pasta_div_mask_free(4, 0, PASTA_DIV_GENERIC, 0, 1));
}

/* Global loads and stores whose copies test once per block for a full warp
 * of one 32-lane row and then add only __pasta_div_row_sectors
 * (include/pasta/div_proofs.h, pasta_div_full_row_form): for every class
 * the rule admits (sizes 1-32, strides from the size to 4096), every
 * aligned offset in a 128-byte line, what the pass derives
 * (pasta_div_lanes_derived, 32 lanes) plus what the lanes return equals the
 * figures by definition, and __pasta_div_full_row says 1 in every lane. It
 * says 0 for rows of 16, width 0 and any other mask; and under such a mask
 * the derived figures would be wrong (a tail warp of 5 lanes), which is why
 * the copies test it. */
struct div_full_row {
  uint64_t addr[64];
  uint32_t size, stride, width;
  uint32_t full[64], extra[64];
};

static void div_full_row_lane(uint32_t lane, void *arg) {
  struct div_full_row *r = arg;
  r->full[lane] = __pasta_div_full_row(r->width);
  r->extra[lane] = __pasta_div_row_sectors((void *)(uintptr_t)r->addr[lane],
                                           r->size, r->stride);
}

static void test_div_full_rows(void) {
  const int64_t strides[] = {1,  2,  4,  6,  8,  12,  16,  20,  24,
                             32, 36, 48, 64, 96, 128, 160, 4096};
  static struct div_full_row r;
  int classes = 0, cases = 0, held = 0, past_start = 0;
  for (uint32_t size = 1; size <= 32; size *= 2)
    for (size_t s = 0; s < sizeof strides / sizeof *strides; ++s) {
      CHECK(!pasta_div_full_row_form(size, strides[s], PASTA_DIV_GLOBAL, 1, 0));
      CHECK(!pasta_div_full_row_form(size, strides[s], PASTA_DIV_SHARED, 1, 1));
      CHECK(!pasta_div_full_row_form(size, strides[s], PASTA_DIV_GLOBAL, 0, 1));
      if (!pasta_div_full_row_form(size, strides[s], PASTA_DIV_GLOBAL, 1, 1))
        continue;
      ++classes;
      for (uint64_t off = 0; off < 128; off += size) {
        struct div_any c;
        memset(&c, 0, sizeof c);
        memset(&r, 0, sizeof r);
        for (int l = 0; l < 64; ++l)
          c.addr[l] = r.addr[l] = DIV_BASE + off + (uint64_t)strides[s] * l;
        c.size = r.size = size;
        c.hint = PASTA_DIV_GLOBAL, c.sectored = 1;
        r.stride = (uint32_t)strides[s], r.width = 32;
        pasta_shim_warp(32, FULL, 0, 0, div_full_row_lane, &r);
        uint64_t ref[8], derived[PASTA_DIV_NUM], extra = 0;
        int full = 1;
        for (int l = 0; l < 32; ++l)
          extra += r.extra[l], full &= r.full[l] == 1;
        CHECK(full);
        div_reference(&c, FULL, ref);
        pasta_div_lanes_derived(size, r.stride, PASTA_DIV_GLOBAL, 1, 32,
                                derived);
        derived[DIV_SEC] += extra;
        past_start += extra != 0;
        int same = 1;
        for (int i = 0; i < 8; ++i)
          same &= derived[i] == ref[i];
        ++cases;
        held += same;
      }
    }
  CHECK(classes >= 30);
  CHECK_EQ_INT(held, cases);
  CHECK(past_start > 0); /* the difference is not always 0 */
  /* Not a full row: rows of 16, no rows, a tail warp, one lane off. */
  const uint32_t widths[] = {16, 0};
  for (size_t w = 0; w < 2; ++w) {
    r.width = widths[w];
    pasta_shim_warp(32, FULL, 0, 0, div_full_row_lane, &r);
    CHECK(r.full[0] == 0 && r.full[31] == 0);
  }
  r.width = 32;
  memset(r.full, 0, sizeof r.full);
  pasta_shim_warp(32, FULL >> 27, 0, 0, div_full_row_lane, &r);
  CHECK(r.full[0] == 0 && r.full[4] == 0);
  pasta_shim_warp(32, FULL & ~(1ull << 9), 0, 0, div_full_row_lane, &r);
  CHECK(r.full[0] == 0 && r.full[31] == 0);
  /* A tail warp of 5 lanes of 4 bytes from a sector's start: one sector,
   * where a full warp's derived figures say 4. */
  struct div_any c;
  memset(&c, 0, sizeof c);
  for (int l = 0; l < 64; ++l)
    c.addr[l] = DIV_BASE + 4u * (uint64_t)l;
  c.size = 4, c.hint = PASTA_DIV_GLOBAL, c.sectored = 1;
  uint64_t ref[8], derived[PASTA_DIV_NUM];
  div_reference(&c, FULL >> 27, ref);
  pasta_div_lanes_derived(4, 4, PASTA_DIV_GLOBAL, 1, 5, derived);
  CHECK_EQ_U64(ref[DIV_SEC], 1);
  CHECK(derived[DIV_SEC] != ref[DIV_SEC]);
}

static void test_div_uniform(void) {
  struct div_all a = {64, {0}}; /* no lane true: uniform */
  pasta_shim_warp(32, FULL, 0, 0, div_uniform_lane, &a);
  CHECK(a.out[0] == 1 && a.out[31] == 1);
  a.failing = 7; /* lane 7 true, the rest false */
  pasta_shim_warp(32, FULL, 0, 0, div_uniform_lane, &a);
  CHECK(a.out[0] == 0 && a.out[7] == 0 && a.out[31] == 0);
  /* Only lane 7 active: it agrees with itself. */
  pasta_shim_warp(32, 1ull << 7, 0, 0, div_uniform_lane, &a);
  CHECK(a.out[7] == 1);
}

/* Every thread's loop run one by one: for x index t of threads_x, start
 * t mod 2^width, stride threads_x mod 2^width, body runs below n. */
static uint64_t grid_stride_runs_by_hand(uint64_t n, uint64_t threads_x,
                                         uint32_t width) {
  uint64_t mask = (1ull << width) - 1, runs = 0;
  for (uint64_t t = 0; t < threads_x; ++t)
    for (uint64_t i = t & mask; i < n; i += threads_x & mask)
      ++runs;
  return runs;
}

/* The same for an `int` index of `width` bits: starts and stride read as
 * signed; the loop run in 64 bits (no overflow: the program's arithmetic
 * taken to have none). */
static uint64_t int_stride_runs_by_hand(int64_t n, uint64_t threads_x,
                                        uint32_t width) {
  uint64_t mask = (1ull << width) - 1;
  int64_t half = (int64_t)1 << (width - 1), stride = threads_x & mask;
  if (stride >= half)
    stride -= 2 * half;
  if (stride <= 0)
    return 0;
  uint64_t runs = 0;
  for (uint64_t t = 0; t < threads_x; ++t) {
    int64_t start = t & mask;
    if (start >= half)
      start -= 2 * half;
    for (int64_t i = start; i < n; i += stride)
      ++runs;
  }
  return runs;
}

static void test_grid_stride_runs(void) {
  /* Against every thread's own loop, starts and strides wrapping at 2^6
   * (threads_x up to 3 x 64 + 63: q = 0..3) and not wrapping (width 20),
   * bounds 0..299 (below, at and past the wrap); a stride of 0 (threads_x
   * a multiple of 64) never ends and is left out. */
  uint32_t widths[] = {6, 20};
  for (uint32_t w = 0; w < 2; ++w)
    for (uint64_t threads_x = 1; threads_x < 256; ++threads_x) {
      if ((threads_x & ((1ull << widths[w]) - 1)) == 0)
        continue;
      for (uint64_t n = 0; n < 300; n += 1 + n / 40)
        CHECK_EQ_INT(pasta_grid_stride_runs(n, threads_x, widths[w], 1),
                     grid_stride_runs_by_hand(n, threads_x, widths[w]));
    }
  /* An `int` index of 6 bits: starts 32..63 read as -32..-1 (they run
   * even for bounds below 1), strides of 32..63 negative (no count);
   * bounds -40..299. */
  for (uint64_t threads_x = 1; threads_x < 256; ++threads_x)
    for (int64_t n = -40; n < 300; n += 1 + (n > 0 ? n / 40 : 0))
      CHECK_EQ_INT(pasta_grid_stride_runs_int(n, threads_x, 6, 1),
                   int_stride_runs_by_hand(n, threads_x, 6));
  /* No wrap: n runs, whatever the grid; times the replicas. */
  CHECK_EQ_INT(pasta_grid_stride_runs(1000003, 30720, 32, 1), 1000003);
  CHECK_EQ_INT(pasta_grid_stride_runs(1000003, 30720, 64, 6), 6000018);
  CHECK_EQ_INT(pasta_grid_stride_runs(5, 30720, 32, 1), 5);
  /* 2^33 + 3 threads, starts wrapping at 2^32 (q = 2, r = 3), bound 10:
   * start s < 10 runs ceil((10 - s) / 3) times: 4, 3, 3, 3, 2, 2, 2, 1, 1,
   * 1 = 22; every start twice (q), starts 0..2 once more (4 + 3 + 3 =
   * 10): 2 x 22 + 10 = 54. */
  CHECK_EQ_INT(pasta_grid_stride_runs(10, (1ull << 33) + 3, 32, 1), 54);
  /* A bound near 2^64 with stride 1: the triangle's halving (2^64 - 1 odd
   * a) keeps the sum exact modulo 2^64: n - 0 = n. */
  CHECK(pasta_grid_stride_runs(UINT64_MAX, 1, 64, 1) == UINT64_MAX);
  CHECK(pasta_grid_stride_runs(UINT64_MAX - 1, 1, 64, 1) == UINT64_MAX - 1);

  /* The launch: only the grid's first thread adds; 2 x 3 blocks of 32 x 2
   * threads (replicas 3 x 2 = 6), bound 100: 600. Signed bounds below zero
   * run nothing. */
  uint64_t slot = 0;
  place(0, 2, 0, 32);
  pasta_shim.blocks[1] = 3;
  pasta_shim.threads[1] = 2;
  __pasta_count_grid_stride(&slot, 100, PASTA_GRID_STRIDE_WRAP32);
  CHECK_EQ_INT(slot, 600);
  pasta_shim.thread[1] = 1; /* y id 1: not the first thread */
  __pasta_count_grid_stride(&slot, 100, PASTA_GRID_STRIDE_WRAP32);
  pasta_shim.thread[1] = 0;
  pasta_shim.block[0] = 1;
  __pasta_count_grid_stride(&slot, 100, 0);
  CHECK_EQ_INT(slot, 600);
  place(0, 2, 0, 32);
  __pasta_count_grid_stride(&slot, (uint64_t)-5, PASTA_GRID_STRIDE_SIGNED);
  CHECK_EQ_INT(slot, 600);
  __pasta_count_grid_stride(&slot, (uint64_t)-5, 0); /* unsigned: huge */
  CHECK(slot == 600 + (uint64_t)-5);
  /* An `int` index on 64 threads (no wrap): a bound below 1 runs nothing,
   * 70 runs 70 times. */
  slot = 0;
  uint32_t int_flags = PASTA_GRID_STRIDE_SIGNED | PASTA_GRID_STRIDE_WRAP32 |
                       PASTA_GRID_STRIDE_INT32;
  __pasta_count_grid_stride(&slot, (uint64_t)-5, int_flags);
  __pasta_count_grid_stride(&slot, 0, int_flags);
  CHECK_EQ_INT(slot, 0);
  __pasta_count_grid_stride(&slot, 70, int_flags);
  CHECK_EQ_INT(slot, 70);
}

/* __pasta_ver_trips and __pasta_ver_trips_add (passes/DivergenceVersioned.cpp,
 * a versioned loop's clone): in a full warp of one row of 32 lanes, the
 * backedges every lane takes (the least of the lanes', capped at 2^31 - 1),
 * in every lane; 0 in a warp not full or not one row of 32 (blocks 16 or
 * 100 threads wide in x, 2 high). The clone's trips are added once per
 * warp, whichever lanes ask. */
struct ver_trips {
  uint64_t backedges[64];
  uint32_t trips[64];
  uint64_t counter;
};

static void ver_trips_lane(uint32_t lane, void *arg) {
  struct ver_trips *v = arg;
  v->trips[lane] = __pasta_ver_trips(v->backedges[lane]);
  __pasta_ver_trips_add(&v->counter, v->trips[lane]);
}

static void ver_trips_check(uint32_t x, uint32_t y, uint64_t active,
                            const uint64_t backedges[32]) {
  struct ver_trips v;
  memset(&v, 0, sizeof v);
  memcpy(v.backedges, backedges, 32 * sizeof *backedges);
  place(0, 1, 0, x);
  pasta_shim.threads[1] = y;
  uint64_t want = 0x7fffffffu;
  for (int l = 0; l < 32; ++l)
    if (backedges[l] < want)
      want = backedges[l];
  if (active != FULL || (x % 32 != 0 && y != 1))
    want = 0;
  pasta_shim_warp(32, active, 0, 0, ver_trips_lane, &v);
  for (int l = 0; l < 32; ++l)
    if (active >> l & 1)
      CHECK_EQ_U64(v.trips[l], want);
  CHECK_EQ_U64(v.counter, want);
}

static void test_ver_trips(void) {
  uint64_t falling[32], rising[32], huge[32], zero[32];
  for (int l = 0; l < 32; ++l) {
    falling[l] = 300 - (uint64_t)l;       /* bpnn_hidden's: lane 31's least */
    rising[l] = 7 + (uint64_t)l * 1000;   /* lane 0's */
    huge[l] = (1ull << 40) + (uint64_t)l; /* above the cap in every lane */
    zero[l] = l == 17 ? 0 : 5;            /* one lane leaves at once */
  }
  ver_trips_check(256, 1, FULL, falling);
  ver_trips_check(64, 4, FULL, rising);
  ver_trips_check(256, 1, FULL, huge);
  ver_trips_check(256, 1, FULL, zero);
  ver_trips_check(256, 1, 0xfffffffeull, falling); /* not full */
  ver_trips_check(256, 1, 0x0000ffffull, rising);
  ver_trips_check(16, 16, FULL, falling); /* two rows of 16 */
  ver_trips_check(100, 2, FULL, rising);  /* rows across warps */
}

/* __pasta_ver_lanes_apart (passes/DivergenceVersioned.cpp, a uniform loop's
 * access at a lane stride known only at run time, bicg_q's A[i * n + j]):
 * 1 in every lane of a full warp whose elements lie at addr0 + d * lane,
 * d >= 32, each aligned to its size; otherwise 0 in some lane. Where it
 * says 1, the general helper's figures for that warp moved by any
 * multiple of the size are the ones the clone adds per trip: 32 * size
 * distinct bytes, 32 sectors, `size` ideal sectors. */
struct ver_apart {
  uint64_t addr[32];
  uint32_t size, ok[32];
};

static void ver_apart_lane(uint32_t lane, void *arg) {
  struct ver_apart *v = arg;
  v->ok[lane] = __pasta_ver_lanes_apart(v->addr[lane], v->size);
}

static void ver_apart_check(uint32_t size, uint64_t stride, uint64_t offset,
                            int moved_lane, uint32_t want) {
  struct ver_apart v;
  memset(&v, 0, sizeof v);
  v.size = size;
  for (int l = 0; l < 32; ++l)
    v.addr[l] = DIV_BASE + offset + stride * (uint64_t)l;
  if (moved_lane >= 0)
    v.addr[moved_lane] += 64 * (uint64_t)size;
  place(0, 1, 0, 256);
  pasta_shim_warp(32, FULL, DIV_BASE * 4, DIV_BASE * 5, ver_apart_lane, &v);
  /* Each lane answers for its own address: a lane off the line says 0,
   * and the warp's least (__pasta_ver_trips) is 0. */
  uint32_t all = 1;
  for (int l = 0; l < 32; ++l) {
    all &= v.ok[l];
    if (l == moved_lane)
      CHECK_EQ_U64(v.ok[l], 0);
  }
  CHECK_EQ_U64(all, want);
  if (!want)
    return;
  /* Every trip's figures are the first's: uniform moves by the size. */
  static const uint64_t moves[] = {0, 1, 2, 7, 31, 1000};
  for (size_t k = 0; k < sizeof moves / sizeof *moves; ++k) {
    struct div_case c = {DIV_BASE, stride,           offset + moves[k] * size,
                         size,     PASTA_DIV_GLOBAL, 1,
                         {{0}}};
    uint64_t sum[8];
    div_width = 0;
    div_run(&c, FULL, sum);
    CHECK_EQ_U64(sum[DIV_DG], 32 * (uint64_t)size);
    CHECK_EQ_U64(sum[DIV_SEC], 32);
    CHECK_EQ_U64(sum[DIV_IDEAL], size);
  }
}

static void test_ver_lanes_apart(void) {
  ver_apart_check(4, 4 * 4096, 0, -1, 1);  /* bicg_q at n = 4096 */
  ver_apart_check(4, 4 * 1001, 12, -1, 1); /* n = 1001, rows unaligned */
  ver_apart_check(4, 36, 4, -1, 1);
  ver_apart_check(4, 32, 28, -1, 1); /* the least: a sector apart */
  ver_apart_check(8, 40, 8, -1, 1);
  ver_apart_check(32, 32, 0, -1, 1);
  ver_apart_check(1, 33, 5, -1, 1);
  ver_apart_check(4, 28, 0, -1, 0); /* two lanes can share a sector */
  ver_apart_check(4, 16, 0, -1, 0);
  ver_apart_check(4, 0, 0, -1, 0);  /* one element */
  ver_apart_check(4, 64, 2, -1, 0); /* not aligned to the size */
  ver_apart_check(4, 64, 0, 5, 0);  /* lane 5 elsewhere: not d * lane */
  ver_apart_check(4, 64, 0, 31, 0);
  ver_apart_check(4, (uint64_t)-64, 4096, -1, 0); /* falling: d < 0 */
}

int main(void) {
  test_ws_find();
  test_ws_outside();
  test_ws_touch();
  test_ws_mark();
  test_ws_batches();
  test_ws_compact();
  test_ws_buffer();
  test_ws_mark_range();
  test_ws_mark_loop();
  test_ws_lookup_warp();
  test_trace_sampling();
  test_trace_events();
  test_counts();
  test_grid_stride_runs();
  test_flush_bits();
  test_flush_half();
  test_flush_bit_lane();
  test_count_lanes();
  test_flush_indexed();
  test_flush_sparse();
  test_first_block_scale();
  test_div_global();
  test_div_shared();
  test_div_generic();
  test_div_fast_paths();
  test_div_data_dependent();
  test_div_rows();
  test_div_branches();
  test_div_branch_body();
  test_div_interval_body();
  test_div_interval_conflicts();
  test_div_branch_none();
  test_div_return();
  test_div_warp_add();
  test_div_branch_split();
  test_div_branch_launch();
  test_div_direct_add();
  test_div_count_launch();
  test_div_count_launch_warps();
  test_div_all_lanes();
  test_div_uniform();
  test_ver_trips();
  test_ver_lanes_apart();
  test_div_whole_at_once();
  test_div_mask_free();
  test_div_full_rows();
  test_div_stacked_width();
  test_div_access_lanes(0);
  test_div_access_lanes(1);
  test_div_wider_strides();
  test_div_strided_wavefronts();
  test_div_widths_as_before();
  test_div_row32();
  test_div_rows16();
  test_div_one_lane_a_row();
  test_div_rows16_walks();
  test_div_lone_lane();
  test_div_halo_gather();
  test_div_flush_lone();
  test_div_flush_lanes();
  test_div_flush_lanes_signed();
  test_div_flush_add32();
  test_div_lanes_trips();
  test_div_bins();
  test_div_select_lanes();
  test_div_clamp_lanes();
  test_div_stacked_conflicts();
  test_div_repeat_rows();
  test_div_apart_rows();
  test_div_batch();
  return check_summary("device_rt");
}
