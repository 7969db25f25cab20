/*===- test_intercept.c - The launch and memory wrappers, without a GPU ---===*
 *
 * Fake vendor operations over host memory stand in for the CUDA runtime;
 * a fake launch function plays the kernels (the working-set copy marks the
 * page flags a real kernel would). Checks, with the launch window 1..2 and
 * working-set mode: which variant each launch ran, the allocation table,
 * copy directions, unknown frees, and the working sets the runtime derives.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "intercept.h"
#include "intercept_internal.h" /* pasta__st: results not yet harvested */
#include "pasta/abi.h"
#include "profile/activity_text.h"
#include "profile/demangle.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/check.h"

int __pasta_malloc(void **, uint64_t, int (*)(void **, uint64_t),
                   const struct pasta_vendor_ops *);
int __pasta_free(void *, int (*)(void *), const struct pasta_vendor_ops *);
int __pasta_memcpy(void *, const void *, uint64_t, int,
                   int (*)(void *, const void *, uint64_t, int),
                   const struct pasta_vendor_ops *);
int __pasta_launch_kernel(const void *, uint64_t, uint32_t, uint64_t, uint32_t,
                          void **, uint64_t, void *,
                          int (*)(const void *, uint64_t, uint32_t, uint64_t,
                                  uint32_t, void **, uint64_t, void *),
                          const struct pasta_vendor_ops *);
int __pasta_launch_kernel_shm32(const void *, uint64_t, uint32_t, uint64_t,
                                uint32_t, void **, uint32_t, void *,
                                int (*)(const void *, uint64_t, uint32_t,
                                        uint64_t, uint32_t, void **, uint32_t,
                                        void *),
                                const struct pasta_vendor_ops *);
int __pasta_module_launch_kernel(const void *, uint32_t, uint32_t, uint32_t,
                                 uint32_t, uint32_t, uint32_t, uint32_t, void *,
                                 void **, void **,
                                 int (*)(const void *, uint32_t, uint32_t,
                                         uint32_t, uint32_t, uint32_t, uint32_t,
                                         uint32_t, void *, void **, void **),
                                 const struct pasta_vendor_ops *);
void __pasta_register_kernel(const void *, const char *, const void *,
                             const void *, const void *, int, uint64_t,
                             const void *);
void __pasta_register_divergence_kernel(const void *, const void *);
void __pasta_register_divergence_uncapped(const void *, const void *);
void __pasta_register_divergence_general(const void *, const void *);
void __pasta_register_divergence_one_lane(const void *, const void *);
void __pasta_register_capped_kernel(const void *, const void *);
void __pasta_register_ws_capped_kernel(const void *, const void *);
int __pasta_occupancy_max_active_blocks(int *, const void *, int, uint64_t,
                                        int (*)(int *, const void *, int,
                                                uint64_t),
                                        const struct pasta_vendor_ops *);
int __pasta_occupancy_max_active_blocks_flags(int *, const void *, int,
                                              uint64_t, unsigned,
                                              int (*)(int *, const void *, int,
                                                      uint64_t, unsigned),
                                              const struct pasta_vendor_ops *);
int __pasta_occupancy_available_shared_memory(uint64_t *, const void *, int,
                                              int,
                                              int (*)(uint64_t *, const void *,
                                                      int, int),
                                              const struct pasta_vendor_ops *);
int __pasta_occupancy_max_potential_block_size(
    int *, int *, const void *, uint64_t, int,
    int (*)(int *, int *, const void *, uint64_t, int),
    const struct pasta_vendor_ops *);
int __pasta_func_get_attributes(void *, const void *,
                                int (*)(void *, const void *),
                                const struct pasta_vendor_ops *);
int __pasta_func_set_attribute(const void *, int, int,
                               int (*)(const void *, int, int),
                               const struct pasta_vendor_ops *);
int __pasta_cu_func_set_attribute(const void *, int, int,
                                  int (*)(const void *, int, int),
                                  const struct pasta_vendor_ops *);
int __pasta_func_set_config(const void *, int, int (*)(const void *, int),
                            const struct pasta_vendor_ops *);
int __pasta_cu_func_set_config(const void *, int, int (*)(const void *, int),
                               const struct pasta_vendor_ops *);
int __pasta_cu_func_get_attribute(int *, int, const void *,
                                  int (*)(int *, int, const void *),
                                  const struct pasta_vendor_ops *);
int __pasta_cu_occupancy_max_potential_block_size(
    int *, int *, const void *, const void *, uint64_t, int,
    int (*)(int *, int *, const void *, const void *, uint64_t, int),
    const struct pasta_vendor_ops *);
int __pasta_cu_occupancy_max_potential_block_size_flags(
    int *, int *, const void *, const void *, uint64_t, int, unsigned,
    int (*)(int *, int *, const void *, const void *, uint64_t, int, unsigned),
    const struct pasta_vendor_ops *);
int __pasta_launch_cooperative_kernel(const void *, uint64_t, uint32_t,
                                      uint64_t, uint32_t, void **, uint64_t,
                                      void *,
                                      int (*)(const void *, uint64_t, uint32_t,
                                              uint64_t, uint32_t, void **,
                                              uint64_t, void *),
                                      const struct pasta_vendor_ops *);
typedef int (*cooperative_driver_fn)(const void *, uint32_t, uint32_t, uint32_t,
                                     uint32_t, uint32_t, uint32_t, uint32_t,
                                     void *, void **);
int __pasta_launch_cooperative_kernel_driver(const void *, uint32_t, uint32_t,
                                             uint32_t, uint32_t, uint32_t,
                                             uint32_t, uint32_t, void *,
                                             void **, cooperative_driver_fn,
                                             const struct pasta_vendor_ops *);

int __pasta_get_func_by_symbol(void **, const void *,
                               int (*)(void **, const void *),
                               const struct pasta_vendor_ops *);
typedef int (*launch_ex_fn)(const void *, const void *, void **);
int __pasta_launch_kernel_ex(const void *, const void *, void **, launch_ex_fn,
                             const struct pasta_vendor_ops *);
typedef int (*driver_launch_ex_fn)(const void *, const void *, void **,
                                   void **);
int __pasta_launch_kernel_ex_driver(const void *, const void *, void **,
                                    void **, driver_launch_ex_fn,
                                    const struct pasta_vendor_ops *);
int __pasta_occupancy_clusters(int *, const void *, const void *,
                               int (*)(int *, const void *, const void *),
                               const struct pasta_vendor_ops *);
int __pasta_cu_kernel_get_attribute(int *, int, const void *, int,
                                    int (*)(int *, int, const void *, int),
                                    const struct pasta_vendor_ops *);
int __pasta_cu_kernel_set_attribute(int, int, const void *, int,
                                    int (*)(int, int, const void *, int),
                                    const struct pasta_vendor_ops *);
int __pasta_cu_kernel_set_cache_config(const void *, int, int,
                                       int (*)(const void *, int, int),
                                       const struct pasta_vendor_ops *);
int __pasta_get_driver_entry_point(const char *, void **, uint64_t, void *,
                                   int (*)(const char *, void **, uint64_t,
                                           void *),
                                   const struct pasta_vendor_ops *);
typedef int (*pasta__module_launch_fn)(const void *, uint32_t, uint32_t,
                                       uint32_t, uint32_t, uint32_t, uint32_t,
                                       uint32_t, void *, void **, void **);
int __pasta_graph_instantiate(void **, void *, uint64_t,
                              int (*)(void **, void *, uint64_t),
                              const struct pasta_vendor_ops *);
int __pasta_graph_launch(void *, void *, int (*)(void *, void *),
                         const struct pasta_vendor_ops *);

/* cudaGetFuncBySymbol's stand-in: the CUfunction of every kernel. */
static void *fake_func_result;
static int fake_get_func(void **fn, const void *symbol) {
  (void)symbol;
  *fn = fake_func_result;
  return 0;
}

/* The runtime's analyzer dispatch (analyzer_registry.c, not linked here):
 * record the live events. */
static pasta_launch_event launch_events[8];
static int num_launch_events;
static int allocs_seen, frees_seen;
void pasta__notify_launch(const pasta_launch_event *e) {
  if (num_launch_events < 8)
    launch_events[num_launch_events++] = *e;
}
/* lifecycle.c's exit ordering: how often the wrappers armed it, and which
 * modules they said ran a kernel (first launch per GPU). */
static int arm_calls, module_launches;
static const void *last_module_launched;
void pasta__arm_exit(void) { ++arm_calls; }
void pasta__module_launched(const void *symbol, int device) {
  (void)device;
  ++module_launches;
  last_module_launched = symbol;
}
void pasta__notify_allocation(const pasta_allocation_event *e) {
  if (e->is_free)
    ++frees_seen;
  else
    ++allocs_seen;
}

/* Fake vendor runtime: "device" memory is host memory, events hold a time. */
static double fake_clock_ms;
static int f_malloc(void **p, uint64_t n) {
  return (*p = calloc(1, n)) ? 0 : 2;
}
static int f_free(void *p) {
  free(p);
  return 0;
}
static int f_memset(void *p, int v, uint64_t n) {
  memset(p, v, n);
  return 0;
}
static int f_memcpy(void *d, const void *s, uint64_t n, int k) {
  (void)k;
  memmove(d, s, n);
  return 0;
}
/* Working-set headers sent (host to device, a header's size) and results
 * read back (device to host, any size) with asynchronous copies. */
static int headers_sent, copies_back;
static int f_memcpy_async(void *d, const void *s, uint64_t n, int k,
                          void *stream) {
  (void)stream;
  headers_sent +=
      k == PASTA_MEMCPY_HOST_TO_DEVICE && n == sizeof(struct pasta_ws_launch);
  copies_back += k == PASTA_MEMCPY_DEVICE_TO_HOST;
  return f_memcpy(d, s, n, k);
}
static int f_memset_async(void *p, int v, uint64_t n, void *stream) {
  (void)stream;
  return f_memset(p, v, n);
}
static int f_zero(void) { return 0; }
static int f_stream(void *s) {
  (void)s;
  return 0;
}
static int f_event_create(void **e) {
  return (*e = calloc(1, sizeof(double))) ? 0 : 2;
}
/* The event recorded last, and the copy stream's waits for an event other
 * than it: a read-back is queued right after the event behind the last
 * launch it reads back (the fake runs every launch at once, so a wait for
 * an older event would go unnoticed otherwise). */
static void *last_recorded;
static int waits, waits_not_last;
static int f_event_record(void *e, void *s) {
  (void)s;
  fake_clock_ms += 0.5; /* every launch "takes" 0.5 ms */
  *(double *)e = fake_clock_ms;
  last_recorded = e;
  return 0;
}
static char fake_copy_stream;
static int f_stream_create(void **s, unsigned flags) {
  (void)flags;
  *s = &fake_copy_stream;
  return 0;
}
static int f_stream_wait_event(void *s, void *e, unsigned flags) {
  (void)s, (void)flags;
  ++waits;
  waits_not_last += e != last_recorded;
  return 0;
}
static int f_event_sync(void *e) {
  (void)e;
  return 0;
}
static int f_elapsed(float *ms, void *a, void *b) {
  *ms = (float)(*(double *)b - *(double *)a);
  return 0;
}
static int f_capturing(void *s, int *st) {
  (void)s;
  *st = 0;
  return 0;
}
static int f_get_device(int *d) {
  *d = 0;
  return 0;
}

static const struct pasta_vendor_ops ops = {
    .memcpy = f_memcpy,
    .device_synchronize = f_zero,
    .get_device = f_get_device,
    .malloc = f_malloc,
    .free = f_free,
    .memset = f_memset,
    .stream_synchronize = f_stream,
    .get_last_error = f_zero,
    .event_create = f_event_create,
    .event_record = f_event_record,
    .event_synchronize = f_event_sync,
    .event_elapsed_time = f_elapsed,
    .event_destroy = f_free,
    .stream_is_capturing = f_capturing,
    .memcpy_async = f_memcpy_async,
    .memset_async = f_memset_async,
    .stream_create_with_flags = f_stream_create,
    .stream_destroy = f_stream,
    .stream_wait_event = f_stream_wait_event}; /* no host_alloc: the malloc
                                                  fallback */

static char k_handle, k_plain, k_ws;
static char k2_handle, k2_plain; /* a plain copy the "driver" does not know */
static char k5_handle, k5_plain; /* a counting copy too big for its block */
static char k7_handle;           /* launched many times (sampled timing) */
static char k6_handle, k6_plain; /* a counting copy that faults */
static const void *launched[16];
static int num_launched;
static char *touch_alloc;      /* the allocation the fake ws kernel touches */
static uint64_t arg_base_seen; /* header->args[0].base of the last ws launch */
static uint64_t touch_offset;
/* Another allocation the fake ws kernel touches, at one offset
 * (test_ws_shared_group). */
static char *touch_also;
static uint64_t touch_also_offset;
/* More offsets the fake ws kernel touches in touch_alloc (test_ws_pages). */
static uint64_t touch_more[6];
static int num_touch_more;
static uint32_t page_banks_seen;
/* A kernel taking a struct by value with pointer fields (test_ws_fields),
 * and the header's field slots of its last working-set launch. */
static char kf_handle, kf_plain, kf_ws;
static struct pasta_ws_arg fields_seen[4];
static uint64_t fields_pages_seen;
/* Working-set launches whose header by value (the parameter after the
 * header's device pointer) was the header the device pointer points to. */
static int ws_values_same, ws_values_other;

static void ws_value_seen(const struct pasta_ws_launch *h, const void *value) {
  if (memcmp(h, value, sizeof *h) == 0)
    ++ws_values_same;
  else
    ++ws_values_other;
}

/* Where the device stores the flag that is `flag` in page order. */
static uint8_t *fake_flag(uint8_t *flag) {
  return (uint8_t *)(uintptr_t)pasta_ws_flag_swizzle((uint64_t)(uintptr_t)flag);
}

static uint32_t module_seen[7];
static void **module_extra_seen;
static int fake_module_launch(const void *f, uint32_t gx, uint32_t gy,
                              uint32_t gz, uint32_t bx, uint32_t by,
                              uint32_t bz, uint32_t shmem, void *stream,
                              void **params, void **extra) {
  (void)f, (void)stream, (void)params;
  uint32_t seen[7] = {gx, gy, gz, bx, by, bz, shmem};
  memcpy(module_seen, seen, sizeof seen);
  module_extra_seen = extra;
  return 0;
}

/* The driver's entry points: every symbol is "fake_module_launch". */
static int fake_entry_point(const char *symbol, void **fn, uint64_t flags,
                            void *status) {
  (void)symbol, (void)flags, (void)status;
  *fn = (void *)fake_module_launch;
  return 0;
}

static uint32_t shm32_seen;
static int fake_launch32(const void *fn, uint64_t gxy, uint32_t gz,
                         uint64_t bxy, uint32_t bz, void **args, uint32_t shmem,
                         void *stream) {
  (void)fn, (void)gxy, (void)gz, (void)bxy, (void)bz, (void)args, (void)stream;
  shm32_seen = shmem;
  return 0;
}

static int fake_launch(const void *fn, uint64_t gxy, uint32_t gz, uint64_t bxy,
                       uint32_t bz, void **args, uint64_t shmem, void *stream) {
  (void)gxy, (void)gz, (void)bxy, (void)bz, (void)shmem, (void)stream;
  if (fn == &k2_plain)
    return 98; /* cudaErrorInvalidDeviceFunction */
  if (fn == &k5_handle)
    return 701; /* cudaErrorLaunchOutOfResources: too many registers */
  if (fn == &k6_handle)
    return 700; /* cudaErrorIllegalAddress */
  if (num_launched < 16)
    launched[num_launched++] = fn;
  if (fn == &kf_ws) {
    /* Its header follows the kernel's two arguments. */
    const struct pasta_ws_launch *h = *(struct pasta_ws_launch **)args[2];
    ws_value_seen(h, args[3]);
    memcpy(fields_seen, &h->args[PASTA_WS_MAX_ARGS], sizeof fields_seen);
    fields_pages_seen = h->pages;
    return 0;
  }
  if (fn != &k_ws)
    return 0;
  /* The working-set copy: argument 1 (after the kernel's one) points to the
   * device pointer of the launch's struct pasta_ws_launch. */
  struct pasta_ws_launch *h = *(struct pasta_ws_launch **)args[1];
  ws_value_seen(h, args[2]);
  struct pasta_ws_alloc *t = (struct pasta_ws_alloc *)(uintptr_t)h->allocs;
  uint8_t *pages = (uint8_t *)(uintptr_t)h->pages;
  arg_base_seen = h->args[0].base;
  page_banks_seen = h->page_banks;
  for (uint32_t i = 0; i < h->num_allocs; ++i) {
    if (t[i].base != (uint64_t)(uintptr_t)touch_alloc)
      continue;
    /* in the last bank: the host must OR them */
    uint8_t *flags =
        pages + (h->page_banks - 1) * h->num_pages + t[i].first_page;
    /* stored where the device stores them (abi.h) */
    *fake_flag(flags + (touch_offset >> h->page_shift)) = 1;
    for (int k = 0; k < num_touch_more; ++k)
      *fake_flag(flags + (touch_more[k] >> h->page_shift)) = 1;
  }
  for (uint32_t i = 0; touch_also && i < h->num_allocs; ++i)
    if (t[i].base == (uint64_t)(uintptr_t)touch_also)
      *fake_flag(pages + t[i].first_page +
                 (touch_also_offset >> h->page_shift)) = 1;
  return 0;
}

/*===-- Graphs
 * -------------------------------------------------------------===*/

/* A fake vendor graph: nodes of CUDA's types (kernel 0, memcpy 1, child
 * graph 4), kernel parameters laid out as cudaKernelNodeParams. */
struct fake_graph;
struct fake_node {
  int type;
  const void *func;
  uint32_t grid[3], block[3], shmem;
  struct fake_graph *child;
};
struct fake_graph {
  uint64_t n;
  struct fake_node *nodes[4];
};

static int g_capturing;
static int g_capturing_fn(void *s, int *state) {
  (void)s;
  *state = g_capturing;
  return 0;
}
static int g_get_nodes(void *graph, void **nodes, uint64_t *count) {
  struct fake_graph *g = graph;
  if (nodes)
    for (uint64_t i = 0; i < g->n && i < *count; ++i)
      nodes[i] = g->nodes[i];
  *count = g->n;
  return 0;
}
static int g_node_type(void *node, int *type) {
  *type = ((struct fake_node *)node)->type;
  return 0;
}
static int g_kernel_params(void *node, void *params) {
  const struct fake_node *n = node;
  struct {
    const void *func;
    uint32_t grid[3], block[3], shmem;
    void **params, **extra;
  } p = {n->func,
         {n->grid[0], n->grid[1], n->grid[2]},
         {n->block[0], n->block[1], n->block[2]},
         n->shmem,
         NULL,
         NULL};
  memcpy(params, &p, sizeof p);
  return 0;
}
static int g_child(void *node, void **graph) {
  *graph = ((struct fake_node *)node)->child;
  return 0;
}
static char exec_obj, other_exec;
static int g_instantiate(void **exec, void *graph, uint64_t flags) {
  (void)graph, (void)flags;
  *exec = &exec_obj;
  return 0;
}
static int g_launch_result;
static int g_launch(void *exec, void *stream) {
  (void)exec, (void)stream;
  return g_launch_result;
}
static const void *g_captured;
static int g_capture_launch(const void *fn, uint64_t gxy, uint32_t gz,
                            uint64_t bxy, uint32_t bz, void **args,
                            uint64_t shmem, void *stream) {
  (void)gxy, (void)gz, (void)bxy, (void)bz, (void)args, (void)shmem,
      (void)stream;
  g_captured = fn;
  return 0;
}

static const pasta_activity_kernel *row_of(const pasta_activity *a,
                                           const char *name) {
  for (size_t i = 0; i < a->num_kernels; ++i)
    if (strcmp(a->kernels[i].name, name) == 0)
      return &a->kernels[i];
  return NULL;
}

static void test_graphs(void) {
  struct pasta_vendor_ops gops = ops;
  gops.stream_is_capturing = g_capturing_fn;
  gops.graph_get_nodes = g_get_nodes;
  gops.graph_node_get_type = g_node_type;
  gops.graph_kernel_node_get_params = g_kernel_params;
  gops.graph_child_graph_node_get_graph = g_child;
  static char gk_handle, gk_plain;
  __pasta_register_kernel(&gk_handle, "_Z2gkv", &gk_plain, NULL, NULL, 0, 0,
                          NULL);
  /* Captured into a graph: the counting kernel goes in, nothing recorded. */
  g_capturing = 1;
  CHECK(__pasta_launch_kernel(&gk_handle, 1, 1, 1, 1, NULL, 0, NULL,
                              g_capture_launch, &gops) == 0);
  CHECK(g_captured == &gk_handle);
  g_capturing = 0;
  pasta_activity act;
  CHECK(pasta__activity_build(&act, 0) == 0);
  const pasta_activity_kernel *none = row_of(&act, "gk()");
  CHECK(!none || none->launches == 0);
  pasta__activity_free(&act);

  /* gk counting (4x1x1 by 64), gk's plain copy, a memcpy node, and a child
   * graph holding gk again: each graph launch is three launches of gk. */
  struct fake_node inner = {0, &gk_handle, {8, 1, 1}, {32, 1, 1}, 0, NULL};
  struct fake_graph child = {1, {&inner}};
  struct fake_node nodes[4] = {
      {0, &gk_handle, {4, 1, 1}, {64, 1, 1}, 128, NULL},
      {0, &gk_plain, {4, 1, 1}, {64, 1, 1}, 128, NULL},
      {1, NULL, {0}, {0}, 0, NULL},
      {4, NULL, {0}, {0}, 0, &child}};
  struct fake_graph graph = {4, {&nodes[0], &nodes[1], &nodes[2], &nodes[3]}};
  void *exec = NULL;
  CHECK(__pasta_graph_instantiate(&exec, &graph, 0, g_instantiate, &gops) == 0);
  CHECK(exec == &exec_obj);
  for (int i = 0; i < 2; ++i)
    CHECK(__pasta_graph_launch(exec, NULL, g_launch, &gops) == 0);
  g_launch_result = 1; /* a launch the vendor refuses: failed, not counted */
  CHECK(__pasta_graph_launch(exec, NULL, g_launch, &gops) == 1);
  g_launch_result = 0;
  /* A graph instantiated where PASTA could not see: left out. */
  CHECK(__pasta_graph_launch(&other_exec, NULL, g_launch, &gops) == 0);
  /* Launched while another graph is captured: recorded with that one. */
  g_capturing = 1;
  CHECK(__pasta_graph_launch(exec, NULL, g_launch, &gops) == 0);
  g_capturing = 0;
  CHECK(pasta__activity_build(&act, 0) == 0);
  const pasta_activity_kernel *k = row_of(&act, "gk()");
  CHECK(k != NULL);
  if (k) {
    CHECK(k->launches == 9 && k->failed == 3 && k->counted == 4);
    CHECK(k->timed == 0);
    CHECK(k->num_shapes == 2);
    uint64_t big = 0;
    for (uint32_t i = 0; i < k->num_shapes; ++i)
      if (k->shapes[i].grid[0] == 4 && k->shapes[i].block[0] == 64)
        big = k->shapes[i].launches;
    CHECK(big == 6);
  }
  /* Once a device module's tables are read, the launch table names its
   * kernels as the plugin demangled them. */
  CHECK(pasta__demangle_remember("_Z2gkv", "void gk() (as recorded)") == 0);
  pasta__activity_rename(&act);
  CHECK(row_of(&act, "void gk() (as recorded)") == k && k != NULL);
  pasta__activity_free(&act);
}

/* `test_intercept div_graph`: PASTA_DIVERGENCE=1, a kernel with a
 * divergence copy launched once through its host stub (its copy: measured)
 * and twice as a graph of its counting kernel and its plain copy: each
 * graph launch is one launch not measured (`graph`); the plain node adds
 * nothing. */
