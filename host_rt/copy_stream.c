/*===- copy_stream.c - The runtime's own stream for read-back copies -------===*
 *
 * Trace and working-set launches leave results on the GPU that the host
 * reads later. Their copies back are queued on a stream of the runtime's
 * own per GPU (non-blocking: not ordered with the legacy default stream),
 * made to wait for the launch through an event: queued on the launch's
 * stream instead, a copy held up the program's next kernel by about 10 us
 * on an H200, on its own stream by nothing measurable
 * (bench/trace_readback_strategies.cu measures both). Where the vendor
 * table lacks the stream calls, or the stream cannot be made, the copies
 * go on the launch's stream.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "intercept_internal.h"

#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t copy_mu = PTHREAD_MUTEX_INITIALIZER;
/* Each GPU's stream, made with the vendor table of the first read-back on
 * it. Every file of a program has its own table, and all of them reach the
 * same runtime objects: any table of the same vendor may use the stream. */
static struct {
  ops_t *owner; /* the table that made it; NULL: none made yet */
  void *stream;
  int failed;
} copy[PASTA_MAX_DEVICES];

/* GPU `device`'s copy stream (the current GPU's), made at its first use;
 * NULL when there is none. */
static void *copy_stream(ops_t *ops, int device) {
  pthread_mutex_lock(&copy_mu);
  if (!copy[device].owner && !copy[device].failed) {
    if (ops->stream_create_with_flags && ops->stream_wait_event &&
        ops->stream_destroy &&
        ops->stream_create_with_flags(&copy[device].stream,
                                      PASTA_STREAM_NON_BLOCKING) == 0) {
      copy[device].owner = ops;
    } else {
      copy[device].failed = 1;
      ops->get_last_error();
    }
  }
  void *stream = copy[device].owner && copy[device].owner->vendor == ops->vendor
                     ? copy[device].stream
                     : NULL;
  pthread_mutex_unlock(&copy_mu);
  return stream;
}

void *pasta__read_back_host_alloc(ops_t *ops, size_t bytes, int *pinned) {
  void *p = NULL;
  *pinned =
      ops->host_alloc && ops->free_host && ops->host_alloc(&p, bytes, 0) == 0;
  if (*pinned)
    return p;
  if (ops->get_last_error)
    ops->get_last_error(); /* ours, not the program's */
  return malloc(bytes);
}

void pasta__read_back_host_free(ops_t *ops, void *p, int pinned) {
  if (p && pinned)
    ops->free_host(p);
  else
    free(p);
}

int pasta__ordering_event(ops_t *ops, void **event) {
  if (ops->event_create_with_flags)
    return ops->event_create_with_flags(event, PASTA_EVENT_DISABLE_TIMING);
  return ops->event_create(event);
}

int pasta__queue_read_back(ops_t *ops, const struct read_back_copy *c) {
  void *side = copy_stream(ops, c->device);
  void *on = side ? side : c->stream;
  if (side && ((!c->recorded && ops->event_record(c->ran, c->stream)) ||
               ops->stream_wait_event(side, c->ran, 0)))
    return -1;
  if (ops->memcpy_async(c->dst, c->src, c->bytes, PASTA_MEMCPY_DEVICE_TO_HOST,
                        on))
    return -1;
  if (c->clear && ops->memset_async((void *)(uintptr_t)c->src, 0, c->bytes, on))
    return -1;
  return ops->event_record(c->done, on);
}

int pasta__copy_back_now(ops_t *ops, int device, void *dst, const void *src,
                         size_t bytes) {
  void *side = copy_stream(ops, device);
  if (!side)
    return ops->memcpy(dst, src, bytes, PASTA_MEMCPY_DEVICE_TO_HOST);
  return ops->memcpy_async(dst, src, bytes, PASTA_MEMCPY_DEVICE_TO_HOST,
                           side) ||
         ops->stream_synchronize(side);
}

/* Destroys GPU d's stream (when `ops` is NULL or made it). copy_mu held. */
static void forget(int d, ops_t *ops) {
  ops_t *owner = copy[d].owner;
  if (owner && (!ops || ops == owner)) {
    owner->stream_destroy(copy[d].stream);
    owner->get_last_error();
    copy[d].owner = NULL, copy[d].stream = NULL;
  }
  if (!ops)
    copy[d].failed = 0;
}

void pasta__copy_stream_release(int device) {
  pthread_mutex_lock(&copy_mu);
  forget(device, NULL);
  pthread_mutex_unlock(&copy_mu);
}

void pasta__copy_stream_module_gone(ops_t *ops) {
  pthread_mutex_lock(&copy_mu);
  for (int d = 0; d < (int)PASTA_MAX_DEVICES; ++d)
    forget(d, ops);
  pthread_mutex_unlock(&copy_mu);
}
