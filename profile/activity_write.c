/*===- activity_write.c - The activity sections of the JSON profile -------===*
 *
 * "launches", "memory" and "working_set" (docs/profile-format.md); their
 * reader is activity_read.c.
 *===----------------------------------------------------------------------===*/
#include "activity.h"
#include "json_write.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void json_frames(FILE *out, const pasta_activity_path *p) {
  fputs("[", out);
  for (uint32_t f = 0; f < p->num_frames; ++f) {
    const pasta_activity_frame *fr = &p->frames[f];
    fputs(f ? ",{\"function\":" : "{\"function\":", out);
    pasta__json_write_string_or_null(out, fr->function);
    fputs(",\"file\":", out);
    pasta__json_write_string_or_null(out, fr->file);
    fprintf(out, ",\"line\":%" PRIu32 ",\"object\":", fr->line);
    pasta__json_write_string_or_null(out, fr->object);
    fprintf(out, ",\"offset\":%" PRIu64, fr->offset);
    if (fr->vaddr) { /* located at run time (profile version 2) */
      fputs(",\"build_id\":", out);
      pasta__json_write_string_or_null(out, fr->build_id);
      fprintf(out, ",\"vaddr\":%" PRIu64, fr->vaddr);
    }
    fputc('}', out);
  }
  fputs("]", out);
}

/* An integer figure, or null when unknown (negative). */
static void json_known(FILE *out, const char *key, int64_t v) {
  if (v < 0)
    fprintf(out, "\"%s\":null", key);
  else
    fprintf(out, "\"%s\":%lld", key, (long long)v);
}

static void json_copy(FILE *out, const char *key,
                      const pasta_activity_resources *r,
                      const pasta_copy_resources *c) {
  fprintf(out, ",\"%s\":{", key);
  const char *sep = "";
#define PASTA_X(type, member, key, most, csv)                                  \
  fputs(sep, out);                                                             \
  json_known(out, key, c->member);                                             \
  sep = ",";
  PASTA_COPY_RESOURCES(PASTA_X)
#undef PASTA_X
  double o = pasta__occupancy(r, c);
  if (o >= 0)
    fprintf(out, ",\"occupancy\":%.4f}", o);
  else
    fputs(",\"occupancy\":null}", out);
}

/* "resources" (profile version 6), when the runtime read them. */
static void json_resources(FILE *out, const pasta_activity_resources *r) {
  if (!r->known)
    return;
  fprintf(out,
          ",\"resources\":{\"block_threads\":%" PRIu32
          ",\"dynamic_shared_bytes\":%" PRIu64 ",",
          r->block_threads, r->dynamic_shared_bytes);
  json_known(out, "warp_size", r->warp_size ? (int64_t)r->warp_size : -1);
  fputc(',', out);
  json_known(out, "max_threads_per_sm",
             r->max_threads_per_sm ? (int64_t)r->max_threads_per_sm : -1);
  json_copy(out, "plain", r, &r->plain);
  json_copy(out, "counting", r, &r->counting);
  if (r->has_capped)
    json_copy(out, "capped", r, &r->capped);
  fputc('}', out);
}

/* "divergence" (a new field of version 6), for a kernel launched in
 * divergence mode with a divergence copy: its launches measured and, in
 * "not_measured", those that ran another copy, by why. */
static void json_divergence(FILE *out, const pasta_activity_kernel *k) {
  uint64_t others = pasta__div_unmeasured(k);
  if (!k->div_measured && !others)
    return;
  fprintf(out,
          ",\"divergence\":{\"launches_measured\":%" PRIu64
          ",\"launches_not_measured\":%" PRIu64 ",\"not_measured\":{",
          k->div_measured, others);
  const char *sep = "";
#define PASTA_X(name, key)                                                     \
  fprintf(out, "%s\"" key "\":%" PRIu64, sep, k->name);                        \
  sep = ",";
  PASTA_ACTIVITY_DIV_REASONS(PASTA_X)
#undef PASTA_X
  fprintf(out, "},\"block_threads\":%" PRIu64 "}", k->div_block_threads);
}

