; A kernel's pointers loaded from its by-value aggregate parameters (a
; lambda's or a functor's captures) are checked against the allocation the
; host found for that field: slot PASTA_WS_MAX_ARGS + j of the launch
; state's args (struct pasta_ws_arg at offset 56 + 24 * (32 + j)), j the
; field's number among the pointer fields of the kernel's aggregate
; parameters, in parameter order and offset order through nested structs
; and arrays (ParameterFields.h). A load at an offset that is no pointer
; field, and a pointer loaded from global memory, keep the cache.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s | FileCheck %s
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Pointer fields at 0 (j 0), 16 (j 1), 24 and 32 (the array: j 2, j 3).
%struct.cap = type { ptr, i32, ptr, [2 x ptr] }
%struct.ints = type { i32, i32 }
%struct.one = type { ptr }

define ptx_kernel void @lam(i32 %n, ptr byval(%struct.cap) align 8 %f) {
entry:
  %a = load ptr, ptr %f, align 8
  %f16 = getelementptr inbounds i8, ptr %f, i64 16
  %b = load ptr, ptr %f16, align 8
  %f32 = getelementptr inbounds i8, ptr %f, i64 32
  %c = load ptr, ptr %f32, align 8
  %ga = addrspacecast ptr %a to ptr addrspace(1)
  %gb = addrspacecast ptr %b to ptr addrspace(1)
  %gc = addrspacecast ptr %c to ptr addrspace(1)
  %x = load float, ptr addrspace(1) %gb, align 4
  store float %x, ptr addrspace(1) %ga, align 4
  store float 1.0, ptr addrspace(1) %gc, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @lam__pasta_ws(
; The first batch's load of b (j 1) and store to a (j 0), then c (j 3).
; CHECK: getelementptr inbounds i8, ptr %pasta.ws.value, i64 848
; CHECK: call i64 @__pasta_ws_flag_arg(
; CHECK: getelementptr inbounds i8, ptr %pasta.ws.value, i64 824
; CHECK: call i64 @__pasta_ws_flag_arg(
; CHECK: getelementptr inbounds i8, ptr %pasta.ws.value, i64 896
; CHECK: call i64 @__pasta_ws_flag_arg(
; CHECK-NOT: @__pasta_ws_flag(
; CHECK: ret void

; Fields are numbered across parameters: %g's only pointer is field j 0,
; slot 32 (offset 824), whatever comes before it; a pointer read at offset
; 4 of a struct of ints, or from global memory, is no field.
define ptx_kernel void @two(ptr byval(%struct.ints) align 4 %i, ptr byval(%struct.one) align 8 %g, ptr addrspace(1) %pp) {
entry:
  %p = load ptr, ptr %g, align 8
  %gp = addrspacecast ptr %p to ptr addrspace(1)
  store float 2.0, ptr addrspace(1) %gp, align 4
  %i4 = getelementptr inbounds i8, ptr %i, i64 4
  %q = load ptr, ptr %i4, align 8
  %gq = addrspacecast ptr %q to ptr addrspace(1)
  store float 3.0, ptr addrspace(1) %gq, align 4
  %r = load ptr addrspace(1), ptr addrspace(1) %pp, align 8
  store float 4.0, ptr addrspace(1) %r, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @two__pasta_ws(
; CHECK: %pasta.ws.value, i64 824
; CHECK: %[[GP:[0-9]+]] = addrspacecast ptr addrspace(1) %gp to ptr
; CHECK-NEXT: call i64 @__pasta_ws_flag_arg({{.*}}, ptr %[[GP]])
; CHECK-NEXT: %[[GQ:[0-9]+]] = addrspacecast ptr addrspace(1) %gq to ptr
; CHECK-NEXT: call i64 @__pasta_ws_flag(i32 %pasta.ws.shift, ptr %[[GQ]],
; The load of %pp itself is parameter 2's (offset 56 + 48).
; CHECK: %pasta.ws.value, i64 104
; CHECK: %[[PP:[0-9]+]] = addrspacecast ptr addrspace(1) %pp to ptr
; CHECK-NEXT: call i64 @__pasta_ws_flag_arg({{.*}}, ptr %[[PP]])
; CHECK-NEXT: %[[R:[0-9]+]] = addrspacecast ptr addrspace(1) %r to ptr
; CHECK-NEXT: call i64 @__pasta_ws_flag(i32 %pasta.ws.shift, ptr %[[R]],
; CHECK: ret void

; Thrust's device_ptr fields are loaded as i64 and cast to a pointer: the
; same field, slot 32 (offset 824).
%struct.dptr = type { ptr, i64 }
define ptx_kernel void @as_int(i64 %n, ptr byval(%struct.dptr) align 8 %f) {
entry:
  %raw = load i64, ptr %f, align 8
  %p = inttoptr i64 %raw to ptr
  %q = getelementptr inbounds i64, ptr %p, i64 %n
  store i64 7, ptr %q, align 8
  ret void
}

; CHECK-LABEL: define ptx_kernel void @as_int__pasta_ws(
; CHECK: %pasta.ws.value, i64 824
; CHECK: call i64 @__pasta_ws_flag_arg({{.*}}, ptr %q)
; CHECK-NOT: @__pasta_ws_flag(
; CHECK: ret void
