/*===- trace_analyses.c - The C.A.T.S. analyses of a trace ----------------===*
 *
 * The analyses are sweeps and one walk:
 *  - footprint and reuse sweep allocation/free endpoints sorted by time,
 *    frees first at equal times (a buffer freed at t does not overlap one
 *    allocated at t);
 *  - the scope summaries walk the events with a stack of open scopes; an
 *    access or a loop entry is charged to every scope on the stack, and
 *    "distinct" (loops, access sites, buffers) is decided by one set of
 *    (scope, tag, key) triples, so that the instances of a static scope that
 *    de-duplication left in several places aggregate without double counts.
 *===----------------------------------------------------------------------===*/
#include "trace_analyses.h"
#include "profile/vec.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *str(const char *s) { return s ? s : ""; }

/*===-- A set of keys -----------------------------------------------------===*/

/* Open addressing from (a, b) to a value; a value of SIZE_MAX marks an
 * empty slot. */
struct pair_map {
  uint64_t *a, *b;
  size_t *val;
  size_t cap, len;
};

static uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t h = a * 0x9E3779B97F4A7C15u ^ (b + 0x632BE59BD9B4E019u);
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9u;
  return h ^ h >> 29;
}

static void pmap_free(struct pair_map *m) {
  free(m->a);
  free(m->b);
  free(m->val);
  memset(m, 0, sizeof *m);
}

static size_t *pmap_slot(const struct pair_map *m, uint64_t a, uint64_t b) {
  size_t i = (size_t)mix(a, b) & (m->cap - 1);
  while (m->val[i] != SIZE_MAX && (m->a[i] != a || m->b[i] != b))
    i = (i + 1) & (m->cap - 1);
  return &m->val[i];
}

static int pmap_grow(struct pair_map *m) {
  struct pair_map n = {0};
  n.cap = m->cap ? m->cap * 2 : 64;
  n.a = malloc(n.cap * sizeof *n.a);
  n.b = malloc(n.cap * sizeof *n.b);
  n.val = malloc(n.cap * sizeof *n.val);
  if (!n.a || !n.b || !n.val) {
    pmap_free(&n);
    return -1;
  }
  for (size_t i = 0; i < n.cap; ++i)
    n.val[i] = SIZE_MAX;
  for (size_t i = 0; i < m->cap; ++i) {
    if (m->val[i] == SIZE_MAX)
      continue;
    size_t *slot = pmap_slot(&n, m->a[i], m->b[i]);
    size_t at = (size_t)(slot - n.val);
    n.a[at] = m->a[i], n.b[at] = m->b[i], *slot = m->val[i];
  }
  n.len = m->len;
  pmap_free(m);
  *m = n;
  return 0;
}

/* The value of (a, b), or SIZE_MAX when absent. */
static size_t pmap_get(const struct pair_map *m, uint64_t a, uint64_t b) {
  return m->cap ? *pmap_slot(m, a, b) : SIZE_MAX;
}

/* The value of (a, b), storing `val` first when absent (*added then 1).
 * SIZE_MAX when out of memory. */
static size_t pmap_put(struct pair_map *m, uint64_t a, uint64_t b, size_t val,
                       int *added) {
  *added = 0;
  if ((m->len + 1) * 2 > m->cap && pmap_grow(m))
    return SIZE_MAX;
  size_t *slot = pmap_slot(m, a, b);
  if (*slot == SIZE_MAX) {
    size_t at = (size_t)(slot - m->val);
    m->a[at] = a, m->b[at] = b, *slot = val;
    ++m->len;
    *added = 1;
  }
  return *slot;
}

/* `p` (`*cap` elements of `size` bytes) grown to hold `n`, or NULL (and
 * `p` unchanged) when out of memory. */
/*===-- Footprint over time -----------------------------------------------===*/

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

