; An outermost loop with inner loops flushes the counters of its blocks on
; its back edge (passes/CounterEmission.cpp, flushAtOuterBackEdges) and
; starts each iteration from zero: a counter added to after the inner loop
; (%x1, %x2) is then not live through the inner loop, and no counter has a
; phi at the outer header. CUB's radix-sort histogram has this shape (its
; loop over 2^30-item portions, run once per thread, around its tile
; loop): its counting copy 64 -> 56 registers. The loop's blocks alike in
; every thread block (%post) go to the first block's scaled flush, as at
; the return. Loops with fewer counters than -pasta-outer-back-edge-flush
; (8 by default) are left alone.
; Its blocks have no line information, so blocks of one mix would share a
; counter (shareLikeCounters): off here, to test the counters themselves.
; The exit gather is off here (nvptx-gather-tail-lanes.ll): its calls would
; sit between the lines checked.
; RUN: %opt -passes=pasta-count -pasta-gather-warp-at-exit=0 -pasta-share-like-counters=0 -pasta-link-runtime=0 -pasta-outer-back-edge-flush=2 -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-gather-warp-at-exit=0 -pasta-share-like-counters=0 -pasta-link-runtime=0 -S %s 2>/dev/null | FileCheck %s --check-prefix=DEFAULT
; With -pasta-batched-counter-adds and -pasta-predicated-lane-adds (both
; off by default; counting builds on NVIDIA GPUs): the fast path takes the
; three counters' warp sums first, then lane 0's predicated adds, with no
; branch between them.
; RUN: %opt -passes=pasta-count -pasta-gather-warp-at-exit=0 -pasta-share-like-counters=0 -pasta-link-runtime=0 -pasta-outer-back-edge-flush=2 -pasta-batched-counter-adds -pasta-predicated-lane-adds -S %s 2>/dev/null | FileCheck %s --check-prefix=BATCH

