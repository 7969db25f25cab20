/*===- trace.c - Trace mode: C.A.T.S. scope and memory events -------------===*
 *
 * See trace.h. The host side is kept as a calling-context tree: every
 * thread's current node is its control-flow stack, a scope entry moves to
 * the child for that scope (made the first time), an exit moves back up.
 * Memory events and launches are items of the node they happen in, one per
 * (call site, kind), counted when they repeat. That is C.A.T.S.'s
 * de-duplication (an event whose site and stack were recorded is not
 * recorded again), and the .cats file is the tree written depth first, so
 * its entries and exits always nest and its size follows the program, not
 * the run. Launches expand into their kernel's device scopes (the module's
 * static scope tree, trimmed to what the traced launches' warps entered)
 * and accesses (the access table, counted by the site counters).
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "trace.h"
#include "profile/env.h"
#include "profile/vec.h"

#include "pasta/profile.h"
#include "profile/demangle.h"
#include "symbolize/symbolize.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PASTA_ABI __attribute__((visibility("default")))

PASTA_ABI void __pasta_scope_enter(const struct pasta_module_desc *m,
                                   uint32_t scope);
PASTA_ABI void __pasta_scope_exit(const struct pasta_module_desc *m,
                                  uint32_t scope, uint32_t trips);
PASTA_ABI void __pasta_scope_resume(const struct pasta_module_desc *m,
                                    uint32_t scope);

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

static struct {
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
} tr = {.mu = PTHREAD_MUTEX_INITIALIZER};

static __thread uint32_t cur_node = NONE;
static __thread uint32_t thread_index = NONE;

static void lock(void) { pthread_mutex_lock(&tr.mu); }
static void unlock(void) { pthread_mutex_unlock(&tr.mu); }

uint64_t pasta__trace_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t env_u64(const char *name, uint64_t fallback, uint64_t max) {
  const char *s = getenv(name);
  if (!s || !*s)
    return fallback;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end || v == 0 || v > max) {
    fprintf(stderr,
            "pasta: warning: %s=%s is not a number from 1 to %llu; using "
            "%llu\n",
            name, s, (unsigned long long)max, (unsigned long long)fallback);
    return fallback;
  }
  return v;
}

/* Lock held. */
static void decide(void) {
  if (tr.decided)
    return;
  tr.decided = 1;
  tr.on = pasta__env_flag("PASTA_TRACE", 1);
  tr.start = pasta__trace_now();
  tr.launches = (uint32_t)env_u64("PASTA_TRACE_LAUNCHES", 2, 1u << 20);
  tr.capacity = (uint32_t)env_u64("PASTA_TRACE_RECORDS", 65536, 1u << 26);
  tr.warps = (uint32_t)env_u64("PASTA_TRACE_WARPS", 64, 1u << 24);
  tr.max_nodes = (size_t)env_u64("PASTA_TRACE_EVENTS", 1u << 20, 1u << 28);
  tr.max_spans = (size_t)env_u64("PASTA_TRACE_SPANS", 1u << 20, 1u << 28);
}

int pasta__trace_on(void) {
  lock();
  decide();
  int on = tr.on && tr.code_seen;
  unlock();
  return on;
}

void pasta__trace_code_seen(void) {
  lock();
  tr.code_seen = 1;
  unlock();
}

uint32_t pasta__trace_launches(void) {
  lock();
  decide();
  uint32_t v = tr.launches;
  unlock();
  return v;
}

uint32_t pasta__trace_capacity(void) {
  lock();
  decide();
  uint32_t v = tr.capacity;
  unlock();
  return v;
}

uint32_t pasta__trace_warps(void) {
  lock();
  decide();
  uint32_t v = tr.warps;
  unlock();
  return v;
}

/*===-- The calling-context tree ------------------------------------------===*/

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h *= 0xff51afd7ed558ccdull;
  return h ^ (h >> 33);
}

static uint64_t node_key(uint32_t parent, const void *module, uint32_t row) {
  return mix(mix(mix(1, parent), (uint64_t)(uintptr_t)module), row);
}

static uint64_t item_key(uint32_t node, uint32_t type, char mode,
                         const void *site, const void *extra) {
  uint64_t h = mix(mix(mix(2, node), type), (uint64_t)(unsigned char)mode);
  return mix(mix(h, (uint64_t)(uintptr_t)site), (uint64_t)(uintptr_t)extra);
}

static int same_node(const struct node *n, uint32_t parent, const void *module,
                     uint32_t row) {
  return n->parent == parent && n->module == module && n->row == row;
}

static int same_item(const struct item *it, uint32_t node, uint32_t type,
                     char mode, const void *site, const void *extra) {
  return it->node == node && it->type == type && it->mode == mode &&
         it->site == site && it->extra == extra;
}

static int rehash(void) {
  size_t cap = tr.cap_hash ? tr.cap_hash * 2 : 1024;
  struct hash_slot *h = calloc(cap, sizeof *h);
  if (!h)
    return -1;
  for (size_t i = 0; i < tr.cap_hash; ++i) {
    if (!tr.hash[i].index)
      continue;
    size_t j = tr.hash[i].key & (cap - 1);
    while (h[j].index)
      j = (j + 1) & (cap - 1);
    h[j] = tr.hash[i];
  }
  free(tr.hash);
  tr.hash = h;
  tr.cap_hash = cap;
  return 0;
}

