; HIP host modules get the same registration as CUDA ones, through HIP's
; registration call and HIP's read-back calls (one vendor layer: the host
; runtime only sees struct pasta_vendor_ops).
; RUN: %opt -passes=pasta-host-registration -S %s | FileCheck %s
; HIP kernels get no register-capped copy (AMD builds every kernel for
; blocks of 1,024 threads).
; RUN: %opt -passes=pasta-host-registration -S %s | FileCheck %s --check-prefix=NOCAPPED
; NOCAPPED-NOT: __pasta_capped
; With -pasta-divergence the divergence copy is registered, but no uncapped
; twin, general copy or one-lane copy: register caps are NVIDIA's only (the
; device half emits none of them).
; RUN: %opt -passes=pasta-host-registration -pasta-divergence -S %s | FileCheck %s --check-prefix=DIV
; DIV: call void @__pasta_register_divergence_kernel(ptr @handle, ptr @__pasta_handle_axpy__pasta_div)
; DIV-NOT: {{__pasta_divu|__pasta_divg|__pasta_div1}}
; An AMD kernel gets a struct of one pointer as that pointer (clang's HIP
; kernel-argument rule), so its stub's slot of struct One counts as a
; pointer parameter (mask bit 0) and only P2's two pointers are numbered
; as fields: (1, 0) and (1, 16).
; RUN: %opt -passes=pasta-host-registration -S %s | FileCheck %s --check-prefix=FIELDS
; FIELDS: @__pasta_kernel_fields = private constant [4 x i32] [i32 1, i32 0, i32 1, i32 16]
; FIELDS: call void @__pasta_register_kernel(ptr @handle2, ptr @name2, ptr @__pasta_handle_k2__pasta_plain, ptr @__pasta_handle_k2__pasta_ws, ptr null, i32 2, i64 1,
; FIELDS-NEXT: call void @__pasta_register_kernel_fields(ptr @handle2, ptr @__pasta_kernel_fields, i32 2)
source_filename = "axpy.hip"
target triple = "x86_64-pc-linux-gnu"

@name = private constant [5 x i8] c"axpy\00"

; CHECK: @__pasta_shadow_[[ID:[0-9a-f]+]] = internal global [128 x i8] zeroinitializer
; CHECK: @__pasta_hip_ops = internal constant { ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, i64, ptr } { ptr @hipMemcpyFromSymbol, ptr @hipMemcpy, ptr @hipGetErrorString, ptr @hipDeviceSynchronize, ptr @hipGetDeviceCount, ptr @hipGetDevice, ptr @hipSetDevice, ptr @hipMalloc, ptr @hipFree, ptr @hipMemset, ptr @hipStreamSynchronize, ptr @hipGetLastError, ptr @hipPeekAtLastError, ptr @hipEventCreate, ptr @hipEventRecord, ptr @hipEventSynchronize, ptr @hipEventElapsedTime, ptr @hipEventDestroy, ptr @hipStreamIsCapturing, ptr @hipMemcpyAsync, ptr @hipMemsetAsync, ptr @hipHostMalloc, ptr @hipHostFree, ptr @hipDeviceGetAttribute, ptr @hipGraphGetNodes, ptr @hipGraphNodeGetType, ptr @hipGraphKernelNodeGetParams, ptr @hipGraphChildGraphNodeGetGraph, ptr @hipStreamCreateWithFlags, ptr @hipStreamDestroy, ptr @hipStreamWaitEvent, ptr @hipEventCreateWithFlags, ptr @hipOccupancyMaxActiveBlocksPerMultiprocessor, ptr @hipFuncGetAttributes, i64 2, ptr @__pasta_abi_v22 }
; CHECK-NOT: cuda

define internal void @__hip_register_globals(ptr %handle) {
; CHECK-LABEL: define internal void @__hip_register_globals(
; HIP's kernel handle is a variable holding the stub (which launches
; nothing here: count unknown).
; CHECK: call i32 @__hipRegisterFunction(ptr %handle, ptr @handle, ptr @name, ptr @name,
; CHECK-NEXT: call i32 @__hipRegisterFunction(ptr %handle, ptr @__pasta_handle_axpy__pasta_plain,
; CHECK-NEXT: call i32 @__hipRegisterFunction(ptr %handle, ptr @__pasta_handle_axpy__pasta_ws,
; CHECK-NEXT: call void @__pasta_register_kernel(ptr @handle, ptr @name, ptr @__pasta_handle_axpy__pasta_plain, ptr @__pasta_handle_axpy__pasta_ws, ptr null, i32 -1, i64 0, ptr @__pasta_shadow_[[ID]])
; CHECK-NEXT: call void @__hipRegisterVar(ptr %handle, ptr @__pasta_shadow_[[ID]], ptr @__pasta_desc_name, ptr @__pasta_desc_name, i32 0, i64 128, i32 0, i32 0)
; CHECK-NEXT: call void @__pasta_register_device_module(ptr @__pasta_shadow_[[ID]], ptr @__pasta_hip_ops)
  %r = call i32 @__hipRegisterFunction(ptr %handle, ptr @handle, ptr @name, ptr @name, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  %r2 = call i32 @__hipRegisterFunction(ptr %handle, ptr @handle2, ptr @name2, ptr @name2, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  ret void
}

define i32 @main() {
; CHECK-LABEL: define i32 @main(
; CHECK: call void @__pasta_before_device_reset()
; CHECK-NEXT: call i32 @hipDeviceReset()
; CHECK: call void @__pasta_main_exit()
; CHECK-NEXT: ret i32 0
  %r = call i32 @hipDeviceReset()
  ret i32 0
}

@handle = constant ptr @stub

define void @stub(ptr %x) {
  ret void
}

declare i32 @__hipRegisterFunction(ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr, ptr, ptr)
declare i32 @hipDeviceReset()

%struct.One = type { ptr }
%struct.P2 = type { ptr, i32, ptr }
@name2 = private constant [3 x i8] c"k2\00"
@handle2 = constant ptr @stub2
define void @stub2(ptr %o, ptr %pa, i32 %pn, ptr %pb) {
  %o.slot = alloca %struct.One
  store ptr %o, ptr %o.slot
  %p.slot = alloca %struct.P2
  store ptr %pa, ptr %p.slot
  %p8 = getelementptr inbounds i8, ptr %p.slot, i64 8
  store i32 %pn, ptr %p8
  %p16 = getelementptr inbounds i8, ptr %p.slot, i64 16
  store ptr %pb, ptr %p16
  %args = alloca [2 x ptr]
  store ptr %o.slot, ptr %args
  %a1 = getelementptr inbounds i8, ptr %args, i64 8
  store ptr %p.slot, ptr %a1
  %r = call i32 @hipLaunchKernel(ptr @handle2, i64 1, i32 1, i64 1, i32 1, ptr %args, i64 0, ptr null)
  ret void
}
declare i32 @hipLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)