static uint64_t trace_end(const struct pasta_trace *t) {
  uint64_t end = 0;
  for (size_t i = 0; i < t->num_events; ++i)
    end = max_u64(end, t->events[i].time_ns);
  for (size_t i = 0; i < t->num_spans; ++i)
    end = max_u64(end, t->spans[i].ts_ns + t->spans[i].dur_ns);
  for (size_t i = 0; i < t->num_buffers; ++i) {
    const struct pasta_trace_buffer *b = &t->buffers[i];
    end = max_u64(end, b->t_alloc);
    if (b->t_free != PASTA_TIME_NONE)
      end = max_u64(end, b->t_free);
    if (b->t_last_use != PASTA_TIME_NONE)
      end = max_u64(end, b->t_last_use);
  }
  return end;
}

/* An allocation (+1) or a free (-1) of `bytes` at `time`. */
struct endpoint {
  uint64_t time, bytes;
  int delta;
};

static int cmp_endpoint(const void *pa, const void *pb) {
  const struct endpoint *a = pa, *b = pb;
  if (a->time != b->time)
    return a->time < b->time ? -1 : 1;
  return a->delta - b->delta; /* frees first */
}

/* The endpoints of `bufs` (n of them), sorted; NULL when out of memory. */
static struct endpoint *endpoints(const struct pasta_trace_buffer *const *bufs,
                                  size_t n, size_t *num) {
  struct endpoint *e = malloc((2 * n + 1) * sizeof *e);
  if (!e)
    return NULL;
  *num = 0;
  for (size_t i = 0; i < n; ++i) {
    e[(*num)++] = (struct endpoint){bufs[i]->t_alloc, bufs[i]->size, 1};
    if (bufs[i]->t_free != PASTA_TIME_NONE &&
        bufs[i]->t_free >= bufs[i]->t_alloc)
      e[(*num)++] = (struct endpoint){bufs[i]->t_free, bufs[i]->size, -1};
  }
  qsort(e, *num, sizeof *e, cmp_endpoint);
  return e;
}

static const struct pasta_trace_buffer **
buffer_pointers(const struct pasta_trace *t) {
  const struct pasta_trace_buffer **p =
      malloc((t->num_buffers + 1) * sizeof *p);
  for (size_t i = 0; p && i < t->num_buffers; ++i)
    p[i] = &t->buffers[i];
  return p;
}

static int footprint(const struct pasta_trace *t,
                     const struct pasta_trace_buffer **bufs,
                     struct pasta_trace_analysis *a) {
  size_t n;
  struct endpoint *e = endpoints(bufs, t->num_buffers, &n);
  if (!e)
    return -1;
  uint64_t live = 0;
  size_t count = 0;
  for (size_t i = 0; i < n; ++i) {
    live = e[i].delta > 0 ? live + e[i].bytes : live - e[i].bytes;
    count = e[i].delta > 0 ? count + 1 : count - 1;
    if (live > a->peak_bytes) {
      a->peak_bytes = live;
      a->peak_time_ns = e[i].time;
      a->peak_buffers = count;
    }
  }
  a->final_bytes = live;
  a->final_buffers = count;
  free(e);
  return 0;
}

/*===-- Lifetimes and loop allocations ------------------------------------===*/

static int cmp_life(const void *pa, const void *pb) {
  const struct pasta_trace_buffer
      *a = ((const struct pasta_trace_buffer_life *)pa)->buffer,
      *b = ((const struct pasta_trace_buffer_life *)pb)->buffer;
  if (a->size != b->size)
    return a->size < b->size ? 1 : -1;
  return a->id < b->id ? -1 : a->id > b->id;
}

