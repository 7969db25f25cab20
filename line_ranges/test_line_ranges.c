/* Tests for line_ranges: one binary, a table of test functions. A failed
 * check prints the expression, both values and the line (tests/unit/
 * check.h); a check whose failure ends the test is written
 * `if (!CHECK_...(...)) return;`. All tests always run. */
#include "line_ranges.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---- Helpers ---------------------------------------------------------- */

#define US PASTA_LINE_UNKNOWN_START
#define UE PASTA_LINE_UNKNOWN_END

/* Compares a set with the expected intervals {lo0, hi0, lo1, hi1, ...}. */
static void expect_set(int line, const pasta_interval_set *s,
                       const uint32_t *want, size_t nwant) {
  if (!check_at(__FILE__, line, s->n == nwant, "interval count",
                "got %zu, want %zu", s->n, nwant))
    return;
  for (size_t i = 0; i < nwant; i++)
    check_at(__FILE__, line,
             s->v[i].lo == want[2 * i] && s->v[i].hi == want[2 * i + 1],
             "interval", "#%zu: got [%u,%u], want [%u,%u]", i, s->v[i].lo,
             s->v[i].hi, want[2 * i], want[2 * i + 1]);
}
#define CHECK_SET(s, ...)                                                      \
  do {                                                                         \
    const uint32_t want_[] = {__VA_ARGS__};                                    \
    expect_set(__LINE__, (s), want_, N_OF(want_) / 2);                         \
  } while (0)

/* Compares propagation results with the expected ones, per instruction. */
static void expect_lines(int line, size_t n, const uint32_t *start,
                         const uint32_t *end, const uint32_t *wstart,
                         const uint32_t *wend) {
  for (size_t i = 0; i < n; i++)
    check_at(__FILE__, line, start[i] == wstart[i] && end[i] == wend[i],
             "propagated range", "instruction %zu: got [%u,%u], want [%u,%u]",
             i, start[i], end[i], wstart[i], wend[i]);
}

/* Runs the propagation on a CFG given as arrays; checks it returns 0 and
 * that the result matches want_start / want_end. */
static void check_cfg(int line, size_t nb, const uint32_t *block_first,
                      const uint32_t *lines, const uint32_t *succ_first,
                      const uint32_t *succs, const uint32_t *want_start,
                      const uint32_t *want_end) {
  size_t n = block_first[nb];
  uint32_t start[64], end[64];
  if (!check_at(__FILE__, line, n <= N_OF(start), "test cfg size",
                "%zu instructions", n))
    return;
  pasta_cfg cfg = {nb, block_first, lines, succ_first, succs};
  int rc = pasta_propagate_lines(&cfg, start, end);
  if (!check_at(__FILE__, line, rc == 0, "pasta_propagate_lines(...) == 0",
                "returned %d", rc))
    return;
  expect_lines(line, n, start, end, want_start, want_end);
  /* The same with sources: the same ranges, each value's source an
   * instruction that has that line (itself when it has one). */
  uint32_t start2[64], end2[64], sfrom[64], efrom[64];
  rc = pasta_propagate_lines_from(&cfg, start2, end2, sfrom, efrom);
  if (!check_at(__FILE__, line, rc == 0, "pasta_propagate_lines_from(...) == 0",
                "returned %d", rc))
    return;
  expect_lines(line, n, start2, end2, want_start, want_end);
  for (size_t i = 0; i < n; i++) {
    uint32_t sf = sfrom[i], ef = efrom[i];
    check_at(__FILE__, line,
             sf == PASTA_LINE_NO_SOURCE
                 ? start2[i] == US
                 : sf < n && lines[sf] && lines[sf] == start2[i] &&
                       (!lines[i] || sf == i),
             "start source", "instruction %zu: start %u from %u", i, start2[i],
             sf);
    check_at(__FILE__, line,
             ef == PASTA_LINE_NO_SOURCE
                 ? end2[i] == UE
                 : ef < n && lines[ef] && lines[ef] == end2[i] &&
                       (!lines[i] || ef == i),
             "end source", "instruction %zu: end %u from %u", i, end2[i], ef);
  }
}
#define CHECK_CFG(bf, lines, sf, succs, ws, we)                                \
  check_cfg(__LINE__, N_OF(bf) - 1, bf, lines, sf, succs, ws, we)

/* Deterministic pseudo-random numbers (LCG), state passed explicitly. */
static uint32_t rnd(uint64_t *state, uint32_t bound) {
  *state = *state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)((*state >> 33) % bound);
}

/* ---- Interval sets ---------------------------------------------------- */

static void test_interval_sorted_insert(void) {
  pasta_interval_set s = {0};
  CHECK_EQ_INT(pasta_interval_set_add(&s, 50, 60), 0);
  CHECK_EQ_INT(pasta_interval_set_add(&s, 10, 20), 0);
  CHECK_EQ_INT(pasta_interval_set_add(&s, 30, 40), 0);
  CHECK_SET(&s, 10, 20, 30, 40, 50, 60);
  CHECK_EQ_INT(pasta_interval_set_add(&s, 35, 38), 0); /* inside [30,40] */
  CHECK_EQ_INT(pasta_interval_set_add(&s, 10, 20), 0); /* duplicate */
  CHECK_SET(&s, 10, 20, 30, 40, 50, 60);
  CHECK_EQ_INT(pasta_interval_set_add(&s, 1, 1), 0);   /* new first */
  CHECK_EQ_INT(pasta_interval_set_add(&s, 99, 99), 0); /* new last */
  CHECK_SET(&s, 1, 1, 10, 20, 30, 40, 50, 60, 99, 99);
  pasta_interval_set_free(&s);
}

static void test_interval_merge_overlap(void) {
  pasta_interval_set s = {0};
  pasta_interval_set_add(&s, 10, 20);
  pasta_interval_set_add(&s, 30, 40);
  pasta_interval_set_add(&s, 50, 60);
  CHECK_EQ_INT(pasta_interval_set_add(&s, 15, 35), 0); /* joins first two */
  CHECK_SET(&s, 10, 40, 50, 60);
  CHECK_EQ_INT(pasta_interval_set_add(&s, 55, 70), 0); /* extends last */
  CHECK_SET(&s, 10, 40, 50, 70);
  CHECK_EQ_INT(pasta_interval_set_add(&s, 5, 100), 0); /* swallows all */
  CHECK_SET(&s, 5, 100);
  pasta_interval_set_free(&s);
}

