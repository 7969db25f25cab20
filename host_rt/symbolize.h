/*===- symbolize.h - Host return addresses to function and file:line ------===*
 *
 * The runtime records where kernels are launched from as return addresses
 * (glibc backtrace()); the report prints them as function and file:line.
 * dladdr() finds the object and the nearest exported symbol; libdwarf,
 * loaded with dlopen() on first use, supplies lines and function names from
 * the object's DWARF. Without libdwarf or debug info the answer degrades to
 * what dladdr() knows, silently: pasta_symbolizer_note() says why.
 *
 * Not thread-safe: one thread at a time per symbolizer.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_HOST_RT_SYMBOLIZE_H
#define PASTA_HOST_RT_SYMBOLIZE_H

#include <stdint.h>

typedef struct pasta_symbol {
  const char *object;   /* path of the executable or shared object, or NULL */
  uint64_t offset;      /* address relative to the object's load base */
  const char *function; /* demangled if possible, else raw symbol; NULL when
                           unknown */
  const char *file;     /* source file from DWARF line table, or NULL */
  unsigned line;        /* 0 when unknown */
} pasta_symbol;

/* Opaque: caches opened objects and strings. */
typedef struct pasta_symbolizer pasta_symbolizer;

/* NULL only when out of memory. */
pasta_symbolizer *pasta_symbolizer_open(void);

/* `address` is a return address (as from backtrace()); the lookup uses
 * address-1 so the call's line is found. Returns 0 and fills *out (strings
 * owned by the symbolizer, valid until close), or -1 when nothing at all is
 * known (then out->function etc are NULL). */
int pasta_symbolize(pasta_symbolizer *s, uint64_t address, pasta_symbol *out);

void pasta_symbolizer_close(pasta_symbolizer *s);

/* Why source lines may be missing, for one note in the report: NULL while
 * nothing went wrong, else one short line, the first reason found
 * (libdwarf not loadable, or the program has no line table). System
 * libraries without DWARF are expected and not noted. Owned by the
 * symbolizer. */
const char *pasta_symbolizer_note(const pasta_symbolizer *s);

/* Internal, for tests: like pasta_symbolizer_open() but loads libdwarf
 * from `libdwarf_soname` (a name that does not exist tests the fallback). */
pasta_symbolizer *pasta__symbolizer_open_with(const char *libdwarf_soname);

#endif
