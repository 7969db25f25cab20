/*===- test_callpath_lib.c - A shared object that launches (test_callpath)
 * -===*/
#include <stdint.h>

typedef int (*pasta_test_launcher)(unsigned *line);

/* Calls the launcher and reports the line of that call. The launcher
 * reaches the runtime's launch wrapper through the program (as a kernel
 * stub would), so this function is a frame of the call path. */
__attribute__((noinline)) int pasta_test_lib_launch(pasta_test_launcher launch,
                                                    unsigned *line) {
  unsigned at = __LINE__ + 1;
  int rc = launch(line);
  *line = at;
  return rc;
}
