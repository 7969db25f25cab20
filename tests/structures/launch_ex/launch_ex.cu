// Structure: launches through cuLaunchKernelEx and settings made on a
// CUkernel (issue [overhead-3]).
// CUTLASS launches its cluster kernels with cuLaunchKernelEx
// taken through cudaGetDriverEntryPoint; CUDA 12's context-independent
// CUkernels (cudaGetKernel) are configured per device with
// cuKernelSetAttribute. Each launch must run the counting copy (or fall back
// as a cooperative launch does), each setting must reach the copy that runs,
// each query must answer for the plain copy.
//
// ex_scale(in, out, n): a block stages its 256 floats in 64 KiB of dynamic
//   shared memory (more than the 48 KiB a kernel gets without
//   cudaFuncAttributeMaxDynamicSharedMemorySize), then writes twice each.
//   The attribute is set once, with cuKernelSetAttribute on the CUkernel
//   (cudaGetKernel); without it reaching the counting copy, its launches
//   fail (too much shared memory). n = 65,536, 256 blocks of 256 threads:
//   per launch load_bytes.global = store_bytes.global = 4n = 262,144,
//   store_bytes.shared = load_bytes.shared = 262,144, flops.f32 = n.
//   Launched three times: cuLaunchKernelEx on the CUkernel (cast to a
//   CUfunction, as CUDA 12 allows), cuLaunchKernelEx taken through
//   cudaGetDriverEntryPointByVersion on the CUfunction of
//   cudaGetFuncBySymbol, and that with the cooperative attribute (a grid the
//   GPU holds at once: 64 blocks of 256 threads, n = 16,384: 65,536 bytes
//   each way and 16,384 flops); then, fourth, cuLaunchKernelEx on the
//   CUfunction with a cluster of 2 blocks (the attribute CUTLASS's Hopper
//   kernels launch with; n = 65,536 again: 262,144 bytes each way, 65,536
//   flops).
//   Totals: 262,144 x 3 + 65,536 = load/store global 851,968, shared
//   851,968; flops 65,536 x 3 + 16,384 = 212,992.
//   cuKernelGetAttribute(NUM_REGS) on the CUkernel must equal
//   cudaFuncGetAttributes' numRegs (the plain copy's; stdout prints neither).
//
// clang-format off
// EXPECT: kernel _Z8ex_scalePKfPfi launches=4 load_bytes.global=851968 store_bytes.global=851968 load_bytes.shared=851968 store_bytes.shared=851968 flops.f32=212992
// EXPECT: launch _Z8ex_scalePKfPfi launches=4 counted=4 failed=0
// EXPECT: consistent
// clang-format on
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
#include <vector>

constexpr int Block = 256, N = 1 << 16, SharedBytes = 64 << 10;

__global__ void ex_scale(const float *in, float *out, int n) {
  extern __shared__ float tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    tile[threadIdx.x] = in[i];
  __syncthreads();
  if (i < n)
    out[i] = tile[threadIdx.x] * 2.0f;
}

static bool check(cudaError_t err, const char *what) {
  if (err != cudaSuccess)
    printf("%s: %s\n", what, cudaGetErrorString(err));
  return err == cudaSuccess;
}

static bool check_cu(CUresult err, const char *what) {
  if (err != CUDA_SUCCESS)
    printf("%s: driver error %d\n", what, (int)err);
  return err == CUDA_SUCCESS;
}

using LaunchEx = decltype(&cuLaunchKernelEx);

enum class Attribute { None, Cooperative, Cluster };

