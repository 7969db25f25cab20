; A kernel whose work runs only where threadIdx.x and blockIdx.x are zero
; (`if (threadIdx.x == 0 && blockIdx.x == 0) { ... }` around the whole
; body, as one-thread setup kernels have; every other path returns at once)
; takes the capped copy's register cap itself ("nvvm.maxnreg"="64" on the
; counting kernel) and gets the stub under <kernel>__pasta_capped: its
; counting code is compiled once, not twice, and the kernel takes every
; block. Its other copies (plain, working-set) are not capped. Kernels with
; work outside such a guard, or a guard on threadIdx.x alone, keep the
; capped copy; with -pasta-capped-copies=0 every kernel keeps its own
; registers and gets the stub, as before.
; The exit gather is off here (nvptx-gather-tail-lanes.ll): its calls would
; sit between the lines checked.
; RUN: %opt -passes=pasta-count -pasta-gather-warp-at-exit=0 -pasta-link-runtime=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-gather-warp-at-exit=0 -pasta-link-runtime=0 -pasta-capped-copies=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=pasta-count -pasta-gather-warp-at-exit=0 -pasta-link-runtime=0 -S %s | llc -mcpu=sm_90 | FileCheck %s --check-prefix=PTX
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

; The optimizer's form: (tid.x | ctaid.x) == 0.
define ptx_kernel void @setup(ptr addrspace(1) %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %tb = or i32 %t, %b
  %first = icmp eq i32 %tb, 0
  br i1 %first, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %p = getelementptr float, ptr addrspace(1) %out, i32 %i
  store float 1.0, ptr addrspace(1) %p
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; Two branches, the second one's test negated.
define ptx_kernel void @setup_chain(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t0 = icmp eq i32 %t, 0
  br i1 %t0, label %block, label %exit
block:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bn = icmp ne i32 %b, 0
  br i1 %bn, label %exit, label %work
work:
  store float 2.0, ptr addrspace(1) %out
  br label %exit
exit:
  ret void
}

; threadIdx.x alone: thread 0 of every block works.
define ptx_kernel void @per_block(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t0 = icmp eq i32 %t, 0
  br i1 %t0, label %work, label %exit
work:
  store float 3.0, ptr addrspace(1) %out
  br label %exit
exit:
  ret void
}

; Work after the guard's join: every thread stores.
define ptx_kernel void @after_join(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %tb = or i32 %t, %b
  %first = icmp eq i32 %tb, 0
  br i1 %first, label %work, label %join
work:
  store float 4.0, ptr addrspace(1) %out
  br label %join
join:
  %q = getelementptr float, ptr addrspace(1) %out, i32 1
  store float 5.0, ptr addrspace(1) %q
  ret void
}

; A load in the guard's block: every thread runs it.
define ptx_kernel void @load_in_guard(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %v = load i32, ptr addrspace(1) %out
  %tb = or i32 %t, %b
  %tbv = or i32 %tb, %v
  %first = icmp eq i32 %tbv, 0
  br i1 %first, label %work, label %exit
work:
  store float 6.0, ptr addrspace(1) %out
  br label %exit
exit:
  ret void
}

; The one-thread kernels: capped themselves, stubs for their capped copies.
; CHECK: define ptx_kernel void @setup(ptr addrspace(1) %out, i32 %n) [[KCAP:#[0-9]+]] {
; CHECK: define ptx_kernel void @setup_chain(ptr addrspace(1) %out) [[KCAP]] {
; The others: their own registers.
; CHECK: define ptx_kernel void @per_block(ptr addrspace(1) %out) {
; CHECK: define ptx_kernel void @after_join(ptr addrspace(1) %out) {
; CHECK: define ptx_kernel void @load_in_guard(ptr addrspace(1) %out) {
; Plain copies keep the program's registers.
; CHECK: define ptx_kernel void @setup__pasta_plain(ptr addrspace(1) %out, i32 %n) [[VAR:#[0-9]+]] {
; CHECK: define ptx_kernel void @setup_chain__pasta_plain(ptr addrspace(1) %out) [[VAR]] {
; CHECK: define ptx_kernel void @setup__pasta_capped(ptr addrspace(1) %out, i32 %n) [[STUB:#[0-9]+]] {
; CHECK-NEXT: ret void
; CHECK: define ptx_kernel void @setup_chain__pasta_capped(ptr addrspace(1) %out) [[STUB]] {
; CHECK-NEXT: ret void
; CHECK: define ptx_kernel void @per_block__pasta_capped(ptr addrspace(1) %out) [[CAP:#[0-9]+]] {
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @__pasta_count_launch
; CHECK: define ptx_kernel void @after_join__pasta_capped(ptr addrspace(1) %out) [[CAP]] {
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @__pasta_count_launch
; CHECK: define ptx_kernel void @load_in_guard__pasta_capped(ptr addrspace(1) %out) [[CAP]] {
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @__pasta_count_launch
; The working-set copies are not capped.
; CHECK: define ptx_kernel void @setup__pasta_ws(ptr addrspace(1) %out, i32 %n, ptr addrspace(1) {{.*}}) [[VAR]] {
; CHECK: define ptx_kernel void @setup_chain__pasta_ws(ptr addrspace(1) %out, ptr addrspace(1) {{.*}}) [[VAR]] {
; CHECK-DAG: attributes [[KCAP]] = { "nvvm.maxnreg"="64" }
; CHECK-DAG: attributes [[CAP]] = { "nvvm.maxnreg"="64" "pasta-variant" }
; CHECK-DAG: attributes [[STUB]] = { "nvvm.maxntid"="1" "pasta-variant" }
; CHECK-DAG: attributes [[VAR]] = { "pasta-variant" }

; OFF: define ptx_kernel void @setup(ptr addrspace(1) %out, i32 %n) {
; OFF: define ptx_kernel void @setup_chain(ptr addrspace(1) %out) {
; OFF: define ptx_kernel void @setup__pasta_capped(ptr addrspace(1) %out, i32 %n) [[STUB:#[0-9]+]] {
; OFF-NEXT: ret void
; OFF: attributes [[STUB]] = { "nvvm.maxntid"="1" "pasta-variant" }
; OFF-NOT: "nvvm.maxnreg"

; PTX-LABEL: .entry setup(
; PTX: )
; PTX-NEXT: .maxnreg 64
; PTX-NEXT: {
; PTX-LABEL: .entry per_block(
; PTX: )
; PTX-NEXT: {
