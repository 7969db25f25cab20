; Two shapes of the runtime's code in a counting kernel of the reductions'
; shape (the suite's reduce_f32: warps 1-7 leave after the first tree with
; one lane's bit, warp 0 goes on):
; - A lane's own bit (a `lane == 0` block, __pasta_flush_bit_lane) is added
;   as the lane's bit, hidden from clang and ptxas by an empty asm, not as
;   the constant 1: ptxas turned a `red` of 1 at the warp-uniform bank row
;   into a warp-aggregated one (VOTEU.ANY, UPOPC, UFLO, the leader's test:
;   11 more SASS instructions a warp than the lane's own `red`).
; - The launch count at entry tests the block index x, then, in blocks of
;   index x 0, a ballot of `tid.x == 0` (the same in every lane of a warp):
;   a branch on the thread index there was merged by ptxas with the block
;   test into one branch that every warp of every block ran in a
;   reconvergence region (BSSY, BSYNC).
; RUN: %opt -passes=pasta-count -pasta-variants=0 -S %s 2>/dev/null | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @tree(
; The entry: block index x, then the warp's ballot on the volatile tid.x.
; CHECK: [[B:%[0-9]+]] = {{.*}}call {{.*}}i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK: icmp eq i32 [[B]], 0
; CHECK: [[TID:%[0-9]+]] = call i32 asm sideeffect "mov.u32 $0, %tid.x;"
; CHECK: [[IS0:%[0-9]+]] = icmp eq i32 [[TID]], 0
; CHECK: [[VOTE:%[0-9]+]] = call i32 @llvm.nvvm.vote.ballot.sync(i32 %{{[0-9]+}}, i1 [[IS0]])
; CHECK-NEXT: icmp eq i32 [[VOTE]], 0
; A lane's own bit: the bit, through an empty asm, is what the `red` adds.
; CHECK: [[OWN:%[0-9]+]] = and i32 %{{[0-9a-z.]+}}, 1
; CHECK-NEXT: [[HID:%[0-9]+]] = call i32 asm "", "=r,0"(i32 [[OWN]])
; CHECK: [[WIDE:%[0-9]+]] = zext i32 [[HID]] to i64
; CHECK-NEXT: call void asm sideeffect "red.relaxed.gpu.global.add.u64 [$0], $1;", "l,l,~{memory}"(ptr addrspace(1) %{{[0-9]+}}, i64 [[WIDE]])
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

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
