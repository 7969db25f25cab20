; Warp leaders (passes/CounterPlacement.h, point 5): a block that one lane
; of each warp runs after the warp ran its predecessor together counts 32
; per run minus one per run of that predecessor; the host derives its count
; as (that + the predecessor's count) >> 5. The lane is %laneid (intrinsic
; or CUB's inline assembly) or threadIdx.x % 32; `lane != c` leads on the
; false edge. threadIdx.x == 0 leads a thread block, not a warp: no leader.
; RUN: %opt -passes=pasta-count -pasta-print-sites -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck --check-prefix=SITES %s < %t.sites

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; In a device function the warp's block can be the entry: its -1 is the
; register's start. (In a kernel, a block like %lead runs alike in every
; thread block, which the first thread block flushes for all.)
; CHECK-LABEL: define void @entry_warp(
; CHECK: lead:
; CHECK-NEXT: %[[LEAD:[0-9]+]] = add i64 -1, 32
; CHECK: done:
; CHECK-NEXT: %[[CORR:.*]] = phi i64 [ %[[LEAD]], %lead ], [ -1, %entry ]
; CHECK: call void @__pasta_flush_signed_fast(ptr addrspace(1) %{{[0-9]+}}, i64 %[[CORR]])
define ptx_kernel void @calls(ptr %a) {
  call void @entry_warp(ptr %a)
  ret void
}

define void @entry_warp(ptr %a) noinline {
entry:
  store float 1.0, ptr %a
  %l = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %first = icmp eq i32 %l, 0
  br i1 %first, label %lead, label %done
lead:
  store float 2.0, ptr %a
  br label %done
done:
  ret void
}

; CUB reads %laneid with inline assembly; `lane != 3` leads on its false edge.
; CHECK-LABEL: define ptx_kernel void @asm_lane(
; CHECK: warp:
; CHECK-NEXT: %[[WARP:[0-9]+]] = add i64 0, -1
; CHECK: lead:
; CHECK-NEXT: add i64 %[[WARP]], 32
define ptx_kernel void @asm_lane(ptr %a, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %some = icmp slt i32 %t, %n
  br i1 %some, label %warp, label %done
warp:
  store float 1.0, ptr %a
  %l = call i32 asm "mov.u32 $0, %laneid;", "=r"()
  %other = icmp ne i32 %l, 3
  br i1 %other, label %done, label %lead
lead:
  store float 2.0, ptr %a
  br label %done
done:
  ret void
}

; threadIdx.x % 32 as clang emits it (an and), zero-extended. (Under a
; test of the thread's index alone, both blocks would run alike in every
; thread block: the test here reads the block's index.)
; CHECK-LABEL: define ptx_kernel void @tid_lane(
; CHECK: lead:
; CHECK-NEXT: add i64 %{{[0-9]+}}, 32
define ptx_kernel void @tid_lane(ptr %a, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %some = icmp slt i32 %b, %n
  br i1 %some, label %warp, label %done
warp:
  store float 1.0, ptr %a
  %m = and i32 %t, 31
  %l = zext i32 %m to i64
  %first = icmp eq i64 %l, 0
  br i1 %first, label %lead, label %done
lead:
  store float 2.0, ptr %a
  br label %done
done:
  ret void
}

; threadIdx.x == 0 and a lane above 31 are no warp leaders: bits, no -1.
; CHECK-LABEL: define ptx_kernel void @not_leaders(
; CHECK-NOT: add i64 %{{[0-9]+}}, 32
; CHECK-NOT: add i64 0, -1
; CHECK-NOT: __pasta_flush_signed_fast
; CHECK: ret void
define ptx_kernel void @not_leaders(ptr %a, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %some = icmp slt i32 %b, %n
  br i1 %some, label %warp, label %done
warp:
  store float 1.0, ptr %a
  %block_first = icmp eq i32 %t, 0
  br i1 %block_first, label %lead, label %next
lead:
  store float 2.0, ptr %a
  br label %next
next:
  store float 1.0, ptr %a
  %l = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %big = icmp eq i32 %l, 40
  br i1 %big, label %never, label %done
never:
  store float 3.0, ptr %a
  br label %done
done:
  ret void
}

; Each leader's rows: its warp's count as a sum of measured counters, then
; the shift, before any other row of its function.
; SITES: pasta: func asm_lane kind=kernel calls=1
; SITES: pasta: func tid_lane kind=kernel calls=4
; SITES: pasta: func not_leaders kind=kernel calls=7
; SITES: pasta: func entry_warp kind=device calls=12
; SITES-NOT: >> 5
; SITES: pasta: derived 3 = (c3 +1*c2) >> 5
; SITES: pasta: derived 6 = (c6 +1*c5) >> 5
; SITES-NOT: >> 5
; SITES: pasta: derived 22 = (c22 +1*c12) >> 5
; SITES-NOT: >> 5

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
