/*===- intercept.c - Launches, allocations, copies and working sets -------===*
 *
 * The pass routes the program's CUDA/HIP launch, allocation, copy, set and
 * synchronisation calls here (passes/HostInterception.cpp); each wrapper is
 * handed the function the program called and calls it, so the program sees
 * the same results and error codes. On the way, the runtime:
 *  - numbers launches (launch ids from 0) and picks the kernel variant to
 *    run: the counting kernel inside the launch window (PASTA_START_GRID_ID,
 *    PASTA_END_GRID_ID, PASTA_INSTRUMENT_KERNELS), its plain copy outside,
 *    its working-set copy when PASTA_WORKING_SET=1;
 *  - times launches with a pair of events each (PASTA_TIMING=0: none),
 *    harvested when the program synchronises, when too many are in flight,
 *    and at exit;
 *  - records launch shapes and host call paths (PASTA_CALL_DEPTH frames);
 *  - keeps the table of live allocations and counts copies and sets;
 *  - in working-set mode, hands each launch a sorted copy of the
 *    allocation table, waits for it, and reads back which pages it touched
 *    and how often it hit each 2 MiB block.
 * The runtime's own vendor calls go through struct pasta_vendor_ops and are
 * never intercepted. Nothing here aborts: a failed bookkeeping step loses
 * that bookkeeping (counted and reported), never the program's call.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "intercept.h"
#include "profile/demangle.h"
#include "profile/env.h"
#include "profile/vec.h"
#include "pasta/abi.h"
#include "pasta/profile.h"
#include "symbolize.h"
#include "profile/text_table.h"
#include "trace.h"

#include <errno.h>
#include <execinfo.h>
#include <inttypes.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define PASTA_ABI __attribute__((visibility("default")))

typedef int (*pasta__launch_fn)(const void *, uint64_t, uint32_t, uint64_t,
                                uint32_t, void **, uint64_t, void *);
typedef const struct pasta_vendor_ops ops_t;

enum { MAX_DEPTH = 16, MAX_PENDING = 4096, SHAPES_MAX = 64 };
enum variant {
  RUN_COUNTING = PASTA_RUN_COUNTING,
  RUN_PLAIN = PASTA_RUN_PLAIN,
  RUN_WS = PASTA_RUN_WORKING_SET,
  RUN_TRACE = PASTA_RUN_TRACE
};

/*===-- Options -----------------------------------------------------------===*/

static struct pasta__launch_options opt;
static pthread_once_t opt_once = PTHREAD_ONCE_INIT;

void pasta__launch_options_read(struct pasta__launch_options *o) {
  memset(o, 0, sizeof *o);
  o->timing = pasta_env_flag("PASTA_TIMING", 1);
  o->ws = pasta_env_flag("PASTA_WORKING_SET", 0);
  o->hotness = pasta_env_flag("PASTA_HOTNESS", 0);
  o->depth = (unsigned)pasta_env_u64("PASTA_CALL_DEPTH", 4, 0, MAX_DEPTH);
  uint64_t page = pasta_env_u64("PASTA_PAGE_SIZE", 65536, 0, UINT64_C(1) << 30);
  if (page < 256 || (page & (page - 1))) {
    fprintf(stderr,
            "pasta: warning: ignoring PASTA_PAGE_SIZE=%" PRIu64
            " (a power of two from 256 to 2^30); using 65536\n",
            page);
    page = 65536;
  }
  o->page_shift = (unsigned)__builtin_ctzll(page);
  o->sample = (unsigned)pasta_env_u64("PASTA_SAMPLE", 0, 0, 1u << 30);
  o->calibrate = pasta_env_flag("PASTA_CALIBRATE", 1);
  o->start = pasta_env_u64("PASTA_START_GRID_ID", 0, 0, UINT64_MAX);
  o->end = pasta_env_u64("PASTA_END_GRID_ID", UINT64_MAX, 0, UINT64_MAX);
  if (o->start > o->end)
    fprintf(stderr,
            "pasta: warning: PASTA_START_GRID_ID=%" PRIu64
            " is after PASTA_END_GRID_ID=%" PRIu64 ": no launch is counted\n",
            o->start, o->end);
  const char *k = getenv("PASTA_INSTRUMENT_KERNELS");
  if (k && *k) {
    if (regcomp(&o->kernels_re, k, REG_EXTENDED | REG_NOSUB) == 0) {
      o->kernels = k;
      o->have_kernels_re = 1;
    } else {
      fprintf(stderr,
              "pasta: warning: PASTA_INSTRUMENT_KERNELS='%.200s' is not an "
              "extended regular expression; every kernel is counted\n",
              k);
    }
  }
}

void pasta__launch_options_free(struct pasta__launch_options *o) {
  if (o->have_kernels_re)
    regfree(&o->kernels_re);
  o->have_kernels_re = 0;
}

static void read_options(void) { pasta__launch_options_read(&opt); }

static void options(void) { pthread_once(&opt_once, read_options); }

/*===-- State -------------------------------------------------------------===*/

struct kernel_path {
  uint32_t path;
  uint64_t launches;
};

struct kernel {
  const void *handle;
  const char *mangled; /* the program's registration string, or NULL */
  const void *plain, *ws, *trace;
  int nparams;
  uint64_t pointer_params; /* bit k: parameter k is a pointer */
  const void *module;      /* host shadow of its module's descriptor */
  int selected; /* -1 unknown, else PASTA_INSTRUMENT_KERNELS matched */
  uint64_t seq; /* launches of this kernel so far (for sampling) */
  uint64_t plain_started; /* launches of its plain copy so far */
  uint64_t traced;        /* launches of its trace copy so far */
  uint64_t ran_on;        /* bit d: launched on GPU d since its last reset */
  int warned_resources;   /* said that its counting copy did not fit */
  pasta_activity_kernel stats;
  pasta_activity_shape *shapes;
  size_t num_shapes, cap_shapes;
  struct kernel_path *paths;
  size_t num_paths, cap_paths;
};

struct call_path {
  uint32_t depth;
  void *frames[MAX_DEPTH + 1];
  /* Module, build id and ELF address of each frame, recorded when the path
   * is first seen (its modules may be unloaded before exit). */
  int located;
  pasta_frame_loc locs[MAX_DEPTH + 1];
};

struct pending {
  void *start, *end, *stream;
  uint64_t launch;
  uint64_t nth; /* of its kernel's launches, from 1 */
  uint32_t kernel;
  int device;
  int plain; /* ran the plain copy */
};

struct pooled_event {
  void *event;
  int device;
};

struct allocation {
  uint64_t base, size;
  uint32_t id;
  uint8_t kind;
  int device; /* -1: host memory, visible to every GPU */
};

/* One GPU's working-set buffers (device memory, owned by the runtime). */
struct ws_buffers {
  void *header;  /* struct pasta_ws_launch */
  void *table;   /* struct pasta_ws_alloc[] */
  void *results; /* outside[2], hotness banks, page flags: one read-back */
  void *host;    /* pinned copy of results (malloc'd when pinning fails) */
  int host_pinned;
  size_t cap_header, cap_table, cap_results, cap_host;
  size_t results_size, blocks_at, pages_at; /* layout of results */
  uint32_t page_banks;                      /* see PASTA_WS_PAGE_BANKS */
  uint64_t generation; /* of the allocation table uploaded */
  int ready;
};

/* A CUfunction or CUkernel taken from a registered kernel. */
struct driver_handle {
  const void *handle;
  uint32_t kernel; /* index into st.kernels */
};

/* A kernel node of an instantiated graph: what each launch of the graph
 * launches. */
struct graph_node {
  uint32_t kernel; /* index in st.kernels */
  int plain;       /* the node runs the kernel's plain copy */
  uint32_t grid[3], block[3];
  uint64_t shmem;
};

struct graph_exec {
  const void *exec; /* cudaGraphExec_t / hipGraphExec_t */
  struct graph_node *nodes;
  size_t num_nodes;
};

/* A hotness row: one 2 MiB block of one allocation. */
struct block_key {
  uint32_t allocation;
  uint64_t base, block;
};

static struct {
  pthread_mutex_t mu; /* everything below, never held across a launch */
  ops_t *ops;         /* the first vendor operations seen */
  uint64_t next_launch;
  struct kernel *kernels;
  size_t num_kernels, cap_kernels;
  uint32_t *kernel_hash; /* open addressing: index + 1, 0 = empty */
  size_t hash_cap;
  struct call_path *paths;
  size_t num_paths, cap_paths;
  struct pending *pending;
  size_t num_pending;
  struct pooled_event *pool;
  size_t num_pool, cap_pool;
  uint64_t untimed;
  struct allocation *live; /* sorted by base */
  size_t num_live, cap_live;
  uint64_t live_bytes, next_alloc_id, generation;
  pasta_activity_memory memory;
  int seen;
  int warned_no_plain, warned_ws, warned_variant;
  /* GPU properties, read at the first launch on each GPU. */
  pasta_device_peaks peaks[PASTA_MAX_DEVICES];
  uint64_t have_peaks; /* bit d: peaks[d] was read */
  /* The first launch seen to fail on the GPU (a fault), if any. */
  struct {
    int seen, exact, definitive, err;
    uint64_t failed_waits; /* launches whose wait failed */
    uint64_t launch, nth;
    uint32_t kernel;
    char message[160];
  } fault;
  uint64_t synced_before; /* launches before this id completed */
  size_t last_kernel;     /* of the last launch */
  /* Working-set results. */
  pasta_activity_ws_launch *ws_launches;
  size_t num_ws, cap_ws;
  uint64_t ws_skipped, outside;
  uint32_t outside_kernel, outside_line;
  char *outside_file;
  int have_outside;
  struct block_key *blocks;
  size_t num_blocks, cap_blocks;
  pasta_hotness_launch *hot_launches;
  size_t num_hot_launches, cap_hot_launches;
  pasta_hotness_cell *cells;
  size_t num_cells, cap_cells;
  /* Driver handles of registered kernels (see "Driver handles"). */
  struct driver_handle *handles;
  size_t num_handles, cap_handles;
  /* Instantiated graphs and their kernel nodes (see "Graphs"). */
  struct graph_exec *graphs;
  size_t num_graphs, cap_graphs;
  uint64_t unknown_graph_launches; /* of graphs PASTA did not see made */
  int warned_graph;
} st = {.mu = PTHREAD_MUTEX_INITIALIZER};

/* The working-set launch sequence: upload, launch, wait, read back. One at
 * a time, so the per-GPU buffers are never shared by two launches. */
static pthread_mutex_t ws_mu = PTHREAD_MUTEX_INITIALIZER;
static struct ws_buffers ws_dev[PASTA_MAX_DEVICES];

static void lock(void) { pthread_mutex_lock(&st.mu); }
static void unlock(void) { pthread_mutex_unlock(&st.mu); }

static int current_device(ops_t *ops) {
  int d = 0;
  if (!ops || !ops->get_device || ops->get_device(&d) || d < 0 ||
      d >= PASTA_MAX_DEVICES)
    return 0;
  return d;
}

static void note_ops(ops_t *ops) {
  if (!st.ops)
    st.ops = ops;
  st.seen = 1;
}

/* After one of the program's vendor calls returned: the vendor runtime has
 * initialised, so the report's exit handler can be ordered before its
 * teardown (runtime.c). Lock held. */
static void note_call(ops_t *ops) {
  note_ops(ops);
  pasta__arm_exit();
}

/*===-- Kernels -----------------------------------------------------------===*/

static size_t hash_ptr(const void *p, size_t cap) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return (size_t)x & (cap - 1);
}

static int rehash(void) {
  size_t cap = st.hash_cap ? st.hash_cap * 2 : 64;
  uint32_t *h = calloc(cap, sizeof *h);
  if (!h)
    return -1;
  for (size_t i = 0; i < st.num_kernels; ++i) {
    size_t j = hash_ptr(st.kernels[i].handle, cap);
    while (h[j])
      j = (j + 1) & (cap - 1);
    h[j] = (uint32_t)i + 1;
  }
  free(st.kernel_hash);
  st.kernel_hash = h;
  st.hash_cap = cap;
  return 0;
}

static struct kernel *find_kernel(const void *handle) {
  if (!st.hash_cap)
    return NULL;
  for (size_t j = hash_ptr(handle, st.hash_cap); st.kernel_hash[j];
       j = (j + 1) & (st.hash_cap - 1))
    if (st.kernels[st.kernel_hash[j] - 1].handle == handle)
      return &st.kernels[st.kernel_hash[j] - 1];
  return NULL;
}

/* The registered kernel a driver handle (a CUfunction or CUkernel the
 * program took from it) stands for; NULL for any other handle. Lock held. */
static struct kernel *handle_kernel(const void *handle) {
  for (size_t i = 0; i < st.num_handles; ++i)
    if (st.handles[i].handle == handle)
      return &st.kernels[st.handles[i].kernel];
  return NULL;
}

/* The kernel of `handle`, added (unnamed) when it was never registered.
 * Called with the lock held; NULL when out of memory. */
static struct kernel *kernel_of(const void *handle) {
  struct kernel *k = find_kernel(handle);
  if (k)
    return k;
  if (GROW(st.kernels, st.cap_kernels, st.num_kernels))
    return NULL;
  if ((st.num_kernels + 1) * 2 > st.hash_cap) {
    if (rehash())
      return NULL;
  }
  k = &st.kernels[st.num_kernels++];
  memset(k, 0, sizeof *k);
  k->handle = handle;
  k->nparams = -1;
  k->selected = -1;
  size_t j = hash_ptr(handle, st.hash_cap);
  while (st.kernel_hash[j])
    j = (j + 1) & (st.hash_cap - 1);
  st.kernel_hash[j] = (uint32_t)st.num_kernels;
  return k;
}

