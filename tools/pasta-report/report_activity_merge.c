/*===- report_activity_merge.c - Merge of the activity sections -----------===*
 *
 * merge reads each input's sections back into the runtime's model
 * (activity_read.h) and folds them into one: kernels by mangled name, in
 * the order they first appear, with counts and times summed; memory summed;
 * the working-set launches concatenated, each tagged with its process; and
 * the bandwidth rows recomputed by the runtime's own code (pasta__bw_rows)
 * from the merged counts and the summed times. Every rule is chosen so that
 * merging a merged profile again gives what merging all the inputs at once
 * gives (integer sums, maxima, agreement tests); docs/profile-format.md
 * lists them. Longer than most files here: the state, the folding and the
 * writing of the merged sections share one struct, kept private to this
 * file.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "report.h"
#include "report_activity.h"

#include "profile/activity_read.h"
#include "profile/bandwidth.h"
#include "profile/json_read.h"
#include "profile/json_write.h"
#include "profile/profile_json.h"
#include "profile/vec.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { SHAPES_MAX = 64 }; /* as many as the runtime keeps per kernel */

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* How a kernel's figures join (the merge of PASTA_ACTIVITY_KERNEL_COUNTS and
 * PASTA_ACTIVITY_KERNEL_WS, activity.h). */
static uint64_t merge_SUM(uint64_t a, uint64_t b) {
  return pasta__sat_add(a, b);
}
static uint64_t merge_MAX(uint64_t a, uint64_t b) { return max_u64(a, b); }

/* NULL sorts first. */
static int cmp_string(const char *a, const char *b) {
  if (!a || !b)
    return (a != NULL) - (b != NULL);
  return strcmp(a, b);
}

/*===-- Merging -----------------------------------------------------------===*/

struct mkernel {
  pasta_activity_kernel k; /* sums; shapes and paths are the arrays below */
  pasta_activity_shape *shapes;
  size_t num_shapes, cap_shapes;
  pasta_activity_path *paths; /* frames point into the inputs */
  size_t num_paths, cap_paths;
  /* Time of the inputs' bandwidth rows: timed launches and their total,
   * [0] of rows timed on plain launches, [1] on instrumented ones. */
  uint64_t bw_timed[2], bw_time_ns[2];
};

/* Fields of "bandwidth.device" that describe the model of GPU. */
static const char *const model_keys[] = {"compute_capability", "sms",
                                         "bandwidth_theoretical"};
enum { NUM_MODEL_KEYS = 3 };

struct device {
  json_t *first; /* "device" of the first input that has one */
  int index_same, model_same[NUM_MODEL_KEYS], flops_same[PASTA_NUM_PRECISIONS];
  double measured; /* largest bandwidth_measured, or -1 */
};

struct pasta_report_merge {
  struct mkernel *kernels;
  size_t num_kernels, cap_kernels;
  uint64_t launches, counted, untimed, paths_from_cache, gpu_time_ns;
  size_t with_launches; /* inputs with a "launches" member */
  json_t *window;       /* the first one's "window" */
  int window_same;
  pasta_activity_memory memory;

  int ws_enabled, page_size_same;
  uint64_t page_size, ws_skipped, outside;
  const char *outside_kernel, *outside_file;
  uint32_t outside_line;
  int outside_seen;
  pasta_activity_ws_launch *ws;
  uint64_t *ws_process;
  size_t num_ws, cap_ws, cap_ws_process;

  size_t with_bandwidth; /* inputs with a "bandwidth" member */
  unsigned sample;
  struct device device;

  /* Copies of the inputs' strings and frames (an input is freed once it is
   * added), freed with the merge. */
  void **owned;
  size_t num_owned, cap_owned;
};

/* Keeps `block` (freed with the merge); frees it when out of memory.
 * Returns `block` or NULL. */
static void *own(struct pasta_report_merge *m, void *block) {
  if (!block || GROW(m->owned, m->cap_owned, m->num_owned)) {
    free(block);
    return NULL;
  }
  m->owned[m->num_owned++] = block;
  return block;
}

/* A copy of `s` that lives as long as the merge (NULL stays NULL); sets
 * *err when out of memory. */