static int test_div_graph(void) {
  setenv("PASTA_DIVERGENCE", "1", 1);
  struct pasta_vendor_ops gops = ops;
  gops.stream_is_capturing = g_capturing_fn;
  gops.graph_get_nodes = g_get_nodes;
  gops.graph_node_get_type = g_node_type;
  gops.graph_kernel_node_get_params = g_kernel_params;
  static char dg_handle, dg_plain, dg_div;
  __pasta_register_kernel(&dg_handle, "_Z2dgv", &dg_plain, NULL, NULL, 0, 0,
                          NULL);
  __pasta_register_divergence_kernel(&dg_handle, &dg_div);
  CHECK(__pasta_launch_kernel(&dg_handle, 4, 1, 64, 1, NULL, 0, NULL,
                              fake_launch, &gops) == 0);
  struct fake_node nodes[2] = {{0, &dg_handle, {4, 1, 1}, {64, 1, 1}, 0, NULL},
                               {0, &dg_plain, {4, 1, 1}, {64, 1, 1}, 0, NULL}};
  struct fake_graph graph = {2, {&nodes[0], &nodes[1]}};
  void *exec = NULL;
  CHECK(__pasta_graph_instantiate(&exec, &graph, 0, g_instantiate, &gops) == 0);
  for (int i = 0; i < 2; ++i)
    CHECK(__pasta_graph_launch(exec, NULL, g_launch, &gops) == 0);
  pasta_activity act;
  CHECK(pasta__activity_build(&act, 0) == 0);
  const pasta_activity_kernel *k = row_of(&act, "dg()");
  if (CHECK(k != NULL)) {
    CHECK(k->launches == 5 && k->counted == 3);
    CHECK(k->div_measured == 1 && k->div_by_graph == 2 &&
          pasta__div_unmeasured(k) == 2);
  }
  pasta__activity_free(&act);
  return check_summary("intercept divergence graph launches");
}

/*===-- Run-time options of the launch path ------------------------------===*/

static const char *const option_vars[] = {
    "PASTA_TIMING",       "PASTA_WORKING_SET",
    "PASTA_HOTNESS",      "PASTA_CALL_DEPTH",
    "PASTA_PAGE_SIZE",    "PASTA_SAMPLE",
    "PASTA_CALIBRATE",    "PASTA_START_GRID_ID",
    "PASTA_END_GRID_ID",  "PASTA_INSTRUMENT_KERNELS",
    "PASTA_WS_PAGE_BANKS"};

/* stderr redirected into a temporary file from stderr_capture (0 where
 * that could not be set up) to stderr_release, which puts stderr back and
 * reads what was written into text (size bytes, NUL-terminated). */
struct stderr_capture {
  FILE *file;
  int saved;
};

static int stderr_capture(struct stderr_capture *c) {
  fflush(stderr);
  c->file = tmpfile();
  c->saved = dup(2);
  if (!c->file || c->saved < 0) {
    if (c->file)
      fclose(c->file);
    if (c->saved >= 0)
      close(c->saved);
    return 0;
  }
  dup2(fileno(c->file), 2);
  return 1;
}

static void stderr_release(struct stderr_capture *c, char *text, size_t size) {
  fflush(stderr);
  dup2(c->saved, 2);
  close(c->saved);
  rewind(c->file);
  size_t n = fread(text, 1, size - 1, c->file);
  text[n] = '\0';
  fclose(c->file);
}

/* Whether text is exactly two lines (each warning said once). */
static int two_lines(const char *text) {
  const char *nl = strchr(text, '\n');
  const char *nl2 = nl ? strchr(nl + 1, '\n') : NULL;
  return nl2 && strchr(nl2 + 1, '\n') == NULL;
}

/* A graph launch the vendor refuses (of an instance whose instantiation
 * failed, as when capturing a stream failed) ran nothing: no warning that
 * the graph was instantiated where PASTA could not see. A launch of such a
 * graph that runs still gets it. */
static void test_graph_launch_refused(void) {
  struct pasta_vendor_ops gops = ops;
  gops.stream_is_capturing = g_capturing_fn;
  static char never_instantiated;
  struct stderr_capture err;
  if (!CHECK(stderr_capture(&err)))
    return;
  g_launch_result = 1;
  CHECK(__pasta_graph_launch(&never_instantiated, NULL, g_launch, &gops) == 1);
  g_launch_result = 0;
  char text[512];
  stderr_release(&err, text, sizeof text);
  CHECK(strstr(text, "instantiated in code not compiled") == NULL);
  if (!CHECK(stderr_capture(&err)))
    return;
  CHECK(__pasta_graph_launch(&never_instantiated, NULL, g_launch, &gops) == 0);
  stderr_release(&err, text, sizeof text);
  CHECK_HAS_STR(text, "instantiated in code not compiled with the plugin");
}

/* Reads the options with only `name`=`value` and `name2`=`value2` set
 * (NULL names: none), and returns what was printed on stderr (static
 * buffer). */
static const char *read_opts(struct pasta__launch_options *o, const char *name,
                             const char *value, const char *name2,
                             const char *value2) {
  static char text[1024];
  for (size_t i = 0; i < sizeof option_vars / sizeof *option_vars; ++i)
    unsetenv(option_vars[i]);
  if (name)
    setenv(name, value, 1);
  if (name2)
    setenv(name2, value2, 1);
  struct stderr_capture err;
  int captured = stderr_capture(&err);
  text[0] = '\0';
  pasta__launch_options_read(o);
  if (captured)
    stderr_release(&err, text, sizeof text);
  return text;
}

/* The value `name`=`value` gets `expect_warning` (a substring; NULL: no
 * warning at all). */
static int warns2(struct pasta__launch_options *o, const char *name,
                  const char *value, const char *name2, const char *value2,
                  const char *expect_warning) {
  const char *text = read_opts(o, name, value, name2, value2);
  if (!expect_warning)
    return text[0] == '\0';
  if (strstr(text, expect_warning) && strchr(text, '\n') == strrchr(text, '\n'))
    return 1;
  fprintf(stderr, "  %s=%s printed: %s\n", name, value, text);
  return 0;
}

static int warns(struct pasta__launch_options *o, const char *name,
                 const char *value, const char *expect_warning) {
  return warns2(o, name, value, NULL, NULL, expect_warning);
}

static void test_launch_options(void) {
  struct pasta__launch_options o;
  /* Defaults, silently. */
  CHECK(warns(&o, NULL, NULL, NULL));
  CHECK(o.timing == 1 && o.ws == 0 && o.hotness == 0 && o.depth == 4 &&
        o.page_shift == 16 && o.sample == 0 && o.calibrate == 1 &&
        o.start == 0 && o.end == UINT64_MAX && !o.have_kernels_re);

  /* PASTA_PAGE_SIZE: a power of two from 256 to 2^30. */
  CHECK(warns(&o, "PASTA_PAGE_SIZE", "4096", NULL) && o.page_shift == 12);
  CHECK(warns(&o, "PASTA_PAGE_SIZE", "256", NULL) && o.page_shift == 8);
  CHECK(warns(&o, "PASTA_PAGE_SIZE", "1073741824", NULL) && o.page_shift == 30);
  CHECK(warns(&o, "PASTA_PAGE_SIZE", "1000",
              "pasta: warning: ignoring PASTA_PAGE_SIZE=1000 (a power of two "
              "from 256 to 2^30); using 65536\n") &&
        o.page_shift == 16);
  CHECK(warns(&o, "PASTA_PAGE_SIZE", "128", "ignoring PASTA_PAGE_SIZE=128") &&
        o.page_shift == 16);
  CHECK(warns(&o, "PASTA_PAGE_SIZE", "2147483648",
              "pasta: warning: ignoring PASTA_PAGE_SIZE='2147483648' (not a "
              "number from 0 to 1073741824); using 65536\n") &&
        o.page_shift == 16);
  CHECK(warns(&o, "PASTA_PAGE_SIZE", "64k", "PASTA_PAGE_SIZE='64k'") &&
        o.page_shift == 16);

  /* PASTA_WS_PAGE_BANKS: a power of two from 1 to 64 (default 64). */
  CHECK(warns(&o, NULL, NULL, NULL) && o.ws_page_banks == 64);
  CHECK(warns(&o, "PASTA_WS_PAGE_BANKS", "1", NULL) && o.ws_page_banks == 1);
  CHECK(warns(&o, "PASTA_WS_PAGE_BANKS", "4", NULL) && o.ws_page_banks == 4);
  CHECK(warns(&o, "PASTA_WS_PAGE_BANKS", "16", NULL) && o.ws_page_banks == 16);
  CHECK(warns(&o, "PASTA_WS_PAGE_BANKS", "3",
              "pasta: warning: ignoring PASTA_WS_PAGE_BANKS=3 (a power of two "
              "from 1 to 64); using 64\n") &&
        o.ws_page_banks == 64);
  CHECK(
      warns(&o, "PASTA_WS_PAGE_BANKS", "128",
            "ignoring PASTA_WS_PAGE_BANKS='128' (not a number from 1 to 64)") &&
      o.ws_page_banks == 64);

  /* PASTA_SAMPLE: 0 (off) to 2^30. */
  CHECK(warns(&o, "PASTA_SAMPLE", "10", NULL) && o.sample == 10);
  CHECK(warns(&o, "PASTA_SAMPLE", "-1",
              "ignoring PASTA_SAMPLE='-1' (not a number from 0 to "
              "1073741824); using 0") &&
        o.sample == 0);
  CHECK(warns(&o, "PASTA_SAMPLE", "1073741825", "PASTA_SAMPLE='1073741825'") &&
        o.sample == 0);
  CHECK(warns(&o, "PASTA_SAMPLE", " 5", "PASTA_SAMPLE=' 5'") && o.sample == 0);

  /* PASTA_CALL_DEPTH: 0 to 16. */
  CHECK(warns(&o, "PASTA_CALL_DEPTH", "16", NULL) && o.depth == 16);
  CHECK(warns(&o, "PASTA_CALL_DEPTH", "0", NULL) && o.depth == 0);
  CHECK(warns(&o, "PASTA_CALL_DEPTH", "17",
              "ignoring PASTA_CALL_DEPTH='17' (not a number from 0 to 16); "
              "using 4") &&
        o.depth == 4);
  CHECK(warns(&o, "PASTA_CALL_DEPTH", "deep", "PASTA_CALL_DEPTH='deep'") &&
        o.depth == 4);

  /* PASTA_INSTRUMENT_KERNELS: an extended regular expression. */
  CHECK(warns(&o, "PASTA_INSTRUMENT_KERNELS", "^axpy", NULL) &&
        o.have_kernels_re && strcmp(o.kernels, "^axpy") == 0 &&
        regexec(&o.kernels_re, "axpy_kernel", 0, NULL, 0) == 0 &&
        regexec(&o.kernels_re, "saxpy", 0, NULL, 0) != 0);
  pasta__launch_options_free(&o);
  CHECK(warns(&o, "PASTA_INSTRUMENT_KERNELS", "(",
              "pasta: warning: PASTA_INSTRUMENT_KERNELS='(' is not an "
              "extended regular expression; every kernel is counted\n") &&
        !o.have_kernels_re);
  /* Nested counted repetitions (glibc: 1.2 s and 1.1 GB to compile three
   * levels of {1,100}, minutes and 16 GB for four) are refused before
   * regcomp; small nesting is compiled. */
  CHECK(warns(&o, "PASTA_INSTRUMENT_KERNELS", "(((a{1,100}){1,100}){1,100})",
              "pasta: warning: PASTA_INSTRUMENT_KERNELS='(((a{1,100}){1,100}"
              "){1,100})' is too costly to compile (nested counted "
              "repetitions {m,n} expand to more than 100000 atoms); every "
              "kernel is counted\n") &&
        !o.have_kernels_re);
  CHECK(
      warns(&o, "PASTA_INSTRUMENT_KERNELS", "((a{1,20}){1,20}){1,20}", NULL) &&
      o.have_kernels_re);
  pasta__launch_options_free(&o);

  /* The launch window. */
  CHECK(warns(&o, "PASTA_START_GRID_ID", "18446744073709551615", NULL) &&
        o.start == UINT64_MAX);
  CHECK(warns2(&o, "PASTA_START_GRID_ID", "5", "PASTA_END_GRID_ID", "2",
               "pasta: warning: PASTA_START_GRID_ID=5 is after "
               "PASTA_END_GRID_ID=2: no launch is counted\n"));

  /* Yes/no flags: 1/0, on/off, true/false, yes/no in any case. */
  CHECK(warns(&o, "PASTA_CALIBRATE", "off", NULL) && o.calibrate == 0);
  CHECK(warns(&o, "PASTA_TIMING", "FALSE", NULL) && o.timing == 0);
  CHECK(warns(&o, "PASTA_TIMING", "No", NULL) && o.timing == 0);
  CHECK(warns(&o, "PASTA_WORKING_SET", "yes", NULL) && o.ws == 1);
  CHECK(warns(&o, "PASTA_HOTNESS", "On", NULL) && o.hotness == 1);
  CHECK(warns(&o, "PASTA_TIMING", "maybe",
              "pasta: warning: ignoring PASTA_TIMING='maybe' (not 1/0, "
              "on/off, true/false or yes/no); using 1\n") &&
        o.timing == 1);
  CHECK(warns(&o, "PASTA_WORKING_SET", "2", "PASTA_WORKING_SET='2'") &&
        o.ws == 0);
  for (size_t i = 0; i < sizeof option_vars / sizeof *option_vars; ++i)
    unsetenv(option_vars[i]);
}

/* Run alone (`test_intercept resources`): every launch in the window, so
 * that the counting copy is tried first. A counting copy that needs more
 * registers than the block has runs as the plain copy (the program's
 * result must not change), the program sees success, and the launch is
 * recorded as not counted; any other error is the program's. */
static int test_out_of_resources(void) {
  __pasta_register_kernel(&k5_handle, "_Z2k5v", &k5_plain, NULL, NULL, 0, 0,
                          NULL);
  __pasta_register_kernel(&k6_handle, "_Z2k6v", &k6_plain, NULL, NULL, 0, 0,
                          NULL);
  CHECK(__pasta_launch_kernel(&k5_handle, 1 | (1ull << 32), 1,
                              512 | (1ull << 32), 1, NULL, 0, NULL, fake_launch,
                              &ops) == 0);
  CHECK(num_launched == 1 && launched[0] == &k5_plain);
  CHECK(__pasta_launch_kernel(&k6_handle, 1, 1, 32, 1, NULL, 0, NULL,
                              fake_launch, &ops) == 700);
  CHECK(num_launched == 1); /* no plain retry of a fault */
  pasta_activity act;
  CHECK(pasta__activity_build(&act, 0) == 0);
  const pasta_activity_kernel *k5 = row_of(&act, "k5()");
  CHECK(k5 && k5->launches == 1 && k5->counted == 0 && k5->failed == 0);
  const pasta_activity_kernel *k6 = row_of(&act, "k6()");
  CHECK(k6 && k6->launches == 1 && k6->failed == 1);
  pasta__activity_free(&act);
  return check_summary("intercept");
}

/* PASTA_TIMING's default: the first 32 launches of a kernel are timed, then
 * one in 64 (launches 64, 128 and 192 of 200, counted from 0); the kernel's
 * time is the timed launches' mean (0.5 ms each here) times its 200
 * launches. */
static int test_sampled_timing(void) {
  __pasta_register_kernel(&k7_handle, "_Z2k7v", NULL, NULL, NULL, 0, 0, NULL);
  for (int i = 0; i < 200; ++i)
    CHECK(__pasta_launch_kernel(&k7_handle, 1, 1, 32, 1, NULL, 0, NULL,
                                fake_launch, &ops) == 0);
  pasta_activity act;
  CHECK(pasta__activity_build(&act, 0) == 0);
  const pasta_activity_kernel *k7 = row_of(&act, "k7()");
  if (CHECK(k7 != NULL)) {
    CHECK_EQ_U64(k7->launches, 200);
    CHECK_EQ_U64(k7->timed, 32 + 3);
    CHECK_EQ_U64(k7->time_total_ns, 35 * 500000);
    int estimated = 0;
    CHECK(pasta__kernel_time(k7, &estimated) == 200 * 500000.0);
    CHECK(estimated);
  }
  CHECK_EQ_U64(act.untimed, 200 - 35);
  pasta__activity_free(&act);
  return check_summary("intercept sampled timing");
}

/* The current-device query per launch: a process that sees one GPU asks
 * the vendor for its device count once and never for the current device
 * (always 0); one that sees `devices` > 1 asks at every launch. */
static char kd_handle;
static int device_queries, count_queries, fake_devices;
static int f_counted_device(int *d) {
  ++device_queries;
  *d = fake_devices - 1; /* the last GPU */
  return 0;
}
static int f_device_count(int *n) {
  ++count_queries;
  *n = fake_devices;
  return 0;
}

static int test_device_queries(int devices) {
  fake_devices = devices;
  struct pasta_vendor_ops counted = ops;
  counted.get_device = f_counted_device;
  counted.get_device_count = f_device_count;
  __pasta_register_kernel(&kd_handle, "_Z2kdv", NULL, NULL, NULL, 0, 0, NULL);
  for (int i = 0; i < 10; ++i)
    CHECK(__pasta_launch_kernel(&kd_handle, 1, 1, 32, 1, NULL, 0, NULL,
                                fake_launch, &counted) == 0);
  CHECK(count_queries == 1);
  CHECK(device_queries == (devices == 1 ? 0 : 10));
  /* The launches are recorded on the GPU the vendor named. */
  pasta__state_lock();
  struct kernel *k = pasta__kernel_of(&kd_handle);
  CHECK(k && k->stats.launches == 10 &&
        k->ran_on == UINT64_C(1) << (devices - 1));
  pasta__state_unlock();
  return check_summary(devices == 1 ? "intercept one device"
                                    : "intercept two devices");
}

/* A GPU of 4 SMs on which 2 blocks of the uncapped copy kw_divu fit per SM,
 * and 3 of the capped kw_div, but only 2 of 512 threads, and none of 1024
 * threads (the vendor's occupancy call fails). */
static char kw_handle, kw_div, kw_divu;
/* Kernels whose twin is a stub (ks) or of unknown largest block (ku). */
static char ks_handle, ks_div, ks_divu, ku_handle, ku_div, ku_divu;
/* Kernels with a general copy (kh), its stub (kt: largest block 1), one of
 * unknown largest block (kq). */
static char kh_handle, kh_div, kh_divu, kh_divg, kt_handle, kt_div, kt_divu,
    kt_divg, kq_handle, kq_div, kq_divu, kq_divg;
static char ko_handle, ko_div, ko_div1, kp_handle, kp_div, kp_div1, kr_handle,
    kr_div, kr_div1, kl1_handle, kl1_div, kl1_divu, kl1_div1;
static int occupancy_calls;
static int f_attribute(int *value, int attribute, int device) {
  (void)device;
  *value = attribute == 16 ? 4 : 0; /* cudaDevAttrMultiProcessorCount */
  return 0;
}
static int f_occupancy(int *blocks, const void *func, int threads,
                       uint64_t shmem) {
  (void)shmem;
  ++occupancy_calls;
  if (func == &ks_divu || func == &ks_div || func == &ku_divu ||
      func == &ku_div) { /* as the GPU might answer even for a stub */
    *blocks = 2;
    return 0;
  }
  if ((func != &kw_divu && func != &kw_div) || threads == 1024)
    return 1; /* cudaErrorInvalidValue */
  *blocks = func == &kw_div && threads != 512 ? 3 : 2;
  return 0;
}

/* The largest blocks: 1 for ks_divu (the pass's stub in place of a twin),
 * an error for ku_divu (unknown), 1024 for the rest. */
static int f_wave_attributes(void *attributes, const void *func) {
  if (func == &ku_divu || func == &kq_divg || func == &kr_div1)
    return 98; /* cudaErrorInvalidDeviceFunction */
  int32_t threads =
      func == &ks_divu || func == &kt_divg || func == &kp_div1 ? 1 : 1024;
  memcpy((unsigned char *)attributes + 24, &threads, 4); /* CUDA's layout */
  return 0;
}

/* A stub twin (largest block 1) is never launched, nor one whose largest
 * block is unknown: grids that fit in one wave, blocks of one thread
 * included, run the capped copy. */
static int check_divergence_stub_twin(struct pasta_vendor_ops *wops) {
  __pasta_register_kernel(&ks_handle, "_Z2ksv", NULL, NULL, NULL, 0, 0, NULL);
  __pasta_register_divergence_kernel(&ks_handle, &ks_div);
  __pasta_register_divergence_uncapped(&ks_handle, &ks_divu);
  __pasta_register_kernel(&ku_handle, "_Z2kuv", NULL, NULL, NULL, 0, 0, NULL);
  __pasta_register_divergence_kernel(&ku_handle, &ku_div);
  __pasta_register_divergence_uncapped(&ku_handle, &ku_divu);
  const uint64_t y1 = 1ull << 32;
  num_launched = 0;
  CHECK(__pasta_launch_kernel(&ks_handle, 1 | y1, 1, 128 | y1, 1, NULL, 0, NULL,
                              fake_launch, wops) == 0);
  CHECK(__pasta_launch_kernel(&ks_handle, 1 | y1, 1, 1 | y1, 1, NULL, 0, NULL,
                              fake_launch, wops) == 0);
  CHECK(__pasta_launch_kernel(&ku_handle, 1 | y1, 1, 128 | y1, 1, NULL, 0, NULL,
                              fake_launch, wops) == 0);
  CHECK(num_launched == 3);
  CHECK(launched[0] == &ks_div);
  CHECK(launched[1] == &ks_div);
  CHECK(launched[2] == &ku_div);
  return 0;
}

/* A launch whose warps are not rows of 32 (blockDim.x not a multiple of 32,
 * and y or z above 1) runs the kernel's general copy, which the copy (a body
 * for rows of 32 alone) left out; rows of 32 (a one-row block of any width,
 * or x a multiple of 32) never do. A stub general copy (largest block 1) is
 * never launched, one of unknown largest block is, and a kernel without a
 * general copy runs its copy. */
static int check_divergence_general(struct pasta_vendor_ops *wops) {
  __pasta_register_kernel(&kh_handle, "_Z2khv", NULL, NULL, NULL, 0, 0, NULL);
  __pasta_register_divergence_kernel(&kh_handle, &kh_div);
  __pasta_register_divergence_uncapped(&kh_handle, &kh_divu);
  __pasta_register_divergence_general(&kh_handle, &kh_divg);
  __pasta_register_kernel(&kt_handle, "_Z2ktv", NULL, NULL, NULL, 0, 0, NULL);
  __pasta_register_divergence_kernel(&kt_handle, &kt_div);
  __pasta_register_divergence_uncapped(&kt_handle, &kt_divu);
  __pasta_register_divergence_general(&kt_handle, &kt_divg);
  __pasta_register_kernel(&kq_handle, "_Z2kqv", NULL, NULL, NULL, 0, 0, NULL);
  __pasta_register_divergence_kernel(&kq_handle, &kq_div);
  __pasta_register_divergence_uncapped(&kq_handle, &kq_divu);
  __pasta_register_divergence_general(&kq_handle, &kq_divg);
  const uint64_t y = 1ull << 32; /* x | y << 32, as the launch packs them */
  const struct {
    const void *handle;
    uint64_t block_xy;
    uint32_t block_z;
    const void *runs;
  } cases[8] = {
      {&kh_handle, 256 | y, 1, &kh_div},
      {&kh_handle, 16 | 4 * y, 1, &kh_divg},
      {&kh_handle, 48 | y, 1, &kh_div},
      {&kh_handle, 32 | 2 * y, 1, &kh_div},
      {&kh_handle, 16 | y, 2, &kh_divg},
      {&kt_handle, 16 | 4 * y, 1, &kt_div},
      {&kq_handle, 16 | 4 * y, 1, &kq_divg},
      {&ks_handle, 16 | 4 * y, 1, &ks_div},
  };
  num_launched = 0;
  for (int i = 0; i < 8; ++i)
    CHECK(__pasta_launch_kernel(cases[i].handle, 1 | y, 1, cases[i].block_xy,
                                cases[i].block_z, NULL, 0, NULL, fake_launch,
                                wops) == 0);
  CHECK(num_launched == 8);
  for (int i = 0; i < 8 && i < num_launched; ++i)
    CHECK(launched[i] == cases[i].runs);
  return 0;
}

