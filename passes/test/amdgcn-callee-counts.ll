; Device functions hand their counts to their callers on AMD too
; (passes/CalleeCounts.h): the kernel's direct call goes to a twin that
; returns its loop's count after its value; its flat pointer, a kernel
; argument at every call, is counted as global. Checked on IR and by
; compiling to a gfx942 code object (no AMD GPU runs it here).
; RUN: %opt -passes=pasta-count -pasta-print-sites -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=SITES < %t.err
; RUN: %opt -passes=pasta-count -S %s 2>/dev/null | llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o %t.o
; RUN: llvm-readobj --symbols %t.o | FileCheck %s --check-prefix=OBJ

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; CHECK-LABEL: define amdgpu_kernel void @k(
; CHECK: call { float, i64 } @sum__pasta_callee(ptr %a, i32 %n)
; CHECK: ret void
define amdgpu_kernel void @k(ptr %a, i32 %n, i32 %reps) {
entry:
  br label %loop
loop:
  %r = phi i32 [ 0, %entry ], [ %r.next, %loop ]
  %t = phi float [ 0.0, %entry ], [ %t.next, %loop ]
  %s = call float @sum(ptr %a, i32 %n)
  %t.next = fadd float %t, %s
  %r.next = add i32 %r, 1
  %more = icmp slt i32 %r.next, %reps
  br i1 %more, label %loop, label %done
done:
  store float %t.next, ptr %a
  ret void
}

; Internal and only called directly: the original goes.
; CHECK-NOT: define internal float @sum(
; CHECK-LABEL: define internal { float, i64 } @sum__pasta_callee(
; CHECK-NOT: ballot
; CHECK: ret { float, i64 }
define internal float @sum(ptr %p, i32 %n) noinline {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %body ]
  %pp = getelementptr float, ptr %p, i32 %i
  %x = load float, ptr %pp
  %acc.next = fadd float %acc, %x
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %body, label %out
out:
  ret float %acc.next
}

; SITES: func=sum {{.*}}ld.global=1 ldB.global=4
; SITES-NOT: ld.generic

; OBJ: Name: k
; OBJ: Name: sum__pasta_callee
