; Unnamed values in an offset are printed by their slot numbers, numbered
; per function (one numbering serves all of a function's accesses: a fresh
; one per printed value made the pass quadratic in a kernel's size).
; RUN: %opt -passes=pasta-print-access-classes -disable-output %s 2>&1 | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; a[threadIdx.x + n], a and n unnamed (%0, %1; the entry block is %2); then
; a[n], the same argument again.
; CHECK: pasta: access args 0:0 w stride-1 stride=1 offset=4*(tid.x + %1)
; CHECK-NEXT: pasta: access args 0:0 w constant stride=0 offset=4*%1
define ptx_kernel void @args(ptr %0, i32 %1) {
  %3 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = add nsw i32 %3, %1
  %5 = sext i32 %4 to i64
  %6 = getelementptr inbounds float, ptr %0, i64 %5
  store float 0.0, ptr %6
  %7 = sext i32 %1 to i64
  %8 = getelementptr inbounds float, ptr %0, i64 %7
  store float 1.0, ptr %8
  ret void
}

; The next function numbers from 0 again: the offset it loads is %3 (after
; the entry block %2: indirect, as gather in access-classes-nvptx.ll), its
; loop's unnamed header %4.
; CHECK: pasta: access loop 0:0 r constant stride=0 offset=0
; CHECK-NEXT: pasta: access loop 0:0 w indirect stride=0 offset=4*%3 + 4*i<4>
define ptx_kernel void @loop(ptr %0, ptr %1) {
  %3 = load i64, ptr %1
  br label %4

4:
  %5 = phi i64 [ 0, %2 ], [ %8, %4 ]
  %6 = add i64 %3, %5
  %7 = getelementptr inbounds float, ptr %0, i64 %6
  store float 0.0, ptr %7
  %8 = add nuw nsw i64 %5, 1
  %9 = icmp ult i64 %8, 64
  br i1 %9, label %4, label %10

10:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