static int lifetimes(const struct pasta_trace *t,
                     struct pasta_trace_analysis *a) {
  a->lives = malloc((t->num_buffers + 1) * sizeof *a->lives);
  if (!a->lives)
    return -1;
  for (size_t i = 0; i < t->num_buffers; ++i) {
    const struct pasta_trace_buffer *b = &t->buffers[i];
    struct pasta_trace_buffer_life *l = &a->lives[i];
    l->buffer = b;
    l->freed = b->t_free != PASTA_TIME_NONE;
    uint64_t end = l->freed ? b->t_free : a->end_ns;
    l->alloc_ns = end > b->t_alloc ? end - b->t_alloc : 0;
    l->used = b->uses && b->t_first_use != PASTA_TIME_NONE &&
              b->t_last_use != PASTA_TIME_NONE;
    l->use_ns = l->used && b->t_last_use > b->t_first_use
                    ? b->t_last_use - b->t_first_use
                    : 0;
  }
  a->num_lives = t->num_buffers;
  qsort(a->lives, a->num_lives, sizeof *a->lives, cmp_life);
  return 0;
}

static int cmp_loop_allocs(const void *pa, const void *pb) {
  const struct pasta_trace_loop_allocs *a = pa, *b = pb;
  if (a->bytes != b->bytes)
    return a->bytes < b->bytes ? 1 : -1;
  if (a->allocations != b->allocations)
    return a->allocations < b->allocations ? 1 : -1;
  int c = strcmp(str(a->alloc_file), str(b->alloc_file));
  return c ? c
           : (a->alloc_line > b->alloc_line) - (a->alloc_line < b->alloc_line);
}

static struct pasta_trace_loop_allocs *
find_loop_allocs(struct pasta_trace_analysis *a,
                 const struct pasta_trace_buffer *b) {
  for (size_t i = 0; i < a->num_loop_allocs; ++i) {
    struct pasta_trace_loop_allocs *g = &a->loop_allocs[i];
    if (g->loop_id == b->loop_id && g->alloc_line == b->alloc_line &&
        strcmp(str(g->alloc_file), str(b->alloc_file)) == 0)
      return g;
  }
  return NULL;
}

/* Buffers times groups; the groups are few (allocation sites inside loops
 * of the source). */
static int loop_allocations(const struct pasta_trace *t,
                            struct pasta_trace_analysis *a) {
  a->loop_allocs = malloc((t->num_buffers + 1) * sizeof *a->loop_allocs);
  if (!a->loop_allocs)
    return -1;
  for (size_t i = 0; i < t->num_buffers; ++i) {
    const struct pasta_trace_buffer *b = &t->buffers[i];
    if (!b->loop_depth)
      continue;
    struct pasta_trace_loop_allocs *g = find_loop_allocs(a, b);
    if (!g) {
      g = &a->loop_allocs[a->num_loop_allocs++];
      *g = (struct pasta_trace_loop_allocs){.alloc_file = b->alloc_file,
                                            .alloc_line = b->alloc_line,
                                            .loop_id = b->loop_id,
                                            .loop_file = b->loop_file,
                                            .loop_line = b->loop_line};
    }
    g->loop_depth =
        g->loop_depth > b->loop_depth ? g->loop_depth : b->loop_depth;
    ++g->allocations;
    g->bytes += b->size;
  }
  qsort(a->loop_allocs, a->num_loop_allocs, sizeof *a->loop_allocs,
        cmp_loop_allocs);
  return 0;
}

/*===-- Reuse candidates --------------------------------------------------===*/

static int cmp_by_kind_size(const void *pa, const void *pb) {
  const struct pasta_trace_buffer
      *a = *(const struct pasta_trace_buffer *const *)pa,
      *b = *(const struct pasta_trace_buffer *const *)pb;
  int c = strcmp(str(a->kind), str(b->kind));
  if (c)
    return c;
  if (a->size != b->size)
    return a->size < b->size ? -1 : 1;
  return a->id < b->id ? -1 : a->id > b->id;
}

static int same_group(const struct pasta_trace_buffer *a,
                      const struct pasta_trace_buffer *b) {
  return a->size == b->size && strcmp(str(a->kind), str(b->kind)) == 0;
}

static int cmp_reuse(const void *pa, const void *pb) {
  const struct pasta_trace_reuse_group *a = pa, *b = pb;
  if (a->saving_bytes != b->saving_bytes)
    return a->saving_bytes < b->saving_bytes ? 1 : -1;
  if (a->size != b->size)
    return a->size < b->size ? 1 : -1;
  return strcmp(str(a->kind), str(b->kind));
}

