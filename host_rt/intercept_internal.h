/*===- intercept_internal.h - What the wrapper files share -----------------===*
 *
 * Private to host_rt's wrapper side (the files that were intercept.c): the
 * recorded state (one struct under one mutex), its types, and the
 * functions one file calls in another. The files form layers, lowest
 * first; each calls only those before it:
 *   options.c, state.c          the launch options; the state and its lock
 *   kernels.c, callpath.c,      the kernel registry and variants; call
 *   allocations.c, peaks.c,     paths and shapes; the allocation table;
 *   resources.c                 GPU properties and measured bandwidth; the
 *                               copies' registers and occupancy
 *   timing.c                    events around launches, faults, timed runs
 *   working_set.c,              working-set and trace-mode launches
 *   trace_launch.c
 *   activity.c                  the activity the report reads
 *   (readback.c, report.c, lifecycle.c: the runtime's side, runtime.h)
 *   memory.c, sync.c, launch.c, the wrappers the pass calls (ABI), which
 *   graphs.c, driver_handles.c  arm the exit handler (wrapper.h)
 * New internal symbols are hidden in libpasta_rt.so (the exported set is
 * the one intercept.c had).
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_HOST_RT_INTERCEPT_INTERNAL_H
#define PASTA_HOST_RT_INTERCEPT_INTERNAL_H

#include "intercept.h"
#include "pasta/abi.h"
#include "pasta/profile.h"
#include "profile/activity.h"
#include "symbolize/symbolize.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define PASTA_ABI __attribute__((visibility("default")))

typedef int (*pasta__launch_fn)(const void *, uint64_t, uint32_t, uint64_t,
                                uint32_t, void **, uint64_t, void *);

typedef const struct pasta_vendor_ops ops_t;
typedef int (*pasta__module_launch_fn)(const void *, uint32_t, uint32_t,
                                       uint32_t, uint32_t, uint32_t, uint32_t,
                                       uint32_t, void *, void **, void **);

enum { MAX_DEPTH = 16, MAX_PENDING = 4096, SHAPES_MAX = 64 };

/* A setting the program made on a kernel that PASTA makes on each of its
 * copies too (occupancy.c): cudaFuncSetAttribute(fn, attribute, value),
 * or cudaFuncSetCacheConfig / cudaFuncSetSharedMemConfig(fn, value),
 * made with the program's own function `set`. */
struct copy_setting {
  int (*set_attribute)(const void *, int, int); /* or NULL */
  int (*set_config)(const void *, int);         /* or NULL */
  int attribute, value;
};

enum variant {
  RUN_COUNTING = PASTA_RUN_COUNTING,
  RUN_PLAIN = PASTA_RUN_PLAIN,
  RUN_WS = PASTA_RUN_WORKING_SET,
  RUN_TRACE = PASTA_RUN_TRACE,
  RUN_DIV = PASTA_RUN_DIVERGENCE
};

struct kernel_path {
  uint32_t path;
  uint64_t launches;
};