PASTA_ABI void __pasta_register_kernel(const void *handle, const char *name,
                                       const void *plain, const void *ws,
                                       const void *trace, int nparams,
                                       uint64_t pointer_params,
                                       const void *module) {
  if (!handle)
    return;
  if (trace)
    pasta__trace_code_seen();
  lock();
  struct kernel *k = kernel_of(handle);
  if (k) {
    /* A copy: the name may live in a library the program closes. */
    if (name && (!k->mangled || strcmp(k->mangled, name) != 0)) {
      char *copy = strdup(name);
      if (copy) {
        free((void *)k->mangled);
        k->mangled = copy;
      }
    }
    k->plain = plain;
    k->ws = ws;
    k->trace = trace;
    k->nparams = nparams;
    k->pointer_params = pointer_params;
    k->module = module;
  }
  unlock();
}

static int kernel_selected(struct kernel *k) {
  if (!opt.have_kernels_re)
    return 1;
  if (k->selected < 0) {
    const char *m = k->mangled ? k->mangled : "";
    char *display = pasta_demangle(m); /* NULL: not C++, or no demangler */
    k->selected =
        regexec(&opt.kernels_re, m, 0, NULL, 0) == 0 ||
        (display && regexec(&opt.kernels_re, display, 0, NULL, 0) == 0);
    free(display);
  }
  return k->selected;
}

/* Which variant launch `id` of k runs. Called with the lock held. */
static enum variant choose_variant(struct kernel *k, uint64_t id) {
  uint64_t nth = k->seq++;
  int in_window = id >= opt.start && id <= opt.end && kernel_selected(k) &&
                  (opt.sample < 2 || nth % opt.sample == 0);
  if (!in_window) {
    if (k->plain)
      return RUN_PLAIN;
    if (!st.warned_no_plain && k->mangled) {
      st.warned_no_plain = 1;
      fprintf(stderr,
              "pasta: warning: kernel '%s' has no uninstrumented variant "
              "(compiled with PASTA_VARIANTS=0 or not instrumented); its "
              "launches outside the launch window are counted\n",
              k->mangled);
    }
    return RUN_COUNTING;
  }
  /* The first launches of each kernel are traced (C.A.T.S. records an event
   * once per control-flow stack: later launches would add nothing). */
  if (k->trace && k->nparams >= 0 && !opt.ws && pasta__trace_on() &&
      k->traced < pasta__trace_launches()) {
    ++k->traced;
    return RUN_TRACE;
  }
  if (opt.ws) {
    if (k->ws && k->nparams >= 0)
      return RUN_WS;
    ++st.ws_skipped;
  }
  return RUN_COUNTING;
}

/*===-- Call paths --------------------------------------------------------===*/

static uint32_t path_id(void *const *frames, uint32_t depth) {
  for (size_t i = 0; i < st.num_paths; ++i)
    if (st.paths[i].depth == depth &&
        memcmp(st.paths[i].frames, frames, depth * sizeof *frames) == 0)
      return (uint32_t)i;
  if (GROW(st.paths, st.cap_paths, st.num_paths))
    return UINT32_MAX;
  struct call_path *p = &st.paths[st.num_paths];
  p->depth = depth;
  memcpy(p->frames, frames, depth * sizeof *frames);
  p->located = 0;
  return (uint32_t)st.num_paths++;
}

/* Records where the frames of a new path lie (pasta_locate). Called
 * without the lock: dladdr takes the dynamic loader's lock, which a thread
 * launching from a library constructor holds while it waits for ours. */
static void locate_path(uint32_t path, void *const *frames, uint32_t depth) {
  pasta_frame_loc locs[MAX_DEPTH + 1];
  for (uint32_t d = 0; d < depth; ++d)
    pasta_locate((uint64_t)(uintptr_t)frames[d], &locs[d]);
  lock();
  if (path < st.num_paths && st.paths[path].depth == depth) {
    memcpy(st.paths[path].locs, locs, depth * sizeof *locs);
    st.paths[path].located = 1;
  }
  unlock();
}

/* Frames above the wrapper that called this (skip = 2: this function and
 * the wrapper), one more than PASTA_CALL_DEPTH: the first is often the
 * kernel's stub, which the report drops. Taken outside the lock:
 * backtrace() may load libgcc_s. */
static uint32_t capture(void **frames) {
  if (!opt.depth)
    return 0;
  void *buf[MAX_DEPTH + 3];
  int n = backtrace(buf, (int)opt.depth + 3);
  if (n <= 2)
    return 0;
  memcpy(frames, buf + 2, (size_t)(n - 2) * sizeof *frames);
  return (uint32_t)(n - 2);
}