static const char *keep(struct pasta_report_merge *m, const char *s, int *err) {
  if (!s)
    return NULL;
  size_t n = strlen(s) + 1;
  char *copy = own(m, malloc(n));
  if (!copy) {
    *err = 1;
    return NULL;
  }
  return memcpy(copy, s, n);
}

/* A copy of path `p`'s frames and their strings. */
static int keep_frames(struct pasta_report_merge *m, pasta_activity_path *p) {
  if (!p->num_frames)
    return 0;
  pasta_activity_frame *f = own(m, malloc(p->num_frames * sizeof *f));
  if (!f)
    return -1;
  int err = 0;
  for (uint32_t i = 0; i < p->num_frames; ++i) {
    f[i] = p->frames[i];
    f[i].function = keep(m, f[i].function, &err);
    f[i].file = keep(m, f[i].file, &err);
    f[i].object = keep(m, f[i].object, &err);
    f[i].build_id = keep(m, f[i].build_id, &err);
  }
  p->frames = f;
  return err ? -1 : 0;
}

/* Numbers compare by value, strings by content, null and missing alike. */
static int same_value(json_t *a, json_t *b) {
  if (json_is_number(a) && json_is_number(b))
    return json_number_value(a) == json_number_value(b);
  if (json_is_string(a) || json_is_string(b))
    return pasta__same_string(json_string_value(a), json_string_value(b));
  return (!a || json_is_null(a)) && (!b || json_is_null(b));
}

static int same_window(json_t *a, json_t *b) {
  if (!json_is_object(a) || !json_is_object(b))
    return 0;
  return pasta__json_u64(a, "start") == pasta__json_u64(b, "start") &&
         json_is_null(json_object_get(a, "end")) ==
             json_is_null(json_object_get(b, "end")) &&
         pasta__json_u64(a, "end") == pasta__json_u64(b, "end") &&
         same_value(json_object_get(a, "kernels"),
                    json_object_get(b, "kernels"));
}

static int cmp_shape(const void *pa, const void *pb) {
  const pasta_activity_shape *a = pa, *b = pb;
  if (a->launches != b->launches)
    return a->launches < b->launches ? 1 : -1;
  int c = memcmp(a->grid, b->grid, sizeof a->grid);
  if (!c)
    c = memcmp(a->block, b->block, sizeof a->block);
  if (!c && a->shared_bytes != b->shared_bytes)
    c = a->shared_bytes < b->shared_bytes ? -1 : 1;
  return c;
}

static int cmp_frames(const pasta_activity_path *a,
                      const pasta_activity_path *b) {
  if (a->num_frames != b->num_frames)
    return a->num_frames < b->num_frames ? -1 : 1;
  for (uint32_t i = 0; i < a->num_frames; ++i) {
    const pasta_activity_frame *x = &a->frames[i], *y = &b->frames[i];
    int c = cmp_string(x->function, y->function);
    if (!c)
      c = cmp_string(x->file, y->file);
    if (!c && x->line != y->line)
      c = x->line < y->line ? -1 : 1;
    if (!c)
      c = cmp_string(x->object, y->object);
    if (!c && x->offset != y->offset)
      c = x->offset < y->offset ? -1 : 1;
    if (c)
      return c;
  }
  return 0;
}

/* Most launches first; ties in an order of their own, so that the result
 * does not depend on how the inputs were grouped. */
static int cmp_path(const void *pa, const void *pb) {
  const pasta_activity_path *a = pa, *b = pb;
  if (a->launches != b->launches)
    return a->launches < b->launches ? 1 : -1;
  return cmp_frames(a, b);
}

