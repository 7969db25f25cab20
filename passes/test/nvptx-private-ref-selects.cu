// -pasta-unroll-private-arrays (PrivateRefSelects.h): a scan over a
// thread's private array of pairs whose operator returns one of its
// arguments by reference (a lexicographic minimum, as libcu++'s minimum of
// a tuple) leaves clang a field read through a chosen pointer, and the
// array in local memory; with the pass, it is promoted to registers, as
// nvcc's is. A kernel choosing among references into global memory keeps
// clang's default code, byte for byte.
// REQUIRES: cuda
// RUN: %cuda_device -O3 -S -DPRIVATE %s -o %t.private.ptx -mllvm -pasta-unroll-private-arrays
// RUN: FileCheck %s --check-prefix=PRIVATE --input-file %t.private.ptx
// RUN: %cuda_device -O3 -S -DPRIVATE %s -o %t.private-default.ptx
// RUN: FileCheck %s --check-prefix=DEFAULT --input-file %t.private-default.ptx
// RUN: %cuda_device -O3 -S %s -o %t.rest.ptx -mllvm -pasta-unroll-private-arrays
// RUN: %cuda_device -O3 -S %s -o %t.rest-default.ptx
// RUN: diff %t.rest-default.ptx %t.rest.ptx
// RUN: FileCheck %s --check-prefix=REST --input-file %t.rest.ptx

// PRIVATE-LABEL: .entry _Z9scan_minsPKfPKjP4Pair__pasta_plain(
// PRIVATE-NOT: __local_depot
// PRIVATE-NOT: ld.local
// PRIVATE: {{^}}}
// DEFAULT-LABEL: .entry _Z9scan_minsPKfPKjP4Pair__pasta_plain(
// DEFAULT: st.local
// REST-LABEL: .entry _Z11global_minsPK4PairPS_i__pasta_plain(
// REST: ld.global

struct Pair {
  float weight;
  unsigned id;
};

// The smaller weight, the smaller id on a tie: one of the two, by reference.
__device__ const Pair &smaller(const Pair &a, const Pair &b) {
  if (a.weight < b.weight)
    return a;
  if (b.weight < a.weight)
    return b;
  return a.id < b.id ? a : b;
}

#ifdef PRIVATE
__global__ void scan_mins(const float *weights, const unsigned *keys,
                          Pair *out) {
  constexpr int Items = 7;
  Pair items[Items];
  unsigned first = (blockIdx.x * blockDim.x + threadIdx.x) * Items;
#pragma unroll
  for (int i = 0; i < Items; ++i)
    items[i] = Pair{weights[first + i], first + i};
#pragma unroll
  for (int i = 1; i < Items; ++i)
    if (keys[first + i] == keys[first + i - 1])
      items[i] = smaller(items[i - 1], items[i]);
#pragma unroll
  for (int i = 0; i < Items; ++i)
    out[first + i] = items[i];
}
#else
__global__ void global_mins(const Pair *in, Pair *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    out[i] = smaller(in[i], in[i + 1]);
}
#endif
