; Loop versioning in working-set copies (-pasta-ws-loop-min-trips=8), the
; cases a review found (2026-11-29):
; - @sub: a value of an inner loop read after the versioned loop, not
;   through an exit phi (late in the pipeline the inner loop is not in
;   LCSSA form): the exit's phi must take it from either copy, or the
;   module does not verify (opt verifies its output);
; - @order: both loops versioned; inner loops first, so the outer loop's
;   short copy holds the inner loop's two versions and no per-iteration
;   test of a count is left anywhere.
; RUN: %opt -passes=pasta-count -pasta-ws-loop-min-trips=8 -pasta-link-runtime=0 -S %s | FileCheck %s
; CHECK-LABEL: define ptx_kernel void @sub__pasta_ws(
; CHECK: loop.short:
; CHECK: exit:
; CHECK: phi float [ %s.next{{[.a-z0-9]*}}, %{{[a-z.0-9]+}} ], [ %s.next{{[.a-z0-9]*}}, %{{[a-z.0-9]+}} ]
; CHECK-LABEL: define ptx_kernel void @order__pasta_ws(
; CHECK-NOT: pasta.ws.loop.short
; CHECK: ret void
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @sub(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %n, i32 %m) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i32 %i
  %v = load float, ptr addrspace(1) %p
  br label %inner

inner:
  %j = phi i32 [ 0, %loop ], [ %j.next, %inner ]
  %s = phi float [ %v, %loop ], [ %s.next, %inner ]
  %s.next = fadd float %s, 1.0
  %j.next = add nuw nsw i32 %j, 1
  %jd = icmp sge i32 %j.next, %m
  br i1 %jd, label %latch, label %inner

latch:
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp sge i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  store float %s.next, ptr addrspace(1) %out
  ret void
}
define ptx_kernel void @order(ptr addrspace(1) %rows, ptr addrspace(1) %out, i32 %nr, i32 %m) {
entry:
  br label %outer

outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %rp = getelementptr inbounds ptr addrspace(1), ptr addrspace(1) %rows, i32 %i
  %r = load ptr addrspace(1), ptr addrspace(1) %rp
  br label %inner

inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  %s = phi float [ 0.0, %outer ], [ %s.next, %inner ]
  %p = getelementptr inbounds float, ptr addrspace(1) %r, i32 %j
  %x = load float, ptr addrspace(1) %p
  %s.next = fadd float %s, %x
  %j.next = add nuw nsw i32 %j, 1
  %jd = icmp sge i32 %j.next, %m
  br i1 %jd, label %latch, label %inner

latch:
  %s.lcssa = phi float [ %s.next, %inner ]
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i32 %i
  store float %s.lcssa, ptr addrspace(1) %q
  %i.next = add nuw nsw i32 %i, 1
  %id = icmp sge i32 %i.next, %nr
  br i1 %id, label %exit, label %outer

exit:
  ret void
}
