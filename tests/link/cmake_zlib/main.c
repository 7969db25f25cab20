/* Compresses and decompresses a buffer with zlib and checks the round trip
 * with zlib's adler32 and our own (adler.c), 5 rounds. */
#include "adler.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

enum { N = 1 << 16, ROUNDS = 5 };

int main(void) {
  static unsigned char in[N], packed[N + N / 2], out[N];
  int ok = 1;
  for (int r = 0; r < ROUNDS; r++) {
    for (int i = 0; i < N; i++)
      in[i] = (unsigned char)(sqrt((double)(i % 251)) * (r + 3));
    uLongf plen = sizeof packed, olen = sizeof out;
    if (compress(packed, &plen, in, N) != Z_OK ||
        uncompress(out, &olen, packed, plen) != Z_OK || olen != N ||
        memcmp(in, out, N) != 0)
      ok = 0;
    unsigned long ours = my_adler(out, N);
    unsigned long theirs = adler32(adler32(0, Z_NULL, 0), out, N);
    if (ours != theirs)
      ok = 0;
    printf("round %d: %lu -> %lu bytes, adler32 %08lx\n", r, (unsigned long)N,
           (unsigned long)plen, ours);
  }
  printf("squeeze: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
