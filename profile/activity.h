/*===- activity.h - What the program did on the host side of the GPU ------===*
 *
 * The launches, allocations, copies and working sets the host runtime saw
 * through the calls the pass routes to it (issue [host+ws]): the data of the
 * kernel-frequency and working-set analyzers. The runtime fills one of these
 * while the program runs; the writers here print its tables and its part of
 * the JSON profile (docs/profile-format.md, "launches", "memory",
 * "working_set"). Pure C, no I/O besides the FILE * it is given.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_ACTIVITY_H
#define PASTA_PROFILE_ACTIVITY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hotness.h"
#include "pasta/abi.h"
#include "ws_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One frame of a host call path, symbolised. */
typedef struct pasta_activity_frame {
  const char *function; /* or NULL */
  const char *file;     /* or NULL */
  uint32_t line;        /* 0 when unknown */
  const char *object;   /* executable or shared object, or NULL */
  uint64_t offset;      /* in that object, from its load base */
  const char *build_id; /* the object's GNU build id (hex), or NULL */
  uint64_t vaddr;       /* the return address as an ELF virtual address of
                           the object (what its symbols and DWARF use), 0
                           when unknown: resolvable later (pasta-report) */
} pasta_activity_frame;

/* A distinct host call path that launched a kernel. */
typedef struct pasta_activity_path {
  uint64_t launches;
  uint32_t num_frames;
  const pasta_activity_frame *frames; /* innermost first */
} pasta_activity_path;

/* A distinct launch configuration of a kernel. */
typedef struct pasta_activity_shape {
  uint32_t grid[3], block[3];
  uint64_t shared_bytes;
  uint64_t launches;
} pasta_activity_shape;

/* The figures of one copy of a kernel, in the profile's order (its
 * "resources.plain" and "resources.counting" objects):
 * X(type, member, "json key", most, csv), most the largest value read back,
 * csv 1 when `show --format csv` has a column for it. The struct, the
 * writer, the reader and the CSV columns are generated from this list. */
#define PASTA_COPY_RESOURCES(X)                                                \
  X(int32_t, registers, "registers", INT32_MAX, 1) /* per thread */            \
  /* per thread: stack frame and spills */                                     \
  X(int64_t, local_bytes, "local_bytes", INT64_MAX, 1)                         \
  /* static shared memory per block */                                         \
  X(int64_t, shared_bytes, "shared_bytes", INT64_MAX, 1)                       \
  /* most threads per block it can be launched with */                         \
  X(int32_t, max_threads, "max_threads_per_block", INT32_MAX, 0)               \
  X(int32_t, blocks_per_sm, "blocks_per_sm", INT32_MAX, 1) /* resident */

/* One copy of a kernel as the vendor built it (cudaFuncGetAttributes,
 * hipFuncGetAttributes) and how many of its blocks fit on one SM at the
 * block size and dynamic shared memory of pasta_activity_resources. -1:
 * unknown. */
typedef struct pasta_copy_resources {
#define PASTA_X(type, member, key, most, csv) type member;
  PASTA_COPY_RESOURCES(PASTA_X)
#undef PASTA_X
} pasta_copy_resources;

/* What instrumentation did to a kernel's resources: its counting copy
 * against its plain copy, read once, at the kernel's first launch (profile
 * version 6; docs/profile-format.md, "Resources"). */
typedef struct pasta_activity_resources {
  int known; /* 0: not read (host code, no plain copy's figures asked, or a
                profile older than version 6) */
  uint32_t block_threads; /* the first launch's threads per block */
  uint64_t dynamic_shared_bytes;
  uint32_t warp_size;          /* of the GPU; 0 when unknown */
  uint32_t max_threads_per_sm; /* of the GPU; 0 when unknown */
  pasta_copy_resources counting, plain;
  /* The register-capped counting copy (abi.h, PASTA_CAPPED_SUFFIX), when
   * one ran: the figures above are then of the first launch that ran it,
   * whose block the counting copy could not take. */
  int has_capped;
  pasta_copy_resources capped;
} pasta_activity_resources;