; Counters: 0 launches, 1 %in, 2 %post (alike), 3 %x1, 4 %x2.
; CHECK-LABEL: define ptx_kernel void @portions(
; CHECK: o:
; CHECK-NEXT: %off = phi i64
; CHECK-NEXT: br label %in
; CHECK: in:
; CHECK-NEXT: %pasta.count1.1 = phi i64 [ 0, %o ]
; CHECK: x1:
; CHECK-NEXT: add i64 0, 1
; CHECK: br i1 %more, label %olatch.o_crit_edge, label %done
; CHECK: olatch.o_crit_edge:
; CHECK-NEXT: call i64 @__pasta_first_block_scale()
; CHECK: call void @__pasta_flush_scaled_nonzero(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 2)
; CHECK: call i64 @__pasta_flush_is_fast(
; CHECK: call void @__pasta_flush_counter_fast(ptr addrspace(1) %{{[0-9]+}}, i64 %0)
; CHECK-NEXT: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 3
; CHECK-NEXT: call void @__pasta_flush_counter_fast(ptr addrspace(1) %{{[0-9]+}}, i64 %pasta.count3.1)
; CHECK-NEXT: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 4
; CHECK-NEXT: call void @__pasta_flush_counter_fast(ptr addrspace(1) %{{[0-9]+}}, i64 %pasta.count4.1)
; CHECK: br label %o
; BATCH-LABEL: define ptx_kernel void @portions(
; BATCH: olatch.o_crit_edge:
; BATCH: call i64 @__pasta_flush_is_fast(
; BATCH: %[[LANE:[0-9]+]] = call i32 @__pasta_lane_id()
; BATCH-NEXT: %[[S0:[0-9]+]] = call i32 @__pasta_warp_sum_small(i64 %0)
; BATCH-NEXT: %[[S3:[0-9]+]] = call i32 @__pasta_warp_sum_small(i64 %pasta.count3.1)
; BATCH-NEXT: %[[S4:[0-9]+]] = call i32 @__pasta_warp_sum_small(i64 %pasta.count4.1)
; BATCH-NEXT: %[[Z0:[0-9]+]] = zext i32 %[[S0]] to i64
; BATCH-NEXT: %[[P0:[0-9]+]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW:[0-9]+]], i32 1
; BATCH-NEXT: call void @__pasta_add_from_lane_zero(ptr addrspace(1) %[[P0]], i64 %[[Z0]], i32 %[[LANE]])
; BATCH-NEXT: %[[Z3:[0-9]+]] = zext i32 %[[S3]] to i64
; BATCH-NEXT: %[[P3:[0-9]+]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 3
; BATCH-NEXT: call void @__pasta_add_from_lane_zero(ptr addrspace(1) %[[P3]], i64 %[[Z3]], i32 %[[LANE]])
; BATCH-NEXT: %[[Z4:[0-9]+]] = zext i32 %[[S4]] to i64
; BATCH-NEXT: %[[P4:[0-9]+]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 4
; BATCH-NEXT: call void @__pasta_add_from_lane_zero(ptr addrspace(1) %[[P4]], i64 %[[Z4]], i32 %[[LANE]])
; BATCH-NEXT: br label
; BATCH-NOT: __pasta_flush_counter_fast(
; BATCH: ret void
; The return flushes what the last iteration counted.
; CHECK: done:
; CHECK: call void @__pasta_flush_counter_fast(ptr addrspace(1) %{{[0-9]+}}, i64 %0)
; CHECK: ret void

; Four counters: the counters run through the loop in registers, as
; before; no flush on the back edge.
; DEFAULT-LABEL: define ptx_kernel void @portions(
; DEFAULT: o:
; DEFAULT-NEXT: %pasta.count{{[0-9.]+}} = phi i64
; DEFAULT-NOT: o_crit_edge
; DEFAULT: ret void

; Before an inner loop nest (%t around %u), the counts alike in every
; thread block that the outer loop's blocks added on the way to it (%clr,
; a loop over a kernel argument) are flushed by the first thread block and
; zeroed (flushAlikeBeforeNests): no phi of theirs in the nest. CUB's
; histogram clears its shared bins in four such loops before its tile
; loop: 56 -> 48 registers. Counters (after @portions' 0-4): 5 launches,
; 6 %clr (alike), 7 %u, then those of %post, %x1, %x2 after the nest (its
; global histogram's adds; without counters after the nest its back edge
; is not flushed, @digits).
; CHECK-LABEL: define ptx_kernel void @nest(
; CHECK: tpre:
; CHECK-NEXT: [[SCALE:%[0-9]+]] = call i64 @__pasta_first_block_scale()
; CHECK: call void @__pasta_flush_scaled_nonzero(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 6), i64 %0, i64 [[SCALE]])
; CHECK: t:
; CHECK-NEXT: %pasta.count2.1 = phi i64
; CHECK-NEXT: %j = phi i32
; CHECK: olatch.o_crit_edge:
; CHECK: ret void

; Few counters: nothing is flushed before the nest or on the back edge.
; DEFAULT-LABEL: define ptx_kernel void @nest(
; DEFAULT: tpre:
; DEFAULT-NEXT: br label %t
; DEFAULT-NOT: o_crit_edge
; DEFAULT: ret void

; Counted where the flush frees registers: after the largest inner loop.
; Here three guarded blocks are counted in the inner loop (%in) and one
; (%x1) after it: a flush on the back edge would keep one counter out of
; registers in %in and flush four every iteration. curand's skip-ahead has
; this shape (81 counters, one after its inner loop: 128 registers with the
; flush and without it, and the flush ran at every base-4 digit of every
; thread's subsequence): no flush on its back edge.
; CHECK-LABEL: define ptx_kernel void @digits(
; CHECK-NOT: o_crit_edge
; CHECK: ret void

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @portions(ptr addrspace(1) %a, i64 %n, i32 %m) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %mb = add i32 %m, %b
  br label %o
o:
  %off = phi i64 [ 0, %entry ], [ %off.next, %olatch ]
  br label %in
in:
  %j = phi i32 [ 0, %o ], [ %j.next, %in ]
  %p = getelementptr float, ptr addrspace(1) %a, i32 %j
  store float 1.0, ptr addrspace(1) %p
  %j.next = add i32 %j, 1
  %more.j = icmp slt i32 %j.next, %mb
  br i1 %more.j, label %in, label %post
post:
  %q = getelementptr i32, ptr addrspace(1) %a, i64 %off
  %v = load i32, ptr addrspace(1) %q
  %odd = icmp ne i32 %v, 0
  br i1 %odd, label %x1, label %olatch
x1:
  store i32 1, ptr addrspace(1) %q
  %big = icmp sgt i32 %v, 100
  br i1 %big, label %x2, label %olatch
x2:
  store i32 2, ptr addrspace(1) %q
  br label %olatch
olatch:
  %off.next = add i64 %off, 1073741824
  %more = icmp ult i64 %off.next, %n
  br i1 %more, label %o, label %done
done:
  ret void
}

define ptx_kernel void @nest(ptr addrspace(1) %a, i64 %n, i32 %m, i32 %k) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %mb = add i32 %m, %b
  br label %o
o:
  %off = phi i64 [ 0, %entry ], [ %off.next, %olatch ]
  br label %clr
clr:
  %c = phi i32 [ 0, %o ], [ %c.next, %clr ]
  %pc = getelementptr float, ptr addrspace(1) %a, i32 %c
  store float 0.0, ptr addrspace(1) %pc
  %c.next = add i32 %c, 1
  %more.c = icmp slt i32 %c.next, %m
  br i1 %more.c, label %clr, label %tpre
tpre:
  br label %t
t:
  %j = phi i32 [ 0, %tpre ], [ %j.next, %tlatch ]
  br label %u
u:
  %i = phi i32 [ 0, %t ], [ %i.next, %u ]
  %pu = getelementptr float, ptr addrspace(1) %a, i32 %i
  store float 1.0, ptr addrspace(1) %pu
  %i.next = add i32 %i, 1
  %more.i = icmp slt i32 %i.next, %k
  br i1 %more.i, label %u, label %tlatch
tlatch:
  %j.next = add i32 %j, 1
  %more.j = icmp slt i32 %j.next, %mb
  br i1 %more.j, label %t, label %post
post:
  %q = getelementptr i32, ptr addrspace(1) %a, i64 %off
  %v = load i32, ptr addrspace(1) %q
  %odd = icmp ne i32 %v, 0
  br i1 %odd, label %x1, label %olatch
x1:
  store i32 1, ptr addrspace(1) %q
  %big = icmp sgt i32 %v, 100
  br i1 %big, label %x2, label %olatch
x2:
  store i32 2, ptr addrspace(1) %q
  br label %olatch
olatch:
  %off.next = add i64 %off, 1073741824
  %more = icmp ult i64 %off.next, %n
  br i1 %more, label %o, label %done
done:
  ret void
}

define ptx_kernel void @digits(ptr addrspace(1) %a, i64 %n, i32 %m) {
entry:
  br label %o
o:
  %off = phi i64 [ 0, %entry ], [ %off.next, %olatch ]
  br label %in
in:
  %j = phi i32 [ 0, %o ], [ %j.next, %inlatch ]
  %p = getelementptr i32, ptr addrspace(1) %a, i32 %j
  %v = load i32, ptr addrspace(1) %p
  %b0 = and i32 %v, 1
  %s0 = icmp ne i32 %b0, 0
  br i1 %s0, label %g0, label %c1
g0:
  store i32 0, ptr addrspace(1) %p
  br label %c1
c1:
  %b1 = and i32 %v, 2
  %s1 = icmp ne i32 %b1, 0
  br i1 %s1, label %g1, label %c2
g1:
  store i32 1, ptr addrspace(1) %p
  br label %c2
c2:
  %b2 = and i32 %v, 4
  %s2 = icmp ne i32 %b2, 0
  br i1 %s2, label %g2, label %inlatch
g2:
  store i32 2, ptr addrspace(1) %p
  br label %inlatch
inlatch:
  %j.next = add i32 %j, 1
  %more.j = icmp slt i32 %j.next, %m
  br i1 %more.j, label %in, label %post
post:
  %q = getelementptr i32, ptr addrspace(1) %a, i64 %off
  %w = load i32, ptr addrspace(1) %q
  %odd = icmp ne i32 %w, 0
  br i1 %odd, label %x1, label %olatch
x1:
  store i32 1, ptr addrspace(1) %q
  br label %olatch
olatch:
  %off.next = add i64 %off, 1
  %more = icmp ult i64 %off.next, %n
  br i1 %more, label %o, label %done
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