/* A launch of blocks of one thread (1 x 1 x 1) runs the kernel's one-lane
 * copy; any other block, one thread more in any dimension, runs the copy.
 * A stub one-lane copy (largest block 1) is never launched, one of unknown
 * largest block is. */
static int check_divergence_one_lane(struct pasta_vendor_ops *wops) {
  __pasta_register_kernel(&ko_handle, "_Z2kov", NULL, NULL, NULL, 0, 0, NULL);
  __pasta_register_divergence_kernel(&ko_handle, &ko_div);
  __pasta_register_divergence_one_lane(&ko_handle, &ko_div1);
  __pasta_register_kernel(&kp_handle, "_Z2kpv", NULL, NULL, NULL, 0, 0, NULL);
  __pasta_register_divergence_kernel(&kp_handle, &kp_div);
  __pasta_register_divergence_one_lane(&kp_handle, &kp_div1);
  __pasta_register_kernel(&kr_handle, "_Z2krv", NULL, NULL, NULL, 0, 0, NULL);
  __pasta_register_divergence_kernel(&kr_handle, &kr_div);
  __pasta_register_divergence_one_lane(&kr_handle, &kr_div1);
  /* kn has an uncapped twin too, which the wave rule would choose for a
   * one-block grid: a block of one thread still runs the one-lane copy. */
  __pasta_register_kernel(&kl1_handle, "_Z3kl1v", NULL, NULL, NULL, 0, 0, NULL);
  __pasta_register_divergence_kernel(&kl1_handle, &kl1_div);
  __pasta_register_divergence_uncapped(&kl1_handle, &kl1_divu);
  __pasta_register_divergence_one_lane(&kl1_handle, &kl1_div1);
  const uint64_t y = 1ull << 32; /* x | y << 32, as the launch packs them */
  const struct {
    const void *handle;
    uint64_t grid_xy, block_xy;
    uint32_t block_z;
    const void *runs;
  } cases[9] = {
      {&kl1_handle, 1 | y, 1 | y, 1, &kl1_div1},
      {&ko_handle, 1 | y, 1 | y, 1, &ko_div1},
      {&ko_handle, 4096 | 3 * y, 1 | y, 1, &ko_div1},
      {&ko_handle, 1 | y, 2 | y, 1, &ko_div},
      {&ko_handle, 1 | y, 1 | 2 * y, 1, &ko_div},
      {&ko_handle, 1 | y, 1 | y, 2, &ko_div},
      {&ko_handle, 1 | y, 32 | y, 1, &ko_div},
      {&kp_handle, 1 | y, 1 | y, 1, &kp_div},
      {&kr_handle, 1 | y, 1 | y, 1, &kr_div1},
  };
  num_launched = 0;
  for (int i = 0; i < 9; ++i)
    CHECK(__pasta_launch_kernel(cases[i].handle, cases[i].grid_xy, 1,
                                cases[i].block_xy, cases[i].block_z, NULL, 0,
                                NULL, fake_launch, wops) == 0);
  CHECK(num_launched == 9);
  for (int i = 0; i < 9 && i < num_launched; ++i)
    CHECK(launched[i] == cases[i].runs);
  return 0;
}

/* With an uncapped divergence copy, a grid that fits in one wave of it
 * (SMs x blocks per SM) runs it, and so does any grid of a shape where the
 * cap fits no more blocks per SM; a bigger grid where it does, or one whose
 * occupancy is unknown, runs the capped copy. Asked once per block
 * shape. */
static int check_divergence_wave(void) {
  __pasta_register_kernel(&kw_handle, "_Z2kwv", NULL, NULL, NULL, 0, 0, NULL);
  __pasta_register_divergence_kernel(&kw_handle, &kw_div);
  __pasta_register_divergence_uncapped(&kw_handle, &kw_divu);
  struct pasta_vendor_ops wops = ops;
  wops.vendor = PASTA_VENDOR_CUDA;
  wops.device_get_attribute = f_attribute;
  wops.occupancy_max_active_blocks = f_occupancy;
  wops.func_get_attributes = f_wave_attributes;
  num_launched = 0;
  const uint64_t y1 = 1ull << 32; /* x | y << 32, as the launch packs them */
  const uint64_t grids[6] = {8 | y1, 9 | y1,   2 | 4ull << 32,
                             8 | y1, 100 | y1, 1 | y1};
  const uint64_t blocks[6] = {128 | y1, 128 | y1, 128 | y1,
                              256 | y1, 512 | y1, 1024 | y1};
  for (int i = 0; i < 6; ++i)
    CHECK(__pasta_launch_kernel(&kw_handle, grids[i], 1, blocks[i], 1, NULL, 0,
                                NULL, fake_launch, &wops) == 0);
  CHECK(num_launched == 6);
  CHECK(launched[0] == &kw_divu); /* 8 blocks <= 4 x 2 */
  CHECK(launched[1] == &kw_div);  /* 9 > 8, and the cap fits 3 per SM */
  CHECK(launched[2] == &kw_divu); /* 2 x 4 blocks */
  CHECK(launched[3] == &kw_divu); /* a new shape: asked again */
  CHECK(launched[4] == &kw_divu); /* 100 > 8, but the cap gains nothing */
  CHECK(launched[5] == &kw_div);  /* the occupancy call failed */
  /* and once at the first launch: the counting kernel's blocks per SM for
   * its resources (resources.c; this kernel has no plain copy). */
  CHECK(occupancy_calls == 2 + 2 + 2 + 1 + 1);
  check_divergence_stub_twin(&wops);
  check_divergence_one_lane(&wops);
  return check_divergence_general(&wops);
}

/* PASTA_DIVERGENCE=1: a kernel with a divergence copy launches it (and its
 * launch says so); one without runs its counting kernel, and the user is
 * told once, on one line naming the kernel and what to do. */
/* Kernels built with only one of the copies (PASTA_VARIANTS=plain or ws):
 * working-set mode without the working-set copy, and a launch outside the
 * window without the plain copy, run the counting kernel, and the user is
 * told once each. Launch 0 is outside the window (1..1), launch 1 inside. */
static char kp_handle, kp_plain, kw_handle, kw_ws;
static int test_missing_copies(void) {
  setenv("PASTA_START_GRID_ID", "1", 1);
  setenv("PASTA_END_GRID_ID", "1", 1);
  setenv("PASTA_WORKING_SET", "1", 1);
  setenv("PASTA_CALL_DEPTH", "0", 1);
  __pasta_register_kernel(&kp_handle, "_Z2kpv", &kp_plain, NULL, NULL, 0, 0,
                          NULL);
  __pasta_register_kernel(&kw_handle, "_Z2kwv", NULL, &kw_ws, NULL, 0, 0, NULL);
  struct stderr_capture err;
  if (!CHECK(stderr_capture(&err)))
    return check_summary("intercept");
  for (int i = 0; i < 2; ++i) /* ids 0 (outside) and 1 (inside) */
    CHECK(__pasta_launch_kernel(&kp_handle, 1, 1, 32, 1, NULL, 0, NULL,
                                fake_launch, &ops) == 0);
  for (int i = 0; i < 2; ++i) /* ids 2 and 3, outside */
    CHECK(__pasta_launch_kernel(&kw_handle, 1, 1, 32, 1, NULL, 0, NULL,
                                fake_launch, &ops) == 0);
  char text[1024];
  stderr_release(&err, text, sizeof text);
  CHECK(num_launched == 4 && launched[0] == &kp_plain &&
        launched[1] == &kp_handle && launched[2] == &kw_handle &&
        launched[3] == &kw_handle);
  CHECK(num_launch_events == 4 && launch_events[0].variant == PASTA_RUN_PLAIN &&
        launch_events[1].variant == PASTA_RUN_COUNTING &&
        launch_events[2].variant == PASTA_RUN_COUNTING);
  CHECK_HAS_STR(text, "pasta: warning: PASTA_WORKING_SET=1 but kernel "
                      "'_Z2kpv' has no working-set copy (compiled with "
                      "PASTA_VARIANTS=0 or plain, or PASTA_DIVERGENCE=1, or "
                      "not instrumented)");
  CHECK_HAS_STR(text, "pasta: warning: kernel '_Z2kwv' has no uninstrumented "
                      "variant (compiled with PASTA_VARIANTS=0 or ws, or not "
                      "instrumented)");
  CHECK(two_lines(text)); /* each once */
  return check_summary("intercept");
}

static char kd_handle, kd_div, kn_handle, kg_handle, kg_div;
static int test_divergence(void) {
  setenv("PASTA_DIVERGENCE", "1", 1);
  __pasta_register_kernel(&kd_handle, "_Z2kdv", NULL, NULL, NULL, 0, 0, NULL);
  __pasta_register_divergence_kernel(&kd_handle, &kd_div);
  __pasta_register_kernel(&kn_handle, "_Z2knv", NULL, NULL, NULL, 0, 0, NULL);
  struct stderr_capture err;
  if (!CHECK(stderr_capture(&err)))
    return check_summary("intercept");
  for (int i = 0; i < 2; ++i) {
    CHECK(__pasta_launch_kernel(&kd_handle, 1, 1, 32, 1, NULL, 0, NULL,
                                fake_launch, &ops) == 0);
    CHECK(__pasta_launch_kernel(&kn_handle, 1, 1, 32, 1, NULL, 0, NULL,
                                fake_launch, &ops) == 0);
  }
  /* Captured into a graph: the counting kernel goes in (a graph replays
   * what was captured), and the user is told once that those launches have
   * no divergence figures. */
  struct pasta_vendor_ops gops = ops;
  gops.stream_is_capturing = g_capturing_fn;
  g_capturing = 1;
  for (int i = 0; i < 2; ++i) {
    g_captured = NULL;
    CHECK(__pasta_launch_kernel(&kd_handle, 1, 1, 32, 1, NULL, 0, NULL,
                                g_capture_launch, &gops) == 0);
    CHECK(g_captured == &kd_handle);
  }
  g_capturing = 0;
  char text[1024];
  stderr_release(&err, text, sizeof text);
  CHECK(num_launched == 4 && launched[0] == &kd_div &&
        launched[1] == &kn_handle && launched[2] == &kd_div &&
        launched[3] == &kn_handle);
  CHECK(num_launch_events == 4 &&
        launch_events[0].variant == PASTA_RUN_DIVERGENCE &&
        launch_events[1].variant == PASTA_RUN_COUNTING);
  CHECK_HAS_STR(text, "pasta: warning: PASTA_DIVERGENCE=1 but kernel '_Z2knv' "
                      "has no divergence copy: set PASTA_DIVERGENCE=1 while "
                      "compiling too");
  CHECK_HAS_STR(text, "pasta: warning: PASTA_DIVERGENCE=1 but kernel '_Z2kdv' "
                      "is launched into a CUDA graph (stream capture), which "
                      "runs its counting copy: those launches have no "
                      "divergence figures");
  CHECK(two_lines(text)); /* each once */
  /* Which kernels' divergence rows the report clears (readback.c): kd ran
   * its divergence copy twice, kn never (no copy), kg only into a graph
   * (its counting copy); a kernel the program never registered is left. */
  __pasta_register_kernel(&kg_handle, "_Z2kgv", NULL, NULL, NULL, 0, 0, NULL);
  __pasta_register_divergence_kernel(&kg_handle, &kg_div);
  g_capturing = 1;
  CHECK(__pasta_launch_kernel(&kg_handle, 1, 1, 32, 1, NULL, 0, NULL,
                              g_capture_launch, &gops) == 0);
  g_capturing = 0;
  CHECK(!pasta__activity_divergence_unmeasured("_Z2kdv"));
  CHECK(pasta__activity_divergence_unmeasured("_Z2knv"));
  CHECK(pasta__activity_divergence_unmeasured("_Z2kgv"));
  CHECK(!pasta__activity_divergence_unmeasured("_Z7unknownv"));
  check_divergence_wave();
  return check_summary("intercept");
}

/* User allocations at increasing addresses (the runtime sorts its table by
 * address, so their flags follow in this order). */
static char *arena, *arena_next;
static int arena_malloc(void **p, uint64_t n) {
  *p = arena_next;
  arena_next += (n + 4095) & ~(uint64_t)4095;
  return 0;
}

/* A ws launch of the fake kernel, of a grid of ws_touch_grid (x in the low
 * 32 bits, y in the high ones) by ws_touch_grid_z blocks, touching `alloc`
 * at the offsets given (touch_offset first); returns its touched bytes, or
 * UINT64_MAX. */
static uint64_t ws_touch_grid = 64 | (1ull << 32);
static uint32_t ws_touch_grid_z = 1;
static uint64_t ws_touch(void *alloc, const uint64_t *offsets, int n) {
  void *arg = alloc;
  void *args[1] = {&arg};
  touch_alloc = alloc;
  touch_offset = offsets[0];
  num_touch_more = n - 1;
  for (int k = 1; k < n; ++k)
    touch_more[k - 1] = offsets[k];
  if (__pasta_launch_kernel(&k_handle, ws_touch_grid, ws_touch_grid_z, 32, 1,
                            args, 0, NULL, fake_launch, &ops) != 0)
    return UINT64_MAX;
  pasta_activity act;
  uint64_t touched = UINT64_MAX;
  if (pasta__activity_build(&act, 0) == 0 && act.num_ws_launches > 0) {
    const pasta_activity_ws_launch *l =
        &act.ws_launches[act.num_ws_launches - 1];
    if (l->touched_allocations == 1)
      touched = l->touched_bytes;
  }
  pasta__activity_free(&act);
  return touched;
}

/* Run alone (`test_intercept ws_pages [banks]`): three allocations whose
 * page flags follow each other: d (3 pages), c (100 pages and 123 bytes:
 * 101 flags from flag 3, off the 8-flag words the host skips) and e (104
 * pages: a multiple of 8 flags, from flag 104). One launch touches c's
 * pages 10, 57 (flag 60: the last word of the first 64 flags the host ORs
 * at once), 63 (the last flag of one of c's words), 70 and its last,
 * partial page; another e's pages 5 and 103
 * (its last, whole). The flags are set in the last of `banks` banks
 * (PASTA_WS_PAGE_BANKS; unset: the default): the host ORs the banks and
 * sums whole pages, the last one partly. */
static int test_ws_pages(const char *banks) {
  setenv("PASTA_WORKING_SET", "1", 1);
  if (banks)
    setenv("PASTA_WS_PAGE_BANKS", banks, 1);
  __pasta_register_kernel(&k_handle, "_Z6kernelPc", &k_plain, &k_ws, NULL, 1, 1,
                          NULL);
  const uint64_t page = 65536, size = 100 * page + 123;
  arena = arena_next = calloc(1, 210 * page);
  CHECK(arena != NULL);
  if (!arena)
    return check_summary("intercept ws pages");
  void *d = NULL, *c = NULL, *e = NULL;
  CHECK(__pasta_malloc(&d, 3 * page, arena_malloc, &ops) == 0);
  CHECK(__pasta_malloc(&c, size, arena_malloc, &ops) == 0);
  CHECK(__pasta_malloc(&e, 104 * page, arena_malloc, &ops) == 0);
  const uint64_t in_c[] = {10 * page + 5, 57 * page, 63 * page, 70 * page,
                           size - 1};
  CHECK(ws_touch(c, in_c, 5) == 4 * page + 123);
  CHECK(page_banks_seen ==
        (banks ? (uint32_t)atoi(banks) : PASTA_WS_PAGE_BANKS));
  const uint64_t in_e[] = {5 * page, 104 * page - 1};
  CHECK(ws_touch(e, in_e, 2) == 2 * page);
  CHECK(num_launched == 2 && launched[0] == &k_ws && launched[1] == &k_ws);
  /* A launch of 3 blocks uses 2 banks (at most one per block), 1 block
   * one: the flags are read back from those alone. The blocks of every
   * dimension count: 1 x 3 x 1 and 1 x 1 x 3 are 3 too, 2 x 2 x 2 are 8. */
  const uint32_t want3 = banks && atoi(banks) < 2 ? 1u : 2u;
  ws_touch_grid = 3 | (1ull << 32);
  CHECK(ws_touch(c, in_c, 5) == 4 * page + 123 && page_banks_seen == want3);
  ws_touch_grid = 1 | (3ull << 32);
  CHECK(ws_touch(c, in_c, 5) == 4 * page + 123 && page_banks_seen == want3);
  ws_touch_grid = 1 | (1ull << 32), ws_touch_grid_z = 3;
  CHECK(ws_touch(c, in_c, 5) == 4 * page + 123 && page_banks_seen == want3);
  ws_touch_grid = 2 | (2ull << 32), ws_touch_grid_z = 2;
  CHECK(ws_touch(e, in_e, 2) == 2 * page &&
        page_banks_seen ==
            (banks && (uint32_t)atoi(banks) < 8 ? (uint32_t)atoi(banks) : 8u));
  ws_touch_grid = 1 | (1ull << 32), ws_touch_grid_z = 1;
  CHECK(ws_touch(e, in_e, 2) == 2 * page && page_banks_seen == 1);
  ws_touch_grid = 64 | (1ull << 32);
  /* Each of the 7 launches passed the header by value too, the same. */
  CHECK(ws_values_same == 7 && ws_values_other == 0);
  free(arena);
  return check_summary("intercept ws pages");
}

/* The start of a working-set test: the mode on, kernel k registered (one
 * pointer parameter) and an arena of `bytes` for the fake allocations. */
static int ws_test_start(uint64_t bytes) {
  setenv("PASTA_WORKING_SET", "1", 1);
  __pasta_register_kernel(&k_handle, "_Z6kernelPc", &k_plain, &k_ws, NULL, 1, 1,
                          NULL);
  arena = arena_next = calloc(1, bytes);
  return CHECK(arena != NULL);
}

/* Run alone (`test_intercept ws_groups`): the host skips groups of 512
 * flags with none set. d (3 pages), then b (1,500 pages and 5 bytes: flags
 * 3 to 1,503, over groups 0, 1 and 2). One launch touches b's pages 0,
 * 508 (flag 511, the last of group 0), 509 (flag 512, the first of group
 * 1), 1,020 (flag 1,023, the last of group 1) and its last, partial page
 * (flag 1,503): 4 pages and 5 bytes; another page 1,200 alone (group 2). */
static int test_ws_groups(void) {
  const uint64_t page = 65536, size = 1500 * page + 5;
  if (!ws_test_start(1504 * page)) /* addresses, never touched */
    return check_summary("intercept ws groups");
  void *d = NULL, *b = NULL;
  CHECK(__pasta_malloc(&d, 3 * page, arena_malloc, &ops) == 0);
  CHECK(__pasta_malloc(&b, size, arena_malloc, &ops) == 0);
  const uint64_t in_b[] = {0, 508 * page, 509 * page + 1, 1020 * page,
                           size - 1};
  CHECK_EQ_U64(ws_touch(b, in_b, 5), 4 * page + 5);
  const uint64_t one[] = {1200 * page + 7};
  CHECK_EQ_U64(ws_touch(b, one, 1), page);
  free(arena);
  return check_summary("intercept ws groups");
}

/* Run alone (`test_intercept ws_shared_group`): two allocations share a
 * group of flags, and the host counts a group's flags from its total only
 * where one allocation has all of it. d (3 pages, flags 0 to 2), then b
 * (1,500 pages and 5 bytes, flags 3 to 1,503). One launch touches d's page
 * 1 (flag 1, stored at byte 129 of group 0, among b's flags), b's pages 0
 * (flag 3, stored at byte 387), 600 (flag 603, in group 1: all b's) and its
 * last, partial one (flag 1,503, stored at byte 1,119): d 1 page, b 2 pages
 * and 5 bytes. A count of group 0's flags as b's gives b d's page too; a
 * look at group 0's flags in page order, d's page as b's page 126. */
static int test_ws_shared_group(void) {
  const uint64_t page = 65536, size = 1500 * page + 5;
  if (!ws_test_start(1504 * page)) /* addresses, never touched */
    return check_summary("intercept ws shared group");
  void *d = NULL, *b = NULL;
  CHECK(__pasta_malloc(&d, 3 * page, arena_malloc, &ops) == 0);
  CHECK(__pasta_malloc(&b, size, arena_malloc, &ops) == 0);
  touch_also = d;
  touch_also_offset = page + 9;
  const uint64_t in_b[] = {0, 600 * page, size - 1};
  ws_touch(b, in_b, 3); /* two allocations: read below */
  touch_also = NULL;
  pasta_activity act;
  if (CHECK(pasta__activity_build(&act, 0) == 0) &&
      CHECK(act.num_ws_launches == 1)) {
    const pasta_activity_ws_launch *l = &act.ws_launches[0];
    CHECK_EQ_U64(l->touched_allocations, 2);
    CHECK_EQ_U64(l->footprint_bytes, 3 * page + size);
    CHECK_EQ_U64(l->touched_bytes, page + 2 * page + 5);
  }
  pasta__activity_free(&act);
  free(arena);
  return check_summary("intercept ws shared group");
}

void __pasta_register_kernel_fields(const void *, const uint32_t *, uint32_t);

/* Run alone (`test_intercept ws_fields`): a kernel (int n, struct {char *x;
 * char *p; char *q;} s) registered with pointer fields (1, 0), (1, 8),
 * (1, 16) and one past its parameters, (2, 0). A working-set launch's
 * header gives field j, in slot PASTA_WS_MAX_ARGS + j, the allocation the
 * field's pointer is in (p in a, q at b's last byte), zeros for a pointer
 * in none (x) and for the field past the parameters; registered again
 * without fields, the kernel's slots stay zero. */
static int test_ws_fields(void) {
  setenv("PASTA_WORKING_SET", "1", 1);
  const uint32_t pairs[] = {1, 0, 1, 8, 1, 16, 2, 0};
  __pasta_register_kernel(&kf_handle, "_Z2kf1S", &kf_plain, &kf_ws, NULL, 2, 0,
                          NULL);
  __pasta_register_kernel_fields(&kf_handle, pairs, 4);
  void *a = NULL, *b = NULL;
  CHECK(__pasta_malloc(&a, 200000, f_malloc, &ops) == 0);
  CHECK(__pasta_malloc(&b, 100, f_malloc, &ops) == 0);
  int n = 1;
  struct {
    char *x, *p, *q;
  } by_value = {(char *)0x1000, (char *)a + 70000, (char *)b + 99};
  void *args[2] = {&n, &by_value};
  memset(fields_seen, 0xff, sizeof fields_seen);
  CHECK(__pasta_launch_kernel(&kf_handle, 1 | (1ull << 32), 1, 32, 1, args, 0,
                              NULL, fake_launch, &ops) == 0);
  CHECK(num_launched == 1 && launched[0] == &kf_ws);
  CHECK(ws_values_same == 1 && ws_values_other == 0);
  const uint64_t a_at = (uint64_t)(uintptr_t)a, b_at = (uint64_t)(uintptr_t)b;
  CHECK(fields_seen[0].base == 0 && fields_seen[0].end == 0 &&
        fields_seen[0].flags == 0);
  CHECK(fields_seen[1].base == a_at && fields_seen[1].end == a_at + 200000 &&
        fields_seen[1].flags >= fields_pages_seen);
  CHECK(fields_seen[2].base == b_at && fields_seen[2].end == b_at + 100 &&
        fields_seen[2].flags >= fields_pages_seen &&
        fields_seen[2].flags != fields_seen[1].flags);
  CHECK(fields_seen[3].base == 0 && fields_seen[3].flags == 0);
  __pasta_register_kernel(&kf_handle, "_Z2kf1S", &kf_plain, &kf_ws, NULL, 2, 0,
                          NULL);
  CHECK(__pasta_launch_kernel(&kf_handle, 1 | (1ull << 32), 1, 32, 1, args, 0,
                              NULL, fake_launch, &ops) == 0);
  CHECK(num_launched == 2 && fields_seen[1].base == 0 &&
        fields_seen[2].base == 0);
  return check_summary("intercept ws fields");
}

