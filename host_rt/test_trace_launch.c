/*===- test_trace_launch.c - Traced launches read back later, without a GPU ===*
 *
 * trace_launch.c and copy_stream.c alone, against a fake GPU whose two
 * streams (the launches' and the runtime's copy stream) run what is queued
 * on them only when the host waits (a stream or event synchronisation, a
 * synchronous copy), ordered with each other only by event waits: copies
 * read their source when they run, as the DMA engines do, so a copy back
 * not made to wait for its launch reads the slot before the kernel wrote
 * it. The runtime functions trace_launch.c calls are stubs here;
 * pasta__trace_records keeps what each harvested launch delivered. Checks
 * that every traced launch's records arrive once, whole and its own (also
 * past the count queued behind it, and past the buffer's capacity), later
 * than the launch (the ring), with a clock pair only for launches that
 * waited (each kernel's first, one per CALIBRATE_NS), that a fault drops
 * its launch's records, that a read-back that cannot be queued waits for
 * the GPU before its slot is reused, that the vendor tables of a program's
 * other files share the ring, that an unload of the table that allocated it
 * and a reset free the buffers, that fewer slots are used when eight do not
 * fit, and that launches into a graph are not traced; the copies back on
 * the runtime's own stream, or on the launch's where the vendor table lacks
 * the stream calls.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "intercept_internal.h"
#include "trace.h"

#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"

enum { CAPACITY = 64, SLOTS = 8 };

/*===-- The fake GPU ------------------------------------------------------===*/

/* Two streams, each its own queue: the launches' (the legacy default
 * stream, NULL) and the runtime's copy stream. A queue runs only when the
 * host waits for something in it; a wait for an event on the other queue
 * runs that queue up to the event's record first, and nothing else orders
 * the two: a copy back not made to wait for its launch reads the slot
 * before the kernel wrote it. */
enum op_kind { OP_COPY, OP_KERNEL, OP_EVENT, OP_WAIT };
struct op {
  int kind;
  void *dst;
  const void *src;
  size_t bytes;
  void *header;   /* OP_KERNEL: the device pointer it was given */
  uint32_t write; /* OP_KERNEL: records it appends */
  uint32_t tag;   /* OP_KERNEL: the scope of each record */
  int *token;     /* OP_EVENT: set when it runs; OP_WAIT: runs after it */
};
enum { LAUNCH_QUEUE, SIDE_QUEUE, QUEUES };
static struct op queues[QUEUES][256];
static int num_queued[QUEUES];
/* An event: the token of its latest record (each record gets a new one). */
struct fake_event {
  int *latest;
};
static int tokens[4096];
static int num_tokens;
static int fault_next_event; /* the next event's wait fails */
static int allocations, frees, waits_on_stream, sync_copies;
static size_t last_read_back; /* bytes of the last queued D2H copy */
static void *last_read_back_stream;
static char side_stream;
static int side_streams, side_waits, side_syncs, device_syncs;
static int fail_event_record; /* the next event record fails */
static size_t malloc_limit;   /* allocations above it fail (0: none) */

static int queue_of(void *stream) {
  return stream == &side_stream ? SIDE_QUEUE : LAUNCH_QUEUE;
}

static void run_first(int q);

/* Runs queue q until `token` is set (its record is in q). */
static void run_until(int q, const int *token) {
  while (!*token && num_queued[q] > 0)
    run_first(q);
}

static void run_op(struct op *o) {
  if (o->kind == OP_COPY) {
    memmove(o->dst, o->src, o->bytes);
  } else if (o->kind == OP_KERNEL) {
    struct pasta_trace_launch *h = o->header;
    struct pasta_trace_record *r = (void *)(uintptr_t)h->records;
    for (uint32_t k = 0; k < o->write; ++k) {
      uint64_t slot = h->head++;
      if (slot < h->capacity)
        r[slot] = (struct pasta_trace_record){o->tag, k, 0, 0, 1000 + k};
    }
  } else if (o->kind == OP_EVENT) {
    *o->token = 1;
  }
}

static void run_first(int q) {
  struct op o = queues[q][0];
  memmove(queues[q], queues[q] + 1,
          (size_t)(--num_queued[q]) * sizeof queues[q][0]);
  if (o.kind == OP_WAIT)
    run_until(1 - q, o.token);
  run_op(&o);
}

static void run_all(int q) {
  while (num_queued[q] > 0)
    run_first(q);
}

