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
 *
 * This file records; trace_build.c builds the trace (trace_internal.h).
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "options.h"
#include "profile/vec.h"
#include "trace_internal.h"

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

struct pasta__trace_state pasta__tr = {.mu = PTHREAD_MUTEX_INITIALIZER};

static __thread uint32_t cur_node = NONE;
static __thread uint32_t thread_index = NONE;

void pasta__trace_lock(void) { pthread_mutex_lock(&pasta__tr.mu); }
void pasta__trace_unlock(void) { pthread_mutex_unlock(&pasta__tr.mu); }

uint64_t pasta__trace_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Lock held. */
static void decide(void) {
  if (pasta__tr.decided)
    return;
  pasta__tr.decided = 1;
  struct pasta__trace_options o;
  pasta__read_trace_options(&o);
  pasta__tr.on = o.on;
  pasta__tr.start = pasta__trace_now();
  pasta__tr.launches = o.launches;
  pasta__tr.capacity = o.capacity;
  pasta__tr.warps = o.warps;
  pasta__tr.max_nodes = o.max_nodes;
  pasta__tr.max_spans = o.max_spans;
}

int pasta__trace_on(void) {
  pasta__trace_lock();
  decide();
  int on = pasta__tr.on && pasta__tr.code_seen;
  pasta__trace_unlock();
  return on;
}

void pasta__trace_code_seen(void) {
  pasta__trace_lock();
  pasta__tr.code_seen = 1;
  pasta__trace_unlock();
}

uint32_t pasta__trace_launches(void) {
  pasta__trace_lock();
  decide();
  uint32_t v = pasta__tr.launches;
  pasta__trace_unlock();
  return v;
}

uint32_t pasta__trace_capacity(void) {
  pasta__trace_lock();
  decide();
  uint32_t v = pasta__tr.capacity;
  pasta__trace_unlock();
  return v;
}

uint32_t pasta__trace_warps(void) {
  pasta__trace_lock();
  decide();
  uint32_t v = pasta__tr.warps;
  pasta__trace_unlock();
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
  size_t cap = pasta__tr.cap_hash ? pasta__tr.cap_hash * 2 : 1024;
  struct hash_slot *h = calloc(cap, sizeof *h);
  if (!h)
    return -1;
  for (size_t i = 0; i < pasta__tr.cap_hash; ++i) {
    if (!pasta__tr.hash[i].index)
      continue;
    size_t j = pasta__tr.hash[i].key & (cap - 1);
    while (h[j].index)
      j = (j + 1) & (cap - 1);
    h[j] = pasta__tr.hash[i];
  }
  free(pasta__tr.hash);
  pasta__tr.hash = h;
  pasta__tr.cap_hash = cap;
  return 0;
}

/* The slot where `key` is or would go; NULL when out of memory. */
static struct hash_slot *slot_for(uint64_t key, int is_item, uint32_t node,
                                  uint32_t type, char mode, const void *site,
                                  const void *module, uint32_t row) {
  if ((pasta__tr.num_hash + 1) * 2 > pasta__tr.cap_hash && rehash())
    return NULL;
  for (size_t j = key & (pasta__tr.cap_hash - 1);;
       j = (j + 1) & (pasta__tr.cap_hash - 1)) {
    struct hash_slot *s = &pasta__tr.hash[j];
    if (!s->index)
      return s;
    if (s->key != key || s->is_item != is_item)
      continue;
    if (is_item ? same_item(&pasta__tr.items[s->index - 1], node, type, mode,
                            site, module)
                : same_node(&pasta__tr.nodes[s->index - 1], node, module, row))
      return s;
  }
}

