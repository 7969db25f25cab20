/*===- timing.c - Timing launches with events; faults ----------------------===*
 *
 * Each timed launch gets a pair of pooled events; pending launches are
 * harvested when the program synchronises, when MAX_PENDING are in flight,
 * and at exit. A wait that fails with a fault is noted (the first fault is
 * reported). pasta__run_timed runs one launch between its events.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "intercept_internal.h"
#include "profile/vec.h"
#include "trace.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An event of this GPU from the pool, or a new one. Lock held. */
static void *take_event(ops_t *ops, int device) {
  for (size_t i = pasta__st.num_pool; i-- > 0;)
    if (pasta__st.pool[i].device == device) {
      void *e = pasta__st.pool[i].event;
      pasta__st.pool[i] = pasta__st.pool[--pasta__st.num_pool];
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
  if (GROW(pasta__st.pool, pasta__st.cap_pool, pasta__st.num_pool)) {
    ops->event_destroy(e);
    return;
  }
  pasta__st.pool[pasta__st.num_pool++] = (struct pooled_event){e, device};
}

static void record_time(uint32_t kernel, uint64_t ns, int plain) {
  pasta_activity_kernel *s = &pasta__st.kernels[kernel].stats;
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
int pasta__is_fault(int err) {
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
void pasta__note_fault(ops_t *ops, int err, const struct pending *p,
                       int definitive) {
  if (!pasta__is_fault(err) || pasta__st.fault.definitive)
    return;
  if (!pasta__st.fault.seen) {
    const char *msg = ops->get_error_string ? ops->get_error_string(err) : NULL;
    snprintf(pasta__st.fault.message, sizeof pasta__st.fault.message, "%s",
             msg ? msg : "unknown error");
    pasta__st.fault.err = err;
    pasta__st.fault.seen = 1;
  }
  if (!p)
    return;
  if (definitive) {
    pasta__st.fault.definitive = 1;
    pasta__st.fault.failed_waits = 0;
  } else {
    ++pasta__st.fault.failed_waits;
    if (pasta__st.fault.exact && pasta__st.fault.launch <= p->launch)
      return;
  }
  pasta__st.fault.exact = 1;
  pasta__st.fault.launch = p->launch;
  pasta__st.fault.nth = p->nth;
  pasta__st.fault.kernel = p->kernel;
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
  pasta__trace_kernel_span(p->launch, pasta__st.kernels[p->kernel].mangled,
                           p->device, p->stream, start, ns);
}

/* Records p's time (UINT64_MAX: untimed, after the vendor's error `err`)
 * and pools its events. Lock held. */
static void account(ops_t *ops, const struct pending *p, uint64_t ns, int err) {
  if (err)
    pasta__note_fault(ops, err, p, 0);
  if (ns == UINT64_MAX)
    ++pasta__st.untimed;
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
  uint64_t ns = wait_time(ops, &pasta__st.pending[i], &err);
  account(ops, &pasta__st.pending[i], ns, err);
  /* Keep the order: the oldest stay in front for the overflow harvest. */
  memmove(&pasta__st.pending[i], &pasta__st.pending[i + 1],
          (--pasta__st.num_pending - i) * sizeof *pasta__st.pending);
}

/* Retires the pending launches of `device` (-1: all) on `stream` (all when
 * `any_stream`). Lock held. */
void pasta__harvest(ops_t *ops, int device, int any_stream, void *stream) {
  for (size_t i = pasta__st.num_pending; i-- > 0;) {
    struct pending *p = &pasta__st.pending[i];
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
  pasta__state_lock();
  size_t n = pasta__st.num_pending >= MAX_PENDING ? N : 0;
  memcpy(batch, pasta__st.pending, n * sizeof *batch);
  memmove(pasta__st.pending, pasta__st.pending + n,
          (pasta__st.num_pending - n) * sizeof *pasta__st.pending);
  pasta__st.num_pending -= n;
  pasta__state_unlock();
  uint64_t ns[N];
  int errs[N];
  for (size_t i = 0; i < n; ++i)
    ns[i] = wait_time(ops, &batch[i], &errs[i]);
  pasta__state_lock();
  for (size_t i = 0; i < n; ++i)
    account(ops, &batch[i], ns[i], errs[i]);
  pasta__state_unlock();
  pthread_mutex_unlock(&drain_mu);
}

int pasta__capture_state(ops_t *ops, void *stream) {
  int capturing = 0;
  if (!ops->stream_is_capturing)
    return CAPTURE_NONE;
  if (ops->stream_is_capturing(stream, &capturing)) {
    ops->get_last_error();
    return CAPTURE_UNKNOWN;
  }
  return capturing ? CAPTURE_INTO_GRAPH : CAPTURE_NONE;
}

/* Whether launch `nth` (from 0) of a kernel is timed. Two events cost
 * about 3 us per launch on an H100 (docs/performance.md, "Host time per
 * launch"): by default the first launches of each kernel are timed, then one
 * in TIMED_EVERY; times per launch (mean, min, max) come from those, and
 * totals are estimated from the mean (analyzers/kernels). */
static int timed_launch(uint64_t nth) {
  return pasta__opt.timing == TIMING_ALL || nth < TIMED_FIRST ||
         nth % TIMED_EVERY == 0;
}

/* Starts timing launch `nth` of a kernel on `stream`: *start recorded,
 * *end taken. Returns 0 when the launch is to be timed. Lock held. */
static int start_timing(ops_t *ops, void *stream, int device, int capture,
                        uint64_t nth, void **start, void **end) {
  *start = *end = NULL;
  if (!pasta__opt.timing || !ops->event_create || !ops->event_record ||
      !timed_launch(nth))
    return -1;
  if (capture != CAPTURE_NONE)
    return -1; /* a launch into a graph: no events around it */
  if (!pasta__st.pending &&
      !(pasta__st.pending = malloc(MAX_PENDING * sizeof *pasta__st.pending)))
    return -1;
  if (pasta__st.num_pending == MAX_PENDING)
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
    pasta__st.pending[pasta__st.num_pending++] =
        (struct pending){start,
                         end,
                         stream,
                         launch,
                         pasta__st.kernels[kernel].stats.launches + 1,
                         kernel,
                         device,
                         plain};
    return;
  }
  if (launched)
    ops->get_last_error();
  give_event(ops, start, device);
  give_event(ops, end, device);
}

/* Runs `handle` with l's configuration, timed when timing is on. Returns
 * the vendor's error. */
int pasta__run_timed(ops_t *ops, pasta__launch_fn real, const void *handle,
                     const struct launch *l, void **args, uint32_t kernel,
                     int plain) {
  int device = l->device;
  void *start, *end;
  pasta__state_lock();
  int full = pasta__st.num_pending == MAX_PENDING;
  pasta__state_unlock();
  if (full)
    drain_oldest(ops);
  pasta__state_lock();
  if (plain && pasta__st.kernels[kernel].plain_started++ == 0)
    plain = 2;
  int timed =
      start_timing(ops, l->stream, device, l->capture,
                   pasta__st.kernels[kernel].stats.launches, &start, &end) == 0;
  pasta__state_unlock();
  int err = real(handle, l->grid_xy, l->grid_z, l->block_xy, l->block_z, args,
                 l->shmem, l->stream);
  if (timed) {
    pasta__state_lock();
    end_timing(ops, l->stream, device, start, end, l->id, kernel, err == 0,
               plain);
    pasta__state_unlock();
  } else if (err == 0) {
    pasta__state_lock();
    ++pasta__st.untimed;
    pasta__state_unlock();
  }
  return err;
}
