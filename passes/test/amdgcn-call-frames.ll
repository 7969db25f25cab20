; Device functions' frames on amdgcn (CallFrames.h; nvptx-call-frames.ll
; has the details): the frame is a private (addrspace 5) allocation of the
; kernel, passed to the twins as it is, and flushed through a flat pointer.
; RUN: %opt -passes=pasta-count -pasta-place-counters=0 -pasta-variants=0 -pasta-link-runtime=0 -S %s 2>/dev/null | FileCheck %s
; The back end takes the result, with the runtime linked.
; RUN: %opt -passes=pasta-count -pasta-variants=0 -S %s 2>/dev/null | llc -mcpu=gfx90a -o /dev/null

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; Counters: k 0-1 (launches, its block), scale 2-3 (calls, its block), the
; frame's element 0 is counter 2.
; CHECK-LABEL: define amdgpu_kernel void @k(
; CHECK-NEXT: entry:
; CHECK-NEXT: %pasta.frame = alloca [2 x i64], align 8, addrspace(5)
; CHECK: call void @llvm.memset.p5.i64(ptr addrspace(5) align 8 %pasta.frame, i8 0, i64 16, i1 false)
; CHECK: %pasta.frame.base = getelementptr i8, ptr addrspace(5) %pasta.frame, i64 0
; CHECK: call float @scale__pasta_frame(float %v, ptr addrspace(5) %pasta.frame.base)
; CHECK: %[[FLAT:[0-9]+]] = addrspacecast ptr addrspace(5) %pasta.frame to ptr
; CHECK-NEXT: call void @__pasta_flush(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 16, i32 4096, i32 2, ptr %[[FLAT]], i32 2)
; CHECK: ret void
define amdgpu_kernel void @k(ptr addrspace(1) %a) {
entry:
  %v = load float, ptr addrspace(1) %a
  %w = call float @scale(float %v)
  store float %w, ptr addrspace(1) %a
  ret void
}

; The twin adds its 2 counts to elements 0 and 1: no flush.
; CHECK-LABEL: define internal float @scale__pasta_frame(float %x, ptr addrspace(5) %pasta.frame)
; CHECK-NOT: __pasta_flush
; CHECK: getelementptr i64, ptr addrspace(5) %pasta.frame, i32 0
; CHECK: getelementptr i64, ptr addrspace(5) %pasta.frame, i32 1
; CHECK-NOT: __pasta_flush
; CHECK: ret float %y
define internal float @scale(float %x) noinline {
  %y = fmul float %x, 2.0
  ret float %y
}