static void test_interval_merge_adjacent(void) {
  pasta_interval_set s = {0};
  pasta_interval_set_add(&s, 10, 20);
  CHECK_EQ_INT(pasta_interval_set_add(&s, 21, 25), 0); /* right neighbour */
  CHECK_SET(&s, 10, 25);
  CHECK_EQ_INT(pasta_interval_set_add(&s, 5, 9), 0); /* left neighbour */
  CHECK_SET(&s, 5, 25);
  CHECK_EQ_INT(pasta_interval_set_add(&s, 27, 30), 0); /* gap of one: 26 */
  CHECK_SET(&s, 5, 25, 27, 30);
  CHECK_EQ_INT(pasta_interval_set_add(&s, 26, 26), 0); /* bridges the gap */
  CHECK_SET(&s, 5, 30);
  pasta_interval_set_add(&s, 40, 50);
  pasta_interval_set_add(&s, 60, 70);
  pasta_interval_set_add(&s, 80, 90);
  CHECK_EQ_INT(pasta_interval_set_add(&s, 51, 79), 0); /* touches 3 */
  CHECK_SET(&s, 5, 30, 40, 90);
  pasta_interval_set_free(&s);
}

static void test_interval_bad_input(void) {
  pasta_interval_set s = {0};
  CHECK_EQ_INT(pasta_interval_set_add(&s, 5, 4), -1);
  CHECK_EQ_U64(s.n, 0);
  CHECK_EQ_INT(pasta_interval_set_add(NULL, 1, 2), -1);
  CHECK(!pasta_interval_set_overlaps(&s, 0, UINT32_MAX));
  CHECK(!pasta_interval_set_overlaps(NULL, 0, UINT32_MAX));
  CHECK(!pasta_interval_set_contains(NULL, 3));
  pasta_interval_set_add(&s, 10, 20);
  CHECK_EQ_INT(pasta_interval_set_add(&s, 30, 29), -1);
  CHECK_SET(&s, 10, 20);
  CHECK(!pasta_interval_set_overlaps(&s, 20, 10)); /* lo > hi */
  CHECK(!pasta_interval_set_overlaps(&s, US, UE)); /* unknown range */
  pasta_interval_set_free(&s);
  CHECK(s.v == NULL);
  CHECK_EQ_U64(s.n, 0);
  CHECK_EQ_U64(s.cap, 0);
  pasta_interval_set_free(&s); /* twice is fine */
  pasta_interval_set_free(NULL);
  CHECK_EQ_INT(pasta_interval_set_add(&s, 7, 8), 0); /* reusable */
  CHECK_SET(&s, 7, 8);
  pasta_interval_set_free(&s);
}

static void test_interval_extremes(void) {
  pasta_interval_set s = {0};
  pasta_interval_set_add(&s, UINT32_MAX, UINT32_MAX);
  pasta_interval_set_add(&s, 0, 0);
  CHECK_SET(&s, 0, 0, UINT32_MAX, UINT32_MAX);
  CHECK(pasta_interval_set_contains(&s, 0));
  CHECK(pasta_interval_set_contains(&s, UINT32_MAX));
  CHECK(!pasta_interval_set_contains(&s, 1));
  CHECK(!pasta_interval_set_contains(&s, UINT32_MAX - 1));
  CHECK(!pasta_interval_set_overlaps(&s, 1, UINT32_MAX - 1));
  /* [2, MAX-2] touches neither; [1, MAX-1] touches both ends. */
  pasta_interval_set_add(&s, 2, UINT32_MAX - 2);
  CHECK_SET(&s, 0, 0, 2, UINT32_MAX - 2, UINT32_MAX, UINT32_MAX);
  pasta_interval_set_add(&s, 1, 1);
  pasta_interval_set_add(&s, UINT32_MAX - 1, UINT32_MAX - 1);
  CHECK_SET(&s, 0, UINT32_MAX);
  pasta_interval_set_free(&s);
}

static void test_interval_binary_search_edges(void) {
  pasta_interval_set s = {0};
  for (uint32_t k = 1; k <= 9; k += 2) /* [10,20] [30,40] ... [90,100] */
    pasta_interval_set_add(&s, 10 * k, 10 * k + 10);
  CHECK_EQ_U64(s.n, 5);
  CHECK(!pasta_interval_set_overlaps(&s, 0, 9));
  CHECK(pasta_interval_set_overlaps(&s, 0, 10));
  CHECK(!pasta_interval_set_overlaps(&s, 21, 29));
  CHECK(pasta_interval_set_overlaps(&s, 20, 21));
  CHECK(pasta_interval_set_overlaps(&s, 29, 30));
  CHECK(!pasta_interval_set_overlaps(&s, 61, 69));
  CHECK(!pasta_interval_set_overlaps(&s, 81, 89));
  CHECK(pasta_interval_set_overlaps(&s, 55, 55));
  CHECK(pasta_interval_set_overlaps(&s, 21, 89)); /* spans gaps */
  CHECK(pasta_interval_set_overlaps(&s, 100, 200));
  CHECK(!pasta_interval_set_overlaps(&s, 101, UINT32_MAX));
  CHECK(pasta_interval_set_overlaps(&s, 0, UINT32_MAX));
  const uint32_t in[] = {10, 15, 20, 30, 40, 50, 60, 70, 80, 90, 100};
  const uint32_t out[] = {0, 9, 21, 29, 41, 49, 61, 69, 81, 89, 101};
  for (size_t i = 0; i < N_OF(in); i++)
    CHECK(pasta_interval_set_contains(&s, in[i]));
  for (size_t i = 0; i < N_OF(out); i++)
    CHECK(!pasta_interval_set_contains(&s, out[i]));
  pasta_interval_set_free(&s);

  pasta_interval_set one = {0};
  pasta_interval_set_add(&one, 5, 5);
  CHECK(!pasta_interval_set_contains(&one, 4));
  CHECK(pasta_interval_set_contains(&one, 5));
  CHECK(!pasta_interval_set_contains(&one, 6));
  CHECK(pasta_interval_set_overlaps(&one, 0, 5));
  CHECK(pasta_interval_set_overlaps(&one, 5, 9));
  CHECK(!pasta_interval_set_overlaps(&one, 6, 9));
  pasta_interval_set_free(&one);
}