/* The slot where `key` is or would go; NULL when out of memory. */
static struct hash_slot *slot_for(uint64_t key, int is_item, uint32_t node,
                                  uint32_t type, char mode, const void *site,
                                  const void *module, uint32_t row) {
  if ((tr.num_hash + 1) * 2 > tr.cap_hash && rehash())
    return NULL;
  for (size_t j = key & (tr.cap_hash - 1);; j = (j + 1) & (tr.cap_hash - 1)) {
    struct hash_slot *s = &tr.hash[j];
    if (!s->index)
      return s;
    if (s->key != key || s->is_item != is_item)
      continue;
    if (is_item
            ? same_item(&tr.items[s->index - 1], node, type, mode, site, module)
            : same_node(&tr.nodes[s->index - 1], node, module, row))
      return s;
  }
}

/* The thread's root node, made on first use. Lock held. */
static uint32_t current(void) {
  if (cur_node != NONE)
    return cur_node;
  if (thread_index == NONE)
    thread_index = tr.threads++;
  if (GROW(tr.nodes, tr.cap_nodes, tr.num_nodes))
    return NONE;
  tr.nodes[tr.num_nodes] = (struct node){.parent = NONE,
                                         .row = thread_index,
                                         .seq = tr.seq++,
                                         .time = pasta__trace_now(),
                                         .count = 1};
  cur_node = (uint32_t)tr.num_nodes++;
  return cur_node;
}

/* The child of `parent` for scope `row` of `module`, made when new. */
static uint32_t child(uint32_t parent, const void *module, uint32_t row,
                      uint32_t kind) {
  uint64_t key = node_key(parent, module, row);
  struct hash_slot *s = slot_for(key, 0, parent, 0, 0, NULL, module, row);
  if (!s)
    return NONE;
  if (s->index)
    return s->index - 1;
  if (tr.num_nodes >= tr.max_nodes ||
      GROW(tr.nodes, tr.cap_nodes, tr.num_nodes)) {
    ++tr.dropped;
    return NONE;
  }
  tr.nodes[tr.num_nodes] = (struct node){.parent = parent,
                                         .row = row,
                                         .module = module,
                                         .seq = tr.seq++,
                                         .time = pasta__trace_now(),
                                         .kind = kind};
  *s = (struct hash_slot){key, (uint32_t)++tr.num_nodes, 0};
  ++tr.num_hash;
  return (uint32_t)(tr.num_nodes - 1);
}

void __pasta_scope_enter(const struct pasta_module_desc *m, uint32_t scope) {
  lock();
  decide();
  tr.code_seen = 1;
  if (!tr.on || !m || scope >= m->num_scopes) {
    unlock();
    return;
  }
  ++tr.seen;
  const struct pasta_scope *row =
      (const struct pasta_scope *)(uintptr_t)m->scopes + scope;
  uint32_t here = current();
  uint32_t next = here == NONE ? NONE : child(here, m, scope, row->kind);
  if (next != NONE) {
    ++tr.nodes[next].count;
    cur_node = next;
  }
  unlock();
}

void __pasta_scope_exit(const struct pasta_module_desc *m, uint32_t scope,
                        uint32_t trips) {
  lock();
  if (!tr.on || cur_node == NONE) {
    unlock();
    return;
  }
  ++tr.seen;
  /* C.A.T.S.: leaving a scope leaves whatever it still held (an exception
   * or longjmp skipped their exits); an exit that matches nothing open is
   * ignored. */
  for (uint32_t n = cur_node; n != NONE; n = tr.nodes[n].parent) {
    struct node *x = &tr.nodes[n];
    if (x->module != m || x->row != scope)
      continue;
    if (x->kind == PASTA_SCOPE_LOOP) {
      x->iterations += trips;
      x->trips_known = 1;
    }
    cur_node = x->parent;
    break;
  }
  unlock();
}

/* At a landing pad: the exception left the scopes it unwound without their
 * exits; the thread is back in `scope` (its innermost scope there). */
void __pasta_scope_resume(const struct pasta_module_desc *m, uint32_t scope) {
  lock();
  for (uint32_t n = cur_node; tr.on && n != NONE; n = tr.nodes[n].parent)
    if (tr.nodes[n].module == m && tr.nodes[n].row == scope) {
      cur_node = n;
      break;
    }
  unlock();
}

/* The item (site, type, mode, extra) of the current node, counted: its
 * index + 1, or 0 when it could not be recorded. *is_new says whether this
 * call made it. Lock held. */
static uint32_t add_item(uint32_t type, char mode, const void *site,
                         const void *extra, uint64_t t, int *is_new) {
  *is_new = 0;
  uint32_t node = current();
  if (node == NONE)
    return 0;
  ++tr.seen;
  uint64_t key = item_key(node, type, mode, site, extra);
  struct hash_slot *s = slot_for(key, 1, node, type, mode, site, extra, 0);
  if (!s)
    return 0;
  if (s->index) {
    ++tr.items[s->index - 1].count;
    return s->index; /* already recorded */
  }
  if (tr.num_items >= tr.max_nodes ||
      GROW(tr.items, tr.cap_items, tr.num_items)) {
    ++tr.dropped;
    return 0;
  }
  tr.items[tr.num_items] = (struct item){.node = node,
                                         .type = type,
                                         .mode = mode,
                                         .site = site,
                                         .extra = extra,
                                         .seq = tr.seq++,
                                         .time = t,
                                         .count = 1};
  *s = (struct hash_slot){key, (uint32_t)++tr.num_items, 1};
  ++tr.num_hash;
  *is_new = 1;
  return s->index;
}

/* The allocation event that stands for buffer `id` (index + 1; 0: none):
 * C.A.T.S. records one allocation per site and stack, so frees and accesses
 * name that event's buffer, and are told apart by it. */
