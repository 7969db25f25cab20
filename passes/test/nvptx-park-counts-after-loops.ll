; A kernel's counter of an outermost loop that nothing adds to after the
; loop is parked in local memory at the loop's exit
; (-pasta-park-counts-after-loops, on by default): its count is added to a slot of the
; thread's local array, the register restarts from 0, and the exit flush
; sums the two. Held in a register, the count lived through every later
; loop: decoding_attention's dmha_fwd_kernel carried six counts of its
; first three loops through its fourth, whose 16 float accumulators and
; 16-byte loads then got fewer registers (53 against the plain kernel's
; 47), and ptxas loaded each trip's second row only after the first had
; arrived. Only ahead of a loop whose plain values live at its header take
; at least -pasta-park-loop-units=N 32-bit registers (32): here the second
; loop's 16 double accumulators, its index and the arguments it uses.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-variants=0 -pasta-park-counts-after-loops -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-variants=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-variants=0 -pasta-park-counts-after-loops=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-variants=0 -pasta-park-counts-after-loops -pasta-park-loop-units=64 -S %s | FileCheck %s --check-prefix=OFF
; CHECK-LABEL: define ptx_kernel void @two_loops(
; CHECK: %pasta.counts.mem = alloca [1 x i64]
; CHECK: store i64 0, ptr addrspace(5)
; The first loop's taken-branch count, in a register through the loop:
; CHECK: l1latch:
; CHECK-NEXT: [[COUNT:%pasta.count[0-9.]+]] = phi i32
; Parked at its exit, before the second loop:
; CHECK: mid:
; CHECK: [[OLD:%[0-9]+]] = load volatile i32, ptr addrspace(5)
; CHECK-NEXT: [[NEW:%[0-9]+]] = add i32 [[OLD]], [[COUNT]]
; CHECK: store volatile i32 [[NEW]], ptr addrspace(5)
; CHECK-NEXT: br label %l2
; CHECK: done:
; Flushed from the slot (the register's part, 0 after the loop, folded in):
; CHECK: [[PARKED:%[0-9]+]] = load volatile i32, ptr addrspace(5)
; CHECK-NEXT: add i32 0, [[PARKED]]
; CHECK: ret void
; OFF-LABEL: define ptx_kernel void @two_loops(
; OFF-NOT: pasta.counts.mem
; OFF-NOT: load volatile
; OFF: ret void
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @two_loops(ptr addrspace(1) %f, ptr addrspace(1) %d, ptr addrspace(1) %out, i32 %n) {
entry:
  br label %l1
l1:
  %i = phi i32 [ 0, %entry ], [ %inext, %l1latch ]
  %fp = getelementptr float, ptr addrspace(1) %f, i32 %i
  %fv = load float, ptr addrspace(1) %fp
  %pos = fcmp ogt float %fv, 0.0
  br i1 %pos, label %l1pos, label %l1latch
l1pos:
  store float 0.0, ptr addrspace(1) %fp
  br label %l1latch
l1latch:
  %inext = add i32 %i, 1
  %more1 = icmp slt i32 %inext, %n
  br i1 %more1, label %l1, label %mid
mid:
  br label %l2
l2:
  %j = phi i32 [ 0, %mid ], [ %jnext, %l2 ]
  %a0 = phi double [ 0.0, %mid ], [ %n0, %l2 ]
  %a1 = phi double [ 0.0, %mid ], [ %n1, %l2 ]
  %a2 = phi double [ 0.0, %mid ], [ %n2, %l2 ]
  %a3 = phi double [ 0.0, %mid ], [ %n3, %l2 ]
  %a4 = phi double [ 0.0, %mid ], [ %n4, %l2 ]
  %a5 = phi double [ 0.0, %mid ], [ %n5, %l2 ]
  %a6 = phi double [ 0.0, %mid ], [ %n6, %l2 ]
  %a7 = phi double [ 0.0, %mid ], [ %n7, %l2 ]
  %a8 = phi double [ 0.0, %mid ], [ %n8, %l2 ]
  %a9 = phi double [ 0.0, %mid ], [ %n9, %l2 ]
  %a10 = phi double [ 0.0, %mid ], [ %n10, %l2 ]
  %a11 = phi double [ 0.0, %mid ], [ %n11, %l2 ]
  %a12 = phi double [ 0.0, %mid ], [ %n12, %l2 ]
  %a13 = phi double [ 0.0, %mid ], [ %n13, %l2 ]
  %a14 = phi double [ 0.0, %mid ], [ %n14, %l2 ]
  %a15 = phi double [ 0.0, %mid ], [ %n15, %l2 ]
  %jk0 = add i32 %j, 0
  %q0 = getelementptr double, ptr addrspace(1) %d, i32 %jk0
  %jk1 = add i32 %j, 1
  %q1 = getelementptr double, ptr addrspace(1) %d, i32 %jk1
  %jk2 = add i32 %j, 2
  %q2 = getelementptr double, ptr addrspace(1) %d, i32 %jk2
  %jk3 = add i32 %j, 3
  %q3 = getelementptr double, ptr addrspace(1) %d, i32 %jk3
  %jk4 = add i32 %j, 4
  %q4 = getelementptr double, ptr addrspace(1) %d, i32 %jk4
  %jk5 = add i32 %j, 5
  %q5 = getelementptr double, ptr addrspace(1) %d, i32 %jk5
  %jk6 = add i32 %j, 6
  %q6 = getelementptr double, ptr addrspace(1) %d, i32 %jk6
  %jk7 = add i32 %j, 7
  %q7 = getelementptr double, ptr addrspace(1) %d, i32 %jk7
  %jk8 = add i32 %j, 8
  %q8 = getelementptr double, ptr addrspace(1) %d, i32 %jk8
  %jk9 = add i32 %j, 9
  %q9 = getelementptr double, ptr addrspace(1) %d, i32 %jk9
  %jk10 = add i32 %j, 10
  %q10 = getelementptr double, ptr addrspace(1) %d, i32 %jk10
  %jk11 = add i32 %j, 11
  %q11 = getelementptr double, ptr addrspace(1) %d, i32 %jk11
  %jk12 = add i32 %j, 12
  %q12 = getelementptr double, ptr addrspace(1) %d, i32 %jk12
  %jk13 = add i32 %j, 13
  %q13 = getelementptr double, ptr addrspace(1) %d, i32 %jk13
  %jk14 = add i32 %j, 14
  %q14 = getelementptr double, ptr addrspace(1) %d, i32 %jk14
  %jk15 = add i32 %j, 15
  %q15 = getelementptr double, ptr addrspace(1) %d, i32 %jk15
  %x0 = load double, ptr addrspace(1) %q0
  %n0 = fadd double %a0, %x0
  %x1 = load double, ptr addrspace(1) %q1
  %n1 = fadd double %a1, %x1
  %x2 = load double, ptr addrspace(1) %q2
  %n2 = fadd double %a2, %x2
  %x3 = load double, ptr addrspace(1) %q3
  %n3 = fadd double %a3, %x3
  %x4 = load double, ptr addrspace(1) %q4
  %n4 = fadd double %a4, %x4
  %x5 = load double, ptr addrspace(1) %q5
  %n5 = fadd double %a5, %x5
  %x6 = load double, ptr addrspace(1) %q6
  %n6 = fadd double %a6, %x6
  %x7 = load double, ptr addrspace(1) %q7
  %n7 = fadd double %a7, %x7
  %x8 = load double, ptr addrspace(1) %q8
  %n8 = fadd double %a8, %x8
  %x9 = load double, ptr addrspace(1) %q9
  %n9 = fadd double %a9, %x9
  %x10 = load double, ptr addrspace(1) %q10
  %n10 = fadd double %a10, %x10
  %x11 = load double, ptr addrspace(1) %q11
  %n11 = fadd double %a11, %x11
  %x12 = load double, ptr addrspace(1) %q12
  %n12 = fadd double %a12, %x12
  %x13 = load double, ptr addrspace(1) %q13
  %n13 = fadd double %a13, %x13
  %x14 = load double, ptr addrspace(1) %q14
  %n14 = fadd double %a14, %x14
  %x15 = load double, ptr addrspace(1) %q15
  %n15 = fadd double %a15, %x15
  %jnext = add i32 %j, 16
  %more2 = icmp slt i32 %jnext, %n
  br i1 %more2, label %l2, label %done
done:
  %s0 = fadd double %a0, %a1
  %s1 = fadd double %s0, %a2
  %s2 = fadd double %s1, %a3
  %s3 = fadd double %s2, %a4
  %s4 = fadd double %s3, %a5
  %s5 = fadd double %s4, %a6
  %s6 = fadd double %s5, %a7
  %s7 = fadd double %s6, %a8
  %s8 = fadd double %s7, %a9
  %s9 = fadd double %s8, %a10
  %s10 = fadd double %s9, %a11
  %s11 = fadd double %s10, %a12
  %s12 = fadd double %s11, %a13
  %s13 = fadd double %s12, %a14
  %s14 = fadd double %s13, %a15
  store double %s14, ptr addrspace(1) %out
  ret void
}