/* Random adds compared with a bitmap of the lines added so far. */
static void test_interval_random_vs_bitmap(void) {
  enum { L = 200 };
  uint64_t seed = 12345;
  for (int round = 0; round < 50; round++) {
    unsigned char bit[L] = {0};
    pasta_interval_set s = {0};
    int adds = 1 + (int)rnd(&seed, 30);
    for (int a = 0; a < adds; a++) {
      uint32_t lo = rnd(&seed, L - 12), hi = lo + rnd(&seed, 10);
      if (!CHECK_EQ_INT(pasta_interval_set_add(&s, lo, hi), 0))
        return;
      for (uint32_t x = lo; x <= hi; x++)
        bit[x] = 1;
    }
    for (size_t i = 0; i < s.n; i++) {
      CHECK(s.v[i].lo <= s.v[i].hi);
      if (i + 1 < s.n)
        CHECK(s.v[i].hi + 1 < s.v[i + 1].lo); /* disjoint, merged */
    }
    for (uint32_t x = 0; x < L; x++)
      CHECK_EQ_U64(pasta_interval_set_contains(&s, x), bit[x]);
    for (int q = 0; q < 200; q++) {
      uint32_t lo = rnd(&seed, L), hi = lo + rnd(&seed, 20);
      bool want = false;
      for (uint32_t x = lo; x <= hi && x < L; x++)
        want = want || bit[x];
      CHECK_EQ_U64(pasta_interval_set_overlaps(&s, lo, hi), want);
    }
    pasta_interval_set_free(&s);
  }
}

/* ---- Line propagation -------------------------------------------------- */

/* The report's example: I5 line 20, I6 no line, I7 line 30. */
static void test_propagate_report_example(void) {
  const uint32_t bf[] = {0, 3}, lines[] = {20, 0, 30};
  const uint32_t sf[] = {0, 0};
  const uint32_t ws[] = {20, 20, 30}, we[] = {20, 30, 30};
  CHECK_CFG(bf, lines, sf, NULL, ws, we);
}

static void test_propagate_chain(void) {
  /* Three unlined between 10 and 20 all get [10,20]. */
  const uint32_t bf1[] = {0, 5}, lines1[] = {10, 0, 0, 0, 20};
  const uint32_t sf1[] = {0, 0};
  const uint32_t ws1[] = {10, 10, 10, 10, 20}, we1[] = {10, 20, 20, 20, 20};
  CHECK_CFG(bf1, lines1, sf1, NULL, ws1, we1);

  /* Unlined at the function's edges: nothing before / after them. */
  const uint32_t lines2[] = {0, 0, 7, 0, 0};
  const uint32_t ws2[] = {US, US, 7, 7, 7}, we2[] = {7, 7, 7, UE, UE};
  CHECK_CFG(bf1, lines2, sf1, NULL, ws2, we2);

  /* Chain across blocks: B0{12,-} -> B1{-} -> B2{-,-} -> B3{18}. */
  const uint32_t bf3[] = {0, 2, 3, 5, 6}, lines3[] = {12, 0, 0, 0, 0, 18};
  const uint32_t sf3[] = {0, 1, 2, 3, 3}, succs3[] = {1, 2, 3};
  const uint32_t ws3[] = {12, 12, 12, 12, 12, 18};
  const uint32_t we3[] = {12, 18, 18, 18, 18, 18};
  CHECK_CFG(bf3, lines3, sf3, succs3, ws3, we3);
}

static void test_propagate_diamond(void) {
  /* B0{10,11} -> B1{20,25}, B2{15,30}; both -> B3{-,-} -> B4{50,5}.
   * B3's start is the min of the arms' terminators (25, 30), not of the
   * arms' lines (15); its end is B4's first instruction (50), not 5. */
  const uint32_t bf[] = {0, 2, 4, 6, 8, 10};
  const uint32_t lines[] = {10, 11, 20, 25, 15, 30, 0, 0, 50, 5};
  const uint32_t sf[] = {0, 2, 3, 4, 5, 5}, succs[] = {1, 2, 3, 3, 4};
  const uint32_t ws[] = {10, 11, 20, 25, 15, 30, 25, 25, 50, 5};
  const uint32_t we[] = {10, 11, 20, 25, 15, 30, 50, 50, 50, 5};
  CHECK_CFG(bf, lines, sf, succs, ws, we);
}

/* Where a propagated line came from: B3's start is the first arm's last
 * instruction (#3, line 25), its end B4's first (#8, line 50); the first
 * found wins among predecessors with the same line. */
static void test_propagate_sources(void) {
  const uint32_t bf[] = {0, 2, 4, 6, 8, 10};
  const uint32_t lines[] = {10, 11, 20, 25, 15, 30, 0, 0, 50, 5};
  const uint32_t sf[] = {0, 2, 3, 4, 5, 5}, succs[] = {1, 2, 3, 3, 4};
  pasta_cfg cfg = {5, bf, lines, sf, succs};
  uint32_t start[10], end[10], from_s[10], from_e[10];
  CHECK_EQ_INT(pasta_propagate_lines_from(&cfg, start, end, from_s, from_e), 0);
  CHECK_EQ_INT(from_s[6], 3);
  CHECK_EQ_INT(from_s[7], 3);
  CHECK_EQ_INT(from_e[6], 8);
  CHECK_EQ_INT(from_e[7], 8);
  CHECK_EQ_INT(from_s[4], 4);
  /* Equal lines in both arms: the first predecessor's. */
  const uint32_t lines2[] = {10, 11, 20, 30, 15, 30, 0, 0, 50, 5};
  cfg.lines = lines2;
  CHECK_EQ_INT(pasta_propagate_lines_from(&cfg, start, end, from_s, NULL), 0);
  CHECK_EQ_INT(start[6], 30);
  CHECK_EQ_INT(from_s[6], 3);
  /* Nothing before: no source. */
  const uint32_t bf3[] = {0, 3}, lines3[] = {0, 7, 0}, sf3[] = {0, 0};
  pasta_cfg one = {1, bf3, lines3, sf3, NULL};
  CHECK_EQ_INT(pasta_propagate_lines_from(&one, start, end, from_s, from_e), 0);
  CHECK_EQ_INT(from_s[0], PASTA_LINE_NO_SOURCE);
  CHECK_EQ_INT(from_e[0], 1);
  CHECK_EQ_INT(from_s[2], 1);
  CHECK_EQ_INT(from_e[2], PASTA_LINE_NO_SOURCE);
}