static uint32_t representative(uint64_t id) {
  return id < tr.num_buffers && tr.buffers[id].id ? tr.binfo[id].alloc_item : 0;
}

static uint64_t representative_buffer(uint64_t id) {
  uint32_t rep = representative(id);
  return rep ? tr.items[rep - 1].buffer : id + 1;
}

/*===-- Memory, launches, spans -------------------------------------------===*/

static int recording(void) {
  decide();
  return tr.on && tr.code_seen;
}

static struct pasta_trace_buffer *buffer(uint64_t id) {
  return id < tr.num_buffers && tr.buffers[id].id ? &tr.buffers[id] : NULL;
}

static void use(uint64_t id, uint64_t t) {
  struct pasta_trace_buffer *b = buffer(id);
  if (!b)
    return;
  if (b->t_first_use == PASTA_TIME_NONE)
    b->t_first_use = t;
  b->t_last_use = t;
  ++b->uses;
}

void pasta__trace_api(const char *name, uint64_t t0, uint64_t t1,
                      uint64_t correlation) {
  lock();
  if (!recording()) {
    unlock();
    return;
  }
  if (thread_index == NONE)
    thread_index = tr.threads++;
  if (tr.num_spans >= tr.max_spans ||
      GROW(tr.spans, tr.cap_spans, tr.num_spans)) {
    ++tr.dropped;
  } else {
    tr.spans[tr.num_spans++] =
        (struct pasta_trace_span){.track = PASTA_TRACK_HOST_THREAD,
                                  .tid = thread_index,
                                  .name = name,
                                  .category = correlation ? "launch" : "api",
                                  .ts_ns = t0,
                                  .dur_ns = t1 > t0 ? t1 - t0 : 0,
                                  .correlation = correlation,
                                  .detail = ""};
  }
  unlock();
}

/* The host loops around the current position: how many, and the innermost.
 * Lock held. */
static uint32_t loops_around(const void **module, uint32_t *row) {
  uint32_t depth = 0;
  *module = NULL;
  for (uint32_t n = cur_node; n != NONE; n = tr.nodes[n].parent) {
    if (tr.nodes[n].kind != PASTA_SCOPE_LOOP || !tr.nodes[n].module)
      continue;
    if (!depth++) {
      *module = tr.nodes[n].module;
      *row = tr.nodes[n].row;
    }
  }
  return depth;
}

void pasta__trace_alloc(uint64_t id, uint64_t size, const char *kind,
                        const void *site, uint64_t t) {
  lock();
  if (!recording()) {
    unlock();
    return;
  }
  while (tr.num_buffers <= id) {
    if (GROW(tr.buffers, tr.cap_buffers, tr.num_buffers)) {
      ++tr.dropped;
      unlock();
      return;
    }
    if (tr.cap_buffers > tr.num_buffers) {
      struct buffer_info *bi =
          realloc(tr.binfo, tr.cap_buffers * sizeof *tr.binfo);
      if (!bi) {
        ++tr.dropped;
        unlock();
        return;
      }
      tr.binfo = bi;
    }
    memset(&tr.buffers[tr.num_buffers], 0, sizeof *tr.buffers);
    memset(&tr.binfo[tr.num_buffers], 0, sizeof *tr.binfo);
    ++tr.num_buffers;
  }
  struct pasta_trace_buffer *b = &tr.buffers[id];
  struct buffer_info *bi = &tr.binfo[id];
  *b = (struct pasta_trace_buffer){.id = id + 1,
                                   .kind = kind,
                                   .size = size,
                                   .t_alloc = t,
                                   .t_free = PASTA_TIME_NONE,
                                   .t_first_use = PASTA_TIME_NONE,
                                   .t_last_use = PASTA_TIME_NONE};
  bi->site = site;
  bi->kind = kind;
  b->loop_depth = loops_around(&bi->loop_module, &bi->loop_row);
  int is_new;
  bi->alloc_item = add_item(ITEM_ALLOC, 0, site, NULL, t, &is_new);
  if (is_new) {
    tr.items[bi->alloc_item - 1].buffer = id + 1;
    tr.items[bi->alloc_item - 1].size = size;
  }
  unlock();
}

void pasta__trace_free(uint64_t id, const void *site, uint64_t t) {
  lock();
  struct pasta_trace_buffer *b = recording() ? buffer(id) : NULL;
  if (b) {
    b->t_free = t;
    int is_new;
    uint32_t rep = representative(id);
    uint32_t it =
        add_item(ITEM_FREE, 0, site, (const void *)(uintptr_t)rep, t, &is_new);
    if (is_new)
      tr.items[it - 1].buffer = representative_buffer(id);
  }
  unlock();
}

static void copy_side(uint64_t id, uint64_t offset, uint64_t bytes, char mode,
                      const void *site, uint64_t t) {
  if (id == UINT64_MAX || !buffer(id))
    return;
  use(id, t);
  int is_new;
  uint32_t it =
      add_item(ITEM_ACCESS, mode, site,
               (const void *)(uintptr_t)representative(id), t, &is_new);
  if (is_new) {
    tr.items[it - 1].buffer = representative_buffer(id);
    tr.items[it - 1].offset = offset;
    tr.items[it - 1].bytes = bytes;
  }
}

void pasta__trace_copy(uint64_t dst_id, uint64_t dst_offset, uint64_t src_id,
                       uint64_t src_offset, uint64_t bytes, const void *site,
                       uint64_t t) {
  lock();
  if (recording()) {
    copy_side(src_id, src_offset, bytes, 'r', site, t);
    copy_side(dst_id, dst_offset, bytes, 'w', site, t);
  }
  unlock();
}

