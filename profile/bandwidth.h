/*===- bandwidth.h - Bandwidth, compute intensity and the roofline --------===*
 *
 * Joins a kernel's counts (profile.h: bytes and FLOPs of the launches that
 * ran instrumented) with its times (activity.h: preferably of launches that
 * ran the plain copy, so our instrumentation is not in the time we divide
 * by) and the device's peaks. Per kernel: bytes and FLOPs per launch,
 * unique bytes per launch (working-set mode), time per launch, achieved
 * bandwidth (requested bytes / time, and unique bytes / time), FLOP/s,
 * arithmetic intensity, the fractions of the peaks, and whether the kernel
 * is memory- or compute-bound. Pure C; the writers print a table, the
 * "bandwidth" member of the JSON profile and a roofline SVG.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_BANDWIDTH_H
#define PASTA_PROFILE_BANDWIDTH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "activity.h"
#include "pasta/profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a kernel's time per launch comes from. */
enum pasta_bw_time {
  PASTA_BW_TIME_NONE = 0, /* no timed launch */
  PASTA_BW_TIME_PLAIN,    /* launches of the plain copy: honest */
  PASTA_BW_TIME_COUNTED   /* only instrumented launches: inflated */
};

/* A kernel's row of "bandwidth" (docs/profile-format.md), in the
 * profile's order: its counts of launches (X(name)), then after
 * "time_source" and "time_ns" its amounts per launch and, after "flops",
 * its rates (X(name, timed, unknown): timed 1 when the figure is null for a
 * kernel without a time; unknown, what a reader takes for null or a
 * missing one). The writer, the reader and the CSV columns are generated
 * from these lists. */
#define PASTA_BW_ROW_COUNTS(X) X(launches) X(counted) X(timed)
#define PASTA_BW_ROW_AMOUNTS(X) X(bytes, 0, 0) X(unique_bytes, 0, -1)
#define PASTA_BW_ROW_RATES(X)                                                  \
  X(bandwidth, 1, 0)                                                           \
  X(unique_bandwidth, 0, -1)                                                   \
  X(flop_rate, 1, 0)                                                           \
  X(intensity, 0, -1)                                                          \
  X(bandwidth_fraction, 0, -1)                                                 \
  X(flop_fraction, 0, -1)

typedef struct pasta_bw_row {
  const char *kernel; /* display name */
  uint64_t launches, counted, timed;
  enum pasta_bw_time time_source;
  double time_ns;      /* per launch */
  double bytes;        /* global bytes requested per counted launch */
  double unique_bytes; /* touched bytes per launch, or -1 */
  double flops[PASTA_NUM_PRECISIONS]; /* per counted launch */
  double bandwidth;                   /* bytes / time, bytes/s (0: no time) */
  double unique_bandwidth;            /* unique_bytes / time, or -1 */
  double flop_rate;                   /* all precisions, FLOP/s */
  double intensity;                   /* FLOPs per byte, -1 without bytes */
  unsigned precision;                 /* the precision with most FLOPs */
  double bandwidth_fraction, flop_fraction; /* of the peaks, or -1 */
  const char *bound;                        /* "memory", "compute" or "-" */
} pasta_bw_row;

/* The rows of every kernel with counts or launches, most GPU time first.
 * *rows is malloc'd (free it). Returns 0, or -1 when out of memory. */
int pasta__bw_rows(const pasta_profile *p, const pasta_activity *a,
                   pasta_bw_row **rows, size_t *n);

/* The device's peak bandwidth: measured when there is a measurement, else
 * the theoretical one (0: unknown). */
double pasta__bw_peak(const pasta_device_peaks *peaks);

/* ",\n\"bandwidth\":{...}" (docs/profile-format.md). */
int pasta__bw_write_json(FILE *out, const pasta_bw_row *rows, size_t n,
                         const pasta_activity *a);

/* One row of "kernels" in "bandwidth", from its name's value on
 * ("\"k\",\"launches\":...}"). A merged profile's rows (`merged`) also
 * have the kernel's "mangled" name (may be NULL) and "time_total_ns", the
 * time summed over the inputs (NULL, or a row without a time: null). */
void pasta__bw_write_row_json(FILE *out, const pasta_bw_row *r, int merged,
                              const char *mangled,
                              const uint64_t *time_total_ns);

/* The "copies" member of "bandwidth" ("\"copies\":{...}"): per copy kind
 * its count, bytes, pinned copies, seconds and bandwidth. The runtime's
 * writer above and pasta-report's merged writer both use it. */
void pasta__bw_write_copies_json(FILE *out, const pasta_activity_memory *m);

/* "plain", "instrumented" or "none": a row's "time_source". */
const char *pasta__bw_time_source_name(enum pasta_bw_time t);
#ifdef __cplusplus
}
#endif

#endif
