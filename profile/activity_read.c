/*===- activity_read.c - The activity sections of a profile, read ---------===*
 *
 * The inverse of activity_write.c and of the bandwidth writer (bandwidth.c),
 * through the lenient getters of json_read.h.
 *===----------------------------------------------------------------------===*/
#include "activity_read.h"
#include "json_read.h"
#include "vec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Keeps `block` for pasta__activity_read_free; frees it when out of memory.
 * Returns `block`, or NULL. */
static void *own(pasta_activity_read *r, void *block) {
  if (!block || GROW(r->owned, r->cap_owned, r->num_owned)) {
    free(block);
    return NULL;
  }
  r->owned[r->num_owned++] = block;
  return block;
}

/* A zeroed array (of at least one element, so that NULL means out of
 * memory) for the elements of the JSON array `a`, kept as own() keeps a
 * block; *n gets their count. */
static void *own_array(pasta_activity_read *r, json_t *a, size_t size,
                       size_t *n) {
  *n = json_array_size(a);
  return own(r, calloc(*n ? *n : 1, size));
}

static void read_shapes(json_t *k, pasta_activity_kernel *out,
                        pasta_activity_read *r) {
  json_t *a = json_object_get(k, "shapes");
  size_t n;
  pasta_activity_shape *s = own_array(r, a, sizeof *s, &n);
  if (!s)
    return;
  for (size_t i = 0; i < n; ++i) {
    json_t *e = json_array_get(a, i);
    for (int d = 0; d < 3; ++d) {
      s[i].grid[d] = (uint32_t)json_integer_value(
          json_array_get(json_object_get(e, "grid"), (size_t)d));
      s[i].block[d] = (uint32_t)json_integer_value(
          json_array_get(json_object_get(e, "block"), (size_t)d));
    }
    s[i].shared_bytes = pasta__json_u64(e, "shared_bytes");
    s[i].launches = pasta__json_u64(e, "launches");
  }
  out->shapes = s;
  out->num_shapes = n;
}

static void read_paths(json_t *k, pasta_activity_kernel *out,
                       pasta_activity_read *r) {
  json_t *a = json_object_get(k, "call_paths");
  size_t n;
  pasta_activity_path *p = own_array(r, a, sizeof *p, &n);
  if (!p)
    return;
  for (size_t i = 0; i < n; ++i) {
    json_t *e = json_array_get(a, i), *fr = json_object_get(e, "frames");
    size_t nf;
    pasta_activity_frame *f = own_array(r, fr, sizeof *f, &nf);
    if (!f) {
      n = i;
      break;
    }
    for (size_t j = 0; j < nf; ++j) {
      json_t *x = json_array_get(fr, j);
      f[j] = (pasta_activity_frame){
          pasta__json_str(x, "function"),       pasta__json_str(x, "file"),
          (uint32_t)pasta__json_u64(x, "line"), pasta__json_str(x, "object"),
          pasta__json_u64(x, "offset"),         pasta__json_str(x, "build_id"),
          pasta__json_u64(x, "vaddr")};
    }
    p[i] =
        (pasta_activity_path){pasta__json_u64(e, "launches"), (uint32_t)nf, f};
  }
  out->paths = p;
  out->num_paths = n;
}

/* An integer figure of at most `most`, or -1 when it is null, missing or
 * not such an integer. */
static int64_t known(json_t *o, const char *key, int64_t most) {
  json_t *v = json_object_get(o, key);
  if (!json_is_integer(v) || json_integer_value(v) < 0 ||
      json_integer_value(v) > most)
    return -1;
  return (int64_t)json_integer_value(v);
}

static void read_copy(json_t *c, pasta_copy_resources *out) {
#define PASTA_X(type, member, key, most, csv)                                  \
  out->member = (type)known(c, key, most);
  PASTA_COPY_RESOURCES(PASTA_X)
#undef PASTA_X
}

/* "resources" (version 6; absent before, and for kernels not read). */
static void read_resources(json_t *k, pasta_activity_resources *out) {
  json_t *r = json_object_get(k, "resources");
  if (!json_is_object(r))
    return;
  out->known = 1;
  out->block_threads = (uint32_t)pasta__json_u64(r, "block_threads");
  out->dynamic_shared_bytes = pasta__json_u64(r, "dynamic_shared_bytes");
  int64_t warp = known(r, "warp_size", UINT32_MAX),
          most = known(r, "max_threads_per_sm", UINT32_MAX);
  out->warp_size = warp < 0 ? 0 : (uint32_t)warp;
  out->max_threads_per_sm = most < 0 ? 0 : (uint32_t)most;
  read_copy(json_object_get(r, "plain"), &out->plain);
  read_copy(json_object_get(r, "counting"), &out->counting);
  json_t *capped = json_object_get(r, "capped"); /* a capped copy ran */
  if (json_is_object(capped)) {
    out->has_capped = 1;
    read_copy(capped, &out->capped);
  }
}

