; The proof of uniform conditions (UniformLoops.h, provenUniform) is the
; same on amdgcn: a branch on a load of a uniform address through a
; kernel's flat pointer parameter (which AMDGPU's uniformity analysis takes
; as divergent: a flat load) is not measured; one on the work-item index
; is.
; (-pasta-div-derive-bodies=0: the blocks are measured, as this test was
; written for; nvptx-divergence-bodies.ll derives if-then bodies.)
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-derive-bodies=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-derive-bodies=0 -pasta-div-stats -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATS
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr %flat, ptr addrspace(1) %out, i32 %n) "target-cpu"="gfx90a" !dbg !5 {
entry:
  %lane = call i32 @llvm.amdgcn.workitem.id.x(), !dbg !10
  %first = load i32, ptr %flat, align 4, !dbg !10
  %byload = icmp sgt i32 %first, 3, !dbg !10
  br i1 %byload, label %b1, label %j1, !dbg !10
b1:
  store i32 1, ptr addrspace(1) %out, align 4, !dbg !11
  br label %j1, !dbg !11
j1:
  %bylane = icmp slt i32 %lane, %n, !dbg !11
  br i1 %bylane, label %b2, label %done, !dbg !11
b2:
  store i32 2, ptr addrspace(1) %out, align 4, !dbg !12
  br label %done, !dbg !12
done:
  ret void, !dbg !12
}

declare i32 @llvm.amdgcn.workitem.id.x()

; Its three accesses, one aligned address in every lane, are not measured.
; CHECK-LABEL: define amdgpu_kernel void @k__pasta_div(
; CHECK-NOT: @__pasta_div_access
; CHECK-NOT: zext i1 %byload to i32
; CHECK: %[[T:[0-9]+]] = zext i1 %bylane to i32
; CHECK: call void @__pasta_div_branch_add(i32 %[[T]],
; CHECK-NOT: call void @__pasta_div_branch_add(
; CHECK-NOT: @__pasta_div_access
; CHECK: ret void

; STATS: pasta: div-stats: amdgcn-amd-amdhsa {{.*}}: branches 2 (uniform, not measured: 1, 1 beyond LLVM's uniformity analysis); uniform loops 0 (0 beyond the analysis); access groups 3 (lane-shaped: 3, not measured: one aligned address in every lane: 3; measured only where rows of lanes are not 32 wide: 0, of them in rows stacked in y too: 0; global ones taken by arithmetic in full 32-lane rows: 0)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.hip", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
!12 = !DILocation(line: 5, scope: !5)
