; The rows' gap of an access with an ApartWidth (AccessGroup::ApartStepExpr,
; UniformLoops::rowStep), hotspot's power[idx] and out[idx]: where the
; address's y step is a product of the kernel's arguments (here 4n bytes,
; idx = (row0 + 1 + y) * n + col0 + 1 + x), a full warp of 16-wide rows
; stacked in y has lane 16's address at lane 0's plus the step, so whether
; the rows are a multiple of 32 bytes apart and at least 96 (16 floats a
; row) is tested once at the entry (|4n|), and no address is shuffled. A
; step of other uniform values (gridDim.x * 16 * 4: not arguments) keeps
; the shuffle of lane 16's address at each access; so does the option off.
; The IR is clang's -O2 output (-gline-tables-only) for
;   __global__ void tile(const float *p, float *out, int n) {
;     int row0 = blockIdx.y * 16 - 1;
;     int col0 = blockIdx.x * 16 - 1;
;     int idx = (row0 + 1 + threadIdx.y) * n + col0 + 1 + threadIdx.x;
;     out[idx] = 2.0f * p[idx];
;   }
;   __global__ void grid(const float *p, float *out) {
;     int w = gridDim.x * 16;
;     int idx = (blockIdx.y * 16 + threadIdx.y) * w + blockIdx.x * 16 +
;               threadIdx.x;
;     out[idx] = 2.0f * p[idx];
;   }
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-known-apart-steps=0 -S %s | FileCheck %s --check-prefix=OFF