/* "divergence" (absent before it was added, and for kernels of other
 * modes: all 0). */
static void read_divergence(json_t *k, pasta_activity_kernel *out) {
  json_t *d = json_object_get(k, "divergence");
  if (!json_is_object(d))
    return;
  json_t *not_measured = json_object_get(d, "not_measured");
  out->div_measured = pasta__json_u64(d, "launches_measured");
  out->div_block_threads = pasta__json_u64(d, "block_threads");
#define PASTA_X(name, key) out->name = pasta__json_u64(not_measured, key);
  PASTA_ACTIVITY_DIV_REASONS(PASTA_X)
#undef PASTA_X
}

static void read_kernel(json_t *k, pasta_activity_kernel *out,
                        pasta_activity_read *r) {
  json_t *t = json_object_get(k, "gpu_time_ns");
  out->name = pasta__json_str(k, "name");
  out->mangled = pasta__json_str(k, "mangled");
#define PASTA_X(name, merge) out->name = pasta__json_u64(k, #name);
  PASTA_ACTIVITY_KERNEL_COUNTS(PASTA_X)
  PASTA_ACTIVITY_KERNEL_WS(PASTA_X)
#undef PASTA_X
  out->time_total_ns = pasta__json_u64(t, "total");
  out->time_min_ns = pasta__json_u64(t, "min");
  out->time_max_ns = pasta__json_u64(t, "max");
  read_shapes(k, out, r);
  read_paths(k, out, r);
  read_resources(k, &out->resources);
  read_divergence(k, out);
}

/* The unsigned integer at `path`, "key" or "object.key", of o. */
static uint64_t u64_at(json_t *o, const char *path) {
  const char *dot = strchr(path, '.');
  if (!dot)
    return pasta__json_u64(o, path);
  char object[32];
  snprintf(object, sizeof object, "%.*s", (int)(dot - path), path);
  return pasta__json_u64(json_object_get(o, object), dot + 1);
}

/* The counts and bytes of n kinds in the object `key` of m (the inverse
 * of activity_write.c's json_kinds). */
static void read_kinds(json_t *m, const char *key, unsigned n,
                       const char *(*name)(unsigned), uint64_t *count,
                       uint64_t *bytes) {
  json_t *o = json_object_get(m, key);
  for (unsigned i = 0; i < n; ++i) {
    json_t *e = json_object_get(o, name(i));
    count[i] = pasta__json_u64(e, "count");
    bytes[i] = pasta__json_u64(e, "bytes");
  }
}

static void read_memory(json_t *m, pasta_activity_memory *out) {
  read_kinds(m, "allocations", PASTA_NUM_ALLOC_KINDS, pasta__alloc_kind_name,
             out->allocs, out->alloc_bytes);
  read_kinds(m, "copies", PASTA_NUM_COPY_KINDS, pasta__copy_kind_name,
             out->copies, out->copy_bytes);
#define PASTA_X(member, path, merge) out->member = u64_at(m, path);
  PASTA_ACTIVITY_MEMORY_TOTALS(PASTA_X)
  PASTA_ACTIVITY_MEMORY_AFTER_COPIES(PASTA_X)
#undef PASTA_X
}

static void read_working_set(json_t *w, pasta_activity *a,
                             pasta_activity_read *r) {
  a->ws_enabled = json_is_true(json_object_get(w, "enabled"));
  if (!a->ws_enabled)
    return;
  a->page_size = pasta__json_u64(w, "page_size");
  a->ws_skipped = pasta__json_u64(w, "skipped");
  json_t *o = json_object_get(w, "outside");
  a->outside = pasta__json_u64(o, "accesses");
  a->outside_kernel = pasta__json_str(o, "first_kernel");
  a->outside_file = pasta__json_str(o, "first_file");
  a->outside_line = (uint32_t)pasta__json_u64(o, "first_line");
  json_t *per = json_object_get(w, "per_launch");
  size_t n;
  pasta_activity_ws_launch *l = own_array(r, per, sizeof *l, &n);
  if (!l)
    return;
  for (size_t i = 0; i < n; ++i) {
    json_t *e = json_array_get(per, i);
    const char *kernel = pasta__json_str(e, "kernel");
    uint32_t k = UINT32_MAX;
    for (size_t j = 0; kernel && j < a->num_kernels; ++j)
      if (a->kernels[j].name && !strcmp(a->kernels[j].name, kernel))
        k = (uint32_t)j;
    l[i].id = pasta__json_u64(e, "id");
    l[i].kernel = k;
#define PASTA_X(type, name) l[i].name = (type)pasta__json_u64(e, #name);
    PASTA_ACTIVITY_WS_LAUNCH(PASTA_X)
#undef PASTA_X
  }
  a->ws_launches = l;
  a->num_ws_launches = n;
}

