/* Compiled by gcc (no plugin): ends the process with exit() from code PASTA
 * never sees, for main_cpp.cpp's exit-helper mode. */
#include <stdio.h>
#include <stdlib.h>

void structures_leave(int status) {
  fflush(stdout);
  exit(status);
}
