; A loop mark made at every entry of its loop (__pasta_ws_mark_loop,
; nvptx-ws-loop-marks.ll) costs more than the per-access marks it saves
; where the loop runs a few times (a Thrust transform's per-thread loop of
; 1-4 trips, 4 calls per thread). With the minimum (default 8 trips):
; - a count known at run time is tested in the preheader: the call runs
;   where it reaches 8, and the access keeps its mark in the loop, in a
;   batch of its own that runs where it does not (one branch per iteration);
; - a constant count below 8 keeps the marks in the loop, no call;
; - a constant count of 8 or more is marked in front as before, no test.
; Either way each access's page flag is set, by the call or by its own
; mark in the loop.
; RUN: %opt -passes=pasta-count -pasta-ws-loop-min-trips=8 -pasta-ws-loop-versions=0 -pasta-link-runtime=0 -S %s | FileCheck %s
; A minimum of 3: the constant count of 4 is marked in front.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-ws-loop-min-trips=3 -pasta-ws-loop-versions=0 -S %s | FileCheck %s --check-prefix=MIN3
; A compact copy (nvptx-ws-compact.ll) puts its guarded batch's one call
; under the same test.
; RUN: %opt -passes=pasta-count -pasta-ws-loop-min-trips=8 -pasta-ws-loop-versions=0 -pasta-link-runtime=0 -pasta-ws-compact-above=0 -S %s | FileCheck %s --check-prefix=COMPACT
; COMPACT-LABEL: define ptx_kernel void @mixed__pasta_ws(
; COMPACT: loop:
; COMPACT: %v = load i32
; COMPACT: %pasta.ws.loop.short = xor i1 %pasta.ws.loop.long, true
; COMPACT-NEXT: br i1 %pasta.ws.loop.short, label %[[SHORT:.*]], label %[[NEXT:.*]]
; COMPACT: [[SHORT]]:
; COMPACT-NEXT: addrspacecast ptr addrspace(1) %p to ptr
; COMPACT-NEXT: call void @__pasta_ws_mark_compact(
; COMPACT-NEXT: br label %[[NEXT]]
; COMPACT: [[NEXT]]:
; COMPACT-NEXT: store i32 %i, ptr addrspace(1) %q
; COMPACT-NOT: br
; COMPACT: call void @__pasta_ws_mark_compact(
; COMPACT-NEXT: br i1 %done
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @count_arg__pasta_ws(
; CHECK: %pasta.ws.trips = add i64 %{{.*}}, 1
; CHECK-NEXT: %pasta.ws.loop.long = icmp uge i64 %pasta.ws.trips, 8
; CHECK-NEXT: br i1 %pasta.ws.loop.long, label %[[CALL:.*]], label %[[PAST:.*]]
; CHECK: [[CALL]]:
; CHECK-NEXT: {{%.*}} = call i32 @__pasta_ws_mark_loop(ptr addrspace(1) %pasta.ws, ptr %{{.*}}, i64 1, i64 0, i64 4, i64 %pasta.ws.trips, i32 320, ptr addrspace(1) @__pasta_ws_batch{{.*}})
; CHECK-NEXT: br label %[[PAST]]
; In the loop: the store, then its own batch under the test; the range of
; %a is loaded in that batch, not in the preheader.
; CHECK: loop:
; CHECK-NOT: @__pasta_ws_
; CHECK: store float 1.0
; CHECK: %pasta.ws.loop.short = xor i1 %pasta.ws.loop.long, true
; CHECK-NEXT: br i1 %pasta.ws.loop.short, label %[[SHORT:.*]], label %[[NEXT:.*]]
; CHECK: [[SHORT]]:
; CHECK: load i64, {{.*}} !invariant.load
; CHECK: call i64 @__pasta_ws_flag_arg(
; CHECK-NEXT: call void @__pasta_ws_mark_args(
; CHECK-NEXT: br label %[[NEXT]]
; CHECK: [[NEXT]]:
; CHECK-NOT: @__pasta_ws_
; CHECK: br i1 %done
define ptx_kernel void @count_arg(ptr addrspace(1) %a, i32 %n) {
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

; Two accesses of the loop: the guarded load, and a store through a loaded
; index (no progression: marked in the loop always). Each has its batch: the
; load's under the test, the store's not.
; CHECK-LABEL: define ptx_kernel void @mixed__pasta_ws(
; CHECK: %pasta.ws.loop.long = icmp uge i64 %pasta.ws.trips, 8
; CHECK: call i32 @__pasta_ws_mark_loop(
; CHECK: loop:
; CHECK: %v = load i32
; CHECK: %pasta.ws.loop.short = xor i1 %pasta.ws.loop.long, true
; CHECK-NEXT: br i1 %pasta.ws.loop.short, label %[[SHORT:.*]], label %[[NEXT:.*]]
; CHECK: [[SHORT]]:
; CHECK: call void @__pasta_ws_mark_args(
; CHECK-NEXT: br label %[[NEXT]]
; CHECK: [[NEXT]]:
; CHECK-NEXT: store i32 %i, ptr addrspace(1) %q
; CHECK-NOT: br
; CHECK: call void @__pasta_ws_mark_args(
; CHECK-NOT: br
; CHECK: br i1 %done
define ptx_kernel void @mixed(ptr addrspace(1) %a, ptr addrspace(1) %b, i32 %n) {
entry:
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds i32, ptr addrspace(1) %a, i32 %i
  %v = load i32, ptr addrspace(1) %p
  %wide = sext i32 %v to i64
  %q = getelementptr inbounds i32, ptr addrspace(1) %b, i64 %wide
  store i32 %i, ptr addrspace(1) %q
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; Four trips: marked in the loop, no call, no test.
; CHECK-LABEL: define ptx_kernel void @four__pasta_ws(
; CHECK-NOT: @__pasta_ws_mark_loop
; CHECK-NOT: pasta.ws.loop.long
; CHECK: loop:
; CHECK: store float 1.0
; CHECK-NOT: br
; CHECK: call i64 @__pasta_ws_flag_arg(
; CHECK-NEXT: call void @__pasta_ws_mark_args(
; CHECK-NEXT: br i1 %done
; MIN3-LABEL: define ptx_kernel void @four__pasta_ws(
; MIN3: call i32 @__pasta_ws_mark_loop(ptr addrspace(1) %pasta.ws, ptr %{{.*}}, i64 1, i64 0, i64 4, i64 4,
; MIN3-NEXT: br label %loop
; MIN3: loop:
; MIN3-NOT: @__pasta_ws_
; MIN3: br i1 %done
define ptx_kernel void @four(ptr addrspace(1) %a) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i32 %i
  store float 1.0, ptr addrspace(1) %p
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, 4
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; Sixty-four trips: marked in front, no test, nothing in the loop.
; CHECK-LABEL: define ptx_kernel void @sixty_four__pasta_ws(
; CHECK-NOT: pasta.ws.loop.long
; CHECK: call i32 @__pasta_ws_mark_loop(ptr addrspace(1) %pasta.ws, ptr %{{.*}}, i64 1, i64 0, i64 4, i64 64,
; CHECK-NEXT: br label %loop
; CHECK: loop:
; CHECK-NOT: @__pasta_ws_
; CHECK: br i1 %done
define ptx_kernel void @sixty_four(ptr addrspace(1) %a) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i32 %i
  store float 1.0, ptr addrspace(1) %p
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, 64
  br i1 %done, label %exit, label %loop

exit:
  ret void
}