static void count_path(struct kernel *k, uint32_t path) {
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

static void count_shape(struct kernel *k, const uint32_t grid[3],
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

/*===-- Timing ------------------------------------------------------------===*/

/* An event of this GPU from the pool, or a new one. Lock held. */
static void *take_event(ops_t *ops, int device) {
  for (size_t i = st.num_pool; i-- > 0;)
    if (st.pool[i].device == device) {
      void *e = st.pool[i].event;
      st.pool[i] = st.pool[--st.num_pool];
      return e;
    }
  void *e = NULL;
  if (ops->event_create(&e)) {
    ops->get_last_error(); /* ours, not the program's */
    return NULL;
  }
  return e;
}

static void give_event(ops_t *ops, void *e, int device) {
  if (!e)
    return;
  if (GROW(st.pool, st.cap_pool, st.num_pool)) {
    ops->event_destroy(e);
    return;
  }
  st.pool[st.num_pool++] = (struct pooled_event){e, device};
}

static void record_time(uint32_t kernel, uint64_t ns, int plain) {
  pasta_activity_kernel *s = &st.kernels[kernel].stats;
  /* plain: 1, a launch of the plain copy; 2, its first one, which also
   * loads the copy (CUDA loads kernels lazily, between our two events). */
  if (plain) {
    ++s->plain_timed;
    if (plain == 2) {
      s->plain_first_ns = ns;
    } else {
      ++s->plain_rest;
      s->plain_time_ns += ns;
    }
  }
  if (!s->timed || ns < s->time_min_ns)
    s->time_min_ns = ns;
  if (ns > s->time_max_ns)
    s->time_max_ns = ns;
  s->time_total_ns += ns;
  ++s->timed;
}

/* Waits for launch p's end event: its GPU time in ns, or UINT64_MAX when
 * the launch failed on the GPU (*err: the vendor's error) or its events
 * did. No lock needed. */
static uint64_t wait_time(ops_t *ops, const struct pending *p, int *err) {
  float ms = 0;
  *err = ops->event_synchronize(p->end);
  if (*err == 0 && ops->event_elapsed_time(&ms, p->start, p->end) == 0 &&
      ms >= 0)
    return (uint64_t)((double)ms * 1e6 + 0.5);
  return UINT64_MAX;
}

/* Whether a vendor error means the GPU context is lost (a fault of a
 * kernel: every later call fails with it); CUDA's and HIP's codes agree. */
static int is_fault(int err) {
  switch (err) {
  case 700: /* illegal address */
  case 702: /* launch timeout */
  case 715: /* illegal instruction */
  case 716: /* misaligned address */
  case 717: /* invalid address space */
  case 718: /* invalid pc */
  case 719: /* launch failure */
    return 1;
  default:
    return 0;
  }
}

/* Notes a fault seen by waiting for launch p (NULL: by one of the
 * program's synchronising calls); `definitive` when the launch call itself
 * returned it (CUDA_LAUNCH_BLOCKING=1). After a fault every wait fails, so
 * the earliest launch whose wait failed is the first not seen to complete:
 * the faulting one when it is the only one. Lock held. */
static void note_fault(ops_t *ops, int err, const struct pending *p,
                       int definitive) {
  if (!is_fault(err) || st.fault.definitive)
    return;
  if (!st.fault.seen) {
    const char *msg = ops->get_error_string ? ops->get_error_string(err) : NULL;
    snprintf(st.fault.message, sizeof st.fault.message, "%s",
             msg ? msg : "unknown error");
    st.fault.err = err;
    st.fault.seen = 1;
  }
  if (!p)
    return;
  if (definitive) {
    st.fault.definitive = 1;
    st.fault.failed_waits = 0;
  } else {
    ++st.fault.failed_waits;
    if (st.fault.exact && st.fault.launch <= p->launch)
      return;
  }
  st.fault.exact = 1;
  st.fault.launch = p->launch;
  st.fault.nth = p->nth;
  st.fault.kernel = p->kernel;
}

/* Trace mode: each GPU's reference event and the host time it completed,
 * so that a kernel's start event places it on the host clock. */
static void *trace_ref[PASTA_MAX_DEVICES];
static uint64_t trace_ref_host[PASTA_MAX_DEVICES];

/* Records the reference event of `device` once. Lock held. */
static void trace_reference(ops_t *ops, int device) {
  if (device < 0 || device >= (int)PASTA_MAX_DEVICES || trace_ref[device] ||
      !pasta__trace_on())
    return;
  void *e = NULL;
  if (ops->event_create(&e) || ops->event_record(e, NULL) ||
      ops->event_synchronize(e)) {
    ops->get_last_error();
    if (e)
      ops->event_destroy(e);
    return;
  }
  trace_ref[device] = e;
  trace_ref_host[device] = pasta__trace_now();
}

/* A timed launch's span on its stream, for the Chrome trace. Lock held. */
static void trace_kernel(ops_t *ops, const struct pending *p, uint64_t ns) {
  float ms = 0;
  if (p->device < 0 || p->device >= (int)PASTA_MAX_DEVICES ||
      !trace_ref[p->device] ||
      ops->event_elapsed_time(&ms, trace_ref[p->device], p->start) != 0) {
    return;
  }
  uint64_t start = trace_ref_host[p->device] + (uint64_t)((double)ms * 1e6);
  pasta__trace_kernel_span(p->launch, st.kernels[p->kernel].mangled, p->device,
                           p->stream, start, ns);
}

/* Records p's time (UINT64_MAX: untimed, after the vendor's error `err`)
 * and pools its events. Lock held. */
static void account(ops_t *ops, const struct pending *p, uint64_t ns, int err) {
  if (err)
    note_fault(ops, err, p, 0);
  if (ns == UINT64_MAX)
    ++st.untimed;
  else
    record_time(p->kernel, ns, p->plain);
  if (ns != UINT64_MAX)
    trace_kernel(ops, p, ns);
  give_event(ops, p->start, p->device);
  give_event(ops, p->end, p->device);
}

/* Times pending launch i (waiting for it) and retires it. Lock held. */
static void retire(ops_t *ops, size_t i) {
  int err;
  uint64_t ns = wait_time(ops, &st.pending[i], &err);
  account(ops, &st.pending[i], ns, err);
  /* Keep the order: the oldest stay in front for the overflow harvest. */
  memmove(&st.pending[i], &st.pending[i + 1],
          (--st.num_pending - i) * sizeof *st.pending);
}

/* Retires the pending launches of `device` (-1: all) on `stream` (all when
 * `any_stream`). Lock held. */
static void harvest(ops_t *ops, int device, int any_stream, void *stream) {
  for (size_t i = st.num_pending; i-- > 0;) {
    struct pending *p = &st.pending[i];
    if ((device < 0 || p->device == device) &&
        (any_stream || p->stream == stream))
      retire(ops, i);
  }
}

/* When MAX_PENDING launches are in flight: waits for the oldest half, with
 * the lock released while waiting (a program's kernel may wait for another
 * host thread, which must not block on our lock). */
static void drain_oldest(ops_t *ops) {
  enum { N = MAX_PENDING / 2 };
  static struct pending batch[N]; /* under drain_mu */
  static pthread_mutex_t drain_mu = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&drain_mu);
  lock();
  size_t n = st.num_pending >= MAX_PENDING ? N : 0;
  memcpy(batch, st.pending, n * sizeof *batch);
  memmove(st.pending, st.pending + n,
          (st.num_pending - n) * sizeof *st.pending);
  st.num_pending -= n;
  unlock();
  uint64_t ns[N];
  int errs[N];
  for (size_t i = 0; i < n; ++i)
    ns[i] = wait_time(ops, &batch[i], &errs[i]);
  lock();
  for (size_t i = 0; i < n; ++i)
    account(ops, &batch[i], ns[i], errs[i]);
  unlock();
  pthread_mutex_unlock(&drain_mu);
}

/* Whether a launch's stream is being captured into a graph. A captured
 * launch runs only when the graph does: it is recorded then, as a kernel
 * node of the graph (see "Graphs"), and never waited for or timed. When the
 * vendor cannot say, the launch is recorded but not timed. */
enum capture { CAPTURE_NONE, CAPTURE_INTO_GRAPH, CAPTURE_UNKNOWN };

static int capture_state(ops_t *ops, void *stream) {
  int capturing = 0;
  if (!ops->stream_is_capturing)
    return CAPTURE_NONE;
  if (ops->stream_is_capturing(stream, &capturing)) {
    ops->get_last_error();
    return CAPTURE_UNKNOWN;
  }
  return capturing ? CAPTURE_INTO_GRAPH : CAPTURE_NONE;
}

/* Starts timing a launch on `stream`: *start recorded, *end taken. Returns
 * 0 when the launch is to be timed. Lock held. */
static int start_timing(ops_t *ops, void *stream, int device, int capture,
                        void **start, void **end) {
  *start = *end = NULL;
  if (!opt.timing || !ops->event_create || !ops->event_record)
    return -1;
  if (capture != CAPTURE_NONE)
    return -1; /* a launch into a graph: no events around it */
  if (!st.pending && !(st.pending = malloc(MAX_PENDING * sizeof *st.pending)))
    return -1;
  if (st.num_pending == MAX_PENDING)
    return -1; /* another thread is draining (drain_oldest): untimed */
  trace_reference(ops, device);
  *start = take_event(ops, device);
  *end = take_event(ops, device);
  if (*start && *end && ops->event_record(*start, stream) == 0)
    return 0;
  ops->get_last_error();
  give_event(ops, *start, device);
  give_event(ops, *end, device);
  *start = *end = NULL;
  return -1;
}

static void end_timing(ops_t *ops, void *stream, int device, void *start,
                       void *end, uint64_t launch, uint32_t kernel,
                       int launched, int plain) {
  if (launched && ops->event_record(end, stream) == 0) {
    st.pending[st.num_pending++] = (struct pending){
        start,  end,    stream, launch, st.kernels[kernel].stats.launches + 1,
        kernel, device, plain};
    return;
  }
  if (launched)
    ops->get_last_error();
  give_event(ops, start, device);
  give_event(ops, end, device);
}

/*===-- Allocations -------------------------------------------------------===*/

/* Index of the first live allocation with base > addr. Lock held. */
static size_t upper_bound(uint64_t addr) {
  size_t lo = 0, hi = st.num_live;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (st.live[mid].base <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static const struct allocation *allocation_at(uint64_t addr) {
  size_t i = upper_bound(addr);
  if (i == 0 || addr - st.live[i - 1].base >= st.live[i - 1].size)
    return NULL;
  return &st.live[i - 1];
}

static void note_alloc(ops_t *ops, void *ptr, uint64_t size, unsigned kind,
                       const void *site) {
  if (!ptr)
    return;
  uint64_t t = pasta__trace_now();
  int device = kind == PASTA_ALLOC_HOST ? -1 : current_device(ops);
  pasta_allocation_event e = {0, kind, (uint64_t)(uintptr_t)ptr, size, device};
  pasta__notify_allocation(&e);
  lock();
  note_call(ops);
  ++st.memory.allocs[kind];
  st.memory.alloc_bytes[kind] += size;
  if (!GROW(st.live, st.cap_live, st.num_live)) {
    uint64_t base = (uint64_t)(uintptr_t)ptr;
    size_t i = upper_bound(base);
    memmove(&st.live[i + 1], &st.live[i], (st.num_live - i) * sizeof *st.live);
    uint64_t id = st.next_alloc_id++;
    st.live[i] = (struct allocation){base, size ? size : 1, (uint32_t)id,
                                     (uint8_t)kind, device};
    pasta__trace_alloc(id, size, pasta_alloc_kind_name(kind), site, t);
    ++st.num_live;
    st.live_bytes += size;
    if (st.live_bytes > st.memory.peak_bytes)
      st.memory.peak_bytes = st.live_bytes;
    ++st.generation;
  }
  unlock();
}

static void drop_live(size_t i) {
  st.live_bytes -= st.live[i].size;
  memmove(&st.live[i], &st.live[i + 1],
          (st.num_live - i - 1) * sizeof *st.live);
  --st.num_live;
  ++st.generation;
}

static void note_free(ops_t *ops, void *ptr, const void *site) {
  if (!ptr)
    return;
  uint64_t t = pasta__trace_now();
  pasta_allocation_event e = {1, 0, (uint64_t)(uintptr_t)ptr, 0, -1};
  pasta__notify_allocation(&e);
  uint64_t base = (uint64_t)(uintptr_t)ptr;
  lock();
  note_call(ops);
  ++st.memory.frees;
  size_t i = upper_bound(base);
  if (i > 0 && st.live[i - 1].base == base) {
    pasta__trace_free(st.live[i - 1].id, site, t);
    drop_live(i - 1);
  } else
    ++st.memory.unknown_frees;
  unlock();
}

/* A copy's direction when the program let the runtime infer it. */
static unsigned copy_kind(int kind, const void *dst, const void *src) {
  if (kind >= 0 && kind < 4)
    return (unsigned)kind; /* cudaMemcpyKind: H2H, H2D, D2H, D2D */
  const struct allocation *d = allocation_at((uint64_t)(uintptr_t)dst);
  const struct allocation *s = allocation_at((uint64_t)(uintptr_t)src);
  int dd = d && d->kind != PASTA_ALLOC_HOST,
      sd = s && s->kind != PASTA_ALLOC_HOST;
  if (!d && !s)
    return PASTA_COPY_DEFAULT; /* pageable host memory, or memory we missed */
  return sd ? (dd ? PASTA_COPY_D2D : PASTA_COPY_D2H)
            : (dd ? PASTA_COPY_H2D : PASTA_COPY_H2H);
}

/* Whether the host side of a copy is pinned memory the program allocated
 * through the runtime (cudaMallocHost / cudaHostAlloc). Lock held. */
static int host_side_pinned(unsigned kind, void *dst, const void *src) {
  const void *host = kind == PASTA_COPY_H2D   ? src
                     : kind == PASTA_COPY_D2H ? dst
                                              : NULL;
  const struct allocation *a =
      host ? allocation_at((uint64_t)(uintptr_t)host) : NULL;
  return a && a->kind == PASTA_ALLOC_HOST;
}

/* Trace mode: a copy reads its source and writes its destination, where
 * they are allocations the runtime knows. Lock held. */
static void trace_copy(const void *dst, const void *src, uint64_t n,
                       const void *site, uint64_t t) {
  const struct allocation *d =
      dst ? allocation_at((uint64_t)(uintptr_t)dst) : NULL;
  const struct allocation *s =
      src ? allocation_at((uint64_t)(uintptr_t)src) : NULL;
  if (!d && !s)
    return;
  pasta__trace_copy(d ? d->id : UINT64_MAX,
                    d ? (uint64_t)(uintptr_t)dst - d->base : 0,
                    s ? s->id : UINT64_MAX,
                    s ? (uint64_t)(uintptr_t)src - s->base : 0, n, site, t);
}

static void note_copy(ops_t *ops, int err, void *dst, const void *src,
                      uint64_t n, int kind, int async, uint64_t ns,
                      const void *site, uint64_t t) {
  if (err)
    return;
  lock();
  trace_copy(dst, src, n, site, t);
  note_call(ops);
  unsigned k = copy_kind(kind, dst, src);
  ++st.memory.copies[k];
  st.memory.copy_bytes[k] += n;
  st.memory.async_copies += (uint64_t)async;
  st.memory.copy_ns[k] += ns;
  st.memory.copies_pinned[k] += (uint64_t)host_side_pinned(k, dst, src);
  unlock();
}

static void note_memset(ops_t *ops, int err, void *p, uint64_t n,
                        const void *site, uint64_t t) {
  if (err)
    return;
  lock();
  trace_copy(p, NULL, n, site, t);
  note_call(ops);
  ++st.memory.memsets;
  st.memory.memset_bytes += n;
  unlock();
}

/*===-- Wrappers: memory --------------------------------------------------===*/

/* Each wrapper passes its return address (the program's call site) along,
 * and reports the call's duration to trace mode. */
#define SITE __builtin_return_address(0)

static int allocated(ops_t *ops, int err, void **p, uint64_t size,
                     unsigned kind, const void *site, uint64_t t0,
                     const char *api) {
  pasta__trace_api(api, t0, pasta__trace_now(), 0);
  if (!err && p)
    note_alloc(ops, *p, size, kind, site);
  return err;
}

PASTA_ABI int __pasta_malloc(void **p, uint64_t size,
                             int (*real)(void **, uint64_t), ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  return allocated(ops, real(p, size), p, size, PASTA_ALLOC_DEVICE, SITE, t0,
                   "malloc");
}

PASTA_ABI int __pasta_malloc_managed(void **p, uint64_t size, uint32_t flags,
                                     int (*real)(void **, uint64_t, uint32_t),
                                     ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  return allocated(ops, real(p, size, flags), p, size, PASTA_ALLOC_MANAGED,
                   SITE, t0, "malloc managed");
}

PASTA_ABI int __pasta_malloc_host(void **p, uint64_t size,
                                  int (*real)(void **, uint64_t), ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  return allocated(ops, real(p, size), p, size, PASTA_ALLOC_HOST, SITE, t0,
                   "malloc host");
}

PASTA_ABI int __pasta_host_alloc(void **p, uint64_t size, uint32_t flags,
                                 int (*real)(void **, uint64_t, uint32_t),
                                 ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  return allocated(ops, real(p, size, flags), p, size, PASTA_ALLOC_HOST, SITE,
                   t0, "host alloc");
}

PASTA_ABI int
__pasta_malloc_pitch(void **p, uint64_t *pitch, uint64_t width, uint64_t height,
                     int (*real)(void **, uint64_t *, uint64_t, uint64_t),
                     ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  int err = real(p, pitch, width, height);
  pasta__trace_api("malloc pitch", t0, pasta__trace_now(), 0);
  if (!err && p && pitch)
    note_alloc(ops, *p, *pitch * height, PASTA_ALLOC_PITCH, SITE);
  return err;
}

PASTA_ABI int __pasta_malloc_async(void **p, uint64_t size, void *stream,
                                   int (*real)(void **, uint64_t, void *),
                                   ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  return allocated(ops, real(p, size, stream), p, size, PASTA_ALLOC_ASYNC, SITE,
                   t0, "malloc async");
}

static int freed(ops_t *ops, int err, void *p, const void *site, uint64_t t0) {
  pasta__trace_api("free", t0, pasta__trace_now(), 0);
  if (!err)
    note_free(ops, p, site);
  return err;
}

PASTA_ABI int __pasta_free(void *p, int (*real)(void *), ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  return freed(ops, real(p), p, SITE, t0);
}

PASTA_ABI int __pasta_free_host(void *p, int (*real)(void *), ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  return freed(ops, real(p), p, SITE, t0);
}

PASTA_ABI int __pasta_free_async(void *p, void *stream,
                                 int (*real)(void *, void *), ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  return freed(ops, real(p, stream), p, SITE, t0);
}

PASTA_ABI int __pasta_memcpy(void *dst, const void *src, uint64_t n, int kind,
                             int (*real)(void *, const void *, uint64_t, int),
                             ops_t *ops) {
  /* One clock for the copy's duration and its trace span. */
  uint64_t t0 = pasta__trace_now();
  int err = real(dst, src, n, kind);
  uint64_t t1 = pasta__trace_now();
  pasta__trace_api("memcpy", t0, t1, 0);
  note_copy(ops, err, dst, src, n, kind, 0, t1 - t0, SITE, t0);
  return err;
}

PASTA_ABI int __pasta_memcpy_async(
    void *dst, const void *src, uint64_t n, int kind, void *stream,
    int (*real)(void *, const void *, uint64_t, int, void *), ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  int err = real(dst, src, n, kind, stream);
  pasta__trace_api("memcpy async", t0, pasta__trace_now(), 0);
  note_copy(ops, err, dst, src, n, kind, 1, 0, SITE, t0);
  return err;
}

PASTA_ABI int __pasta_memset(void *p, int value, uint64_t n,
                             int (*real)(void *, int, uint64_t), ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  int err = real(p, value, n);
  pasta__trace_api("memset", t0, pasta__trace_now(), 0);
  note_memset(ops, err, p, n, SITE, t0);
  return err;
}

PASTA_ABI int __pasta_memset_async(void *p, int value, uint64_t n, void *stream,
                                   int (*real)(void *, int, uint64_t, void *),
                                   ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  int err = real(p, value, n, stream);
  pasta__trace_api("memset async", t0, pasta__trace_now(), 0);
  note_memset(ops, err, p, n, SITE, t0);
  return err;
}

/*===-- Wrappers: synchronisation -----------------------------------------===*/

PASTA_ABI int __pasta_device_synchronize(int (*real)(void), ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  int err = real();
  pasta__trace_api("device synchronize", t0, pasta__trace_now(), 0);
  int device = current_device(ops);
  lock();
  note_call(ops);
  ++st.memory.device_syncs;
  if (err)
    note_fault(ops, err, NULL, 0);
  else
    st.synced_before = st.next_launch;
  harvest(ops, device, 1, NULL);
  unlock();
  return err;
}

PASTA_ABI int __pasta_stream_synchronize(void *stream, int (*real)(void *),
                                         ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  int err = real(stream);
  pasta__trace_api("stream synchronize", t0, pasta__trace_now(), 0);
  int device = current_device(ops);
  lock();
  note_call(ops);
  ++st.memory.stream_syncs;
  if (err)
    note_fault(ops, err, NULL, 0);
  harvest(ops, device, 0, stream);
  unlock();
  return err;
}

/*===-- Working sets ------------------------------------------------------===*/

static void ws_free_host(ops_t *ops, struct ws_buffers *b) {
  if (b->host && b->host_pinned)
    ops->free_host(b->host);
  else
    free(b->host);
  b->host = NULL;
  b->cap_host = 0;
}

static void ws_release(ops_t *ops, struct ws_buffers *b) {
  void *bufs[] = {b->header, b->table, b->results};
  for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; ++i)
    if (bufs[i])
      ops->free(bufs[i]);
  ws_free_host(ops, b);
  memset(b, 0, sizeof *b);
}

/* A host buffer of `need` bytes for the read-back, pinned when possible. */
/* Where the launch header is staged in the host buffer: after the results,
 * 8-byte aligned. */
static size_t ws_header_at(const struct ws_buffers *b) {
  return (b->results_size + 7) & ~(size_t)7;
}

static int ws_reserve_host(ops_t *ops, struct ws_buffers *b, size_t need) {
  if (b->host && b->cap_host >= need)
    return 0;
  ws_free_host(ops, b);
  size_t want = need + need / 2;
  b->host_pinned = ops->host_alloc && ops->free_host &&
                   ops->host_alloc(&b->host, want, 0) == 0;
  if (!b->host_pinned) {
    if (ops->get_last_error)
      ops->get_last_error();
    b->host = malloc(want);
  }
  if (!b->host)
    return -1;
  b->cap_host = want;
  return 0;
}

/* Makes *buf hold at least `need` bytes (device memory), zeroed on
 * `stream` (ordered before the launch that uses it). */
static int ws_reserve(ops_t *ops, void **buf, size_t *cap, size_t need,
                      void *stream) {
  if (need == 0)
    need = 8;
  if (*buf && *cap >= need)
    return 0;
  if (*buf)
    ops->free(*buf);
  *buf = NULL;
  *cap = 0;
  size_t want = need + need / 2;
  if (ops->malloc(buf, want) || ops->memset_async(*buf, 0, want, stream))
    return -1;
  *cap = want;
  return 0;
}

/* The device's view of the live allocations, with page and block offsets.
 * Lock held. */
struct ws_snapshot {
  struct pasta_ws_alloc *table;
  uint32_t *ids;
  size_t n;
  uint64_t pages, blocks;
};

static int ws_snapshot(struct ws_snapshot *s) {
  memset(s, 0, sizeof *s);
  s->n = st.num_live;
  /* Room for the padding a short table gets (PASTA_WS_LINEAR_MAX). */
  size_t room = s->n > PASTA_WS_LINEAR_MAX ? s->n : PASTA_WS_LINEAR_MAX;
  s->table = malloc(room * sizeof *s->table);
  s->ids = malloc((s->n ? s->n : 1) * sizeof *s->ids);
  if (!s->table || !s->ids)
    return -1;
  uint64_t page = UINT64_C(1) << opt.page_shift;
  for (size_t i = 0; i < s->n; ++i) {
    const struct allocation *a = &st.live[i];
    s->table[i] = (struct pasta_ws_alloc){a->base, a->size, (uint32_t)s->pages,
                                          (uint32_t)s->blocks};
    s->ids[i] = a->id;
    s->pages += (a->size + page - 1) / page;
    s->blocks +=
        (a->size + PASTA_HOTNESS_BLOCK_SIZE - 1) / PASTA_HOTNESS_BLOCK_SIZE;
  }
  for (size_t i = s->n; i < PASTA_WS_LINEAR_MAX; ++i)
    s->table[i] = (struct pasta_ws_alloc){UINT64_MAX, 0, 0, 0};
  return s->pages >= UINT32_MAX || s->blocks >= UINT32_MAX ? -1 : 0;
}

/* As many banks of page flags as keep them within 256 KiB (at least one):
 * every launch reads them all back. */
static uint32_t ws_page_banks(uint64_t pages) {
  uint32_t banks = PASTA_WS_PAGE_BANKS;
  while (banks > 1 && pages * banks > (256u << 10))
    banks /= 2;
  return banks;
}

/* The snapshot entry holding `addr`, or SIZE_MAX. */
static size_t ws_snapshot_find(const struct ws_snapshot *s, uint64_t addr) {
  size_t lo = 0, hi = s->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (s->table[mid].base <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0 || addr - s->table[lo - 1].base >= s->table[lo - 1].size)
    return SIZE_MAX;
  return lo - 1;
}

/* Entries the device reads: the table, padded to PASTA_WS_LINEAR_MAX. */
static size_t ws_table_len(const struct ws_snapshot *s) {
  return s->n > PASTA_WS_LINEAR_MAX ? s->n : PASTA_WS_LINEAR_MAX;
}

static void ws_snapshot_free(struct ws_snapshot *s) {
  free(s->table);
  free(s->ids);
}

/* Uploads the table when it changed and the launch header. */
static int ws_prepare(ops_t *ops, struct ws_buffers *b,
                      const struct ws_snapshot *s, uint64_t generation,
                      void *stream) {
  if (b->ready && b->generation == generation)
    return 0;
  size_t blocks = opt.hotness ? (size_t)s->blocks : 0;
  b->blocks_at = 2 * sizeof(uint64_t);
  b->pages_at = b->blocks_at + blocks * PASTA_WS_HOT_BANKS * sizeof(uint64_t);
  b->page_banks = ws_page_banks(s->pages);
  b->results_size = b->pages_at + (size_t)s->pages * b->page_banks;
  if (ws_reserve(ops, &b->header, &b->cap_header,
                 sizeof(struct pasta_ws_launch), stream) ||
      ws_reserve(ops, &b->table, &b->cap_table,
                 ws_table_len(s) * sizeof *s->table, stream) ||
      ws_reserve(ops, &b->results, &b->cap_results, b->results_size, stream) ||
      ws_reserve_host(ops, b, ws_header_at(b) + sizeof(struct pasta_ws_launch)))
    return -1;
  /* On the launch's stream: a non-blocking stream is not ordered after the
   * legacy one. */
  if (ops->memcpy_async(b->table, s->table, ws_table_len(s) * sizeof *s->table,
                        PASTA_MEMCPY_HOST_TO_DEVICE, stream))
    return -1;
  b->generation = generation;
  b->ready = 1;
  return 0;
}

/* The launch's header: the buffers' device addresses and, for each pointer
 * argument in a known allocation, that allocation's range and flags. Staged
 * in the host buffer after the results and copied on the launch's stream. */
static int ws_send_header(ops_t *ops, struct ws_buffers *b,
                          const struct ws_snapshot *s, const struct kernel *k,
                          void **args, void *stream) {
  struct pasta_ws_launch *h =
      (struct pasta_ws_launch *)((char *)b->host + ws_header_at(b));
  uint64_t results = (uint64_t)(uintptr_t)b->results;
  memset(h, 0, sizeof *h);
  h->allocs = (uint64_t)(uintptr_t)b->table;
  h->pages = results + b->pages_at;
  h->blocks = opt.hotness ? results + b->blocks_at : 0;
  h->outside = results;
  h->num_allocs = (uint32_t)s->n;
  h->page_shift = opt.page_shift;
  h->block_shift = PASTA_WS_BLOCK_SHIFT;
  h->num_pages = (uint32_t)s->pages;
  h->page_banks = b->page_banks;
  for (int p = 0; p < k->nparams && p < (int)PASTA_WS_MAX_ARGS; ++p) {
    if (!(k->pointer_params >> p & 1) || !args[p])
      continue;
    uint64_t v;
    memcpy(&v, args[p], sizeof v);
    size_t i = ws_snapshot_find(s, v);
    if (i == SIZE_MAX)
      continue;
    h->args[p] = (struct pasta_ws_arg){s->table[i].base,
                                       s->table[i].base + s->table[i].size,
                                       h->pages + s->table[i].first_page};
  }
  return ops->memcpy_async(b->header, h, sizeof *h, PASTA_MEMCPY_HOST_TO_DEVICE,
                           stream);
}

/* After the launch, on its stream: copy the results back and clear them,
 * then wait once. */
static int ws_read_back(ops_t *ops, struct ws_buffers *b, void *stream) {
  if (!ops->memcpy_async || !ops->memset_async)
    return -1;
  if (ops->memcpy_async(b->host, b->results, b->results_size,
                        PASTA_MEMCPY_DEVICE_TO_HOST, stream) ||
      ops->memset_async(b->results, 0, b->results_size, stream) ||
      ops->stream_synchronize(stream))
    return -1;
  return 0;
}

/* The hotness row of (allocation, block). Lock held. */
static uint32_t block_row(uint32_t allocation, uint64_t base, uint64_t block) {
  for (size_t i = st.num_blocks; i-- > 0;)
    if (st.blocks[i].allocation == allocation && st.blocks[i].block == block)
      return (uint32_t)i;
  if (GROW(st.blocks, st.cap_blocks, st.num_blocks))
    return UINT32_MAX;
  st.blocks[st.num_blocks] = (struct block_key){allocation, base, block};
  return (uint32_t)st.num_blocks++;
}

/* The source line of site `site` of the module whose descriptor's host
 * shadow is `module`, read from the device. */
static void ws_resolve_site(ops_t *ops, const void *module, uint32_t site) {
  struct pasta_module_desc d;
  struct pasta_site s;
  if (!module ||
      ops->memcpy_from_symbol(&d, module, sizeof d, 0,
                              PASTA_MEMCPY_DEVICE_TO_HOST) ||
      d.magic != PASTA_ABI_MAGIC || site >= d.num_sites ||
      ops->memcpy(&s, (const void *)(uintptr_t)(d.sites + site * sizeof s),
                  sizeof s, PASTA_MEMCPY_DEVICE_TO_HOST))
    return;
  st.outside_line = s.line;
  if (s.file >= d.strings_size)
    return;
  char *strings = malloc(d.strings_size + 1);
  if (strings &&
      ops->memcpy(strings, (const void *)(uintptr_t)d.strings, d.strings_size,
                  PASTA_MEMCPY_DEVICE_TO_HOST) == 0) {
    strings[d.strings_size] = '\0';
    st.outside_file = strdup(strings + s.file);
  }
  free(strings);
}

/* ORs the banks of page flags into the first, 8 flags at a time. */
static void ws_or_banks(uint8_t *pages, uint64_t n, uint32_t banks) {
  for (uint32_t bank = 1; bank < banks; ++bank) {
    const uint8_t *src = pages + bank * n;
    uint64_t p = 0;
    for (; p + 8 <= n; p += 8) {
      uint64_t a, b;
      memcpy(&a, pages + p, 8);
      memcpy(&b, src + p, 8);
      a |= b;
      memcpy(pages + p, &a, 8);
    }
    for (; p < n; ++p)
      pages[p] |= src[p];
  }
}

/* Reads back what one launch touched and clears it. ws_mu held. */
static int ws_collect(ops_t *ops, struct ws_buffers *b,
                      const struct ws_snapshot *s, uint32_t kernel,
                      uint64_t id) {
  size_t blocks = opt.hotness ? (size_t)s->blocks : 0;
  uint8_t *pages = (uint8_t *)b->host + b->pages_at;
  ws_or_banks(pages, s->pages, b->page_banks);
  uint64_t *hits = (uint64_t *)((char *)b->host + b->blocks_at);
  uint64_t outside[2];
  memcpy(outside, b->host, sizeof outside);
  for (size_t blk = 0; blk < blocks; ++blk) { /* sum the banks */
    uint64_t sum = 0;
    for (unsigned bank = 0; bank < PASTA_WS_HOT_BANKS; ++bank)
      sum += hits[blk * PASTA_WS_HOT_BANKS + bank];
    hits[blk] = sum;
  }

  pasta_activity_ws_launch l = {id, kernel, 0, 0, 0, outside[0]};
  uint64_t page = UINT64_C(1) << opt.page_shift;
  for (size_t i = 0; i < s->n; ++i) {
    const struct pasta_ws_alloc *a = &s->table[i];
    uint64_t n = (a->size + page - 1) / page, touched = 0;
    for (uint64_t p = 0; p < n; ++p)
      if (pages[a->first_page + p])
        touched += p + 1 < n ? page : a->size - p * page;
    if (!touched)
      continue;
    ++l.touched_allocations;
    l.footprint_bytes += a->size;
    l.touched_bytes += touched;
  }
  lock();
  pasta_activity_kernel *k = &st.kernels[kernel].stats;
  ++k->ws_launches;
  if (l.touched_bytes > k->ws_max_touched_bytes)
    k->ws_max_touched_bytes = l.touched_bytes;
  if (l.footprint_bytes > k->ws_max_footprint_bytes)
    k->ws_max_footprint_bytes = l.footprint_bytes;
  if (!GROW(st.ws_launches, st.cap_ws, st.num_ws))
    st.ws_launches[st.num_ws++] = l;
  st.outside += outside[0];
  if (outside[0] && !st.have_outside) {
    st.have_outside = 1;
    st.outside_kernel = kernel;
    if (outside[1])
      ws_resolve_site(ops, st.kernels[kernel].module,
                      (uint32_t)(outside[1] - 1));
  }
  if (blocks &&
      !GROW(st.hot_launches, st.cap_hot_launches, st.num_hot_launches)) {
    uint32_t col = (uint32_t)st.num_hot_launches++;
    st.hot_launches[col] = (pasta_hotness_launch){id, NULL};
    for (size_t i = 0; i < s->n; ++i) {
      const struct pasta_ws_alloc *a = &s->table[i];
      uint64_t n =
          (a->size + PASTA_HOTNESS_BLOCK_SIZE - 1) / PASTA_HOTNESS_BLOCK_SIZE;
      for (uint64_t blk = 0; blk < n; ++blk) {
        uint64_t count = hits[a->first_block + blk];
        if (!count)
          continue;
        uint32_t row = block_row(s->ids[i], a->base, blk);
        if (row != UINT32_MAX && !GROW(st.cells, st.cap_cells, st.num_cells))
          st.cells[st.num_cells++] = (pasta_hotness_cell){col, row, count};
      }
    }
  }
  unlock();
  return 0;
}

/*===-- Wrappers: launches ------------------------------------------------===*/

struct launch {
  const void *fn;
  uint64_t grid_xy;
  uint32_t grid_z;
  uint64_t block_xy;
  uint32_t block_z;
  void **args;
  uint64_t shmem;
  void *stream;
  const void *site; /* the program's call */
  uint64_t id;      /* launch id, set by launch() */
  int capture;      /* enum capture, set by launch() */
};

/* Runs `handle` with l's configuration, timed when timing is on. Returns
 * the vendor's error. */
static int run_timed(ops_t *ops, pasta__launch_fn real, const void *handle,
                     const struct launch *l, void **args, uint32_t kernel,
                     int plain) {
  int device = current_device(ops);
  void *start, *end;
  lock();
  int full = st.num_pending == MAX_PENDING;
  unlock();
  if (full)
    drain_oldest(ops);
  lock();
  if (plain && st.kernels[kernel].plain_started++ == 0)
    plain = 2;
  int timed =
      start_timing(ops, l->stream, device, l->capture, &start, &end) == 0;
  unlock();
  int err = real(handle, l->grid_xy, l->grid_z, l->block_xy, l->block_z, args,
                 l->shmem, l->stream);
  if (timed) {
    lock();
    end_timing(ops, l->stream, device, start, end, l->id, kernel, err == 0,
               plain);
    unlock();
  } else if (err == 0) {
    lock();
    ++st.untimed;
    unlock();
  }
  return err;
}

/* A working-set launch; *tracked says whether it was one after all. kc is
 * a copy of the kernel's entry (the table may move under other threads). */
static int run_ws(ops_t *ops, pasta__launch_fn real, const struct kernel *kc,
                  uint32_t kernel, const struct launch *l, uint64_t id,
                  int *tracked) {
  *tracked = 0;
  if (l->capture != CAPTURE_NONE) {
    /* Into a graph: no synchronous calls or waits allowed; count only. */
    lock();
    ++st.ws_skipped;
    unlock();
    return run_timed(ops, real, l->fn, l, l->args, kernel, 0);
  }
  pthread_mutex_lock(&ws_mu);
  struct ws_buffers *b = &ws_dev[current_device(ops)];
  struct ws_snapshot s;
  lock();
  int ok = ws_snapshot(&s) == 0;
  uint64_t generation = st.generation;
  int nparams = kc->nparams;
  const void *handle = kc->ws;
  unlock();
  void **args = ok ? malloc(((size_t)nparams + 1) * sizeof *args) : NULL;
  int err;
  if (!args || ws_prepare(ops, b, &s, generation, l->stream)) {
    ops->get_last_error();
    lock();
    ++st.ws_skipped;
    if (!st.warned_ws)
      fprintf(stderr, "pasta: warning: cannot set up working-set tracking "
                      "(out of memory?); launches run without it\n");
    st.warned_ws = 1;
    unlock();
    err = run_timed(ops, real, l->fn, l, l->args, kernel, 0);
  } else {
    memcpy(args, l->args, (size_t)nparams * sizeof *args);
    void *header = b->header;
    args[nparams] = &header;
    if (ws_send_header(ops, b, &s, kc, l->args, l->stream)) {
      ops->get_last_error();
      err = run_timed(ops, real, l->fn, l, l->args, kernel, 0);
      lock();
      ++st.ws_skipped;
      unlock();
      goto done;
    }
    err = run_timed(ops, real, handle, l, args, kernel, 0);
    if (err == 0 && ws_read_back(ops, b, l->stream) == 0 &&
        ws_collect(ops, b, &s, kernel, id) == 0)
      *tracked = 1;
    else if (err == 0) {
      lock();
      ++st.ws_skipped;
      unlock();
    }
  }
done:
  free(args);
  ws_snapshot_free(&s);
  pthread_mutex_unlock(&ws_mu);
  return err;
}

/*===-- Trace launches ----------------------------------------------------===*/

/* One GPU's trace buffers: the launch header and the records (device
 * memory, owned by the runtime) and their host copies. */
struct trace_buffers {
  void *header, *records;
  struct pasta_trace_launch *host_header; /* pinned when possible */
  struct pasta_trace_record *host_records;
  uint32_t capacity;
  int pinned, ready, failed;
};

/* One traced launch at a time, as for working sets. */
static pthread_mutex_t trace_mu = PTHREAD_MUTEX_INITIALIZER;
static struct trace_buffers trace_dev[PASTA_MAX_DEVICES];

static int trace_setup(ops_t *ops, struct trace_buffers *b) {
  if (b->ready || b->failed)
    return b->failed ? -1 : 0;
  b->capacity = pasta__trace_capacity();
  size_t bytes = (size_t)b->capacity * sizeof *b->host_records;
  b->pinned =
      ops->host_alloc &&
      ops->host_alloc((void **)&b->host_header, sizeof *b->host_header, 0) == 0;
  if (!b->pinned)
    b->host_header = malloc(sizeof *b->host_header);
  b->host_records = malloc(bytes);
  if (!b->host_header || !b->host_records ||
      ops->malloc(&b->header, sizeof *b->host_header) ||
      ops->malloc(&b->records, bytes)) {
    ops->get_last_error();
    b->failed = 1;
    fprintf(stderr,
            "pasta: warning: cannot allocate %zu bytes for trace records "
            "(lower PASTA_TRACE_RECORDS); launches run without tracing\n",
            bytes);
    return -1;
  }
  b->ready = 1;
  return 0;
}

/* Every PASTA_TRACE_WARPS-th part of the grid's warps records (64-wide
 * wavefronts on AMD GPUs: RDNA's 32-wide ones get twice the samples). */
static uint32_t trace_stride(ops_t *ops, const struct launch *l) {
  uint64_t blocks =
      (uint64_t)(uint32_t)l->grid_xy * (uint32_t)(l->grid_xy >> 32) * l->grid_z;
  uint64_t threads = (uint64_t)(uint32_t)l->block_xy *
                     (uint32_t)(l->block_xy >> 32) * l->block_z;
  uint64_t lanes = ops->vendor == PASTA_VENDOR_HIP ? 64 : 32;
  uint64_t warps = blocks * ((threads + lanes - 1) / lanes);
  uint64_t stride = warps / pasta__trace_warps();
  return stride ? (uint32_t)(stride < UINT32_MAX ? stride : UINT32_MAX) : 1;
}

/* A traced launch: header up, the trace copy, header and records back.
 * *traced says whether it was one after all. */
static int run_trace(ops_t *ops, pasta__launch_fn real, const struct kernel *kc,
                     uint32_t kernel, const struct launch *l, int *traced) {
  *traced = 0;
  if (l->capture != CAPTURE_NONE) /* into a graph: no waits allowed */
    return run_timed(ops, real, l->fn, l, l->args, kernel, 0);
  pthread_mutex_lock(&trace_mu);
  struct trace_buffers *b = &trace_dev[current_device(ops)];
  void **args = malloc(((size_t)kc->nparams + 1) * sizeof *args);
  int err;
  if (!args || trace_setup(ops, b)) {
    err = run_timed(ops, real, l->fn, l, l->args, kernel, 0);
    goto done;
  }
  *b->host_header = (struct pasta_trace_launch){
      (uint64_t)(uintptr_t)b->records, 0, b->capacity, trace_stride(ops, l)};
  if (ops->memcpy_async(b->header, b->host_header, sizeof *b->host_header,
                        PASTA_MEMCPY_HOST_TO_DEVICE, l->stream)) {
    ops->get_last_error();
    err = run_timed(ops, real, l->fn, l, l->args, kernel, 0);
    goto done;
  }
  memcpy(args, l->args, (size_t)kc->nparams * sizeof *args);
  void *header = b->header;
  args[kc->nparams] = &header;
  /* The host clock before the launch bounds the device clock's offset only
   * if nothing else is queued ahead of it on the stream. */
  if (ops->stream_synchronize(l->stream))
    ops->get_last_error();
  uint64_t before = pasta__trace_now();
  err = run_timed(ops, real, kc->trace, l, args, kernel, 0);
  if (err)
    goto done;
  if (ops->memcpy_async(b->host_header, b->header, sizeof *b->host_header,
                        PASTA_MEMCPY_DEVICE_TO_HOST, l->stream) ||
      ops->stream_synchronize(l->stream)) {
    ops->get_last_error();
    goto done;
  }
  uint64_t after = pasta__trace_now();
  uint64_t head = b->host_header->head;
  uint64_t stored = head < b->capacity ? head : b->capacity;
  if (stored &&
      ops->memcpy(b->host_records, b->records, stored * sizeof *b->host_records,
                  PASTA_MEMCPY_DEVICE_TO_HOST)) {
    ops->get_last_error();
    goto done;
  }
  pasta__trace_records(l->id, kc->mangled, kc->module, b->host_records, stored,
                       head, before, after);
  *traced = 1;
done:
  free(args);
  pthread_mutex_unlock(&trace_mu);
  return err;
}

/* Trace mode: the launch as a C.A.T.S. event, with the allocations its
 * pointer parameters point into. */
static void trace_launch(const struct kernel *kc, const struct launch *l,
                         uint64_t t) {
  uint64_t ids[64];
  uint32_t n = kc->nparams > 0 ? (uint32_t)kc->nparams : 0;
  n = n < 64 ? n : 64;
  lock();
  for (uint32_t k = 0; k < n; ++k) {
    ids[k] = UINT64_MAX;
    if (!(kc->pointer_params >> k & 1) || !l->args || !l->args[k])
      continue;
    void *ptr;
    memcpy(&ptr, l->args[k], sizeof ptr);
    const struct allocation *a = allocation_at((uint64_t)(uintptr_t)ptr);
    if (a)
      ids[k] = a->id;
  }
  unlock();
  pasta__trace_launch(l->id, kc->mangled, kc->module, ids, n, l->site, t);
}

/* A variant the vendor refused (not in the device code: the host and device
 * compiles disagreed on PASTA_KERNELS; or more registers than the launch
 * allows): the error is ours, not the program's. Clear it, run the
 * original, and stop using the variant when the original ran. */
static int retry_original(ops_t *ops, pasta__launch_fn real,
                          const struct launch *l, uint32_t kernel,
                          enum variant *v) {
  ops->get_last_error();
  int err = run_timed(ops, real, l->fn, l, l->args, kernel, 0);
  if (err)
    return err; /* the program's own launch fails too: its error */
  lock();
  struct kernel *k = &st.kernels[kernel];
  if (*v == RUN_PLAIN)
    k->plain = NULL;
  else if (*v == RUN_TRACE)
    k->trace = NULL;
  else
    k->ws = NULL;
  if (!st.warned_variant)
    fprintf(stderr,
            "pasta: warning: the %s copy of kernel '%s' cannot be launched; "
            "its launches run the counting kernel\n",
            *v == RUN_PLAIN   ? "plain"
            : *v == RUN_TRACE ? "trace"
                              : "working-set",
            k->mangled ? k->mangled : "?");
  st.warned_variant = 1;
  unlock();
  *v = RUN_COUNTING;
  return 0;
}

/* cudaErrorLaunchOutOfResources and hipErrorLaunchOutOfResources: the
 * block needs more registers than the GPU has for it. */
enum { LAUNCH_OUT_OF_RESOURCES = 701 };

static void unpack_dims(uint64_t xy, uint32_t z, uint32_t out[3]);

/* The counting copy of a kernel needs more registers than its plain one;
 * a block of many threads may not fit at all. The program's launch must
 * still run: its plain copy does, uncounted, and the user is told once per
 * kernel. Returns the plain launch's error (0 when it ran). */
static int retry_plain(ops_t *ops, pasta__launch_fn real,
                       const struct launch *l, uint32_t kernel,
                       const void *plain, enum variant *v) {
  ops->get_last_error();
  int err = run_timed(ops, real, plain, l, l->args, kernel, 1);
  if (err)
    return err;
  uint32_t block[3];
  unpack_dims(l->block_xy, l->block_z, block);
  lock();
  struct kernel *k = &st.kernels[kernel];
  if (!k->warned_resources)
    fprintf(stderr,
            "pasta: warning: the counting copy of kernel '%s' needs more "
            "registers than a block of %u threads can have; its plain copy "
            "ran instead, and such launches are not counted "
            "(docs/user-guide.md, \"Launches that are not counted\")\n",
            k->mangled ? k->mangled : "?", block[0] * block[1] * block[2]);
  k->warned_resources = 1;
  unlock();
  *v = RUN_PLAIN;
  return 0;
}

static void read_peaks(ops_t *ops, int device, pasta_device_peaks *p);

/* After a launch on `device` returned: the vendor runtime is up (the
 * report's exit handler can be ordered before its teardown) and the GPU is
 * in use, so its properties are read now, never at exit. */
static void after_launch(ops_t *ops, int device) {
  pasta__arm_exit();
  lock();
  int have = (st.have_peaks >> device) & 1;
  unlock();
  if (have)
    return;
  pasta_device_peaks p;
  read_peaks(ops, device, &p);
  lock();
  st.peaks[device] = p;
  st.have_peaks |= UINT64_C(1) << device;
  unlock();
}

static void unpack_dims(uint64_t xy, uint32_t z, uint32_t out[3]) {
  out[0] = (uint32_t)xy;
  out[1] = (uint32_t)(xy >> 32);
  out[2] = z;
}

/* A launch into a stream being captured into a graph: the counting kernel
 * goes into the graph (launch windows and sampling are per launch, which a
 * graph replays), and the launches are recorded when the graph runs. */
static int launch_into_graph(const struct launch *l, pasta__launch_fn real,
                             ops_t *ops) {
  int err = real(l->fn, l->grid_xy, l->grid_z, l->block_xy, l->block_z, l->args,
                 l->shmem, l->stream);
  lock();
  note_call(ops);
  unlock();
  return err;
}

static int launch(const struct launch *call, pasta__launch_fn real,
                  ops_t *ops) {
  options();
  uint64_t t0 = pasta__trace_now();
  struct launch this_launch = *call;
  struct launch *l = &this_launch;
  l->capture = capture_state(ops, l->stream);
  if (l->capture == CAPTURE_INTO_GRAPH)
    return launch_into_graph(l, real, ops);
  void *frames[MAX_DEPTH + 1];
  uint32_t depth = capture(frames);
  lock();
  note_ops(ops);
  /* A driver handle launches the kernel it was taken from, counting (its
   * copies have no handle of their own): recorded under that kernel. */
  struct kernel *k = handle_kernel(l->fn);
  int driver_handle = k != NULL;
  if (!k)
    k = kernel_of(l->fn);
  uint64_t id = st.next_launch++;
  l->id = id;
  enum variant v = !k || driver_handle ? RUN_COUNTING : choose_variant(k, id);
  size_t paths_before = st.num_paths;
  uint32_t path = k ? path_id(frames, depth) : UINT32_MAX;
  int new_path = st.num_paths > paths_before;
  uint32_t index = k ? (uint32_t)(k - st.kernels) : 0;
  const void *plain = k ? k->plain : NULL;
  struct kernel view;
  if (k)
    view = *k;
  unlock();
  if (new_path)
    locate_path(path, frames, depth);
  if (!k) /* out of memory: no bookkeeping at all */
    return real(l->fn, l->grid_xy, l->grid_z, l->block_xy, l->block_z, l->args,
                l->shmem, l->stream);

  int err, tracked = 0;
  if (pasta__trace_on())
    trace_launch(&view, l, t0);
  if (v == RUN_WS)
    err = run_ws(ops, real, &view, index, l, id, &tracked);
  else if (v == RUN_TRACE)
    err = run_trace(ops, real, &view, index, l, &tracked);
  else
    err = run_timed(ops, real, v == RUN_PLAIN ? plain : l->fn, l, l->args,
                    index, v == RUN_PLAIN);
  if (err && v != RUN_COUNTING)
    err = retry_original(ops, real, l, index, &v);
  else if (err == LAUNCH_OUT_OF_RESOURCES && plain && !driver_handle)
    err = retry_plain(ops, real, l, index, plain, &v);

  uint32_t grid[3], block[3];
  unpack_dims(l->grid_xy, l->grid_z, grid);
  unpack_dims(l->block_xy, l->block_z, block);
  int device = current_device(ops);
  uint64_t bit = UINT64_C(1) << device;
  if (!err)
    after_launch(ops, device);
  lock();
  k = &st.kernels[index]; /* the array may have moved */
  int first_here = !err && !(k->ran_on & bit);
  if (first_here)
    k->ran_on |= bit;
  const void *module = k->module;
  st.last_kernel = index;
  if (is_fault(err)) {
    struct pending self = {0};
    self.launch = id;
    self.nth = k->stats.launches + 1;
    self.kernel = index;
    note_fault(ops, err, &self, 1);
  }
  ++k->stats.launches;
  if (err)
    ++k->stats.failed;
  else if (v != RUN_PLAIN)
    ++k->stats.counted;
  count_shape(k, grid, block, l->shmem);
  count_path(k, path);
  pasta_launch_event e = {id,       k->mangled, l->fn,  {0}, {0},
                          l->shmem, l->stream,  (int)v, err};
  unlock();
  memcpy(e.grid, grid, sizeof grid);
  memcpy(e.block, block, sizeof block);
  if (first_here)
    pasta__module_launched(module, device);
  pasta__notify_launch(&e);
  pasta__trace_api("launch", t0, pasta__trace_now(), id + 1);
  return err;
}

PASTA_ABI int __pasta_launch_kernel(const void *fn, uint64_t grid_xy,
                                    uint32_t grid_z, uint64_t block_xy,
                                    uint32_t block_z, void **args,
                                    uint64_t shmem, void *stream,
                                    pasta__launch_fn real, ops_t *ops) {
  struct launch l = {fn,    grid_xy, grid_z, block_xy, block_z, args,
                     shmem, stream,  SITE,   0,        0};
  return launch(&l, real, ops);
}

/* hipLaunchCooperativeKernel: the shared-memory size is an unsigned int;
 * `real` is called through an adapter that narrows it back. */
typedef int (*pasta__launch32_fn)(const void *, uint64_t, uint32_t, uint64_t,
                                  uint32_t, void **, uint32_t, void *);
static __thread pasta__launch32_fn shm32_real;

static int launch_shm32_adapter(const void *handle, uint64_t gxy, uint32_t gz,
                                uint64_t bxy, uint32_t bz, void **args,
                                uint64_t shmem, void *stream) {
  return shm32_real(handle, gxy, gz, bxy, bz, args, (uint32_t)shmem, stream);
}

PASTA_ABI int __pasta_launch_kernel_shm32(const void *fn, uint64_t grid_xy,
                                          uint32_t grid_z, uint64_t block_xy,
                                          uint32_t block_z, void **args,
                                          uint32_t shmem, void *stream,
                                          pasta__launch32_fn real, ops_t *ops) {
  struct launch l = {fn,    grid_xy, grid_z, block_xy, block_z, args,
                     shmem, stream,  SITE,   0,        0};
  pasta__launch32_fn saved = shm32_real;
  shm32_real = real;
  int err = launch(&l, launch_shm32_adapter, ops);
  shm32_real = saved;
  return err;
}

/* hipModuleLaunchKernel: a kernel loaded from a code object at run time.
 * The plugin never saw it, so it has no copies and no counters: the launch
 * is recorded (shape, time, call path) under an unnamed kernel. */
typedef int (*pasta__module_launch_fn)(const void *, uint32_t, uint32_t,
                                       uint32_t, uint32_t, uint32_t, uint32_t,
                                       uint32_t, void *, void **, void **);
static __thread pasta__module_launch_fn module_real;
static __thread void **module_extra;

static int module_launch_adapter(const void *handle, uint64_t gxy, uint32_t gz,
                                 uint64_t bxy, uint32_t bz, void **args,
                                 uint64_t shmem, void *stream) {
  return module_real(handle, (uint32_t)gxy, (uint32_t)(gxy >> 32), gz,
                     (uint32_t)bxy, (uint32_t)(bxy >> 32), bz, (uint32_t)shmem,
                     stream, args, module_extra);
}

/* The vendor functions for a driver API call from code that does not call
 * the CUDA runtime (its table is NULL: the program may not link cudart):
 * another module's, or none. */
static ops_t *ops_or_known(ops_t *ops) {
  if (ops)
    return ops;
  lock();
  ops = st.ops;
  unlock();
  return ops;
}

PASTA_ABI int __pasta_module_launch_kernel(
    const void *f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx,
    uint32_t by, uint32_t bz, uint32_t shmem, void *stream, void **params,
    void **extra, pasta__module_launch_fn real, ops_t *ops) {
  ops = ops_or_known(ops);
  if (!ops) /* a program of the driver API only: nothing to time with */
    return real(f, gx, gy, gz, bx, by, bz, shmem, stream, params, extra);
  struct launch l = {f,     gx | (uint64_t)gy << 32,
                     gz,    bx | (uint64_t)by << 32,
                     bz,    params,
                     shmem, stream,
                     SITE,  0,
                     0};
  pasta__module_launch_fn saved_real = module_real;
  void **saved_extra = module_extra;
  module_real = real;
  module_extra = extra;
  int err = launch(&l, module_launch_adapter, ops);
  module_real = saved_real;
  module_extra = saved_extra;
  return err;
}

/*===-- Driver handles ----------------------------------------------------===*/

/* Records that the driver handle `handle` (a CUfunction or CUkernel) stands
 * for the kernel `of` is a handle of, so that its launches are recorded
 * under that kernel and counted in its module. Lock held. */
static void name_handle(const void *handle, const void *of) {
  struct kernel *k = find_kernel(of);
  if (!k)
    k = handle_kernel(of); /* cuKernelGetFunction(&f, a CUkernel) */
  const struct kernel *same = find_kernel(handle);
  if (!k || !handle || handle == of || (same && same->mangled))
    return; /* a registered kernel's own handle */
  uint32_t index = (uint32_t)(k - st.kernels);
  for (size_t i = 0; i < st.num_handles; ++i)
    if (st.handles[i].handle == handle) {
      st.handles[i].kernel = index; /* the driver reused the handle */
      return;
    }
  if (!GROW(st.handles, st.cap_handles, st.num_handles))
    st.handles[st.num_handles++] = (struct driver_handle){handle, index};
}

typedef int (*pasta__get_handle_fn)(void **, const void *);

/* cudaGetFuncBySymbol(&f, kernel), cudaGetKernel(&k, kernel) and
 * cuKernelGetFunction(&f, k): launches of the handle (cuLaunchKernel) are
 * those of the program's kernel; they run its counting code. */
PASTA_ABI int __pasta_get_func_by_symbol(void **handle, const void *of,
                                         pasta__get_handle_fn real,
                                         ops_t *ops) {
  int err = real(handle, of);
  lock();
  note_call(ops);
  if (!err && handle)
    name_handle(*handle, of);
  unlock();
  return err;
}

/* cuLaunchKernel taken as a pointer (cudaGetDriverEntryPoint*,
 * cuGetProcAddress), as libraries that do not link libcuda call the
 * driver: the program gets an entry point of PASTA's that records the
 * launch and calls the driver's. One per distinct driver function (the
 * per-thread default stream's is another); a third is handed out as is. */
enum { ENTRY_SLOTS = 2 };
static struct {
  pasta__module_launch_fn real;
  ops_t *ops;
} entry_slots[ENTRY_SLOTS];

#define ENTRY_LAUNCH(n)                                                        \
  static int entry_launch_##n(const void *f, uint32_t gx, uint32_t gy,         \
                              uint32_t gz, uint32_t bx, uint32_t by,           \
                              uint32_t bz, uint32_t shmem, void *stream,       \
                              void **params, void **extra) {                   \
    return __pasta_module_launch_kernel(                                       \
        f, gx, gy, gz, bx, by, bz, shmem, stream, params, extra,               \
        entry_slots[n].real, entry_slots[n].ops);                              \
  }
ENTRY_LAUNCH(0)
ENTRY_LAUNCH(1)
static const pasta__module_launch_fn entry_launches[ENTRY_SLOTS] = {
    entry_launch_0, entry_launch_1};

static int is_launch_symbol(const char *symbol) {
  return symbol && (strcmp(symbol, "cuLaunchKernel") == 0 ||
                    strcmp(symbol, "cuLaunchKernel_ptsz") == 0);
}

/* *fn, the driver's cuLaunchKernel, becomes one of PASTA's entry points. */
static void wrap_entry_point(void **fn, ops_t *ops) {
  lock();
  note_call(ops);
  for (size_t i = 0; i < ENTRY_SLOTS; ++i) {
    if (!entry_slots[i].real) {
      entry_slots[i].real = (pasta__module_launch_fn)*fn;
      entry_slots[i].ops = ops;
    }
    if (entry_slots[i].real == (pasta__module_launch_fn)*fn) {
      *fn = (void *)entry_launches[i];
      break;
    }
  }
  unlock();
}

/* cudaGetDriverEntryPoint(symbol, &fn, flags, &status). */
PASTA_ABI int __pasta_get_driver_entry_point(
    const char *symbol, void **fn, uint64_t flags, void *status,
    int (*real)(const char *, void **, uint64_t, void *), ops_t *ops) {
  int err = real(symbol, fn, flags, status);
  if (!err && fn && *fn && is_launch_symbol(symbol))
    wrap_entry_point(fn, ops);
  return err;
}

/* cudaGetDriverEntryPointByVersion(symbol, &fn, version, flags, &status)
 * and cuGetProcAddress_v2, which take the same arguments. */
PASTA_ABI int __pasta_get_driver_entry_point_by_version(
    const char *symbol, void **fn, uint32_t version, uint64_t flags,
    void *status,
    int (*real)(const char *, void **, uint32_t, uint64_t, void *),
    ops_t *ops) {
  int err = real(symbol, fn, version, flags, status);
  if (!err && fn && *fn && is_launch_symbol(symbol))
    wrap_entry_point(fn, ops);
  return err;
}

/* cudaLaunchKernelExC(const cudaLaunchConfig_t *, func, args): the
 * configuration's leading fields, as the CUDA runtime lays them out. */
struct pasta__launch_config {
  uint32_t grid[3], block[3];
  uint64_t shmem;
  void *stream;
};

typedef int (*pasta__launch_ex_fn)(const void *, const void *, void **);

/* For the ex form, `real` is called through a small adapter: the config is
 * copied with its dimensions, so only the handle and arguments change. */
static __thread pasta__launch_ex_fn ex_real;
static __thread const void *ex_config;

static int launch_ex_adapter(const void *handle, uint64_t gxy, uint32_t gz,
                             uint64_t bxy, uint32_t bz, void **args,
                             uint64_t shmem, void *stream) {
  (void)gxy, (void)gz, (void)bxy, (void)bz, (void)shmem, (void)stream;
  return ex_real(ex_config, handle, args);
}

PASTA_ABI int __pasta_launch_kernel_ex(const void *config, const void *fn,
                                       void **args, pasta__launch_ex_fn real,
                                       ops_t *ops) {
  if (!config)
    return real(config, fn, args);
  const struct pasta__launch_config *c = config;
  struct launch l = {fn,
                     c->grid[0] | (uint64_t)c->grid[1] << 32,
                     c->grid[2],
                     c->block[0] | (uint64_t)c->block[1] << 32,
                     c->block[2],
                     args,
                     c->shmem,
                     c->stream,
                     SITE,
                     0,
                     0};
  pasta__launch_ex_fn saved_real = ex_real;
  const void *saved_config = ex_config;
  ex_real = real;
  ex_config = config;
  int err = launch(&l, launch_ex_adapter, ops);
  ex_real = saved_real;
  ex_config = saved_config;
  return err;
}

/*===-- Graphs ------------------------------------------------------------===*
 *
 * A graph's kernels are launched by the vendor when the graph is, with no
 * call PASTA sees per kernel. So the kernel nodes of each graph are read
 * when it is instantiated (or its instance updated), and each launch of
 * the instance is recorded as one launch of each of its kernel nodes:
 * count, shape and the call path of the graph launch. Launches captured
 * from a stream are not recorded when captured (they do not run then).
 * Graph launches are not timed: the vendor gives no event per node.
 *===----------------------------------------------------------------------===*/

/* Kernel-node parameters as each vendor lays them out
 * (cudaKernelNodeParams, hipKernelNodeParams). */
struct cuda_kernel_node {
  void *func;
  uint32_t grid[3], block[3];
  uint32_t shmem;
  void **params, **extra;
};
struct hip_kernel_node {
  uint32_t block[3];
  void **extra;
  void *func;
  uint32_t grid[3];
  void **params;
  uint32_t shmem;
};

/* cudaGraphNodeType and hipGraphNodeType differ. */
enum {
  CUDA_NODE_KERNEL = 0,
  CUDA_NODE_GRAPH = 4,
  HIP_NODE_KERNEL = 1,
  HIP_NODE_GRAPH = 5,
  GRAPH_NESTING = 8 /* child graphs followed this deep */
};

struct raw_node {
  const void *func;
  uint32_t grid[3], block[3];
  uint64_t shmem;
};

static int read_kernel_node(ops_t *ops, void *node, struct raw_node *out) {
  union {
    struct cuda_kernel_node cuda;
    struct hip_kernel_node hip;
    unsigned char room[256]; /* a vendor's larger version of the struct */
  } p;
  memset(&p, 0, sizeof p);
  if (ops->graph_kernel_node_get_params(node, &p)) {
    ops->get_last_error();
    return -1;
  }
  int hip = ops->vendor == PASTA_VENDOR_HIP;
  out->func = hip ? p.hip.func : p.cuda.func;
  memcpy(out->grid, hip ? p.hip.grid : p.cuda.grid, sizeof out->grid);
  memcpy(out->block, hip ? p.hip.block : p.cuda.block, sizeof out->block);
  out->shmem = hip ? p.hip.shmem : p.cuda.shmem;
  return 0;
}

struct raw_nodes {
  struct raw_node *at;
  size_t num, cap;
  int failed; /* a node or graph could not be read */
};

/* Appends the kernel nodes of `graph` and of the graphs nested in it. */
static void collect_nodes(ops_t *ops, void *graph, unsigned depth,
                          struct raw_nodes *out) {
  uint64_t n = 0;
  if (depth > GRAPH_NESTING || ops->graph_get_nodes(graph, NULL, &n)) {
    ops->get_last_error();
    out->failed = 1;
    return;
  }
  void **nodes = malloc((n ? n : 1) * sizeof *nodes);
  if (!nodes || (n && ops->graph_get_nodes(graph, nodes, &n))) {
    ops->get_last_error();
    out->failed = 1;
    free(nodes);
    return;
  }
  int hip = ops->vendor == PASTA_VENDOR_HIP;
  int kernel_type = hip ? HIP_NODE_KERNEL : CUDA_NODE_KERNEL;
  int graph_type = hip ? HIP_NODE_GRAPH : CUDA_NODE_GRAPH;
  for (uint64_t i = 0; i < n; ++i) {
    int type = -1;
    void *child = NULL;
    struct raw_node r;
    if (ops->graph_node_get_type(nodes[i], &type)) {
      ops->get_last_error();
      out->failed = 1;
    } else if (type == kernel_type) {
      if (read_kernel_node(ops, nodes[i], &r) ||
          GROW(out->at, out->cap, out->num))
        out->failed = 1;
      else
        out->at[out->num++] = r;
    } else if (type == graph_type) {
      if (ops->graph_child_graph_node_get_graph &&
          ops->graph_child_graph_node_get_graph(nodes[i], &child) == 0)
        collect_nodes(ops, child, depth + 1, out);
      else {
        ops->get_last_error();
        out->failed = 1;
      }
    }
  }
  free(nodes);
}

/* The kernel a node's function is: a registered kernel, one of its copies,
 * or a driver handle of one; else an unnamed entry. Lock held. */
static struct kernel *node_kernel(const void *func, int *plain) {
  *plain = 0;
  struct kernel *k = find_kernel(func);
  for (size_t i = 0; !k && i < st.num_kernels; ++i) {
    struct kernel *c = &st.kernels[i];
    if (c->plain == func || c->ws == func || c->trace == func) {
      k = c;
      *plain = c->plain == func;
    }
  }
  if (!k)
    k = handle_kernel(func);
  if (!k)
    k = kernel_of(func);
  return k;
}

static struct graph_exec *find_graph(const void *exec) {
  for (size_t i = 0; i < st.num_graphs; ++i)
    if (st.graphs[i].exec == exec)
      return &st.graphs[i];
  return NULL;
}

/* Reads the kernel nodes of `graph`, instantiated as `exec`. */
static void remember_graph(ops_t *ops, const void *exec, void *graph) {
  if (!exec || !graph || !ops->graph_get_nodes || !ops->graph_node_get_type ||
      !ops->graph_kernel_node_get_params)
    return;
  struct raw_nodes raw = {0};
  collect_nodes(ops, graph, 0, &raw);
  lock();
  note_call(ops);
  struct graph_exec *g = find_graph(exec);
  if (!g && !GROW(st.graphs, st.cap_graphs, st.num_graphs)) {
    g = &st.graphs[st.num_graphs++];
    *g = (struct graph_exec){exec, NULL, 0};
  }
  struct graph_node *nodes = malloc((raw.num ? raw.num : 1) * sizeof *nodes);
  if (g && nodes) {
    for (size_t i = 0; i < raw.num; ++i) {
      struct graph_node *n = &nodes[i];
      struct kernel *k = node_kernel(raw.at[i].func, &n->plain);
      if (!k) {
        raw.failed = 1;
        break;
      }
      n->kernel = (uint32_t)(k - st.kernels);
      memcpy(n->grid, raw.at[i].grid, sizeof n->grid);
      memcpy(n->block, raw.at[i].block, sizeof n->block);
      n->shmem = raw.at[i].shmem;
      g->num_nodes = i + 1;
    }
    free(g->nodes);
    g->nodes = nodes;
    nodes = NULL;
  }
  int warn = (raw.failed || !g) && !st.warned_graph;
  st.warned_graph |= warn;
  unlock();
  free(nodes);
  free(raw.at);
  if (warn)
    fprintf(stderr, "pasta: warning: cannot read every kernel node of a graph "
                    "the program instantiated; the launch table leaves those "
                    "nodes out (their device counts are kept)\n");
}

typedef int (*pasta__graph_instantiate_fn)(void **, void *, uint64_t);

/* cudaGraphInstantiate(&exec, graph, flags), ...WithFlags and
 * hipGraphInstantiateWithFlags. */
PASTA_ABI int __pasta_graph_instantiate(void **exec, void *graph,
                                        uint64_t flags,
                                        pasta__graph_instantiate_fn real,
                                        ops_t *ops) {
  int err = real(exec, graph, flags);
  if (!err && exec)
    remember_graph(ops, *exec, graph);
  return err;
}

/* cudaGraphInstantiateWithParams(&exec, graph, params). */
PASTA_ABI int
__pasta_graph_instantiate_params(void **exec, void *graph, void *params,
                                 int (*real)(void **, void *, void *),
                                 ops_t *ops) {
  int err = real(exec, graph, params);
  if (!err && exec)
    remember_graph(ops, *exec, graph);
  return err;
}

/* hipGraphInstantiate(&exec, graph, &error_node, log, log_size). */
PASTA_ABI int __pasta_hip_graph_instantiate(
    void **exec, void *graph, void *error_node, char *log, uint64_t log_size,
    int (*real)(void **, void *, void *, char *, uint64_t), ops_t *ops) {
  int err = real(exec, graph, error_node, log, log_size);
  if (!err && exec)
    remember_graph(ops, *exec, graph);
  return err;
}

/* cudaGraphExecUpdate(exec, graph, &info): the instance now runs graph's
 * kernel nodes. */
PASTA_ABI int __pasta_graph_exec_update(void *exec, void *graph, void *info,
                                        int (*real)(void *, void *, void *),
                                        ops_t *ops) {
  int err = real(exec, graph, info);
  if (!err)
    remember_graph(ops, exec, graph);
  return err;
}

/* hipGraphExecUpdate(exec, graph, &error_node, &result). */
PASTA_ABI int __pasta_hip_graph_exec_update(
    void *exec, void *graph, void *error_node, void *result,
    int (*real)(void *, void *, void *, void *), ops_t *ops) {
  int err = real(exec, graph, error_node, result);
  if (!err)
    remember_graph(ops, exec, graph);
  return err;
}

/* One launch of graph instance `exec`: a launch of each kernel node. */
static void record_graph_launch(ops_t *ops, const void *exec, void *stream,
                                void *const *frames, uint32_t depth, int err,
                                int device) {
  uint64_t bit = UINT64_C(1) << device;
  lock();
  struct graph_exec *g = find_graph(exec);
  if (!g || !g->num_nodes) {
    int warn = !g && !st.warned_graph;
    st.warned_graph |= warn;
    st.unknown_graph_launches += !g;
    unlock();
    if (warn)
      fprintf(stderr, "pasta: warning: the program launched a graph that was "
                      "instantiated in code not compiled with the plugin; "
                      "the launch table leaves its kernels out (their device "
                      "counts are kept)\n");
    return;
  }
  size_t n = g->num_nodes;
  pasta_launch_event *events = malloc(n * sizeof *events);
  const void **modules = malloc(n * sizeof *modules);
  size_t num_modules = 0;
  size_t paths_before = st.num_paths;
  uint32_t path = path_id(frames, depth);
  int new_path = st.num_paths > paths_before;
  for (size_t i = 0; i < n; ++i) {
    const struct graph_node *node = &g->nodes[i];
    struct kernel *k = &st.kernels[node->kernel];
    uint64_t id = st.next_launch++;
    if (is_fault(err) && i == 0) {
      struct pending self = {0};
      self.launch = id;
      self.nth = k->stats.launches + 1;
      self.kernel = node->kernel;
      note_fault(ops, err, &self, 0);
    }
    ++k->stats.launches;
    if (err)
      ++k->stats.failed;
    else if (!node->plain)
      ++k->stats.counted;
    ++st.untimed;
    count_shape(k, node->grid, node->block, node->shmem);
    count_path(k, path);
    if (!err && !(k->ran_on & bit)) {
      k->ran_on |= bit;
      if (modules)
        modules[num_modules++] = k->module;
    }
    st.last_kernel = node->kernel;
    if (events) {
      events[i] = (pasta_launch_event){
          id,        k->mangled,
          k->handle, {0},
          {0},       node->shmem,
          stream,    node->plain ? PASTA_RUN_PLAIN : PASTA_RUN_COUNTING,
          err};
      memcpy(events[i].grid, node->grid, sizeof node->grid);
      memcpy(events[i].block, node->block, sizeof node->block);
    }
  }
  unlock();
  if (new_path)
    locate_path(path, frames, depth);
  for (size_t i = 0; i < num_modules; ++i)
    pasta__module_launched(modules[i], device);
  for (size_t i = 0; events && i < n; ++i)
    pasta__notify_launch(&events[i]);
  free(modules);
  free(events);
}

/* cudaGraphLaunch(exec, stream) and hipGraphLaunch. */
PASTA_ABI int __pasta_graph_launch(void *exec, void *stream,
                                   int (*real)(void *, void *), ops_t *ops) {
  options();
  uint64_t t0 = pasta__trace_now();
  if (capture_state(ops, stream) == CAPTURE_INTO_GRAPH)
    return real(exec, stream); /* into another graph: recorded with it */
  void *frames[MAX_DEPTH + 1];
  uint32_t depth = capture(frames);
  int err = real(exec, stream);
  int device = current_device(ops);
  if (!err)
    after_launch(ops, device);
  else {
    lock();
    note_call(ops);
    unlock();
  }
  record_graph_launch(ops, exec, stream, frames, depth, err, device);
  pasta__trace_api("graph launch", t0, pasta__trace_now(), 0);
  return err;
}

/*===-- Report ------------------------------------------------------------===*/

int pasta__activity_seen(void) {
  lock();
  int seen = st.seen;
  unlock();
  return seen;
}

void pasta__activity_before_reset(void) {
  lock();
  ops_t *ops = st.ops;
  if (!ops) {
    unlock();
    return;
  }
  int device = current_device(ops);
  harvest(ops, device, 1, NULL);
  for (size_t i = 0; i < st.num_kernels; ++i)
    st.kernels[i].ran_on &= ~(UINT64_C(1) << device);
  for (size_t i = st.num_pool; i-- > 0;)
    if (st.pool[i].device == device) {
      ops->event_destroy(st.pool[i].event);
      st.pool[i] = st.pool[--st.num_pool];
    }
  for (size_t i = st.num_live; i-- > 0;)
    if (st.live[i].device == device)
      drop_live(i); /* the reset frees them */
  unlock();
  pthread_mutex_lock(&ws_mu);
  ws_release(ops, &ws_dev[device]);
  pthread_mutex_unlock(&ws_mu);
}

void pasta__activity_module_gone(ops_t *ops) {
  lock();
  if (st.ops == ops) {
    harvest(ops, -1, 1, NULL);
    for (size_t i = st.num_pool; i-- > 0;)
      ops->event_destroy(st.pool[i].event);
    st.num_pool = 0;
    st.ops = NULL; /* its code is about to go */
  }
  unlock();
}

int pasta__activity_fault(char *buf, size_t size) {
  lock();
  if (st.ops)
    harvest(st.ops, -1, 1, NULL); /* the waits say which launch failed */
  int seen = st.fault.seen;
  if (seen) {
    char name[256] = "?";
    uint32_t kernel =
        st.fault.exact ? st.fault.kernel : (uint32_t)st.last_kernel;
    char *display = kernel < st.num_kernels && st.kernels[kernel].mangled
                        ? pasta_display_name_dup(st.kernels[kernel].mangled)
                        : NULL;
    /* Escaped into `name`, or copied when it needs no escaping. */
    if (display && pasta_text_safe(display, name, sizeof name) == display)
      snprintf(name, sizeof name, "%s", display);
    free(display);
    if (st.fault.exact && (st.fault.definitive || st.fault.failed_waits == 1))
      snprintf(buf, size,
               "launch %" PRIu64 " (launch %" PRIu64 " of kernel '%s') "
               "failed on the GPU: %s (error %d)",
               st.fault.launch, st.fault.nth, name, st.fault.message,
               st.fault.err);
    else if (st.fault.exact)
      snprintf(buf, size,
               "launch %" PRIu64 " (launch %" PRIu64 " of kernel '%s', the "
               "first not seen to complete) or one of the %" PRIu64
               " launched after it failed on the GPU: %s (error %d); "
               "CUDA_LAUNCH_BLOCKING=1 names the one",
               st.fault.launch, st.fault.nth, name, st.fault.failed_waits - 1,
               st.fault.message, st.fault.err);
    else if (st.next_launch)
      snprintf(buf, size,
               "a launch from launch %" PRIu64 " on failed on the GPU: %s "
               "(error %d); the last was launch %" PRIu64
               " (kernel '%s'; PASTA_TIMING=1 names the one that failed)",
               st.synced_before, st.fault.message, st.fault.err,
               st.next_launch - 1, name);
    else
      snprintf(buf, size, "the GPU failed: %s (error %d)", st.fault.message,
               st.fault.err);
  }
  unlock();
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
    else if (pasta_locate((uint64_t)(uintptr_t)cp->frames[d], &loc) != 0)
      continue;
    pasta_symbol s;
    if (sym && pasta_symbolize_loc(sym, &loc, &s) == 0)
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
    const struct call_path *cp = &st.paths[k->paths[i].path];
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
    if (depth > opt.depth)
      depth = opt.depth;
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
  size_t n = st.num_kernels;
  built.kernels = calloc(n ? n : 1, sizeof *built.kernels);
  built.names = calloc(n ? n : 1, sizeof *built.names);
  built.num_frames = st.num_paths;
  built.frames = calloc(st.num_paths ? st.num_paths : 1, sizeof *built.frames);
  built.first = calloc(st.num_paths ? st.num_paths : 1, sizeof *built.first);
  if (!built.kernels || !built.names || !built.frames || !built.first)
    return -1;
  built.sym = st.num_paths ? pasta_symbolizer_open() : NULL;
  a->kernels = built.kernels;
  a->num_kernels = n;
  for (size_t i = 0; i < n; ++i) {
    const struct kernel *k = &st.kernels[i];
    pasta_activity_kernel *out = &built.kernels[i];
    *out = k->stats;
    char name[64];
    snprintf(name, sizeof name, "<unregistered kernel %p>", k->handle);
    built.names[i] =
        k->mangled ? pasta_display_name_dup(k->mangled) : strdup(name);
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
  built.blocks =
      calloc(st.num_blocks ? st.num_blocks : 1, sizeof *built.blocks);
  built.launches = calloc(st.num_hot_launches ? st.num_hot_launches : 1,
                          sizeof *built.launches);
  if (!built.blocks || !built.launches)
    return -1;
  for (size_t i = 0; i < st.num_blocks; ++i)
    built.blocks[i] = (pasta_hotness_block){
        st.blocks[i].allocation, st.blocks[i].base, st.blocks[i].block};
  /* Launch columns carry their kernel's name. */
  for (size_t i = 0; i < st.num_hot_launches; ++i) {
    built.launches[i] = st.hot_launches[i];
    for (size_t w = 0; w < st.num_ws; ++w)
      if (st.ws_launches[w].id == st.hot_launches[i].id) {
        built.launches[i].kernel = a->kernels[st.ws_launches[w].kernel].name;
        break;
      }
  }
  a->hotness = (pasta_hotness){
      PASTA_HOTNESS_BLOCK_SIZE, built.blocks, st.num_blocks, built.launches,
      st.num_hot_launches,      st.cells,     st.num_cells};
  return 0;
}

/* FMAs per clock per SM without tensor cores, by precision (f16, bf16,
 * f32, f64), for the compute capabilities PASTA knows (NVIDIA's
 * arithmetic-throughput table); 0: unknown. */
static void fmas_per_clock(int major, int minor, unsigned out[4]) {
  memset(out, 0, 4 * sizeof *out);
  if (major == 9 || (major == 8 && minor == 0)) {
    out[0] = out[1] = 256;
    out[2] = major == 9 ? 128 : 64;
    out[3] = major == 9 ? 64 : 32;
  } else if (major == 7 && minor == 0) {
    out[0] = 128;
    out[2] = 64;
    out[3] = 32;
  }
}

/* Attribute numbers: {SMs, clock, memory clock, bus width, CC major, CC
 * minor} per vendor (cudaDeviceAttr, hipDeviceAttribute_t of ROCm 5.2). */
static const int attr_ids[3][6] = {
    {0}, {16, 13, 36, 37, 75, 76}, {63, 5, 60, 59, 23, 61}};

/* Times a device-to-device copy of 256 MiB (best of 3): bytes read plus
 * written per second. 0 when it cannot. */
static double measure_d2d(ops_t *ops) {
  const uint64_t bytes = UINT64_C(256) << 20;
  void *a = NULL, *b = NULL, *e0 = NULL, *e1 = NULL;
  double best = 0;
  if (ops->malloc(&a, bytes) == 0 && ops->malloc(&b, bytes) == 0 &&
      ops->event_create(&e0) == 0 && ops->event_create(&e1) == 0) {
    for (int rep = 0; rep < 4; ++rep) { /* the first warms up */
      float ms = 0;
      if (ops->event_record(e0, NULL) ||
          ops->memcpy_async(b, a, bytes, PASTA_MEMCPY_DEVICE_TO_DEVICE, NULL) ||
          ops->event_record(e1, NULL) || ops->event_synchronize(e1) ||
          ops->event_elapsed_time(&ms, e0, e1))
        break;
      double bw = 2.0 * (double)bytes / ((double)ms * 1e-3);
      if (rep && ms > 0 && bw > best)
        best = bw;
    }
  }
  ops->get_last_error();
  if (e0)
    ops->event_destroy(e0);
  if (e1)
    ops->event_destroy(e1);
  if (a)
    ops->free(a);
  if (b)
    ops->free(b);
  return best;
}

/* GPU `device`'s properties and peaks from its attributes (no bandwidth
 * measurement). */
static void read_peaks(ops_t *ops, int device, pasta_device_peaks *p) {
  memset(p, 0, sizeof *p);
  p->device = device;
  if (!ops || !ops->device_get_attribute || ops->vendor < 1 || ops->vendor > 2)
    return;
  int *fields[6] = {&p->sm_count, &p->clock_khz, &p->mem_clock_khz,
                    &p->bus_bits, &p->cc_major,  &p->cc_minor};
  for (int i = 0; i < 6; ++i)
    if (ops->device_get_attribute(fields[i], attr_ids[ops->vendor][i],
                                  p->device))
      *fields[i] = 0;
  ops->get_last_error();
  p->bw_theoretical =
      2.0 * p->mem_clock_khz * 1e3 * (p->bus_bits / 8.0); /* double data rate */
  unsigned fma[4] = {0, 0, 0, 0};
  if (ops->vendor == PASTA_VENDOR_CUDA) /* AMD: no table yet */
    fmas_per_clock(p->cc_major, p->cc_minor, fma);
  for (int i = 0; i < 4; ++i)
    p->flops[i] = 2.0 * fma[i] * p->sm_count * p->clock_khz * 1e3;
}

/* The per-user file that caches measured bandwidths, one "<key> <bytes/s>"
 * line per kind of GPU: $PASTA_CACHE_DIR, $XDG_CACHE_HOME/pasta or
 * ~/.cache/pasta, then /peaks. 0 when there is no such place. */
static int peaks_cache_path(char *path, size_t size) {
  const char *dir = getenv("PASTA_CACHE_DIR"), *base = NULL, *sub = "";
  if (dir && *dir) {
    base = dir;
  } else if ((base = getenv("XDG_CACHE_HOME")) && *base) {
    sub = "/pasta";
  } else if ((base = getenv("HOME")) && *base) {
    sub = "/.cache/pasta";
  } else {
    return 0;
  }
  int n = snprintf(path, size, "%s%s/peaks", base, sub);
  return n > 0 && (size_t)n < size;
}

/* What identifies a kind of GPU for the cache: vendor, compute capability,
 * SMs and clocks, memory clock and bus width. */
static void peaks_key(ops_t *ops, const pasta_device_peaks *p, char *key,
                      size_t size) {
  snprintf(key, size, "v%d-cc%d.%d-sm%d-clk%d-mclk%d-bus%d", (int)ops->vendor,
           p->cc_major, p->cc_minor, p->sm_count, p->clock_khz,
           p->mem_clock_khz, p->bus_bits);
}

static double cached_bandwidth(const char *path, const char *key) {
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  char line[256], k[128];
  double bw = 0, v;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "%127s %lf", k, &v) == 2 && strcmp(k, key) == 0 && v > 0)
      bw = v;
  fclose(f);
  return bw;
}

