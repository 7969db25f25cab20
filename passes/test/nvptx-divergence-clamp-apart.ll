; srad's clamped west neighbour, J[y * n + max(x - 1, 0)] in 16 x 16
; blocks, with -pasta-div-clamps: a FullRow group behind a clamp
; (-pasta-div-fullrow-clamps) whose rows are apart by the y step 4n
; (-pasta-div-apart-lane-tested, -pasta-div-known-apart-steps). Where every
; lane takes the clamp's lane-affine side (%pasta.div.arm, one
; __pasta_div_all_lanes) the address is lane-affine: a full warp of one
; 32-lane row adds the sectors past its base (__pasta_div_row_sectors); a
; full warp of two 16-wide rows stacked in y whose rows are apart (|4n|
; tested once at the entry) adds from lane 0 the sectors beyond the
; derived ones (2 more where the base is past a sector's start: two rows
; of 16 floats, 3 sectors each, against 5 for one row of 32); every other
; warp calls the helper, given the row width only where all lanes take the
; clamp's side. -pasta-div-apart-lane-tested=0 measures the stacked warps.
; The IR is clang's -O2 output (-gline-tables-only) for
;   __global__ void west(const float *J, float *out, int n) {
;     int x = blockIdx.x * 16 + threadIdx.x;
;     int y = blockIdx.y * 16 + threadIdx.y;
;     out[y * n + x] = J[y * n + max(x - 1, 0)];
;   }
; -pasta-div-launch-classes=0: the adds in each full warp, as in launches of
; no class (nvptx-divergence-launch-classes.ll: what read-back derives).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-launch-classes=0 -pasta-div-clamps -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-launch-classes=0 -pasta-div-clamps -pasta-div-apart-lane-tested=0 -S %s | FileCheck %s --check-prefix=OFF