/* Resident warps over the SM's most (0 to 1) of copy c at r's block size,
 * or -1 when unknown. */
double pasta__occupancy(const pasta_activity_resources *r,
                        const pasta_copy_resources *c);

/* Whether the counting copy of r may run differently from the plain one:
 * fewer blocks per SM, or more local memory per thread. Then `note` gets
 * one line (without "note: " and newline) that says what changed, e.g.
 * "the counting copy raised registers 32 -> 40 and lowered occupancy
 * 100% -> 75%: timings of this kernel's counted launches may be
 * perturbed", and it returns 1. A kernel whose register-capped copy ran
 * always gets a note (which copy counted, and what it changed). Else 0
 * (also when unknown). */
int pasta__resources_perturbed(const pasta_activity_resources *r, char *note,
                               size_t size);

/* A kernel's counts of launches, in the profile's order (its "launches"
 * entry, before "gpu_time_ns"), and its largest working set (after
 * "call_paths"): X(name, merge), merge SUM or MAX, how a merged profile
 * joins the inputs' values. The struct, the writer, the reader, merge and
 * the CSV columns are generated from these lists. */
#define PASTA_ACTIVITY_KERNEL_COUNTS(X)                                        \
  X(launches, SUM)    /* every launch the runtime saw */                       \
  X(counted, SUM)     /* of those, how many ran an instrumented variant */     \
  X(ws_launches, SUM) /* of those, how many tracked the working set */         \
  X(failed, SUM)      /* launches the vendor runtime refused */                \
  X(timed, SUM)       /* launches with a GPU time */
#define PASTA_ACTIVITY_KERNEL_WS(X)                                            \
  X(ws_max_touched_bytes, MAX)                                                 \
  X(ws_max_footprint_bytes, MAX)

/* Divergence mode: why a launch of a kernel with a divergence copy ran
 * another instrumented copy (its counting, capped or trace copy): X(member,
 * key), the key in the "not_measured" object of the kernel's "divergence"
 * (docs/profile-format.md). Such a launch's thread-level counts still
 * reach the figures read-back derives from them (requested and distinct
 * bytes, thread executions) while its warp-level figures are not measured:
 * pasta__div_coverage_note says so. */
#define PASTA_ACTIVITY_DIV_REASONS(X)                                          \
  X(div_by_block, "block") /* no divergence copy takes the block */            \
  X(div_by_driver_handle, "driver_handle") /* cuLaunchKernel & co. */          \
  X(div_by_graph, "graph")     /* a node of a CUDA graph, captured or added */ \
  X(div_by_trace, "trace")     /* traced (PASTA_TRACE) */                      \
  X(div_by_refusal, "refused") /* the GPU refused the copy (launch or run) */  \
  X(div_by_window, "window")   /* outside the window, no plain copy */         \
  X(div_by_working_set, "working_set") /* PASTA_WORKING_SET=1 as well */

typedef struct pasta_activity_kernel {
  const char *name;    /* display name */
  const char *mangled; /* as registered */
#define PASTA_X(name, merge) uint64_t name;
  PASTA_ACTIVITY_KERNEL_COUNTS(PASTA_X)
#undef PASTA_X
  uint64_t time_total_ns, time_min_ns, time_max_ns;
  /* Of those, the launches that ran the plain copy (outside the launch
   * window, or not sampled): their time is the kernel's own. The first one
   * also loads the copy (lazy loading): plain_time_ns leaves it out. */
  uint64_t plain_timed;    /* all timed plain launches */
  uint64_t plain_rest;     /* of those, all but the first one */
  uint64_t plain_time_ns;  /* sum over plain_rest */
  uint64_t plain_first_ns; /* the first one's (0 when it was not timed) */
  const pasta_activity_shape *shapes;
  size_t num_shapes;
  const pasta_activity_path *paths;
  size_t num_paths;
#define PASTA_X(name, merge) uint64_t name;
  PASTA_ACTIVITY_KERNEL_WS(PASTA_X)
#undef PASTA_X
  /* Divergence mode: launches that ran a divergence copy; those that ran
   * another copy, by why; the threads of the first block no divergence
   * copy took (0: none). */
  uint64_t div_measured;
#define PASTA_X(name, key) uint64_t name;
  PASTA_ACTIVITY_DIV_REASONS(PASTA_X)
#undef PASTA_X
  uint64_t div_block_threads;
  pasta_activity_resources resources;
} pasta_activity_kernel;

