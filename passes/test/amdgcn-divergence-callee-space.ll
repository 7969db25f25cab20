; nvptx-divergence-callee-space.ll on amdgcn: an internal device function
; handed only a kernel's pointer parameter (global) or only an LDS array
; (shared) gets that space's hint for its accesses (1, 3); one handed both
; stays generic (0). On the tree before, all three were generic.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-callee-counts=0 -S %s | FileCheck %s
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@lds = internal addrspace(3) global [64 x i32] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()

; CHECK-LABEL: define internal void @visit__pasta_div(
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 17, i32 0,
; CHECK: ret void
define internal void @visit(ptr %level, i32 %v) noinline "target-cpu"="gfx90a" !dbg !5 {
entry:
  %vi = sext i32 %v to i64, !dbg !10
  %p = getelementptr inbounds i32, ptr %level, i64 %vi, !dbg !10
  %o = atomicrmw add ptr %p, i32 1 monotonic, align 4, !dbg !10
  ret void, !dbg !10
}

; CHECK-LABEL: define internal void @onlds__pasta_div(
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 19, i32 1,
; CHECK: ret void
define internal void @onlds(ptr %a, i32 %v) noinline "target-cpu"="gfx90a" !dbg !6 {
entry:
  %vi = sext i32 %v to i64, !dbg !11
  %p = getelementptr inbounds i32, ptr %a, i64 %vi, !dbg !11
  store i32 2, ptr %p, align 4, !dbg !11
  ret void, !dbg !11
}

; CHECK-LABEL: define internal void @mixed__pasta_div(
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 16, i32 1,
; CHECK: ret void
define internal void @mixed(ptr %a, i32 %v) noinline "target-cpu"="gfx90a" !dbg !7 {
entry:
  %vi = sext i32 %v to i64, !dbg !12
  %p = getelementptr inbounds i32, ptr %a, i64 %vi, !dbg !12
  store i32 1, ptr %p, align 4, !dbg !12
  ret void, !dbg !12
}

define amdgpu_kernel void @k(ptr %level, ptr addrspace(1) %cols) "target-cpu"="gfx90a" !dbg !15 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x(), !dbg !16
  %ti = zext i32 %t to i64, !dbg !16
  %cp = getelementptr inbounds i32, ptr addrspace(1) %cols, i64 %ti, !dbg !16
  %v = load i32, ptr addrspace(1) %cp, align 4, !dbg !16
  call void @visit(ptr %level, i32 %v), !dbg !16
  call void @onlds(ptr addrspacecast (ptr addrspace(3) @lds to ptr), i32 %v), !dbg !16
  call void @mixed(ptr %level, i32 %v), !dbg !16
  call void @mixed(ptr addrspacecast (ptr addrspace(3) @lds to ptr), i32 %v), !dbg !16
  ret void, !dbg !16
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "callee.hip", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "visit", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!6 = distinct !DISubprogram(name: "onlds", scope: !1, file: !1, line: 6, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!7 = distinct !DISubprogram(name: "mixed", scope: !1, file: !1, line: 10, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!15 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 22, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 7, scope: !6)
!12 = !DILocation(line: 11, scope: !7)
!16 = !DILocation(line: 23, scope: !15)