; CHECK-LABEL: define {{.*}} @_Z4westPKfPfi__pasta_div(
; CHECK: %[[RW:[0-9]+]] = call i32 @__pasta_div_row_width()
; CHECK: %[[N:[0-9]+]] = sext i32 %2 to i64
; CHECK-NEXT: %[[STEP:[0-9]+]] = shl nsw i64 %[[N]], 2
; CHECK-NEXT: %[[GAP:pasta.div.stepgap[.a-z0-9]*]] = call i64 @llvm.abs.i64(i64 %[[STEP]], i1 false)
; CHECK-NEXT: %[[LOW:[0-9]+]] = and i64 %[[GAP]], 31
; CHECK-NEXT: %[[WHOLE:[0-9]+]] = icmp eq i64 %[[LOW]], 0
; CHECK-NEXT: %[[FAR:[0-9]+]] = icmp uge i64 %[[GAP]], 96
; CHECK-NEXT: %[[SA:pasta.div.stepapart[.a-z0-9]*]] = and i1 %[[WHOLE]], %[[FAR]]
; CHECK: %pasta.div.arm = icmp sge i32 %{{[0-9]+}}, 1
; CHECK-NEXT: %[[A:[0-9]+]] = zext i1 %pasta.div.arm to i32
; CHECK-NEXT: %[[T:[0-9]+]] = call i32 @__pasta_div_all_lanes(i32 %[[A]])
; CHECK-NEXT: %[[OK:[0-9]+]] = icmp ne i32 %[[T]], 0
; CHECK-NEXT: %[[FOK:[0-9]+]] = and i1 %pasta.div.fullrow, %[[OK]]
; CHECK-NEXT: br i1 %[[FOK]], label %[[ROW:[0-9]+]], label %[[OTHER:[0-9]+]]
; CHECK: [[ROW]]:
; CHECK-NEXT: call i32 @__pasta_div_row_sectors(
; CHECK: [[OTHER]]:
; CHECK-NEXT: %[[ROK:[0-9]+]] = and i1 %pasta.div.fullrepeat, %[[OK]]
; CHECK-NEXT: %[[ADDR:[0-9]+]] = ptrtoint ptr %{{[0-9]+}} to i64
; CHECK-NEXT: %[[AP:pasta.div.apartrows[.a-z0-9]*]] = and i1 %[[ROK]], %[[SA]]
; CHECK-NEXT: br i1 %[[AP]], label %[[ADD:[0-9]+]], label %[[MEAS:[0-9]+]]
; CHECK: [[ADD]]:
; CHECK: %[[LOWB:[0-9]+]] = and i64 %[[ADDR]], 31
; CHECK-NEXT: %[[PAST:[0-9]+]] = icmp uge i64 %[[LOWB]], 1
; CHECK-NEXT: %[[P64:[0-9]+]] = zext i1 %[[PAST]] to i64
; CHECK-NEXT: mul i64 %[[P64]], 2
; CHECK: call void @__pasta_div_add(
; CHECK: [[MEAS]]:
; CHECK: %[[W:pasta.div.width[0-9]*]] = select i1 %[[OK]], i32 %[[RW]], i32 0
; CHECK-NEXT: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 4, i32 {{[0-9]+}}, i32 1, i32 %[[W]],
; CHECK-NOT: shfl.sync
; CHECK: ret void

; OFF-LABEL: define {{.*}} @_Z4westPKfPfi__pasta_div(
; OFF: call i32 @__pasta_div_all_lanes(
; OFF-NOT: pasta.div.apartrows
; OFF: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 4, i32 {{[0-9]+}}, i32 1, i32 %pasta.div.width
; OFF: ret void

; ModuleID = 'west.cu'
source_filename = "west.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z4westPKfPfi(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1, i32 noundef %2) local_unnamed_addr #0 !dbg !15 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !18
  %5 = shl i32 %4, 4, !dbg !22
  %6 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !23
  %7 = add i32 %5, %6, !dbg !26
  %8 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !dbg !27
  %9 = shl nuw nsw i32 %8, 4, !dbg !30
  %10 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !31
  %11 = add nuw nsw i32 %9, %10, !dbg !34
  %12 = mul nsw i32 %2, %11, !dbg !35
  %13 = tail call i32 @llvm.smax.i32(i32 %7, i32 1), !dbg !36
  %14 = add nsw i32 %13, -1, !dbg !36
  %15 = add nsw i32 %14, %12, !dbg !40
  %16 = sext i32 %15 to i64, !dbg !41
  %17 = getelementptr inbounds float, ptr %0, i64 %16, !dbg !41
  %18 = load float, ptr %17, align 4, !dbg !41, !tbaa !42
  %19 = add nsw i32 %12, %7, !dbg !44
  %20 = sext i32 %19 to i64, !dbg !45
  %21 = getelementptr inbounds float, ptr %1, i64 %20, !dbg !45
  store float %18, ptr %21, align 4, !dbg !46, !tbaa !42
  ret void, !dbg !47
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y() #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smax.i32(i32, i32) #2

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3, !4, !5}
!llvm.dbg.cu = !{!6}
!llvm.ident = !{!8, !9}
!llvm.errno.tbaa = !{!10}
!nvvmir.version = !{!14}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 9]}
!1 = !{i32 7, !"Dwarf Version", i32 2}
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 1, !"wchar_size", i32 4}
!4 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!5 = !{i32 7, !"frame-pointer", i32 2}
!6 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !7, producer: "Debian clang version 22.1.8 (1~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: DebugDirectivesOnly, splitDebugInlining: false, nameTableKind: None)
!7 = !DIFile(filename: "west.cu", directory: "/tmp/west")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "west", scope: !7, file: !7, line: 1, type: !16, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DISubroutineType(types: !17)
!17 = !{}
!18 = !DILocation(line: 66, column: 27, scope: !19, inlinedAt: !21)
!19 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 66, type: !16, scopeLine: 66, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!20 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!21 = distinct !DILocation(line: 2, column: 11, scope: !15)
!22 = !DILocation(line: 2, column: 22, scope: !15)
!23 = !DILocation(line: 53, column: 27, scope: !24, inlinedAt: !25)
!24 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 53, type: !16, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!25 = distinct !DILocation(line: 2, column: 29, scope: !15)
!26 = !DILocation(line: 2, column: 27, scope: !15)
!27 = !DILocation(line: 67, column: 27, scope: !28, inlinedAt: !29)
!28 = distinct !DISubprogram(name: "__fetch_builtin_y", scope: !20, file: !20, line: 67, type: !16, scopeLine: 67, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!29 = distinct !DILocation(line: 3, column: 11, scope: !15)
!30 = !DILocation(line: 3, column: 22, scope: !15)
!31 = !DILocation(line: 54, column: 27, scope: !32, inlinedAt: !33)
!32 = distinct !DISubprogram(name: "__fetch_builtin_y", scope: !20, file: !20, line: 54, type: !16, scopeLine: 54, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!33 = distinct !DILocation(line: 3, column: 29, scope: !15)
!34 = !DILocation(line: 3, column: 27, scope: !15)
!35 = !DILocation(line: 4, column: 24, scope: !15)
!36 = !DILocation(line: 200, column: 47, scope: !37, inlinedAt: !39)
!37 = distinct !DISubprogram(name: "max", scope: !38, file: !38, line: 200, type: !16, scopeLine: 200, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!38 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_math.h", directory: "")
!39 = distinct !DILocation(line: 4, column: 30, scope: !15)
!40 = !DILocation(line: 4, column: 28, scope: !15)
!41 = !DILocation(line: 4, column: 20, scope: !15)
!42 = !{!43, !43, i64 0}
!43 = !{!"float", !12, i64 0}
!44 = !DILocation(line: 4, column: 13, scope: !15)
!45 = !DILocation(line: 4, column: 3, scope: !15)
!46 = !DILocation(line: 4, column: 18, scope: !15)
!47 = !DILocation(line: 5, column: 1, scope: !15)
