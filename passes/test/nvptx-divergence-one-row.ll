; A loop-free kernel's divergence copy computes its counters' bank row
; once (__pasta_bank_row reads %smid and the block index: 8 PTX
; instructions a warp), in the nearest block dominating every use: here
; the body's entry, where the branch's figures are added, and the return's
; flush of the counting code's bit takes the same row. Any row is right
; (the host adds the banks up). -pasta-div-one-row=0: the flush computes
; its own, as before.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-one-row=0 -S %s 2>/dev/null | FileCheck %s --check-prefix=OFF

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @guarded__pasta_div(
; CHECK: %[[ROW:[0-9]+]] = call ptr addrspace(1) @__pasta_bank_row(
; CHECK-NOT: @__pasta_bank_row(
; CHECK: exit:
; CHECK: call i64 @__pasta_flush_any(
; CHECK-NOT: @__pasta_bank_row(
; CHECK: %[[SLOT:[0-9]+]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 {{[0-9]+}}
; CHECK-NEXT: call void @__pasta_flush_bit_fast(ptr addrspace(1) %[[SLOT]],
; CHECK-NOT: @__pasta_bank_row(
; CHECK: ret void
; CHECK-NEXT: }
; OFF-LABEL: define ptx_kernel void @guarded__pasta_div(
; OFF: call ptr addrspace(1) @__pasta_bank_row(
; OFF: exit:
; OFF: call i64 @__pasta_flush_any(
; OFF: %[[ROW:[0-9]+]] = call ptr addrspace(1) @__pasta_bank_row(
; OFF: %[[SLOT:[0-9]+]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 {{[0-9]+}}
; OFF-NEXT: call void @__pasta_flush_bit_fast(ptr addrspace(1) %[[SLOT]],
define ptx_kernel void @guarded(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %w = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %b, %w
  %i = add i32 %base, %t
  %in.range = icmp slt i32 %i, %n
  br i1 %in.range, label %copy, label %exit
copy:
  %idx = zext i32 %i to i64
  %src = getelementptr inbounds float, ptr addrspace(1) %in, i64 %idx
  %v = load float, ptr addrspace(1) %src, align 4
  %dst = getelementptr inbounds float, ptr addrspace(1) %out, i64 %idx
  store float %v, ptr addrspace(1) %dst, align 4
  br label %exit
exit:
  ret void
}

; A grid-stride loop: its copy keeps a row per use (a row live across the
; loop took a register more), the loop's adds and the return's flush each
; computing theirs.
; CHECK-LABEL: define ptx_kernel void @strided__pasta_div(
; CHECK: loop:
; CHECK: call ptr addrspace(1) @__pasta_bank_row(
; CHECK: exit:
; CHECK: call ptr addrspace(1) @__pasta_bank_row(
; CHECK: ret void
define ptx_kernel void @strided(ptr addrspace(1) %out, i32 %n) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %w = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %g = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %base = mul i32 %b, %w
  %first = add i32 %base, %t
  %step = mul i32 %g, %w
  %go = icmp slt i32 %first, %n
  br i1 %go, label %loop, label %exit
loop:
  %i = phi i32 [ %first, %entry ], [ %next, %loop ]
  %idx = zext i32 %i to i64
  %dst = getelementptr inbounds float, ptr addrspace(1) %out, i64 %idx
  store float 1.0, ptr addrspace(1) %dst, align 4
  %next = add i32 %i, %step
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