/* Run alone (`test_intercept ws_ring`): working-set launches are read back
 * later, through a ring of 16 slots per GPU, in batches of up to 8 launches
 * on one stream (one copy back each, ending at the end of a half of the
 * ring). 28 launches each touch one page of c (a different one each time:
 * a slot whose flags were not cleared after its read-back would count two);
 * a new allocation before launch 20 makes the runtime harvest the launches
 * in flight (they read the old allocation table). Each launch's result
 * arrives once, in launch order, with its own page. Copies back: slots
 * 0-7 and 8-15 (launches 0-15), 0-3 (16-19, at the new table), 4-7
 * (20-23), 8-11 (24-27, at the end): 5, where each launch had its own. */
_Static_assert(PASTA_WS_SLOTS == 16, "test_ws_ring counts a ring of 16");
static int test_ws_ring(void) {
  const uint64_t page = 65536;
  if (!ws_test_start(110 * page))
    return check_summary("intercept ws ring");
  void *c = NULL, *f = NULL;
  CHECK(__pasta_malloc(&c, 100 * page, arena_malloc, &ops) == 0);
  void *arg = c;
  void *args[1] = {&arg};
  touch_alloc = c;
  num_touch_more = 0;
  for (int i = 0; i < 28; ++i) {
    if (i == 20) {
      pasta__state_lock();
      CHECK_EQ_U64(pasta__st.num_ws, 4); /* 0..3 made room for 16..19 */
      pasta__state_unlock();
      CHECK_EQ_U64(copies_back, 2);
      CHECK(__pasta_malloc(&f, 3 * page, arena_malloc, &ops) == 0);
    }
    touch_offset = (uint64_t)(i * 7 % 100) * page + 100;
    CHECK(__pasta_launch_kernel(&k_handle, 1 | (1ull << 32), 1, 32, 1, args, 0,
                                NULL, fake_launch, &ops) == 0);
    if (i == 20) {
      pasta__state_lock();
      CHECK_EQ_U64(pasta__st.num_ws, 20); /* the new table: 4..19 harvested */
      pasta__state_unlock();
      CHECK_EQ_U64(copies_back, 3);
    }
  }
  pasta_activity act;
  if (CHECK(pasta__activity_build(&act, 0) == 0)) {
    CHECK_EQ_U64(copies_back, 5);
    CHECK_EQ_U64(act.num_ws_launches, 28);
    for (size_t i = 0; i < act.num_ws_launches && i < 28; ++i) {
      const pasta_activity_ws_launch *l = &act.ws_launches[i];
      CHECK_MSG(
          l->id == i && l->touched_allocations == 1 &&
              l->touched_bytes == page && l->footprint_bytes == 100 * page,
          "ws launch %zu: id %llu, %llu bytes touched", i,
          (unsigned long long)l->id, (unsigned long long)l->touched_bytes);
    }
    pasta__activity_free(&act);
  }
  free(arena);
  return check_summary("intercept ws ring");
}

/* Run alone (`test_intercept ws_streams`): a batch holds launches of one
 * stream. Launches on streams A A A B B A A A (a half of the ring), then
 * 8 on A, then A B: copies back for launches 0-2, 3-4, 5-7, 8-15, 16 (at
 * the launch on B) and 17 (at the end): 6. Each launch counts its own
 * page, in launch order. */
static int test_ws_streams(void) {
  const uint64_t page = 65536;
  if (!ws_test_start(20 * page))
    return check_summary("intercept ws streams");
  void *c = NULL;
  CHECK(__pasta_malloc(&c, 18 * page, arena_malloc, &ops) == 0);
  void *arg = c;
  void *args[1] = {&arg};
  touch_alloc = c;
  num_touch_more = 0;
  static char stream_a, stream_b;
  const char *on = "AAABBAAAAAAAAAAAAB";
  const int n = (int)strlen(on);
  for (int i = 0; i < n; ++i) {
    touch_offset = (uint64_t)i * page;
    CHECK(__pasta_launch_kernel(&k_handle, 1 | (1ull << 32), 1, 32, 1, args, 0,
                                on[i] == 'A' ? &stream_a : &stream_b,
                                fake_launch, &ops) == 0);
    if (i == 7)
      CHECK_EQ_U64(copies_back, 3);
  }
  CHECK_EQ_U64(copies_back, 5);
  pasta_activity act;
  if (CHECK(pasta__activity_build(&act, 0) == 0)) {
    CHECK_EQ_U64(copies_back, 6);
    /* Each copy on the copy stream, after the event behind its batch's
     * last launch. */
    CHECK_EQ_U64(waits, 6);
    CHECK_EQ_U64(waits_not_last, 0);
    CHECK_EQ_U64(act.num_ws_launches, n);
    for (size_t i = 0; i < act.num_ws_launches && i < (size_t)n; ++i) {
      const pasta_activity_ws_launch *l = &act.ws_launches[i];
      CHECK_MSG(l->id == i && l->touched_allocations == 1 &&
                    l->touched_bytes == page,
                "ws launch %zu: %llu bytes touched", i,
                (unsigned long long)l->touched_bytes);
    }
    pasta__activity_free(&act);
  }
  free(arena);
  return check_summary("intercept ws streams");
}

/* Run alone (`test_intercept ws_threads`): one stream handle from two
 * threads may be two streams (cudaStreamPerThread), and a batch's copy
 * waits for its last launch only, so a batch holds one thread's launches.
 * Launches 0-1 from this thread, 2-3 from another, 4-5 from this one, all
 * on one handle: copies back for 0-1, 2-3 and 4-5 (one before: 0-5). */
struct ws_thread_launches {
  void **args;
  void *stream;
  uint64_t first, count;
};

static void *launch_from_thread(void *p) {
  const struct ws_thread_launches *t = p;
  for (uint64_t i = t->first; i < t->first + t->count; ++i) {
    touch_offset = i * 65536;
    CHECK(__pasta_launch_kernel(&k_handle, 1 | (1ull << 32), 1, 32, 1, t->args,
                                0, t->stream, fake_launch, &ops) == 0);
  }
  return NULL;
}

static int test_ws_threads(void) {
  const uint64_t page = 65536;
  if (!ws_test_start(8 * page))
    return check_summary("intercept ws threads");
  void *c = NULL;
  CHECK(__pasta_malloc(&c, 6 * page, arena_malloc, &ops) == 0);
  void *arg = c;
  void *args[1] = {&arg};
  touch_alloc = c;
  num_touch_more = 0;
  void *per_thread = (void *)(uintptr_t)2; /* cudaStreamPerThread */
  struct ws_thread_launches mine = {args, per_thread, 0, 2};
  launch_from_thread(&mine);
  struct ws_thread_launches other = {args, per_thread, 2, 2};
  pthread_t t;
  if (CHECK(pthread_create(&t, NULL, launch_from_thread, &other) == 0))
    pthread_join(t, NULL);
  mine.first = 4;
  launch_from_thread(&mine);
  pasta_activity act;
  if (CHECK(pasta__activity_build(&act, 0) == 0)) {
    CHECK_EQ_U64(copies_back, 3);
    CHECK_EQ_U64(act.num_ws_launches, 6);
    for (size_t i = 0; i < act.num_ws_launches && i < 6; ++i)
      CHECK_MSG(act.ws_launches[i].touched_bytes == page,
                "ws launch %zu: %llu bytes touched", i,
                (unsigned long long)act.ws_launches[i].touched_bytes);
    pasta__activity_free(&act);
  }
  free(arena);
  return check_summary("intercept ws threads");
}

/* Run alone (`test_intercept ws_headers`): a slot's header stays on the
 * device, so a launch whose header is the one its slot holds sends none.
 * Three rings of launches of one kernel with one argument, c: the first
 * ring sends one header per slot, the next two none. Then a ring with
 * argument e (another allocation: its range in args[0]) sends one per
 * slot again, and each launch's device header holds e. Every launch counts
 * its own page, and its header by value is the device's. */
static int test_ws_headers(void) {
  const uint64_t page = 65536;
  if (!ws_test_start(20 * page))
    return check_summary("intercept ws headers");
  void *c = NULL, *e = NULL;
  CHECK(__pasta_malloc(&c, 8 * page, arena_malloc, &ops) == 0);
  CHECK(__pasta_malloc(&e, 8 * page, arena_malloc, &ops) == 0);
  const int rings = 4, n = rings * PASTA_WS_SLOTS;
  num_touch_more = 0;
  for (int i = 0; i < n; ++i) {
    void *arg = i < 3 * PASTA_WS_SLOTS ? c : e;
    void *args[1] = {&arg};
    touch_alloc = arg;
    touch_offset = (uint64_t)(i % 8) * page;
    CHECK(__pasta_launch_kernel(&k_handle, 1 | (1ull << 32), 1, 32, 1, args, 0,
                                NULL, fake_launch, &ops) == 0);
    if (i == 3 * PASTA_WS_SLOTS - 1)
      CHECK_EQ_U64(headers_sent, PASTA_WS_SLOTS);
  }
  CHECK_EQ_U64(headers_sent, 2 * PASTA_WS_SLOTS);
  CHECK(arg_base_seen == (uint64_t)(uintptr_t)e);
  CHECK_EQ_U64(ws_values_same, n);
  CHECK_EQ_U64(ws_values_other, 0);
  pasta_activity act;
  if (CHECK(pasta__activity_build(&act, 0) == 0)) {
    CHECK_EQ_U64(act.num_ws_launches, n);
    for (size_t i = 0; i < act.num_ws_launches && i < (size_t)n; ++i) {
      const pasta_activity_ws_launch *l = &act.ws_launches[i];
      CHECK_MSG(l->id == i && l->touched_allocations == 1 &&
                    l->touched_bytes == page && l->footprint_bytes == 8 * page,
                "ws launch %zu: %llu bytes touched", i,
                (unsigned long long)l->touched_bytes);
    }
    pasta__activity_free(&act);
  }
  free(arena);
  return check_summary("intercept ws headers");
}

/* The bandwidth cache (PASTA_CACHE_DIR/peaks): believed only when it is a
 * regular file of this user's; a link, or another user's file in a shared
 * directory (as root: one chown'ed to nobody), is not read (before: another
 * user's figures became the peaks of the roofline). */
static int test_peaks_cache(void) {
  char dir[] = "/tmp/pasta-peaks-XXXXXX", path[64], link[64];
  if (!mkdtemp(dir))
    return 1;
  setenv("PASTA_CACHE_DIR", dir, 1);
  snprintf(path, sizeof path, "%s/peaks", dir);
  struct pasta_vendor_ops cache_ops = {0}; /* no copy: never measures */
  cache_ops.vendor = PASTA_VENDOR_CUDA;
  const pasta_device_peaks p = {.sm_count = 132,
                                .clock_khz = 1980000,
                                .mem_clock_khz = 2619000,
                                .bus_bits = 5120,
                                .cc_major = 9};
  FILE *f = fopen(path, "w");
  if (f) {
    fputs("v1-cc9.0-sm132-clk1980000-mclk2619000-bus5120 123000000000\n", f);
    fclose(f);
  }
  CHECK(pasta__calibrated_bandwidth(&cache_ops, &p) == 123e9);
  if (chown(path, 65534, 65534) == 0)
    CHECK(pasta__calibrated_bandwidth(&cache_ops, &p) == 0);
  snprintf(link, sizeof link, "%s/other", dir);
  rename(path, link);
  if (chown(link, geteuid(), getegid()) == 0 && symlink(link, path) == 0)
    CHECK(pasta__calibrated_bandwidth(&cache_ops, &p) == 0);
  unlink(path);
  unlink(link);
  rmdir(dir);
  return check_summary("intercept peaks cache");
}

/*===-- Resources of the counting and plain copies ------------------------===*/

/* A fake vendor's function attributes, laid out as cudaFuncAttributes
 * (CUDA) or hipFuncAttributes (ROCm 5.2) are; the offsets are written out
 * here from the vendors' headers, not taken from resources.c. The counting
 * copy kr_handle: 40 registers, 64 bytes of local memory, 1024 bytes of
 * static shared memory, at most 768 threads per block; its plain copy
 * kr_plain: 32 registers, no local memory, 1024 bytes, 1024 threads. On a
 * GPU of 2048 threads per SM (warps of 32), 6 blocks of 256 threads of the
 * counting copy fit on an SM and 8 of the plain one: occupancy 75% and
 * 100%. */
static char kr_handle, kr_plain, kq_handle, kq_plain;
static int attribute_calls, resource_occupancy_calls, resources_vendor;
static const void *attribute_funcs[8];
static int f_func_attributes(void *attributes, const void *func) {
  if (attribute_calls < 8)
    attribute_funcs[attribute_calls] = func;
  ++attribute_calls;
  if (func == &kq_plain)
    return 98; /* cudaErrorInvalidDeviceFunction */
  int counting = func == &kr_handle || func == &kq_handle;
  int32_t regs = counting ? 40 : 32, threads = counting ? 768 : 1024;
  uint64_t local = counting ? 64 : 0, shared = 1024;
  unsigned char *a = attributes;
  if (resources_vendor == PASTA_VENDOR_CUDA) {
    memcpy(a + 0, &shared, 8);   /* sharedSizeBytes */
    memcpy(a + 16, &local, 8);   /* localSizeBytes */
    memcpy(a + 24, &threads, 4); /* maxThreadsPerBlock */
    memcpy(a + 28, &regs, 4);    /* numRegs */
  } else {
    memcpy(a + 16, &local, 8);   /* localSizeBytes */
    memcpy(a + 28, &threads, 4); /* maxThreadsPerBlock */
    memcpy(a + 32, &regs, 4);    /* numRegs */
    memcpy(a + 48, &shared, 8);  /* sharedSizeBytes */
  }
  return 0;
}
static int f_resource_occupancy(int *blocks, const void *func, int threads,
                                uint64_t shmem) {
  ++resource_occupancy_calls;
  if (func == &kq_plain)
    return 98; /* cudaErrorInvalidDeviceFunction */
  if (threads != 256 || shmem != 512)
    return 1;
  *blocks = func == &kr_handle || func == &kq_handle ? 6 : 8;
  return 0;
}
static int f_device_attribute(int *value, int attribute, int device) {
  (void)device;
  /* max threads per SM and warp size: cudaDevAttrMaxThreadsPerMultiProcessor
   * 39, cudaDevAttrWarpSize 10; hipDeviceAttribute... 57 and 87 */
  int cuda = resources_vendor == PASTA_VENDOR_CUDA;
  *value = attribute == (cuda ? 39 : 57)   ? 2048
           : attribute == (cuda ? 10 : 87) ? 32
                                           : 0;
  return 0;
}

/* The figures of one kernel's copies are read at its first launch and never
 * again (the vendor asked twice per kernel, once per copy), from the
 * vendor's layout; the report's note says what counting changed. A plain
 * copy the vendor does not know has unknown figures and no note. */
static int test_kernel_resources(int vendor) {
  resources_vendor = vendor;
  struct pasta_vendor_ops rops = ops;
  rops.vendor = (uint64_t)vendor;
  rops.func_get_attributes = f_func_attributes;
  rops.occupancy_max_active_blocks = f_resource_occupancy;
  rops.device_get_attribute = f_device_attribute;
  __pasta_register_kernel(&kr_handle, "_Z2krv", &kr_plain, NULL, NULL, 0, 0,
                          NULL);
  __pasta_register_kernel(&kq_handle, "_Z2kqv", &kq_plain, NULL, NULL, 0, 0,
                          NULL);
  const uint64_t y1 = 1ull << 32; /* x | y << 32, as the launch packs them */
  for (int i = 0; i < 3; ++i)
    CHECK(__pasta_launch_kernel(&kr_handle, 4 | y1, 1, 256 | y1, 1, NULL, 512,
                                NULL, fake_launch, &rops) == 0);
  CHECK(attribute_calls == 2 && resource_occupancy_calls == 2);
  CHECK(attribute_funcs[0] == &kr_handle && attribute_funcs[1] == &kr_plain);
  CHECK(__pasta_launch_kernel(&kq_handle, 4 | y1, 1, 256 | y1, 1, NULL, 512,
                              NULL, fake_launch, &rops) == 0);
  CHECK(attribute_calls == 4 && resource_occupancy_calls == 4);
  pasta_activity act;
  CHECK(pasta__activity_build(&act, 0) == 0);
  const pasta_activity_kernel *kr = row_of(&act, "kr()");
  const pasta_activity_kernel *kq = row_of(&act, "kq()");
  if (CHECK(kr && kq)) {
    const pasta_activity_resources *r = &kr->resources;
    CHECK(r->known && r->block_threads == 256 &&
          r->dynamic_shared_bytes == 512 && r->warp_size == 32 &&
          r->max_threads_per_sm == 2048);
    CHECK(r->counting.registers == 40 && r->plain.registers == 32);
    CHECK(r->counting.local_bytes == 64 && r->plain.local_bytes == 0);
    CHECK(r->counting.shared_bytes == 1024 && r->plain.shared_bytes == 1024);
    CHECK(r->counting.max_threads == 768 && r->plain.max_threads == 1024);
    CHECK(r->counting.blocks_per_sm == 6 && r->plain.blocks_per_sm == 8);
    CHECK(pasta__occupancy(r, &r->counting) == 0.75 &&
          pasta__occupancy(r, &r->plain) == 1.0);
    char note[512];
    CHECK(pasta__resources_perturbed(r, note, sizeof note));
    CHECK_HAS_STR(note, "raised registers 32 -> 40");
    CHECK_HAS_STR(note, "local memory (stack, spills) 0 -> 64 bytes");
    CHECK_HAS_STR(note, "lowered occupancy 100% -> 75%");
    const pasta_activity_resources *q = &kq->resources;
    CHECK(q->known && q->counting.registers == 40 && q->plain.registers == -1 &&
          q->plain.local_bytes == -1 && q->plain.blocks_per_sm == -1);
    CHECK(!pasta__resources_perturbed(q, note, sizeof note));
  }
  pasta__activity_free(&act);
  return check_summary("intercept kernel resources");
}

/*===-- The register-capped counting copy ---------------------------------===*/

/* kc's counting kernel takes blocks of at most 512 threads (128 registers),
 * its capped copy and plain copy 1024; kt's capped copy is a stub (largest
 * block one thread: its own bounds fit, or the device code has none). A
 * counting kernel launched with more threads than it takes fails as the
 * vendor would (cudaErrorLaunchOutOfResources). The capped copy: 64
 * registers and 200 bytes of local memory; 2 blocks of 1024 threads of
 * every copy fit on an SM of 2048 threads. */
static char kc_handle, kc_plain, kc_capped, kt_handle, kt_plain, kt_capped;
static char kv_handle, kv_plain, kv_capped, kv_div; /* divergence mode */
static int capped_attribute_calls;
static int f_capped_attributes(void *attributes, const void *func) {
  ++capped_attribute_calls;
  int32_t threads = func == &kc_handle || func == &kt_handle ||
                            func == &kv_handle || func == &kv_div
                        ? 512
                    : func == &kt_capped ? 1
                                         : 1024;
  int32_t regs = func == &kc_capped ? 64 : func == &kc_plain ? 56 : 128;
  uint64_t local = func == &kc_capped ? 200 : 0, shared = 0;
  unsigned char *a = attributes; /* cudaFuncAttributes */
  memcpy(a + 0, &shared, 8);     /* sharedSizeBytes */
  memcpy(a + 16, &local, 8);     /* localSizeBytes */
  memcpy(a + 24, &threads, 4);   /* maxThreadsPerBlock */
  memcpy(a + 28, &regs, 4);      /* numRegs */
  return 0;
}
static int f_capped_occupancy(int *blocks, const void *func, int threads,
                              uint64_t shmem) {
  (void)shmem;
  int most = func == &kc_handle || func == &kt_handle ? 512 : 1024;
  *blocks = threads > most ? 0 : 2048 / threads;
  return 0;
}
/* Dynamic shared memory no kernel may have: every copy is refused. */
enum { CAPPED_BAD_SHMEM = 1 << 30 };
static int f_capped_launch(const void *fn, uint64_t gxy, uint32_t gz,
                           uint64_t bxy, uint32_t bz, void **args,
                           uint64_t shmem, void *stream) {
  (void)gxy, (void)gz, (void)args, (void)stream;
  if (shmem == CAPPED_BAD_SHMEM)
    return 1; /* cudaErrorInvalidValue: the launch's own */
  uint64_t threads = (uint32_t)bxy * (bxy >> 32) * bz;
  if ((fn == &kc_handle || fn == &kt_handle || fn == &kv_handle ||
       fn == &kv_div) &&
      threads > 512)
    return 701; /* cudaErrorLaunchOutOfResources */
  if (num_launched < 16)
    launched[num_launched++] = fn;
  return 0;
}

/* The fake CUDA vendor of the capped-copy tests: counting kernels that
 * take blocks of up to 512 threads, capped copies that take 1,024. */
/* A fake CUDA vendor answering the resource queries (kernel attributes,
 * occupancy, device attributes) with the given fakes. */
static struct pasta_vendor_ops
fake_cuda_ops(__typeof__(ops.func_get_attributes) attributes,
              __typeof__(ops.occupancy_max_active_blocks) occupancy,
              __typeof__(ops.device_get_attribute) device_attribute) {
  struct pasta_vendor_ops cops = ops;
  cops.vendor = PASTA_VENDOR_CUDA;
  cops.func_get_attributes = attributes;
  cops.occupancy_max_active_blocks = occupancy;
  cops.device_get_attribute = device_attribute;
  resources_vendor = PASTA_VENDOR_CUDA;
  return cops;
}
static struct pasta_vendor_ops capped_vendor_ops(void) {
  return fake_cuda_ops(f_capped_attributes, f_capped_occupancy,
                       f_device_attribute);
}

/* Run alone (`test_intercept capped`), every launch in the window. Blocks
 * the counting kernel takes run it (those of up to 256 threads without
 * asking the vendor); larger ones run the capped copy, counted, the
 * vendor's largest blocks asked once per copy; a kernel whose capped copy
 * is a stub runs its plain copy, uncounted, as before. The profile's
 * resources are those of the first capped launch, the capped copy's
 * beside the others. */