/* Divergence mode: k's launches that ran another copy than a divergence
 * copy (the sum over PASTA_ACTIVITY_DIV_REASONS). */
uint64_t pasta__div_unmeasured(const pasta_activity_kernel *k);

/* Where some of k's divergence-mode launches ran no divergence copy: one
 * line in `note` (without "note: " and newline), e.g. "divergence figures
 * from 3 of 5 launches; 2 ran no divergence copy (2 with blocks of 1024 threads
 * no divergence copy takes): the figures derived from thread-level counts
 * ... may include those, ...", and returns 1. Else 0. */
int pasta__div_coverage_note(const pasta_activity_kernel *k, char *note,
                             size_t size);

/* pasta__resources_perturbed's note for a kernel's row, but where none of
 * its launches was counted though its counting copy takes the block (they
 * ran the plain copy: a cooperative or persistent grid no counting copy holds,
 * or every launch outside the launch window): then it says that. */
int pasta__kernel_resources_note(const pasta_activity_kernel *k, char *note,
                                 size_t size);

/* Allocation kinds and copy directions, as the profile names them. */
enum pasta_alloc_kind {
  PASTA_ALLOC_DEVICE,
  PASTA_ALLOC_MANAGED,
  PASTA_ALLOC_HOST,  /* pinned host memory */
  PASTA_ALLOC_PITCH, /* device, 2D */
  PASTA_ALLOC_ASYNC, /* device, stream-ordered */
  PASTA_NUM_ALLOC_KINDS
};
enum pasta_copy_kind {
  PASTA_COPY_H2H,
  PASTA_COPY_H2D,
  PASTA_COPY_D2H,
  PASTA_COPY_D2D,
  PASTA_COPY_DEFAULT, /* direction inferred by the vendor runtime */
  PASTA_NUM_COPY_KINDS
};
const char *pasta__alloc_kind_name(unsigned kind);
const char *pasta__copy_kind_name(unsigned kind);

/* The totals of "memory" besides its "allocations" and "copies" objects,
 * in the profile's order: those before "copies" and those after it.
 * X(member, "path", merge): path "object.key" for a figure in an object of
 * its own, merge SUM or MAX (how a merged profile joins the inputs'). The
 * struct, the writer, the reader, merge and the CSV columns are generated
 * from these lists. */
#define PASTA_ACTIVITY_MEMORY_TOTALS(X)                                        \
  X(frees, "frees", SUM)                                                       \
  X(unknown_frees, "unknown_frees", SUM) /* of pointers never allocated */     \
  X(peak_bytes, "peak_bytes", MAX)       /* most bytes allocated at once */    \
  X(live_allocs_at_exit, "live_at_exit.count", SUM)                            \
  X(live_bytes_at_exit, "live_at_exit.bytes", SUM)
#define PASTA_ACTIVITY_MEMORY_AFTER_COPIES(X)                                  \
  X(async_copies, "async_copies", SUM)                                         \
  X(memsets, "memsets.count", SUM)                                             \
  X(memset_bytes, "memsets.bytes", SUM)                                        \
  X(device_syncs, "syncs.device", SUM)                                         \
  X(stream_syncs, "syncs.stream", SUM)

typedef struct pasta_activity_memory {
  uint64_t allocs[PASTA_NUM_ALLOC_KINDS], alloc_bytes[PASTA_NUM_ALLOC_KINDS];
#define PASTA_X(member, path, merge) uint64_t member;
  PASTA_ACTIVITY_MEMORY_TOTALS(PASTA_X)
  uint64_t copies[PASTA_NUM_COPY_KINDS], copy_bytes[PASTA_NUM_COPY_KINDS];
  uint64_t copy_ns[PASTA_NUM_COPY_KINDS]; /* synchronous copies, host clock */
  uint64_t copies_pinned[PASTA_NUM_COPY_KINDS]; /* host side pinned */
  PASTA_ACTIVITY_MEMORY_AFTER_COPIES(PASTA_X)
#undef PASTA_X
} pasta_activity_memory;

