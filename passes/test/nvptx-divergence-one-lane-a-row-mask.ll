; In a warp of two 16-lane rows, an access under `if (tx == 0)` (lanes 0
; and 16: backprop's in_s[ty] = input[row]) takes
; __pasta_div_access_rows16's one-lane-a-row path, whose one 64-bit shuffle
; of the other lane's address now runs under the mask 0x00010001 as a
; constant when the lanes are those two (pasta_div_one_lane_a_row): under a
; mask in a register ptxas first checks it (MATCH.ANY, REDUX.OR, a vote). On
; the tree before, every such shuffle took the mask in a register.
; The IR is clang's -O2 output (-gline-tables-only, sm_90) for
;   __global__ void lf(const float *input, float *out) {
;     __shared__ float in_s[16];
;     int tx = threadIdx.x, ty = threadIdx.y;
;     int row = blockIdx.x * 16 + ty;
;     if (tx == 0)
;       in_s[ty] = input[row];
;     __syncthreads();
;     out[row * 16 + tx] = in_s[ty];
;   }
; RUN: %opt -passes=pasta-count -pasta-divergence -S %s | FileCheck %s

; CHECK-LABEL: define {{.*}}void @_Z2lfPKfPf__pasta_div(
; CHECK: pasta.div.body16:
; CHECK: call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 65537,
; CHECK-NEXT: call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 65537,
; CHECK: call void @llvm.nvvm.barrier

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ2lfPKfPfE4in_s = internal unnamed_addr addrspace(3) global [16 x float] undef, align 4

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z2lfPKfPf(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1) local_unnamed_addr #0 !dbg !12 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !15
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !19
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !22
  %6 = shl i32 %5, 4, !dbg !25
  %7 = add i32 %6, %4, !dbg !26
  %8 = icmp eq i32 %3, 0, !dbg !27
  %9 = zext nneg i32 %4 to i64
  br i1 %8, label %10, label %15, !dbg !27

10:                                               ; preds = %2
  %11 = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @_ZZ2lfPKfPfE4in_s to ptr), i64 %9
  %12 = sext i32 %7 to i64
  %13 = getelementptr inbounds float, ptr %0, i64 %12
  %14 = load float, ptr %13, align 4, !dbg !28, !tbaa !29
  store float %14, ptr %11, align 4, !dbg !31, !tbaa !29
  br label %15, !dbg !32

15:                                               ; preds = %2, %10
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !33
  %16 = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @_ZZ2lfPKfPfE4in_s to ptr), i64 %9, !dbg !34
  %17 = load float, ptr %16, align 4, !dbg !34, !tbaa !29
  %18 = shl nsw i32 %7, 4, !dbg !35
  %19 = add nsw i32 %18, %3, !dbg !36
  %20 = sext i32 %19 to i64, !dbg !37
  %21 = getelementptr inbounds float, ptr %1, i64 %20, !dbg !37
  store float %17, ptr %21, align 4, !dbg !38, !tbaa !29
  ret void, !dbg !39
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #2

attributes #0 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6}
!llvm.ident = !{!7}
!llvm.errno.tbaa = !{!8}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "Debian clang version 22.1.8 (1~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: DebugDirectivesOnly, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "lf.cu", directory: "/src")
!2 = !{i32 7, !"Dwarf Version", i32 2}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!6 = !{i32 7, !"frame-pointer", i32 2}
!7 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!8 = !{!9, !9, i64 0}
!9 = !{!"int", !10, i64 0}
!10 = !{!"omnipotent char", !11, i64 0}
!11 = !{!"Simple C++ TBAA"}
!12 = distinct !DISubprogram(name: "lf", scope: !1, file: !1, line: 1, type: !13, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!13 = !DISubroutineType(types: !14)
!14 = !{}
!15 = !DILocation(line: 53, column: 27, scope: !16, inlinedAt: !18)
!16 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !17, file: !17, line: 53, type: !13, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!17 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!18 = distinct !DILocation(line: 3, column: 12, scope: !12)
!19 = !DILocation(line: 54, column: 27, scope: !20, inlinedAt: !21)
!20 = distinct !DISubprogram(name: "__fetch_builtin_y", scope: !17, file: !17, line: 54, type: !13, scopeLine: 54, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!21 = distinct !DILocation(line: 3, column: 30, scope: !12)
!22 = !DILocation(line: 66, column: 27, scope: !23, inlinedAt: !24)
!23 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !17, file: !17, line: 66, type: !13, scopeLine: 66, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!24 = distinct !DILocation(line: 4, column: 13, scope: !12)
!25 = !DILocation(line: 4, column: 24, scope: !12)
!26 = !DILocation(line: 4, column: 29, scope: !12)
!27 = !DILocation(line: 5, column: 10, scope: !12)
!28 = !DILocation(line: 6, column: 16, scope: !12)
!29 = !{!30, !30, i64 0}
!30 = !{!"float", !10, i64 0}
!31 = !DILocation(line: 6, column: 14, scope: !12)
!32 = !DILocation(line: 6, column: 5, scope: !12)
!33 = !DILocation(line: 7, column: 3, scope: !12)
!34 = !DILocation(line: 8, column: 24, scope: !12)
!35 = !DILocation(line: 8, column: 11, scope: !12)
!36 = !DILocation(line: 8, column: 16, scope: !12)
!37 = !DILocation(line: 8, column: 3, scope: !12)
!38 = !DILocation(line: 8, column: 22, scope: !12)
!39 = !DILocation(line: 9, column: 1, scope: !12)
