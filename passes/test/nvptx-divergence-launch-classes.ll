; Launch-derived figures (DivergenceMeasures.cpp, planLaunchFigures;
; DivergencePlan::LaunchClass). In a full warp of 16-wide rows stacked in
; y, a group of addRepeatRows or addApartRows adds from lane 0 constants
; beyond the derived figures (pasta_div_repeat_rows, pasta_div_apart_rows)
; and `past` sectors more where lane 0's offset in its sector is at least
; `from`. Where its block's warps are the launch's less a derived body's
; no-lane executions, the copy's entry tells whether the launch is of a
; class (stacked width 16 and every known gap apart: then a group's full
; warps are exactly its warps that are full) and which (bit k: the grid's
; first thread's address of the k-th such group at least `from` into its
; sector); the grid's first thread adds the launch's warps to that class's
; counter (__pasta_div_count_launch_warps, block 0 alone computing the
; class), the lane that added a no-lane execution of the branch adds it to
; the class's too, and read-back derives each group's figures times their
; difference; the other warps subtract them; a full warp adds nothing where
; every warp's lane 0 is at the grid's first thread's offset mod 32 (the
; address's block-index terms multiples of 32, a y term the class's tested
; gap), else the sectors its own offset gives beyond the class's. By hand,
; gaussian's fan2 (16 x 16 blocks):
;   m[i * n + t]: stride 0, rows 4n bytes apart (tested at the entry: a
;     multiple of 32, at least 32): +4 distinct bytes, +1 sector;
;   a[t * n + j]: the same 16 floats in both rows: -64 distinct bytes, -2
;     ideal sectors, -2 sectors and 1 more from offset 1 (class bit 0);
;   a[i * n + j] (its load and store, one group of two accesses): rows 4n
;     bytes apart (at least 96): 2 sectors more from offset 1 in each row,
;     2 x 2 = 4 a warp (class bit 1).
; flat: r[n + j] in the entry block (no derived body): its warps are the
; launch's, classes without a no-lane counter. With
; -pasta-div-launch-classes=0 (the second run) none of it.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-launch-classes -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-launch-classes=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-launch-classes -pasta-div-stats -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATS
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-launch-classes=0 -pasta-div-stats -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATSOFF
; STATS: whose full warps' figures read-back derives per launch class: 4;
; STATSOFF: whose full warps' figures read-back derives per launch class: 0;
; The IR is clang's -O2 output (-gline-tables-only) for
;   __global__ void fan2(float *a, float *b, const float *m, int n, int t) {
;     int i = t + 1 + blockIdx.y * 16 + threadIdx.y;
;     int j = t + blockIdx.x * 16 + threadIdx.x;
;     if (i < n && j < n) {
;       float mul = m[i * n + t];
;       a[i * n + j] -= mul * a[t * n + j];
;     }
;   }
;   __global__ void flat(float *out, const float *r, int n) {
;     int j = blockIdx.x * 16 + threadIdx.x;
;     out[(blockIdx.y * 16 + threadIdx.y) * 16 + threadIdx.x] = r[n + j];
;   }

; The derived rows (counter, source, coefficient), per class k = 0..3 of
; the launch warps E (then of the no-lane executions N, negated): m's
; distinct bytes 4 E0 - 4 N0 ..., a[t * n +
; j]'s sectors -2 in classes 0 and 2, -1 in 1 and 3 (bit 0), a[i * n +
; j]'s 4 in classes 2 and 3 (bit 1).
; CHECK: @__pasta_derived_{{[0-9a-f]+}} = {{.*}} i32 [[MD:[0-9]+]], i32 [[E0:[0-9]+]], i32 4, i32 [[MD]], i32 [[N0:[0-9]+]], i32 -4, i32 [[MD]], i32 [[E1:[0-9]+]], i32 4, i32 [[MD]], i32 [[N1:[0-9]+]], i32 -4, i32 [[MD]], i32 {{[0-9]+}}, i32 4, i32 [[MD]], i32 {{[0-9]+}}, i32 -4, i32 [[MD]], i32 {{[0-9]+}}, i32 4, i32 [[MD]], i32 {{[0-9]+}}, i32 -4,
; CHECK-SAME: i32 [[AS:[0-9]+]], i32 [[E0]], i32 -2, i32 [[AS]], i32 [[N0]], i32 2, i32 [[AS]], i32 [[E1]], i32 -1, i32 [[AS]], i32 [[N1]], i32 1, i32 [[AS]], i32 [[E2:[0-9]+]], i32 -2, i32 [[AS]], i32 [[N2:[0-9]+]], i32 2, i32 [[AS]], i32 [[E3:[0-9]+]], i32 -1, i32 [[AS]], i32 [[N3:[0-9]+]], i32 1,
; CHECK-SAME: i32 [[AS]], i32 [[E2]], i32 4, i32 [[AS]], i32 [[N2]], i32 -4, i32 [[AS]], i32 [[E3]], i32 4, i32 [[AS]], i32 [[N3]], i32 -4,
; flat's: -64 distinct bytes in each class, no N.
; CHECK-SAME: i32 [[FD:[0-9]+]], i32 [[F0:[0-9]+]], i32 -64, i32 [[FD]], i32 {{[0-9]+}}, i32 -64, i32 [[FD]], i32 {{[0-9]+}}, i32 -64, i32 [[FD]], i32 {{[0-9]+}}, i32 -64,