static int test_capped_copy(void) {
  struct pasta_vendor_ops cops = capped_vendor_ops();
  __pasta_register_kernel(&kc_handle, "_Z2kcv", &kc_plain, NULL, NULL, 0, 0,
                          NULL);
  __pasta_register_capped_kernel(&kc_handle, &kc_capped);
  __pasta_register_kernel(&kt_handle, "_Z2ktv", &kt_plain, NULL, NULL, 0, 0,
                          NULL);
  __pasta_register_capped_kernel(&kt_handle, &kt_capped);
  const uint64_t y1 = 1ull << 32; /* x | y << 32, as the launch packs them */
  CHECK(__pasta_launch_kernel(&kc_handle, 4 | y1, 1, 256 | y1, 1, NULL, 0, NULL,
                              f_capped_launch, &cops) == 0);
  /* The first launch's resources only: the counting and plain copies. */
  CHECK(capped_attribute_calls == 2);
  CHECK(__pasta_launch_kernel(&kc_handle, 4 | y1, 1, 1024 | y1, 1, NULL, 0,
                              NULL, f_capped_launch, &cops) == 0);
  int after_first_capped = capped_attribute_calls;
  CHECK(__pasta_launch_kernel(&kc_handle, 4 | y1, 1, 32 | (32ull << 32), 1,
                              NULL, 0, NULL, f_capped_launch, &cops) == 0);
  CHECK(__pasta_launch_kernel(&kc_handle, 4 | y1, 1, 512 | y1, 1, NULL, 0, NULL,
                              f_capped_launch, &cops) == 0);
  CHECK(capped_attribute_calls == after_first_capped); /* asked once */
  CHECK(num_launched == 4 && launched[0] == &kc_handle &&
        launched[1] == &kc_capped && launched[2] == &kc_capped &&
        launched[3] == &kc_handle);
  CHECK(__pasta_launch_kernel(&kt_handle, 4 | y1, 1, 1024 | y1, 1, NULL, 0,
                              NULL, f_capped_launch, &cops) == 0);
  CHECK(num_launched == 5 && launched[4] == &kt_plain);
  pasta_activity act;
  CHECK(pasta__activity_build(&act, 0) == 0);
  const pasta_activity_kernel *kc = row_of(&act, "kc()");
  const pasta_activity_kernel *kt = row_of(&act, "kt()");
  if (CHECK(kc && kt)) {
    CHECK(kc->launches == 4 && kc->counted == 4 && kc->failed == 0);
    CHECK(kt->launches == 1 && kt->counted == 0 && kt->failed == 0);
    const pasta_activity_resources *r = &kc->resources;
    CHECK(r->known && r->has_capped && r->block_threads == 1024);
    CHECK(r->counting.registers == 128 && r->counting.blocks_per_sm == 0 &&
          r->plain.registers == 56 && r->capped.registers == 64 &&
          r->capped.local_bytes == 200 && r->capped.blocks_per_sm == 2);
    char note[640];
    CHECK(pasta__resources_perturbed(r, note, sizeof note));
    CHECK_HAS_STR(note, "ran its register-capped copy, counted");
    CHECK(kt->resources.known && !kt->resources.has_capped);
  }
  pasta__activity_free(&act);
  return check_summary("intercept capped copy");
}

/* Run alone (`test_intercept capped_fallback`), in divergence mode: a
 * divergence copy the block is too large for is not tried (its largest
 * block, asked of the vendor, is smaller): the launch runs the counting
 * copy that takes the block, here the capped one (counted; the program
 * sees success), with one warning; the copy stays for blocks it takes, and
 * the next large launch runs the capped copy without another warning
 * ("has no divergence copy"). A block of 256 threads runs the copy. */
static int test_capped_fallback(void) {
  setenv("PASTA_DIVERGENCE", "1", 1);
  struct pasta_vendor_ops cops = capped_vendor_ops();
  __pasta_register_kernel(&kv_handle, "_Z2kvv", &kv_plain, NULL, NULL, 0, 0,
                          NULL);
  __pasta_register_capped_kernel(&kv_handle, &kv_capped);
  __pasta_register_divergence_kernel(&kv_handle, &kv_div);
  struct stderr_capture err;
  if (!CHECK(stderr_capture(&err)))
    return check_summary("intercept capped fallback");
  const uint64_t y1 = 1ull << 32;
  for (int i = 0; i < 2; ++i)
    CHECK(__pasta_launch_kernel(&kv_handle, 4 | y1, 1, 1024 | y1, 1, NULL, 0,
                                NULL, f_capped_launch, &cops) == 0);
  CHECK(__pasta_launch_kernel(&kv_handle, 4 | y1, 1, 256 | y1, 1, NULL, 0, NULL,
                              f_capped_launch, &cops) == 0);
  char text[1024];
  stderr_release(&err, text, sizeof text);
  CHECK(num_launched == 3 && launched[0] == &kv_capped &&
        launched[1] == &kv_capped && launched[2] == &kv_div);
  CHECK_HAS_STR(text, "no divergence copy of kernel '_Z2kvv' takes blocks of "
                      "1024 threads");
  /* Said once, and the copy is neither dropped nor "missing". */
  const char *nl = strchr(text, '\n');
  CHECK(nl && !strchr(nl + 1, '\n'));
  pasta_activity act;
  CHECK(pasta__activity_build(&act, 0) == 0);
  const pasta_activity_kernel *kv = row_of(&act, "kv()");
  CHECK(kv && kv->launches == 3 && kv->counted == 3 && kv->failed == 0 &&
        kv->resources.has_capped);
  /* Its divergence figures cover the one launch the copy ran; the two
   * others are counted by why, with the block no copy took. */
  if (CHECK(kv)) {
    CHECK(kv->div_measured == 1 && kv->div_by_block == 2 &&
          pasta__div_unmeasured(kv) == 2 && kv->div_block_threads == 1024);
    char note[640];
    CHECK(pasta__div_coverage_note(kv, note, sizeof note));
    CHECK_HAS_STR(note, "divergence figures from 1 of 3 launches; 2 ran no "
                        "divergence copy (2 with blocks of 1024 threads, "
                        "too large for its copies)");
  }
  pasta__activity_free(&act);
  return check_summary("intercept capped fallback");
}

/*===-- Mode copies that take the block -----------------------------------===*/

/* Each copy's largest block, as a copy's registers would set it: the
 * working-set copies of mf and mn take 480 threads (ptxas gave them more
 * than 128 registers), mf's capped working-set copy 1,024, mn's is a stub
 * (1); md's divergence copy (uncapped, a kernel of small blocks) 576, its
 * twin and general copy stubs; mt's capped divergence copy 1,024, its
 * uncapped twin 576. Everything else takes 1,024. */
static char mf_handle, mf_ws, mf_wscap, mn_handle, mn_ws, mn_wscap;
static char md_handle, md_div, md_divu, md_divg;
static char mt_handle, mt_div, mt_divu, mt_divg;
static int mode_fit_asks;
static int mf_largest(const void *f) {
  if (f == &mf_ws || f == &mn_ws)
    return 480;
  if (f == &md_div || f == &mt_divu)
    return 576;
  if (f == &mn_wscap || f == &md_divu || f == &md_divg || f == &mt_divg)
    return 1;
  return 1024;
}
static int f_mf_attributes(void *attributes, const void *func) {
  ++mode_fit_asks;
  int32_t threads = mf_largest(func);
  int32_t regs = threads >= 256 ? 65536 / threads : 255;
  uint64_t none = 0;
  unsigned char *a = attributes; /* cudaFuncAttributes */
  memcpy(a + 0, &none, 8);       /* sharedSizeBytes */
  memcpy(a + 16, &none, 8);      /* localSizeBytes */
  memcpy(a + 24, &threads, 4);   /* maxThreadsPerBlock */
  memcpy(a + 28, &regs, 4);      /* numRegs */
  return 0;
}
static int f_mf_occupancy(int *blocks, const void *func, int threads,
                          uint64_t shmem) {
  (void)shmem;
  *blocks = threads > mf_largest(func) ? 0 : 2048 / threads;
  if (*blocks > 32)
    *blocks = 32;
  return 0;
}
/* 4 SMs of 2,048 threads, warps of 32 (CUDA's attribute numbers). */
static int f_mf_device(int *value, int attribute, int device) {
  (void)device;
  *value = attribute == 16   ? 4
           : attribute == 39 ? 2048
           : attribute == 10 ? 32
                             : 0;
  return 0;
}
static int f_mf_launch(const void *fn, uint64_t gxy, uint32_t gz, uint64_t bxy,
                       uint32_t bz, void **args, uint64_t shmem, void *stream) {
  (void)gxy, (void)gz, (void)args, (void)shmem, (void)stream;
  uint64_t threads = (uint32_t)bxy * (bxy >> 32) * bz;
  if (threads > (uint64_t)mf_largest(fn))
    return 701; /* cudaErrorLaunchOutOfResources */
  if (num_launched < 16)
    launched[num_launched++] = fn;
  return 0;
}

/* Run alone (`test_intercept mode_fit_ws`), in working-set mode. A block
 * the working-set copy's registers do not allow runs its capped twin,
 * tracked; where the twin is a stub, the counting kernel runs that launch
 * (once said; the exit's report counts it as skipped) and the copy stays
 * for blocks it takes. Nothing is refused: the largest blocks are asked
 * once per copy, and only for blocks over 256 threads. */
static int test_mode_fit_ws(void) {
  setenv("PASTA_WORKING_SET", "1", 1);
  struct pasta_vendor_ops cops =
      fake_cuda_ops(f_mf_attributes, f_mf_occupancy, f_mf_device);
  __pasta_register_kernel(&mf_handle, "_Z2mfv", NULL, &mf_ws, NULL, 0, 0, NULL);
  __pasta_register_ws_capped_kernel(&mf_handle, &mf_wscap);
  __pasta_register_kernel(&mn_handle, "_Z2mnv", NULL, &mn_ws, NULL, 0, 0, NULL);
  __pasta_register_ws_capped_kernel(&mn_handle, &mn_wscap);
  struct stderr_capture err;
  if (!CHECK(stderr_capture(&err)))
    return check_summary("intercept mode copies that fit, working set");
  const uint64_t y1 = 1ull << 32;
  const void *handles[6] = {&mf_handle, &mf_handle, &mf_handle,
                            &mn_handle, &mn_handle, &mn_handle};
  const uint64_t blocks[6] = {512 | y1, 256 | y1, 512 | y1,
                              512 | y1, 256 | y1, 1024 | y1};
  for (int i = 0; i < 6; ++i)
    CHECK(__pasta_launch_kernel(handles[i], 4 | y1, 1, blocks[i], 1, NULL, 0,
                                NULL, f_mf_launch, &cops) == 0);
  char text[1024];
  stderr_release(&err, text, sizeof text);
  CHECK(num_launched == 6 && launched[0] == &mf_wscap &&
        launched[1] == &mf_ws && launched[2] == &mf_wscap &&
        launched[3] == &mn_handle && launched[4] == &mn_ws &&
        launched[5] == &mn_handle);
  CHECK_HAS_STR(text, "no working-set copy of kernel '_Z2mnv' takes blocks "
                      "of 512 threads");
  CHECK(!strstr(text, "_Z2mfv") && !strstr(text, "cannot be launched") &&
        !strstr(text, "1024 threads")); /* once per kernel */
  pasta_activity act;
  CHECK(pasta__activity_build(&act, 0) == 0);
  CHECK(act.ws_skipped == 2);
  const pasta_activity_kernel *mn = row_of(&act, "mn()");
  CHECK(mn && mn->launches == 3 && mn->counted == 3 && mn->failed == 0);
  pasta__activity_free(&act);
  return check_summary("intercept mode copies that fit, working set");
}

/* Run alone (`test_intercept mode_fit_div`), in divergence mode. md's
 * divergence copy is uncapped with a stub twin (its shared arrays bound
 * thread index x, passes/BlockBound.h): a launch of dim3(16, 64) runs the
 * counting kernel (said once), a later one of 16 threads the copy. mt's
 * capped copy takes 1,024 threads where its uncapped twin does not: that
 * launch runs the capped copy, one of 16 threads in one wave the twin. */
static int test_mode_fit_div(void) {
  setenv("PASTA_DIVERGENCE", "1", 1);
  struct pasta_vendor_ops cops =
      fake_cuda_ops(f_mf_attributes, f_mf_occupancy, f_mf_device);
  __pasta_register_kernel(&md_handle, "_Z2mdv", NULL, NULL, NULL, 0, 0, NULL);
  __pasta_register_divergence_kernel(&md_handle, &md_div);
  __pasta_register_divergence_uncapped(&md_handle, &md_divu);
  __pasta_register_divergence_general(&md_handle, &md_divg);
  __pasta_register_kernel(&mt_handle, "_Z2mtv", NULL, NULL, NULL, 0, 0, NULL);
  __pasta_register_divergence_kernel(&mt_handle, &mt_div);
  __pasta_register_divergence_uncapped(&mt_handle, &mt_divu);
  __pasta_register_divergence_general(&mt_handle, &mt_divg);
  struct stderr_capture err;
  if (!CHECK(stderr_capture(&err)))
    return check_summary("intercept mode copies that fit, divergence");
  const uint64_t y1 = 1ull << 32, y64 = 64ull << 32;
  const void *handles[5] = {&md_handle, &md_handle, &md_handle, &mt_handle,
                            &mt_handle};
  const uint64_t blocks[5] = {16 | y64, 16 | y1, 16 | y64, 16 | y64, 16 | y1};
  for (int i = 0; i < 5; ++i)
    CHECK(__pasta_launch_kernel(handles[i], 4 | y1, 1, blocks[i], 1, NULL, 0,
                                NULL, f_mf_launch, &cops) == 0);
  char text[1024];
  stderr_release(&err, text, sizeof text);
  CHECK(num_launched == 5 && launched[0] == &md_handle &&
        launched[1] == &md_div && launched[2] == &md_handle &&
        launched[3] == &mt_div && launched[4] == &mt_divu);
  CHECK_HAS_STR(text, "no divergence copy of kernel '_Z2mdv' takes blocks of "
                      "1024 threads");
  const char *nl = strchr(text, '\n'); /* one line: said once */
  CHECK(nl && !strchr(nl + 1, '\n') && !strstr(text, "_Z2mtv"));
  pasta_activity act;
  CHECK(pasta__activity_build(&act, 0) == 0);
  const pasta_activity_kernel *md = row_of(&act, "md()");
  CHECK(md && md->launches == 3 && md->counted == 3 && md->failed == 0);
  CHECK(md && md->div_measured == 1 && md->div_by_block == 2 &&
        pasta__div_unmeasured(md) == 2 && md->div_block_threads == 1024);
  const pasta_activity_kernel *mt = row_of(&act, "mt()");
  CHECK(mt && mt->div_measured == 2 && pasta__div_unmeasured(mt) == 0);
  pasta__activity_free(&act);
  CHECK(!pasta__activity_divergence_unmeasured("_Z2mdv"));
  return check_summary("intercept mode copies that fit, divergence");
}

/* A capped launch refused for the launch's own reason (too much dynamic
 * shared memory: the counting kernel is refused the same way) returns that
 * error to the program and leaves the capped copy in use: the next launch
 * of 1,024 threads runs it, counted. */
static int test_capped_program_error(void) {
  struct pasta_vendor_ops cops = capped_vendor_ops();
  __pasta_register_kernel(&kc_handle, "_Z2kcv", &kc_plain, NULL, NULL, 0, 0,
                          NULL);
  __pasta_register_capped_kernel(&kc_handle, &kc_capped);
  const uint64_t y1 = 1ull << 32;
  CHECK(__pasta_launch_kernel(&kc_handle, 4 | y1, 1, 1024 | y1, 1, NULL,
                              CAPPED_BAD_SHMEM, NULL, f_capped_launch,
                              &cops) == 1);
  CHECK(__pasta_launch_kernel(&kc_handle, 4 | y1, 1, 1024 | y1, 1, NULL, 0,
                              NULL, f_capped_launch, &cops) == 0);
  CHECK(num_launched == 1 && launched[0] == &kc_capped);
  return check_summary("intercept capped program error");
}

/*===-- Occupancy queries and cooperative launches ------------------------===*/

/* A GPU of 4 SMs of 65,536 registers and 2,048 threads; a copy's largest
 * block and blocks per SM follow from its registers per thread (a stub's
 * largest block is one thread). Three kernels, the shapes of cuda-samples'
 * cooperative programs:
 *  - cg (conjugateGradientMultiBlockCG): plain 48, counting 80, capped 64
 *    registers: at 512 threads the plain and capped copies fit 2 blocks an
 *    SM, the counting kernel 1;
 *  - rd (reductionMultiBlockCG): plain 32, counting 70, capped 64: at 1,024
 *    threads the plain copy fits 2 blocks an SM, the capped copy 1, the
 *    counting kernel none (its largest block is 928 threads);
 *  - st: plain 48, counting 80, and a stub for its capped copy. */
enum { CO_SMS = 4 };
static char cg_handle, cg_plain, cg_capped, rd_handle, rd_plain, rd_capped;
static char st_handle, st_plain, st_capped, co_unknown;
/* Divergence mode's kernels (test_persistent_divergence), their registers
 * by copy: handle, plain, capped, divergence copy. */
static char pv_handle, pv_plain, pv_capped, pv_div;
static char pw_handle, pw_plain, pw_capped, pw_div;
static char pz_handle, pz_plain, pz_capped, pz_div;
static char pq_handle, pq_plain, pq_ws; /* working-set mode's */
/* Driver handles (CUfunction) of cg, rd and st and of their copies, as a
 * fake cudaGetFuncBySymbol gives them, and CUkernels of rd's (cudaGetKernel,
 * then cuKernelGetFunction): the fakes answer for a handle as for its host
 * stub. */
static char cg_fn, cg_plain_fn, cg_capped_fn, rd_fn, rd_plain_fn, rd_capped_fn;
static char st_fn, st_plain_fn, st_capped_fn, rd_ck, rd_plain_ck, rd_capped_ck;
static const struct {
  const void *handle, *stub, *kernel; /* kernel: its CUkernel, or NULL */
} drv_handles[] = {{&cg_fn, &cg_handle, NULL},
                   {&cg_plain_fn, &cg_plain, NULL},
                   {&cg_capped_fn, &cg_capped, NULL},
                   {&rd_fn, &rd_handle, &rd_ck},
                   {&rd_plain_fn, &rd_plain, &rd_plain_ck},
                   {&rd_capped_fn, &rd_capped, &rd_capped_ck},
                   {&st_fn, &st_handle, NULL},
                   {&st_plain_fn, &st_plain, NULL},
                   {&st_capped_fn, &st_capped, NULL}};
enum { NUM_DRV_HANDLES = sizeof drv_handles / sizeof drv_handles[0] };
/* The host stub a handle was taken from, else `fn` itself. */
static const void *co_stub(const void *fn) {
  for (size_t i = 0; i < NUM_DRV_HANDLES; ++i)
    if (drv_handles[i].handle == fn)
      return drv_handles[i].stub;
  return fn;
}
static const struct {
  const void *fn;
  int registers;
} co_more[] = {{&pv_handle, 48}, {&pv_plain, 48},  {&pv_capped, 64},
               {&pv_div, 80},    {&pw_handle, 80}, {&pw_plain, 48},
               {&pw_capped, 64}, {&pw_div, 96},    {&pz_handle, 80},
               {&pz_plain, 48},  {&pz_div, 96},    {&pq_handle, 48},
               {&pq_plain, 48},  {&pq_ws, 96}};
static int co_registers(const void *fn) {
  fn = co_stub(fn);
  for (size_t i = 0; i < sizeof co_more / sizeof co_more[0]; ++i)
    if (co_more[i].fn == fn)
      return co_more[i].registers;
  return fn == &cg_handle || fn == &st_handle ? 80
         : fn == &rd_handle                   ? 70
         : fn == &cg_plain || fn == &st_plain ? 48
         : fn == &rd_plain                    ? 32
         : fn == &co_unknown                  ? 40
                                              : 64;
}
static int co_max_threads(const void *fn) {
  fn = co_stub(fn);
  if (fn == &st_capped || fn == &pz_capped)
    return 1;
  int most = 65536 / co_registers(fn) / 32 * 32;
  return most > 1024 ? 1024 : most;
}
static int co_blocks_per_sm(const void *fn, int threads) {
  if (threads <= 0 || threads > co_max_threads(fn))
    return 0;
  int by_registers = 65536 / (co_registers(fn) * threads);
  int by_threads = 2048 / threads;
  return by_registers < by_threads ? by_registers : by_threads;
}
static const void *co_asked; /* the copy the last query was answered for */
static int f_co_occupancy(int *blocks, const void *fn, int threads,
                          uint64_t shmem) {
  (void)shmem;
  co_asked = fn;
  *blocks = co_blocks_per_sm(fn, threads);
  return 0;
}
static int f_co_occupancy_flags(int *blocks, const void *fn, int threads,
                                uint64_t shmem, unsigned flags) {
  (void)flags;
  return f_co_occupancy(blocks, fn, threads, shmem);
}
/* 48 KB of shared memory an SM, shared evenly by the blocks. */
static int f_co_shared(uint64_t *bytes, const void *fn, int blocks,
                       int threads) {
  co_asked = fn;
  int fit = co_blocks_per_sm(fn, threads);
  *bytes = blocks > 0 && blocks <= fit ? 49152 / (uint64_t)blocks : 0;
  return 0;
}
static int f_co_block_size(int *grid, int *block, const void *fn,
                           uint64_t shmem, int limit) {
  (void)shmem, (void)limit;
  co_asked = fn;
  *block = co_max_threads(fn);
  *grid = CO_SMS * co_blocks_per_sm(fn, *block);
  return 0;
}
static int f_co_attributes(void *attributes, const void *fn) {
  co_asked = fn;
  int32_t threads = co_max_threads(fn), regs = co_registers(fn);
  uint64_t zero = 0;
  unsigned char *a = attributes; /* cudaFuncAttributes */
  memcpy(a + 0, &zero, 8);       /* sharedSizeBytes */
  memcpy(a + 16, &zero, 8);      /* localSizeBytes */
  memcpy(a + 24, &threads, 4);   /* maxThreadsPerBlock */
  memcpy(a + 28, &regs, 4);      /* numRegs */
  return 0;
}
static int f_co_sm_count(int *value, int attribute, int device) {
  (void)device;
  /* cudaDevAttrMultiProcessorCount 16, MaxThreadsPerMultiProcessor 39,
   * WarpSize 10 */
  *value = attribute == 16   ? CO_SMS
           : attribute == 39 ? 2048
           : attribute == 10 ? 32
                             : 0;
  return 0;
}
/* cudaLaunchCooperativeKernel: a block larger than the copy takes is
 * refused for its registers, a grid larger than the GPU holds at once as
 * too large. */
static int f_co_launch(const void *fn, uint64_t gxy, uint32_t gz, uint64_t bxy,
                       uint32_t bz, void **args, uint64_t shmem, void *stream) {
  (void)args, (void)shmem, (void)stream;
  int threads = (int)((uint32_t)bxy * (bxy >> 32) * bz);
  uint64_t blocks = (uint64_t)(uint32_t)gxy * (gxy >> 32) * gz;
  if (threads > co_max_threads(fn))
    return 701; /* cudaErrorLaunchOutOfResources */
  if (blocks > (uint64_t)CO_SMS * co_blocks_per_sm(fn, threads))
    return 720; /* cudaErrorCooperativeLaunchTooLarge */
  if (num_launched < 16)
    launched[num_launched++] = fn;
  return 0;
}
static struct pasta_vendor_ops cooperative_vendor_ops(void) {
  return fake_cuda_ops(f_co_attributes, f_co_occupancy, f_co_sm_count);
}
static void register_cooperative_kernels(void) {
  __pasta_register_kernel(&cg_handle, "_Z2cgv", &cg_plain, NULL, NULL, 0, 0,
                          NULL);
  __pasta_register_capped_kernel(&cg_handle, &cg_capped);
  __pasta_register_kernel(&rd_handle, "_Z2rdv", &rd_plain, NULL, NULL, 0, 0,
                          NULL);
  __pasta_register_capped_kernel(&rd_handle, &rd_capped);
  __pasta_register_kernel(&st_handle, "_Z2stv", &st_plain, NULL, NULL, 0, 0,
                          NULL);
  __pasta_register_capped_kernel(&st_handle, &st_capped);
}

/* `test_intercept occupancy`: what a program asks about its kernel is
 * answered for the plain copy, in every form (the counting kernel's
 * answers differ in each: 1 block an SM at 512 threads against 2, a
 * largest block of 800 threads against 1,024); a kernel PASTA did not
 * build is answered for itself. */
