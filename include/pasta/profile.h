/*===- profile.h - PASTA's in-memory profile model ------------------------===*
 *
 * What the host runtime (and any offline tool) builds from the tables of
 * instrumented modules: per-kernel, per-device-function and per-host-function
 * totals, and per-source-line totals. Pure C, no I/O: it works on host copies
 * of a module's tables (the caller copies device tables to the host and sums
 * the counter banks first).
 *
 * Semantics (see docs/profile-format.md):
 *  - dynamic totals of a site are its static mix times its block counter;
 *  - generic accesses of device functions are resolved with the site's dyn
 *    counters (shared, local), the remainder counts as global, so device
 *    entries never report anything under "generic"; host functions keep every
 *    access under "generic";
 *  - a kernel's totals include the sites of the device functions it owns;
 *    device functions shared by several kernels are reported on their own;
 *  - a line's executions are the sum over the distinct block counters of the
 *    sites that were merged into it;
 *  - divergence figures (div[]) come from the module's divergence rows,
 *    attributed to kernels and lines like sites.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_H
#define PASTA_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "pasta/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The per-space groups of pasta_counts, in pasta_mix_index order, as the
 * profile names them: X(name, on_lines) per group, on_lines 1 for the
 * groups that lines have too. The struct, the JSON writer and reader, the
 * CSV columns and the sums are generated from this list. */
#define PASTA_COUNTS_SPACE_GROUPS(X)                                           \
  X(loads, 0)                                                                  \
  X(stores, 0)                                                                 \
  X(load_bytes, 1)                                                             \
  X(store_bytes, 1)                                                            \
  X(atomics, 0)                                                                \
  X(atomic_bytes, 1)

/* Dynamic totals of one entry, indexed by enum pasta_space / precision. */
typedef struct pasta_counts {
#define PASTA_X(name, on_lines) uint64_t name[PASTA_NUM_SPACES];
  PASTA_COUNTS_SPACE_GROUPS(PASTA_X)
#undef PASTA_X
  uint64_t flops[PASTA_NUM_PRECISIONS];
  uint64_t special;
} pasta_counts;

/* The spread of one count of an entry over the processes of a merged
 * profile: the smallest and the largest process's value, and the first
 * process (an index into merged_from) that holds the largest. The mean is
 * the entry's total divided by the number of processes; a process without
 * the entry counts 0. */
typedef struct pasta_rank_spread {
  uint64_t min, max;
  uint64_t max_process;
} pasta_rank_spread;

/* The counts spread over processes: the entry's launches, calls or
 * executions, its bytes (pasta_counts_bytes) and its FLOPs
 * (pasta_counts_flops). */
enum pasta_rank_metric {
  PASTA_RANK_WORK,
  PASTA_RANK_BYTES,
  PASTA_RANK_FLOPS,
  PASTA_NUM_RANK_METRICS
};

typedef struct pasta_rank_stats {
  pasta_rank_spread metric[PASTA_NUM_RANK_METRICS];
} pasta_rank_stats;

/* A kernel, a device function or a host function. */
typedef struct pasta_profile_func {
  const char *name;    /* display name: demangled (demangle.h), or the
                          symbol when it is not C++ or no demangler is at
                          hand */
  const char *mangled; /* the symbol name */
  const char *module;  /* source file of the module, or NULL */
  const char *file;    /* file of the definition, or NULL */
  uint32_t line;       /* line of the definition, 0 if unknown */
  uint32_t kind;       /* enum pasta_func_kind */
  uint64_t calls;      /* launches (kernels) or calls */
  pasta_counts counts;
  const pasta_rank_stats *ranks; /* merged profiles: per-process spread,
                                    else NULL */
  /* Divergence mode's warp-level figures (enum pasta_div_index), summed
   * over its launches; all 0 when none ran. */
  uint64_t div[PASTA_DIV_NUM];
} pasta_profile_func;