static int add_kernel(struct pasta_report_merge *owner, struct mkernel *m,
                      const pasta_activity_kernel *k) {
  pasta_activity_kernel *d = &m->k;
  if (k->timed)
    d->time_min_ns = d->timed && d->time_min_ns < k->time_min_ns
                         ? d->time_min_ns
                         : k->time_min_ns;
#define PASTA_X(name, merge) d->name = merge_##merge(d->name, k->name);
  PASTA_ACTIVITY_KERNEL_COUNTS(PASTA_X)
  PASTA_ACTIVITY_KERNEL_WS(PASTA_X)
#undef PASTA_X
  d->div_measured = merge_SUM(d->div_measured, k->div_measured);
#define PASTA_X(name, key) d->name = merge_SUM(d->name, k->name);
  PASTA_ACTIVITY_DIV_REASONS(PASTA_X)
#undef PASTA_X
  d->div_block_threads = merge_MAX(d->div_block_threads, k->div_block_threads);
  d->time_total_ns = pasta__sat_add(d->time_total_ns, k->time_total_ns);
  d->time_max_ns = max_u64(d->time_max_ns, k->time_max_ns);
  /* The copies' resources: the first input's that has them (the ranks of
   * one build on one kind of GPU have the same). */
  if (!d->resources.known)
    d->resources = k->resources;
  for (size_t i = 0; i < k->num_shapes; ++i) {
    const pasta_activity_shape *s = &k->shapes[i];
    size_t j = 0;
    for (; j < m->num_shapes; ++j)
      if (!memcmp(m->shapes[j].grid, s->grid, sizeof s->grid) &&
          !memcmp(m->shapes[j].block, s->block, sizeof s->block) &&
          m->shapes[j].shared_bytes == s->shared_bytes)
        break;
    if (j < m->num_shapes) {
      m->shapes[j].launches =
          pasta__sat_add(m->shapes[j].launches, s->launches);
    } else {
      if (GROW(m->shapes, m->cap_shapes, m->num_shapes))
        return -1;
      m->shapes[m->num_shapes++] = *s;
    }
  }
  for (size_t i = 0; i < k->num_paths; ++i) {
    const pasta_activity_path *p = &k->paths[i];
    size_t j = 0;
    while (j < m->num_paths && cmp_frames(&m->paths[j], p) != 0)
      ++j;
    if (j < m->num_paths) {
      m->paths[j].launches = pasta__sat_add(m->paths[j].launches, p->launches);
    } else {
      if (GROW(m->paths, m->cap_paths, m->num_paths))
        return -1;
      m->paths[m->num_paths] = *p;
      if (keep_frames(owner, &m->paths[m->num_paths]))
        return -1;
      ++m->num_paths;
    }
  }
  return 0;
}

/* The merged kernel for k, added (empty) when it is new; NULL when out of
 * memory. */
static struct mkernel *kernel_for(struct pasta_report_merge *m,
                                  const pasta_activity_kernel *k) {
  for (size_t i = 0; i < m->num_kernels; ++i)
    if (strcmp(pasta__activity_kernel_key(&m->kernels[i].k),
               pasta__activity_kernel_key(k)) == 0)
      return &m->kernels[i];
  if (GROW(m->kernels, m->cap_kernels, m->num_kernels))
    return NULL;
  struct mkernel *mk = &m->kernels[m->num_kernels];
  memset(mk, 0, sizeof *mk);
  int err = 0;
  mk->k.name = keep(m, k->name, &err);
  mk->k.mangled = keep(m, k->mangled, &err);
  if (err)
    return NULL;
  ++m->num_kernels;
  return mk;
}

static void add_memory(pasta_activity_memory *d,
                       const pasta_activity_memory *s) {
  for (unsigned i = 0; i < PASTA_NUM_ALLOC_KINDS; ++i) {
    d->allocs[i] = pasta__sat_add(d->allocs[i], s->allocs[i]);
    d->alloc_bytes[i] = pasta__sat_add(d->alloc_bytes[i], s->alloc_bytes[i]);
  }
  for (unsigned i = 0; i < PASTA_NUM_COPY_KINDS; ++i) {
    d->copies[i] = pasta__sat_add(d->copies[i], s->copies[i]);
    d->copy_bytes[i] = pasta__sat_add(d->copy_bytes[i], s->copy_bytes[i]);
    d->copy_ns[i] = pasta__sat_add(d->copy_ns[i], s->copy_ns[i]);
    d->copies_pinned[i] =
        pasta__sat_add(d->copies_pinned[i], s->copies_pinned[i]);
  }
#define PASTA_X(member, path, merge)                                           \
  d->member = merge_##merge(d->member, s->member);
  PASTA_ACTIVITY_MEMORY_TOTALS(PASTA_X)
  PASTA_ACTIVITY_MEMORY_AFTER_COPIES(PASTA_X)
#undef PASTA_X
}