static int test_occupancy_queries(void) {
  struct pasta_vendor_ops cops = cooperative_vendor_ops();
  register_cooperative_kernels();
  int blocks = 0;
  CHECK(__pasta_occupancy_max_active_blocks(&blocks, &cg_handle, 512, 0,
                                            f_co_occupancy, &cops) == 0);
  CHECK(blocks == 2 && co_asked == &cg_plain);
  blocks = 0;
  CHECK(__pasta_occupancy_max_active_blocks_flags(
            &blocks, &rd_handle, 1024, 0, 0, f_co_occupancy_flags, &cops) == 0);
  CHECK(blocks == 2 && co_asked == &rd_plain);
  uint64_t shared = 0;
  CHECK(__pasta_occupancy_available_shared_memory(&shared, &cg_handle, 2, 512,
                                                  f_co_shared, &cops) == 0);
  CHECK(shared == 24576 && co_asked == &cg_plain);
  int grid = 0, block = 0;
  CHECK(__pasta_occupancy_max_potential_block_size(
            &grid, &block, &rd_handle, 0, 0, f_co_block_size, &cops) == 0);
  CHECK(block == 1024 && grid == 2 * CO_SMS && co_asked == &rd_plain);
  unsigned char attributes[64] = {0};
  int32_t threads = 0, regs = 0;
  CHECK(__pasta_func_get_attributes(attributes, &cg_handle, f_co_attributes,
                                    &cops) == 0);
  memcpy(&threads, attributes + 24, 4);
  memcpy(&regs, attributes + 28, 4);
  CHECK(threads == 1024 && regs == 48 && co_asked == &cg_plain);
  CHECK(__pasta_occupancy_max_active_blocks(&blocks, &co_unknown, 512, 0,
                                            f_co_occupancy, &cops) == 0);
  CHECK(blocks == 3 && co_asked == &co_unknown);
  return check_summary("intercept occupancy queries");
}

/* cudaFuncSetAttribute on a kernel: set on its plain copy first, whose
 * answer is the program's (the kernel it has without PASTA), then on the
 * counting kernel and each other copy, so that every copy's launch sees
 * it; a copy's refusal is cleared. */
static const void *set_on[8];
static int num_set, set_value_seen;
enum { COUNTING_REFUSES = 99999 }; /* more than the counting kernel takes */
static int f_co_set_attribute(const void *fn, int attribute, int value) {
  (void)attribute;
  if (num_set < 8)
    set_on[num_set++] = fn;
  set_value_seen = value;
  if (value < 0) /* the program's mistake: every copy refuses it */
    return 1;
  fn = co_stub(fn);
  return fn == &st_capped || (fn == &st_handle && value == COUNTING_REFUSES)
             ? 1 /* the stub, or the counting kernel's own limit */
             : 0;
}
static int last_error_reads;
static int f_co_last_error(void) {
  ++last_error_reads;
  return 0;
}
static int test_func_set_attribute(void) {
  struct pasta_vendor_ops cops = cooperative_vendor_ops();
  cops.get_last_error = f_co_last_error;
  register_cooperative_kernels();
  CHECK(__pasta_func_set_attribute(&st_handle, 8, 98304, f_co_set_attribute,
                                   &cops) == 0);
  CHECK(num_set == 3 && set_on[0] == &st_plain && set_value_seen == 98304);
  int counting = 0, capped = 0;
  for (int i = 1; i < num_set; ++i) {
    counting += set_on[i] == &st_handle;
    capped += set_on[i] == &st_capped;
  }
  CHECK(counting == 1 && capped == 1 && last_error_reads == 1);
  /* The counting kernel refuses what the plain copy takes: the program's
   * answer is the plain copy's, the refusal PASTA's (cleared). */
  num_set = 0;
  CHECK(__pasta_func_set_attribute(&st_handle, 8, COUNTING_REFUSES,
                                   f_co_set_attribute, &cops) == 0);
  CHECK(num_set == 3 && last_error_reads == 3);
  /* The plain copy's refusal is the program's answer: nothing more set. */
  num_set = 0;
  CHECK(__pasta_func_set_attribute(&st_handle, 8, -1, f_co_set_attribute,
                                   &cops) == 1);
  CHECK(num_set == 1 && set_on[0] == &st_plain);
  /* A kernel PASTA did not build: the call on itself. */
  num_set = 0;
  CHECK(__pasta_func_set_attribute(&co_unknown, 8, -1, f_co_set_attribute,
                                   &cops) == 1);
  CHECK(num_set == 1 && set_on[0] == &co_unknown);
  return check_summary("intercept func set attribute");
}

/* `test_intercept cooperative`: cooperative launches sized by the plain
 * copy's occupancy (8 blocks on the 4 SMs). cg's counting kernel cannot
 * hold 8 blocks of 512 at once; its capped copy can: counted. rd's
 * 1,024-thread blocks run the capped copy first (the counting kernel takes
 * none), which holds only 4: the plain copy runs, uncounted, with one
 * warning that says why; the capped copy stays in use (a grid of 4 runs it,
 * counted). st's capped copy is a stub: plain, uncounted. The program
 * sees success every time. */
static int test_cooperative_launches(void) {
  struct pasta_vendor_ops cops = cooperative_vendor_ops();
  register_cooperative_kernels();
  struct stderr_capture err;
  if (!CHECK(stderr_capture(&err)))
    return check_summary("intercept cooperative launches");
  const uint64_t y1 = 1ull << 32; /* x | y << 32, as the launch packs them */
  CHECK(__pasta_launch_kernel(&cg_handle, 8 | y1, 1, 512 | y1, 1, NULL, 0, NULL,
                              f_co_launch, &cops) == 0);
  CHECK(__pasta_launch_kernel(&rd_handle, 8 | y1, 1, 1024 | y1, 1, NULL, 0,
                              NULL, f_co_launch, &cops) == 0);
  CHECK(__pasta_launch_kernel(&rd_handle, 8 | y1, 1, 1024 | y1, 1, NULL, 0,
                              NULL, f_co_launch, &cops) == 0);
  CHECK(__pasta_launch_kernel(&rd_handle, 4 | y1, 1, 1024 | y1, 1, NULL, 0,
                              NULL, f_co_launch, &cops) == 0);
  CHECK(__pasta_launch_kernel(&st_handle, 8 | y1, 1, 512 | y1, 1, NULL, 0, NULL,
                              f_co_launch, &cops) == 0);
  /* One-thread blocks, more than the counting kernel holds (819 an SM):
   * st's capped copy is a stub whose largest block is 1 thread, which must
   * never run in the kernel's place (it would return at once, the
   * program's work undone). */
  CHECK(__pasta_launch_kernel(&st_handle, 4000 | y1, 1, 1 | y1, 1, NULL, 0,
                              NULL, f_co_launch, &cops) == 0);
  /* A block st's counting kernel cannot take (800 threads at most): the
   * plain copy again, and its own warning, though the grid's was said. */
  CHECK(__pasta_launch_kernel(&st_handle, 1 | y1, 1, 1024 | y1, 1, NULL, 0,
                              NULL, f_co_launch, &cops) == 0);
  char text[2048];
  stderr_release(&err, text, sizeof text);
  CHECK(num_launched == 7 && launched[0] == &cg_capped &&
        launched[1] == &rd_plain && launched[2] == &rd_plain &&
        launched[3] == &rd_capped && launched[4] == &st_plain &&
        launched[5] == &st_plain && launched[6] == &st_plain);
  CHECK_HAS_STR(text, "the counting copy of kernel '_Z2stv' needs more "
                      "registers than a block of 1024 threads can have");
  CHECK_HAS_STR(text, "kernel '_Z2rdv' need more registers than a cooperative "
                      "grid of 8 blocks of 1024 threads can have");
  CHECK_HAS_STR(text, "kernel '_Z2stv' need more registers than a cooperative "
                      "grid of 8 blocks of 512 threads can have");
  const char *second = strstr(text, "_Z2rdv");
  CHECK(second && !strstr(second + 1, "_Z2rdv")); /* said once */
  pasta_activity act;
  CHECK(pasta__activity_build(&act, 0) == 0);
  const pasta_activity_kernel *cg = row_of(&act, "cg()");
  const pasta_activity_kernel *rd = row_of(&act, "rd()");
  const pasta_activity_kernel *st = row_of(&act, "st()");
  if (CHECK(cg && rd && st)) {
    CHECK(cg->launches == 1 && cg->counted == 1 && cg->failed == 0 &&
          cg->resources.has_capped && cg->resources.block_threads == 512);
    /* The note says why the capped copy ran: the grid, not the block. */
    char note[640];
    CHECK(pasta__resources_perturbed(&cg->resources, note, sizeof note));
    CHECK_HAS_STR(note, "the counting copy cannot hold at once a grid the "
                        "plain copy's occupancy sized (blocks of 512 threads "
                        "per SM 2 -> 1, registers 48 -> 80)");
    CHECK(rd->launches == 3 && rd->counted == 1 && rd->failed == 0);
    CHECK(st->launches == 3 && st->counted == 0 && st->failed == 0);
  }
  pasta__activity_free(&act);
  return check_summary("intercept cooperative launches");
}

/* `test_intercept persistent`: non-cooperative grids of blocks that wait
 * for each other (a spin on a global counter), sized to what the GPU holds
 * of the plain copy at once (8 blocks on the 4 SMs), the program having
 * asked the occupancy API. Nothing refuses such a launch: a copy that
 * holds fewer blocks would hang the program. cg's counting kernel holds 4
 * blocks of 512, its capped copy 8: the capped copy runs, counted, asked
 * of the vendor once for the shape. rd's capped copy (the one its
 * 1,024-thread blocks need) holds 4: the plain copy, uncounted, said
 * once. A grid larger than the plain copy holds (64 blocks) is a normal
 * grid: counting. st, never asked about, runs counting as before. */
static int persistent_occupancy_calls;
static int f_persistent_occupancy(int *blocks, const void *fn, int threads,
                                  uint64_t shmem) {
  ++persistent_occupancy_calls;
  return f_co_occupancy(blocks, fn, threads, shmem);
}
/* cudaLaunchKernel: refuses only a block larger than the copy takes. */
static int f_persistent_launch(const void *fn, uint64_t gxy, uint32_t gz,
                               uint64_t bxy, uint32_t bz, void **args,
                               uint64_t shmem, void *stream) {
  (void)gxy, (void)gz, (void)args, (void)shmem, (void)stream;
  if ((int)((uint32_t)bxy * (bxy >> 32) * bz) > co_max_threads(fn))
    return 701; /* cudaErrorLaunchOutOfResources */
  if (num_launched < 16)
    launched[num_launched++] = fn;
  return 0;
}
static int test_persistent_grids(void) {
  struct pasta_vendor_ops cops = cooperative_vendor_ops();
  cops.occupancy_max_active_blocks = f_persistent_occupancy;
  register_cooperative_kernels();
  int blocks = 0;
  CHECK(__pasta_occupancy_max_active_blocks(&blocks, &cg_handle, 512, 0,
                                            f_co_occupancy, &cops) == 0 &&
        blocks == 2);
  CHECK(__pasta_occupancy_max_active_blocks(&blocks, &rd_handle, 1024, 0,
                                            f_co_occupancy, &cops) == 0 &&
        blocks == 2);
  struct stderr_capture err;
  if (!CHECK(stderr_capture(&err)))
    return check_summary("intercept persistent grids");
  const uint64_t y1 = 1ull << 32; /* x | y << 32, as the launch packs them */
  CHECK(__pasta_launch_kernel(&cg_handle, 8 | y1, 1, 512 | y1, 1, NULL, 0, NULL,
                              f_persistent_launch, &cops) == 0);
  int asked_first = persistent_occupancy_calls;
  CHECK(__pasta_launch_kernel(&cg_handle, 8 | y1, 1, 512 | y1, 1, NULL, 0, NULL,
                              f_persistent_launch, &cops) == 0);
  CHECK(persistent_occupancy_calls == asked_first); /* the shape's answer */
  CHECK(__pasta_launch_kernel(&rd_handle, 8 | y1, 1, 1024 | y1, 1, NULL, 0,
                              NULL, f_persistent_launch, &cops) == 0);
  CHECK(__pasta_launch_kernel(&rd_handle, 8 | y1, 1, 1024 | y1, 1, NULL, 0,
                              NULL, f_persistent_launch, &cops) == 0);
  CHECK(__pasta_launch_kernel(&cg_handle, 64 | y1, 1, 512 | y1, 1, NULL, 0,
                              NULL, f_persistent_launch, &cops) == 0);
  CHECK(__pasta_launch_kernel(&st_handle, 8 | y1, 1, 512 | y1, 1, NULL, 0, NULL,
                              f_persistent_launch, &cops) == 0);
  char text[2048];
  stderr_release(&err, text, sizeof text);
  /* rd's capped copy, chosen for its block, runs the grid though it holds
   * 4 of the 8 blocks at once: a grid-stride kernel sized this way (CUB's
   * radix-sort histogram) needs no residency, and its plain copy would
   * leave it uncounted. */
  CHECK(num_launched == 6 && launched[0] == &cg_capped &&
        launched[1] == &cg_capped && launched[2] == &rd_capped &&
        launched[3] == &rd_capped && launched[4] == &cg_handle &&
        launched[5] == &st_handle);
  CHECK(!strstr(text, "_Z2rdv") && !strstr(text, "_Z2cgv") &&
        !strstr(text, "_Z2stv"));
  pasta_activity act;
  CHECK(pasta__activity_build(&act, 0) == 0);
  const pasta_activity_kernel *cg = row_of(&act, "cg()");
  const pasta_activity_kernel *rd = row_of(&act, "rd()");
  const pasta_activity_kernel *st = row_of(&act, "st()");
  if (CHECK(cg && rd && st)) {
    CHECK(cg->launches == 3 && cg->counted == 3 && cg->failed == 0 &&
          cg->resources.has_capped);
    CHECK(rd->launches == 2 && rd->counted == 2 && rd->failed == 0 &&
          rd->resources.has_capped);
    CHECK(st->launches == 1 && st->counted == 1 && st->failed == 0);
  }
  pasta__activity_free(&act);
  return check_summary("intercept persistent grids");
}

/* `test_intercept persistent_div`: PASTA_DIVERGENCE=1, the same grids (8
 * blocks of 512, what the plain copies hold at once) of kernels whose
 * divergence copy holds 4: the divergence copy runs each (a mode's copy is
 * never traded for another copy: its figures would be lost), whatever the
 * counting kernel or the capped copy holds. */
static int test_persistent_divergence(void) {
  setenv("PASTA_DIVERGENCE", "1", 1);
  struct pasta_vendor_ops cops = cooperative_vendor_ops();
  const void *kernels[3][4] = {{&pv_handle, &pv_plain, &pv_capped, &pv_div},
                               {&pw_handle, &pw_plain, &pw_capped, &pw_div},
                               {&pz_handle, &pz_plain, &pz_capped, &pz_div}};
  const char *names[3] = {"_Z2pvv", "_Z2pwv", "_Z2pzv"};
  for (int i = 0; i < 3; ++i) {
    __pasta_register_kernel(kernels[i][0], names[i], kernels[i][1], NULL, NULL,
                            0, 0, NULL);
    __pasta_register_capped_kernel(kernels[i][0], kernels[i][2]);
    __pasta_register_divergence_kernel(kernels[i][0], kernels[i][3]);
    int blocks = 0;
    CHECK(__pasta_occupancy_max_active_blocks(&blocks, kernels[i][0], 512, 0,
                                              f_co_occupancy, &cops) == 0 &&
          blocks == 2);
  }
  struct stderr_capture err;
  if (!CHECK(stderr_capture(&err)))
    return check_summary("intercept persistent grids, divergence");
  const uint64_t y1 = 1ull << 32;
  for (int i = 0; i < 3; ++i)
    CHECK(__pasta_launch_kernel(kernels[i][0], 8 | y1, 1, 512 | y1, 1, NULL, 0,
                                NULL, f_persistent_launch, &cops) == 0);
  /* A grid the divergence copy holds runs it. */
  CHECK(__pasta_launch_kernel(&pv_handle, 4 | y1, 1, 512 | y1, 1, NULL, 0, NULL,
                              f_persistent_launch, &cops) == 0);
  char text[2048];
  stderr_release(&err, text, sizeof text);
  CHECK(num_launched == 4 && launched[0] == &pv_div && launched[1] == &pw_div &&
        launched[2] == &pz_div && launched[3] == &pv_div);
  CHECK(num_launch_events == 4 &&
        launch_events[0].variant == PASTA_RUN_DIVERGENCE &&
        launch_events[1].variant == PASTA_RUN_DIVERGENCE &&
        launch_events[2].variant == PASTA_RUN_DIVERGENCE &&
        launch_events[3].variant == PASTA_RUN_DIVERGENCE);
  CHECK(!strstr(text, "_Z2pvv") && !strstr(text, "_Z2pwv") &&
        !strstr(text, "_Z2pzv"));
  return check_summary("intercept persistent grids, divergence");
}

/* `test_intercept persistent_ws`: PASTA_WORKING_SET=1, a grid of 8 blocks
 * of 512 (what pq's plain copy holds at once) whose working-set copy holds
 * 4 and counting kernel 8: the working-set copy runs it (its figures are
 * not traded for residency), none skipped. */
static int test_persistent_working_set(void) {
  setenv("PASTA_WORKING_SET", "1", 1);
  struct pasta_vendor_ops cops = cooperative_vendor_ops();
  __pasta_register_kernel(&pq_handle, "_Z2pqv", &pq_plain, &pq_ws, NULL, 0, 0,
                          NULL);
  int blocks = 0;
  CHECK(__pasta_occupancy_max_active_blocks(&blocks, &pq_handle, 512, 0,
                                            f_co_occupancy, &cops) == 0 &&
        blocks == 2);
  const uint64_t y1 = 1ull << 32;
  CHECK(__pasta_launch_kernel(&pq_handle, 8 | y1, 1, 512 | y1, 1, NULL, 0, NULL,
                              f_persistent_launch, &cops) == 0);
  CHECK(num_launched == 1 && launched[0] == &pq_ws);
  CHECK(num_launch_events == 1 &&
        launch_events[0].variant == PASTA_RUN_WORKING_SET);
  pasta_activity act;
  CHECK(pasta__activity_build(&act, 0) == 0);
  CHECK(act.ws_skipped == 0);
  const pasta_activity_kernel *pq = row_of(&act, "pq()");
  CHECK(pq && pq->launches == 1 && pq->counted == 1);
  pasta__activity_free(&act);
  return check_summary("intercept persistent grids, working set");
}

/* A fake cudaGetFuncBySymbol: the handle of each host stub above. */
static int get_func_calls;
static int f_drv_get_func(void **handle, const void *symbol) {
  ++get_func_calls;
  for (size_t i = 0; i < NUM_DRV_HANDLES; ++i)
    if (drv_handles[i].stub == symbol) {
      *handle = (void *)drv_handles[i].handle;
      return 0;
    }
  return 98; /* cudaErrorInvalidDeviceFunction */
}
/* cudaGetKernel and cuKernelGetFunction. */
static int f_drv_get_kernel(void **kernel, const void *symbol) {
  for (size_t i = 0; i < NUM_DRV_HANDLES; ++i)
    if (drv_handles[i].stub == symbol && drv_handles[i].kernel) {
      *kernel = (void *)drv_handles[i].kernel;
      return 0;
    }
  return 98;
}
static int f_drv_kernel_function(void **fn, const void *kernel) {
  for (size_t i = 0; i < NUM_DRV_HANDLES; ++i)
    if (drv_handles[i].kernel == kernel) {
      *fn = (void *)drv_handles[i].handle;
      return 0;
    }
  return 400; /* CUDA_ERROR_INVALID_HANDLE */
}
static int f_cu_block_size(int *grid, int *block, const void *fn,
                           const void *to_shmem, uint64_t shmem, int limit) {
  (void)to_shmem;
  return f_co_block_size(grid, block, fn, shmem, limit);
}
static int f_cu_block_size_flags(int *grid, int *block, const void *fn,
                                 const void *to_shmem, uint64_t shmem,
                                 int limit, unsigned flags) {
  (void)flags;
  return f_cu_block_size(grid, block, fn, to_shmem, shmem, limit);
}
/* cuFuncGetAttribute: CU_FUNC_ATTRIBUTE_NUM_REGS (4) and
 * MAX_THREADS_PER_BLOCK (0). */
static int f_cu_attribute(int *value, int attribute, const void *fn) {
  co_asked = fn;
  *value = attribute == 4 ? co_registers(fn) : co_max_threads(fn);
  return 0;
}

/* `test_intercept driver_occupancy`: the driver API's occupancy and
 * attribute queries, asked about a CUfunction the program took from its
 * kernel (cudaGetFuncBySymbol; cudaGetKernel then cuKernelGetFunction),
 * answer for the plain copy's handle, as the runtime's do; a handle PASTA
 * does not know is answered for itself. */
static int test_driver_occupancy(void) {
  struct pasta_vendor_ops cops = cooperative_vendor_ops();
  register_cooperative_kernels();
  void *f = NULL;
  CHECK(__pasta_get_func_by_symbol(&f, &cg_handle, f_drv_get_func, &cops) ==
            0 &&
        f == &cg_fn);
  int blocks = 0;
  CHECK(__pasta_occupancy_max_active_blocks(&blocks, f, 512, 0, f_co_occupancy,
                                            &cops) == 0);
  CHECK(blocks == 2 && co_asked == &cg_plain_fn);
  blocks = 0;
  CHECK(__pasta_occupancy_max_active_blocks_flags(
            &blocks, f, 512, 0, 0, f_co_occupancy_flags, &cops) == 0);
  CHECK(blocks == 2 && co_asked == &cg_plain_fn);
  uint64_t shared = 0;
  CHECK(__pasta_occupancy_available_shared_memory(&shared, f, 2, 512,
                                                  f_co_shared, &cops) == 0);
  CHECK(shared == 24576 && co_asked == &cg_plain_fn);
  int grid = 0, block = 0;
  CHECK(__pasta_cu_occupancy_max_potential_block_size(
            &grid, &block, f, NULL, 0, 0, f_cu_block_size, &cops) == 0);
  CHECK(block == 1024 && grid == CO_SMS && co_asked == &cg_plain_fn);
  grid = block = 0;
  CHECK(__pasta_cu_occupancy_max_potential_block_size_flags(
            &grid, &block, f, NULL, 0, 0, 0, f_cu_block_size_flags, &cops) ==
        0);
  CHECK(block == 1024 && grid == CO_SMS && co_asked == &cg_plain_fn);
  int regs = 0;
  CHECK(__pasta_cu_func_get_attribute(&regs, 4, f, f_cu_attribute, &cops) == 0);
  CHECK(regs == 48 && co_asked == &cg_plain_fn);
  /* The CUkernel route: rd's plain CUkernel, then its CUfunction. */
  void *ck = NULL, *rf = NULL;
  CHECK(__pasta_get_func_by_symbol(&ck, &rd_handle, f_drv_get_kernel, &cops) ==
            0 &&
        ck == &rd_ck);
  CHECK(__pasta_get_func_by_symbol(&rf, ck, f_drv_kernel_function, &cops) ==
            0 &&
        rf == &rd_fn);
  CHECK(__pasta_occupancy_max_active_blocks(&blocks, rf, 1024, 0,
                                            f_co_occupancy, &cops) == 0);
  CHECK(blocks == 2 && co_asked == &rd_plain_fn);
  /* A handle of a kernel PASTA did not build: itself. */
  static char other_fn;
  CHECK(__pasta_cu_func_get_attribute(&regs, 4, &other_fn, f_cu_attribute,
                                      &cops) == 0 &&
        co_asked == &other_fn);
  /* The queries marked the kernels (their launches may be persistent). */
  pasta__state_lock();
  CHECK(pasta__find_kernel(&cg_handle)->occupancy_asked &&
        pasta__find_kernel(&rd_handle)->occupancy_asked);
  pasta__state_unlock();
  return check_summary("intercept driver occupancy queries");
}

/* cuLaunchCooperativeKernel: refuses as cudaLaunchCooperativeKernel does
 * (f_co_launch), on driver handles. */
static int f_drv_cooperative(const void *f, uint32_t gx, uint32_t gy,
                             uint32_t gz, uint32_t bx, uint32_t by, uint32_t bz,
                             uint32_t shmem, void *stream, void **params) {
  return f_co_launch(f, gx | (uint64_t)gy << 32, gz, bx | (uint64_t)by << 32,
                     bz, params, shmem, stream);
}

