/*===- test_device_rt.c - The device runtime's logic, run on the CPU ------===*
 *
 * device_rt.c compiled for the host (host_gpu_shim.h: one thread at a time,
 * in a warp of one lane) so that what does not depend on the GPU is tested
 * everywhere, the AMD paths included: the working-set table search (linear
 * and binary), the outside-access counter, the trace events (sampling,
 * de-duplication, record claiming, drops), the 64-bit warp ids, the launch
 * count and the counter flush. Every expected value is derived in the
 * comments.
 *===----------------------------------------------------------------------===*/
#define PASTA_DEVICE_RT_HOST_TEST 1
#include "device_rt.c"

#include <stdio.h>
#include <string.h>

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
  /* Counted every time; the first site (+ 1) is kept. */
  uint64_t outside[2] = {0, 0};
  pasta_ws_outside(outside, 7);
  pasta_ws_outside(outside, 9);
  CHECK(outside[0] == 2 && outside[1] == 8);
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
  __pasta_count_launch(&launches);
  place(0, 2, 1, 32);
  __pasta_count_launch(&launches);
  place(1, 2, 0, 32);
  __pasta_count_launch(&launches);
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

int main(void) {
  test_ws_find();
  test_ws_outside();
  test_trace_sampling();
  test_trace_events();
  test_counts();
  return check_summary("device_rt");
}
