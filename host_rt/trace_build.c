/*===- trace_build.c - Trace mode: the trace built from what was recorded -===*
 *
 * See trace.h and trace.c. At exit pasta__trace_build() writes the
 * calling-context tree out depth first as C.A.T.S. events (launches
 * expanded into their kernel's device scopes and accesses), fits the
 * device clock to the host's, and adds the spans of API calls, kernels and
 * traced warps, names resolved through the symbolizer.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "profile/diag.h"
#include "profile/vec.h"
#include "trace_internal.h"

#include "options.h"
#include "pasta/profile.h"
#include "profile/demangle.h"
#include "symbolize/symbolize.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct module_copy *module_of(const void *key) {
  for (size_t i = 0; i < pasta__tr.num_modules; ++i)
    if (pasta__tr.modules[i].key == key)
      return &pasta__tr.modules[i];
  return NULL;
}

static const char *string_at(const struct module_copy *m, uint32_t off) {
  if (!m || !m->strings || off == PASTA_NONE || off >= m->desc.strings_size)
    return "";
  return m->strings + off;
}

/*===-- Building the trace ------------------------------------------------===*/

static const char *own(char *s) {
  if (!s)
    return "";
  if (GROW(pasta__tr.owned, pasta__tr.cap_owned, pasta__tr.num_owned)) {
    free(s);
    return "";
  }
  pasta__tr.owned[pasta__tr.num_owned++] = s;
  return s;
}

static const char *demangled(const char *mangled) {
  if (!mangled || !*mangled)
    return "";
  return own(pasta__display_name_dup(mangled));
}

static const char *basename_of(const char *path) {
  const char *slash = path ? strrchr(path, '/') : NULL;
  return slash ? slash + 1 : (path ? path : "");
}

struct builder {
  struct pasta_cats_event *events;
  size_t num, cap;
  struct pasta_trace_span *spans;
  size_t num_spans, cap_spans;
  pasta_symbolizer *sym;
  /* host = device + base + offset + drift * (device - device0): the base
   * in exact integers (device clocks count from 1970, beyond a double's
   * nanosecond precision), the fitted rest in doubles. */
  int64_t base;
  uint64_t device0;
  double offset, drift;
  int failed;
};

static struct pasta_cats_event *emit(struct builder *b) {
  if (GROW(b->events, b->cap, b->num)) {
    b->failed = 1;
    return NULL;
  }
  struct pasta_cats_event *e = &b->events[b->num++];
  memset(e, 0, sizeof *e);
  e->filename = e->funcname = e->buffer_name = "";
  return e;
}

static uint64_t rel(uint64_t t) {
  return t >= pasta__tr.start ? t - pasta__tr.start : 0;
}

static uint64_t device_to_host(const struct builder *b, uint64_t dev) {
  double fitted = b->offset + b->drift * ((double)dev - (double)b->device0);
  int64_t host = (int64_t)dev + b->base + (int64_t)fitted;
  return host > (int64_t)pasta__tr.start
             ? (uint64_t)(host - (int64_t)pasta__tr.start)
             : 0;
}

/* Where a call site is: file, function and line. */
static void site_of(struct builder *b, const void *site, const char **file,
                    const char **func, uint32_t *line) {
  pasta_symbol s;
  *file = *func = "";
  *line = 0;
  if (!site || !b->sym ||
      pasta__symbolize(b->sym, (uint64_t)(uintptr_t)site, &s) != 0)
    return;
  *file = s.file ? own(strdup(s.file)) : "";
  *func = s.function ? own(strdup(s.function)) : "";
  *line = s.line;
}

static const char *buffer_name(uint64_t id1) {
  if (!id1 || id1 > pasta__tr.num_buffers)
    return "(unknown)";
  const char *n = pasta__tr.buffers[id1 - 1].name;
  return n && *n ? n : "(unknown)";
}

