; A divergence copy that, with the functions it calls, makes more calls of
; the divergence helpers than -pasta-div-uncapped-max-measures (default 50)
; gets a stub in its uncapped twin's place, as one with out-of-line access
; calls does (nvptx-divergence-uncapped-stub.ll): the helpers are inlined,
; ptxas's time on a copy grows with them, and a full twin costs it as much
; again. @gather's copy makes 20 lanes-helper calls and the adds of their
; figures (far above 50); @small's a few (under 10).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-uncapped-max-measures=1000 -S %s 2>/dev/null | FileCheck %s --check-prefix=TWINS
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-uncapped-max-measures=2 -S %s 2>/dev/null | FileCheck %s --check-prefix=STUBS

; The capped copies keep their bodies and caps; @gather's twin is a stub
; (one-thread blocks: the runtime never launches it), @small's a full copy.
; CHECK: define ptx_kernel void @gather__pasta_div(ptr %tab, ptr %out) [[CAPPED:#[0-9]+]]
; CHECK: call i32 @__pasta_div_access_lanes(
; CHECK: define ptx_kernel void @gather__pasta_divu(ptr %tab, ptr %out) [[STUB:#[0-9]+]] {
; CHECK-NEXT: ret void
; CHECK-NEXT: }
; CHECK: define ptx_kernel void @small__pasta_divu(ptr %a) [[TWIN:#[0-9]+]]
; CHECK: call i32 @__pasta_div_access
; CHECK: ret void
; CHECK-DAG: attributes [[CAPPED]] = { "nvvm.maxnreg"="{{[0-9]+}}" "pasta-variant" }
; CHECK-DAG: attributes [[STUB]] = { "nvvm.maxntid"="1" "pasta-variant" }
; CHECK-DAG: attributes [[TWIN]] = { "pasta-variant" }

; TWINS: define ptx_kernel void @gather__pasta_divu(ptr %tab, ptr %out) [[TWIN:#[0-9]+]]
; TWINS: call i32 @__pasta_div_access_lanes(
; TWINS: define ptx_kernel void @small__pasta_divu(ptr %a) [[TWIN]]
; TWINS: call i32 @__pasta_div_access
; TWINS: attributes [[TWIN]] = { "pasta-variant" }

; STUBS: define ptx_kernel void @gather__pasta_divu(ptr %tab, ptr %out) [[STUB:#[0-9]+]] {
; STUBS-NEXT: ret void
; STUBS: define ptx_kernel void @small__pasta_divu(ptr %a) [[STUB]] {
; STUBS-NEXT: ret void
; STUBS: attributes [[STUB]] = { "nvvm.maxntid"="1" "pasta-variant" }

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; @gather: 20 loads, each through its own pointer read from %tab (no two
; a constant apart, no kernel argument's twin): 20 access groups, measured
; inline (32 or fewer), each call of the lanes helper followed by the adds
; of its figures.
define ptx_kernel void @gather(ptr %tab, ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
  %p0.at = getelementptr ptr, ptr %tab, i64 0
  %p0 = load ptr, ptr %p0.at
  %a0 = getelementptr float, ptr %p0, i64 %i
  %v0 = load float, ptr %a0
  %s0 = fadd float 0.0, %v0
  %p1.at = getelementptr ptr, ptr %tab, i64 1
  %p1 = load ptr, ptr %p1.at
  %a1 = getelementptr float, ptr %p1, i64 %i
  %v1 = load float, ptr %a1
  %s1 = fadd float %s0, %v1
  %p2.at = getelementptr ptr, ptr %tab, i64 2
  %p2 = load ptr, ptr %p2.at
  %a2 = getelementptr float, ptr %p2, i64 %i
  %v2 = load float, ptr %a2
  %s2 = fadd float %s1, %v2
  %p3.at = getelementptr ptr, ptr %tab, i64 3
  %p3 = load ptr, ptr %p3.at
  %a3 = getelementptr float, ptr %p3, i64 %i
  %v3 = load float, ptr %a3
  %s3 = fadd float %s2, %v3
  %p4.at = getelementptr ptr, ptr %tab, i64 4
  %p4 = load ptr, ptr %p4.at
  %a4 = getelementptr float, ptr %p4, i64 %i
  %v4 = load float, ptr %a4
  %s4 = fadd float %s3, %v4
  %p5.at = getelementptr ptr, ptr %tab, i64 5
  %p5 = load ptr, ptr %p5.at
  %a5 = getelementptr float, ptr %p5, i64 %i
  %v5 = load float, ptr %a5
  %s5 = fadd float %s4, %v5
  %p6.at = getelementptr ptr, ptr %tab, i64 6
  %p6 = load ptr, ptr %p6.at
  %a6 = getelementptr float, ptr %p6, i64 %i
  %v6 = load float, ptr %a6
  %s6 = fadd float %s5, %v6
  %p7.at = getelementptr ptr, ptr %tab, i64 7
  %p7 = load ptr, ptr %p7.at
  %a7 = getelementptr float, ptr %p7, i64 %i
  %v7 = load float, ptr %a7
  %s7 = fadd float %s6, %v7
  %p8.at = getelementptr ptr, ptr %tab, i64 8
  %p8 = load ptr, ptr %p8.at
  %a8 = getelementptr float, ptr %p8, i64 %i
  %v8 = load float, ptr %a8
  %s8 = fadd float %s7, %v8
  %p9.at = getelementptr ptr, ptr %tab, i64 9
  %p9 = load ptr, ptr %p9.at
  %a9 = getelementptr float, ptr %p9, i64 %i
  %v9 = load float, ptr %a9
  %s9 = fadd float %s8, %v9
  %p10.at = getelementptr ptr, ptr %tab, i64 10
  %p10 = load ptr, ptr %p10.at
  %a10 = getelementptr float, ptr %p10, i64 %i
  %v10 = load float, ptr %a10
  %s10 = fadd float %s9, %v10
  %p11.at = getelementptr ptr, ptr %tab, i64 11
  %p11 = load ptr, ptr %p11.at
  %a11 = getelementptr float, ptr %p11, i64 %i
  %v11 = load float, ptr %a11
  %s11 = fadd float %s10, %v11
  %p12.at = getelementptr ptr, ptr %tab, i64 12
  %p12 = load ptr, ptr %p12.at
  %a12 = getelementptr float, ptr %p12, i64 %i
  %v12 = load float, ptr %a12
  %s12 = fadd float %s11, %v12
  %p13.at = getelementptr ptr, ptr %tab, i64 13
  %p13 = load ptr, ptr %p13.at
  %a13 = getelementptr float, ptr %p13, i64 %i
  %v13 = load float, ptr %a13
  %s13 = fadd float %s12, %v13
  %p14.at = getelementptr ptr, ptr %tab, i64 14
  %p14 = load ptr, ptr %p14.at
  %a14 = getelementptr float, ptr %p14, i64 %i
  %v14 = load float, ptr %a14
  %s14 = fadd float %s13, %v14
  %p15.at = getelementptr ptr, ptr %tab, i64 15
  %p15 = load ptr, ptr %p15.at
  %a15 = getelementptr float, ptr %p15, i64 %i
  %v15 = load float, ptr %a15
  %s15 = fadd float %s14, %v15
  %p16.at = getelementptr ptr, ptr %tab, i64 16
  %p16 = load ptr, ptr %p16.at
  %a16 = getelementptr float, ptr %p16, i64 %i
  %v16 = load float, ptr %a16
  %s16 = fadd float %s15, %v16
  %p17.at = getelementptr ptr, ptr %tab, i64 17
  %p17 = load ptr, ptr %p17.at
  %a17 = getelementptr float, ptr %p17, i64 %i
  %v17 = load float, ptr %a17
  %s17 = fadd float %s16, %v17
  %p18.at = getelementptr ptr, ptr %tab, i64 18
  %p18 = load ptr, ptr %p18.at
  %a18 = getelementptr float, ptr %p18, i64 %i
  %v18 = load float, ptr %a18
  %s18 = fadd float %s17, %v18
  %p19.at = getelementptr ptr, ptr %tab, i64 19
  %p19 = load ptr, ptr %p19.at
  %a19 = getelementptr float, ptr %p19, i64 %i
  %v19 = load float, ptr %a19
  %s19 = fadd float %s18, %v19
  %o = getelementptr float, ptr %out, i64 %i
  store float %s19, ptr %o
  ret void
}

; @small: one load and one store: a few helper calls.
define ptx_kernel void @small(ptr %a) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
  %p = getelementptr float, ptr %a, i64 %i
  %v = load float, ptr %p
  %w = fmul float %v, 2.0
  store float %w, ptr %p
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