/* The thread's root node, made on first use. Lock held. */
static uint32_t current(void) {
  if (cur_node != NONE)
    return cur_node;
  if (thread_index == NONE)
    thread_index = pasta__tr.threads++;
  if (GROW(pasta__tr.nodes, pasta__tr.cap_nodes, pasta__tr.num_nodes))
    return NONE;
  pasta__tr.nodes[pasta__tr.num_nodes] =
      (struct node){.parent = NONE,
                    .row = thread_index,
                    .seq = pasta__tr.seq++,
                    .time = pasta__trace_now(),
                    .count = 1};
  cur_node = (uint32_t)pasta__tr.num_nodes++;
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
  if (pasta__tr.num_nodes >= pasta__tr.max_nodes ||
      GROW(pasta__tr.nodes, pasta__tr.cap_nodes, pasta__tr.num_nodes)) {
    ++pasta__tr.dropped;
    return NONE;
  }
  pasta__tr.nodes[pasta__tr.num_nodes] =
      (struct node){.parent = parent,
                    .row = row,
                    .module = module,
                    .seq = pasta__tr.seq++,
                    .time = pasta__trace_now(),
                    .kind = kind};
  *s = (struct hash_slot){key, (uint32_t)++pasta__tr.num_nodes, 0};
  ++pasta__tr.num_hash;
  return (uint32_t)(pasta__tr.num_nodes - 1);
}

void __pasta_scope_enter(const struct pasta_module_desc *m, uint32_t scope) {
  pasta__trace_lock();
  decide();
  pasta__tr.code_seen = 1;
  if (!pasta__tr.on || !m || scope >= m->num_scopes) {
    pasta__trace_unlock();
    return;
  }
  ++pasta__tr.seen;
  const struct pasta_scope *row =
      (const struct pasta_scope *)(uintptr_t)m->scopes + scope;
  uint32_t here = current();
  uint32_t next = here == NONE ? NONE : child(here, m, scope, row->kind);
  if (next != NONE) {
    ++pasta__tr.nodes[next].count;
    cur_node = next;
  }
  pasta__trace_unlock();
}

void __pasta_scope_exit(const struct pasta_module_desc *m, uint32_t scope,
                        uint32_t trips) {
  pasta__trace_lock();
  if (!pasta__tr.on || cur_node == NONE) {
    pasta__trace_unlock();
    return;
  }
  ++pasta__tr.seen;
  /* C.A.T.S.: leaving a scope leaves whatever it still held (an exception
   * or longjmp skipped their exits); an exit that matches nothing open is
   * ignored. */
  for (uint32_t n = cur_node; n != NONE; n = pasta__tr.nodes[n].parent) {
    struct node *x = &pasta__tr.nodes[n];
    if (x->module != m || x->row != scope)
      continue;
    if (x->kind == PASTA_SCOPE_LOOP) {
      x->iterations += trips;
      x->trips_known = 1;
    }
    cur_node = x->parent;
    break;
  }
  pasta__trace_unlock();
}

/* At a landing pad: the exception left the scopes it unwound without their
 * exits; the thread is back in `scope` (its innermost scope there). */
void __pasta_scope_resume(const struct pasta_module_desc *m, uint32_t scope) {
  pasta__trace_lock();
  for (uint32_t n = cur_node; pasta__tr.on && n != NONE;
       n = pasta__tr.nodes[n].parent)
    if (pasta__tr.nodes[n].module == m && pasta__tr.nodes[n].row == scope) {
      cur_node = n;
      break;
    }
  pasta__trace_unlock();
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
  ++pasta__tr.seen;
  uint64_t key = item_key(node, type, mode, site, extra);
  struct hash_slot *s = slot_for(key, 1, node, type, mode, site, extra, 0);
  if (!s)
    return 0;
  if (s->index) {
    ++pasta__tr.items[s->index - 1].count;
    return s->index; /* already recorded */
  }
  if (pasta__tr.num_items >= pasta__tr.max_nodes ||
      GROW(pasta__tr.items, pasta__tr.cap_items, pasta__tr.num_items)) {
    ++pasta__tr.dropped;
    return 0;
  }
  pasta__tr.items[pasta__tr.num_items] = (struct item){.node = node,
                                                       .type = type,
                                                       .mode = mode,
                                                       .site = site,
                                                       .extra = extra,
                                                       .seq = pasta__tr.seq++,
                                                       .time = t,
                                                       .count = 1};
  *s = (struct hash_slot){key, (uint32_t)++pasta__tr.num_items, 1};
  ++pasta__tr.num_hash;
  *is_new = 1;
  return s->index;
}

