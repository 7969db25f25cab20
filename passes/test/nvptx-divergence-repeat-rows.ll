; A global load or store taken by arithmetic in full warps of one 32-lane
; row (AccessGroup::FullRow) whose address has no term in thread index y:
; in a FULL warp of 16-wide rows stacked in y both rows read the same
; bytes, one row's, so the copy adds from lane 0 the figures beyond those
; derived for one row of 32 lanes (include/pasta/div_proofs.h,
; pasta_div_repeat_rows; AccessGroup::RepeatWidth) instead of calling the
; measuring helper, tested once per block (%pasta.div.fullrepeat:
; __pasta_div_full_row of 32 where __pasta_div_stacked_width() is 16, else
; of 0). By hand: 16 floats at a stride of 4 bytes are 64 distinct bytes
; (the derived 128: -64), 2 ideal sectors (derived 4: -2) and 2 sectors
; from a sector's start, 3 from any later base (derived 4: -2, plus 1 from
; offset 1); at a stride of 8 they span 124 bytes, 4 sectors up to offset
; 4 and 5 from offset 5 on (derived 8: -4, plus 1 from offset 5).
;   rowrep: gaussian's fan2, a[i * n + j] -= r[t * n + j] in 16 x 16 blocks:
;     r (no y term) gets the test in the body for rows of 16 and in the
;     one for rows of 32 (never taken there: the stacked width is 32);
;     a[i * n + j] (y term n floats, not known) does not;
;   wide: r[n + 2 * j], a stride of 8 bytes (the copy has no body for rows
;     of 16: its general body has the test);
;   in_loop: r[k * n + threadIdx.x] in a loop with a divergent exit: the
;     adds go to the loop's registers.
; -pasta-div-repeat-rows=0 measures them as before. The IR is clang's -O2
; output (-gline-tables-only) for
;   __global__ void rowrep(float *a, const float *r, int n, int t) {
;     int i = blockIdx.y * 16 + threadIdx.y;
;     int j = blockIdx.x * 16 + threadIdx.x;
;     a[i * n + j] -= r[t * n + j];
;   }
;   __global__ void wide(const float *r, float *out, int n) {
;     int j = blockIdx.x * 16 + threadIdx.x;
;     int i = blockIdx.y * 16 + threadIdx.y;
;     out[i * 16 + threadIdx.x] = r[n + 2 * j];
;   }
;   __global__ void in_loop(const float *r, float *out, int n, int m) {
;     float s = 0.0f;
;   #pragma unroll 1
;     for (int k = 0; k < m; ++k) {
;       float v = r[k * n + threadIdx.x];
;       if (v < 0.0f)
;         break;
;       s += v;
;     }
;     out[threadIdx.y * 16 + threadIdx.x] = s;
;   }
; -pasta-div-launch-classes=0: the adds in each full warp, as in launches of
; no class (nvptx-divergence-launch-classes.ll: what read-back derives).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-launch-classes=0 -pasta-div-apart-rows=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-launch-classes=0 -pasta-div-repeat-rows=0 -pasta-div-apart-rows=0 -S %s | FileCheck %s --check-prefix=OFF

