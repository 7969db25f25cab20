/*===- activity.c - Tables and JSON of launches, memory and working sets --===*/
#include "activity.h"
#include "demangle.h"
#include "profile_json.h"
#include "text_table.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

const char *pasta_alloc_kind_name(unsigned kind) {
  static const char *const names[PASTA_NUM_ALLOC_KINDS] = {
      "device", "managed", "host", "pitch", "async"};
  return kind < PASTA_NUM_ALLOC_KINDS ? names[kind] : "?";
}

const char *pasta_copy_kind_name(unsigned kind) {
  static const char *const names[PASTA_NUM_COPY_KINDS] = {"h2h", "h2d", "d2h",
                                                          "d2d", "default"};
  return kind < PASTA_NUM_COPY_KINDS ? names[kind] : "?";
}

/*===-- Formatting --------------------------------------------------------===*/

/* Width of kernel and function names in the tables (demangle.h shortens
 * longer ones; CUB's kernels fit at their short form). */
enum { NAME_WIDTH = 48 };

static void fmt_bytes(char *out, size_t size, uint64_t v) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double x = (double)v;
  unsigned u = 0;
  while (x >= 1024.0 && u + 1 < sizeof units / sizeof units[0]) {
    x /= 1024.0;
    ++u;
  }
  if (u == 0)
    snprintf(out, size, "%" PRIu64 " B", v);
  else
    snprintf(out, size, "%.1f %s", x, units[u]);
}

static void fmt_time(char *out, size_t size, double ns) {
  if (ns >= 1e9)
    snprintf(out, size, "%.3f s", ns / 1e9);
  else if (ns >= 1e6)
    snprintf(out, size, "%.3f ms", ns / 1e6);
  else if (ns >= 1e3)
    snprintf(out, size, "%.1f us", ns / 1e3);
  else
    snprintf(out, size, "%.0f ns", ns);
}

static const char *basename_of(const char *path) {
  const char *slash = path ? strrchr(path, '/') : NULL;
  return slash ? slash + 1 : path;
}

/* Names for a terminal (pasta_text_safe), in a buffer of their own. */
#define SAFE(s, buf) pasta_text_safe((s), (buf), sizeof(buf))

/* "function (file:line)" of a frame, as short as it can be. */
static void fmt_frame(char *out, size_t size, const pasta_activity_frame *f) {
  char b1[4 * NAME_WIDTH], b2[256], b3[16 * NAME_WIDTH];
  pasta_short_name(f->function ? f->function : "?", NAME_WIDTH, b1, sizeof b1);
  const char *fn = SAFE(b1, b3);
  if (f->file && f->line)
    snprintf(out, size, "%s (%s:%" PRIu32 ")", fn,
             SAFE(basename_of(f->file), b2), f->line);
  else if (f->object)
    snprintf(out, size, "%s (%s+0x%" PRIx64 ")", fn,
             SAFE(basename_of(f->object), b2), f->offset);
  else
    snprintf(out, size, "%s", fn);
}

/*===-- Tables ------------------------------------------------------------===*/

/* Kernels by GPU time, then launches (descending), as indices. */
static const pasta_activity *sort_base;
static int cmp_kernel(const void *pa, const void *pb) {
  const pasta_activity_kernel *a = &sort_base->kernels[*(const size_t *)pa];
  const pasta_activity_kernel *b = &sort_base->kernels[*(const size_t *)pb];
  if (a->time_total_ns != b->time_total_ns)
    return a->time_total_ns < b->time_total_ns ? 1 : -1;
  if (a->launches != b->launches)
    return a->launches < b->launches ? 1 : -1;
  return strcmp(a->name ? a->name : "", b->name ? b->name : "");
}

static size_t *sorted_kernels(const pasta_activity *a) {
  size_t *order = malloc((a->num_kernels ? a->num_kernels : 1) * sizeof *order);
  if (!order)
    return NULL;
  for (size_t i = 0; i < a->num_kernels; ++i)
    order[i] = i;
  sort_base = a;
  qsort(order, a->num_kernels, sizeof *order, cmp_kernel);
  return order;
}

static const pasta_activity_path *top_path(const pasta_activity_kernel *k) {
  const pasta_activity_path *best = NULL;
  for (size_t i = 0; i < k->num_paths; ++i)
    if (!best || k->paths[i].launches > best->launches)
      best = &k->paths[i];
  return best;
}

