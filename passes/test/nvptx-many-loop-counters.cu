// curand_init's skip-ahead inlined (cuda-samples MonteCarloMultiGPU's
// rngSetupStates): five loops over a state word's 32 bits (`#pragma
// unroll 16` in curand_kernel.h), each with 16 guarded blocks xoring a
// table row into the result: 80 counters of loop blocks, which the
// counting copy keeps in registers by default (127 registers, the plain
// copy 40). Above -pasta-many-loop-counters (here 32; off by default: on
// an H200 the copy below ran 2.31x the plain kernel, the default one
// 1.09x) they stay in local memory instead, in the 64-bit slots of one
// array, each guarded block adding 1 to its slot where it also loads five
// table words; the exit flushes that array itself (no copy into the
// staging array: ptxas loaded such a copy's 80 values into registers at
// once). The counting copy then takes the plain copy's registers, and the
// working-set copy, which counts too, about as many more as the plain
// copy's own (163 in registers). With -pasta-loop-counter-registers=1 (79
// in memory) it took 128 registers before the array (a register per
// slot's address). Its 80 blocks are on one line with one mix: by default
// they share 32-bit counters (shareLikeCounters; 40 registers); off here,
// to test the counters in memory.
// REQUIRES: cuda
// RUN: %cuda_device -O3 -mllvm -pasta-share-like-counters=0 -S -emit-llvm -mllvm -pasta-many-loop-counters=32 %s -o %t.ll
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: %cuda_device -O3 -mllvm -pasta-share-like-counters=0 -S -mllvm -pasta-many-loop-counters=32 %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_90 -v %t.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %cuda_device -O3 -mllvm -pasta-share-like-counters=0 -S -mllvm -pasta-loop-counter-registers=1 %s -o %t.one.ptx
// RUN: %ptxas -arch=sm_90 -v %t.one.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: %cuda_device -O3 -mllvm -pasta-share-like-counters=0 -S -emit-llvm %s -o %t.off.ll
// RUN: FileCheck %s --check-prefix=OFF < %t.off.ll
#include <curand_kernel.h>

__global__ void rng_setup(curandState *states, unsigned long long seed) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  curandState s;
  curand_init(seed, tid, 0, &s);
  states[tid] = s;
}

// IR-LABEL: define {{.*}} void @_Z9rng_setupP17curandStateXORWOWy(
// IR-NEXT: %[[MEM:[0-9]+]] = alloca [80 x i64], align 8
// IR-NEXT: %[[CAST:[0-9]+]] = addrspacecast ptr %[[MEM]] to ptr addrspace(5)
// IR-NEXT: %[[LOCAL:[0-9]+]] = call ptr addrspace(5) asm "", "=l,0"(ptr addrspace(5) %[[CAST]])
// IR-COUNT-80: store i64 0, ptr addrspace(5)
// IR-NOT: alloca
// IR-NOT: store volatile i32 0,
// IR-COUNT-80: load volatile i32, ptr addrspace(5)
// IR-NOT: load volatile
// IR: call void @__pasta_flush_indexed({{.*}}, ptr %[[MEM]], ptr addrspace(1) @{{.*}}, i32 80)
// IR-NOT: call void @__pasta_flush_indexed
// IR: ret void

// In PTX the slots are zeroed by 64-bit stores (no loop of byte stores)
// and added to from one base register and an offset.
// PTX-LABEL: .entry _Z9rng_setupP17curandStateXORWOWy(
// PTX-NOT: st.local.b8
// PTX: st.local.b64 [%rd[[BASE:[0-9]+]]], 0;
// PTX-NOT: st.local.b8
// PTX: ld.local.b32 %r{{[0-9]+}}, [%rd[[BASE]]+{{[0-9]+}}];
// PTX-NOT: st.local.b8
// PTX: .entry

// ONE-LABEL: entry function '_Z9rng_setupP17curandStateXORWOWy' for
// ONE: Used {{([0-9]|[1-4][0-9])}} registers

// By default the counters stay in registers.
// OFF-LABEL: define {{.*}} void @_Z9rng_setupP17curandStateXORWOWy(
// OFF-NOT: load volatile
// OFF: call void @__pasta_flush_indexed({{.*}}, i32 80)
// OFF-NOT: load volatile
// OFF: ret void

// The counting copy at most 48 registers (the plain copy's 40 and a few),
// the working-set copy under 96 (ptxas lists the entries in this order).
// PTXAS-LABEL: entry function '_Z9rng_setupP17curandStateXORWOWy__pasta_ws'
// PTXAS: Used {{([0-9]|[1-8][0-9]|9[0-5])}} registers
// PTXAS-LABEL: entry function '_Z9rng_setupP17curandStateXORWOWy__pasta_plain'
// PTXAS: Used {{[0-9]+}} registers
// PTXAS-LABEL: entry function '_Z9rng_setupP17curandStateXORWOWy' for
// PTXAS: Used {{([0-9]|[1-3][0-9]|4[0-8])}} registers
