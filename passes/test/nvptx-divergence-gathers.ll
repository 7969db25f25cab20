; A block shares the counters of a block above it that it runs once after
; (passes/DivergencePlan.cpp, runsOnceAfter) only while a warp runs both with
; the same lanes. Lanes that leave a loop apart (a divergent exit) may stay
; apart, as in CUB's Onesweep sort: the block right after such a loop is
; measured, and shares its counters with the block below it, but not
; across a barrier, which might gather them (@spin). Lanes that may come to
; a block apart (a device function's entry) must not be gathered before
; the block below it: a shuffle between them makes that block measured
; (@callee), while in a kernel, whose lanes start together, it does not
; (@kernel).
; -pasta-div-derive-returns=0: the kernels' returns are measured here as any
; block (nvptx-divergence-sole-return.ll tests the derived ones).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-div-derive-returns=0 -pasta-divergence -pasta-callee-counts=0 -S %s | FileCheck %s
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)

; CHECK-LABEL: define ptx_kernel void @spin__pasta_div(
; CHECK: entry:
; CHECK: call void @__pasta_div_count_launch(
; CHECK: top:
; CHECK: call void @__pasta_div_block_add(
; CHECK: mid:
; CHECK-NOT: call void @__pasta_div_block
; CHECK: below:
; CHECK: call void @__pasta_div_block_add(
; CHECK: ret void
define ptx_kernel void @spin(ptr addrspace(1) %g) !dbg !5 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  store i32 0, ptr addrspace(1) %g, align 4, !dbg !10
  br label %loop, !dbg !10
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ], !dbg !11
  %i.next = add nuw nsw i32 %i, 1, !dbg !11
  %more = icmp ult i32 %i.next, %x, !dbg !11
  br i1 %more, label %loop, label %top, !dbg !11
top:
  store i32 1, ptr addrspace(1) %g, align 4, !dbg !12
  br label %mid, !dbg !12
mid:
  store i32 2, ptr addrspace(1) %g, align 4, !dbg !13
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !13
  br label %below, !dbg !13
below:
  store i32 3, ptr addrspace(1) %g, align 4, !dbg !14
  ret void, !dbg !14
}

; CHECK-LABEL: define ptx_kernel void @kernel__pasta_div(
; CHECK: entry:
; CHECK: call void @__pasta_div_count_launch(
; CHECK: after:
; CHECK-NOT: call void @__pasta_div_block
; CHECK: call void @callee__pasta_div(
; CHECK: ret void
define ptx_kernel void @kernel(ptr addrspace(1) %g) !dbg !7 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !30
  store i32 %x, ptr addrspace(1) %g, align 4, !dbg !30
  %s = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %x, i32 0, i32 31), !dbg !30
  br label %after, !dbg !30
after:
  store i32 %s, ptr addrspace(1) %g, align 4, !dbg !31
  call void @callee(ptr addrspace(1) %g, i32 %s), !dbg !31
  ret void, !dbg !31
}

; CHECK-LABEL: define internal void @callee__pasta_div(
; CHECK: entry:
; CHECK: call void @__pasta_div_block
; CHECK: after:
; CHECK: call void @__pasta_div_block
; CHECK: ret void
define internal void @callee(ptr addrspace(1) %g, i32 %v) noinline !dbg !6 {
entry:
  store i32 %v, ptr addrspace(1) %g, align 4, !dbg !20
  %s = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %v, i32 0, i32 31), !dbg !20
  br label %after, !dbg !20
after:
  store i32 %s, ptr addrspace(1) %g, align 4, !dbg !21
  ret void, !dbg !21
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "gathers.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "spin", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!6 = distinct !DISubprogram(name: "callee", scope: !1, file: !1, line: 20, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!7 = distinct !DISubprogram(name: "kernel", scope: !1, file: !1, line: 30, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
!12 = !DILocation(line: 5, scope: !5)
!13 = !DILocation(line: 6, scope: !5)
!14 = !DILocation(line: 7, scope: !5)
!20 = !DILocation(line: 21, scope: !6)
!21 = !DILocation(line: 22, scope: !6)
!30 = !DILocation(line: 31, scope: !7)
!31 = !DILocation(line: 32, scope: !7)
