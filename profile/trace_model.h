/*===- trace_model.h - A run's control-flow scope and memory trace --------===*
 *
 * What trace mode (PASTA_TRACE=1) records, as the host runtime hands it to
 * the writers and analyses: C.A.T.S. events (de-duplicated: an event whose
 * site and control-flow stack were already recorded is not recorded again,
 * it only counts), every allocation with its lifetimes (not de-duplicated,
 * so that footprints are exact), timed spans for the Chrome trace, and the
 * host/device clock pairs that map device timestamps to host time.
 *
 * Times are nanoseconds on the host's CLOCK_MONOTONIC, relative to
 * pasta_trace.start_ns. Strings are never NULL ("" when unknown) and stay
 * valid as long as the trace.
 *
 * analyzers/trace/ writes the .cats file (cats_file.c) and computes the
 * analyses, chrome_trace.c the Chrome trace JSON; docs/trace-format.md
 * documents both files.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_TRACE_MODEL_H
#define PASTA_TRACE_MODEL_H

#include "pasta/abi.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PASTA_TRACE_FORMAT_VERSION 1
#define PASTA_TIME_NONE UINT64_MAX

enum pasta_cats_type {
  PASTA_CATS_SCOPE_ENTRY = 0,
  PASTA_CATS_SCOPE_EXIT = 1,
  PASTA_CATS_ACCESS = 2,
  PASTA_CATS_ALLOCATION = 3,
  PASTA_CATS_DEALLOCATION = 4
};

/* One recorded C.A.T.S. event, in program order. Scope entries and exits
 * are balanced in the event list (the runtime closes what an early exit or
 * exit() left open). */
struct pasta_cats_event {
  uint32_t type;       /* enum pasta_cats_type */
  uint32_t scope_kind; /* enum pasta_scope_kind (abi.h); scope events */
  uint64_t id;         /* scope id (scope events) */
  const char *filename;
  const char *funcname; /* demangled */
  uint32_t line, col;
  uint64_t time_ns;    /* when it first happened */
  uint64_t count;      /* how often it happened with this control-flow stack
                          (scope entries: executions; device accesses:
                          thread-level executions) */
  uint64_t iterations; /* loop scope entries: iterations over all `count`
                          executions, when known (trips_known) */
  int trips_known;
  int on_device; /* inside a kernel */
  /* Memory events. */
  uint64_t buffer_id; /* unique per allocation of the run, from 1; 0 for an
                         access to memory PASTA did not see allocated */
  const char *buffer_name;
  uint64_t size;           /* allocation: bytes */
  char mode;               /* access: 'r' or 'w' */
  uint64_t offset;         /* access: bytes from the buffer's base */
  const char *offset_expr; /* symbolic offset (device accesses) or NULL, in
                              which case `offset` is the numeric one */
  uint64_t bytes;          /* access: bytes per execution */
  uint32_t access_class;   /* enum pasta_access_class (abi.h) */
  int32_t stride;          /* elements, for stride-1 / stride-k */
};

/* Every allocation of the run (de-duplication never hides one). */
struct pasta_trace_buffer {
  uint64_t id; /* as in the events */
  const char *name;
  const char *kind; /* "device", "managed", "pinned host", ... */
  uint64_t size;
  uint64_t t_alloc, t_free;         /* t_free: PASTA_TIME_NONE if never */
  uint64_t t_first_use, t_last_use; /* PASTA_TIME_NONE if never used */
  uint64_t uses;                    /* copies and launches that used it */
  const char *alloc_file;           /* where it was allocated */
  uint32_t alloc_line;
  uint32_t loop_depth; /* host loops open at the allocation */
  uint64_t loop_id;    /* innermost such loop's scope id */
  const char *loop_file;
  uint32_t loop_line;
};

/* A timed span for the Chrome trace. */
enum pasta_track_kind {
  PASTA_TRACK_HOST_THREAD = 0, /* tid: host thread index */
  PASTA_TRACK_STREAM = 1,      /* device: GPU, tid: stream index */
  PASTA_TRACK_WARP = 2         /* launch: launch id, tid: warp id */
};

struct pasta_trace_span {
  uint32_t track;       /* enum pasta_track_kind */
  uint32_t device;      /* GPU ordinal (streams and warps) */
  uint64_t launch;      /* PASTA_TRACK_WARP: launch id */
  uint64_t tid;         /* see enum pasta_track_kind */
  const char *name;     /* API call, kernel or scope name */
  const char *category; /* "api", "kernel", "copy", "loop", "func", ... */
  uint64_t ts_ns, dur_ns;
  uint64_t correlation; /* launch id + 1 linking an API call to its
                           kernel; 0: none */
  const char *detail;   /* free text shown as args.detail, or "" */
};

/* One traced launch's clock evidence: the host clock just before the launch
 * and after its records were read back, and the first and last device
 * timestamps it recorded. host = device + offset lies between
 * host_before - device_first and host_after - device_last. */
struct pasta_clock_pair {
  uint64_t launch;
  uint64_t host_before_ns, host_after_ns;
  uint64_t device_first_ns, device_last_ns;
};

struct pasta_trace {
  const char *program;
  uint64_t start_ns; /* absolute CLOCK_MONOTONIC of time 0 */
  const struct pasta_cats_event *events;
  size_t num_events;
  const struct pasta_trace_buffer *buffers;
  size_t num_buffers;
  const struct pasta_trace_span *spans;
  size_t num_spans;
  const struct pasta_clock_pair *clock_pairs;
  size_t num_clock_pairs;
  double clock_offset_ns; /* host = device * (1 + clock_drift) + offset */
  double clock_drift;
  uint64_t events_seen;            /* before de-duplication */
  uint64_t events_dropped;         /* host events that found the log full */
  uint64_t device_records_dropped; /* device records past the buffer */
  uint64_t traced_launches;
};

#ifdef __cplusplus
}
#endif

#endif
