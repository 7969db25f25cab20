; A void device function with nothing to return to its callers (one block,
; whose count the caller derives; its store through a pointer proven
; global) keeps a void twin: an empty struct would be a zero-length .param
; array, which ptxas refuses ("Output parameter cannot be an incomplete
; array"). Its working-set copy too.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s 2>/dev/null | FileCheck %s
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-NOT: {} @put
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: call void @put__pasta_callee(ptr
; CHECK: define internal void @put__pasta_callee(ptr %p, float %v)
; CHECK-NEXT: store float %v, ptr %p
; CHECK-NEXT: ret void
; CHECK-NOT: {} @put
; CHECK: define internal void @put__pasta_callee__pasta_ws(
define ptx_kernel void @k(ptr %p) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %q = getelementptr float, ptr %p, i32 %t
  call void @put(ptr %q, float 1.0)
  ret void
}

define void @put(ptr %p, float %v) noinline {
  store float %v, ptr %p
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
