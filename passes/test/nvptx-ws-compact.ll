; A kernel whose working-set copy, with the copies of the device functions
; it calls, tracks more accesses than the budget (-pasta-ws-compact-above,
; PASTA_WS_COMPACT_ABOVE) gets a compact copy: no flag found inline, one
; call of __pasta_ws_mark_compact per batch of up to four accesses, whose
; constant (struct pasta_ws_compact_batch: four sites, the generic mask,
; then per access its kernel parameter + 1 in byte k) lets the runtime check
; traced accesses against their parameter's range. The device functions it
; calls get compact copies too; a kernel within the budget keeps the inline
; flags. Budget 6: @big's tree tracks 7 accesses (6 + 1 in @dev), @small 1.
; These calls per batch are the default (-pasta-ws-compact-buffer=0); buffered, compact
; copies buffer their accesses (nvptx-ws-compact-buffer.ll).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-ws-compact-above=6 -pasta-ws-compact-buffer=0 -S %s | FileCheck %s
; RUN: env PASTA_WS_COMPACT_ABOVE=6 %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-ws-compact-buffer=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-ws-compact-above=7 -S %s | FileCheck %s --check-prefix=WITHIN
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s | FileCheck %s --check-prefix=WITHIN
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @big(ptr addrspace(1) %x, ptr addrspace(1) %y, ptr addrspace(1) %pp) {
entry:
  %a = load float, ptr addrspace(1) %x
  %x1 = getelementptr inbounds float, ptr addrspace(1) %x, i64 1
  store float %a, ptr addrspace(1) %x1
  store float %a, ptr addrspace(1) %y
  %q = load ptr, ptr addrspace(1) %pp
  %b = load float, ptr %q
  call void @dev(ptr addrspace(1) %y)
  store float %b, ptr addrspace(1) %x
  ret void
}

define ptx_kernel void @small(ptr addrspace(1) %z) {
entry:
  store float 1.0, ptr addrspace(1) %z
  ret void
}

define internal void @dev(ptr addrspace(1) %p) noinline {
entry:
  store float 2.0, ptr addrspace(1) %p
  ret void
}

; Batch 1: x, x + 1 (parameter 0), y (1), pp (2): 1 | 1 << 8 | 2 << 16 |
; 3 << 24. Batch 2: the generic load through q, untraced. Batch 3: x.
; CHECK-DAG: @[[B1:__pasta_ws_compact_batch[0-9.]*]] = private unnamed_addr addrspace(1) constant [6 x i32] [i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 0, i32 50462977]
; CHECK-DAG: @[[B2:__pasta_ws_compact_batch[0-9.]*]] = private unnamed_addr addrspace(1) constant [6 x i32] [i32 {{[0-9]+}}, i32 0, i32 0, i32 0, i32 1, i32 0]
; CHECK-DAG: @[[B3:__pasta_ws_compact_batch[0-9.]*]] = private unnamed_addr addrspace(1) constant [6 x i32] [i32 {{[0-9]+}}, i32 0, i32 0, i32 0, i32 0, i32 1]
; @dev's parameter is @big's y: parameter 1, byte 0 = 2.
; CHECK-DAG: @[[B4:__pasta_ws_compact_batch[0-9.]*]] = private unnamed_addr addrspace(1) constant [6 x i32] [i32 {{[0-9]+}}, i32 0, i32 0, i32 0, i32 0, i32 2]

; CHECK-LABEL: define ptx_kernel void @big__pasta_ws(
; CHECK-NOT: @__pasta_ws_flag
; CHECK-NOT: @__pasta_ws_mark_args
; CHECK: load ptr, ptr addrspace(1) %pp
; CHECK: call void @__pasta_ws_mark_compact(ptr addrspace(1) %pasta.ws, ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, ptr addrspace(1) @[[B1]])
; CHECK: load float, ptr %q
; CHECK-NEXT: call void @__pasta_ws_mark_compact(ptr addrspace(1) %pasta.ws, ptr %q, ptr null, ptr null, ptr null, ptr addrspace(1) @[[B2]])
; CHECK-NEXT: {{.*}}call void @dev__pasta_callee__pasta_ws(ptr addrspace(1) %y, ptr addrspace(1) %pasta.ws)
; CHECK: store float %b
; CHECK: call void @__pasta_ws_mark_compact(ptr addrspace(1) %pasta.ws, ptr %{{.*}}, ptr null, ptr null, ptr null, ptr addrspace(1) @[[B3]])
; CHECK-NOT: @__pasta_ws_flag
; CHECK: ret void

; CHECK-LABEL: define ptx_kernel void @small__pasta_ws(
; CHECK-NOT: @__pasta_ws_mark_compact
; CHECK: call i64 @__pasta_ws_flag_arg(
; CHECK-NEXT: call void @__pasta_ws_mark_args(
; CHECK-NOT: @__pasta_ws_mark_compact
; CHECK: ret void

; CHECK-LABEL: define internal {{.*}} @dev__pasta_callee__pasta_ws(
; CHECK-NOT: @__pasta_ws_flag
; CHECK: store float 2.0
; CHECK: call void @__pasta_ws_mark_compact(ptr addrspace(1) %pasta.ws, ptr %{{.*}}, ptr null, ptr null, ptr null, ptr addrspace(1) @[[B4]])

; WITHIN-NOT: __pasta_ws_mark_compact
; WITHIN-LABEL: define ptx_kernel void @big__pasta_ws(
; WITHIN: call i64 @__pasta_ws_flag_arg(
; WITHIN-NOT: __pasta_ws_mark_compact
