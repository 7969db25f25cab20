/*===- symbolize.h - Host return addresses to function and file:line ------===*
 *
 * The runtime records where kernels are launched from as return addresses
 * (glibc backtrace()); the report prints them as function and file:line.
 * Two steps, so that the second can run later or on another machine:
 *  - pasta__locate(), at run time: dladdr() finds the module; the module's
 *    path, GNU build id and the address as an ELF virtual address of that
 *    file are what is recorded (cheap, thread-safe, valid after dlclose);
 *  - pasta__symbolize_loc(), at exit or offline (pasta-report): reads the
 *    module's file, found by its path or, in search directories, by name
 *    and build id: function names from its ELF symbol table (.symtab, or
 *    .dynsym when stripped; no library needed), file:line and qualified
 *    names from its DWARF through libdwarf, loaded with dlopen() on first
 *    use. Without libdwarf or debug info the answer degrades to what the
 *    symbol table knows, silently: pasta__symbolizer_note() says why.
 * pasta__symbolize() does both for a live address.
 *
 * Symbolizers are not thread-safe: one thread at a time per symbolizer.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_SYMBOLIZE_SYMBOLIZE_H
#define PASTA_SYMBOLIZE_SYMBOLIZE_H

#include <stdint.h>

typedef struct pasta_symbol {
  const char *object;   /* path of the executable or shared object, or NULL */
  uint64_t offset;      /* address relative to the object's load base */
  const char *function; /* demangled if possible, else raw symbol; NULL when
                           unknown */
  const char *file;     /* source file from DWARF line table, or NULL */
  unsigned line;        /* 0 when unknown */
} pasta_symbol;

/* Where a return address lies, as recorded at run time. */
typedef struct pasta_frame_loc {
  const char *object;   /* absolute path of the module's file, or NULL (the
                           vDSO); owned by the runtime, never freed */
  const char *build_id; /* its GNU build id in lowercase hex, or NULL */
  uint64_t offset;      /* address relative to the module's load base */
  uint64_t vaddr;       /* the return address as a virtual address of the
                           module's ELF file (its symbols and DWARF use
                           these); 0 when unknown */
} pasta_frame_loc;

/* Fills *out for a return address of this process. Thread-safe; the first
 * address of each module reads its build id from memory, later ones only
 * call dladdr(). Returns 0, or -1 when no module holds the address. */
int pasta__locate(uint64_t address, pasta_frame_loc *out);

/* Opaque: caches opened objects and strings. */
typedef struct pasta_symbolizer pasta_symbolizer;

/* NULL only when out of memory. `libdwarf` is the libdwarf to load, as the
 * user's PASTA_LIBDWARF names it (the caller reads it): NULL or "" for
 * libdwarf.so.1; "none" or "0" loads none, as on a machine without it. */
pasta_symbolizer *pasta__symbolizer_open(const char *libdwarf);

/* `address` is a return address (as from backtrace()); the lookup uses
 * address-1 so the call's line is found. Returns 0 and fills *out (strings
 * owned by the symbolizer, valid until close), or -1 when nothing at all is
 * known (then out->function etc are NULL). */
int pasta__symbolize(pasta_symbolizer *s, uint64_t address, pasta_symbol *out);

/* Resolves a recorded location (pasta__locate, or read back from a
 * profile) by reading the module's file. Returns 0 and fills *out (object
 * and offset as recorded; function, file and line as far as known), or -1
 * when loc has no vaddr. */
int pasta__symbolize_loc(pasta_symbolizer *s, const pasta_frame_loc *loc,
                         pasta_symbol *out);

/* Directories (NULL-terminated; copied) searched, three levels deep, for a
 * module whose recorded path is missing or holds another build: a file of
 * the same name and build id, else any file of that build id. Returns 0 or
 * -1 (out of memory). */
int pasta__symbolizer_set_search_dirs(pasta_symbolizer *s,
                                      const char *const *dirs);

void pasta__symbolizer_close(pasta_symbolizer *s);

/* Why source lines may be missing, for one note in the report: NULL while
 * nothing went wrong, else one short line, the first reason found
 * (libdwarf not loadable, the program has no line table, a module's file
 * was not found). System
 * libraries without DWARF are expected and not noted. Owned by the
 * symbolizer. */
const char *pasta__symbolizer_note(const pasta_symbolizer *s);

/* Internal, for tests: like pasta__symbolizer_open() but loads libdwarf
 * from `libdwarf_soname` (a name that does not exist tests the fallback). */
pasta_symbolizer *pasta__symbolizer_open_with(const char *libdwarf_soname);

#endif
