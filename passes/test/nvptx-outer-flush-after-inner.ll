; An outermost loop with inner loops flushes its counters on its back edge
; (flushAtOuterBackEdges) only where a counter is added after an inner loop
; in an iteration: that counter is then not live through the inner loop.
; Where every counter is added in the inner loop (or before it), each is
; live through the rest of the iteration either way, and every further
; iteration would pay a flush for nothing: HeCBench bh's
; SummarizationKernel runs its spin loop in three passes (34 counters, a
; flush of all of them after each of the first two; counting copy 168 -> 128
; registers without it). Those loops flush only at the return.
; RUN: %opt -passes=pasta-count -pasta-variants=0 -pasta-link-runtime=0 -pasta-outer-back-edge-flush=2 -S %s 2>/dev/null | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Three passes, each polling three flags until all are above the pass's
; number: the counters are the poll loop's header and the three blocks
; seeing a flag; the pass's own blocks run once per pass (counted from the
; trip count at its exit). No flush between the loop and the return.
; CHECK-LABEL: define ptx_kernel void @passes(
; CHECK: pass.latch:
; CHECK-NOT: call {{.*}}@__pasta_flush
; CHECK: done:
; CHECK: call i64 @__pasta_flush_is_fast(
; CHECK: ret void
define ptx_kernel void @passes(ptr addrspace(1) %ready, ptr addrspace(1) %seen) {
entry:
  br label %pass
pass:
  %p = phi i32 [ 0, %entry ], [ %p.next, %pass.latch ]
  br label %poll
poll:
  %j0 = phi i32 [ 0, %pass ], [ %j3, %c2.join ]
  %a0 = getelementptr i32, ptr addrspace(1) %ready, i32 0
  %f0 = load volatile i32, ptr addrspace(1) %a0
  %r0 = icmp sgt i32 %f0, %p
  br i1 %r0, label %c0.yes, label %c0.join
c0.yes:
  %s0 = getelementptr i32, ptr addrspace(1) %seen, i32 0
  store volatile i32 1, ptr addrspace(1) %s0
  br label %c0.join
c0.join:
  %b0 = phi i32 [ 1, %c0.yes ], [ 0, %poll ]
  %j1 = add i32 %j0, %b0
  %a1 = getelementptr i32, ptr addrspace(1) %ready, i32 1
  %f1 = load volatile i32, ptr addrspace(1) %a1
  %r1 = icmp sgt i32 %f1, %p
  br i1 %r1, label %c1.yes, label %c1.join
c1.yes:
  %s1 = getelementptr i32, ptr addrspace(1) %seen, i32 1
  store volatile i32 1, ptr addrspace(1) %s1
  br label %c1.join
c1.join:
  %b1 = phi i32 [ 1, %c1.yes ], [ 0, %c0.join ]
  %j2 = add i32 %j1, %b1
  %a2 = getelementptr i32, ptr addrspace(1) %ready, i32 2
  %f2 = load volatile i32, ptr addrspace(1) %a2
  %r2 = icmp sgt i32 %f2, %p
  br i1 %r2, label %c2.yes, label %c2.join
c2.yes:
  %s2 = getelementptr i32, ptr addrspace(1) %seen, i32 2
  store volatile i32 1, ptr addrspace(1) %s2
  br label %c2.join
c2.join:
  %b2 = phi i32 [ 1, %c2.yes ], [ 0, %c1.join ]
  %j3 = add i32 %j2, %b2
  %all = icmp eq i32 %j3, 3
  br i1 %all, label %pass.latch, label %poll
pass.latch:
  %p.next = add nuw nsw i32 %p, 1
  %again = icmp ult i32 %p.next, 3
  br i1 %again, label %pass, label %done
done:
  ret void
}
