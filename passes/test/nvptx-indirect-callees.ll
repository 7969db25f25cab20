; Device functions that a kernel reaches only through pointers (virtual
; functions: the ray tracer of round 7 calls sphere::hit and
; material::scatter through their vtables) are not counted: selection
; follows direct calls. PASTA says so at compile time, naming them, so that
; a profile missing their instructions is not taken for complete. A function
; also called directly is counted (its original flushes at every return)
; and is not named; no warning where no selected kernel calls through a
; pointer.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s -o /dev/null 2>&1 | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-kernels='^setup$' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIRECT
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s 2>/dev/null | FileCheck %s --check-prefix=IR
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; sphere's vtable: hit and scatter are address-taken, never called directly;
; shade is address-taken and also called directly by render.
@vtable = linkonce_odr addrspace(1) constant { [3 x ptr] } { [3 x ptr] [ptr @hit, ptr @scatter, ptr @shade] }

; CHECK: warning: pasta: kernel 'render' calls through pointers; device functions reached only that way are not counted (their instructions are missing from the profile): 'hit', 'scatter'
; CHECK-NOT: 'shade'{{.*}}not counted
; DIRECT-NOT: calls through pointers

; The counting code stays where it was: render counted, hit left alone.
; IR-LABEL: define linkonce_odr float @hit(
; IR-NOT: __pasta
; IR: ret float
define linkonce_odr float @hit(ptr %obj, float %t) {
entry:
  %c = fcmp olt float %t, 1.0
  br i1 %c, label %near, label %far
near:
  %x = load float, ptr %obj
  ret float %x
far:
  ret float %t
}

define linkonce_odr float @scatter(ptr %obj, float %t) {
  %x = fmul float %t, 0.5
  ret float %x
}

define linkonce_odr float @shade(ptr %obj, float %t) noinline {
  %x = fadd float %t, 1.0
  ret float %x
}

define ptx_kernel void @render(ptr addrspace(1) %world, ptr %out, i32 %n) {
entry:
  %obj = addrspacecast ptr addrspace(1) %world to ptr
  %vt = load ptr, ptr %obj
  %fp = load ptr, ptr %vt
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %s, %loop ]
  %h = call float %fp(ptr %obj, float %acc)
  %s = call float @shade(ptr %obj, float %h)
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  store float %s, ptr %out
  ret void
}

; A kernel that builds the world: no call through a pointer.
define ptx_kernel void @setup(ptr %world) {
  store ptr getelementptr (i8, ptr addrspacecast (ptr addrspace(1) @vtable to ptr), i64 0), ptr %world
  ret void
}
