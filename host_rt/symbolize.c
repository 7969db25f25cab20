/*===- symbolize.c - Host return addresses to function and file:line ------===*
 *
 * pasta__symbolize() turns a return address into object, function and
 * file:line. dladdr() (in libc since glibc 2.34) names the object, its load
 * base and the nearest exported symbol. libdwarf is opened with dlopen() on
 * the first object that needs it and called through function pointers, so
 * libpasta_rt.a keeps libc as its only link-time dependency.
 *
 * The first lookup in an object reads all of its DWARF once: every line
 * table sequence (rows in address order) and every subprogram's address
 * range and name. Later lookups are two binary searches, and repeated
 * addresses hit a per-address cache, because a report symbolizes the same
 * few hundred launch sites over and over.
 *
 * libdwarf 20210528 (Debian 12's libdwarf1) misreads two things in line
 * tables that clang writes: it marks rows with epilogue_begin as ends of
 * sequences, and starts DWARF 5 sequences in file 0 instead of 1. Both are
 * corrected below (pasta__ends_sequence, pasta__fix_default_file).
 *
 * Failure is never fatal and never printed: a missing libdwarf or an object
 * without debug info leaves file and line empty, and pasta__symbolizer_note()
 * says why (libdwarf, or a program without -g), for the caller to report
 * once.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* dladdr, Dl_info, RTLD_DEFAULT */

#include "symbolize.h"

#include "profile/demangle.h"

#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

/* Types and prototypes only: every call goes through dlsym'd pointers. */
#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>

#define PASTA__LIBDWARF_SONAME "libdwarf.so.1"

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

/*===-- Small helpers -----------------------------------------------------===*/

/* Makes room for `need` elements in a growable array; 0 on success. */
static int pasta__reserve(void **items, size_t *cap, size_t need, size_t size) {
  if (need <= *cap)
    return 0;
  size_t n = *cap ? *cap : 16;
  while (n < need)
    n *= 2;
  void *p = realloc(*items, n * size);
  if (!p)
    return -1;
  *items = p;
  *cap = n;
  return 0;
}