static void test_propagate_loop(void) {
  /* B0{50} -> B1{-} -> B2{-,10,-} -> B1 (back edge), B3{60}.
   * Header start: min(50 from B0, 10 from the latch's last instruction,
   * which inherits 10) = 10. Latch end: max(header's end 10, 60) = 60. */
  const uint32_t bf[] = {0, 1, 2, 5, 6}, lines[] = {50, 0, 0, 10, 0, 60};
  const uint32_t sf[] = {0, 1, 2, 4, 4}, succs[] = {1, 2, 1, 3};
  const uint32_t ws[] = {50, 10, 10, 10, 10, 60};
  const uint32_t we[] = {50, 10, 10, 10, 60, 60};
  CHECK_CFG(bf, lines, sf, succs, ws, we);

  /* Whole loop unlined: B0{50} -> B1{-} -> B2{-} -> B1, B3{60}. */
  const uint32_t bf2[] = {0, 1, 2, 3, 4}, lines2[] = {50, 0, 0, 60};
  const uint32_t ws2[] = {50, 50, 50, 60}, we2[] = {50, 60, 60, 60};
  CHECK_CFG(bf2, lines2, sf, succs, ws2, we2);

  /* The latch's end comes back over the back edge from the header's
   * later instruction: B0{50} -> B1{-,80} -> B2{-} -> B1, B3{60}. */
  const uint32_t bf4[] = {0, 1, 3, 4, 5}, lines4[] = {50, 0, 80, 0, 60};
  const uint32_t ws4[] = {50, 50, 80, 80, 60}, we4[] = {50, 80, 80, 80, 60};
  CHECK_CFG(bf4, lines4, sf, succs, ws4, we4);

  /* Self loop at the entry: B0{-} -> B0, B1{7}. */
  const uint32_t bf3[] = {0, 1, 2}, lines3[] = {0, 7};
  const uint32_t sf3[] = {0, 2, 2}, succs3[] = {0, 1};
  const uint32_t ws3[] = {US, 7}, we3[] = {7, 7};
  CHECK_CFG(bf3, lines3, sf3, succs3, ws3, we3);
}

static void test_propagate_unreachable_block(void) {
  /* B0{7} -> B2; B1{-,-} (no predecessors) -> B2; B2{30,-}. */
  const uint32_t bf[] = {0, 1, 3, 5}, lines[] = {7, 0, 0, 30, 0};
  const uint32_t sf[] = {0, 1, 2, 2}, succs[] = {2, 2};
  const uint32_t ws[] = {7, US, US, 30, 30}, we[] = {7, 30, 30, 30, UE};
  CHECK_CFG(bf, lines, sf, succs, ws, we);
}

static void test_propagate_empty_function(void) {
  const uint32_t bf0[] = {0};
  uint32_t start[2] = {111, 111}, end[2] = {222, 222};
  pasta_cfg cfg = {0, bf0, NULL, NULL, NULL};
  CHECK_EQ_INT(pasta_propagate_lines(&cfg, start, end), 0);
  CHECK_EQ_U64(start[0], 111); /* nothing written */
  CHECK_EQ_U64(end[0], 222);
  pasta_cfg none = {0, NULL, NULL, NULL, NULL};
  CHECK_EQ_INT(pasta_propagate_lines(&none, NULL, NULL), 0);

  /* One block with no instruction: nothing to compute or write. */
  const uint32_t bf1[] = {0, 0}, sf1[] = {0, 0};
  pasta_cfg one = {1, bf1, NULL, sf1, NULL};
  CHECK_EQ_INT(pasta_propagate_lines(&one, NULL, NULL), 0);
}

static void test_propagate_empty_blocks(void) {
  /* B0{10} -> B1{} -> B1 (self loop), B2{-} -> B3{} -> B4{40}. */
  const uint32_t bf[] = {0, 1, 1, 2, 2, 3}, lines[] = {10, 0, 40};
  const uint32_t sf[] = {0, 1, 3, 4, 5, 5}, succs[] = {1, 1, 2, 3, 4};
  const uint32_t ws[] = {10, 10, 40}, we[] = {10, 40, 40};
  CHECK_CFG(bf, lines, sf, succs, ws, we);

  /* Empty arm: B0{10} -> B1{}, B2{20}; both -> B3{-} -> B4{30}.
   * B3 start = min(10 through B1, 20) = 10. */
  const uint32_t bf2[] = {0, 1, 1, 2, 3, 4}, lines2[] = {10, 20, 0, 30};
  const uint32_t sf2[] = {0, 2, 3, 4, 5, 5}, succs2[] = {1, 2, 3, 3, 4};
  const uint32_t ws2[] = {10, 20, 10, 30}, we2[] = {10, 20, 30, 30};
  CHECK_CFG(bf2, lines2, sf2, succs2, ws2, we2);

  /* An empty block is not its index neighbour: B0{-} -> B1{} -> B3{40};
   * B2{99} sits between them in numbering but is not connected. */
  const uint32_t bf4[] = {0, 1, 1, 2, 3}, lines4[] = {0, 99, 40};
  const uint32_t sf4[] = {0, 1, 2, 2, 2}, succs4[] = {1, 3};
  const uint32_t ws4[] = {US, 99, 40}, we4[] = {40, 99, 40};
  CHECK_CFG(bf4, lines4, sf4, succs4, ws4, we4);

  /* Empty entry block: B0{} -> B1{-,9}; nothing precedes B1. */
  const uint32_t bf3[] = {0, 0, 2}, lines3[] = {0, 9};
  const uint32_t sf3[] = {0, 1, 1}, succs3[] = {1};
  const uint32_t ws3[] = {US, 9}, we3[] = {9, 9};
  CHECK_CFG(bf3, lines3, sf3, succs3, ws3, we3);
}