void pasta__trace_launch(uint64_t launch, const char *mangled,
                         const void *module, const uint64_t *arg_ids,
                         uint32_t nargs, const void *site, uint64_t t) {
  lock();
  if (!recording()) {
    unlock();
    return;
  }
  for (uint32_t k = 0; k < nargs; ++k)
    if (arg_ids[k] != UINT64_MAX)
      use(arg_ids[k], t);
  int is_new;
  uint32_t index = add_item(ITEM_LAUNCH, 0, site, mangled, t, &is_new);
  if (is_new) {
    struct item *it = &tr.items[index - 1];
    it->mangled = mangled;
    it->module = module;
    it->size = launch;
    it->args = nargs ? malloc(nargs * sizeof *it->args) : NULL;
    it->nargs = it->args ? nargs : 0;
    for (uint32_t k = 0; k < it->nargs; ++k)
      it->args[k] =
          arg_ids[k] == UINT64_MAX ? 0 : representative_buffer(arg_ids[k]);
  }
  unlock();
}

static uint32_t stream_index(const void *stream) {
  for (size_t i = 0; i < tr.num_streams; ++i)
    if (tr.streams[i] == stream)
      return (uint32_t)i;
  if (GROW(tr.streams, tr.cap_streams, tr.num_streams))
    return 0;
  tr.streams[tr.num_streams] = stream;
  return (uint32_t)tr.num_streams++;
}

void pasta__trace_kernel_span(uint64_t launch, const char *mangled, int device,
                              const void *stream, uint64_t start,
                              uint64_t duration) {
  lock();
  if (recording() && tr.num_spans < tr.max_spans &&
      !GROW(tr.spans, tr.cap_spans, tr.num_spans))
    tr.spans[tr.num_spans++] =
        (struct pasta_trace_span){.track = PASTA_TRACK_STREAM,
                                  .device = device < 0 ? 0 : (uint32_t)device,
                                  .tid = stream_index(stream),
                                  .name = mangled ? mangled : "?",
                                  .category = "kernel",
                                  .ts_ns = start,
                                  .dur_ns = duration,
                                  .correlation = launch + 1,
                                  .detail = ""};
  else if (recording())
    ++tr.dropped;
  unlock();
}

void pasta__trace_records(uint64_t launch, const char *mangled,
                          const void *module,
                          const struct pasta_trace_record *records,
                          uint64_t stored, uint64_t head, uint64_t t_before,
                          uint64_t t_after) {
  struct pasta_trace_record *copy =
      stored ? malloc(stored * sizeof *copy) : NULL;
  if (stored && !copy)
    stored = 0;
  if (copy)
    memcpy(copy, records, stored * sizeof *copy);
  lock();
  if (head > stored)
    tr.records_dropped += head - stored;
  if (GROW(tr.traced, tr.cap_traced, tr.num_traced)) {
    free(copy);
    unlock();
    return;
  }
  tr.traced[tr.num_traced++] = (struct traced){
      launch, mangled, module, copy, stored, head, t_before, t_after};
  unlock();
}

/*===-- Modules -----------------------------------------------------------===*/

static void *dup_array(uint64_t addr, size_t n, size_t elem) {
  if (!n || !addr)
    return NULL;
  void *p = malloc(n * elem);
  if (p)
    memcpy(p, (const void *)(uintptr_t)addr, n * elem);
  return p;
}

void pasta__trace_add_module(const void *key,
                             const struct pasta_module_desc *desc,
                             const uint64_t *counters) {
  lock();
  if (!tr.code_seen || GROW(tr.modules, tr.cap_modules, tr.num_modules)) {
    unlock();
    return;
  }
  struct module_copy *m = &tr.modules[tr.num_modules++];
  memset(m, 0, sizeof *m);
  m->key = key;
  m->desc = *desc;
  m->scopes = dup_array(desc->scopes, desc->num_scopes, sizeof *m->scopes);
  m->accesses =
      dup_array(desc->accesses, desc->num_accesses, sizeof *m->accesses);
  m->sites = dup_array(desc->sites, desc->num_sites, sizeof *m->sites);
  m->strings = dup_array(desc->strings, desc->strings_size + 1, 1);
  if (m->strings)
    m->strings[desc->strings_size] = '\0';
  m->counters = counters ? dup_array((uint64_t)(uintptr_t)counters,
                                     desc->num_counters, sizeof(uint64_t))
                         : NULL;
  unlock();
}

static const struct module_copy *module_of(const void *key) {
  for (size_t i = 0; i < tr.num_modules; ++i)
    if (tr.modules[i].key == key)
      return &tr.modules[i];
  return NULL;
}

static const char *string_at(const struct module_copy *m, uint32_t off) {
  if (!m || !m->strings || off == PASTA_NONE || off >= m->desc.strings_size)
    return "";
  return m->strings + off;
}

/*===-- Building the trace ------------------------------------------------===*/

static const char *own(char *s) {
  if (!s)
    return "";
  if (GROW(tr.owned, tr.cap_owned, tr.num_owned)) {
    free(s);
    return "";
  }
  tr.owned[tr.num_owned++] = s;
  return s;
}

static const char *demangled(const char *mangled) {
  if (!mangled || !*mangled)
    return "";
  return own(pasta__display_name_dup(mangled));
}

static const char *basename_of(const char *path) {
  const char *slash = path ? strrchr(path, '/') : NULL;
  return slash ? slash + 1 : (path ? path : "");
}

