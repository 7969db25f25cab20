// A kernel shaped like the bundled ones, with device memcpy, memset and
// __builtin_memcpy of run-time length (each thread's length read from
// memory): clang makes them intrinsics, and PASTA counts their bytes per
// thread at -O0 and -O2 (nvptx-memops.ll has the details). ptxas accepts
// the counting code.
// REQUIRES: cuda
// RUN: %cuda_device -O2 -g -S -emit-llvm %s -o /dev/null -mllvm -pasta-print-sites 2>&1 | FileCheck %s --check-prefixes=CHECK,O2
// RUN: %cuda_device -O0 -g -S -emit-llvm %s -o /dev/null -mllvm -pasta-print-sites 2>&1 | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %cuda_device -O2 -g -S %s -o %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o /dev/null

__global__ void pack(const char *in, char *out, const int *len, int n) {
  __shared__ char tile[32 * 16];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int l = len[i] & 63;
  memcpy(out + i * 64, in + i * 64, l);                        // line 18
  memset(out + i * 64 + l, 0, 64 - l);                         // line 19
  __builtin_memcpy(tile + threadIdx.x * 16, in + i * 64, l & 15); // line 20
  __syncthreads();
  out[i] = tile[(threadIdx.x * 16 + 1) % (32 * 16)];
}

// CHECK: pasta: func _Z4packPKcPcPKii kind=kernel
// At -O2 the kernel's pointers are global and the tile is shared.
// O2: pasta: site nvptx-memops.cu:18 func=_Z4packPKcPcPKii counter={{[0-9]+}} bytes={{[0-9]+}} ld.global=1 st.global=1 ldB.global=1 stB.global=1{{$}}
// O2: pasta: site nvptx-memops.cu:19 func=_Z4packPKcPcPKii counter={{[0-9]+}} bytes={{[0-9]+}} st.global=1 stB.global=1{{$}}
// O2: pasta: site nvptx-memops.cu:20 func=_Z4packPKcPcPKii counter={{[0-9]+}} bytes={{[0-9]+}} ld.global=1 st.shared=1 ldB.global=1 stB.shared=1{{$}}
// At -O0 the pointers are reloaded from the stack: generic, resolved at
// run time (a DYN set per site); the tile's address is computed from the
// array's: shared.
// CUDA's memcpy and memset are wrappers in clang's headers: their
// intrinsics count on the lines that call them.
// O0: pasta: site nvptx-memops.cu:18 func=_Z4packPKcPcPKii counter={{[0-9]+}} dyn={{[0-9]+}} bytes={{[0-9]+}} ld.generic=1 st.generic=1 ldB.generic=1 stB.generic=1{{$}}
// O0: pasta: site nvptx-memops.cu:19 func=_Z4packPKcPcPKii counter={{[0-9]+}} dyn={{[0-9]+}} bytes={{[0-9]+}} st.generic=1 stB.generic=1{{$}}
// O0: pasta: site nvptx-memops.cu:20 func=_Z4packPKcPcPKii counter={{[0-9]+}} dyn={{[0-9]+}} bytes={{[0-9]+}} ld.generic=1 st.shared=1 ldB.generic=1 stB.shared=1{{$}}