static void test_propagate_malformed(void) {
  /* Valid base: B0{5,-} -> B1{-}. */
  const uint32_t bf[] = {0, 2, 3}, lines[] = {5, 0, 0};
  const uint32_t sf[] = {0, 1, 1}, succs[] = {1};
  uint32_t start[3] = {1, 1, 1}, end[3] = {2, 2, 2};
  pasta_cfg ok = {2, bf, lines, sf, succs};
  pasta_cfg c;

  const uint32_t bf_nonmono[] = {0, 3, 2};
  c = ok, c.block_first = bf_nonmono;
  CHECK_EQ_INT(pasta_propagate_lines(&c, start, end), -1);
  const uint32_t bf_nonzero[] = {1, 2, 3};
  c = ok, c.block_first = bf_nonzero;
  CHECK_EQ_INT(pasta_propagate_lines(&c, start, end), -1);
  const uint32_t sf_nonmono[] = {0, 1, 0};
  c = ok, c.succ_first = sf_nonmono;
  CHECK_EQ_INT(pasta_propagate_lines(&c, start, end), -1);
  const uint32_t succs_far[] = {2}; /* only blocks 0 and 1 exist */
  c = ok, c.succs = succs_far;
  CHECK_EQ_INT(pasta_propagate_lines(&c, start, end), -1);
  c = ok, c.succs = NULL;
  CHECK_EQ_INT(pasta_propagate_lines(&c, start, end), -1);
  c = ok, c.lines = NULL;
  CHECK_EQ_INT(pasta_propagate_lines(&c, start, end), -1);
  c = ok, c.block_first = NULL;
  CHECK_EQ_INT(pasta_propagate_lines(&c, start, end), -1);
  c = ok, c.succ_first = NULL;
  CHECK_EQ_INT(pasta_propagate_lines(&c, start, end), -1);
  c = ok, c.num_blocks = SIZE_MAX;
  CHECK_EQ_INT(pasta_propagate_lines(&c, start, end), -1);
  CHECK_EQ_INT(pasta_propagate_lines(&ok, NULL, end), -1);
  CHECK_EQ_INT(pasta_propagate_lines(&ok, start, NULL), -1);
  CHECK_EQ_INT(pasta_propagate_lines(NULL, start, end), -1);
  const uint32_t bf_lone[] = {2}; /* 0 blocks but 2 instructions */
  pasta_cfg lone = {0, bf_lone, lines, NULL, NULL};
  CHECK_EQ_INT(pasta_propagate_lines(&lone, start, end), -1);
  for (int i = 0; i < 3; i++) { /* rejected calls wrote nothing */
    CHECK_EQ_U64(start[i], 1);
    CHECK_EQ_U64(end[i], 2);
  }
  /* The base itself is fine. */
  CHECK_EQ_INT(pasta_propagate_lines(&ok, start, end), 0);
  const uint32_t ws[] = {5, 5, 5}, we[] = {5, UE, UE};
  expect_lines(__LINE__, 3, start, end, ws, we);
}

/* Reference model: start of an unlined instruction = min line of the lined
 * instructions from which it is reachable through unlined ones only; end =
 * max line of the lined instructions reachable from it that way. Computed
 * by plain graph search over instruction successors (empty blocks are
 * walked through), independently of the worklist. */
typedef struct rcfg {
  size_t nb, ni;
  uint32_t bf[10], lines[40], sf[10], succs[40];
} rcfg;

/* Appends the instructions that follow the end of block b to out. */
static void ref_block_succs(const rcfg *g, size_t b, unsigned char *seen,
                            size_t *out, size_t *nout) {
  for (uint32_t k = g->sf[b]; k < g->sf[b + 1]; k++) {
    uint32_t s = g->succs[k];
    if (g->bf[s] < g->bf[s + 1]) {
      out[(*nout)++] = g->bf[s];
    } else if (!seen[s]) {
      seen[s] = 1;
      ref_block_succs(g, s, seen, out, nout);
    }
  }
}

static size_t ref_succs(const rcfg *g, size_t i, size_t *out) {
  size_t b = 0, n = 0;
  while (!(g->bf[b] <= i && i < g->bf[b + 1]))
    b++;
  if (i + 1 < g->bf[b + 1]) {
    out[n++] = i + 1;
  } else {
    unsigned char seen[10] = {0};
    ref_block_succs(g, b, seen, out, &n);
  }
  return n;
}

/* Marks in `reach` the instructions reachable from i through unlined ones
 * (lined ones are reached but not passed). */
static void ref_reach(const rcfg *g, size_t i, unsigned char *reach) {
  size_t stack[400], sp = 0, succ[400];
  stack[sp++] = i;
  while (sp) {
    size_t x = stack[--sp];
    size_t n = ref_succs(g, x, succ);
    for (size_t k = 0; k < n; k++)
      if (!reach[succ[k]]) {
        reach[succ[k]] = 1;
        if (g->lines[succ[k]] == 0)
          stack[sp++] = succ[k];
      }
  }
}

