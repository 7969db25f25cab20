; A module where a planned function ends threads from inline assembly
; (ThreadExits.h) gets no frames (CallFrames.h): a thread that ends there
; would lose its frame. Its device functions flush at their returns.
; RUN: %opt -passes=pasta-count -pasta-place-counters=0 -pasta-variants=0 -pasta-link-runtime=0 -S %s 2>/dev/null | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-NOT: __pasta_frame
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: call float @half(float %v)
; CHECK-LABEL: define internal float @half(
; CHECK: __pasta_flush_counter
; CHECK: ret float
; CHECK-NOT: __pasta_frame
define ptx_kernel void @k(ptr addrspace(1) %a, i32 %done) {
entry:
  %v = load float, ptr addrspace(1) %a
  %h = call float @half(float %v)
  store float %h, ptr addrspace(1) %a
  %stop = icmp ne i32 %done, 0
  br i1 %stop, label %quit, label %out
quit:
  call void asm sideeffect "exit;", ""()
  br label %out
out:
  ret void
}

define internal float @half(float %x) noinline {
  %y = fmul float %x, 0.5
  ret float %y
}
