/*===- hotness_files.h - The hotness map as CSV and as an SVG heat map ----===*
 *
 * Pure C11 on libc (no libm): these objects go into libpasta_rt. The model
 * is profile/hotness.h.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_ANALYZERS_HOTNESS_FILES_H
#define PASTA_ANALYZERS_HOTNESS_FILES_H

#include <stdio.h>

#include "profile/hotness.h"

/* CSV with the header "launch,kernel,allocation,block,block_address,
 * accesses" and one line per non-zero (launch, block) pair, ordered by
 * launch index then block index (the order of launches[] and blocks[]):
 * launch is the launch id, block the block index within its allocation,
 * block_address base + block * block_size in hexadecimal ("0x..."). Kernel
 * names are quoted per RFC 4180 when they hold a comma, a quote, CR or LF;
 * lines end with LF. Returns 0, or -1 on a write error, when out of memory
 * or when the model is invalid (block_size 0, a NULL array with a non-zero
 * count, a cell index out of range); nothing is written in the last two
 * cases. */
int pasta__hotness_write_csv(FILE *f, const pasta_hotness *h);

/* SVG heat map: x = launches (columns, in order), y = blocks (rows, in the
 * order of blocks[]), colour = accesses on a log scale (no accesses: white
 * background; the largest count: darkest), a title (`title`, or a default
 * one when NULL) and a subtitle with the sizes, axis labels ("launch",
 * "2 MiB block"), row labels "alloc <id> +<offset> MiB" and column ticks
 * with launch ids (both thinned so that they do not overlap), and a colour
 * legend with the least and largest non-zero counts. Each non-zero cell is
 * one <rect class="cell"> with a <title> tooltip "launch N (kernel): alloc
 * A block B: K accesses". With more than PASTA_HOTNESS_MAX_AXIS launches
 * (blocks), adjacent launches (blocks) are binned so that there are at most
 * that many columns (rows); a bin's cell is the sum of its cells, its
 * tooltip names the range ("launches N1..N2", "alloc A block B .. alloc A2
 * block B2") and the subtitle says so. Without a non-zero cell, the image
 * holds the titles and the text "no accesses recorded". Text is escaped for
 * XML (control characters and invalid UTF-8 become '?'). Returns 0, or -1
 * as pasta__hotness_write_csv does. */
int pasta__hotness_write_svg(FILE *f, const pasta_hotness *h,
                             const char *title);

#endif
