// gpu_compat.h - minimal CUDA/HIP portability layer for the PASTA test kernels.
//
// The test programs are written against a small neutral "gpu*" API; this
// header maps it onto the HIP runtime when the translation unit is compiled
// as HIP (clang -x hip defines __HIP__, hipcc defines __HIPCC__) and onto the
// CUDA runtime otherwise. Kernels themselves use the spelling common to both
// (__global__, __shared__, __syncthreads, threadIdx/blockIdx/blockDim, <<<>>>).
//
// GPU_CHECK(call) evaluates a runtime call once and, if it did not return
// gpuSuccess, prints "file:line: GPU error: <string> (<call>)" to stderr and
// exits with status 2 (the same status as a usage error: "could not run").
#ifndef PASTA_TEST_KERNELS_GPU_COMPAT_H
#define PASTA_TEST_KERNELS_GPU_COMPAT_H

#include <cstdio>
#include <cstdlib>

#if defined(__HIP__) || defined(__HIPCC__)

#include <hip/hip_runtime.h>

// ROCm 5.x's host_defines.h defines __noinline__ as nothing, which silently
// inlines __noinline__ device functions; without the macro, clang's own
// __noinline__ keyword (CUDA/HIP, clang >= 15) applies, as under CUDA.
#undef __noinline__

#define GPU_BACKEND_NAME "hip"

typedef hipError_t gpuError_t;
typedef hipEvent_t gpuEvent_t;
typedef hipStream_t gpuStream_t;

#define gpuSuccess hipSuccess
#define gpuGetErrorString hipGetErrorString
#define gpuGetLastError hipGetLastError
#define gpuMalloc hipMalloc
#define gpuMallocManaged hipMallocManaged
#define gpuFree hipFree
#define gpuMemcpy hipMemcpy
#define gpuMemset hipMemset
#define gpuMemcpyHostToDevice hipMemcpyHostToDevice
#define gpuMemcpyDeviceToHost hipMemcpyDeviceToHost
#define gpuMemcpyDeviceToDevice hipMemcpyDeviceToDevice
#define gpuDeviceSynchronize hipDeviceSynchronize
#define gpuEventCreate hipEventCreate
#define gpuEventDestroy hipEventDestroy
#define gpuEventRecord hipEventRecord
#define gpuEventSynchronize hipEventSynchronize
#define gpuEventElapsedTime hipEventElapsedTime
#define gpuStreamCreate hipStreamCreate
#define gpuStreamDestroy hipStreamDestroy
#define gpuStreamSynchronize hipStreamSynchronize
#define gpuStreamIsCapturing hipStreamIsCapturing
typedef hipStreamCaptureStatus gpuStreamCaptureStatus;
#define gpuGetDevice hipGetDevice
#define gpuMemcpyAsync hipMemcpyAsync
#define gpuMallocHost(ptr, bytes) hipHostMalloc((ptr), (bytes), hipHostMallocDefault)
#define gpuFreeHost hipHostFree

// Threads per warp (wavefront): 64 on gfx9/CDNA, the HIP target here.
#ifdef __AMDGCN_WAVEFRONT_SIZE
#define GPU_WARP_SIZE __AMDGCN_WAVEFRONT_SIZE
#else
#define GPU_WARP_SIZE 64
#endif

// gpu_shfl_down(v, offset): v from lane (lane + offset) of the whole
// wavefront; a lane whose source lies beyond the wavefront gets its own v.
// _Float16 travels as its 16 bits in an int.
__device__ inline static float gpu_shfl_down(float v, unsigned int offset)
{
    return __shfl_down(v, offset);
}
__device__ inline static _Float16 gpu_shfl_down(_Float16 v, unsigned int offset)
{
    int bits = __builtin_bit_cast(unsigned short, v);
    bits = __shfl_down(bits, offset);
    return __builtin_bit_cast(_Float16, (unsigned short)bits);
}

// ROCm 5.x headers (Debian ships 5.2) implement __syncthreads() through
// __atomic_work_item_fence(), which is defined only in the device library
// hip.bc; current clang no longer links hip.bc, so any kernel using
// __syncthreads() fails the device link with "undefined hidden symbol:
// __atomic_work_item_fence". Use the sequence the ROCm 6 headers use
// (workgroup release fence, s_barrier, workgroup acquire fence) instead.
// Define GPU_COMPAT_NATIVE_SYNCTHREADS to keep the runtime's own version.
#if HIP_VERSION_MAJOR < 6 && !defined(GPU_COMPAT_NATIVE_SYNCTHREADS)
__device__ inline static void gpu_compat_syncthreads()
{
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
#define __syncthreads() gpu_compat_syncthreads()
#endif

#else

#include <cuda_runtime.h>

#define GPU_BACKEND_NAME "cuda"

typedef cudaError_t gpuError_t;
typedef cudaEvent_t gpuEvent_t;
typedef cudaStream_t gpuStream_t;

#define gpuSuccess cudaSuccess
#define gpuGetErrorString cudaGetErrorString
#define gpuGetLastError cudaGetLastError
#define gpuMalloc cudaMalloc
#define gpuMallocManaged cudaMallocManaged
#define gpuFree cudaFree
#define gpuMemcpy cudaMemcpy
#define gpuMemset cudaMemset
#define gpuMemcpyHostToDevice cudaMemcpyHostToDevice
#define gpuMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define gpuMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define gpuDeviceSynchronize cudaDeviceSynchronize
#define gpuEventCreate cudaEventCreate
#define gpuEventDestroy cudaEventDestroy
#define gpuEventRecord cudaEventRecord
#define gpuEventSynchronize cudaEventSynchronize
#define gpuEventElapsedTime cudaEventElapsedTime
#define gpuStreamCreate cudaStreamCreate
#define gpuStreamDestroy cudaStreamDestroy
#define gpuStreamSynchronize cudaStreamSynchronize
#define gpuStreamIsCapturing cudaStreamIsCapturing
typedef cudaStreamCaptureStatus gpuStreamCaptureStatus;
#define gpuGetDevice cudaGetDevice
#define gpuMemcpyAsync cudaMemcpyAsync
#define gpuMallocHost cudaMallocHost
#define gpuFreeHost cudaFreeHost

#define GPU_WARP_SIZE 32

// gpu_shfl_down(v, offset): v from lane (lane + offset) of the whole warp
// (full mask: every lane of the warp must call it); a lane whose source lies
// beyond the warp gets its own v. _Float16 travels as its 16 bits in an int.
__device__ inline static float gpu_shfl_down(float v, unsigned int offset)
{
    return __shfl_down_sync(0xffffffffu, v, offset);
}
__device__ inline static _Float16 gpu_shfl_down(_Float16 v, unsigned int offset)
{
    int bits = __builtin_bit_cast(unsigned short, v);
    bits = __shfl_down_sync(0xffffffffu, bits, offset);
    return __builtin_bit_cast(_Float16, (unsigned short)bits);
}

#endif

#define GPU_CHECK(call)                                                     \
    do {                                                                    \
        gpuError_t gpu_check_err_ = (call);                                 \
        if (gpu_check_err_ != gpuSuccess) {                                 \
            std::fprintf(stderr, "%s:%d: GPU error: %s (%s)\n", __FILE__,   \
                         __LINE__, gpuGetErrorString(gpu_check_err_), #call); \
            std::exit(2);                                                   \
        }                                                                   \
    } while (0)

#endif  // PASTA_TEST_KERNELS_GPU_COMPAT_H