/* One source line of one function (merged over blocks and modules). */
typedef struct pasta_profile_line {
  const char *file;     /* or NULL when unknown */
  uint32_t line;        /* 0 when unknown */
  uint32_t kind;        /* enum pasta_func_kind of the function */
  const char *function; /* display name */
  uint64_t executions;  /* sum over the distinct block counters */
  pasta_counts counts;
  const pasta_rank_stats *ranks; /* as for functions */
  uint64_t div[PASTA_DIV_NUM];   /* as for functions */
  /* How div[] was found (bit i: figure i): derived from a compile-time
   * proof of some site's address or condition (div_proven), measured at
   * some site (div_measured). A figure is proven on the line when it is in
   * div_proven and not in div_measured (pasta_div_proven). */
  uint32_t div_proven, div_measured;
} pasta_profile_line;

/* A line contribution before finalize merges them (internal). */
typedef struct pasta_profile_raw_line {
  pasta_profile_line line;
  uint32_t module_seq; /* which add_module call */
  uint32_t counter;    /* block counter index in that module */
} pasta_profile_raw_line;

/* The key of a line that did not run, kept only to count the lines a
 * profile leaves out (internal; see pasta_profile.omitted). */
typedef struct pasta_profile_zero_line {
  const char *file;
  const char *function;
  uint32_t line;
  uint32_t kind;
} pasta_profile_zero_line;

/* How many entries a profile leaves out because they did not run: device
 * functions and host functions with no call and no count, and lines with
 * no execution and no count (docs/profile-format.md, "omitted"). Kernels are
 * always listed. All 0 in a profile that lists everything
 * (pasta_profile.list_all). In a merged profile, a lower bound (exact when
 * every input comes from the same program): the most entries any input
 * had, listed or omitted, less those the merged profile lists. */
typedef struct pasta_profile_omitted {
  uint64_t device_functions, host_functions, lines;
} pasta_profile_omitted;

/* Where a process ran: its place in an MPI (or Slurm) job, read from the
 * launcher's environment (no MPI library involved), its host and the GPUs
 * it used. */
typedef struct pasta_profile_gpu {
  int index;        /* the device number the process saw */
  const char *uuid; /* "GPU-xxxxxxxx-...", or NULL when unknown */
} pasta_profile_gpu;

typedef struct pasta_profile_job {
  int64_t rank, size, local_rank; /* -1 when unknown */
  const char *launcher;           /* "openmpi", "pmix", "pmi", "slurm" or
                                     NULL (not launched as part of a job) */
  const char *host;               /* the host name, or NULL */
  const pasta_profile_gpu *gpus;
  size_t num_gpus;
} pasta_profile_job;

/* One input of a merged profile (pasta-report merge): the JSON profile it
 * was read from and that profile's "program", "pid", "created" and "job"
 * (job.rank -1 and job.host NULL when the input has none). */
typedef struct pasta_profile_source {
  const char *file;
  const char *program;
  uint64_t pid;
  int64_t created; /* seconds since the epoch, UTC */
  pasta_profile_job job;
} pasta_profile_source;

struct pasta_profile_chunk;

