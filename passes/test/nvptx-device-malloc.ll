; Memory from CUDA's device-side malloc (what `new` calls in device code:
; the ray tracer's create_world builds its scene of 488 objects so) is in
; the device heap, global memory: accesses through the pointer it returns
; are global, with no run-time test of their space (before, each was
; resolved at run time: 81 such sites in create_world, two runtime calls
; and eight counters each). A pointer merged from malloc's and a shared
; one stays generic; a function the program defines under that name is
; whatever it is (here: local memory), so its result stays generic too.
; RUN: %opt -passes=pasta-count -pasta-print-sites -S %s -o /dev/null 2>&1 | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s | FileCheck %s --check-prefix=IR

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Obj = type { ptr, float }

declare ptr @malloc(i64)

; CHECK: pasta: func make kind=kernel
define ptx_kernel void @make(ptr %list, float %v) {
entry:
  %o = call ptr @malloc(i64 16)
  %null = icmp eq ptr %o, null
  br i1 %null, label %exit, label %init
init:
  %fp = getelementptr %struct.Obj, ptr %o, i32 0, i32 1
  store float %v, ptr %fp
  store ptr null, ptr %o
  %r = load float, ptr %fp
  store ptr %o, ptr %list
  br label %exit
exit:
  ret void
}

; CHECK: pasta: func merged kind=kernel
define ptx_kernel void @merged(ptr addrspace(3) %sh, i1 %c, float %v) {
entry:
  %o = call ptr @malloc(i64 16)
  %sg = addrspacecast ptr addrspace(3) %sh to ptr
  %p = select i1 %c, ptr %o, ptr %sg
  store float %v, ptr %p
  ret void
}

; The three stores and the load through malloc's result, and the store of
; it to the list: global, no dyn counters.
; CHECK: pasta: site ?:0 func=make counter={{[0-9]+}}
; CHECK-NOT: dyn=
; CHECK-SAME: ld.global=1 st.global=3
; CHECK-NOT: generic
; CHECK-SAME: {{$}}
; CHECK: pasta: site ?:0 func=merged counter={{[0-9]+}} dyn={{[0-9]+}}
; CHECK-SAME: st.generic=1

; IR-LABEL: define ptx_kernel void @make(
; IR-NOT: call i64 @__pasta_is_local
; IR: ret void
; IR-LABEL: define ptx_kernel void @merged(
; IR: call i64 @__pasta_is_local
