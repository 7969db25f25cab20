; Blocks outside loops entered only from one side of a two-way branch
; whose warp executions are not measured in every warp (DivergencePlan.cpp):
;  - launchBody: the branch's block runs once in every thread (it shares
;    the kernel entry's counters) and its condition depends only on the
;    thread's place in its block and on values the same in every block
;    (`tid < 64`, a tree reduction's step): every block sends the same warps
;    to the body, so block 0's branch adds the grid's blocks for each of its
;    warps that has a lane going there (__pasta_div_branch_launch_add) and
;    the other blocks add nothing;
;  - derivedBody: an if-then body (the other side a join) on a condition
;    whose form says most warps have a lane going the body's way
;    (mostWarpsEnter: a bounds check of a grid-wide index, a test lane 0 of
;    every warp passes): the branch's helper (__pasta_div_branch_none_add)
;    counts the executions in which no active lane takes the body's side,
;    and read-back derives the body's warps as the branch block's less
;    those (a row with coefficient -1).
; Measured as before: `blockIdx.x == 0`'s body (neither: most warps skip
; it), a test of loaded data, an if-else's two sides, a body in a loop
; (registers there, no atomic).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-every-trip=0 -pasta-print-sites -pasta-div-stats -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck %s --check-prefix=ROWS < %t.sites
; RUN: FileCheck %s --check-prefix=STATS < %t.sites
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-every-trip=0 -pasta-div-derive-bodies=0 -S %s | FileCheck %s --check-prefix=OFF
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %flags, i32 %n) !dbg !5 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !10
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !10
  %base = mul i32 %bid, %bdim, !dbg !10
  %i = add i32 %base, %tid, !dbg !10
  %c = icmp slt i32 %i, %n, !dbg !10
  br i1 %c, label %then, label %join, !dbg !10
then:
  store i32 1, ptr addrspace(1) %out, !dbg !11
  %lane = and i32 %tid, 31, !dbg !11
  %d = icmp ne i32 %lane, 0, !dbg !11
  br i1 %d, label %join, label %inner, !dbg !11
inner:
  store i32 2, ptr addrspace(1) %out, !dbg !12
  br label %join, !dbg !12
join:
  %u = icmp eq i32 %bid, 0, !dbg !13
  br i1 %u, label %leader, label %block0, !dbg !13
leader:
  store i32 3, ptr addrspace(1) %out, !dbg !14
  br label %block0, !dbg !14
block0:
  %small = icmp ult i32 %tid, 64, !dbg !18
  br i1 %small, label %tree, label %data, !dbg !18
tree:
  store i32 6, ptr addrspace(1) %out, !dbg !19
  br label %data, !dbg !19
data:
  %p = getelementptr inbounds i32, ptr addrspace(1) %flags, i32 %i, !dbg !22
  %f = load i32, ptr addrspace(1) %p, !dbg !22
  %set = icmp ne i32 %f, 0, !dbg !22
  br i1 %set, label %flagged, label %loop, !dbg !22
flagged:
  store i32 8, ptr addrspace(1) %out, !dbg !23
  br label %loop, !dbg !23
loop:
  %j = phi i32 [ 0, %data ], [ %j1, %latch ], [ 0, %flagged ]
  %odd = icmp slt i32 %j, %tid, !dbg !20
  br i1 %odd, label %lbody, label %latch, !dbg !20
lbody:
  store i32 7, ptr addrspace(1) %out, !dbg !21
  br label %latch, !dbg !21
latch:
  %j1 = add i32 %j, 1, !dbg !20
  %more = icmp slt i32 %j1, %n, !dbg !20
  br i1 %more, label %loop, label %end, !dbg !20
end:
  %e = icmp eq i32 %tid, 5, !dbg !15
  br i1 %e, label %yes, label %no, !dbg !15
yes:
  store i32 4, ptr addrspace(1) %out, !dbg !16
  ret void, !dbg !16
no:
  store i32 5, ptr addrspace(1) %out, !dbg !17
  ret void, !dbg !17
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

