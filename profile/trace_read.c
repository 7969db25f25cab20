/*===- trace_read.c - Read the "trace" section of a JSON profile back -----===*
 *
 * The inverse of pasta__trace_analysis_json() (trace_analysis.c), field by
 * field. The members that the writer derives from others (use_ratio) are not
 * read: the table writer derives them again.
 *===----------------------------------------------------------------------===*/
#include "trace_read.h"

#include "json_read.h"

#include <stdlib.h>
#include <string.h>

static uint32_t u32(json_t *o, const char *key) {
  uint64_t v = pasta__json_u64(o, key);
  return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* The trace rule: a missing string is "". */
static const char *str(json_t *o, const char *key) {
  const char *s = pasta__json_str(o, key);
  return s ? s : "";
}

/* calloc of n elements (at least one, so that NULL means out of memory). */
static void *alloc(size_t n, size_t size) { return calloc(n ? n : 1, size); }

/* A figure of a PASTA_TRACE_* list (trace_analysis.h). */
#define GET_STR(e, key) str(e, key)
#define GET_U32(e, key) u32(e, key)
#define GET_U64(e, key) pasta__json_u64(e, key)
#define GET_SIZE(e, key) (size_t)pasta__json_u64(e, key)
#define GET_FIGURE(row, kind, member, key) (row)->member = GET_##kind(e, key);

static uint32_t scope_kind(const char *type) {
  for (uint32_t k = 0; pasta__cats_scope_type(k); ++k)
    if (strcmp(pasta__cats_scope_type(k), type) == 0)
      return k;
  return UINT32_MAX; /* printed as "?" */
}

static int read_buffers(json_t *a, pasta_trace_read *r) {
  size_t n = json_array_size(a);
  struct pasta_trace_analysis *out = &r->analysis;
  r->buffers = alloc(n, sizeof *r->buffers);
  out->lives = alloc(n, sizeof *out->lives);
  if (!r->buffers || !out->lives)
    return -1;
  for (size_t i = 0; i < n; ++i) {
    json_t *e = json_array_get(a, i);
    struct pasta_trace_buffer *b = &r->buffers[i];
    b->id = pasta__json_u64(e, "id");
    b->name = str(e, "name");
    b->kind = str(e, "kind");
    b->size = pasta__json_u64(e, "size");
    b->alloc_file = str(e, "file");
    b->alloc_line = u32(e, "line");
    b->t_alloc = 0;
    b->t_free = b->t_first_use = b->t_last_use = PASTA_TIME_NONE;
    b->loop_file = "";
    struct pasta_trace_buffer_life *l = &out->lives[i];
    l->buffer = b;
    l->alloc_ns = pasta__json_u64(e, "alloc_lifetime_ns");
    l->used = json_is_integer(json_object_get(e, "use_lifetime_ns")) ||
              json_is_string(json_object_get(e, "use_lifetime_ns"));
    l->use_ns = pasta__json_u64(e, "use_lifetime_ns");
    l->freed = json_is_true(json_object_get(e, "freed"));
  }
  out->num_lives = n;
  return 0;
}

static int read_loop_allocs(json_t *a, struct pasta_trace_analysis *out) {
  size_t n = json_array_size(a);
  out->loop_allocs = alloc(n, sizeof *out->loop_allocs);
  if (!out->loop_allocs)
    return -1;
  for (size_t i = 0; i < n; ++i) {
    json_t *e = json_array_get(a, i);
    struct pasta_trace_loop_allocs *g = &out->loop_allocs[i];
#define PASTA_X(kind, member, key) GET_FIGURE(g, kind, member, key)
    PASTA_TRACE_LOOP_ALLOCS(PASTA_X)
#undef PASTA_X
  }
  out->num_loop_allocs = n;
  return 0;
}

static int read_reuse(json_t *reuse, struct pasta_trace_analysis *out) {
  json_t *a = json_object_get(reuse, "groups");
  size_t n = json_array_size(a);
  out->reuse = alloc(n, sizeof *out->reuse);
  if (!out->reuse)
    return -1;
  for (size_t i = 0; i < n; ++i) {
    json_t *e = json_array_get(a, i);
    struct pasta_trace_reuse_group *g = &out->reuse[i];
#define PASTA_X(kind, member, key) GET_FIGURE(g, kind, member, key)
    PASTA_TRACE_REUSE_GROUP(PASTA_X)
#undef PASTA_X
  }
  out->num_reuse = n;
  out->reuse_saving_bytes = pasta__json_u64(reuse, "saving_bytes");
  return 0;
}

static int read_scopes(json_t *a, struct pasta_trace_analysis *out) {
  size_t n = json_array_size(a);
  out->scopes = alloc(n, sizeof *out->scopes);
  if (!out->scopes)
    return -1;
  for (size_t i = 0; i < n; ++i) {
    json_t *e = json_array_get(a, i);
    struct pasta_trace_scope_summary *s = &out->scopes[i];
    s->id = pasta__json_u64(e, "id");
    s->kind = scope_kind(str(e, "scope_type"));
    s->first_event = i; /* not in the JSON; the order is the writer's */
#define PASTA_X(kind, member, key) GET_FIGURE(s, kind, member, key)
    PASTA_TRACE_SCOPE(PASTA_X)
    PASTA_TRACE_SCOPE_FOOTPRINT(PASTA_X)
#undef PASTA_X
    json_t *acc = json_object_get(e, "accesses");
    json_t *st = json_object_get(acc, "static");
    json_t *dy = json_object_get(acc, "dynamic");
    for (uint32_t k = 0; k < PASTA_TRACE_NUM_CLASSES; ++k) {
      s->static_accesses[k] = pasta__json_u64(st, pasta__cats_access_class(k));
      s->dynamic_accesses[k] = pasta__json_u64(dy, pasta__cats_access_class(k));
    }
  }
  out->num_scopes = n;
  return 0;
}

int pasta__trace_analysis_read(json_t *trace, pasta_trace_read *out) {
  memset(out, 0, sizeof *out);
  struct pasta_trace_analysis *a = &out->analysis;
  json_t *e = json_object_get(trace, "footprint");
  a->end_ns = pasta__json_u64(trace, "end_ns");
#define PASTA_X(kind, member, key) GET_FIGURE(a, kind, member, key)
  PASTA_TRACE_FOOTPRINT(PASTA_X)
#undef PASTA_X
  if (read_buffers(json_object_get(trace, "buffers"), out) ||
      read_loop_allocs(json_object_get(trace, "loop_allocations"), a) ||
      read_reuse(json_object_get(trace, "reuse"), a) ||
      read_scopes(json_object_get(trace, "scopes"), a)) {
    pasta__trace_read_free(out);
    return -1;
  }
  return 0;
}

void pasta__trace_read_free(pasta_trace_read *r) {
  pasta__trace_analysis_free(&r->analysis);
  free(r->buffers);
  memset(r, 0, sizeof *r);
}
