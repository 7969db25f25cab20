; A partial warp's flush (lanes that left by different ways, a call through
; a pointer whose lanes went to different functions): its active lanes sum
; each counter with one redux.sync over their own mask (activemask), and
; the first of them (the mask's lowest lane) adds the sum; a bit any of
; them has (redux.sync.or over that mask) is counted by a ballot over it
; and added by that lane: one `red` per counter for the warp, where each
; lane with a count added its own. sm_80 and later (redux.sync).
; RUN: %opt -passes=pasta-count -pasta-variants=0 -S %s 2>/dev/null | FileCheck %s
; Bits out of line (__pasta_flush_bits), as at a return of more than 8
; counters:
; RUN: %opt -passes=pasta-count -pasta-variants=0 -pasta-inline-flush-limit=0 -S %s 2>/dev/null | FileCheck --check-prefix=BITS %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; A loop (a 64-bit counter) and a branch on data (bits).
; CHECK-LABEL: define ptx_kernel void @loop_and_branch(
; A counter's partial path.
; CHECK: redux.sync.add.u32 $0, $1, $2;", "=r,r,r"(i32 %{{[0-9]+}}, i32 [[LANES:%[0-9]+]])
; CHECK: call {{.*}}i32 @llvm.cttz.i32(i32 [[LANES]], i1 true)
; CHECK: red.relaxed.gpu.global.add.u64
; CHECK: ret void
; BITS-LABEL: define ptx_kernel void @loop_and_branch(
; BITS: redux.sync.or.b32 $0, $1, $2;", "=r,r,r"(i32 %{{[0-9]+}}, i32 [[BITLANES:%[0-9]+]])
; BITS: call i32 @llvm.nvvm.vote.ballot.sync(i32 [[BITLANES]],
; BITS: red.relaxed.gpu.global.add.u64
; BITS: ret void
define ptx_kernel void @loop_and_branch(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr float, ptr addrspace(1) %in, i32 %tid
  %v = load float, ptr addrspace(1) %p
  %c = fcmp ogt float %v, 0.0
  br i1 %c, label %pos, label %loop

pos:
  %w = fmul float %v, 2.0
  store float %w, ptr addrspace(1) %out
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ 0, %pos ], [ %i.next, %loop ]
  %s = phi float [ %v, %entry ], [ %v, %pos ], [ %s.next, %loop ]
  %s.next = fadd float %s, 1.0
  %i.next = add i32 %i, 1
  %lim = load volatile i32, ptr addrspace(1) %in
  %more = icmp slt i32 %i.next, %lim
  br i1 %more, label %loop, label %exit

exit:
  %q = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %s.next, ptr addrspace(1) %q
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { "target-cpu"="sm_90" }