/* The name column of the first n kernels of `order` (demangle.h). */
static char **kernel_names(const pasta_activity *a, const size_t *order,
                           size_t n) {
  const char **names = malloc((n ? n : 1) * sizeof *names);
  if (!names)
    return NULL;
  for (size_t i = 0; i < n; ++i)
    names[i] = a->kernels[order[i]].name;
  char **cells = pasta_short_safe_names(names, n, NAME_WIDTH);
  free(names);
  return cells;
}

static void kernel_row(FILE *out, const pasta_activity *a,
                       const pasta_activity_kernel *k, const char *name) {
  char total[32] = "-", mean[32] = "-", min[32] = "-", max[32] = "-";
  char share[16] = "-", site[256] = "-";
  if (k->timed) {
    fmt_time(total, sizeof total, (double)k->time_total_ns);
    fmt_time(mean, sizeof mean, (double)k->time_total_ns / (double)k->timed);
    fmt_time(min, sizeof min, (double)k->time_min_ns);
    fmt_time(max, sizeof max, (double)k->time_max_ns);
    if (a->gpu_time_ns)
      snprintf(share, sizeof share, "%.1f%%",
               100.0 * (double)k->time_total_ns / (double)a->gpu_time_ns);
  }
  const pasta_activity_path *p = top_path(k);
  if (p && p->num_frames)
    fmt_frame(site, sizeof site, &p->frames[0]);
  fprintf(out,
          "  %-*s %9" PRIu64 " %8" PRIu64 " %11s %6s %10s %10s %10s %6zu"
          "  %s\n",
          NAME_WIDTH, name, k->launches, k->counted, total, share, mean, min,
          max, k->num_shapes, site);
}

static void kernel_paths(FILE *out, const pasta_activity_kernel *k) {
  for (size_t i = 0; i < k->num_paths && i < 3; ++i) {
    const pasta_activity_path *p = &k->paths[i];
    fprintf(out, "    %" PRIu64 "x", p->launches);
    for (uint32_t f = 0; f < p->num_frames; ++f) {
      char frame[256];
      fmt_frame(frame, sizeof frame, &p->frames[f]);
      fprintf(out, "%s%s", f ? " <- " : "  ", frame);
    }
    fputc('\n', out);
  }
}

static void memory_summary(FILE *out, const pasta_activity_memory *m) {
  char b[32];
  fputs("pasta: memory:", out);
  int any = 0;
  for (unsigned k = 0; k < PASTA_NUM_ALLOC_KINDS; ++k) {
    if (!m->allocs[k])
      continue;
    fmt_bytes(b, sizeof b, m->alloc_bytes[k]);
    fprintf(out, "%s %" PRIu64 " %s allocations (%s)", any ? "," : "",
            m->allocs[k], pasta_alloc_kind_name(k), b);
    any = 1;
  }
  if (!any)
    fputs(" no allocations", out);
  fmt_bytes(b, sizeof b, m->peak_bytes);
  fprintf(out, "; peak %s; %" PRIu64 " frees", b, m->frees);
  if (m->unknown_frees)
    fprintf(out, " (%" PRIu64 " of unknown pointers)", m->unknown_frees);
  if (m->live_allocs_at_exit) {
    fmt_bytes(b, sizeof b, m->live_bytes_at_exit);
    fprintf(out, "; %" PRIu64 " still allocated at exit (%s)",
            m->live_allocs_at_exit, b);
  }
  fputs("\npasta: copies:", out);
  any = 0;
  for (unsigned k = 0; k < PASTA_NUM_COPY_KINDS; ++k) {
    if (!m->copies[k])
      continue;
    fmt_bytes(b, sizeof b, m->copy_bytes[k]);
    fprintf(out, "%s %s %" PRIu64 " (%s)", any ? "," : "",
            pasta_copy_kind_name(k), m->copies[k], b);
    any = 1;
  }
  if (!any)
    fputs(" none", out);
  fmt_bytes(b, sizeof b, m->memset_bytes);
  fprintf(out,
          "; %" PRIu64 " async; %" PRIu64 " memsets (%s); syncs: %" PRIu64
          " device, %" PRIu64 " stream\n",
          m->async_copies, m->memsets, b, m->device_syncs, m->stream_syncs);
}

