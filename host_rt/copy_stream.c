/*===- copy_stream.c - The runtime's own stream for read-back copies -------===*
 *
 * Trace and working-set launches leave results on the GPU that the host
 * reads later. Their copies back are queued on a stream of the runtime's
 * own per GPU (non-blocking: not ordered with the legacy default stream),
 * made to wait for the launch through an event: queued on the launch's
 * stream instead, a copy held up the program's next kernel by about 10 us
 * on an H200, on its own stream by nothing measurable (docs/performance.md,
 * "Trace mode: reading records back without waiting"). Where the vendor
 * table lacks the stream calls, or the stream cannot be made, the copies
 * go on the launch's stream.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "intercept_internal.h"

#include <pthread.h>

static pthread_mutex_t copy_mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
  ops_t *ops; /* whose stream it is; NULL: none made yet */
  void *stream;
  int failed;
} copy[PASTA_MAX_DEVICES];

/* GPU `device`'s copy stream (the current GPU's), made at its first use;
 * NULL when there is none. */
static void *copy_stream(ops_t *ops, int device) {
  pthread_mutex_lock(&copy_mu);
  if (!copy[device].ops && !copy[device].failed) {
    if (ops->stream_create_with_flags && ops->stream_wait_event &&
        ops->stream_destroy &&
        ops->stream_create_with_flags(&copy[device].stream,
                                      PASTA_STREAM_NON_BLOCKING) == 0) {
      copy[device].ops = ops;
    } else {
      copy[device].failed = 1;
      ops->get_last_error();
    }
  }
  void *stream = copy[device].ops == ops ? copy[device].stream : NULL;
  pthread_mutex_unlock(&copy_mu);
  return stream;
}

int pasta__ordering_event(ops_t *ops, void **event) {
  if (ops->event_create_with_flags)
    return ops->event_create_with_flags(event, PASTA_EVENT_DISABLE_TIMING);
  return ops->event_create(event);
}

int pasta__queue_read_back(ops_t *ops, const struct read_back_copy *c) {
  void *side = copy_stream(ops, c->device);
  void *on = side ? side : c->stream;
  if (side && (ops->event_record(c->ran, c->stream) ||
               ops->stream_wait_event(side, c->ran, 0)))
    return -1;
  if (ops->memcpy_async(c->dst, c->src, c->bytes, PASTA_MEMCPY_DEVICE_TO_HOST,
                        on))
    return -1;
  if (c->clear && ops->memset_async((void *)(uintptr_t)c->src, 0, c->bytes, on))
    return -1;
  return ops->event_record(c->done, on);
}

void pasta__copy_stream_release(ops_t *ops, int device) {
  pthread_mutex_lock(&copy_mu);
  if (copy[device].ops == ops)
    ops->stream_destroy(copy[device].stream);
  if (copy[device].ops == ops || copy[device].failed)
    copy[device].ops = NULL, copy[device].stream = NULL,
    copy[device].failed = 0;
  pthread_mutex_unlock(&copy_mu);
}