static void test_propagate_random_vs_reference(void) {
  uint64_t seed = 777;
  for (int round = 0; round < 300; round++) {
    rcfg g;
    memset(&g, 0, sizeof(g));
    g.nb = 1 + rnd(&seed, 8);
    for (size_t b = 0; b < g.nb; b++) {
      g.bf[b + 1] = g.bf[b] + rnd(&seed, 5); /* 0..4 instructions */
      g.sf[b + 1] = g.sf[b];
      for (uint32_t k = rnd(&seed, 4); k > 0; k--)
        g.succs[g.sf[b + 1]++] = rnd(&seed, (uint32_t)g.nb);
    }
    g.ni = g.bf[g.nb];
    for (size_t i = 0; i < g.ni; i++)
      g.lines[i] = rnd(&seed, 2) ? 1 + rnd(&seed, 100) : 0;

    uint32_t ws[40], we[40], start[40], end[40];
    for (size_t i = 0; i < g.ni; i++) {
      ws[i] = g.lines[i] ? g.lines[i] : US;
      we[i] = g.lines[i] ? g.lines[i] : UE;
    }
    for (size_t i = 0; i < g.ni; i++) {
      unsigned char reach[40] = {0};
      ref_reach(&g, i, reach);
      for (size_t j = 0; j < g.ni; j++) {
        if (!reach[j])
          continue;
        if (g.lines[i] && !g.lines[j] && g.lines[i] < ws[j])
          ws[j] = g.lines[i];
        if (!g.lines[i] && g.lines[j] && g.lines[j] > we[i])
          we[i] = g.lines[j];
      }
    }
    pasta_cfg cfg = {g.nb, g.bf, g.lines, g.sf, g.succs};
    if (!CHECK_EQ_INT(pasta_propagate_lines(&cfg, start, end), 0))
      return;
    int before = check_failures();
    expect_lines(__LINE__, g.ni, start, end, ws, we);
    if (check_failures() != before) {
      fprintf(stderr, "    (random round %d, %zu blocks)\n", round, g.nb);
      return;
    }
  }
}

/* ---- Range specifications ---------------------------------------------- */

static void test_parse_examples(void) {
  pasta_range_spec spec;
  char err[256];
  if (!CHECK_EQ_INT(pasta_range_spec_parse("axpy.cu:41-60;bicg.cu:113-115,120",
                                           &spec, err, sizeof err),
                    0))
    return;
  if (!CHECK_EQ_U64(spec.n, 2))
    return;
  CHECK_EQ_STR(spec.entries[0].file, "axpy.cu");
  CHECK_SET(&spec.entries[0].lines, 41, 60);
  CHECK_EQ_U64(spec.entries[0].matched, 0);
  CHECK_EQ_STR(spec.entries[1].file, "bicg.cu");
  CHECK_SET(&spec.entries[1].lines, 113, 115, 120, 120);
  CHECK_EQ_U64(spec.entries[1].matched, 0);
  pasta_range_spec_free(&spec);
  CHECK(spec.entries == NULL);
  CHECK_EQ_U64(spec.n, 0);

  if (!CHECK_EQ_INT(pasta_range_spec_parse("42-80", &spec, err, sizeof err), 0))
    return;
  if (!CHECK_EQ_U64(spec.n, 1))
    return;
  CHECK(spec.entries[0].file == NULL);
  CHECK_SET(&spec.entries[0].lines, 42, 80);
  pasta_range_spec_free(&spec);

  if (!CHECK_EQ_INT(
          pasta_range_spec_parse("src/k.cu:7", &spec, err, sizeof err), 0))
    return;
  if (!CHECK_EQ_U64(spec.n, 1))
    return;
  CHECK_EQ_STR(spec.entries[0].file, "src/k.cu");
  CHECK_SET(&spec.entries[0].lines, 7, 7);
  pasta_range_spec_free(&spec);

  if (!CHECK_EQ_INT(pasta_range_spec_parse("k.cu:1-4294967295,007", &spec, err,
                                           sizeof err),
                    0))
    return;
  if (!CHECK_EQ_U64(spec.n, 1))
    return;
  CHECK_SET(&spec.entries[0].lines, 1, UINT32_MAX);
  pasta_range_spec_free(&spec);
  pasta_range_spec_free(NULL);
}

static void test_parse_whitespace_and_empty_entries(void) {
  pasta_range_spec spec;
  char err[256];
  if (!CHECK_EQ_INT(pasta_range_spec_parse(" ; axpy.cu : 41 - 60 , 70 ;;\t5\n;",
                                           &spec, err, sizeof err),
                    0))
    return;
  if (!CHECK_EQ_U64(spec.n, 2))
    return;
  CHECK_EQ_STR(spec.entries[0].file, "axpy.cu");
  CHECK_SET(&spec.entries[0].lines, 41, 60, 70, 70);
  CHECK(spec.entries[1].file == NULL);
  CHECK_SET(&spec.entries[1].lines, 5, 5);
  pasta_range_spec_free(&spec);

  /* Overlapping and adjacent ranges of one entry are merged. */
  if (!CHECK_EQ_INT(
          pasta_range_spec_parse("a.cu:3-9,1-5,10,12", &spec, err, sizeof err),
          0))
    return;
  if (!CHECK_EQ_U64(spec.n, 1))
    return;
  CHECK_SET(&spec.entries[0].lines, 1, 10, 12, 12);
  pasta_range_spec_free(&spec);
}

static void test_parse_file_with_colon(void) {
  pasta_range_spec spec;
  char err[256];
  if (!CHECK_EQ_INT(pasta_range_spec_parse("C:/src/k.cu:7;a:b.cu:1-2", &spec,
                                           err, sizeof err),
                    0))
    return;
  if (!CHECK_EQ_U64(spec.n, 2))
    return;
  CHECK_EQ_STR(spec.entries[0].file, "C:/src/k.cu");
  CHECK_SET(&spec.entries[0].lines, 7, 7);
  CHECK_EQ_STR(spec.entries[1].file, "a:b.cu");
  CHECK_SET(&spec.entries[1].lines, 1, 2);
  pasta_range_spec_free(&spec);

  /* The last ':' separates, even when what precedes looks like ranges. */
  if (!CHECK_EQ_INT(pasta_range_spec_parse("k.cu:1:2", &spec, err, sizeof err),
                    0))
    return;
  if (!CHECK_EQ_U64(spec.n, 1))
    return;
  CHECK_EQ_STR(spec.entries[0].file, "k.cu:1");
  CHECK_SET(&spec.entries[0].lines, 2, 2);
  pasta_range_spec_free(&spec);

  /* After the last ':' there must be valid ranges. */
  CHECK_EQ_INT(pasta_range_spec_parse("k.cu:7:x", &spec, err, sizeof err), -1);
  CHECK_HAS_STR(err, "'x'");
}

