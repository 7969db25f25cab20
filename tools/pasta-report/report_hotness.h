/*===- report_hotness.h - The hotness map read back from its CSV ----------===*/
#ifndef PASTA_TOOLS_REPORT_HOTNESS_H
#define PASTA_TOOLS_REPORT_HOTNESS_H

#include <stddef.h>

#include "profile/hotness.h"

/* A hotness map and the arrays it points to (owned). */
struct pasta__hotness_csv {
  pasta_hotness model;
  pasta_hotness_launch *launches;
  size_t num_launches;
  pasta_hotness_block *blocks;
  size_t num_blocks;
  pasta_hotness_cell *cells;
  size_t num_cells;
};

/* Reads the CSV the runtime writes (pasta__hotness_write_csv). Returns 0,
 * 1 when there is no such file, or -1 with a reason in `err` (a row that
 * is not one, no memory). */
int pasta__hotness_read_csv(const char *path, struct pasta__hotness_csv *h,
                            char *err, size_t size);
void pasta__hotness_csv_free(struct pasta__hotness_csv *h);

#endif