void pasta__activity_write_kernel_json(FILE *out,
                                       const pasta_activity_kernel *k) {
  fputs("{\"name\":", out);
  pasta__json_write_string_or_null(out, k->name);
  fputs(",\"mangled\":", out);
  pasta__json_write_string_or_null(out, k->mangled);
#define PASTA_X(name, merge) fprintf(out, ",\"" #name "\":%" PRIu64, k->name);
  PASTA_ACTIVITY_KERNEL_COUNTS(PASTA_X)
#undef PASTA_X
  fprintf(out,
          ",\"gpu_time_ns\":{\"total\":%" PRIu64 ",\"min\":%" PRIu64
          ",\"max\":%" PRIu64 ",\"mean\":%.1f}",
          k->time_total_ns, k->timed ? k->time_min_ns : 0, k->time_max_ns,
          k->timed ? (double)k->time_total_ns / (double)k->timed : 0.0);
  fputs(",\"shapes\":[", out);
  for (size_t i = 0; i < k->num_shapes; ++i) {
    const pasta_activity_shape *s = &k->shapes[i];
    fprintf(out,
            "%s{\"grid\":[%" PRIu32 ",%" PRIu32 ",%" PRIu32
            "],\"block\":[%" PRIu32 ",%" PRIu32 ",%" PRIu32
            "],\"shared_bytes\":%" PRIu64 ",\"launches\":%" PRIu64 "}",
            i ? "," : "", s->grid[0], s->grid[1], s->grid[2], s->block[0],
            s->block[1], s->block[2], s->shared_bytes, s->launches);
  }
  fputs("],\"call_paths\":[", out);
  for (size_t i = 0; i < k->num_paths; ++i) {
    fprintf(out, "%s{\"launches\":%" PRIu64 ",\"frames\":", i ? "," : "",
            k->paths[i].launches);
    json_frames(out, &k->paths[i]);
    fputs("}", out);
  }
  fputc(']', out);
#define PASTA_X(name, merge) fprintf(out, ",\"" #name "\":%" PRIu64, k->name);
  PASTA_ACTIVITY_KERNEL_WS(PASTA_X)
#undef PASTA_X
  json_resources(out, &k->resources);
  json_divergence(out, k);
  fputc('}', out);
}

/* Writes the figures of a list whose paths may be "object.key": `open`
 * holds the object written last and still open ("" when none), closed
 * when a figure outside it comes, and by nested_end. */
static void nested_put(FILE *out, char open[32], const char *path, uint64_t v) {
  const char *dot = strchr(path, '.');
  int len = dot ? (int)(dot - path) : 0;
  int same = dot && strncmp(open, path, (size_t)len) == 0 && !open[len];
  if (open[0] && !same) {
    fputc('}', out);
    open[0] = '\0';
  }
  if (dot && !same) {
    fprintf(out, ",\"%.*s\":{\"%s\":%" PRIu64, len, path, dot + 1, v);
    snprintf(open, 32, "%.*s", len, path);
  } else {
    fprintf(out, ",\"%s\":%" PRIu64, dot ? dot + 1 : path, v);
  }
}

static void nested_end(FILE *out, char open[32]) {
  if (open[0])
    fputc('}', out);
  open[0] = '\0';
}

/* `"key":{"<name of k>":{"count":N,"bytes":N},...}` of n kinds. */
static void json_kinds(FILE *out, const char *key, unsigned n,
                       const char *(*name)(unsigned), const uint64_t *count,
                       const uint64_t *bytes) {
  fprintf(out, "\"%s\":{", key);
  for (unsigned k = 0; k < n; ++k)
    fprintf(out, "%s\"%s\":{\"count\":%" PRIu64 ",\"bytes\":%" PRIu64 "}",
            k ? "," : "", name(k), count[k], bytes[k]);
  fputc('}', out);
}

void pasta__activity_write_memory_json(FILE *out,
                                       const pasta_activity_memory *m) {
  fputs(",\n\"memory\":{", out);
  json_kinds(out, "allocations", PASTA_NUM_ALLOC_KINDS, pasta__alloc_kind_name,
             m->allocs, m->alloc_bytes);
  char open[32] = "";
#define PASTA_X(member, path, merge) nested_put(out, open, path, m->member);
  PASTA_ACTIVITY_MEMORY_TOTALS(PASTA_X)
  nested_end(out, open);
  fputc(',', out);
  json_kinds(out, "copies", PASTA_NUM_COPY_KINDS, pasta__copy_kind_name,
             m->copies, m->copy_bytes);
  PASTA_ACTIVITY_MEMORY_AFTER_COPIES(PASTA_X)
#undef PASTA_X
  nested_end(out, open);
  fputc('}', out);
}

