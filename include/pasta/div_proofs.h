/*===- div_proofs.h - Lane-affine accesses whose figures need no mask ----===*
 *
 * Internal, header-only (C and C++): the one rule shared by the compiler
 * plugin (passes/LaneAffine.cpp, which leaves such accesses unmeasured) and
 * the runtime's unit test (device_rt/test_device_rt.c, which checks it
 * against the figures by definition over every lane).
 *
 * A warp whose 32 lanes are one row of thread index x (lane i holds
 * x = 32k + i: __pasta_div_row_width() == 32) runs an access whose address
 * is B + stride * x, B the same in every lane, as B' + stride * i. What
 * the pass derives for it from its block's two counters
 * (passes/DivergenceFigures.cpp, deriveLaneShaped; the runtime's
 * pasta_div_lanes_derived) is then its figures for EVERY set of active
 * lanes, not only a full warp, in these classes (stride as laneStride
 * gives it, the access of a known space, `aligned`: its address a multiple
 * of its size):
 *  - an atomic at stride 0 or at least its size: one request, its size
 *    per execution (stride 0) or per active lane (distinct bytes);
 *  - a load or store of a power-of-2 size up to 32, aligned, at stride 0:
 *    one address, one sector, no bank conflict;
 *  - a shared load or store so aligned at stride = size (consecutive
 *    elements: at most 128 bytes in each phase of the banks, no two words
 *    in one bank), or of at most 4 bytes at a stride of an odd number of
 *    words (lane i's word is stride / 4 * i past lane 0's, a different bank
 *    for each of 32 lanes);
 * A global load or store at a nonzero stride is not in them: its sectors
 * and ideal sectors depend on which lanes are active (a bounds-checked
 * tail warp) and on B modulo 32; the runtime helper measures those.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_DIV_PROOFS_H
#define PASTA_DIV_PROOFS_H

#include <stdint.h>

#include "pasta/abi.h"

/* Whether an access of `size` bytes at `stride` bytes per lane (one row of
 * 32 lanes), in known space `space` (enum pasta_div_space), a load or
 * store (`sectored`) or an atomic, `aligned` to its size, has the derived
 * figures under every mask. */
static inline int pasta_div_mask_free(uint32_t size, int64_t stride,
                                      uint32_t space, int sectored,
                                      int aligned) {
  int pow2 = size != 0 && size <= 32 && (size & (size - 1)) == 0;
  if (space != PASTA_DIV_GLOBAL && space != PASTA_DIV_SHARED)
    return 0;
  if (!sectored)
    return stride == 0 || stride >= (int64_t)size;
  if (!pow2 || !aligned)
    return 0;
  if (stride == 0)
    return 1;
  if (space != PASTA_DIV_SHARED)
    return 0;
  if (stride == (int64_t)size)
    return 1;
  return size <= 4 && stride > (int64_t)size && stride % 4 == 0 &&
         (stride / 4) % 2 == 1;
}

/* The bank conflicts of a FULL warp's shared 4-byte access whose lanes hold
 * `width`-wide rows stacked in y (lane i at x = i % width, y = y0 + i /
 * width: __pasta_div_stacked_width), at `stride` bytes per x and `gap` bytes
 * per y from a base the same in every lane, 4-byte aligned (a padded tile,
 * hotspot's rows of 18 floats read by 16 x 16 blocks; a broadcast per row,
 * stride 0): one phase, whose wavefronts are the most distinct words any
 * bank holds; the base shifts every lane's bank alike. Sets *words to the
 * distinct words (the distinct bytes are 4 times as many). -1 where the
 * strides are not whole words or are too large, or `width` does not divide
 * 32. */
static inline int pasta_div_stacked_conflicts(int64_t stride, int64_t gap,
                                              uint32_t width, uint32_t *words) {
  int64_t seen[32];
  uint32_t depth[32] = {0}, most = 0, n = 0;
  if (width < 2 || width >= 32 || 32 % width != 0 || stride % 4 != 0 ||
      gap % 4 != 0 || stride <= -(1 << 20) || stride >= 1 << 20 ||
      gap <= -(1 << 20) || gap >= 1 << 20)
    return -1;
  for (uint32_t i = 0; i < 32; ++i) {
    int64_t word =
        stride / 4 * (int64_t)(i % width) + gap / 4 * (int64_t)(i / width);
    uint32_t j = 0;
    while (j < n && seen[j] != word)
      ++j;
    if (j < n) /* served with the lane that has it already */
      continue;
    seen[n++] = word;
    uint32_t bank = (uint32_t)(word & 31); /* two's complement: mod 32 */
    if (++depth[bank] > most)
      most = depth[bank];
  }
  *words = n;
  return (int)most - 1;
}

/* Whether a global load or store of `size` bytes at `stride` bytes per lane
 * (one row of 32 lanes), `aligned` to its size, has in a FULL warp the
 * derived figures but for its sectors, which exceed the derived ones by
 * what device_rt's pasta_div_row_extra_sectors computes from the row's
 * base (0 or 1; none at a stride of 32 or more): a power-of-2 size up to
 * 32 at a stride that is a multiple of it, a power of 2 below 32 or at
 * least 32 (no two lanes overlap, none straddles a sector, and below 32
 * every sector of the warp's span is touched). The divergence copies test
 * once per block for such warps and add that difference instead of
 * measuring (passes/DivergenceMeasures.cpp, FullRowForm). */
