; Block counters live in registers (phis after mem2reg) and are flushed once
; per thread at every return, through the linked device runtime.
; RUN: %opt -passes=pasta-count -S %s 2>/dev/null | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: @__pasta_counters_{{[0-9a-f]+}} = internal addrspace(1) global [3072 x i64] zeroinitializer
; CHECK: @__pasta_desc_{{[0-9a-f]+}} = addrspace(1) constant {{.*}} { i32 1096045392, i32 1, i32 1, i32 256, i32 2, i32 2, i32 12,

; CHECK-LABEL: define ptx_kernel void @loop(
; CHECK: entry:
; CHECK: %[[FIRST:[0-9]+]] = icmp eq i32 %{{[0-9]+}}, 0
; CHECK: %[[LAUNCH:[0-9]+]] = zext i1 %[[FIRST]] to i64
define ptx_kernel void @loop(ptr %a, i32 %n) {
entry:
  %empty = icmp sle i32 %n, 0
  br i1 %empty, label %early, label %body

; CHECK: early:
; CHECK: call void @__pasta_flush(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 12, i32 0, ptr %{{.*}}, i32 2)
; CHECK-NEXT: ret void
early:
  ret void

; CHECK: body:
; CHECK-NEXT: %[[C:.*]] = phi i64 [ 0, %entry ], [ %[[INC:.*]], %body ]
; CHECK: %[[INC]] = add i64 %[[C]], 1
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %p = getelementptr float, ptr %a, i32 %i
  %x = load float, ptr %p
  %y = fmul float %x, %x
  store float %y, ptr %p
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %body

; CHECK: exit:
; CHECK: store i64 %[[LAUNCH]], ptr
; CHECK-NEXT: getelementptr
; CHECK-NEXT: store i64 %[[INC]], ptr
; CHECK: call void @__pasta_flush(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 12, i32 0, ptr %{{.*}}, i32 2)
exit:
  call void @helper(ptr %a)
  ret void
}

; A device function counts its calls (per thread) and flushes at its return.
; Its pointer argument may point anywhere, so the store is classified at run
; time into 8 more counters (shared/local loads/stores and bytes).
; CHECK-LABEL: define internal void @helper(
; CHECK: call i1 @llvm.nvvm.isspacep.shared(ptr {{.*}}%a)
; CHECK: call i1 @llvm.nvvm.isspacep.local(ptr {{.*}}%a)
; CHECK: call void @__pasta_flush(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 12, i32 2, ptr %{{.*}}, i32 10)
define internal void @helper(ptr %a) noinline {
  store float 0.0, ptr %a
  ret void
}

; The runtime is linked, internal, and its helpers are inlined away.
; CHECK-LABEL: define internal void @__pasta_flush(
; CHECK-NOT: define {{.*}}@__pasta_first_thread_of_grid
