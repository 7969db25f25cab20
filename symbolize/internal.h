/*===- internal.h - The symbolizer's shared data --------------------------===*
 *
 * Private to symbolize/: the libdwarf entry points it loads, what it keeps
 * of each module file it read, and the functions its files share
 * (support.c: small helpers and interned strings; dwarf.c: libdwarf and the
 * DWARF of one object; elf.c: ELF files and finding a module's file;
 * locate.c: modules of the running process; symbolize.c: lookups and the
 * interface).
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_SYMBOLIZE_INTERNAL_H
#define PASTA_SYMBOLIZE_INTERNAL_H

#include "symbolize.h"

#include <stddef.h>
#include <stdint.h>

/* Types and prototypes only: every call goes through dlsym'd pointers. */
#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>

/*===-- libdwarf, loaded at run time --------------------------------------===*/

#define PASTA__DWARF_FUNCS(X)                                                  \
  X(dwarf_init_path)                                                           \
  X(dwarf_finish)                                                              \
  X(dwarf_dealloc)                                                             \
  X(dwarf_dealloc_error)                                                       \
  X(dwarf_dealloc_die)                                                         \
  X(dwarf_next_cu_header_d)                                                    \
  X(dwarf_siblingof_b)                                                         \
  X(dwarf_child)                                                               \
  X(dwarf_tag)                                                                 \
  X(dwarf_die_text)                                                            \
  X(dwarf_attr)                                                                \
  X(dwarf_global_formref)                                                      \
  X(dwarf_dealloc_attribute)                                                   \
  X(dwarf_offdie_b)                                                            \
  X(dwarf_lowpc)                                                               \
  X(dwarf_highpc_b)                                                            \
  X(dwarf_srclines_b)                                                          \
  X(dwarf_srclines_from_linecontext)                                           \
  X(dwarf_srclines_dealloc_b)                                                  \
  X(dwarf_lineaddr)                                                            \
  X(dwarf_lineno)                                                              \
  X(dwarf_lineendsequence)                                                     \
  X(dwarf_line_srcfileno)                                                      \
  X(dwarf_srcfiles)                                                            \
  X(dwarf_formudata)                                                           \
  X(dwarf_line_is_addr_set)                                                    \
  X(dwarf_prologue_end_etc)

/* __typeof__ of the header's prototypes keeps the pointer types exact; the
 * operand is not evaluated, so no reference to libdwarf reaches the link. */
struct pasta__dwarf_api {
#define PASTA__DWARF_POINTER(name) __typeof__(&name) name;
  PASTA__DWARF_FUNCS(PASTA__DWARF_POINTER)
#undef PASTA__DWARF_POINTER
};

/*===-- Data --------------------------------------------------------------===*/

/* One line table row; `file` indexes the object's files (0: unknown). */
struct pasta__row {
  uint64_t addr;
  uint32_t line;
  uint32_t file;
};

/* A line table sequence: rows [first, first + count) cover [lo, hi). */
struct pasta__seq {
  uint64_t lo, hi;
  size_t first, count;
};

/* A subprogram's range; `name` is an offset into the object's names. */
struct pasta__func {
  uint64_t lo, hi;
  size_t name;
  int qualified;     /* a mangled linkage name; else DW_AT_name or a label */
  int64_t decl_file; /* DW_AT_decl_file, -1 if none */
};

/* An ELF symbol table entry of a function: [lo, lo + size). */
struct pasta__sym {
  uint64_t lo, size;
  size_t name; /* offset into the object's names */
};

/* pasta__upper_bound searches these by their first member. */
_Static_assert(offsetof(struct pasta__row, addr) == 0, "row address first");
_Static_assert(offsetof(struct pasta__seq, lo) == 0, "sequence start first");
_Static_assert(offsetof(struct pasta__func, lo) == 0, "function start first");
_Static_assert(offsetof(struct pasta__sym, lo) == 0, "symbol start first");

