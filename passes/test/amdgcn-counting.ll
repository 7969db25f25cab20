; The same counting for amdgcn: AMD address spaces (1 global, 3 LDS, 5
; private, 4 constant, 0 flat), 64-wide wavefronts, and the device runtime
; linked and inlined (its 64-bit ballots and the relaxed atomic add).
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-place-counters=0 -pasta-print-sites -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=SITES < %t.err
; RUN: %opt -passes=pasta-count -pasta-inline-launch-count=0 -pasta-inline-first-block-flush=0 -pasta-place-counters=0 -S %s 2>/dev/null | FileCheck %s --check-prefix=LAUNCH

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@lds = internal addrspace(3) global [64 x float] poison

; SITES: pasta: func k kind=kernel calls=0
; SITES-NEXT: pasta: site ?:0 func=k counter=1 dyn=2 ld.global=1 ld.constant=2 ld.generic=1 st.shared=1 st.local=1 ldB.global=4 ldB.constant=12 ldB.generic=4 stB.shared=4 stB.local=4 flop.f32=3{{$}}
; SITES-NEXT: pasta: module counters=16

define amdgpu_kernel void @k(ptr addrspace(1) %in, ptr addrspace(4) %c, ptr addrspace(4) %table, i32 %i) {
  %slot = alloca float, align 4, addrspace(5)
  ; a pointer loaded from memory: flat, resolved at run time
  %flat = load ptr, ptr addrspace(4) %table
  %p = getelementptr float, ptr addrspace(1) %in, i32 %i
  %x = load float, ptr addrspace(1) %p
  %y = load float, ptr addrspace(4) %c
  %z = load float, ptr %flat
  %s = call float @llvm.fma.f32(float %x, float %y, float %z)
  %t = fadd float %s, %x
  %q = getelementptr [64 x float], ptr addrspace(3) @lds, i32 0, i32 %i
  store float %t, ptr addrspace(3) %q
  store float %t, ptr addrspace(5) %slot
  ret void
}

; The launch is counted at entry (target 2 = amdgcn in the descriptor); the
; flat load is classified at run time with the AMD intrinsics; the flush
; uses 64-bit wave ballots and an agent-scope atomic add.
; CHECK: @__pasta_desc_{{[0-9a-f]+}} = addrspace(1) constant {{.*}} { i32 1096045392, i32 22, i32 2, i32 4096, i32 1, i32 1, i32 16,
; CHECK-LABEL: define amdgpu_kernel void @k(
; CHECK: call void @__pasta_count_launch_first(ptr addrspace(1) noundef @__pasta_counters_{{[0-9a-f]+}})
; CHECK: call {{.*}}i1 @llvm.amdgcn.is.shared(ptr {{.*}}%flat)
; CHECK: call {{.*}}i1 @llvm.amdgcn.is.private(ptr {{.*}}%flat)
; CHECK: call {{.*}}i64 @llvm.amdgcn.ballot.i64(
; CHECK: atomicrmw add ptr addrspace(1) {{.*}} syncscope("agent") monotonic
; CHECK: ret void

declare float @llvm.fma.f32(float, float, float)

; LAUNCH-LABEL: define internal void @__pasta_count_launch_first(
; LAUNCH: atomicrmw add ptr addrspace(1) %0, i64 1 syncscope("agent") monotonic
