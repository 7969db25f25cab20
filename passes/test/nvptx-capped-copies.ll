; Every NVPTX kernel gets <kernel>__pasta_capped, its counting code (the same
; counters, the same calls) under a cap of 64 registers ("nvvm.maxnreg",
; ptxas's .maxnreg), so that a block of 1,024 threads fits an SM's 65,536
; registers: the runtime launches it where the counting kernel's registers
; do not fit the launch's block (host_rt/launch.c, runs_capped). A kernel
; whose own bounds already fit every block it takes (launch bounds:
; "nvvm.maxntid"/"nvvm.reqntid"; a cap of 64 or less) gets a stub under that
; name instead (the host registers the name of every kernel's copy): a kernel
; that returns at once and whose largest block is one thread, which the
; runtime never launches. A kernel's own higher cap is lowered to 64 in the
; copy. Device functions get none; with -pasta-capped-copies=0 (or
; PASTA_CAPPED_COPIES=0, for builds through pasta-nvcc and CMake, where
; -mllvm is awkward; the flag wins over it) every kernel gets the stub; with
; PASTA_VARIANTS=0 there are no copies at all.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-capped-copies=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: env PASTA_CAPPED_COPIES=off %opt -passes=pasta-count -pasta-link-runtime=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: env PASTA_CAPPED_COPIES=0 %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-capped-copies=1 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-variants=0 -S %s | FileCheck %s --check-prefix=NOVAR
; Through llc: the copy's entry carries .maxnreg 64, the kernel's none.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s | llc -mcpu=sm_90 | FileCheck %s --check-prefix=PTX
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @free(ptr addrspace(1) %out, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %v = call float @dev(ptr addrspace(1) %out)
  store float %v, ptr addrspace(1) %out
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define ptx_kernel void @bounded(ptr addrspace(1) %out) #0 {
  store float 1.0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @required(ptr addrspace(1) %out) #3 {
  store float 1.0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @own_low(ptr addrspace(1) %out) #1 {
  store float 1.0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @own_high(ptr addrspace(1) %out) #2 {
  store float 1.0, ptr addrspace(1) %out
  ret void
}

define internal float @dev(ptr addrspace(1) %p) noinline {
  %v = load float, ptr addrspace(1) %p
  ret float %v
}

attributes #0 = { "nvvm.maxntid"="1024" }
attributes #1 = { "nvvm.maxnreg"="32" }
attributes #2 = { "nvvm.maxnreg"="128" }
attributes #3 = { "nvvm.reqntid"="512" }

; The counting kernel: its launch count, its call of the device function's
; counting twin, its flush.
; CHECK-LABEL: define ptx_kernel void @free(
; CHECK: call void @__pasta_count_launch{{(_inline)?}}(ptr addrspace(1) @[[COUNTERS:__pasta_counters_[0-9a-f]+]], i32 [[A:[0-9]+]], i32 [[B:[0-9]+]], i32 [[C:[0-9]+]])
; CHECK: call { float } @[[DEV:dev__pasta_callee]](
; CHECK: call void @__pasta_flush_scaled_nonzero(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @[[COUNTERS]], i32 [[FLUSHED:[0-9]+]]),
; The capped copy: the same code, capped.
; CHECK: define ptx_kernel void @free__pasta_capped(ptr addrspace(1) %out, i32 %n) [[CAP:#[0-9]+]] {
; CHECK: call void @__pasta_count_launch{{(_inline)?}}(ptr addrspace(1) @[[COUNTERS]], i32 [[A]], i32 [[B]], i32 [[C]])
; CHECK: call { float } @[[DEV]](
; CHECK: call void @__pasta_flush_scaled_nonzero(ptr addrspace(1) getelementptr inbounds (i64, ptr addrspace(1) @[[COUNTERS]], i32 [[FLUSHED]]),
; CHECK: ret void
; CHECK: define ptx_kernel void @bounded__pasta_capped(ptr addrspace(1) %out) [[STUB:#[0-9]+]] {
; CHECK-NEXT: ret void
; CHECK: define ptx_kernel void @required__pasta_capped(ptr addrspace(1) %out) [[STUB]] {
; CHECK-NEXT: ret void
; CHECK: define ptx_kernel void @own_low__pasta_capped(ptr addrspace(1) %out) [[STUB]] {
; CHECK-NEXT: ret void
; CHECK: define ptx_kernel void @own_high__pasta_capped(ptr addrspace(1) %out) [[CAP]] {
; CHECK-NEXT: call void @__pasta_count_launch_threads{{(_inline)?}}(
; CHECK-NOT: define {{.*}}@dev{{.*}}__pasta_capped
; CHECK-DAG: attributes [[CAP]] = { "nvvm.maxnreg"="64" "pasta-variant" }
; CHECK-DAG: attributes [[STUB]] = { "nvvm.maxntid"="1" "pasta-variant" }

; OFF: define ptx_kernel void @free__pasta_capped(ptr addrspace(1) %out, i32 %n) [[STUB:#[0-9]+]] {
; OFF-NEXT: ret void
; OFF: define ptx_kernel void @own_high__pasta_capped(ptr addrspace(1) %out) [[STUB]] {
; OFF-NEXT: ret void
; OFF: attributes [[STUB]] = { "nvvm.maxntid"="1" "pasta-variant" }

; NOVAR-NOT: __pasta_capped

; PTX-LABEL: .entry free(
; PTX: )
; PTX-NEXT: {
; PTX: .entry free__pasta_capped(
; PTX: )
; PTX-NEXT: .maxnreg 64
; PTX-NEXT: {