/* Parses text expecting failure; checks the message names each needle. */
static void expect_parse_error(int line, const char *text, const char *needle1,
                               const char *needle2) {
  pasta_range_spec spec = {(pasta_range_entry *)&spec, 99};
  char err[512];
  memset(err, 'Z', sizeof err);
  int rc = pasta_range_spec_parse(text, &spec, err, sizeof err);
  check_at(__FILE__, line, rc == -1, "parse fails", "\"%s\" returned %d", text,
           rc);
  check_at(__FILE__, line, spec.entries == NULL && spec.n == 0,
           "spec left empty", "\"%s\": n = %zu", text, spec.n);
  if (rc == 0)
    pasta_range_spec_free(&spec);
  if (!check_at(__FILE__, line, memchr(err, '\0', sizeof err) != NULL,
                "message terminated", "\"%s\"", text))
    return;
  check_at(__FILE__, line, !strchr(err, '\n'), "message is one line", "\"%s\"",
           err);
  check_at(__FILE__, line, strstr(err, needle1) != NULL,
           "message names the bad part", "\"%s\" lacks \"%s\"", err, needle1);
  if (needle2)
    check_at(__FILE__, line, strstr(err, needle2) != NULL,
             "message says what is wrong", "\"%s\" lacks \"%s\"", err, needle2);
}
#define CHECK_PARSE_ERROR(text, n1, n2)                                        \
  expect_parse_error(__LINE__, text, n1, n2)

#define EXPECTED_TAIL "(expected FILE:N[-M][,N[-M]...])"

static void test_parse_error_empty_ranges(void) {
  CHECK_PARSE_ERROR("axpy.cu:", "'axpy.cu:'", EXPECTED_TAIL);
  CHECK_PARSE_ERROR("a.cu:1;axpy.cu: \t", "'axpy.cu:", "nothing follows");
  CHECK_PARSE_ERROR("axpy.cu:1,,2", "'axpy.cu:1,,2'", "empty range");
  CHECK_PARSE_ERROR("axpy.cu:5,", "'axpy.cu:5,'", "empty range");
  CHECK_PARSE_ERROR(":10", "':10'", "empty file name");
}

static void test_parse_error_not_a_number(void) {
  CHECK_PARSE_ERROR("axpy.cu:4x", "bad range '4x'", "'4x' is not a decimal");
  CHECK_PARSE_ERROR("axpy.cu:4x", "entry 'axpy.cu:4x'", EXPECTED_TAIL);
  CHECK_PARSE_ERROR("a.cu:1,x-5", "'x-5'", "'x' is not");
  CHECK_PARSE_ERROR("a.cu:-5", "'-5'", "start of the range is missing");
  CHECK_PARSE_ERROR("a.cu:5-", "'5-'", "end of the range is missing");
  CHECK_PARSE_ERROR("a.cu:1-2-3", "'1-2-3'", "'2-3' is not");
  CHECK_PARSE_ERROR("a.cu:+5", "'+5'", "not a decimal");
  CHECK_PARSE_ERROR("a.cu:0x10", "'0x10'", "not a decimal");
  CHECK_PARSE_ERROR("a.cu:1 2", "'1 2'", "not a decimal");
  CHECK_PARSE_ERROR("axpy.cu", "'axpy.cu'", "followed by ':'");
}

static void test_parse_error_zero(void) {
  CHECK_PARSE_ERROR("a.cu:0", "bad range '0'", "start at 1");
  CHECK_PARSE_ERROR("a.cu:0-5", "bad range '0-5'", "start at 1");
  CHECK_PARSE_ERROR("0", "bad range '0' in PASTA_LINES entry '0'", NULL);
}

static void test_parse_error_reversed(void) {
  pasta_range_spec spec;
  char err[256];
  CHECK_EQ_INT(pasta_range_spec_parse("axpy.cu:60-41", &spec, err, sizeof err),
               -1);
  CHECK_EQ_STR(err, "bad range '60-41' in PASTA_LINES entry 'axpy.cu:60-41': "
                    "the start must not exceed the end (expected "
                    "FILE:N[-M][,N[-M]...])");
  CHECK_PARSE_ERROR("b.cu:1;a.cu:5-5,9-8", "'9-8'", "must not exceed");
}

static void test_parse_error_overflow(void) {
  CHECK_PARSE_ERROR("a.cu:4294967296", "'4294967296'", "4294967295");
  CHECK_PARSE_ERROR("a.cu:1-99999999999999999999999",
                    "'1-99999999999999999999999'", "exceeds");
  CHECK_PARSE_ERROR("a.cu:18446744073709551617", "exceeds", NULL);
}

static void test_parse_error_empty_spec(void) {
  CHECK_PARSE_ERROR("", "PASTA_LINES is empty", NULL);
  CHECK_PARSE_ERROR(";", "PASTA_LINES is empty", NULL);
  CHECK_PARSE_ERROR(" ; ;\t\n", "PASTA_LINES is empty", NULL);
  CHECK_PARSE_ERROR(NULL, "PASTA_LINES is empty", NULL);
}

static void test_parse_error_cleanup_and_buffers(void) {
  /* Fails on the third entry: the first two are freed (ASan checks). */
  CHECK_PARSE_ERROR("a.cu:1;b.cu:2-3,5;c.cu:x", "'c.cu:x'", NULL);
  /* Control characters in the quoted text keep the message on one line. */
  CHECK_PARSE_ERROR("a.cu:1\nx", "'1?x'", NULL);
  /* Long entries are shortened. */
  char long_text[400];
  memset(long_text, 'f', sizeof long_text);
  memcpy(long_text + sizeof long_text - 4, ":0x", 4);
  CHECK_PARSE_ERROR(long_text, "...'", "not a decimal");

  pasta_range_spec spec;
  char small[8];
  CHECK_EQ_INT(pasta_range_spec_parse("a.cu:0", &spec, small, sizeof small),
               -1);
  CHECK_EQ_U64(strlen(small), sizeof small - 1); /* truncated, terminated */
  CHECK(strncmp(small, "bad ran", 7) == 0);
  CHECK_EQ_INT(pasta_range_spec_parse("a.cu:0", &spec, NULL, 0), -1);
  CHECK(spec.entries == NULL);
  char err[64] = "untouched";
  CHECK_EQ_INT(pasta_range_spec_parse("a.cu:1", NULL, err, sizeof err), -1);
  CHECK(strcmp(err, "untouched") != 0); /* says why */
  err[0] = 'X';
  CHECK_EQ_INT(pasta_range_spec_parse("a.cu:1", &spec, err, sizeof err), 0);
  CHECK_EQ_STR(err, ""); /* cleared on success */
  pasta_range_spec_free(&spec);
}