static void run_everything(void) {
  for (int q = 0; q < QUEUES; ++q)
    run_all(q);
}

static int pending(void) {
  return num_queued[LAUNCH_QUEUE] + num_queued[SIDE_QUEUE];
}

static int enqueue(void *stream, struct op o) {
  int q = queue_of(stream);
  if (num_queued[q] == (int)(sizeof queues[q] / sizeof queues[q][0]))
    run_first(q);
  queues[q][num_queued[q]++] = o;
  return 0;
}

static int f_malloc(void **p, uint64_t n) {
  if (malloc_limit && n > malloc_limit)
    return 2; /* cudaErrorMemoryAllocation */
  ++allocations;
  return (*p = calloc(1, n)) ? 0 : 2;
}
static int f_free(void *p) {
  ++frees;
  free(p);
  return 0;
}
static int f_host_alloc(void **p, uint64_t n, unsigned flags) {
  (void)flags;
  return f_malloc(p, n);
}
/* cudaMemcpy: the legacy default stream's work first. */
static int f_memcpy(void *d, const void *s, uint64_t n, int kind) {
  (void)kind;
  ++sync_copies;
  run_all(LAUNCH_QUEUE);
  memmove(d, s, n);
  return 0;
}
static int f_memcpy_async(void *d, const void *s, uint64_t n, int kind,
                          void *stream) {
  if (kind == PASTA_MEMCPY_DEVICE_TO_HOST)
    last_read_back = n, last_read_back_stream = stream;
  return enqueue(stream, (struct op){OP_COPY, d, s, n, NULL, 0, 0, NULL});
}
static int f_stream_sync(void *stream) {
  if (stream == &side_stream)
    ++side_syncs;
  else
    ++waits_on_stream;
  run_all(queue_of(stream));
  return 0;
}
static int f_device_sync(void) {
  ++device_syncs;
  run_everything();
  return 0;
}
static int f_event_create(void **e) {
  ++allocations;
  return (*e = calloc(1, sizeof(struct fake_event))) ? 0 : 2;
}
static int f_event_record(void *e, void *stream) {
  if (fail_event_record) {
    fail_event_record = 0;
    return 1; /* cudaErrorInvalidValue */
  }
  if (num_tokens == (int)(sizeof tokens / sizeof *tokens))
    return 2;
  int *token = &tokens[num_tokens++];
  ((struct fake_event *)e)->latest = token;
  return enqueue(stream,
                 (struct op){OP_EVENT, NULL, NULL, 0, NULL, 0, 0, token});
}
static int f_event_sync(void *e) {
  int *token = ((struct fake_event *)e)->latest;
  if (!token)
    return 0; /* never recorded: complete */
  for (int q = 0; q < QUEUES; ++q)
    run_until(q, token);
  if (fault_next_event) {
    fault_next_event = 0;
    return 700; /* cudaErrorIllegalAddress */
  }
  return *token ? 0 : 600;
}
static int f_stream_create(void **stream, unsigned flags) {
  CHECK_EQ_INT(flags, PASTA_STREAM_NON_BLOCKING);
  ++side_streams;
  *stream = &side_stream;
  return 0;
}
static int f_stream_destroy(void *stream) {
  CHECK_EQ_PTR(stream, &side_stream);
  --side_streams;
  return 0;
}
static int f_wait_event(void *stream, void *event, unsigned flags) {
  (void)flags;
  CHECK_EQ_PTR(stream, &side_stream);
  ++side_waits;
  int *token = ((struct fake_event *)event)->latest;
  if (!token)
    return 0;
  return enqueue(stream,
                 (struct op){OP_WAIT, NULL, NULL, 0, NULL, 0, 0, token});
}
static int f_event_create_flags(void **e, unsigned flags) {
  CHECK_EQ_INT(flags, PASTA_EVENT_DISABLE_TIMING);
  return f_event_create(e);
}
static int last_error_calls;
static int f_last_error(void) {
  ++last_error_calls;
  return 0;
}

static struct pasta_vendor_ops ops = {
    .memcpy = f_memcpy,
    .malloc = f_malloc,
    .free = f_free,
    .stream_synchronize = f_stream_sync,
    .device_synchronize = f_device_sync,
    .get_last_error = f_last_error,
    .event_create = f_event_create,
    .event_record = f_event_record,
    .event_synchronize = f_event_sync,
    .event_destroy = f_free,
    .memcpy_async = f_memcpy_async,
    .host_alloc = f_host_alloc,
    .free_host = f_free,
    .stream_create_with_flags = f_stream_create,
    .stream_destroy = f_stream_destroy,
    .stream_wait_event = f_wait_event,
    .event_create_with_flags = f_event_create_flags,
    .vendor = PASTA_VENDOR_CUDA};

