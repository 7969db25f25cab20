/* Host-code end-to-end test of memcpy, memmove, memset and bzero of
 * run-time length, counted as the bytes they move (one load of the source
 * and one store of the destination per call, of the length in bytes;
 * memset and bzero store only). Counts derived by hand from this source.
 *
 * unit = 100 * argc + 23 = 123 (run without arguments). len(k) returns
 * k * unit and has a side effect, so no length is known at compile time
 * and no call moves. The lines below hold nothing else that touches memory
 * (dst and src are arrays, len's result is a value), at -O0 as at -O2.
 * once() runs twice, looped() once:
 *   COPY  memcpy  2 * unit: 2 calls -> loads 2, stores 2, 492 B each way
 *   MOVE  memmove 1 * unit: 2 calls -> loads 2, stores 2, 246 B each way
 *   SET   memset  3 * unit: 2 calls -> stores 2, 738 B stored
 *   BZERO bzero   1 * unit: 2 calls -> stores 2, 246 B stored
 *   LOOP  memcpy  1 * unit, 5 iterations -> loads 5, stores 5, 615 B
 *   once(): 738 B loaded, 1722 B stored. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define CAP 4096

static char src[CAP], dst[CAP];
static size_t unit;
static unsigned ticks;

__attribute__((noinline)) static size_t len(size_t k) {
  ++ticks;
  return unit * k;
}

__attribute__((noinline)) static void once(void) {
  memcpy(dst, src, len(2));        /* COPY: line 34 */
  memmove(dst + 300, dst, len(1)); /* MOVE: line 35 */
  memset(dst + 500, 7, len(3));    /* SET: line 36 */
  bzero(dst + 1000, len(1));       /* BZERO: line 37 */
}

__attribute__((noinline)) static void looped(void) {
  for (int r = 0; r < 5; ++r)
    memcpy(dst + 2000, src + 1, len(1)); /* LOOP: line 42 */
}

int main(int argc, char **argv) {
  (void)argv;
  unit = 100 * (size_t)argc + 23;
  for (int i = 0; i < CAP; ++i) {
    src[i] = (char)(i % 101 + 1);
    dst[i] = 1;
  }
  once();
  once();
  looped();
  /* Each operation's effect, so that none is dead. */
  int ok = ticks == 13 && dst[0] == src[0] && dst[245] == src[245] &&
           dst[246] == 1 && dst[300] == src[0] && dst[422] == src[122] &&
           dst[500] == 7 && dst[868] == 7 && dst[869] == 1 && dst[1000] == 0 &&
           dst[1122] == 0 && dst[1123] == 1 && dst[2000] == src[1] &&
           dst[2122] == src[123] && dst[2123] == 1;
  printf("memops: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
