/*===- state.c - The wrappers' recorded state and its lock -----------------===*
 *
 * One struct (intercept_internal.h) holds what the wrappers record, under
 * one mutex that is never held across a launch.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "intercept_internal.h"

#include <string.h>

struct pasta__state pasta__st = {.mu = PTHREAD_MUTEX_INITIALIZER};

void pasta__state_lock(void) { pthread_mutex_lock(&pasta__st.mu); }

void pasta__state_unlock(void) { pthread_mutex_unlock(&pasta__st.mu); }

/* The vendor table whose process sees one GPU (its device count asked
 * once, for the first table that asks), and whether that was asked. The
 * visible devices are fixed when the vendor runtime starts: with one, the
 * current device is always 0, and every launch was asking the vendor
 * (cudaGetDevice) for it: on an H200 a capture query and two device
 * queries added 0.4 us a launch to a plain program's loop of launches. */
static ops_t *one_device_ops, *counted_ops;

static int sees_one_device(ops_t *ops) {
  if (__atomic_load_n(&one_device_ops, __ATOMIC_ACQUIRE) == ops)
    return 1;
  ops_t *none = NULL;
  if (!ops->get_device_count ||
      !__atomic_compare_exchange_n(&counted_ops, &none, ops, 0,
                                   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return 0; /* another table was asked first: this one asks each time */
  int n = 0;
  if (ops->get_device_count(&n)) {
    if (ops->get_last_error)
      ops->get_last_error(); /* ours, not the program's */
    return 0;
  }
  if (n != 1)
    return 0;
  __atomic_store_n(&one_device_ops, ops, __ATOMIC_RELEASE);
  return 1;
}

int pasta__vendor_device(ops_t *ops) {
  int d = 0;
  if (!ops || !ops->get_device || sees_one_device(ops) || ops->get_device(&d) ||
      d < 0 || d >= PASTA_MAX_DEVICES)
    return 0;
  return d;
}

void pasta__note_ops(ops_t *ops) {
  if (!pasta__st.ops)
    pasta__st.ops = ops;
  pasta__st.seen = 1;
}

int pasta__error_pending(ops_t *ops) {
  return ops && ops->peek_at_last_error && ops->peek_at_last_error() != 0;
}

void pasta__clear_own_error(ops_t *ops, int pending) {
  if (!pending && ops && ops->get_last_error)
    ops->get_last_error();
}
