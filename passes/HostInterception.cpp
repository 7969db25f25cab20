//===- HostInterception.cpp - Route CUDA/HIP runtime calls via PASTA ------===//
//
// In host modules, every direct call to one of the runtime functions below
// becomes a call to the host runtime's wrapper for it, with two more
// arguments: the function the program called and the module's vendor
// operations. The wrapper records what it needs (launch shapes and times,
// allocations, copies) and calls the function itself, so the program sees
// the same results and error codes. `<<<>>>` launches go through
// cudaLaunchKernel in clang's kernel stubs, so they are covered too.
//
// Only calls whose callee has the signature the wrapper expects are routed;
// anything else (a program declaring its own function of that name) is left
// alone.
//
//===----------------------------------------------------------------------===//
#include "HostInterception.h"
#include "VendorRuntime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace pasta;

#define DEBUG_TYPE "pasta"

STATISTIC(NumRoutedCalls, "Runtime calls routed through the host runtime");

namespace {

// A parameter of a routed function, as the x86-64 ABI passes it.
enum class Param { Ptr, I32, I64 };

// The routed functions' parameter lists (every one returns i32, the error
// code).
namespace sig {
constexpr Param Ptr = Param::Ptr, I32 = Param::I32, I64 = Param::I64;
// (func, dim3 grid, dim3 block, args, shmem, stream): each dim3
// travels as {i64 x|y, i32 z} on x86-64.
constexpr Param LaunchKernel[] = {Ptr, I64, I32, I64, I32, Ptr, I64, Ptr};
// The same with a 32-bit shared-memory size.
constexpr Param LaunchKernelShm32[] = {Ptr, I64, I32, I64, I32, Ptr, I32, Ptr};
// (f, grid x/y/z, block x/y/z, shmem, stream, params, extra).
constexpr Param ModuleLaunchKernel[] = {Ptr, I32, I32, I32, I32, I32,
                                        I32, I32, Ptr, Ptr, Ptr};
// cuLaunchCooperativeKernel: the same without `extra`.
constexpr Param CooperativeDriverLaunch[] = {Ptr, I32, I32, I32, I32,
                                             I32, I32, I32, Ptr, Ptr};
constexpr Param TwoPtrs[] = {Ptr, Ptr};
constexpr Param ThreePtrs[] = {Ptr, Ptr, Ptr};
constexpr Param FourPtrs[] = {Ptr, Ptr, Ptr, Ptr};
constexpr Param OnePtr[] = {Ptr};
// (symbol, function, flags, status).
constexpr Param DriverEntryPoint[] = {Ptr, Ptr, I64, Ptr};
// (symbol, function, version, flags, status).
constexpr Param DriverEntryPointByVersion[] = {Ptr, Ptr, I32, I64, Ptr};
// (exec, graph, flags).
constexpr Param GraphInstantiate[] = {Ptr, Ptr, I64};
// (exec, graph, error node, log, log size).
constexpr Param HipGraphInstantiate[] = {Ptr, Ptr, Ptr, Ptr, I64};
// (blocks, func, block size, dynamic shared memory[, flags]).
constexpr Param OccupancyBlocks[] = {Ptr, Ptr, I32, I64};
constexpr Param OccupancyBlocksFlags[] = {Ptr, Ptr, I32, I64, I32};
// (dynamic shared memory, func, blocks per SM, block size).
constexpr Param OccupancySharedMemory[] = {Ptr, Ptr, I32, I32};
// hipOccupancyMaxPotentialBlockSize(grid, block, func, shared memory, limit).
constexpr Param OccupancyBlockSize[] = {Ptr, Ptr, Ptr, I64, I32};
// cuOccupancyMaxPotentialBlockSize(grid, block, f, block size to shared
// memory, shared memory, limit[, flags]).
constexpr Param CuOccupancyBlockSize[] = {Ptr, Ptr, Ptr, Ptr, I64, I32};
constexpr Param CuOccupancyBlockSizeFlags[] = {Ptr, Ptr, Ptr, Ptr,
                                               I64, I32, I32};
// (func, attribute, value).
constexpr Param FuncSetAttribute[] = {Ptr, I32, I32};
// cuFuncGetAttribute(value, attribute, f).
constexpr Param CuFuncGetAttribute[] = {Ptr, I32, Ptr};
// cuKernelGetAttribute(value, attribute, kernel, device).
constexpr Param CuKernelGetAttribute[] = {Ptr, I32, Ptr, I32};
// cuKernelSetAttribute(attribute, value, kernel, device).
constexpr Param CuKernelSetAttribute[] = {I32, I32, Ptr, I32};
// cuKernelSetCacheConfig(kernel, configuration, device).
constexpr Param CuKernelSetConfig[] = {Ptr, I32, I32};
// (func, cache or shared memory configuration).
constexpr Param FuncSetConfig[] = {Ptr, I32};
// (ptr, size).
constexpr Param Malloc[] = {Ptr, I64};
// (ptr, size, flags).
constexpr Param MallocFlags[] = {Ptr, I64, I32};
// (ptr, pitch, width, height).
constexpr Param MallocPitch[] = {Ptr, Ptr, I64, I64};
// (ptr, size, stream).
constexpr Param MallocAsync[] = {Ptr, I64, Ptr};
// (dst, src, count, kind).
constexpr Param Memcpy[] = {Ptr, Ptr, I64, I32};
// (dst, src, count, kind, stream).
constexpr Param MemcpyAsync[] = {Ptr, Ptr, I64, I32, Ptr};
// (ptr, value, count).
constexpr Param Memset[] = {Ptr, I32, I64};
// (ptr, value, count, stream).
constexpr Param MemsetAsync[] = {Ptr, I32, I64, Ptr};
constexpr ArrayRef<Param> NoParams;
} // namespace sig

// A routed function: its name, the wrapper's, and its parameters.
struct Route {
  const char *Callee, *Wrapper;
  ArrayRef<Param> Params;
};

} // namespace

