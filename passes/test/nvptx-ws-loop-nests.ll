; An access in a counted loop that runs in every iteration of an outer
; counted loop has its page flags set once for the whole nest, in front of
; the inner loop in the outer loop's first iteration
; (__pasta_ws_mark_nest, a state cleared in the outer loop's preheader);
; where that call cannot (the rows are not one progression in one
; allocation, hotness counted), each iteration marks its own row
; (__pasta_ws_mark_loop, state 2). Nests where the inner loop may not run
; in every iteration, or not as often, or where the outer loop can leave
; early, keep one mark per entry of the inner loop.
; (-pasta-ws-loop-min-trips=1: every count, for the marks made at each entry
; of a loop; nvptx-ws-loop-guard.ll has the minimum.)
; RUN: %opt -passes=pasta-count -pasta-ws-loop-min-trips=1 -pasta-ws-loop-marks-after=0 -pasta-link-runtime=0 -S %s | FileCheck %s
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; kmeans' centroids: row c of nf floats at index c * nf + f, the inner loop
; behind a test of nf that is the same in every iteration of the outer.
define ptx_kernel void @one_index(ptr addrspace(1) %cent, ptr addrspace(1) %out, i32 %nc, i32 %nf) {
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

; Rows of a matrix a pitch apart: the inner loop's base moves (a 64-bit
; pointer recurrence of the outer loop), its index does not.
define ptx_kernel void @pitched_rows(ptr addrspace(1) %a, i64 %pitch, i32 %rows, i32 %w) {
entry:
  %wide.w = zext i32 %w to i64
  br label %outer

outer:
  %r = phi i32 [ 0, %entry ], [ %r.next, %outer.latch ]
  %rowp = phi ptr addrspace(1) [ %a, %entry ], [ %rowp.next, %outer.latch ]
  br label %inner

inner:
  %x = phi i64 [ 0, %outer ], [ %x.next, %inner ]
  %p = getelementptr inbounds float, ptr addrspace(1) %rowp, i64 %x
  store float 1.0, ptr addrspace(1) %p
  %x.next = add nuw nsw i64 %x, 1
  %xdone = icmp eq i64 %x.next, %wide.w
  br i1 %xdone, label %outer.latch, label %inner

outer.latch:
  %rowp.next = getelementptr inbounds float, ptr addrspace(1) %rowp, i64 %pitch
  %r.next = add nuw nsw i32 %r, 1
  %rdone = icmp eq i32 %r.next, %rows
  br i1 %rdone, label %exit, label %outer

exit:
  ret void
}

; The inner loop runs only in even iterations of the outer one.
define ptx_kernel void @guard_varies(ptr addrspace(1) %cent, i32 %nc, i32 %nf) {
entry:
  br label %outer

outer:
  %c = phi i32 [ 0, %entry ], [ %c.next, %outer.latch ]
  %odd = and i32 %c, 1
  %even = icmp eq i32 %odd, 0
  br i1 %even, label %inner.ph, label %outer.latch

inner.ph:
  %row = mul nsw i32 %c, %nf
  br label %inner

inner:
  %f = phi i32 [ 0, %inner.ph ], [ %f.next, %inner ]
  %idx = add nsw i32 %row, %f
  %wide = zext i32 %idx to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %cent, i64 %wide
  store float 1.0, ptr addrspace(1) %p
  %f.next = add nuw nsw i32 %f, 1
  %fdone = icmp eq i32 %f.next, %nf
  br i1 %fdone, label %outer.latch, label %inner

outer.latch:
  %c.next = add nuw nsw i32 %c, 1
  %cdone = icmp eq i32 %c.next, %nc
  br i1 %cdone, label %exit, label %outer

exit:
  ret void
}

; The outer loop can leave before the inner loop (a found flag).
define ptx_kernel void @outer_leaves_early(ptr addrspace(1) %cent, ptr addrspace(1) %stop, i32 %nc, i32 %nf) {
entry:
  br label %outer

outer:
  %c = phi i32 [ 0, %entry ], [ %c.next, %outer.latch ]
  %sp = getelementptr inbounds i32, ptr addrspace(1) %stop, i32 %c
  %sv = load i32, ptr addrspace(1) %sp
  %found = icmp ne i32 %sv, 0
  br i1 %found, label %exit, label %inner.ph

inner.ph:
  %row = mul nsw i32 %c, %nf
  br label %inner

inner:
  %f = phi i32 [ 0, %inner.ph ], [ %f.next, %inner ]
  %idx = add nsw i32 %row, %f
  %wide = zext i32 %idx to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %cent, i64 %wide
  store float 1.0, ptr addrspace(1) %p
  %f.next = add nuw nsw i32 %f, 1
  %fdone = icmp eq i32 %f.next, %nf
  br i1 %fdone, label %outer.latch, label %inner

outer.latch:
  %c.next = add nuw nsw i32 %c, 1
  %cdone = icmp eq i32 %c.next, %nc
  br i1 %cdone, label %exit, label %outer

exit:
  ret void
}

; A triangle: the inner loop runs c + 1 times in iteration c.
define ptx_kernel void @triangle(ptr addrspace(1) %m, i32 %n) {
entry:
  br label %outer

outer:
  %c = phi i32 [ 0, %entry ], [ %c.next, %outer.latch ]
  %row = mul nsw i32 %c, %n
  br label %inner

inner:
  %f = phi i32 [ 0, %outer ], [ %f.next, %inner ]
  %idx = add nsw i32 %row, %f
  %wide = zext i32 %idx to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %m, i64 %wide
  store float 1.0, ptr addrspace(1) %p
  %f.next = add nuw nsw i32 %f, 1
  %fdone = icmp ugt i32 %f.next, %c
  br i1 %fdone, label %outer.latch, label %inner

outer.latch:
  %c.next = add nuw nsw i32 %c, 1
  %cdone = icmp eq i32 %c.next, %n
  br i1 %cdone, label %exit, label %outer

exit:
  ret void
}

; A switch on the outer counter before the inner loop.
define ptx_kernel void @sw_variant(ptr addrspace(1) %cent, i32 %nc, i32 %nf) {
entry:
  br label %outer
outer:
  %c = phi i32 [ 0, %entry ], [ %c.next, %outer.latch ]
  switch i32 %c, label %inner.ph [ i32 3, label %outer.latch ]
inner.ph:
  %row = mul nsw i32 %c, %nf
  br label %inner
inner:
  %f = phi i32 [ 0, %inner.ph ], [ %f.next, %inner ]
  %idx = add nsw i32 %row, %f
  %wide = sext i32 %idx to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %cent, i64 %wide
  store float 1.0, ptr addrspace(1) %p
  %f.next = add nuw nsw i32 %f, 1
  %fdone = icmp eq i32 %f.next, %nf
  br i1 %fdone, label %outer.latch, label %inner
outer.latch:
  %c.next = add nuw nsw i32 %c, 1
  %cdone = icmp eq i32 %c.next, %nc
  br i1 %cdone, label %exit, label %outer
exit:
  ret void
}

; A loop before the inner one with two exits, its exit test varying.
define ptx_kernel void @box_two_exits(ptr addrspace(1) %cent, ptr addrspace(1) %q, i32 %nc, i32 %nf) {
entry:
  br label %outer
outer:
  %c = phi i32 [ 0, %entry ], [ %c.next, %outer.latch ]
  br label %box
box:
  %i = phi i32 [ 0, %outer ], [ %i.next, %box.latch ]
  %qp = getelementptr inbounds i32, ptr addrspace(1) %q, i32 %i
  %qv = load i32, ptr addrspace(1) %qp
  %stop = icmp eq i32 %qv, %c
  br i1 %stop, label %outer.latch, label %box.latch
box.latch:
  %i.next = add nuw nsw i32 %i, 1
  %idone = icmp eq i32 %i.next, 4
  br i1 %idone, label %inner.ph, label %box
inner.ph:
  %row = mul nsw i32 %c, %nf
  br label %inner
inner:
  %f = phi i32 [ 0, %inner.ph ], [ %f.next, %inner ]
  %idx = add nsw i32 %row, %f
  %wide = sext i32 %idx to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %cent, i64 %wide
  store float 1.0, ptr addrspace(1) %p
  %f.next = add nuw nsw i32 %f, 1
  %fdone = icmp eq i32 %f.next, %nf
  br i1 %fdone, label %outer.latch, label %inner
outer.latch:
  %c.next = add nuw nsw i32 %c, 1
  %cdone = icmp eq i32 %c.next, %nc
  br i1 %cdone, label %exit, label %outer
exit:
  ret void
}

; The nest inside another loop g, and before the inner loop a loop of one
; exit block whose own branch varies (a box: it always leaves to one block).
define ptx_kernel void @in_g(ptr addrspace(1) %cent, ptr addrspace(1) %q, i32 %ng, i32 %nc, i32 %nf) {
entry:
  br label %g
g:
  %gi = phi i32 [ 0, %entry ], [ %gi.next, %g.latch ]
  br label %outer
outer:
  %c = phi i32 [ 0, %g ], [ %c.next, %outer.latch ]
  br label %box
box:
  %i = phi i32 [ 0, %outer ], [ %i.next, %box.latch ]
  %qp = getelementptr inbounds i32, ptr addrspace(1) %q, i32 %i
  %qv = load i32, ptr addrspace(1) %qp
  %skip = icmp eq i32 %qv, %c
  br i1 %skip, label %box.latch, label %box.mid
box.mid:
  br label %box.latch
box.latch:
  %i.next = add nuw nsw i32 %i, 1
  %idone = icmp eq i32 %i.next, 4
  br i1 %idone, label %inner.ph, label %box
inner.ph:
  %row = mul nsw i32 %c, %nf
  br label %inner
inner:
  %f = phi i32 [ 0, %inner.ph ], [ %f.next, %inner ]
  %idx = add nsw i32 %row, %f
  %wide = sext i32 %idx to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %cent, i64 %wide
  store float 1.0, ptr addrspace(1) %p
  %f.next = add nuw nsw i32 %f, 1
  %fdone = icmp eq i32 %f.next, %nf
  br i1 %fdone, label %outer.latch, label %inner
outer.latch:
  %c.next = add nuw nsw i32 %c, 1
  %cdone = icmp eq i32 %c.next, %nc
  br i1 %cdone, label %g.latch, label %outer
g.latch:
  %gi.next = add nuw nsw i32 %gi, 1
  %gdone = icmp eq i32 %gi.next, %ng
  br i1 %gdone, label %exit, label %g
exit:
  ret void
}

declare void @ext()
; A call in the outer loop that may not return.
define ptx_kernel void @unknown_call(ptr addrspace(1) %cent, i32 %nc, i32 %nf) {
entry:
  br label %outer
outer:
  %c = phi i32 [ 0, %entry ], [ %c.next, %outer.latch ]
  call void @ext()
  %row = mul nsw i32 %c, %nf
  br label %inner
inner:
  %f = phi i32 [ 0, %outer ], [ %f.next, %inner ]
  %idx = add nsw i32 %row, %f
  %wide = sext i32 %idx to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %cent, i64 %wide
  store float 1.0, ptr addrspace(1) %p
  %f.next = add nuw nsw i32 %f, 1
  %fdone = icmp eq i32 %f.next, %nf
  br i1 %fdone, label %outer.latch, label %inner
outer.latch:
  %c.next = add nuw nsw i32 %c, 1
  %cdone = icmp eq i32 %c.next, %nc
  br i1 %cdone, label %exit, label %outer
exit:
  ret void
}

; The base and the index's start both move in the outer loop.
define ptx_kernel void @both_move(ptr addrspace(1) %cent, i32 %nc, i32 %nf) {
entry:
  br label %outer
outer:
  %c = phi i32 [ 0, %entry ], [ %c.next, %outer.latch ]
  %rowp = getelementptr inbounds float, ptr addrspace(1) %cent, i32 %c
  br label %inner
inner:
  %f = phi i32 [ %c, %outer ], [ %f.next, %inner ]
  %wide = zext i32 %f to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %rowp, i64 %wide
  store float 1.0, ptr addrspace(1) %p
  %f.next = add i32 %f, 1
  %d = sub i32 %f.next, %c
  %fdone = icmp eq i32 %d, %nf
  br i1 %fdone, label %outer.latch, label %inner
outer.latch:
  %c.next = add nuw nsw i32 %c, 1
  %cdone = icmp eq i32 %c.next, %nc
  br i1 %cdone, label %exit, label %outer
exit:
  ret void
}
; A switch on a value computed in the outer loop but the same in each
; iteration.
define ptx_kernel void @sw_inv(ptr addrspace(1) %cent, i32 %nc, i32 %nf, i32 %mode) {
entry:
  br label %outer
outer:
  %c = phi i32 [ 0, %entry ], [ %c.next, %outer.latch ]
  %m2 = add i32 %mode, 1
  switch i32 %m2, label %inner.ph [ i32 3, label %outer.latch ]
inner.ph:
  %row = mul i32 %c, %nf
  br label %inner
inner:
  %f = phi i32 [ 0, %inner.ph ], [ %f.next, %inner ]
  %idx = add i32 %row, %f
  %wide = zext i32 %idx to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %cent, i64 %wide
  store float 1.0, ptr addrspace(1) %p
  %f.next = add nuw nsw i32 %f, 1
  %fdone = icmp eq i32 %f.next, %nf
  br i1 %fdone, label %outer.latch, label %inner
outer.latch:
  %c.next = add nuw nsw i32 %c, 1
  %cdone = icmp eq i32 %c.next, %nc
  br i1 %cdone, label %exit, label %outer
exit:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @one_index__pasta_ws(
; CHECK: %[[STATE:pasta.ws.nest.*]] = alloca i8
; CHECK: outer.preheader:
; CHECK: %[[ROWS:.*]] = add i32 %nc, -1
; CHECK: store i8 0, ptr %[[STATE]]
; CHECK: inner.ph:
; CHECK: %pasta.ws.trips = add i64 %{{.*}}, 1
; CHECK: %[[START:.*]] = zext i32 %{{.*}} to i64
; CHECK: %[[ROWS64:.*]] = zext i32 %[[ROWS]] to i64
; CHECK: %[[NROWS:pasta.ws.trips.*]] = add i64 %[[ROWS64]], 1
; CHECK: %[[PITCH:.*]] = sext i32 %nf to i64
; CHECK: %[[S0:.*]] = load i8, ptr %[[STATE]]
; CHECK: icmp eq i8 %[[S0]], 0
; The rows carry the index's start (0 at c = 0), bit 9 of their extension:
; one index, c * nf + f, zero-extended from 32 bits (0x220 = 544).
; CHECK: %[[NEST:.*]] = call i32 @__pasta_ws_mark_nest(ptr addrspace(1) %pasta.ws, ptr %{{.*}}, i64 4, i64 0, i64 1, i64 %pasta.ws.trips, i32 32, i64 4, i64 0, i64 %[[PITCH]], i64 %[[NROWS]], i32 544)
; CHECK: %[[OK:.*]] = icmp ne i32 %[[NEST]], 0
; CHECK: select i1 %[[OK]], i8 1, i8 2
; CHECK: %[[S1:.*]] = load i8, ptr %[[STATE]]
; CHECK: icmp eq i8 %[[S1]], 2
; CHECK: call i32 @__pasta_ws_mark_loop(ptr addrspace(1) %pasta.ws, ptr %{{.*}}, i64 4, i64 %[[START]], i64 1, i64 %pasta.ws.trips, i32 32, ptr addrspace(1) @__pasta_ws_batch{{.*}})
; CHECK: inner:
; CHECK-NOT: call {{.*}}@__pasta_ws_
; CHECK: br i1 %fdone

; CHECK-LABEL: define ptx_kernel void @pitched_rows__pasta_ws(
; CHECK: store i8 0, ptr %pasta.ws.nest
; The row's base moves by 4 * pitch bytes a row (a pointer recurrence:
; scale 1, 64 bits, sign bit 0x100 = 320).
; CHECK: call i32 @__pasta_ws_mark_nest(ptr addrspace(1) %pasta.ws, ptr %{{.*}}, i64 1, i64 0, i64 4, i64 %pasta.ws.trips, i32 320, i64 1, i64 0, i64 %{{.*}}, i64 %pasta.ws.trips{{.*}}, i32 320)
; CHECK: call i32 @__pasta_ws_mark_loop(
; CHECK: inner:
; CHECK-NOT: call {{.*}}@__pasta_ws_
; CHECK: br i1 %xdone

; CHECK-LABEL: define ptx_kernel void @guard_varies__pasta_ws(
; CHECK-NOT: @__pasta_ws_mark_nest
; CHECK: inner.ph:
; CHECK: call i32 @__pasta_ws_mark_loop(
; CHECK-NEXT: br label %inner
; CHECK-NOT: @__pasta_ws_mark_nest
; CHECK-LABEL: define ptx_kernel void @outer_leaves_early__pasta_ws(
; CHECK-NOT: @__pasta_ws_mark_nest
; CHECK: inner.ph:
; CHECK: call i32 @__pasta_ws_mark_loop(
; CHECK-NEXT: br label %inner
; CHECK-NOT: @__pasta_ws_mark_nest
; CHECK-LABEL: define ptx_kernel void @triangle__pasta_ws(
; CHECK-NOT: @__pasta_ws_mark_nest
; CHECK: call i32 @__pasta_ws_mark_loop(
; CHECK-NEXT: br label %inner
; CHECK-NOT: @__pasta_ws_mark_nest
; CHECK-LABEL: define ptx_kernel void @sw_variant__pasta_ws(
; CHECK-NOT: @__pasta_ws_mark_nest
; CHECK: call i32 @__pasta_ws_mark_loop(
; CHECK-NEXT: br label %inner
; CHECK-NOT: @__pasta_ws_mark_nest
; CHECK-LABEL: define ptx_kernel void @box_two_exits__pasta_ws(
; CHECK-NOT: @__pasta_ws_mark_nest
; CHECK: call i32 @__pasta_ws_mark_loop(
; CHECK-NEXT: br label %inner
; CHECK-NOT: @__pasta_ws_mark_nest
; The nest's state is cleared in front of the outer loop, inside g.
; CHECK-LABEL: define ptx_kernel void @in_g__pasta_ws(
; CHECK: g:
; CHECK: store i8 0, ptr %pasta.ws.nest
; CHECK-NEXT: br label %outer
; CHECK: call i32 @__pasta_ws_mark_nest(
; CHECK: call i32 @__pasta_ws_mark_loop(
; CHECK: inner:
; CHECK-NOT: call {{.*}}@__pasta_ws_
; CHECK: br i1 %fdone
; CHECK-LABEL: define ptx_kernel void @unknown_call__pasta_ws(
; CHECK-NOT: @__pasta_ws_mark_nest
; CHECK: call i32 @__pasta_ws_mark_loop(
; CHECK-NEXT: br label %inner
; CHECK-NOT: @__pasta_ws_mark_nest
; CHECK-LABEL: define ptx_kernel void @both_move__pasta_ws(
; CHECK-NOT: @__pasta_ws_mark_nest
; CHECK-LABEL: define ptx_kernel void @sw_inv__pasta_ws(
; CHECK: call i32 @__pasta_ws_mark_nest(
; CHECK: call i32 @__pasta_ws_mark_loop(
; CHECK: inner:
; CHECK-NOT: call {{.*}}@__pasta_ws_
; CHECK: br i1 %fdone
; CHECK: declare i32 @__pasta_ws_mark_nest(
