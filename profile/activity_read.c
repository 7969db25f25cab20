/*===- activity_json.c - Read the launch, memory, working-set and bandwidth
 *                       sections of a JSON profile back (pasta-report)
 * ----===*/
#include "activity_read.h"
#include "json_write.h"

#include "profile_json.h"

#include <stdlib.h>
#include <string.h>

uint64_t pasta_activity_json_u64(json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  if (json_is_integer(v) && json_integer_value(v) >= 0)
    return (uint64_t)json_integer_value(v);
  if (json_is_real(v) && json_real_value(v) >= 0)
    return pasta_u64_from_double(json_real_value(v));
  const char *s = json_string_value(v);
  size_t plen = strlen(PASTA_JSON_BIG_PREFIX);
  if (s && strncmp(s, PASTA_JSON_BIG_PREFIX, plen) == 0)
    return (uint64_t)strtoull(s + plen, NULL, 10);
  return 0;
}

static uint64_t u64(json_t *o, const char *key) {
  return pasta_activity_json_u64(o, key);
}

static double num(json_t *o, const char *key, double null_value) {
  json_t *v = json_object_get(o, key);
  return json_is_number(v) ? json_number_value(v) : null_value;
}

static const char *str(json_t *o, const char *key) {
  return json_string_value(json_object_get(o, key));
}

/* Keeps `block` for pasta_activity_read_free; frees it when out of memory.
 * Returns `block`, or NULL. */
static void *own(pasta_activity_read *r, void *block) {
  if (!block)
    return NULL;
  if (r->num_owned == r->cap_owned) {
    size_t cap = r->cap_owned ? 2 * r->cap_owned : 64;
    void **a = realloc(r->owned, cap * sizeof *a);
    if (!a) {
      free(block);
      return NULL;
    }
    r->owned = a;
    r->cap_owned = cap;
  }
  r->owned[r->num_owned++] = block;
  return block;
}

static void read_shapes(json_t *k, pasta_activity_kernel *out,
                        pasta_activity_read *r) {
  json_t *a = json_object_get(k, "shapes");
  size_t n = json_array_size(a);
  pasta_activity_shape *s = own(r, calloc(n ? n : 1, sizeof *s));
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
    s[i].shared_bytes = u64(e, "shared_bytes");
    s[i].launches = u64(e, "launches");
  }
  out->shapes = s;
  out->num_shapes = n;
}

static void read_paths(json_t *k, pasta_activity_kernel *out,
                       pasta_activity_read *r) {
  json_t *a = json_object_get(k, "call_paths");
  size_t n = json_array_size(a);
  pasta_activity_path *p = own(r, calloc(n ? n : 1, sizeof *p));
  if (!p)
    return;
  for (size_t i = 0; i < n; ++i) {
    json_t *e = json_array_get(a, i), *fr = json_object_get(e, "frames");
    size_t nf = json_array_size(fr);
    pasta_activity_frame *f = own(r, calloc(nf ? nf : 1, sizeof *f));
    if (!f) {
      n = i;
      break;
    }
    for (size_t j = 0; j < nf; ++j) {
      json_t *x = json_array_get(fr, j);
      f[j] = (pasta_activity_frame){
          str(x, "function"), str(x, "file"),   (uint32_t)u64(x, "line"),
          str(x, "object"),   u64(x, "offset"), str(x, "build_id"),
          u64(x, "vaddr")};
    }
    p[i] = (pasta_activity_path){u64(e, "launches"), (uint32_t)nf, f};
  }
  out->paths = p;
  out->num_paths = n;
}

static void read_kernel(json_t *k, pasta_activity_kernel *out,
                        pasta_activity_read *r) {
  json_t *t = json_object_get(k, "gpu_time_ns");
  out->name = str(k, "name");
  out->mangled = str(k, "mangled");
  out->launches = u64(k, "launches");
  out->counted = u64(k, "counted");
  out->ws_launches = u64(k, "ws_launches");
  out->failed = u64(k, "failed");
  out->timed = u64(k, "timed");
  out->time_total_ns = u64(t, "total");
  out->time_min_ns = u64(t, "min");
  out->time_max_ns = u64(t, "max");
  out->ws_max_touched_bytes = u64(k, "ws_max_touched_bytes");
  out->ws_max_footprint_bytes = u64(k, "ws_max_footprint_bytes");
  read_shapes(k, out, r);
  read_paths(k, out, r);
}

