; A module that calls only the CUDA driver API (kernels loaded with
; cuModuleLoad, compiled with NVRTC) may be linked without the CUDA runtime:
; its driver calls are wrapped with a null table of vendor operations (the
; runtime uses another module's, or passes the call through), and the
; module gets no reference to any cudart function.
; RUN: %opt -passes=pasta-host-registration -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

; CHECK-NOT: @__pasta_cuda_ops
; CHECK-NOT: @cuda
define i32 @run(ptr %f, ptr %fn, ptr %k, ptr %n, ptr %cfg) {
; CHECK-LABEL: define i32 @run(
; CHECK: call i32 @__pasta_module_launch_kernel(ptr %f, i32 1, i32 1, i32 1, i32 32, i32 1, i32 1, i32 0, ptr null, ptr null, ptr null, ptr @cuLaunchKernel, ptr null)
; CHECK: call i32 @__pasta_get_driver_entry_point_by_version(ptr @launch_name, ptr %fn, i32 12000, i64 0, ptr null, ptr @cuGetProcAddress_v2, ptr null)
; CHECK: call i32 @__pasta_get_func_by_symbol(ptr %fn, ptr %k, ptr @cuKernelGetFunction, ptr null)
; CHECK: call i32 @__pasta_launch_cooperative_kernel_driver(ptr %f, i32 8, i32 1, i32 1, i32 512, i32 1, i32 1, i32 0, ptr null, ptr null, ptr @cuLaunchCooperativeKernel, ptr null)
; CHECK: call i32 @__pasta_occupancy_max_active_blocks(ptr %n, ptr %f, i32 512, i64 0, ptr @cuOccupancyMaxActiveBlocksPerMultiprocessor, ptr null)
; CHECK: call i32 @__pasta_cu_func_set_config(ptr %f, i32 2, ptr @cuFuncSetCacheConfig, ptr null)
; CHECK: call i32 @__pasta_launch_kernel_ex_driver(ptr %cfg, ptr %f, ptr null, ptr null, ptr @cuLaunchKernelEx, ptr null)
; CHECK: call i32 @__pasta_cu_kernel_get_attribute(ptr %n, i32 4, ptr %k, i32 0, ptr @cuKernelGetAttribute, ptr null)
; CHECK: call i32 @__pasta_cu_kernel_set_attribute(i32 8, i32 65536, ptr %k, i32 0, ptr @cuKernelSetAttribute, ptr null)
; CHECK: call i32 @__pasta_cu_kernel_set_cache_config(ptr %k, i32 2, i32 0, ptr @cuKernelSetCacheConfig, ptr null)
; CHECK: call i32 @__pasta_occupancy_clusters(ptr %n, ptr %f, ptr %cfg, ptr @cuOccupancyMaxActiveClusters, ptr null)
  %a = call i32 @cuLaunchKernel(ptr %f, i32 1, i32 1, i32 1, i32 32, i32 1, i32 1, i32 0, ptr null, ptr null, ptr null)
  %b = call i32 @cuGetProcAddress_v2(ptr @launch_name, ptr %fn, i32 12000, i64 0, ptr null)
  %c = call i32 @cuKernelGetFunction(ptr %fn, ptr %k)
  %d = call i32 @cuLaunchCooperativeKernel(ptr %f, i32 8, i32 1, i32 1, i32 512, i32 1, i32 1, i32 0, ptr null, ptr null)
  %e = call i32 @cuOccupancyMaxActiveBlocksPerMultiprocessor(ptr %n, ptr %f, i32 512, i64 0)
  %g = call i32 @cuFuncSetCacheConfig(ptr %f, i32 2)
  %h = call i32 @cuLaunchKernelEx(ptr %cfg, ptr %f, ptr null, ptr null)
  %i = call i32 @cuKernelGetAttribute(ptr %n, i32 4, ptr %k, i32 0)
  %j = call i32 @cuKernelSetAttribute(i32 8, i32 65536, ptr %k, i32 0)
  %l = call i32 @cuKernelSetCacheConfig(ptr %k, i32 2, i32 0)
  %m = call i32 @cuOccupancyMaxActiveClusters(ptr %n, ptr %f, ptr %cfg)
  ret i32 %a
}

@launch_name = private constant [15 x i8] c"cuLaunchKernel\00"

declare i32 @cuLaunchKernel(ptr, i32, i32, i32, i32, i32, i32, i32, ptr, ptr, ptr)
declare i32 @cuGetProcAddress_v2(ptr, ptr, i32, i64, ptr)
declare i32 @cuKernelGetFunction(ptr, ptr)
declare i32 @cuLaunchCooperativeKernel(ptr, i32, i32, i32, i32, i32, i32, i32, ptr, ptr)
declare i32 @cuOccupancyMaxActiveBlocksPerMultiprocessor(ptr, ptr, i32, i64)
declare i32 @cuFuncSetCacheConfig(ptr, i32)
declare i32 @cuLaunchKernelEx(ptr, ptr, ptr, ptr)
declare i32 @cuKernelGetAttribute(ptr, i32, ptr, i32)
declare i32 @cuKernelSetAttribute(i32, i32, ptr, i32)
declare i32 @cuKernelSetCacheConfig(ptr, i32, i32)
declare i32 @cuOccupancyMaxActiveClusters(ptr, ptr, ptr)
; CHECK-NOT: @cuda