/* cuLaunchKernel on driver handles: refuses only a block larger than the
 * copy takes (f_persistent_launch). */
static int f_drv_launch(const void *f, uint32_t gx, uint32_t gy, uint32_t gz,
                        uint32_t bx, uint32_t by, uint32_t bz, uint32_t shmem,
                        void *stream, void **params, void **extra) {
  (void)extra;
  return f_persistent_launch(f, gx | (uint64_t)gy << 32, gz,
                             bx | (uint64_t)by << 32, bz, params, shmem,
                             stream);
}

/* `test_intercept driver_cooperative`: cuLaunchCooperativeKernel of a
 * handle taken from a kernel falls back as cudaLaunchCooperativeKernel
 * does (test_cooperative_launches): cg's grid runs its capped copy's
 * handle, counted; rd's (1,024 threads: the capped copy takes the block,
 * not the grid) and st's (its capped copy a stub) run the plain copy's
 * handle, uncounted, with the cooperative warning. The program sees
 * success every time; the launches are the kernels'. A persistent grid of
 * cg launched by cuLaunchKernel after the driver's occupancy query runs
 * the capped copy's handle too (test_persistent_grids). */
static int test_driver_cooperative(void) {
  struct pasta_vendor_ops cops = cooperative_vendor_ops();
  register_cooperative_kernels();
  void *cg = NULL, *rd = NULL, *st = NULL;
  CHECK(__pasta_get_func_by_symbol(&cg, &cg_handle, f_drv_get_func, &cops) ==
        0);
  CHECK(__pasta_get_func_by_symbol(&rd, &rd_handle, f_drv_get_func, &cops) ==
        0);
  CHECK(__pasta_get_func_by_symbol(&st, &st_handle, f_drv_get_func, &cops) ==
        0);
  struct stderr_capture err;
  if (!CHECK(stderr_capture(&err)))
    return check_summary("intercept driver cooperative launches");
  CHECK(__pasta_launch_cooperative_kernel_driver(cg, 8, 1, 1, 512, 1, 1, 0,
                                                 NULL, NULL, f_drv_cooperative,
                                                 &cops) == 0);
  CHECK(__pasta_launch_cooperative_kernel_driver(rd, 8, 1, 1, 1024, 1, 1, 0,
                                                 NULL, NULL, f_drv_cooperative,
                                                 &cops) == 0);
  CHECK(__pasta_launch_cooperative_kernel_driver(st, 8, 1, 1, 512, 1, 1, 0,
                                                 NULL, NULL, f_drv_cooperative,
                                                 &cops) == 0);
  /* A persistent grid of cg through cuLaunchKernel (the program asked the
   * driver's occupancy query): its capped copy's handle, which holds it. */
  int blocks = 0;
  CHECK(__pasta_occupancy_max_active_blocks(&blocks, cg, 512, 0, f_co_occupancy,
                                            &cops) == 0 &&
        blocks == 2);
  CHECK(__pasta_module_launch_kernel(cg, 8, 1, 1, 512, 1, 1, 0, NULL, NULL,
                                     NULL, f_drv_launch, &cops) == 0);
  char text[2048];
  stderr_release(&err, text, sizeof text);
  CHECK(num_launched == 4 && launched[0] == &cg_capped_fn &&
        launched[1] == &rd_plain_fn && launched[2] == &st_plain_fn &&
        launched[3] == &cg_capped_fn);
  CHECK_HAS_STR(text, "kernel '_Z2rdv' need more registers than a cooperative "
                      "grid of 8 blocks of 1024 threads can have");
  CHECK_HAS_STR(text, "kernel '_Z2stv' need more registers than a cooperative "
                      "grid of 8 blocks of 512 threads can have");
  pasta_activity act;
  CHECK(pasta__activity_build(&act, 0) == 0);
  const pasta_activity_kernel *cgr = row_of(&act, "cg()");
  const pasta_activity_kernel *rdr = row_of(&act, "rd()");
  const pasta_activity_kernel *str = row_of(&act, "st()");
  if (CHECK(cgr && rdr && str)) {
    CHECK(cgr->launches == 2 && cgr->counted == 2 && cgr->failed == 0 &&
          cgr->resources.has_capped);
    CHECK(rdr->launches == 1 && rdr->counted == 0 && rdr->failed == 0);
    CHECK(str->launches == 1 && str->counted == 0 && str->failed == 0);
  }
  pasta__activity_free(&act);
  return check_summary("intercept driver cooperative launches");
}

/* `test_intercept div_unmeasured`: PASTA_DIVERGENCE=1, cg with a
 * divergence copy, rd without. cg's launch through its host stub runs the
 * copy (measured); one through a driver handle runs the counting kernel,
 * counted as not measured, by why; rd's launch is no divergence launch at
 * all (no copy, no rows). */
static char cg_div;
static int test_div_unmeasured(void) {
  setenv("PASTA_DIVERGENCE", "1", 1);
  struct pasta_vendor_ops cops = cooperative_vendor_ops();
  register_cooperative_kernels();
  __pasta_register_divergence_kernel(&cg_handle, &cg_div);
  void *cg = NULL;
  CHECK(__pasta_get_func_by_symbol(&cg, &cg_handle, f_drv_get_func, &cops) ==
        0);
  struct stderr_capture err;
  if (!CHECK(stderr_capture(&err)))
    return check_summary("intercept divergence launches not measured");
  const uint64_t y1 = 1ull << 32;
  CHECK(__pasta_launch_kernel(&cg_handle, 4 | y1, 1, 256 | y1, 1, NULL, 0, NULL,
                              f_persistent_launch, &cops) == 0);
  CHECK(__pasta_module_launch_kernel(cg, 4, 1, 1, 256, 1, 1, 0, NULL, NULL,
                                     NULL, f_drv_launch, &cops) == 0);
  CHECK(__pasta_launch_kernel(&rd_handle, 4 | y1, 1, 256 | y1, 1, NULL, 0, NULL,
                              f_persistent_launch, &cops) == 0);
  char text[2048];
  stderr_release(&err, text, sizeof text);
  CHECK(num_launched == 3 && launched[0] == &cg_div);
  pasta_activity act;
  CHECK(pasta__activity_build(&act, 0) == 0);
  const pasta_activity_kernel *cgr = row_of(&act, "cg()");
  const pasta_activity_kernel *rdr = row_of(&act, "rd()");
  char note[640];
  if (CHECK(cgr && rdr)) {
    CHECK(cgr->launches == 2 && cgr->counted == 2);
    CHECK(cgr->div_measured == 1 && cgr->div_by_driver_handle == 1 &&
          pasta__div_unmeasured(cgr) == 1 && cgr->div_block_threads == 0);
    CHECK(pasta__div_coverage_note(cgr, note, sizeof note));
    CHECK_HAS_STR(note, "divergence figures from 1 of 2 launches; 1 ran no "
                        "divergence copy (1 through a driver handle): the "
                        "figures derived from thread-level counts");
    CHECK(rdr->div_measured == 0 && pasta__div_unmeasured(rdr) == 0 &&
          !pasta__div_coverage_note(rdr, note, sizeof note));
  }
  pasta__activity_free(&act);
  return check_summary("intercept divergence launches not measured");
}

/* `test_intercept div_cooperative`: PASTA_DIVERGENCE=1, pv's divergence
 * copy (80 registers) holds 4 blocks of 512 at once, its counting kernel
 * (48) 8. A cooperative grid of 8 is refused to the divergence copy and
 * runs the counting kernel; the copy stays in use: a grid of 4 runs it,
 * and a grid of 8 again falls back. Said once, counted as refused. */
static int test_div_cooperative(void) {
  setenv("PASTA_DIVERGENCE", "1", 1);
  struct pasta_vendor_ops cops = cooperative_vendor_ops();
  __pasta_register_kernel(&pv_handle, "_Z2pvv", &pv_plain, NULL, NULL, 0, 0,
                          NULL);
  __pasta_register_capped_kernel(&pv_handle, &pv_capped);
  __pasta_register_divergence_kernel(&pv_handle, &pv_div);
  struct stderr_capture err;
  if (!CHECK(stderr_capture(&err)))
    return check_summary("intercept cooperative divergence launches");
  const uint64_t y1 = 1ull << 32;
  const uint64_t grids[3] = {8, 4, 8};
  for (int i = 0; i < 3; ++i)
    CHECK(__pasta_launch_cooperative_kernel(&pv_handle, grids[i] | y1, 1,
                                            512 | y1, 1, NULL, 0, NULL,
                                            f_co_launch, &cops) == 0);
  char text[2048];
  stderr_release(&err, text, sizeof text);
  CHECK(num_launched == 3 && launched[0] == &pv_handle &&
        launched[1] == &pv_div && launched[2] == &pv_handle);
  const char *said = "the divergence copy of kernel '_Z2pvv' cannot take a "
                     "launch of 8 blocks of 512 threads";
  const char *first = strstr(text, said);
  CHECK(first && !strstr(first + 1, said)); /* said once */
  CHECK(!strstr(text, "cannot be launched"));
  pasta_activity act;
  CHECK(pasta__activity_build(&act, 0) == 0);
  const pasta_activity_kernel *pv = row_of(&act, "pv()");
  if (CHECK(pv))
    CHECK(pv->launches == 3 && pv->counted == 3 && pv->div_measured == 1 &&
          pv->div_by_refusal == 2 && pasta__div_unmeasured(pv) == 2);
  pasta__activity_free(&act);
  return check_summary("intercept cooperative divergence launches");
}

/* cudaFuncSetCacheConfig / cuFuncSetCacheConfig: where each was made. */
static const void *config_on[8];
static int num_config;
static int f_set_config(const void *fn, int config) {
  (void)config;
  if (num_config < 8)
    config_on[num_config++] = fn;
  return co_stub(fn) == &st_capped; /* the stub refuses */
}

/* `test_intercept set_config`: cache and shared-memory configurations
 * reach every copy, the plain copy first (its answer the program's); the
 * runtime API's refusal by a copy is read back, the driver API's (which
 * keeps no last error) is not; cuFuncSetAttribute likewise. */
static int test_func_set_config(void) {
  struct pasta_vendor_ops cops = cooperative_vendor_ops();
  cops.get_last_error = f_co_last_error;
  register_cooperative_kernels();
  CHECK(__pasta_func_set_config(&st_handle, 2, f_set_config, &cops) == 0);
  CHECK(num_config == 3 && config_on[0] == &st_plain &&
        config_on[1] == &st_handle && config_on[2] == &st_capped);
  CHECK(last_error_reads == 1);
  void *st = NULL;
  CHECK(__pasta_get_func_by_symbol(&st, &st_handle, f_drv_get_func, &cops) ==
        0);
  num_config = 0;
  CHECK(__pasta_cu_func_set_config(st, 2, f_set_config, &cops) == 0);
  CHECK(num_config == 3 && config_on[0] == &st_plain_fn &&
        config_on[1] == &st_fn && config_on[2] == &st_capped_fn);
  num_set = 0;
  CHECK(__pasta_cu_func_set_attribute(st, 8, 98304, f_co_set_attribute,
                                      &cops) == 0);
  CHECK(num_set == 3 && set_on[0] == &st_plain_fn);
  CHECK(last_error_reads == 1); /* the driver's refusals: nothing to read */
  /* A kernel PASTA did not build: itself only. */
  num_config = 0;
  CHECK(__pasta_func_set_config(&co_unknown, 1, f_set_config, &cops) == 0);
  CHECK(num_config == 1 && config_on[0] == &co_unknown);
  return check_summary("intercept func set config");
}

/* The fake vendor's last error: a failing call replaces it, reading it
 * clears it, peeking does not. */
static int fake_last_error, fake_last_error_reads, fake_peeks;
static int f_pe_peek(void) {
  ++fake_peeks;
  return fake_last_error;
}
static int f_pe_get_last_error(void) {
  int e = fake_last_error;
  fake_last_error = 0;
  ++fake_last_error_reads;
  return e;
}
static int f_pe_launch(const void *fn, uint64_t gxy, uint32_t gz, uint64_t bxy,
                       uint32_t bz, void **args, uint64_t shmem, void *stream) {
  int err = f_co_launch(fn, gxy, gz, bxy, bz, args, shmem, stream);
  if (err)
    fake_last_error = err;
  return err;
}
static int f_pe_set_attribute(const void *fn, int attribute, int value) {
  int err = f_co_set_attribute(fn, attribute, value);
  if (err)
    fake_last_error = err;
  return err;
}
static int f_pe_get_func(void **handle, const void *symbol) {
  int err = f_drv_get_func(handle, symbol);
  if (err)
    fake_last_error = err;
  return err;
}

/* `test_intercept pending_error`: the program has an error pending
 * (cudaErrorMemoryAllocation, 2) when it sets an attribute and launches.
 * PASTA neither clears it nor replaces it: a setting is made on the plain
 * copy and waits for the kernel's launch to reach the copies; a launch
 * the counting kernel would be refused is not tried (a cooperative grid it
 * cannot hold runs the capped copy, a block it cannot take the plain
 * copy); no copy's handle is taken. With no error pending, a copy's
 * refusal is read back as before. */
static int test_pending_error(void) {
  struct pasta_vendor_ops cops = cooperative_vendor_ops();
  cops.peek_at_last_error = f_pe_peek;
  cops.get_last_error = f_pe_get_last_error;
  register_cooperative_kernels();
  fake_last_error = 2;
  CHECK(__pasta_func_set_attribute(&cg_handle, 8, 65536, f_pe_set_attribute,
                                   &cops) == 0);
  CHECK(num_set == 1 && set_on[0] == &cg_plain && fake_last_error == 2);
  const uint64_t y1 = 1ull << 32;
  CHECK(__pasta_launch_cooperative_kernel(&cg_handle, 8 | y1, 1, 512 | y1, 1,
                                          NULL, 0, NULL, f_pe_launch,
                                          &cops) == 0);
  CHECK(num_set == 3 && set_value_seen == 65536); /* made at the launch */
  CHECK(__pasta_launch_kernel(&st_handle, 1 | y1, 1, 1024 | y1, 1, NULL, 0,
                              NULL, f_pe_launch, &cops) == 0);
  CHECK(__pasta_launch_cooperative_kernel(&rd_handle, 8 | y1, 1, 1024 | y1, 1,
                                          NULL, 0, NULL, f_pe_launch,
                                          &cops) == 0);
  CHECK(num_launched == 3 && launched[0] == &cg_capped &&
        launched[1] == &st_plain && launched[2] == &rd_plain);
  CHECK(fake_last_error == 2 && fake_last_error_reads == 0);
  void *f = NULL;
  get_func_calls = 0;
  CHECK(__pasta_get_func_by_symbol(&f, &cg_handle, f_pe_get_func, &cops) == 0);
  CHECK(get_func_calls == 1 && fake_last_error == 2);
  /* A block the counting kernel takes (512 of cg's 800 threads), not
   * cooperative: nothing to refuse, nothing peeked. */
  int peeks = fake_peeks;
  CHECK(__pasta_launch_kernel(&cg_handle, 1 | y1, 1, 512 | y1, 1, NULL, 0, NULL,
                              f_pe_launch, &cops) == 0);
  CHECK(fake_peeks == peeks && num_launched == 4 && launched[3] == &cg_handle);
  /* A setting made while the error pends reaches the copies at the
   * kernel's next launch, also one captured into a graph (the counting
   * kernel goes into the graph and needs it). */
  num_set = 0;
  CHECK(__pasta_func_set_attribute(&cg_handle, 8, 4096, f_pe_set_attribute,
                                   &cops) == 0);
  CHECK(num_set == 1 && set_on[0] == &cg_plain);
  struct pasta_vendor_ops capturing = cops;
  capturing.stream_is_capturing = g_capturing_fn;
  g_capturing = 1;
  CHECK(__pasta_launch_kernel(&cg_handle, 1 | y1, 1, 512 | y1, 1, NULL, 0, NULL,
                              f_pe_launch, &capturing) == 0);
  g_capturing = 0;
  CHECK(num_set == 3 && fake_last_error == 2);
  /* The program reads its error; then a copy's refusal is PASTA's, read
   * back: the program finds none. */
  CHECK(f_pe_get_last_error() == 2);
  num_set = 0;
  CHECK(__pasta_func_set_attribute(&st_handle, 8, 65536, f_pe_set_attribute,
                                   &cops) == 0);
  CHECK(num_set == 3 && fake_last_error == 0);
  return check_summary("intercept pending error");
}

/* A cluster launch of 4 blocks (a kernel built with __cluster_dims__(4,1,1))
 * on a GPU whose GPCs have 2 SMs: refused (cudaErrorInvalidClusterSize)
 * where the copy takes fewer than 2 blocks an SM, and for every copy where
 * the grid is not a whole number of clusters (the program's own error). */
enum { CLUSTER_BLOCKS = 4, GPC_SMS = 2 };
static int f_cluster_launch(const void *fn, uint64_t gxy, uint32_t gz,
                            uint64_t bxy, uint32_t bz, void **args,
                            uint64_t shmem, void *stream) {
  (void)args, (void)shmem, (void)stream;
  int threads = (int)((uint32_t)bxy * (bxy >> 32) * bz);
  uint64_t blocks = (uint64_t)(uint32_t)gxy * (gxy >> 32) * gz;
  if (threads > co_max_threads(fn))
    return 701; /* cudaErrorLaunchOutOfResources */
  if (blocks % CLUSTER_BLOCKS ||
      GPC_SMS * co_blocks_per_sm(fn, threads) < CLUSTER_BLOCKS)
    return 912; /* cudaErrorInvalidClusterSize */
  if (num_launched < 16)
    launched[num_launched++] = fn;
  return 0;
}

/* `test_intercept cluster`: a cluster the counting copy cannot be given
 * (cg at 512 threads: 1 block an SM, the cluster needs 2) runs the capped
 * copy, counted; one the capped copy cannot be given either (rd at 1,024
 * threads) runs the plain copy, uncounted, with one warning naming the
 * cluster; a grid that is no whole number of clusters is the program's
 * error, returned as the plain build would (no warning). */
static int test_cluster_refusal(void) {
  struct pasta_vendor_ops cops = cooperative_vendor_ops();
  register_cooperative_kernels();
  struct stderr_capture err;
  if (!CHECK(stderr_capture(&err)))
    return check_summary("intercept cluster refusal");
  const uint64_t y1 = 1ull << 32; /* x | y << 32, as the launch packs them */
  CHECK(__pasta_launch_kernel(&cg_handle, 8 | y1, 1, 512 | y1, 1, NULL, 0, NULL,
                              f_cluster_launch, &cops) == 0);
  CHECK(__pasta_launch_kernel(&rd_handle, 8 | y1, 1, 1024 | y1, 1, NULL, 0,
                              NULL, f_cluster_launch, &cops) == 0);
  CHECK(__pasta_launch_kernel(&rd_handle, 8 | y1, 1, 1024 | y1, 1, NULL, 0,
                              NULL, f_cluster_launch, &cops) == 0);
  CHECK(__pasta_launch_kernel(&cg_handle, 6 | y1, 1, 512 | y1, 1, NULL, 0, NULL,
                              f_cluster_launch, &cops) == 912);
  char text[2048];
  stderr_release(&err, text, sizeof text);
  CHECK(num_launched == 3 && launched[0] == &cg_capped &&
        launched[1] == &rd_plain && launched[2] == &rd_plain);
  CHECK_HAS_STR(text, "the GPU refused a cluster launch of kernel '_Z2rdv' "
                      "(blocks of 1024 threads) for its counting copy");
  const char *second = strstr(text, "_Z2rdv");
  CHECK(second && !strstr(second + 1, "_Z2rdv")); /* said once */
  CHECK(!strstr(text, "_Z2cgv"));
  pasta_activity act;
  CHECK(pasta__activity_build(&act, 0) == 0);
  const pasta_activity_kernel *cgr = row_of(&act, "cg()");
  const pasta_activity_kernel *rdr = row_of(&act, "rd()");
  if (CHECK(cgr && rdr)) {
    CHECK(cgr->launches == 2 && cgr->counted == 1 && cgr->failed == 1);
    CHECK(rdr->launches == 2 && rdr->counted == 0 && rdr->failed == 0);
  }
  pasta__activity_free(&act);
  return check_summary("intercept cluster refusal");
}

/* cudaLaunchConfig_t with one cudaLaunchAttribute as cuda_runtime_api.h
 * lays them out (a 64-bit shared-memory size; the attribute's id, padding,
 * then its value: a cluster's dimensions). */
struct rt_cluster_attribute {
  int id;
  char pad[4];
  union {
    unsigned dim[3];
    char bytes[64];
  } value;
};
struct rt_launch_config {
  unsigned grid[3], block[3];
  uint64_t shared_bytes;
  void *stream;
  struct rt_cluster_attribute *attrs;
  unsigned num_attrs;
};
/* cudaLaunchKernelEx on the cluster fakes; a refusal is the last error. */
static int f_rt_cluster_ex(const void *config, const void *fn, void **args) {
  const struct rt_launch_config *c = config;
  int err =
      f_cluster_launch(fn, c->grid[0] | (uint64_t)c->grid[1] << 32, c->grid[2],
                       c->block[0] | (uint64_t)c->block[1] << 32, c->block[2],
                       args, c->shared_bytes, c->stream);
  if (err)
    fake_last_error = err;
  return err;
}

/* `test_intercept cluster_pending`: a cudaLaunchKernelEx launch in
 * clusters of 4 (cg at 512 threads, refused for its counting copy) while
 * the program has an error pending runs the plain copy at once, so the
 * program still reads its own error afterwards; with none pending, the
 * counting copy's refusal is read back and the capped copy runs. */
static int test_cluster_pending_error(void) {
  struct pasta_vendor_ops cops = cooperative_vendor_ops();
  cops.peek_at_last_error = f_pe_peek;
  cops.get_last_error = f_pe_get_last_error;
  register_cooperative_kernels();
  struct rt_cluster_attribute cluster = {.id = 4, .value.dim = {4, 1, 1}};
  struct rt_launch_config config = {{8, 1, 1}, {512, 1, 1}, 0,
                                    NULL,      &cluster,    1};
  struct stderr_capture err;
  if (!CHECK(stderr_capture(&err)))
    return check_summary("intercept cluster with an error pending");
  fake_last_error = 2;
  CHECK(__pasta_launch_kernel_ex(&config, &cg_handle, NULL, f_rt_cluster_ex,
                                 &cops) == 0);
  CHECK(fake_last_error == 2); /* the program's, kept */
  CHECK(f_pe_get_last_error() == 2);
  CHECK(__pasta_launch_kernel_ex(&config, &cg_handle, NULL, f_rt_cluster_ex,
                                 &cops) == 0);
  CHECK(fake_last_error == 0);
  char text[2048];
  stderr_release(&err, text, sizeof text);
  CHECK(num_launched == 2 && launched[0] == &cg_plain &&
        launched[1] == &cg_capped);
  CHECK_HAS_STR(text, "or the program had an error pending");
  return check_summary("intercept cluster with an error pending");
}

/* CUlaunchConfig and CUlaunchAttribute as cuda.h lays them out: a 32-bit
 * shared-memory size before the stream, attributes of an id and a 64-byte
 * value 8 bytes in. */
struct cu_launch_attribute {
  int id;
  char pad[4];
  union {
    int cooperative;
    char bytes[64];
  } value;
};
struct cu_launch_config {
  unsigned grid_x, grid_y, grid_z, block_x, block_y, block_z, shared_bytes;
  void *stream;
  struct cu_launch_attribute *attrs;
  unsigned num_attrs;
};

/* cuLaunchKernelEx: refuses as cuLaunchCooperativeKernel does when the
 * config is cooperative, else as cuLaunchKernel; every launch must see the
 * program's config (`ex_config`) and `extra` (`ex_extra`). */
