/*===- profile_module.c - A module's tables into the profile ---------------===*
 *
 * pasta_profile_add_module and what it needs: a module descriptor checked,
 * its function table mapped to the profile's functions (same-name device
 * rows merged, display names demangled or remembered), its sites' counts
 * and divergence rows added, and the lines that never ran counted. The
 * model itself is profile.c.
 *===----------------------------------------------------------------------===*/
#include "pasta/profile.h"

#include "demangle.h"
#include "profile_internal.h"

#include <stdlib.h>
#include <string.h>

int pasta_profile_check_desc(const struct pasta_module_desc *desc) {
  if (!desc || desc->magic != PASTA_ABI_MAGIC)
    return PASTA_PROFILE_EMAGIC;
  if (desc->version != PASTA_ABI_VERSION)
    return PASTA_PROFILE_EVERSION;
  return PASTA_PROFILE_OK;
}

static int valid_string(const char *strings, uint32_t size, uint64_t off) {
  return off < size && memchr(strings + off, '\0', size - off) != NULL;
}

static int valid_kernel(const struct pasta_func *funcs, uint32_t n,
                        uint32_t i) {
  return i < n && funcs[i].kind == PASTA_FUNC_KERNEL;
}

/* add_module's view of one function of the module. */
struct func_map {
  pasta_profile_func *entry; /* where the function's sites add up */
  const char *display;
  char *demangled; /* malloc'd, or NULL: the mangled name is shown */
};

/* The entry of an earlier device function row of this module with the
 * name of row i, or NULL: the plugin gives a device function called
 * directly a copy of its own (passes/CalleeCounts.h), whose row carries
 * the original's name; the two are one function to the user. */
static pasta_profile_func *same_device_function(const struct pasta_func *funcs,
                                                const struct func_map *map,
                                                uint32_t i, const char *blob) {
  for (uint32_t j = 0; j < i; ++j)
    if (funcs[j].kind == PASTA_FUNC_DEVICE && map[j].entry &&
        map[j].entry->kind == PASTA_FUNC_DEVICE &&
        strcmp(blob + funcs[j].name, blob + funcs[i].name) == 0)
      return map[j].entry;
  return NULL;
}

/* A device row by name, then by index (first_rows' sort). */
struct named_row {
  const char *name;
  uint32_t index;
};

static int cmp_named_row(const void *pa, const void *pb) {
  const struct named_row *a = pa, *b = pb;
  int c = strcmp(a->name, b->name);
  return c ? c : (a->index > b->index) - (a->index < b->index);
}

static long first_rows(const struct pasta_func *funcs, uint32_t nf,
                       const char *strings, uint32_t *first) {
  struct named_row *order = malloc((nf ? nf : 1) * sizeof *order);
  if (!order)
    return -1;
  uint32_t n = 0;
  for (uint32_t i = 0; i < nf; ++i) {
    first[i] = i;
    if (funcs[i].kind == PASTA_FUNC_DEVICE)
      order[n++] = (struct named_row){strings + funcs[i].name, i};
  }
  qsort(order, n, sizeof *order, cmp_named_row);
  long seconds = 0;
  for (uint32_t k = 1; k < n; ++k)
    if (strcmp(order[k].name, order[k - 1].name) == 0) {
      first[order[k].index] = first[order[k - 1].index];
      ++seconds;
    }
  free(order);
  return seconds;
}

/* Frees add_module's map (NULL allowed) and the names it demangled. */
/* Whether the plugin recorded a demangled name. Offset 0 is never one (the
 * symbol is in the strings before it): a table that leaves the field at
 * zero (made by hand, or by an older layout's initializer) has none. */
static int has_display(const struct pasta_func *f) {
  return f->display != PASTA_NONE && f->display != 0;
}

static char *copy_string(const char *s) {
  size_t len = strlen(s) + 1;
  char *copy = malloc(len);
  return copy ? memcpy(copy, s, len) : NULL;
}

