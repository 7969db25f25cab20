; The lane-affine proof (LaneAffine.h) on amdgcn: an LDS store at work-item
; x (stride = size) is measured only where the call's rows of lanes are not
; 32 wide (%pasta.div.not32); a global load at work-item x (its sectors
; depend on the mask) in every warp. (The runtime's row width is 0 in
; wave64, where every warp is measured still: the figures are the same.)
; An LDS load behind a lane select (a clamped neighbour, x > n ? s[x - 1] :
; s[x]) is measured only where the rows are not 32 wide or the lanes do not
; agree on the select (%pasta.div.apart). Global loads at stride = size are
; not tested for full 32-lane rows here (AccessGroup::FullRow is NVPTX's),
; and no copy gets a body for rows of 32 (addRows32Body is NVPTX's too).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-stats -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATS
; CHECK-NOT: {{pasta.div.rows32|pasta.div.body32|_general|call i32 @__pasta_div_access_row32}}
; STATS: pasta: div-stats: amdgcn-amd-amdhsa {{.*}}; kernels with a body for rows of 32: 0
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@lds = internal addrspace(3) global [256 x i32] poison, align 4

; CHECK-LABEL: define amdgpu_kernel void @k__pasta_div(
; CHECK: %[[W:[0-9]+]] = call i32 @__pasta_div_row_width()
; CHECK-NEXT: %[[S:[0-9]+]] = call i32 @__pasta_div_stacked_width()
; CHECK-NEXT: %pasta.div.not32 = icmp ne i32 %[[S]], 32
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 1, i32 1, i32 %[[W]],
; CHECK: br i1 %pasta.div.not32, label %[[M:[^ ,]+]], label %[[A:[^ ,]+]]
; CHECK: [[M]]:
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 3, i32 1, i32 %[[W]],
; CHECK: [[A]]:
; CHECK-NEXT: store i32 %v, ptr addrspace(3)
; CHECK: ret void
define amdgpu_kernel void @k(ptr addrspace(1) %g) "target-cpu"="gfx90a" !dbg !5 {
entry:
  %x = call i32 @llvm.amdgcn.workitem.id.x(), !dbg !10
  %xi = zext i32 %x to i64, !dbg !10
  %p = getelementptr inbounds i32, ptr addrspace(1) %g, i64 %xi, !dbg !10
  %v = load i32, ptr addrspace(1) %p, align 4, !dbg !10
  %q = getelementptr inbounds i32, ptr addrspace(3) @lds, i64 %xi, !dbg !11
  store i32 %v, ptr addrspace(3) %q, align 4, !dbg !11
  ret void, !dbg !11
}

; CHECK-LABEL: define amdgpu_kernel void @neighbour__pasta_div(
; CHECK: %[[RW:[0-9]+]] = call i32 @__pasta_div_row_width()
; CHECK: %[[U:[0-9]+]] = call i32 @__pasta_div_uniform(i32 %{{[0-9]+}})
; CHECK-NEXT: %[[AGREE:[0-9]+]] = icmp ne i32 %[[U]], 0
; CHECK-NEXT: %[[APART:[0-9]+]] = xor i1 %[[AGREE]], true
; CHECK-NEXT: %pasta.div.apart = or i1 %pasta.div.not32, %[[APART]]
; CHECK-NEXT: br i1 %pasta.div.apart, label %[[M2:[^ ,]+]], label %[[A2:[^ ,]+]]
; CHECK: [[M2]]:
; CHECK: %[[W2:pasta.div.width[0-9]*]] = select i1 %[[AGREE]], i32 %[[RW]], i32 0
; CHECK-NEXT: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 3, i32 1, i32 %[[W2]],
; CHECK: [[A2]]:
; CHECK-NEXT: load i32, ptr addrspace(3)
; CHECK-NOT: __pasta_div_full_row
; CHECK: ret void
define amdgpu_kernel void @neighbour(ptr addrspace(1) %g, i32 %n) "target-cpu"="gfx90a" !dbg !6 {
entry:
  %x = call i32 @llvm.amdgcn.workitem.id.x(), !dbg !12
  %xi = zext i32 %x to i64, !dbg !12
  %left = icmp sgt i32 %x, %n, !dbg !12
  %p = getelementptr inbounds i32, ptr addrspace(3) @lds, i64 %xi, !dbg !12
  %off = select i1 %left, i64 -4, i64 0, !dbg !12
  %q = getelementptr i8, ptr addrspace(3) %p, i64 %off, !dbg !12
  %v = load i32, ptr addrspace(3) %q, align 4, !dbg !12
  %o = getelementptr inbounds i32, ptr addrspace(1) %g, i64 %xi, !dbg !13
  store i32 %v, ptr addrspace(1) %o, align 4, !dbg !13
  ret void, !dbg !13
}

declare i32 @llvm.amdgcn.workitem.id.x()

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.hip", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
!6 = distinct !DISubprogram(name: "neighbour", scope: !1, file: !1, line: 7, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!12 = !DILocation(line: 8, scope: !6)
!13 = !DILocation(line: 9, scope: !6)