/* The allocation event that stands for buffer `id` (index + 1; 0: none):
 * C.A.T.S. records one allocation per site and stack, so frees and accesses
 * name that event's buffer, and are told apart by it. */
static uint32_t representative(uint64_t id) {
  return id < pasta__tr.num_buffers && pasta__tr.buffers[id].id
             ? pasta__tr.binfo[id].alloc_item
             : 0;
}

static uint64_t representative_buffer(uint64_t id) {
  uint32_t rep = representative(id);
  return rep ? pasta__tr.items[rep - 1].buffer : id + 1;
}

/*===-- Memory, launches, spans -------------------------------------------===*/

static int recording(void) {
  decide();
  return pasta__tr.on && pasta__tr.code_seen;
}

static struct pasta_trace_buffer *buffer(uint64_t id) {
  return id < pasta__tr.num_buffers && pasta__tr.buffers[id].id
             ? &pasta__tr.buffers[id]
             : NULL;
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
  pasta__trace_lock();
  if (!recording()) {
    pasta__trace_unlock();
    return;
  }
  if (thread_index == NONE)
    thread_index = pasta__tr.threads++;
  if (pasta__tr.num_spans >= pasta__tr.max_spans ||
      GROW(pasta__tr.spans, pasta__tr.cap_spans, pasta__tr.num_spans)) {
    ++pasta__tr.dropped;
  } else {
    pasta__tr.spans[pasta__tr.num_spans++] =
        (struct pasta_trace_span){.track = PASTA_TRACK_HOST_THREAD,
                                  .tid = thread_index,
                                  .name = name,
                                  .category = correlation ? "launch" : "api",
                                  .ts_ns = t0,
                                  .dur_ns = t1 > t0 ? t1 - t0 : 0,
                                  .correlation = correlation,
                                  .detail = ""};
  }
  pasta__trace_unlock();
}

/* The host loops around the current position: how many, and the innermost.
 * Lock held. */
static uint32_t loops_around(const void **module, uint32_t *row) {
  uint32_t depth = 0;
  *module = NULL;
  for (uint32_t n = cur_node; n != NONE; n = pasta__tr.nodes[n].parent) {
    if (pasta__tr.nodes[n].kind != PASTA_SCOPE_LOOP ||
        !pasta__tr.nodes[n].module)
      continue;
    if (!depth++) {
      *module = pasta__tr.nodes[n].module;
      *row = pasta__tr.nodes[n].row;
    }
  }
  return depth;
}

void pasta__trace_alloc(uint64_t id, uint64_t size, const char *kind,
                        const void *site, uint64_t t) {
  pasta__trace_lock();
  if (!recording()) {
    pasta__trace_unlock();
    return;
  }
  while (pasta__tr.num_buffers <= id) {
    if (GROW(pasta__tr.buffers, pasta__tr.cap_buffers, pasta__tr.num_buffers)) {
      ++pasta__tr.dropped;
      pasta__trace_unlock();
      return;
    }
    if (pasta__tr.cap_buffers > pasta__tr.num_buffers) {
      struct buffer_info *bi = realloc(
          pasta__tr.binfo, pasta__tr.cap_buffers * sizeof *pasta__tr.binfo);
      if (!bi) {
        ++pasta__tr.dropped;
        pasta__trace_unlock();
        return;
      }
      pasta__tr.binfo = bi;
    }
    memset(&pasta__tr.buffers[pasta__tr.num_buffers], 0,
           sizeof *pasta__tr.buffers);
    memset(&pasta__tr.binfo[pasta__tr.num_buffers], 0, sizeof *pasta__tr.binfo);
    ++pasta__tr.num_buffers;
  }
  struct pasta_trace_buffer *b = &pasta__tr.buffers[id];
  struct buffer_info *bi = &pasta__tr.binfo[id];
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
    pasta__tr.items[bi->alloc_item - 1].buffer = id + 1;
    pasta__tr.items[bi->alloc_item - 1].size = size;
  }
  pasta__trace_unlock();
}