; CHECK-LABEL: define {{.*}} @_Z6rowrepPfPKfii__pasta_div(
; CHECK: pasta.div.body16:
; CHECK: %[[SW:[0-9]+]] = call i32 @__pasta_div_stacked_width()
; CHECK: %[[IS16:[0-9]+]] = icmp eq i32 %[[SW]], 16
; CHECK-NEXT: %[[W:pasta.div.repeat16[.a-z0-9]*]] = select i1 %[[IS16]], i32 32, i32 0
; CHECK: %[[F:[0-9]+]] = call i32 @__pasta_div_full_row(i32 %[[W]])
; CHECK-NEXT: %[[R:pasta.div.fullrepeat[.a-z0-9]*]] = icmp ne i32 %[[F]], 0
; CHECK: br i1 %[[R]], label %[[REP:[0-9]+]], label %[[MEAS:[0-9]+]]
; CHECK: [[REP]]:
; CHECK-NEXT: %[[L:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK-NEXT: %[[L0:[0-9]+]] = icmp eq i32 %[[L]], 0
; CHECK-NEXT: %[[P:[0-9]+]] = ptrtoint ptr %[[PTR:[0-9]+]] to i64
; CHECK-NEXT: %[[O:[0-9]+]] = and i64 %[[P]], 31
; CHECK-NEXT: %[[PAST:[0-9]+]] = icmp uge i64 %[[O]], 1
; CHECK-NEXT: %[[PAST64:[0-9]+]] = zext i1 %[[PAST]] to i64
; CHECK-NEXT: %[[SEC:[0-9]+]] = add i64 -2, %[[PAST64]]
; CHECK-NEXT: %[[D:[0-9]+]] = select i1 %[[L0]], i64 -64, i64 0
; CHECK-NEXT: getelementptr
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %{{[0-9]+}}, i64 %[[D]])
; CHECK-NEXT: %[[S:[0-9]+]] = select i1 %[[L0]], i64 %[[SEC]], i64 0
; CHECK-NEXT: getelementptr
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %{{[0-9]+}}, i64 %[[S]])
; CHECK-NEXT: %[[I:[0-9]+]] = select i1 %[[L0]], i64 -2, i64 0
; CHECK-NEXT: getelementptr
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %{{[0-9]+}}, i64 %[[I]])
; CHECK: [[MEAS]]:
; CHECK: call i32 @__pasta_div_access_rows16(ptr readonly %[[PTR]], i32 4, i32 4,
; CHECK: call i32 @__pasta_div_access_rows16(
; CHECK-NOT: fullrepeat
; CHECK: pasta.div.body32:
; CHECK: %pasta.div.fullrepeat = icmp ne
; CHECK: call i32 @__pasta_div_access_row32(
; CHECK-NOT: fullrepeat
; CHECK: call i32 @__pasta_div_access_row32(
; CHECK-LABEL: define {{.*}} @_Z4widePKfPfi__pasta_div(
; CHECK: %pasta.div.fullrepeat = icmp ne
; CHECK: br i1 %pasta.div.fullrepeat,
; CHECK: icmp uge i64 %{{[0-9]+}}, 5
; CHECK-NEXT: zext
; CHECK-NEXT: add i64 -4,
; CHECK-NEXT: select i1 %{{[0-9]+}}, i64 -64, i64 0
; CHECK: select i1 %{{[0-9]+}}, i64 -2, i64 0
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 8,
; CHECK-NOT: fullrepeat
; CHECK-LABEL: define {{.*}} @_Z7in_loopPKfPfii__pasta_div(
; CHECK: br i1 %pasta.div.fullrepeat, label %[[LREP:[0-9]+]], label %[[LMEAS:[0-9]+]]
; CHECK: [[LREP]]:
; CHECK: %[[LD:[0-9]+]] = select i1 %{{[0-9]+}}, i64 -64, i64 0
; CHECK-NEXT: %[[RD:[0-9]+]] = load i32, ptr %[[REGD:pasta.div[0-9]+]]
; CHECK-NEXT: %[[TD:[0-9]+]] = trunc i64 %[[LD]] to i32
; CHECK-NEXT: %[[AD:[0-9]+]] = add i32 %[[RD]], %[[TD]]
; CHECK-NEXT: store i32 %[[AD]], ptr %[[REGD]]
; CHECK: [[LMEAS]]:
; CHECK-NEXT: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 4, i32 1, i32 1, i32 %{{[0-9]+}}, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %[[REGD]],

; OFF-NOT: fullrepeat
; OFF-NOT: repeat16

; ModuleID = 'repeatrows.cu'
source_filename = "repeatrows.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z6rowrepPfPKfii(ptr noundef captures(none) %0, ptr noundef readonly captures(none) %1, i32 noundef %2, i32 noundef %3) local_unnamed_addr #0 !dbg !15 {
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !dbg !18
  %6 = shl nuw nsw i32 %5, 4, !dbg !22
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !23
  %8 = add nuw nsw i32 %6, %7, !dbg !26
  %9 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !27
  %10 = shl i32 %9, 4, !dbg !30
  %11 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !31
  %12 = add i32 %10, %11, !dbg !34
  %13 = mul nsw i32 %3, %2, !dbg !35
  %14 = add nsw i32 %13, %12, !dbg !36
  %15 = sext i32 %14 to i64, !dbg !37
  %16 = getelementptr inbounds float, ptr %1, i64 %15, !dbg !37
  %17 = load float, ptr %16, align 4, !dbg !37, !tbaa !38
  %18 = mul nsw i32 %2, %8, !dbg !40
  %19 = add nsw i32 %18, %12, !dbg !41
  %20 = sext i32 %19 to i64, !dbg !42
  %21 = getelementptr inbounds float, ptr %0, i64 %20, !dbg !42
  %22 = load float, ptr %21, align 4, !dbg !43, !tbaa !38
  %23 = fsub contract float %22, %17, !dbg !43
  store float %23, ptr %21, align 4, !dbg !43, !tbaa !38
  ret void, !dbg !44
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z4widePKfPfi(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1, i32 noundef %2) local_unnamed_addr #0 !dbg !45 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !46
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !48
  %6 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !dbg !50
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !52
  %8 = shl i32 %4, 5, !dbg !54
  %9 = shl nuw nsw i32 %5, 1, !dbg !54
  %10 = add i32 %8, %9, !dbg !54
  %11 = add nsw i32 %10, %2, !dbg !55
  %12 = sext i32 %11 to i64, !dbg !56
  %13 = getelementptr inbounds float, ptr %0, i64 %12, !dbg !56
  %14 = load float, ptr %13, align 4, !dbg !56, !tbaa !38
  %15 = shl nuw nsw i32 %6, 8, !dbg !57
  %16 = shl nuw nsw i32 %7, 4, !dbg !57
  %17 = add nuw nsw i32 %16, %5, !dbg !57
  %18 = add nuw nsw i32 %17, %15, !dbg !58
  %19 = zext nneg i32 %18 to i64, !dbg !59
  %20 = getelementptr inbounds nuw float, ptr %1, i64 %19, !dbg !59
  store float %14, ptr %20, align 4, !dbg !60, !tbaa !38
  ret void, !dbg !61
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z7in_loopPKfPfii(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1, i32 noundef %2, i32 noundef %3) local_unnamed_addr #1 !dbg !62 {
  %5 = icmp sgt i32 %3, 0, !dbg !63
  %6 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br i1 %5, label %7, label %20, !dbg !64

7:                                                ; preds = %4, %16
  %8 = phi float [ %17, %16 ], [ 0.000000e+00, %4 ]
  %9 = phi i32 [ %18, %16 ], [ 0, %4 ]
  %10 = mul nsw i32 %9, %2, !dbg !65
  %11 = add i32 %10, %6, !dbg !66
  %12 = zext i32 %11 to i64, !dbg !67
  %13 = getelementptr inbounds nuw float, ptr %0, i64 %12, !dbg !67
  %14 = load float, ptr %13, align 4, !dbg !67, !tbaa !38
  %15 = fcmp contract uge float %14, 0.000000e+00, !dbg !68
  br i1 %15, label %16, label %20

16:                                               ; preds = %7
  %17 = fadd contract float %8, %14, !dbg !68
  %18 = add nuw nsw i32 %9, 1, !dbg !69
  %19 = icmp eq i32 %18, %3, !dbg !63
  br i1 %19, label %20, label %7, !dbg !64, !llvm.loop !70

20:                                               ; preds = %7, %16, %4
  %21 = phi float [ 0.000000e+00, %4 ], [ %8, %7 ], [ %17, %16 ], !dbg !74
  %22 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !75
  %23 = shl nuw nsw i32 %22, 4, !dbg !77
  %24 = add nuw nsw i32 %23, %6, !dbg !78
  %25 = zext nneg i32 %24 to i64, !dbg !79
  %26 = getelementptr inbounds nuw float, ptr %1, i64 %25, !dbg !79
  store float %21, ptr %26, align 4, !dbg !80, !tbaa !38
  ret void, !dbg !81
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

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
!7 = !DIFile(filename: "repeatrows.cu", directory: "/tmp/divbfs/t")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "rowrep", scope: !7, file: !7, line: 1, type: !16, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DISubroutineType(types: !17)
!17 = !{}
!18 = !DILocation(line: 67, column: 27, scope: !19, inlinedAt: !21)
!19 = distinct !DISubprogram(name: "__fetch_builtin_y", scope: !20, file: !20, line: 67, type: !16, scopeLine: 67, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!20 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!21 = distinct !DILocation(line: 2, column: 11, scope: !15)
!22 = !DILocation(line: 2, column: 22, scope: !15)
!23 = !DILocation(line: 54, column: 27, scope: !24, inlinedAt: !25)
!24 = distinct !DISubprogram(name: "__fetch_builtin_y", scope: !20, file: !20, line: 54, type: !16, scopeLine: 54, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!25 = distinct !DILocation(line: 2, column: 29, scope: !15)
!26 = !DILocation(line: 2, column: 27, scope: !15)
!27 = !DILocation(line: 66, column: 27, scope: !28, inlinedAt: !29)
!28 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 66, type: !16, scopeLine: 66, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!29 = distinct !DILocation(line: 3, column: 11, scope: !15)
!30 = !DILocation(line: 3, column: 22, scope: !15)
!31 = !DILocation(line: 53, column: 27, scope: !32, inlinedAt: !33)
!32 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 53, type: !16, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!33 = distinct !DILocation(line: 3, column: 29, scope: !15)
!34 = !DILocation(line: 3, column: 27, scope: !15)
!35 = !DILocation(line: 4, column: 23, scope: !15)
!36 = !DILocation(line: 4, column: 27, scope: !15)
!37 = !DILocation(line: 4, column: 19, scope: !15)
!38 = !{!39, !39, i64 0}
!39 = !{!"float", !12, i64 0}
!40 = !DILocation(line: 4, column: 7, scope: !15)
!41 = !DILocation(line: 4, column: 11, scope: !15)
!42 = !DILocation(line: 4, column: 3, scope: !15)
!43 = !DILocation(line: 4, column: 16, scope: !15)
!44 = !DILocation(line: 5, column: 1, scope: !15)
!45 = distinct !DISubprogram(name: "wide", scope: !7, file: !7, line: 6, type: !16, scopeLine: 6, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!46 = !DILocation(line: 66, column: 27, scope: !28, inlinedAt: !47)
!47 = distinct !DILocation(line: 7, column: 11, scope: !45)
!48 = !DILocation(line: 53, column: 27, scope: !32, inlinedAt: !49)
!49 = distinct !DILocation(line: 7, column: 29, scope: !45)
!50 = !DILocation(line: 67, column: 27, scope: !19, inlinedAt: !51)
!51 = distinct !DILocation(line: 8, column: 11, scope: !45)
!52 = !DILocation(line: 54, column: 27, scope: !24, inlinedAt: !53)
!53 = distinct !DILocation(line: 8, column: 29, scope: !45)
!54 = !DILocation(line: 9, column: 39, scope: !45)
!55 = !DILocation(line: 9, column: 35, scope: !45)
!56 = !DILocation(line: 9, column: 31, scope: !45)
!57 = !DILocation(line: 9, column: 9, scope: !45)
!58 = !DILocation(line: 9, column: 14, scope: !45)
!59 = !DILocation(line: 9, column: 3, scope: !45)
!60 = !DILocation(line: 9, column: 29, scope: !45)
!61 = !DILocation(line: 10, column: 1, scope: !45)
!62 = distinct !DISubprogram(name: "in_loop", scope: !7, file: !7, line: 11, type: !16, scopeLine: 11, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!63 = !DILocation(line: 14, column: 21, scope: !62)
!64 = !DILocation(line: 14, column: 3, scope: !62)
!65 = !DILocation(line: 16, column: 19, scope: !62)
!66 = !DILocation(line: 16, column: 23, scope: !62)
!67 = !DILocation(line: 16, column: 15, scope: !62)
!68 = !DILocation(line: 17, column: 11, scope: !62)
!69 = !DILocation(line: 14, column: 26, scope: !62)
!70 = distinct !{!70, !64, !71, !72, !73}
!71 = !DILocation(line: 20, column: 3, scope: !62)
!72 = !{!"llvm.loop.mustprogress"}
!73 = !{!"llvm.loop.unroll.disable"}
!74 = !DILocation(line: 12, column: 9, scope: !62)
!75 = !DILocation(line: 54, column: 27, scope: !24, inlinedAt: !76)
!76 = distinct !DILocation(line: 21, column: 7, scope: !62)
!77 = !DILocation(line: 21, column: 19, scope: !62)
!78 = !DILocation(line: 21, column: 24, scope: !62)
!79 = !DILocation(line: 21, column: 3, scope: !62)
!80 = !DILocation(line: 21, column: 39, scope: !62)
!81 = !DILocation(line: 22, column: 1, scope: !62)
