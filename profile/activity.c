/*===- activity.c - Names and statistics of the activity model ------------===*/
#include "activity.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *pasta__alloc_kind_name(unsigned kind) {
  static const char *const names[PASTA_NUM_ALLOC_KINDS] = {
      "device", "managed", "host", "pitch", "async"};
  return kind < PASTA_NUM_ALLOC_KINDS ? names[kind] : "?";
}

const char *pasta__copy_kind_name(unsigned kind) {
  static const char *const names[PASTA_NUM_COPY_KINDS] = {"h2h", "h2d", "d2h",
                                                          "d2d", "default"};
  return kind < PASTA_NUM_COPY_KINDS ? names[kind] : "?";
}

int pasta__activity_ws_stats(const pasta_activity *a, pasta_ws_stats *touched,
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
    rc = pasta__ws_stats_compute(t, n, touched) ||
                 pasta__ws_stats_compute(f, n, footprint)
             ? -1
             : 0;
  }
  free(t);
  free(f);
  return rc;
}

double pasta__occupancy(const pasta_activity_resources *r,
                        const pasta_copy_resources *c) {
  if (!r->known || c->blocks_per_sm < 0 || !r->warp_size ||
      r->max_threads_per_sm < r->warp_size || !r->block_threads)
    return -1;
  uint64_t warps = (r->block_threads + r->warp_size - 1) / r->warp_size;
  double most = (double)(r->max_threads_per_sm / r->warp_size);
  double o = (double)c->blocks_per_sm * (double)warps / most;
  return o > 1 ? 1 : o;
}

/* The note of a kernel whose register-capped copy ran ("capped"): the
 * counting copy could not take the block (or a cooperative or persistent grid),
 * the capped copy counted it, and what the capped copy changed against the
 * plain one. */
static int capped_note(const pasta_activity_resources *r, char *note,
                       size_t size) {
  const pasta_copy_resources *c = &r->counting, *k = &r->capped, *p = &r->plain;
  char occupancy[64] = "";
  double po = pasta__occupancy(r, p), ko = pasta__occupancy(r, k);
  if (po >= 0 && ko >= 0)
    snprintf(occupancy, sizeof occupancy, ", occupancy %.0f%% -> %.0f%%",
             100 * po, 100 * ko);
  /* The counting kernel takes the block: the capped copy ran because a
   * grid sized by the plain copy's occupancy (cooperative, or persistent:
   * host_rt/launch.c, resident_choice) did not fit at once. */
  char why[160];
  if (c->blocks_per_sm > 0)
    snprintf(why, sizeof why,
             "the counting copy cannot hold at once a grid the plain "
             "copy's occupancy sized (blocks of %" PRIu32 " threads per SM "
             "%d -> %d, registers %d -> %d)",
             r->block_threads, p->blocks_per_sm, c->blocks_per_sm, p->registers,
             c->registers);
  else
    snprintf(why, sizeof why,
             "the counting copy cannot run blocks of %" PRIu32 " threads "
             "(registers %d -> %d)",
             r->block_threads, p->registers, c->registers);
  snprintf(note, size,
           "%s: such launches ran its register-capped copy, counted, with "
           "registers %d -> %d, local memory (stack, spills) %lld -> %lld "
           "bytes per thread%s: their timings may be perturbed",
           why, p->registers, k->registers, (long long)p->local_bytes,
           (long long)k->local_bytes, occupancy);
  return 1;
}

/* The note for kernel k's row: that of its resources, except where none
 * of its launches was counted though its counting copy takes the block
 * (a cooperative or persistent grid it cannot hold ran as the plain copy, or
 * every launch was outside the launch window): its times are the plain copy's.
 */
int pasta__kernel_resources_note(const pasta_activity_kernel *k, char *note,
                                 size_t size) {
  const pasta_activity_resources *r = &k->resources;
  int perturbed = pasta__resources_perturbed(r, note, size);
  if (!perturbed || !k->launches || k->counted || r->has_capped ||
      r->counting.blocks_per_sm == 0)
    return perturbed;
  snprintf(note, size,
           "none of its launches was counted: they ran the plain copy, with "
           "its own registers and occupancy (the counting copy's registers "
           "%d -> %d)",
           r->plain.registers, r->counting.registers);
  return 1;
}

uint64_t pasta__div_unmeasured(const pasta_activity_kernel *k) {
  uint64_t n = 0;
#define PASTA_X(name, key) n += k->name;
  PASTA_ACTIVITY_DIV_REASONS(PASTA_X)
#undef PASTA_X
  return n;
}

/* Appends ", N <what>" (the first without the comma) to note at *used
 * when n is not 0. */
static void add_reason(char *note, size_t size, size_t *used, uint64_t n,
                       const char *what) {
  if (!n || *used >= size)
    return;
  int w = snprintf(note + *used, size - *used, "%s%" PRIu64 " %s",
                   *used && note[*used - 1] != '(' ? ", " : "", n, what);
  *used += w > 0 ? (size_t)w : 0;
}

