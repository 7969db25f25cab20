; Lane-affine accesses whose derived figures hold under every mask in a
; warp of one 32-lane row (LaneAffine.h, include/pasta/div_proofs.h): the
; copy tests once per call whether its rows of lanes are 32 wide
; (__pasta_div_row_width, %pasta.div.not32) and measures them only where
; they are not. A shared element x (stride = size), an atomic on element x,
; a shared word at 3 words per lane, an element of row tid.y (stride 0,
; the same in each row only): taken. A global element x (its sectors
; depend on the mask), a shared word at 2 words per lane (bank conflicts
; depend on the mask), an element of row tid.y not aligned to its size:
; measured in every warp, as before.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-rows32=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-derive-lane-affine=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-stats -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATS
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-print-sites -disable-output %s 2>&1 | FileCheck %s --check-prefix=ROWS
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-derive-lane-affine=0 -pasta-print-sites -disable-output %s 2>&1 | FileCheck %s --check-prefix=ROWSOFF
; By default a copy whose measured groups are all such (not behind a lane
; select, not in rows stacked in y) gets a body for rows of 32 in which
; they are never measured (DivergenceRows32.cpp; the checks above run with
; -pasta-div-rows32=0): shared_x; not tiles.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -S %s | FileCheck %s --check-prefix=R32
; R32-LABEL: define ptx_kernel void @shared_x__pasta_div(
; R32: %pasta.div.rows32 = icmp eq i32 %{{[0-9]+}}, 32
; R32: call void @shared_x__pasta_div_general()
; R32: pasta.div.body32:
; R32-NOT: {{pasta.div.not32|@__pasta_div_access_lanes|@__pasta_div_row_width|@__pasta_div_stacked_width}}
; R32: ret void
; R32-NEXT: }
; R32-LABEL: define ptx_kernel void @tiles__pasta_div(
; R32-NOT: pasta.div.rows32
; R32: %pasta.div.not32 = icmp ne i32 %{{[0-9]+}}, 32
; R32-NOT: pasta.div.rows32
; R32: {{^}$}}
; Each row says which of its figures a proof gave (bit i: figure i of
; enum pasta_div_index): shared_x's distinct shared bytes (4) and bank
; conflicts (7): 0x90; atomic_x's distinct global bytes (3): 0x8;
; row_y's distinct global bytes, sectors and ideal sectors (3, 5, 6):
; 0x68, and its store to %out (one address) the same; measured's lines
; 42 (shared at 2 words: 0x90) and 43 (unaligned: 0x68) measured, 41 too.
; ROWS-DAG: pasta: div affine.cu:3 func=shared_x counters={{[0-9.]+}} proven=0x90 measured=0x0
; ROWS-DAG: pasta: div affine.cu:11 func=atomic_x counters={{[0-9.]+}} proven=0x8 measured=0x0
; ROWS-DAG: pasta: div affine.cu:31 func=row_y counters={{[0-9.]+}} proven=0x68 measured=0x0
; ROWS-DAG: pasta: div affine.cu:41 func=measured counters={{[0-9.]+}} proven=0x0 measured=0x68
; ROWS-DAG: pasta: div affine.cu:42 func=measured counters={{[0-9.]+}} proven=0x0 measured=0x90
; ROWS-DAG: pasta: div affine.cu:43 func=measured counters={{[0-9.]+}} proven=0x0 measured=0x68
; ROWSOFF: pasta: div affine.cu:3 func=shared_x counters={{[0-9.]+}} proven=0x0 measured=0x90
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@sh = internal addrspace(3) global [1024 x i32] undef, align 4
@tile = internal addrspace(3) global [16 x [16 x float]] undef, align 4
@padded = internal addrspace(3) global [16 x [17 x float]] undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()