/* The kernels: each launch of a trace copy appends `records_next` records
 * tagged `tag_next`. */
static char ka, ka_trace, kb, kb_trace;
static uint32_t records_next, tag_next;
static int counting_launches;

static int fake_launch(const void *fn, uint64_t gxy, uint32_t gz, uint64_t bxy,
                       uint32_t bz, void **args, uint64_t shmem, void *stream) {
  (void)gxy, (void)gz, (void)bxy, (void)bz, (void)shmem, (void)stream;
  if (fn != &ka_trace && fn != &kb_trace) {
    ++counting_launches;
    return 0;
  }
  /* No parameters of its own: the header pointer is argument 0. */
  void *header = *(void **)args[0];
  return enqueue(stream, (struct op){OP_KERNEL, NULL, NULL, 0, header,
                                     records_next, tag_next, 0});
}

/*===-- Stubs of the runtime around trace_launch.c ------------------------===*/

static uint64_t fake_now = 1000000000;
uint64_t pasta__trace_now(void) { return fake_now; }
uint32_t pasta__trace_capacity(void) { return CAPACITY; }
uint32_t pasta__trace_warps(void) { return 64; }
int pasta__run_timed(ops_t *o, pasta__launch_fn real, const void *handle,
                     const struct launch *l, void **args, uint32_t kernel,
                     int plain) {
  (void)o, (void)kernel, (void)plain;
  return real(handle, l->grid_xy, l->grid_z, l->block_xy, l->block_z, args,
              l->shmem, l->stream);
}
void pasta__state_lock(void) {}
void pasta__state_unlock(void) {}
const struct allocation *pasta__allocation_at(uint64_t addr) {
  (void)addr;
  return NULL;
}
void pasta__trace_launch(uint64_t launch, const char *mangled,
                         const void *module, const uint64_t *arg_ids,
                         uint32_t nargs, const void *site, uint64_t t) {
  (void)launch, (void)mangled, (void)module, (void)arg_ids, (void)nargs;
  (void)site, (void)t;
}

/* What pasta__trace_records was handed, per launch id. */
struct delivered {
  int times;
  uint64_t stored, head, t_before, t_after;
  int own; /* every record is this launch's, in order */
};
static struct delivered got[64];

void pasta__trace_records(uint64_t launch, const char *mangled,
                          const void *module,
                          const struct pasta_trace_record *records,
                          uint64_t stored, uint64_t head, uint64_t t_before,
                          uint64_t t_after) {
  (void)mangled, (void)module;
  if (launch >= 64)
    return;
  struct delivered *d = &got[launch];
  d->times++;
  d->stored = stored, d->head = head;
  d->t_before = t_before, d->t_after = t_after;
  d->own = 1;
  for (uint64_t k = 0; k < stored; ++k)
    if (records[k].scope != launch || records[k].warp != k)
      d->own = 0;
}

/*===-- The checks --------------------------------------------------------===*/

static struct kernel kernel_a = {
    .handle = &ka, .mangled = "_Z1av", .trace = &ka_trace};
static struct kernel kernel_b = {
    .handle = &kb, .mangled = "_Z1bv", .trace = &kb_trace};

/* The vendor table the launches go through (each file of a program has
 * its own). */
static const struct pasta_vendor_ops *launch_ops = &ops;

/* Launch `id` of kernel k (index `index`), writing `records` records. */
static int traced_launch(const struct kernel *k, uint32_t index, uint64_t id,
                         uint32_t records, int capture) {
  struct launch l = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  l.fn = k->handle;
  l.grid_xy = 64 | (UINT64_C(1) << 32);
  l.grid_z = 1;
  l.block_xy = 256 | (UINT64_C(1) << 32);
  l.block_z = 1;
  l.id = id;
  l.capture = capture;
  records_next = records;
  tag_next = (uint32_t)id;
  int traced = -1;
  CHECK_EQ_INT(pasta__run_trace(launch_ops, fake_launch, k, index, &l, &traced),
               0);
  return traced;
}

