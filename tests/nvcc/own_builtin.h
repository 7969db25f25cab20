// A header written for gcc that defines a function clang knows as a target
// builtin (VanitySearch's Int.h: gcc's __rdtsc is an inline function of
// ia32intrin.h, which this code does not include; clang's is a builtin).
#include <stdint.h>

static uint64_t inline __rdtsc() {
  uint32_t h, l;
  __asm__("rdtsc;" : "=d"(h), "=a"(l));
  return (uint64_t)h << 32 | l;
}