struct builder {
  struct pasta_cats_event *events;
  size_t num, cap;
  struct pasta_trace_span *spans;
  size_t num_spans, cap_spans;
  pasta_symbolizer *sym;
  /* host = device + base + offset + drift * (device - device0): the base
   * in exact integers (device clocks count from 1970, beyond a double's
   * nanosecond precision), the fitted rest in doubles. */
  int64_t base;
  uint64_t device0;
  double offset, drift;
  int failed;
};

static struct pasta_cats_event *emit(struct builder *b) {
  if (GROW(b->events, b->cap, b->num)) {
    b->failed = 1;
    return NULL;
  }
  struct pasta_cats_event *e = &b->events[b->num++];
  memset(e, 0, sizeof *e);
  e->filename = e->funcname = e->buffer_name = "";
  return e;
}

static uint64_t rel(uint64_t t) { return t >= tr.start ? t - tr.start : 0; }

static uint64_t device_to_host(const struct builder *b, uint64_t dev) {
  double fitted = b->offset + b->drift * ((double)dev - (double)b->device0);
  int64_t host = (int64_t)dev + b->base + (int64_t)fitted;
  return host > (int64_t)tr.start ? (uint64_t)(host - (int64_t)tr.start) : 0;
}

/* Where a call site is: file, function and line. */
static void site_of(struct builder *b, const void *site, const char **file,
                    const char **func, uint32_t *line) {
  pasta_symbol s;
  *file = *func = "";
  *line = 0;
  if (!site || !b->sym ||
      pasta__symbolize(b->sym, (uint64_t)(uintptr_t)site, &s) != 0)
    return;
  *file = s.file ? own(strdup(s.file)) : "";
  *func = s.function ? own(strdup(s.function)) : "";
  *line = s.line;
}

static const char *buffer_name(uint64_t id1) {
  if (!id1 || id1 > tr.num_buffers)
    return "(unknown)";
  const char *n = tr.buffers[id1 - 1].name;
  return n && *n ? n : "(unknown)";
}

static void scope_event(struct builder *b, int entry,
                        const struct module_copy *m, uint32_t row,
                        uint64_t time, int on_device) {
  struct pasta_cats_event *e = emit(b);
  if (!e)
    return;
  const struct pasta_scope *s = &m->scopes[row];
  e->type = entry ? PASTA_CATS_SCOPE_ENTRY : PASTA_CATS_SCOPE_EXIT;
  e->scope_kind = s->kind;
  e->id = s->id;
  e->filename = string_at(m, s->file);
  e->funcname = demangled(string_at(m, s->func));
  e->line = s->line;
  e->col = s->col;
  e->time_ns = time;
  e->on_device = on_device;
}

/* What the traced launches of one kernel saw, per scope row. */
struct device_view {
  uint64_t *entries, *trips, *first;
  int *trips_known;
  int any;
};

static void device_view(const struct module_copy *m, const char *mangled,
                        const struct builder *b, struct device_view *v) {
  size_t n = m->desc.num_scopes;
  memset(v, 0, sizeof *v);
  v->entries = calloc(n + 1, sizeof *v->entries);
  v->trips = calloc(n + 1, sizeof *v->trips);
  v->first = calloc(n + 1, sizeof *v->first);
  v->trips_known = calloc(n + 1, sizeof *v->trips_known);
  if (!v->entries || !v->trips || !v->first || !v->trips_known)
    return;
  for (size_t i = 0; i < tr.num_traced; ++i) {
    const struct traced *t = &tr.traced[i];
    if (t->module != m->key || strcmp(t->mangled, mangled) != 0)
      continue;
    for (uint64_t r = 0; r < t->stored; ++r) {
      uint32_t row = t->records[r].scope & ~PASTA_TRACE_EXIT;
      if (row >= n)
        continue;
      v->any = 1;
      uint64_t when = device_to_host(b, t->records[r].time);
      if (t->records[r].scope & PASTA_TRACE_EXIT) {
        v->trips[row] += t->records[r].trips;
        v->trips_known[row] = 1;
      } else {
        if (!v->entries[row]++ || when < v->first[row])
          v->first[row] = when;
      }
    }
  }
}

static void device_view_free(struct device_view *v) {
  free(v->entries);
  free(v->trips);
  free(v->first);
  free(v->trips_known);
}

static void device_accesses(struct builder *b, const struct module_copy *m,
                            uint32_t row, const struct item *launch,
                            uint64_t time) {
  for (uint32_t i = 0; i < m->desc.num_accesses && m->accesses; ++i) {
    const struct pasta_access *a = &m->accesses[i];
    if (a->scope != row)
      continue;
    struct pasta_cats_event *e = emit(b);
    if (!e)
      return;
    const struct pasta_scope *s = &m->scopes[row];
    e->type = PASTA_CATS_ACCESS;
    e->filename = string_at(m, s->file);
    e->funcname = demangled(string_at(m, s->func));
    e->line = a->line;
    e->col = a->col;
    e->time_ns = time;
    e->on_device = 1;
    e->mode = a->mode == 'w' ? 'w' : 'r';
    e->bytes = a->bytes;
    e->access_class = a->klass;
    e->stride = a->stride;
    e->offset_expr = a->offset == PASTA_NONE ? NULL : string_at(m, a->offset);
    if (a->param < launch->nargs)
      e->buffer_id = launch->args[a->param];
    e->buffer_name = buffer_name(e->buffer_id);
    if (m->sites && m->counters && a->site < m->desc.num_sites &&
        m->sites[a->site].counter < m->desc.num_counters)
      e->count = m->counters[m->sites[a->site].counter];
  }
}

