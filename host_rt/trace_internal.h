/*===- trace_internal.h - Trace mode's recorded state ---------------------===*
 *
 * Private to trace.c, which records (the calling-context tree, memory
 * events, launches, module tables), and trace_build.c, which builds the
 * struct pasta_trace from what was recorded (trace.h).
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_HOST_RT_TRACE_INTERNAL_H
#define PASTA_HOST_RT_TRACE_INTERNAL_H

#include "trace.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define NONE UINT32_MAX

/* A calling-context tree node: one scope under one control-flow stack.
 * Thread roots have no module (row: the thread index). */
struct node {
  uint32_t parent;
  uint32_t row;
  const void *module;
  uint64_t seq, time, count, iterations;
  uint32_t kind;
  int trips_known;
};

enum item_type { ITEM_ACCESS, ITEM_ALLOC, ITEM_FREE, ITEM_LAUNCH };

/* A memory event or launch in a node, once per call site and kind. */
struct item {
  uint32_t node;
  uint32_t type;
  char mode;
  const void *site;
  uint64_t seq, time, count;
  uint64_t buffer; /* id + 1, 0: none */
  uint64_t offset, bytes, size;
  const char *mangled; /* launches */
  const void *extra;   /* part of the identity: the kernel for launches,
                          the allocation event for frees and accesses */
  const void *module;
  uint64_t *args; /* launches: per parameter, buffer id + 1 or 0 */
  uint32_t nargs;
};

struct buffer_info {
  uint32_t alloc_item; /* index + 1 of the allocation event standing for it */
  const void *site;
  const char *kind;
  const void *loop_module;
  uint32_t loop_row;
};

struct traced {
  uint64_t launch;
  const char *mangled;
  const void *module;
  struct pasta_trace_record *records;
  uint64_t stored, head, t_before, t_after;
};

struct module_copy {
  const void *key;
  struct pasta_module_desc desc;
  struct pasta_scope *scopes;
  struct pasta_access *accesses;
  struct pasta_site *sites;
  char *strings;
  uint64_t *counters;
};

struct hash_slot {
  uint64_t key;
  uint32_t index; /* + 1; 0: empty */
  int is_item;
};

struct pasta__trace_state {
  pthread_mutex_t mu;
  int decided, on, code_seen;
  uint64_t start;
  uint32_t launches, capacity, warps;
  size_t max_nodes, max_spans;
  struct node *nodes;
  size_t num_nodes, cap_nodes;
  struct item *items;
  size_t num_items, cap_items;
  struct hash_slot *hash;
  size_t cap_hash, num_hash;
  uint64_t seq, seen, dropped;
  struct pasta_trace_buffer *buffers; /* by allocation id */
  struct buffer_info *binfo;
  size_t num_buffers, cap_buffers;
  struct pasta_trace_span *spans;
  size_t num_spans, cap_spans;
  struct traced *traced;
  size_t num_traced, cap_traced;
  struct module_copy *modules;
  size_t num_modules, cap_modules;
  const void **streams;
  size_t num_streams, cap_streams;
  uint32_t threads;
  uint64_t records_dropped;
  char **owned; /* strings made for the built trace */
  size_t num_owned, cap_owned;
};

#pragma GCC visibility push(hidden)

/* Everything trace mode recorded; pasta__trace_lock() guards it. */
extern struct pasta__trace_state pasta__tr;

void pasta__trace_lock(void);
void pasta__trace_unlock(void);

#pragma GCC visibility pop

#endif
