; The working-set copy flags pages of global allocations only: an access to
; memory that can never be in one gets no touch, whatever its pointer's
; address space: a kernel parameter passed by value (a C++ functor, read
; through a generic pointer, as Thrust's are), the thread's stack, a constant
; variable. A pointer loaded from the functor is checked against the
; allocation the host found for that field (slot 32 of the state's args:
; ParameterFields.h); it may address anything, and outside that allocation
; the full path resolves it (the device runtime checks its space).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s | FileCheck %s
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.functor = type { ptr, i64 }
@table = internal addrspace(4) constant [4 x i64] [i64 1, i64 2, i64 3, i64 4]

define ptx_kernel void @apply(ptr byval(%struct.functor) align 8 %fn, i32 %i) {
entry:
  %scale.addr = getelementptr inbounds %struct.functor, ptr %fn, i64 0, i32 1
  %scale = load i64, ptr %scale.addr
  %tmp = alloca [4 x i64], align 8
  %slot = getelementptr inbounds [4 x i64], ptr %tmp, i64 0, i32 %i
  store i64 %scale, ptr %slot
  %t.addr = getelementptr inbounds [4 x i64], ptr addrspacecast (ptr addrspace(4) @table to ptr), i64 0, i32 %i
  %t = load i64, ptr %t.addr
  %out = load ptr, ptr %fn
  %x = mul i64 %scale, %t
  store i64 %x, ptr %out
  ret void
}

; CHECK-LABEL: define ptx_kernel void @apply__pasta_ws(
; CHECK-NOT: @__pasta_ws_flag
; CHECK: store i64 %x, ptr %out
; CHECK: %pasta.ws.value, i64 824
; CHECK: call i64 @__pasta_ws_flag_arg({{.*}}, ptr %out)
; CHECK-NOT: @__pasta_ws_flag
; CHECK: ret void