static int same_or_null(const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

/* qsort, which must not be handed the NULL of an empty array. */
static void pasta__sort(void *items, size_t n, size_t size,
                        int (*cmp)(const void *, const void *)) {
  if (n > 1)
    qsort(items, n, size, cmp);
}

static uint64_t pasta__hash_bytes(const char *str) {
  uint64_t h = 1469598103934665603u; /* FNV-1a */
  for (; *str; ++str)
    h = (h ^ (unsigned char)*str) * 1099511628211u;
  return h;
}

static uint64_t pasta__hash_address(uint64_t a) {
  return (a ^ (a >> 29)) * 0x9e3779b97f4a7c15u;
}

/* The first reason wins: a report prints one note, not a history. */
static void pasta__set_note(pasta_symbolizer *s, const char *what,
                            const char *detail) {
  if (s->note[0])
    return;
  snprintf(s->note, sizeof s->note, "%s%s%s", what, detail ? ": " : "",
           detail ? detail : "");
}

/*===-- Interned strings --------------------------------------------------===*/

static int pasta__strings_grow(pasta_symbolizer *s) {
  size_t cap = s->strings_cap ? 2 * s->strings_cap : 256;
  char **t = calloc(cap, sizeof *t);
  if (!t)
    return -1;
  for (size_t i = 0; i < s->strings_cap; ++i) {
    if (!s->strings[i])
      continue;
    size_t j = pasta__hash_bytes(s->strings[i]) & (cap - 1);
    while (t[j])
      j = (j + 1) & (cap - 1);
    t[j] = s->strings[i];
  }
  free(s->strings);
  s->strings = t;
  s->strings_cap = cap;
  return 0;
}

/* One copy of each string, alive until close; NULL when out of memory. */
static const char *pasta__intern(pasta_symbolizer *s, const char *str) {
  if (!str)
    return NULL;
  if (2 * (s->nstrings + 1) > s->strings_cap && pasta__strings_grow(s))
    return NULL;
  size_t mask = s->strings_cap - 1;
  size_t i = pasta__hash_bytes(str) & mask;
  for (; s->strings[i]; i = (i + 1) & mask)
    if (strcmp(s->strings[i], str) == 0)
      return s->strings[i];
  size_t len = strlen(str) + 1;
  char *copy = malloc(len);
  if (!copy)
    return NULL;
  memcpy(copy, str, len);
  s->strings[i] = copy;
  ++s->nstrings;
  return copy;
}

/* Demangled C++ names when the program carries a C++ runtime. */
static const char *pasta__intern_function(pasta_symbolizer *s,
                                          const char *name) {
  if (!name || !*name)
    return NULL;
  char *plain = pasta_demangle(name);
  if (plain) {
    const char *r = pasta__intern(s, plain);
    free(plain);
    if (r)
      return r;
  }
  return pasta__intern(s, name);
}

/*===-- Loading libdwarf --------------------------------------------------===*/

/* Installed on every Dwarf_Debug so that an error libdwarf cannot report
 * through a Dwarf_Error pointer returns instead of calling abort(). */
static void pasta__dwarf_quiet(Dwarf_Error error, Dwarf_Ptr arg) {
  (void)error;
  (void)arg;
}

static int pasta__load_libdwarf(pasta_symbolizer *s) {
  /* A path (PASTA_LIBDWARF=/some/file) must be a regular file: dlopen opens
   * it blocking, and a fifo or a terminal would hang the report. A name
   * without a '/' is searched for by the loader. */
  struct stat st;
  if (strchr(s->libdwarf_soname, '/') &&
      (stat(s->libdwarf_soname, &st) != 0 || !S_ISREG(st.st_mode))) {
    char why[300];
    snprintf(why, sizeof why, "%.250s: not a regular file", s->libdwarf_soname);
    pasta__set_note(s, "no source lines (libdwarf not loaded)", why);
    return -1;
  }
  void *h = dlopen(s->libdwarf_soname, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *why = dlerror();
    pasta__set_note(s, "no source lines (libdwarf not loaded)",
                    why ? why : s->libdwarf_soname);
    return -1;
  }
#define PASTA__DWARF_LOOKUP(name)                                              \
  s->api.name = (__typeof__(s->api.name))dlsym(h, #name);                      \
  if (!s->api.name) {                                                          \
    pasta__set_note(s, "no source lines (libdwarf lacks " #name ")",           \
                    s->libdwarf_soname);                                       \
    dlclose(h);                                                                \
    return -1;                                                                 \
  }
  PASTA__DWARF_FUNCS(PASTA__DWARF_LOOKUP)
#undef PASTA__DWARF_LOOKUP
  s->libdwarf = h;
  return 0;
}

static const struct pasta__dwarf_api *pasta__dwarf(pasta_symbolizer *s) {
  if (s->dwarf_state == 0)
    s->dwarf_state = pasta__load_libdwarf(s) == 0 ? 1 : -1;
  return s->dwarf_state == 1 ? &s->api : NULL;
}

/*===-- Searches ----------------------------------------------------------===*/

static int pasta__func_cmp(const void *a, const void *b) {
  uint64_t x = ((const struct pasta__func *)a)->lo;
  uint64_t y = ((const struct pasta__func *)b)->lo;
  return (x > y) - (x < y);
}

/* The function in funcs[0, n) (sorted by lo) whose range holds target. */
static const struct pasta__func *
pasta__find_func(const struct pasta__func *funcs, size_t n, uint64_t target) {
  size_t lo = 0, hi = n; /* first function starting after target */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (funcs[mid].lo <= target)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0 || target >= funcs[lo - 1].hi)
    return NULL;
  return &funcs[lo - 1];
}

/*===-- Reading one object's DWARF ----------------------------------------===*/

struct pasta__reader {
  pasta_symbolizer *s;
  const struct pasta__dwarf_api *api;
  Dwarf_Debug dbg;
  struct pasta__object *o;
  int oom;
  /* The compilation unit being read. */
  size_t cu_funcs; /* its functions are o->funcs[cu_funcs, o->nfuncs) */
  int dwarf5;      /* its line table numbers files from 0 */
  char **srcfiles; /* its line table's file names, from dwarf_srcfiles */
  Dwarf_Signed nsrcfiles;
  uint32_t *cu_files; /* line table file number -> o->files index, 0: unset */
  size_t cu_files_cap;
};

/* True on DW_DLV_OK; frees the error libdwarf allocated otherwise. */
static int pasta__ok(struct pasta__reader *r, int res, Dwarf_Error err) {
  if (res == DW_DLV_ERROR && err)
    r->api->dwarf_dealloc_error(r->dbg, err);
  return res == DW_DLV_OK;
}

/*===-- Subprograms -------------------------------------------------------===*/

/* The DIE an attribute refers to (DW_AT_specification and such), or NULL. */
static Dwarf_Die pasta__die_ref(struct pasta__reader *r, Dwarf_Die die,
                                Dwarf_Half attrnum) {
  Dwarf_Error err = 0;
  Dwarf_Attribute attr = 0;
  if (!pasta__ok(r, r->api->dwarf_attr(die, attrnum, &attr, &err), err))
    return NULL;
  Dwarf_Off off = 0;
  err = 0;
  int got = pasta__ok(r, r->api->dwarf_global_formref(attr, &off, &err), err);
  r->api->dwarf_dealloc_attribute(attr);
  Dwarf_Die target = NULL;
  err = 0;
  if (got &&
      !pasta__ok(r, r->api->dwarf_offdie_b(r->dbg, off, 1, &target, &err), err))
    target = NULL;
  return target;
}

static const char *pasta__die_string(struct pasta__reader *r, Dwarf_Die die,
                                     Dwarf_Half attrnum) {
  Dwarf_Error err = 0;
  char *text = NULL;
  if (!pasta__ok(r, r->api->dwarf_die_text(die, attrnum, &text, &err), err))
    return NULL;
  return text; /* points into a string section: never freed */
}

/* An unsigned constant attribute, or -1. */
static int64_t pasta__die_number(struct pasta__reader *r, Dwarf_Die die,
                                 Dwarf_Half attrnum) {
  Dwarf_Error err = 0;
  Dwarf_Attribute attr = 0;
  if (!pasta__ok(r, r->api->dwarf_attr(die, attrnum, &attr, &err), err))
    return -1;
  Dwarf_Unsigned value = 0;
  err = 0;
  int got = pasta__ok(r, r->api->dwarf_formudata(attr, &value, &err), err);
  r->api->dwarf_dealloc_attribute(attr);
  return got && value <= INT64_MAX ? (int64_t)value : -1;
}

/* A subprogram's name and declaring file. A mangled linkage name demangles
 * to the qualified C++ name: best. Other linkage names are asm labels
 * (glibc's __GI___getauxval), worse than DW_AT_name. Definitions of C++
 * methods and out-of-line copies of inline functions carry these only on
 * the DIE they refer to, so follow those references. */
static const char *pasta__subprogram_name(struct pasta__reader *r,
                                          Dwarf_Die die, int *qualified,
                                          int64_t *decl_file) {
  const char *plain = NULL, *linkage = NULL;
  *decl_file = -1;
  Dwarf_Die cur = die;
  for (int hop = 0; cur && hop < 4; ++hop) {
    if (!linkage)
      linkage = pasta__die_string(r, cur, DW_AT_linkage_name);
    if (!linkage)
      linkage = pasta__die_string(r, cur, DW_AT_MIPS_linkage_name);
    if (!plain)
      plain = pasta__die_string(r, cur, DW_AT_name);
    if (*decl_file < 0)
      *decl_file = pasta__die_number(r, cur, DW_AT_decl_file);
    if (linkage && *decl_file >= 0)
      break;
    Dwarf_Die next = pasta__die_ref(r, cur, DW_AT_specification);
    if (!next)
      next = pasta__die_ref(r, cur, DW_AT_abstract_origin);
    if (cur != die)
      r->api->dwarf_dealloc_die(cur);
    cur = next;
  }
  if (cur && cur != die)
    r->api->dwarf_dealloc_die(cur);
  *qualified = linkage && strncmp(linkage, "_Z", 2) == 0;
  return *qualified ? linkage : plain ? plain : linkage;
}

static size_t pasta__add_name(struct pasta__reader *r, const char *name) {
  struct pasta__object *o = r->o;
  size_t len = strlen(name) + 1;
  if (pasta__reserve((void **)&o->names, &o->names_cap, o->names_len + len,
                     1)) {
    r->oom = 1;
    return SIZE_MAX;
  }
  memcpy(o->names + o->names_len, name, len);
  o->names_len += len;
  return o->names_len - len;
}

static void pasta__add_subprogram(struct pasta__reader *r, Dwarf_Die die) {
  Dwarf_Error err = 0;
  Dwarf_Addr lo = 0, hi = 0;
  Dwarf_Half form = 0;
  enum Dwarf_Form_Class cls = DW_FORM_CLASS_UNKNOWN;
  if (!pasta__ok(r, r->api->dwarf_lowpc(die, &lo, &err), err) || lo == 0)
    return; /* a declaration, or code the linker discarded */
  err = 0;
  if (!pasta__ok(r, r->api->dwarf_highpc_b(die, &hi, &form, &cls, &err), err))
    return; /* DW_AT_ranges only (split hot/cold code): not read */
  if (cls == DW_FORM_CLASS_CONSTANT)
    hi += lo;
  if (hi <= lo)
    return;
  int qualified = 0;
  int64_t decl_file = -1;
  const char *name = pasta__subprogram_name(r, die, &qualified, &decl_file);
  if (!name)
    return;
  struct pasta__object *o = r->o;
  size_t off = pasta__add_name(r, name);
  if (off == SIZE_MAX || pasta__reserve((void **)&o->funcs, &o->funcs_cap,
                                        o->nfuncs + 1, sizeof *o->funcs)) {
    r->oom = 1;
    return;
  }
  o->funcs[o->nfuncs++] =
      (struct pasta__func){lo, hi, off, qualified, decl_file};
}

/* Subprograms live at CU level, in namespaces and classes, and, for GCC's
 * lambdas and local classes, inside functions and their blocks. */
static int pasta__holds_subprograms(Dwarf_Half tag) {
  return tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
         tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
         tag == DW_TAG_module || tag == DW_TAG_subprogram ||
         tag == DW_TAG_lexical_block;
}

/* Walks `die` and its siblings; takes ownership of `die`. */
static void pasta__read_dies(struct pasta__reader *r, Dwarf_Die die,
                             int depth) {
  while (die && !r->oom) {
    Dwarf_Error err = 0;
    Dwarf_Half tag = 0;
    if (pasta__ok(r, r->api->dwarf_tag(die, &tag, &err), err)) {
      Dwarf_Die child = NULL;
      err = 0;
      if (tag == DW_TAG_subprogram)
        pasta__add_subprogram(r, die);
      if (pasta__holds_subprograms(tag) && depth < 32 &&
          pasta__ok(r, r->api->dwarf_child(die, &child, &err), err))
        pasta__read_dies(r, child, depth + 1);
    }
    Dwarf_Die next = NULL;
    err = 0;
    if (!pasta__ok(r, r->api->dwarf_siblingof_b(r->dbg, die, 1, &next, &err),
                   err))
      next = NULL;
    r->api->dwarf_dealloc_die(die);
    die = next;
  }
}

/*===-- Line tables -------------------------------------------------------===*/

/* The o->files index of line table file number n (0: unknown), resolved
 * once per CU. DWARF 5 numbers files from 0, earlier versions from 1. */
static uint32_t pasta__file(struct pasta__reader *r, Dwarf_Unsigned n) {
  Dwarf_Signed k = (Dwarf_Signed)n - (r->dwarf5 ? 0 : 1);
  if (n >= 1u << 20 || k < 0 || k >= r->nsrcfiles)
    return 0;
  if (n >= r->cu_files_cap) {
    size_t old = r->cu_files_cap;
    if (pasta__reserve((void **)&r->cu_files, &r->cu_files_cap, n + 1,
                       sizeof *r->cu_files))
      return r->oom = 1, 0;
    memset(r->cu_files + old, 0, (r->cu_files_cap - old) * sizeof(uint32_t));
  }
  if (r->cu_files[n])
    return r->cu_files[n];
  struct pasta__object *o = r->o;
  const char *name = pasta__intern(r->s, r->srcfiles[k]);
  if (!name || pasta__reserve((void **)&o->files, &o->files_cap, o->nfiles + 2,
                              sizeof *o->files))
    return r->oom = 1, 0;
  if (o->nfiles == 0)
    o->files[o->nfiles++] = NULL; /* index 0: unknown */
  o->files[o->nfiles] = name;
  return r->cu_files[n] = (uint32_t)o->nfiles++;
}

static void pasta__open_cu_files(struct pasta__reader *r, Dwarf_Die cu,
                                 Dwarf_Unsigned version) {
  Dwarf_Error err = 0;
  r->dwarf5 = version >= 5;
  r->srcfiles = NULL;
  r->nsrcfiles = 0;
  if (!pasta__ok(r,
                 r->api->dwarf_srcfiles(cu, &r->srcfiles, &r->nsrcfiles, &err),
                 err))
    r->srcfiles = NULL, r->nsrcfiles = 0;
  if (r->cu_files_cap)
    memset(r->cu_files, 0, r->cu_files_cap * sizeof *r->cu_files);
}

static void pasta__close_cu_files(struct pasta__reader *r) {
  for (Dwarf_Signed i = 0; i < r->nsrcfiles; ++i)
    r->api->dwarf_dealloc(r->dbg, r->srcfiles[i], DW_DLA_STRING);
  if (r->srcfiles)
    r->api->dwarf_dealloc(r->dbg, r->srcfiles, DW_DLA_LIST);
  r->srcfiles = NULL;
  r->nsrcfiles = 0;
}

static int pasta__row_cmp(const void *a, const void *b) {
  uint64_t x = ((const struct pasta__row *)a)->addr;
  uint64_t y = ((const struct pasta__row *)b)->addr;
  return (x > y) - (x < y);
}

/* libdwarf 20210528 starts each DWARF 5 sequence with file register 0,
 * where DWARF 5 (table 6.4), clang and GCC say 1; clang relies on it: a
 * function of file 1 that opens a sequence gets no DW_LNS_set_file. So the
 * leading file-0 rows of a sequence opened by a function declared in file
 * 1 belong to file 1 (libdwarf went back to 1 in October 2022). */
static void pasta__fix_default_file(struct pasta__reader *r, size_t first) {
  struct pasta__object *o = r->o;
  uint32_t file0 = r->dwarf5 ? pasta__file(r, 0) : 0;
  if (!file0 || o->rows[first].file != file0 || o->nfuncs <= r->cu_funcs)
    return;
  /* This unit's functions, sorted before its lines were read. */
  const struct pasta__func *f = pasta__find_func(
      o->funcs + r->cu_funcs, o->nfuncs - r->cu_funcs, o->rows[first].addr);
  uint32_t file1 = f && f->decl_file == 1 ? pasta__file(r, 1) : 0;
  for (size_t i = first; file1 && i < o->nrows && o->rows[i].file == file0 &&
                         o->rows[i].addr < f->hi;
       ++i)
    o->rows[i].file = file1;
}

/* Closes the sequence of rows [first, o->nrows) that ends at `end`. Drops
 * the sequences linkers leave for discarded code (address 0 or a
 * tombstone), which would otherwise shadow real code. */
static void pasta__end_sequence(struct pasta__reader *r, size_t first,
                                uint64_t end, int sorted) {
  struct pasta__object *o = r->o;
  size_t count = o->nrows - first;
  uint64_t lo = count ? o->rows[first].addr : 0;
  if (!count || lo == 0 || lo >= UINT64_MAX - 1 || end <= lo) {
    o->nrows = first;
    return;
  }
  pasta__fix_default_file(r, first);
  if (!sorted) /* DWARF says addresses only grow; cope if they do not */
    pasta__sort(o->rows + first, count, sizeof *o->rows, pasta__row_cmp);
  if (pasta__reserve((void **)&o->seqs, &o->seqs_cap, o->nseqs + 1,
                     sizeof *o->seqs)) {
    r->oom = 1;
    o->nrows = first;
    return;
  }
  o->seqs[o->nseqs++] = (struct pasta__seq){lo, end, first, count};
}

/* Whether lines[i] is a real end_sequence row. libdwarf 20210528 (fixed
 * upstream in 2026, issue #323) also flags every row that has
 * epilogue_begin, which clang emits in each function; a real end is the
 * last row or is followed by a new sequence's DW_LNE_set_address. */
static int pasta__ends_sequence(struct pasta__reader *r, Dwarf_Line *lines,
                                Dwarf_Signed i, Dwarf_Signed n) {
  Dwarf_Error err = 0;
  Dwarf_Bool end = 0, prologue_end = 0, epilogue_begin = 0, addr_set = 0;
  Dwarf_Unsigned isa = 0, discriminator = 0;
  if (!pasta__ok(r, r->api->dwarf_lineendsequence(lines[i], &end, &err), err) ||
      !end)
    return 0;
  if (!pasta__ok(r,
                 r->api->dwarf_prologue_end_etc(lines[i], &prologue_end,
                                                &epilogue_begin, &isa,
                                                &discriminator, &err),
                 err) ||
      !epilogue_begin || i + 1 == n)
    return 1;
  err = 0;
  return pasta__ok(
             r, r->api->dwarf_line_is_addr_set(lines[i + 1], &addr_set, &err),
             err) &&
         addr_set;
}

static void pasta__add_lines(struct pasta__reader *r, Dwarf_Line *lines,
                             Dwarf_Signed n) {
  struct pasta__object *o = r->o;
  size_t first = o->nrows;
  int sorted = 1;
  for (Dwarf_Signed i = 0; i < n && !r->oom; ++i) {
    Dwarf_Error err = 0;
    Dwarf_Addr addr = 0;
    Dwarf_Unsigned lineno = 0, fileno = 0;
    if (!pasta__ok(r, r->api->dwarf_lineaddr(lines[i], &addr, &err), err))
      continue;
    if (pasta__ends_sequence(r, lines, i, n)) {
      pasta__end_sequence(r, first, addr, sorted);
      first = o->nrows;
      sorted = 1;
      continue;
    }
    if (!pasta__ok(r, r->api->dwarf_lineno(lines[i], &lineno, &err), err))
      lineno = 0;
    err = 0;
    if (!pasta__ok(r, r->api->dwarf_line_srcfileno(lines[i], &fileno, &err),
                   err))
      fileno = UINT32_MAX; /* unknown */
    if (pasta__reserve((void **)&o->rows, &o->rows_cap, o->nrows + 1,
                       sizeof *o->rows)) {
      r->oom = 1;
      break;
    }
    if (o->nrows > first && o->rows[o->nrows - 1].addr > addr)
      sorted = 0;
    o->rows[o->nrows++] =
        (struct pasta__row){addr, lineno > UINT32_MAX ? 0 : (uint32_t)lineno,
                            pasta__file(r, fileno)};
  }
  o->nrows = first; /* rows after the last end_sequence belong to nothing */
}

static void pasta__read_cu_lines(struct pasta__reader *r, Dwarf_Die cu) {
  Dwarf_Error err = 0;
  Dwarf_Unsigned version = 0;
  Dwarf_Small tables = 0;
  Dwarf_Line_Context ctx = 0;
  if (!pasta__ok(r, r->api->dwarf_srclines_b(cu, &version, &tables, &ctx, &err),
                 err))
    return;
  Dwarf_Line *lines = NULL;
  Dwarf_Signed n = 0;
  err = 0;
  /* tables == 2 is an experimental two-level table: not produced by
   * compilers we support. */
  if (tables == 1 &&
      pasta__ok(r,
                r->api->dwarf_srclines_from_linecontext(ctx, &lines, &n, &err),
                err)) {
    pasta__open_cu_files(r, cu, version);
    pasta__add_lines(r, lines, n);
    pasta__close_cu_files(r);
  }
  r->api->dwarf_srclines_dealloc_b(ctx);
}

/*===-- Whole objects -----------------------------------------------------===*/

/* Reads every compilation unit: its subprograms first, sorted, so that its
 * line table can consult them. Returns how many units were read. */
static unsigned pasta__read_units(struct pasta__reader *r) {
  unsigned units = 0;
  for (;;) {
    Dwarf_Error err = 0;
    Dwarf_Unsigned length = 0, abbrev = 0, typeoff = 0, next = 0;
    Dwarf_Half version = 0, asize = 0, osize = 0, xsize = 0, type = 0;
    Dwarf_Sig8 sig;
    if (!pasta__ok(r,
                   r->api->dwarf_next_cu_header_d(
                       r->dbg, 1, &length, &version, &abbrev, &asize, &osize,
                       &xsize, &sig, &typeoff, &next, &type, &err),
                   err))
      return units;
    Dwarf_Die cu = NULL;
    err = 0;
    if (!pasta__ok(r, r->api->dwarf_siblingof_b(r->dbg, NULL, 1, &cu, &err),
                   err))
      return units;
    ++units;
    /* Type units share their CU's line table: reading it twice adds
     * nothing. */
    if (type != DW_UT_type && type != DW_UT_split_type && !r->oom) {
      struct pasta__object *o = r->o;
      r->cu_funcs = o->nfuncs;
      Dwarf_Die child = NULL;
      err = 0;
      if (pasta__ok(r, r->api->dwarf_child(cu, &child, &err), err))
        pasta__read_dies(r, child, 0);
      if (o->nfuncs > r->cu_funcs)
        pasta__sort(o->funcs + r->cu_funcs, o->nfuncs - r->cu_funcs,
                    sizeof *o->funcs, pasta__func_cmp);
      pasta__read_cu_lines(r, cu);
    }
    r->api->dwarf_dealloc_die(cu);
  }
}

static int pasta__seq_cmp(const void *a, const void *b) {
  uint64_t x = ((const struct pasta__seq *)a)->lo;
  uint64_t y = ((const struct pasta__seq *)b)->lo;
  return (x > y) - (x < y);
}

/* Reads the line tables and subprograms of the file at `path` into o;
 * returns 0 when it found at least one line table sequence. */
static int pasta__read_dwarf(pasta_symbolizer *s, struct pasta__object *o,
                             const char *path) {
  const struct pasta__dwarf_api *api = pasta__dwarf(s);
  if (!api)
    return -1;
  struct pasta__reader r;
  memset(&r, 0, sizeof r);
  r.s = s;
  r.api = api;
  r.o = o;
  /* A buffer for the true path lets libdwarf follow .gnu_debuglink to
   * separate debug files (Debian's -dbg packages). */
  char true_path[PATH_MAX];
  Dwarf_Error err = 0;
  int res = api->dwarf_init_path(path, true_path, sizeof true_path, DW_DLC_READ,
                                 DW_GROUPNUMBER_ANY, pasta__dwarf_quiet, NULL,
                                 &r.dbg, NULL, 0, NULL, &err);
  if (res != DW_DLV_OK) {
    if (res == DW_DLV_ERROR && err)
      api->dwarf_dealloc_error(r.dbg, err);
    return -1;
  }
  pasta__read_units(&r);
  free(r.cu_files);
  err = 0;
  api->dwarf_finish(r.dbg, &err); /* frees everything, errors included */
  pasta__sort(o->seqs, o->nseqs, sizeof *o->seqs, pasta__seq_cmp);
  pasta__sort(o->funcs, o->nfuncs, sizeof *o->funcs, pasta__func_cmp);
  return o->nseqs ? 0 : -1;
}

/*===-- Lookups -----------------------------------------------------------===*/

/* The row with the greatest address <= target inside a sequence. */
static const struct pasta__row *pasta__find_row(const struct pasta__object *o,
                                                uint64_t target) {
  size_t lo = 0, hi = o->nseqs; /* first sequence starting after target */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (o->seqs[mid].lo <= target)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0 || target >= o->seqs[lo - 1].hi)
    return NULL; /* before the first sequence or past its end_sequence */
  const struct pasta__seq *q = &o->seqs[lo - 1];
  const struct pasta__row *rows = o->rows + q->first;
  lo = 0;
  hi = q->count; /* first row after target; the one before it is ours */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (rows[mid].addr <= target)
      lo = mid + 1;
    else
      hi = mid;
  }
  return &rows[lo - 1]; /* lo >= 1: rows[0].addr == q->lo <= target */
}

