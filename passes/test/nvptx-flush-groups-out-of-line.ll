; A kernel's exit flush of many run-time address-space groups (a site's
; eight counters: loads and stores, shared and local, count and bytes; here
; each group's sites only load, so each flushes its load half) takes its
; general path (partial warps, large counts) out of line: the live counters
; staged, one __pasta_flush_indexed call, as flushes of many other counters
; do. Written out, that path repeated every group's flush loop after the
; fast path's own, in every copy of the kernel, and ptxas compiled them all
; (`generic 14`, 14 groups: 1.07 -> 0.61 s of ptxas). The fast path, a full
; warp of small counts, stays inline. Off by default (its capped copy ran
; slower on an H200): -pasta-flush-groups-out-of-line=N turns it on for N
; or more groups; below N the general path stays inline. Only the load
; halves are staged: the store counters no site adds to stay out of the
; flush.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-variants=0 -pasta-flush-groups-out-of-line=8 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-variants=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-variants=0 -pasta-flush-groups-out-of-line=9 -S %s | FileCheck %s --check-prefix=OFF
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Eight groups: the fast path flushes each load half inline; the general
; path, where a vote finds a count in any of them (nvptx-flush-groups-vote.ll),
; stages the 8 x 4 load counters and calls the runtime once, with the
; table of their indices: the groups' load halves (3-6, 12-15, ...), not
; their store halves (7-10, 16-19, ...).
; CHECK: @__pasta_flush_indices = private unnamed_addr addrspace(1) constant [32 x i32] [i32 3, i32 4, i32 5, i32 6, i32 12, i32 13, i32 14, i32 15, i32 21, i32 22, i32 23, i32 24,
; OFF-NOT: @__pasta_flush_indices
; CHECK-LABEL: define ptx_kernel void @eight(
; CHECK: call i64 @__pasta_flush_is_fast(
; CHECK-COUNT-8: call void @__pasta_flush_half_fast(
; CHECK-NOT: call void @__pasta_flush_half(
; CHECK: call i64 @__pasta_flush_any(
; CHECK: call void @__pasta_flush_indexed(ptr addrspace(1) @__pasta_counters{{[^,]*}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 0, ptr %{{[^,]+}}, ptr addrspace(1) @__pasta_flush_indices{{[^,]*}}, i32 [[N:[0-9]+]])
; CHECK-NOT: call void @__pasta_flush_half(
; CHECK: ret void
; OFF-LABEL: define ptx_kernel void @eight(
; OFF-COUNT-8: call void @__pasta_flush_half_fast(
; OFF-COUNT-8: call void @__pasta_flush_half(
; OFF-NOT: __pasta_flush_indexed
; OFF: ret void
define ptx_kernel void @eight(ptr addrspace(1) %table, ptr addrspace(1) %out, i32 %m) {
entry:
  %p = load ptr, ptr addrspace(1) %table
  br label %b0
b0:
  %acc0 = phi float [ 0.0, %entry ]
  %c0 = icmp sgt i32 %m, 0
  br i1 %c0, label %t0, label %b1
t0:
  %q0 = getelementptr float, ptr %p, i32 0
  %x0 = load float, ptr %q0
  %sum0 = fadd float %acc0, %x0
  br label %b1
b1:
  %acc1 = phi float [ %acc0, %b0 ], [ %sum0, %t0 ]
  %c1 = icmp sgt i32 %m, 1
  br i1 %c1, label %t1, label %b2
t1:
  %q1 = getelementptr float, ptr %p, i32 1
  %x1 = load float, ptr %q1
  %sum1 = fadd float %acc1, %x1
  br label %b2
b2:
  %acc2 = phi float [ %acc1, %b1 ], [ %sum1, %t1 ]
  %c2 = icmp sgt i32 %m, 2
  br i1 %c2, label %t2, label %b3
t2:
  %q2 = getelementptr float, ptr %p, i32 2
  %x2 = load float, ptr %q2
  %sum2 = fadd float %acc2, %x2
  br label %b3
b3:
  %acc3 = phi float [ %acc2, %b2 ], [ %sum2, %t2 ]
  %c3 = icmp sgt i32 %m, 3
  br i1 %c3, label %t3, label %b4
t3:
  %q3 = getelementptr float, ptr %p, i32 3
  %x3 = load float, ptr %q3
  %sum3 = fadd float %acc3, %x3
  br label %b4
b4:
  %acc4 = phi float [ %acc3, %b3 ], [ %sum3, %t3 ]
  %c4 = icmp sgt i32 %m, 4
  br i1 %c4, label %t4, label %b5
t4:
  %q4 = getelementptr float, ptr %p, i32 4
  %x4 = load float, ptr %q4
  %sum4 = fadd float %acc4, %x4
  br label %b5
b5:
  %acc5 = phi float [ %acc4, %b4 ], [ %sum4, %t4 ]
  %c5 = icmp sgt i32 %m, 5
  br i1 %c5, label %t5, label %b6
t5:
  %q5 = getelementptr float, ptr %p, i32 5
  %x5 = load float, ptr %q5
  %sum5 = fadd float %acc5, %x5
  br label %b6
b6:
  %acc6 = phi float [ %acc5, %b5 ], [ %sum5, %t5 ]
  %c6 = icmp sgt i32 %m, 6
  br i1 %c6, label %t6, label %b7
t6:
  %q6 = getelementptr float, ptr %p, i32 6
  %x6 = load float, ptr %q6
  %sum6 = fadd float %acc6, %x6
  br label %b7
b7:
  %acc7 = phi float [ %acc6, %b6 ], [ %sum6, %t6 ]
  %c7 = icmp sgt i32 %m, 7
  br i1 %c7, label %t7, label %done
t7:
  %q7 = getelementptr float, ptr %p, i32 7
  %x7 = load float, ptr %q7
  %sum7 = fadd float %acc7, %x7
  br label %done
done:
  %r = phi float [ %acc7, %b7 ], [ %sum7, %t7 ]
  store float %r, ptr addrspace(1) %out
  ret void
}

; Seven groups (at 8): both paths inline, as before.
; CHECK-LABEL: define ptx_kernel void @seven(
; CHECK-COUNT-7: call void @__pasta_flush_half_fast(
; CHECK-COUNT-7: call void @__pasta_flush_half(
; CHECK-NOT: __pasta_flush_indexed
; CHECK: ret void
define ptx_kernel void @seven(ptr addrspace(1) %table, ptr addrspace(1) %out, i32 %m) {
entry:
  %p = load ptr, ptr addrspace(1) %table
  br label %b0
b0:
  %acc0 = phi float [ 0.0, %entry ]
  %c0 = icmp sgt i32 %m, 0
  br i1 %c0, label %t0, label %b1
t0:
  %q0 = getelementptr float, ptr %p, i32 0
  %x0 = load float, ptr %q0
  %sum0 = fadd float %acc0, %x0
  br label %b1
b1:
  %acc1 = phi float [ %acc0, %b0 ], [ %sum0, %t0 ]
  %c1 = icmp sgt i32 %m, 1
  br i1 %c1, label %t1, label %b2
t1:
  %q1 = getelementptr float, ptr %p, i32 1
  %x1 = load float, ptr %q1
  %sum1 = fadd float %acc1, %x1
  br label %b2
b2:
  %acc2 = phi float [ %acc1, %b1 ], [ %sum1, %t1 ]
  %c2 = icmp sgt i32 %m, 2
  br i1 %c2, label %t2, label %b3
t2:
  %q2 = getelementptr float, ptr %p, i32 2
  %x2 = load float, ptr %q2
  %sum2 = fadd float %acc2, %x2
  br label %b3
b3:
  %acc3 = phi float [ %acc2, %b2 ], [ %sum2, %t2 ]
  %c3 = icmp sgt i32 %m, 3
  br i1 %c3, label %t3, label %b4
t3:
  %q3 = getelementptr float, ptr %p, i32 3
  %x3 = load float, ptr %q3
  %sum3 = fadd float %acc3, %x3
  br label %b4
b4:
  %acc4 = phi float [ %acc3, %b3 ], [ %sum3, %t3 ]
  %c4 = icmp sgt i32 %m, 4
  br i1 %c4, label %t4, label %b5
t4:
  %q4 = getelementptr float, ptr %p, i32 4
  %x4 = load float, ptr %q4
  %sum4 = fadd float %acc4, %x4
  br label %b5
b5:
  %acc5 = phi float [ %acc4, %b4 ], [ %sum4, %t4 ]
  %c5 = icmp sgt i32 %m, 5
  br i1 %c5, label %t5, label %b6
t5:
  %q5 = getelementptr float, ptr %p, i32 5
  %x5 = load float, ptr %q5
  %sum5 = fadd float %acc5, %x5
  br label %b6
b6:
  %acc6 = phi float [ %acc5, %b5 ], [ %sum5, %t5 ]
  %c6 = icmp sgt i32 %m, 6
  br i1 %c6, label %t6, label %done
t6:
  %q6 = getelementptr float, ptr %p, i32 6
  %x6 = load float, ptr %q6
  %sum6 = fadd float %acc6, %x6
  br label %done
done:
  %r = phi float [ %acc6, %b6 ], [ %sum6, %t6 ]
  store float %r, ptr addrspace(1) %out
  ret void
}
