; Accesses of one block whose addresses differ only in their base, two
; arguments of the function, with the same index values (srad's J[idx],
; dN[idx], ..., c[idx]): a later one is the earlier one's twin
; (AccessGroup::Twins). Where the two bases are a multiple of the figure
; granule apart (32 bytes for global accesses), every lane's two addresses
; are, so the twin's figures are its leader's: the leader's measurement adds
; them to the twin's row too (times the accesses, here 3 on one line) and
; the twin measures itself only where the test fails. In a kernel's copy
; the tests are made once at the entry (addTwinsApart): where they hold the
; copy runs with them true (no twin measured at all: no register for it
; either), else the copy as it was (the tests false), `<copy>_twins_apart`,
; called (-pasta-div-twins-inline: inlined), where it has at least
; -pasta-div-twins-min twins (2; fewer: measured as without); a copy with a
; body for rows of 32 keeps its twins measured (stream; with
; -pasta-div-rows32=0 one row_sectors and one access_lanes call measure its
; three accesses); tile: a 2-D kernel with a general access (b[min(x + 1, n - 1)])
; that is no twin; other_index: another index and another size, no test;
; copy_at, a device function, whose arguments may differ per lane: none.
; -pasta-div-twin-bases=0 measures every group. The IR is clang's -O2
; output (-gline-tables-only) for
;   __global__ void stream(const float *a, const float *b, float *c, int n) {
;     int i = blockIdx.x * blockDim.x + threadIdx.x;
;     if (i < n) c[i] = a[i] + b[i];
;   }
;   __global__ void tile(const float *a, const float *b, float *c, int n) {
;     int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
;     int i = y * n + x;
;     c[i] = a[i] * b[y * n + min(x + 1, n - 1)] + b[i];
;   }
;   __global__ void other_index(const float *a, const double *d, float *c) {
;     int i = blockIdx.x * blockDim.x + threadIdx.x;
;     c[i + 1] = a[i] + (float)d[i];
;   }
;   __device__ __noinline__ void copy_at(const float *a, float *c, int i) {
;     c[i] = a[i];
;   }
;   __global__ void calls(const float *a, float *c) {
;     copy_at(a, c, blockIdx.x * blockDim.x + threadIdx.x);
;   }
; (-pasta-div-clamps=0: srad's clamped neighbours on the general helper, as
; this test was written; nvptx-divergence-clamp-apart.ll has them clamped.)
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-clamps=0 -pasta-callee-counts=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-clamps=0 -pasta-callee-counts=0 -pasta-div-rows32=0 -S %s | FileCheck %s --check-prefix=NOBODY
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-clamps=0 -pasta-callee-counts=0 -pasta-div-twins-inline -S %s | FileCheck %s --check-prefix=INLINE
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-clamps=0 -pasta-callee-counts=0 -pasta-div-twins-min=3 -S %s | FileCheck %s --check-prefix=MIN3
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-clamps=0 -pasta-callee-counts=0 -pasta-div-twin-bases=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-clamps=0 -pasta-callee-counts=0 -pasta-div-stats -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATS

; A copy with a body for rows of 32: each twin measures itself, as
; without twins (its PTX is the same).
; CHECK-LABEL: define {{.*}} @_Z6streamPKfS0_Pfi__pasta_div(
; CHECK-NOT: {{twins\.|twins_apart}}
; CHECK: call i32 @__pasta_div_row_sectors(
; CHECK: call i32 @__pasta_div_row_sectors(
; CHECK: call i32 @__pasta_div_row_sectors(
; CHECK-NOT: {{twins\.|twins_apart}}

; CHECK-LABEL: define {{.*}} @_Z4tilePKfS0_Pfi__pasta_div(
; CHECK: br i1 %{{[0-9]+}}, label %pasta.div.twins.together, label %pasta.div.twins.apart
; CHECK: call void @_Z4tilePKfS0_Pfi__pasta_div_twins_apart(ptr %0, ptr %1, ptr %2, i32 %3)
; CHECK-NOT: twins.ok
; CHECK: call i32 @__pasta_div_access_lanes(
; CHECK-NOT: call i32 @__pasta_div_access_lanes(
; CHECK: call i32 @__pasta_div_access(ptr %{{[0-9]+}}, i32 4, i32 17,
; CHECK-NOT: call i32 @__pasta_div_access
; CHECK: ret void
; CHECK-NEXT: }

; CHECK-LABEL: define {{.*}} @_Z11other_indexPKfPKdPf__pasta_div(
; CHECK-NOT: twins
; CHECK: call i32 @__pasta_div_row_width()
; CHECK-NOT: twins

; A device function's arguments may differ per lane: no twins.
; CHECK-LABEL: define internal void @_Z7copy_atPKfPfi__pasta_div(
; CHECK-NOT: twins
; CHECK: call i32 @__pasta_div_access(
; CHECK-NOT: twins
; CHECK: call i32 @__pasta_div_access(
; CHECK-NOT: twins
; CHECK: ret void

; CHECK-LABEL: define internal void @_Z6streamPKfS0_Pfi__pasta_div_general(
; CHECK-NOT: {{twins\.|twins_apart}}
; CHECK: call i32 @__pasta_div_access_lanes(
; CHECK: call i32 @__pasta_div_access_lanes(
; CHECK: call i32 @__pasta_div_access_lanes(
; CHECK-NOT: {{twins\.|twins_apart}}

; The copy as it was (where a test fails): each twin measures itself.
; CHECK-LABEL: define internal void @_Z4tilePKfS0_Pfi__pasta_div_twins_apart(
; CHECK-NOT: twins.ok
; CHECK: call i32 @__pasta_div_access_lanes(
; CHECK: call i32 @__pasta_div_access(
; CHECK: call i32 @__pasta_div_access_lanes(
; CHECK: call i32 @__pasta_div_access_lanes(
; CHECK-NOT: twins.ok
; CHECK: ret void

; With -pasta-div-twins-inline that function is in the kernel.
; INLINE-LABEL: define {{.*}} @_Z4tilePKfS0_Pfi__pasta_div(
; INLINE: br i1 %{{[0-9]+}}, label %pasta.div.twins.together, label %pasta.div.twins.apart
; INLINE: pasta.div.twins.apart:
; INLINE-NOT: call void @_Z4tilePKfS0_Pfi__pasta_div_twins_apart(
; INLINE: call i32 @__pasta_div_access_lanes(
; INLINE-NOT: define internal void @_Z4tilePKfS0_Pfi__pasta_div_twins_apart(

; Fewer twins than -pasta-div-twins-min (default 2): measured as without.
; MIN3-LABEL: define {{.*}} @_Z4tilePKfS0_Pfi__pasta_div(
; MIN3-NOT: {{twins\.|twins_apart}}
; MIN3: call i32 @__pasta_div_access_lanes(
; MIN3: call i32 @__pasta_div_access(
; MIN3: call i32 @__pasta_div_access_lanes(
; MIN3: call i32 @__pasta_div_access_lanes(
; MIN3-NOT: {{twins\.|twins_apart}}

; OFF-LABEL: define {{.*}} @_Z6streamPKfS0_Pfi__pasta_div(
; OFF-NOT: {{twins\.|twins_apart}}
; OFF: call i32 @__pasta_div_row_sectors(
; OFF: call i32 @__pasta_div_row_sectors(
; OFF: call i32 @__pasta_div_row_sectors(
; OFF: ret void
; OFF-NEXT: }
; OFF-NOT: {{twins\.|twins_apart}}

; Without that body, the entry test.
; NOBODY-LABEL: define {{.*}} @_Z6streamPKfS0_Pfi__pasta_div(
; NOBODY: %[[B:[0-9]+]] = ptrtoint ptr %1 to i64
; NOBODY-NEXT: %[[A:[0-9]+]] = ptrtoint ptr %0 to i64
; NOBODY-NEXT: %[[BA:[0-9]+]] = sub i64 %[[B]], %[[A]]
; NOBODY-NEXT: %[[C:[0-9]+]] = ptrtoint ptr %2 to i64
; NOBODY-NEXT: %[[A2:[0-9]+]] = ptrtoint ptr %0 to i64
; NOBODY-NEXT: %[[CA:[0-9]+]] = sub i64 %[[C]], %[[A2]]
; NOBODY-NEXT: %[[OR:[0-9]+]] = or i64 %[[BA]], %[[CA]]
; NOBODY-NEXT: %[[LOW:[0-9]+]] = and i64 %[[OR]], 31
; NOBODY-NEXT: %[[OK:[0-9]+]] = icmp eq i64 %[[LOW]], 0
; NOBODY-NEXT: br i1 %[[OK]], label %pasta.div.twins.together, label %pasta.div.twins.apart
; NOBODY: pasta.div.twins.apart:
; NOBODY-NEXT: call void @_Z6streamPKfS0_Pfi__pasta_div_twins_apart(ptr %0, ptr %1, ptr %2, i32 %3)
; NOBODY-NEXT: ret void
; NOBODY-NOT: twins.ok
; NOBODY: %[[S:[0-9]+]] = call i32 @__pasta_div_row_sectors(ptr %{{[0-9]+}}, i32 4, i32 4)
; NOBODY-NEXT: %[[S64:[0-9]+]] = zext i32 %[[S]] to i64
; NOBODY-NEXT: %[[S3:[0-9]+]] = mul i64 %[[S64]], 3
; NOBODY-NEXT: getelementptr
; NOBODY-NEXT: call void @__pasta_div_add(ptr addrspace(1) %{{[0-9]+}}, i64 %[[S3]])
; NOBODY: call i32 @__pasta_div_access_lanes(
; NOBODY-NOT: call i32 @__pasta_div_row_sectors(
; NOBODY-NOT: call i32 @__pasta_div_access_lanes(
; NOBODY: ret void
; NOBODY-NEXT: }

; STATS: measured with a twin's base: 4;

; ModuleID = 'twins.cu'
source_filename = "twin_bases.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z6streamPKfS0_Pfi(ptr noundef readonly captures(none) %0, ptr noundef readonly captures(none) %1, ptr noundef writeonly captures(none) %2, i32 noundef %3) local_unnamed_addr #0 !dbg !15 {
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !18
  %6 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !22
  %7 = mul i32 %5, %6, !dbg !25
  %8 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !26
  %9 = add i32 %7, %8, !dbg !29
  %10 = icmp slt i32 %9, %3, !dbg !30
  br i1 %10, label %11, label %19, !dbg !30

11:                                               ; preds = %4
  %12 = sext i32 %9 to i64
  %13 = getelementptr inbounds float, ptr %2, i64 %12
  %14 = getelementptr inbounds float, ptr %1, i64 %12
  %15 = getelementptr inbounds float, ptr %0, i64 %12
  %16 = load float, ptr %15, align 4, !dbg !31, !tbaa !32
  %17 = load float, ptr %14, align 4, !dbg !34, !tbaa !32
  %18 = fadd contract float %16, %17, !dbg !35
  store float %18, ptr %13, align 4, !dbg !36, !tbaa !32
  br label %19, !dbg !37

19:                                               ; preds = %11, %4
  ret void, !dbg !38
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z4tilePKfS0_Pfi(ptr noundef readonly captures(none) %0, ptr noundef readonly captures(none) %1, ptr noundef writeonly captures(none) %2, i32 noundef %3) local_unnamed_addr #0 !dbg !39 {
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !40
  %6 = shl i32 %5, 4, !dbg !42
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !43
  %8 = add i32 %6, %7, !dbg !45
  %9 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !dbg !46
  %10 = shl nuw nsw i32 %9, 4, !dbg !49
  %11 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !50
  %12 = add nuw nsw i32 %10, %11, !dbg !53
  %13 = mul nsw i32 %3, %12, !dbg !54
  %14 = add nsw i32 %13, %8, !dbg !55
  %15 = sext i32 %14 to i64, !dbg !56
  %16 = getelementptr inbounds float, ptr %0, i64 %15, !dbg !56
  %17 = load float, ptr %16, align 4, !dbg !56, !tbaa !32
  %18 = add nsw i32 %8, 1, !dbg !57
  %19 = add nsw i32 %3, -1, !dbg !58
  %20 = tail call noundef range(i32 -2147483648, 2147483647) i32 @llvm.smin.i32(i32 range(i32 -2147483647, -2147483648) %18, i32 range(i32 -2147483648, 2147483647) %19), !dbg !59
  %21 = add nsw i32 %20, %13, !dbg !63
  %22 = sext i32 %21 to i64, !dbg !64
  %23 = getelementptr inbounds float, ptr %1, i64 %22, !dbg !64
  %24 = load float, ptr %23, align 4, !dbg !64, !tbaa !32
  %25 = fmul contract float %17, %24, !dbg !65
  %26 = getelementptr inbounds float, ptr %1, i64 %15, !dbg !66
  %27 = load float, ptr %26, align 4, !dbg !66, !tbaa !32
  %28 = fadd contract float %25, %27, !dbg !67
  %29 = getelementptr inbounds float, ptr %2, i64 %15, !dbg !68
  store float %28, ptr %29, align 4, !dbg !69, !tbaa !32
  ret void, !dbg !70
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z11other_indexPKfPKdPf(ptr noundef readonly captures(none) %0, ptr noundef readonly captures(none) %1, ptr noundef writeonly captures(none) %2) local_unnamed_addr #0 !dbg !71 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !72
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !74
  %6 = mul i32 %4, %5, !dbg !76
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !77
  %8 = add i32 %6, %7, !dbg !79
  %9 = sext i32 %8 to i64, !dbg !80
  %10 = getelementptr inbounds float, ptr %0, i64 %9, !dbg !80
  %11 = load float, ptr %10, align 4, !dbg !80, !tbaa !32
  %12 = getelementptr inbounds double, ptr %1, i64 %9, !dbg !81
  %13 = load double, ptr %12, align 8, !dbg !81, !tbaa !82
  %14 = fptrunc contract double %13 to float, !dbg !81
  %15 = fadd contract float %11, %14, !dbg !84
  %16 = getelementptr float, ptr %2, i64 %9, !dbg !85
  %17 = getelementptr i8, ptr %16, i64 4, !dbg !85
  store float %15, ptr %17, align 4, !dbg !86, !tbaa !32
  ret void, !dbg !87
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local void @_Z7copy_atPKfPfi(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1, i32 noundef %2) local_unnamed_addr #1 !dbg !88 {
  %4 = sext i32 %2 to i64, !dbg !89
  %5 = getelementptr inbounds float, ptr %0, i64 %4, !dbg !89
  %6 = load float, ptr %5, align 4, !dbg !89, !tbaa !32
  %7 = getelementptr inbounds float, ptr %1, i64 %4, !dbg !90
  store float %6, ptr %7, align 4, !dbg !91, !tbaa !32
  ret void, !dbg !92
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z5callsPKfPf(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1) local_unnamed_addr #0 !dbg !93 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !94
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !96
  %5 = mul i32 %3, %4, !dbg !98
  %6 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !99
  %7 = add i32 %5, %6, !dbg !101
  tail call void @_Z7copy_atPKfPfi(ptr noundef %0, ptr noundef %1, i32 noundef %7) #4, !dbg !102
  ret void, !dbg !103
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y() #2

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smin.i32(i32, i32) #3

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { nounwind }

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
!7 = !DIFile(filename: "twin_bases.cu", directory: "/work")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "stream", scope: !7, file: !7, line: 1, type: !16, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
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
!30 = !DILocation(line: 3, column: 9, scope: !15)
!31 = !DILocation(line: 3, column: 21, scope: !15)
!32 = !{!33, !33, i64 0}
!33 = !{!"float", !12, i64 0}
!34 = !DILocation(line: 3, column: 28, scope: !15)
!35 = !DILocation(line: 3, column: 26, scope: !15)
!36 = !DILocation(line: 3, column: 19, scope: !15)
!37 = !DILocation(line: 3, column: 14, scope: !15)
!38 = !DILocation(line: 4, column: 1, scope: !15)
!39 = distinct !DISubprogram(name: "tile", scope: !7, file: !7, line: 5, type: !16, scopeLine: 5, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!40 = !DILocation(line: 66, column: 27, scope: !19, inlinedAt: !41)
!41 = distinct !DILocation(line: 6, column: 11, scope: !39)
!42 = !DILocation(line: 6, column: 22, scope: !39)
!43 = !DILocation(line: 53, column: 27, scope: !27, inlinedAt: !44)
!44 = distinct !DILocation(line: 6, column: 29, scope: !39)
!45 = !DILocation(line: 6, column: 27, scope: !39)
!46 = !DILocation(line: 67, column: 27, scope: !47, inlinedAt: !48)
!47 = distinct !DISubprogram(name: "__fetch_builtin_y", scope: !20, file: !20, line: 67, type: !16, scopeLine: 67, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!48 = distinct !DILocation(line: 6, column: 46, scope: !39)
!49 = !DILocation(line: 6, column: 57, scope: !39)
!50 = !DILocation(line: 54, column: 27, scope: !51, inlinedAt: !52)
!51 = distinct !DISubprogram(name: "__fetch_builtin_y", scope: !20, file: !20, line: 54, type: !16, scopeLine: 54, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!52 = distinct !DILocation(line: 6, column: 64, scope: !39)
!53 = !DILocation(line: 6, column: 62, scope: !39)
!54 = !DILocation(line: 7, column: 13, scope: !39)
!55 = !DILocation(line: 7, column: 17, scope: !39)
!56 = !DILocation(line: 8, column: 10, scope: !39)
!57 = !DILocation(line: 8, column: 33, scope: !39)
!58 = !DILocation(line: 8, column: 40, scope: !39)
!59 = !DILocation(line: 201, column: 47, scope: !60, inlinedAt: !62)
!60 = distinct !DISubprogram(name: "min", scope: !61, file: !61, line: 201, type: !16, scopeLine: 201, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!61 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_math.h", directory: "")
!62 = distinct !DILocation(line: 8, column: 27, scope: !39)
!63 = !DILocation(line: 8, column: 25, scope: !39)
!64 = !DILocation(line: 8, column: 17, scope: !39)
!65 = !DILocation(line: 8, column: 15, scope: !39)
!66 = !DILocation(line: 8, column: 48, scope: !39)
!67 = !DILocation(line: 8, column: 46, scope: !39)
!68 = !DILocation(line: 8, column: 3, scope: !39)
!69 = !DILocation(line: 8, column: 8, scope: !39)
!70 = !DILocation(line: 9, column: 1, scope: !39)
!71 = distinct !DISubprogram(name: "other_index", scope: !7, file: !7, line: 10, type: !16, scopeLine: 10, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!72 = !DILocation(line: 66, column: 27, scope: !19, inlinedAt: !73)
!73 = distinct !DILocation(line: 11, column: 11, scope: !71)
!74 = !DILocation(line: 79, column: 27, scope: !23, inlinedAt: !75)
!75 = distinct !DILocation(line: 11, column: 24, scope: !71)
!76 = !DILocation(line: 11, column: 22, scope: !71)
!77 = !DILocation(line: 53, column: 27, scope: !27, inlinedAt: !78)
!78 = distinct !DILocation(line: 11, column: 37, scope: !71)
!79 = !DILocation(line: 11, column: 35, scope: !71)
!80 = !DILocation(line: 12, column: 14, scope: !71)
!81 = !DILocation(line: 12, column: 28, scope: !71)
!82 = !{!83, !83, i64 0}
!83 = !{!"double", !12, i64 0}
!84 = !DILocation(line: 12, column: 19, scope: !71)
!85 = !DILocation(line: 12, column: 3, scope: !71)
!86 = !DILocation(line: 12, column: 12, scope: !71)
!87 = !DILocation(line: 13, column: 1, scope: !71)
!88 = distinct !DISubprogram(name: "copy_at", scope: !7, file: !7, line: 14, type: !16, scopeLine: 14, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!89 = !DILocation(line: 14, column: 80, scope: !88)
!90 = !DILocation(line: 14, column: 73, scope: !88)
!91 = !DILocation(line: 14, column: 78, scope: !88)
!92 = !DILocation(line: 14, column: 86, scope: !88)
!93 = distinct !DISubprogram(name: "calls", scope: !7, file: !7, line: 15, type: !16, scopeLine: 15, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!94 = !DILocation(line: 66, column: 27, scope: !19, inlinedAt: !95)
!95 = distinct !DILocation(line: 16, column: 17, scope: !93)
!96 = !DILocation(line: 79, column: 27, scope: !23, inlinedAt: !97)
!97 = distinct !DILocation(line: 16, column: 30, scope: !93)
!98 = !DILocation(line: 16, column: 28, scope: !93)
!99 = !DILocation(line: 53, column: 27, scope: !27, inlinedAt: !100)
!100 = distinct !DILocation(line: 16, column: 43, scope: !93)
!101 = !DILocation(line: 16, column: 41, scope: !93)
!102 = !DILocation(line: 16, column: 3, scope: !93)
!103 = !DILocation(line: 17, column: 1, scope: !93)