static void scope_event(struct builder *b, int entry,
                        const struct module_copy *m, uint32_t row,
                        uint64_t time, int on_device) {
  struct pasta_cats_event *e = emit(b);
  if (!e)
    return;
  const struct pasta_scope *s = &m->scopes[row];
  e->type = entry ? PASTA_CATS_SCOPE_ENTRY : PASTA_CATS_SCOPE_EXIT;
  e->scope_kind = s->kind;
  e->id = s->id;
  e->filename = string_at(m, s->file);
  e->funcname = demangled(string_at(m, s->func));
  e->line = s->line;
  e->col = s->col;
  e->time_ns = time;
  e->on_device = on_device;
}

/* What the traced launches of one kernel saw, per scope row. */
struct device_view {
  uint64_t *entries, *trips, *first;
  int *trips_known;
  int any;
};

static void device_view(const struct module_copy *m, const char *mangled,
                        const struct builder *b, struct device_view *v) {
  size_t n = m->desc.num_scopes;
  memset(v, 0, sizeof *v);
  v->entries = calloc(n + 1, sizeof *v->entries);
  v->trips = calloc(n + 1, sizeof *v->trips);
  v->first = calloc(n + 1, sizeof *v->first);
  v->trips_known = calloc(n + 1, sizeof *v->trips_known);
  if (!v->entries || !v->trips || !v->first || !v->trips_known)
    return;
  for (size_t i = 0; i < pasta__tr.num_traced; ++i) {
    const struct traced *t = &pasta__tr.traced[i];
    if (t->module != m->key || strcmp(t->mangled, mangled) != 0)
      continue;
    for (uint64_t r = 0; r < t->stored; ++r) {
      uint32_t row = t->records[r].scope & ~PASTA_TRACE_EXIT;
      if (row >= n)
        continue;
      v->any = 1;
      uint64_t when = device_to_host(b, t->records[r].time);
      if (t->records[r].scope & PASTA_TRACE_EXIT) {
        v->trips[row] += t->records[r].trips;
        v->trips_known[row] = 1;
      } else {
        if (!v->entries[row]++ || when < v->first[row])
          v->first[row] = when;
      }
    }
  }
}

static void device_view_free(struct device_view *v) {
  free(v->entries);
  free(v->trips);
  free(v->first);
  free(v->trips_known);
}

static void device_accesses(struct builder *b, const struct module_copy *m,
                            uint32_t row, const struct item *launch,
                            uint64_t time) {
  for (uint32_t i = 0; i < m->desc.num_accesses && m->accesses; ++i) {
    const struct pasta_access *a = &m->accesses[i];
    if (a->scope != row)
      continue;
    struct pasta_cats_event *e = emit(b);
    if (!e)
      return;
    const struct pasta_scope *s = &m->scopes[row];
    e->type = PASTA_CATS_ACCESS;
    e->filename = string_at(m, s->file);
    e->funcname = demangled(string_at(m, s->func));
    e->line = a->line;
    e->col = a->col;
    e->time_ns = time;
    e->on_device = 1;
    e->mode = a->mode == 'w' ? 'w' : 'r';
    e->bytes = a->bytes;
    e->access_class = a->klass;
    e->stride = a->stride;
    e->offset_expr = a->offset == PASTA_NONE ? NULL : string_at(m, a->offset);
    if (a->param < launch->nargs)
      e->buffer_id = launch->args[a->param];
    e->buffer_name = buffer_name(e->buffer_id);
    if (m->sites && m->counters && a->site < m->desc.num_sites &&
        m->sites[a->site].counter < m->desc.num_counters)
      e->count = m->counters[m->sites[a->site].counter];
  }
}

/* The device scopes under `row`, depth first, with their accesses. */
static void device_scope(struct builder *b, const struct module_copy *m,
                         uint32_t row, const struct item *launch,
                         const struct device_view *v, uint64_t time) {
  uint64_t t = v->any && v->entries[row] ? v->first[row] : time;
  scope_event(b, 1, m, row, t, 1);
  if (b->num) {
    struct pasta_cats_event *e = &b->events[b->num - 1];
    e->count = v->any ? v->entries[row] : 0;
    e->iterations = v->trips[row];
    e->trips_known = v->trips_known[row];
    if (m->scopes[row].parent == PASTA_NONE)
      e->count = launch->count;
  }
  device_accesses(b, m, row, launch, t);
  for (uint32_t c = 0; c < m->desc.num_scopes; ++c)
    if (m->scopes[c].parent == row && (!v->any || v->entries[c]))
      device_scope(b, m, c, launch, v, t);
  scope_event(b, 0, m, row, t, 1);
}

