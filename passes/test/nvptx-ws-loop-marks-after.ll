; Working-set copies: a loop's mark that covers the iterations of an outer
; loop (its operands do not change there, or a nest) is made where the
; outer loop is left, not in it: in kmeans'
; cluster loop the calls held every value of the loop live across them.
; It runs where the inner loop's preheader ran in one iteration at least,
; the loop's mark as many times over as it ran (each would have counted
; again where it counted: outside every allocation, hotness).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-ws-loop-marks-after=0 -S %s | FileCheck %s --check-prefix=OFF
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; kmeans' shape: features[f * n + p] does not change in the cluster loop
; (a loop's mark for every cluster), centroids[c * nf + f] is a nest.
define ptx_kernel void @kmeans(ptr addrspace(1) %feat, ptr addrspace(1) %cent, ptr addrspace(1) %out, i32 %n, i32 %p, i32 %nc, i32 %nf) {
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
  %fi = mul nsw i32 %f, %n
  %fip = add nsw i32 %fi, %p
  %fw = sext i32 %fip to i64
  %fp = getelementptr inbounds float, ptr addrspace(1) %feat, i64 %fw
  %x = load float, ptr addrspace(1) %fp
  %idx = add nsw i32 %row, %f
  %wide = zext i32 %idx to i64
  %cp = getelementptr inbounds float, ptr addrspace(1) %cent, i64 %wide
  %v = load float, ptr addrspace(1) %cp
  %d = fsub float %x, %v
  %s.next = fadd float %s, %d
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

declare void @may_not_return()

; The outer loop's iterations may not all end (a call that may not return):
; the marks stay in front of the inner loop, in the outer loop.
define ptx_kernel void @stops(ptr addrspace(1) %feat, ptr addrspace(1) %out, i32 %n, i32 %p, i32 %nc, i32 %nf) {
entry:
  %anyc = icmp sgt i32 %nc, 0
  %anyf = icmp sgt i32 %nf, 0
  br i1 %anyc, label %outer, label %exit

outer:
  %c = phi i32 [ 0, %entry ], [ %c.next, %outer.latch ]
  br i1 %anyf, label %inner, label %outer.latch

inner:
  %f = phi i32 [ 0, %outer ], [ %f.next, %inner ]
  %fi = mul nsw i32 %f, %n
  %fip = add nsw i32 %fi, %p
  %fw = sext i32 %fip to i64
  %fp = getelementptr inbounds float, ptr addrspace(1) %feat, i64 %fw
  %x = load float, ptr addrspace(1) %fp
  store float %x, ptr addrspace(1) %out
  %f.next = add nuw nsw i32 %f, 1
  %fdone = icmp eq i32 %f.next, %nf
  br i1 %fdone, label %outer.latch, label %inner

outer.latch:
  call void @may_not_return()
  %c.next = add nuw nsw i32 %c, 1
  %cdone = icmp eq i32 %c.next, %nc
  br i1 %cdone, label %exit, label %outer

exit:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @kmeans__pasta_ws(
; CHECK: %pasta.ws.loop.reached = alloca i64
; The counter is cleared where the cluster loop is entered ...
; CHECK: outer.preheader:
; CHECK-NEXT: store i64 0, ptr{{( addrspace\(5\))?}} %pasta.ws.loop.reached
; ... and counts the iterations that reach the inner loop; no call in the
; cluster loop.
; CHECK: inner.ph:
; CHECK-NOT: call {{.*}}@__pasta_ws_mark
; CHECK: %[[R:.*]] = load i64, ptr{{( addrspace\(5\))?}} %pasta.ws.loop.reached
; CHECK-NEXT: %[[R1:.*]] = add i64 %[[R]], 1
; CHECK-NEXT: store i64 %[[R1]], ptr{{( addrspace\(5\))?}} %pasta.ws.loop.reached
; CHECK-NOT: call {{.*}}@__pasta_ws_mark_{{loop|nest}}
; CHECK: outer.latch:
; CHECK-NOT: call {{.*}}@__pasta_ws_mark_{{loop|nest}}
; CHECK: br i1 %cdone, label %[[EXIT:.*]], label %outer
; Where the cluster loop is left, the features' marks, for as many entries
; of the inner loop as ran (feat + 4p, bytes 4n apart, nf trips) ...
; CHECK: [[EXIT]]:
; CHECK: %[[T:.*]] = load i64, ptr{{( addrspace\(5\))?}} %pasta.ws.loop.reached
; CHECK-NEXT: %[[ANY:.*]] = icmp ne i64 %[[T]], 0
; CHECK-NEXT: br i1 %[[ANY]]
; CHECK: call void @__pasta_ws_mark_loop_after(ptr addrspace(1) %pasta.ws, ptr %{{.*}}, i64 1, i64 0, i64 %{{.*}}, i64 %pasta.ws.trips, i32 320, ptr addrspace(1) @__pasta_ws_batch{{[.0-9]*}}, i64 %[[T]])
; ... then the centroids' nest: nc rows of nf floats at index c * nf + f
; (one 32-bit index, zero-extended: bit 9 and 32 bits), made once.
; CHECK: %[[T2:.*]] = load i64, ptr{{( addrspace\(5\))?}} %pasta.ws.loop.reached
; CHECK-NEXT: %[[ANY2:.*]] = icmp ne i64 %[[T2]], 0
; CHECK-NEXT: br i1 %[[ANY2]]
; CHECK: call void @__pasta_ws_mark_nest_after(ptr addrspace(1) %pasta.ws, ptr %{{.*}}, i64 4, i64 0, i64 1, i64 %{{.*}}, i32 32, i64 4, i64 0, i64 %{{.*}}, i64 %{{.*}}, i32 544, ptr addrspace(1) @__pasta_ws_batch{{[.0-9]*}})
; CHECK: exit:
; CHECK-NOT: call {{.*}}@__pasta_ws_mark_{{loop|nest}}
; CHECK: ret void

; CHECK-LABEL: define ptx_kernel void @stops__pasta_ws(
; CHECK-NOT: __pasta_ws_mark_loop_after
; CHECK: call i32 @__pasta_ws_mark_loop(
; CHECK-NOT: __pasta_ws_mark_loop_after
; CHECK: ret void

; The tree before (-pasta-ws-loop-marks-after=0): the calls in the cluster
; loop, in front of the inner loop.
; OFF-LABEL: define ptx_kernel void @kmeans__pasta_ws(
; OFF-NOT: __pasta_ws_mark_{{loop|nest}}_after
; OFF: inner.ph:
; OFF: call i32 @__pasta_ws_mark_loop(
; OFF: call i32 @__pasta_ws_mark_nest(
; OFF-NOT: __pasta_ws_mark_{{loop|nest}}_after
; OFF: ret void
