; HIP host modules get the same registration as CUDA ones, through HIP's
; registration call and HIP's read-back calls (one vendor layer: the host
; runtime only sees struct pasta_vendor_ops).
; RUN: %opt -passes=pasta-host-registration -S %s | FileCheck %s
; With -pasta-divergence the divergence copy is registered, but no uncapped
; twin: register caps are NVIDIA's only (the device half emits none).
; RUN: %opt -passes=pasta-host-registration -pasta-divergence -S %s | FileCheck %s --check-prefix=DIV
; DIV: call void @__pasta_register_divergence_kernel(ptr @handle, ptr @__pasta_handle_axpy__pasta_div)
; DIV-NOT: __pasta_divu
source_filename = "axpy.hip"
target triple = "x86_64-pc-linux-gnu"

@name = private constant [5 x i8] c"axpy\00"

; CHECK: @__pasta_shadow_[[ID:[0-9a-f]+]] = internal global [128 x i8] zeroinitializer
; CHECK: @__pasta_hip_ops = internal constant { ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, i64, ptr } { ptr @hipMemcpyFromSymbol, ptr @hipMemcpy, ptr @hipGetErrorString, ptr @hipDeviceSynchronize, ptr @hipGetDeviceCount, ptr @hipGetDevice, ptr @hipSetDevice, ptr @hipMalloc, ptr @hipFree, ptr @hipMemset, ptr @hipStreamSynchronize, ptr @hipGetLastError, ptr @hipEventCreate, ptr @hipEventRecord, ptr @hipEventSynchronize, ptr @hipEventElapsedTime, ptr @hipEventDestroy, ptr @hipStreamIsCapturing, ptr @hipMemcpyAsync, ptr @hipMemsetAsync, ptr @hipHostMalloc, ptr @hipHostFree, ptr @hipDeviceGetAttribute, ptr @hipGraphGetNodes, ptr @hipGraphNodeGetType, ptr @hipGraphKernelNodeGetParams, ptr @hipGraphChildGraphNodeGetGraph, ptr @hipStreamCreateWithFlags, ptr @hipStreamDestroy, ptr @hipStreamWaitEvent, ptr @hipEventCreateWithFlags, ptr @hipOccupancyMaxActiveBlocksPerMultiprocessor, ptr @hipFuncGetAttributes, i64 2, ptr @__pasta_abi_v14 }
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
