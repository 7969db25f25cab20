; Target intrinsics that move memory (ldmatrix, stmatrix, cp.async, texture
; reads) are not counted: PASTA says so at compile time, naming the kernels
; and the device functions they reach that call them, as it does for
; opaque inline assembly (nvptx-memory-asm-warning.ll). Intrinsics that
; move no data a profile counts (barriers, mbarriers, fences, prefetches,
; shuffles, votes, clocks, address-space tests, cp.async's group waits)
; and wmma fragments, which are counted (nvptx-wmma-*.ll), are not named.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s -o /dev/null 2>&1 | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-kernels='^quiet$' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; "2 more": 'copier' (through its device function) and 'texread'.
; CHECK: warning: pasta: target intrinsics that load, store or copy memory (ldmatrix, stmatrix, cp.async, texture reads, ...) are not counted (their accesses and bytes are missing from the profile) in 'fragments', 'stores' and 2 more{{$}}
; CHECK-NOT: target intrinsics
; QUIET-NOT: target intrinsics

define ptx_kernel void @fragments(ptr addrspace(3) %tile, ptr addrspace(1) %out) {
  %f = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %tile)
  %x = extractvalue { i32, i32, i32, i32 } %f, 0
  store i32 %x, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @stores(ptr addrspace(3) %tile, i32 %v) {
  call void @llvm.nvvm.stmatrix.sync.aligned.m8n8.x1.b16.p3(ptr addrspace(3) %tile, i32 %v)
  ret void
}

define void @stage(ptr addrspace(3) %dst, ptr addrspace(1) %src) noinline {
  call void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3) %dst, ptr addrspace(1) %src)
  call void @llvm.nvvm.cp.async.commit.group()
  call void @llvm.nvvm.cp.async.wait.all()
  ret void
}

define ptx_kernel void @copier(ptr addrspace(3) %dst, ptr addrspace(1) %src) {
  call void @stage(ptr addrspace(3) %dst, ptr addrspace(1) %src)
  ret void
}

define ptx_kernel void @texread(i64 %tex, i32 %i, ptr addrspace(1) %out) {
  %t = call { float, float, float, float } @llvm.nvvm.tex.unified.1d.v4f32.s32(i64 %tex, i32 %i)
  %x = extractvalue { float, float, float, float } %t, 0
  store float %x, ptr addrspace(1) %out
  ret void
}

; Synchronization, warp exchanges, clocks and address tests only.
define ptx_kernel void @quiet(ptr addrspace(3) %bar, ptr addrspace(1) %in, ptr %p, ptr addrspace(1) %out) {
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) %bar, i32 32)
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  call void @llvm.nvvm.prefetch.global.L2(ptr addrspace(1) %in)
  call void @llvm.nvvm.fence.sc.cluster()
  %s = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 7, i32 0, i32 31)
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 true)
  %c = call i64 @llvm.nvvm.read.ptx.sreg.clock64()
  %g = call i1 @llvm.nvvm.isspacep.global(ptr %p)
  %w = call { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p1(ptr addrspace(1) %in, i32 16)
  %sum = add i32 %s, %b
  store i32 %sum, ptr addrspace(1) %out
  ret void
}