struct kernel {
  const void *handle;
  const char *mangled; /* the program's registration string, or NULL */
  const void *plain, *ws, *trace;
  const void *div; /* its divergence copy (PASTA_DIVERGENCE=1 builds) */
  /* A divergence copy was registered (div may have been given up since):
   * its divergence-mode launches that run another copy are counted by why
   * (stats.div_by_*, pasta__count_div_unmeasured). */
  int had_div;
  /* Its divergence copy without the register cap (NVIDIA), launched when
   * the grid fits in one wave of it or the cap fits no more blocks on an
   * SM, and what was found for the last block shape asked about
   * (launch.c). */
  const void *div_uncapped;
  /* Its general divergence copy (NVIDIA; abi.h, PASTA_DIV_GENERAL_SUFFIX),
   * launched for blocks whose warps are not rows of 32 where it is no stub
   * (launch.c). */
  const void *div_general;
  /* Its divergence copy for blocks of one thread (NVIDIA; abi.h,
   * PASTA_DIV_ONE_LANE_SUFFIX), launched for blocks of 1 x 1 x 1 where it
   * is no stub (launch.c). */
  const void *div_one_lane;
  struct div_wave {
    uint32_t threads;
    uint64_t shmem;
    uint64_t blocks; /* 0: unknown, or the copy cannot be launched so */
    int cap_gains;   /* the capped copy fits more blocks per SM */
    /* div_general's largest block (0: not asked yet; -1: unknown; 1: the
     * pass's stub) */
    int general_max;
    int one_lane_max; /* div_one_lane's, the same way */
  } div_wave;
  /* Its counting code capped at PASTA_CAPPED_REGISTERS registers (NVIDIA;
   * abi.h), launched when the kernel's own cannot take the launch's block,
   * and the largest block of each as the vendor said (0: not asked yet;
   * -1: unknown or none: the capped copy is then never launched). */
  const void *capped;
  struct capped_fit {
    int counting_max, capped_max;
  } capped_fit;
  /* Its working-set copy capped at PASTA_CAPPED_REGISTERS registers
   * (NVIDIA; abi.h, PASTA_WS_CAPPED_SUFFIX; a stub where the pass built
   * none), launched where the working-set copy cannot take the block. */
  const void *ws_capped;
  /* The largest block of each copy of a mode, as the vendor said (0: not
   * asked yet; -1: unknown), asked once a launch's block needs it
   * (launch.c, mode_copy_for). */
  struct mode_fit {
    int ws_max, ws_capped_max, div_max, div_uncapped_max, div_general_max;
  } mode_fit;
  /* Launches of a mode (working set, divergence) that ran the counting copy
   * because no copy of the mode takes their block (said once). */
  uint64_t missed_mode_launches;
  /* The program asked the occupancy API about it (occupancy.c): its grids
   * may be persistent, sized to what the plain copy holds on the GPU at
   * once, and are run by a copy that holds them (launch.c,
   * resident_choice). `residency` is what was found for the last launch
   * shape: blocks per SM of each copy (-1: not asked yet; 0: unknown or
   * none). */
  int occupancy_asked;
  struct residency {
    uint32_t threads;
    uint64_t shmem;
    int device, sms;
    int per_sm[3]; /* plain, counting, capped */
  } residency;
  int nparams;
  uint64_t pointer_params; /* bit k: parameter k is a pointer */
  /* The pointer fields of its by-value aggregate parameters, the ones the
   * working-set copy numbers PASTA_WS_MAX_ARGS + j (abi.h): parameter and
   * byte offset of field j. */
  struct ws_field {
    uint16_t param, offset;
  } ws_fields[PASTA_WS_MAX_FIELDS];
  unsigned num_ws_fields;
  const void *module; /* host shadow of its module's descriptor */
  int selected;       /* -1 unknown, else PASTA_INSTRUMENT_KERNELS matched */
  uint64_t seq;       /* launches of this kernel so far (for sampling) */
  uint64_t plain_started; /* launches of its plain copy so far */
  uint64_t traced;        /* launches of its trace copy so far */
  uint64_t div_launches;  /* launches that ran its divergence copy */
  uint64_t ran_on;        /* bit d: launched on GPU d since its last reset */
  int warned_resources;   /* said its counting copy did not fit: 1 a block,
                             2 a grid at once, 4 a cluster */
  int gave_up_copy; /* its ws/trace/div copy was refused and dropped (said) */
  int said_shape_refusal;     /* a mode copy refused a launch's shape (said) */
  int resources_asked;        /* stats.resources read, or being read */
  int capped_resources_asked; /* read again at its first capped launch */
  /* Settings the program made on it while it had an error pending, not yet
   * made on its other copies (occupancy.c): made before its next launch. */
  struct copy_setting unset[4];
  unsigned num_unset;
  pasta_activity_kernel stats;
  pasta_activity_shape *shapes;
  size_t num_shapes, cap_shapes;
  struct kernel_path *paths;
  size_t num_paths, cap_paths;
};

/* One step of a cached call path (callpath.c, "The launch cache"): where
 * frame d + 1 starts, from frame d's stack pointer at its call (`size`, its
 * fixed size, or FRAME_FROM_RBP: at its frame pointer + 16), and where frame
 * d + 1's rbp is (`rbp`: RBP_UNCHANGED, RBP_SAVED_BY_PROLOGUE: below frame
 * d's CFA, where `push rbp` put it, RBP_UNKNOWN, or an offset into frame d
 * where frame d saved it). */
enum { FRAME_FROM_RBP = -1 };
enum { RBP_UNCHANGED = -1, RBP_SAVED_BY_PROLOGUE = -2, RBP_UNKNOWN = -3 };
struct frame_step {
  int32_t size, rbp;
};

