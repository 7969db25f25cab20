; Lane strides wider than the access (a tile's column, a padded row, every
; other element) go to __pasta_div_access_lanes when its mask arithmetic
; covers them (passes/DivergenceFigures.cpp, lanesHelperTakes): shared loads and
; stores of at most 4 bytes at a multiple of 4 bytes (a word per lane, the
; bank from the stride), global ones at 32 bytes or more (a sector per lane)
; or a power of 2; the figures of a full warp from a sector boundary are
; derived at read-back (ROWS). Other strides take the general helper.
; Blocks that run once after a block above them share its counters
; (@joins), as do blocks on the same side of a repeated branch (@twice),
; and branches on warp-uniform conditions or repeating a branch above them
; are not measured.
; (-pasta-div-derive-bodies=0: the blocks are measured, as this test was
; written for; nvptx-divergence-bodies.ll derives if-then bodies.)
; -pasta-div-derive-returns=0: the kernels' returns are measured here as any
; block (nvptx-divergence-sole-return.ll tests the derived ones).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-div-derive-returns=0 -pasta-divergence -pasta-div-every-trip=0 -pasta-callee-counts=0 -pasta-div-derive-bodies=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-div-derive-returns=0 -pasta-divergence -pasta-div-every-trip=0 -pasta-callee-counts=0 -pasta-div-derive-bodies=0 -pasta-print-sites -disable-output %s 2>&1 | FileCheck %s --check-prefix=ROWS
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-div-derive-returns=0 -pasta-divergence -pasta-div-every-trip=0 -pasta-callee-counts=0 -pasta-div-derive-bodies=0 -pasta-print-sites -disable-output %s 2>&1 | FileCheck %s --check-prefix=REPEAT
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [32 x [32 x float]] undef, align 4
@padded = internal addrspace(3) global [32 x [33 x float]] undef, align 4
@wide = internal addrspace(3) global [32 x [2 x double]] undef, align 8

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; Shared: the tile's column (128 bytes per lane: 31 conflicts in a full
; warp), the padded column (132: none), doubles 16 bytes apart (8-byte
; words: the general helper).
; CHECK-LABEL: define ptx_kernel void @columns__pasta_div(
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 128, i32 3, i32 1,
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 132, i32 3, i32 1,
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 8, i32 19, i32 1,
; Global: 16 floats apart (64 bytes, a sector per lane), every other float
; (8 bytes: 4 lanes per sector), float3-like (12 bytes: general).
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 64, i32 1, i32 1,
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 8, i32 1, i32 1,
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 17, i32 1,
; CHECK: ret void
; Derived per warp execution: the column's 31 conflicts (the padded one's
; none: no row), 32 sectors for the 64-byte stride, 8 for the 8-byte one
; (each with its ideal 4).
; ROWS: pasta: derived {{[0-9]+}} = +31*c{{[0-9]+}}
; ROWS: pasta: derived {{[0-9]+}} = +32*c{{[0-9]+}}
; ROWS-NEXT: pasta: derived {{[0-9]+}} = +4*c{{[0-9]+}}
; ROWS: pasta: derived {{[0-9]+}} = +8*c{{[0-9]+}}
; ROWS-NEXT: pasta: derived {{[0-9]+}} = +4*c{{[0-9]+}}
define ptx_kernel void @columns(ptr addrspace(1) %g, i32 %k) !dbg !5 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %xi = zext i32 %x to i64, !dbg !10
  %ki = zext i32 %k to i64, !dbg !10
  %c = getelementptr inbounds [32 x [32 x float]], ptr addrspace(3) @tile, i64 0, i64 %xi, i64 %ki, !dbg !10
  %a = load float, ptr addrspace(3) %c, align 4, !dbg !10
  %p = getelementptr inbounds [32 x [33 x float]], ptr addrspace(3) @padded, i64 0, i64 %xi, i64 %ki, !dbg !11
  %b = load float, ptr addrspace(3) %p, align 4, !dbg !11
  %w = getelementptr inbounds [32 x [2 x double]], ptr addrspace(3) @wide, i64 0, i64 %xi, i64 0, !dbg !12
  %d = load double, ptr addrspace(3) %w, align 8, !dbg !12
  %x16 = mul nuw nsw i64 %xi, 16, !dbg !13
  %g16 = getelementptr inbounds float, ptr addrspace(1) %g, i64 %x16, !dbg !13
  store float %a, ptr addrspace(1) %g16, align 4, !dbg !13
  %x2 = mul nuw nsw i64 %xi, 2, !dbg !14
  %g2 = getelementptr inbounds float, ptr addrspace(1) %g, i64 %x2, !dbg !14
  store float %b, ptr addrspace(1) %g2, align 4, !dbg !14
  %x3 = mul nuw nsw i64 %xi, 3, !dbg !15
  %g3 = getelementptr inbounds float, ptr addrspace(1) %g, i64 %x3, !dbg !15
  %df = fptrunc double %d to float, !dbg !15
  store float %df, ptr addrspace(1) %g3, align 4, !dbg !15
  ret void, !dbg !15
}