/*===-- Modules at run time -----------------------------------------------===*/

/* What pasta__locate() learnt of one loaded module; kept for the process's
 * life, because call paths refer to modules that may be unloaded later. */
struct pasta__module {
  uint64_t base;  /* dli_fbase */
  char *fname;    /* dli_fname as dladdr gave it: tells mappings apart */
  char *path;     /* absolute path of the file, or NULL (the vDSO) */
  char *build_id; /* lowercase hex, or NULL */
  uint64_t bias;  /* load address of ELF virtual address 0 */
};

static pthread_mutex_t pasta__modules_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pasta__module *pasta__modules;
static size_t pasta__nmodules, pasta__modules_cap;

/* The hex of a GNU build-id note among the notes in [p, end), or NULL. */
static char *pasta__build_id_of_notes(const unsigned char *p,
                                      const unsigned char *end) {
  while (p && end - p >= 12) {
    uint32_t namesz, descsz, type;
    memcpy(&namesz, p, 4);
    memcpy(&descsz, p + 4, 4);
    memcpy(&type, p + 8, 4);
    size_t name_pad = ((size_t)namesz + 3) & ~(size_t)3;
    size_t desc_pad = ((size_t)descsz + 3) & ~(size_t)3;
    if (name_pad > (size_t)(end - p) - 12 ||
        desc_pad > (size_t)(end - p) - 12 - name_pad)
      return NULL;
    const unsigned char *name = p + 12, *desc = name + name_pad;
    if (type == NT_GNU_BUILD_ID && namesz == 4 && memcmp(name, "GNU", 4) == 0 &&
        descsz && descsz <= 64) {
      char *hex = malloc(2 * (size_t)descsz + 1);
      for (uint32_t i = 0; hex && i < descsz; ++i)
        snprintf(hex + 2 * i, 3, "%02x", desc[i]);
      return hex;
    }
    p = desc + desc_pad;
  }
  return NULL;
}

