; Out-of-line divergence copies (more access groups than
; -pasta-div-out-of-line-above: 0 here) with -pasta-div-batch stage the
; addresses of several groups measured in one block under one condition and
; measure them with one call of __pasta_div_access_batch_out, whose table
; (include/pasta/div_batch.h) says how each would have been measured alone:
; lines: one call per source line of the block, blocks: one per block, the
; figures summed per line and added to each line's counters as before.
; From (nvcc-style CUDA, clang -O2 -gline-tables-only --cuda-device-only):
;   __device__ __noinline__ void part(const float *y, float *dy, int off) {
;     dy[off + 1] += y[off + 2] * y[off + 5];   // line 2: 3 groups
;     dy[off + 3] = y[off + 7];                 // line 3: 2 groups
;   }
;   __global__ void lines(const float *y, float *dy, int n) { ... part(y, dy, 8 * i); }
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-out-of-line-above=0 -S %s 2>/dev/null | FileCheck %s --check-prefix=NONE
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-out-of-line-above=0 -pasta-div-batch=lines -S %s 2>/dev/null | FileCheck %s --check-prefix=LINES
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-out-of-line-above=0 -pasta-div-batch=blocks -S %s 2>/dev/null | FileCheck %s --check-prefix=BLOCKS

; Each entry: size 4, stride 0 (general helper), hint 17 (global 1 |
; PASTA_DIV_ALIGNED 16: every caller passes global pointers, 4-aligned),
; flags: the distinct global bytes, sectors and ideal sectors (bits 3, 5,
; 6: 104) | sectored (256) | given the row width (1024: the helper tries
; rows) | times << 16 (1, or 2 for dy[off + 1]'s load and store): 66920 or
; 132456; then the entry's line in the call (0 or 1).
; LINES: @pasta.div.batch = private addrspace(1) constant [15 x i32] [i32 4, i32 0, i32 17, i32 66920, i32 0, i32 4, i32 0, i32 17, i32 66920, i32 0, i32 4, i32 0, i32 17, i32 132456, i32 0]
; LINES: @pasta.div.batch2 = private addrspace(1) constant [10 x i32] [i32 4, i32 0, i32 17, i32 66920, i32 0, i32 4, i32 0, i32 17, i32 66920, i32 0]
; BLOCKS: @pasta.div.batch = private addrspace(1) constant [25 x i32] [i32 4, i32 0, i32 17, i32 66920, i32 0, i32 4, i32 0, i32 17, i32 66920, i32 0, i32 4, i32 0, i32 17, i32 132456, i32 0, i32 4, i32 0, i32 17, i32 66920, i32 1, i32 4, i32 0, i32 17, i32 66920, i32 1]

; NONE-LABEL: define internal void @_Z4partPKfPfi__pasta_callee__pasta_div(
; NONE-NOT: __pasta_div_access_batch_out
; The same counters as the batches add to: line 2's row's from 117, line 3's
; from 129.
; NONE-COUNT-3: call i32 @__pasta_div_access_out(
; NONE: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 117
; NONE-COUNT-2: call i32 @__pasta_div_access_out(
; NONE: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 129
; NONE-NOT: __pasta_div_access_batch_out
; NONE: ret void

; LINES-LABEL: define internal void @_Z4partPKfPfi__pasta_callee__pasta_div(
; LINES: %pasta.div.batch.ptrs = alloca [3 x ptr]
; LINES: %pasta.div.batch.out = alloca [16 x i32]
; LINES-NOT: call i32 @__pasta_div_access_out(
; LINES: %[[Y2:[0-9]+]] = getelementptr i8, ptr %{{[0-9]+}}, i64 8
; LINES: store ptr %[[Y2]], ptr %{{[0-9]+}}
; LINES: %[[Y5:[0-9]+]] = getelementptr i8, ptr %{{[0-9]+}}, i64 20
; LINES: store ptr %[[Y5]], ptr %{{[0-9]+}}
; LINES: %[[DY1:[0-9]+]] = getelementptr i8, ptr %{{[0-9]+}}, i64 4
; LINES: store ptr %[[DY1]], ptr %{{[0-9]+}}
; LINES-NEXT: %[[A2:[0-9]+]] = call i32 @__pasta_div_access_batch_out(i32 3, i32 1, ptr %pasta.div.batch.ptrs, ptr addrspace(1) @pasta.div.batch, i32 %{{[0-9]+}}, ptr %pasta.div.batch.out)
; LINES-NEXT: icmp ne i32 %[[A2]], 0
; Line 2's figures (its row's counters 117, 119, 120), where a lane added.
; LINES: getelementptr inbounds [16 x i32], ptr %pasta.div.batch.out, i32 0, i32 3
; LINES: call void @__pasta_div_add(ptr addrspace(1) %{{[0-9]+}}, i64
; LINES: getelementptr inbounds [16 x i32], ptr %pasta.div.batch.out, i32 0, i32 6
; LINES: fadd contract float
; LINES: call i32 @__pasta_div_access_batch_out(i32 2, i32 1, ptr %pasta.div.batch.ptrs, ptr addrspace(1) @pasta.div.batch2,
; LINES-NOT: call i32 @__pasta_div_access
; LINES: ret void

; BLOCKS-LABEL: define internal void @_Z4partPKfPfi__pasta_callee__pasta_div(
; BLOCKS: %pasta.div.batch.ptrs = alloca [5 x ptr]
; BLOCKS: %pasta.div.batch.out = alloca [24 x i32]
; BLOCKS-NOT: call i32 @__pasta_div_access
; BLOCKS: call i32 @__pasta_div_access_batch_out(i32 5, i32 2, ptr %pasta.div.batch.ptrs, ptr addrspace(1) @pasta.div.batch,
; Line 2's figures from out[0..8), line 3's from out[8..16), to their rows.
; BLOCKS: getelementptr inbounds [24 x i32], ptr %pasta.div.batch.out, i32 0, i32 3
; BLOCKS: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 117
; BLOCKS: getelementptr inbounds [24 x i32], ptr %pasta.div.batch.out, i32 0, i32 11
; BLOCKS: getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 129
; BLOCKS-NOT: call i32 @__pasta_div_access
; BLOCKS: ret void

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local void @_Z4partPKfPfi(ptr noundef readonly captures(none) %0, ptr noundef captures(none) %1, i32 noundef %2) local_unnamed_addr #0 !dbg !15 {
  %4 = sext i32 %2 to i64, !dbg !18
  %5 = getelementptr float, ptr %0, i64 %4, !dbg !18
  %6 = getelementptr i8, ptr %5, i64 8, !dbg !18
  %7 = load float, ptr %6, align 4, !dbg !18, !tbaa !19
  %8 = getelementptr i8, ptr %5, i64 20, !dbg !21
  %9 = load float, ptr %8, align 4, !dbg !21, !tbaa !19
  %10 = fmul contract float %7, %9, !dbg !22
  %11 = getelementptr float, ptr %1, i64 %4, !dbg !23
  %12 = getelementptr i8, ptr %11, i64 4, !dbg !23
  %13 = load float, ptr %12, align 4, !dbg !24, !tbaa !19
  %14 = fadd contract float %13, %10, !dbg !24
  store float %14, ptr %12, align 4, !dbg !24, !tbaa !19
  %15 = getelementptr i8, ptr %5, i64 28, !dbg !25
  %16 = load float, ptr %15, align 4, !dbg !25, !tbaa !19
  %17 = getelementptr i8, ptr %11, i64 12, !dbg !26
  store float %16, ptr %17, align 4, !dbg !27, !tbaa !19
  ret void, !dbg !28
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z5linesPKfPfi(ptr noundef readonly captures(none) %0, ptr noundef captures(none) %1, i32 noundef %2) local_unnamed_addr #1 !dbg !29 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !30
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !34
  %6 = mul i32 %4, %5, !dbg !37
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !38
  %8 = add i32 %6, %7, !dbg !41
  %9 = icmp slt i32 %8, %2, !dbg !42
  br i1 %9, label %10, label %12, !dbg !42

10:                                               ; preds = %3
  %11 = shl nsw i32 %8, 3
  tail call void @_Z4partPKfPfi(ptr noundef %0, ptr noundef %1, i32 noundef %11) #3, !dbg !43
  br label %12, !dbg !43

12:                                               ; preds = %10, %3
  ret void, !dbg !44
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" }
attributes #1 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { nounwind }

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
!7 = !DIFile(filename: "batch.cu", directory: "/src")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "part", scope: !7, file: !7, line: 1, type: !16, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DISubroutineType(types: !17)
!17 = !{}
!18 = !DILocation(line: 2, column: 18, scope: !15)
!19 = !{!20, !20, i64 0}
!20 = !{!"float", !12, i64 0}
!21 = !DILocation(line: 2, column: 31, scope: !15)
!22 = !DILocation(line: 2, column: 29, scope: !15)
!23 = !DILocation(line: 2, column: 3, scope: !15)
!24 = !DILocation(line: 2, column: 15, scope: !15)
!25 = !DILocation(line: 3, column: 17, scope: !15)
!26 = !DILocation(line: 3, column: 3, scope: !15)
!27 = !DILocation(line: 3, column: 15, scope: !15)
!28 = !DILocation(line: 4, column: 1, scope: !15)
!29 = distinct !DISubprogram(name: "lines", scope: !7, file: !7, line: 6, type: !16, scopeLine: 6, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!30 = !DILocation(line: 66, column: 27, scope: !31, inlinedAt: !33)
!31 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !32, file: !32, line: 66, type: !16, scopeLine: 66, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!32 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!33 = distinct !DILocation(line: 7, column: 11, scope: !29)
!34 = !DILocation(line: 79, column: 27, scope: !35, inlinedAt: !36)
!35 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !32, file: !32, line: 79, type: !16, scopeLine: 79, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!36 = distinct !DILocation(line: 7, column: 24, scope: !29)
!37 = !DILocation(line: 7, column: 22, scope: !29)
!38 = !DILocation(line: 53, column: 27, scope: !39, inlinedAt: !40)
!39 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !32, file: !32, line: 53, type: !16, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!40 = distinct !DILocation(line: 7, column: 37, scope: !29)
!41 = !DILocation(line: 7, column: 35, scope: !29)
!42 = !DILocation(line: 8, column: 9, scope: !29)
!43 = !DILocation(line: 9, column: 5, scope: !29)
!44 = !DILocation(line: 10, column: 1, scope: !29)
