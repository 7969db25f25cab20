// PASTA_LINES selects instructions by source line; everything else is left
// alone, and unmatched entries warn.
// REQUIRES: cuda
// RUN: %cuda_device -O2 -g -S -emit-llvm %s -o /dev/null -mllvm -pasta-print-sites -mllvm -pasta-lines=nvptx-line-filter.cu:22 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: %cuda_device -O2 -g -S -emit-llvm %s -o /dev/null -mllvm -pasta-print-sites 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: env PASTA_LINES='nvptx-line-filter.cu:1-5' %cuda_device -O2 -g -S -emit-llvm %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: env PASTA_LINES='other.cu:1-100' %cuda_device -O2 -g -S -emit-llvm %s -o /dev/null -mllvm -pasta-print-sites 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: env PASTA_KERNELS='^_Z6squarePfi$' %cuda_device -O2 -g -S -emit-llvm %s -o /dev/null -mllvm -pasta-print-sites 2>&1 | FileCheck %s --check-prefix=KERNELS
// The -mllvm flag wins over the environment:
// RUN: env PASTA_LINES='nvptx-line-filter.cu:1-5' %cuda_device -O2 -g -S -emit-llvm %s -o /dev/null -mllvm -pasta-print-sites -mllvm -pasta-lines=nvptx-line-filter.cu:22 2>&1 | FileCheck %s --check-prefix=ONE

__global__ void scale(float *v, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = v[i] * a;
}

__global__ void square(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = v[i];
    v[i] = x * x;
  }
}

// ONE-NOT: func {{.*}}scale
// ONE: pasta: func _Z6squarePfi kind=kernel
// ONE-NEXT: pasta: site nvptx-line-filter.cu:22 func=_Z6squarePfi counter=1 st.global=1 stB.global=4 flop.f32=1{{$}}
// The bounds check's cold edge is counted (c3); the block inside is derived
// from the threads (c2).
// ONE-NEXT: pasta: derived 1 = +1*c2 -1*c3
// ONE-NEXT: pasta: module counters=16

// ALL: pasta: func _Z5scalePffi kind=kernel
// ALL: pasta: func _Z6squarePfi kind=kernel
// ALL: pasta: site nvptx-line-filter.cu:15 func=_Z5scalePffi {{.*}} ld.global=1 st.global=1 ldB.global=4 stB.global=4 flop.f32=1{{$}}
// ALL: pasta: site nvptx-line-filter.cu:21 func=_Z6squarePfi {{.*}} ld.global=1 ldB.global=4{{$}}
// ALL: pasta: site nvptx-line-filter.cu:22 func=_Z6squarePfi {{.*}} st.global=1 stB.global=4 flop.f32=1{{$}}

// NONE: warning: pasta: PASTA_LINES '{{.*}}' selects nothing to count in {{.*}}nvptx-line-filter.cu
// NONE-NOT: pasta: site

// KERNELS-NOT: func {{.*}}scale
// KERNELS: pasta: func _Z6squarePfi kind=kernel
// KERNELS-NOT: func {{.*}}scale