/* The device scopes under `row`, depth first, with their accesses. */
static void device_scope(struct builder *b, const struct module_copy *m,
                         uint32_t row, const struct item *launch,
                         const struct device_view *v, uint64_t time) {
  uint64_t t = v->any && v->entries[row] ? v->first[row] : time;
  scope_event(b, 1, m, row, t, 1);
  if (b->num) {
    struct pasta_cats_event *e = &b->events[b->num - 1];
    e->count = v->any ? v->entries[row] : 0;
    e->iterations = v->trips[row];
    e->trips_known = v->trips_known[row];
    if (m->scopes[row].parent == PASTA_NONE)
      e->count = launch->count;
  }
  device_accesses(b, m, row, launch, t);
  for (uint32_t c = 0; c < m->desc.num_scopes; ++c)
    if (m->scopes[c].parent == row && (!v->any || v->entries[c]))
      device_scope(b, m, c, launch, v, t);
  scope_event(b, 0, m, row, t, 1);
}

static void launch_events(struct builder *b, const struct item *it) {
  const struct module_copy *m = module_of(it->module);
  uint32_t root = NONE;
  for (uint32_t r = 0; m && m->scopes && r < m->desc.num_scopes; ++r)
    if (m->scopes[r].parent == PASTA_NONE &&
        m->scopes[r].kind == PASTA_SCOPE_PARALLEL &&
        strcmp(string_at(m, m->scopes[r].func), it->mangled) == 0)
      root = r;
  if (root == NONE)
    return; /* a kernel PASTA did not instrument */
  struct device_view v;
  device_view(m, it->mangled, b, &v);
  if (v.entries && v.trips && v.first && v.trips_known)
    device_scope(b, m, root, it, &v, rel(it->time));
  device_view_free(&v);
}

static void item_events(struct builder *b, const struct item *it) {
  if (it->type == ITEM_LAUNCH) {
    launch_events(b, it);
    return;
  }
  struct pasta_cats_event *e = emit(b);
  if (!e)
    return;
  site_of(b, it->site, &e->filename, &e->funcname, &e->line);
  e->time_ns = rel(it->time);
  e->count = it->count;
  e->buffer_id = it->buffer;
  e->buffer_name = buffer_name(it->buffer);
  if (it->type == ITEM_ACCESS) {
    e->type = PASTA_CATS_ACCESS;
    e->mode = it->mode;
    e->offset = it->offset;
    e->bytes = it->bytes;
    e->access_class = PASTA_ACCESS_STRIDE1; /* a copy is contiguous */
    e->stride = 1;
  } else if (it->type == ITEM_ALLOC) {
    e->type = PASTA_CATS_ALLOCATION;
    e->size = it->size;
  } else {
    e->type = PASTA_CATS_DEALLOCATION;
  }
}

/* A node's children and items in the order they first happened. */
struct entry_ref {
  uint64_t seq;
  uint32_t index;
  int is_item;
};