static void launch_events(struct builder *b, const struct item *it) {
  const struct module_copy *m = module_of(it->module);
  uint32_t root = NONE;
  for (uint32_t r = 0; m && m->scopes && r < m->desc.num_scopes; ++r)
    if (m->scopes[r].parent == PASTA_NONE &&
        m->scopes[r].kind == PASTA_SCOPE_PARALLEL &&
        strcmp(string_at(m, m->scopes[r].func), it->mangled) == 0)
      root = r;
  if (root == NONE)
    return; /* a kernel PASTA did not instrument */
  struct device_view v;
  device_view(m, it->mangled, b, &v);
  if (v.entries && v.trips && v.first && v.trips_known)
    device_scope(b, m, root, it, &v, rel(it->time));
  device_view_free(&v);
}

static void item_events(struct builder *b, const struct item *it) {
  if (it->type == ITEM_LAUNCH) {
    launch_events(b, it);
    return;
  }
  struct pasta_cats_event *e = emit(b);
  if (!e)
    return;
  site_of(b, it->site, &e->filename, &e->funcname, &e->line);
  e->time_ns = rel(it->time);
  e->count = it->count;
  e->buffer_id = it->buffer;
  e->buffer_name = buffer_name(it->buffer);
  if (it->type == ITEM_ACCESS) {
    e->type = PASTA_CATS_ACCESS;
    e->mode = it->mode;
    e->offset = it->offset;
    e->bytes = it->bytes;
    e->access_class = PASTA_ACCESS_STRIDE1; /* a copy is contiguous */
    e->stride = 1;
  } else if (it->type == ITEM_ALLOC) {
    e->type = PASTA_CATS_ALLOCATION;
    e->size = it->size;
  } else {
    e->type = PASTA_CATS_DEALLOCATION;
  }
}

/* A node's children and items in the order they first happened. */
struct entry_ref {
  uint64_t seq;
  uint32_t index;
  int is_item;
};

