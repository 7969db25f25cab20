/*===- hotness.h - Time-series hotness of device memory: the model --------===*
 *
 * PASTA's "time-series hotness" (Fig. 13 of the paper): the accesses of each
 * kernel launch to each 2 MiB block of device memory, as a CSV table and as
 * an SVG heat map (x: launches, y: blocks, colour: accesses on a log scale)
 * (analyzers/working_set/hotness_files.h writes them).
 *
 * The model is sparse and borrowed: the caller owns every array and string.
 * Cells may come in any order; cells with zero accesses are ignored and
 * cells naming the same (launch, block) pair are summed (saturating at
 * UINT64_MAX).
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_HOTNESS_H
#define PASTA_PROFILE_HOTNESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The block size of the paper's figure. */
#define PASTA_HOTNESS_BLOCK_SIZE (UINT64_C(2) << 20)
/* Most columns (launches) and rows (blocks) an SVG heat map has: beyond,
 * adjacent launches or blocks are binned (summed). */
#define PASTA_HOTNESS_MAX_AXIS 2000

/* One row of the heat map: one block of one allocation. */
typedef struct pasta_hotness_block {
  uint32_t allocation; /* allocation id (as the runtime numbers them) */
  uint64_t base;       /* device address of the allocation */
  uint64_t block;      /* block index within the allocation (offset /
                          block_size) */
} pasta_hotness_block;

/* One launch: a column. */
typedef struct pasta_hotness_launch {
  uint64_t id;        /* launch sequence number */
  const char *kernel; /* display name; NULL reads as unknown */
} pasta_hotness_launch;

/* Sparse cells: accesses of launch `launch` (index into launches[]) to
 * block `block` (index into blocks[]). */
typedef struct pasta_hotness_cell {
  uint32_t launch, block;
  uint64_t accesses;
} pasta_hotness_cell;

typedef struct pasta_hotness {
  uint64_t block_size; /* bytes, e.g. PASTA_HOTNESS_BLOCK_SIZE; not 0 */
  const pasta_hotness_block *blocks;
  size_t num_blocks;
  const pasta_hotness_launch *launches;
  size_t num_launches;
  const pasta_hotness_cell *cells;
  size_t num_cells;
} pasta_hotness;

#ifdef __cplusplus
}
#endif

#endif /* PASTA_PROFILE_HOTNESS_H */