static void read_bandwidth(json_t *b, pasta_activity *a,
                           pasta_activity_read *r) {
  json_t *d = json_object_get(b, "device"), *f = json_object_get(d, "flops");
  a->sample = (unsigned)pasta__json_u64(b, "sample");
  a->peaks.device = (int)pasta__json_u64(d, "index");
  a->peaks.sm_count = (int)pasta__json_u64(d, "sms");
  const char *cc = pasta__json_str(d, "compute_capability");
  if (cc)
    sscanf(cc, "%d.%d", &a->peaks.cc_major, &a->peaks.cc_minor);
  a->peaks.bw_measured = pasta__json_num(d, "bandwidth_measured", 0);
  a->peaks.bw_theoretical = pasta__json_num(d, "bandwidth_theoretical", 0);
  for (unsigned i = 0; i < PASTA_NUM_PRECISIONS; ++i)
    a->peaks.flops[i] = pasta__json_num(f, pasta_precision_name(i), 0);
  json_t *cp = json_object_get(b, "copies");
  for (unsigned i = 0; i < PASTA_NUM_COPY_KINDS; ++i) {
    json_t *e = json_object_get(cp, pasta__copy_kind_name(i));
    a->memory.copies_pinned[i] = pasta__json_u64(e, "pinned");
    a->memory.copy_ns[i] =
        pasta_u64_from_double(pasta__json_num(e, "seconds", 0) * 1e9 + 0.5);
  }
  json_t *ks = json_object_get(b, "kernels");
  size_t n;
  pasta_bw_row *rows = own_array(r, ks, sizeof *rows, &n);
  if (!rows)
    return;
  for (size_t i = 0; i < n; ++i) {
    json_t *k = json_array_get(ks, i), *fl = json_object_get(k, "flops");
    pasta_bw_row *w = &rows[i];
    const char *src = pasta__json_str(k, "time_source");
    w->kernel = pasta__json_str(k, "name");
#define PASTA_X(name) w->name = pasta__json_u64(k, #name);
    PASTA_BW_ROW_COUNTS(PASTA_X)
#undef PASTA_X
    w->time_source = src && !strcmp(src, "plain") ? PASTA_BW_TIME_PLAIN
                     : src && !strcmp(src, "instrumented")
                         ? PASTA_BW_TIME_COUNTED
                         : PASTA_BW_TIME_NONE;
    w->time_ns = pasta__json_num(k, "time_ns", 0);
    for (unsigned p = 0; p < PASTA_NUM_PRECISIONS; ++p)
      w->flops[p] = pasta__json_num(fl, pasta_precision_name(p), 0);
#define PASTA_X(name, timed, unknown)                                          \
  w->name = pasta__json_num(k, #name, unknown);
    PASTA_BW_ROW_AMOUNTS(PASTA_X)
    PASTA_BW_ROW_RATES(PASTA_X)
#undef PASTA_X
    const char *bound = pasta__json_str(k, "bound");
    w->bound = bound ? bound : "-";
  }
  r->rows = rows;
  r->num_rows = n;
}

int pasta__activity_read_json(json_t *root, pasta_activity_read *r) {
  memset(r, 0, sizeof *r);
  json_t *launches = json_object_get(root, "launches");
  if (!json_is_object(launches))
    return 0;
  json_t *ks = json_object_get(launches, "kernels");
  size_t n;
  pasta_activity_kernel *k = own_array(r, ks, sizeof *k, &n);
  if (!k)
    return -1;
  pasta_activity *a = &r->activity;
  for (size_t i = 0; i < n; ++i)
    read_kernel(json_array_get(ks, i), &k[i], r);
  a->kernels = k;
  a->num_kernels = n;
  a->launches = pasta__json_u64(launches, "total");
  a->counted = pasta__json_u64(launches, "counted");
  a->untimed = pasta__json_u64(launches, "untimed");
  a->paths_from_cache = pasta__json_u64(launches, "paths_from_cache");
  a->gpu_time_ns = pasta__json_u64(launches, "gpu_time_ns");
  read_memory(json_object_get(root, "memory"), &a->memory);
  read_working_set(json_object_get(root, "working_set"), a, r);
  read_bandwidth(json_object_get(root, "bandwidth"), a, r);
  r->present = 1;
  return 0;
}

void pasta__activity_read_free(pasta_activity_read *r) {
  for (size_t i = 0; i < r->num_owned; ++i)
    free(r->owned[i]);
  free(r->owned);
  memset(r, 0, sizeof *r);
}