static int cmp_ref(const void *pa, const void *pb) {
  const struct entry_ref *a = pa, *b = pb;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

struct children {
  uint32_t *first; /* per node: start in refs */
  uint32_t *count;
  struct entry_ref *refs;
};

static int index_children(struct children *c) {
  size_t n = pasta__tr.num_nodes,
         total = pasta__tr.num_nodes + pasta__tr.num_items;
  c->first = calloc(n + 1, sizeof *c->first);
  c->count = calloc(n + 1, sizeof *c->count);
  c->refs = calloc(total + 1, sizeof *c->refs);
  if (!c->first || !c->count || !c->refs)
    return -1;
  for (size_t i = 0; i < n; ++i)
    if (pasta__tr.nodes[i].parent != NONE)
      ++c->count[pasta__tr.nodes[i].parent];
  for (size_t i = 0; i < pasta__tr.num_items; ++i)
    ++c->count[pasta__tr.items[i].node];
  uint32_t at = 0;
  for (size_t i = 0; i < n; ++i) {
    c->first[i] = at;
    at += c->count[i];
    c->count[i] = 0;
  }
  for (size_t i = 0; i < n; ++i) {
    uint32_t p = pasta__tr.nodes[i].parent;
    if (p != NONE)
      c->refs[c->first[p] + c->count[p]++] =
          (struct entry_ref){pasta__tr.nodes[i].seq, (uint32_t)i, 0};
  }
  for (size_t i = 0; i < pasta__tr.num_items; ++i) {
    uint32_t p = pasta__tr.items[i].node;
    c->refs[c->first[p] + c->count[p]++] =
        (struct entry_ref){pasta__tr.items[i].seq, (uint32_t)i, 1};
  }
  for (size_t i = 0; i < n; ++i)
    qsort(c->refs + c->first[i], c->count[i], sizeof *c->refs, cmp_ref);
  return 0;
}

static void node_events(struct builder *b, const struct children *c, uint32_t n,
                        unsigned depth) {
  const struct node *x = &pasta__tr.nodes[n];
  const struct module_copy *m = x->module ? module_of(x->module) : NULL;
  int scoped = m && m->scopes && x->row < m->desc.num_scopes;
  if (scoped) {
    scope_event(b, 1, m, x->row, rel(x->time), 0);
    if (b->num) {
      struct pasta_cats_event *e = &b->events[b->num - 1];
      e->count = x->count;
      e->iterations = x->iterations;
      e->trips_known = x->trips_known;
    }
  }
  if (depth < 4096)
    for (uint32_t k = 0; k < c->count[n]; ++k) {
      const struct entry_ref *r = &c->refs[c->first[n] + k];
      if (r->is_item)
        item_events(b, &pasta__tr.items[r->index]);
      else
        node_events(b, c, r->index, depth + 1);
    }
  if (scoped)
    scope_event(b, 0, m, x->row, rel(x->time), 0);
}

/* Device clock to host clock: host = device * (1 + drift) + offset, fitted
 * to the middles of the traced launches' intervals. */
static int64_t middle_offset(const struct pasta_clock_pair *p) {
  int64_t before = (int64_t)p->host_before_ns - (int64_t)p->device_first_ns;
  int64_t after = (int64_t)p->host_after_ns - (int64_t)p->device_last_ns;
  return before + (after - before) / 2;
}

static void fit_clock(struct builder *b, struct pasta_clock_pair *pairs,
                      size_t n) {
  b->base = n ? middle_offset(&pairs[0]) : 0;
  b->device0 = n ? pairs[0].device_first_ns : 0;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; ++i) {
    double x = (double)(pairs[i].device_first_ns - b->device0);
    double y = (double)(middle_offset(&pairs[i]) - b->base);
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  b->offset = n ? sy / (double)n : 0;
  b->drift = 0;
  double den = (double)n * sxx - sx * sx;
  if (n >= 3 && den > 0 &&
      pairs[n - 1].device_first_ns - pairs[0].device_first_ns > 100000000u) {
    b->drift = ((double)n * sxy - sx * sy) / den;
    b->offset = (sy - b->drift * sx) / (double)n;
  }
}

/* The model's form, host = device * (1 + drift) + offset (its offset is a
 * double: informative, not exact). */
static double model_offset(const struct builder *b) {
  return (double)b->base + b->offset - b->drift * (double)b->device0;
}

static int cmp_pair(const void *pa, const void *pb) {
  const struct pasta_clock_pair *a = pa, *b = pb;
  return a->device_first_ns < b->device_first_ns
             ? -1
             : a->device_first_ns > b->device_first_ns;
}

static size_t clock_pairs(struct pasta_clock_pair **out) {
  *out = calloc(pasta__tr.num_traced + 1, sizeof **out);
  size_t n = 0;
  for (size_t i = 0; *out && i < pasta__tr.num_traced; ++i) {
    const struct traced *t = &pasta__tr.traced[i];
    if (!t->stored || !t->t_after) /* not waited for: no pair */
      continue;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint64_t r = 0; r < t->stored; ++r) {
      uint64_t x = t->records[r].time;
      lo = x < lo ? x : lo;
      hi = x > hi ? x : hi;
    }
    (*out)[n++] =
        (struct pasta_clock_pair){t->launch, t->t_before, t->t_after, lo, hi};
  }
  if (*out)
    qsort(*out, n, sizeof **out, cmp_pair);
  return n;
}

static const char *scope_label(const struct module_copy *m, uint32_t row) {
  static const char *kinds[] = {"func", "loop", "conditional", "parallel"};
  const struct pasta_scope *s = &m->scopes[row];
  char buf[640];
  if (s->kind == PASTA_SCOPE_FUNC || s->kind == PASTA_SCOPE_PARALLEL)
    return demangled(string_at(m, s->func));
  snprintf(buf, sizeof buf, "%s %s:%u", kinds[s->kind & 3],
           basename_of(string_at(m, s->file)), s->line);
  return own(strdup(buf));
}

