/*===- trace_launch.c - Trace-mode launches --------------------------------===*
 *
 * A launch of a kernel's trace copy, and each launch as a C.A.T.S. event
 * with the allocations its pointer arguments point into.
 *
 * A traced launch's records are read back without waiting for it: each GPU
 * has a ring of TRACE_SLOTS buffers (fewer when they do not fit), each a
 * launch header followed by its records, on the device and pinned on the
 * host. The launch uploads its header, runs, and the copy of its header and
 * of the records it is expected to write (as many as its kernel's most so
 * far, and some more) is queued on the runtime's copy stream
 * (copy_stream.c), then an event. The slot is harvested when it is needed
 * again, at a device reset, when the runtime unloads and at exit: the event
 * waited for, records past the expected count copied then.
 *
 * Device times become host times through clock pairs (trace.c fits them),
 * which need a launch that waited for its stream before it and for its
 * records after it: the first traced launch of each kernel does (it also
 * gives the expected record count) and then one launch every
 * CALIBRATE_NS per GPU. The rest leave no pair.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "intercept_internal.h"
#include "profile/diag.h"
#include "profile/vec.h"
#include "trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Eight launches in flight per GPU: a launch waits for the one eight
 * before it, by then long done unless the host runs far ahead. */
enum { TRACE_SLOTS = 8 };
/* A slot's layout, on the device and on the host: the header, then the
 * records from this offset. */
enum { RECORDS_AT = 32 };
/* A launch that waits for its stream gives a clock pair at most this often
 * per GPU (besides each kernel's first traced launch). */
#define CALIBRATE_NS UINT64_C(10000000)

_Static_assert(sizeof(struct pasta_trace_launch) <= RECORDS_AT,
               "the header fits before the records");

enum slot_state { SLOT_FREE, SLOT_CLAIMED, SLOT_IN_FLIGHT };

/* The traced launch a slot holds. */
struct slot_launch {
  uint64_t id;
  const char *mangled;
  const void *module;
  uint32_t kernel;
  uint64_t copied; /* records queued for copying behind the launch */
};

struct trace_slot {
  unsigned char *dev;  /* device: header, records at RECORDS_AT */
  unsigned char *host; /* its host copy */
  void *ran;           /* event behind the launch, on its stream */
  void *done;          /* event after the queued copy */
  int state;
  struct slot_launch in_flight;
};

/* One GPU's slots, in one device and one host allocation made at its first
 * traced launch (`num_slots` of them: fewer when eight do not fit); `next`
 * is the slot the next traced launch takes. Every file of a program has
 * its own vendor table, all reaching the same runtime objects: launches
 * through any table of the owner's vendor use the ring. */
struct trace_ring {
  struct trace_slot slots[TRACE_SLOTS];
  ops_t *ops; /* the table that allocated the slots */
  void *dev;
  unsigned char *host; /* pinned when `pinned` */
  int pinned, ready, failed;
  uint32_t num_slots, next, capacity;
  uint64_t last_calibration; /* host ns; 0: none yet */
};

/* The rings and the kernels' record counts. Never held while waiting for
 * a launch (only for the allocation of a ring). */
static pthread_mutex_t trace_mu = PTHREAD_MUTEX_INITIALIZER;
static struct trace_ring rings[PASTA_MAX_DEVICES];
/* Per kernel index: 1 + the most records a harvested launch claimed; 0
 * before its first (which then waits for its records). */
static uint64_t *most_records;
static size_t num_most, cap_most;

static unsigned char *slot_records(unsigned char *base) {
  return base + RECORDS_AT;
}

static void ring_free(struct trace_ring *r) {
  ops_t *ops = r->ops;
  if (ops) {
    for (uint32_t i = 0; i < r->num_slots; ++i) {
      if (r->slots[i].ran)
        ops->event_destroy(r->slots[i].ran);
      if (r->slots[i].done)
        ops->event_destroy(r->slots[i].done);
    }
    if (r->dev)
      ops->free(r->dev);
  }
  pasta__read_back_host_free(ops, r->host, r->pinned); /* pinned: ops set */
  if (ops)
    ops->get_last_error();
  *r = (struct trace_ring){0};
}

