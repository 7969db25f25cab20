// Code written for nvcc that stores with cache hints (__stcs, __stcg,
// __stwb, __stwt): clang's CUDA headers lack most of them, so without
// driver/nvcc_host_compat.h this stops at "no matching function for call to
// '__stcs'". Built by ctest nvcc-store-hints through pasta-nvcc to PTX for
// sm_90 and checked with FileCheck: each call is the hinted store nvcc emits.

// CHECK-LABEL: .entry _Z11store_hintsPfPiPlP6float4P7double2Ph
__global__ void store_hints(float *f, int *i, long *l, float4 *v, double2 *d,
                            unsigned char *b) {
  unsigned t = threadIdx.x;
  // CHECK-DAG: st.global.cs.f32
  __stcs(f + t, 1.5f);
  // CHECK-DAG: st.global.cg.s32
  __stcg(i + t, (int)t);
  // CHECK-DAG: st.global.wb.s64
  __stwb(l + t, (long)t);
  // CHECK-DAG: st.global.wt.s64
  __stwt(l + t + 64, -(long)t);
  // CHECK-DAG: st.global.cs.v4.f32
  __stcs(v + t, make_float4(1.f, 2.f, 3.f, 4.f));
  // CHECK-DAG: st.global.cg.v2.f64
  __stcg(d + t, make_double2(1.0, 2.0));
  // CHECK-DAG: st.global.cs.u8
  __stcs(b + t, (unsigned char)t);
}
