; In a loop whose branches are not all uniform, a block entered only from
; one side of a measured two-way branch (an if-then body, an if-else's first
; side, an inner loop's body) is counted at the branch: its warps and lanes
; in each execution are the ballot of the side's condition (nonzero, its
; population), so __pasta_div_branch_body adds the branch's divergent
; executions and the block's warps (and lanes, where the counting code does
; not count them) from one vote, to the block's own registers, and the block
; runs no __pasta_div_block (an active mask, a first-lane test and a
; population count per visit, in pathfinder's and nw's loops). The false
; side gets the negated condition. Left as they were: the if-else's second
; side (one side per branch), a block entered from elsewhere too, and an
; exit of an inner loop (`out.x`, in the outer loop: lanes leaving the inner
; loop apart run it once they are gathered, not once per vote).
; A loop's header is such a block of its latch's branch where the loop's
; exit diverges: the lanes going round are the ballot's, those entering the
; loop are counted once per entry at its preheader
; (nvptx-divergence-counted-headers.ll, @divexit; the uniform-exit loops
; here fold their headers instead).
; -pasta-div-bodies-at-branch=0 counts every block at its top (OFF), with
; the same registers.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-bodies-at-branch=0 -S %s | FileCheck %s --check-prefix=OFF
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr addrspace(1) %g, i32 %n) !dbg !5 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  br label %head, !dbg !10
head:
  %k = phi i32 [ 0, %entry ], [ %k.next, %tail ], !dbg !11
  %t = icmp ult i32 %x, %k, !dbg !11
  br i1 %t, label %then, label %join, !dbg !11
then:
  store i32 1, ptr addrspace(1) %g, align 4, !dbg !12
  br label %join, !dbg !12
join:
  %e = icmp ugt i32 %x, %k, !dbg !13
  br i1 %e, label %join2, label %els, !dbg !13
els:
  store i32 2, ptr addrspace(1) %g, align 4, !dbg !14
  br label %join2, !dbg !14
join2:
  %h = icmp eq i32 %x, %k, !dbg !15
  br i1 %h, label %a, label %b, !dbg !15
a:
  store i32 3, ptr addrspace(1) %g, align 4, !dbg !16
  br label %inner.h, !dbg !16
b:
  store i32 4, ptr addrspace(1) %g, align 4, !dbg !17
  br label %inner.h, !dbg !17
inner.h:
  %m = phi i32 [ 0, %a ], [ 0, %b ], [ %m.next, %inner.l ], !dbg !18
  %q = icmp ult i32 %m, %x, !dbg !18
  br i1 %q, label %inner.l, label %out.x, !dbg !18
inner.l:
  store i32 5, ptr addrspace(1) %g, align 4, !dbg !19
  %m.next = add nuw nsw i32 %m, 1, !dbg !19
  br label %inner.h, !dbg !19
out.x:
  store i32 6, ptr addrspace(1) %g, align 4, !dbg !20
  br label %tail, !dbg !20
tail:
  %k.next = add nuw nsw i32 %k, 1, !dbg !21
  %more = icmp slt i32 %k.next, %n, !dbg !21
  br i1 %more, label %head, label %done, !dbg !21
done:
  ret void, !dbg !21
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; CHECK-LABEL: define ptx_kernel void @k__pasta_div(
; The header's own block is counted at its top; `then` at the branch.
; CHECK: call void @__pasta_div_block(i32 1, ptr %pasta.div.bw, ptr %pasta.div.bt)
; CHECK: %[[T:.*]] = zext i1 %t to i32
; CHECK-NEXT: call void @__pasta_div_branch_body(i32 %[[T]], ptr %pasta.div, ptr %pasta.div.bw1, ptr %pasta.div.none)
; CHECK-NEXT: br i1 %t, label %then, label %join
; CHECK: then:
; CHECK-NOT: call void @__pasta_div_block(
; CHECK: join:
; `els` is the false side: the helper gets the negation.
; CHECK: %[[NOT:.*]] = xor i1 %e, true
; CHECK-NEXT: %[[E:.*]] = zext i1 %[[NOT]] to i32
; CHECK-NEXT: call void @__pasta_div_branch_body(i32 %[[E]], ptr %pasta.div9, ptr %pasta.div.bw2, ptr %pasta.div.none)
; CHECK-NEXT: br i1 %e, label %join2, label %els
; CHECK: els:
; CHECK-NOT: call void @__pasta_div_block(
; CHECK: join2:
; CHECK: %[[H:.*]] = zext i1 %h to i32
; CHECK-NEXT: call void @__pasta_div_branch_body(i32 %[[H]], ptr %pasta.div10, ptr %pasta.div.bw3, ptr %pasta.div.none)
; CHECK: a:
; CHECK-NOT: call void @__pasta_div_block(
; CHECK: b:
; CHECK: call void @__pasta_div_block(i32 1, ptr %pasta.div.bw4, ptr %pasta.div.none)
; The inner loop's header: its body `inner.l` at the branch; its exit
; `out.x` at its own top.
; CHECK: inner.h:
; CHECK: call void @__pasta_div_block(i32 1, ptr %pasta.div.bw5, ptr %pasta.div.bt6)
; CHECK: %[[Q:.*]] = zext i1 %q to i32
; CHECK-NEXT: call void @__pasta_div_branch_body(i32 %[[Q]], ptr %pasta.div11, ptr %pasta.div.bw7, ptr %pasta.div.none)
; CHECK-NEXT: br i1 %q, label %inner.l, label %out.x
; CHECK: inner.l:
; CHECK-NOT: call void @__pasta_div_block(
; CHECK: out.x:
; CHECK: call void @__pasta_div_block(i32 1, ptr %pasta.div.bw8, ptr %pasta.div.none)
; CHECK-NOT: call void @__pasta_div_branch(
; CHECK: ret void

; OFF-LABEL: define ptx_kernel void @k__pasta_div(
; OFF-NOT: __pasta_div_branch_body
; OFF: call void @__pasta_div_branch(i32 %{{.*}}, ptr %pasta.div.none, ptr %pasta.div)
; OFF: then:
; OFF: call void @__pasta_div_block(i32 1, ptr %pasta.div.bw1, ptr %pasta.div.none)
; OFF: els:
; OFF: call void @__pasta_div_block(i32 1, ptr %pasta.div.bw2, ptr %pasta.div.none)
; OFF: a:
; OFF: call void @__pasta_div_block(i32 1, ptr %pasta.div.bw3, ptr %pasta.div.none)
; OFF: inner.l:
; OFF: call void @__pasta_div_block(i32 1, ptr %pasta.div.bw7, ptr %pasta.div.none)
; OFF-NOT: __pasta_div_branch_body
; OFF: ret void

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
