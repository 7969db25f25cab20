; pasta-print-access-classes in HIP kernels: workitem.id.x is the thread
; index; blockDim.x, loaded from the implicit kernel arguments, is not data.
; RUN: %opt -passes=pasta-print-access-classes -disable-output %s 2>&1 | FileCheck %s

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; a[blockIdx.x * blockDim.x + threadIdx.x] = 0
; CHECK: pasta: access linear 0:0 r constant stride=0 offset=12
; CHECK-NEXT: pasta: access linear 0:0 w stride-1 stride=1 offset=4*(%bdim.16*workgroup.id.x + workitem.id.x)
define amdgpu_kernel void @linear(ptr addrspace(1) %a) {
  %bid = call i32 @llvm.amdgcn.workgroup.id.x()
  %implicit = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %bdim.p = getelementptr inbounds i8, ptr addrspace(4) %implicit, i64 12
  %bdim.16 = load i16, ptr addrspace(4) %bdim.p, align 4, !invariant.load !0
  %bdim = zext i16 %bdim.16 to i32
  %base = mul i32 %bid, %bdim
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %i = add i32 %base, %tid
  %i.ext = zext i32 %i to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i.ext
  store float 0.0, ptr addrspace(1) %p
  ret void
}

; a[threadIdx.x * 2] of doubles, and a[idx[threadIdx.x]].
; CHECK: pasta: access strided_gather 0:0 w stride-k stride=2 offset=16*workitem.id.x
; CHECK-NEXT: pasta: access strided_gather 0:0 r stride-1 stride=1 offset=4*workitem.id.x
; CHECK-NEXT: pasta: access strided_gather 0:0 w indirect stride=0 offset=8*%k
define amdgpu_kernel void @strided_gather(ptr addrspace(1) %a, ptr addrspace(1) %idx) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %tid.ext = zext i32 %tid to i64
  %i = shl nuw nsw i64 %tid.ext, 1
  %p = getelementptr inbounds double, ptr addrspace(1) %a, i64 %i
  store double 0.0, ptr addrspace(1) %p
  %q = getelementptr inbounds i32, ptr addrspace(1) %idx, i64 %tid.ext
  %k = load i32, ptr addrspace(1) %q
  %k.ext = sext i32 %k to i64
  %r = getelementptr inbounds double, ptr addrspace(1) %a, i64 %k.ext
  store double 1.0, ptr addrspace(1) %r
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()

!0 = !{}
