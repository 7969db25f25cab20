/*===- profile.c - PASTA's in-memory profile model ------------------------===*
 *
 * Builds per-function and per-line totals from the tables of instrumented
 * modules (see profile.h for the semantics). No I/O; every allocation failure
 * is reported to the caller, never fatal.
 *===----------------------------------------------------------------------===*/
#include "pasta/profile.h"

#include "demangle.h"
#include "profile_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Memory the profile owns: string tables and display names. */
struct pasta_profile_chunk {
  struct pasta_profile_chunk *next;
  char data[];
};

char *pasta__profile_alloc(pasta_profile *p, size_t size) {
  struct pasta_profile_chunk *c = malloc(sizeof *c + (size ? size : 1));
  if (!c)
    return NULL;
  c->next = p->chunks;
  p->chunks = c;
  return c->data;
}

/* Grows *array (of `elem` bytes per element) to hold `extra` more. */
int pasta__profile_reserve(void **array, size_t *cap, size_t num, size_t extra,
                           size_t elem) {
  if (extra > (size_t)-1 / elem - num)
    return -1;
  size_t need = num + extra;
  if (need <= *cap)
    return 0;
  size_t cap2 = *cap ? *cap : 16;
  while (cap2 < need)
    cap2 = cap2 > (size_t)-1 / 2 / elem ? need : cap2 * 2;
  void *a = realloc(*array, cap2 * elem);
  if (!a)
    return -1;
  *array = a;
  *cap = cap2;
  return 0;
}