static const void *ex_config;
static void **ex_extra;
static int ex_wrong_args;
static int f_drv_launch_ex(const void *config, const void *f, void **params,
                           void **extra) {
  const struct cu_launch_config *c = config;
  if (config != ex_config || extra != ex_extra)
    ++ex_wrong_args;
  uint64_t grid = c->grid_x | (uint64_t)c->grid_y << 32;
  uint64_t block = c->block_x | (uint64_t)c->block_y << 32;
  int cooperative =
      c->num_attrs == 1 && c->attrs[0].id == 2 && c->attrs[0].value.cooperative;
  return cooperative
             ? f_co_launch(f, grid, c->grid_z, block, c->block_z, params,
                           c->shared_bytes, c->stream)
             : f_persistent_launch(f, grid, c->grid_z, block, c->block_z,
                                   params, c->shared_bytes, c->stream);
}

/* The driver's entry point for "cuLaunchKernelEx". */
static int f_ex_entry_point(const char *symbol, void **fn, uint64_t flags,
                            void *status) {
  (void)flags, (void)status;
  *fn =
      strcmp(symbol, "cuLaunchKernelEx") == 0 ? (void *)f_drv_launch_ex : NULL;
  return 0;
}

/* `test_intercept driver_launch_ex`: cuLaunchKernelEx of a handle taken
 * from a kernel runs the counting copy's handle (cg), with the program's
 * config and `extra` untouched; with the cooperative attribute it falls
 * back as cuLaunchCooperativeKernel does (cg: its capped copy; rd at 1,024
 * threads: its plain copy, uncounted, with the warning). The config's
 * bytes after its 32-bit shared-memory size are garbage, as a program's
 * may be: the launch's shape must not read them (64 bytes, not 64 GB).
 * The same through cuLaunchKernelEx taken as a pointer. */
static int test_driver_launch_ex(void) {
  struct pasta_vendor_ops cops = cooperative_vendor_ops();
  register_cooperative_kernels();
  void *cg = NULL, *rd = NULL;
  CHECK(__pasta_get_func_by_symbol(&cg, &cg_handle, f_drv_get_func, &cops) ==
        0);
  CHECK(__pasta_get_func_by_symbol(&rd, &rd_handle, f_drv_get_func, &cops) ==
        0);
  struct cu_launch_attribute coop = {.id = 2, .value.cooperative = 1};
  struct cu_launch_config plain, together;
  memset(&plain, 0xff, sizeof plain); /* padding after shared_bytes */
  plain.grid_x = 8, plain.grid_y = plain.grid_z = 1;
  plain.block_x = 512, plain.block_y = plain.block_z = 1;
  plain.shared_bytes = 64, plain.stream = NULL;
  plain.attrs = NULL, plain.num_attrs = 0;
  together = plain;
  together.attrs = &coop, together.num_attrs = 1;
  void *extra[1] = {NULL};
  struct stderr_capture err;
  if (!CHECK(stderr_capture(&err)))
    return check_summary("intercept cuLaunchKernelEx");
  ex_config = &plain, ex_extra = extra;
  CHECK(__pasta_launch_kernel_ex_driver(&plain, cg, NULL, extra,
                                        f_drv_launch_ex, &cops) == 0);
  ex_config = &together, ex_extra = NULL;
  CHECK(__pasta_launch_kernel_ex_driver(&together, cg, NULL, NULL,
                                        f_drv_launch_ex, &cops) == 0);
  together.block_x = 1024;
  CHECK(__pasta_launch_kernel_ex_driver(&together, rd, NULL, NULL,
                                        f_drv_launch_ex, &cops) == 0);
  /* cuLaunchKernelEx taken through cudaGetDriverEntryPoint (CUTLASS's
   * way): PASTA's entry point, which runs cg's counting handle. */
  void *entry = NULL;
  CHECK(__pasta_get_driver_entry_point("cuLaunchKernelEx", &entry, 0, NULL,
                                       f_ex_entry_point, &cops) == 0);
  CHECK(entry && entry != (void *)f_drv_launch_ex);
  ex_config = &plain, ex_extra = NULL;
  if (entry)
    CHECK(((driver_launch_ex_fn)entry)(&plain, cg, NULL, NULL) == 0);
  char text[2048];
  stderr_release(&err, text, sizeof text);
  CHECK(ex_wrong_args == 0);
  CHECK(num_launched == 4 && launched[0] == &cg_fn &&
        launched[1] == &cg_capped_fn && launched[2] == &rd_plain_fn &&
        launched[3] == &cg_fn);
  CHECK_HAS_STR(text, "kernel '_Z2rdv' need more registers than a cooperative "
                      "grid of 8 blocks of 1024 threads can have");
  pasta_activity act;
  CHECK(pasta__activity_build(&act, 0) == 0);
  const pasta_activity_kernel *cgr = row_of(&act, "cg()");
  const pasta_activity_kernel *rdr = row_of(&act, "rd()");
  if (CHECK(cgr && rdr)) {
    CHECK(cgr->launches == 3 && cgr->counted == 3 && cgr->failed == 0);
    CHECK(rdr->launches == 1 && rdr->counted == 0 && rdr->failed == 0);
    CHECK(cgr->num_shapes >= 1 && cgr->shapes[0].shared_bytes == 64);
  }
  pasta__activity_free(&act);
  return check_summary("intercept cuLaunchKernelEx");
}

/* cuKernelGetAttribute, cuKernelSetAttribute, cuKernelSetCacheConfig on
 * CUkernels (rd's, as f_drv_get_kernel gives them), per device: which
 * CUkernel and device each call reached. */
static const void *ck_on[8];
static int ck_device[8], num_ck;
static void note_ck(const void *kernel, int device) {
  if (num_ck < 8)
    ck_on[num_ck] = kernel, ck_device[num_ck++] = device;
}
static int f_ck_get_attribute(int *value, int attribute, const void *kernel,
                              int device) {
  note_ck(kernel, device);
  *value = attribute == 4 && kernel == &rd_plain_ck ? 32 : 70;
  return 0;
}
static int f_ck_set_attribute(int attribute, int value, const void *kernel,
                              int device) {
  (void)attribute, (void)value;
  note_ck(kernel, device);
  return 0;
}
static int f_ck_set_config(const void *kernel, int config, int device) {
  (void)config;
  note_ck(kernel, device);
  return 0;
}

/* cudaOccupancyMaxActiveClusters and kin: the clusters of 2 blocks the
 * copy asked about holds at once. */
static int f_co_clusters(int *value, const void *fn, const void *config) {
  (void)config;
  co_asked = fn;
  *value = CO_SMS * co_blocks_per_sm(fn, 512) / 2;
  return 0;
}

/* `test_intercept kernel_attributes`: a CUkernel the program took from its
 * kernel (cudaGetKernel) is asked about as its plain copy's CUkernel (rd:
 * 32 registers, not the counting kernel's 70), on the device asked; a
 * setting reaches the plain copy's CUkernel first, then the counting
 * kernel's and the capped copy's, each on that device. The cluster
 * queries answer for the plain copy too. */
static int test_kernel_attributes(void) {
  struct pasta_vendor_ops cops = cooperative_vendor_ops();
  register_cooperative_kernels();
  void *ck = NULL;
  CHECK(__pasta_get_func_by_symbol(&ck, &rd_handle, f_drv_get_kernel, &cops) ==
            0 &&
        ck == &rd_ck);
  int regs = 0;
  CHECK(__pasta_cu_kernel_get_attribute(&regs, 4, ck, 3, f_ck_get_attribute,
                                        &cops) == 0);
  CHECK(regs == 32 && num_ck == 1 && ck_on[0] == &rd_plain_ck &&
        ck_device[0] == 3);
  num_ck = 0;
  CHECK(__pasta_cu_kernel_set_attribute(8, 65536, ck, 3, f_ck_set_attribute,
                                        &cops) == 0);
  CHECK(num_ck == 3 && ck_on[0] == &rd_plain_ck && ck_on[1] == &rd_ck &&
        ck_on[2] == &rd_capped_ck);
  CHECK(ck_device[0] == 3 && ck_device[1] == 3 && ck_device[2] == 3);
  num_ck = 0;
  CHECK(__pasta_cu_kernel_set_cache_config(ck, 2, 1, f_ck_set_config, &cops) ==
        0);
  CHECK(num_ck == 3 && ck_on[0] == &rd_plain_ck && ck_device[2] == 1);
  /* The cluster queries, on the kernel and on a CUfunction of it: cg's
   * plain copy holds 2 blocks of 512 an SM (4 clusters of 2 on 4 SMs),
   * the counting kernel 1. */
  int clusters = 0;
  CHECK(__pasta_occupancy_clusters(&clusters, &cg_handle, NULL, f_co_clusters,
                                   &cops) == 0);
  CHECK(clusters == 4 && co_asked == &cg_plain);
  void *f = NULL;
  CHECK(__pasta_get_func_by_symbol(&f, &cg_handle, f_drv_get_func, &cops) == 0);
  clusters = 0;
  CHECK(__pasta_occupancy_clusters(&clusters, f, NULL, f_co_clusters, &cops) ==
        0);
  CHECK(clusters == 4 && co_asked == &cg_plain_fn);
  return check_summary("intercept CUkernel attributes, cluster queries");
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "kernel_resources") == 0)
    return test_kernel_resources(argc > 2 && strcmp(argv[2], "hip") == 0
                                     ? PASTA_VENDOR_HIP
                                     : PASTA_VENDOR_CUDA);
  if (argc > 1 && strcmp(argv[1], "peaks_cache") == 0)
    return test_peaks_cache();
  if (argc > 1 && strcmp(argv[1], "resources") == 0)
    return test_out_of_resources();
  if (argc > 1 && strcmp(argv[1], "capped") == 0)
    return test_capped_copy();
  if (argc > 1 && strcmp(argv[1], "capped_error") == 0)
    return test_capped_program_error();
  if (argc > 1 && strcmp(argv[1], "capped_fallback") == 0)
    return test_capped_fallback();
  if (argc > 1 && strcmp(argv[1], "mode_fit_ws") == 0)
    return test_mode_fit_ws();
  if (argc > 1 && strcmp(argv[1], "mode_fit_div") == 0)
    return test_mode_fit_div();
  if (argc > 1 && strcmp(argv[1], "div_unmeasured") == 0)
    return test_div_unmeasured();
  if (argc > 1 && strcmp(argv[1], "div_graph") == 0)
    return test_div_graph();
  if (argc > 1 && strcmp(argv[1], "div_cooperative") == 0)
    return test_div_cooperative();
  if (argc > 1 && strcmp(argv[1], "occupancy") == 0)
    return test_occupancy_queries();
  if (argc > 1 && strcmp(argv[1], "set_attribute") == 0)
    return test_func_set_attribute();
  if (argc > 1 && strcmp(argv[1], "cooperative") == 0)
    return test_cooperative_launches();
  if (argc > 1 && strcmp(argv[1], "persistent") == 0)
    return test_persistent_grids();
  if (argc > 1 && strcmp(argv[1], "persistent_div") == 0)
    return test_persistent_divergence();
  if (argc > 1 && strcmp(argv[1], "persistent_ws") == 0)
    return test_persistent_working_set();
  if (argc > 1 && strcmp(argv[1], "driver_occupancy") == 0)
    return test_driver_occupancy();
  if (argc > 1 && strcmp(argv[1], "driver_cooperative") == 0)
    return test_driver_cooperative();
  if (argc > 1 && strcmp(argv[1], "driver_launch_ex") == 0)
    return test_driver_launch_ex();
  if (argc > 1 && strcmp(argv[1], "cluster") == 0)
    return test_cluster_refusal();
  if (argc > 1 && strcmp(argv[1], "cluster_pending") == 0)
    return test_cluster_pending_error();
  if (argc > 1 && strcmp(argv[1], "kernel_attributes") == 0)
    return test_kernel_attributes();
  if (argc > 1 && strcmp(argv[1], "set_config") == 0)
    return test_func_set_config();
  if (argc > 1 && strcmp(argv[1], "pending_error") == 0)
    return test_pending_error();
  if (argc > 1 && strcmp(argv[1], "sampled") == 0)
    return test_sampled_timing();
  if (argc > 1 && strcmp(argv[1], "one_device") == 0)
    return test_device_queries(1);
  if (argc > 1 && strcmp(argv[1], "two_devices") == 0)
    return test_device_queries(2);
  if (argc > 1 && strcmp(argv[1], "ws_fields") == 0)
    return test_ws_fields();
  if (argc > 1 && strcmp(argv[1], "ws_ring") == 0)
    return test_ws_ring();
  if (argc > 1 && strcmp(argv[1], "ws_headers") == 0)
    return test_ws_headers();
  if (argc > 1 && strcmp(argv[1], "ws_streams") == 0)
    return test_ws_streams();
  if (argc > 1 && strcmp(argv[1], "ws_threads") == 0)
    return test_ws_threads();
  if (argc > 1 && strcmp(argv[1], "ws_groups") == 0)
    return test_ws_groups();
  if (argc > 1 && strcmp(argv[1], "ws_shared_group") == 0)
    return test_ws_shared_group();
  if (argc > 1 && strcmp(argv[1], "ws_pages") == 0)
    return test_ws_pages(argc > 2 ? argv[2] : NULL);
  setenv("PASTA_TIMING", "all", 1); /* the checks below count timed launches */
  if (argc > 1 && strcmp(argv[1], "divergence") == 0)
    return test_divergence();
  if (argc > 1 && strcmp(argv[1], "missing_copies") == 0)
    return test_missing_copies();
  setenv("PASTA_START_GRID_ID", "1", 1);
  setenv("PASTA_END_GRID_ID", "2", 1);
  setenv("PASTA_WORKING_SET", "1", 1);
  setenv("PASTA_CALL_DEPTH", "0", 1);
  /* One parameter, a pointer (bit 0 of the mask). */
  __pasta_register_kernel(&k_handle, "_Z6kernelPc", &k_plain, &k_ws, NULL, 1, 1,
                          NULL);

  void *a = NULL, *b = NULL, *bogus = (void *)0x1000;
  CHECK(__pasta_malloc(&a, 200000, f_malloc, &ops) == 0);   /* 4 pages */
  CHECK(__pasta_malloc(&b, 100, f_malloc, &ops) == 0);      /* 1 page */
  CHECK(__pasta_memcpy(b, a, 100, 4, f_memcpy, &ops) == 0); /* default */
  CHECK(__pasta_free(bogus, f_stream, &ops) == 0); /* never allocated */

  void *arg = a; /* the kernel's pointer parameter */
  void *args[1] = {&arg};
  for (int i = 0; i < 4; ++i) {
    touch_alloc = i == 1 ? a : b;
    touch_offset = i == 1 ? 199999 : 0; /* in a's last page, 196608.. */
    CHECK(__pasta_launch_kernel(&k_handle, 1 | (1ull << 32), 1, 32, 1, args, 0,
                                NULL, fake_launch, &ops) == 0);
  }
  /* Outside the window: plain copy; inside, in working-set mode: ws copy. */
  CHECK(num_launched == 4);
  CHECK(launched[0] == &k_plain);
  CHECK(launched[1] == &k_ws);
  CHECK(launched[2] == &k_ws);
  CHECK(launched[3] == &k_plain);
  /* Live events: one per launch, with its id, variant and shape; one per
   * allocation and per free the runtime saw. */
  CHECK(num_launch_events == 4);
  CHECK(launch_events[1].id == 1 &&
        launch_events[1].variant == PASTA_RUN_WORKING_SET &&
        launch_events[0].variant == PASTA_RUN_PLAIN &&
        launch_events[1].block[0] == 32 && launch_events[1].grid[1] == 1 &&
        launch_events[1].error == 0 &&
        strcmp(launch_events[1].kernel, "_Z6kernelPc") == 0);
  CHECK(allocs_seen == 2 && frees_seen == 1);
  /* A variant the vendor refuses: the original runs instead, the program
   * sees success, and the variant is not tried again. k2 is outside the
   * window at launch id 4 and 5 (the window is 1..2). */
  __pasta_register_kernel(&k2_handle, "_Z2k2v", &k2_plain, NULL, NULL, 0, 0,
                          NULL);
  CHECK(__pasta_launch_kernel(&k2_handle, 1, 1, 1, 1, NULL, 0, NULL,
                              fake_launch, &ops) == 0);
  CHECK(__pasta_launch_kernel(&k2_handle, 1, 1, 1, 1, NULL, 0, NULL,
                              fake_launch, &ops) == 0);
  CHECK(num_launched == 6 && launched[4] == &k2_handle &&
        launched[5] == &k2_handle);
  CHECK(num_launch_events == 6 &&
        launch_events[4].variant == PASTA_RUN_COUNTING &&
        launch_events[4].error == 0);
  /* The host looked the pointer argument's allocation up for the device. */
  CHECK(arg_base_seen == (uint64_t)(uintptr_t)a);
  /* hipLaunchCooperativeKernel's form: a 32-bit shared-memory size reaches
   * the real call unchanged, and the launch is seen like any other. */
  CHECK(__pasta_launch_kernel_shm32(&k2_handle, 1, 1, 1, 1, NULL, 4096, NULL,
                                    fake_launch32, &ops) == 0);
  CHECK(shm32_seen == 4096 && num_launch_events == 7 &&
        launch_events[6].shared_bytes == 4096);
  /* hipModuleLaunchKernel's form: each dimension, the stream, the
   * parameters and `extra` reach the real call; the launch is recorded
   * (an unnamed kernel: it was never registered). */
  static int module_fn;
  void *extra[1] = {NULL};
  CHECK(__pasta_module_launch_kernel(&module_fn, 2, 3, 4, 32, 2, 1, 64, NULL,
                                     NULL, extra, fake_module_launch,
                                     &ops) == 0);
  CHECK(module_seen[0] == 2 && module_seen[1] == 3 && module_seen[2] == 4 &&
        module_seen[3] == 32 && module_seen[4] == 2 && module_seen[5] == 1 &&
        module_seen[6] == 64 && module_extra_seen == extra);
  CHECK(num_launch_events == 8 && launch_events[7].grid[1] == 3 &&
        launch_events[7].block[0] == 32 && launch_events[7].kernel == NULL);

  pasta_activity act;
  CHECK(pasta__activity_build(&act, 0) == 0);
  /* kernel, k2 and the module's unnamed kernel. */
  CHECK(act.num_kernels == 3);
  if (act.num_kernels == 3) {
    const pasta_activity_kernel *k = &act.kernels[0];
    CHECK(strcmp(k->name, "kernel(char*)") == 0);
    CHECK(k->launches == 4 && k->counted == 2 && k->ws_launches == 2);
    CHECK(k->timed == 4 && k->time_total_ns == 2000000); /* 4 x 0.5 ms */
    CHECK(k->num_shapes == 1 && k->shapes[0].grid[1] == 1 &&
          k->shapes[0].block[0] == 32 && k->shapes[0].launches == 4);
  }
  CHECK(act.num_ws_launches == 2);
  if (act.num_ws_launches == 2) {
    /* Launch 1: a's last page, 200000 - 3 * 65536 = 3392 bytes of it. */
    CHECK(act.ws_launches[0].id == 1);
    CHECK(act.ws_launches[0].touched_allocations == 1);
    CHECK(act.ws_launches[0].footprint_bytes == 200000);
    CHECK(act.ws_launches[0].touched_bytes == 3392);
    /* Launch 2: all of b (100 bytes). */
    CHECK(act.ws_launches[1].touched_bytes == 100);
    CHECK(act.ws_launches[1].footprint_bytes == 100);
  }
  CHECK(act.memory.allocs[PASTA_ALLOC_DEVICE] == 2);
  CHECK(act.memory.peak_bytes == 200100);
  CHECK(act.memory.unknown_frees == 1);
  CHECK(act.memory.copies[PASTA_COPY_D2D] == 1); /* inferred from the table */
  CHECK(act.memory.live_allocs_at_exit == 2);
  pasta__activity_free(&act);

  /* More launches than MAX_PENDING (4096) in flight: the oldest half is
   * drained, none is lost, every one is timed. */
  for (int i = 0; i < 5000; ++i)
    __pasta_launch_kernel(&k_handle, 1, 1, 1, 1, args, 0, NULL, fake_launch,
                          &ops);
  CHECK(pasta__activity_build(&act, 0) == 0);
  CHECK(act.num_kernels == 3 && act.kernels[0].launches == 5004 &&
        act.kernels[0].timed == 5004 && act.untimed == 0);
  pasta__activity_free(&act);

  /* The wrappers armed the exit handler after the program's calls, and
   * said once that k's module ran (its first launch on GPU 0). */
  CHECK(arm_calls > 0);
  static char k3_handle, k3_module, k3_fn;
  __pasta_register_kernel(&k3_handle, "_Z2k3v", NULL, NULL, NULL, 0, 0,
                          &k3_module);
  int before = module_launches;
  for (int i = 0; i < 2; ++i)
    CHECK(__pasta_launch_kernel(&k3_handle, 1, 1, 1, 1, NULL, 0, NULL,
                                fake_launch, &ops) == 0);
  CHECK(module_launches == before + 1 && last_module_launched == &k3_module);
  /* The driver API: a CUfunction taken from k3 (cudaGetFuncBySymbol) and
   * launched with cuLaunchKernel is k3: one row, counted in k3's module
   * (which already ran, so no second "module launched"). */
  void *fn = NULL;
  fake_func_result = &k3_fn;
  CHECK(__pasta_get_func_by_symbol(&fn, &k3_handle, fake_get_func, &ops) == 0);
  CHECK(fn == &k3_fn);
  CHECK(__pasta_module_launch_kernel(&k3_fn, 1, 1, 1, 32, 1, 1, 0, NULL, NULL,
                                     extra, fake_module_launch, &ops) == 0);
  CHECK(module_launches == before + 1 && last_module_launched == &k3_module);
  /* The same from code that calls only the driver API (no table of vendor
   * operations of its own): recorded with the one already known. */
  CHECK(__pasta_module_launch_kernel(&k3_fn, 1, 1, 1, 32, 1, 1, 0, NULL, NULL,
                                     extra, fake_module_launch, NULL) == 0);
  CHECK(pasta__activity_build(&act, 0) == 0);
  int named = 0;
  for (size_t i = 0; i < act.num_kernels; ++i)
    if (strcmp(act.kernels[i].name, "k3()") == 0) {
      ++named;
      CHECK(act.kernels[i].launches == 4 && act.kernels[i].num_shapes == 2);
    }
  CHECK(named == 1);
  /* The handle is no row of its own (an empty unnamed one, say). */
  int empty_unnamed = 0;
  for (size_t i = 0; i < act.num_kernels; ++i)
    empty_unnamed += !act.kernels[i].mangled && !act.kernels[i].launches;
  CHECK(empty_unnamed == 0);
  pasta__activity_free(&act);
  /* cuLaunchKernel taken through cudaGetDriverEntryPoint: PASTA's entry
   * point, which reaches the driver's and records the launch under k3; any
   * other symbol comes back as the driver gave it. */
  void *entry = NULL, *other = NULL;
  CHECK(__pasta_get_driver_entry_point("cuLaunchKernel", &entry, 0, NULL,
                                       fake_entry_point, &ops) == 0);
  CHECK(entry != NULL && entry != (void *)fake_module_launch);
  CHECK(__pasta_get_driver_entry_point("cuMemAlloc", &other, 0, NULL,
                                       fake_entry_point, &ops) == 0);
  CHECK(other == (void *)fake_module_launch);
  module_seen[0] = 0;
  if (entry) {
    pasta__module_launch_fn launch_fn = (pasta__module_launch_fn)entry;
    CHECK(launch_fn(&k3_fn, 5, 1, 1, 32, 1, 1, 0, NULL, NULL, extra) == 0);
  }
  CHECK(module_seen[0] == 5);
  CHECK(pasta__activity_build(&act, 0) == 0);
  const pasta_activity_kernel *k3_row = row_of(&act, "k3()");
  CHECK(k3_row && k3_row->launches == 5);
  pasta__activity_free(&act);
  free(a);
  free(b);
  test_graph_launch_refused();
  test_graphs();
  test_launch_options();
  return check_summary("intercept");
}
