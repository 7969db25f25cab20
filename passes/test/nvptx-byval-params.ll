; A struct passed to a kernel by value (a functor, a lambda's captures) is
; in the kernel's parameter space, read from the constant bank (ld.param):
; not global memory, as a kernel's pointer arguments are. One the kernel
; writes to is a local copy. A pointer read from one the kernel only reads
; was written by the host, as a pointer argument is: global, no run-time
; test (Thrust's and CUB's kernels take their data so); read from one the
; kernel writes to, it may be anything the kernel stored there: resolved at
; run time.
; RUN: %opt -passes=pasta-count -pasta-print-sites -S %s -o /dev/null 2>&1 | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Functor = type { ptr, float }

; CHECK: pasta: func by_value kind=kernel
define ptx_kernel void @by_value(ptr byval(%struct.Functor) align 8 %f, ptr byval(%struct.Functor) align 8 %g, ptr %out) {
entry:
  ; %f is only read: two loads from the constant bank
  %pp = getelementptr %struct.Functor, ptr %f, i32 0, i32 0
  %p = load ptr, ptr %pp
  %sp = getelementptr %struct.Functor, ptr %f, i32 0, i32 1
  %s = load float, ptr %sp
  ; through a pointer loaded from the functor: global
  store float %s, ptr %p
  ; %g is written: a local copy
  %gs = getelementptr %struct.Functor, ptr %g, i32 0, i32 1
  store float %s, ptr %gs
  %t = load float, ptr %gs
  ; a plain pointer argument: global
  store float %t, ptr %out
  ret void
}

; A pointer held as an integer (thrust::device_ptr, an iterator), turned
; into one after the load, either of two by a select: global.
; CHECK: pasta: func as_integer kind=kernel
define ptx_kernel void @as_integer(ptr byval(%struct.Functor) align 8 %f, ptr byval(%struct.Functor) align 8 %h, i1 %c, float %v) {
entry:
  %pi = load i64, ptr %f
  %p = inttoptr i64 %pi to ptr
  %qi = load i64, ptr %h
  %q = inttoptr i64 %qi to ptr
  %r = select i1 %c, ptr %p, ptr %q
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = getelementptr float, ptr %r, i32 %tid
  store float %v, ptr %a
  ret void
}

; Read from a parameter the kernel writes to (it may have stored a shared
; or local pointer there), a pointer stays generic: resolved at run time.
; CHECK: pasta: func written kind=kernel
define ptx_kernel void @written(ptr byval(%struct.Functor) align 8 %f, ptr addrspace(3) %sh, float %v) {
entry:
  %sg = addrspacecast ptr addrspace(3) %sh to ptr
  store ptr %sg, ptr %f
  %p = load ptr, ptr %f
  store float %v, ptr %p
  ret void
}

; An agent object on the thread's stack keeps the parameter's address
; beside other fields (CUB's agents hold a reference to their kernel's tile
; state): the parameter is still only read, so a pointer read from it is
; global. Where what is loaded back from that field is written through,
; the parameter may hold anything: resolved at run time.
%struct.Agent = type { ptr, ptr, float }

; CHECK: pasta: func agent kind=kernel
define ptx_kernel void @agent(ptr byval(%struct.Functor) align 8 %f, ptr addrspace(3) %sh, float %v) {
entry:
  %a = alloca %struct.Agent, align 8
  store ptr %f, ptr %a
  %temp = getelementptr %struct.Agent, ptr %a, i32 0, i32 1
  %sg = addrspacecast ptr addrspace(3) %sh to ptr
  store ptr %sg, ptr %temp
  %scratch = load ptr, ptr %temp
  store float %v, ptr %scratch
  %ref = load ptr, ptr %a
  %sp = getelementptr %struct.Functor, ptr %ref, i32 0, i32 1
  %s = load float, ptr %sp
  %p = load ptr, ptr %f
  store float %s, ptr %p
  ret void
}

; CHECK: pasta: func agent_writes kind=kernel
define ptx_kernel void @agent_writes(ptr byval(%struct.Functor) align 8 %f, float %v) {
entry:
  %a = alloca %struct.Agent, align 8
  store ptr %f, ptr %a
  %ref = load ptr, ptr %a
  %sp = getelementptr %struct.Functor, ptr %ref, i32 0, i32 1
  store float %v, ptr %sp
  %p = load ptr, ptr %f
  store float %v, ptr %p
  ret void
}

; CHECK: pasta: site ?:0 func=by_value counter={{[0-9]+}}
; CHECK-NOT: dyn=
; CHECK-SAME: ld.local=1 ld.constant=2 st.global=2 st.local=1
; CHECK-NOT: generic
; CHECK-SAME: ldB.local=4 ldB.constant=12 stB.global=8 stB.local=4{{$}}
; CHECK: pasta: site ?:0 func=as_integer counter={{[0-9]+}}
; CHECK-NOT: dyn=
; CHECK-SAME: ld.constant=2 st.global=1
; CHECK-NOT: generic
; CHECK-SAME: ldB.constant=16 stB.global=4{{$}}
; CHECK: pasta: site ?:0 func=written counter={{[0-9]+}} dyn={{[0-9]+}}
; CHECK-SAME: st.local=1 st.generic=1
; CHECK-SAME: stB.local=8 stB.generic=4{{$}}
; In agent the store through the pointer read from %f is global; the shared
; scratch pointer and the reference, loaded back from the agent, are
; resolved at run time (one store, one load). In agent_writes both stores
; are.
; CHECK: pasta: site ?:0 func=agent counter={{[0-9]+}} dyn={{[0-9]+}}
; CHECK-SAME: ld.generic=1 st.global=1 st.local=2 st.generic=1
; CHECK: pasta: site ?:0 func=agent_writes counter={{[0-9]+}} dyn={{[0-9]+}}
; CHECK-NOT: st.global
; CHECK-SAME: st.generic=2

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
