; The clamps of nvptx-divergence-clamps.ll on amdgcn (wave64): a global
; load at `max(x - 1, 0)` and one at `min(x + 1, n - 1)` are lane-shaped at
; stride 4 where every lane takes the index (%pasta.div.arm, one
; __pasta_div_all_lanes, the 64-lane ballot once the runtime is linked);
; a clamp against a loaded bound stays on the general path. On the tree
; before, both took __pasta_div_access.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-clamps -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-divergence -pasta-div-clamps -S %s | FileCheck %s --check-prefix=LINKED
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.smin.i32(i32, i32)

; CHECK-LABEL: define amdgpu_kernel void @stencil__pasta_div(
; CHECK: %[[RW:[0-9]+]] = call i32 @__pasta_div_row_width()
; CHECK: %pasta.div.arm = icmp sge i32 %x, 1
; CHECK-NEXT: %[[A:[0-9]+]] = zext i1 %pasta.div.arm to i32
; CHECK-NEXT: %[[T:[0-9]+]] = call i32 @__pasta_div_all_lanes(i32 %[[A]])
; CHECK-NEXT: %[[OK:[0-9]+]] = icmp ne i32 %[[T]], 0
; CHECK-NEXT: %[[W:pasta.div.width[0-9]*]] = select i1 %[[OK]], i32 %[[RW]], i32 0
; CHECK-NEXT: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 1, i32 1, i32 %[[W]],
; CHECK: %[[ARM:pasta.div.arm[0-9]+]] = icmp sle i32 %xp, %nm
; CHECK: call i32 @__pasta_div_all_lanes(
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 1, i32 1, i32 %pasta.div.width
; CHECK-NOT: call i32 @__pasta_div_all_lanes(
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 17, i32 1,
; CHECK: ret void
; LINKED-LABEL: define amdgpu_kernel void @stencil__pasta_div(
; LINKED-NOT: call i32 @__pasta_div_all_lanes(
; LINKED: call i64 @llvm.amdgcn.ballot.i64(
; LINKED: ret void
define amdgpu_kernel void @stencil(ptr addrspace(1) %j, ptr addrspace(1) %k, ptr addrspace(1) %out, i32 %n) "target-cpu"="gfx90a" !dbg !5 {
entry:
  %x = call i32 @llvm.amdgcn.workitem.id.x(), !dbg !10
  %m = call i32 @llvm.smax.i32(i32 %x, i32 1), !dbg !10
  %xm = add nsw i32 %m, -1, !dbg !10
  %xmi = sext i32 %xm to i64, !dbg !10
  %p = getelementptr inbounds float, ptr addrspace(1) %j, i64 %xmi, !dbg !10
  %v = load float, ptr addrspace(1) %p, align 4, !dbg !10
  %xp = add nsw i32 %x, 1, !dbg !11
  %nm = add nsw i32 %n, -1, !dbg !11
  %u = call i32 @llvm.smin.i32(i32 %xp, i32 %nm), !dbg !11
  %ui = sext i32 %u to i64, !dbg !11
  %q = getelementptr inbounds float, ptr addrspace(1) %j, i64 %ui, !dbg !11
  %w = load float, ptr addrspace(1) %q, align 4, !dbg !11
  %xi = zext i32 %x to i64, !dbg !12
  %kp = getelementptr inbounds i32, ptr addrspace(1) %k, i64 %xi, !dbg !12
  %kv = load i32, ptr addrspace(1) %kp, align 4, !dbg !12
  %c = call i32 @llvm.smin.i32(i32 %xp, i32 %kv), !dbg !13
  %ci = sext i32 %c to i64, !dbg !13
  %r = getelementptr inbounds float, ptr addrspace(1) %j, i64 %ci, !dbg !13
  %y = load float, ptr addrspace(1) %r, align 4, !dbg !13
  %s = fadd float %v, %w, !dbg !14
  %s2 = fadd float %s, %y, !dbg !14
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %xi, !dbg !14
  store float %s2, ptr addrspace(1) %o, align 4, !dbg !14
  ret void, !dbg !14
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "clamps.hip", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "stencil", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
!12 = !DILocation(line: 5, scope: !5)
!13 = !DILocation(line: 6, scope: !5)
!14 = !DILocation(line: 7, scope: !5)
