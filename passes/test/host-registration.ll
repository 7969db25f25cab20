; In a CUDA host module, the device descriptor is registered with the CUDA
; runtime next to clang's own registrations, handed to the host runtime with
; the vendor calls it needs, and main reports before it returns.
; RUN: %opt -passes=pasta-host-registration -S %s | FileCheck %s
; With -pasta-divergence, each kernel's divergence copy is registered too and
; its handle handed to the runtime, and so are its uncapped twin
; (<kernel>__pasta_divu), its general copy (<kernel>__pasta_divg) and its
; one-lane copy (<kernel>__pasta_div1), which the device half emits on
; NVIDIA unless PASTA_DIV_MAXNREG=0; without it, nothing of the kind.
; RUN: %opt -passes=pasta-host-registration -pasta-divergence -S %s | FileCheck %s --check-prefix=DIV
; RUN: %opt -passes=pasta-host-registration -pasta-divergence -pasta-div-maxnreg=0 -S %s | FileCheck %s --check-prefix=NOCAP
; RUN: %opt -passes=pasta-host-registration -S %s | FileCheck %s --check-prefix=NODIV
; With PASTA_VARIANTS=plain only the plain copy is registered and handed to
; the runtime (the device half emits no working-set copy), with =ws only the
; working-set copy.
; RUN: %opt -passes=pasta-host-registration -pasta-variants=plain -S %s > %t.plain.ll
; RUN: FileCheck %s --check-prefix=PLAINONLY < %t.plain.ll
; RUN: FileCheck %s --check-prefix=NOWS < %t.plain.ll
; RUN: env PASTA_VARIANTS=ws %opt -passes=pasta-host-registration -S %s > %t.ws.ll
; RUN: FileCheck %s --check-prefix=WSONLY < %t.ws.ll
; RUN: FileCheck %s --check-prefix=NOPLAIN < %t.ws.ll
; PLAINONLY: call i32 @__cudaRegisterFunction(ptr %handle, ptr @__pasta_handle_axpy__pasta_plain,
; PLAINONLY-NEXT: call void @__pasta_register_kernel(ptr @stub, ptr @name, ptr @__pasta_handle_axpy__pasta_plain, ptr null, ptr null,
; NOWS-NOT: __pasta_ws
; WSONLY: call i32 @__cudaRegisterFunction(ptr %handle, ptr @__pasta_handle_axpy__pasta_ws,
; WSONLY-NEXT: call void @__pasta_register_kernel(ptr @stub, ptr @name, ptr null, ptr @__pasta_handle_axpy__pasta_ws, ptr null,
; NOPLAIN-NOT: __pasta_plain
; DIV: call void @__pasta_register_kernel(ptr @stub, ptr @name,
; DIV: call i32 @__cudaRegisterFunction(ptr %handle, ptr @__pasta_handle_axpy__pasta_div, ptr @[[DIV_NAME:[^,]+]], ptr @[[DIV_NAME]], i32 -1,
; DIV-NEXT: call void @__pasta_register_divergence_kernel(ptr @stub, ptr @__pasta_handle_axpy__pasta_div)
; DIV-NEXT: call i32 @__cudaRegisterFunction(ptr %handle, ptr @__pasta_handle_axpy__pasta_divu, ptr @[[DIVU_NAME:[^,]+]], ptr @[[DIVU_NAME]], i32 -1,
; DIV-NEXT: call void @__pasta_register_divergence_uncapped(ptr @stub, ptr @__pasta_handle_axpy__pasta_divu)
; DIV-NEXT: call i32 @__cudaRegisterFunction(ptr %handle, ptr @__pasta_handle_axpy__pasta_divg, ptr @[[DIVG_NAME:[^,]+]], ptr @[[DIVG_NAME]], i32 -1,
; DIV-NEXT: call void @__pasta_register_divergence_general(ptr @stub, ptr @__pasta_handle_axpy__pasta_divg)
; DIV-NEXT: call i32 @__cudaRegisterFunction(ptr %handle, ptr @__pasta_handle_axpy__pasta_div1, ptr @[[DIV1_NAME:[^,]+]], ptr @[[DIV1_NAME]], i32 -1,
; DIV-NEXT: call void @__pasta_register_divergence_one_lane(ptr @stub, ptr @__pasta_handle_axpy__pasta_div1)
; NOCAP: call void @__pasta_register_divergence_kernel(ptr @stub, ptr @__pasta_handle_axpy__pasta_div)
; NOCAP-NOT: {{__pasta_divu|__pasta_divg|__pasta_div1}}
; NODIV-NOT: __pasta_div
; A divergence build gets no working-set copies unless PASTA_VARIANTS is
; given (1 or ws): divergence runs never launch them (Options.cpp). The
; plain copy stays (launch windows, sampling, fallbacks).
; RUN: %opt -passes=pasta-host-registration -pasta-divergence -S %s | FileCheck %s --check-prefix=DIVNOWS
; RUN: %opt -passes=pasta-host-registration -pasta-divergence -pasta-variants=1 -S %s | FileCheck %s --check-prefix=DIVWS
; RUN: env PASTA_VARIANTS=ws %opt -passes=pasta-host-registration -pasta-divergence -S %s | FileCheck %s --check-prefix=DIVWSONLY
; DIVNOWS-NOT: axpy__pasta_ws
; DIVNOWS: call void @__pasta_register_kernel(ptr @stub, ptr @name, ptr @__pasta_handle_axpy__pasta_plain, ptr null, ptr null,
; DIVNOWS-NOT: axpy__pasta_ws
; DIVWS: call void @__pasta_register_kernel(ptr @stub, ptr @name, ptr @__pasta_handle_axpy__pasta_plain, ptr @__pasta_handle_axpy__pasta_ws, ptr null,
; DIVWSONLY: call void @__pasta_register_kernel(ptr @stub, ptr @name, ptr null, ptr @__pasta_handle_axpy__pasta_ws, ptr null,
source_filename = "axpy.cu"
target triple = "x86_64-pc-linux-gnu"

@name = private constant [5 x i8] c"axpy\00"

; CHECK: @__pasta_shadow_[[ID:[0-9a-f]+]] = internal global [128 x i8] zeroinitializer
; CHECK: @__pasta_desc_name = {{.*}} c"__pasta_desc_[[ID]]\00"
; CHECK: @__pasta_cuda_ops = internal constant { ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, i64, ptr } { ptr @cudaMemcpyFromSymbol, ptr @cudaMemcpy, ptr @cudaGetErrorString, ptr @cudaDeviceSynchronize, ptr @cudaGetDeviceCount, ptr @cudaGetDevice, ptr @cudaSetDevice, ptr @cudaMalloc, ptr @cudaFree, ptr @cudaMemset, ptr @cudaStreamSynchronize, ptr @cudaGetLastError, ptr @cudaPeekAtLastError, ptr @cudaEventCreate, ptr @cudaEventRecord, ptr @cudaEventSynchronize, ptr @cudaEventElapsedTime, ptr @cudaEventDestroy, ptr @cudaStreamIsCapturing, ptr @cudaMemcpyAsync, ptr @cudaMemsetAsync, ptr @cudaHostAlloc, ptr @cudaFreeHost, ptr @cudaDeviceGetAttribute, ptr @cudaGraphGetNodes, ptr @cudaGraphNodeGetType, ptr @cudaGraphKernelNodeGetParams, ptr @cudaGraphChildGraphNodeGetGraph, ptr @cudaStreamCreateWithFlags, ptr @cudaStreamDestroy, ptr @cudaStreamWaitEvent, ptr @cudaEventCreateWithFlags, ptr @cudaOccupancyMaxActiveBlocksPerMultiprocessor, ptr @cudaFuncGetAttributes, i64 1, ptr @__pasta_abi_v22 }
; Each kernel's plain and working-set variants get host handles of their own.
; CHECK: @__pasta_handle_axpy__pasta_plain = internal constant i8 0
; CHECK: @[[PLAIN_NAME:.*]] = {{.*}} c"axpy__pasta_plain\00"
; CHECK: @__pasta_handle_axpy__pasta_ws = internal constant i8 0
; CHECK: @[[WS_NAME:.*]] = {{.*}} c"axpy__pasta_ws\00"
; CHECK: @__pasta_handle_axpy__pasta_capped = internal constant i8 0
; CHECK: c"axpy__pasta_capped\00"
; CHECK: @__pasta_handle_axpy__pasta_wscap = internal constant i8 0
; CHECK: c"axpy__pasta_wscap\00"

define internal void @__cuda_register_globals(ptr %handle) {
; CHECK-LABEL: define internal void @__cuda_register_globals(
; CHECK: call i32 @__cudaRegisterFunction(ptr %handle, ptr @stub, ptr @name, ptr @name,
; CHECK-NEXT: call i32 @__cudaRegisterFunction(ptr %handle, ptr @__pasta_handle_axpy__pasta_plain, ptr @[[PLAIN_NAME]], ptr @[[PLAIN_NAME]], i32 -1,
; CHECK-NEXT: call i32 @__cudaRegisterFunction(ptr %handle, ptr @__pasta_handle_axpy__pasta_ws, ptr @[[WS_NAME]], ptr @[[WS_NAME]], i32 -1,
; The stub launches nothing here: its parameter count is unknown (-1).
; CHECK-NEXT: call void @__pasta_register_kernel(ptr @stub, ptr @name, ptr @__pasta_handle_axpy__pasta_plain, ptr @__pasta_handle_axpy__pasta_ws, ptr null, i32 -1, i64 0, ptr @__pasta_shadow_[[ID]])
; Its register-capped counting copy (the device half emits it, or a stub,
; for every NVIDIA kernel): registered, and its handle handed to the runtime.
; CHECK-NEXT: call i32 @__cudaRegisterFunction(ptr %handle, ptr @__pasta_handle_axpy__pasta_capped, ptr @[[CAPPED_NAME:[^,]+]], ptr @[[CAPPED_NAME]], i32 -1,
; CHECK-NEXT: call void @__pasta_register_capped_kernel(ptr @stub, ptr @__pasta_handle_axpy__pasta_capped)
; Its register-capped working-set copy (a stub but for kernels of many live
; values): registered, and its handle handed to the runtime.
; CHECK-NEXT: call i32 @__cudaRegisterFunction(ptr %handle, ptr @__pasta_handle_axpy__pasta_wscap, ptr @[[WSCAP_NAME:[^,]+]], ptr @[[WSCAP_NAME]], i32 -1,
; CHECK-NEXT: call void @__pasta_register_ws_capped_kernel(ptr @stub, ptr @__pasta_handle_axpy__pasta_wscap)
; CHECK-NEXT: call void @__cudaRegisterVar(ptr %handle, ptr @__pasta_shadow_[[ID]], ptr @__pasta_desc_name, ptr @__pasta_desc_name, i32 0, i64 128, i32 0, i32 0)
; CHECK-NEXT: call void @__pasta_register_device_module(ptr @__pasta_shadow_[[ID]], ptr @__pasta_cuda_ops)
  %r = call i32 @__cudaRegisterFunction(ptr %handle, ptr @stub, ptr @name, ptr @name, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  ret void
}

; A stub as clang writes it at -O0: each parameter in a slot, the slots'
; addresses in an array (alloca ptr, i64 N) passed to the launch. Two
; parameters, the first a pointer: mask 1.
@name2 = private constant [5 x i8] c"copy\00"
define void @stub2(ptr %p, i32 %n) {
  %p.slot = alloca ptr
  %n.slot = alloca i32
  store ptr %p, ptr %p.slot
  store i32 %n, ptr %n.slot
  %args = alloca ptr, i64 2
  store ptr %p.slot, ptr %args
  %a1 = getelementptr inbounds i8, ptr %args, i64 8
  store ptr %n.slot, ptr %a1
  %r = call i32 @cudaLaunchKernel(ptr @stub2, i64 1, i32 1, i64 1, i32 1, ptr %args, i64 0, ptr null)
  ret void
}
declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)
define internal void @register_more(ptr %handle) {
; CHECK-LABEL: define internal void @register_more(
; CHECK: call void @__pasta_register_kernel(ptr @stub2, ptr @name2, ptr @__pasta_handle_copy__pasta_plain, ptr @__pasta_handle_copy__pasta_ws, ptr null, i32 2, i64 1,
  %r = call i32 @__cudaRegisterFunction(ptr %handle, ptr @stub2, ptr @name2, ptr @name2, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  %r3 = call i32 @__cudaRegisterFunction(ptr %handle, ptr @stub3, ptr @name3, ptr @name3, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  ret void
}

; A kernel taking aggregates by value: a lambda in memory (the stub's byval
; parameter; pointers at 0 and 16, an int at 8) and a struct the x86-64 ABI
; split into two registers, which the stub stores back in a slot of the
; struct's type (pointers at 0 and 8). Their pointer fields are numbered
; across the parameters (ParameterFields.h) and handed to the runtime as
; (parameter, offset) pairs after the kernel's registration.
; RUN: %opt -passes=pasta-host-registration -S %s | FileCheck %s --check-prefix=FIELDS
; FIELDS: @__pasta_kernel_fields = private constant [8 x i32] [i32 1, i32 0, i32 1, i32 16, i32 2, i32 0, i32 2, i32 8]
; FIELDS-LABEL: define internal void @register_more(
; FIELDS: call void @__pasta_register_kernel(ptr @stub2,
; FIELDS-NOT: @__pasta_register_kernel_fields(
; FIELDS: call void @__pasta_register_kernel(ptr @stub3, ptr @name3, ptr @__pasta_handle_lam__pasta_plain, ptr @__pasta_handle_lam__pasta_ws, ptr null, i32 3, i64 0,
; FIELDS-NEXT: call void @__pasta_register_kernel_fields(ptr @stub3, ptr @__pasta_kernel_fields, i32 4)
%struct.cap = type { ptr, i32, ptr }
%struct.two = type { ptr, ptr }
@name3 = private constant [4 x i8] c"lam\00"
define void @stub3(i32 %n, ptr byval(%struct.cap) %f, ptr %t0, ptr %t1) {
  %n.slot = alloca i32
  %t.slot = alloca %struct.two
  store i32 %n, ptr %n.slot
  store ptr %t0, ptr %t.slot
  %t8 = getelementptr inbounds i8, ptr %t.slot, i64 8
  store ptr %t1, ptr %t8
  %args = alloca [3 x ptr]
  store ptr %n.slot, ptr %args
  %a1 = getelementptr inbounds i8, ptr %args, i64 8
  store ptr %f, ptr %a1
  %a2 = getelementptr inbounds i8, ptr %args, i64 16
  store ptr %t.slot, ptr %a2
  %r = call i32 @cudaLaunchKernel(ptr @stub3, i64 1, i32 1, i64 1, i32 1, ptr %args, i64 0, ptr null)
  ret void
}

define i32 @main() {
; CHECK-LABEL: define i32 @main(
; CHECK: call void @__pasta_main_exit()
; CHECK-NEXT: ret i32 0
  ret i32 0
}

define void @stub(ptr %a, i32 %n) {
  ret void
}

declare i32 @__cudaRegisterFunction(ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr, ptr, ptr)

; exit() collects first (the CUDA runtime may shut down before any atexit
; handler of ours runs); cudaDeviceReset saves the counters it would free.
define void @quit(i32 %code) {
; CHECK-LABEL: define void @quit(
; CHECK: call void @__pasta_before_device_reset()
; CHECK-NEXT: call i32 @cudaDeviceReset()
; CHECK: call void @__pasta_main_exit()
; CHECK-NEXT: call void @exit(i32 %code)
  %r = call i32 @cudaDeviceReset()
  call void @exit(i32 %code)
  unreachable
}

declare i32 @cudaDeviceReset()
declare void @exit(i32)