typedef struct pasta_profile {
  /* Set by the caller (pasta_profile_set_info), used by the writers. */
  const char *program;
  uint64_t pid;
  int64_t created; /* seconds since the epoch, UTC */
  /* The process's place in a job (pasta_profile_set_job); rank -1 and host
   * NULL until set. A merged profile has none: its processes' are in
   * merged_from. */
  pasta_profile_job job;

  pasta_profile_func *kernels;
  size_t num_kernels, cap_kernels;
  pasta_profile_func *device_functions; /* those shared by several kernels */
  size_t num_device_functions, cap_device_functions;
  pasta_profile_func *host_functions;
  size_t num_host_functions, cap_host_functions;
  pasta_profile_line *lines; /* valid after pasta_profile_finalize */
  size_t num_lines;

  /* Inputs of a merged profile (pasta_profile_add_source); none for the
   * profile of one process. The JSON writer emits "merged_from" only when
   * there are some. */
  pasta_profile_source *merged_from;
  size_t num_merged_from, cap_merged_from;

  /* What the host runtime saw of launches, memory and working sets
   * (profile/activity.h), or NULL. Not owned: the JSON writer emits it. */
  const struct pasta_activity *activity;
  /* Trace mode's C.A.T.S. analyses (profile/trace_analysis.h, computed by
   * analyzers/trace/), or NULL. Not owned: the JSON writer emits them as
   * "trace". */
  const struct pasta_trace_analysis *trace;
  /* Trace mode's recorded events (profile/trace_model.h), or NULL. Not
   * owned; not part of the JSON profile (the trace analyzer writes them as
   * .cats and Chrome traces). */
  const struct pasta_trace *trace_events;

  /* Set by the caller before adding modules: 1 lists every function and
   * line of the modules, run or not (PASTA_LIST_ALL=1); 0 (the default)
   * leaves out those that did not run and counts them in `omitted`. */
  int list_all;
  pasta_profile_omitted omitted;

  pasta_profile_raw_line *raw_lines;
  size_t num_raw_lines, cap_raw_lines;
  pasta_profile_zero_line *zero_lines; /* until finalize counts them */
  size_t num_zero_lines, cap_zero_lines;
  uint32_t num_modules;
  /* Device modules registered but not read (their counts are missing;
   * the runtime said why on stderr). */
  uint32_t num_unread_modules;
  /* What the modules' counts miss, each once: their descriptors'
   * `uncounted` lines, the plugin's not-counted warnings (inline assembly
   * that moves memory, texture fetches, calls through pointers), which a
   * build's -w hides. The JSON writer emits "uncounted" only when there
   * are some. */
  const char **uncounted;
  size_t num_uncounted, cap_uncounted;
  int finalized;
  struct pasta_profile_chunk *chunks; /* owned memory (strings etc.) */
} pasta_profile;

/* Results of pasta_profile_add_module. */
enum pasta_profile_status {
  PASTA_PROFILE_OK = 0,
  PASTA_PROFILE_EMAGIC = -1,     /* not a PASTA module descriptor */
  PASTA_PROFILE_EVERSION = -2,   /* built for another PASTA_ABI_VERSION */
  PASTA_PROFILE_EMALFORMED = -3, /* an index or offset is out of range */
  PASTA_PROFILE_ENOMEM = -4,
  PASTA_PROFILE_EFINALIZED = -5 /* the profile was already finalized */
};

void pasta_profile_init(pasta_profile *p);

/* Copies `program`; `created` is a time_t value. Returns 0, or -1 without
 * memory. */
int pasta_profile_set_info(pasta_profile *p, const char *program, uint64_t pid,
                           int64_t created);

/* Copies `job` (its strings and GPUs) into the profile. Returns 0, or -1
 * without memory. */
int pasta_profile_set_job(pasta_profile *p, const pasta_profile_job *job);

/* The value of `metric` in an entry: calls (launches, executions), bytes
 * or FLOPs. */
uint64_t pasta_rank_metric_value(enum pasta_rank_metric metric, uint64_t calls,
                                 const pasta_counts *c);

/* Checks the magic and version of a descriptor only. */
int pasta_profile_check_desc(const struct pasta_module_desc *desc);

/* Remembers the names the plugin demangled in a module's function table
 * (host memory), so that every later demangling of those symbols in this
 * process (call paths, launch tables, the trace) reads them as the profile
 * does; pasta_profile_add_module does it too. A descriptor of another
 * version, or a name or display offset outside its strings, is skipped. */
void pasta_profile_remember_names(const struct pasta_module_desc *desc);

/* Adds one module. `desc` and the arrays it points to are host memory;
 * `counters` holds the bank-summed value of each of desc->num_counters
 * counters (desc->counters and desc->num_banks are ignored). Everything the
 * profile keeps is copied. Unless p->list_all, device and host functions
 * and lines that did not run are left out and counted in p->omitted (the
 * lines by finalize). On error (enum pasta_profile_status) the profile
 * is left unchanged. */
int pasta_profile_add_module(pasta_profile *p,
                             const struct pasta_module_desc *desc,
                             const uint64_t *counters);

/* Building a profile from entries that are already aggregated, for offline
 * tools (pasta-report reads JSON profiles this way). They can be mixed with
 * pasta_profile_add_module; every string is copied. Each returns
 * PASTA_PROFILE_OK, PASTA_PROFILE_EMALFORMED (a NULL name or an unknown
 * kind), PASTA_PROFILE_ENOMEM or PASTA_PROFILE_EFINALIZED; on error the
 * profile is left unchanged. */

