; HIP passes a kernel's aggregate arguments by reference to the kernel
; arguments (byref, address space 4): a functor read through a flat pointer
; to them is never in an allocation and gets no page flag; the global store
; through the pointer it holds does, checked against the allocation the host
; found for that field (slot 32 of the state's args: ParameterFields.h).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s | FileCheck %s
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

%struct.functor = type { ptr, i64 }

define amdgpu_kernel void @apply(ptr addrspace(4) byref(%struct.functor) align 8 %fn) "target-cpu"="gfx90a" {
entry:
  %flat = addrspacecast ptr addrspace(4) %fn to ptr
  %scale.addr = getelementptr inbounds %struct.functor, ptr %flat, i64 0, i32 1
  %scale = load i64, ptr %scale.addr
  %out = load ptr, ptr %flat
  store i64 %scale, ptr %out
  ret void
}

; CHECK-LABEL: define amdgpu_kernel void @apply__pasta_ws(
; CHECK: %scale = load i64, ptr %scale.addr
; CHECK-NOT: @__pasta_ws_flag
; CHECK: store i64 %scale, ptr %out
; CHECK: %pasta.ws.value, i64 824
; CHECK: %[[F:.*]] = call i64 @__pasta_ws_flag_arg({{.*}}, ptr %out)
; CHECK-NEXT: call void @__pasta_ws_mark_args(ptr addrspace(1) %pasta.ws, i64 %pasta.ws.blocks, i64 %[[F]], i64 0, i64 0, i64 0, ptr %out, ptr null, ptr null, ptr null,
; CHECK-NOT: @__pasta_ws_flag
