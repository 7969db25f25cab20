; As nvptx-ws-traced-callee.ll, on AMD: a device function whose every call
; passes the kernel's parameter 1 checks its access against that
; parameter's range (struct pasta_ws_arg 1, at offset 80 of the state); one
; called with two different parameters uses the cache.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s | FileCheck %s
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr addrspace(1) %x, ptr addrspace(1) %y) "target-cpu"="gfx90a" {
entry:
  call void @traced(ptr addrspace(1) %y)
  call void @mixed(ptr addrspace(1) %x)
  call void @mixed(ptr addrspace(1) %y)
  ret void
}

define internal void @traced(ptr addrspace(1) %p) noinline "target-cpu"="gfx90a" {
entry:
  store float 1.0, ptr addrspace(1) %p
  ret void
}

define internal void @mixed(ptr addrspace(1) %p) noinline "target-cpu"="gfx90a" {
entry:
  store float 2.0, ptr addrspace(1) %p
  ret void
}

; CHECK-LABEL: define internal void @traced__pasta_ws(
; CHECK: store float 1.0
; CHECK: getelementptr inbounds i8, ptr addrspace(1) %pasta.ws, i64 80
; CHECK: call i64 @__pasta_ws_flag_arg(
; CHECK-NEXT: call void @__pasta_ws_mark_args(
; CHECK-LABEL: define internal void @mixed__pasta_ws(
; CHECK-NOT: @__pasta_ws_flag_arg
; CHECK: store float 2.0
; CHECK: call i64 @__pasta_ws_flag(
; CHECK-NEXT: call void @__pasta_ws_mark_cached(
