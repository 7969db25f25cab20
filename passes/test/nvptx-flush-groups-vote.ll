; A kernel's exit flush of many run-time address-space groups
; (-pasta-flush-groups-out-of-line=N) stages, on its out-of-line general
; path, the groups' counters only after one vote finds a count in any of
; them in any lane: they count generic accesses that reach shared or local
; memory, zero almost always. Staged and summed eight at a time with the
; rest, `generic 14`'s 56 such counters made launches with a partial warp
; in every block 7% slower on an H200 than the inline path, which skips
; each group's half after one vote. The other live counters are staged
; first, always flushed: the call's count is theirs, or theirs and the
; groups'. Where no other counter is live the call itself waits for the
; vote (nvptx-flush-groups-out-of-line.ll's @eight).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-variants=0 -pasta-flush-groups-out-of-line=2 -S %s | FileCheck %s
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Two groups (one before the loop, one in it; their load halves: 2-5 and
; 11-14) and two loop counters (the body's, 10, and its odd trips', 19):
; the loop counters first in the table.
; CHECK: @__pasta_flush_indices = private unnamed_addr addrspace(1) constant [10 x i32] [i32 10, i32 19, i32 2, i32 3, i32 4, i32 5, i32 11, i32 12, i32 13, i32 14]
; CHECK-LABEL: define ptx_kernel void @loop_and_group(
; CHECK: call i64 @__pasta_flush_is_fast(
; CHECK-COUNT-2: call void @__pasta_flush_half_fast(
; The general path: the two loop counts staged, one vote on the groups.
; CHECK: store i64 %{{[^,]+}}, ptr [[S0:%[0-9]+]]
; CHECK: store i64 %{{[^,]+}}, ptr [[S1:%[0-9]+]]
; CHECK: [[ANY:%[0-9]+]] = call i64 @__pasta_flush_any(i64
; CHECK: [[VOTE:%[0-9]+]] = icmp ne i64 [[ANY]], 0
; CHECK: br i1 [[VOTE]], label %[[GROUPS:[0-9]+]], label %[[CALL:[0-9]+]]
; CHECK: [[GROUPS]]:
; CHECK-COUNT-8: store i64
; CHECK: br label %[[CALL]]
; CHECK: [[CALL]]:
; CHECK-NEXT: [[N:%[0-9]+]] = phi i32 [ 10, %[[GROUPS]] ], [ 2, %{{[0-9]+}} ]
; CHECK-NEXT: call void @__pasta_flush_indexed(ptr addrspace(1) @__pasta_counters{{[^,]*}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 0, ptr %pasta.flush, ptr addrspace(1) @__pasta_flush_indices, i32 [[N]])
; CHECK-NOT: call void @__pasta_flush_half(
; CHECK: ret void

define ptx_kernel void @loop_and_group(ptr addrspace(1) %table, ptr addrspace(1) %out, i32 %m) {
entry:
  %p = load ptr, ptr addrspace(1) %table
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bp = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  %bound = load i32, ptr addrspace(1) %bp
  %x0 = load float, ptr %p
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %latch ]
  %acc = phi float [ %x0, %entry ], [ %sum, %latch ]
  %more = icmp slt i32 %i, %bound
  br i1 %more, label %body, label %done
body:
  %q = getelementptr float, ptr %p, i32 %i
  %x = load float, ptr %q
  %sum = fadd float %acc, %x
  %odd = and i32 %i, 1
  %isodd = icmp eq i32 %odd, 1
  br i1 %isodd, label %oddb, label %latch
oddb:
  store float %x, ptr addrspace(1) %out
  br label %latch
latch:
  %next = add i32 %i, 1
  br label %loop
done:
  store float %acc, ptr addrspace(1) %out
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
