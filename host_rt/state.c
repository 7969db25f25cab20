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

int pasta__vendor_device(ops_t *ops) {
  int d = 0;
  if (!ops || !ops->get_device || ops->get_device(&d) || d < 0 ||
      d >= PASTA_MAX_DEVICES)
    return 0;
  return d;
}

void pasta__note_ops(ops_t *ops) {
  if (!pasta__st.ops)
    pasta__st.ops = ops;
  pasta__st.seen = 1;
}