/* `n` slots of `slot_bytes` for ring r. trace_mu held. */
static int ring_allocate(ops_t *ops, struct trace_ring *r, uint32_t n,
                         size_t slot_bytes) {
  size_t bytes = n * slot_bytes;
  r->ops = ops;
  r->num_slots = n;
  r->host = pasta__read_back_host_alloc(ops, bytes, &r->pinned);
  int failed = !r->host || ops->malloc(&r->dev, bytes);
  for (uint32_t i = 0; !failed && i < n; ++i) {
    r->slots[i].dev = (unsigned char *)r->dev + i * slot_bytes;
    r->slots[i].host = r->host + i * slot_bytes;
    failed = pasta__ordering_event(ops, &r->slots[i].ran) ||
             pasta__ordering_event(ops, &r->slots[i].done);
  }
  if (failed)
    ring_free(r);
  return failed ? -1 : 0;
}

/* The ring's buffers and events, at the GPU's first traced launch (one
 * allocation each: a program's first launches should not pay eight), as
 * many slots as fit, down to one. trace_mu held. */
static int ring_setup(ops_t *ops, struct trace_ring *r) {
  if (r->ready || r->failed)
    return r->failed ? -1 : 0;
  uint32_t capacity = pasta__trace_capacity();
  size_t slot_bytes =
      RECORDS_AT + (size_t)capacity * sizeof(struct pasta_trace_record);
  size_t bytes = slot_bytes;
  int failed = 1;
  for (uint32_t n = TRACE_SLOTS; n >= 1 && failed; n /= 2)
    failed = ring_allocate(ops, r, n, slot_bytes);
  r->capacity = capacity;
  if (failed) {
    r->failed = 1;
    PASTA_WARN("cannot allocate %zu bytes for trace records "
               "(lower PASTA_TRACE_RECORDS); launches run without tracing\n",
               bytes);
    return -1;
  }
  r->ready = 1;
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

/* 1 + the most records kernel `kernel` claimed, 0 if none harvested yet.
 * trace_mu held. */
static uint64_t known_records(uint32_t kernel) {
  return kernel < num_most ? most_records[kernel] : 0;
}

static void note_records(uint32_t kernel, uint64_t head) {
  while (num_most <= kernel) {
    if (GROW(most_records, cap_most, num_most))
      return;
    most_records[num_most++] = 0;
  }
  if (head + 1 > most_records[kernel])
    most_records[kernel] = head + 1;
}

/* Records to copy behind a launch: its kernel's most, an eighth more and
 * a few, as many as fit. */
static uint64_t records_to_queue(uint64_t most, uint32_t capacity) {
  uint64_t n = most + most / 8 + 32;
  return n < capacity ? n : capacity;
}

/* The records of the launch in slot s, its copy queued and its event
 * recorded (or, with `waited`, its stream already synchronised): waits
 * for it, copies the records that were not queued, hands them to trace.c.
 * The slot is claimed by the caller; trace_mu not held. */
static void harvest_slot(ops_t *ops, struct trace_ring *r, struct trace_slot *s,
                         const struct slot_launch *in, int waited,
                         uint64_t t_before) {
  if (!waited && ops->event_synchronize(s->done)) {
    ops->get_last_error(); /* a fault: its records mean nothing */
    return;
  }
  uint64_t t_after = waited ? pasta__trace_now() : 0;
  const struct pasta_trace_launch *h = (const void *)s->host;
  uint64_t head = h->head;
  uint64_t stored = head < r->capacity ? head : r->capacity;
  size_t record = sizeof(struct pasta_trace_record);
  if (stored > in->copied &&
      pasta__copy_back_now(ops, (int)(r - rings),
                           slot_records(s->host) + in->copied * record,
                           slot_records(s->dev) + in->copied * record,
                           (stored - in->copied) * record)) {
    ops->get_last_error();
    return;
  }
  pasta__trace_records(in->id, in->mangled, in->module,
                       (const struct pasta_trace_record *)slot_records(s->host),
                       stored, head, t_before, t_after);
  pthread_mutex_lock(&trace_mu);
  note_records(in->kernel, head);
  pthread_mutex_unlock(&trace_mu);
}

/* What a traced launch takes from its GPU's ring: a slot (NULL: none,
 * launch untraced), the launch that slot held (to harvest first), and
 * whether this launch waits for its stream (a clock pair). */
struct claim {
  struct trace_slot *slot;
  struct slot_launch previous;
  int harvest_previous, wait;
  uint32_t capacity;
};

static struct claim claim_slot(ops_t *ops, struct trace_ring *r,
                               uint32_t kernel) {
  struct claim c = {0};
  pthread_mutex_lock(&trace_mu);
  if (ring_setup(ops, r) || r->ops->vendor != ops->vendor) {
    pthread_mutex_unlock(&trace_mu);
    return c;
  }
  struct trace_slot *s = &r->slots[r->next % r->num_slots];
  if (s->state == SLOT_CLAIMED) { /* another thread still reads it */
    pthread_mutex_unlock(&trace_mu);
    return c;
  }
  ++r->next;
  c.capacity = r->capacity;
  c.slot = s;
  c.previous = s->in_flight;
  c.harvest_previous = s->state == SLOT_IN_FLIGHT;
  s->state = SLOT_CLAIMED;
  uint64_t now = pasta__trace_now();
  c.wait = !known_records(kernel) || !r->last_calibration ||
           now - r->last_calibration >= CALIBRATE_NS;
  if (c.wait)
    r->last_calibration = now;
  pthread_mutex_unlock(&trace_mu);
  return c;
}

static void release_slot(struct trace_slot *s, int in_flight,
                         const struct slot_launch *in) {
  pthread_mutex_lock(&trace_mu);
  s->state = in_flight ? SLOT_IN_FLIGHT : SLOT_FREE;
  if (in_flight)
    s->in_flight = *in;
  pthread_mutex_unlock(&trace_mu);
}

/* The header and the first records back, waited for. */
static int read_back_now(ops_t *ops, struct trace_slot *s, size_t bytes,
                         void *stream) {
  return ops->memcpy_async(s->host, s->dev, bytes, PASTA_MEMCPY_DEVICE_TO_HOST,
                           stream) ||
         ops->stream_synchronize(stream);
}

/* One traced launch's read-back: into which slot, on which stream, how
 * many records queued, whether the launch waits; what came of it. */
struct read_back {
  struct trace_slot *slot;
  uint32_t capacity;
  uint64_t records;
  int wait;
  uint64_t t_before; /* host clock before a launch that waits */
  int launched;      /* the trace copy was launched */
  int queued;        /* the read-back was queued (or done) */
};

/* Header up, the trace copy, the read-back queued behind it. Returns the
 * launch's error. */
static int launch_traced(ops_t *ops, pasta__launch_fn real,
                         const struct kernel *kc, uint32_t kernel,
                         const struct launch *l, struct read_back *rb) {
  struct trace_slot *s = rb->slot;
  struct pasta_trace_launch *h = (void *)s->host;
  *h = (struct pasta_trace_launch){(uint64_t)(uintptr_t)slot_records(s->dev), 0,
                                   rb->capacity, trace_stride(ops, l)};
  void **args = malloc(((size_t)kc->nparams + 1) * sizeof *args);
  if (!args || ops->memcpy_async(s->dev, h, sizeof *h,
                                 PASTA_MEMCPY_HOST_TO_DEVICE, l->stream)) {
    ops->get_last_error();
    free(args);
    return pasta__run_timed(ops, real, l->fn, l, l->args, kernel, 0);
  }
  if (kc->nparams > 0)
    memcpy(args, l->args, (size_t)kc->nparams * sizeof *args);
  void *header = s->dev;
  args[kc->nparams] = &header;
  /* The host clock before the launch bounds the device clock's offset only
   * if nothing else is queued ahead of it on the stream. */
  if (rb->wait && ops->stream_synchronize(l->stream))
    ops->get_last_error();
  rb->t_before = rb->wait ? pasta__trace_now() : 0;
  int err = pasta__run_timed(ops, real, kc->trace, l, args, kernel, 0);
  free(args);
  if (err)
    return err;
  rb->launched = 1;
  size_t bytes = RECORDS_AT + rb->records * sizeof(struct pasta_trace_record);
  struct read_back_copy copy = {l->device, l->stream, s->ran, s->done, s->host,
                                s->dev,    bytes,     0,      0};
  if (rb->wait ? read_back_now(ops, s, bytes, l->stream)
               : pasta__queue_read_back(ops, &copy)) {
    ops->get_last_error();
    return 0;
  }
  rb->queued = 1;
  return 0;
}

/* A traced launch (see the top of the file). *traced says whether it was
 * one after all. */
int pasta__run_trace(ops_t *ops, pasta__launch_fn real, const struct kernel *kc,
                     uint32_t kernel, const struct launch *l, int *traced) {
  *traced = 0;
  if (l->capture != CAPTURE_NONE) /* into a graph: no waits allowed */
    return pasta__run_timed(ops, real, l->fn, l, l->args, kernel, 0);
  struct trace_ring *r = &rings[l->device];
  struct claim c = claim_slot(ops, r, kernel);
  if (!c.slot)
    return pasta__run_timed(ops, real, l->fn, l, l->args, kernel, 0);
  if (c.harvest_previous)
    harvest_slot(ops, r, c.slot, &c.previous, 0, 0);
  /* A launch that waits copies its records once it knows how many. */
  pthread_mutex_lock(&trace_mu);
  uint64_t known = known_records(kernel);
  pthread_mutex_unlock(&trace_mu);
  struct read_back rb = {
      c.slot,
      c.capacity,
      c.wait || !known ? 0 : records_to_queue(known - 1, c.capacity),
      c.wait,
      0,
      0,
      0};
  struct slot_launch in = {l->id, kc->mangled, kc->module, kernel, rb.records};
  int err = launch_traced(ops, real, kc, kernel, l, &rb);
  if (rb.queued && c.wait)
    harvest_slot(ops, r, c.slot, &in, 1, rb.t_before);
  /* Launched but its read-back not queued: the slot is free again only
   * once the kernel and whatever was queued have finished. */
  if (rb.launched && !rb.queued && ops->device_synchronize())
    ops->get_last_error();
  release_slot(c.slot, rb.queued && !c.wait, &in);
  *traced = rb.queued;
  return err;
}

/* Harvests the slots in flight on GPU `device` (-1: every GPU) of the
 * rings `ops` allocated (NULL: every ring). */
static void drain(ops_t *ops, int device) {
  for (int d = 0; d < (int)PASTA_MAX_DEVICES; ++d) {
    struct trace_ring *r = &rings[d];
    pthread_mutex_lock(&trace_mu);
    ops_t *owner = r->ops;
    uint32_t n = r->num_slots;
    pthread_mutex_unlock(&trace_mu);
    if ((device >= 0 && d != device) || !owner || (ops && ops != owner))
      continue;
    for (uint32_t i = 0; i < n; ++i) {
      struct trace_slot *s = &r->slots[i];
      pthread_mutex_lock(&trace_mu);
      int mine = s->state == SLOT_IN_FLIGHT;
      struct slot_launch in = s->in_flight;
      if (mine)
        s->state = SLOT_CLAIMED;
      pthread_mutex_unlock(&trace_mu);
      if (!mine)
        continue;
      harvest_slot(owner, r, s, &in, 0, 0);
      release_slot(s, 0, &in);
    }
  }
}

/* Frees ring r unless another thread is launching into one of its slots
 * (a reset or an unload under a launch: the program's own race). trace_mu
 * held. */
static void release_ring(struct trace_ring *r) {
  for (uint32_t i = 0; i < r->num_slots; ++i)
    if (r->slots[i].state != SLOT_FREE)
      return;
  ring_free(r);
}

void pasta__trace_drain(void) { drain(NULL, -1); }

/* Before a reset of GPU `device`: its slots harvested, then freed (the
 * reset would free them under the runtime). */
void pasta__trace_release_device(int device) {
  drain(NULL, device);
  pthread_mutex_lock(&trace_mu);
  release_ring(&rings[device]);
  pthread_mutex_unlock(&trace_mu);
}

/* The rings `ops` allocated go with it (its calls are about to go). */
void pasta__trace_module_gone(ops_t *ops) {
  drain(ops, -1);
  pthread_mutex_lock(&trace_mu);
  for (int d = 0; d < (int)PASTA_MAX_DEVICES; ++d)
    if (rings[d].ops == ops)
      release_ring(&rings[d]);
  pthread_mutex_unlock(&trace_mu);
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
