; The divergence copy of an NVPTX kernel gets a register cap (ptxas's
; .maxnreg, the function attribute "nvvm.maxnreg"). By default it is 48
; for a kernel without loops and 64 for one that loops, itself or in a
; function it calls: what a cap spills runs once per thread in the first,
; once per iteration in the second (docs/performance.md). PASTA_DIV_MAXNREG=N
; or -pasta-div-maxnreg=N sets N for every kernel, 0 none. A kernel's own
; lower cap is kept; launch bounds with a minimum of blocks per SM
; (nvvm.minctasm) are the program's own word on its occupancy, so such a
; copy gets no cap.
; Device functions and the kernels' other copies are never capped. Beside
; each capped copy the kernel gets <kernel>__pasta_divu, the same code with
; the kernel's own attributes only, which the runtime launches when the grid
; fits in one wave of it (no copy with PASTA_DIV_MAXNREG=0). NONE leaves out
; the register-capped counting copies (nvptx-capped-copies.ll), capped at 64.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-callee-counts=0 -S %s | FileCheck %s
; RUN: env PASTA_DIV_MAXNREG=40 %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-callee-counts=0 -S %s | FileCheck %s --check-prefix=ENV
; RUN: env PASTA_DIV_MAXNREG=40 %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-callee-counts=0 -pasta-div-maxnreg=0 -pasta-capped-copies=0 -S %s | FileCheck %s --check-prefix=NONE
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s | FileCheck %s --check-prefix=NODIV
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @straight(ptr addrspace(1) %out) {
  %v = call float @dev(ptr addrspace(1) %out)
  store float %v, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @loops(ptr addrspace(1) %out, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %p = getelementptr float, ptr addrspace(1) %out, i32 %i
  store float 1.0, ptr addrspace(1) %p
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

define ptx_kernel void @calls_loop(ptr addrspace(1) %out, i32 %n) {
  call void @dev_loop(ptr addrspace(1) %out, i32 %n)
  ret void
}

define ptx_kernel void @bounded(ptr addrspace(1) %out) #0 {
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

define float @dev(ptr addrspace(1) %p) noinline {
  %v = load float, ptr addrspace(1) %p
  ret float %v
}

define void @dev_loop(ptr addrspace(1) %out, i32 %n) noinline {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %p = getelementptr float, ptr addrspace(1) %out, i32 %i
  store float 2.0, ptr addrspace(1) %p
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

attributes #0 = { "nvvm.maxntid"="256" "nvvm.minctasm"="2" }
attributes #1 = { "nvvm.maxnreg"="32" }
attributes #2 = { "nvvm.maxnreg"="128" }

; CHECK: define ptx_kernel void @straight(ptr addrspace(1) %out) {
; CHECK: define ptx_kernel void @straight__pasta_plain(ptr addrspace(1) %out) [[VARIANT:#[0-9]+]]
; CHECK: define ptx_kernel void @straight__pasta_div(ptr addrspace(1) %out) [[STRAIGHT:#[0-9]+]]
; CHECK: define ptx_kernel void @loops__pasta_div(ptr addrspace(1) %out, i32 %n) [[LOOPS:#[0-9]+]]
; CHECK: define ptx_kernel void @calls_loop__pasta_div(ptr addrspace(1) %out, i32 %n) [[LOOPS]]
; CHECK: define ptx_kernel void @bounded__pasta_div(ptr addrspace(1) %out) [[BOUNDED:#[0-9]+]]
; CHECK: define ptx_kernel void @own_low__pasta_div(ptr addrspace(1) %out) [[LOW:#[0-9]+]]
; CHECK: define ptx_kernel void @own_high__pasta_div(ptr addrspace(1) %out) [[STRAIGHT]]
; CHECK: define internal float @dev__pasta_div(ptr addrspace(1) %p) [[DEV:#[0-9]+]]
; CHECK: define ptx_kernel void @straight__pasta_divu(ptr addrspace(1) %out) [[VARIANT]]
; CHECK: define ptx_kernel void @loops__pasta_divu(ptr addrspace(1) %out, i32 %n) [[VARIANT]]
; CHECK: define ptx_kernel void @calls_loop__pasta_divu(ptr addrspace(1) %out, i32 %n) [[VARIANT]]
; CHECK: define ptx_kernel void @bounded__pasta_divu(ptr addrspace(1) %out) [[BOUNDED]]
; CHECK: define ptx_kernel void @own_low__pasta_divu(ptr addrspace(1) %out) [[LOW]]
; CHECK: define ptx_kernel void @own_high__pasta_divu(ptr addrspace(1) %out) [[HIGH:#[0-9]+]]
; CHECK-NOT: define {{.*}}@dev{{.*}}__pasta_divu
; CHECK-DAG: attributes [[VARIANT]] = { "pasta-variant" }
; CHECK-DAG: attributes [[HIGH]] = { "nvvm.maxnreg"="128" "pasta-variant" }
; CHECK-DAG: attributes [[STRAIGHT]] = { "nvvm.maxnreg"="48" "pasta-variant" }
; CHECK-DAG: attributes [[LOOPS]] = { "nvvm.maxnreg"="64" "pasta-variant" }
; CHECK-DAG: attributes [[BOUNDED]] = { "nvvm.maxntid"="256" "nvvm.minctasm"="2" "pasta-variant" }
; CHECK-DAG: attributes [[LOW]] = { "nvvm.maxnreg"="32" "pasta-variant" }
; CHECK-DAG: attributes [[DEV]] = { noinline "pasta-variant" }

; ENV: define ptx_kernel void @straight__pasta_div(ptr addrspace(1) %out) [[CAP:#[0-9]+]]
; ENV: define ptx_kernel void @loops__pasta_div(ptr addrspace(1) %out, i32 %n) [[CAP]]
; ENV: define ptx_kernel void @own_low__pasta_div(ptr addrspace(1) %out) [[LOW:#[0-9]+]]
; ENV-DAG: attributes [[CAP]] = { "nvvm.maxnreg"="40" "pasta-variant" }
; ENV-DAG: attributes [[LOW]] = { "nvvm.maxnreg"="32" "pasta-variant" }

; NONE-NOT: __pasta_divu
; NONE-NOT: "nvvm.maxnreg"="40"
; NONE-NOT: "nvvm.maxnreg"="48"
; NONE-NOT: "nvvm.maxnreg"="64"

; NODIV-NOT: @straight__pasta_div
; NODIV-NOT: "nvvm.maxnreg"="48"