static uint64_t sat_sub(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

static uint64_t sat_mul(uint64_t a, uint64_t b) {
  if (a && b > UINT64_MAX / a)
    return UINT64_MAX;
  return a * b;
}

/* The per-space groups of pasta_counts, in pasta_mix_index order. */
enum {
#define PASTA_X(name, on_lines) +1
  NUM_SPACE_GROUPS = 0 PASTA_COUNTS_SPACE_GROUPS(PASTA_X)
#undef PASTA_X
};

static uint64_t *space_group(pasta_counts *c, unsigned g) {
  uint64_t *const groups[NUM_SPACE_GROUPS] = {
#define PASTA_X(name, on_lines) c->name,
      PASTA_COUNTS_SPACE_GROUPS(PASTA_X)
#undef PASTA_X
  };
  return groups[g < NUM_SPACE_GROUPS ? g : NUM_SPACE_GROUPS - 1];
}

void pasta_counts_add(pasta_counts *dst, const pasta_counts *src) {
  for (unsigned g = 0; g < NUM_SPACE_GROUPS; ++g) {
    uint64_t *d = space_group(dst, g);
    const uint64_t *s = space_group((pasta_counts *)src, g);
    for (unsigned i = 0; i < PASTA_NUM_SPACES; ++i)
      d[i] = pasta__sat_add(d[i], s[i]);
  }
  for (unsigned i = 0; i < PASTA_NUM_PRECISIONS; ++i)
    dst->flops[i] = pasta__sat_add(dst->flops[i], src->flops[i]);
  dst->special = pasta__sat_add(dst->special, src->special);
}

/* Moves the generic part of one group: `shared` and `local` of it were
 * resolved at run time, the rest is global. */
static void resolve_generic(uint64_t *a, uint64_t shared, uint64_t local) {
  uint64_t generic = a[PASTA_SPACE_GENERIC];
  a[PASTA_SPACE_SHARED] = pasta__sat_add(a[PASTA_SPACE_SHARED], shared);
  a[PASTA_SPACE_LOCAL] = pasta__sat_add(a[PASTA_SPACE_LOCAL], local);
  a[PASTA_SPACE_GLOBAL] = pasta__sat_add(
      a[PASTA_SPACE_GLOBAL], sat_sub(sat_sub(generic, shared), local));
  a[PASTA_SPACE_GENERIC] = 0;
}

/* Whether group g of pasta_counts counts bytes. */
static int bytes_group(unsigned g) { return g == 2 || g == 3 || g == 5; }

/* Dynamic totals of one site executed `n` times; its byte entries and
 * FLOPs count per unit of `bytes` instead when the site has a bytes counter
 * (memory operations of run-time length, FLOPs under a shuffle's predicate,
 * abi.h), its FLOPs per 32 executions when the site is a warp's total
 * (PASTA_WARP_TOTAL: its block runs in whole warps). */
void pasta__site_counts(const struct pasta_site *s, uint64_t n,
                        const uint64_t *bytes, const uint64_t *dyn, int resolve,
                        pasta_counts *out) {
  memset(out, 0, sizeof *out);
  for (unsigned g = 0; g < NUM_SPACE_GROUPS; ++g) {
    uint64_t *a = space_group(out, g);
    uint64_t times = bytes && bytes_group(g) ? *bytes : n;
    for (unsigned i = 0; i < PASTA_NUM_SPACES; ++i)
      a[i] = sat_mul(s->mix[g * PASTA_NUM_SPACES + i], times);
  }
  uint64_t flop_times = bytes ? *bytes : n;
  if (s->bytes_counter == PASTA_WARP_TOTAL)
    flop_times = n / 32;
  for (unsigned i = 0; i < PASTA_NUM_PRECISIONS; ++i)
    out->flops[i] = sat_mul(s->mix[PASTA_MIX_FLOPS + i], flop_times);
  out->special = sat_mul(s->mix[PASTA_MIX_SPECIAL], n);
  if (!resolve)
    return;
  static const uint64_t none[PASTA_DYN_NUM];
  if (!dyn)
    dyn = none;
  resolve_generic(out->loads, dyn[PASTA_DYN_LD_SHARED],
                  dyn[PASTA_DYN_LD_LOCAL]);
  resolve_generic(out->load_bytes, dyn[PASTA_DYN_LD_SHARED_BYTES],
                  dyn[PASTA_DYN_LD_LOCAL_BYTES]);
  resolve_generic(out->stores, dyn[PASTA_DYN_ST_SHARED],
                  dyn[PASTA_DYN_ST_LOCAL]);
  resolve_generic(out->store_bytes, dyn[PASTA_DYN_ST_SHARED_BYTES],
                  dyn[PASTA_DYN_ST_LOCAL_BYTES]);
  /* Generic atomics (and memcpy/memset of constant length) have no run-time
   * classification: they count as global. */
  resolve_generic(out->atomics, 0, 0);
  resolve_generic(out->atomic_bytes, 0, 0);
}

void pasta_profile_init(pasta_profile *p) {
  memset(p, 0, sizeof *p);
  p->job.rank = p->job.size = p->job.local_rank = -1;
}

int pasta_profile_set_info(pasta_profile *p, const char *program, uint64_t pid,
                           int64_t created) {
  size_t len = strlen(program ? program : "");
  char *copy = pasta__profile_alloc(p, len + 1);
  if (!copy)
    return -1;
  memcpy(copy, program ? program : "", len + 1);
  p->program = copy;
  p->pid = pid;
  p->created = created;
  return 0;
}

static const char *profile_strdup(pasta_profile *p, const char *s, int *ok) {
  if (!s)
    return NULL;
  size_t len = strlen(s);
  char *copy = pasta__profile_alloc(p, len + 1);
  if (!copy) {
    *ok = 0;
    return NULL;
  }
  memcpy(copy, s, len + 1);
  return copy;
}

/* A copy of `n` bytes at `src` in the profile's memory (NULL for none);
 * *ok is cleared without memory. */
static const void *profile_memdup(pasta_profile *p, const void *src, size_t n,
                                  int *ok) {
  if (!src || !n)
    return NULL;
  char *copy = pasta__profile_alloc(p, n);
  if (!copy) {
    *ok = 0;
    return NULL;
  }
  return memcpy(copy, src, n);
}

/* `job` with its strings and GPUs copied into the profile's memory. */
static pasta_profile_job copy_job(pasta_profile *p,
                                  const pasta_profile_job *job, int *ok) {
  pasta_profile_job e = *job;
  e.launcher = profile_strdup(p, job->launcher, ok);
  e.host = profile_strdup(p, job->host, ok);
  pasta_profile_gpu *gpus = (pasta_profile_gpu *)profile_memdup(
      p, job->gpus, job->num_gpus * sizeof *job->gpus, ok);
  for (size_t i = 0; gpus && i < job->num_gpus; ++i)
    gpus[i].uuid = profile_strdup(p, job->gpus[i].uuid, ok);
  e.gpus = gpus;
  e.num_gpus = gpus ? job->num_gpus : 0;
  return e;
}

int pasta_profile_set_job(pasta_profile *p, const pasta_profile_job *job) {
  int ok = 1;
  pasta_profile_job e = copy_job(p, job, &ok);
  if (!ok)
    return -1;
  p->job = e;
  return 0;
}

uint64_t pasta_rank_metric_value(enum pasta_rank_metric metric, uint64_t calls,
                                 const pasta_counts *c) {
  switch (metric) {
  case PASTA_RANK_BYTES:
    return pasta_counts_bytes(c);
  case PASTA_RANK_FLOPS:
    return pasta_counts_flops(c);
  default:
    return calls;
  }
}

static const pasta_rank_stats *copy_ranks(pasta_profile *p,
                                          const pasta_rank_stats *r, int *ok) {
  return profile_memdup(p, r, sizeof *r, ok);
}

int pasta_profile_add_func(pasta_profile *p, const pasta_profile_func *f) {
  if (p->finalized)
    return PASTA_PROFILE_EFINALIZED;
  if (!f->mangled || f->kind > PASTA_FUNC_HOST)
    return PASTA_PROFILE_EMALFORMED;
  pasta_profile_func **array = &p->kernels;
  size_t *num = &p->num_kernels, *cap = &p->cap_kernels;
  if (f->kind == PASTA_FUNC_DEVICE) {
    array = &p->device_functions;
    num = &p->num_device_functions;
    cap = &p->cap_device_functions;
  } else if (f->kind == PASTA_FUNC_HOST) {
    array = &p->host_functions;
    num = &p->num_host_functions;
    cap = &p->cap_host_functions;
  }
  if (pasta__profile_reserve((void **)array, cap, *num, 1, sizeof **array))
    return PASTA_PROFILE_ENOMEM;
  /* Strings are allocated before the entry is counted: a failure leaks
   * nothing (the chunks belong to the profile) and adds no entry. */
  pasta_profile_func e = *f;
  int ok = 1;
  e.mangled = profile_strdup(p, f->mangled, &ok);
  if (f->name) {
    e.name = profile_strdup(p, f->name, &ok);
  } else if (ok) {
    char *demangled = pasta_demangle(f->mangled);
    e.name = profile_strdup(p, demangled ? demangled : f->mangled, &ok);
    free(demangled);
  }
  e.module = profile_strdup(p, f->module, &ok);
  e.file = profile_strdup(p, f->file, &ok);
  e.ranks = copy_ranks(p, f->ranks, &ok);
  if (!ok)
    return PASTA_PROFILE_ENOMEM;
  (*array)[(*num)++] = e;
  return PASTA_PROFILE_OK;
}

int pasta_profile_add_line(pasta_profile *p, const pasta_profile_line *l) {
  if (p->finalized)
    return PASTA_PROFILE_EFINALIZED;
  if (!l->function || l->kind > PASTA_FUNC_HOST)
    return PASTA_PROFILE_EMALFORMED;
  if (pasta__profile_reserve((void **)&p->raw_lines, &p->cap_raw_lines,
                             p->num_raw_lines, 1, sizeof *p->raw_lines))
    return PASTA_PROFILE_ENOMEM;
  pasta_profile_raw_line r;
  memset(&r, 0, sizeof r);
  r.line = *l;
  int ok = 1;
  r.line.file = profile_strdup(p, l->file, &ok);
  r.line.function = profile_strdup(p, l->function, &ok);
  r.line.ranks = copy_ranks(p, l->ranks, &ok);
  if (!ok)
    return PASTA_PROFILE_ENOMEM;
  /* A block of its own, so that finalize adds its executions to those of
   * the other entries of its line: no add_module call gets this sequence
   * number, and raw line indices are distinct. */
  r.module_seq = UINT32_MAX;
  r.counter = (uint32_t)p->num_raw_lines;
  p->raw_lines[p->num_raw_lines++] = r;
  return PASTA_PROFILE_OK;
}

int pasta_profile_add_source(pasta_profile *p, const pasta_profile_source *s) {
  if (pasta__profile_reserve((void **)&p->merged_from, &p->cap_merged_from,
                             p->num_merged_from, 1, sizeof *p->merged_from))
    return PASTA_PROFILE_ENOMEM;
  pasta_profile_source e = *s;
  int ok = 1;
  e.file = profile_strdup(p, s->file, &ok);
  e.program = profile_strdup(p, s->program, &ok);
  e.job = copy_job(p, &s->job, &ok);
  if (!ok)
    return PASTA_PROFILE_ENOMEM;
  p->merged_from[p->num_merged_from++] = e;
  return PASTA_PROFILE_OK;
}

int pasta_profile_add_uncounted(pasta_profile *p, const char *note) {
  for (size_t i = 0; i < p->num_uncounted; ++i)
    if (strcmp(p->uncounted[i], note) == 0)
      return PASTA_PROFILE_OK;
  if (pasta__profile_reserve((void **)&p->uncounted, &p->cap_uncounted,
                             p->num_uncounted, 1, sizeof *p->uncounted))
    return PASTA_PROFILE_ENOMEM;
  int ok = 1;
  const char *copy = profile_strdup(p, note, &ok);
  if (!ok)
    return PASTA_PROFILE_ENOMEM;
  p->uncounted[p->num_uncounted++] = copy;
  return PASTA_PROFILE_OK;
}

static int cmp_str(const char *a, const char *b) {
  if (a == b) /* the same string of one module's tables */
    return 0;
  if (!a || !b)
    return (a != NULL) - (b != NULL);
  return strcmp(a, b);
}

static int cmp_u64_desc(uint64_t a, uint64_t b) { return (a < b) - (a > b); }

static int cmp_u32(uint32_t a, uint32_t b) { return (a > b) - (a < b); }

static int cmp_line_key(const pasta_profile_line *a,
                        const pasta_profile_line *b) {
  int c = cmp_str(a->file, b->file);
  if (!c)
    c = cmp_u32(a->line, b->line);
  if (!c)
    c = cmp_str(a->function, b->function);
  if (!c)
    c = cmp_u32(a->kind, b->kind);
  return c;
}

static int cmp_raw(const void *pa, const void *pb) {
  const pasta_profile_raw_line *a = pa, *b = pb;
  int c = cmp_line_key(&a->line, &b->line);
  if (!c)
    c = cmp_u32(a->module_seq, b->module_seq);
  if (!c)
    c = cmp_u32(a->counter, b->counter);
  return c;
}

static int cmp_line_cost(const void *pa, const void *pb) {
  const pasta_profile_line *a = pa, *b = pb;
  int c = cmp_u64_desc(pasta__sat_add(pasta_counts_bytes(&a->counts),
                                      pasta_counts_flops(&a->counts)),
                       pasta__sat_add(pasta_counts_bytes(&b->counts),
                                      pasta_counts_flops(&b->counts)));
  if (!c)
    c = cmp_u64_desc(a->executions, b->executions);
  if (!c)
    c = cmp_line_key(a, b);
  return c;
}

static int cmp_func(const void *pa, const void *pb) {
  const pasta_profile_func *a = pa, *b = pb;
  int c = cmp_u64_desc(a->calls, b->calls);
  if (!c)
    c = cmp_str(a->name, b->name);
  if (!c)
    c = cmp_str(a->mangled, b->mangled);
  if (!c)
    c = cmp_str(a->module, b->module);
  return c;
}

static int cmp_zero_line(const void *pa, const void *pb) {
  const pasta_profile_zero_line *a = pa, *b = pb;
  int c = cmp_str(a->file, b->file);
  if (!c)
    c = cmp_u32(a->line, b->line);
  if (!c)
    c = cmp_str(a->function, b->function);
  if (!c)
    c = cmp_u32(a->kind, b->kind);
  return c;
}

static int cmp_zero_listed(const void *key, const void *elem) {
  const pasta_profile_zero_line *z = key;
  const pasta_profile_line *l = elem;
  pasta_profile_line k;
  memset(&k, 0, sizeof k);
  k.file = z->file;
  k.line = z->line;
  k.function = z->function;
  k.kind = z->kind;
  return cmp_line_key(&k, l);
}

/* Adds to p->omitted.lines the distinct lines among the sites that did not
 * run that are not listed (another site of the line ran). p->lines is
 * sorted by line key. */
static void count_zero_lines(pasta_profile *p) {
  size_t n = p->num_zero_lines;
  if (!n)
    return;
  qsort(p->zero_lines, n, sizeof *p->zero_lines, cmp_zero_line);
  for (size_t i = 0; i < n; ++i) {
    const pasta_profile_zero_line *z = &p->zero_lines[i];
    if (i && !cmp_zero_line(&p->zero_lines[i - 1], z))
      continue;
    if (!p->lines ||
        !bsearch(z, p->lines, p->num_lines, sizeof *p->lines, cmp_zero_listed))
      ++p->omitted.lines;
  }
}

int pasta_profile_finalize(pasta_profile *p) {
  if (p->finalized)
    return PASTA_PROFILE_OK;
  p->finalized = 1;
  if (p->num_kernels)
    qsort(p->kernels, p->num_kernels, sizeof *p->kernels, cmp_func);
  if (p->num_device_functions)
    qsort(p->device_functions, p->num_device_functions,
          sizeof *p->device_functions, cmp_func);
  if (p->num_host_functions)
    qsort(p->host_functions, p->num_host_functions, sizeof *p->host_functions,
          cmp_func);

  int status = PASTA_PROFILE_OK;
  size_t n = p->num_raw_lines;
  if (n) {
    qsort(p->raw_lines, n, sizeof *p->raw_lines, cmp_raw);
    p->lines = malloc(n * sizeof *p->lines);
    if (!p->lines) {
      status = PASTA_PROFILE_ENOMEM;
    } else {
      for (size_t i = 0; i < n; ++i) {
        const pasta_profile_raw_line *r = &p->raw_lines[i];
        const pasta_profile_raw_line *prev = i ? &p->raw_lines[i - 1] : NULL;
        if (!prev || cmp_line_key(&prev->line, &r->line)) {
          p->lines[p->num_lines++] = r->line;
          continue;
        }
        pasta_profile_line *l = &p->lines[p->num_lines - 1];
        l->ranks = NULL; /* the sum of two spreads is no spread */
        /* Sites of one block share its counter: count it once. */
        if (prev->module_seq != r->module_seq || prev->counter != r->counter)
          l->executions = pasta__sat_add(l->executions, r->line.executions);
        pasta_counts_add(&l->counts, &r->line.counts);
        profile_div_add(l->div, r->line.div);
        l->div_proven |= r->line.div_proven;
        l->div_measured |= r->line.div_measured;
      }
    }
  }
  count_zero_lines(p);
  if (p->num_lines)
    qsort(p->lines, p->num_lines, sizeof *p->lines, cmp_line_cost);
  free(p->zero_lines);
  p->zero_lines = NULL;
  p->num_zero_lines = p->cap_zero_lines = 0;
  free(p->raw_lines);
  p->raw_lines = NULL;
  p->num_raw_lines = p->cap_raw_lines = 0;
  return status;
}

void pasta_profile_free(pasta_profile *p) {
  free(p->kernels);
  free(p->device_functions);
  free(p->host_functions);
  free(p->lines);
  free(p->raw_lines);
  free(p->zero_lines);
  free(p->merged_from);
  free(p->uncounted);
  while (p->chunks) {
    struct pasta_profile_chunk *next = p->chunks->next;
    free(p->chunks);
    p->chunks = next;
  }
  pasta_profile_init(p);
}

const char *pasta_profile_strerror(int status) {
  switch (status) {
  case PASTA_PROFILE_OK:
    return "success";
  case PASTA_PROFILE_EMAGIC:
    return "not a PASTA module descriptor (bad magic)";
  case PASTA_PROFILE_EVERSION:
    return "built for another PASTA ABI version";
  case PASTA_PROFILE_EMALFORMED:
    return "malformed tables (an index or offset is out of range)";
  case PASTA_PROFILE_ENOMEM:
    return "out of memory";
  case PASTA_PROFILE_EFINALIZED:
    return "profile already finalized";
  default:
    return "unknown error";
  }
}

const char *pasta_space_name(unsigned space) {
  static const char *const names[] = {
#define PASTA_X(id, name) name,
      PASTA_SPACES(PASTA_X)
#undef PASTA_X
  };
  return space < PASTA_NUM_SPACES ? names[space] : "?";
}

const char *pasta_precision_name(unsigned precision) {
  static const char *const names[] = {
#define PASTA_X(id, name) name,
      PASTA_PRECISIONS(PASTA_X)
#undef PASTA_X
  };
  return precision < PASTA_NUM_PRECISIONS ? names[precision] : "?";
}

const char *pasta_kind_name(unsigned kind) {
  switch (kind) {
  case PASTA_FUNC_KERNEL:
    return "kernel";
  case PASTA_FUNC_DEVICE:
    return "device";
  case PASTA_FUNC_HOST:
    return "host";
  default:
    return "?";
  }
}

const pasta_profile_func *pasta_profile_find_kernel(const pasta_profile *p,
                                                    const char *mangled) {
  for (size_t i = 0; p && mangled && i < p->num_kernels; ++i)
    if (p->kernels[i].mangled && strcmp(p->kernels[i].mangled, mangled) == 0)
      return &p->kernels[i];
  return NULL;
}

uint64_t pasta_counts_bytes(const pasta_counts *c) {
  uint64_t sum = 0;
  for (unsigned i = 0; i < PASTA_NUM_SPACES; ++i) {
    sum = pasta__sat_add(sum, c->load_bytes[i]);
    sum = pasta__sat_add(sum, c->store_bytes[i]);
    sum = pasta__sat_add(sum, c->atomic_bytes[i]);
  }
  return sum;
}

uint64_t pasta_u64_from_double(double x) {
  if (!(x >= 1)) /* also NaN */
    return 0;
  if (x >= 18446744073709551616.0) /* 2^64 */
    return UINT64_MAX;
  return (uint64_t)x;
}

uint64_t pasta_counts_flops(const pasta_counts *c) {
  uint64_t sum = 0;
  for (unsigned i = 0; i < PASTA_NUM_PRECISIONS; ++i)
    sum = pasta__sat_add(sum, c->flops[i]);
  return sum;
}

int pasta_counts_intensity(const pasta_counts *c, double *ci) {
  uint64_t bytes = 0;
  static const unsigned spaces[] = {PASTA_SPACE_GLOBAL, PASTA_SPACE_GENERIC};
  for (unsigned i = 0; i < 2; ++i) {
    unsigned s = spaces[i];
    bytes = pasta__sat_add(bytes, c->load_bytes[s]);
    bytes = pasta__sat_add(bytes, c->store_bytes[s]);
    bytes = pasta__sat_add(bytes, c->atomic_bytes[s]);
  }
  if (!bytes)
    return 0;
  *ci = (double)pasta_counts_flops(c) / (double)bytes;
  return 1;
}

const char *pasta_div_name(unsigned i) {
  static const char *const names[] = {
#define PASTA_X(id, name) name,
      PASTA_DIV_COUNTS(PASTA_X)
#undef PASTA_X
  };
  return i < PASTA_DIV_NUM ? names[i] : NULL;
}

/* num / den with two decimals, "-" when den is 0. */
static void proven_ratio(char *out, size_t size, uint64_t num, uint64_t den) {
  if (den)
    snprintf(out, size, "%.2f", (double)num / (double)den);
  else
    snprintf(out, size, "-");
}

void pasta_div_describe_proven(uint32_t bits, const uint64_t d[PASTA_DIV_NUM],
                               char *out, size_t size) {
  char ratio[32];
  size_t n = 0;
  if (!size)
    return;
  out[0] = '\0';
#define PASTA_PROVEN_PART(...)                                                 \
  do {                                                                         \
    if (n < size)                                                              \
      n += (size_t)snprintf(out + n, size - n, "%s", n ? "; " : "");           \
    if (n < size)                                                              \
      n += (size_t)snprintf(out + n, size - n, __VA_ARGS__);                   \
  } while (0)
  if (bits & 1u << PASTA_DIV_SECTORS) {
    proven_ratio(ratio, sizeof ratio, d[PASTA_DIV_SECTORS],
                 d[PASTA_DIV_REQUESTS_GLOBAL]);
    PASTA_PROVEN_PART("proven %s: %s sectors/request",
                      d[PASTA_DIV_SECTORS] == d[PASTA_DIV_IDEAL_SECTORS]
                          ? "coalesced"
                          : "shape",
                      ratio);
  } else if (bits & (1u << PASTA_DIV_DISTINCT_GLOBAL)) {
    PASTA_PROVEN_PART("proven distinct global bytes");
  }
  if (bits & 1u << PASTA_DIV_BANK_CONFLICTS) {
    proven_ratio(ratio, sizeof ratio, d[PASTA_DIV_BANK_CONFLICTS],
                 d[PASTA_DIV_REQUESTS_SHARED]);
    PASTA_PROVEN_PART("proven %s conflicts/request", ratio);
  } else if (bits & (1u << PASTA_DIV_DISTINCT_SHARED)) {
    PASTA_PROVEN_PART("proven distinct shared bytes");
  }
  if (bits & 1u << PASTA_DIV_DIVERGENT)
    PASTA_PROVEN_PART("proven uniform branches");
#undef PASTA_PROVEN_PART
}

uint32_t pasta_div_proven(const pasta_profile_line *l) {
  return l->div_proven & ~l->div_measured;
}

int pasta_div_any(const uint64_t div[PASTA_DIV_NUM]) {
  for (unsigned i = 0; i < PASTA_DIV_NUM; ++i)
    if (div[i])
      return 1;
  return 0;
}

uint64_t pasta_div_excess_sectors(const uint64_t div[PASTA_DIV_NUM]) {
  return sat_sub(div[PASTA_DIV_SECTORS], div[PASTA_DIV_IDEAL_SECTORS]);
}

uint64_t pasta_div_distinct_bytes(const uint64_t div[PASTA_DIV_NUM]) {
  return pasta__sat_add(div[PASTA_DIV_DISTINCT_GLOBAL],
                        div[PASTA_DIV_DISTINCT_SHARED]);
}
