/*===- report_merge_counts.c - Functions and lines of merge, streamed -----===*
 *
 * One entry per distinct function (kind, mangled name, module) and line
 * (file, line, function, kind), found through an open-addressing table.
 * An input's values are gathered per entry first (an input may list a key
 * twice) and folded into the entry's spread when the input is done, so a
 * spread compares whole processes.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L /* strdup */

#include "report_merge_counts.h"
#include "report.h"

#include "profile/vec.h"

#include <stdlib.h>
#include <string.h>

/* What identifies an entry: functions by (kind, s1 = mangled, s2 =
 * module), lines by (s1 = file, line, s2 = function, kind). */
struct key {
  int is_line;
  uint32_t kind, line;
  const char *s1, *s2; /* may be NULL */
};

struct entry {
  struct key key; /* strings owned */
  char *name;     /* functions: the first input's display name, file, line */
  char *file;
  uint32_t def_line;
  uint64_t work; /* launches, calls or executions */
  pasta_counts counts;
  uint64_t div[PASTA_DIV_NUM];       /* divergence figures: sums */
  uint32_t div_proven, div_measured; /* lines: how they were found */
  pasta_rank_stats stats; /* over the processes of the inputs that had it */
  uint64_t covered;       /* those processes */
  int have_spread, no_spread;
  /* The input being folded in: its part, until it is done. */
  uint64_t input; /* 1 + its index */
  uint64_t in_value[PASTA_NUM_RANK_METRICS];
  pasta_rank_stats in_stats;
  int in_have_stats;
};

struct pasta_merge_counts {
  struct entry *entries;
  size_t num, cap;
  size_t *slots; /* index + 1 into entries, 0: empty; a power of two */
  size_t num_slots;
  size_t *touched; /* entries the current input has */
  size_t num_touched, cap_touched;
  uint64_t inputs;
  /* The most device functions, host functions and lines one input had,
   * listed or left out (pasta_profile_omitted). */
  uint64_t most[3];
};

pasta_merge_counts *pasta__merge_counts_new(void) {
  return calloc(1, sizeof(pasta_merge_counts));
}

void pasta__merge_counts_free(pasta_merge_counts *m) {
  if (!m)
    return;
  for (size_t i = 0; i < m->num; ++i) {
    free((char *)m->entries[i].key.s1);
    free((char *)m->entries[i].key.s2);
    free(m->entries[i].name);
    free(m->entries[i].file);
  }
  free(m->entries);
  free(m->slots);
  free(m->touched);
  free(m);
}

/*===-- The table ---------------------------------------------------------===*/

static uint64_t fnv(uint64_t h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; ++i)
    h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

static uint64_t hash_string(uint64_t h, const char *s) {
  return s ? fnv(h, s, strlen(s) + 1) : fnv(h, "\xff", 1);
}

static uint64_t hash_key(const struct key *k) {
  uint64_t h = 0xcbf29ce484222325ull;
  uint32_t nums[3] = {(uint32_t)k->is_line, k->kind, k->line};
  h = fnv(h, nums, sizeof nums);
  return hash_string(hash_string(h, k->s1), k->s2);
}

static int same_string(const char *a, const char *b) {
  return a && b ? strcmp(a, b) == 0 : a == b;
}

static int same_key(const struct key *a, const struct key *b) {
  return a->is_line == b->is_line && a->kind == b->kind && a->line == b->line &&
         same_string(a->s1, b->s1) && same_string(a->s2, b->s2);
}

/* The slot of key `k`: its entry's, or the empty one where it goes. */
static size_t *slot_of(const pasta_merge_counts *m, const struct key *k) {
  size_t mask = m->num_slots - 1;
  for (size_t i = (size_t)hash_key(k) & mask;; i = (i + 1) & mask) {
    size_t *s = &m->slots[i];
    if (!*s || same_key(&m->entries[*s - 1].key, k))
      return s;
  }
}

/* Doubles the table when it is half full. */
static int grow_slots(pasta_merge_counts *m) {
  if (m->num_slots && (m->num + 1) * 2 <= m->num_slots)
    return 0;
  size_t n = m->num_slots ? m->num_slots * 2 : 1024;
  size_t *old = m->slots, old_n = m->num_slots;
  m->slots = calloc(n, sizeof *m->slots);
  if (!m->slots) {
    m->slots = old;
    return -1;
  }
  m->num_slots = n;
  for (size_t i = 0; i < old_n; ++i)
    if (old[i])
      *slot_of(m, &m->entries[old[i] - 1].key) = old[i];
  free(old);
  return 0;
}

