/*===- sync.c - The synchronisation wrappers -------------------------------===*
 *
 * cudaDeviceSynchronize/cudaStreamSynchronize and HIP's: a synchronisation
 * retires the timed launches it waited for, and notes a fault it returned.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "intercept_internal.h"
#include "trace.h"
#include "wrapper.h"

PASTA_ABI int __pasta_device_synchronize(int (*real)(void), ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  int err = real();
  pasta__trace_api("device synchronize", t0, pasta__trace_now(), 0);
  int device = pasta__vendor_device(ops);
  pasta__state_lock();
  pasta__note_call(ops);
  ++pasta__st.memory.device_syncs;
  if (err)
    pasta__note_fault(ops, err, NULL, 0);
  else
    pasta__st.synced_before = pasta__st.next_launch;
  pasta__harvest(ops, device, 1, NULL);
  pasta__state_unlock();
  return err;
}

PASTA_ABI int __pasta_stream_synchronize(void *stream, int (*real)(void *),
                                         ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  int err = real(stream);
  pasta__trace_api("stream synchronize", t0, pasta__trace_now(), 0);
  int device = pasta__vendor_device(ops);
  pasta__state_lock();
  pasta__note_call(ops);
  ++pasta__st.memory.stream_syncs;
  if (err)
    pasta__note_fault(ops, err, NULL, 0);
  pasta__harvest(ops, device, 0, stream);
  pasta__state_unlock();
  return err;
}