; CHECK-LABEL: define {{.*}} @_Z4tilePKfPfi__pasta_div(
; CHECK: pasta.div.body16:
; CHECK: %[[STEP:[0-9]+]] = shl nsw i64 %[[N:[0-9]+]], 2
; CHECK-NEXT: %[[GAP:pasta.div.stepgap[.a-z0-9]*]] = call i64 @llvm.abs.i64(i64 %[[STEP]], i1 false)
; CHECK-NEXT: %[[LOW:[0-9]+]] = and i64 %[[GAP]], 31
; CHECK-NEXT: %[[WHOLE:[0-9]+]] = icmp eq i64 %[[LOW]], 0
; CHECK-NEXT: %[[FAR:[0-9]+]] = icmp uge i64 %[[GAP]], 96
; CHECK-NEXT: %[[OK:pasta.div.stepapart[.a-z0-9]*]] = and i1 %[[WHOLE]], %[[FAR]]
; CHECK-NOT: shfl.sync
; CHECK: %[[AP1:pasta.div.apartrows[.a-z0-9]*]] = and i1 %pasta.div.fullrepeat{{[.a-z0-9]*}}, %[[OK]]
; CHECK-NEXT: br i1 %[[AP1]]
; CHECK-NOT: shfl.sync
; CHECK: call i32 @__pasta_div_access_rows16(ptr readonly
; CHECK-NOT: shfl.sync
; CHECK: %[[AP2:pasta.div.apartrows[.a-z0-9]*]] = and i1 %pasta.div.fullrepeat{{[.a-z0-9]*}}, %[[OK]]
; CHECK-NEXT: br i1 %[[AP2]]
; CHECK-NOT: shfl.sync
; CHECK: ret void
; CHECK-LABEL: define {{.*}} @_Z4gridPKfPf__pasta_div(
; CHECK-NOT: stepapart
; CHECK: call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 %{{[0-9]+}}, i32 %{{[0-9]+}}, i32 16, i32 31)
; CHECK: pasta.div.apartrows
; CHECK: ret void

; OFF-LABEL: define {{.*}} @_Z4tilePKfPfi__pasta_div(
; OFF-NOT: stepapart
; OFF: call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 %{{[0-9]+}}, i32 %{{[0-9]+}}, i32 16, i32 31)
; OFF: pasta.div.apartrows
; OFF: ret void

; ModuleID = 'known.cu'
source_filename = "known.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z4tilePKfPfi(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1, i32 noundef %2) local_unnamed_addr #0 !dbg !15 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !dbg !18
  %5 = shl nuw nsw i32 %4, 4, !dbg !22
  %6 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !23
  %7 = shl i32 %6, 4, !dbg !26
  %8 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !27
  %9 = add nuw nsw i32 %5, %8, !dbg !30
  %10 = mul i32 %2, %9, !dbg !31
  %11 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !32
  %12 = add i32 %7, %11, !dbg !35
  %13 = add i32 %12, %10, !dbg !36
  %14 = sext i32 %13 to i64, !dbg !37
  %15 = getelementptr inbounds float, ptr %0, i64 %14, !dbg !37
  %16 = load float, ptr %15, align 4, !dbg !37, !tbaa !38
  %17 = fmul contract float %16, 2.000000e+00, !dbg !40
  %18 = getelementptr inbounds float, ptr %1, i64 %14, !dbg !41
  store float %17, ptr %18, align 4, !dbg !42, !tbaa !38
  ret void, !dbg !43
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z4gridPKfPf(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1) local_unnamed_addr #0 !dbg !44 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.nctaid.x(), !dbg !45
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !dbg !48
  %5 = shl nuw nsw i32 %4, 4, !dbg !50
  %6 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !51
  %7 = add nuw nsw i32 %5, %6, !dbg !53
  %8 = mul i32 %7, %3, !dbg !54
  %9 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !55
  %10 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !57
  %11 = add i32 %8, %9, !dbg !59
  %12 = shl i32 %11, 4, !dbg !59
  %13 = add i32 %12, %10, !dbg !59
  %14 = sext i32 %13 to i64, !dbg !60
  %15 = getelementptr inbounds float, ptr %0, i64 %14, !dbg !60
  %16 = load float, ptr %15, align 4, !dbg !60, !tbaa !38
  %17 = fmul contract float %16, 2.000000e+00, !dbg !61
  %18 = getelementptr inbounds float, ptr %1, i64 %14, !dbg !62
  store float %17, ptr %18, align 4, !dbg !63, !tbaa !38
  ret void, !dbg !64
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, -2147483648) i32 @llvm.nvvm.read.ptx.sreg.nctaid.x() #1

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
!7 = !DIFile(filename: "known.cu", directory: "/tmp/known")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "tile", scope: !7, file: !7, line: 1, type: !16, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DISubroutineType(types: !17)
!17 = !{}
!18 = !DILocation(line: 67, column: 27, scope: !19, inlinedAt: !21)
!19 = distinct !DISubprogram(name: "__fetch_builtin_y", scope: !20, file: !20, line: 67, type: !16, scopeLine: 67, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!20 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!21 = distinct !DILocation(line: 2, column: 14, scope: !15)
!22 = !DILocation(line: 2, column: 25, scope: !15)
!23 = !DILocation(line: 66, column: 27, scope: !24, inlinedAt: !25)
!24 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 66, type: !16, scopeLine: 66, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!25 = distinct !DILocation(line: 3, column: 14, scope: !15)
!26 = !DILocation(line: 3, column: 25, scope: !15)
!27 = !DILocation(line: 54, column: 27, scope: !28, inlinedAt: !29)
!28 = distinct !DISubprogram(name: "__fetch_builtin_y", scope: !20, file: !20, line: 54, type: !16, scopeLine: 54, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!29 = distinct !DILocation(line: 4, column: 25, scope: !15)
!30 = !DILocation(line: 4, column: 23, scope: !15)
!31 = !DILocation(line: 4, column: 38, scope: !15)
!32 = !DILocation(line: 53, column: 27, scope: !33, inlinedAt: !34)
!33 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 53, type: !16, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!34 = distinct !DILocation(line: 4, column: 55, scope: !15)
!35 = !DILocation(line: 4, column: 49, scope: !15)
!36 = !DILocation(line: 4, column: 53, scope: !15)
!37 = !DILocation(line: 5, column: 21, scope: !15)
!38 = !{!39, !39, i64 0}
!39 = !{!"float", !12, i64 0}
!40 = !DILocation(line: 5, column: 19, scope: !15)
!41 = !DILocation(line: 5, column: 3, scope: !15)
!42 = !DILocation(line: 5, column: 12, scope: !15)
!43 = !DILocation(line: 6, column: 1, scope: !15)
!44 = distinct !DISubprogram(name: "grid", scope: !7, file: !7, line: 7, type: !16, scopeLine: 7, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!45 = !DILocation(line: 92, column: 27, scope: !46, inlinedAt: !47)
!46 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 92, type: !16, scopeLine: 92, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!47 = distinct !DILocation(line: 8, column: 11, scope: !44)
!48 = !DILocation(line: 67, column: 27, scope: !19, inlinedAt: !49)
!49 = distinct !DILocation(line: 9, column: 14, scope: !44)
!50 = !DILocation(line: 9, column: 25, scope: !44)
!51 = !DILocation(line: 54, column: 27, scope: !28, inlinedAt: !52)
!52 = distinct !DILocation(line: 9, column: 32, scope: !44)
!53 = !DILocation(line: 9, column: 30, scope: !44)
!54 = !DILocation(line: 9, column: 45, scope: !44)
!55 = !DILocation(line: 66, column: 27, scope: !24, inlinedAt: !56)
!56 = distinct !DILocation(line: 9, column: 51, scope: !44)
!57 = !DILocation(line: 53, column: 27, scope: !33, inlinedAt: !58)
!58 = distinct !DILocation(line: 9, column: 69, scope: !44)
!59 = !DILocation(line: 9, column: 67, scope: !44)
!60 = !DILocation(line: 10, column: 21, scope: !44)
!61 = !DILocation(line: 10, column: 19, scope: !44)
!62 = !DILocation(line: 10, column: 3, scope: !44)
!63 = !DILocation(line: 10, column: 12, scope: !44)
!64 = !DILocation(line: 11, column: 1, scope: !44)
