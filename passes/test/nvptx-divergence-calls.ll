; A call splits its block's figures (passes/DivergencePlan.cpp, Segment): the
; code after a call may run with other lanes than the block's top (the
; callee brings lanes that came in apart back together: bfs's expand loop,
; whose unrolled body calls bfs_visit twice), so the figures of the
; accesses and the branch after it come from warp executions counted right
; after the call. The block's own instruction figures stay the top's.
; Its accesses of one address in every lane are measured here, to test the
; measuring code (-pasta-div-derive-whole=0; by default their figures are
; derived: nvptx-divergence-uniform.ll).
; RUN: %opt -passes=pasta-count -pasta-div-derive-whole=0 -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-div-derive-whole=0 -pasta-link-runtime=0 -pasta-divergence -pasta-print-sites -disable-output %s 2>&1 | FileCheck %s --check-prefix=ROWS
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @callinloop(ptr addrspace(1) %g) !dbg !5 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %t = zext i32 %tid to i64, !dbg !10
  br label %body, !dbg !10

body:
  %j = phi i64 [ 0, %entry ], [ %j.next, %body ]
  %q = getelementptr inbounds float, ptr addrspace(1) %g, i64 %j, !dbg !11
  store float 1.0, ptr addrspace(1) %q, align 4, !dbg !11
  call void @visit(ptr addrspace(1) %g, i64 %j), !dbg !11
  %q8 = getelementptr inbounds i8, ptr addrspace(1) %q, i64 32, !dbg !11
  store float 2.0, ptr addrspace(1) %q8, align 4, !dbg !11
  %p = getelementptr inbounds float, ptr addrspace(1) %g, i64 %t, !dbg !11
  store float 0.0, ptr addrspace(1) %p, align 4, !dbg !11
  %j.next = add nsw i64 %j, 1, !dbg !11
  %again = icmp ult i64 %j.next, %t, !dbg !11
  br i1 %again, label %body, label %done, !dbg !11

done:
  ret void, !dbg !12
}

declare void @visit(ptr addrspace(1), i64)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; In the loop (divergent: its trip count is the thread index) the block's
; top counts its warp executions into one register (its active lanes are
; the counting code's count of the block), and so does the code after the
; call, into another.
; CHECK-LABEL: define ptx_kernel void @callinloop__pasta_div(
; CHECK: body:
; CHECK: call void @__pasta_div_block(i32 1, ptr %[[TOP:pasta.div.bw[0-9]*]], ptr %pasta.div.none)
; CHECK: call i32 @__pasta_div_access_lanes(
; CHECK: call void @visit(
; CHECK-NEXT: call void @__pasta_div_block(i32 1, ptr %[[AFTER:pasta.div.bw[0-9]+]], ptr %pasta.div.none)
; The store 32 bytes past the first, after the call: the same figures but
; another segment, so measured on its own (not with the first).
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 0,
; CHECK: call i32 @__pasta_div_access_lanes(
; CHECK: call void @__pasta_div_branch(
; CHECK: ret void

; Line 4 (counters 16..27: 16 its global requests, 18 its bytes, 19 its
; distinct bytes, 21 and 22 its sectors and ideal sectors, 24 its
; branches): its ten instructions from the block's top (warp executions
; 28, the counting code's count of the block 1); the store before the call
; from the top (16 += c28), the two stores after it and the branch from
; the warps after the call (29); the stores' bytes from the threads. Then
; what the lane shapes give: the stores to g[j] and g[j + 8] (the same
; address in every lane) a sector and 4 distinct bytes per warp execution
; of their segment, the store to g[tid] 4 distinct bytes per thread.
; ROWS: pasta: derived 26 = +10*c28
; ROWS-NEXT: pasta: derived 27 = +10*c1
; ROWS-NEXT: pasta: derived 24 = +1*c29
; ROWS-NEXT: pasta: derived 16 = +1*c28
; ROWS-NEXT: pasta: derived 18 = +4*c1
; ROWS-NEXT: pasta: derived 16 = +1*c29
; ROWS-NEXT: pasta: derived 18 = +4*c1
; ROWS-NEXT: pasta: derived 16 = +1*c29
; ROWS-NEXT: pasta: derived 18 = +4*c1
; ROWS: pasta: derived 19 = +4*c28
; ROWS-NEXT: pasta: derived 21 = +1*c28
; ROWS-NEXT: pasta: derived 22 = +1*c28
; ROWS-NEXT: pasta: derived 19 = +4*c29
; ROWS-NEXT: pasta: derived 21 = +1*c29
; ROWS-NEXT: pasta: derived 22 = +1*c29
; ROWS-NEXT: pasta: derived 19 = +4*c1
; ROWS: pasta: div k.cu:4 func=callinloop counters=16..27

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "callinloop", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
!12 = !DILocation(line: 5, scope: !5)