static char *copy_string(const char *s, int *err) {
  if (!s)
    return NULL;
  char *c = strdup(s);
  *err |= c == NULL;
  return c;
}

/* The entry of `k`, added (empty) when it is new; NULL when out of memory.
 * `name`, `file` and `def_line` describe a new function. */
static struct entry *entry_for(pasta_merge_counts *m, const struct key *k,
                               const char *name, const char *file,
                               uint32_t def_line) {
  if (grow_slots(m) || GROW(m->entries, m->cap, m->num))
    return NULL;
  size_t *slot = slot_of(m, k);
  if (*slot)
    return &m->entries[*slot - 1];
  struct entry *e = &m->entries[m->num];
  memset(e, 0, sizeof *e);
  int err = 0;
  e->key = *k;
  e->key.s1 = copy_string(k->s1, &err);
  e->key.s2 = copy_string(k->s2, &err);
  e->name = copy_string(name, &err);
  e->file = copy_string(file, &err);
  e->def_line = def_line;
  if (err) {
    free((char *)e->key.s1);
    free((char *)e->key.s2);
    free(e->name);
    free(e->file);
    return NULL;
  }
  *slot = ++m->num;
  return e;
}

/*===-- Folding -----------------------------------------------------------===*/

/* Spread `b` joined into `a`: the largest value's first process is kept
 * on a tie, as `a` covers earlier processes. */
static void join_spread(pasta_rank_spread *a, const pasta_rank_spread *b) {
  if (b->min < a->min)
    a->min = b->min;
  if (b->max > a->max) {
    a->max = b->max;
    a->max_process = b->max_process;
  }
}

/* The input's entry `e`: totals now, the values for the spread when the
 * input is done. `ranks` is the entry's own spread in a merged input, whose
 * processes start at `first`. */
static int fold(pasta_merge_counts *m, struct entry *e, uint64_t work,
                const pasta_counts *c, const uint64_t *div,
                const pasta_rank_stats *ranks, int merged, uint64_t first) {
  if (e->input != m->inputs) {
    if (GROW(m->touched, m->cap_touched, m->num_touched))
      return -1;
    m->touched[m->num_touched++] = (size_t)(e - m->entries);
    e->input = m->inputs;
    memset(e->in_value, 0, sizeof e->in_value);
    e->in_have_stats = 0;
  }
  e->work = pasta__sat_add(e->work, work);
  pasta_counts_add(&e->counts, c);
  for (unsigned i = 0; i < PASTA_DIV_NUM; ++i)
    e->div[i] = pasta__sat_add(e->div[i], div[i]);
  for (unsigned k = 0; k < PASTA_NUM_RANK_METRICS; ++k)
    e->in_value[k] =
        pasta__sat_add(e->in_value[k], pasta_rank_metric_value(k, work, c));
  if (!merged)
    return 0;
  if (!ranks) {
    e->no_spread = 1;
    return 0;
  }
  for (unsigned k = 0; k < PASTA_NUM_RANK_METRICS; ++k) {
    pasta_rank_spread s = ranks->metric[k];
    s.max_process += first;
    if (e->in_have_stats)
      join_spread(&e->in_stats.metric[k], &s);
    else
      e->in_stats.metric[k] = s;
  }
  e->in_have_stats = 1;
  return 0;
}

/* The input is done: each entry it had adds its processes' values to the
 * entry's spread. */
static void commit(pasta_merge_counts *m, int merged, uint64_t first,
                   uint64_t processes) {
  for (size_t i = 0; i < m->num_touched; ++i) {
    struct entry *e = &m->entries[m->touched[i]];
    e->covered += processes;
    if (merged && !e->in_have_stats)
      continue;
    pasta_rank_stats group = e->in_stats;
    for (unsigned k = 0; !merged && k < PASTA_NUM_RANK_METRICS; ++k)
      group.metric[k] =
          (pasta_rank_spread){e->in_value[k], e->in_value[k], first};
    for (unsigned k = 0; k < PASTA_NUM_RANK_METRICS; ++k) {
      if (e->have_spread)
        join_spread(&e->stats.metric[k], &group.metric[k]);
      else
        e->stats.metric[k] = group.metric[k];
    }
    e->have_spread = 1;
  }
  m->num_touched = 0;
}

