/*===- report_activity.c - What activity merge and diff share -------------===*
 *
 * A kernel's identity across profiles, and which bandwidth row describes
 * which kernel of a profile read back (activity_read.h): merge sums the
 * rows' times per kernel, diff shows them side by side.
 *===----------------------------------------------------------------------===*/
#include "report_activity.h"

#include <stdlib.h>
#include <string.h>

/* A kernel's identity across profiles: its mangled name, or its display
 * name when the runtime saw a kernel that no module registered. */
const char *pasta__activity_kernel_key(const pasta_activity_kernel *k) {
  return k->mangled ? k->mangled : k->name ? k->name : "";
}

/* The kernel of `a` that bandwidth row `row` (JSON element `jrow`)
 * describes. Rows carry the display name, and "mangled" in merged profiles;
 * among kernels of the same display name, one with the row's launch counts
 * is preferred. Each kernel is taken once. Returns an index or SIZE_MAX. */
static size_t row_kernel(const pasta_activity *a, const pasta_bw_row *row,
                         json_t *jrow, unsigned char *taken) {
  const char *mangled = json_string_value(json_object_get(jrow, "mangled"));
  size_t found = SIZE_MAX;
  for (size_t i = 0; i < a->num_kernels; ++i) {
    const pasta_activity_kernel *k = &a->kernels[i];
    if (taken[i] || (mangled ? !pasta__same_string(k->mangled, mangled)
                             : !pasta__same_string(k->name, row->kernel)))
      continue;
    if (mangled ||
        (k->launches == row->launches && k->counted == row->counted)) {
      found = i;
      break;
    }
    if (found == SIZE_MAX)
      found = i;
  }
  if (found != SIZE_MAX)
    taken[found] = 1;
  return found;
}

/* For each kernel of `a`, its bandwidth row (or NULL). `bw` is the
 * profile's "bandwidth" member. Returns a malloc'd array or NULL. */
const pasta_bw_row **
pasta__activity_rows_by_kernel(const pasta_activity_read *r, json_t *bw) {
  size_t n = r->activity.num_kernels;
  const pasta_bw_row **rows = calloc(n ? n : 1, sizeof *rows);
  unsigned char *taken = calloc(n ? n : 1, 1);
  if (!rows || !taken) {
    free(rows);
    free(taken);
    return NULL;
  }
  json_t *jrows = json_object_get(bw, "kernels");
  for (size_t j = 0; j < r->num_rows; ++j) {
    size_t k =
        row_kernel(&r->activity, &r->rows[j], json_array_get(jrows, j), taken);
    if (k != SIZE_MAX)
      rows[k] = &r->rows[j];
  }
  free(taken);
  return rows;
}