; CHECK-LABEL: define ptx_kernel void @shared_x__pasta_div(
; CHECK: %[[S:[0-9]+]] = call i32 @__pasta_div_stacked_width()
; CHECK-NEXT: %pasta.div.not32 = icmp ne i32 %[[S]], 32
; CHECK-NEXT: %[[W:[0-9]+]] = call i32 @__pasta_div_row_width()
; CHECK: br i1 %pasta.div.not32, label %[[M:[^ ,]+]], label %[[A:[^ ,]+]]
; CHECK: [[M]]:
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 3, i32 1, i32 %[[W]],
; CHECK: [[A]]:
; CHECK-NEXT: store i32 1, ptr addrspace(3)
; CHECK: ret void
; OFF-LABEL: define ptx_kernel void @shared_x__pasta_div(
; OFF-NOT: pasta.div.not32
; OFF: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 3, i32 1,
; OFF: ret void
define ptx_kernel void @shared_x() !dbg !5 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %xi = zext i32 %x to i64, !dbg !10
  %p = getelementptr inbounds i32, ptr addrspace(3) @sh, i64 %xi, !dbg !10
  store i32 1, ptr addrspace(3) %p, align 4, !dbg !10
  ret void, !dbg !10
}

; CHECK-LABEL: define ptx_kernel void @atomic_x__pasta_div(
; CHECK: %pasta.div.not32 = icmp ne i32 %{{[0-9]+}}, 32
; CHECK-NEXT: %[[W:[0-9]+]] = call i32 @__pasta_div_row_width()
; CHECK: br i1 %pasta.div.not32, label %[[M:[^ ,]+]], label %[[A:[^ ,]+]]
; CHECK: [[M]]:
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 1, i32 0, i32 %[[W]],
; CHECK: [[A]]:
; CHECK-NEXT: atomicrmw add ptr addrspace(1)
; CHECK: ret void
define ptx_kernel void @atomic_x(ptr addrspace(1) %g) !dbg !6 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !11
  %xi = zext i32 %x to i64, !dbg !11
  %p = getelementptr inbounds i32, ptr addrspace(1) %g, i64 %xi, !dbg !11
  %old = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic, align 4, !dbg !11
  ret void, !dbg !11
}

; A column of a 3-word-wide shared tile: 32 different banks.
; CHECK-LABEL: define ptx_kernel void @shared_odd_words__pasta_div(
; CHECK: br i1 %pasta.div.not32, label %[[M:[^ ,]+]], label
; CHECK: [[M]]:
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 12, i32 3, i32 1,
; CHECK: ret void
define ptx_kernel void @shared_odd_words(ptr addrspace(1) %out) !dbg !7 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !12
  %x3 = mul nuw nsw i32 %x, 3, !dbg !12
  %xi = zext i32 %x3 to i64, !dbg !12
  %p = getelementptr inbounds i32, ptr addrspace(3) @sh, i64 %xi, !dbg !12
  %v = load i32, ptr addrspace(3) %p, align 4, !dbg !12
  store i32 %v, ptr addrspace(1) %out, align 4, !dbg !12
  ret void, !dbg !12
}

; Row tid.y's element: one address in a warp of one 32-lane row (with
; rows of 16, two).
; CHECK-LABEL: define ptx_kernel void @row_y__pasta_div(
; CHECK: br i1 %pasta.div.not32, label %[[M:[^ ,]+]], label
; CHECK: [[M]]:
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 0, i32 1, i32 1,
; CHECK: ret void
define ptx_kernel void @row_y(ptr addrspace(1) %g, ptr addrspace(1) %out) !dbg !8 {
entry:
  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !13
  %yi = zext i32 %y to i64, !dbg !13
  %p = getelementptr inbounds i32, ptr addrspace(1) %g, i64 %yi, !dbg !13
  %v = load i32, ptr addrspace(1) %p, align 4, !dbg !13
  store i32 %v, ptr addrspace(1) %out, align 4, !dbg !13
  ret void, !dbg !13
}

; A 16 x 16 tile's element [ty][tx]: its y term (64 bytes) is 16 times
; its x term, so in rows of 16 stacked in y (__pasta_div_stacked_width)
; a warp's lanes are one run of 32 at 4 bytes: not measured there either
; (%pasta.div.unstacked16). A padded tile's [ty][tx] (68 bytes per y: 17
; times) only where rows are 32 wide.
; CHECK-LABEL: define ptx_kernel void @tiles__pasta_div(
; CHECK: %[[S:[0-9]+]] = call i32 @__pasta_div_stacked_width()
; CHECK-NEXT: %pasta.div.not32 = icmp ne i32 %[[S]], 32
; CHECK: %[[U:[0-9]+]] = icmp ne i32 %[[S]], 16
; CHECK-NEXT: %pasta.div.unstacked16 = and i1 %pasta.div.not32, %[[U]]
; CHECK: br i1 %pasta.div.unstacked16, label %[[M:[^ ,]+]], label
; CHECK: [[M]]:
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 3, i32 1,
; CHECK: br i1 %pasta.div.not32, label %[[M2:[^ ,]+]], label
; CHECK: [[M2]]:
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 3, i32 1,
; CHECK: ret void
define ptx_kernel void @tiles() !dbg !17 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !18
  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !18
  %xi = zext i32 %x to i64, !dbg !18
  %yi = zext i32 %y to i64, !dbg !18
  %p = getelementptr inbounds [16 x [16 x float]], ptr addrspace(3) @tile, i64 0, i64 %yi, i64 %xi, !dbg !18
  store float 1.0, ptr addrspace(3) %p, align 4, !dbg !18
  %q = getelementptr inbounds [16 x [17 x float]], ptr addrspace(3) @padded, i64 0, i64 %yi, i64 %xi, !dbg !19
  store float 2.0, ptr addrspace(3) %q, align 4, !dbg !19
  ret void, !dbg !19
}