static void read_memory(json_t *m, pasta_activity_memory *out) {
  json_t *al = json_object_get(m, "allocations"),
         *cp = json_object_get(m, "copies");
  for (unsigned i = 0; i < PASTA_NUM_ALLOC_KINDS; ++i) {
    json_t *e = json_object_get(al, pasta_alloc_kind_name(i));
    out->allocs[i] = u64(e, "count");
    out->alloc_bytes[i] = u64(e, "bytes");
  }
  for (unsigned i = 0; i < PASTA_NUM_COPY_KINDS; ++i) {
    json_t *e = json_object_get(cp, pasta_copy_kind_name(i));
    out->copies[i] = u64(e, "count");
    out->copy_bytes[i] = u64(e, "bytes");
  }
  out->frees = u64(m, "frees");
  out->unknown_frees = u64(m, "unknown_frees");
  out->peak_bytes = u64(m, "peak_bytes");
  out->live_allocs_at_exit = u64(json_object_get(m, "live_at_exit"), "count");
  out->live_bytes_at_exit = u64(json_object_get(m, "live_at_exit"), "bytes");
  out->async_copies = u64(m, "async_copies");
  out->memsets = u64(json_object_get(m, "memsets"), "count");
  out->memset_bytes = u64(json_object_get(m, "memsets"), "bytes");
  out->device_syncs = u64(json_object_get(m, "syncs"), "device");
  out->stream_syncs = u64(json_object_get(m, "syncs"), "stream");
}

static void read_working_set(json_t *w, pasta_activity *a,
                             pasta_activity_read *r) {
  a->ws_enabled = json_is_true(json_object_get(w, "enabled"));
  if (!a->ws_enabled)
    return;
  a->page_size = u64(w, "page_size");
  a->ws_skipped = u64(w, "skipped");
  json_t *o = json_object_get(w, "outside");
  a->outside = u64(o, "accesses");
  a->outside_kernel = str(o, "first_kernel");
  a->outside_file = str(o, "first_file");
  a->outside_line = (uint32_t)u64(o, "first_line");
  json_t *per = json_object_get(w, "per_launch");
  size_t n = json_array_size(per);
  pasta_activity_ws_launch *l = own(r, calloc(n ? n : 1, sizeof *l));
  if (!l)
    return;
  for (size_t i = 0; i < n; ++i) {
    json_t *e = json_array_get(per, i);
    const char *kernel = str(e, "kernel");
    uint32_t k = UINT32_MAX;
    for (size_t j = 0; kernel && j < a->num_kernels; ++j)
      if (a->kernels[j].name && !strcmp(a->kernels[j].name, kernel))
        k = (uint32_t)j;
    l[i] = (pasta_activity_ws_launch){u64(e, "id"),
                                      k,
                                      (uint32_t)u64(e, "touched_allocations"),
                                      u64(e, "footprint_bytes"),
                                      u64(e, "touched_bytes"),
                                      u64(e, "outside")};
  }
  a->ws_launches = l;
  a->num_ws_launches = n;
}

static void read_bandwidth(json_t *b, pasta_activity *a,
                           pasta_activity_read *r) {
  json_t *d = json_object_get(b, "device"), *f = json_object_get(d, "flops");
  a->sample = (unsigned)u64(b, "sample");
  a->peaks.device = (int)u64(d, "index");
  a->peaks.sm_count = (int)u64(d, "sms");
  const char *cc = str(d, "compute_capability");
  if (cc)
    sscanf(cc, "%d.%d", &a->peaks.cc_major, &a->peaks.cc_minor);
  a->peaks.bw_measured = num(d, "bandwidth_measured", 0);
  a->peaks.bw_theoretical = num(d, "bandwidth_theoretical", 0);
  for (unsigned i = 0; i < PASTA_NUM_PRECISIONS; ++i)
    a->peaks.flops[i] = num(f, pasta_precision_name(i), 0);
  json_t *cp = json_object_get(b, "copies");
  for (unsigned i = 0; i < PASTA_NUM_COPY_KINDS; ++i) {
    json_t *e = json_object_get(cp, pasta_copy_kind_name(i));
    a->memory.copies_pinned[i] = u64(e, "pinned");
    a->memory.copy_ns[i] =
        pasta_u64_from_double(num(e, "seconds", 0) * 1e9 + 0.5);
  }
  json_t *ks = json_object_get(b, "kernels");
  size_t n = json_array_size(ks);
  pasta_bw_row *rows = own(r, calloc(n ? n : 1, sizeof *rows));
  if (!rows)
    return;
  for (size_t i = 0; i < n; ++i) {
    json_t *k = json_array_get(ks, i), *fl = json_object_get(k, "flops");
    pasta_bw_row *w = &rows[i];
    const char *src = str(k, "time_source");
    w->kernel = str(k, "name");
    w->launches = u64(k, "launches");
    w->counted = u64(k, "counted");
    w->timed = u64(k, "timed");
    w->time_source = src && !strcmp(src, "plain") ? PASTA_BW_TIME_PLAIN
                     : src && !strcmp(src, "instrumented")
                         ? PASTA_BW_TIME_COUNTED
                         : PASTA_BW_TIME_NONE;
    w->time_ns = num(k, "time_ns", 0);
    w->bytes = num(k, "bytes", 0);
    w->unique_bytes = num(k, "unique_bytes", -1);
    for (unsigned p = 0; p < PASTA_NUM_PRECISIONS; ++p)
      w->flops[p] = num(fl, pasta_precision_name(p), 0);
    w->bandwidth = num(k, "bandwidth", 0);
    w->unique_bandwidth = num(k, "unique_bandwidth", -1);
    w->flop_rate = num(k, "flop_rate", 0);
    w->intensity = num(k, "intensity", -1);
    w->bandwidth_fraction = num(k, "bandwidth_fraction", -1);
    w->flop_fraction = num(k, "flop_fraction", -1);
    const char *bound = str(k, "bound");
    w->bound = bound ? bound : "-";
  }
  r->rows = rows;
  r->num_rows = n;
}

