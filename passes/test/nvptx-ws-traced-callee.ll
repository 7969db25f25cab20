; A device function's working-set copy checks an access against a kernel
; parameter's range (__pasta_ws_flag_arg, its full path the uncached one,
; no cache passed) where every call of it passes the same kernel parameter,
; or a caller's parameter traced to one, through any GEPs; the range is
; loaded from the launch state (struct pasta_ws_arg K at offset 56 + 24 K).
; Calls that pass different parameters, or a pointer loaded from memory,
; leave the access to the cache (__pasta_ws_flag, __pasta_ws_mark_cached).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s | FileCheck %s
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @ka(ptr addrspace(1) %x, ptr addrspace(1) %y, ptr addrspace(1) %pp) {
entry:
  %x4 = getelementptr inbounds float, ptr addrspace(1) %x, i64 4
  call void @same(ptr addrspace(1) %x4)
  call void @mixed(ptr addrspace(1) %x)
  call void @mid(ptr addrspace(1) %y)
  %q = load ptr addrspace(1), ptr addrspace(1) %pp
  call void @loaded(ptr addrspace(1) %q)
  ret void
}

; Another kernel: @same gets its parameter 0 again, @mixed its parameter 1.
define ptx_kernel void @kb(ptr addrspace(1) %u, ptr addrspace(1) %v) {
entry:
  call void @same(ptr addrspace(1) %u)
  call void @mixed(ptr addrspace(1) %v)
  ret void
}

define internal void @same(ptr addrspace(1) %p) noinline {
entry:
  store float 1.0, ptr addrspace(1) %p
  ret void
}

define internal void @mixed(ptr addrspace(1) %p) noinline {
entry:
  store float 2.0, ptr addrspace(1) %p
  ret void
}

; Through two device functions: @leaf's parameter is @mid's, which is the
; kernel's parameter 1.
define internal void @mid(ptr addrspace(1) %p) noinline {
entry:
  %p1 = getelementptr inbounds float, ptr addrspace(1) %p, i64 1
  call void @leaf(ptr addrspace(1) %p1)
  ret void
}

define internal void @leaf(ptr addrspace(1) %p) noinline {
entry:
  store float 3.0, ptr addrspace(1) %p
  ret void
}

define internal void @loaded(ptr addrspace(1) %p) noinline {
entry:
  store float 4.0, ptr addrspace(1) %p
  ret void
}

; CHECK-LABEL: define internal void @same__pasta_ws(
; CHECK: store float 1.0
; CHECK: getelementptr inbounds i8, ptr addrspace(1) %pasta.ws, i64 56
; CHECK: addrspacecast
; CHECK-NEXT: call i64 @__pasta_ws_flag_arg(
; CHECK-NEXT: call void @__pasta_ws_mark_args(
; CHECK-LABEL: define internal void @mixed__pasta_ws(
; CHECK-NOT: @__pasta_ws_flag_arg
; CHECK: store float 2.0
; CHECK: addrspacecast
; CHECK-NEXT: call i64 @__pasta_ws_flag(
; CHECK-NEXT: call void @__pasta_ws_mark_cached(
; CHECK-LABEL: define internal void @mid__pasta_ws(
; CHECK-LABEL: define internal void @leaf__pasta_ws(
; CHECK: store float 3.0
; CHECK: getelementptr inbounds i8, ptr addrspace(1) %pasta.ws, i64 80
; CHECK: addrspacecast
; CHECK-NEXT: call i64 @__pasta_ws_flag_arg(
; CHECK-NEXT: call void @__pasta_ws_mark_args(
; CHECK-LABEL: define internal void @loaded__pasta_ws(
; CHECK-NOT: @__pasta_ws_flag_arg
; CHECK: store float 4.0
; CHECK: addrspacecast
; CHECK-NEXT: call i64 @__pasta_ws_flag(
; CHECK-NEXT: call void @__pasta_ws_mark_cached(