/* Reads the load bias and build id of the module mapped at `base` (its ELF
 * header is mapped there). ET_EXEC modules have a bias of 0. */
static void pasta__module_from_memory(struct pasta__module *m) {
  const ElfW(Ehdr) *eh = (const void *)(uintptr_t)m->base;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
      eh->e_phentsize != sizeof(ElfW(Phdr)))
    return;
  const ElfW(Phdr) *ph = (const void *)(uintptr_t)(m->base + eh->e_phoff);
  uint64_t first = UINT64_MAX;
  for (unsigned i = 0; i < eh->e_phnum; ++i)
    if (ph[i].p_type == PT_LOAD && ph[i].p_vaddr < first)
      first = ph[i].p_vaddr;
  if (first == UINT64_MAX)
    return;
  /* dli_fbase is where the first PT_LOAD's page starts. */
  m->bias = m->base - (first & ~(uint64_t)0xfff);
  for (unsigned i = 0; i < eh->e_phnum && !m->build_id; ++i)
    if (ph[i].p_type == PT_NOTE) {
      const unsigned char *p =
          (const void *)(uintptr_t)(m->bias + ph[i].p_vaddr);
      m->build_id = pasta__build_id_of_notes(p, p + ph[i].p_filesz);
    }
}

/* The registry entry of the module holding `pc`, added on first sight.
 * Called with the registry locked. */
