; If-then bodies on amdgcn (wave64): as nvptx-divergence-bodies.ll, the
; body of a bounds check, `if (blockIdx.x * 256 + tid < n)`, adds nothing
; itself; the branch's helper counts its
; executions in which no lane of the wave takes it (a 64-lane ballot once
; the runtime is linked), and read-back derives the body's warps as the
; entry's (the launch's) less those.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-print-sites -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck %s --check-prefix=ROWS < %t.sites
; RUN: %opt -passes=pasta-count -pasta-divergence -S %s | FileCheck %s --check-prefix=LINKED
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %n) "target-cpu"="gfx90a" !dbg !5 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x(), !dbg !10
  %bid = call i32 @llvm.amdgcn.workgroup.id.x(), !dbg !10
  %base = shl i32 %bid, 8, !dbg !10
  %i = add i32 %base, %tid, !dbg !10
  %c = icmp slt i32 %i, %n, !dbg !10
  br i1 %c, label %then, label %done, !dbg !10
then:
  store i32 1, ptr addrspace(1) %out, !dbg !11
  br label %done, !dbg !11
done:
  ret void, !dbg !12
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()

; Row 3 (line 3) holds counters 4-15 (divergent: 13), after the counting
; code's 0-3; the launch's warps are 16; row 4 18-29; `then`'s no-lane
; executions 30 and its warps 31.
; CHECK-LABEL: define amdgpu_kernel void @k__pasta_div(
; CHECK: %[[ROW:.*]] = call ptr addrspace(1) @__pasta_bank_row(
; CHECK: %[[NONE:.*]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 30
; CHECK-NEXT: %[[T:.*]] = zext i1 %c to i32
; CHECK-NEXT: %[[DIV:.*]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 13
; CHECK-NEXT: call i32 @__pasta_div_branch_none_add(i32 %[[T]], ptr addrspace(1) %[[DIV]], ptr addrspace(1) %[[NONE]], i32 1, ptr addrspace(1) %[[NONE]], i32 0)
; CHECK-NEXT: br i1 %c, label %then,
; CHECK: then:
; CHECK-NOT: __pasta_div_block_add
; CHECK: ret void
; ROWS: pasta: derived 31 = +1*c16 -1*c30
; ROWS: pasta: div k.cu:3 func=k counters=4..15

; Linked: the helper inlined, a 64-lane ballot, no call left.
; LINKED-LABEL: define amdgpu_kernel void @k__pasta_div(
; LINKED-NOT: call void @__pasta_div
; LINKED: call i64 @llvm.amdgcn.ballot.i64(
; LINKED-NOT: call void @__pasta_div
; LINKED: ret void

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
