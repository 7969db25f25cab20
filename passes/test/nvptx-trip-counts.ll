; Blocks run once in every iteration of a loop whose trip count scalar
; evolution computes before the loop (CounterEmission.cpp, addTripCount):
; the count is added once, at the loop's exit, instead of 1 per iteration.
; Loops left as they were: one with a second way out (a `break` on loaded
; data), an inner loop (its count, hoisted by the code generator, would be
; held across the outer loop: registers), and every loop of divergence and
; trace builds.
; RUN: %opt -passes=pasta-count -pasta-narrow-counters=0 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -pasta-divergence -S %s 2>/dev/null | FileCheck --check-prefix=DIV %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; m = n + block index iterations (m > 0): %body runs m times per thread.
; CHECK-LABEL: define ptx_kernel void @counted(
; CHECK: body:
; CHECK-NOT: add i64
; CHECK: br i1 %end, label %after, label %body
; CHECK: after:
; CHECK: %[[T:[0-9]+]] = add nuw nsw i64 %{{[0-9]+}}, 1
; CHECK-NEXT: %[[N:[0-9]+]] = add i64 0, %[[T]]
; CHECK: call void @__pasta_flush_counter_fast(ptr addrspace(1) %{{[0-9]+}}, i64 %[[N]])
; DIV-LABEL: define ptx_kernel void @counted(
; DIV: body:
; DIV: add i64 %{{.*}}, 1
; DIV: br i1 %end, label %after, label %body
define ptx_kernel void @counted(ptr %a, i32 %n) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %m = add i32 %n, %b
  %go = icmp sgt i32 %m, 0
  br i1 %go, label %body, label %done
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %p = getelementptr float, ptr %a, i32 %i
  store float 1.0, ptr %p
  %i.next = add nuw nsw i32 %i, 1
  %end = icmp eq i32 %i.next, %m
  br i1 %end, label %after, label %body
after:
  br label %done
done:
  ret void
}

; The loop's exit is also its guard's way around it: the count goes in a
; block split into the edge from the latch.
; CHECK-LABEL: define ptx_kernel void @guarded(
; CHECK: body:
; CHECK-NOT: add i64
; CHECK: br i1 %end, label %[[EXIT:[a-z_.0-9]+]], label %body
; CHECK: [[EXIT]]:
; CHECK: %[[T:[0-9]+]] = add nuw nsw i64 %{{[0-9]+}}, 1
; CHECK-NEXT: add i64 0, %[[T]]
define ptx_kernel void @guarded(ptr %a, i32 %n) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %m = add i32 %n, %b
  %go = icmp sgt i32 %m, 0
  br i1 %go, label %body, label %done
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %p = getelementptr float, ptr %a, i32 %i
  store float 1.0, ptr %p
  %i.next = add nuw nsw i32 %i, 1
  %end = icmp eq i32 %i.next, %m
  br i1 %end, label %done, label %body
done:
  ret void
}

; A second way out of the loop (a loaded value): counted per iteration.
; CHECK-LABEL: define ptx_kernel void @with_break(
; CHECK: body:
; CHECK: add i64 %{{.*}}, 1
; CHECK: latch:
define ptx_kernel void @with_break(ptr %a, i32 %n) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %m = add i32 %n, %b
  %go = icmp sgt i32 %m, 0
  br i1 %go, label %body, label %done
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %p = getelementptr float, ptr %a, i32 %i
  %v = load float, ptr %p
  %stop = fcmp olt float %v, 0.0
  br i1 %stop, label %done, label %latch
latch:
  store float 1.0, ptr %p
  %i.next = add nuw nsw i32 %i, 1
  %end = icmp eq i32 %i.next, %m
  br i1 %end, label %done, label %body
done:
  ret void
}

; An inner loop of n iterations in an outer loop of m: the inner one's
; block is counted per iteration.
; CHECK-LABEL: define ptx_kernel void @nested(
; CHECK: inner:
; CHECK: add i64 %{{.*}}, 1
; CHECK: br i1 %iend, label %outer.latch, label %inner
define ptx_kernel void @nested(ptr %a, i32 %n, i32 %k) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %m = add i32 %k, %b
  %go = icmp sgt i32 %m, 0
  %ngo = icmp sgt i32 %n, 0
  %both = and i1 %go, %ngo
  br i1 %both, label %outer, label %done
outer:
  %o = phi i32 [ 0, %entry ], [ %o.next, %outer.latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  %s = add i32 %o, %j
  %p = getelementptr float, ptr %a, i32 %s
  store float 1.0, ptr %p
  %j.next = add nuw nsw i32 %j, 1
  %iend = icmp eq i32 %j.next, %n
  br i1 %iend, label %outer.latch, label %inner
outer.latch:
  %o.next = add nuw nsw i32 %o, 1
  %oend = icmp eq i32 %o.next, %m
  br i1 %oend, label %done, label %outer
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