using namespace sig;

static const Route Routes[] = {
    // Launches. cudaLaunchKernel(func, dim3 grid, dim3 block, args, shmem,
    // stream): each dim3 travels as {i64 x|y, i32 z} on x86-64.
    {"cudaLaunchKernel", "__pasta_launch_kernel", LaunchKernel},
    {"cudaLaunchKernel_ptsz", "__pasta_launch_kernel", LaunchKernel},
    {"cudaLaunchCooperativeKernel", "__pasta_launch_cooperative_kernel",
     LaunchKernel},
    {"cudaLaunchCooperativeKernel_ptsz", "__pasta_launch_cooperative_kernel",
     LaunchKernel},
    {"hipLaunchKernel", "__pasta_launch_kernel", LaunchKernel},
    // hipLaunchCooperativeKernel's shared-memory size is an unsigned int.
    {"hipLaunchCooperativeKernel", "__pasta_launch_kernel_shm32",
     LaunchKernelShm32},
    // hipModuleLaunchKernel(f, grid x/y/z, block x/y/z, shmem, stream,
    // params, extra): a kernel from a code object loaded at run time, which
    // the plugin never compiled: timed and counted as a launch only.
    {"hipModuleLaunchKernel", "__pasta_module_launch_kernel",
     ModuleLaunchKernel},
    // The driver API's cuLaunchKernel has the same parameters; a CUfunction
    // the program took from one of its own kernels (cudaGetFuncBySymbol)
    // is named after it.
    {"cuLaunchKernel", "__pasta_module_launch_kernel", ModuleLaunchKernel},
    {"cuLaunchKernel_ptsz", "__pasta_module_launch_kernel", ModuleLaunchKernel},
    // cuLaunchCooperativeKernel on such a handle falls back as
    // cudaLaunchCooperativeKernel does (its copies' handles).
    {"cuLaunchCooperativeKernel", "__pasta_launch_cooperative_kernel_driver",
     CooperativeDriverLaunch},
    {"cuLaunchCooperativeKernel_ptsz",
     "__pasta_launch_cooperative_kernel_driver", CooperativeDriverLaunch},
    // cuLaunchKernelEx(config, f, params, extra): cuLaunchKernel's with a
    // configuration (its cooperative attribute falls back the same way).
    {"cuLaunchKernelEx", "__pasta_launch_kernel_ex_driver", FourPtrs},
    {"cuLaunchKernelEx_ptsz", "__pasta_launch_kernel_ex_driver", FourPtrs},
    // Driver handles of the program's kernels (CUfunction, CUkernel): their
    // launches are recorded under the kernel they were taken from.
    {"cudaGetFuncBySymbol", "__pasta_get_func_by_symbol", TwoPtrs},
    {"cudaGetKernel", "__pasta_get_func_by_symbol", TwoPtrs},
    {"cuKernelGetFunction", "__pasta_get_func_by_symbol", TwoPtrs},
    // cuLaunchKernel taken as a pointer: the program gets PASTA's.
    {"cudaGetDriverEntryPoint", "__pasta_get_driver_entry_point",
     DriverEntryPoint},
    {"cudaGetDriverEntryPoint_ptsz", "__pasta_get_driver_entry_point",
     DriverEntryPoint},
    {"cudaGetDriverEntryPointByVersion",
     "__pasta_get_driver_entry_point_by_version", DriverEntryPointByVersion},
    {"cudaGetDriverEntryPointByVersion_ptsz",
     "__pasta_get_driver_entry_point_by_version", DriverEntryPointByVersion},
    {"cuGetProcAddress_v2", "__pasta_get_driver_entry_point_by_version",
     DriverEntryPointByVersion},
    {"cuGetProcAddress_v2_ptsz", "__pasta_get_driver_entry_point_by_version",
     DriverEntryPointByVersion},
    // Graphs: their kernel nodes are read at instantiation, and each graph
    // launch is recorded as a launch of each of them.
    {"cudaGraphInstantiate", "__pasta_graph_instantiate", GraphInstantiate},
    {"cudaGraphInstantiateWithFlags", "__pasta_graph_instantiate",
     GraphInstantiate},
    {"hipGraphInstantiateWithFlags", "__pasta_graph_instantiate",
     GraphInstantiate},
    {"cudaGraphInstantiateWithParams", "__pasta_graph_instantiate_params",
     ThreePtrs},
    {"cudaGraphInstantiateWithParams_ptsz", "__pasta_graph_instantiate_params",
     ThreePtrs},
    {"hipGraphInstantiate", "__pasta_hip_graph_instantiate",
     HipGraphInstantiate},
    {"cudaGraphExecUpdate", "__pasta_graph_exec_update", ThreePtrs},
    {"hipGraphExecUpdate", "__pasta_hip_graph_exec_update", FourPtrs},
    {"cudaGraphLaunch", "__pasta_graph_launch", TwoPtrs},
    {"cudaGraphLaunch_ptsz", "__pasta_graph_launch", TwoPtrs},
    {"hipGraphLaunch", "__pasta_graph_launch", TwoPtrs},
    {"cudaLaunchKernelExC", "__pasta_launch_kernel_ex", ThreePtrs},
    {"cudaLaunchKernelExC_ptsz", "__pasta_launch_kernel_ex", ThreePtrs},
    // What a program asks about its own kernels to size its launches:
    // answered for the plain copy, the kernel it would run without PASTA
    // (host_rt/occupancy.c). An attribute it sets reaches every copy.
    {"cudaOccupancyMaxActiveBlocksPerMultiprocessor",
     "__pasta_occupancy_max_active_blocks", OccupancyBlocks},
    {"hipOccupancyMaxActiveBlocksPerMultiprocessor",
     "__pasta_occupancy_max_active_blocks", OccupancyBlocks},
    {"cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
     "__pasta_occupancy_max_active_blocks_flags", OccupancyBlocksFlags},
    {"hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
     "__pasta_occupancy_max_active_blocks_flags", OccupancyBlocksFlags},
    {"cudaOccupancyAvailableDynamicSMemPerBlock",
     "__pasta_occupancy_available_shared_memory", OccupancySharedMemory},
    {"hipOccupancyMaxPotentialBlockSize",
     "__pasta_occupancy_max_potential_block_size", OccupancyBlockSize},
    {"cudaFuncGetAttributes", "__pasta_func_get_attributes", TwoPtrs},
    {"hipFuncGetAttributes", "__pasta_func_get_attributes", TwoPtrs},
    {"cudaFuncSetAttribute", "__pasta_func_set_attribute", FuncSetAttribute},
    {"hipFuncSetAttribute", "__pasta_func_set_attribute", FuncSetAttribute},
    {"cudaFuncSetCacheConfig", "__pasta_func_set_config", FuncSetConfig},
    {"hipFuncSetCacheConfig", "__pasta_func_set_config", FuncSetConfig},
    {"cudaFuncSetSharedMemConfig", "__pasta_func_set_config", FuncSetConfig},
    {"hipFuncSetSharedMemConfig", "__pasta_func_set_config", FuncSetConfig},
    // The driver API's forms, asked about a CUfunction the program took from
    // its kernel (cudaGetFuncBySymbol): the plain copy's handle answers.
    {"cuOccupancyMaxActiveBlocksPerMultiprocessor",
     "__pasta_occupancy_max_active_blocks", OccupancyBlocks},
    {"cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
     "__pasta_occupancy_max_active_blocks_flags", OccupancyBlocksFlags},
    {"cuOccupancyAvailableDynamicSMemPerBlock",
     "__pasta_occupancy_available_shared_memory", OccupancySharedMemory},
    {"cuOccupancyMaxPotentialBlockSize",
     "__pasta_cu_occupancy_max_potential_block_size", CuOccupancyBlockSize},
    {"cuOccupancyMaxPotentialBlockSizeWithFlags",
     "__pasta_cu_occupancy_max_potential_block_size_flags",
     CuOccupancyBlockSizeFlags},
    // Clusters (value, func, launch configuration), both APIs.
    {"cudaOccupancyMaxActiveClusters", "__pasta_occupancy_clusters", ThreePtrs},
    {"cudaOccupancyMaxPotentialClusterSize", "__pasta_occupancy_clusters",
     ThreePtrs},
    {"cuOccupancyMaxActiveClusters", "__pasta_occupancy_clusters", ThreePtrs},
    {"cuOccupancyMaxPotentialClusterSize", "__pasta_occupancy_clusters",
     ThreePtrs},
    {"cuFuncGetAttribute", "__pasta_cu_func_get_attribute", CuFuncGetAttribute},
    {"cuFuncSetAttribute", "__pasta_cu_func_set_attribute", FuncSetAttribute},
    {"cuFuncSetCacheConfig", "__pasta_cu_func_set_config", FuncSetConfig},
    {"cuFuncSetSharedMemConfig", "__pasta_cu_func_set_config", FuncSetConfig},
    // A CUkernel's (cudaGetKernel), per device.
    {"cuKernelGetAttribute", "__pasta_cu_kernel_get_attribute",
     CuKernelGetAttribute},
    {"cuKernelSetAttribute", "__pasta_cu_kernel_set_attribute",
     CuKernelSetAttribute},
    {"cuKernelSetCacheConfig", "__pasta_cu_kernel_set_cache_config",
     CuKernelSetConfig},
    // Allocations.
    {"cudaMalloc", "__pasta_malloc", Malloc},
    {"hipMalloc", "__pasta_malloc", Malloc},
    {"cudaMallocManaged", "__pasta_malloc_managed", MallocFlags},
    {"hipMallocManaged", "__pasta_malloc_managed", MallocFlags},
    {"cudaMallocHost", "__pasta_malloc_host", Malloc},
    {"hipMallocHost", "__pasta_malloc_host", Malloc},
    {"cudaHostAlloc", "__pasta_host_alloc", MallocFlags},
    {"hipHostMalloc", "__pasta_host_alloc", MallocFlags},
    {"cudaMallocPitch", "__pasta_malloc_pitch", MallocPitch},
    {"hipMallocPitch", "__pasta_malloc_pitch", MallocPitch},
    {"cudaMallocAsync", "__pasta_malloc_async", MallocAsync},
    {"cudaMallocAsync_ptsz", "__pasta_malloc_async", MallocAsync},
    {"hipMallocAsync", "__pasta_malloc_async", MallocAsync},
    {"cudaFree", "__pasta_free", OnePtr},
    {"hipFree", "__pasta_free", OnePtr},
    {"cudaFreeHost", "__pasta_free_host", OnePtr},
    {"hipHostFree", "__pasta_free_host", OnePtr},
    {"hipFreeHost", "__pasta_free_host", OnePtr},
    {"cudaFreeAsync", "__pasta_free_async", TwoPtrs},
    {"cudaFreeAsync_ptsz", "__pasta_free_async", TwoPtrs},
    {"hipFreeAsync", "__pasta_free_async", TwoPtrs},
    // Copies and sets.
    {"cudaMemcpy", "__pasta_memcpy", Memcpy},
    {"cudaMemcpy_ptds", "__pasta_memcpy", Memcpy},
    {"hipMemcpy", "__pasta_memcpy", Memcpy},
    {"cudaMemcpyAsync", "__pasta_memcpy_async", MemcpyAsync},
    {"cudaMemcpyAsync_ptsz", "__pasta_memcpy_async", MemcpyAsync},
    {"hipMemcpyAsync", "__pasta_memcpy_async", MemcpyAsync},
    {"cudaMemset", "__pasta_memset", Memset},
    {"cudaMemset_ptds", "__pasta_memset", Memset},
    {"hipMemset", "__pasta_memset", Memset},
    {"cudaMemsetAsync", "__pasta_memset_async", MemsetAsync},
    {"cudaMemsetAsync_ptsz", "__pasta_memset_async", MemsetAsync},
    {"hipMemsetAsync", "__pasta_memset_async", MemsetAsync},
    // Synchronisation.
    {"cudaDeviceSynchronize", "__pasta_device_synchronize", NoParams},
    {"hipDeviceSynchronize", "__pasta_device_synchronize", NoParams},
    {"cudaStreamSynchronize", "__pasta_stream_synchronize", OnePtr},
    {"cudaStreamSynchronize_ptsz", "__pasta_stream_synchronize", OnePtr},
    {"hipStreamSynchronize", "__pasta_stream_synchronize", OnePtr},
};

