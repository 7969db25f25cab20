/* Frames left by a C++ exception keep their counts (1000 calls, half of
 * them leaving by throw, were once counted 500). main calls outer(i) for
 * i = 0..999; outer calls mid inside a try that catches only `long`; mid
 * calls leaf with no try at all; leaf throws an int for odd i (500 times),
 * which passes through mid and outer (no handler matches there) to main.
 *   leaf:  calls 1000; its f64 multiply runs before the throw test on every
 *          call: flops.f64 = 1000.
 *   mid:   calls 1000; its multiply runs only when leaf returns: 500.
 *   outer: calls 1000; its multiply runs only when mid returns: 500.
 *   main:  calls 1.
 * sink stays 0, so the multiplies never overflow. */
#include <cstdio>

static volatile double sink;

__attribute__((noinline)) int leaf(int i) {
  sink = sink * 1.5; /* LEAF_MUL */
  if (i & 1)
    throw i;
  return i;
}

__attribute__((noinline)) int mid(int i) {
  int r = leaf(i);
  sink = sink * 0.5; /* MID_MUL */
  return r;
}

__attribute__((noinline)) int outer(int i) {
  try {
    int r = mid(i);
    sink = sink * 2.0; /* OUTER_MUL */
    return r;
  } catch (long) {
    return -1;
  }
}

int main() {
  long sum = 0;
  int caught = 0;
  for (int i = 0; i < 1000; ++i) {
    try {
      sum += outer(i);
    } catch (int) {
      ++caught;
    }
  }
  /* even i: 0 + 2 + ... + 998 = 249500 */
  if (sum != 249500 || caught != 500) {
    std::printf("unwind: FAILED sum=%ld caught=%d\n", sum, caught);
    return 1;
  }
  std::printf("unwind: PASSED\n");
  return 0;
}
