; The out-of-line flush of staged counts (__pasta_flush_indexed), as linked
; from the device runtime for NVIDIA GPUs: per batch of eight counts, two
; votes over the lanes running the call (is any count not zero? too large
; for a 32-bit warp sum?), then the counts summed with redux.sync over
; those lanes, a full warp or
; not: lanes that leave a spin loop one by one (HeCBench bh) flush in
; partial warps while the rest of their warp still polls, and a vote, a
; load and a sum per counter, one counter after the other, held such a warp
; some 3,500 instructions for 78 counters.
; RUN: %opt -passes=pasta-count -pasta-variants=0 -pasta-inline-flush-limit=0 -S %s 2>/dev/null | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; A thread polls its flag until another sets it, then leaves: lanes leave
; at different times.
; CHECK-LABEL: define ptx_kernel void @poll(
; CHECK: call void @__pasta_flush_indexed(
; CHECK: ret void
; CHECK-LABEL: define internal void @__pasta_flush_indexed(
; CHECK: [[LANES:%[0-9]+]] = tail call i32 @llvm.nvvm.activemask()
; The staged counts are read from local memory (the kernel's alloca), not
; through generic loads (each moved its descriptor into two uniform
; registers first).
; CHECK: load i64, ptr addrspace(5)
; CHECK: @llvm.nvvm.vote.ballot.sync(i32 [[LANES]],
; CHECK: @llvm.nvvm.vote.ballot.sync(i32 [[LANES]],
; CHECK-NOT: @llvm.nvvm.vote.ballot.sync(i32 [[LANES]],
; CHECK: redux.sync.add.u32 $0, $1, $2;", "=r,r,r"(i32 %{{[0-9]+}}, i32 [[LANES]])
; CHECK-NEXT: redux.sync.add.u32 $0, $1, $2;", "=r,r,r"(i32 %{{[0-9]+}}, i32 [[LANES]])
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
