; A struct passed to a HIP kernel by value is read from the kernarg segment
; (byref, address space 4). A pointer read from it was written by the host,
; as a pointer argument is: global, no run-time test, also where clang did
; not cast it to address space 1 itself (an integer turned into a pointer:
; an iterator, a fancy pointer). Read from a private copy the kernel
; writes to, a pointer stays generic: resolved at run time.
; RUN: %opt -passes=pasta-count -pasta-print-sites -S %s -o /dev/null 2>&1 | FileCheck %s

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

%struct.Functor = type { ptr, float }

; CHECK: pasta: func by_ref kind=kernel
define amdgpu_kernel void @by_ref(ptr addrspace(4) byref(%struct.Functor) align 8 %f, float %v) {
entry:
  %p = load ptr, ptr addrspace(4) %f
  %qp = getelementptr inbounds i8, ptr addrspace(4) %f, i64 8
  %qi = load i64, ptr addrspace(4) %qp
  %q = inttoptr i64 %qi to ptr
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %a = getelementptr float, ptr %p, i32 %tid
  store float %v, ptr %a
  %b = getelementptr float, ptr %q, i32 %tid
  store float %v, ptr %b
  ret void
}

; CHECK: pasta: func private_copy kind=kernel
define amdgpu_kernel void @private_copy(ptr addrspace(4) byref(%struct.Functor) align 8 %f, ptr addrspace(3) %sh, float %v) {
entry:
  %copy = alloca %struct.Functor, align 8, addrspace(5)
  %sg = addrspacecast ptr addrspace(3) %sh to ptr
  store ptr %sg, ptr addrspace(5) %copy
  %p = load ptr, ptr addrspace(5) %copy
  store float %v, ptr %p
  ret void
}

; CHECK: pasta: site ?:0 func=by_ref counter={{[0-9]+}}
; CHECK-NOT: dyn=
; CHECK-SAME: st.global=2
; CHECK-NOT: generic
; CHECK-SAME: stB.global=8{{$}}
; CHECK: pasta: site ?:0 func=private_copy counter={{[0-9]+}} dyn={{[0-9]+}}
; CHECK-SAME: st.generic=1
; CHECK-SAME: stB.generic=4{{$}}

declare i32 @llvm.amdgcn.workitem.id.x()
