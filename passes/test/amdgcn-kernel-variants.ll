; The plain and working-set copies for amdgcn, with the device runtime
; linked and inlined: the working-set copy takes the state as one more
; parameter, keeps its two-allocation cache in private memory (address space
; 5) promoted to registers, and checks the page flag of the global store.
; The table lookup of a cache miss and the hotness count stay out of line
; (one call each, not a table scan inlined at every access), compiled for
; the kernel's CPU.
; RUN: %opt -passes=pasta-count -S %s | FileCheck %s

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr addrspace(1) %out, float %v) "target-cpu"="gfx90a" {
entry:
  store float %v, ptr addrspace(1) %out
  ret void
}

; CHECK-LABEL: define amdgpu_kernel void @k(ptr addrspace(1) %out, float %v)
; CHECK-NOT: pasta.ws
; CHECK: ret void

; CHECK-LABEL: define amdgpu_kernel void @k__pasta_plain(ptr addrspace(1) %out, float %v)
; CHECK-NEXT: entry:
; CHECK-NEXT: store float %v, ptr addrspace(1) %out
; CHECK-NEXT: ret void

; After inlining nothing of the runtime is called, and no alloca is left:
; CHECK-LABEL: define amdgpu_kernel void @k__pasta_ws(ptr addrspace(1) %out, float %v, ptr addrspace(1) %pasta.ws)
; CHECK-NOT: alloca
; CHECK-NOT: call {{.*}} @__pasta_ws_resolve
; CHECK-NOT: call void @__pasta_ws_mark
; The store, then its page flag (after it: see nvptx-ws-flag-placement.ll).
; CHECK: store float %v, ptr addrspace(1) %out
; CHECK: call %struct.pasta_ws_hit @__pasta_ws_lookup(ptr addrspace(1) {{.*}}%pasta.ws,
; CHECK: call void @__pasta_ws_hot_at(ptr addrspace(1) {{.*}}%pasta.ws,
; CHECK: load i8, ptr addrspace(1)
; CHECK: store i8 1, ptr addrspace(1)
; CHECK: ret void
; CHECK: define internal %struct.pasta_ws_hit @__pasta_ws_lookup({{.*}} #[[LOOKUP:[0-9]+]]
; CHECK: define internal void @__pasta_ws_hot_at(
; CHECK: attributes #[[LOOKUP]] = { {{.*}}noinline{{.*}}"target-cpu"="gfx90a"
