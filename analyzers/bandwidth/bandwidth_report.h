/*===- bandwidth_report.h - The bandwidth table and the roofline SVG ------===*
 *
 * The rows are the profile's (profile/bandwidth.h).
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_ANALYZERS_BANDWIDTH_REPORT_H
#define PASTA_ANALYZERS_BANDWIDTH_REPORT_H

#include <stdio.h>

#include "profile/bandwidth.h"

int pasta__bw_write_table(FILE *out, const pasta_bw_row *rows, size_t n,
                          const pasta_activity *a);
/* A log-log roofline: bandwidth and per-precision ceilings, one point per
 * kernel with a time and an intensity (class="kernel", with a <title>). */
int pasta__bw_write_roofline_svg(FILE *out, const pasta_bw_row *rows, size_t n,
                                 const pasta_device_peaks *peaks,
                                 const char *title);

#endif