static int fold_funcs(pasta_merge_counts *m, const pasta_profile_func *f,
                      size_t n, int merged, uint64_t first) {
  for (size_t i = 0; i < n; ++i) {
    struct key k = {0, f[i].kind, 0, f[i].mangled, f[i].module};
    struct entry *e = entry_for(m, &k, f[i].name, f[i].file, f[i].line);
    if (!e || fold(m, e, f[i].calls, &f[i].counts, f[i].div, f[i].ranks, merged,
                   first))
      return -1;
  }
  return 0;
}

int pasta__merge_counts_add(pasta_merge_counts *m, const pasta_profile *in,
                            uint64_t first_process, uint64_t processes) {
  int merged = in->num_merged_from > 0;
  ++m->inputs;
  const uint64_t had[3] = {in->num_device_functions +
                               in->omitted.device_functions,
                           in->num_host_functions + in->omitted.host_functions,
                           in->num_lines + in->omitted.lines};
  for (unsigned t = 0; t < 3; ++t)
    if (had[t] > m->most[t])
      m->most[t] = had[t];
  if (fold_funcs(m, in->kernels, in->num_kernels, merged, first_process) ||
      fold_funcs(m, in->device_functions, in->num_device_functions, merged,
                 first_process) ||
      fold_funcs(m, in->host_functions, in->num_host_functions, merged,
                 first_process))
    return -1;
  for (size_t i = 0; i < in->num_lines; ++i) {
    const pasta_profile_line *l = &in->lines[i];
    struct key k = {1, l->kind, l->line, l->file, l->function};
    struct entry *e = entry_for(m, &k, NULL, NULL, 0);
    if (e) {
      e->div_proven |= l->div_proven;
      e->div_measured |= l->div_measured;
    }
    if (!e || fold(m, e, l->executions, &l->counts, l->div, l->ranks, merged,
                   first_process))
      return -1;
  }
  commit(m, merged, first_process, processes);
  return 0;
}

/*===-- The merged entries ------------------------------------------------===*/

/* The spread over all processes: those of the inputs without the entry
 * count 0, and when the largest value is 0 every process holds it. */
static pasta_rank_stats final_stats(const struct entry *e, uint64_t processes) {
  pasta_rank_stats s = e->stats;
  for (unsigned k = 0; k < PASTA_NUM_RANK_METRICS; ++k) {
    if (e->covered < processes)
      s.metric[k].min = 0;
    if (s.metric[k].max == 0)
      s.metric[k].max_process = 0;
  }
  return s;
}

/* What the merged profile leaves out: at least the most entries an input
 * had less those listed (exact when every input comes from one program,
 * whose entries are then the same; docs/profile-format.md). */
static uint64_t left_out(uint64_t most, uint64_t listed) {
  return most > listed ? most - listed : 0;
}

int pasta__merge_counts_build(const pasta_merge_counts *m, uint64_t processes,
                              pasta_profile *out) {
  uint64_t listed[3] = {0, 0, 0};
  for (size_t i = 0; i < m->num; ++i) {
    const struct key *k = &m->entries[i].key;
    if (k->is_line)
      ++listed[2];
    else if (k->kind == PASTA_FUNC_HOST)
      ++listed[1];
    else if (k->kind == PASTA_FUNC_DEVICE)
      ++listed[0];
  }
  out->omitted.device_functions = left_out(m->most[0], listed[0]);
  out->omitted.host_functions = left_out(m->most[1], listed[1]);
  out->omitted.lines = left_out(m->most[2], listed[2]);
  for (size_t i = 0; i < m->num; ++i) {
    const struct entry *e = &m->entries[i];
    pasta_rank_stats stats = final_stats(e, processes);
    const pasta_rank_stats *ranks = e->no_spread ? NULL : &stats;
    int err;
    if (e->key.is_line) {
      pasta_profile_line l = {
          e->key.s1, e->key.line, e->key.kind, e->key.s2,     e->work,
          e->counts, ranks,       {0},         e->div_proven, e->div_measured};
      memcpy(l.div, e->div, sizeof l.div);
      err = pasta_profile_add_line(out, &l);
    } else {
      pasta_profile_func f = {e->name,     e->key.s1,   e->key.s2, e->file,
                              e->def_line, e->key.kind, e->work,   e->counts,
                              ranks,       {0}};
      memcpy(f.div, e->div, sizeof f.div);
      err = pasta_profile_add_func(out, &f);
    }
    if (err)
      return -1;
  }
  return 0;
}

size_t pasta__merge_counts_without_spread(const pasta_merge_counts *m) {
  size_t n = 0;
  for (size_t i = 0; i < m->num; ++i)
    n += m->entries[i].no_spread;
  return n;
}
