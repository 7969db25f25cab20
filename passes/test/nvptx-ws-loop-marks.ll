; An access that runs once in every iteration of a loop whose trip count is
; known at the loop's entry, at an address that moves by a step invariant in
; the loop (here an int index of a float pointer: base + 4 * sext(i * s)),
; has its page flags set once, in front of the loop
; (__pasta_ws_mark_loop), not in the loop. Loops where that cannot be
; proven keep the per-access marks: an access after an early exit, a loop
; with a call that may not return, a trip count known only as the loop runs.
; (-pasta-ws-loop-min-trips=1: every count; nvptx-ws-loop-guard.ll has the
; test of the count at run time.)
; RUN: %opt -passes=pasta-count -pasta-ws-loop-min-trips=1 -pasta-ws-loop-marks-after=0 -pasta-link-runtime=0 -S %s | FileCheck %s
; -pasta-ws-loop-marks=0 (a hidden switch for measurements) leaves every
; access to its batch, in the loop: the strided load's flag is found in the
; loop body, and nothing is marked in front of a loop.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-ws-loop-marks=0 -S %s | FileCheck %s --check-prefix=OFF
; OFF-NOT: call {{.*}}@__pasta_ws_mark_loop(
; OFF-LABEL: define ptx_kernel void @strided__pasta_ws(
; OFF: loop:
; OFF: call i64 @__pasta_ws_flag_arg(
; OFF-NOT: call {{.*}}@__pasta_ws_mark_loop(
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @strided(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %n, i32 %s, i32 %t) {
entry:
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %loop ]
  %is = mul nsw i32 %i, %s
  %idx = add nsw i32 %is, %t
  %wide = sext i32 %idx to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %wide
  %v = load float, ptr addrspace(1) %p
  %sum.next = fadd float %sum, %v
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %r = phi float [ 0.0, %entry ], [ %sum.next, %loop ]
  store float %r, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @unsigned_index(ptr addrspace(1) %a, i32 %n, i32 %s) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %idx = mul i32 %i, %s
  %wide = zext i32 %idx to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %wide
  store float 1.0, ptr addrspace(1) %p
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define ptx_kernel void @early_exit(ptr addrspace(1) %a, ptr addrspace(1) %b, i32 %n) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %pa = getelementptr inbounds float, ptr addrspace(1) %a, i32 %i
  %va = load float, ptr addrspace(1) %pa
  %neg = fcmp olt float %va, 0.0
  br i1 %neg, label %exit, label %latch

latch:
  %pb = getelementptr inbounds float, ptr addrspace(1) %b, i32 %i
  store float %va, ptr addrspace(1) %pb
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define ptx_kernel void @may_stop(ptr addrspace(1) %a, i32 %n) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  call void asm sideeffect "exit;", ""()
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i32 %i
  store float 1.0, ptr addrspace(1) %p
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define ptx_kernel void @until_zero(ptr addrspace(1) %a) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %i
  %v = load i32, ptr addrspace(1) %p
  %i.next = add nuw nsw i64 %i, 1
  %zero = icmp eq i32 %v, 0
  br i1 %zero, label %exit, label %loop

exit:
  ret void
}

; In each iteration the store in %A may run several times (the cycle A <-> B
; has two entries: LoopInfo sees no loop there): per-access marks, which
; count each run (outside every allocation, hotness).
define ptx_kernel void @irreducible(ptr addrspace(1) %a, ptr addrspace(1) %c, i32 %n) {
entry:
  br label %h

h:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %ci = getelementptr inbounds i32, ptr addrspace(1) %c, i32 %i
  %cv = load volatile i32, ptr addrspace(1) %ci
  %cz = icmp eq i32 %cv, 0
  br i1 %cz, label %A, label %B

A:
  %wide = sext i32 %i to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %wide
  store float 1.0, ptr addrspace(1) %p
  %cv2 = load volatile i32, ptr addrspace(1) %ci
  %again = icmp eq i32 %cv2, 7
  br i1 %again, label %B, label %latch

B:
  br label %A

latch:
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %h

exit:
  ret void
}

; The strided load: the call in a preheader of its own (entry branches two
; ways); scalar evolution sees the address as a 64-bit recurrence, iteration
; k's address %a + 4 * %t + k * 4 * %s (scale 1, a 0, no extension: 64 | 0x100
; = 320), %n iterations; nothing in the loop. The store after it is marked as
; before.
; The loop mark's batch constant names its site (0) and, in bits 8-15,
; the launch state's slot + 1 of the parameter its address is traced to
; (%a, parameter 0: 256), so the runtime checks that allocation before
; searching the table.
; CHECK: @__pasta_ws_batch = private unnamed_addr addrspace(1) constant [5 x i32] [i32 0, i32 0, i32 0, i32 0, i32 256]
; CHECK-LABEL: define ptx_kernel void @strided__pasta_ws(
; CHECK: loop.preheader:
; CHECK: %[[T:.*]] = sext i32 %t to i64
; CHECK-NEXT: %[[T4:.*]] = shl nsw i64 %[[T]], 2
; CHECK-NEXT: %[[START:.*]] = getelementptr i8, ptr addrspace(1) %a, i64 %[[T4]]
; CHECK-NEXT: %[[S:.*]] = sext i32 %s to i64
; CHECK-NEXT: %[[S4:.*]] = shl nsw i64 %[[S]], 2
; CHECK: %[[GENERIC:.*]] = addrspacecast ptr addrspace(1) %[[START]] to ptr
; CHECK: %pasta.ws.trips = add i64 %{{.*}}, 1
; CHECK-NEXT: {{%.*}} = call i32 @__pasta_ws_mark_loop(ptr addrspace(1) %pasta.ws, ptr %[[GENERIC]], i64 1, i64 0, i64 %[[S4]], i64 %pasta.ws.trips, i32 320, ptr addrspace(1) @__pasta_ws_batch{{.*}})
; CHECK-NEXT: br label %loop
; CHECK: loop:
; CHECK-NOT: call {{.*}}@__pasta_ws_
; CHECK: br i1 %done
; CHECK: store float %r, ptr addrspace(1) %out
; CHECK: call void @__pasta_ws_mark_args(

; An unsigned index that may wrap: iteration k's address is
; %a + 4 * zext(k * %s) (scale 4, a 0, b %s, zero extension from 32 bits:
; 32); the runtime checks the wrap.
; CHECK-LABEL: define ptx_kernel void @unsigned_index__pasta_ws(
; CHECK: %[[B:.*]] = sext i32 %s to i64
; CHECK: {{%.*}} = call i32 @__pasta_ws_mark_loop(ptr addrspace(1) %pasta.ws, ptr %{{.*}}, i64 4, i64 0, i64 %[[B]], i64 %pasta.ws.trips, i32 32, ptr addrspace(1) @__pasta_ws_batch{{.*}})
; CHECK-NEXT: br label %loop
; CHECK: loop:
; CHECK-NOT: call {{.*}}@__pasta_ws_
; CHECK: br i1 %done

; The store after a conditional exit runs in some iterations only; the load
; before it runs in every iteration, but the loop may end at the exit before
; its count: both marked in the loop.
; CHECK-LABEL: define ptx_kernel void @early_exit__pasta_ws(
; CHECK-NOT: @__pasta_ws_mark_loop
; CHECK: %va = load float
; CHECK: call void @__pasta_ws_mark_args(
; CHECK: store float %va
; CHECK: call void @__pasta_ws_mark_args(
; CHECK-LABEL: define ptx_kernel void @may_stop__pasta_ws(
; CHECK-NOT: @__pasta_ws_mark_loop
; CHECK: store float 1.0
; CHECK: call void @__pasta_ws_mark_args(
; CHECK-LABEL: define ptx_kernel void @until_zero__pasta_ws(
; CHECK-NOT: @__pasta_ws_mark_loop
; CHECK: call void @__pasta_ws_mark_args(
; CHECK-LABEL: define ptx_kernel void @irreducible__pasta_ws(
; CHECK-NOT: @__pasta_ws_mark_loop
; CHECK: store float 1.0
; CHECK: call void @__pasta_ws_mark_args(
; A trip count the kernel loads from global memory (per element, often a
; few iterations: unfold's fold loop) keeps the marks in the loop; one read
; from a by-value parameter (known at launch) is marked in front.
; CHECK-LABEL: define ptx_kernel void @loaded_count__pasta_ws(
; CHECK-NOT: @__pasta_ws_mark_loop
; CHECK: loop:
; CHECK: call void @__pasta_ws_mark_args(
; CHECK-LABEL: define ptx_kernel void @param_count__pasta_ws(
; CHECK: call i32 @__pasta_ws_mark_loop(
; CHECK: loop:
; CHECK-NOT: call {{.*}}@__pasta_ws_
; CHECK: br i1 %done
; Read through __ldg (invariant, but the program's data): in the loop. A
; phi of two arguments: known at launch, marked in front.
; CHECK-LABEL: define ptx_kernel void @ldg_count__pasta_ws(
; CHECK-NOT: @__pasta_ws_mark_loop
; CHECK: loop:
; CHECK: call void @__pasta_ws_mark_args(
; CHECK-LABEL: define ptx_kernel void @phi_count__pasta_ws(
; CHECK: call i32 @__pasta_ws_mark_loop(
; CHECK: loop:
; CHECK-NOT: call {{.*}}@__pasta_ws_
; CHECK: br i1 %done
; CHECK: declare i32 @__pasta_ws_mark_loop(

define ptx_kernel void @loaded_count(ptr addrspace(1) %a, ptr addrspace(1) %out, ptr addrspace(1) %counts) {
entry:
  %n = load i32, ptr addrspace(1) %counts
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %loop ]
  %wide = zext i32 %i to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %wide
  %v = load float, ptr addrspace(1) %p
  %sum.next = fadd float %sum, %v
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %r = phi float [ 0.0, %entry ], [ %sum.next, %loop ]
  store float %r, ptr addrspace(1) %out
  ret void
}

%struct.count = type { i32 }
define ptx_kernel void @param_count(ptr addrspace(1) %a, ptr addrspace(1) %out, ptr byval(%struct.count) align 4 %c) {
entry:
  %n = load i32, ptr %c
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %loop ]
  %wide = zext i32 %i to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %wide
  %v = load float, ptr addrspace(1) %p
  %sum.next = fadd float %sum, %v
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %r = phi float [ 0.0, %entry ], [ %sum.next, %loop ]
  store float %r, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @ldg_count(ptr addrspace(1) %a, ptr addrspace(1) %out, ptr addrspace(1) %counts) {
entry:
  %n = load i32, ptr addrspace(1) %counts, !invariant.load !0
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %loop ]
  %wide = zext i32 %i to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %wide
  %v = load float, ptr addrspace(1) %p
  %sum.next = fadd float %sum, %v
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %r = phi float [ 0.0, %entry ], [ %sum.next, %loop ]
  store float %r, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @phi_count(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %x, i32 %y, i1 %c) {
start:
  br i1 %c, label %left, label %right
left:
  br label %entry
right:
  br label %entry
entry:
  %n = phi i32 [ %x, %left ], [ %y, %right ]
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %loop ]
  %wide = zext i32 %i to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %wide
  %v = load float, ptr addrspace(1) %p
  %sum.next = fadd float %sum, %v
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %r = phi float [ 0.0, %entry ], [ %sum.next, %loop ]
  store float %r, ptr addrspace(1) %out
  ret void
}

!0 = !{}