/* Adds one function entry, to kernels, device_functions or host_functions
 * by f->kind, as it is: entries already there are not merged with it.
 * f->mangled is required; a NULL f->name becomes the display name of
 * f->mangled (pasta_demangle, else f->mangled). */
int pasta_profile_add_func(pasta_profile *p, const pasta_profile_func *f);

/* Adds one line entry (l->function is required). pasta_profile_finalize
 * merges it with the other entries of the same (file, line, function, kind):
 * their counts and their executions add up, and their per-process spreads
 * (`ranks`), which cannot be combined without the processes' values, are
 * dropped. f->ranks and l->ranks are copied. */
int pasta_profile_add_line(pasta_profile *p, const pasta_profile_line *l);

/* Records one input of a merged profile (s->file and s->program may be
 * NULL; s->job is copied). Allowed after finalize too. */
int pasta_profile_add_source(pasta_profile *p, const pasta_profile_source *s);

/* Records one line of what the counts miss (copied; a line already there is
 * not added again). Allowed after finalize too. */
int pasta_profile_add_uncounted(pasta_profile *p, const char *note);

/* Merges the lines, counts the lines left out (p->omitted.lines: the
 * distinct lines of modules' sites that did not run and that no listed line
 * has) and sorts everything: kernels by launches, functions by calls, lines
 * by bytes + FLOPs (all descending). Returns 0, or
 * PASTA_PROFILE_ENOMEM (the profile then has no lines). */
int pasta_profile_finalize(pasta_profile *p);

void pasta_profile_free(pasta_profile *p);

const char *pasta_profile_strerror(int status);

/* Helpers shared by the writers. */
const char *pasta_space_name(unsigned space);
const char *pasta_precision_name(unsigned precision);
const char *pasta_kind_name(unsigned kind); /* "kernel", "device", "host" */
/* The kernel whose symbol is `mangled`, or NULL (also for a NULL p or
 * mangled). */
const pasta_profile_func *pasta_profile_find_kernel(const pasta_profile *p,
                                                    const char *mangled);
uint64_t pasta_counts_bytes(const pasta_counts *c); /* load+store+atomic */
/* Adds every count of src to dst, saturating at 2^64 - 1. */
void pasta_counts_add(pasta_counts *dst, const pasta_counts *src);
/* The JSON name of divergence figure i (enum pasta_div_index), or NULL. */
const char *pasta_div_name(unsigned i);
/* The figures of line l derived from a proof at every site, never
 * measured (bit i: figure i). */
uint32_t pasta_div_proven(const pasta_profile_line *l);
/* What proven figures `proven` (bits as pasta_div_proven's) of figures
 * `div` say, e.g. "proven coalesced: 4.00 sectors/request; proven uniform
 * branches", into out (size bytes, always terminated; "" for none). */
void pasta_div_describe_proven(uint32_t proven,
                               const uint64_t div[PASTA_DIV_NUM], char *out,
                               size_t size);
/* Whether any divergence figure is not 0. */
int pasta_div_any(const uint64_t div[PASTA_DIV_NUM]);
/* Figures derived from div[]: sectors beyond the ideal (0 when none),
 * distinct bytes of both spaces. */
uint64_t pasta_div_excess_sectors(const uint64_t div[PASTA_DIV_NUM]);
uint64_t pasta_div_distinct_bytes(const uint64_t div[PASTA_DIV_NUM]);
uint64_t pasta_counts_flops(const pasta_counts *c);
/* x rounded down to an integer, clamped to [0, 2^64 - 1] (NaN gives 0): a
 * cast of a double outside that range is undefined behaviour in C, and
 * profiles may hold any number. */
uint64_t pasta_u64_from_double(double x);
/* Compute intensity: FLOPs per byte of global memory traffic (loads, stores
 * and atomics). Generic bytes count as global: only host functions have any
 * (all their accesses are generic), device entries are resolved. Returns 1
 * and sets *ci, or returns 0 when there is no such traffic. */
int pasta_counts_intensity(const pasta_counts *c, double *ci);

#ifdef __cplusplus
}
#endif

#endif /* PASTA_PROFILE_H */
