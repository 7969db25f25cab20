/*===- report.h - pasta-report's internals shared between its files -------===*
 *
 * The dispatcher (pasta_report.c) hands each command (report_show.c,
 * report_merge.c, report_diff.c, report_html.c) its arguments; every file
 * parses options and reports errors through report_cli.h and reads
 * profiles through report_load.c.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_TOOLS_REPORT_H
#define PASTA_TOOLS_REPORT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pasta/profile.h"
#include "profile/profile_read.h"
#include "profile/sat.h"
#include "report_cli.h"

/* diff: the divergence figures of the kernels that have some in either
 * profile (report_diff_div.c); nothing when neither has any. Returns 0, or
 * -1 when out of memory. */
int pasta__report_diff_divergence(FILE *out, const pasta_profile *before,
                                  const pasta_profile *after);
/* Reads `path` into `p` (initialised here, finalized on success), keeping
 * what `keep` (may be NULL) selects. With `parsed`, the parsed document
 * (json_read.h) is left there for the caller to read the other sections
 * from (json_decref it). Returns 0, or 2 after printing one error line. */
int pasta__load_profile(const char *path, const pasta_profile_keep *keep,
                        pasta_profile *p, json_t **parsed);

int pasta__cmd_show(int argc, char **argv);
int pasta__cmd_merge(int argc, char **argv);
int pasta__cmd_diff(int argc, char **argv);
int pasta__cmd_html(int argc, char **argv);

#endif
