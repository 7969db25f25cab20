/*===- test_trace.c - Unit test of the trace recorder (trace.c) -----------===*
 *
 * Drives trace.c the way the pass and the launch wrappers do, with hand-made
 * module tables, and checks the trace it builds: the calling-context tree
 * written depth first (balanced, one event per site and stack, counted), the
 * allocation events that stand for the allocations of a loop, a launch
 * expanded into its kernel's device scopes and accesses, the device clock
 * fitted to the traced launches, and the dropped records reported.
 *===----------------------------------------------------------------------===*/
#include "trace.h"

#include <stdio.h>
#include <string.h>

#include "tests/unit/check.h"

void __pasta_scope_enter(const struct pasta_module_desc *m, uint32_t scope);
void __pasta_scope_exit(const struct pasta_module_desc *m, uint32_t scope,
                        uint32_t trips);

/* Host module: main (func) > loop; strings "main\0h.c\0". */
static const char host_strings[] = "main\0h.c";
static struct pasta_scope host_scopes[2] = {
    {101, PASTA_SCOPE_FUNC, PASTA_NONE, 0, 5, 10, 0, 0},
    {102, PASTA_SCOPE_LOOP, 0, 0, 5, 12, 3, 1},
};
static struct pasta_module_desc host_desc;

/* Device module: kernel "k" (parallel) > loop, one access in each; strings
 * "k\0d.cu\0" + an offset expression. Site 0 counts 640 executions, site 1
 * 6400. */
static const char dev_strings[] = "k\0d.cu\0"
                                  "4*i";
static struct pasta_scope dev_scopes[2] = {
    {201, PASTA_SCOPE_PARALLEL, PASTA_NONE, 0, 2, 3, 0, 0},
    {202, PASTA_SCOPE_LOOP, 0, 0, 2, 7, 5, 1},
};
static struct pasta_site dev_sites[2] = {
    {.counter = 1, .bytes_counter = PASTA_NONE},
    {.counter = 2, .bytes_counter = PASTA_NONE}};
static struct pasta_access dev_accesses[2] = {
    {0, 0, PASTA_ACCESS_STRIDE1, 1, 1, 4, 'w', PASTA_NONE, 4, 1},
    {1, 1, PASTA_ACCESS_STRIDEK, 7, 0, 4, 'r', 7, 8, 2},
};
static uint64_t dev_counters[3] = {2, 640, 6400};
static struct pasta_module_desc dev_desc;
static const int dev_key; /* the shadow's address stands for the module */

static void make_modules(void) {
  host_desc =
      (struct pasta_module_desc){.magic = PASTA_ABI_MAGIC,
                                 .version = PASTA_ABI_VERSION,
                                 .strings_size = sizeof host_strings - 1,
                                 .strings = (uint64_t)(uintptr_t)host_strings,
                                 .num_scopes = 2,
                                 .scopes = (uint64_t)(uintptr_t)host_scopes};
  dev_desc =
      (struct pasta_module_desc){.magic = PASTA_ABI_MAGIC,
                                 .version = PASTA_ABI_VERSION,
                                 .target = PASTA_TARGET_NVPTX,
                                 .num_sites = 2,
                                 .num_counters = 3,
                                 .strings_size = sizeof dev_strings - 1,
                                 .sites = (uint64_t)(uintptr_t)dev_sites,
                                 .strings = (uint64_t)(uintptr_t)dev_strings,
                                 .counters = (uint64_t)(uintptr_t)dev_counters,
                                 .num_scopes = 2,
                                 .num_accesses = 2,
                                 .scopes = (uint64_t)(uintptr_t)dev_scopes,
                                 .accesses = (uint64_t)(uintptr_t)dev_accesses};
}

/* The program: main runs a loop of 3 iterations that allocates 10 buffers
 * of 64 bytes (one call site), copies into each, launches k twice with
 * buffer 0 and 1 as its parameters, then frees them in reverse order. */
