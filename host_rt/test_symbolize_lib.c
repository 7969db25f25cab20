/*===- test_symbolize_lib.c - A shared object for test_symbolize ----------===*
 *
 * Gives test_symbolize a return address inside a shared object (ET_DYN,
 * loaded at some base other than the executable's), with its call line.
 *===----------------------------------------------------------------------===*/
#include <stdint.h>

uint64_t pasta_test_lib_site(unsigned *line);

/* As in test_symbolize.c: the call is the last instruction of its line. */
__attribute__((noinline)) static void
lib_caller_pc(uint64_t *pc, unsigned *line, unsigned at) {
  *line = at;
  *pc = (uint64_t)(uintptr_t)__builtin_return_address(0);
}

uint64_t pasta_test_lib_site(unsigned *line) {
  uint64_t pc = 0;
  lib_caller_pc(&pc, line, __LINE__);
  return pc;
}
