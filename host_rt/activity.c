/*===- activity.c - The activity the report reads --------------------------===*
 *
 * What the runtime side (readback.c, report.c, lifecycle.c) asks of the
 * recorded state: whether anything was intercepted, the fault, what a reset
 * or an unloaded module drops, and the activity (kernels with symbolised
 * call paths, memory, working sets, hotness) built for the profile.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "intercept_internal.h"
#include "options.h"
#include "profile/demangle.h"
#include "profile/text_table.h"
#include "symbolize/symbolize.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t pasta__activity_gpus(pasta_profile_gpu *out) {
  size_t n = 0;
  pasta__state_lock();
  for (int d = 0; d < PASTA_MAX_DEVICES; ++d)
    if ((pasta__st.have_peaks >> d) & 1) {
      const char *uuid = pasta__st.gpu_uuid[d];
      out[n++] = (pasta_profile_gpu){d, uuid[0] ? uuid : NULL};
    }
  pasta__state_unlock();
  return n;
}

int pasta__activity_seen(void) {
  pasta__state_lock();
  int seen = pasta__st.seen;
  pasta__state_unlock();
  return seen;
}

void pasta__activity_before_reset(void) {
  pasta__state_lock();
  ops_t *ops = pasta__st.ops;
  if (!ops) {
    pasta__state_unlock();
    return;
  }
  int device = pasta__vendor_device(ops);
  pasta__harvest(ops, device, 1, NULL);
  for (size_t i = 0; i < pasta__st.num_kernels; ++i)
    pasta__st.kernels[i].ran_on &= ~(UINT64_C(1) << device);
  for (size_t i = pasta__st.num_pool; i-- > 0;)
    if (pasta__st.pool[i].device == device) {
      ops->event_destroy(pasta__st.pool[i].event);
      pasta__st.pool[i] = pasta__st.pool[--pasta__st.num_pool];
    }
  for (size_t i = pasta__st.num_live; i-- > 0;)
    if (pasta__st.live[i].device == device)
      pasta__drop_live(i); /* the reset frees them */
  pasta__state_unlock();
  pasta__ws_release_device(ops, device);
  pasta__trace_release_device(device);
  pasta__copy_stream_release(device);
}

void pasta__activity_module_gone(ops_t *ops) {
  pasta__ws_drain(ops);
  pasta__trace_module_gone(ops);
  pasta__copy_stream_module_gone(ops);
  pasta__state_lock();
  if (pasta__st.ops == ops) {
    pasta__harvest(ops, -1, 1, NULL);
    for (size_t i = pasta__st.num_pool; i-- > 0;)
      ops->event_destroy(pasta__st.pool[i].event);
    pasta__st.num_pool = 0;
    pasta__st.ops = NULL; /* its code is about to go */
  }
  pasta__state_unlock();
}

int pasta__activity_divergence_unmeasured(const char *mangled) {
  int registered = 0, measured = 0;
  pasta__state_lock();
  for (size_t i = 0; i < pasta__st.num_kernels && !measured; ++i) {
    const struct kernel *k = &pasta__st.kernels[i];
    if (k->mangled && strcmp(k->mangled, mangled) == 0) {
      registered = 1;
      measured = k->div_launches != 0;
    }
  }
  pasta__state_unlock();
  return registered && !measured;
}

