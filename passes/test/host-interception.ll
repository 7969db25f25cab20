; The program's launch, allocation, copy, set and synchronisation calls go
; through the host runtime's wrappers, which get the function the program
; called and the module's vendor operations as two more arguments. Calls
; with another signature than the runtime's, and the vendor operations'
; own references, are left alone.
; RUN: %opt -passes=pasta-host-registration -S %s | FileCheck %s
; RUN: %opt -passes=pasta-host-registration -pasta-intercept=0 -S %s | FileCheck %s --check-prefix=OFF
target triple = "x86_64-pc-linux-gnu"

; CHECK: @__pasta_cuda_ops = internal constant {{.*}} ptr @cudaMalloc, ptr @cudaFree,
; The program's pending error is peeked at, never cleared by PASTA.
; CHECK-SAME: ptr @cudaGetLastError, ptr @cudaPeekAtLastError,

define i32 @run(ptr %p, ptr %args, ptr %stream, ptr %stub) {
; CHECK-LABEL: define i32 @run(
; CHECK: call i32 @__pasta_malloc(ptr %p, i64 1024, ptr @cudaMalloc, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_memcpy(ptr %d, ptr %p, i64 1024, i32 1, ptr @cudaMemcpy, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_memset_async(ptr %d, i32 0, i64 64, ptr %stream, ptr @cudaMemsetAsync, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_launch_kernel(ptr %stub, i64 4294967297, i32 1, i64 4294967552, i32 1, ptr %args, i64 0, ptr %stream, ptr @cudaLaunchKernel, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_stream_synchronize(ptr %stream, ptr @cudaStreamSynchronize, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_device_synchronize(ptr @cudaDeviceSynchronize, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_free(ptr %d, ptr @cudaFree, ptr @__pasta_cuda_ops)
; A function that only shares a name is not the runtime's: left alone.
; CHECK: call i32 @cudaMallocHost(ptr %p)
; OFF-NOT: __pasta_malloc
; OFF-NOT: __pasta_launch_kernel
  %a = call i32 @cudaMalloc(ptr %p, i64 1024)
  %d = load ptr, ptr %p
  %b = call i32 @cudaMemcpy(ptr %d, ptr %p, i64 1024, i32 1)
  %c = call i32 @cudaMemsetAsync(ptr %d, i32 0, i64 64, ptr %stream)
  %e = call i32 @cudaLaunchKernel(ptr %stub, i64 4294967297, i32 1, i64 4294967552, i32 1, ptr %args, i64 0, ptr %stream)
  %f = call i32 @cudaStreamSynchronize(ptr %stream)
  %g = call i32 @cudaDeviceSynchronize()
  %h = call i32 @cudaFree(ptr %d)
  %i = call i32 @cudaMallocHost(ptr %p)
  ret i32 %e
}

; HIP calls get the HIP operations.
define i32 @run_hip(ptr %p) {
; CHECK-LABEL: define i32 @run_hip(
; CHECK: call i32 @__pasta_malloc_managed(ptr %p, i64 64, i32 1, ptr @hipMallocManaged, ptr @__pasta_hip_ops)
  %a = call i32 @hipMallocManaged(ptr %p, i64 64, i32 1)
; A cooperative HIP launch: its shared-memory size is an i32.
; CHECK: call i32 @__pasta_launch_kernel_shm32(ptr %p, i64 4294967297, i32 1, i64 4294967552, i32 1, ptr null, i32 128, ptr null, ptr @hipLaunchCooperativeKernel, ptr @__pasta_hip_ops)
  %c = call i32 @hipLaunchCooperativeKernel(ptr %p, i64 4294967297, i32 1, i64 4294967552, i32 1, ptr null, i32 128, ptr null)
; A module launch (a kernel loaded at run time): its own wrapper.
; CHECK: call i32 @__pasta_module_launch_kernel(ptr %p, i32 2, i32 3, i32 4, i32 32, i32 1, i32 1, i32 0, ptr null, ptr null, ptr null, ptr @hipModuleLaunchKernel, ptr @__pasta_hip_ops)
  %m = call i32 @hipModuleLaunchKernel(ptr %p, i32 2, i32 3, i32 4, i32 32, i32 1, i32 1, i32 0, ptr null, ptr null, ptr null)
  ret i32 %a
}

; Graphs: instantiation reads the kernel nodes, a launch records them;
; cuLaunchKernel taken as a pointer and driver handles of kernels are
; PASTA's too (the driver API, as libraries use it).
define i32 @run_graph(ptr %exec, ptr %graph, ptr %stream, ptr %fn) {
; CHECK-LABEL: define i32 @run_graph(
; CHECK: call i32 @__pasta_graph_instantiate(ptr %exec, ptr %graph, i64 0, ptr @cudaGraphInstantiate, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_graph_exec_update(ptr %e, ptr %graph, ptr null, ptr @cudaGraphExecUpdate, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_graph_launch(ptr %e, ptr %stream, ptr @cudaGraphLaunch, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_hip_graph_instantiate(ptr %exec, ptr %graph, ptr null, ptr null, i64 0, ptr @hipGraphInstantiate, ptr @__pasta_hip_ops)
; CHECK: call i32 @__pasta_get_driver_entry_point(ptr @launch_name, ptr %fn, i64 0, ptr null, ptr @cudaGetDriverEntryPoint, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_get_driver_entry_point_by_version(ptr @launch_name, ptr %fn, i32 12000, i64 0, ptr null, ptr @cuGetProcAddress_v2, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_get_func_by_symbol(ptr %fn, ptr %graph, ptr @cudaGetKernel, ptr @__pasta_cuda_ops)
  %a = call i32 @cudaGraphInstantiate(ptr %exec, ptr %graph, i64 0)
  %e = load ptr, ptr %exec
  %b = call i32 @cudaGraphExecUpdate(ptr %e, ptr %graph, ptr null)
  %c = call i32 @cudaGraphLaunch(ptr %e, ptr %stream)
  %d = call i32 @hipGraphInstantiate(ptr %exec, ptr %graph, ptr null, ptr null, i64 0)
  %f = call i32 @cudaGetDriverEntryPoint(ptr @launch_name, ptr %fn, i64 0, ptr null)
  %g = call i32 @cuGetProcAddress_v2(ptr @launch_name, ptr %fn, i32 12000, i64 0, ptr null)
  %h = call i32 @cudaGetKernel(ptr %fn, ptr %graph)
  ret i32 %c
}

; What the program asks about its kernels (occupancy, attributes) goes
; through the wrappers that answer for the plain copy; an attribute it sets
; goes through the one that sets it on every copy. The vendor operations
; keep their own references to the functions (the ops table above).
define i32 @occupancy(ptr %n, ptr %fn, ptr %attr, ptr %bytes) {
; CHECK-LABEL: define i32 @occupancy(
; CHECK: call i32 @__pasta_occupancy_max_active_blocks(ptr %n, ptr %fn, i32 512, i64 0, ptr @cudaOccupancyMaxActiveBlocksPerMultiprocessor, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_occupancy_max_active_blocks_flags(ptr %n, ptr %fn, i32 1024, i64 64, i32 1, ptr @cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_occupancy_available_shared_memory(ptr %bytes, ptr %fn, i32 2, i32 256, ptr @cudaOccupancyAvailableDynamicSMemPerBlock, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_func_get_attributes(ptr %attr, ptr %fn, ptr @cudaFuncGetAttributes, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_func_set_attribute(ptr %fn, i32 8, i32 98304, ptr @cudaFuncSetAttribute, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_occupancy_max_potential_block_size(ptr %n, ptr %bytes, ptr %fn, i64 0, i32 0, ptr @hipOccupancyMaxPotentialBlockSize, ptr @__pasta_hip_ops)
; CHECK: call i32 @__pasta_func_get_attributes(ptr %attr, ptr %fn, ptr @hipFuncGetAttributes, ptr @__pasta_hip_ops)
; CHECK: call i32 @__pasta_occupancy_clusters(ptr %n, ptr %fn, ptr %attr, ptr @cudaOccupancyMaxActiveClusters, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_occupancy_clusters(ptr %n, ptr %fn, ptr %attr, ptr @cudaOccupancyMaxPotentialClusterSize, ptr @__pasta_cuda_ops)
; OFF-NOT: __pasta_occupancy
  %a = call i32 @cudaOccupancyMaxActiveBlocksPerMultiprocessor(ptr %n, ptr %fn, i32 512, i64 0)
  %b = call i32 @cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(ptr %n, ptr %fn, i32 1024, i64 64, i32 1)
  %c = call i32 @cudaOccupancyAvailableDynamicSMemPerBlock(ptr %bytes, ptr %fn, i32 2, i32 256)
  %d = call i32 @cudaFuncGetAttributes(ptr %attr, ptr %fn)
  %e = call i32 @cudaFuncSetAttribute(ptr %fn, i32 8, i32 98304)
  %f = call i32 @hipOccupancyMaxPotentialBlockSize(ptr %n, ptr %bytes, ptr %fn, i64 0, i32 0)
  %g = call i32 @hipFuncGetAttributes(ptr %attr, ptr %fn)
  %h = call i32 @cudaOccupancyMaxActiveClusters(ptr %n, ptr %fn, ptr %attr)
  %i = call i32 @cudaOccupancyMaxPotentialClusterSize(ptr %n, ptr %fn, ptr %attr)
  ret i32 %a
}

; Cooperative launches are marked as such (a grid the counting copy cannot
; hold falls back), the driver API's too; the driver API's occupancy and
; attribute queries and both APIs' cache and shared-memory configurations
; go through the wrappers that answer for, or reach, the plain copy. The
; (The vendor operations hold cudaPeekAtLastError: checked at the top.)
define i32 @driver(ptr %n, ptr %m, ptr %f, ptr %fn, ptr %args, ptr %bytes) {
; CHECK-LABEL: define i32 @driver(
; CHECK: call i32 @__pasta_launch_cooperative_kernel(ptr %fn, i64 4294967297, i32 1, i64 4294967552, i32 1, ptr %args, i64 0, ptr null, ptr @cudaLaunchCooperativeKernel, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_launch_cooperative_kernel_driver(ptr %f, i32 8, i32 1, i32 1, i32 512, i32 1, i32 1, i32 0, ptr null, ptr %args, ptr @cuLaunchCooperativeKernel, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_occupancy_max_active_blocks(ptr %n, ptr %f, i32 512, i64 0, ptr @cuOccupancyMaxActiveBlocksPerMultiprocessor, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_occupancy_max_active_blocks_flags(ptr %n, ptr %f, i32 512, i64 0, i32 1, ptr @cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_occupancy_available_shared_memory(ptr %bytes, ptr %f, i32 2, i32 256, ptr @cuOccupancyAvailableDynamicSMemPerBlock, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_cu_occupancy_max_potential_block_size(ptr %n, ptr %m, ptr %f, ptr null, i64 0, i32 0, ptr @cuOccupancyMaxPotentialBlockSize, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_cu_occupancy_max_potential_block_size_flags(ptr %n, ptr %m, ptr %f, ptr null, i64 0, i32 0, i32 1, ptr @cuOccupancyMaxPotentialBlockSizeWithFlags, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_cu_func_get_attribute(ptr %n, i32 4, ptr %f, ptr @cuFuncGetAttribute, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_cu_func_set_attribute(ptr %f, i32 8, i32 98304, ptr @cuFuncSetAttribute, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_cu_func_set_config(ptr %f, i32 2, ptr @cuFuncSetCacheConfig, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_func_set_config(ptr %fn, i32 2, ptr @cudaFuncSetCacheConfig, ptr @__pasta_cuda_ops)
; CHECK: call i32 @__pasta_func_set_config(ptr %fn, i32 1, ptr @cudaFuncSetSharedMemConfig, ptr @__pasta_cuda_ops)
; OFF-NOT: __pasta_launch_cooperative
; OFF-NOT: __pasta_cu_
  %a = call i32 @cudaLaunchCooperativeKernel(ptr %fn, i64 4294967297, i32 1, i64 4294967552, i32 1, ptr %args, i64 0, ptr null)
  %b = call i32 @cuLaunchCooperativeKernel(ptr %f, i32 8, i32 1, i32 1, i32 512, i32 1, i32 1, i32 0, ptr null, ptr %args)
  %c = call i32 @cuOccupancyMaxActiveBlocksPerMultiprocessor(ptr %n, ptr %f, i32 512, i64 0)
  %d = call i32 @cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(ptr %n, ptr %f, i32 512, i64 0, i32 1)
  %e = call i32 @cuOccupancyAvailableDynamicSMemPerBlock(ptr %bytes, ptr %f, i32 2, i32 256)
  %g = call i32 @cuOccupancyMaxPotentialBlockSize(ptr %n, ptr %m, ptr %f, ptr null, i64 0, i32 0)
  %h = call i32 @cuOccupancyMaxPotentialBlockSizeWithFlags(ptr %n, ptr %m, ptr %f, ptr null, i64 0, i32 0, i32 1)
  %i = call i32 @cuFuncGetAttribute(ptr %n, i32 4, ptr %f)
  %j = call i32 @cuFuncSetAttribute(ptr %f, i32 8, i32 98304)
  %k = call i32 @cuFuncSetCacheConfig(ptr %f, i32 2)
  %l = call i32 @cudaFuncSetCacheConfig(ptr %fn, i32 2)
  %o = call i32 @cudaFuncSetSharedMemConfig(ptr %fn, i32 1)
  ret i32 %a
}

@launch_name = private constant [15 x i8] c"cuLaunchKernel\00"

declare i32 @cudaLaunchCooperativeKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)
declare i32 @cuLaunchCooperativeKernel(ptr, i32, i32, i32, i32, i32, i32, i32, ptr, ptr)
declare i32 @cuOccupancyMaxActiveBlocksPerMultiprocessor(ptr, ptr, i32, i64)
declare i32 @cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(ptr, ptr, i32, i64, i32)
declare i32 @cuOccupancyAvailableDynamicSMemPerBlock(ptr, ptr, i32, i32)
declare i32 @cuOccupancyMaxPotentialBlockSize(ptr, ptr, ptr, ptr, i64, i32)
declare i32 @cuOccupancyMaxPotentialBlockSizeWithFlags(ptr, ptr, ptr, ptr, i64, i32, i32)
declare i32 @cuFuncGetAttribute(ptr, i32, ptr)
declare i32 @cuFuncSetAttribute(ptr, i32, i32)
declare i32 @cuFuncSetCacheConfig(ptr, i32)
declare i32 @cudaFuncSetCacheConfig(ptr, i32)
declare i32 @cudaFuncSetSharedMemConfig(ptr, i32)

declare i32 @cudaGraphInstantiate(ptr, ptr, i64)
declare i32 @cudaGraphExecUpdate(ptr, ptr, ptr)
declare i32 @cudaGraphLaunch(ptr, ptr)
declare i32 @hipGraphInstantiate(ptr, ptr, ptr, ptr, i64)
declare i32 @cudaGetDriverEntryPoint(ptr, ptr, i64, ptr)
declare i32 @cuGetProcAddress_v2(ptr, ptr, i32, i64, ptr)
declare i32 @cudaGetKernel(ptr, ptr)
declare i32 @cudaOccupancyMaxActiveBlocksPerMultiprocessor(ptr, ptr, i32, i64)
declare i32 @cudaOccupancyMaxActiveClusters(ptr, ptr, ptr)
declare i32 @cudaOccupancyMaxPotentialClusterSize(ptr, ptr, ptr)
declare i32 @cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(ptr, ptr, i32, i64, i32)
declare i32 @cudaOccupancyAvailableDynamicSMemPerBlock(ptr, ptr, i32, i32)
declare i32 @cudaFuncGetAttributes(ptr, ptr)
declare i32 @cudaFuncSetAttribute(ptr, i32, i32)
declare i32 @hipOccupancyMaxPotentialBlockSize(ptr, ptr, ptr, i64, i32)
declare i32 @hipFuncGetAttributes(ptr, ptr)
declare i32 @cudaMalloc(ptr, i64)
declare i32 @cudaMemcpy(ptr, ptr, i64, i32)
declare i32 @cudaMemsetAsync(ptr, i32, i64, ptr)
declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)
declare i32 @cudaStreamSynchronize(ptr)
declare i32 @cudaDeviceSynchronize()
declare i32 @cudaFree(ptr)
declare i32 @cudaMallocHost(ptr)
declare i32 @hipMallocManaged(ptr, i64, i32)
declare i32 @hipLaunchCooperativeKernel(ptr, i64, i32, i64, i32, ptr, i32, ptr)
declare i32 @hipModuleLaunchKernel(ptr, i32, i32, i32, i32, i32, i32, i32, ptr, ptr, ptr)
