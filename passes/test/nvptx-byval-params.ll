; A struct passed to a kernel by value (a functor, a lambda's captures) is
; in the kernel's parameter space, read from the constant bank (ld.param):
; not global memory, as a kernel's pointer arguments are. One the kernel
; writes to is a local copy.
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
  ; through a pointer loaded from the functor: resolved at run time
  store float %s, ptr %p
  ; %g is written: a local copy
  %gs = getelementptr %struct.Functor, ptr %g, i32 0, i32 1
  store float %s, ptr %gs
  %t = load float, ptr %gs
  ; a plain pointer argument: global
  store float %t, ptr %out
  ret void
}
; CHECK: pasta: site ?:0 func=by_value counter={{[0-9]+}} dyn={{[0-9]+}}
; CHECK-SAME: ld.local=1 ld.constant=2
; CHECK-SAME: st.global=1 st.local=1 st.generic=1
; CHECK-SAME: ldB.local=4 ldB.constant=12
; CHECK-SAME: stB.global=4 stB.local=4 stB.generic=4{{$}}
