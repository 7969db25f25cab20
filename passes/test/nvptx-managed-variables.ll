; nvcc's __managed__ globals on the device (passes/ManagedVariables.cpp):
; a global annotated "pasta.managed" (pasta-nvcc's header) gets the
; "managed" NVVM annotation, which the NVPTX back end prints as
; `.attribute(.managed)`, so that the driver places it in managed memory.
; Other globals stay as they are.
; RUN: %opt -passes=pasta-managed -S %s | FileCheck %s
; RUN: %opt -passes=pasta-managed -S %s | llc -mcpu=sm_90 | FileCheck %s --check-prefix=PTX

target triple = "nvptx64-nvidia-cuda"

@P = addrspace(1) externally_initialized global i32 0, align 4
@Q = addrspace(1) externally_initialized global i32 0, align 4
@.managed = private unnamed_addr constant [14 x i8] c"pasta.managed\00", section "llvm.metadata"
@.file = private unnamed_addr constant [5 x i8] c"m.cu\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr addrspacecast (ptr addrspace(1) @P to ptr), ptr @.managed, ptr @.file, i32 2, ptr null }], section "llvm.metadata"

; CHECK: !nvvm.annotations = !{![[M:[0-9]+]]}
; CHECK: ![[M]] = !{ptr addrspace(1) @P, !"managed", i32 1}
; PTX: .visible .global .attribute(.managed) .align 4 .u32 P;
; PTX: .visible .global .align 4 .u32 Q;

define ptx_kernel void @k(ptr %o) {
  %p = load i32, ptr addrspace(1) @P, align 4
  %q = load i32, ptr addrspace(1) @Q, align 4
  %s = add i32 %p, %q
  store i32 %s, ptr %o, align 4
  ret void
}