/* The most buffers of `bufs` (n) live at once; SIZE_MAX when out of
 * memory. */
static size_t max_live(const struct pasta_trace_buffer *const *bufs, size_t n) {
  size_t num, live = 0, most = 0;
  struct endpoint *e = endpoints(bufs, n, &num);
  if (!e)
    return SIZE_MAX;
  for (size_t i = 0; i < num; ++i) {
    live = e[i].delta > 0 ? live + 1 : live - 1;
    most = live > most ? live : most;
  }
  free(e);
  return most;
}

static int reuse(const struct pasta_trace *t,
                 const struct pasta_trace_buffer **bufs,
                 struct pasta_trace_analysis *a) {
  size_t n = t->num_buffers;
  qsort(bufs, n, sizeof *bufs, cmp_by_kind_size);
  a->reuse = malloc((n / 2 + 1) * sizeof *a->reuse);
  if (!a->reuse)
    return -1;
  for (size_t i = 0, j; i < n; i = j) {
    for (j = i + 1; j < n && same_group(bufs[i], bufs[j]); ++j)
      ;
    if (j - i < 2 || !bufs[i]->size)
      continue;
    size_t most = max_live(bufs + i, j - i);
    if (most == SIZE_MAX)
      return -1;
    if (most == j - i)
      continue;
    struct pasta_trace_reuse_group *g = &a->reuse[a->num_reuse++];
    *g = (struct pasta_trace_reuse_group){bufs[i]->size, bufs[i]->kind, j - i,
                                          most, bufs[i]->size * (j - i - most)};
    a->reuse_saving_bytes += g->saving_bytes;
  }
  qsort(a->reuse, a->num_reuse, sizeof *a->reuse, cmp_reuse);
  return 0;
}

/*===-- Scope summaries ---------------------------------------------------===*/

enum { SEEN_LOOP = 0, SEEN_SITE = 1, SEEN_BUFFER = 2, NUM_SEEN = 3 };

struct frame {
  size_t scope;   /* index in walk.scopes */
  uint64_t id;    /* static scope id */
  uint32_t loops; /* loop scopes on the stack up to this one, included */
  int repeat;     /* the scope is open further out too (recursion): its
                     accesses are charged there, once */
};

struct walk {
  const struct pasta_trace *t;
  struct pasta_trace_scope_summary *scopes;
  size_t num_scopes, cap_scopes;
  struct frame *stack;
  size_t depth, cap_stack;
  struct pair_map ids;     /* (scope id, 0) -> index in scopes */
  struct pair_map buffers; /* (buffer id, 0) -> index in t->buffers */
  struct pair_map sites;   /* (site hash, probe) -> index in site_events */
  size_t *site_events;     /* first access event of each site */
  size_t num_sites, cap_sites;
  struct pair_map seen; /* (scope * NUM_SEEN + tag, key) -> 0 */
};

static void walk_free(struct walk *w) {
  free(w->stack);
  free(w->site_events);
  pmap_free(&w->ids);
  pmap_free(&w->buffers);
  pmap_free(&w->sites);
  pmap_free(&w->seen);
}

static uint64_t hash_str(uint64_t h, const char *s) {
  for (const unsigned char *p = (const unsigned char *)str(s); *p; ++p)
    h = (h ^ *p) * 0x100000001B3u;
  return h;
}

/* An access site: where it is, its mode and its class. */
static int same_site(const struct pasta_cats_event *a,
                     const struct pasta_cats_event *b) {
  return a->line == b->line && a->col == b->col && a->mode == b->mode &&
         a->access_class == b->access_class &&
         strcmp(str(a->filename), str(b->filename)) == 0 &&
         strcmp(str(a->funcname), str(b->funcname)) == 0;
}

/* The index of event `ev`'s site, interning it; SIZE_MAX when out of
 * memory. */