static int add_working_set(struct pasta_report_merge *m,
                           const pasta_activity *a, json_t *ws,
                           const size_t *kmap, size_t first_process) {
  if (!a->ws_enabled)
    return 0;
  if (!m->ws_enabled) {
    m->page_size = a->page_size;
    m->page_size_same = 1;
  } else if (m->page_size != a->page_size) {
    m->page_size_same = 0;
  }
  m->ws_enabled = 1;
  m->ws_skipped = pasta__sat_add(m->ws_skipped, a->ws_skipped);
  m->outside = pasta__sat_add(m->outside, a->outside);
  if (a->outside && !m->outside_seen) {
    int err = 0;
    m->outside_seen = 1;
    m->outside_kernel = keep(m, a->outside_kernel, &err);
    m->outside_file = keep(m, a->outside_file, &err);
    m->outside_line = a->outside_line;
    if (err)
      return -1;
  }
  json_t *per = json_object_get(ws, "per_launch");
  for (size_t i = 0; i < a->num_ws_launches; ++i) {
    if (GROW(m->ws, m->cap_ws, m->num_ws) ||
        GROW(m->ws_process, m->cap_ws_process, m->num_ws))
      return -1;
    pasta_activity_ws_launch l = a->ws_launches[i];
    l.kernel =
        l.kernel < a->num_kernels ? (uint32_t)kmap[l.kernel] : UINT32_MAX;
    m->ws[m->num_ws] = l;
    m->ws_process[m->num_ws++] = pasta__sat_add(
        first_process, pasta__json_u64(json_array_get(per, i), "process"));
  }
  return 0;
}

static void add_device(struct device *d, json_t *dev) {
  json_t *measured = json_object_get(dev, "bandwidth_measured");
  if (!d->first) {
    d->first = json_incref(dev); /* released with the merge */
    d->index_same = 1;
    for (unsigned i = 0; i < NUM_MODEL_KEYS; ++i)
      d->model_same[i] = 1;
    for (unsigned p = 0; p < PASTA_NUM_PRECISIONS; ++p)
      d->flops_same[p] = 1;
    d->measured = -1;
  }
  json_t *f0 = json_object_get(d->first, "flops"),
         *f = json_object_get(dev, "flops");
  d->index_same &= same_value(json_object_get(d->first, "index"),
                              json_object_get(dev, "index"));
  for (unsigned i = 0; i < NUM_MODEL_KEYS; ++i)
    d->model_same[i] &= same_value(json_object_get(d->first, model_keys[i]),
                                   json_object_get(dev, model_keys[i]));
  for (unsigned p = 0; p < PASTA_NUM_PRECISIONS; ++p)
    d->flops_same[p] &= same_value(json_object_get(f0, pasta_precision_name(p)),
                                   json_object_get(f, pasta_precision_name(p)));
  if (json_is_number(measured) && json_number_value(measured) > d->measured)
    d->measured = json_number_value(measured);
}

/* Times of the input's bandwidth rows, added to their merged kernels. */
static int add_bandwidth_times(struct pasta_report_merge *m,
                               const pasta_activity_read *r, json_t *bw,
                               const size_t *kmap) {
  const pasta_bw_row **rows = pasta__activity_rows_by_kernel(r, bw);
  if (!rows)
    return -1;
  json_t *jrows = json_object_get(bw, "kernels");
  for (size_t i = 0; i < r->activity.num_kernels; ++i) {
    const pasta_bw_row *row = rows[i];
    if (!row || row->time_source == PASTA_BW_TIME_NONE)
      continue;
    json_t *jrow = json_array_get(jrows, (size_t)(row - r->rows));
    uint64_t total =
        json_object_get(jrow, "time_total_ns")
            ? pasta__json_u64(jrow, "time_total_ns")
            : pasta_u64_from_double(row->time_ns * (double)row->timed + 0.5);
    struct mkernel *mk = &m->kernels[kmap[i]];
    int s = row->time_source == PASTA_BW_TIME_PLAIN ? 0 : 1;
    mk->bw_timed[s] = pasta__sat_add(mk->bw_timed[s], row->timed);
    mk->bw_time_ns[s] = pasta__sat_add(mk->bw_time_ns[s], total);
  }
  free(rows);
  return 0;
}