int pasta_activity_ws_stats(const pasta_activity *a, pasta_ws_stats *touched,
                            pasta_ws_stats *footprint) {
  size_t n = a->num_ws_launches;
  uint64_t *t = malloc((n ? n : 1) * sizeof *t);
  uint64_t *f = malloc((n ? n : 1) * sizeof *f);
  int rc = -1;
  if (t && f) {
    for (size_t i = 0; i < n; ++i) {
      t[i] = a->ws_launches[i].touched_bytes;
      f[i] = a->ws_launches[i].footprint_bytes;
    }
    rc = pasta_ws_stats_compute(t, n, touched) ||
                 pasta_ws_stats_compute(f, n, footprint)
             ? -1
             : 0;
  }
  free(t);
  free(f);
  return rc;
}

static void fmt_stats(char *out, size_t size, const pasta_ws_stats *s) {
  char mx[32], mn[32], avg[32], med[32], p90[32];
  fmt_bytes(mx, sizeof mx, s->max);
  fmt_bytes(mn, sizeof mn, s->min);
  fmt_bytes(avg, sizeof avg, pasta_u64_from_double(s->mean + 0.5));
  fmt_bytes(med, sizeof med, s->median);
  fmt_bytes(p90, sizeof p90, s->p90);
  snprintf(out, size, "max %s, min %s, mean %s, median %s, p90 %s", mx, mn, avg,
           med, p90);
}

int pasta_activity_write_ws_tables(FILE *out, const pasta_activity *a,
                                   unsigned top) {
  pasta_ws_stats touched, footprint;
  size_t *order = sorted_kernels(a);
  if (!order || pasta_activity_ws_stats(a, &touched, &footprint)) {
    free(order);
    return -1;
  }
  char page[32], peak[32], line[256];
  fmt_bytes(page, sizeof page, a->page_size);
  fmt_bytes(peak, sizeof peak, a->memory.peak_bytes);
  fprintf(out,
          "\npasta: working set (%zu launches tracked, %s pages; memory "
          "footprint of the program: %s at peak)\n",
          a->num_ws_launches, page, peak);
  fmt_stats(line, sizeof line, &touched);
  fprintf(out, "  touched bytes per launch:           %s\n", line);
  fmt_stats(line, sizeof line, &footprint);
  fprintf(out, "  touched allocations' bytes per launch: %s\n", line);
  fprintf(out, "  %-*s %9s %14s %16s\n", NAME_WIDTH, "kernel", "tracked",
          "max touched", "max footprint");
  size_t shown = a->num_kernels < top ? a->num_kernels : top;
  char **names = kernel_names(a, order, shown);
  for (size_t i = 0; names && i < shown; ++i) {
    const pasta_activity_kernel *k = &a->kernels[order[i]];
    if (!k->ws_launches)
      continue;
    char t[32], f[32];
    fmt_bytes(t, sizeof t, k->ws_max_touched_bytes);
    fmt_bytes(f, sizeof f, k->ws_max_footprint_bytes);
    fprintf(out, "  %-*s %9" PRIu64 " %14s %16s\n", NAME_WIDTH, names[i],
            k->ws_launches, t, f);
  }
  free(names);
  if (a->outside) {
    fprintf(out,
            "pasta: warning: %" PRIu64 " accesses outside every known "
            "allocation",
            a->outside);
    char b1[256], b2[256];
    if (a->outside_kernel)
      fprintf(
          out, " (first: %s at %s:%" PRIu32 ")", SAFE(a->outside_kernel, b1),
          SAFE(a->outside_file ? a->outside_file : "?", b2), a->outside_line);
    fputs(" — __device__ variables, or memory PASTA did not see allocated\n",
          out);
  }
  if (a->ws_skipped)
    fprintf(out,
            "pasta: warning: %" PRIu64 " launches ran without working-set "
            "tracking (no variant, or its buffers could not be set up)\n",
            a->ws_skipped);
  free(order);
  return ferror(out) ? -1 : 0;
}

