/*===- allocations.c - The table of live allocations -----------------------===*
 *
 * Live allocations sorted by base address: lookups and removal. Additions
 * are the memory wrappers' (memory.c). Lock held throughout.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "intercept_internal.h"

#include <string.h>

/* Index of the first live allocation with base > addr. Lock held. */
size_t pasta__live_upper_bound(uint64_t addr) {
  size_t lo = 0, hi = pasta__st.num_live;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (pasta__st.live[mid].base <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

const struct allocation *pasta__allocation_at(uint64_t addr) {
  size_t i = pasta__live_upper_bound(addr);
  if (i == 0 || addr - pasta__st.live[i - 1].base >= pasta__st.live[i - 1].size)
    return NULL;
  return &pasta__st.live[i - 1];
}

void pasta__drop_live(size_t i) {
  pasta__st.live_bytes -= pasta__st.live[i].size;
  memmove(&pasta__st.live[i], &pasta__st.live[i + 1],
          (pasta__st.num_live - i - 1) * sizeof *pasta__st.live);
  --pasta__st.num_live;
  ++pasta__st.generation;
}