int pasta__activity_fault(char *buf, size_t size) {
  pasta__state_lock();
  if (pasta__st.ops)
    pasta__harvest(pasta__st.ops, -1, 1,
                   NULL); /* the waits say which launch failed */
  int seen = pasta__st.fault.seen;
  if (seen) {
    char name[256] = "?";
    uint32_t kernel = pasta__st.fault.exact ? pasta__st.fault.kernel
                                            : (uint32_t)pasta__st.last_kernel;
    char *display =
        kernel < pasta__st.num_kernels && pasta__st.kernels[kernel].mangled
            ? pasta__display_name_dup(pasta__st.kernels[kernel].mangled)
            : NULL;
    /* Escaped into `name`, or copied when it needs no escaping. */
    if (display && pasta__text_safe(display, name, sizeof name) == display)
      snprintf(name, sizeof name, "%s", display);
    free(display);
    if (pasta__st.fault.exact &&
        (pasta__st.fault.definitive || pasta__st.fault.failed_waits == 1))
      snprintf(buf, size,
               "launch %" PRIu64 " (launch %" PRIu64 " of kernel '%s') "
               "failed on the GPU: %s (error %d)",
               pasta__st.fault.launch, pasta__st.fault.nth, name,
               pasta__st.fault.message, pasta__st.fault.err);
    else if (pasta__st.fault.exact)
      snprintf(buf, size,
               "launch %" PRIu64 " (launch %" PRIu64 " of kernel '%s', the "
               "first not seen to complete) or one of the %" PRIu64
               " launched after it failed on the GPU: %s (error %d); "
               "CUDA_LAUNCH_BLOCKING=1 names the one",
               pasta__st.fault.launch, pasta__st.fault.nth, name,
               pasta__st.fault.failed_waits - 1, pasta__st.fault.message,
               pasta__st.fault.err);
    else if (pasta__st.next_launch)
      snprintf(buf, size,
               "a launch from launch %" PRIu64 " on failed on the GPU: %s "
               "(error %d); the last was launch %" PRIu64
               " (kernel '%s'; PASTA_TIMING=1 names the one that failed)",
               pasta__st.synced_before, pasta__st.fault.message,
               pasta__st.fault.err, pasta__st.next_launch - 1, name);
    else
      snprintf(buf, size, "the GPU failed: %s (error %d)",
               pasta__st.fault.message, pasta__st.fault.err);
  }
  pasta__state_unlock();
  return seen;
}

/* Kernel paths, most launches first. */
static int cmp_path(const void *pa, const void *pb) {
  const pasta_activity_path *a = pa, *b = pb;
  return (a->launches < b->launches) - (a->launches > b->launches);
}

/* Symbolises cp into f; *first is the first frame to show: the kernel's
 * host stub (clang's __device_stub__<kernel>, when not inlined) is left out,
 * so paths start at the launch in the program's code. */
static void symbolize_path(const struct call_path *cp, pasta_activity_frame *f,
                           pasta_symbolizer *sym, uint32_t *first) {
  *first = 0;
  for (uint32_t d = 0; d < cp->depth; ++d) {
    pasta_frame_loc loc;
    if (cp->located)
      loc = cp->locs[d];
    else if (pasta__locate((uint64_t)(uintptr_t)cp->frames[d], &loc) != 0)
      continue;
    pasta_symbol s;
    if (sym && pasta__symbolize_loc(sym, &loc, &s) == 0)
      f[d] =
          (pasta_activity_frame){s.function, s.file,       s.line,   s.object,
                                 s.offset,   loc.build_id, loc.vaddr};
    else
      f[d] = (pasta_activity_frame){
          NULL, NULL, 0, loc.object, loc.offset, loc.build_id, loc.vaddr};
  }
  if (cp->depth > 1 && f[0].function &&
      strstr(f[0].function, "__device_stub__"))
    *first = 1;
}