static void warp_span(struct builder *b, const struct traced *t,
                      const struct module_copy *m, uint32_t warp, uint32_t row,
                      uint64_t from, uint64_t to) {
  static const char *kinds[] = {"func", "loop", "conditional", "parallel"};
  if (GROW(b->spans, b->cap_spans, b->num_spans)) {
    b->failed = 1;
    return;
  }
  uint64_t ts = device_to_host(b, from);
  b->spans[b->num_spans++] = (struct pasta_trace_span){
      .track = PASTA_TRACK_WARP,
      .launch = t->launch,
      .tid = warp,
      .name = scope_label(m, row),
      .category = kinds[m->scopes[row].kind & 3],
      .ts_ns = ts,
      .dur_ns =
          to > from ? (uint64_t)((double)(to - from) * (1 + b->drift)) : 0,
      .detail = demangled(t->mangled)};
}

/* By warp, then time; at equal times in the order the records were claimed
 * (a warp's own records are claimed in program order), which the caller
 * keeps in `reserved`. */
static int cmp_record(const void *pa, const void *pb) {
  const struct pasta_trace_record *a = pa, *b = pb;
  if (a->warp != b->warp)
    return a->warp < b->warp ? -1 : 1;
  if (a->time != b->time)
    return a->time < b->time ? -1 : 1;
  return a->reserved < b->reserved ? -1 : a->reserved > b->reserved;
}

/* One traced launch's records as nested spans per sampled warp. */
static void warp_spans(struct builder *b, struct traced *t) {
  const struct module_copy *m = module_of(t->module);
  if (!m || !m->scopes)
    return;
  for (uint64_t i = 0; i < t->stored; ++i)
    t->records[i].reserved = (uint32_t)i;
  if (t->stored) /* no records: t->records may be NULL */
    qsort(t->records, t->stored, sizeof *t->records, cmp_record);
  struct open {
    uint32_t row;
    uint64_t from;
  } stack[64];
  size_t depth = 0;
  for (uint64_t i = 0; i < t->stored; ++i) {
    const struct pasta_trace_record *r = &t->records[i];
    uint32_t row = r->scope & ~PASTA_TRACE_EXIT;
    if (row >= m->desc.num_scopes)
      continue;
    if (!(r->scope & PASTA_TRACE_EXIT)) {
      if (depth < 64)
        stack[depth++] = (struct open){row, r->time};
    } else {
      size_t k = depth;
      while (k > 0 && stack[k - 1].row != row)
        --k;
      while (k > 0 && depth >= k) { /* close it and what it still holds */
        --depth;
        warp_span(b, t, m, r->warp, stack[depth].row, stack[depth].from,
                  r->time);
      }
    }
    int last = i + 1 == t->stored || t->records[i + 1].warp != r->warp;
    while (last && depth) { /* exits the warp never recorded */
      --depth;
      warp_span(b, t, m, r->warp, stack[depth].row, stack[depth].from, r->time);
    }
  }
}

/* Names, sites and loops of the buffers. */
static void name_buffers(struct builder *b) {
  for (size_t i = 0; i < pasta__tr.num_buffers; ++i) {
    struct pasta_trace_buffer *x = &pasta__tr.buffers[i];
    if (!x->id)
      continue;
    const char *file, *func;
    uint32_t line;
    site_of(b, pasta__tr.binfo[i].site, &file, &func, &line);
    x->alloc_file = file;
    x->alloc_line = line;
    char buf[512];
    snprintf(buf, sizeof buf, "%s#%llu@%s:%u",
             pasta__tr.binfo[i].kind ? pasta__tr.binfo[i].kind : "buffer",
             (unsigned long long)x->id, basename_of(file), line);
    x->name = own(strdup(buf));
    x->kind = pasta__tr.binfo[i].kind ? pasta__tr.binfo[i].kind : "";
    const struct module_copy *m = module_of(pasta__tr.binfo[i].loop_module);
    x->loop_file = "";
    if (m && m->scopes && pasta__tr.binfo[i].loop_row < m->desc.num_scopes) {
      const struct pasta_scope *s = &m->scopes[pasta__tr.binfo[i].loop_row];
      x->loop_id = s->id;
      x->loop_file = string_at(m, s->file);
      x->loop_line = s->line;
    }
    x->t_alloc = rel(x->t_alloc);
    if (x->t_free != PASTA_TIME_NONE)
      x->t_free = rel(x->t_free);
    if (x->t_first_use != PASTA_TIME_NONE) {
      x->t_first_use = rel(x->t_first_use);
      x->t_last_use = rel(x->t_last_use);
    }
  }
}

