/* Divergence mode's versioned loops (passes/DivergenceVersioned.cpp): a
 * one-block loop whose exit diverges runs the trips that every lane of a
 * full warp takes in an unmeasured clone, and adds their counts once. */

/* The smallest of `value` over the full warp `lanes`, in every lane. */
static PASTA_INLINE uint32_t pasta_div_full_warp_min(uint64_t lanes,
                                                     uint32_t value) {
#if defined(__NVPTX__) && PASTA_NVPTX_REDUX
  uint32_t least;
  __asm__ volatile("redux.sync.min.u32 %0, %1, %2;"
                   : "=r"(least)
                   : "r"(value), "r"((uint32_t)lanes));
  return least;
#else
  for (uint32_t step = __gpu_num_lanes() / 2; step > 0; step /= 2) {
    uint32_t other = __gpu_shuffle_idx_u32(lanes, __gpu_lane_id() ^ step, value,
                                           __gpu_num_lanes());
    value = other < value ? other : value;
  }
  return value;
#endif
}

/* The clone's trips for this warp: the fewest backedges any of its lanes
 * takes (`backedges`, each lane's own), where the warp is full and one row
 * of 32 lanes (__pasta_div_row_width()), else 0 (the measured loop takes
 * the warp). Capped at 2^31 - 1. Not named __pasta_div_*: it measures
 * nothing (the pass counts the copies' measuring calls by that name). */
PASTA_INLINE uint32_t __pasta_ver_trips(uint64_t backedges) {
  uint64_t lanes = __gpu_lane_mask();
  if (__pasta_div_row_width() != 32 || lanes != PASTA_DIV_FULL_WARP)
    return 0;
  uint32_t own = backedges > 0x7fffffffu ? 0x7fffffffu : (uint32_t)backedges;
  return pasta_div_full_warp_min(lanes, own);
}

/* Adds `value` (the clone's trips, or their lanes) to `counter` once per
 * warp: in lane 0. Only full warps run the clone (value 0 elsewhere), so
 * lane 0 is always one of them, however the warp has regrouped since
 * (the first lane of the active mask would add once per group). */
PASTA_INLINE void __pasta_ver_trips_add(PASTA_GLOBAL uint64_t *counter,
                                        uint64_t value) {
  if (value != 0 && __gpu_lane_id() == 0)
    pasta_atomic_add(counter, value);
}

/* Whether this warp's `size`-byte elements at `addr` (a power of 2 up to
 * 32) lie each in a sector of its own wherever a warp-uniform move takes
 * them: lane i's at addr0 + d * i, d at least 32 bytes (and below 2^31),
 * each aligned to its size (no element straddles a sector). Every lane
 * tests its own address against lanes 0 and 1, so a warp whose lanes all
 * say 1 has them 32 bytes or more apart: its figures are those of 32 lanes
 * in 32 sectors (requests 1, distinct bytes and bytes 32 * size, sectors
 * 32, ideal sectors size) in every trip of a uniform loop. Meant for a full
 * warp (__pasta_ver_trips gives any other 0). Not a __pasta_div_* name: it
 * measures nothing. */
PASTA_INLINE uint32_t __pasta_ver_lanes_apart(uint64_t addr, uint32_t size) {
  uint64_t lanes = __gpu_lane_mask();
  uint64_t first = __gpu_shuffle_idx_u64(lanes, 0, addr, __gpu_num_lanes());
  uint64_t second = __gpu_shuffle_idx_u64(lanes, 1, addr, __gpu_num_lanes());
  uint64_t d = second - first;
  return d >= 32 && d <= 0x7fffffffu && addr % size == 0 &&
         addr == first + d * __gpu_lane_id();
}