static int cmp_ref(const void *pa, const void *pb) {
  const struct entry_ref *a = pa, *b = pb;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

struct children {
  uint32_t *first; /* per node: start in refs */
  uint32_t *count;
  struct entry_ref *refs;
};

static int index_children(struct children *c) {
  size_t n = tr.num_nodes, total = tr.num_nodes + tr.num_items;
  c->first = calloc(n + 1, sizeof *c->first);
  c->count = calloc(n + 1, sizeof *c->count);
  c->refs = calloc(total + 1, sizeof *c->refs);
  if (!c->first || !c->count || !c->refs)
    return -1;
  for (size_t i = 0; i < n; ++i)
    if (tr.nodes[i].parent != NONE)
      ++c->count[tr.nodes[i].parent];
  for (size_t i = 0; i < tr.num_items; ++i)
    ++c->count[tr.items[i].node];
  uint32_t at = 0;
  for (size_t i = 0; i < n; ++i) {
    c->first[i] = at;
    at += c->count[i];
    c->count[i] = 0;
  }
  for (size_t i = 0; i < n; ++i) {
    uint32_t p = tr.nodes[i].parent;
    if (p != NONE)
      c->refs[c->first[p] + c->count[p]++] =
          (struct entry_ref){tr.nodes[i].seq, (uint32_t)i, 0};
  }
  for (size_t i = 0; i < tr.num_items; ++i) {
    uint32_t p = tr.items[i].node;
    c->refs[c->first[p] + c->count[p]++] =
        (struct entry_ref){tr.items[i].seq, (uint32_t)i, 1};
  }
  for (size_t i = 0; i < n; ++i)
    qsort(c->refs + c->first[i], c->count[i], sizeof *c->refs, cmp_ref);
  return 0;
}

static void node_events(struct builder *b, const struct children *c, uint32_t n,
                        unsigned depth) {
  const struct node *x = &tr.nodes[n];
  const struct module_copy *m = x->module ? module_of(x->module) : NULL;
  int scoped = m && m->scopes && x->row < m->desc.num_scopes;
  if (scoped) {
    scope_event(b, 1, m, x->row, rel(x->time), 0);
    if (b->num) {
      struct pasta_cats_event *e = &b->events[b->num - 1];
      e->count = x->count;
      e->iterations = x->iterations;
      e->trips_known = x->trips_known;
    }
  }
  if (depth < 4096)
    for (uint32_t k = 0; k < c->count[n]; ++k) {
      const struct entry_ref *r = &c->refs[c->first[n] + k];
      if (r->is_item)
        item_events(b, &tr.items[r->index]);
      else
        node_events(b, c, r->index, depth + 1);
    }
  if (scoped)
    scope_event(b, 0, m, x->row, rel(x->time), 0);
}

/* Device clock to host clock: host = device * (1 + drift) + offset, fitted
 * to the middles of the traced launches' intervals. */
static int64_t middle_offset(const struct pasta_clock_pair *p) {
  int64_t before = (int64_t)p->host_before_ns - (int64_t)p->device_first_ns;
  int64_t after = (int64_t)p->host_after_ns - (int64_t)p->device_last_ns;
  return before + (after - before) / 2;
}

static void fit_clock(struct builder *b, struct pasta_clock_pair *pairs,
                      size_t n) {
  b->base = n ? middle_offset(&pairs[0]) : 0;
  b->device0 = n ? pairs[0].device_first_ns : 0;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; ++i) {
    double x = (double)(pairs[i].device_first_ns - b->device0);
    double y = (double)(middle_offset(&pairs[i]) - b->base);
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  b->offset = n ? sy / (double)n : 0;
  b->drift = 0;
  double den = (double)n * sxx - sx * sx;
  if (n >= 3 && den > 0 &&
      pairs[n - 1].device_first_ns - pairs[0].device_first_ns > 100000000u) {
    b->drift = ((double)n * sxy - sx * sy) / den;
    b->offset = (sy - b->drift * sx) / (double)n;
  }
}

/* The model's form, host = device * (1 + drift) + offset (its offset is a
 * double: informative, not exact). */
static double model_offset(const struct builder *b) {
  return (double)b->base + b->offset - b->drift * (double)b->device0;
}

static int cmp_pair(const void *pa, const void *pb) {
  const struct pasta_clock_pair *a = pa, *b = pb;
  return a->device_first_ns < b->device_first_ns
             ? -1
             : a->device_first_ns > b->device_first_ns;
}

static size_t clock_pairs(struct pasta_clock_pair **out) {
  *out = calloc(tr.num_traced + 1, sizeof **out);
  size_t n = 0;
  for (size_t i = 0; *out && i < tr.num_traced; ++i) {
    const struct traced *t = &tr.traced[i];
    if (!t->stored || !t->t_after) /* not waited for: no pair */
      continue;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint64_t r = 0; r < t->stored; ++r) {
      uint64_t x = t->records[r].time;
      lo = x < lo ? x : lo;
      hi = x > hi ? x : hi;
    }
    (*out)[n++] =
        (struct pasta_clock_pair){t->launch, t->t_before, t->t_after, lo, hi};
  }
  if (*out)
    qsort(*out, n, sizeof **out, cmp_pair);
  return n;
}

static const char *scope_label(const struct module_copy *m, uint32_t row) {
  static const char *kinds[] = {"func", "loop", "conditional", "parallel"};
  const struct pasta_scope *s = &m->scopes[row];
  char buf[640];
  if (s->kind == PASTA_SCOPE_FUNC || s->kind == PASTA_SCOPE_PARALLEL)
    return demangled(string_at(m, s->func));
  snprintf(buf, sizeof buf, "%s %s:%u", kinds[s->kind & 3],
           basename_of(string_at(m, s->file)), s->line);
  return own(strdup(buf));
}

static void warp_span(struct builder *b, const struct traced *t,
                      const struct module_copy *m, uint32_t warp, uint32_t row,
                      uint64_t from, uint64_t to) {
  static const char *kinds[] = {"func", "loop", "conditional", "parallel"};
  if (GROW(b->spans, b->cap_spans, b->num_spans)) {
    b->failed = 1;
    return;
  }
  uint64_t ts = device_to_host(b, from);
  b->spans[b->num_spans++] = (struct pasta_trace_span){
      .track = PASTA_TRACK_WARP,
      .launch = t->launch,
      .tid = warp,
      .name = scope_label(m, row),
      .category = kinds[m->scopes[row].kind & 3],
      .ts_ns = ts,
      .dur_ns =
          to > from ? (uint64_t)((double)(to - from) * (1 + b->drift)) : 0,
      .detail = demangled(t->mangled)};
}

/* By warp, then time; at equal times in the order the records were claimed
 * (a warp's own records are claimed in program order), which the caller
 * keeps in `reserved`. */
static int cmp_record(const void *pa, const void *pb) {
  const struct pasta_trace_record *a = pa, *b = pb;
  if (a->warp != b->warp)
    return a->warp < b->warp ? -1 : 1;
  if (a->time != b->time)
    return a->time < b->time ? -1 : 1;
  return a->reserved < b->reserved ? -1 : a->reserved > b->reserved;
}

/* One traced launch's records as nested spans per sampled warp. */
static void warp_spans(struct builder *b, struct traced *t) {
  const struct module_copy *m = module_of(t->module);
  if (!m || !m->scopes)
    return;
  for (uint64_t i = 0; i < t->stored; ++i)
    t->records[i].reserved = (uint32_t)i;
  if (t->stored) /* no records: t->records may be NULL */
    qsort(t->records, t->stored, sizeof *t->records, cmp_record);
  struct open {
    uint32_t row;
    uint64_t from;
  } stack[64];
  size_t depth = 0;
  for (uint64_t i = 0; i < t->stored; ++i) {
    const struct pasta_trace_record *r = &t->records[i];
    uint32_t row = r->scope & ~PASTA_TRACE_EXIT;
    if (row >= m->desc.num_scopes)
      continue;
    if (!(r->scope & PASTA_TRACE_EXIT)) {
      if (depth < 64)
        stack[depth++] = (struct open){row, r->time};
    } else {
      size_t k = depth;
      while (k > 0 && stack[k - 1].row != row)
        --k;
      while (k > 0 && depth >= k) { /* close it and what it still holds */
        --depth;
        warp_span(b, t, m, r->warp, stack[depth].row, stack[depth].from,
                  r->time);
      }
    }
    int last = i + 1 == t->stored || t->records[i + 1].warp != r->warp;
    while (last && depth) { /* exits the warp never recorded */
      --depth;
      warp_span(b, t, m, r->warp, stack[depth].row, stack[depth].from, r->time);
    }
  }
}