static void run_program(void) {
  static const char site_alloc, site_copy, site_free, site_launch;
  __pasta_scope_enter(&host_desc, 0);
  __pasta_scope_enter(&host_desc, 1);
  for (uint64_t id = 0; id < 10; ++id) {
    pasta__trace_alloc(id, 64, "device", &site_alloc, pasta__trace_now());
    pasta__trace_copy(id, 0, UINT64_MAX, 0, 64, &site_copy, pasta__trace_now());
  }
  uint64_t args[2] = {0, 1};
  for (uint64_t launch = 0; launch < 2; ++launch)
    pasta__trace_launch(launch, "k", &dev_key, args, 2, &site_launch,
                        pasta__trace_now());
  __pasta_scope_exit(&host_desc, 1, 3);
  for (uint64_t id = 10; id-- > 0;)
    pasta__trace_free(id, &site_free, pasta__trace_now());
  /* main's exit is never reported (exit() in the program): the build closes
   * it. */
}

/* Launch 0 was traced: warp 0 entered the kernel at device time D + 1000,
 * the loop at D + 1100 and left it (5 trips) at D + 1900, the kernel at
 * D + 2000, where D is a 2026 date in ns (%globaltimer counts from 1970:
 * beyond a double's nanosecond precision). Host clock: launched at H, read
 * back at H + 2000: the kernel (1000 ns) sits in the middle when
 * host = device - D + H - 500. 3 more records were claimed than stored. */
static const uint64_t device_epoch = 1795323096719566464ull;
static uint64_t host_launch;

static void traced_launch(void) {
  const uint64_t d = device_epoch;
  struct pasta_trace_record r[4] = {
      {0, 0, 0, 0, d + 1000},
      {1, 0, 0, 0, d + 1100},
      {1 | PASTA_TRACE_EXIT, 0, 5, 0, d + 1900},
      {0 | PASTA_TRACE_EXIT, 0, 0, 0, d + 2000},
  };
  host_launch = pasta__trace_now();
  pasta__trace_records(0, "k", &dev_key, r, 4, 7, host_launch,
                       host_launch + 2000);
}

static const struct pasta_cats_event *
find(const struct pasta_trace *t, uint32_t type, uint64_t id, size_t from) {
  for (size_t i = from; i < t->num_events; ++i)
    if (t->events[i].type == type && (!id || t->events[i].id == id))
      return &t->events[i];
  return NULL;
}

