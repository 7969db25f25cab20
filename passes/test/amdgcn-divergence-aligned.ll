; nvptx-divergence-aligned.ll on amdgcn (wave64): the general access
; helper's space carries PASTA_DIV_ALIGNED (16) where the IR states an
; alignment of at least the size (a global load and atomic: 17, an LDS
; atomic: 19), not for an i32 at align 2 (1). On the tree before, every
; hint was the plain space.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@bins = internal addrspace(3) global [256 x i32] poison, align 4

declare i32 @llvm.amdgcn.workitem.id.x()

; CHECK-LABEL: define {{.*}}void @k__pasta_div(
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 17, i32 1,
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 17, i32 0,
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 19, i32 0,
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 1, i32 1,
; CHECK: ret void
define amdgpu_kernel void @k(ptr addrspace(1) %level, ptr addrspace(1) %cols) "target-cpu"="gfx90a" !dbg !15 {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x(), !dbg !16
  %ti = zext i32 %t to i64, !dbg !16
  %cp = getelementptr inbounds i32, ptr addrspace(1) %cols, i64 %ti, !dbg !16
  %v = load i32, ptr addrspace(1) %cp, align 4, !dbg !16
  %vi = sext i32 %v to i64, !dbg !16
  %lp = getelementptr inbounds i32, ptr addrspace(1) %level, i64 %vi, !dbg !17
  %l = load i32, ptr addrspace(1) %lp, align 4, !dbg !17
  %o = atomicrmw add ptr addrspace(1) %lp, i32 %l monotonic, align 4, !dbg !18
  %bin = and i32 %l, 255, !dbg !19
  %bi = zext i32 %bin to i64, !dbg !19
  %bp = getelementptr inbounds [256 x i32], ptr addrspace(3) @bins, i64 0, i64 %bi, !dbg !19
  %b = atomicrmw add ptr addrspace(3) %bp, i32 1 monotonic, align 4, !dbg !19
  %w = add i32 %v, %o, !dbg !20
  %wi = sext i32 %w to i64, !dbg !20
  %up = getelementptr inbounds i8, ptr addrspace(1) %level, i64 %wi, !dbg !20
  %u = load i32, ptr addrspace(1) %up, align 2, !dbg !20
  %x = add i32 %u, %b, !dbg !21
  store i32 %x, ptr addrspace(1) %cols, align 4, !dbg !21
  ret void, !dbg !21
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "aligned.hip", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!15 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!16 = !DILocation(line: 3, scope: !15)
!17 = !DILocation(line: 4, scope: !15)
!18 = !DILocation(line: 5, scope: !15)
!19 = !DILocation(line: 6, scope: !15)
!20 = !DILocation(line: 7, scope: !15)
!21 = !DILocation(line: 8, scope: !15)