int pasta_activity_write_tables(FILE *out, const pasta_activity *a,
                                unsigned top) {
  size_t *order = sorted_kernels(a);
  if (!order)
    return -1;
  char total[32];
  fmt_time(total, sizeof total, (double)a->gpu_time_ns);
  fprintf(out,
          "\npasta: kernel launches: %" PRIu64
          " launches of %zu kernels, %" PRIu64 " counted; GPU time %s",
          a->launches, a->num_kernels, a->counted, total);
  if (a->untimed)
    fprintf(out, " (%" PRIu64 " launches untimed)", a->untimed);
  fputc('\n', out);
  fprintf(out, "  %-*s %9s %8s %11s %6s %10s %10s %10s %6s  %s\n", NAME_WIDTH,
          "kernel", "launches", "counted", "GPU time", "share", "mean", "min",
          "max", "shapes", "launched from");
  size_t shown = a->num_kernels < top ? a->num_kernels : top;
  char **names = kernel_names(a, order, shown);
  if (!names) {
    free(order);
    return -1;
  }
  for (size_t i = 0; i < shown; ++i)
    kernel_row(out, a, &a->kernels[order[i]], names[i]);
  if (a->num_kernels > top)
    fprintf(out, "  ... %zu more kernels in the JSON profile\n",
            a->num_kernels - top);
  fputs("pasta: call paths (innermost first):\n", out);
  for (size_t i = 0; i < shown; ++i) {
    const pasta_activity_kernel *k = &a->kernels[order[i]];
    if (!k->num_paths)
      continue;
    fprintf(out, "  %s\n", names[i]);
    kernel_paths(out, k);
  }
  free(names);
  memory_summary(out, &a->memory);
  free(order);
  return ferror(out) ? -1 : 0;
}

/*===-- JSON --------------------------------------------------------------===*/

static void json_str(FILE *out, const char *s) {
  if (s)
    pasta_json_write_string(out, s);
  else
    fputs("null", out);
}

static void json_frames(FILE *out, const pasta_activity_path *p) {
  fputs("[", out);
  for (uint32_t f = 0; f < p->num_frames; ++f) {
    const pasta_activity_frame *fr = &p->frames[f];
    fputs(f ? ",{\"function\":" : "{\"function\":", out);
    json_str(out, fr->function);
    fputs(",\"file\":", out);
    json_str(out, fr->file);
    fprintf(out, ",\"line\":%" PRIu32 ",\"object\":", fr->line);
    json_str(out, fr->object);
    fprintf(out, ",\"offset\":%" PRIu64, fr->offset);
    if (fr->vaddr) { /* located at run time (profile version 2) */
      fputs(",\"build_id\":", out);
      json_str(out, fr->build_id);
      fprintf(out, ",\"vaddr\":%" PRIu64, fr->vaddr);
    }
    fputc('}', out);
  }
  fputs("]", out);
}