static size_t intern_site(struct walk *w, size_t ev) {
  const struct pasta_cats_event *e = &w->t->events[ev];
  uint64_t h =
      hash_str(hash_str(0xCBF29CE484222325u, e->filename), e->funcname);
  h = mix(h, (uint64_t)e->line << 32 | e->col);
  h = mix(h, (uint64_t)(unsigned char)e->mode << 32 | e->access_class);
  for (uint64_t probe = 0;; ++probe) {
    int added;
    size_t s = pmap_put(&w->sites, h, probe, w->num_sites, &added);
    if (s == SIZE_MAX)
      return SIZE_MAX;
    if (!added && same_site(&w->t->events[w->site_events[s]], e))
      return s;
    if (added) {
      if (GROW(w->site_events, w->cap_sites, w->num_sites))
        return SIZE_MAX;
      w->site_events[w->num_sites] = ev;
      return w->num_sites++;
    }
  }
}

/* Whether (scope, tag, key) is new; -1 when out of memory. */
static int first_seen(struct walk *w, size_t scope, unsigned tag,
                      uint64_t key) {
  int added;
  if (pmap_put(&w->seen, (uint64_t)scope * NUM_SEEN + tag, key, 0, &added) ==
      SIZE_MAX)
    return -1;
  return added;
}

/* The summary of the scope `e` enters, created on its first entry. */
static size_t scope_of(struct walk *w, size_t ev) {
  const struct pasta_cats_event *e = &w->t->events[ev];
  int added;
  size_t s = pmap_put(&w->ids, e->id, 0, w->num_scopes, &added);
  if (s == SIZE_MAX || !added)
    return s;
  if (GROW(w->scopes, w->cap_scopes, w->num_scopes))
    return SIZE_MAX;
  struct pasta_trace_scope_summary *sum = &w->scopes[w->num_scopes];
  memset(sum, 0, sizeof *sum);
  sum->id = e->id;
  sum->kind = e->scope_kind;
  sum->funcname = e->funcname;
  sum->filename = e->filename;
  sum->line = e->line;
  sum->col = e->col;
  sum->first_event = ev;
  return w->num_scopes++;
}

/* A loop entered at the top of the stack: every open scope now holds a
 * nest as deep as the loops from it to the top. */
static int enter_loop(struct walk *w) {
  const struct frame *top = &w->stack[w->depth - 1];
  for (size_t i = 0; i < w->depth; ++i) {
    struct pasta_trace_scope_summary *s = &w->scopes[w->stack[i].scope];
    uint32_t below = i ? w->stack[i - 1].loops : 0;
    if (top->loops - below > s->max_loop_nest)
      s->max_loop_nest = top->loops - below;
    if (i + 1 == w->depth)
      break;
    int fresh = first_seen(w, w->stack[i].scope, SEEN_LOOP, top->id);
    if (fresh < 0)
      return -1;
    s->loops += (size_t)fresh;
  }
  return 0;
}

static int enter(struct walk *w, size_t ev) {
  const struct pasta_cats_event *e = &w->t->events[ev];
  size_t s = scope_of(w, ev);
  if (s == SIZE_MAX || GROW(w->stack, w->cap_stack, w->depth))
    return -1;
  int loop = e->scope_kind == PASTA_SCOPE_LOOP, repeat = 0;
  for (size_t i = 0; i < w->depth; ++i)
    repeat |= w->stack[i].scope == s;
  uint32_t below = w->depth ? w->stack[w->depth - 1].loops : 0;
  w->stack[w->depth++] =
      (struct frame){s, e->id, below + (uint32_t)loop, repeat};
  w->scopes[s].executions += e->count;
  return loop ? enter_loop(w) : 0;
}

/* Pops up to the innermost open scope with the exit's id, if any. */
static void leave(struct walk *w, uint64_t id) {
  for (size_t i = w->depth; i-- > 0;)
    if (w->stack[i].id == id) {
      w->depth = i;
      return;
    }
}