static const struct pasta__module *pasta__module_of(const Dl_info *info,
                                                    int is_main) {
  uint64_t base = (uint64_t)(uintptr_t)info->dli_fbase;
  const char *fname = info->dli_fname ? info->dli_fname : "";
  for (size_t i = 0; i < pasta__nmodules; ++i)
    if (pasta__modules[i].base == base &&
        strcmp(pasta__modules[i].fname, fname) == 0)
      return &pasta__modules[i];
  if (pasta__reserve((void **)&pasta__modules, &pasta__modules_cap,
                     pasta__nmodules + 1, sizeof *pasta__modules))
    return NULL;
  struct pasta__module m;
  memset(&m, 0, sizeof m);
  m.base = base;
  m.fname = strdup(fname);
  char real[PATH_MAX];
  if (is_main) { /* dladdr names it after argv[0], maybe relative or bare */
    ssize_t n = readlink("/proc/self/exe", real, sizeof real - 1);
    if (n > 0) {
      real[n] = '\0';
      m.path = strdup(real);
    }
  } else if (strchr(fname, '/')) { /* else the vDSO: no file */
    m.path = strdup(realpath(fname, real) ? real : fname);
  }
  pasta__module_from_memory(&m);
  if (!m.fname) {
    free(m.path);
    free(m.build_id);
    return NULL;
  }
  pasta__modules[pasta__nmodules] = m;
  return &pasta__modules[pasta__nmodules++];
}

