; Flushes on the ways into a kernel's return (CounterEmission.cpp,
; flushPointsOf): a return block entered by a warp-uniform branch or a
; bounds check's cold edge flushes, on that way, only the counters that way
; can have set; ways split by a lane's branch meet in one flush block, so
; that their warps flush whole. Counts are unchanged: a thread adds at its
; way out every counter of the blocks it can have run.
; The exit gather is off here (nvptx-gather-tail-lanes.ll): its calls would
; sit between the lines checked.
; RUN: %opt -passes=pasta-count -pasta-gather-warp-at-exit=0 -pasta-variants=0 -pasta-link-runtime=0 -S %s 2>/dev/null | FileCheck %s
; In divergence (and trace) builds, whose copies keep the flush at the
; return, there is one flush.
; RUN: %opt -passes=pasta-count -pasta-gather-warp-at-exit=0 -pasta-variants=0 -pasta-link-runtime=0 -pasta-divergence -S %s 2>/dev/null | FileCheck --check-prefix=DIV %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; @tree, the shape of the suite's reductions: warps wholly beyond n leave
; at once (a bounds check); after the first tree warps 1-7 leave (`warp !=
; 0`); warp 0 goes on, and its lane 0 stores. Bits: 0 %lead, 1 %tail, 2
; %last; the cold edge (counter 6) is counted where it is taken. Warps 1-7
; flush bit 0 alone, not the six tests of a flush of every bit at the
; shared return. Bits 0 and 2 (%lead, %last: `lane == 0`) are one lane's:
; that lane adds them itself (__pasta_flush_bit_lane), with no warp sum, no
; full-warp test, no vote.
; CHECK-LABEL: define ptx_kernel void @tree(
; CHECK: entry.ret_crit_edge:
; CHECK-NEXT: call void @__pasta_count_lanes(ptr addrspace(1) @__pasta_counters_{{[0-9a-f]+}}, i32 16, i32 4096, i32 6)
; CHECK-NEXT: br label %ret
; CHECK: join.ret_crit_edge:
; CHECK-NEXT: call ptr addrspace(1) @__pasta_bank_row(
; CHECK-NEXT: getelementptr
; CHECK-NEXT: call void @__pasta_flush_bit_lane(ptr addrspace(1) %{{[0-9]+}}, i32 %[[JOIN:[a-z0-9.]+]], i32 0)
; CHECK-NEXT: br label %ret
; CHECK: ret.pasta.flush: {{.*}} preds = %tail, %last
; CHECK-NEXT: %[[END:[a-z0-9.]+]] = phi i32
; CHECK-NEXT: call ptr addrspace(1) @__pasta_bank_row(
; CHECK-NEXT: getelementptr
; CHECK-NEXT: call void @__pasta_flush_bit_lane(ptr addrspace(1) %{{[0-9]+}}, i32 %[[END]], i32 0)
; CHECK-NEXT: getelementptr
; CHECK-NEXT: call void @__pasta_flush_bit_lane(ptr addrspace(1) %{{[0-9]+}}, i32 %[[END]], i32 2)
; CHECK-NOT: __pasta_bank_row(
; CHECK: %[[N1:[0-9]+]] = call i32 @__pasta_warp_bit_count(i32 %[[END]], i32 1)
; CHECK-NOT: __pasta_warp_bit_count
; CHECK: call void @__pasta_add_nonzero(ptr addrspace(1) %{{[0-9]+}}, i64 %{{[0-9]+}})
; CHECK-NOT: __pasta_add_nonzero
; CHECK-NOT: __pasta_flush_bit_fast
; CHECK: ret:
; CHECK-NEXT: ret void
; DIV-LABEL: define ptx_kernel void @tree(
; DIV-NOT: join.ret_crit_edge:
; DIV-NOT: pasta.flush:
; DIV-NOT: @__pasta_bank_row(
; DIV: ret:
; DIV: call ptr addrspace(1) @__pasta_bank_row(
; DIV-NOT: @__pasta_bank_row(
; DIV-LABEL: define ptx_kernel void @lanes(
define ptx_kernel void @tree(ptr %in, ptr %out, i32 %n) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %d = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %b, %d
  %wt = and i32 %t, 992
  %w = add i32 %base, %wt
  %beyond = icmp sge i32 %w, %n
  br i1 %beyond, label %ret, label %body
body:
  %i = add i32 %base, %t
  %p = getelementptr float, ptr %in, i32 %i
  %v = load float, ptr %p
  %lane = and i32 %t, 31
  %first = icmp eq i32 %lane, 0
  br i1 %first, label %lead, label %join
lead:
  store float %v, ptr %in
  br label %join
join:
  %warp = lshr i32 %t, 5
  %rest = icmp ne i32 %warp, 0
  br i1 %rest, label %ret, label %tail
tail:
  %q = load float, ptr %out
  br i1 %first, label %last, label %ret
last:
  store float %q, ptr %out
  br label %ret
ret:
  ret void
}

; @lanes: the only way that skips a block is a lane's (the lane against a
; value read from memory), which splits warps: one flush, at the return.
; CHECK-LABEL: define ptx_kernel void @lanes(
; CHECK-NOT: crit_edge:
; CHECK-NOT: pasta.flush:
; CHECK: ret:
; CHECK-NEXT: phi i32
; CHECK-NEXT: call ptr addrspace(1) @__pasta_bank_row(
define ptx_kernel void @lanes(ptr %a, ptr %k) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %x = load i32, ptr %k
  %lane = and i32 %t, 31
  %other = icmp ne i32 %lane, %x
  br i1 %other, label %ret, label %lead
lead:
  store float 1.0, ptr %a
  br label %ret
ret:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
