; A y step through a clamp of y (UniformLoops::rowStep with arms,
; AccessGroup::ApartStepArms): srad's north and south neighbours,
; J[max(y - 1, 0) * n + x] (clang: usub.sat(y, 1), scalar evolution
; y - umin(1, y)) and J[min(y + 1, n - 1) * n + x], in 16 x 16 blocks. Where
; every lane takes the clamp's side whose step is not 0 (the bound 1 <= y
; for the first: then the index is y - 1; y + 1 <= n - 1 for the second),
; lane 16's address is lane 0's plus 4n: the rows-apart test is the entry's
; |4n| test and one vote of that side (%pasta.div.steparm, one
; __pasta_div_all_lanes), no shuffle; a warp with a lane on the other side
; (the image's first or last row) is measured. -pasta-div-clamped-steps=0,
; the default, shuffles lane 16's address as before.
; The IR is clang's -O2 output (-gline-tables-only) for
;   __global__ void north_south(const float *J, float *out, int n) {
;     int x = blockIdx.x * 16 + threadIdx.x;
;     int y = blockIdx.y * 16 + threadIdx.y;
;     int up = max(y - 1, 0);
;     int down = min(y + 1, n - 1);
;     out[y * n + x] = J[up * n + x] + J[down * n + x];
;   }
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-clamped-steps -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s --check-prefix=OFF

; CHECK-LABEL: define {{.*}} @_Z11north_southPKfPfi__pasta_div(
; CHECK: %[[SA:pasta.div.stepapart[.a-z0-9]*]] = and i1
; CHECK: %[[Y:[0-9]+]] = add nuw nsw i32 %{{[0-9]+}}, %{{[0-9]+}}
; CHECK: %[[UP:[0-9]+]] = {{.*}}call i32 @llvm.usub.sat.i32(i32 %[[Y]], i32 1)
; CHECK: %[[YP:[0-9]+]] = add nuw nsw i32 %[[Y]], 1
; CHECK-NEXT: %[[NM:[0-9]+]] = add {{(nsw )?}}i32 %2, -1
; CHECK-NOT: shfl.sync
; CHECK: %[[ARM1:pasta.div.steparm[.a-z0-9]*]] = icmp ule i32 1, %[[Y]]
; CHECK-NEXT: %[[Z1:[0-9]+]] = zext i1 %[[ARM1]] to i32
; CHECK-NEXT: %[[V1:[0-9]+]] = call i32 @__pasta_div_all_lanes(i32 %[[Z1]])
; CHECK-NEXT: %[[E1:[0-9]+]] = icmp ne i32 %[[V1]], 0
; CHECK-NEXT: %[[K1:[0-9]+]] = and i1 %[[SA]], %[[E1]]
; CHECK-NOT: shfl.sync
; CHECK: %[[AP1:pasta.div.apartrows[.a-z0-9]*]] = and i1 %pasta.div.fullrepeat{{[.a-z0-9]*}}, %[[K1]]
; CHECK-NEXT: br i1 %[[AP1]]
; CHECK-NOT: shfl.sync
; CHECK: %[[ARM2:pasta.div.steparm[.a-z0-9]*]] = icmp sle i32 %[[YP]], %[[NM]]
; CHECK-NEXT: %[[Z2:[0-9]+]] = zext i1 %[[ARM2]] to i32
; CHECK-NEXT: call i32 @__pasta_div_all_lanes(i32 %[[Z2]])
; CHECK-NOT: shfl.sync
; CHECK: pasta.div.apartrows
; CHECK-NOT: shfl.sync
; CHECK: ret void

; OFF-LABEL: define {{.*}} @_Z11north_southPKfPfi__pasta_div(
; OFF-NOT: steparm
; OFF: call i32 @llvm.nvvm.shfl.sync.bfly.i32(
; OFF: ret void

; ModuleID = 'yclamp.cu'
source_filename = "yclamp.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z11north_southPKfPfi(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1, i32 noundef %2) local_unnamed_addr #0 !dbg !15 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !18
  %5 = shl i32 %4, 4, !dbg !22
  %6 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !23
  %7 = add i32 %5, %6, !dbg !26
  %8 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !dbg !27
  %9 = shl nuw nsw i32 %8, 4, !dbg !30
  %10 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !31
  %11 = add nuw nsw i32 %9, %10, !dbg !34
  %12 = tail call i32 @llvm.usub.sat.i32(i32 %11, i32 1), !dbg !35
  %13 = add nuw nsw i32 %11, 1, !dbg !39
  %14 = add nsw i32 %2, -1, !dbg !40
  %15 = tail call noundef range(i32 -2147483648, 2147483647) i32 @llvm.smin.i32(i32 range(i32 -2147483647, -2147483648) %13, i32 range(i32 -2147483648, 2147483647) %14), !dbg !41
  %16 = mul nsw i32 %12, %2, !dbg !44
  %17 = add nsw i32 %16, %7, !dbg !45
  %18 = sext i32 %17 to i64, !dbg !46
  %19 = getelementptr inbounds float, ptr %0, i64 %18, !dbg !46
  %20 = load float, ptr %19, align 4, !dbg !46, !tbaa !47
  %21 = mul nsw i32 %15, %2, !dbg !49
  %22 = add nsw i32 %21, %7, !dbg !50
  %23 = sext i32 %22 to i64, !dbg !51
  %24 = getelementptr inbounds float, ptr %0, i64 %23, !dbg !51
  %25 = load float, ptr %24, align 4, !dbg !51, !tbaa !47
  %26 = fadd contract float %20, %25, !dbg !52
  %27 = mul nsw i32 %2, %11, !dbg !53
  %28 = add nsw i32 %27, %7, !dbg !54
  %29 = sext i32 %28 to i64, !dbg !55
  %30 = getelementptr inbounds float, ptr %1, i64 %29, !dbg !55
  store float %26, ptr %30, align 4, !dbg !56, !tbaa !47
  ret void, !dbg !57
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
declare i32 @llvm.smin.i32(i32, i32) #2

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.usub.sat.i32(i32, i32) #3

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }

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
!7 = !DIFile(filename: "yclamp.cu", directory: "/tmp/yclamp")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "north_south", scope: !7, file: !7, line: 1, type: !16, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
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
!35 = !DILocation(line: 200, column: 47, scope: !36, inlinedAt: !38)
!36 = distinct !DISubprogram(name: "max", scope: !37, file: !37, line: 200, type: !16, scopeLine: 200, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!37 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_math.h", directory: "")
!38 = distinct !DILocation(line: 4, column: 12, scope: !15)
!39 = !DILocation(line: 5, column: 20, scope: !15)
!40 = !DILocation(line: 5, column: 27, scope: !15)
!41 = !DILocation(line: 201, column: 47, scope: !42, inlinedAt: !43)
!42 = distinct !DISubprogram(name: "min", scope: !37, file: !37, line: 201, type: !16, scopeLine: 201, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!43 = distinct !DILocation(line: 5, column: 14, scope: !15)
!44 = !DILocation(line: 6, column: 25, scope: !15)
!45 = !DILocation(line: 6, column: 29, scope: !15)
!46 = !DILocation(line: 6, column: 20, scope: !15)
!47 = !{!48, !48, i64 0}
!48 = !{!"float", !12, i64 0}
!49 = !DILocation(line: 6, column: 43, scope: !15)
!50 = !DILocation(line: 6, column: 47, scope: !15)
!51 = !DILocation(line: 6, column: 36, scope: !15)
!52 = !DILocation(line: 6, column: 34, scope: !15)
!53 = !DILocation(line: 6, column: 9, scope: !15)
!54 = !DILocation(line: 6, column: 13, scope: !15)
!55 = !DILocation(line: 6, column: 3, scope: !15)
!56 = !DILocation(line: 6, column: 18, scope: !15)
!57 = !DILocation(line: 7, column: 1, scope: !15)
