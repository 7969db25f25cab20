; A twin's generic pointer parameter that every call passes a pointer into
; one space is that space in the twin: shared (moderngpu's
; cta_segreduce_t::segreduce takes its __shared__ storage so), local (a
; caller's array) or global. Its accesses are counted in that space with
; no run-time test and one counter, not four per space; through two twins
; too. A parameter passed shared at one call and global at another keeps
; the run-time test.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-print-sites -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck --check-prefix=SITES %s < %t.sites
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [128 x float] undef, align 4

; SITES: site {{.*}} func=outer {{.*}}ld.global=1 ldB.global=4
; inner: two loads a pass (shared, local) and a store (local).
; SITES: site {{.*}} func=inner {{.*}}ld.shared=1 ld.local=1 st.local=1 ldB.shared=4 ldB.local=4 stB.local=4
; SITES-NOT: func=inner {{.*}}generic
; SITES: site {{.*}} func=mixed {{.*}}ld.generic=1
define ptx_kernel void @reduce(ptr %out, i32 %n) {
entry:
  %arr = alloca [4 x float], align 4, addrspace(5)
  %arr.gen = addrspacecast ptr addrspace(5) %arr to ptr
  store float 1.0, ptr %arr.gen
  %tile.gen = addrspacecast ptr addrspace(3) @tile to ptr
  %s = call float @outer(ptr %tile.gen, ptr %arr.gen, ptr %out, i32 %n)
  %m = call float @mixed(ptr %tile.gen)
  %m2 = call float @mixed(ptr %out)
  %t = fadd float %s, %m
  %t2 = fadd float %t, %m2
  store float %t2, ptr %out
  ret void
}

; CHECK-LABEL: define internal { float, i64 } @inner__pasta_callee(
; CHECK-NOT: __pasta_is_
; CHECK: ret { float, i64 }
; CHECK-LABEL: define internal { float, i64 } @outer__pasta_callee(
; CHECK-NOT: __pasta_is_
; CHECK: ret { float, i64 }
; CHECK-LABEL: define internal { float, i64, i64, i64, i64 } @mixed__pasta_callee(
; CHECK: __pasta_is_shared(ptr %p)
define internal float @outer(ptr %shared, ptr %mine, ptr %g, i32 %n) noinline {
  %a = call float @inner(ptr %shared, ptr %mine, i32 %n)
  %b = load float, ptr %g
  %c = fadd float %a, %b
  ret float %c
}

define internal float @inner(ptr %shared, ptr %mine, i32 %n) noinline {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %body ]
  %sp = getelementptr float, ptr %shared, i32 %i
  %x = load float, ptr %sp
  %lp = getelementptr float, ptr %mine, i32 %i
  %y = load float, ptr %lp
  store float %x, ptr %lp
  %t = fadd float %x, %y
  %acc.next = fadd float %acc, %t
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %body, label %out
out:
  ret float %acc.next
}

define internal float @mixed(ptr %p) noinline {
  %x = load float, ptr %p
  ret float %x
}

; A kernel hands its by-value functor (a lambda's captured pointers, as
; moderngpu's launch_box_cta_k hands its lambda to restrict_forward) on to
; a twin by value: the twin's copy holds the launch's bytes, so a pointer
; it loads from there points to global memory, as in the kernel. The load
; from the copy itself reads the parameter in place (ld.param): constant
; space, as a kernel's parameter (the run-time test, folded by the back end
; for a parameter, called it global). Not where a function writes to its
; copy (@scribble: the back end gives its copy a local address, so the
; store to it and the load from it are local; the pointer loaded back stays
; generic: it may be any pointer stored there).
%functor = type { ptr, i32 }

; SITES: site {{.*}} func=apply {{.*}}ld.global=1 ld.constant=1 ldB.global=4 ldB.constant=8
; SITES: site {{.*}} func=scribble {{.*}}ld.local=1 ld.generic=1 st.local=1
define ptx_kernel void @launch(ptr byval(%functor) align 8 %f, ptr %out) {
  %a = call float @apply(ptr byval(%functor) align 8 %f)
  %b = call float @scribble(ptr byval(%functor) align 8 %f, ptr %out)
  %c = fadd float %a, %b
  store float %c, ptr %out
  ret void
}

define internal float @apply(ptr byval(%functor) align 8 %f) noinline {
  %p = load ptr, ptr %f
  %x = load float, ptr %p
  ret float %x
}

define internal float @scribble(ptr byval(%functor) align 8 %f, ptr %other) noinline {
  store ptr %other, ptr %f
  %p = load ptr, ptr %f
  %x = load float, ptr %p
  ret float %x
}