static inline int pasta_div_full_row_form(uint32_t size, int64_t stride,
                                          uint32_t space, int sectored,
                                          int aligned) {
  int pow2 = size != 0 && size <= 32 && (size & (size - 1)) == 0;
  if (space != PASTA_DIV_GLOBAL || !sectored || !pow2 || !aligned)
    return 0;
  if (stride < (int64_t)size || stride % size != 0 || stride > INT32_MAX)
    return 0;
  return stride >= 32 || (stride & (stride - 1)) == 0;
}

/* What a global load or store of pasta_div_full_row_form whose address has
 * no term in thread index y has in a FULL warp of `width`-wide rows stacked
 * in y (lane i at x = i % width: every row of the warp touches the same
 * bytes, one row's), less the figures derived for one row of 32 lanes
 * (passes/DivergenceFigures.cpp, deriveLaneShaped: size per lane distinct,
 * the stride up to 32 in sectors, the size in ideal sectors). Requests and
 * bytes are the derived ones. Gaussian's `a[t * n + j]` read by 16 x 16
 * blocks. */
struct pasta_div_repeat_figures {
  int32_t distinct;      /* distinct bytes less the derived */
  int32_t ideal_sectors; /* ideal sectors less the derived */
  int32_t sectors;       /* sectors less the derived, for a row base below */
  uint32_t from_offset;  /* this many bytes past a sector's start; `past`
                            more from there (32: never) */
  int32_t past;
};

/* Sets *r for such an access; 0 where it is not of that form or `width` is
 * not a power of 2 from 2 to 16. One row holds `width` elements `stride`
 * apart: distinct bytes and ideal sectors follow; below a stride of 32 the
 * row spans len = (width - 1) * stride + size bytes with every sector in it
 * touched (gaps under 32), 1 + (len - 1) / 32 sectors from a sector's start
 * and one more once the base is 32 - (len - 1) % 32 bytes past it; from 32
 * on every element has a sector of its own. */
static inline int pasta_div_repeat_rows(uint32_t size, int64_t stride,
                                        uint32_t width,
                                        struct pasta_div_repeat_figures *r) {
  if (!pasta_div_full_row_form(size, stride, PASTA_DIV_GLOBAL, 1, 1) ||
      width < 2 || width > 16 || (width & (width - 1)) != 0)
    return 0;
  int32_t derived_sectors = stride < 32 ? (int32_t)stride : 32;
  r->distinct = (int32_t)(size * width) - (int32_t)(size * 32);
  r->ideal_sectors = (int32_t)((size * width + 31) / 32) - (int32_t)size;
  r->past = 1;
  if (stride >= 32) {
    r->sectors = (int32_t)width - derived_sectors;
    r->from_offset = 32;
    return 1;
  }
  uint32_t last = (width - 1) * (uint32_t)stride + size - 1;
  r->sectors = 1 + (int32_t)(last / 32) - derived_sectors;
  r->from_offset = last % 32 ? 32 - last % 32 : 32;
  return 1;
}

/* Of a global load or store, at stride 0 (aligned, a power-of-2 size up to
 * 32) or of pasta_div_full_row_form, in a FULL warp of `width`-wide rows
 * stacked in y whose consecutive rows start the same multiple of 32 bytes
 * apart, at least *min_gap bytes (either way): each row is `width`
 * elements `stride` apart from its base, every base at one offset in its
 * sector, no sector shared. Sets the figures less the derived ones (one row
 * of 32 lanes: deriveLaneShaped) as pasta_div_repeat_rows does, and
 * *min_gap; 0 where the access is of neither class or `width` is not a
 * power of 2 from 2 to 16. At stride 0 each of the 32 / width rows is one
 * element in a sector of its own, where one is derived. Else each row is
 * pasta_div_repeat_rows' row, the rows have as many times its sectors, and
 * the derived distinct bytes and ideal sectors. */
static inline int pasta_div_apart_rows(uint32_t size, int64_t stride,
                                       uint32_t width,
                                       struct pasta_div_repeat_figures *r,
                                       uint32_t *min_gap) {
  int pow2 = size != 0 && size <= 32 && (size & (size - 1)) == 0;
  if (!pow2 || width < 2 || width > 16 || (width & (width - 1)) != 0)
    return 0;
  int32_t rows = (int32_t)(32 / width);
  if (stride == 0) {
    r->distinct = (rows - 1) * (int32_t)size;
    r->ideal_sectors = (int32_t)(((uint32_t)rows * size + 31) / 32) -
                       (int32_t)((size + 31) / 32);
    r->sectors = rows - 1;
    r->from_offset = 32;
    r->past = 0;
    *min_gap = 32;
    return 1;
  }
  struct pasta_div_repeat_figures one;
  if (!pasta_div_repeat_rows(size, stride, width, &one))
    return 0;
  int32_t derived_sectors = stride < 32 ? (int32_t)stride : 32;
  /* In 64 bits: a row of 16 elements at a stride near 2^31 spans more than
   * 2^32 bytes, and a gap computed in 32 bits would wrap below the row's
   * span (rows then overlap where the figures say they do not). */
  uint64_t last = (uint64_t)(width - 1) * (uint64_t)stride + size - 1;
  uint64_t gap = 32 * ((last + 31) / 32 + 1);
  if (gap > UINT32_MAX) /* not stated in the 32-bit gap: measured */
    return 0;
  /* one row's sectors, from lane 0's offset: below from_offset, and one
   * more from there */
  int32_t row = one.sectors + derived_sectors;
  r->distinct = 0;
  r->ideal_sectors = 0;
  r->sectors = rows * row - derived_sectors;
  r->from_offset = one.from_offset; /* a sector more in each row from there */
  r->past = rows;
  *min_gap = (uint32_t)gap;
  return 1;
}

#endif