static int delivered_count(void) {
  int n = 0;
  for (int i = 0; i < 64; ++i)
    n += got[i].times;
  return n;
}

static void check_delivered(uint64_t id, uint64_t head, int pair) {
  const struct delivered *d = &got[id];
  uint64_t stored = head < CAPACITY ? head : CAPACITY;
  CHECK_MSG(d->times == 1, "launch %llu delivered %d times",
            (unsigned long long)id, d->times);
  CHECK_MSG(d->head == head && d->stored == stored && d->own,
            "launch %llu: head %llu stored %llu own %d", (unsigned long long)id,
            (unsigned long long)d->head, (unsigned long long)d->stored, d->own);
  CHECK_MSG((d->t_after != 0) == pair && (!pair || d->t_before <= d->t_after),
            "launch %llu: clock pair %d, want %d", (unsigned long long)id,
            d->t_after != 0, pair);
}

/* With no stream of its own (`launch-stream`: the vendor table lacks the
 * calls), the copies back are queued on the launch's stream. */
int main(int argc, char **argv) {
  int own_stream = !(argc > 1 && strcmp(argv[1], "launch-stream") == 0);
  if (!own_stream) {
    ops.stream_create_with_flags = NULL;
    ops.stream_wait_event = NULL;
    ops.stream_destroy = NULL;
  }
  /* Kernel a's first launch waits (no record count known yet, and the
   * first clock pair); it is harvested at once. */
  CHECK_EQ_INT(traced_launch(&kernel_a, 0, 0, 5, CAPTURE_NONE), 1);
  CHECK_EQ_INT(delivered_count(), 1);
  CHECK_EQ_INT(waits_on_stream, 2);
  /* The next ones do not wait: their header and about 5 + 5/8 + 32 records
   * are copied behind them, and the slots are harvested when the ring
   * comes round. */
  for (uint64_t id = 1; id <= 8; ++id)
    CHECK_EQ_INT(traced_launch(&kernel_a, 0, id, 5, CAPTURE_NONE), 1);
  CHECK_EQ_U64(last_read_back, 32 + (5 + 0 + 32) * 24);
  CHECK_EQ_PTR(last_read_back_stream, own_stream ? &side_stream : NULL);
  CHECK_EQ_INT(side_streams, own_stream ? 1 : 0);
  CHECK_EQ_INT(side_waits, own_stream ? 8 : 0);
  CHECK_EQ_INT(waits_on_stream, 2);
  CHECK_EQ_INT(pending() > 0, 1);
  CHECK_EQ_INT(delivered_count(), 1); /* 1..8 still in flight */
  /* 40 records: more than were queued behind it (37), the rest copied at
   * the harvest; 100: past the capacity, 36 dropped. */
  CHECK_EQ_INT(traced_launch(&kernel_a, 0, 9, 40, CAPTURE_NONE), 1);
  CHECK_EQ_INT(delivered_count(), 2); /* launch 1 made room */
  CHECK_EQ_INT(traced_launch(&kernel_a, 0, 10, 100, CAPTURE_NONE), 1);
  /* Kernel b's first launch waits although a pair was taken just now. */
  CHECK_EQ_INT(traced_launch(&kernel_b, 1, 11, 3, CAPTURE_NONE), 1);
  CHECK_EQ_INT(got[11].times, 1);
  /* After CALIBRATE_NS (10 ms) a launch waits again. */
  for (uint64_t id = 12; id <= 15; ++id)
    CHECK_EQ_INT(traced_launch(&kernel_a, 0, id, 7, CAPTURE_NONE), 1);
  fake_now += 10000000;
  CHECK_EQ_INT(traced_launch(&kernel_a, 0, 16, 7, CAPTURE_NONE), 1);
  CHECK_EQ_INT(got[16].times, 1);
  /* Launch 9 (40 records) is harvested first, making room: kernel a's
   * most is now 40, and 40 + 5 + 32 records do not fit: the whole buffer
   * is queued. */
  CHECK_EQ_INT(traced_launch(&kernel_a, 0, 17, 7, CAPTURE_NONE), 1);
  CHECK_EQ_U64(last_read_back, 32 + CAPACITY * 24);
  /* A launch into a graph is not traced. */
  CHECK_EQ_INT(traced_launch(&kernel_a, 0, 18, 7, CAPTURE_INTO_GRAPH), 0);
  CHECK_EQ_INT(counting_launches, 1);
  CHECK_EQ_INT(traced_launch(&kernel_a, 0, 19, 7, CAPTURE_NONE), 1);

  /* At exit: everything in flight is harvested. */
  pasta__trace_drain();
  CHECK_EQ_INT(pending(), 0);
  for (uint64_t id = 0; id <= 19; ++id) {
    if (id == 18)
      continue;
    uint64_t head = id == 9    ? 40
                    : id == 10 ? 100
                    : id == 11 ? 3
                    : id <= 8  ? 5
                               : 7;
    check_delivered(id, head, id == 0 || id == 11 || id == 16);
  }
  CHECK_EQ_INT(got[18].times, 0);
  /* Copies at the harvest (on the copy stream when there is one): launches
   * 9 and 10 wrote more than the 37 records queued behind them; 0, 11 and
   * 16, which waited, queue none. */
  CHECK_EQ_INT(sync_copies + side_syncs, 5);
  CHECK_EQ_INT(side_syncs, own_stream ? 5 : 0);

  /* A fault on a launch in flight: its records are dropped, nothing
   * else. */
  CHECK_EQ_INT(traced_launch(&kernel_a, 0, 20, 7, CAPTURE_NONE), 1);
  fault_next_event = 1;
  int errors_before = last_error_calls;
  pasta__trace_drain();
  CHECK_EQ_INT(got[20].times, 0);
  CHECK(last_error_calls > errors_before);

  /* Another file's vendor table: the same ring, no new buffers. */
  struct pasta_vendor_ops ops2 = ops;
  launch_ops = &ops2;
  int allocations_before = allocations;
  CHECK_EQ_INT(traced_launch(&kernel_b, 1, 21, 3, CAPTURE_NONE), 1);
  CHECK_EQ_INT(allocations, allocations_before);

  /* A read-back that cannot be queued: the launch is not traced after all,
   * and its slot is reused only after the GPU finished with it. */
  fail_event_record = 1;
  CHECK_EQ_INT(traced_launch(&kernel_b, 1, 22, 3, CAPTURE_NONE), 0);
  CHECK_EQ_INT(device_syncs, 1);
  CHECK_EQ_INT(pending(), 0);

  /* The table that allocated the ring goes (its file unloads): the ring's
   * launches are harvested and its buffers freed through it; the next
   * launch, through another table, sets up a ring of its own. */
  launch_ops = &ops;
  CHECK_EQ_INT(traced_launch(&kernel_a, 0, 23, 7, CAPTURE_NONE), 1);
  pasta__trace_module_gone(&ops);
  pasta__copy_stream_module_gone(&ops);
  CHECK_EQ_INT(got[23].times, 1);
  CHECK_EQ_INT(frees, allocations);
  CHECK_EQ_INT(side_streams, 0);
  launch_ops = &ops2;
  CHECK_EQ_INT(traced_launch(&kernel_a, 0, 24, 7, CAPTURE_NONE), 1);
  CHECK(got[24].t_after != 0); /* a new ring: a new clock pair */

  /* A reset frees every buffer, whichever table allocated it; the next
   * traced launch sets up again and works. */
  CHECK_EQ_INT(traced_launch(&kernel_a, 0, 25, 7, CAPTURE_NONE), 1);
  launch_ops = &ops;
  pasta__trace_release_device(0);
  pasta__copy_stream_release(0);
  CHECK_EQ_INT(got[25].times, 1);
  CHECK_EQ_INT(got[22].times, 0);
  CHECK_EQ_INT(frees, allocations);
  CHECK_EQ_INT(side_streams, 0);

  /* Eight slots do not fit, four do: launch 27 is harvested when launch 31
   * takes its slot. */
  malloc_limit = 4 * (32 + CAPACITY * 24);
  for (uint64_t id = 26; id <= 31; ++id)
    CHECK_EQ_INT(traced_launch(&kernel_a, 0, id, 7, CAPTURE_NONE), 1);
  CHECK_EQ_INT(got[27].times, 1);
  CHECK_EQ_INT(got[28].times, 0);
  malloc_limit = 0;
  pasta__trace_release_device(0);
  pasta__copy_stream_release(0);
  for (uint64_t id = 26; id <= 31; ++id)
    CHECK_EQ_INT(got[id].times, 1);
  CHECK_EQ_INT(frees, allocations);
  CHECK_EQ_INT(side_streams, 0);
  return check_summary(own_stream ? "trace launch"
                                  : "trace launch (launch stream)");
}