void pasta__trace_free(uint64_t id, const void *site, uint64_t t) {
  pasta__trace_lock();
  struct pasta_trace_buffer *b = recording() ? buffer(id) : NULL;
  if (b) {
    b->t_free = t;
    int is_new;
    uint32_t rep = representative(id);
    uint32_t it =
        add_item(ITEM_FREE, 0, site, (const void *)(uintptr_t)rep, t, &is_new);
    if (is_new)
      pasta__tr.items[it - 1].buffer = representative_buffer(id);
  }
  pasta__trace_unlock();
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
    pasta__tr.items[it - 1].buffer = representative_buffer(id);
    pasta__tr.items[it - 1].offset = offset;
    pasta__tr.items[it - 1].bytes = bytes;
  }
}

void pasta__trace_copy(uint64_t dst_id, uint64_t dst_offset, uint64_t src_id,
                       uint64_t src_offset, uint64_t bytes, const void *site,
                       uint64_t t) {
  pasta__trace_lock();
  if (recording()) {
    copy_side(src_id, src_offset, bytes, 'r', site, t);
    copy_side(dst_id, dst_offset, bytes, 'w', site, t);
  }
  pasta__trace_unlock();
}

void pasta__trace_launch(uint64_t launch, const char *mangled,
                         const void *module, const uint64_t *arg_ids,
                         uint32_t nargs, const void *site, uint64_t t) {
  pasta__trace_lock();
  if (!recording()) {
    pasta__trace_unlock();
    return;
  }
  for (uint32_t k = 0; k < nargs; ++k)
    if (arg_ids[k] != UINT64_MAX)
      use(arg_ids[k], t);
  int is_new;
  uint32_t index = add_item(ITEM_LAUNCH, 0, site, mangled, t, &is_new);
  if (is_new) {
    struct item *it = &pasta__tr.items[index - 1];
    it->mangled = mangled;
    it->module = module;
    it->size = launch;
    it->args = nargs ? malloc(nargs * sizeof *it->args) : NULL;
    it->nargs = it->args ? nargs : 0;
    for (uint32_t k = 0; k < it->nargs; ++k)
      it->args[k] =
          arg_ids[k] == UINT64_MAX ? 0 : representative_buffer(arg_ids[k]);
  }
  pasta__trace_unlock();
}

static uint32_t stream_index(const void *stream) {
  for (size_t i = 0; i < pasta__tr.num_streams; ++i)
    if (pasta__tr.streams[i] == stream)
      return (uint32_t)i;
  if (GROW(pasta__tr.streams, pasta__tr.cap_streams, pasta__tr.num_streams))
    return 0;
  pasta__tr.streams[pasta__tr.num_streams] = stream;
  return (uint32_t)pasta__tr.num_streams++;
}

void pasta__trace_kernel_span(uint64_t launch, const char *mangled, int device,
                              const void *stream, uint64_t start,
                              uint64_t duration) {
  pasta__trace_lock();
  if (recording() && pasta__tr.num_spans < pasta__tr.max_spans &&
      !GROW(pasta__tr.spans, pasta__tr.cap_spans, pasta__tr.num_spans))
    pasta__tr.spans[pasta__tr.num_spans++] =
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
    ++pasta__tr.dropped;
  pasta__trace_unlock();
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
  pasta__trace_lock();
  if (head > stored)
    pasta__tr.records_dropped += head - stored;
  if (GROW(pasta__tr.traced, pasta__tr.cap_traced, pasta__tr.num_traced)) {
    free(copy);
    pasta__trace_unlock();
    return;
  }
  pasta__tr.traced[pasta__tr.num_traced++] = (struct traced){
      launch, mangled, module, copy, stored, head, t_before, t_after};
  pasta__trace_unlock();
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
  pasta__trace_lock();
  if (!pasta__tr.code_seen ||
      GROW(pasta__tr.modules, pasta__tr.cap_modules, pasta__tr.num_modules)) {
    pasta__trace_unlock();
    return;
  }
  struct module_copy *m = &pasta__tr.modules[pasta__tr.num_modules++];
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
  pasta__trace_unlock();
}
