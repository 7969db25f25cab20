// A kernel's working-set copy takes the launch state twice (abi.h): its
// address, for the runtime's full path, then the state by value, a
// parameter of sizeof(struct pasta_ws_launch) = 1208 bytes. What the
// copy's accesses need of the state (the bank, hotness, the page shift,
// each pointer parameter's {base, end, flags} at 56 + 24 * k) is read from
// the parameter space (ld.param: the constant bank), with no global load
// of the state at all. A kernel whose own parameters leave no room for it
// under PTX's 4,096 bytes reads them through the address, as before.
// REQUIRES: cuda
// RUN: %cuda_device -O2 -S %s -o - | FileCheck %s

// CHECK-LABEL: .entry _Z3addPKfS0_Pfi__pasta_ws(
// CHECK: .param .u64 .ptr .global .align 1 _Z3addPKfS0_Pfi__pasta_ws_param_4,
// CHECK-NEXT: .param .align 8 .b8 _Z3addPKfS0_Pfi__pasta_ws_param_5[1208]
// CHECK-NEXT: )
// CHECK-NOT: ld.global.nc
// CHECK-DAG: ld.param.b32 {{.*}}[_Z3addPKfS0_Pfi__pasta_ws_param_5+36];
// CHECK-DAG: ld.param.b64 {{.*}}[{{.*}}+56];
// CHECK-DAG: ld.param.b64 {{.*}}[{{.*}}+80];
// CHECK-DAG: ld.param.b64 {{.*}}[{{.*}}+104];
// CHECK-NOT: ld.global.nc
__global__ void add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

// 3,040 bytes by value: with the state's address and the state, 4,256.
// CHECK-LABEL: .entry _Z3big3BigPf__pasta_ws(
// CHECK: .param .u64 .ptr .global .align 1 _Z3big3BigPf__pasta_ws_param_2
// CHECK-NEXT: )
// CHECK: ld.global.nc.b64 {{.*}}, [{{%rd[0-9]+}}+80];
struct Big {
  float v[760];
};

__global__ void big(Big s, float *out) {
  out[threadIdx.x] = s.v[threadIdx.x & 7];
}
