; An access through one clamp of thread index y (srad's north and south
; neighbours) in full warps of two 16-wide rows stacked in y: the rows'
; gap is the step of the address without the clamp (here 4n, tested once
; at the entry: %pasta.div.stepapart) where every lane's clamp takes its
; moving operand (%pasta.div.yclamp.arm: usub.sat(y, 1) == y - 1,
; umin(y + 1, n - 1) == y + 1; one __pasta_div_all_lanes vote), instead of
; two shuffles of lane 16's address. Where every lane's clamp takes the
; moving operand, every lane's address is the unclamped one, so lane 16's
; is lane 0's plus the step; elsewhere (a grid's first or last block row)
; the warp is measured by the helper, as when the shuffled test failed.
; -pasta-div-y-clamp-steps=0 shuffles as before.
; The IR is clang's -O2 output (-gline-tables-only, device side) for
;   __global__ void north(const float *J, float *out, int n) {
;     int x = blockIdx.x * blockDim.x + threadIdx.x;
;     int y = blockIdx.y * blockDim.y + threadIdx.y;
;     if (x >= n || y >= n)
;       return;
;     out[y * n + x] = J[max(y - 1, 0) * n + x] + J[min(y + 1, n - 1) * n + x];
;   }
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-y-clamp-steps=0 -S %s | FileCheck %s --check-prefix=OFF

; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z5northPKfPfi__pasta_div(
; CHECK: %[[S:pasta.div.stepapart[.a-z0-9]*]] = and i1
; CHECK: %[[C:[0-9]+]] = {{.*}}call i32 @llvm.usub.sat.i32(i32 %[[Y:[0-9]+]], i32 1)
; CHECK: %[[MOV:pasta.div.yclamp.moving[.a-z0-9]*]] = sub i32 %[[Y]], 1
; CHECK: %[[ARM:pasta.div.yclamp.arm[.a-z0-9]*]] = icmp eq i32 %[[C]], %[[MOV]]
; CHECK: %[[Z:[0-9]+]] = zext i1 %[[ARM]] to i32
; CHECK-NEXT: %[[ALL:[0-9]+]] = call i32 @__pasta_div_all_lanes(i32 %[[Z]])
; CHECK: %{{pasta.div.apartrows[.a-z0-9]*}} = and i1 %{{[0-9]+}}, %[[S]]
; CHECK: %[[U:[0-9]+]] = {{.*}}call i32 @llvm.umin.i32(i32 %[[P:[0-9]+]], i32 %{{[0-9]+}})
; CHECK: %[[ARM1:pasta.div.yclamp.arm[.a-z0-9]*]] = icmp eq i32 %[[U]], %[[P]]
; CHECK: %[[Z1:[0-9]+]] = zext i1 %[[ARM1]] to i32
; CHECK-NEXT: call i32 @__pasta_div_all_lanes(i32 %[[Z1]])
; CHECK: %{{pasta.div.apartrows[.a-z0-9]*}} = and i1 %{{[0-9]+}}, %[[S]]
; CHECK-NOT: shfl.sync.bfly
; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z5northPKfPfi__pasta_divu(

; OFF-LABEL: define {{.*}}ptx_kernel void @_Z5northPKfPfi__pasta_div(
; OFF-NOT: yclamp
; OFF: call i32 @llvm.nvvm.shfl.sync.bfly.i32(
; OFF-NOT: yclamp
; OFF-LABEL: define {{.*}}ptx_kernel void @_Z5northPKfPfi__pasta_divu(

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z5northPKfPfi(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1, i32 noundef %2) local_unnamed_addr #0 !dbg !15 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !18
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !22
  %6 = mul i32 %4, %5, !dbg !25
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !26
  %8 = add i32 %6, %7, !dbg !29
  %9 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !dbg !30
  %10 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.y(), !dbg !33
  %11 = mul nuw nsw i32 %9, %10, !dbg !36
  %12 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !37
  %13 = add nuw nsw i32 %11, %12, !dbg !40
  %14 = icmp slt i32 %8, %2, !dbg !41
  %15 = icmp slt i32 %13, %2
  %16 = and i1 %14, %15, !dbg !42
  br i1 %16, label %17, label %37, !dbg !42

17:                                               ; preds = %3
  %18 = tail call i32 @llvm.usub.sat.i32(i32 %13, i32 1), !dbg !43
  %19 = mul nsw i32 %18, %2, !dbg !47
  %20 = add nsw i32 %19, %8, !dbg !48
  %21 = sext i32 %20 to i64, !dbg !49
  %22 = getelementptr inbounds float, ptr %0, i64 %21, !dbg !49
  %23 = load float, ptr %22, align 4, !dbg !49, !tbaa !50
  %24 = add nuw nsw i32 %13, 1, !dbg !52
  %25 = add nsw i32 %2, -1, !dbg !53
  %26 = tail call i32 @llvm.umin.i32(i32 %24, i32 %25), !dbg !54
  %27 = mul nsw i32 %26, %2, !dbg !57
  %28 = add nsw i32 %27, %8, !dbg !58
  %29 = sext i32 %28 to i64, !dbg !59
  %30 = getelementptr inbounds float, ptr %0, i64 %29, !dbg !59
  %31 = load float, ptr %30, align 4, !dbg !59, !tbaa !50
  %32 = fadd contract float %23, %31, !dbg !60
  %33 = mul nsw i32 %2, %13, !dbg !61
  %34 = add nsw i32 %33, %8, !dbg !62
  %35 = sext i32 %34 to i64, !dbg !63
  %36 = getelementptr inbounds float, ptr %1, i64 %35, !dbg !63
  store float %32, ptr %36, align 4, !dbg !64, !tbaa !50
  br label %37, !dbg !65

37:                                               ; preds = %3, %17
  ret void, !dbg !65
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.y() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y() #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.umin.i32(i32, i32) #2

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.usub.sat.i32(i32, i32) #2

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }

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
!7 = !DIFile(filename: "yclamp.cu", directory: "/tmp/divbfs/lt")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "north", scope: !7, file: !7, line: 1, type: !16, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DISubroutineType(types: !17)
!17 = !{}
!18 = !DILocation(line: 66, column: 27, scope: !19, inlinedAt: !21)
!19 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 66, type: !16, scopeLine: 66, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!20 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!21 = distinct !DILocation(line: 2, column: 11, scope: !15)
!22 = !DILocation(line: 79, column: 27, scope: !23, inlinedAt: !24)
!23 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 79, type: !16, scopeLine: 79, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!24 = distinct !DILocation(line: 2, column: 24, scope: !15)
!25 = !DILocation(line: 2, column: 22, scope: !15)
!26 = !DILocation(line: 53, column: 27, scope: !27, inlinedAt: !28)
!27 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 53, type: !16, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!28 = distinct !DILocation(line: 2, column: 37, scope: !15)
!29 = !DILocation(line: 2, column: 35, scope: !15)
!30 = !DILocation(line: 67, column: 27, scope: !31, inlinedAt: !32)
!31 = distinct !DISubprogram(name: "__fetch_builtin_y", scope: !20, file: !20, line: 67, type: !16, scopeLine: 67, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!32 = distinct !DILocation(line: 3, column: 11, scope: !15)
!33 = !DILocation(line: 80, column: 27, scope: !34, inlinedAt: !35)
!34 = distinct !DISubprogram(name: "__fetch_builtin_y", scope: !20, file: !20, line: 80, type: !16, scopeLine: 80, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!35 = distinct !DILocation(line: 3, column: 24, scope: !15)
!36 = !DILocation(line: 3, column: 22, scope: !15)
!37 = !DILocation(line: 54, column: 27, scope: !38, inlinedAt: !39)
!38 = distinct !DISubprogram(name: "__fetch_builtin_y", scope: !20, file: !20, line: 54, type: !16, scopeLine: 54, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!39 = distinct !DILocation(line: 3, column: 37, scope: !15)
!40 = !DILocation(line: 3, column: 35, scope: !15)
!41 = !DILocation(line: 4, column: 9, scope: !15)
!42 = !DILocation(line: 4, column: 14, scope: !15)
!43 = !DILocation(line: 200, column: 47, scope: !44, inlinedAt: !46)
!44 = distinct !DISubprogram(name: "max", scope: !45, file: !45, line: 200, type: !16, scopeLine: 200, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!45 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_math.h", directory: "")
!46 = distinct !DILocation(line: 6, column: 22, scope: !15)
!47 = !DILocation(line: 6, column: 36, scope: !15)
!48 = !DILocation(line: 6, column: 40, scope: !15)
!49 = !DILocation(line: 6, column: 20, scope: !15)
!50 = !{!51, !51, i64 0}
!51 = !{!"float", !12, i64 0}
!52 = !DILocation(line: 6, column: 55, scope: !15)
!53 = !DILocation(line: 6, column: 62, scope: !15)
!54 = !DILocation(line: 201, column: 47, scope: !55, inlinedAt: !56)
!55 = distinct !DISubprogram(name: "min", scope: !45, file: !45, line: 201, type: !16, scopeLine: 201, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!56 = distinct !DILocation(line: 6, column: 49, scope: !15)
!57 = !DILocation(line: 6, column: 67, scope: !15)
!58 = !DILocation(line: 6, column: 71, scope: !15)
!59 = !DILocation(line: 6, column: 47, scope: !15)
!60 = !DILocation(line: 6, column: 45, scope: !15)
!61 = !DILocation(line: 6, column: 9, scope: !15)
!62 = !DILocation(line: 6, column: 13, scope: !15)
!63 = !DILocation(line: 6, column: 3, scope: !15)
!64 = !DILocation(line: 6, column: 18, scope: !15)
!65 = !DILocation(line: 7, column: 1, scope: !15)