bool pasta::isRuntimeWrapper(StringRef Name) {
  return any_of(Routes, [&](const Route &R) { return Name == R.Wrapper; });
}

static bool matches(Param P, const Type *T) {
  switch (P) {
  case Param::Ptr:
    return T->isPointerTy(); // in any address space
  case Param::I32:
    return T->isIntegerTy(32);
  case Param::I64:
    return T->isIntegerTy(64);
  }
  return false;
}

static bool hasSignature(const Function &F, ArrayRef<Param> Params) {
  FunctionType *Ty = F.getFunctionType();
  if (Ty->isVarArg() || !Ty->getReturnType()->isIntegerTy(32) ||
      Ty->getNumParams() != Params.size())
    return false;
  for (auto [P, T] : zip(Params, Ty->params()))
    if (!matches(P, T))
      return false;
  return true;
}

// A launch in a kernel stub that was inlined into its caller gets the
// caller's location (the `<<<>>>` line), so that the call path the runtime
// records ends at the launch, not at the stub's kernel declaration.
static DebugLoc callerLocation(const DebugLoc &DL) {
  DILocation *L = DL.get();
  while (L && L->getInlinedAt() &&
         L->getScope()->getSubprogram()->getName().contains("__device_stub__"))
    L = L->getInlinedAt();
  return L ? DebugLoc(L) : DL;
}