int pasta__locate(uint64_t address, pasta_frame_loc *out) {
  if (!out)
    return -1;
  memset(out, 0, sizeof *out);
  if (address < 2)
    return -1;
  uint64_t pc = address - 1; /* inside the call, not after it */
  Dl_info info;
  memset(&info, 0, sizeof info);
  if (!dladdr((void *)(uintptr_t)pc, &info) || !info.dli_fbase)
    return -1;
  /* The executable is the object that holds the program's entry point. */
  Dl_info main_info;
  unsigned long entry = getauxval(AT_ENTRY);
  int is_main = entry && dladdr((void *)entry, &main_info) &&
                main_info.dli_fbase == info.dli_fbase;
  pthread_mutex_lock(&pasta__modules_lock);
  const struct pasta__module *m = pasta__module_of(&info, is_main);
  if (m) {
    out->object = m->path;
    out->build_id = m->build_id;
    out->offset = address - m->base;
    out->vaddr = address - m->bias;
  }
  pthread_mutex_unlock(&pasta__modules_lock);
  return m ? 0 : -1;
}

/*===-- ELF files ---------------------------------------------------------===*/

static int pasta__pread_all(int fd, void *buf, size_t len, uint64_t off) {
  size_t done = 0;
  while (done < len) {
    ssize_t n = pread(fd, (char *)buf + done, len - done, (off_t)(off + done));
    if (n <= 0)
      return -1;
    done += (size_t)n;
  }
  return 0;
}

/* A section's bytes, malloc'd; NULL when it does not fit the file. */
static void *pasta__read_section(int fd, uint64_t size_of_file,
                                 const ElfW(Shdr) * sh) {
  if (sh->sh_type == SHT_NOBITS || sh->sh_offset > size_of_file ||
      sh->sh_size > size_of_file - sh->sh_offset || sh->sh_size > (1u << 30))
    return NULL;
  void *buf = malloc(sh->sh_size ? sh->sh_size : 1);
  if (buf && pasta__pread_all(fd, buf, sh->sh_size, sh->sh_offset)) {
    free(buf);
    return NULL;
  }
  return buf;
}

/* The section headers of an ELF file of this machine's class, malloc'd. */
static ElfW(Shdr) *
    pasta__section_headers(int fd, uint64_t size_of_file, size_t *n) {
  ElfW(Ehdr) eh;
  *n = 0;
  if (pasta__pread_all(fd, &eh, sizeof eh, 0) ||
      memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
      eh.e_shentsize != sizeof(ElfW(Shdr)) || !eh.e_shnum ||
      eh.e_shoff > size_of_file ||
      (uint64_t)eh.e_shnum * sizeof(ElfW(Shdr)) > size_of_file - eh.e_shoff)
    return NULL;
  ElfW(Shdr) *sh = malloc(eh.e_shnum * sizeof *sh);
  if (sh && pasta__pread_all(fd, sh, eh.e_shnum * sizeof *sh, eh.e_shoff)) {
    free(sh);
    return NULL;
  }
  *n = sh ? eh.e_shnum : 0;
  return sh;
}

static uint64_t pasta__file_size(int fd) {
  struct stat st;
  return fstat(fd, &st) == 0 && st.st_size > 0 ? (uint64_t)st.st_size : 0;
}

/* The build id of the ELF file at `path` (malloc'd hex), or NULL. */
static char *pasta__file_build_id(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  uint64_t size = pasta__file_size(fd);
  size_t n = 0;
  ElfW(Shdr) *sh = pasta__section_headers(fd, size, &n);
  char *id = NULL;
  for (size_t i = 0; i < n && !id; ++i) {
    if (sh[i].sh_type != SHT_NOTE)
      continue;
    unsigned char *notes = pasta__read_section(fd, size, &sh[i]);
    if (notes)
      id = pasta__build_id_of_notes(notes, notes + sh[i].sh_size);
    free(notes);
  }
  free(sh);
  close(fd);
  return id;
}

static int pasta__sym_cmp(const void *a, const void *b) {
  const struct pasta__sym *x = a, *y = b;
  if (x->lo != y->lo)
    return (x->lo > y->lo) - (x->lo < y->lo);
  return (x->size < y->size) - (x->size > y->size); /* sized ones first */
}

static size_t pasta__object_name(struct pasta__object *o, const char *name,
                                 size_t len) {
  if (pasta__reserve((void **)&o->names, &o->names_cap, o->names_len + len + 1,
                     1))
    return SIZE_MAX;
  memcpy(o->names + o->names_len, name, len);
  o->names[o->names_len + len] = '\0';
  o->names_len += len + 1;
  return o->names_len - len - 1;
}

/* The functions of the file's .symtab, or of .dynsym when it was stripped:
 * no libdwarf needed. */
