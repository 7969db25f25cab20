/*===- activity_text.h - Activity values as table text --------------------===*
 *
 * The formatting that the kernel-frequency, working-set and bandwidth tables
 * share (analyzers/) and pasta-report reuses: sizes, times, call-path
 * frames, and the kernels in table order with their name column.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_ACTIVITY_TEXT_H
#define PASTA_PROFILE_ACTIVITY_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "activity.h"
#include "text_table.h"

/* Width of kernel and function names in the tables (demangle.h shortens
 * longer ones; CUB's kernels fit at their short form). */
enum { PASTA__NAME_WIDTH = 48 };

/* Names for a terminal (pasta__text_safe), in a buffer of their own. */
#define PASTA__SAFE(s, buf) pasta__text_safe((s), (buf), sizeof(buf))

/* "123 B", "1.5 KiB", ... */
void pasta__fmt_bytes(char *out, size_t size, uint64_t v);
/* "812 ns", "1.5 us", "2.250 ms", "1.000 s". */
void pasta__fmt_time(char *out, size_t size, double ns);
/* "function (file:line)" of a frame, as short as it can be. */
void pasta__fmt_frame(char *out, size_t size, const pasta_activity_frame *f);

/* A kernel's registers, local bytes and occupancy, plain -> counting
 * ("32 -> 40", "100% -> 75%"; "-" for an unknown figure), as every report
 * shows them; the counting copy is the register-capped one where that ran
 * (the note says so). */
typedef struct {
  char registers[48], local_bytes[64], occupancy[32];
} pasta_resources_text;
void pasta__fmt_resources(pasta_resources_text *t,
                          const pasta_activity_resources *r);

/* A kernel's GPU time over all its launches that ran (ns): the measured
 * total when every one was timed, else the timed launches' mean times the
 * launches (PASTA_TIMING samples launches by default); 0 when none was
 * timed. *estimated (may be NULL) says which. */
double pasta__kernel_time(const pasta_activity_kernel *k, int *estimated);

/* Indices of a's kernels by GPU time, then launches (descending); malloc'd,
 * NULL without memory. Not thread safe. */
size_t *pasta__sorted_kernels(const pasta_activity *a);
/* The call path with the most launches, or NULL. */
const pasta_activity_path *pasta__top_path(const pasta_activity_kernel *k);
/* The name column of the first n kernels of `order` (demangle.h); free()
 * it. */
char **pasta__kernel_names(const pasta_activity *a, const size_t *order,
                           size_t n);

#endif