static void copy_spans(struct builder *b) {
  for (size_t i = 0; i < pasta__tr.num_spans; ++i) {
    if (GROW(b->spans, b->cap_spans, b->num_spans)) {
      b->failed = 1;
      return;
    }
    struct pasta_trace_span s = pasta__tr.spans[i];
    s.ts_ns = rel(s.ts_ns);
    if (s.track == PASTA_TRACK_STREAM)
      s.name = demangled(s.name);
    b->spans[b->num_spans++] = s;
  }
}

int pasta__trace_build(struct pasta_trace *t, const char *program) {
  memset(t, 0, sizeof *t);
  pasta__trace_lock();
  if (!pasta__tr.on || !pasta__tr.code_seen ||
      (!pasta__tr.num_nodes && !pasta__tr.num_traced)) {
    pasta__trace_unlock();
    return -1;
  }
  struct builder b = {0};
  b.sym = pasta__symbolizer_open(pasta__libdwarf_option());
  struct pasta_clock_pair *pairs;
  size_t num_pairs = clock_pairs(&pairs);
  fit_clock(&b, pairs, num_pairs);
  name_buffers(&b);
  struct children c = {0};
  if (index_children(&c) == 0) {
    for (size_t n = 0; n < pasta__tr.num_nodes; ++n)
      if (pasta__tr.nodes[n].parent == NONE)
        node_events(&b, &c, (uint32_t)n, 0);
  } else {
    b.failed = 1;
  }
  free(c.first);
  free(c.count);
  free(c.refs);
  copy_spans(&b);
  for (size_t i = 0; i < pasta__tr.num_traced; ++i)
    warp_spans(&b, &pasta__tr.traced[i]);
  pasta__symbolizer_close(b.sym);
  /* The trace's own copy of the allocations (other threads may still
   * allocate, moving pasta__tr.buffers), without the ids never used. */
  struct pasta_trace_buffer *buffers =
      malloc((pasta__tr.num_buffers + 1) * sizeof *buffers);
  size_t num_buffers = 0;
  for (size_t i = 0; buffers && i < pasta__tr.num_buffers; ++i)
    if (pasta__tr.buffers[i].id)
      buffers[num_buffers++] = pasta__tr.buffers[i];
  if (!buffers)
    b.failed = 1;
  *t = (struct pasta_trace){.program = program,
                            .start_ns = pasta__tr.start,
                            .events = b.events,
                            .num_events = b.num,
                            .buffers = buffers,
                            .num_buffers = num_buffers,
                            .spans = b.spans,
                            .num_spans = b.num_spans,
                            .clock_pairs = pairs,
                            .num_clock_pairs = pairs ? num_pairs : 0,
                            .clock_offset_ns = model_offset(&b),
                            .clock_drift = b.drift,
                            .events_seen = pasta__tr.seen,
                            .events_dropped = pasta__tr.dropped,
                            .device_records_dropped = pasta__tr.records_dropped,
                            .traced_launches = pasta__tr.num_traced};
  pasta__trace_unlock();
  if (b.failed)
    PASTA_WARN("out of memory building the trace; it "
               "is incomplete\n");
  return 0;
}

void pasta__trace_release(struct pasta_trace *t) {
  free((void *)t->buffers);
  free((void *)t->events);
  free((void *)t->spans);
  free((void *)t->clock_pairs);
  pasta__trace_lock();
  for (size_t i = 0; i < pasta__tr.num_owned; ++i)
    free(pasta__tr.owned[i]);
  pasta__tr.num_owned = 0;
  pasta__trace_unlock();
  memset(t, 0, sizeof *t);
}
