/*===- callpath.c - Host call paths and launch shapes ----------------------===*
 *
 * Interned call paths (PASTA_CALL_DEPTH frames above the wrapper), where
 * their frames lie (module, build id, ELF address: recorded while the
 * modules are loaded), and per kernel the launches of each path and shape.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "intercept_internal.h"
#include "profile/vec.h"
#include "symbolize.h"

#include <execinfo.h>
#include <string.h>

uint32_t pasta__path_id(void *const *frames, uint32_t depth) {
  for (size_t i = 0; i < pasta__st.num_paths; ++i)
    if (pasta__st.paths[i].depth == depth &&
        memcmp(pasta__st.paths[i].frames, frames, depth * sizeof *frames) == 0)
      return (uint32_t)i;
  if (GROW(pasta__st.paths, pasta__st.cap_paths, pasta__st.num_paths))
    return UINT32_MAX;
  struct call_path *p = &pasta__st.paths[pasta__st.num_paths];
  p->depth = depth;
  memcpy(p->frames, frames, depth * sizeof *frames);
  p->located = 0;
  return (uint32_t)pasta__st.num_paths++;
}

/* Records where the frames of a new path lie (pasta__locate). Called
 * without the lock: dladdr takes the dynamic loader's lock, which a thread
 * launching from a library constructor holds while it waits for ours. */
void pasta__locate_path(uint32_t path, void *const *frames, uint32_t depth) {
  pasta_frame_loc locs[MAX_DEPTH + 1];
  for (uint32_t d = 0; d < depth; ++d)
    pasta__locate((uint64_t)(uintptr_t)frames[d], &locs[d]);
  pasta__state_lock();
  if (path < pasta__st.num_paths && pasta__st.paths[path].depth == depth) {
    memcpy(pasta__st.paths[path].locs, locs, depth * sizeof *locs);
    pasta__st.paths[path].located = 1;
  }
  pasta__state_unlock();
}

/* Frames above the wrapper that called this, one more than
 * PASTA_CALL_DEPTH: the first is often the kernel's stub, which the report
 * drops. `skip` counts this function and the runtime's frames above it, the
 * wrapper included (pasta__launch is noinline so that the count holds).
 * Taken outside the lock: backtrace() may load libgcc_s. */
uint32_t pasta__capture_frames(void **frames, int skip) {
  if (!pasta__opt.depth)
    return 0;
  void *buf[MAX_DEPTH + 4];
  int n = backtrace(buf, (int)pasta__opt.depth + 1 + skip);
  if (n <= skip)
    return 0;
  memcpy(frames, buf + skip, (size_t)(n - skip) * sizeof *frames);
  return (uint32_t)(n - skip);
}

void pasta__count_path(struct kernel *k, uint32_t path) {
  if (path == UINT32_MAX)
    return;
  for (size_t i = 0; i < k->num_paths; ++i)
    if (k->paths[i].path == path) {
      ++k->paths[i].launches;
      return;
    }
  if (GROW(k->paths, k->cap_paths, k->num_paths))
    return;
  k->paths[k->num_paths++] = (struct kernel_path){path, 1};
}

void pasta__count_shape(struct kernel *k, const uint32_t grid[3],
                        const uint32_t block[3], uint64_t shmem) {
  for (size_t i = 0; i < k->num_shapes; ++i) {
    pasta_activity_shape *s = &k->shapes[i];
    if (!memcmp(s->grid, grid, sizeof s->grid) &&
        !memcmp(s->block, block, sizeof s->block) && s->shared_bytes == shmem) {
      ++s->launches;
      return;
    }
  }
  if (k->num_shapes == SHAPES_MAX ||
      GROW(k->shapes, k->cap_shapes, k->num_shapes))
    return;
  pasta_activity_shape *s = &k->shapes[k->num_shapes++];
  memcpy(s->grid, grid, sizeof s->grid);
  memcpy(s->block, block, sizeof s->block);
  s->shared_bytes = shmem;
  s->launches = 1;
}