static void pasta__read_symbols(struct pasta__object *o, const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  uint64_t size = pasta__file_size(fd);
  size_t n = 0;
  ElfW(Shdr) *sh = pasta__section_headers(fd, size, &n);
  size_t table = n;
  for (size_t i = 0; i < n; ++i)
    if (sh[i].sh_type == SHT_SYMTAB ||
        (sh[i].sh_type == SHT_DYNSYM && table == n))
      table = i;
  if (table < n && sh[table].sh_link < n &&
      sh[table].sh_entsize == sizeof(ElfW(Sym))) {
    ElfW(Sym) *syms = pasta__read_section(fd, size, &sh[table]);
    char *strs = pasta__read_section(fd, size, &sh[sh[table].sh_link]);
    size_t nsyms = sh[table].sh_size / sizeof(ElfW(Sym));
    size_t strs_size = sh[sh[table].sh_link].sh_size;
    for (size_t i = 0; syms && strs && i < nsyms; ++i) {
      const ElfW(Sym) *y = &syms[i];
      int type = ELF64_ST_TYPE(y->st_info);
      if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
          y->st_shndx == SHN_UNDEF || !y->st_value || y->st_name >= strs_size)
        continue;
      const char *name = strs + y->st_name;
      size_t len = strnlen(name, strs_size - y->st_name);
      size_t off = len ? pasta__object_name(o, name, len) : SIZE_MAX;
      if (off == SIZE_MAX || pasta__reserve((void **)&o->syms, &o->syms_cap,
                                            o->nsyms + 1, sizeof *o->syms))
        continue;
      o->syms[o->nsyms++] = (struct pasta__sym){y->st_value, y->st_size, off};
    }
    free(syms);
    free(strs);
  }
  free(sh);
  close(fd);
  pasta__sort(o->syms, o->nsyms, sizeof *o->syms, pasta__sym_cmp);
}

/* The symbol whose range holds target; a sizeless one holds everything up
 * to the next symbol. */
static const struct pasta__sym *pasta__find_sym(const struct pasta__object *o,
                                                uint64_t target) {
  size_t lo = 0, hi = o->nsyms; /* first symbol starting after target */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (o->syms[mid].lo <= target)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0)
    return NULL;
  /* Of the symbols that start there, the first: a sized one if any. */
  size_t i = lo - 1;
  while (i > 0 && o->syms[i - 1].lo == o->syms[lo - 1].lo)
    --i;
  const struct pasta__sym *y = &o->syms[i];
  return !y->size || target - y->lo < y->size ? y : NULL;
}

/*===-- Finding a module's file -------------------------------------------===*/

/* Only a regular file is read as a module: a profile from elsewhere may
 * name a fifo, a terminal or a device as a frame's object, and opening one
 * blocks (or reads without end). */
static int pasta__readable(const char *path) {
  struct stat st;
  return path && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
         access(path, R_OK) == 0;
}

/* Whether the file at `path` is the module: readable and, when the
 * module's build id was recorded and the file has one, of that build id. */
static int pasta__is_module(const char *path, const char *build_id) {
  if (!pasta__readable(path))
    return 0;
  if (!build_id)
    return 1;
  char *id = pasta__file_build_id(path);
  int same = !id || strcmp(id, build_id) == 0;
  free(id);
  return same;
}

/* Whether the file at `path` has the build id `build_id`. */
static int pasta__has_build_id(const char *path, const char *build_id) {
  char *id = pasta__file_build_id(path);
  int same = id && strcmp(id, build_id) == 0;
  free(id);
  return same;
}

/* Searches dir (and its subdirectories, `depth` levels) for a file named
 * `base` that is the module, or, with a build id, any file of that id. */
static char *pasta__search(const char *dir, const char *base,
                           const char *build_id, int depth) {
  DIR *d = opendir(dir);
  if (!d)
    return NULL;
  char *found = NULL;
  struct dirent *e;
  while (!found && (e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >=
        (int)sizeof path)
      continue;
    struct stat st;
    if (stat(path, &st) != 0)
      continue;
    if (S_ISDIR(st.st_mode)) {
      if (depth > 0)
        found = pasta__search(path, base, build_id, depth - 1);
      continue;
    }
    if (!S_ISREG(st.st_mode))
      continue;
    int named = base && strcmp(e->d_name, base) == 0;
    if ((named && pasta__is_module(path, build_id)) ||
        (!named && build_id && pasta__has_build_id(path, build_id)))
      found = strdup(path);
  }
  closedir(d);
  return found;
}

/* The file to read for the module: the recorded path if it is still the
 * module, else a search directory's file of the same name and build id,
 * else one of the same build id. NULL when none. */
static const char *pasta__module_file(pasta_symbolizer *s, const char *path,
                                      const char *build_id) {
  if (pasta__is_module(path, build_id))
    return pasta__intern(s, path);
  const char *slash = path ? strrchr(path, '/') : NULL;
  const char *base = slash ? slash + 1 : path;
  for (char **dir = s->search_dirs; dir && *dir; ++dir) {
    char *found = pasta__search(*dir, base, build_id, 3);
    if (found) {
      const char *r = pasta__intern(s, found);
      free(found);
      return r;
    }
  }
  return NULL;
}

/*===-- Lookups of recorded locations -------------------------------------===*/

static struct pasta__object *
pasta__object(pasta_symbolizer *s, const char *path, const char *build_id) {
  for (size_t i = 0; i < s->nobjects; ++i)
    if (same_or_null(s->objects[i].path, path) &&
        same_or_null(s->objects[i].build_id, build_id))
      return &s->objects[i];
  const char *p = pasta__intern(s, path), *b = pasta__intern(s, build_id);
  if ((path && !p) || (build_id && !b) ||
      pasta__reserve((void **)&s->objects, &s->objects_cap, s->nobjects + 1,
                     sizeof *s->objects))
    return NULL;
  struct pasta__object *o = &s->objects[s->nobjects++];
  memset(o, 0, sizeof *o);
  o->path = p;
  o->build_id = b;
  return o;
}