static int same_text(const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

/* Whether two symbolised frames read the same: the same function, file and
 * line, or (unresolved) the same place in the same object. */
static int same_frame(const pasta_activity_frame *a,
                      const pasta_activity_frame *b) {
  if (a->line && b->line)
    return a->line == b->line && same_text(a->file, b->file) &&
           same_text(a->function, b->function);
  return !a->line && !b->line && a->offset == b->offset &&
         same_text(a->object, b->object) && same_text(a->function, b->function);
}

/* Paths that differ only in return addresses the source cannot tell apart
 * (a loop unrolled into several calls of one line) are one path: merged,
 * their launches added. Returns the number left. */
static size_t merge_same_paths(pasta_activity_path *paths, size_t n) {
  size_t kept = 0;
  for (size_t i = 0; i < n; ++i) {
    size_t j = 0;
    for (; j < kept; ++j) {
      const pasta_activity_path *a = &paths[j], *b = &paths[i];
      uint32_t d = 0;
      while (a->num_frames == b->num_frames && d < a->num_frames &&
             same_frame(&a->frames[d], &b->frames[d]))
        ++d;
      if (a->num_frames == b->num_frames && d == a->num_frames)
        break;
    }
    if (j < kept)
      paths[j].launches += paths[i].launches;
    else
      paths[kept++] = paths[i];
  }
  return kept;
}

/* Symbolised call paths of kernel k, into storage owned by `a`. */
static int build_paths(pasta_activity_kernel *out, const struct kernel *k,
                       pasta_symbolizer *sym, pasta_activity_frame **frames,
                       uint32_t *first) {
  pasta_activity_path *paths =
      calloc(k->num_paths ? k->num_paths : 1, sizeof *paths);
  if (!paths)
    return -1;
  for (size_t i = 0; i < k->num_paths; ++i) {
    const struct call_path *cp = &pasta__st.paths[k->paths[i].path];
    pasta_activity_frame *f = frames[k->paths[i].path];
    if (!f) {
      f = calloc(cp->depth ? cp->depth : 1, sizeof *f);
      if (!f)
        return free(paths), -1;
      frames[k->paths[i].path] = f;
      symbolize_path(cp, f, sym, &first[k->paths[i].path]);
    }
    uint32_t skip = first[k->paths[i].path];
    uint32_t depth = cp->depth - skip;
    if (depth > pasta__opt.depth)
      depth = pasta__opt.depth;
    paths[i] = (pasta_activity_path){k->paths[i].launches, depth, f + skip};
  }
  size_t n = merge_same_paths(paths, k->num_paths);
  qsort(paths, n, sizeof *paths, cmp_path);
  out->paths = paths;
  out->num_paths = n;
  return 0;
}

/* What pasta__activity_build allocated, for pasta__activity_free. */
static struct {
  pasta_activity_kernel *kernels;
  char **names;
  pasta_activity_frame **frames;
  uint32_t *first; /* per path: frames to skip */
  size_t num_frames;
  pasta_symbolizer *sym;
  pasta_hotness_block *blocks;
  pasta_hotness_launch *launches;
} built;

static int build_kernels(pasta_activity *a) {
  size_t n = pasta__st.num_kernels;
  built.kernels = calloc(n ? n : 1, sizeof *built.kernels);
  built.names = calloc(n ? n : 1, sizeof *built.names);
  built.num_frames = pasta__st.num_paths;
  built.frames = calloc(pasta__st.num_paths ? pasta__st.num_paths : 1,
                        sizeof *built.frames);
  built.first = calloc(pasta__st.num_paths ? pasta__st.num_paths : 1,
                       sizeof *built.first);
  if (!built.kernels || !built.names || !built.frames || !built.first)
    return -1;
  built.sym = pasta__st.num_paths
                  ? pasta__symbolizer_open(pasta__libdwarf_option())
                  : NULL;
  a->kernels = built.kernels;
  a->num_kernels = n;
  for (size_t i = 0; i < n; ++i) {
    const struct kernel *k = &pasta__st.kernels[i];
    pasta_activity_kernel *out = &built.kernels[i];
    *out = k->stats;
    char name[64];
    snprintf(name, sizeof name, "<unregistered kernel %p>", k->handle);
    built.names[i] =
        k->mangled ? pasta__display_name_dup(k->mangled) : strdup(name);
    if (!built.names[i])
      return -1;
    out->name = built.names[i];
    out->mangled = k->mangled;
    out->shapes = k->shapes;
    out->num_shapes = k->num_shapes;
    if (build_paths(out, k, built.sym, built.frames, built.first))
      return -1;
    a->launches += k->stats.launches;
    a->counted += k->stats.counted;
    a->gpu_time_ns += k->stats.time_total_ns;
  }
  return 0;
}

static int build_hotness(pasta_activity *a) {
  built.blocks = calloc(pasta__st.num_blocks ? pasta__st.num_blocks : 1,
                        sizeof *built.blocks);
  built.launches =
      calloc(pasta__st.num_hot_launches ? pasta__st.num_hot_launches : 1,
             sizeof *built.launches);
  if (!built.blocks || !built.launches)
    return -1;
  for (size_t i = 0; i < pasta__st.num_blocks; ++i)
    built.blocks[i] = (pasta_hotness_block){pasta__st.blocks[i].allocation,
                                            pasta__st.blocks[i].base,
                                            pasta__st.blocks[i].block};
  /* Launch columns carry their kernel's name. */
  for (size_t i = 0; i < pasta__st.num_hot_launches; ++i) {
    built.launches[i] = pasta__st.hot_launches[i];
    for (size_t w = 0; w < pasta__st.num_ws; ++w)
      if (pasta__st.ws_launches[w].id == pasta__st.hot_launches[i].id) {
        built.launches[i].kernel =
            a->kernels[pasta__st.ws_launches[w].kernel].name;
        break;
      }
  }
  a->hotness = (pasta_hotness){PASTA_HOTNESS_BLOCK_SIZE,   built.blocks,
                               pasta__st.num_blocks,       built.launches,
                               pasta__st.num_hot_launches, pasta__st.cells,
                               pasta__st.num_cells};
  return 0;
}

int pasta__activity_build(pasta_activity *a, int calibrate) {
  pasta__need_options();
  memset(a, 0, sizeof *a);
  memset(&built, 0, sizeof built);
  pasta__trace_drain(); /* before the trace is built */
  pasta__state_lock();
  ops_t *ops = pasta__st.ops;
  pasta__state_unlock();
  if (ops)
    pasta__ws_drain(ops);
  pasta__state_lock();
  if (pasta__st.ops)
    pasta__harvest(pasta__st.ops, -1, 1, NULL);
  int rc = build_kernels(a);
  if (rc == 0)
    rc = build_hotness(a);
  a->untimed = pasta__st.untimed;
  a->paths_from_cache = pasta__st.path_cache_hits;
  a->window_start = pasta__opt.start;
  a->sample = pasta__opt.sample;
  int pd = pasta__peaks_device();
  if (pd >= 0) {
    a->peaks = pasta__st.peaks[pd];
    if (calibrate && pasta__opt.calibrate && pasta__st.ops)
      a->peaks.bw_measured =
          pasta__calibrated_bandwidth(pasta__st.ops, &a->peaks);
  }
  a->window_end = pasta__opt.end;
  a->window_kernels = pasta__opt.have_kernels_re ? pasta__opt.kernels : NULL;
  a->memory = pasta__st.memory;
  a->memory.live_allocs_at_exit = pasta__st.num_live;
  a->memory.live_bytes_at_exit = pasta__st.live_bytes;
  a->ws_enabled = pasta__opt.ws;
  a->page_size = UINT64_C(1) << pasta__opt.page_shift;
  a->ws_launches = pasta__st.ws_launches;
  a->num_ws_launches = pasta__st.num_ws;
  a->ws_skipped = pasta__st.ws_skipped;
  a->outside = pasta__st.outside;
  if (pasta__st.have_outside && rc == 0) {
    a->outside_kernel = a->kernels[pasta__st.outside_kernel].name;
    a->outside_file = pasta__st.outside_file;
    a->outside_line = pasta__st.outside_line;
  }
  pasta__state_unlock();
  return rc;
}

/* Points every reference to kernel name `old` (the hotness launches' and
 * the first outside access's) at `name`, before `old` is freed. */
static void activity_name_moved(pasta_activity *a, const char *old,
                                const char *name) {
  for (size_t i = 0; built.launches && i < a->hotness.num_launches; ++i)
    if (built.launches[i].kernel == old)
      built.launches[i].kernel = name;
  if (a->outside_kernel == old)
    a->outside_kernel = name;
}

void pasta__activity_rename(pasta_activity *a) {
  for (size_t i = 0; built.names && i < a->num_kernels; ++i) {
    const char *m = built.kernels[i].mangled;
    char *name = m ? pasta__display_name_dup(m) : NULL;
    if (!name)
      continue; /* out of memory: the name it had */
    activity_name_moved(a, built.names[i], name);
    free(built.names[i]);
    built.names[i] = name;
    built.kernels[i].name = name;
  }
}

void pasta__activity_free(pasta_activity *a) {
  for (size_t i = 0; built.kernels && i < a->num_kernels; ++i)
    free((void *)built.kernels[i].paths);
  for (size_t i = 0; built.names && i < pasta__st.num_kernels; ++i)
    free(built.names[i]);
  for (size_t i = 0; built.frames && i < built.num_frames; ++i)
    free(built.frames[i]);
  free(built.kernels);
  free(built.names);
  free(built.frames);
  free(built.first);
  free(built.blocks);
  free(built.launches);
  if (built.sym)
    pasta__symbolizer_close(built.sym);
  memset(&built, 0, sizeof built);
  memset(a, 0, sizeof *a);
}