/* The figures of one launch in working-set mode, in the profile's order
 * (a "per_launch" row of "working_set", after "id" and "kernel"):
 * X(type, name). The struct, the writer, the reader and the CSV columns are
 * generated from this list. */
#define PASTA_ACTIVITY_WS_LAUNCH(X)                                            \
  X(uint32_t, touched_allocations)                                             \
  X(uint64_t, footprint_bytes) /* sizes of the allocations it touched */       \
  X(uint64_t, touched_bytes)   /* touched pages, clipped to the allocations */ \
  X(uint64_t, outside)         /* accesses outside every known allocation */

/* One launch in working-set mode. */
typedef struct pasta_activity_ws_launch {
  uint64_t id;     /* launch id (0-based, over every launch) */
  uint32_t kernel; /* index into kernels */
#define PASTA_X(type, name) type name;
  PASTA_ACTIVITY_WS_LAUNCH(PASTA_X)
#undef PASTA_X
} pasta_activity_ws_launch;

/* What the runtime knows of the GPU's limits (the current device at exit):
 * theoretical from the vendor's attributes, and the bandwidth of a
 * device-to-device copy it timed. 0 where unknown. */
typedef struct pasta_device_peaks {
  int device, sm_count, clock_khz, mem_clock_khz, bus_bits, cc_major, cc_minor;
  double bw_theoretical; /* bytes/s: 2 x memory clock x bus width */
  double bw_measured;    /* bytes/s: read + written by a D2D copy */
  double flops[PASTA_NUM_PRECISIONS]; /* FLOP/s without tensor cores */
} pasta_device_peaks;

typedef struct pasta_activity {
  const pasta_activity_kernel *kernels;
  size_t num_kernels;
  uint64_t launches, counted, untimed; /* over all kernels */
  uint64_t paths_from_cache; /* launches whose call path the cache gave */
  uint64_t gpu_time_ns;      /* sum over timed launches */
  uint64_t window_start, window_end; /* launch ids counted (inclusive) */
  unsigned sample;                   /* PASTA_SAMPLE: count 1 launch in N */
  pasta_device_peaks peaks;
  const char *window_kernels; /* PASTA_INSTRUMENT_KERNELS or NULL */
  pasta_activity_memory memory;

  int ws_enabled;
  uint64_t page_size;
  const pasta_activity_ws_launch *ws_launches;
  size_t num_ws_launches;
  uint64_t ws_skipped; /* launches left uncounted by the working set */
  uint64_t outside;    /* accesses outside every known allocation */
  const char *outside_kernel, *outside_file; /* first offender, or NULL */
  uint32_t outside_line;
  pasta_hotness hotness; /* accesses per block per launch (may be empty) */
} pasta_activity;

/* The "launches", "memory" and "working_set" members of the JSON profile,
 * each preceded by ",\n". Returns 0 or -1 (out of memory or write error). */
/* The "working_set" member alone (with its leading comma); when process is
 * not NULL, process[i] is written as per-launch row i's "process" (merged
 * profiles). */
int pasta__activity_write_ws_json(FILE *out, const pasta_activity *a,
                                  const uint64_t *process);

int pasta__activity_write_json(FILE *out, const pasta_activity *a);

/* Pieces of pasta__activity_write_json, for writers of merged profiles
 * (pasta-report merge): one kernel entry of "launches" ({"name":...}), and
 * the whole ",\n\"memory\":{...}" member. */
void pasta__activity_write_kernel_json(FILE *out,
                                       const pasta_activity_kernel *k);
void pasta__activity_write_memory_json(FILE *out,
                                       const pasta_activity_memory *m);

/* Working-set statistics over a's launches (touched bytes / footprint). */
int pasta__activity_ws_stats(const pasta_activity *a, pasta_ws_stats *touched,
                             pasta_ws_stats *footprint);

#ifdef __cplusplus
}
#endif

#endif