struct call_path {
  uint32_t depth;
  void *frames[MAX_DEPTH + 1];
  /* Module, build id and ELF address of each frame, recorded when the path
   * is first seen (its modules may be unloaded before exit). */
  int located;
  pasta_frame_loc locs[MAX_DEPTH + 1];
  /* In the launch cache (callpath.c): how to go from frame d to frame
   * d + 1 on the stack. */
  int cached;
  struct frame_step steps[MAX_DEPTH + 1];
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

/* A CUfunction or CUkernel taken from a registered kernel, and the same
 * kind of handle of its plain and capped copies where the vendor gave them
 * (NULL: none), which occupancy queries about the handle answer for and a
 * cooperative launch of it falls back to (driver_handles.c). */
struct driver_handle {
  const void *handle;
  uint32_t kernel; /* index into pasta__st.kernels */
  const void *plain, *capped;
};

/* A kernel node of an instantiated graph: what each launch of the graph
 * launches. */
struct graph_node {
  uint32_t kernel; /* index in pasta__st.kernels */
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

/* Whether a launch's stream is being captured into a graph. A captured
 * launch runs only when the graph does: it is recorded then, as a kernel
 * node of the graph (see "Graphs"), and never waited for or timed. When the
 * vendor cannot say, the launch is recorded but not timed. */
enum capture { CAPTURE_NONE, CAPTURE_INTO_GRAPH, CAPTURE_UNKNOWN };

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
  /* Where the wrapper's return address (site) lies on the stack, for the
   * call-path cache; NULL where unknown (then a full backtrace). */
  void *const *ra_slot;
  uint64_t id;     /* launch id, set by pasta__launch() */
  int capture;     /* enum capture, set by pasta__launch() */
  int device;      /* the current GPU, set by pasta__launch() (one query) */
  int cooperative; /* cudaLaunchCooperativeKernel and its kin */
  /* A refusal of PASTA's choice is not read back (pasta__clear_own_error;
   * set by pasta__launch()): the program had an error pending, or the
   * launch is the driver API's, which keeps no last error to clear. */
  int keep_last_error;
  /* Launched in clusters of more than one block (a launch attribute of
   * cudaLaunchKernelEx or cuLaunchKernelEx; a kernel built with
   * __cluster_dims__ and launched with <<<>>> is not known as one). */
  int cluster;
};

/* "GPU-" and 16 bytes in hex as 8-4-4-4-12, as nvidia-smi shows it. */
enum { PASTA__UUID_SIZE = 48 };

/* Everything the wrappers record, under `mu`. */
struct pasta__state {
  pthread_mutex_t mu; /* everything below, never held across a launch */
  ops_t *ops;         /* the first vendor operations seen */
  uint64_t next_launch;
  struct kernel *kernels;
  size_t num_kernels, cap_kernels;
  uint32_t *kernel_hash; /* open addressing: index + 1, 0 = empty */
  size_t hash_cap;
  struct call_path *paths;
  size_t num_paths, cap_paths;
  uint32_t *path_hash; /* cached paths by first frame: index + 1, 0 = empty */
  size_t path_hash_cap, num_cached;
  uint64_t path_cache_hits; /* launches whose path the cache gave */
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
  int warned_no_plain, warned_ws, warned_variant, warned_no_div, warned_no_ws;
  int warned_div_counting; /* pasta__note_counting_only */
  /* GPU properties, read at the first launch on each GPU. */
  pasta_device_peaks peaks[PASTA_MAX_DEVICES];
  uint64_t have_peaks; /* bit d: peaks[d] was read */
  /* Each GPU's UUID ("GPU-..."), read with its peaks; "" when unknown. */
  char gpu_uuid[PASTA_MAX_DEVICES][PASTA__UUID_SIZE];
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
};

#pragma GCC visibility push(hidden)

/*===-- state.c -----------------------------------------------------------===*/

extern struct pasta__state pasta__st;

/*===-- options.c ---------------------------------------------------------===*/

/* The launch options, read once (pasta__need_options). */
extern struct pasta__launch_options pasta__opt;
void pasta__need_options(void);

void pasta__state_lock(void);
void pasta__state_unlock(void);
/* The current GPU (0 when the vendor cannot say). */
int pasta__vendor_device(ops_t *ops);
/* Remembers the first vendor operations seen. Lock held. */
void pasta__note_ops(ops_t *ops);
/* Whether the program has an error pending (the vendor's last error,
 * peeked: not cleared). The vendor keeps one last error per thread, which
 * a failing call replaces: PASTA reads its own refusal back only when none
 * was pending before its call (pasta__clear_own_error), and where one was,
 * avoids the calls of its own that may fail. */
int pasta__error_pending(ops_t *ops);
/* After a call of PASTA's own failed: its error read back (cleared) unless
 * the program had one pending before the call (`pending`). */
void pasta__clear_own_error(ops_t *ops, int pending);

/*===-- kernels.c ---------------------------------------------------------===*/

struct kernel *pasta__find_kernel(const void *handle);
struct kernel *pasta__handle_kernel(const void *handle);
/* The entry of driver handle `handle`, or NULL. Lock held. */
struct driver_handle *pasta__driver_handle(const void *handle);
struct kernel *pasta__kernel_of(const void *handle);
enum variant pasta__choose_variant(struct kernel *k, uint64_t id);
/* With PASTA_DIVERGENCE=1: says once that launches of k that way (`how`)
 * run its counting copy, so they have no divergence figures. Lock held. */
void pasta__note_counting_only(const struct kernel *k, const char *how);
/* Why a divergence-mode launch of a kernel with a divergence copy ran
 * another instrumented copy (profile/activity.h,
 * PASTA_ACTIVITY_DIV_REASONS). */
enum div_unmeasured {
#define PASTA_X(name, key) DIV_UNMEASURED_##name,
  PASTA_ACTIVITY_DIV_REASONS(PASTA_X)
#undef PASTA_X
};
/* Counts such a launch of k (`threads` threads a block), in divergence
 * mode only and where k registered a divergence copy. Lock held. */
void pasta__count_div_unmeasured(struct kernel *k, enum div_unmeasured why,
                                 uint64_t threads);

/*===-- callpath.c --------------------------------------------------------===*/

uint32_t pasta__path_id(void *const *frames, uint32_t depth);
void pasta__locate_path(uint32_t path, void *const *frames, uint32_t depth);
uint32_t pasta__capture_frames(void **frames, int skip);
int pasta__walk_frames(void *const *ra_slot, void **frames,
                       struct frame_step *steps, int *cacheable);
uint32_t pasta__cached_path(void *const *ra_slot);
void pasta__cache_path(uint32_t path, const struct frame_step *steps);
/* The interned path of a launch whose wrapper's return address is at
 * ra_slot and not in the launch cache: walked (and cached when it can be),
 * or backtraced, skipping `skip` frames (pasta__capture_frames, this one
 * and the runtime's up to the wrapper); UINT32_MAX without memory. Takes
 * the lock; the first call of a path locates its frames. */
uint32_t pasta__uncached_path(void *const *ra_slot, int skip);
/* The same, from the launch cache first (lock not held); `skip` counts
 * this function and the runtime's frames above it, the wrapper included. */
uint32_t pasta__launch_path(void *const *ra_slot, int skip);
void pasta__count_path(struct kernel *k, uint32_t path);
void pasta__count_shape(struct kernel *k, const uint32_t grid[3],
                        const uint32_t block[3], uint64_t shmem);

/*===-- allocations.c -----------------------------------------------------===*/

size_t pasta__live_upper_bound(uint64_t addr);
const struct allocation *pasta__allocation_at(uint64_t addr);
void pasta__drop_live(size_t i);

/*===-- peaks.c -----------------------------------------------------------===*/

void pasta__read_peaks(ops_t *ops, int device, pasta_device_peaks *p);
/* GPU `device`'s number of SMs (compute units), or 0 when unknown. */
int pasta__sm_count(ops_t *ops, int device);
double pasta__calibrated_bandwidth(ops_t *ops, const pasta_device_peaks *p);
int pasta__peaks_device(void);
void pasta__read_gpu_uuid(ops_t *ops, int device, char out[PASTA__UUID_SIZE]);

/*===-- resources.c -------------------------------------------------------===*/

/* The figures of a kernel's `counting` and `plain` copies (host stubs; NULL:
 * unknown), and of its register-capped copy where `capped` is not NULL, on
 * GPU `device` at a block of `threads` threads and `shmem` bytes of dynamic
 * shared memory, into *r. Calls the vendor: lock not held. */
void pasta__read_resources(ops_t *ops, int device, const void *counting,
                           const void *plain, const void *capped,
                           uint32_t threads, uint64_t shmem,
                           pasta_activity_resources *r);
/* The largest block of kernel `fn` (host stub) by the vendor's function
 * attributes, or -1 when unknown. Calls the vendor: lock not held. */
int pasta__max_block_threads(ops_t *ops, const void *fn);

/*===-- timing.c ----------------------------------------------------------===*/

int pasta__is_fault(int err);
void pasta__note_fault(ops_t *ops, int err, const struct pending *p,
                       int definitive);
void pasta__harvest(ops_t *ops, int device, int any_stream, void *stream);
int pasta__capture_state(ops_t *ops, void *stream);
int pasta__run_timed(ops_t *ops, pasta__launch_fn real, const void *handle,
                     const struct launch *l, void **args, uint32_t kernel,
                     int plain);

/*===-- copy_stream.c -----------------------------------------------------===*/

/* Host memory for results read back: pinned when the vendor can (copies
 * into it do not wait for the host), else malloc'd; *pinned says which,
 * for pasta__read_back_host_free. */
void *pasta__read_back_host_alloc(ops_t *ops, size_t bytes, int *pinned);
void pasta__read_back_host_free(ops_t *ops, void *p, int pinned);
/* An event only for ordering (no timing: cheaper to record). */
int pasta__ordering_event(ops_t *ops, void **event);
/* A read-back queued behind the work on `stream` so far: `bytes` from the
 * device at `src` to the host at `dst` (and `src` cleared after, with
 * `clear`), on GPU `device`'s copy stream when it has one (`ran` recorded
 * on `stream` and waited for there), else on `stream`; then `done`
 * recorded after them. Returns 0 when all was queued. */
struct read_back_copy {
  int device;
  void *stream, *ran, *done;
  void *dst;
  const void *src;
  size_t bytes;
  int clear;
  int recorded; /* `ran` is recorded already (behind the work on `stream`) */
};
int pasta__queue_read_back(ops_t *ops, const struct read_back_copy *c);
/* `bytes` from the device at `src` to the host at `dst` now (the work that
 * wrote them is done), on GPU `device`'s copy stream when it has one: a
 * cudaMemcpy would wait for every blocking stream's work too. */
int pasta__copy_back_now(ops_t *ops, int device, void *dst, const void *src,
                         size_t bytes);
/* Before a reset of GPU `device`: its copy stream destroyed (made again at
 * the next read-back). */
void pasta__copy_stream_release(int device);
/* A module's vendor table is going away: the streams it made destroyed. */
void pasta__copy_stream_module_gone(ops_t *ops);

/*===-- working_set.c, trace_launch.c -------------------------------------===*/

/* Working-set launches each GPU keeps in flight (working_set.c's ring). */
enum { PASTA_WS_SLOTS = 16 };

int pasta__run_ws(ops_t *ops, pasta__launch_fn real, const struct kernel *kc,
                  uint32_t kernel, const struct launch *l, uint64_t id,
                  int *tracked);
/* Waits for the working-set launches still in flight and sums their
 * results. */
void pasta__ws_drain(ops_t *ops);
/* Before a reset of GPU `device`: its working-set launches harvested, its
 * buffers freed. */
void pasta__ws_release_device(ops_t *ops, int device);
int pasta__run_trace(ops_t *ops, pasta__launch_fn real, const struct kernel *kc,
                     uint32_t kernel, const struct launch *l, int *traced);
void pasta__record_trace_launch(const struct kernel *kc, const struct launch *l,
                                uint64_t t);
/* Waits for the traced launches still in flight (at exit) and hands their
 * records to trace.c. */
void pasta__trace_drain(void);
/* Before a reset of GPU `device`: its traced launches harvested, its trace
 * buffers freed. */
void pasta__trace_release_device(int device);
/* A module's vendor table is going away: the traced launches harvested and
 * the buffers it allocated freed. */
void pasta__trace_module_gone(ops_t *ops);

/*===-- occupancy.c -------------------------------------------------------===*/

/* Makes on kernel `kernel`'s copies the settings the program made on it
 * while it had an error pending (occupancy.c, set_everywhere). Takes the
 * lock. */
void pasta__make_unset(ops_t *ops, uint32_t kernel);

/*===-- launch.c ----------------------------------------------------------===*/

void pasta__after_launch(ops_t *ops, int device);
int pasta__launch(const struct launch *call, pasta__launch_fn real, ops_t *ops);
/* The vendor functions for a driver API call from a module that does not
 * call the CUDA runtime (`ops` NULL): another module's, or NULL. */
ops_t *pasta__ops_or_known(ops_t *ops);
/* A driver API launch (one value a dimension) as pasta__launch takes it. */
struct launch pasta__driver_launch(const void *f, uint32_t gx, uint32_t gy,
                                   uint32_t gz, uint32_t bx, uint32_t by,
                                   uint32_t bz, uint32_t shmem, void *stream,
                                   void **params, const void *site,
                                   void *const *ra_slot, int cooperative);
PASTA_ABI int __pasta_module_launch_kernel(
    const void *f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx,
    uint32_t by, uint32_t bz, uint32_t shmem, void *stream, void **params,
    void **extra, pasta__module_launch_fn real, ops_t *ops);

#pragma GCC visibility pop

#endif
