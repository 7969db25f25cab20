; As nvptx-ws-compact.ll, on AMD: over the budget (-pasta-ws-compact-above=2,
; @k's tree tracks 3 accesses), the kernel's working-set copy and its
; device function's call __pasta_ws_mark_compact once per batch, nothing
; inline; the batch's last word names the kernel parameter of each access
; (+ 1, byte k): x and y (parameters 0 and 1) in @k, @dev's p (y) alone.
; That is the default for trees of up to 256 accesses (-pasta-ws-buffer-above);
; buffered (BUFFER, above the gate) each copy
; stores its accesses in a buffer in its private (addrspace 5) frame and
; calls __pasta_ws_mark_buffer at its return (nvptx-ws-compact-buffer.ll).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-callee-counts=0 -pasta-ws-compact-above=2 -pasta-ws-compact-buffer=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-callee-counts=0 -pasta-ws-compact-above=2 -pasta-ws-buffer-above=2 -S %s | FileCheck %s --check-prefix=BUFFER
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s | FileCheck %s --check-prefix=WITHIN
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr addrspace(1) %x, ptr addrspace(1) %y) "target-cpu"="gfx90a" {
entry:
  %a = load float, ptr addrspace(1) %x
  store float %a, ptr addrspace(1) %y
  call void @dev(ptr addrspace(1) %y)
  ret void
}

define internal void @dev(ptr addrspace(1) %p) noinline "target-cpu"="gfx90a" {
entry:
  store float 2.0, ptr addrspace(1) %p
  ret void
}

; 1 | 2 << 8 = 513; @dev: 2.
; CHECK-DAG: @[[BK:__pasta_ws_compact_batch[0-9.]*]] = private unnamed_addr addrspace(1) constant [6 x i32] [i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 0, i32 0, i32 0, i32 513]
; CHECK-DAG: @[[BD:__pasta_ws_compact_batch[0-9.]*]] = private unnamed_addr addrspace(1) constant [6 x i32] [i32 {{[0-9]+}}, i32 0, i32 0, i32 0, i32 0, i32 2]
; CHECK-LABEL: define amdgpu_kernel void @k__pasta_ws(
; CHECK-NOT: @__pasta_ws_flag
; CHECK: call void @__pasta_ws_mark_compact(ptr addrspace(1) %pasta.ws, ptr %{{.*}}, ptr %{{.*}}, ptr null, ptr null, ptr addrspace(1) @[[BK]])
; CHECK-NEXT: call void @dev__pasta_ws(
; CHECK-LABEL: define internal void @dev__pasta_ws(
; CHECK-NOT: @__pasta_ws_flag
; CHECK: call void @__pasta_ws_mark_compact(ptr addrspace(1) %pasta.ws, ptr %{{.*}}, ptr null, ptr null, ptr null, ptr addrspace(1) @[[BD]])

; The words (one access per slot at each call: in the calls' tables, not
; stored): x's and y's in @k, p's in @dev, parameter + 1 in bits 40-47.
; BUFFER: @__pasta_ws_buffer_words = private unnamed_addr addrspace(1) constant [2 x i64] [i64 [[#%d,X:]],
; BUFFER-SAME: i64 [[#X + 1099511627776]]]
; BUFFER: @__pasta_ws_buffer_words.1 = private unnamed_addr addrspace(1) constant [1 x i64] [i64 [[#X + 1099511627776 + 1]]]
; BUFFER-LABEL: define amdgpu_kernel void @k__pasta_ws(
; BUFFER: %pasta.ws.buffer = alloca [4 x i64], align 16, addrspace(5)
; BUFFER-NOT: @__pasta_ws_mark_compact
; BUFFER: ptrtoint
; BUFFER-NEXT: getelementptr inbounds i64, ptr addrspace(5) %pasta.ws.buffer, i64 0
; BUFFER-NEXT: store i64 %{{.*}}, ptr addrspace(5)
; BUFFER-NOT: store i64 {{[0-9]+}}, ptr addrspace(5)
; BUFFER: ptrtoint
; BUFFER-NEXT: getelementptr inbounds i64, ptr addrspace(5) %pasta.ws.buffer, i64 2
; BUFFER-NEXT: store i64 %{{.*}}, ptr addrspace(5)
; BUFFER-NOT: store i64 {{[0-9]+}}, ptr addrspace(5)
; BUFFER: call {{.*}} @dev__pasta_ws(
; BUFFER: call void @__pasta_ws_mark_buffer(ptr addrspace(1) %pasta.ws, ptr addrspace(5) %pasta.ws.buffer, i32 2, ptr addrspace(1) @__pasta_ws_buffer_words)
; BUFFER-NEXT: ret void
; BUFFER-LABEL: define internal void @dev__pasta_ws(
; BUFFER: %pasta.ws.buffer = alloca [2 x i64], align 16, addrspace(5)
; BUFFER: call void @__pasta_ws_mark_buffer(ptr addrspace(1) %pasta.ws, ptr addrspace(5) %pasta.ws.buffer, i32 1, ptr addrspace(1) @__pasta_ws_buffer_words.1)
; BUFFER-NEXT: ret void
; BUFFER: declare void @__pasta_ws_mark_buffer(ptr addrspace(1), ptr addrspace(5), i32, ptr addrspace(1))

; WITHIN-NOT: __pasta_ws_mark_compact
; WITHIN-LABEL: define amdgpu_kernel void @k__pasta_ws(
; WITHIN: call i64 @__pasta_ws_flag_arg(
; WITHIN-NOT: __pasta_ws_mark_compact