// Replaces one call (or invoke) of F by a call of Wrapper with F and Ops
// appended to the arguments.
static void reroute(CallBase &CB, Function &F, FunctionCallee Wrapper,
                    Constant *Ops) {
  SmallVector<Value *, 10> Args(CB.args());
  Args.push_back(&F);
  Args.push_back(Ops);
  CallBase *New;
  if (auto *II = dyn_cast<InvokeInst>(&CB))
    New = InvokeInst::Create(Wrapper, II->getNormalDest(), II->getUnwindDest(),
                             Args, "", CB.getIterator());
  else
    New = CallInst::Create(Wrapper, Args, "", CB.getIterator());
  New->setDebugLoc(callerLocation(CB.getDebugLoc()));
  New->takeName(&CB);
  CB.replaceAllUsesWith(New);
  CB.eraseFromParent();
}

// Whether M calls the CUDA runtime (cudart) itself. A module that uses only
// the driver API (cu*) may be linked without cudart (a program that loads
// its kernels with cuModuleLoad and compiles them with NVRTC): PASTA's
// table of cudart functions would leave it with undefined symbols.
static bool usesCudaRuntime(const Module &M) {
  for (const Function &F : M)
    if ((F.getName().starts_with("cuda") ||
         F.getName().starts_with("__cuda")) &&
        !F.use_empty())
      return true;
  return false;
}