/* Creates the directories of `path` (mode 0700) and appends the line. */
static void cache_bandwidth(const char *path, const char *key, double bw) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", path);
  for (char *s = dir + 1; *s; ++s)
    if (*s == '/') {
      *s = '\0';
      mkdir(dir, 0700); /* EEXIST is fine */
      *s = '/';
    }
  FILE *f = fopen(path, "a");
  if (!f)
    return;
  fprintf(f, "%s %.0f\n", key, bw);
  fclose(f);
}

/* The measured bandwidth of the GPU `p` describes: from the cache, or
 * measured once (a 256 MiB device-to-device copy) and cached. */
static double calibrated_bandwidth(ops_t *ops, const pasta_device_peaks *p) {
  char path[4096], key[128];
  peaks_key(ops, p, key, sizeof key);
  int cache = peaks_cache_path(path, sizeof path);
  double bw = cache ? cached_bandwidth(path, key) : 0;
  if (bw > 0)
    return bw;
  if (!ops->memcpy_async || !ops->event_create || !ops->malloc)
    return 0;
  int current = current_device(ops);
  if (current != p->device && ops->set_device && ops->set_device(p->device))
    return 0;
  bw = measure_d2d(ops);
  if (current != p->device && ops->set_device)
    ops->set_device(current);
  if (bw > 0 && cache)
    cache_bandwidth(path, key, bw);
  return bw;
}