static void json_stats(FILE *out, const char *key, const pasta_ws_stats *s) {
  fprintf(out,
          ",\"%s\":{\"max\":%" PRIu64 ",\"min\":%" PRIu64
          ",\"mean\":%.1f,\"median\":%" PRIu64 ",\"p90\":%" PRIu64 "}",
          key, s->max, s->min, s->mean, s->median, s->p90);
}

int pasta__activity_write_ws_json(FILE *out, const pasta_activity *a,
                                  const uint64_t *process) {
  if (!a->ws_enabled) {
    fputs(",\n\"working_set\":{\"enabled\":false}", out);
    return 0;
  }
  pasta_ws_stats touched, footprint;
  if (pasta__activity_ws_stats(a, &touched, &footprint))
    return -1;
  fprintf(out,
          ",\n\"working_set\":{\"enabled\":true,\"page_size\":%" PRIu64
          ",\"launches\":%zu,\"skipped\":%" PRIu64,
          a->page_size, a->num_ws_launches, a->ws_skipped);
  json_stats(out, "touched_bytes", &touched);
  json_stats(out, "footprint_bytes", &footprint);
  fprintf(out, ",\"outside\":{\"accesses\":%" PRIu64 ",\"first_kernel\":",
          a->outside);
  pasta__json_write_string_or_null(out, a->outside_kernel);
  fputs(",\"first_file\":", out);
  pasta__json_write_string_or_null(out, a->outside_file);
  fprintf(out, ",\"first_line\":%" PRIu32 "},\"per_launch\":[",
          a->outside_line);
  for (size_t i = 0; i < a->num_ws_launches; ++i) {
    const pasta_activity_ws_launch *l = &a->ws_launches[i];
    fprintf(out, "%s\n  {\"id\":%" PRIu64, i ? "," : "", l->id);
    if (process)
      fprintf(out, ",\"process\":%" PRIu64, process[i]);
    fputs(",\"kernel\":", out);
    pasta__json_write_string_or_null(
        out, l->kernel < a->num_kernels ? a->kernels[l->kernel].name : NULL);
#define PASTA_X(type, name)                                                    \
  fprintf(out, ",\"" #name "\":%" PRIu64, (uint64_t)l->name);
    PASTA_ACTIVITY_WS_LAUNCH(PASTA_X)
#undef PASTA_X
    fputc('}', out);
  }
  fputs(a->num_ws_launches ? "\n]}" : "]}", out);
  return 0;
}

int pasta__activity_write_json(FILE *out, const pasta_activity *a) {
  fprintf(out,
          ",\n\"launches\":{\"total\":%" PRIu64 ",\"counted\":%" PRIu64
          ",\"untimed\":%" PRIu64 ",\"paths_from_cache\":%" PRIu64
          ",\"gpu_time_ns\":%" PRIu64 ",\"window\":{\"start\":%" PRIu64
          ",\"end\":",
          a->launches, a->counted, a->untimed, a->paths_from_cache,
          a->gpu_time_ns, a->window_start);
  if (a->window_end == UINT64_MAX)
    fputs("null", out);
  else
    fprintf(out, "%" PRIu64, a->window_end);
  fputs(",\"kernels\":", out);
  pasta__json_write_string_or_null(out, a->window_kernels);
  fputs("},\"kernels\":[", out);
  for (size_t i = 0; i < a->num_kernels; ++i) {
    fputs(i ? ",\n  " : "\n  ", out);
    pasta__activity_write_kernel_json(out, &a->kernels[i]);
  }
  fputs(a->num_kernels ? "\n]}" : "]}", out);
  pasta__activity_write_memory_json(out, &a->memory);
  if (pasta__activity_write_ws_json(out, a, NULL))
    return -1;
  return ferror(out) ? -1 : 0;
}
