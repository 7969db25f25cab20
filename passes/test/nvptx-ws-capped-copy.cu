// The register-capped working-set copy (CappedCopies.h, abi.h
// PASTA_WS_CAPPED_SUFFIX): a kernel without launch bounds whose plain code
// holds at least -pasta-ws-capped-live-units (64) 32-bit values live at
// once gets K__pasta_wscap, its working-set copy under .maxnreg 64; every
// other kernel a stub of one-thread blocks under that name.
// - wide: 72 floats per thread loaded before a barrier and stored after it:
//   72 values live across it, with the thread index (its offsets i * 512
//   fold into it), the barrier's shared value and the last address: 76.
// - narrow: one load and one store: a stub.
// - bounded: wide's code under __launch_bounds__(512), whose register limit
//   ptxas applies to the working-set copy itself: a stub.
// REQUIRES: cuda
// RUN: %cuda_device -O2 -S %s -o %t.ptx -mllvm -pasta-print-live-units 2>&1 | FileCheck %s --check-prefix=UNITS
// RUN: FileCheck %s < %t.ptx
// RUN: %cuda_device -O2 -S %s -o %t.off.ptx -mllvm -pasta-ws-capped-live-units=0
// RUN: FileCheck %s --check-prefix=OFF < %t.off.ptx
// RUN: env PASTA_VARIANTS=plain %cuda_device -O2 -S %s -o %t.plain.ptx
// RUN: FileCheck %s --check-prefix=NOWS < %t.plain.ptx

// UNITS-DAG: pasta: live units: _Z4widePKfPf 76
// UNITS-DAG: pasta: live units: _Z6narrowPKfPf {{[1-9]$}}
// UNITS-DAG: pasta: live units: _Z7boundedPKfPf 76

// CHECK: .entry _Z4widePKfPf__pasta_wscap(
// CHECK-NOT: {{^}}{
// CHECK: .maxnreg 64
// CHECK: .entry _Z6narrowPKfPf__pasta_wscap(
// CHECK-NOT: {{^}}{
// CHECK: .maxntid 1
// CHECK: .entry _Z7boundedPKfPf__pasta_wscap(
// CHECK-NOT: {{^}}{
// CHECK: .maxntid 1
// OFF: .entry _Z4widePKfPf__pasta_wscap(
// OFF-NOT: {{^}}{
// OFF: .maxntid 1
// NOWS-NOT: __pasta_wscap

constexpr int Items = 72;

__global__ void wide(const float *in, float *out) {
  __shared__ float flag[1];
  float v[Items];
#pragma unroll
  for (int i = 0; i < Items; ++i)
    v[i] = in[i * 512 + threadIdx.x];
  if (threadIdx.x == 0)
    flag[0] = v[0];
  __syncthreads();
#pragma unroll
  for (int i = 0; i < Items; ++i)
    out[i * 512 + threadIdx.x] = v[Items - 1 - i] + flag[0];
}

__global__ void narrow(const float *in, float *out) {
  out[threadIdx.x] = 2.0f * in[threadIdx.x];
}

__global__ void __launch_bounds__(512) bounded(const float *in, float *out) {
  __shared__ float flag[1];
  float v[Items];
#pragma unroll
  for (int i = 0; i < Items; ++i)
    v[i] = in[i * 512 + threadIdx.x];
  if (threadIdx.x == 0)
    flag[0] = v[0];
  __syncthreads();
#pragma unroll
  for (int i = 0; i < Items; ++i)
    out[i * 512 + threadIdx.x] = v[Items - 1 - i] + flag[0];
}