static void free_map(struct func_map *map, uint32_t nf) {
  for (uint32_t i = 0; map && i < nf; ++i)
    free(map[i].demangled);
  free(map);
}

/* One divergence row: to its function's entry and as a line of its own
 * (no executions: its counters are no block's), merged with the sites of
 * its line by finalize. */
static void add_div_row(pasta_profile *p, const struct pasta_div_row *row,
                        const struct pasta_func *funcs,
                        const struct func_map *map, const char *blob,
                        const uint64_t *counters, uint32_t seq) {
  const uint64_t *figures = &counters[row->counter];
  profile_div_add(map[row->func].entry->div, figures);
  pasta_profile_raw_line *r = &p->raw_lines[p->num_raw_lines++];
  memset(r, 0, sizeof *r);
  profile_div_add(r->line.div, figures);
  r->line.div_proven = row->proven;
  r->line.div_measured = row->measured;
  r->line.file = row->file == PASTA_NONE ? NULL : blob + row->file;
  r->line.line = row->line;
  r->line.kind = funcs[row->func].kind;
  r->line.function = map[row->func].display;
  r->module_seq = seq;
  r->counter = row->counter;
}

/* Whether a site has a counter of bytes (or of lanes, abi.h). */
static int has_bytes_counter(const struct pasta_site *s) {
  return s->bytes_counter != PASTA_NONE && s->bytes_counter != PASTA_WARP_TOTAL;
}

/* Whether a site ran: its block counter, or its bytes counter (memory
 * operations of run-time length), is not 0. */
static int site_ran(const struct pasta_site *s, const uint64_t *counters) {
  return counters[s->counter] != 0 ||
         (has_bytes_counter(s) && counters[s->bytes_counter] != 0);
}

/* Remembers the key of a line that did not run (room reserved). */
static void add_zero_line(pasta_profile *p, const char *file, uint32_t line,
                          const char *function, uint32_t kind) {
  pasta_profile_zero_line *z = &p->zero_lines[p->num_zero_lines];
  /* A block's sites are adjacent: most repeat the line before. */
  if (p->num_zero_lines && z[-1].file == file && z[-1].line == line &&
      z[-1].function == function && z[-1].kind == kind)
    return;
  ++p->num_zero_lines;
  z->file = file;
  z->function = function;
  z->line = line;
  z->kind = kind;
}

void pasta_profile_remember_names(const struct pasta_module_desc *desc) {
  if (pasta_profile_check_desc(desc) != PASTA_PROFILE_OK)
    return;
  const struct pasta_func *funcs =
      (const struct pasta_func *)(uintptr_t)desc->funcs;
  const char *strings = (const char *)(uintptr_t)desc->strings;
  uint32_t ss = desc->strings_size;
  for (uint32_t i = 0; funcs && strings && i < desc->num_funcs; ++i)
    if (has_display(&funcs[i]) && valid_string(strings, ss, funcs[i].name) &&
        valid_string(strings, ss, funcs[i].display))
      pasta__demangle_remember(strings + funcs[i].name,
                               strings + funcs[i].display);
}

/* The lines of a descriptor's `uncounted` note (what the counts miss), each
 * recorded once in the profile. */
static int add_uncounted_lines(pasta_profile *p, const char *text) {
  while (*text) {
    size_t len = strcspn(text, "\n");
    char *line = malloc(len + 1);
    if (!line)
      return PASTA_PROFILE_ENOMEM;
    memcpy(line, text, len);
    line[len] = '\0';
    int status = len ? pasta_profile_add_uncounted(p, line) : PASTA_PROFILE_OK;
    free(line);
    if (status != PASTA_PROFILE_OK)
      return status;
    text += len + (text[len] == '\n');
  }
  return PASTA_PROFILE_OK;
}