; The copy. Rows: line 3 is counters 12-23 (its divergent branches 12 + 9 =
; 21), line 4 26-37 (35); the launch's warps 24. `i < n` counts its
; executions with no lane taking `then` in 38; `then` measures nothing.
; CHECK-LABEL: define ptx_kernel void @k__pasta_div(
; CHECK: %[[ROW:.*]] = call ptr addrspace(1) @__pasta_bank_row(
; CHECK: call void @__pasta_div_count_launch(
; CHECK: %[[NONE1:.*]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 38
; CHECK-NEXT: %[[T1:.*]] = zext i1 %c to i32
; CHECK-NEXT: %[[DIV1:.*]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 21
; CHECK-NEXT: call i32 @__pasta_div_branch_none_add(i32 %[[T1]], ptr addrspace(1) %[[DIV1]], ptr addrspace(1) %[[NONE1]], i32 1, ptr addrspace(1) %[[NONE1]], i32 0)
; CHECK-NEXT: br i1 %c, label %then
; CHECK: then:
; CHECK-NOT: __pasta_div_block_add
; `inner` is the false side of `lane != 0`: the helper is given its
; negation. That lane test splits every full 32-lane row (splitBody,
; nvptx-divergence-split-bodies.ll): the branch counts the executions in
; which no lane (52) and every lane (54, after inner's warps 53) takes
; `inner`, and read-back derives its divergent ones (35).
; CHECK: %d = icmp ne i32 %lane, 0
; CHECK-NEXT: %[[NOT:.*]] = xor i1 %d, true
; CHECK-NEXT: %[[NONE2:.*]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 52
; CHECK-NEXT: %[[T2:.*]] = zext i1 %[[NOT]] to i32
; CHECK-NEXT: %[[ALL2:.*]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 54
; CHECK-NEXT: call void @__pasta_div_branch_split_add(i32 %[[T2]], ptr addrspace(1) %[[ALL2]], ptr addrspace(1) %[[NONE2]], i32 0)
; CHECK-NEXT: br i1 %d, label %join, label %inner
; CHECK: inner:
; CHECK-NOT: __pasta_div_block_add
; CHECK: join:
; `blockIdx.x == 0` (warp-uniform by PASTA's proof: the branch is not
; measured): its body is.
; CHECK-NOT: call void @__pasta_div_branch
; CHECK: br i1 %u, label %leader, label %block0
; CHECK: leader:
; CHECK-NEXT: getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 79
; CHECK-NEXT: call void @__pasta_div_block_add(
; `tid < 64` (block0 runs once in every thread): the branch adds `tree`'s
; warps (104) in block 0 only, with its divergent executions (line 11's
; counters 80-91: 89; every counter from line 4's every-lane count on is
; one later than without it).
; CHECK: block0:
; CHECK: %[[TREE:.*]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 104
; CHECK-NEXT: %[[T3:.*]] = zext i1 %small to i32
; CHECK-NEXT: %[[DIV3:.*]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 89
; CHECK-NEXT: call void @__pasta_div_branch_launch_add(i32 %[[T3]], ptr addrspace(1) %[[DIV3]], ptr addrspace(1) %[[TREE]], i32 1)
; CHECK-NEXT: br i1 %small, label %tree, label %data
; CHECK: tree:
; CHECK-NOT: __pasta_div_block_add
; CHECK: data:
; Loaded data: measured.
; CHECK: call void @__pasta_div_branch_add(
; CHECK-NEXT: br i1 %set, label %flagged
; CHECK: flagged:
; CHECK-NEXT: getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 129
; CHECK-NEXT: call void @__pasta_div_block_add(
; In the loop: registers, no derivation; the body's warps and lanes come
; from the branch's ballot (nvptx-divergence-loop-bodies.ll).
; CHECK: call void @__pasta_div_branch_body(i32
; CHECK-NEXT: br i1 %odd, label %lbody, label %latch
; CHECK: lbody:
; CHECK-NOT: call void @__pasta_div_block(
; CHECK: latch:
; The if-else's two sides, each a block of its own: measured.
; CHECK: call void @__pasta_div_branch_add(
; CHECK-NEXT: br i1 %e, label %yes, label %no
; CHECK: yes:
; CHECK: call void @__pasta_div_block_add(
; CHECK: no:
; CHECK: call void @__pasta_div_block_add(
; CHECK-NOT: __pasta_div_branch_none_add
; CHECK: ret void

; Read-back: each derived body's warps, the branch block's less its
; no-lane executions, before any row that reads them (then: 39 from the
; launch's 24; inner: 53 from then's 39, itself derived first).
; ROWS-NOT: *c39
; ROWS: pasta: derived 39 = +1*c24 -1*c38
; ROWS-NOT: *c53
; ROWS: pasta: derived 53 = +1*c39 -1*c52
; `lane != 0`'s divergent executions: then's warps less 52 and 54.
; ROWS: pasta: derived 35 = +1*c39 -1*c52 -1*c54
; ROWS-NOT: -1*c
; STATS: pasta: div-stats: {{.*}}; bodies counted at their branch: 3

; Off: every body measured, no helper for the no-lane executions.
; OFF-LABEL: define ptx_kernel void @k__pasta_div(
; OFF-NOT: __pasta_div_branch_none_add
; OFF: then:
; OFF-NEXT: getelementptr
; OFF-NEXT: call void @__pasta_div_block_add(
; OFF: inner:
; OFF-NEXT: getelementptr
; OFF-NEXT: call void @__pasta_div_block_add(
; OFF: tree:
; OFF-NEXT: getelementptr
; OFF-NEXT: call void @__pasta_div_block_add(

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
!12 = !DILocation(line: 5, scope: !5)
!13 = !DILocation(line: 6, scope: !5)
!14 = !DILocation(line: 7, scope: !5)
!15 = !DILocation(line: 8, scope: !5)
!16 = !DILocation(line: 9, scope: !5)
!17 = !DILocation(line: 10, scope: !5)
!18 = !DILocation(line: 11, scope: !5)
!19 = !DILocation(line: 12, scope: !5)
!20 = !DILocation(line: 13, scope: !5)
!21 = !DILocation(line: 14, scope: !5)
!22 = !DILocation(line: 15, scope: !5)
!23 = !DILocation(line: 16, scope: !5)
