; The plain and working-set copies for amdgcn, with the device runtime
; linked and inlined: the working-set copy takes the state as one more
; parameter, keeps its two-allocation cache in private memory (address space
; 5) promoted to registers, and checks the page flag of the global store.
; The store is traced to the kernel's parameter: its flag comes from the
; parameter's range, without a branch; the full path (outside the range, or
; a launch counting hotness) stays out of line, one call for the batch (not
; a table scan inlined at every access), compiled for the kernel's CPU.
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

; After inlining no alloca is left (no cache: the copy's only access is
; traced to a parameter), and of the runtime only the full path is called:
; The launch state comes twice: its address, which the runtime's full path
; reads, and by value (byref into the kernel arguments, abi.h), from which
; the copy reads what its accesses need: no load from global memory.
; CHECK-LABEL: define amdgpu_kernel void @k__pasta_ws(ptr addrspace(1) %out, float %v, ptr addrspace(1) %pasta.ws, ptr addrspace(4) noalias readonly byref([1208 x i8]) align 8 %pasta.ws.value)
; CHECK-NOT: load {{.*}} ptr addrspace(1) %pasta.ws
; CHECK-NOT: alloca
; CHECK-NOT: call {{.*}} @__pasta_ws_
; CHECK-NOT: call void @__pasta_ws_mark
; The store, then its page flag (after it: see nvptx-ws-flag-placement.ll).
; CHECK: store float %v, ptr addrspace(1) %out
; CHECK-NOT: br
; CHECK: getelementptr inbounds i8, ptr addrspace(4) %pasta.ws.value, i64 56
; CHECK-NOT: br
; Outside the range, the flag gets bit 63 (device_rt_ws.inc.c): one OR of
; the batch's flags and one shift tell whether it takes the full path, not
; a select and a compare with -1 per access.
; CHECK-NOT: i64 -1
; CHECK: %[[OUT:.*]] = select i1 %{{.*}}, i64 0, i64 -9223372036854775808
; CHECK-NEXT: %[[FLAG:.*]] = or i64 %{{.*}}, %[[OUT]]
; CHECK-NEXT: %[[SLOW:.*]] = lshr i64 %[[FLAG]], 63
; CHECK-NOT: i64 -1
; CHECK-NOT: call
; CHECK: br i1
; CHECK: call void @__pasta_ws_mark_uncached(ptr addrspace(1) {{.*}}%pasta.ws, ptr {{.*}}, ptr noundef null, ptr noundef null, ptr noundef null, ptr addrspace(1) {{.*}}@__pasta_ws_batch)
; CHECK-NOT: load i8, ptr addrspace(1)
; CHECK: store i8 1, ptr addrspace(1)
; CHECK-NOT: call {{.*}} @__pasta_ws_
; CHECK: ret void
; CHECK-NOT: @__pasta_ws_lookup
; CHECK: define internal void @__pasta_ws_mark_uncached({{.*}} #[[SLOW:[0-9]+]]
; CHECK: attributes #[[SLOW]] = { {{.*}}noinline{{.*}}"target-cpu"="gfx90a"