int pasta_profile_add_module(pasta_profile *p,
                             const struct pasta_module_desc *desc,
                             const uint64_t *counters) {
  if (p->finalized)
    return PASTA_PROFILE_EFINALIZED;
  int status = pasta_profile_check_desc(desc);
  if (status != PASTA_PROFILE_OK)
    return status;

  const struct pasta_func *funcs =
      (const struct pasta_func *)(uintptr_t)desc->funcs;
  const struct pasta_site *sites =
      (const struct pasta_site *)(uintptr_t)desc->sites;
  const char *strings = (const char *)(uintptr_t)desc->strings;
  uint32_t nf = desc->num_funcs, ns = desc->num_sites;
  uint32_t nc = desc->num_counters, ss = desc->strings_size;
  if ((nf && !funcs) || (ns && !sites) || (ss && !strings) || (nc && !counters))
    return PASTA_PROFILE_EMALFORMED;

  /* Validate everything before changing anything. */
  size_t nk = 0, nd = 0, nh = 0, names = 0;
  for (uint32_t i = 0; i < nf; ++i) {
    const struct pasta_func *f = &funcs[i];
    if (!valid_string(strings, ss, f->name) ||
        (f->file != PASTA_NONE && !valid_string(strings, ss, f->file)) ||
        (has_display(f) && !valid_string(strings, ss, f->display)) ||
        f->calls_counter >= nc || f->kind > PASTA_FUNC_HOST)
      return PASTA_PROFILE_EMALFORMED;
    if (f->kind == PASTA_FUNC_KERNEL)
      ++nk;
    else if (f->kind == PASTA_FUNC_HOST)
      ++nh;
    else if (!valid_kernel(funcs, nf, f->owner))
      ++nd;
  }
  const struct pasta_div_row *div_rows =
      (const struct pasta_div_row *)(uintptr_t)desc->div_rows;
  uint32_t nr = desc->num_div_rows;
  if (nr && !div_rows)
    return PASTA_PROFILE_EMALFORMED;
  for (uint32_t i = 0; i < nr; ++i) {
    const struct pasta_div_row *r = &div_rows[i];
    if (r->func >= nf ||
        (r->file != PASTA_NONE && !valid_string(strings, ss, r->file)) ||
        nc < PASTA_DIV_NUM || r->counter > nc - PASTA_DIV_NUM)
      return PASTA_PROFILE_EMALFORMED;
  }
  for (uint32_t i = 0; i < ns; ++i) {
    const struct pasta_site *s = &sites[i];
    if (s->func >= nf ||
        (s->file != PASTA_NONE && !valid_string(strings, ss, s->file)) ||
        s->counter >= nc ||
        (s->dyn_counter != PASTA_NONE &&
         (nc < PASTA_DYN_NUM || s->dyn_counter > nc - PASTA_DYN_NUM)) ||
        (has_bytes_counter(s) && s->bytes_counter >= nc))
      return PASTA_PROFILE_EMALFORMED;
  }
  if (desc->uncounted && !valid_string(strings, ss, desc->uncounted))
    return PASTA_PROFILE_EMALFORMED;

  /* Which functions ran (a call, an executed site or a divergence figure;
   * a device function that one kernel owns counts for that kernel, and
   * kernels are always listed). Unless the profile lists everything, the
   * others get no entry, and the sites and divergence rows that did not
   * run no line: they are counted instead. */
  unsigned char *ran = calloc(nf ? nf : 1, 1);
  if (!ran)
    return PASTA_PROFILE_ENOMEM;
  size_t zero_sites = 0, zero_rows = 0;
  for (uint32_t i = 0; i < nf; ++i)
    ran[i] = p->list_all || funcs[i].kind == PASTA_FUNC_KERNEL ||
             counters[funcs[i].calls_counter] != 0;
  for (uint32_t i = 0; i < ns; ++i) {
    if (site_ran(&sites[i], counters))
      ran[sites[i].func] = 1;
    else
      ++zero_sites;
  }
  for (uint32_t i = 0; i < nr; ++i) {
    if (pasta_div_any(&counters[div_rows[i].counter]))
      ran[div_rows[i].func] = 1;
    else
      ++zero_rows;
  }
  if (p->list_all)
    zero_sites = zero_rows = 0;
  /* Rows of one device function (a twin's and its original's) ran if
   * either did, and are left out once. */
  uint32_t *first = malloc((nf ? nf : 1) * sizeof *first);
  long twins = first ? first_rows(funcs, nf, strings, first) : -1;
  if (twins < 0) {
    free(first);
    free(ran);
    return PASTA_PROFILE_ENOMEM;
  }
  for (uint32_t i = 0; twins && i < nf; ++i)
    ran[first[i]] |= ran[i];
  for (uint32_t i = 0; twins && i < nf; ++i)
    ran[i] = ran[first[i]];
  size_t omit_d = 0, omit_h = 0;
  for (uint32_t i = 0; i < nf; ++i) {
    const struct pasta_func *f = &funcs[i];
    if (ran[i] || f->kind == PASTA_FUNC_KERNEL)
      continue;
    if (first[i] != i)
      continue; /* counted with its first row */
    if (f->kind == PASTA_FUNC_HOST) {
      --nh;
      ++omit_h;
    } else if (!valid_kernel(funcs, nf, f->owner)) {
      --nd;
      ++omit_d;
    }
  }
  free(first);

  /* Reserve all memory, so that filling in cannot fail half-way. The
   * display names are demangled first, to know their lengths. */
  struct func_map *map = calloc(nf ? nf : 1, sizeof *map);
  for (uint32_t i = 0; map && i < nf; ++i) {
    /* The plugin's demangling (LLVM's) when it recorded one; the C++
     * runtime's only for names it did not. */
    map[i].demangled = has_display(&funcs[i])
                           ? copy_string(strings + funcs[i].display)
                           : pasta_demangle(strings + funcs[i].name);
    names +=
        strlen(map[i].demangled ? map[i].demangled : strings + funcs[i].name) +
        1;
  }
  char *blob = map ? pasta__profile_alloc(p, (size_t)ss + names) : NULL;
  if (!blob ||
      pasta__profile_reserve((void **)&p->kernels, &p->cap_kernels,
                             p->num_kernels, nk, sizeof *p->kernels) ||
      pasta__profile_reserve((void **)&p->device_functions,
                             &p->cap_device_functions, p->num_device_functions,
                             nd, sizeof *p->device_functions) ||
      pasta__profile_reserve((void **)&p->host_functions,
                             &p->cap_host_functions, p->num_host_functions, nh,
                             sizeof *p->host_functions) ||
      pasta__profile_reserve(
          (void **)&p->raw_lines, &p->cap_raw_lines, p->num_raw_lines,
          (size_t)ns + nr - zero_sites - zero_rows, sizeof *p->raw_lines) ||
      pasta__profile_reserve((void **)&p->zero_lines, &p->cap_zero_lines,
                             p->num_zero_lines, zero_sites + zero_rows,
                             sizeof *p->zero_lines)) {
    free_map(map, nf);
    free(ran);
    return PASTA_PROFILE_ENOMEM;
  }
  /* The notes last of what can fail: a module rejected above leaves none. */
  status =
      add_uncounted_lines(p, desc->uncounted ? strings + desc->uncounted : "");
  if (status != PASTA_PROFILE_OK) {
    free_map(map, nf);
    free(ran);
    return status;
  }
  p->omitted.device_functions += omit_d;
  p->omitted.host_functions += omit_h;

  if (ss)
    memcpy(blob, strings, ss);
  const char *module = valid_string(strings, ss, desc->module_name)
                           ? blob + desc->module_name
                           : NULL;
  char *display = blob + ss;
  for (uint32_t i = 0; i < nf; ++i) {
    const struct pasta_func *f = &funcs[i];
    const char *mangled = blob + f->name;
    /* Whoever demangles this name later (the trace, call paths) reads it
     * as the plugin did. */
    if (has_display(f))
      pasta__demangle_remember(mangled, blob + f->display);
    const char *shown = map[i].demangled ? map[i].demangled : mangled;
    size_t room = strlen(shown) + 1;
    map[i].display = memcpy(display, shown, room);
    display += room;
    pasta_profile_func *e = NULL;
    int own_row =
        f->kind == PASTA_FUNC_DEVICE && !valid_kernel(funcs, nf, f->owner);
    pasta_profile_func *twin =
        own_row && ran[i] ? same_device_function(funcs, map, i, blob) : NULL;
    if (twin) { /* a second row of one function: the plugin's copy */
      map[i].entry = twin;
      twin->calls = pasta__sat_add(twin->calls, counters[f->calls_counter]);
      continue;
    }
    if (!ran[i])
      ; /* left out: it did not run */
    else if (f->kind == PASTA_FUNC_KERNEL)
      e = &p->kernels[p->num_kernels++];
    else if (f->kind == PASTA_FUNC_HOST)
      e = &p->host_functions[p->num_host_functions++];
    else if (own_row)
      e = &p->device_functions[p->num_device_functions++];
    map[i].entry = e;
    if (!e)
      continue;
    memset(e, 0, sizeof *e);
    e->name = map[i].display;
    e->mangled = mangled;
    e->module = module;
    e->file = f->file == PASTA_NONE ? NULL : blob + f->file;
    e->line = f->line;
    e->kind = f->kind;
    e->calls = counters[f->calls_counter];
  }
  /* Device functions owned by one kernel add to that kernel. */
  for (uint32_t i = 0; i < nf; ++i)
    if (!map[i].entry && funcs[i].kind == PASTA_FUNC_DEVICE &&
        valid_kernel(funcs, nf, funcs[i].owner))
      map[i].entry = map[funcs[i].owner].entry;

  uint32_t seq = p->num_modules++;
  for (uint32_t i = 0; i < ns; ++i) {
    const struct pasta_site *s = &sites[i];
    const struct pasta_func *f = &funcs[s->func];
    if (!p->list_all && !site_ran(s, counters)) {
      add_zero_line(p, s->file == PASTA_NONE ? NULL : blob + s->file, s->line,
                    map[s->func].display, f->kind);
      continue;
    }
    uint64_t n = counters[s->counter];
    const uint64_t *dyn =
        s->dyn_counter == PASTA_NONE ? NULL : &counters[s->dyn_counter];
    pasta_profile_raw_line *r = &p->raw_lines[p->num_raw_lines++];
    memset(r, 0, sizeof *r);
    const uint64_t *bytes =
        has_bytes_counter(s) ? &counters[s->bytes_counter] : NULL;
    pasta__site_counts(s, n, bytes, dyn, f->kind != PASTA_FUNC_HOST,
                       &r->line.counts);
    pasta_counts_add(&map[s->func].entry->counts, &r->line.counts);
    r->line.file = s->file == PASTA_NONE ? NULL : blob + s->file;
    r->line.line = s->line;
    r->line.kind = f->kind;
    r->line.function = map[s->func].display;
    r->line.executions = n;
    r->module_seq = seq;
    r->counter = s->counter;
  }
  for (uint32_t i = 0; i < nr; ++i) {
    const struct pasta_div_row *r = &div_rows[i];
    if (p->list_all || pasta_div_any(&counters[r->counter]))
      add_div_row(p, r, funcs, map, blob, counters, seq);
    else
      add_zero_line(p, r->file == PASTA_NONE ? NULL : blob + r->file, r->line,
                    map[r->func].display, funcs[r->func].kind);
  }
  free_map(map, nf);
  free(ran);
  return PASTA_PROFILE_OK;
}

/* A copy of `s` in the profile's memory; *ok is cleared without memory. */
