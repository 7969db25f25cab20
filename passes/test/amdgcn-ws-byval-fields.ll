; As nvptx-ws-byval-fields.ll, on AMD, where clang passes a kernel's
; aggregate parameters by reference into the kernel arguments (byref,
; address space 4): the pointer fields at offsets 0 and 16 of the second
; parameter are slots 32 and 33 of the launch state's args (offsets 824
; and 848); the int at offset 8 is no field.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s | FileCheck %s
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

%struct.P2 = type { ptr, i32, ptr }

define amdgpu_kernel void @k2(i32 %n, ptr addrspace(4) byref(%struct.P2) align 8 %p) "target-cpu"="gfx90a" {
entry:
  %a = load ptr, ptr addrspace(4) %p, align 8
  %p16 = getelementptr inbounds i8, ptr addrspace(4) %p, i64 16
  %b = load ptr, ptr addrspace(4) %p16, align 8
  %x = load float, ptr %b, align 4
  store float %x, ptr %a, align 4
  ret void
}

; CHECK-LABEL: define amdgpu_kernel void @k2__pasta_ws(
; CHECK: %pasta.ws.value, i64 848
; CHECK: call i64 @__pasta_ws_flag_arg({{.*}}, ptr %b)
; CHECK: %pasta.ws.value, i64 824
; CHECK: call i64 @__pasta_ws_flag_arg({{.*}}, ptr %a)
; CHECK-NOT: @__pasta_ws_flag(
; CHECK: ret void
