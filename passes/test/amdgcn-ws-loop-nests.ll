; The working-set copy for amdgcn covers a loop nest with one call
; (__pasta_ws_mark_nest, nvptx-ws-loop-nests.ll), with the device runtime
; linked: the calls stay out of line and nothing is marked in the loop.
; RUN: %opt -passes=pasta-count -pasta-ws-loop-marks-after=0 -S %s | FileCheck %s

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; kmeans' centroids (nvptx-ws-loop-nests.ll's @one_index).
define amdgpu_kernel void @one_index(ptr addrspace(1) %cent, ptr addrspace(1) %out, i32 %nc, i32 %nf) {
entry:
  %anyc = icmp sgt i32 %nc, 0
  %anyf = icmp sgt i32 %nf, 0
  br i1 %anyc, label %outer, label %exit

outer:
  %c = phi i32 [ 0, %entry ], [ %c.next, %outer.latch ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %outer.latch ]
  br i1 %anyf, label %inner.ph, label %outer.latch

inner.ph:
  %row = mul nsw i32 %c, %nf
  br label %inner

inner:
  %f = phi i32 [ 0, %inner.ph ], [ %f.next, %inner ]
  %s = phi float [ %acc, %inner.ph ], [ %s.next, %inner ]
  %idx = add nsw i32 %row, %f
  %wide = zext i32 %idx to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %cent, i64 %wide
  %v = load float, ptr addrspace(1) %p
  %s.next = fadd float %s, %v
  %f.next = add nuw nsw i32 %f, 1
  %fdone = icmp eq i32 %f.next, %nf
  br i1 %fdone, label %outer.latch, label %inner

outer.latch:
  %acc.next = phi float [ %acc, %outer ], [ %s.next, %inner ]
  %c.next = add nuw nsw i32 %c, 1
  %cdone = icmp eq i32 %c.next, %nc
  br i1 %cdone, label %exit, label %outer

exit:
  %r = phi float [ 0.0, %entry ], [ %acc.next, %outer.latch ]
  store float %r, ptr addrspace(1) %out
  ret void
}

; CHECK-LABEL: define amdgpu_kernel void @one_index__pasta_ws(
; CHECK: inner.ph:
; CHECK: call i32 @__pasta_ws_mark_nest(ptr addrspace(1) %pasta.ws, ptr %{{.*}}, i64 4, i64 0, i64 1, i64 %pasta.ws.trips, i32 32, i64 4, i64 0, i64 %{{.*}}, i64 %{{.*}}, i32 544)
; CHECK: call i32 @__pasta_ws_mark_loop(
; CHECK: inner:
; CHECK-NOT: call {{.*}}@__pasta_ws_
; CHECK: br i1 %fdone
; CHECK: define {{.*}}i32 @__pasta_ws_mark_nest(
