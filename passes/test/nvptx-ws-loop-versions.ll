; Working-set copies, -pasta-ws-loop-min-trips above 1: a loop whose count
; is known only at run time is versioned in front of it.
; Where it runs the minimum or more, the loop
; itself, its accesses marked by one call in front and nothing in it (the
; loop bicg_s runs); else a copy of it (".short"), each access marked in it
; and no call. Values read after the loop come from either (the exit's phi).
; -pasta-ws-loop-versions=0: one loop, its marks under a test in every
; iteration (nvptx-ws-loop-guard.ll).
; RUN: %opt -passes=pasta-count -pasta-ws-loop-min-trips=8 -pasta-link-runtime=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-ws-loop-min-trips=8 -pasta-ws-loop-versions=0 -pasta-link-runtime=0 -S %s | FileCheck %s --check-prefix=GUARD
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CUB transform's shape: n elements per thread, n a kernel argument; the
; sum read after the loop.
define ptx_kernel void @sum_arg(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %n) {
entry:
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i32 %i
  %v = load float, ptr addrspace(1) %p
  %s.next = fadd float %s, %v
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %r = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  store float %r, ptr addrspace(1) %out
  ret void
}

; 16 trips, a constant: marked in front, no copy.
define ptx_kernel void @sixteen(ptr addrspace(1) %a) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i32 %i
  store float 1.0, ptr addrspace(1) %p
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, 16
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @sum_arg__pasta_ws(
; CHECK: %pasta.ws.trips = add i64 %{{.*}}, 1
; CHECK-NEXT: %pasta.ws.loop.long = icmp uge i64 %pasta.ws.trips, 8
; CHECK-NEXT: br i1 %pasta.ws.loop.long, label %[[LONG:.*]], label %[[SHORTPH:.*]]
; The short copy: the load marked in it, no call in front.
; CHECK: [[SHORTPH]]:
; CHECK-NOT: @__pasta_ws_mark_loop
; CHECK: loop.short:
; CHECK: %v.short = load float
; CHECK: call i64 @__pasta_ws_flag_arg(
; CHECK-NEXT: call void @__pasta_ws_mark_args(
; CHECK: br i1 %done.short, label %[[EXIT:.*]], label %loop.short
; The loop itself: one call in front, nothing in it.
; CHECK: [[LONG]]:
; CHECK: call i32 @__pasta_ws_mark_loop(ptr addrspace(1) %pasta.ws, ptr %{{.*}}, i64 1, i64 0, i64 4, i64 %{{.*}}, i32 320,
; CHECK-NEXT: br label %loop
; CHECK: loop:
; CHECK-NOT: @__pasta_ws_
; CHECK-NOT: pasta.ws.loop
; CHECK: br i1 %done, label %[[EXIT]], label %loop
; CHECK: [[EXIT]]:
; CHECK-NEXT: %[[SUM:.*]] = phi float [ %s.next, %loop ], [ %s.next.short, %loop.short ]
; CHECK: %r = phi float [ 0.000000e+00, %entry ], [ %[[SUM]], %[[EXIT]] ]

; A constant count of 16: one call in front, no copy.
; CHECK-LABEL: define ptx_kernel void @sixteen__pasta_ws(
; CHECK-NOT: .short:
; CHECK: call i32 @__pasta_ws_mark_loop(ptr addrspace(1) %pasta.ws, ptr %{{.*}}, i64 1, i64 0, i64 4, i64 16, i32 320,
; CHECK-NOT: .short:
; CHECK: ret void

; GUARD-LABEL: define ptx_kernel void @sum_arg__pasta_ws(
; GUARD-NOT: .short:
; GUARD: %pasta.ws.loop.short = xor i1 %pasta.ws.loop.long, true
; GUARD-NOT: .short:
; GUARD: ret void
