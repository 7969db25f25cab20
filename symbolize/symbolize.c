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
 * corrected in dwarf.c (pasta__ends_sequence, pasta__fix_default_file).
 *
 * This file holds the lookups of recorded locations, the address cache and
 * the interface; dwarf.c reads DWARF, elf.c ELF files, locate.c the modules
 * of the running process, support.c has the helpers they share
 * (internal.h).
 *
 * Failure is never fatal and never printed: a missing libdwarf or an object
 * without debug info leaves file and line empty, and pasta__symbolizer_note()
 * says why (libdwarf, or a program without -g), for the caller to report
 * once.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* dladdr, Dl_info, RTLD_DEFAULT */

#include "internal.h"

#include "profile/demangle.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PASTA__LIBDWARF_SONAME "libdwarf.so.1"

/*===-- Small helpers -----------------------------------------------------===*/

static int same_or_null(const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

static uint64_t pasta__hash_address(uint64_t a) {
  return (a ^ (a >> 29)) * 0x9e3779b97f4a7c15u;
}

/*===-- Function names ----------------------------------------------------===*/

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

pasta_symbolizer *pasta__symbolizer_open(const char *libdwarf) {
  /* "0" or "none" loads none (function names then come from the ELF symbol
   * tables alone, as on a machine without libdwarf). */
  if (libdwarf && (!strcmp(libdwarf, "0") || !strcmp(libdwarf, "none")))
    libdwarf = "(PASTA_LIBDWARF=none)";
  return pasta__symbolizer_open_with(
      libdwarf && *libdwarf ? libdwarf : PASTA__LIBDWARF_SONAME);
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
