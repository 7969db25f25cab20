// Structure: kernels of the program launched through the CUDA driver API
// (cuLaunchKernel), with the three ways real code gets a handle to its own
// kernel and to cuLaunchKernel:
//   drv_sym   cudaGetFuncBySymbol(&f, kernel) -> CUfunction, then
//             cuLaunchKernel linked from libcuda (libraries that pass
//             launch attributes or launch from a C API layer do this);
//   drv_lib   cudaGetKernel(&k, kernel) -> CUkernel (CUDA 12's context-
//             independent "library" handle), cuKernelGetFunction(&f, k)
//             for the current context, then cuLaunchKernel;
//   drv_entry cudaGetFuncBySymbol, but cuLaunchKernel itself obtained at
//             run time with cudaGetDriverEntryPointByVersion (no link
//             against libcuda: how CUTLASS-style and JIT-style libraries
//             call the driver) and called through a pointer.
// All three handles name the program's own, registered kernels: the code
// that runs is the code the plugin compiled, so the device counts are
// exact whatever the route. What the host side can see differs: the route
// through a function pointer is not a call to cuLaunchKernel in the
// program's code. (Kernels the program loads from PTX or cubin at run time,
// cuModuleLoadData / NVRTC, were never compiled by the plugin: nothing of
// them can be counted; that structure is not here.)
//
// Each kernel: x[i] = x[i] + 1 for n = 2^16 threads (256 blocks of 256),
// launched L = 3 times. Per kernel:
//   launches = 3, load_bytes.global = 3 x 65536 x 4 = 786,432,
//   store_bytes.global = 786,432, flops.f32 = 3 x 65536 = 196,608.
// Launch table: each kernel named, 3 launches, none failed.
// Results: each of the three buffers ends at 3; checksum 3 x 65536 x 3 =
// 589,824.
//
// clang-format off
// EXPECT: kernel _Z7drv_symPf launches=3 load_bytes.global=786432 store_bytes.global=786432 flops.f32=196608
// EXPECT: kernel _Z7drv_libPf launches=3 load_bytes.global=786432 store_bytes.global=786432 flops.f32=196608
// EXPECT: kernel _Z9drv_entryPf launches=3 load_bytes.global=786432 store_bytes.global=786432 flops.f32=196608
// EXPECT: launch _Z7drv_symPf launches=3 failed=0
// EXPECT: launch _Z7drv_libPf launches=3 failed=0
// EXPECT: launch _Z9drv_entryPf launches=3 failed=0
// EXPECT: consistent
// clang-format on
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
#include <vector>

__global__ void drv_sym(float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] = x[i] + 1.0f;
}
__global__ void drv_lib(float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] = x[i] + 1.0f;
}
__global__ void drv_entry(float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] = x[i] + 1.0f;
}

static int failed(const char *what, int code) {
  if (code != 0)
    std::fprintf(stderr, "driver_api: %s failed (error %d)\n", what, code);
  return code != 0;
}

int main() {
  const unsigned n = 1 << 16, block = 256, grid = n / block, launches = 3;
  float *buf;
  if (failed("cudaMalloc", cudaMalloc(&buf, 3 * n * sizeof(float))) ||
      failed("cudaMemset", cudaMemset(buf, 0, 3 * n * sizeof(float))))
    return 1;
  float *x_sym = buf, *x_lib = buf + n, *x_entry = buf + 2 * n;

  CUfunction f_sym, f_lib, f_entry;
  cudaKernel_t k_lib;
  if (failed("cudaGetFuncBySymbol",
             cudaGetFuncBySymbol(&f_sym, (const void *)drv_sym)) ||
      failed("cudaGetKernel", cudaGetKernel(&k_lib, drv_lib)) ||
      failed("cuKernelGetFunction",
             cuKernelGetFunction(&f_lib, (CUkernel)k_lib)) ||
      failed("cudaGetFuncBySymbol",
             cudaGetFuncBySymbol(&f_entry, (const void *)drv_entry)))
    return 1;
  void *launch_ptr = nullptr;
  cudaDriverEntryPointQueryResult found;
  if (failed("cudaGetDriverEntryPointByVersion",
             cudaGetDriverEntryPointByVersion("cuLaunchKernel", &launch_ptr,
                                              12000, cudaEnableDefault,
                                              &found)) ||
      failed("cuLaunchKernel entry point",
             found != cudaDriverEntryPointSuccess))
    return 1;
  auto launch_entry = (decltype(&cuLaunchKernel))launch_ptr;

  for (unsigned l = 0; l < launches; ++l) {
    void *a_sym[] = {&x_sym}, *a_lib[] = {&x_lib}, *a_entry[] = {&x_entry};
    if (failed("cuLaunchKernel(drv_sym)",
               cuLaunchKernel(f_sym, grid, 1, 1, block, 1, 1, 0, nullptr, a_sym,
                              nullptr)) ||
        failed("cuLaunchKernel(drv_lib)",
               cuLaunchKernel(f_lib, grid, 1, 1, block, 1, 1, 0, nullptr, a_lib,
                              nullptr)) ||
        failed("cuLaunchKernel(drv_entry) through its entry point",
               launch_entry(f_entry, grid, 1, 1, block, 1, 1, 0, nullptr,
                            a_entry, nullptr)))
      return 1;
  }
  std::vector<float> h(3 * n);
  if (failed("cudaMemcpy", cudaMemcpy(h.data(), buf, 3 * n * sizeof(float),
                                      cudaMemcpyDeviceToHost)))
    return 1;
  double sum = 0;
  bool ok = true;
  for (float v : h) {
    ok = ok && v == (float)launches;
    sum += v;
  }
  cudaFree(buf);
  std::printf("driver_api: %s checksum %.0f\n", ok ? "PASSED" : "FAILED", sum);
  return ok ? 0 : 1;
}