/* One module file, keyed by the path and build id recorded at run time. */
struct pasta__object {
  const char *path;     /* as recorded: what the report prints */
  const char *build_id; /* as recorded, or NULL */
  const char *file;     /* the file read (path, or found in a search dir) */
  int read;             /* the file's symbols and DWARF were read (or tried) */
  struct pasta__seq *seqs;
  size_t nseqs, seqs_cap;
  struct pasta__row *rows;
  size_t nrows, rows_cap;
  const char **files; /* interned; files[0] is NULL */
  size_t nfiles, files_cap;
  struct pasta__func *funcs;
  size_t nfuncs, funcs_cap;
  struct pasta__sym *syms; /* sorted by lo */
  size_t nsyms, syms_cap;
  char *names; /* NUL-separated function names, copied out of libdwarf */
  size_t names_len, names_cap;
};

struct pasta__cached {
  uint64_t address; /* 0: empty slot (address 0 is never cached) */
  int rc;
  pasta_symbol sym;
};

struct pasta_symbolizer {
  const char *libdwarf_soname;
  void *libdwarf;  /* dlopen handle once loaded */
  int dwarf_state; /* 0: not tried, 1: loaded, -1: unavailable */
  struct pasta__dwarf_api api;
  char **search_dirs;    /* NULL-terminated copies, or NULL */
  const char *main_path; /* readlink("/proc/self/exe"), or NULL */
  struct pasta__object *objects;
  size_t nobjects, objects_cap;
  char **strings; /* interned strings, open addressing */
  size_t nstrings, strings_cap;
  struct pasta__cached *cache; /* symbolized addresses, open addressing */
  size_t ncache, cache_cap;
  char note[256];
};

#pragma GCC visibility push(hidden)

/*===-- support.c ---------------------------------------------------------===*/

/* Makes room for `need` elements in a growable array; 0 on success. */
int pasta__reserve(void **items, size_t *cap, size_t need, size_t size);
/* In items[0, n) (`size` bytes each, sorted by their first member, a
 * uint64_t address: lo or addr), the index of the first whose address is
 * above target; the one before it, if any, is the last that starts at or
 * before target. */
size_t pasta__upper_bound(const void *items, size_t n, size_t size,
                          uint64_t target);
/* qsort, which must not be handed the NULL of an empty array. */
void pasta__sort(void *items, size_t n, size_t size,
                 int (*cmp)(const void *, const void *));
/* The first reason wins: a report prints one note, not a history. */
void pasta__set_note(pasta_symbolizer *s, const char *what, const char *detail);
/* One copy of each string, alive until close; NULL when out of memory. */
const char *pasta__intern(pasta_symbolizer *s, const char *str);

/*===-- dwarf.c -----------------------------------------------------------===*/

/* The function in funcs[0, n) (sorted by lo) whose range holds target. */
const struct pasta__func *pasta__find_func(const struct pasta__func *funcs,
                                           size_t n, uint64_t target);
/* Reads the line tables and subprograms of the file at `path` into o;
 * returns 0 when it found at least one line table sequence. */
int pasta__read_dwarf(pasta_symbolizer *s, struct pasta__object *o,
                      const char *path);
/* The row with the greatest address <= target inside a sequence. */
const struct pasta__row *pasta__find_row(const struct pasta__object *o,
                                         uint64_t target);

/*===-- elf.c -------------------------------------------------------------===*/

/* The hex of a GNU build-id note among the notes in [p, end), or NULL. */
char *pasta__build_id_of_notes(const unsigned char *p,
                               const unsigned char *end);
/* The functions of the file's .symtab, or of .dynsym when it was stripped:
 * no libdwarf needed. */
void pasta__read_symbols(struct pasta__object *o, const char *path);
/* The symbol whose range holds target; a sizeless one holds everything up
 * to the next symbol. */
const struct pasta__sym *pasta__find_sym(const struct pasta__object *o,
                                         uint64_t target);
/* The file to read for the module: the recorded path if it is still the
 * module, else a search directory's file of the same name and build id,
 * else one of the same build id. NULL when none. */
const char *pasta__module_file(pasta_symbolizer *s, const char *path,
                               const char *build_id);

#pragma GCC visibility pop

#endif
