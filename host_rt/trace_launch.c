/*===- trace_launch.c - Trace-mode launches --------------------------------===*
 *
 * A launch of a kernel's trace copy: its header up, the launch, the header
 * and records back to trace.c; and each launch as a C.A.T.S. event with the
 * allocations its pointer arguments point into.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "intercept_internal.h"
#include "trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
int pasta__run_trace(ops_t *ops, pasta__launch_fn real, const struct kernel *kc,
                     uint32_t kernel, const struct launch *l, int *traced) {
  *traced = 0;
  if (l->capture != CAPTURE_NONE) /* into a graph: no waits allowed */
    return pasta__run_timed(ops, real, l->fn, l, l->args, kernel, 0);
  pthread_mutex_lock(&trace_mu);
  struct trace_buffers *b = &trace_dev[pasta__vendor_device(ops)];
  void **args = malloc(((size_t)kc->nparams + 1) * sizeof *args);
  int err;
  if (!args || trace_setup(ops, b)) {
    err = pasta__run_timed(ops, real, l->fn, l, l->args, kernel, 0);
    goto done;
  }
  *b->host_header = (struct pasta_trace_launch){
      (uint64_t)(uintptr_t)b->records, 0, b->capacity, trace_stride(ops, l)};
  if (ops->memcpy_async(b->header, b->host_header, sizeof *b->host_header,
                        PASTA_MEMCPY_HOST_TO_DEVICE, l->stream)) {
    ops->get_last_error();
    err = pasta__run_timed(ops, real, l->fn, l, l->args, kernel, 0);
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
  err = pasta__run_timed(ops, real, kc->trace, l, args, kernel, 0);
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
void pasta__record_trace_launch(const struct kernel *kc, const struct launch *l,
                                uint64_t t) {
  uint64_t ids[64];
  uint32_t n = kc->nparams > 0 ? (uint32_t)kc->nparams : 0;
  n = n < 64 ? n : 64;
  pasta__state_lock();
  for (uint32_t k = 0; k < n; ++k) {
    ids[k] = UINT64_MAX;
    if (!(kc->pointer_params >> k & 1) || !l->args || !l->args[k])
      continue;
    void *ptr;
    memcpy(&ptr, l->args[k], sizeof ptr);
    const struct allocation *a = pasta__allocation_at((uint64_t)(uintptr_t)ptr);
    if (a)
      ids[k] = a->id;
  }
  pasta__state_unlock();
  pasta__trace_launch(l->id, kc->mangled, kc->module, ids, n, l->site, t);
}
