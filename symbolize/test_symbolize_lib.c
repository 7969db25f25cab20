/*===- test_symbolize_lib.c - A shared object for test_symbolize ----------===*
 *
 * Gives test_symbolize return addresses inside a shared object (ET_DYN,
 * loaded at some base other than the executable's) with their call lines:
 * one in this file, one in a header function (see test_symbolize_other.h).
 *===----------------------------------------------------------------------===*/
#include "test_symbolize_other.h" /* first: see there */

#include <stdint.h>

uint64_t pasta_test_lib_site(unsigned *line);
uint64_t pasta_test_lib_other_site(unsigned *line);

/* As in test_symbolize.c: the call is the last instruction of its line. */
__attribute__((noinline)) static void
lib_caller_pc(unsigned long *pc, unsigned *line, unsigned at) {
  *line = at;
  *pc = (unsigned long)__builtin_return_address(0);
}

uint64_t pasta_test_lib_site(unsigned *line) {
  unsigned long pc = 0;
  lib_caller_pc(&pc, line, __LINE__);
  return pc;
}

uint64_t pasta_test_lib_other_site(unsigned *line) {
  return other_file_site(lib_caller_pc, line);
}