int pasta__div_coverage_note(const pasta_activity_kernel *k, char *note,
                             size_t size) {
  uint64_t others = pasta__div_unmeasured(k);
  if (size)
    note[0] = '\0';
  if (!others || !size)
    return 0;
  uint64_t all = k->div_measured + others;
  int w = k->div_measured
              ? snprintf(note, size,
                         "divergence figures from %" PRIu64 " of %" PRIu64
                         " launches; %" PRIu64 " ran no divergence copy (",
                         k->div_measured, all, others)
              : snprintf(note, size,
                         "no divergence figures: its %" PRIu64
                         " launches ran no divergence copy (",
                         all);
  size_t used = w > 0 ? (size_t)w : 0;
  char block[96];
  snprintf(block, sizeof block,
           "with blocks of %" PRIu64 " threads, too large for its copies",
           k->div_block_threads);
  add_reason(note, size, &used, k->div_by_block, block);
  add_reason(note, size, &used, k->div_by_driver_handle,
             "through a driver handle");
  add_reason(note, size, &used, k->div_by_graph, "as CUDA graph nodes");
  add_reason(note, size, &used, k->div_by_trace, "traced");
  add_reason(note, size, &used, k->div_by_refusal,
             "after the GPU refused the divergence copy");
  add_reason(note, size, &used, k->div_by_window,
             "outside the launch window, without a plain copy");
  add_reason(note, size, &used, k->div_by_working_set,
             "as working-set launches (PASTA_WORKING_SET=1)");
  if (used < size && k->div_measured)
    snprintf(note + used, size - used,
             "): the figures derived from thread-level counts (requested "
             "and distinct bytes, thread executions) may include those, the "
             "warp-level ones (requests, sectors, branches) do not");
  else if (used < size)
    snprintf(note + used, size - used, ")");
  return 1;
}

int pasta__resources_perturbed(const pasta_activity_resources *r, char *note,
                               size_t size) {
  if (size)
    note[0] = '\0';
  if (!r->known)
    return 0;
  if (r->has_capped)
    return capped_note(r, note, size);
  const pasta_copy_resources *c = &r->counting, *p = &r->plain;
  int fewer_blocks = c->blocks_per_sm >= 0 && p->blocks_per_sm >= 0 &&
                     c->blocks_per_sm < p->blocks_per_sm;
  int more_local = c->local_bytes >= 0 && p->local_bytes >= 0 &&
                   c->local_bytes > p->local_bytes;
  if (!fewer_blocks && !more_local)
    return 0;
  if (c->blocks_per_sm == 0) { /* retried as the plain copy (launch.c) */
    snprintf(note, size,
             "the counting copy cannot run blocks of %" PRIu32 " threads "
             "(registers %d -> %d): such launches run the plain copy, "
             "uncounted",
             r->block_threads, p->registers, c->registers);
    return 1;
  }
  char parts[4][128];
  int n = 0;
  if (fewer_blocks && c->registers >= 0 && p->registers >= 0 &&
      c->registers != p->registers)
    snprintf(parts[n++], sizeof parts[0], "%s registers %d -> %d",
             c->registers > p->registers ? "raised" : "lowered", p->registers,
             c->registers);
  if (fewer_blocks && p->shared_bytes >= 0 && c->shared_bytes > p->shared_bytes)
    snprintf(parts[n++], sizeof parts[0],
             "raised static shared memory %lld -> %lld bytes",
             (long long)p->shared_bytes, (long long)c->shared_bytes);
  if (more_local)
    snprintf(parts[n++], sizeof parts[0],
             "raised local memory (stack, spills) %lld -> %lld bytes per "
             "thread",
             (long long)p->local_bytes, (long long)c->local_bytes);
  if (fewer_blocks) {
    double po = pasta__occupancy(r, p), co = pasta__occupancy(r, c);
    if (po >= 0 && co >= 0)
      snprintf(parts[n++], sizeof parts[0],
               "lowered occupancy %.0f%% -> %.0f%%", 100 * po, 100 * co);
    else
      snprintf(parts[n++], sizeof parts[0], "lowered blocks per SM %d -> %d",
               p->blocks_per_sm, c->blocks_per_sm);
  }
  /* "a, b and c" */
  char body[600] = "";
  size_t used = 0;
  for (int i = 0; i < n && used < sizeof body; ++i) {
    const char *sep = i == 0 ? "" : i == n - 1 ? " and " : ", ";
    int w = snprintf(body + used, sizeof body - used, "%s%s", sep, parts[i]);
    used += w > 0 ? (size_t)w : 0;
  }
  snprintf(note, size,
           "the counting copy %s: timings of this kernel's counted launches "
           "may be perturbed",
           body);
  return 1;
}
