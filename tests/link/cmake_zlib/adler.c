/* The project's own hot function, counted with PASTA_HOST=ON: main.c calls
 * my_adler 5 times (5 calls; tests/link/check_cmake_zlib.sh checks it). */
#include "adler.h"

unsigned long my_adler(const unsigned char *p, unsigned long n) {
  unsigned long a = 1, b = 0;
  for (unsigned long i = 0; i < n; i++) {
    a = (a + p[i]) % 65521;
    b = (b + a) % 65521;
  }
  return (b << 16) | a;
}