/* Names, sites and loops of the buffers. */
static void name_buffers(struct builder *b) {
  for (size_t i = 0; i < tr.num_buffers; ++i) {
    struct pasta_trace_buffer *x = &tr.buffers[i];
    if (!x->id)
      continue;
    const char *file, *func;
    uint32_t line;
    site_of(b, tr.binfo[i].site, &file, &func, &line);
    x->alloc_file = file;
    x->alloc_line = line;
    char buf[512];
    snprintf(buf, sizeof buf, "%s#%llu@%s:%u",
             tr.binfo[i].kind ? tr.binfo[i].kind : "buffer",
             (unsigned long long)x->id, basename_of(file), line);
    x->name = own(strdup(buf));
    x->kind = tr.binfo[i].kind ? tr.binfo[i].kind : "";
    const struct module_copy *m = module_of(tr.binfo[i].loop_module);
    x->loop_file = "";
    if (m && m->scopes && tr.binfo[i].loop_row < m->desc.num_scopes) {
      const struct pasta_scope *s = &m->scopes[tr.binfo[i].loop_row];
      x->loop_id = s->id;
      x->loop_file = string_at(m, s->file);
      x->loop_line = s->line;
    }
    x->t_alloc = rel(x->t_alloc);
    if (x->t_free != PASTA_TIME_NONE)
      x->t_free = rel(x->t_free);
    if (x->t_first_use != PASTA_TIME_NONE) {
      x->t_first_use = rel(x->t_first_use);
      x->t_last_use = rel(x->t_last_use);
    }
  }
}

static void copy_spans(struct builder *b) {
  for (size_t i = 0; i < tr.num_spans; ++i) {
    if (GROW(b->spans, b->cap_spans, b->num_spans)) {
      b->failed = 1;
      return;
    }
    struct pasta_trace_span s = tr.spans[i];
    s.ts_ns = rel(s.ts_ns);
    if (s.track == PASTA_TRACK_STREAM)
      s.name = demangled(s.name);
    b->spans[b->num_spans++] = s;
  }
}

int pasta__trace_build(struct pasta_trace *t, const char *program) {
  memset(t, 0, sizeof *t);
  lock();
  if (!tr.on || !tr.code_seen || (!tr.num_nodes && !tr.num_traced)) {
    unlock();
    return -1;
  }
  struct builder b = {0};
  b.sym = pasta__symbolizer_open();
  struct pasta_clock_pair *pairs;
  size_t num_pairs = clock_pairs(&pairs);
  fit_clock(&b, pairs, num_pairs);
  name_buffers(&b);
  struct children c = {0};
  if (index_children(&c) == 0) {
    for (size_t n = 0; n < tr.num_nodes; ++n)
      if (tr.nodes[n].parent == NONE)
        node_events(&b, &c, (uint32_t)n, 0);
  } else {
    b.failed = 1;
  }
  free(c.first);
  free(c.count);
  free(c.refs);
  copy_spans(&b);
  for (size_t i = 0; i < tr.num_traced; ++i)
    warp_spans(&b, &tr.traced[i]);
  pasta__symbolizer_close(b.sym);
  /* The trace's own copy of the allocations (other threads may still
   * allocate, moving tr.buffers), without the ids never used. */
  struct pasta_trace_buffer *buffers =
      malloc((tr.num_buffers + 1) * sizeof *buffers);
  size_t num_buffers = 0;
  for (size_t i = 0; buffers && i < tr.num_buffers; ++i)
    if (tr.buffers[i].id)
      buffers[num_buffers++] = tr.buffers[i];
  if (!buffers)
    b.failed = 1;
  *t = (struct pasta_trace){.program = program,
                            .start_ns = tr.start,
                            .events = b.events,
                            .num_events = b.num,
                            .buffers = buffers,
                            .num_buffers = num_buffers,
                            .spans = b.spans,
                            .num_spans = b.num_spans,
                            .clock_pairs = pairs,
                            .num_clock_pairs = pairs ? num_pairs : 0,
                            .clock_offset_ns = model_offset(&b),
                            .clock_drift = b.drift,
                            .events_seen = tr.seen,
                            .events_dropped = tr.dropped,
                            .device_records_dropped = tr.records_dropped,
                            .traced_launches = tr.num_traced};
  unlock();
  if (b.failed)
    fprintf(stderr, "pasta: warning: out of memory building the trace; it "
                    "is incomplete\n");
  return 0;
}

void pasta__trace_release(struct pasta_trace *t) {
  free((void *)t->buffers);
  free((void *)t->events);
  free((void *)t->spans);
  free((void *)t->clock_pairs);
  lock();
  for (size_t i = 0; i < tr.num_owned; ++i)
    free(tr.owned[i]);
  tr.num_owned = 0;
  unlock();
  memset(t, 0, sizeof *t);
}