void pasta_activity_write_kernel_json(FILE *out,
                                      const pasta_activity_kernel *k) {
  fputs("{\"name\":", out);
  json_str(out, k->name);
  fputs(",\"mangled\":", out);
  json_str(out, k->mangled);
  fprintf(out,
          ",\"launches\":%" PRIu64 ",\"counted\":%" PRIu64
          ",\"ws_launches\":%" PRIu64 ",\"failed\":%" PRIu64
          ",\"timed\":%" PRIu64 ",\"gpu_time_ns\":{\"total\":%" PRIu64
          ",\"min\":%" PRIu64 ",\"max\":%" PRIu64 ",\"mean\":%.1f}",
          k->launches, k->counted, k->ws_launches, k->failed, k->timed,
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
  fprintf(out,
          "],\"ws_max_touched_bytes\":%" PRIu64
          ",\"ws_max_footprint_bytes\":%" PRIu64 "}",
          k->ws_max_touched_bytes, k->ws_max_footprint_bytes);
}

void pasta_activity_write_memory_json(FILE *out,
                                      const pasta_activity_memory *m) {
  fputs(",\n\"memory\":{\"allocations\":{", out);
  for (unsigned k = 0; k < PASTA_NUM_ALLOC_KINDS; ++k)
    fprintf(out, "%s\"%s\":{\"count\":%" PRIu64 ",\"bytes\":%" PRIu64 "}",
            k ? "," : "", pasta_alloc_kind_name(k), m->allocs[k],
            m->alloc_bytes[k]);
  fprintf(out,
          "},\"frees\":%" PRIu64 ",\"unknown_frees\":%" PRIu64
          ",\"peak_bytes\":%" PRIu64 ",\"live_at_exit\":{\"count\":%" PRIu64
          ",\"bytes\":%" PRIu64 "},\"copies\":{",
          m->frees, m->unknown_frees, m->peak_bytes, m->live_allocs_at_exit,
          m->live_bytes_at_exit);
  for (unsigned k = 0; k < PASTA_NUM_COPY_KINDS; ++k)
    fprintf(out, "%s\"%s\":{\"count\":%" PRIu64 ",\"bytes\":%" PRIu64 "}",
            k ? "," : "", pasta_copy_kind_name(k), m->copies[k],
            m->copy_bytes[k]);
  fprintf(out,
          "},\"async_copies\":%" PRIu64 ",\"memsets\":{\"count\":%" PRIu64
          ",\"bytes\":%" PRIu64 "},\"syncs\":{\"device\":%" PRIu64
          ",\"stream\":%" PRIu64 "}}",
          m->async_copies, m->memsets, m->memset_bytes, m->device_syncs,
          m->stream_syncs);
}

static void json_stats(FILE *out, const char *key, const pasta_ws_stats *s) {
  fprintf(out,
          ",\"%s\":{\"max\":%" PRIu64 ",\"min\":%" PRIu64
          ",\"mean\":%.1f,\"median\":%" PRIu64 ",\"p90\":%" PRIu64 "}",
          key, s->max, s->min, s->mean, s->median, s->p90);
}

int pasta_activity_write_ws_json(FILE *out, const pasta_activity *a,
                                 const uint64_t *process) {
  if (!a->ws_enabled) {
    fputs(",\n\"working_set\":{\"enabled\":false}", out);
    return 0;
  }
  pasta_ws_stats touched, footprint;
  if (pasta_activity_ws_stats(a, &touched, &footprint))
    return -1;
  fprintf(out,
          ",\n\"working_set\":{\"enabled\":true,\"page_size\":%" PRIu64
          ",\"launches\":%zu,\"skipped\":%" PRIu64,
          a->page_size, a->num_ws_launches, a->ws_skipped);
  json_stats(out, "touched_bytes", &touched);
  json_stats(out, "footprint_bytes", &footprint);
  fprintf(out, ",\"outside\":{\"accesses\":%" PRIu64 ",\"first_kernel\":",
          a->outside);
  json_str(out, a->outside_kernel);
  fputs(",\"first_file\":", out);
  json_str(out, a->outside_file);
  fprintf(out, ",\"first_line\":%" PRIu32 "},\"per_launch\":[",
          a->outside_line);
  for (size_t i = 0; i < a->num_ws_launches; ++i) {
    const pasta_activity_ws_launch *l = &a->ws_launches[i];
    fprintf(out, "%s\n  {\"id\":%" PRIu64, i ? "," : "", l->id);
    if (process)
      fprintf(out, ",\"process\":%" PRIu64, process[i]);
    fputs(",\"kernel\":", out);
    json_str(out,
             l->kernel < a->num_kernels ? a->kernels[l->kernel].name : NULL);
    fprintf(out,
            ",\"touched_allocations\":%" PRIu32 ",\"footprint_bytes\":%" PRIu64
            ",\"touched_bytes\":%" PRIu64 ",\"outside\":%" PRIu64 "}",
            l->touched_allocations, l->footprint_bytes, l->touched_bytes,
            l->outside);
  }
  fputs(a->num_ws_launches ? "\n]}" : "]}", out);
  return 0;
}

int pasta_activity_write_json(FILE *out, const pasta_activity *a) {
  fprintf(out,
          ",\n\"launches\":{\"total\":%" PRIu64 ",\"counted\":%" PRIu64
          ",\"untimed\":%" PRIu64 ",\"gpu_time_ns\":%" PRIu64
          ",\"window\":{\"start\":%" PRIu64 ",\"end\":",
          a->launches, a->counted, a->untimed, a->gpu_time_ns, a->window_start);
  if (a->window_end == UINT64_MAX)
    fputs("null", out);
  else
    fprintf(out, "%" PRIu64, a->window_end);
  fputs(",\"kernels\":", out);
  json_str(out, a->window_kernels);
  fputs("},\"kernels\":[", out);
  for (size_t i = 0; i < a->num_kernels; ++i) {
    fputs(i ? ",\n  " : "\n  ", out);
    pasta_activity_write_kernel_json(out, &a->kernels[i]);
  }
  fputs(a->num_kernels ? "\n]}" : "]}", out);
  pasta_activity_write_memory_json(out, &a->memory);
  if (pasta_activity_write_ws_json(out, a, NULL))
    return -1;
  return ferror(out) ? -1 : 0;
}
