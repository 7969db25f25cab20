// The whole-program test of nvptx-callee-whole-program.ll through clang,
// whose command line decides: without -fgpu-rdc no other module can call
// step, so its original (counted for other modules) goes and only its
// twin, which the kernel calls, is compiled; with -fgpu-rdc it stays; the
// last of -fgpu-rdc and -fno-gpu-rdc counts; an override that may hold
// the flag leaves it too, and so does -fopenmp (OpenMP offload's device
// code is always linked, with no -fgpu-rdc to say so).
// REQUIRES: cuda
// RUN: %cuda_device -O2 -g -S -emit-llvm %s -o - -mllvm -pasta-link-runtime=0 | FileCheck %s --check-prefix=WHOLE
// RUN: %cuda_device -O2 -g -S -emit-llvm %s -o - -mllvm -pasta-link-runtime=0 -fgpu-rdc | FileCheck %s --check-prefix=RDC
// RUN: %cuda_device -O2 -g -S -emit-llvm %s -o - -mllvm -pasta-link-runtime=0 -fgpu-rdc -fno-gpu-rdc | FileCheck %s --check-prefix=WHOLE
// RUN: %cuda_device -O2 -g -S -emit-llvm %s -o - -mllvm -pasta-link-runtime=0 -fopenmp | FileCheck %s --check-prefix=RDC
// RUN: env CCC_OVERRIDE_OPTIONS=+-g %cuda_device -O2 -S -emit-llvm %s -o - -mllvm -pasta-link-runtime=0 | FileCheck %s --check-prefix=RDC

// WHOLE-NOT: define {{.*}} @_Z4stepPfi(
// WHOLE: define {{.*}} @_Z4stepPfi__pasta_callee(
// WHOLE-NOT: define {{.*}} @_Z4stepPfi(
// RDC-DAG: define {{.*}} @_Z4stepPfi(
// RDC-DAG: define {{.*}} @_Z4stepPfi__pasta_callee(

__device__ __noinline__ void step(float *p, int i) {
  if (i > 0)
    p[i] += 1.0f;
}

__global__ void kernel(float *p, int n) {
  step(p, n);
}
