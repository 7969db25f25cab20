; The out-of-line flush of staged counts (__pasta_flush_indexed), as linked
; from the device runtime for NVIDIA GPUs, takes the counts a batch of 8 at
; a time: their loads, or'ed together, then one vote over the lanes running
; the call (read once, at its entry) whether any of them is not zero. A
; batch that is zero in every lane ends there: the threads of a kernel whose
; guarded blocks are mostly not taken (moderngpu's segreduce twin, 66 staged
; counters; tests/structures/sparseflush) left most counters at zero, and
; each still cost a warp sum, a load of its index and a test. Only then the
; vote whether a count is too large for a 32-bit warp sum, and the sums.
; RUN: %opt -passes=pasta-count -pasta-variants=0 -pasta-inline-flush-limit=0 -S %s 2>/dev/null | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @poll(
; CHECK: call void @__pasta_flush_indexed(
; CHECK-LABEL: define internal void @__pasta_flush_indexed(
; The batch's values stay in registers (no array in local memory).
; CHECK-NOT: alloca
; CHECK: [[LANES:%[0-9]+]] = tail call i32 @llvm.nvvm.activemask()
; CHECK: [[V0:%[0-9]+]] = load i64, ptr addrspace(5)
; CHECK-NEXT: [[T0:%[0-9]+]] = trunc i64 [[V0]] to i32
; CHECK: [[V1:%[0-9]+]] = load i64, ptr addrspace(5)
; CHECK-NEXT: or i64 [[V1]], [[V0]]
; CHECK-NEXT: [[T1:%[0-9]+]] = trunc i64 [[V1]] to i32
; CHECK-COUNT-6: or i64
; CHECK: [[NONZERO:%[0-9]+]] = icmp ne i64 [[ANY:%[0-9]+]], 0
; CHECK-NEXT: [[SOME:%[0-9]+]] = tail call i32 @llvm.nvvm.vote.ballot.sync(i32 [[LANES]], i1 [[NONZERO]])
; CHECK-NEXT: [[NONE:%[0-9]+]] = icmp eq i32 [[SOME]], 0
; CHECK-NEXT: br i1 [[NONE]], label %{{[0-9]+}}, label %[[TEST:[0-9]+]]
; CHECK: [[TEST]]:
; CHECK-NEXT: [[LARGE:%[0-9]+]] = icmp ugt i64 [[ANY]], 134217727
; CHECK-NEXT: [[BIG:%[0-9]+]] = tail call i32 @llvm.nvvm.vote.ballot.sync(i32 [[LANES]], i1 [[LARGE]])
; CHECK-NEXT: [[SMALL:%[0-9]+]] = icmp eq i32 [[BIG]], 0
; CHECK-NEXT: br i1 [[SMALL]], label %[[SUM:[0-9]+]], label
; The sums take the low halves of the values the votes tested, not loads of
; their own.
; CHECK: [[SUM]]:
; CHECK-NEXT: redux.sync.add.u32 $0, $1, $2;", "=r,r,r"(i32 [[T0]], i32 [[LANES]])
; CHECK-NEXT: redux.sync.add.u32 $0, $1, $2;", "=r,r,r"(i32 [[T1]], i32 [[LANES]])
; CHECK-NEXT: redux.sync.add.u32 $0, $1, $2;", "=r,r,r"(i32 %{{[0-9]+}}, i32 [[LANES]])
; CHECK-NEXT: redux.sync.add.u32 $0, $1, $2;", "=r,r,r"(i32 %{{[0-9]+}}, i32 [[LANES]])
; CHECK-NEXT: redux.sync.add.u32 $0, $1, $2;", "=r,r,r"(i32 %{{[0-9]+}}, i32 [[LANES]])
; CHECK-NEXT: redux.sync.add.u32 $0, $1, $2;", "=r,r,r"(i32 %{{[0-9]+}}, i32 [[LANES]])
; CHECK-NEXT: redux.sync.add.u32 $0, $1, $2;", "=r,r,r"(i32 %{{[0-9]+}}, i32 [[LANES]])
; CHECK-NEXT: redux.sync.add.u32 $0, $1, $2;", "=r,r,r"(i32 %{{[0-9]+}}, i32 [[LANES]])
define ptx_kernel void @poll(ptr addrspace(1) %flags, ptr addrspace(1) %out) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %f = getelementptr i32, ptr addrspace(1) %flags, i32 %tid
  br label %wait

wait:
  %polls = phi i32 [ 0, %entry ], [ %polls.next, %wait ]
  %polls.next = add i32 %polls, 1
  %v = load volatile i32, ptr addrspace(1) %f
  %set = icmp ne i32 %v, 0
  br i1 %set, label %done, label %wait

done:
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %polls.next, ptr addrspace(1) %o
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { "target-cpu"="sm_90" }