static int add_input(struct pasta_report_merge *m, json_t *root,
                     const pasta_activity_read *r, size_t first_process) {
  const pasta_activity *a = &r->activity;
  json_t *window = json_object_get(json_object_get(root, "launches"), "window");
  if (!m->with_launches++) {
    m->window = json_incref(window); /* released with the merge */
    m->window_same = json_is_object(window);
  } else {
    m->window_same &= same_window(m->window, window);
  }
  m->launches = pasta__sat_add(m->launches, a->launches);
  m->counted = pasta__sat_add(m->counted, a->counted);
  m->untimed = pasta__sat_add(m->untimed, a->untimed);
  m->paths_from_cache =
      pasta__sat_add(m->paths_from_cache, a->paths_from_cache);
  m->gpu_time_ns = pasta__sat_add(m->gpu_time_ns, a->gpu_time_ns);

  size_t *kmap = malloc((a->num_kernels ? a->num_kernels : 1) * sizeof *kmap);
  if (!kmap)
    return -1;
  for (size_t i = 0; i < a->num_kernels; ++i) {
    struct mkernel *mk = kernel_for(m, &a->kernels[i]);
    if (!mk || add_kernel(m, mk, &a->kernels[i])) {
      free(kmap);
      return -1;
    }
    kmap[i] = (size_t)(mk - m->kernels);
  }
  add_memory(&m->memory, &a->memory);
  int err = add_working_set(m, a, json_object_get(root, "working_set"), kmap,
                            first_process);
  json_t *bw = json_object_get(root, "bandwidth");
  if (!err && json_is_object(bw)) {
    m->sample =
        m->with_bandwidth++ && m->sample > a->sample ? m->sample : a->sample;
    add_device(&m->device, json_object_get(bw, "device"));
    err = add_bandwidth_times(m, r, bw, kmap);
  }
  free(kmap);
  return err;
}

/*===-- Writing the merged sections ---------------------------------------===*/

