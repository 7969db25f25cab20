; A device function over the twins' return limit (10 guarded stores, 10
; bits, more than ReturnLimit = 8 counts), called in a kernel's loop: its
; twin adds its counts into a frame the kernel owns (an array of 64-bit
; counts in local memory, its last parameter) at its return, flushing
; nothing itself, and the kernel hands the frame to the indexed flush at
; its exit (CalleeCounts.h, step 3), with -pasta-callee-frames. Without it
; (the default) the twin flushes at its return, as before.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-variants=0 -pasta-callee-frames -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-variants=0 -S %s | FileCheck --check-prefix=OFF %s
; With -pasta-frame-bit-runs the 10 bits go to the frame as runs of their
; mask (slots 10 and 11 after the 10 counts): a return whose mask is the
; pending one adds a run; another first adds the pending runs to the bits'
; slots; the kernel's exit settles the pending runs before the flush.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-variants=0 -pasta-callee-frames -pasta-frame-bit-runs -S %s | FileCheck --check-prefix=RUNS %s
; RUNS-LABEL: define ptx_kernel void @k(
; RUNS: %pasta.frame = alloca [14 x i64]
; RUNS: call void @f__pasta_callee.pasta.settle(ptr %pasta.frame)
; RUNS-NEXT: call void @__pasta_flush_indexed({{.*}}, ptr %pasta.frame, ptr addrspace(1) @{{.*}}, i32 10)
; RUNS-LABEL: define internal void @f__pasta_callee(
; RUNS: [[MASK:%.*]] = and i64 %{{.*}}, 1023
; RUNS: [[PENDING:%.*]] = load i64, ptr addrspace(5) %{{.*}}
; RUNS: icmp eq i64 [[MASK]], [[PENDING]]
; RUNS-LABEL: define internal void @f__pasta_callee.pasta.settle(ptr %0)
; RUNS-COUNT-10: mul i64
; RUNS: ret void
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: %pasta.frame = alloca [10 x i64]
; CHECK: call void @f__pasta_callee(ptr %out, i32 %i, ptr %pasta.frame)
; CHECK: call void @__pasta_flush_indexed({{.*}}, i32 0, ptr %pasta.frame, ptr addrspace(1) @{{.*}}, i32 10)
; CHECK-LABEL: define internal void @f__pasta_callee(ptr %p, i32 %x, ptr %pasta.frame)
; CHECK-NOT: __pasta_flush
; CHECK: addrspacecast ptr %pasta.frame to ptr addrspace(5)
; CHECK-COUNT-10: store i64 %{{.*}}, ptr addrspace(5)
; CHECK-NOT: __pasta_flush
; CHECK: ret void
; OFF-LABEL: define ptx_kernel void @k(
; OFF-NOT: alloca [10 x i64]
; OFF: call void @f__pasta_callee(ptr %out, i32 %i)
; OFF-LABEL: define internal void @f__pasta_callee(ptr %p, i32 %x)
; OFF: __pasta_flush
define ptx_kernel void @k(ptr %out, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  call void @f(ptr %out, i32 %i)
  %slot = getelementptr inbounds i32, ptr %out, i32 %i
  store i32 %i, ptr %slot
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

define internal void @f(ptr %p, i32 %x) noinline {
entry:
  br label %b0
b0:
  %c0 = icmp sgt i32 %x, 0
  br i1 %c0, label %s0, label %j0
s0:
  %q0 = getelementptr inbounds i32, ptr %p, i32 0
  store i32 0, ptr %q0
  br label %j0
j0:
  br label %b1
b1:
  %c1 = icmp sgt i32 %x, 1
  br i1 %c1, label %s1, label %j1
s1:
  %q1 = getelementptr inbounds i32, ptr %p, i32 1
  store i32 1, ptr %q1
  br label %j1
j1:
  br label %b2
b2:
  %c2 = icmp sgt i32 %x, 2
  br i1 %c2, label %s2, label %j2
s2:
  %q2 = getelementptr inbounds i32, ptr %p, i32 2
  store i32 2, ptr %q2
  br label %j2
j2:
  br label %b3
b3:
  %c3 = icmp sgt i32 %x, 3
  br i1 %c3, label %s3, label %j3
s3:
  %q3 = getelementptr inbounds i32, ptr %p, i32 3
  store i32 3, ptr %q3
  br label %j3
j3:
  br label %b4
b4:
  %c4 = icmp sgt i32 %x, 4
  br i1 %c4, label %s4, label %j4
s4:
  %q4 = getelementptr inbounds i32, ptr %p, i32 4
  store i32 4, ptr %q4
  br label %j4
j4:
  br label %b5
b5:
  %c5 = icmp sgt i32 %x, 5
  br i1 %c5, label %s5, label %j5
s5:
  %q5 = getelementptr inbounds i32, ptr %p, i32 5
  store i32 5, ptr %q5
  br label %j5
j5:
  br label %b6
b6:
  %c6 = icmp sgt i32 %x, 6
  br i1 %c6, label %s6, label %j6
s6:
  %q6 = getelementptr inbounds i32, ptr %p, i32 6
  store i32 6, ptr %q6
  br label %j6
j6:
  br label %b7
b7:
  %c7 = icmp sgt i32 %x, 7
  br i1 %c7, label %s7, label %j7
s7:
  %q7 = getelementptr inbounds i32, ptr %p, i32 7
  store i32 7, ptr %q7
  br label %j7
j7:
  br label %b8
b8:
  %c8 = icmp sgt i32 %x, 8
  br i1 %c8, label %s8, label %j8
s8:
  %q8 = getelementptr inbounds i32, ptr %p, i32 8
  store i32 8, ptr %q8
  br label %j8
j8:
  br label %b9
b9:
  %c9 = icmp sgt i32 %x, 9
  br i1 %c9, label %s9, label %j9
s9:
  %q9 = getelementptr inbounds i32, ptr %p, i32 9
  store i32 9, ptr %q9
  br label %j9
j9:
  ret void
}