int pasta_activity_read_json(json_t *root, pasta_activity_read *r) {
  memset(r, 0, sizeof *r);
  json_t *launches = json_object_get(root, "launches");
  if (!json_is_object(launches))
    return 0;
  json_t *ks = json_object_get(launches, "kernels");
  size_t n = json_array_size(ks);
  pasta_activity_kernel *k = own(r, calloc(n ? n : 1, sizeof *k));
  if (!k)
    return -1;
  pasta_activity *a = &r->activity;
  for (size_t i = 0; i < n; ++i)
    read_kernel(json_array_get(ks, i), &k[i], r);
  a->kernels = k;
  a->num_kernels = n;
  a->launches = u64(launches, "total");
  a->counted = u64(launches, "counted");
  a->untimed = u64(launches, "untimed");
  a->gpu_time_ns = u64(launches, "gpu_time_ns");
  read_memory(json_object_get(root, "memory"), &a->memory);
  read_working_set(json_object_get(root, "working_set"), a, r);
  read_bandwidth(json_object_get(root, "bandwidth"), a, r);
  r->present = 1;
  return 0;
}

/* The shortest "%.*g" that reads back as `x`, with a decimal point or an
 * exponent so that it reads back as a real. */
static void write_real(FILE *out, double x) {
  char buf[40];
  for (int prec = 1; prec <= 17; ++prec) {
    snprintf(buf, sizeof buf, "%.*g", prec, x);
    if (strtod(buf, NULL) == x)
      break;
  }
  fputs(buf, out);
  if (!strpbrk(buf, ".eEn"))
    fputs(".0", out);
}

int pasta_json_dump(FILE *out, json_t *v) {
  const char *key;
  json_t *member;
  size_t i = 0, plen = strlen(PASTA_JSON_BIG_PREFIX);
  switch (json_typeof(v)) {
  case JSON_OBJECT:
    fputc('{', out);
    json_object_foreach(v, key, member) {
      if (i++)
        fputc(',', out);
      pasta_json_write_string(out, key);
      fputc(':', out);
      pasta_json_dump(out, member);
    }
    fputc('}', out);
    break;
  case JSON_ARRAY:
    fputc('[', out);
    json_array_foreach(v, i, member) {
      if (i)
        fputc(',', out);
      pasta_json_dump(out, member);
    }
    fputc(']', out);
    break;
  case JSON_STRING:
    if (strncmp(json_string_value(v), PASTA_JSON_BIG_PREFIX, plen) == 0)
      fputs(json_string_value(v) + plen, out);
    else
      pasta_json_write_string(out, json_string_value(v));
    break;
  case JSON_INTEGER:
    fprintf(out, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    break;
  case JSON_REAL:
    write_real(out, json_real_value(v));
    break;
  case JSON_TRUE:
    fputs("true", out);
    break;
  case JSON_FALSE:
    fputs("false", out);
    break;
  default:
    fputs("null", out);
    break;
  }
  return ferror(out) ? -1 : 0;
}

void pasta_activity_read_free(pasta_activity_read *r) {
  for (size_t i = 0; i < r->num_owned; ++i)
    free(r->owned[i]);
  free(r->owned);
  memset(r, 0, sizeof *r);
}