; A divergent branch, its join, a uniform branch, its join: each join runs
; once after the entry with the entry's lanes, so neither is measured, and
; the uniform branch (on %n) is not either. After a call the lanes of two
; entries may run the return block together: it is measured. The entry
; is not: the launch's warps and threads are its figures.
; CHECK-LABEL: define ptx_kernel void @joins__pasta_div(
; CHECK: call void @__pasta_div_count_launch(
; CHECK: call void @__pasta_div_branch_add(
; CHECK-NEXT: br i1 %lo
; CHECK: half:
; CHECK: call void @__pasta_div_block_add(
; CHECK: join:
; CHECK-NOT: call {{.*}}@__pasta_div_
; CHECK: br i1 %big
; CHECK: more:
; CHECK: call void @__pasta_div_block_add(
; CHECK: call void @helper__pasta_div(
; CHECK: done:
; CHECK: call void @__pasta_div_block_add(
; CHECK: ret void
define ptx_kernel void @joins(ptr addrspace(1) %g, i32 %n) !dbg !6 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !20
  %lo = icmp ult i32 %x, 16, !dbg !20
  br i1 %lo, label %half, label %join, !dbg !20
half:
  store i32 1, ptr addrspace(1) %g, align 4, !dbg !21
  br label %join, !dbg !21
join:
  %big = icmp sgt i32 %n, 100, !dbg !22
  br i1 %big, label %more, label %done, !dbg !22
more:
  call void @helper(ptr addrspace(1) %g), !dbg !23
  br label %done, !dbg !23
done:
  ret void, !dbg !24
}

; `if (c) ...; __syncthreads(); if (c) ...` in a loop: the second
; then-block runs exactly when the first does, with its lanes (one
; condition value per lane, the second branch's block running once after
; the first's): not measured. Nor is the second branch: the same lanes go
; the same ways, so its divergent executions (line 53's row, counters
; 181..192, divergent at 190) are the first's (line 51's, 152..163: 161),
; derived. The block after the second branch's join is measured: the
; barrier between the loop's header and it might gather lanes that came to
; the header apart (the latch joins the two sides of the branch on %d,
; which the compiler may leave apart: DivergencePlan.cpp, entersTogether). A
; branch on another condition is measured.
; REPEAT: pasta: derived 190 = +1*c161
; REPEAT: pasta: div strides.cu:51 func=twice counters=152..163
; REPEAT: pasta: div strides.cu:53 func=twice counters=181..192
; The then-blocks `first` and `other` are counted at their branches, from
; the branch's ballot (nvptx-divergence-loop-bodies.ll).
; CHECK-LABEL: define ptx_kernel void @twice__pasta_div(
; CHECK: call void @__pasta_div_branch_body(i32
; CHECK-NEXT: br i1 %c, label %first, label %mid
; CHECK: first:
; CHECK-NOT: call void @__pasta_div_block(
; CHECK: mid:
; CHECK-NOT: call void @__pasta_div_branch
; CHECK: br i1 %c, label %second
; CHECK: second:
; CHECK-NOT: call void @__pasta_div_block(
; CHECK: after:
; CHECK: call void @__pasta_div_block(i32 1,
; CHECK: call void @__pasta_div_branch_body(i32
; CHECK-NEXT: br i1 %d, label %other, label %tail
; CHECK: other:
; CHECK-NOT: call void @__pasta_div_block(
; CHECK: ret void
define ptx_kernel void @twice(ptr addrspace(1) %g, i32 %n) !dbg !8 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !40
  br label %head, !dbg !40
head:
  %k = phi i32 [ 0, %entry ], [ %k.next, %tail ], !dbg !40
  %c = icmp ugt i32 %x, %k, !dbg !40
  %d = icmp ult i32 %x, %k, !dbg !40
  br i1 %c, label %first, label %mid, !dbg !40
first:
  store i32 1, ptr addrspace(1) %g, align 4, !dbg !41
  br label %mid, !dbg !41
mid:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !42
  br i1 %c, label %second, label %after, !dbg !42
second:
  store i32 2, ptr addrspace(1) %g, align 4, !dbg !43
  br label %after, !dbg !43
after:
  br i1 %d, label %other, label %tail, !dbg !44
other:
  store i32 3, ptr addrspace(1) %g, align 4, !dbg !44
  br label %tail, !dbg !44
tail:
  %k.next = add nuw nsw i32 %k, 1, !dbg !45
  %more = icmp slt i32 %k.next, %n, !dbg !45
  br i1 %more, label %head, label %done, !dbg !45
done:
  ret void, !dbg !45
}

declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)

define internal void @helper(ptr addrspace(1) %g) noinline !dbg !7 {
entry:
  store i32 2, ptr addrspace(1) %g, align 4, !dbg !30
  ret void, !dbg !30
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "strides.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "columns", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!6 = distinct !DISubprogram(name: "joins", scope: !1, file: !1, line: 20, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!7 = distinct !DISubprogram(name: "helper", scope: !1, file: !1, line: 40, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!8 = distinct !DISubprogram(name: "twice", scope: !1, file: !1, line: 50, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
!12 = !DILocation(line: 5, scope: !5)
!13 = !DILocation(line: 6, scope: !5)
!14 = !DILocation(line: 7, scope: !5)
!15 = !DILocation(line: 8, scope: !5)
!20 = !DILocation(line: 21, scope: !6)
!21 = !DILocation(line: 22, scope: !6)
!22 = !DILocation(line: 23, scope: !6)
!23 = !DILocation(line: 24, scope: !6)
!24 = !DILocation(line: 25, scope: !6)
!30 = !DILocation(line: 41, scope: !7)
!40 = !DILocation(line: 51, scope: !8)
!41 = !DILocation(line: 52, scope: !8)
!42 = !DILocation(line: 53, scope: !8)
!43 = !DILocation(line: 54, scope: !8)
!44 = !DILocation(line: 55, scope: !8)
!45 = !DILocation(line: 56, scope: !8)
