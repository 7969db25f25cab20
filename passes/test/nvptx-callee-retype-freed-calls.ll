; Twins retyped one after the other: a replaced call's value is remapped in
; its callers' plans by the call's address, so the replaced calls must stay
; allocated until the remap (a freed call's address came back as the next
; twin's argument, which the remap then swapped for an extractvalue in
; another function: "Referring to an instruction in another function", or
; wrong counts without the verifier). Found by the session-16 review; the
; trigger depends on the heap's layout (f1's five call operands, f2's
; pointer as its fifth of six arguments), so this is a best-effort guard:
; each twin tests its own pointer.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -S %s | FileCheck %s
; CHECK-LABEL: define internal { float, {{.*}} } @f1__pasta_callee(ptr %q,
; CHECK: call i64 @__pasta_is_shared(ptr %q)
; CHECK-LABEL: define internal { float, {{.*}} } @f2__pasta_callee(
; CHECK-NEXT: call i64 @__pasta_is_shared(ptr %r)
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@tile = internal addrspace(3) global [128 x float] undef, align 4
define ptx_kernel void @k(ptr %p, ptr %out, i32 %n) {
entry:
  %tg = addrspacecast ptr addrspace(3) @tile to ptr
  %c = icmp sgt i32 %n, 3
  %s = select i1 %c, ptr %p, ptr %tg
  %a0 = call float @f1(ptr %s, i32 %n, i32 %n, i32 %n)
  store float %a0, ptr %out
  %b0 = call float @f2(i32 %n, i32 %n, i32 %n, i32 %n, ptr %s, i32 %n)
  store float %b0, ptr %out
  ret void
}
define internal float @f1(ptr %q, i32 %x1, i32 %x2, i32 %x3) noinline {
  %g = getelementptr float, ptr %q, i32 1
  %v = load float, ptr %g
  store float %v, ptr %q
  ret float %v
}
define internal float @f2(i32 %y0, i32 %y1, i32 %y2, i32 %y3, ptr %r, i32 %y5) noinline {
  %v = load float, ptr %r
  ret float %v
}
