; A shared 4-byte access at 4 bytes per thread index x and a constant row
; of other than 16 x 4 bytes per y (a padded tile, hotspot's rows of 18
; floats) is proven in rows of 32 lanes (measured under %pasta.div.not32);
; in a FULL warp of 16-wide rows stacked in y its figures are the derived
; ones but for its bank conflicts, which follow from the two strides
; (div_proofs.h, pasta_div_stacked_conflicts): such a warp's lane 0 adds
; them, other warps measure. Rows of 18 floats: lanes 30 and 31 share banks
; with lanes 0 and 1, one conflict per access (line 3's row is counters
; 15..26: its bank conflicts are counter 22); rows of 48 floats: none, so
; nothing is added. A word per row (backprop's in_s[ty], stride 0): two
; distinct words, 8 bytes, where the derived figure is 4 per warp: lane 0
; adds 4 distinct bytes (line 41's row is counters 71..82: distinct shared
; bytes are counter 75), no conflict; in other warps, after the pair test
; of one lane a row (nvptx-divergence-row-pair.ll), measured. Rows that overlap (8 floats), global
; accesses and -pasta-div-stacked-gaps=0 measure as before.
; -pasta-div-launch-classes=0: the adds in each full warp, as in launches of
; no class (nvptx-divergence-launch-classes.ll: what read-back derives).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-launch-classes=0 -pasta-div-rows32=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-launch-classes=0 -pasta-div-rows32=0 -pasta-div-stats -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATS
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-launch-classes=0 -pasta-div-rows32=0 -pasta-div-stacked-gaps=0 -S %s | FileCheck %s --check-prefix=OFF
; STATS: shared ones taken by their strides in full warps of 16-wide rows: 3;
; OFF-NOT: pasta.div.fullgap
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@t18 = internal addrspace(3) global [18 x [18 x float]] undef, align 4
@t48 = internal addrspace(3) global [16 x [48 x float]] undef, align 4
@t8 = internal addrspace(3) global [64 x [8 x float]] undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()

; CHECK-LABEL: define ptx_kernel void @padded__pasta_div(
; CHECK: br i1 %pasta.div.not32,
; CHECK: %[[F:[0-9]+]] = call i32 @__pasta_div_full_row(i32 %pasta.div.rows16)
; CHECK-NEXT: %pasta.div.fullgap = icmp ne i32 %[[F]], 0
; CHECK-NEXT: br i1 %pasta.div.fullgap, label %[[FULL:[0-9]+]], label %[[OTHER:[0-9]+]]
; CHECK: [[FULL]]:
; CHECK-NEXT: %[[L:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK-NEXT: %[[L0:[0-9]+]] = icmp eq i32 %[[L]], 0
; CHECK-NEXT: %[[K:[0-9]+]] = select i1 %[[L0]], i64 1, i64 0
; CHECK-NEXT: %[[C:[0-9]+]] = getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 22
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %[[C]], i64 %[[K]])
; CHECK: [[OTHER]]:
; CHECK-NOT: br
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 3, i32 1,
; CHECK: ret void
define ptx_kernel void @padded(ptr addrspace(1) %g) !dbg !5 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !10
  %x1 = add nuw nsw i32 %x, 1, !dbg !10
  %xi = zext i32 %x1 to i64, !dbg !10
  %yi = zext i32 %y to i64, !dbg !10
  %p = getelementptr inbounds [18 x [18 x float]], ptr addrspace(3) @t18, i64 0, i64 %yi, i64 %xi, !dbg !10
  %v = load float, ptr addrspace(3) %p, align 4, !dbg !10
  %o = getelementptr inbounds float, ptr addrspace(1) %g, i64 %xi, !dbg !10
  store float %v, ptr addrspace(1) %o, align 4, !dbg !10
  ret void, !dbg !10
}

; Rows of 48 floats: row 1's banks are 16-31 from row 0's 0-15: no
; conflict in a full warp, which adds nothing and measures nothing.
; CHECK-LABEL: define ptx_kernel void @wide__pasta_div(
; CHECK: br i1 %pasta.div.not32,
; CHECK: %pasta.div.fullgap = icmp ne i32 %{{[0-9]+}}, 0
; CHECK-NEXT: br i1 %pasta.div.fullgap, label %[[FULL:[0-9]+]], label %[[OTHER:[0-9]+]]
; CHECK: [[FULL]]:
; CHECK-NEXT: br label
; CHECK: [[OTHER]]:
; CHECK-NOT: br
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 3, i32 1,
; CHECK: ret void
define ptx_kernel void @wide(ptr addrspace(1) %g) !dbg !6 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !11
  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !11
  %xi = zext i32 %x to i64, !dbg !11
  %yi = zext i32 %y to i64, !dbg !11
  %p = getelementptr inbounds [16 x [48 x float]], ptr addrspace(3) @t48, i64 0, i64 %yi, i64 %xi, !dbg !11
  %v = load float, ptr addrspace(3) %p, align 4, !dbg !11
  %o = getelementptr inbounds float, ptr addrspace(1) %g, i64 %xi, !dbg !11
  store float %v, ptr addrspace(1) %o, align 4, !dbg !11
  ret void, !dbg !11
}

; Rows of 8 floats read by 16 lanes overlap: measured as before.
; CHECK-LABEL: define ptx_kernel void @overlap__pasta_div(
; CHECK-NOT: pasta.div.fullgap
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 3, i32 1,
; CHECK: ret void
define ptx_kernel void @overlap(ptr addrspace(1) %g) !dbg !7 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !12
  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !12
  %xi = zext i32 %x to i64, !dbg !12
  %yi = zext i32 %y to i64, !dbg !12
  %p = getelementptr inbounds [64 x [8 x float]], ptr addrspace(3) @t8, i64 0, i64 %yi, i64 %xi, !dbg !12
  %v = load float, ptr addrspace(3) %p, align 4, !dbg !12
  %o = getelementptr inbounds float, ptr addrspace(1) %g, i64 %xi, !dbg !12
  store float %v, ptr addrspace(1) %o, align 4, !dbg !12
  ret void, !dbg !12
}

; A global row of 18 floats: sectors, not banks; measured as before.
; CHECK-LABEL: define ptx_kernel void @global__pasta_div(
; CHECK-NOT: pasta.div.fullgap
; CHECK: ret void
define ptx_kernel void @global(ptr addrspace(1) %g) !dbg !8 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !13
  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !13
  %r = mul nuw nsw i32 %y, 18, !dbg !13
  %i = add nuw nsw i32 %r, %x, !dbg !13
  %ii = zext i32 %i to i64, !dbg !13
  %p = getelementptr inbounds float, ptr addrspace(1) %g, i64 %ii, !dbg !13
  %v = load float, ptr addrspace(1) %p, align 4, !dbg !13
  %o = getelementptr inbounds float, ptr addrspace(1) %p, i64 1024, !dbg !13
  store float %v, ptr addrspace(1) %o, align 4, !dbg !13
  ret void, !dbg !13
}

; CHECK-LABEL: define ptx_kernel void @broadcast__pasta_div(
; CHECK: br i1 %pasta.div.not32,
; CHECK: %pasta.div.fullgap = icmp ne i32 %{{[0-9]+}}, 0
; CHECK-NEXT: br i1 %pasta.div.fullgap, label %[[FULL:[0-9]+]], label %[[OTHER:[0-9]+]]
; CHECK: [[FULL]]:
; CHECK-NEXT: %[[L:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK-NEXT: %[[L0:[0-9]+]] = icmp eq i32 %[[L]], 0
; CHECK-NEXT: %[[K:[0-9]+]] = select i1 %[[L0]], i64 4, i64 0
; CHECK-NEXT: %[[C:[0-9]+]] = getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 75
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %[[C]], i64 %[[K]])
; CHECK-NEXT: br label
; CHECK: [[OTHER]]:
; CHECK: %[[P:pasta.div.rowpair[.a-z0-9]*]] = and i1
; CHECK-NEXT: br i1 %[[P]], label %{{[0-9]+}}, label %[[MEAS:[0-9]+]]
; CHECK: [[MEAS]]:
; CHECK-NOT: br
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 0, i32 3, i32 1,
; CHECK: ret void
define ptx_kernel void @broadcast(ptr addrspace(1) %g) !dbg !9 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !14
  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !14
  %xi = zext i32 %x to i64, !dbg !14
  %yi = zext i32 %y to i64, !dbg !14
  %p = getelementptr inbounds [18 x [18 x float]], ptr addrspace(3) @t18, i64 0, i64 0, i64 %yi, !dbg !14
  %v = load float, ptr addrspace(3) %p, align 4, !dbg !14
  %o = getelementptr inbounds float, ptr addrspace(1) %g, i64 %xi, !dbg !14
  store float %v, ptr addrspace(1) %o, align 4, !dbg !14
  ret void, !dbg !14
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "gaps.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "padded", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!6 = distinct !DISubprogram(name: "wide", scope: !1, file: !1, line: 10, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!7 = distinct !DISubprogram(name: "overlap", scope: !1, file: !1, line: 20, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!8 = distinct !DISubprogram(name: "global", scope: !1, file: !1, line: 30, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 11, scope: !6)
!12 = !DILocation(line: 21, scope: !7)
!13 = !DILocation(line: 31, scope: !8)
!9 = distinct !DISubprogram(name: "broadcast", scope: !1, file: !1, line: 40, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!14 = !DILocation(line: 41, scope: !9)
