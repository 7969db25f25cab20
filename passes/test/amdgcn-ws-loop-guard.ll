; The working-set copy for amdgcn, with the device runtime linked: a loop
; whose count is known only at run time is marked in front
; (__pasta_ws_mark_loop, out of line) where it runs at least 8 times
; (-pasta-ws-loop-min-trips), and in the loop, its flag read and set inline,
; where it runs fewer (nvptx-ws-loop-guard.ll).
; RUN: %opt -passes=pasta-count -pasta-ws-loop-min-trips=8 -pasta-ws-loop-versions=0 -S %s | FileCheck %s

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @row(ptr addrspace(1) %a, i32 %n) {
entry:
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i32 %i
  store float 1.0, ptr addrspace(1) %p
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define amdgpu_kernel void @row__pasta_ws(
; CHECK: %pasta.ws.trips = add i64 %{{.*}}, 1
; CHECK-NEXT: %pasta.ws.loop.long = icmp uge i64 %pasta.ws.trips, 8
; CHECK-NEXT: br i1 %pasta.ws.loop.long, label %[[CALL:.*]], label %[[PAST:.*]]
; CHECK: [[CALL]]:
; CHECK-NEXT: {{%.*}} = call i32 @__pasta_ws_mark_loop(ptr addrspace(1) %pasta.ws, ptr %{{.*}}, i64 1, i64 0, i64 4, i64 %pasta.ws.trips, i32 320, ptr addrspace(1) @__pasta_ws_batch{{.*}})
; CHECK: loop:
; CHECK: store float 1.0
; CHECK: %pasta.ws.loop.short = xor i1 %pasta.ws.loop.long, true
; CHECK-NEXT: br i1 %pasta.ws.loop.short, label %[[SHORT:.*]], label %[[NEXT:.*]]
; CHECK: [[SHORT]]:
; CHECK-NOT: call {{.*}}@__pasta_ws_mark_loop
; CHECK-NOT: load i8, ptr addrspace(1)
; CHECK: store i8 1, ptr addrspace(1)
; CHECK: [[NEXT]]:
; CHECK-NEXT: br i1 %done
; CHECK: define {{.*}}i32 @__pasta_ws_mark_loop(