static int pasta__lookup_loc(pasta_symbolizer *s, const pasta_frame_loc *loc,
                             pasta_symbol *out) {
  if (loc->vaddr == 0)
    return -1;
  int is_main = s->main_path && same_or_null(loc->object, s->main_path);
  struct pasta__object *o = pasta__object(s, loc->object, loc->build_id);
  if (!o)
    return -1; /* out of memory */
  out->object = o->path;
  out->offset = loc->offset;
  if (!o->read) {
    o->read = 1;
    o->file = o->path ? pasta__module_file(s, o->path, o->build_id) : NULL;
    if (o->file) {
      pasta__read_symbols(o, o->file);
      /* System libraries seldom have DWARF; a program without it is worth
       * a note. */
      if (pasta__read_dwarf(s, o, o->file) != 0 && is_main)
        pasta__set_note(s, "no source lines in the program (built without -g?)",
                        o->path);
    } else if (o->path) {
      pasta__set_note(s, "a module's file was not found (give its directory)",
                      o->path);
    }
  }
  uint64_t target = loc->vaddr - 1; /* inside the call, not after it */
  const struct pasta__row *row = pasta__find_row(o, target);
  if (row && row->file) {
    out->file = o->files[row->file];
    out->line = row->line;
  }
  /* A mangled linkage name is the most exact; the ELF symbol table's beats
   * a bare DW_AT_name, which lacks C++ scopes. */
  const struct pasta__func *f = pasta__find_func(o->funcs, o->nfuncs, target);
  if (f && f->qualified)
    out->function = pasta__intern_function(s, o->names + f->name);
  const struct pasta__sym *y =
      out->function ? NULL : pasta__find_sym(o, target);
  if (y)
    out->function = pasta__intern_function(s, o->names + y->name);
  if (!out->function && f)
    out->function = pasta__intern_function(s, o->names + f->name);
  return 0;
}

/*===-- The address cache -------------------------------------------------===*/

static int pasta__cache_grow(pasta_symbolizer *s) {
  size_t cap = s->cache_cap ? 2 * s->cache_cap : 64;
  struct pasta__cached *t = calloc(cap, sizeof *t);
  if (!t)
    return -1;
  for (size_t i = 0; i < s->cache_cap; ++i) {
    if (!s->cache[i].address)
      continue;
    size_t j = pasta__hash_address(s->cache[i].address) & (cap - 1);
    while (t[j].address)
      j = (j + 1) & (cap - 1);
    t[j] = s->cache[i];
  }
  free(s->cache);
  s->cache = t;
  s->cache_cap = cap;
  return 0;
}

/* The slot for `address`: its entry, or the empty slot to fill; NULL when
 * the cache cannot grow (then lookups still work, uncached). */
static struct pasta__cached *pasta__cache_slot(pasta_symbolizer *s,
                                               uint64_t address) {
  if (2 * (s->ncache + 1) > s->cache_cap && pasta__cache_grow(s))
    return NULL;
  size_t mask = s->cache_cap - 1;
  size_t i = pasta__hash_address(address) & mask;
  while (s->cache[i].address && s->cache[i].address != address)
    i = (i + 1) & mask;
  return &s->cache[i];
}

/*===-- Interface ---------------------------------------------------------===*/

pasta_symbolizer *pasta__symbolizer_open_with(const char *libdwarf_soname) {
  pasta_symbolizer *s = calloc(1, sizeof *s);
  if (!s)
    return NULL;
  s->libdwarf_soname = pasta__intern(s, libdwarf_soname);
  if (!s->libdwarf_soname) {
    pasta__symbolizer_close(s);
    return NULL;
  }
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    s->main_path = pasta__intern(s, exe);
  }
  return s;
}

pasta_symbolizer *pasta__symbolizer_open(void) {
  /* PASTA_LIBDWARF names another libdwarf to load; "0" or "none" loads
   * none (function names then come from the ELF symbol tables alone, as on
   * a machine without libdwarf). */
  const char *soname = secure_getenv("PASTA_LIBDWARF"); /* not set-user-ID */
  if (soname && (!strcmp(soname, "0") || !strcmp(soname, "none")))
    soname = "(PASTA_LIBDWARF=none)";
  return pasta__symbolizer_open_with(
      soname && *soname ? soname : PASTA__LIBDWARF_SONAME);
}

int pasta__symbolizer_set_search_dirs(pasta_symbolizer *s,
                                      const char *const *dirs) {
  size_t n = 0;
  while (dirs && dirs[n])
    ++n;
  char **copy = calloc(n + 1, sizeof *copy);
  if (!copy)
    return -1;
  for (size_t i = 0; i < n; ++i)
    if (!(copy[i] = strdup(dirs[i]))) {
      for (size_t j = 0; j < i; ++j)
        free(copy[j]);
      free(copy);
      return -1;
    }
  for (char **d = s->search_dirs; d && *d; ++d)
    free(*d);
  free(s->search_dirs);
  s->search_dirs = copy;
  return 0;
}

int pasta__symbolize(pasta_symbolizer *s, uint64_t address, pasta_symbol *out) {
  if (!out)
    return -1;
  memset(out, 0, sizeof *out);
  if (!s || address == 0)
    return -1;
  struct pasta__cached *slot = pasta__cache_slot(s, address);
  if (slot && slot->address == address) {
    *out = slot->sym;
    return slot->rc;
  }
  pasta_frame_loc loc;
  int rc = pasta__locate(address, &loc);
  if (rc == 0)
    rc = pasta__lookup_loc(s, &loc, out);
  if (rc != 0)
    memset(out, 0, sizeof *out);
  /* The lookup may have interned strings but never touches the cache, so
   * the slot is still the right one. */
  if (slot) {
    slot->address = address;
    slot->rc = rc;
    slot->sym = *out;
    ++s->ncache;
  }
  return rc;
}

int pasta__symbolize_loc(pasta_symbolizer *s, const pasta_frame_loc *loc,
                         pasta_symbol *out) {
  if (!out)
    return -1;
  memset(out, 0, sizeof *out);
  if (!s || !loc)
    return -1;
  int rc = pasta__lookup_loc(s, loc, out);
  if (rc != 0)
    memset(out, 0, sizeof *out);
  return rc;
}

const char *pasta__symbolizer_note(const pasta_symbolizer *s) {
  return s && s->note[0] ? s->note : NULL;
}

static void pasta__free_object(struct pasta__object *o) {
  free(o->syms);
  free(o->seqs);
  free(o->rows);
  free(o->files);
  free(o->funcs);
  free(o->names);
}

void pasta__symbolizer_close(pasta_symbolizer *s) {
  if (!s)
    return;
  for (size_t i = 0; i < s->nobjects; ++i)
    pasta__free_object(&s->objects[i]);
  free(s->objects);
  for (size_t i = 0; i < s->strings_cap; ++i)
    free(s->strings[i]);
  free(s->strings);
  free(s->cache);
  for (char **d = s->search_dirs; d && *d; ++d)
    free(*d);
  free(s->search_dirs);
  if (s->libdwarf)
    dlclose(s->libdwarf);
  free(s);
}
