; A kernel's local array of pointers into shared memory, read at run-time
; indices: clang makes it a constant global initialized with the shared
; addresses, which ptxas refuses ("Variable used as initial value not in
; .global or .const state space"). passes/SharedAddressConstants.cpp gives
; each function that reads it a local copy built from the initializer and
; drops the global; a constant without shared addresses and one visible to
; other modules stay.
; RUN: %opt -passes=pasta-shared-address-constants -S %s | FileCheck %s
; RUN: %opt -passes=pasta-shared-address-constants -S %s | llc -mcpu=sm_90 | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@sm = external addrspace(3) global [0 x float], align 4
@__const.k.buf = private unnamed_addr constant [2 x ptr] [ptr addrspacecast (ptr addrspace(3) @sm to ptr), ptr getelementptr (i8, ptr addrspacecast (ptr addrspace(3) @sm to ptr), i64 1024)], align 8
@__const.k.pair = private unnamed_addr constant { i32, ptr } { i32 7, ptr addrspacecast (ptr addrspace(3) @sm to ptr) }, align 8
@table = private unnamed_addr constant [2 x i32] [i32 1, i32 2], align 4
@visible = constant [1 x ptr] [ptr addrspacecast (ptr addrspace(3) @sm to ptr)], align 8

; CHECK-NOT: @__const.k.buf =
; CHECK-NOT: @__const.k.pair =
; CHECK: @table = private
; CHECK: @visible = constant

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-DAG: %[[COPY:.*]] = alloca [2 x ptr], align 8
; CHECK-DAG: alloca { i32, ptr }, align 8
; CHECK-DAG: store ptr getelementptr (i8, ptr addrspacecast (ptr addrspace(3) @sm to ptr), i64 1024), ptr %{{.*}}, align 8
; CHECK-DAG: store i32 7,
; CHECK: getelementptr inbounds ptr, ptr %[[COPY]], i64 %i
; CHECK: getelementptr inbounds ptr, ptr @table
; PTX-NOT: __const
; PTX: .local
define ptx_kernel void @k(ptr %out, i64 %i, i64 %j) {
  %slot = getelementptr inbounds ptr, ptr @__const.k.buf, i64 %i
  %p = load ptr, ptr %slot, align 8
  %v = load float, ptr %p, align 4
  %t = getelementptr inbounds ptr, ptr @table, i64 %j
  %n = load i32, ptr %t, align 4
  %f = sitofp i32 %n to float
  %s = fadd float %v, %f
  %q = getelementptr inbounds { i32, ptr }, ptr @__const.k.pair, i64 0, i32 1
  %qp = load ptr, ptr %q, align 8
  %w = load float, ptr %qp, align 4
  %r = fadd float %s, %w
  store float %r, ptr %out, align 4
  ret void
}
