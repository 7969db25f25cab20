; A divergence copy whose every loop runs at most 2 trips a call (scalar
; evolution's constant bound: hotspot's halo loop, `k < 324` in steps of
; 256 from a thread index below 1024) gets the cap of a copy without loops,
; 48 registers, not the 64 of other copies with loops: what the cap spills
; costs about as in straight-line code, and 5 blocks of 256 threads fit an
; SM instead of 4 (hotspot: 2.50x plain at 48 against 2.69x at 64 on an
; H200). A loop to a bound from an argument keeps 64, and so does every
; loop with -pasta-div-few-trips-cap=0. The IR is clang's -O2 output of:
;   __global__ void halo(const float* in, float* out) {
;       for (int k = threadIdx.x; k < 324; k += 256) out[k] = in[k] * 2.0f; }
;   __global__ void many(const float* in, float* out, int n) {
;       for (int k = threadIdx.x; k < n; k += 256) out[k] = in[k] * 2.0f; }
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-few-trips-cap=0 -S %s | FileCheck %s --check-prefix=OFF

; CHECK: define {{.*}}ptx_kernel void @_Z4haloPKfPf__pasta_div({{.*}}) {{.*}}#[[FEW:[0-9]+]]
; CHECK: define {{.*}}ptx_kernel void @_Z4manyPKfPfi__pasta_div({{.*}}) {{.*}}#[[INDEX:[0-9]+]]
; CHECK-DAG: attributes #[[FEW]] = {{.*}}"nvvm.maxnreg"="48"
; CHECK-DAG: attributes #[[INDEX]] = {{.*}}"nvvm.maxnreg"="64"

; OFF: define {{.*}}ptx_kernel void @_Z4haloPKfPf__pasta_div({{.*}}) {{.*}}#[[A:[0-9]+]]
; OFF: define {{.*}}ptx_kernel void @_Z4manyPKfPfi__pasta_div({{.*}}) {{.*}}#[[A]]
; OFF: attributes #[[A]] = {{.*}}"nvvm.maxnreg"="64"

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z4haloPKfPf(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1) local_unnamed_addr #0 !dbg !15 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !18
  %4 = icmp samesign ult i32 %3, 324, !dbg !22
  br i1 %4, label %6, label %5, !dbg !23

5:                                                ; preds = %6, %2
  ret void, !dbg !24

6:                                                ; preds = %2, %6
  %7 = phi i32 [ %13, %6 ], [ %3, %2 ]
  %8 = zext nneg i32 %7 to i64, !dbg !25
  %9 = getelementptr inbounds nuw float, ptr %0, i64 %8, !dbg !25
  %10 = load float, ptr %9, align 4, !dbg !25, !tbaa !26
  %11 = fmul contract float %10, 2.000000e+00, !dbg !28
  %12 = getelementptr inbounds nuw float, ptr %1, i64 %8, !dbg !29
  store float %11, ptr %12, align 4, !dbg !30, !tbaa !26
  %13 = add nuw nsw i32 %7, 256, !dbg !31
  %14 = icmp samesign ult i32 %7, 68, !dbg !22
  br i1 %14, label %6, label %5, !dbg !23, !llvm.loop !32
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z4manyPKfPfi(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1, i32 noundef %2) local_unnamed_addr #0 !dbg !35 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !36
  %5 = icmp slt i32 %4, %2, !dbg !38
  br i1 %5, label %7, label %6, !dbg !39

6:                                                ; preds = %7, %3
  ret void, !dbg !40

7:                                                ; preds = %3, %7
  %8 = phi i32 [ %14, %7 ], [ %4, %3 ]
  %9 = zext nneg i32 %8 to i64, !dbg !41
  %10 = getelementptr inbounds nuw float, ptr %0, i64 %9, !dbg !41
  %11 = load float, ptr %10, align 4, !dbg !41, !tbaa !26
  %12 = fmul contract float %11, 2.000000e+00, !dbg !42
  %13 = getelementptr inbounds nuw float, ptr %1, i64 %9, !dbg !43
  store float %12, ptr %13, align 4, !dbg !44, !tbaa !26
  %14 = add nuw nsw i32 %8, 256, !dbg !45
  %15 = icmp slt i32 %14, %2, !dbg !38
  br i1 %15, label %7, label %6, !dbg !39, !llvm.loop !46
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
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
!7 = !DIFile(filename: "few-trips.cu", directory: "/src")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "halo", scope: !7, file: !7, line: 1, type: !16, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DISubroutineType(types: !17)
!17 = !{}
!18 = !DILocation(line: 53, column: 27, scope: !19, inlinedAt: !21)
!19 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 53, type: !16, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!20 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!21 = distinct !DILocation(line: 2, column: 18, scope: !15)
!22 = !DILocation(line: 2, column: 33, scope: !15)
!23 = !DILocation(line: 2, column: 5, scope: !15)
!24 = !DILocation(line: 3, column: 1, scope: !15)
!25 = !DILocation(line: 2, column: 59, scope: !15)
!26 = !{!27, !27, i64 0}
!27 = !{!"float", !12, i64 0}
!28 = !DILocation(line: 2, column: 65, scope: !15)
!29 = !DILocation(line: 2, column: 50, scope: !15)
!30 = !DILocation(line: 2, column: 57, scope: !15)
!31 = !DILocation(line: 2, column: 42, scope: !15)
!32 = distinct !{!32, !23, !33, !34}
!33 = !DILocation(line: 2, column: 67, scope: !15)
!34 = !{!"llvm.loop.mustprogress"}
!35 = distinct !DISubprogram(name: "many", scope: !7, file: !7, line: 4, type: !16, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!36 = !DILocation(line: 53, column: 27, scope: !19, inlinedAt: !37)
!37 = distinct !DILocation(line: 5, column: 18, scope: !35)
!38 = !DILocation(line: 5, column: 33, scope: !35)
!39 = !DILocation(line: 5, column: 5, scope: !35)
!40 = !DILocation(line: 6, column: 1, scope: !35)
!41 = !DILocation(line: 5, column: 57, scope: !35)
!42 = !DILocation(line: 5, column: 63, scope: !35)
!43 = !DILocation(line: 5, column: 48, scope: !35)
!44 = !DILocation(line: 5, column: 55, scope: !35)
!45 = !DILocation(line: 5, column: 40, scope: !35)
!46 = distinct !{!46, !39, !47, !34}
!47 = !DILocation(line: 5, column: 65, scope: !35)