// The vendor functions PASTA calls for the wrappers of Callee: CUDA's
// driver API in a module without cudart gets none (null), and the runtime
// uses another module's table, or passes the call through untouched.
static Constant *opsFor(Module &M, StringRef Callee, bool DriverOnly) {
  if (Callee.starts_with("hip"))
    return vendorOps(M, HIPRuntime);
  if (DriverOnly && !Callee.starts_with("cuda"))
    return ConstantPointerNull::get(PointerType::get(M.getContext(), 0));
  return vendorOps(M, CUDARuntime);
}

bool pasta::interceptRuntimeCalls(Module &M) {
  bool Changed = false;
  PointerType *Ptr = PointerType::get(M.getContext(), 0);
  bool DriverOnly = !usesCudaRuntime(M);
  for (const Route &R : Routes) {
    Function *F = M.getFunction(R.Callee);
    if (!F || !hasSignature(*F, R.Params))
      continue;
    SmallVector<CallBase *, 8> Calls;
    for (User *U : F->users())
      if (auto *CB = dyn_cast<CallBase>(U); CB && CB->getCalledOperand() == F)
        Calls.push_back(CB);
    if (Calls.empty())
      continue;
    SmallVector<Type *, 10> Params(F->getFunctionType()->params());
    Params.append({Ptr, Ptr});
    FunctionCallee Wrapper = M.getOrInsertFunction(
        R.Wrapper, FunctionType::get(F->getReturnType(), Params, false));
    Constant *Ops = opsFor(M, R.Callee, DriverOnly);
    for (CallBase *CB : Calls)
      reroute(*CB, *F, Wrapper, Ops);
    NumRoutedCalls += Calls.size();
    LLVM_DEBUG(dbgs() << "pasta: " << Calls.size() << " call(s) of " << R.Callee
                      << " routed to " << R.Wrapper << "\n");
    Changed = true;
  }
  return Changed;
}