// Launches ex_scale on `f` over n elements with cuLaunchKernelEx, called
// directly or through `entry` when given, with the cooperative or a
// cluster-of-2 attribute when asked; then checks out = 2 in.
static bool launch_and_check(LaunchEx entry, CUfunction f, const float *d_in,
                             float *d_out, int n, Attribute attribute) {
  CUlaunchAttribute attrs[1] = {};
  if (attribute == Attribute::Cooperative) {
    attrs[0].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    attrs[0].value.cooperative = 1;
  } else if (attribute == Attribute::Cluster) {
    attrs[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attrs[0].value.clusterDim.x = 2;
    attrs[0].value.clusterDim.y = attrs[0].value.clusterDim.z = 1;
  }
  CUlaunchConfig config = {};
  config.gridDimX = n / Block, config.gridDimY = config.gridDimZ = 1;
  config.blockDimX = Block, config.blockDimY = config.blockDimZ = 1;
  config.sharedMemBytes = SharedBytes;
  config.attrs = attribute == Attribute::None ? nullptr : attrs;
  config.numAttrs = attribute == Attribute::None ? 0 : 1;
  void *args[] = {&d_in, &d_out, &n};
  if (!check(cudaMemset(d_out, 0, N * sizeof(float)), "cudaMemset") ||
      !check_cu(entry ? entry(&config, f, args, nullptr)
                      : cuLaunchKernelEx(&config, f, args, nullptr),
                "cuLaunchKernelEx"))
    return false;
  std::vector<float> in(n), out(n);
  if (!check(cudaMemcpy(in.data(), d_in, n * sizeof(float),
                        cudaMemcpyDeviceToHost),
             "copy") ||
      !check(cudaMemcpy(out.data(), d_out, n * sizeof(float),
                        cudaMemcpyDeviceToHost),
             "copy"))
    return false;
  for (int i = 0; i < n; ++i)
    if (out[i] != 2.0f * in[i]) {
      printf("out[%d] = %g, want %g\n", i, out[i], 2.0f * in[i]);
      return false;
    }
  return true;
}

int main() {
  std::vector<float> in(N);
  for (int i = 0; i < N; ++i)
    in[i] = (float)(i % 1000) * 0.5f;
  float *d_in = nullptr, *d_out = nullptr;
  if (!check(cudaMalloc(&d_in, N * sizeof(float)), "cudaMalloc") ||
      !check(cudaMalloc(&d_out, N * sizeof(float)), "cudaMalloc") ||
      !check(cudaMemcpy(d_in, in.data(), N * sizeof(float),
                        cudaMemcpyHostToDevice),
             "copy"))
    return 1;
  int device = 0;
  cudaGetDevice(&device);
  cudaKernel_t k = nullptr;
  CUfunction f = nullptr;
  void *entry = nullptr;
  cudaDriverEntryPointQueryResult found;
  cudaFuncAttributes attributes;
  int regs = 0;
  bool ok =
      check(cudaGetKernel(&k, ex_scale), "cudaGetKernel") &&
      check(cudaGetFuncBySymbol(&f, (const void *)ex_scale),
            "cudaGetFuncBySymbol") &&
      check(cudaGetDriverEntryPointByVersion("cuLaunchKernelEx", &entry, 12000,
                                             cudaEnableDefault, &found),
            "cudaGetDriverEntryPointByVersion") &&
      found == cudaDriverEntryPointSuccess &&
      check_cu(
          cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               SharedBytes, (CUkernel)k, device),
          "cuKernelSetAttribute") &&
      check_cu(cuKernelGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS,
                                    (CUkernel)k, device),
               "cuKernelGetAttribute") &&
      check(cudaFuncGetAttributes(&attributes, ex_scale),
            "cudaFuncGetAttributes");
  if (ok && regs != attributes.numRegs) {
    printf("cuKernelGetAttribute answers for another copy: %d registers "
           "(cudaFuncGetAttributes %d)\n",
           regs, attributes.numRegs);
    ok = false;
  }
  auto through_entry = reinterpret_cast<LaunchEx>(entry);
  ok = ok && launch_and_check(nullptr, (CUfunction)k, d_in, d_out, N,
                              Attribute::None);
  ok =
      ok && launch_and_check(through_entry, f, d_in, d_out, N, Attribute::None);
  ok = ok && launch_and_check(through_entry, f, d_in, d_out, N / 4,
                              Attribute::Cooperative);
  ok = ok && launch_and_check(nullptr, f, d_in, d_out, N, Attribute::Cluster);
  cudaFree(d_in);
  cudaFree(d_out);
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