; CHECK-LABEL: define {{.*}} @_Z4fan2PfS_PKfii__pasta_div(
; CHECK: pasta.div.body16:
; CHECK: %[[IN:pasta.div.launch.class.in[.a-z0-9]*]] = and i1
; At the branch: block 0 of a launch of a class adds its warps to the
; class's counter (the class computed there), and the lane that added to
; None adds to the class's.
; CHECK: %[[NONE:[0-9]+]] = getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 {{[0-9]+}}
; CHECK: %[[B0:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK-NEXT: %[[IS0:[0-9]+]] = icmp eq i32 %[[B0]], 0
; CHECK-NEXT: %[[FT:[0-9]+]] = and i1 %[[IN]], %[[IS0]]
; CHECK-NEXT: br i1 %[[FT]], label %[[LAUNCH:[0-9]+]], label %[[BRANCH:[0-9]+]]
; CHECK: [[LAUNCH]]:
; CHECK-NEXT: %[[E:[0-9]+]] = getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 [[E0]]
; CHECK: %[[K:[0-9]+]] = or i32 %{{[0-9]+}}, %{{[0-9]+}}
; CHECK-NEXT: %[[EK:[0-9]+]] = getelementptr i64, ptr addrspace(1) %[[E]], i32 %[[K]]
; CHECK-NEXT: call void @__pasta_div_count_launch_warps(i32 1, ptr addrspace(1) %[[EK]])
; CHECK: [[BRANCH]]:
; CHECK-NEXT: %[[ADDED:[0-9]+]] = call i32 @__pasta_div_branch_none_add(i32 %{{[0-9]+}}, ptr addrspace(1) %{{[0-9]+}}, ptr addrspace(1) %[[NONE]],
; CHECK-NEXT: %[[ADDED1:[0-9]+]] = icmp ne i32 %[[ADDED]], 0
; CHECK-NEXT: %[[NT:[0-9]+]] = and i1 %[[IN]], %[[ADDED1]]
; CHECK-NEXT: br i1 %[[NT]], label %[[NCLASS:[0-9]+]],
; CHECK: [[NCLASS]]:
; CHECK-NEXT: %[[NB:[0-9]+]] = getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 [[N0]]
; CHECK: %[[NK:[0-9]+]] = or i32 %{{[0-9]+}}, %{{[0-9]+}}
; CHECK-NEXT: %[[NKP:[0-9]+]] = getelementptr i64, ptr addrspace(1) %[[NB]], i32 %[[NK]]
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %[[NKP]], i64 1)
; m's full warps: nothing in a launch of a class; the others subtract.
; CHECK: br i1 %pasta.div.apartrows{{[.a-z0-9]*}}, label %[[MFULL:[0-9]+]], label %[[MOTHER:[0-9]+]]
; CHECK: [[MFULL]]:
; CHECK-NEXT: br i1 %[[IN]], label %[[MIN:[0-9]+]], label %[[MOUT:[0-9]+]]
; CHECK: [[MIN]]:
; CHECK-NEXT: br label
; CHECK: [[MOUT]]:
; CHECK: select i1 %{{[0-9]+}}, i64 4, i64 0
; CHECK: [[MOTHER]]:
; CHECK-NEXT: %[[ACT:[0-9]+]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT: %[[LT:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
; CHECK-NEXT: %[[BELOW:[0-9]+]] = and i32 %[[ACT]], %[[LT]]
; CHECK-NEXT: %[[FIRST:[0-9]+]] = icmp eq i32 %[[BELOW]], 0
; CHECK-NEXT: %[[SUB:[0-9]+]] = and i1 %[[IN]], %[[FIRST]]
; CHECK-NEXT: br i1 %[[SUB]], label %[[MSUB:[0-9]+]],
; CHECK: [[MSUB]]:
; CHECK-NEXT: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 [[MD]]
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %{{[0-9]+}}, i64 -4)
; CHECK-NEXT: getelementptr
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %{{[0-9]+}}, i64 -1)
; a[t * n + j]'s full warps: nothing either, every warp's lane 0 being at
; the grid's first thread's offset (t (n + 1) + 16 bx floats: 64 bx bytes).
; CHECK: br i1 %pasta.div.fullrepeat{{[.a-z0-9]*}}, label %[[AFULL:[0-9]+]], label %[[AOTHER:[0-9]+]]
; CHECK: [[AFULL]]:
; CHECK-NEXT: ptrtoint ptr
; CHECK-NEXT: br i1 %[[IN]], label %[[AIN:[0-9]+]], label
; CHECK: [[AIN]]:
; CHECK-NEXT: br label
; CHECK: [[AOTHER]]:
; CHECK: br i1 %{{[0-9]+}}, label %[[ASUB:[0-9]+]],
; CHECK: [[ASUB]]:
; CHECK: and i32 %{{[0-9]+}}, 1
; CHECK-NEXT: getelementptr
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %{{[0-9]+}}, i64 64)
; CHECK: call void @__pasta_div_add(ptr addrspace(1) %{{[0-9]+}}, i64 2)
; CHECK: call i32 @__pasta_div_access_rows16(
; In the body for rows of 32 the stacked width is 32: no launch there is of
; a class, and nothing of it is left.
; CHECK: pasta.div.body32:
; CHECK-NOT: call void @__pasta_div_count_launch_warps(
; CHECK-LABEL: define {{.*}} @_Z4flatPfPKfi__pasta_div(
; CHECK: call void @__pasta_div_count_launch_warps(i32 1,

; OFF-NOT: call void @__pasta_div_count_launch_warps(
; OFF-NOT: pasta.div.launch.class

; ModuleID = 'launchcls.cu'
source_filename = "launchcls.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z4fan2PfS_PKfii(ptr noundef captures(none) %0, ptr noundef readnone captures(none) %1, ptr noundef readonly captures(none) %2, i32 noundef %3, i32 noundef %4) local_unnamed_addr #0 !dbg !15 {
  %6 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !dbg !18
  %7 = shl nuw nsw i32 %6, 4, !dbg !22
  %8 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !23
  %9 = add nuw nsw i32 %8, 1, !dbg !26
  %10 = add nuw nsw i32 %9, %7, !dbg !27
  %11 = add i32 %10, %4, !dbg !28
  %12 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !29
  %13 = shl i32 %12, 4, !dbg !32
  %14 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !33
  %15 = add i32 %13, %14, !dbg !36
  %16 = add i32 %15, %4, !dbg !37
  %17 = icmp slt i32 %11, %3, !dbg !38
  %18 = icmp slt i32 %16, %3
  %19 = and i1 %18, %17, !dbg !39
  br i1 %19, label %20, label %37, !dbg !39

20:                                               ; preds = %5
  %21 = mul nsw i32 %11, %3, !dbg !40
  %22 = add nsw i32 %21, %4, !dbg !41
  %23 = sext i32 %22 to i64, !dbg !42
  %24 = getelementptr inbounds float, ptr %2, i64 %23, !dbg !42
  %25 = load float, ptr %24, align 4, !dbg !42, !tbaa !43
  %26 = mul nsw i32 %4, %3, !dbg !45
  %27 = add nsw i32 %16, %26, !dbg !46
  %28 = sext i32 %27 to i64, !dbg !47
  %29 = getelementptr inbounds float, ptr %0, i64 %28, !dbg !47
  %30 = load float, ptr %29, align 4, !dbg !47, !tbaa !43
  %31 = fmul contract float %25, %30, !dbg !48
  %32 = add nsw i32 %21, %16, !dbg !49
  %33 = sext i32 %32 to i64, !dbg !50
  %34 = getelementptr inbounds float, ptr %0, i64 %33, !dbg !50
  %35 = load float, ptr %34, align 4, !dbg !51, !tbaa !43
  %36 = fsub contract float %35, %31, !dbg !51
  store float %36, ptr %34, align 4, !dbg !51, !tbaa !43
  br label %37, !dbg !52

37:                                               ; preds = %20, %5
  ret void, !dbg !53
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z4flatPfPKfi(ptr noundef writeonly captures(none) %0, ptr noundef readonly captures(none) %1, i32 noundef %2) local_unnamed_addr #0 !dbg !54 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !55
  %5 = shl i32 %4, 4, !dbg !57
  %6 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !58
  %7 = add i32 %5, %6, !dbg !60
  %8 = add nsw i32 %7, %2, !dbg !61
  %9 = sext i32 %8 to i64, !dbg !62
  %10 = getelementptr inbounds float, ptr %1, i64 %9, !dbg !62
  %11 = load float, ptr %10, align 4, !dbg !62, !tbaa !43
  %12 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !dbg !63
  %13 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !65
  %14 = shl nuw nsw i32 %12, 8, !dbg !67
  %15 = shl nuw nsw i32 %13, 4, !dbg !67
  %16 = add nuw nsw i32 %15, %6, !dbg !67
  %17 = add nuw nsw i32 %16, %14, !dbg !68
  %18 = zext nneg i32 %17 to i64, !dbg !69
  %19 = getelementptr inbounds nuw float, ptr %0, i64 %18, !dbg !69
  store float %11, ptr %19, align 4, !dbg !70, !tbaa !43
  ret void, !dbg !71
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

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
!7 = !DIFile(filename: "launchcls.cu", directory: "/tmp/dg/lit")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "fan2", scope: !7, file: !7, line: 1, type: !16, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DISubroutineType(types: !17)
!17 = !{}
!18 = !DILocation(line: 67, column: 27, scope: !19, inlinedAt: !21)
!19 = distinct !DISubprogram(name: "__fetch_builtin_y", scope: !20, file: !20, line: 67, type: !16, scopeLine: 67, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!20 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!21 = distinct !DILocation(line: 2, column: 19, scope: !15)
!22 = !DILocation(line: 2, column: 30, scope: !15)
!23 = !DILocation(line: 54, column: 27, scope: !24, inlinedAt: !25)
!24 = distinct !DISubprogram(name: "__fetch_builtin_y", scope: !20, file: !20, line: 54, type: !16, scopeLine: 54, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!25 = distinct !DILocation(line: 2, column: 37, scope: !15)
!26 = !DILocation(line: 2, column: 13, scope: !15)
!27 = !DILocation(line: 2, column: 17, scope: !15)
!28 = !DILocation(line: 2, column: 35, scope: !15)
!29 = !DILocation(line: 66, column: 27, scope: !30, inlinedAt: !31)
!30 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 66, type: !16, scopeLine: 66, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!31 = distinct !DILocation(line: 3, column: 15, scope: !15)
!32 = !DILocation(line: 3, column: 26, scope: !15)
!33 = !DILocation(line: 53, column: 27, scope: !34, inlinedAt: !35)
!34 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 53, type: !16, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!35 = distinct !DILocation(line: 3, column: 33, scope: !15)
!36 = !DILocation(line: 3, column: 13, scope: !15)
!37 = !DILocation(line: 3, column: 31, scope: !15)
!38 = !DILocation(line: 4, column: 9, scope: !15)
!39 = !DILocation(line: 4, column: 13, scope: !15)
!40 = !DILocation(line: 5, column: 21, scope: !15)
!41 = !DILocation(line: 5, column: 25, scope: !15)
!42 = !DILocation(line: 5, column: 17, scope: !15)
!43 = !{!44, !44, i64 0}
!44 = !{!"float", !12, i64 0}
!45 = !DILocation(line: 6, column: 31, scope: !15)
!46 = !DILocation(line: 6, column: 35, scope: !15)
!47 = !DILocation(line: 6, column: 27, scope: !15)
!48 = !DILocation(line: 6, column: 25, scope: !15)
!49 = !DILocation(line: 6, column: 13, scope: !15)
!50 = !DILocation(line: 6, column: 5, scope: !15)
!51 = !DILocation(line: 6, column: 18, scope: !15)
!52 = !DILocation(line: 7, column: 3, scope: !15)
!53 = !DILocation(line: 8, column: 1, scope: !15)
!54 = distinct !DISubprogram(name: "flat", scope: !7, file: !7, line: 9, type: !16, scopeLine: 9, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!55 = !DILocation(line: 66, column: 27, scope: !30, inlinedAt: !56)
!56 = distinct !DILocation(line: 10, column: 11, scope: !54)
!57 = !DILocation(line: 10, column: 22, scope: !54)
!58 = !DILocation(line: 53, column: 27, scope: !34, inlinedAt: !59)
!59 = distinct !DILocation(line: 10, column: 29, scope: !54)
!60 = !DILocation(line: 10, column: 27, scope: !54)
!61 = !DILocation(line: 11, column: 65, scope: !54)
!62 = !DILocation(line: 11, column: 61, scope: !54)
!63 = !DILocation(line: 67, column: 27, scope: !19, inlinedAt: !64)
!64 = distinct !DILocation(line: 11, column: 8, scope: !54)
!65 = !DILocation(line: 54, column: 27, scope: !24, inlinedAt: !66)
!66 = distinct !DILocation(line: 11, column: 26, scope: !54)
!67 = !DILocation(line: 11, column: 39, scope: !54)
!68 = !DILocation(line: 11, column: 44, scope: !54)
!69 = !DILocation(line: 11, column: 3, scope: !54)
!70 = !DILocation(line: 11, column: 59, scope: !54)
!71 = !DILocation(line: 12, column: 1, scope: !54)