; (The kernels' stores to %out, one address in every lane, are not measured
; at all.) Measured in every warp: a global element x, a shared word at 2 words per
; lane, row tid.y's element at 2-byte alignment (it may straddle sectors).
; CHECK-LABEL: define ptx_kernel void @measured__pasta_div(
; CHECK-NOT: pasta.div.not32
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 1, i32 1,
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 8, i32 3, i32 1,
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 0, i32 1, i32 1,
; CHECK-NOT: pasta.div.not32
; CHECK: ret void
define ptx_kernel void @measured(ptr addrspace(1) %g, ptr addrspace(1) %h) !dbg !9 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !14
  %xi = zext i32 %x to i64, !dbg !14
  %p = getelementptr inbounds i32, ptr addrspace(1) %g, i64 %xi, !dbg !14
  %v = load i32, ptr addrspace(1) %p, align 4, !dbg !14
  %x2 = shl nuw nsw i64 %xi, 1, !dbg !15
  %q = getelementptr inbounds i32, ptr addrspace(3) @sh, i64 %x2, !dbg !15
  store i32 %v, ptr addrspace(3) %q, align 4, !dbg !15
  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !16
  %yi = zext i32 %y to i64, !dbg !16
  %r = getelementptr inbounds i32, ptr addrspace(1) %h, i64 %yi, !dbg !16
  store i32 %v, ptr addrspace(1) %r, align 2, !dbg !16
  ret void, !dbg !16
}

; STATS: access groups 11 (lane-shaped: 11, not measured: one aligned address in every lane: 2; measured only where rows of lanes are not 32 wide: 6, of them in rows stacked in y too: 1; global ones taken by arithmetic in full 32-lane rows: 1)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "affine.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "shared_x", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!6 = distinct !DISubprogram(name: "atomic_x", scope: !1, file: !1, line: 10, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!7 = distinct !DISubprogram(name: "shared_odd_words", scope: !1, file: !1, line: 20, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!8 = distinct !DISubprogram(name: "row_y", scope: !1, file: !1, line: 30, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!9 = distinct !DISubprogram(name: "measured", scope: !1, file: !1, line: 40, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 11, scope: !6)
!12 = !DILocation(line: 21, scope: !7)
!13 = !DILocation(line: 31, scope: !8)
!14 = !DILocation(line: 41, scope: !9)
!15 = !DILocation(line: 42, scope: !9)
!16 = !DILocation(line: 43, scope: !9)
!17 = distinct !DISubprogram(name: "tiles", scope: !1, file: !1, line: 50, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!18 = !DILocation(line: 51, scope: !17)
!19 = !DILocation(line: 52, scope: !17)
