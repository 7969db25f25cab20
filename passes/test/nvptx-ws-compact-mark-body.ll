; A compact working-set copy's per-batch call, __pasta_ws_mark_compact (device
; runtime linked): only the range checks of accesses traced to kernel
; parameters and the flag stores are in it; the full path (table searches,
; outside and hotness counts: votes and shuffles over the active lanes) is a
; call of __pasta_ws_mark_uncached. With the full path inline, the calls in
; both arms of a data-dependent branch of an unbuffered compact copy left its
; block counts wrong in working-set mode on an H200 (the myocyte-like shape:
; a then-block counted more often than its function was called), though no
; batch of the run took that path; out of line, exact.
; RUN: %opt -passes=pasta-count -pasta-ws-compact-above=0 -pasta-ws-compact-buffer=0 -S %s | FileCheck %s
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @arms(ptr addrspace(1) %y, ptr addrspace(1) %dy, i1 %c) {
entry:
  %a = load float, ptr addrspace(1) %y
  br i1 %c, label %then, label %else

then:
  %y1 = getelementptr inbounds float, ptr addrspace(1) %y, i64 1
  %b = load float, ptr addrspace(1) %y1
  %s = fadd float %a, %b
  store float %s, ptr addrspace(1) %dy
  br label %join

else:
  store float %a, ptr addrspace(1) %dy
  br label %join

join:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @arms__pasta_ws(
; CHECK: call void @__pasta_ws_mark_compact(
; CHECK: call void @__pasta_ws_mark_compact(

; CHECK-LABEL: define {{.*}}void @__pasta_ws_mark_compact(
; CHECK-NOT: @llvm.nvvm.activemask
; CHECK-NOT: @llvm.nvvm.vote
; CHECK-NOT: @llvm.nvvm.shfl
; CHECK: call void @__pasta_ws_mark_uncached(
; CHECK-NOT: @llvm.nvvm.activemask
; CHECK-NOT: @llvm.nvvm.vote
; CHECK-NOT: @llvm.nvvm.shfl
; CHECK: {{^}}}
