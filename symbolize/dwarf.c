/*===- dwarf.c - libdwarf, loaded at run time, and one object's DWARF -----===*
 *
 * See symbolize.c. libdwarf is opened with dlopen() on the first object
 * that needs it and called through function pointers. The first lookup in
 * an object reads all of its DWARF once: every line table sequence (rows in
 * address order) and every subprogram's address range and name, with the
 * corrections libdwarf 20210528 needs (pasta__ends_sequence,
 * pasta__fix_default_file).
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "internal.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
const struct pasta__func *pasta__find_func(const struct pasta__func *funcs,
                                           size_t n, uint64_t target) {
  /* the first function starting after target */
  size_t lo = pasta__upper_bound(funcs, n, sizeof *funcs, target);
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
int pasta__read_dwarf(pasta_symbolizer *s, struct pasta__object *o,
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
const struct pasta__row *pasta__find_row(const struct pasta__object *o,
                                         uint64_t target) {
  /* the first sequence starting after target */
  size_t lo = pasta__upper_bound(o->seqs, o->nseqs, sizeof *o->seqs, target);
  if (lo == 0 || target >= o->seqs[lo - 1].hi)
    return NULL; /* before the first sequence or past its end_sequence */
  const struct pasta__seq *q = &o->seqs[lo - 1];
  const struct pasta__row *rows = o->rows + q->first;
  /* the first row after target; the one before it is ours */
  lo = pasta__upper_bound(rows, q->count, sizeof *rows, target);
  return &rows[lo - 1]; /* lo >= 1: rows[0].addr == q->lo <= target */
}
