; AMDGPU: buffer loads and global-to-LDS copies written as target
; intrinsics are not counted, and PASTA says so at compile time, naming the
; kernels (nvptx-memory-intrinsic-warning.ll is the NVIDIA side). Barriers,
; lane exchanges, work-item ids, implicit-argument pointers and
; address-space tests move no memory a profile counts: not named.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s -o /dev/null 2>&1 | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-kernels='^quiet$' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; CHECK: warning: pasta: target intrinsics that load, store or copy memory (ldmatrix, stmatrix, cp.async, texture reads, ...) are not counted (their accesses and bytes are missing from the profile) in 'buffered', 'tolds'{{$}}
; CHECK-NOT: target intrinsics
; QUIET-NOT: target intrinsics

define amdgpu_kernel void @buffered(ptr addrspace(8) %rsrc, ptr addrspace(1) %out) {
  %v = call float @llvm.amdgcn.raw.ptr.buffer.load.f32(ptr addrspace(8) %rsrc, i32 0, i32 0, i32 0)
  store float %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @tolds(ptr addrspace(1) %src, ptr addrspace(3) %dst) {
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %src, ptr addrspace(3) %dst, i32 4, i32 0, i32 0)
  ret void
}

define amdgpu_kernel void @quiet(ptr %p, ptr addrspace(1) %out) {
  call void @llvm.amdgcn.s.barrier()
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %x = call i32 @llvm.amdgcn.ds.bpermute(i32 %id, i32 %id)
  %ia = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %sh = call i1 @llvm.amdgcn.is.shared(ptr %p)
  %z = zext i1 %sh to i32
  %s = add i32 %x, %z
  store i32 %s, ptr addrspace(1) %out
  ret void
}