static void test_file_matches(void) {
  CHECK(pasta_range_spec_file_matches(NULL, "/x/k.cu"));
  CHECK(pasta_range_spec_file_matches(NULL, NULL));
  CHECK(!pasta_range_spec_file_matches("k.cu", NULL));
  /* No '/': base name equality. */
  CHECK(pasta_range_spec_file_matches("k.cu", "/home/u/src/k.cu"));
  CHECK(pasta_range_spec_file_matches("k.cu", "k.cu"));
  CHECK(!pasta_range_spec_file_matches("k.cu", "/home/u/ak.cu"));
  CHECK(!pasta_range_spec_file_matches("k.cu", "ak.cu"));
  CHECK(!pasta_range_spec_file_matches("k.cu", "/x/k.cu.bak"));
  CHECK(!pasta_range_spec_file_matches("k.cu", "/x/k.cu/"));
  CHECK(!pasta_range_spec_file_matches("k.cu", "/x/k.c"));
  /* With '/': whole-component suffix. */
  CHECK(pasta_range_spec_file_matches("src/k.cu", "/home/u/src/k.cu"));
  CHECK(pasta_range_spec_file_matches("src/k.cu", "src/k.cu"));
  CHECK(!pasta_range_spec_file_matches("src/k.cu", "/home/u/xsrc/k.cu"));
  CHECK(!pasta_range_spec_file_matches("src/k.cu", "xsrc/k.cu"));
  CHECK(!pasta_range_spec_file_matches("src/k.cu", "/home/u/k.cu"));
  CHECK(!pasta_range_spec_file_matches("src/k.cu", "k.cu"));
  CHECK(!pasta_range_spec_file_matches("src/k.cu", "/u/src/k.cu2"));
  CHECK(pasta_range_spec_file_matches("/abs/k.cu", "/abs/k.cu"));
  CHECK(!pasta_range_spec_file_matches("/abs/k.cu", "/x/abs/k.cu"));
}

static void test_select(void) {
  pasta_range_spec spec;
  char err[256];
  if (!CHECK_EQ_INT(pasta_range_spec_parse("axpy.cu:41-60;bicg.cu:113-115,120;"
                                           "axpy.cu:50-70;100-110",
                                           &spec, err, sizeof err),
                    0))
    return;
  if (!CHECK_EQ_U64(spec.n, 4))
    return;
  CHECK_EQ_INT(pasta_range_spec_select(&spec, "/p/axpy.cu", 55, 55), 0);
  CHECK_EQ_INT(pasta_range_spec_select(&spec, "/p/axpy.cu", 30, 41), 0);
  /* [61,80] misses entry 0 but overlaps entry 2. */
  CHECK_EQ_INT(pasta_range_spec_select(&spec, "/p/axpy.cu", 61, 80), 2);
  CHECK_EQ_INT(pasta_range_spec_select(&spec, "/p/bicg.cu", 116, 119), -1);
  CHECK_EQ_INT(pasta_range_spec_select(&spec, "/p/bicg.cu", 119, 121), 1);
  CHECK_EQ_INT(pasta_range_spec_select(&spec, "/p/bicg.cu", 50, 55), -1);
  /* The any-file entry. */
  CHECK_EQ_INT(pasta_range_spec_select(&spec, "/p/other.cu", 105, 105), 3);
  CHECK_EQ_INT(pasta_range_spec_select(&spec, "/p/axpy.cu", 100, 100), 3);
  CHECK_EQ_INT(pasta_range_spec_select(&spec, "/p/other.cu", 1, 99), -1);
  CHECK_EQ_INT(pasta_range_spec_select(&spec, "/p/xaxpy.cu", 55, 55), -1);
  /* An unknown range [UINT32_MAX, 0] selects nothing. */
  CHECK_EQ_INT(pasta_range_spec_select(&spec, "/p/axpy.cu", US, UE), -1);
  CHECK_EQ_U64(spec.entries[0].matched, 2);
  CHECK_EQ_U64(spec.entries[1].matched, 1);
  CHECK_EQ_U64(spec.entries[2].matched, 1);
  CHECK_EQ_U64(spec.entries[3].matched, 2);
  CHECK_EQ_INT(pasta_range_spec_select(NULL, "/p/axpy.cu", 55, 55), -1);
  pasta_range_spec_free(&spec);
}

/* ---- Runner ------------------------------------------------------------- */

typedef struct test_case {
  const char *name;
  void (*fn)(void);
} test_case;

#define TEST(f) {#f, f}
static const test_case tests[] = {
    TEST(test_interval_sorted_insert),
    TEST(test_interval_merge_overlap),
    TEST(test_interval_merge_adjacent),
    TEST(test_interval_bad_input),
    TEST(test_interval_extremes),
    TEST(test_interval_binary_search_edges),
    TEST(test_interval_random_vs_bitmap),
    TEST(test_propagate_report_example),
    TEST(test_propagate_chain),
    TEST(test_propagate_diamond),
    TEST(test_propagate_sources),
    TEST(test_propagate_loop),
    TEST(test_propagate_unreachable_block),
    TEST(test_propagate_empty_function),
    TEST(test_propagate_empty_blocks),
    TEST(test_propagate_malformed),
    TEST(test_propagate_random_vs_reference),
    TEST(test_parse_examples),
    TEST(test_parse_whitespace_and_empty_entries),
    TEST(test_parse_file_with_colon),
    TEST(test_parse_error_empty_ranges),
    TEST(test_parse_error_not_a_number),
    TEST(test_parse_error_zero),
    TEST(test_parse_error_reversed),
    TEST(test_parse_error_overflow),
    TEST(test_parse_error_empty_spec),
    TEST(test_parse_error_cleanup_and_buffers),
    TEST(test_file_matches),
    TEST(test_select),
};

int main(void) {
  for (size_t i = 0; i < N_OF(tests); i++) {
    tests[i].fn();
    check_case_end(tests[i].name);
  }
  return check_summary("line_ranges");
}