/* A device field the inputs share, or null. */
static void write_shared(FILE *out, const char *key, json_t *v, int same,
                         int first) {
  fprintf(out, "%s\"%s\":", first ? "" : ",", key);
  if (!same || !v || json_is_null(v))
    fputs("null", out);
  else if (json_is_integer(v))
    fprintf(out, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
  else if (json_is_number(v))
    fprintf(out, "%.6g", json_number_value(v));
  else if (json_is_string(v))
    pasta__json_write_string(out, json_string_value(v));
  else
    fputs("null", out);
}

static int model_same(const struct device *d) {
  int same = d->first != NULL;
  for (unsigned i = 0; i < NUM_MODEL_KEYS; ++i)
    same &= d->model_same[i];
  for (unsigned p = 0; p < PASTA_NUM_PRECISIONS; ++p)
    same &= d->flops_same[p];
  return same;
}

/* The peaks the bandwidth rows are measured against (0: unknown). */
static pasta_device_peaks merged_peaks(const struct device *d) {
  pasta_device_peaks k;
  memset(&k, 0, sizeof k);
  if (!d->first)
    return k;
  json_t *f = json_object_get(d->first, "flops");
  if (d->index_same)
    k.device = (int)pasta__json_u64(d->first, "index");
  const char *cc =
      json_string_value(json_object_get(d->first, "compute_capability"));
  if (d->model_same[0] && cc)
    sscanf(cc, "%d.%d", &k.cc_major, &k.cc_minor);
  if (d->model_same[1])
    k.sm_count = (int)pasta__json_u64(d->first, "sms");
  if (d->model_same[2])
    k.bw_theoretical =
        json_number_value(json_object_get(d->first, "bandwidth_theoretical"));
  if (model_same(d) && d->measured > 0)
    k.bw_measured = d->measured;
  for (unsigned p = 0; p < PASTA_NUM_PRECISIONS; ++p)
    if (d->flops_same[p])
      k.flops[p] =
          json_number_value(json_object_get(f, pasta_precision_name(p)));
  return k;
}

static void write_launches(FILE *out, const struct pasta_report_merge *m,
                           const pasta_activity *a) {
  fprintf(out,
          ",\n\"launches\":{\"total\":%" PRIu64 ",\"counted\":%" PRIu64
          ",\"untimed\":%" PRIu64 ",\"paths_from_cache\":%" PRIu64
          ",\"gpu_time_ns\":%" PRIu64 ",\"window\":",
          m->launches, m->counted, m->untimed, m->paths_from_cache,
          m->gpu_time_ns);
  if (m->window_same) {
    fprintf(out, "{\"start\":%" PRIu64 ",\"end\":",
            pasta__json_u64(m->window, "start"));
    json_t *end = json_object_get(m->window, "end");
    if (!end || json_is_null(end))
      fputs("null", out);
    else
      fprintf(out, "%" PRIu64, pasta__json_u64(m->window, "end"));
    fputs(",\"kernels\":", out);
    pasta__json_write_string_or_null(
        out, json_string_value(json_object_get(m->window, "kernels")));
    fputs("}", out);
  } else {
    fputs("null", out);
  }
  fputs(",\"kernels\":[", out);
  for (size_t i = 0; i < a->num_kernels; ++i) {
    fputs(i ? ",\n  " : "\n  ", out);
    pasta__activity_write_kernel_json(out, &a->kernels[i]);
  }
  fputs(a->num_kernels ? "\n]}" : "]}", out);
}

/* The rows come from pasta__bw_rows over `a`, whose kernels hold the summed
 * bandwidth times, and the merged counts. */
static int write_bandwidth(FILE *out, const struct pasta_report_merge *m,
                           const pasta_activity *a,
                           const pasta_profile *counts) {
  size_t n = a->num_kernels;
  pasta_activity_kernel *timed = malloc((n ? n : 1) * sizeof *timed);
  unsigned char *taken = calloc(n ? n : 1, 1);
  pasta_bw_row *rows = NULL;
  size_t num_rows = 0;
  pasta_activity bw = *a;
  int err = !timed || !taken;
  for (size_t i = 0; !err && i < n; ++i) {
    const struct mkernel *mk = &m->kernels[i];
    timed[i] = a->kernels[i];
    timed[i].plain_timed = timed[i].plain_rest = mk->bw_timed[0];
    timed[i].plain_time_ns = mk->bw_time_ns[0];
    timed[i].plain_first_ns = 0;
    if (!mk->bw_timed[0]) {
      timed[i].timed = mk->bw_timed[1];
      timed[i].time_total_ns = mk->bw_time_ns[1];
    }
  }
  bw.kernels = timed;
  if (!err)
    err = pasta__bw_rows(counts, &bw, &rows, &num_rows) != 0;
  if (err) {
    free(timed);
    free(taken);
    return -1;
  }

  const struct device *d = &m->device;
  json_t *f = json_object_get(d->first, "flops");
  fprintf(out, ",\n\"bandwidth\":{\"sample\":%u,\"device\":{", m->sample);
  write_shared(out, "index", json_object_get(d->first, "index"), d->index_same,
               1);
  for (unsigned i = 0; i < 2; ++i)
    write_shared(out, model_keys[i], json_object_get(d->first, model_keys[i]),
                 d->model_same[i], 0);
  pasta__json_write_number(out, "bandwidth_measured",
                           model_same(d) ? d->measured : -1, 0);
  write_shared(out, model_keys[2], json_object_get(d->first, model_keys[2]),
               d->model_same[2], 0);
  fputs(",\"flops\":{", out);
  for (unsigned p = 0; p < PASTA_NUM_PRECISIONS; ++p)
    write_shared(out, pasta_precision_name(p),
                 json_object_get(f, pasta_precision_name(p)), d->flops_same[p],
                 p == 0);
  fputs("}},\"kernels\":[", out);
  for (size_t j = 0; j < num_rows; ++j) {
    /* The row's name is its kernel's own string: that finds the kernel. */
    const struct mkernel *mk = NULL;
    for (size_t i = 0; i < n && !mk; ++i)
      if (!taken[i] && timed[i].name == rows[j].kernel) {
        taken[i] = 1;
        mk = &m->kernels[i];
      }
    fputs(j ? ",\n  {\"name\":" : "\n  {\"name\":", out);
    pasta__bw_write_row_json(
        out, &rows[j], 1, mk ? mk->k.mangled : NULL,
        mk ? &mk->bw_time_ns[rows[j].time_source == PASTA_BW_TIME_PLAIN ? 0 : 1]
           : NULL);
  }
  fputs(num_rows ? "\n]," : "],", out);
  pasta__bw_write_copies_json(out, &m->memory);
  fputs("}", out);
  free(rows);
  free(timed);
  free(taken);
  return 0;
}

pasta_report_merge *pasta__report_merge_new(void) {
  return calloc(1, sizeof(pasta_report_merge));
}

void pasta__report_merge_free(pasta_report_merge *m) {
  if (!m)
    return;
  for (size_t i = 0; i < m->num_kernels; ++i) {
    free(m->kernels[i].shapes);
    free(m->kernels[i].paths);
  }
  free(m->kernels);
  free(m->ws);
  free(m->ws_process);
  for (size_t i = 0; i < m->num_owned; ++i)
    free(m->owned[i]);
  free(m->owned);
  json_decref(m->window);
  json_decref(m->device.first);
  free(m);
}

int pasta__report_merge_add(pasta_report_merge *m, json_t *root,
                            size_t first_process) {
  pasta_activity_read in;
  int err = pasta__activity_read_json(root, &in) != 0;
  if (!err && in.present)
    err = add_input(m, root, &in, first_process);
  pasta__activity_read_free(&in); /* nothing of it is kept */
  return err ? -1 : 0;
}

int pasta__report_merge_write(FILE *out, pasta_report_merge *m,
                              const pasta_profile *counts) {
  if (!m->with_launches)
    return 0;
  pasta_activity *a = calloc(1, sizeof *a);
  pasta_activity_kernel *kernels =
      calloc(m->num_kernels ? m->num_kernels : 1, sizeof *kernels);
  int err = !a || !kernels;
  if (!err) {
    for (size_t i = 0; i < m->num_kernels; ++i) {
      struct mkernel *mk = &m->kernels[i];
      /* A kernel with "shapes": [] or "call_paths": [] has no array
       * (NULL), which qsort must not be given. */
      if (mk->num_shapes)
        qsort(mk->shapes, mk->num_shapes, sizeof *mk->shapes, cmp_shape);
      if (mk->num_paths)
        qsort(mk->paths, mk->num_paths, sizeof *mk->paths, cmp_path);
      kernels[i] = mk->k;
      kernels[i].shapes = mk->shapes;
      kernels[i].num_shapes =
          mk->num_shapes < SHAPES_MAX ? mk->num_shapes : SHAPES_MAX;
      kernels[i].paths = mk->paths;
      kernels[i].num_paths = mk->num_paths;
    }
    a->kernels = kernels;
    a->num_kernels = m->num_kernels;
    a->memory = m->memory;
    a->ws_enabled = m->ws_enabled;
    a->page_size = m->page_size_same ? m->page_size : 0;
    a->ws_launches = m->ws;
    a->num_ws_launches = m->num_ws;
    a->ws_skipped = m->ws_skipped;
    a->outside = m->outside;
    a->outside_kernel = m->outside_kernel;
    a->outside_file = m->outside_file;
    a->outside_line = m->outside_line;
    a->sample = m->sample;
    a->peaks = merged_peaks(&m->device);
    write_launches(out, m, a);
    pasta__activity_write_memory_json(out, &a->memory);
    err = pasta__activity_write_ws_json(out, a, m->ws_process) ||
          write_bandwidth(out, m, a, counts) || ferror(out);
  }
  free(kernels);
  free(a);
  return err ? -1 : 0;
}