/* The GPU the bandwidth analyzer describes: the program's current one if
 * it launched there, else the first it launched on. Lock held. */
static int peaks_device(void) {
  int current = st.ops ? current_device(st.ops) : 0;
  if ((st.have_peaks >> current) & 1)
    return current;
  return st.have_peaks ? __builtin_ctzll(st.have_peaks) : -1;
}

int pasta__activity_build(pasta_activity *a, int calibrate) {
  options();
  memset(a, 0, sizeof *a);
  memset(&built, 0, sizeof built);
  lock();
  if (st.ops)
    harvest(st.ops, -1, 1, NULL);
  int rc = build_kernels(a);
  if (rc == 0)
    rc = build_hotness(a);
  a->untimed = st.untimed;
  a->window_start = opt.start;
  a->sample = opt.sample;
  int pd = peaks_device();
  if (pd >= 0) {
    a->peaks = st.peaks[pd];
    if (calibrate && opt.calibrate && st.ops)
      a->peaks.bw_measured = calibrated_bandwidth(st.ops, &a->peaks);
  }
  a->window_end = opt.end;
  a->window_kernels = opt.have_kernels_re ? opt.kernels : NULL;
  a->memory = st.memory;
  a->memory.live_allocs_at_exit = st.num_live;
  a->memory.live_bytes_at_exit = st.live_bytes;
  a->ws_enabled = opt.ws;
  a->page_size = UINT64_C(1) << opt.page_shift;
  a->ws_launches = st.ws_launches;
  a->num_ws_launches = st.num_ws;
  a->ws_skipped = st.ws_skipped;
  a->outside = st.outside;
  if (st.have_outside && rc == 0) {
    a->outside_kernel = a->kernels[st.outside_kernel].name;
    a->outside_file = st.outside_file;
    a->outside_line = st.outside_line;
  }
  unlock();
  return rc;
}

void pasta__activity_free(pasta_activity *a) {
  for (size_t i = 0; built.kernels && i < a->num_kernels; ++i)
    free((void *)built.kernels[i].paths);
  for (size_t i = 0; built.names && i < st.num_kernels; ++i)
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
    pasta_symbolizer_close(built.sym);
  memset(&built, 0, sizeof built);
  memset(a, 0, sizeof *a);
}
