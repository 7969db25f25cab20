/* A function with more counters than are flushed inline (20 tested bits,
 * each its own block): its returns flush them through __pasta_host_flush;
 * at -O0 straight from its thread-local counts.
 *   wide(x) for x = 0..1023: calls 1024; its multiplies run once per set
 *   bit of x (bits 0-9 only): 10 * 512 = 5120 f64 FLOPs.
 *   main: calls 1. */
#include <stdio.h>

static volatile double s;

__attribute__((noinline)) unsigned wide(unsigned x) {
  if (x & (1u << 0))
    s = s * 1.5;
  if (x & (1u << 1))
    s = s * 1.5;
  if (x & (1u << 2))
    s = s * 1.5;
  if (x & (1u << 3))
    s = s * 1.5;
  if (x & (1u << 4))
    s = s * 1.5;
  if (x & (1u << 5))
    s = s * 1.5;
  if (x & (1u << 6))
    s = s * 1.5;
  if (x & (1u << 7))
    s = s * 1.5;
  if (x & (1u << 8))
    s = s * 1.5;
  if (x & (1u << 9))
    s = s * 1.5;
  if (x & (1u << 10))
    s = s * 1.5;
  if (x & (1u << 11))
    s = s * 1.5;
  if (x & (1u << 12))
    s = s * 1.5;
  if (x & (1u << 13))
    s = s * 1.5;
  if (x & (1u << 14))
    s = s * 1.5;
  if (x & (1u << 15))
    s = s * 1.5;
  if (x & (1u << 16))
    s = s * 1.5;
  if (x & (1u << 17))
    s = s * 1.5;
  if (x & (1u << 18))
    s = s * 1.5;
  if (x & (1u << 19))
    s = s * 1.5;
  return x + 1;
}

int main(void) {
  unsigned t = 0;
  for (unsigned i = 0; i < 1024; ++i)
    t += wide(i);
  printf(t == 524800 ? "wide: PASSED\n" : "wide: FAILED %u\n", t);
  return t == 524800 ? 0 : 1;
}