static void check_trace(const struct pasta_trace *t) {
  /* Balanced: a stack of ids. */
  uint64_t stack[64];
  size_t depth = 0, max_depth = 0;
  int balanced = 1;
  for (size_t i = 0; i < t->num_events; ++i) {
    const struct pasta_cats_event *e = &t->events[i];
    if (e->type == PASTA_CATS_SCOPE_ENTRY && depth < 64)
      stack[depth++] = e->id;
    else if (e->type == PASTA_CATS_SCOPE_EXIT)
      balanced &= depth > 0 && stack[--depth] == e->id;
    max_depth = depth > max_depth ? depth : max_depth;
  }
  CHECK_MSG(balanced && depth == 0, "entries and exits nest");
  /* main > loop > k (parallel) > its loop. */
  CHECK_MSG(max_depth == 4, "depth 4, got %zu", max_depth);

  const struct pasta_cats_event *loop = find(t, PASTA_CATS_SCOPE_ENTRY, 102, 0);
  CHECK_MSG(loop && loop->count == 1 && loop->trips_known &&
                loop->iterations == 3,
            "host loop: once, 3 iterations");
  const struct pasta_cats_event *alloc = find(t, PASTA_CATS_ALLOCATION, 0, 0);
  CHECK_MSG(alloc && alloc->count == 10 && alloc->buffer_id == 1 &&
                alloc->size == 64,
            "one allocation event for the loop's 10, buffer 1");
  const struct pasta_cats_event *dealloc =
      find(t, PASTA_CATS_DEALLOCATION, 0, 0);
  CHECK_MSG(dealloc && dealloc->count == 10 && dealloc->buffer_id == 1,
            "the frees (buffer 10 first) name the standing-in buffer 1: %llu",
            dealloc ? (unsigned long long)dealloc->buffer_id : 0ull);
  const struct pasta_cats_event *copy = find(t, PASTA_CATS_ACCESS, 0, 0);
  CHECK_MSG(copy && copy->mode == 'w' && copy->count == 10 &&
                copy->buffer_id == 1 && copy->bytes == 64 && !copy->on_device,
            "one write access for the 10 copies");
  CHECK_MSG(alloc && dealloc && dealloc > loop && dealloc > alloc,
            "the frees come after the loop");

  const struct pasta_cats_event *kernel =
      find(t, PASTA_CATS_SCOPE_ENTRY, 201, 0);
  CHECK_MSG(kernel && kernel->scope_kind == PASTA_SCOPE_PARALLEL &&
                kernel->count == 2 && kernel->on_device,
            "the kernel: one parallel scope for its 2 launches");
  const struct pasta_cats_event *dloop =
      find(t, PASTA_CATS_SCOPE_ENTRY, 202, 0);
  CHECK_MSG(dloop && dloop->trips_known && dloop->iterations == 5 &&
                dloop->count == 1,
            "the device loop: entered once by the sampled warp, 5 trips");
  const struct pasta_cats_event *w =
      kernel ? find(t, PASTA_CATS_ACCESS, 0, (size_t)(kernel - t->events))
             : NULL;
  /* Parameter 1 is buffer 2, whose allocation is the loop's one event:
   * buffer 1 stands for it. */
  CHECK_MSG(w && w->on_device && w->mode == 'w' && w->count == 640 &&
                w->buffer_id == 1 && w->access_class == PASTA_ACCESS_STRIDE1,
            "the kernel's store: 640 executions, on buffer 1 standing for 2");
  const struct pasta_cats_event *r =
      dloop ? find(t, PASTA_CATS_ACCESS, 0, (size_t)(dloop - t->events)) : NULL;
  CHECK_MSG(r && r->mode == 'r' && r->count == 6400 && r->buffer_id == 1 &&
                r->stride == 7 && r->offset_expr &&
                strcmp(r->offset_expr, "4*i") == 0,
            "the loop's load: stride-k 7 of buffer 1, offset 4*i");

  double offset = (double)host_launch - (double)device_epoch - 500.0;
  CHECK_MSG(t->num_clock_pairs == 1 && t->clock_offset_ns > offset - 1024 &&
                t->clock_offset_ns < offset + 1024,
            "offset fitted: %f, expected %f", t->clock_offset_ns, offset);
  CHECK_MSG(t->device_records_dropped == 3, "3 device records dropped");
  size_t warp_spans = 0;
  for (size_t i = 0; i < t->num_spans; ++i)
    if (t->spans[i].track == PASTA_TRACK_WARP) {
      ++warp_spans;
      if (strcmp(t->spans[i].category, "loop") == 0)
        CHECK_MSG(t->spans[i].dur_ns == 800, "loop span 800 ns");
      /* Exact to the nanosecond: the kernel entered at H + 500. */
      if (strcmp(t->spans[i].category, "parallel") == 0)
        CHECK_MSG(t->spans[i].ts_ns == host_launch + 500 - t->start_ns,
                  "kernel span at %llu, expected %llu",
                  (unsigned long long)t->spans[i].ts_ns,
                  (unsigned long long)(host_launch + 500 - t->start_ns));
    }
  CHECK_MSG(warp_spans == 2, "two warp spans (kernel and loop): %zu",
            warp_spans);

  size_t in_loop = 0;
  for (size_t i = 0; i < t->num_buffers; ++i)
    in_loop += t->buffers[i].loop_depth == 1 && t->buffers[i].loop_id == 102;
  CHECK_MSG(t->num_buffers == 10 && in_loop == 10,
            "10 buffers, all allocated inside the loop");
  CHECK_MSG(t->num_buffers == 10 && t->buffers[0].uses == 3 &&
                t->buffers[2].uses == 1,
            "buffer 0: a copy and 2 launches; buffer 2: a copy");
}

int main(void) {
  make_modules();
  pasta__trace_code_seen();
  CHECK_MSG(pasta__trace_on(), "trace mode on once trace code is seen");
  run_program();
  traced_launch();
  pasta__trace_add_module(&host_desc, &host_desc, NULL);
  pasta__trace_add_module(&dev_key, &dev_desc, dev_counters);
  struct pasta_trace t;
  CHECK_MSG(pasta__trace_build(&t, "test") == 0, "the trace builds");
  check_trace(&t);
  pasta__trace_release(&t);
  return check_summary("trace");
}
