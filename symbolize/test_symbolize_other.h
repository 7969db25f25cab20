/*===- test_symbolize_other.h - A header function for test_symbolize ------===*
 *
 * Included first by test_symbolize_lib.c, which CMake compiles with its
 * source directory mapped away, so that this header is file 1 of the unit's
 * DWARF 5 line table; in a section of its own, so that it opens a line
 * table sequence. Clang then sets no file for its rows (the register starts
 * at 1), and libdwarf 20210528, starting at 0, names the including file.
 * No <stdint.h> before it: typedefs would take file 1 first.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_TEST_SYMBOLIZE_OTHER_H
#define PASTA_TEST_SYMBOLIZE_OTHER_H

__attribute__((noinline,
               section(".text.pasta_test_other"))) static unsigned long
other_file_site(void (*capture)(unsigned long *, unsigned *, unsigned),
                unsigned *line) {
  unsigned long pc = 0;
  capture(&pc, line, __LINE__);
  return pc;
}

#endif
