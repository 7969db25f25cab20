//===- HostInterception.cpp - Route CUDA/HIP runtime calls via PASTA
//-------===//
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
#include "VendorRuntime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace pasta;

namespace {

// A routed function: its name, the wrapper's, and its parameters: p = ptr,
// l = i64, i = i32 (every one returns i32, the error code).
struct Route {
  const char *Callee, *Wrapper, *Params;
};

} // namespace

static const Route Routes[] = {
    // Launches. cudaLaunchKernel(func, dim3 grid, dim3 block, args, shmem,
    // stream): each dim3 travels as {i64 x|y, i32 z} on x86-64.
    {"cudaLaunchKernel", "__pasta_launch_kernel", "pliliplp"},
    {"cudaLaunchKernel_ptsz", "__pasta_launch_kernel", "pliliplp"},
    {"cudaLaunchCooperativeKernel", "__pasta_launch_kernel", "pliliplp"},
    {"cudaLaunchCooperativeKernel_ptsz", "__pasta_launch_kernel", "pliliplp"},
    {"hipLaunchKernel", "__pasta_launch_kernel", "pliliplp"},
    // hipLaunchCooperativeKernel's shared-memory size is an unsigned int.
    {"hipLaunchCooperativeKernel", "__pasta_launch_kernel_shm32", "plilipip"},
    // hipModuleLaunchKernel(f, grid x/y/z, block x/y/z, shmem, stream,
    // params, extra): a kernel from a code object loaded at run time, which
    // the plugin never compiled: timed and counted as a launch only.
    {"hipModuleLaunchKernel", "__pasta_module_launch_kernel", "piiiiiiippp"},
    // The driver API's cuLaunchKernel has the same parameters; a CUfunction
    // the program took from one of its own kernels (cudaGetFuncBySymbol)
    // is named after it.
    {"cuLaunchKernel", "__pasta_module_launch_kernel", "piiiiiiippp"},
    {"cuLaunchKernel_ptsz", "__pasta_module_launch_kernel", "piiiiiiippp"},
    // Driver handles of the program's kernels (CUfunction, CUkernel): their
    // launches are recorded under the kernel they were taken from.
    {"cudaGetFuncBySymbol", "__pasta_get_func_by_symbol", "pp"},
    {"cudaGetKernel", "__pasta_get_func_by_symbol", "pp"},
    {"cuKernelGetFunction", "__pasta_get_func_by_symbol", "pp"},
    // cuLaunchKernel taken as a pointer: the program gets PASTA's.
    {"cudaGetDriverEntryPoint", "__pasta_get_driver_entry_point", "pplp"},
    {"cudaGetDriverEntryPoint_ptsz", "__pasta_get_driver_entry_point", "pplp"},
    {"cudaGetDriverEntryPointByVersion",
     "__pasta_get_driver_entry_point_by_version", "ppilp"},
    {"cudaGetDriverEntryPointByVersion_ptsz",
     "__pasta_get_driver_entry_point_by_version", "ppilp"},
    {"cuGetProcAddress_v2", "__pasta_get_driver_entry_point_by_version",
     "ppilp"},
    {"cuGetProcAddress_v2_ptsz", "__pasta_get_driver_entry_point_by_version",
     "ppilp"},
    // Graphs: their kernel nodes are read at instantiation, and each graph
    // launch is recorded as a launch of each of them.
    {"cudaGraphInstantiate", "__pasta_graph_instantiate", "ppl"},
    {"cudaGraphInstantiateWithFlags", "__pasta_graph_instantiate", "ppl"},
    {"hipGraphInstantiateWithFlags", "__pasta_graph_instantiate", "ppl"},
    {"cudaGraphInstantiateWithParams", "__pasta_graph_instantiate_params",
     "ppp"},
    {"cudaGraphInstantiateWithParams_ptsz", "__pasta_graph_instantiate_params",
     "ppp"},
    {"hipGraphInstantiate", "__pasta_hip_graph_instantiate", "ppppl"},
    {"cudaGraphExecUpdate", "__pasta_graph_exec_update", "ppp"},
    {"hipGraphExecUpdate", "__pasta_hip_graph_exec_update", "pppp"},
    {"cudaGraphLaunch", "__pasta_graph_launch", "pp"},
    {"cudaGraphLaunch_ptsz", "__pasta_graph_launch", "pp"},
    {"hipGraphLaunch", "__pasta_graph_launch", "pp"},
    {"cudaLaunchKernelExC", "__pasta_launch_kernel_ex", "ppp"},
    {"cudaLaunchKernelExC_ptsz", "__pasta_launch_kernel_ex", "ppp"},
    // Allocations.
    {"cudaMalloc", "__pasta_malloc", "pl"},
    {"hipMalloc", "__pasta_malloc", "pl"},
    {"cudaMallocManaged", "__pasta_malloc_managed", "pli"},
    {"hipMallocManaged", "__pasta_malloc_managed", "pli"},
    {"cudaMallocHost", "__pasta_malloc_host", "pl"},
    {"hipMallocHost", "__pasta_malloc_host", "pl"},
    {"cudaHostAlloc", "__pasta_host_alloc", "pli"},
    {"hipHostMalloc", "__pasta_host_alloc", "pli"},
    {"cudaMallocPitch", "__pasta_malloc_pitch", "ppll"},
    {"hipMallocPitch", "__pasta_malloc_pitch", "ppll"},
    {"cudaMallocAsync", "__pasta_malloc_async", "plp"},
    {"cudaMallocAsync_ptsz", "__pasta_malloc_async", "plp"},
    {"hipMallocAsync", "__pasta_malloc_async", "plp"},
    {"cudaFree", "__pasta_free", "p"},
    {"hipFree", "__pasta_free", "p"},
    {"cudaFreeHost", "__pasta_free_host", "p"},
    {"hipHostFree", "__pasta_free_host", "p"},
    {"hipFreeHost", "__pasta_free_host", "p"},
    {"cudaFreeAsync", "__pasta_free_async", "pp"},
    {"cudaFreeAsync_ptsz", "__pasta_free_async", "pp"},
    {"hipFreeAsync", "__pasta_free_async", "pp"},
    // Copies and sets.
    {"cudaMemcpy", "__pasta_memcpy", "ppli"},
    {"cudaMemcpy_ptds", "__pasta_memcpy", "ppli"},
    {"hipMemcpy", "__pasta_memcpy", "ppli"},
    {"cudaMemcpyAsync", "__pasta_memcpy_async", "pplip"},
    {"cudaMemcpyAsync_ptsz", "__pasta_memcpy_async", "pplip"},
    {"hipMemcpyAsync", "__pasta_memcpy_async", "pplip"},
    {"cudaMemset", "__pasta_memset", "pil"},
    {"cudaMemset_ptds", "__pasta_memset", "pil"},
    {"hipMemset", "__pasta_memset", "pil"},
    {"cudaMemsetAsync", "__pasta_memset_async", "pilp"},
    {"cudaMemsetAsync_ptsz", "__pasta_memset_async", "pilp"},
    {"hipMemsetAsync", "__pasta_memset_async", "pilp"},
    // Synchronisation.
    {"cudaDeviceSynchronize", "__pasta_device_synchronize", ""},
    {"hipDeviceSynchronize", "__pasta_device_synchronize", ""},
    {"cudaStreamSynchronize", "__pasta_stream_synchronize", "p"},
    {"cudaStreamSynchronize_ptsz", "__pasta_stream_synchronize", "p"},
    {"hipStreamSynchronize", "__pasta_stream_synchronize", "p"},
};

static bool hasSignature(const Function &F, StringRef Params) {
  FunctionType *Ty = F.getFunctionType();
  if (Ty->isVarArg() || !Ty->getReturnType()->isIntegerTy(32) ||
      Ty->getNumParams() != Params.size())
    return false;
  for (auto [Code, T] : zip(Params, Ty->params())) {
    bool Ok = Code == 'p'   ? T->isPointerTy()
              : Code == 'l' ? T->isIntegerTy(64)
                            : T->isIntegerTy(32);
    if (!Ok)
      return false;
  }
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
    Changed = true;
  }
  return Changed;
}
