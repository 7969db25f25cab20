; An if-then body the counting code does not count (`rest`, integer code
; only; before, the copy measured its active lanes with
; __pasta_div_block_add):
; derived from its branch (DivergencePlan.cpp, derivedBody), the warps as
; in nvptx-divergence-bodies.ll and the active lanes too: the branch's
; helper also adds the active lanes that do not take the body's side
; (`others`, with_others 1), and read-back derives the body's thread-level
; executions as the branch block's (the launch's threads, 16) less those.
; Here the body is the false side of `i >= n` (an early return to a join).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-print-sites -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck %s --check-prefix=ROWS < %t.sites
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k2(ptr addrspace(1) %out, i32 %n) !dbg !5 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !10
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !10
  %base = mul i32 %bid, %bdim, !dbg !10
  %i = add i32 %base, %tid, !dbg !10
  %past = icmp sge i32 %i, %n, !dbg !10
  br i1 %past, label %done, label %rest, !dbg !10
rest:
  %v = mul i32 %i, 3, !dbg !11
  %big = icmp sgt i32 %v, 5, !dbg !11
  br i1 %big, label %st, label %done, !dbg !11
st:
  store i32 1, ptr addrspace(1) %out, !dbg !12
  br label %done, !dbg !12
done:
  ret void, !dbg !13
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()


; Line 3 is counters 3-14 (divergent 12), after the counting code's 0-2;
; the launch's warps 15 and threads 16; line 4 17-28; `rest`'s no-lane executions 29, warps 30, other lanes
; 31, threads 32.
; CHECK-LABEL: define ptx_kernel void @k2__pasta_div(
; CHECK: %[[ROW:.*]] = call ptr addrspace(1) @__pasta_bank_row(
; CHECK: %[[NOT:.*]] = xor i1 %past, true
; CHECK-NEXT: %[[NONE:.*]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 29
; CHECK-NEXT: %[[T:.*]] = zext i1 %[[NOT]] to i32
; CHECK-NEXT: %[[DIV:.*]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 12
; CHECK-NEXT: %[[OTHERS:.*]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 31
; CHECK-NEXT: call i32 @__pasta_div_branch_none_add(i32 %[[T]], ptr addrspace(1) %[[DIV]], ptr addrspace(1) %[[NONE]], i32 1, ptr addrspace(1) %[[OTHERS]], i32 1)
; CHECK-NEXT: br i1 %past, label %done, label %rest
; CHECK: rest:
; CHECK-NOT: __pasta_div_block_add
; CHECK: br i1 %big
; ROWS-NOT: *c30
; ROWS-NOT: *c32
; ROWS: pasta: derived 30 = +1*c15 -1*c29
; ROWS-NEXT: pasta: derived 32 = +1*c16 -1*c31
; ROWS: pasta: div k.cu:3 func=k2 counters=3..14
; ROWS: pasta: div k.cu:4 func=k2 counters=17..28

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "k2", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
!12 = !DILocation(line: 5, scope: !5)
!13 = !DILocation(line: 6, scope: !5)
