; A kernel's divergence copy whose groups are measured only in rare warps
; (nvptx-divergence-rare-direct.ll: in a 1-D kernel's loop, where the warp
; is not one 32-lane row, or its lanes disagree on a select voted at the
; entry) tests at its entry, per warp, whether it is such a warp: the
; stacked width (the launch's) and the entry votes, computed again before
; anything is counted. A usual warp runs the copy with those values folded
; (not32 false, the votes true): the rare groups' measurements, their
; inline helpers and what they held, are gone from the body it runs; a
; rare warp calls the copy as it was, a function of its own (_rare), and
; returns. A kernel that reads y (its 16-wide rows measure in every warp)
; has no such values; nor does one whose groups proven in rows of 32 are
; fewer than half its measured groups (the second copy would double what
; ptxas compiles for little); -pasta-div-rare-apart=0 keeps one body.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-rows32=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-rows32=0 -pasta-div-rare-apart=0 -S %s | FileCheck %s --check-prefix=OFF
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@sh = internal addrspace(3) global [256 x i32] undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

; CHECK-LABEL: define ptx_kernel void @tile__pasta_div(
; CHECK-NEXT: entry:
; CHECK: %[[W:[0-9]+]] = call i32 @__pasta_div_stacked_width()
; CHECK-NEXT: %[[N32:[0-9]+]] = icmp ne i32 %[[W]], 32
; CHECK-NEXT: %[[ROW:[0-9]+]] = xor i1 %[[N32]], true
; CHECK: %[[V:[0-9]+]] = call i32 @__pasta_div_uniform(
; CHECK-NEXT: %[[AG:[0-9]+]] = icmp ne i32 %[[V]], 0
; CHECK-NEXT: %[[C:[0-9]+]] = and i1 %[[ROW]], %[[AG]]
; CHECK-NEXT: br i1 %[[C]], label %pasta.div.common, label %pasta.div.rare
; CHECK: pasta.div.rare:
; CHECK-NEXT: call void @tile__pasta_div_rare(i32 %steps)
; CHECK-NEXT: ret void
; CHECK: pasta.div.common:
; CHECK-NOT: call i32 @__pasta_div_access_lanes(
; CHECK-NOT: pasta.div.apart
; CHECK: ret void
; CHECK-LABEL: define ptx_kernel void @tile2d__pasta_div(
; CHECK-NOT: _rare
; CHECK: %pasta.div.apart = or i1 %pasta.div.not32,
; CHECK: call i32 @__pasta_div_access_lanes(
; CHECK: ret void
; The rare function: the copy as it was (the measurements under their
; tests, straight to the counters).
; CHECK-LABEL: define internal void @tile__pasta_div_rare(
; CHECK: %pasta.div.apart = or i1 %pasta.div.not32,
; CHECK: call i32 @__pasta_div_access_lanes(
; CHECK: call void @__pasta_div_add(
; CHECK: ret void
; CHECK-NOT: define internal void @tile2d__pasta_div_rare(
; CHECK-NOT: define internal void @mostly__pasta_div_rare(
; OFF-NOT: _rare

define ptx_kernel void @tile(i32 %steps) !dbg !5 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !10
  %b = mul nuw nsw i32 %bid, 216, !dbg !10
  %t = add nsw i32 %tid, -20, !dbg !10
  %x = add nsw i32 %t, %b, !dbg !10
  %ti = zext i32 %tid to i64, !dbg !10
  %p = getelementptr inbounds i32, ptr addrspace(3) @sh, i64 %ti, !dbg !10
  %any = icmp sgt i32 %steps, 0, !dbg !10
  br i1 %any, label %pre, label %exit, !dbg !10

pre:
  %left = icmp sgt i32 %x, 0, !dbg !10
  %off = select i1 %left, i64 -4, i64 0, !dbg !10
  %q = getelementptr i8, ptr addrspace(3) %p, i64 %off, !dbg !10
  br label %loop, !dbg !10

loop:
  %k = phi i32 [ 0, %pre ], [ %k1, %latch ], !dbg !10
  %act = icmp ugt i32 %tid, %k, !dbg !10
  br i1 %act, label %body, label %latch, !dbg !10

body:
  %v = load i32, ptr addrspace(3) %q, align 4, !dbg !10
  store i32 %v, ptr addrspace(3) %p, align 4, !dbg !11
  br label %latch, !dbg !10

latch:
  %k1 = add nuw nsw i32 %k, 1, !dbg !10
  %done = icmp eq i32 %k1, %steps, !dbg !10
  br i1 %done, label %exit, label %loop, !dbg !10

exit:
  ret void, !dbg !10
}

define ptx_kernel void @tile2d(i32 %steps) !dbg !6 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !12
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !12
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !12
  %b = mul nuw nsw i32 %bid, 216, !dbg !12
  %t = add nsw i32 %tid, -20, !dbg !12
  %x = add nsw i32 %t, %b, !dbg !12
  %ti = zext i32 %tid to i64, !dbg !12
  %p = getelementptr inbounds i32, ptr addrspace(3) @sh, i64 %ti, !dbg !12
  %left = icmp sgt i32 %x, 0, !dbg !12
  %off = select i1 %left, i64 -4, i64 0, !dbg !12
  %q = getelementptr i8, ptr addrspace(3) %p, i64 %off, !dbg !12
  br label %loop, !dbg !12

loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %latch ], !dbg !12
  %act = icmp ugt i32 %ty, %k, !dbg !12
  br i1 %act, label %body, label %latch, !dbg !12

body:
  %v = load i32, ptr addrspace(3) %q, align 4, !dbg !12
  store i32 %v, ptr addrspace(3) %p, align 4, !dbg !13
  br label %latch, !dbg !12

latch:
  %k1 = add nuw nsw i32 %k, 1, !dbg !12
  %done = icmp eq i32 %k1, %steps, !dbg !12
  br i1 %done, label %exit, label %loop, !dbg !12

exit:
  ret void, !dbg !12
}

; One shared store proven in rows of 32 beside two gathers at loaded
; indices (the general helper): one group of three.
define ptx_kernel void @mostly(ptr addrspace(1) %idx, ptr addrspace(1) %src, i32 %steps) !dbg !7 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !14
  %ti = zext i32 %tid to i64, !dbg !14
  %p = getelementptr inbounds i32, ptr addrspace(3) @sh, i64 %ti, !dbg !14
  br label %loop, !dbg !14

loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %latch ], !dbg !14
  %act = icmp ugt i32 %tid, %k, !dbg !14
  br i1 %act, label %body, label %latch, !dbg !14

body:
  %kp = getelementptr inbounds i32, ptr addrspace(1) %idx, i64 %ti, !dbg !14
  %j = load i32, ptr addrspace(1) %kp, align 4, !dbg !14
  %jk = add nsw i32 %j, %k, !dbg !14
  %je = sext i32 %jk to i64, !dbg !14
  %a = getelementptr inbounds i32, ptr addrspace(1) %src, i64 %je, !dbg !14
  %va = load i32, ptr addrspace(1) %a, align 4, !dbg !14
  %jm = mul nsw i32 %jk, 3, !dbg !14
  %jme = sext i32 %jm to i64, !dbg !14
  %b = getelementptr inbounds i32, ptr addrspace(1) %src, i64 %jme, !dbg !14
  %vb = load i32, ptr addrspace(1) %b, align 4, !dbg !14
  %v = add i32 %va, %vb, !dbg !14
  store i32 %v, ptr addrspace(3) %p, align 4, !dbg !14
  br label %latch, !dbg !14

latch:
  %k1 = add nuw nsw i32 %k, 1, !dbg !14
  %done = icmp eq i32 %k1, %steps, !dbg !14
  br i1 %done, label %exit, label %loop, !dbg !14

exit:
  ret void, !dbg !14
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "rare.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "tile", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!6 = distinct !DISubprogram(name: "tile2d", scope: !1, file: !1, line: 10, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!7 = distinct !DISubprogram(name: "mostly", scope: !1, file: !1, line: 20, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
!12 = !DILocation(line: 11, scope: !6)
!13 = !DILocation(line: 12, scope: !6)
!14 = !DILocation(line: 21, scope: !7)
