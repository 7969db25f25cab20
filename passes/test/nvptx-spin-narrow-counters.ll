; A loop that scalar evolution does not bound (a spin-wait polling flags
; with volatile loads, as HeCBench bh's tree kernels do) keeps the counters
; of its own blocks in 32 bits where it has at least 6 and its header has
; a counter of its own (CounterEmission.cpp, narrowUnboundedLoops): each
; such block runs at most once per run of the header, so none of them is
; above the header's count; when the header's count is 2^32 - 1, at the
; header, before its add, the loop's counters are flushed and zeroed
; (guardNarrowedLoops; -pasta-guard-wrap-at lowers 2^32 - 1 for tests):
; each lane adds each of its counts to the block's bank row with an atomic
; of its own (addEachLaneAndZero), not the exits' warp flush, whose sums
; and out-of-line call held registers through the loop
; (-pasta-guard-lane-adds=0 keeps that flush).
; Fewer counters, a loop whose trip count is
; computed (over a 64-bit bound) and -pasta-guarded-narrow-min=0 keep 64
; bits.
; RUN: %opt -passes=pasta-count -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-guard-wrap-at=3 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck --check-prefix=AT3 %s
; RUN: %opt -passes=pasta-count -pasta-guarded-narrow-min=0 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck --check-prefix=OFF %s
; RUN: %opt -passes=pasta-count -pasta-guard-lane-adds=0 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck --check-prefix=WARP %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Six flags polled until all are set: the header and the six blocks seeing
; a set flag are counted (the header's count is the threads plus the
; retries), none bounded.
; CHECK-LABEL: define ptx_kernel void @poll_six(
; CHECK: poll:
; CHECK-NOT: add i64
; CHECK: %[[WRAPS:[0-9]+]] = icmp eq i32 %pasta.count[[H:[0-9]+]].0, -1
; CHECK-NEXT: br i1 %[[WRAPS]], label %[[WRAP:[0-9]+]], label %[[BODY:[0-9]+]], !prof
; CHECK: [[WRAP]]:
; CHECK-NEXT: %[[ROW:[0-9]+]] = call ptr addrspace(1) @__pasta_bank_row(
; CHECK-NEXT: %[[AT:[0-9]+]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 1
; CHECK-NEXT: %[[V:[0-9]+]] = zext i32 %pasta.count[[H]].0 to i64
; CHECK-NEXT: atomicrmw add ptr addrspace(1) %[[AT]], i64 %[[V]] monotonic
; CHECK-COUNT-6: atomicrmw add ptr addrspace(1) %{{[0-9]+}}, i64 %{{[0-9]+}} monotonic
; CHECK-NOT: call
; CHECK: [[BODY]]:
; CHECK-COUNT-7: = phi i32 [ 0, %{{[0-9]+}} ], [ %pasta.count{{[0-9]+}}.0, %poll ]
; CHECK-NEXT: %[[HN:[0-9]+]] = add i32 %pasta.count[[H]].1, 1
; CHECK: c0.yes:
; CHECK-NEXT: add i32 %pasta.count{{[0-9]+}}.2, 1
; CHECK: c5.yes:
; CHECK-NEXT: add i32 %pasta.count{{[0-9]+}}.2, 1
; CHECK-NOT: add i64
; CHECK: done:
; CHECK: zext i32 %[[HN]] to i64
; CHECK: ret void
; -pasta-guard-wrap-at=3 (testing the wrap flush: structure spinwait.wrap):
; AT3-LABEL: define ptx_kernel void @poll_six(
; AT3: icmp eq i32 %pasta.count{{[0-9]+}}.0, 3
; WARP-LABEL: define ptx_kernel void @poll_six(
; WARP: %[[WRAPS:[0-9]+]] = icmp eq i32 %pasta.count[[H:[0-9]+]].0, -1
; WARP-NEXT: br i1 %[[WRAPS]], label %[[WRAP:[0-9]+]], label %[[BODY:[0-9]+]], !prof
; WARP: [[WRAP]]:
; WARP-NOT: atomicrmw
; WARP: zext i32 %pasta.count[[H]].0 to i64
; WARP: call i64 @__pasta_flush_is_fast(
; WARP: call void @__pasta_flush_indexed(
; WARP: [[BODY]]:
; OFF-LABEL: define ptx_kernel void @poll_six(
; OFF-NOT: icmp eq i32 %pasta.count{{.*}}, -1
; OFF: c0.yes:
; OFF-NEXT: add i64 %pasta.count{{.*}}, 1
define ptx_kernel void @poll_six(ptr addrspace(1) %ready, ptr addrspace(1) %seen) {
entry:
  br label %poll
poll:
  %j0 = phi i32 [ 0, %entry ], [ %j6, %c5.join ]
  %a0 = getelementptr i32, ptr addrspace(1) %ready, i32 0
  %f0 = load volatile i32, ptr addrspace(1) %a0
  %r0 = icmp sgt i32 %f0, 0
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
  %r1 = icmp sgt i32 %f1, 0
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
  %r2 = icmp sgt i32 %f2, 0
  br i1 %r2, label %c2.yes, label %c2.join
c2.yes:
  %s2 = getelementptr i32, ptr addrspace(1) %seen, i32 2
  store volatile i32 1, ptr addrspace(1) %s2
  br label %c2.join
c2.join:
  %b2 = phi i32 [ 1, %c2.yes ], [ 0, %c1.join ]
  %j3 = add i32 %j2, %b2
  %a3 = getelementptr i32, ptr addrspace(1) %ready, i32 3
  %f3 = load volatile i32, ptr addrspace(1) %a3
  %r3 = icmp sgt i32 %f3, 0
  br i1 %r3, label %c3.yes, label %c3.join
c3.yes:
  %s3 = getelementptr i32, ptr addrspace(1) %seen, i32 3
  store volatile i32 1, ptr addrspace(1) %s3
  br label %c3.join
c3.join:
  %b3 = phi i32 [ 1, %c3.yes ], [ 0, %c2.join ]
  %j4 = add i32 %j3, %b3
  %a4 = getelementptr i32, ptr addrspace(1) %ready, i32 4
  %f4 = load volatile i32, ptr addrspace(1) %a4
  %r4 = icmp sgt i32 %f4, 0
  br i1 %r4, label %c4.yes, label %c4.join
c4.yes:
  %s4 = getelementptr i32, ptr addrspace(1) %seen, i32 4
  store volatile i32 1, ptr addrspace(1) %s4
  br label %c4.join
c4.join:
  %b4 = phi i32 [ 1, %c4.yes ], [ 0, %c3.join ]
  %j5 = add i32 %j4, %b4
  %a5 = getelementptr i32, ptr addrspace(1) %ready, i32 5
  %f5 = load volatile i32, ptr addrspace(1) %a5
  %r5 = icmp sgt i32 %f5, 0
  br i1 %r5, label %c5.yes, label %c5.join
c5.yes:
  %s5 = getelementptr i32, ptr addrspace(1) %seen, i32 5
  store volatile i32 1, ptr addrspace(1) %s5
  br label %c5.join
c5.join:
  %b5 = phi i32 [ 1, %c5.yes ], [ 0, %c4.join ]
  %j6 = add i32 %j5, %b5
  %all = icmp eq i32 %j6, 6
  br i1 %all, label %done, label %poll
done:
  ret void
}

; Three flags: four counters, below the six a guard is worth.
; CHECK-LABEL: define ptx_kernel void @poll_three(
; CHECK-NOT: icmp eq i32 %pasta.count{{.*}}, -1
; CHECK: c0.yes:
; CHECK-NEXT: add i64 %pasta.count{{.*}}, 1
define ptx_kernel void @poll_three(ptr addrspace(1) %ready, ptr addrspace(1) %seen) {
entry:
  br label %poll
poll:
  %j0 = phi i32 [ 0, %entry ], [ %j3, %c2.join ]
  %a0 = getelementptr i32, ptr addrspace(1) %ready, i32 0
  %f0 = load volatile i32, ptr addrspace(1) %a0
  %r0 = icmp sgt i32 %f0, 0
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
  %r1 = icmp sgt i32 %f1, 0
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
  %r2 = icmp sgt i32 %f2, 0
  br i1 %r2, label %c2.yes, label %c2.join
c2.yes:
  %s2 = getelementptr i32, ptr addrspace(1) %seen, i32 2
  store volatile i32 1, ptr addrspace(1) %s2
  br label %c2.join
c2.join:
  %b2 = phi i32 [ 1, %c2.yes ], [ 0, %c1.join ]
  %j3 = add i32 %j2, %b2
  %all = icmp eq i32 %j3, 3
  br i1 %all, label %done, label %poll
done:
  ret void
}

; Six flags read once per iteration of a loop over a 64-bit bound: the trip
; count is computed (up to 2^63 iterations), no guard, 64 bits.
; CHECK-LABEL: define ptx_kernel void @long_six(
; CHECK-NOT: icmp eq i32 %pasta.count{{.*}}, -1
; CHECK: c0.yes:
; CHECK-NEXT: add i64 %pasta.count{{.*}}, 1
define ptx_kernel void @long_six(ptr addrspace(1) %ready, ptr addrspace(1) %seen, i64 %n) {
entry:
  %go = icmp sgt i64 %n, 0
  br i1 %go, label %poll, label %done
poll:
  %k = phi i64 [ 0, %entry ], [ %k.next, %c5.join ]
  %j0 = phi i32 [ 0, %entry ], [ %j6, %c5.join ]
  %a0 = getelementptr i32, ptr addrspace(1) %ready, i32 0
  %f0 = load volatile i32, ptr addrspace(1) %a0
  %r0 = icmp sgt i32 %f0, 0
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
  %r1 = icmp sgt i32 %f1, 0
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
  %r2 = icmp sgt i32 %f2, 0
  br i1 %r2, label %c2.yes, label %c2.join
c2.yes:
  %s2 = getelementptr i32, ptr addrspace(1) %seen, i32 2
  store volatile i32 1, ptr addrspace(1) %s2
  br label %c2.join
c2.join:
  %b2 = phi i32 [ 1, %c2.yes ], [ 0, %c1.join ]
  %j3 = add i32 %j2, %b2
  %a3 = getelementptr i32, ptr addrspace(1) %ready, i32 3
  %f3 = load volatile i32, ptr addrspace(1) %a3
  %r3 = icmp sgt i32 %f3, 0
  br i1 %r3, label %c3.yes, label %c3.join
c3.yes:
  %s3 = getelementptr i32, ptr addrspace(1) %seen, i32 3
  store volatile i32 1, ptr addrspace(1) %s3
  br label %c3.join
c3.join:
  %b3 = phi i32 [ 1, %c3.yes ], [ 0, %c2.join ]
  %j4 = add i32 %j3, %b3
  %a4 = getelementptr i32, ptr addrspace(1) %ready, i32 4
  %f4 = load volatile i32, ptr addrspace(1) %a4
  %r4 = icmp sgt i32 %f4, 0
  br i1 %r4, label %c4.yes, label %c4.join
c4.yes:
  %s4 = getelementptr i32, ptr addrspace(1) %seen, i32 4
  store volatile i32 1, ptr addrspace(1) %s4
  br label %c4.join
c4.join:
  %b4 = phi i32 [ 1, %c4.yes ], [ 0, %c3.join ]
  %j5 = add i32 %j4, %b4
  %a5 = getelementptr i32, ptr addrspace(1) %ready, i32 5
  %f5 = load volatile i32, ptr addrspace(1) %a5
  %r5 = icmp sgt i32 %f5, 0
  br i1 %r5, label %c5.yes, label %c5.join
c5.yes:
  %s5 = getelementptr i32, ptr addrspace(1) %seen, i32 5
  store volatile i32 1, ptr addrspace(1) %s5
  br label %c5.join
c5.join:
  %b5 = phi i32 [ 1, %c5.yes ], [ 0, %c4.join ]
  %j6 = add i32 %j5, %b5
  %k.next = add nsw i64 %k, 1
  %more = icmp slt i64 %k.next, %n
  br i1 %more, label %poll, label %done
done:
  ret void
}