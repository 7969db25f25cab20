; Blocks of a loop under branches the loop does not change (a 3D stencil's
; `if (tjj > 0 && tkk < nLast_z)` faces): each runs in every iteration or
; in none, so it sets a bit of one 32-bit mask in the loop and the loop's
; exit adds the trip count where the bit is set (CounterEmission.cpp,
; addInvariantTripCount), instead of a 64-bit register each added to per
; iteration. Left per iteration: a block under a branch on loaded data, and
; one under a branch of an inner loop. Divergence builds keep every loop's
; adds.
; Its blocks have no line information, so blocks of one mix would share a
; counter (shareLikeCounters): off here, to test the counters themselves.
; RUN: %opt -passes=pasta-count -pasta-share-like-counters=0 -pasta-narrow-counters=0 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-share-like-counters=0 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -pasta-divergence -S %s 2>/dev/null | FileCheck --check-prefix=DIV %s
; RUN: %opt -passes=pasta-count -pasta-share-like-counters=0 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck --check-prefix=NARROW %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; m = n + block index iterations; %face runs in all of them when the
; thread's x is below k, %edge when it is also above 0; %data on a loaded
; value. The mask is zero at entry and cleared at the exit after the adds.
; CHECK-LABEL: define ptx_kernel void @faces(
; CHECK: entry:
; CHECK: br i1 %go
; CHECK: body:
; CHECK: %[[SEEN:pasta.seen[0-9.]*]] = phi i32
; CHECK: face:
; CHECK-NOT: add i64
; CHECK: or i32 %[[SEEN]], [[BIT1:1|2]]
; CHECK: edge:
; CHECK-NOT: add i64
; CHECK: or i32 %{{.*}}, [[BIT2:1|2]]
; CHECK: data:
; CHECK: add i64 %{{.*}}, 1
; CHECK: latch:
; CHECK: br i1 %end, label %[[EXIT:[a-z_.0-9]+]], label %body
; CHECK: [[EXIT]]:
; CHECK: %[[T:[0-9]+]] = add nuw nsw i64 %{{[0-9]+}}, 1
; CHECK: %[[A:[0-9]+]] = and i32 %{{.*}}, [[BIT1]]
; CHECK-NEXT: %[[RA:[0-9]+]] = icmp ne i32 %[[A]], 0
; CHECK-NEXT: %[[NA:[0-9]+]] = select i1 %[[RA]], i64 %[[T]], i64 0
; CHECK-NEXT: add i64 0, %[[NA]]
; CHECK: %[[B:[0-9]+]] = and i32 %{{.*}}, [[BIT2]]
; CHECK-NEXT: %[[RB:[0-9]+]] = icmp ne i32 %[[B]], 0
; CHECK-NEXT: %[[NB:[0-9]+]] = select i1 %[[RB]], i64 %[[T]], i64 0
; CHECK-NEXT: add i64 0, %[[NB]]
; With 32-bit counters where scalar evolution bounds the loop (the
; default; `nuw nsw` i32 induction): the trip count truncated, the adds and
; their values (live from the exit to the flush) 32-bit.
; NARROW-LABEL: define ptx_kernel void @faces(
; NARROW: latch:
; NARROW: br i1 %end, label %[[EXIT:[a-z_.0-9]+]], label %body
; NARROW: [[EXIT]]:
; NARROW: %[[T:[0-9]+]] = add nuw nsw i64 %{{[0-9]+}}, 1
; NARROW: %[[A:[0-9]+]] = and i32 %{{.*}}, [[BIT1:1|2]]
; NARROW-NEXT: %[[RA:[0-9]+]] = icmp ne i32 %[[A]], 0
; NARROW-NEXT: %[[TA:[0-9]+]] = trunc i64 %[[T]] to i32
; NARROW-NEXT: %[[NA:[0-9]+]] = select i1 %[[RA]], i32 %[[TA]], i32 0
; NARROW-NEXT: add i32 0, %[[NA]]
; NARROW-NOT: select i1 %{{[0-9]+}}, i64
; NARROW: ret void
; DIV-LABEL: define ptx_kernel void @faces(
; DIV-NOT: pasta.seen
; DIV: face:
; DIV: add i64 %{{.*}}, 1
define ptx_kernel void @faces(ptr %a, ptr %d, i32 %n, i32 %k) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %m = add i32 %n, %b
  %in = icmp slt i32 %t, %k
  %pos = icmp sgt i32 %t, 0
  %go = icmp sgt i32 %m, 0
  br i1 %go, label %body, label %done
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %p = getelementptr float, ptr %a, i32 %i
  store float 1.0, ptr %p
  br i1 %in, label %face, label %mid
face:
  store float 2.0, ptr %p
  br i1 %pos, label %edge, label %mid
edge:
  store float 3.0, ptr %p
  br label %mid
mid:
  %q = getelementptr float, ptr %d, i32 %i
  %v = load float, ptr %q
  %neg = fcmp olt float %v, 0.0
  br i1 %neg, label %data, label %latch
data:
  store float 0.0, ptr %q
  br label %latch
latch:
  %i.next = add nuw nsw i32 %i, 1
  %end = icmp eq i32 %i.next, %m
  br i1 %end, label %after, label %body
after:
  br label %done
done:
  ret void
}

; The branch toward %face is in an inner loop: counted per iteration.
; CHECK-LABEL: define ptx_kernel void @inner_branch(
; CHECK-NOT: pasta.seen
; CHECK: face:
; CHECK: add i64 %{{.*}}, 1
define ptx_kernel void @inner_branch(ptr %a, i32 %n, i32 %k) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %m = add i32 %n, %b
  %in = icmp slt i32 %t, %k
  %go = icmp sgt i32 %m, 0
  br i1 %go, label %outer, label %done
outer:
  %o = phi i32 [ 0, %entry ], [ %o.next, %latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  %j.next = add nuw nsw i32 %j, 1
  %iend = icmp eq i32 %j.next, %k
  br i1 %iend, label %test, label %inner
test:
  br i1 %in, label %face, label %latch
face:
  %p = getelementptr float, ptr %a, i32 %o
  store float 2.0, ptr %p
  br label %latch
latch:
  %o.next = add nuw nsw i32 %o, 1
  %oend = icmp eq i32 %o.next, %m
  br i1 %oend, label %done, label %outer
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