static int on_access(struct walk *w, size_t ev) {
  const struct pasta_cats_event *e = &w->t->events[ev];
  unsigned k = e->access_class < PASTA_TRACE_NUM_CLASSES ? e->access_class : 0;
  size_t site = w->depth ? intern_site(w, ev) : 0;
  size_t b = e->buffer_id ? pmap_get(&w->buffers, e->buffer_id, 0) : SIZE_MAX;
  if (site == SIZE_MAX)
    return -1;
  for (size_t i = 0; i < w->depth; ++i) {
    if (w->stack[i].repeat)
      continue;
    size_t sc = w->stack[i].scope;
    struct pasta_trace_scope_summary *s = &w->scopes[sc];
    int fresh_site = first_seen(w, sc, SEEN_SITE, site);
    int fresh_buf = b == SIZE_MAX ? 0 : first_seen(w, sc, SEEN_BUFFER, b);
    if (fresh_site < 0 || fresh_buf < 0)
      return -1;
    s->dynamic_accesses[k] += e->count;
    s->static_accesses[k] += (uint64_t)fresh_site;
    if (fresh_buf) {
      s->footprint_bytes += w->t->buffers[b].size;
      ++s->footprint_buffers;
    }
  }
  return 0;
}

static int index_buffers(struct walk *w) {
  for (size_t i = 0; i < w->t->num_buffers; ++i) {
    int added;
    if (pmap_put(&w->buffers, w->t->buffers[i].id, 0, i, &added) == SIZE_MAX)
      return -1;
  }
  return 0;
}

static int walk_events(struct walk *w) {
  if (index_buffers(w))
    return -1;
  for (size_t i = 0; i < w->t->num_events; ++i) {
    const struct pasta_cats_event *e = &w->t->events[i];
    int rc = 0;
    if (e->type == PASTA_CATS_SCOPE_ENTRY)
      rc = enter(w, i);
    else if (e->type == PASTA_CATS_SCOPE_EXIT)
      leave(w, e->id);
    else if (e->type == PASTA_CATS_ACCESS)
      rc = on_access(w, i);
    if (rc)
      return -1;
  }
  return 0;
}

static uint64_t hot(const struct pasta_trace_scope_summary *s) {
  return s->dynamic_accesses[PASTA_ACCESS_STRIDEK] +
         s->dynamic_accesses[PASTA_ACCESS_INDIRECT];
}

static int is_function(const struct pasta_trace_scope_summary *s) {
  return s->kind == PASTA_SCOPE_FUNC || s->kind == PASTA_SCOPE_PARALLEL;
}

static int cmp_scope(const void *pa, const void *pb) {
  const struct pasta_trace_scope_summary *a = pa, *b = pb;
  if (is_function(a) != is_function(b))
    return is_function(a) ? -1 : 1;
  if (hot(a) != hot(b))
    return hot(a) < hot(b) ? 1 : -1;
  if (a->executions != b->executions)
    return a->executions < b->executions ? 1 : -1;
  return (a->first_event > b->first_event) - (a->first_event < b->first_event);
}

static int scope_summaries(const struct pasta_trace *t,
                           struct pasta_trace_analysis *a) {
  struct walk w = {0};
  w.t = t;
  int rc = walk_events(&w);
  a->scopes = w.scopes;
  a->num_scopes = w.num_scopes;
  walk_free(&w);
  if (!rc && a->num_scopes)
    qsort(a->scopes, a->num_scopes, sizeof *a->scopes, cmp_scope);
  return rc;
}

int pasta__trace_analyze(const struct pasta_trace *t,
                         struct pasta_trace_analysis *out) {
  memset(out, 0, sizeof *out);
  out->end_ns = trace_end(t);
  const struct pasta_trace_buffer **bufs = buffer_pointers(t);
  int rc = !bufs || footprint(t, bufs, out) || lifetimes(t, out) ||
           loop_allocations(t, out) || reuse(t, bufs, out) ||
           scope_summaries(t, out);
  free(bufs);
  if (rc) {
    pasta__trace_analysis_free(out);
    errno = ENOMEM;
    return -1;
  }
  return 0;
}
