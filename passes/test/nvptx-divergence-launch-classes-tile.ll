; Launch classes (nvptx-divergence-launch-classes.ll) are on by default,
; except in kernels whose divergence copy gets the 32-register tile cap: a
; loop-free kernel that stages data through a shared tile (a block barrier
; and shared loads or stores; DivergenceEmission.cpp, tileCappedKernel).
; Under that cap the class code's values spilled in coalescing's transposes
; (1,264 -> 1,480 bytes of spill stores a thread) and they ran +29% and +90%
; on an H200, while gaussian's fan2 (no shared tile) ran -7%. transpose is
; coalescing's transpose_padded (its loops unrolled by clang: loop-free);
; flat is a 2-D kernel without a tile, which gets its class.
; -pasta-div-launch-classes-tile-capped gives the transpose its classes too;
; -pasta-div-launch-classes=0 gives none.
; The IR is clang's -O2 output for
;   __global__ void transpose(const float *in, float *out, int n) {
;       __shared__ float tile[32][33];
;       int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
;       for (int j = 0; j < 32; j += 8)
;           tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
;       __syncthreads();
;       x = blockIdx.y * 32 + threadIdx.x, y = blockIdx.x * 32 + threadIdx.y;
;       for (int j = 0; j < 32; j += 8)
;           out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
;   }
;   __global__ void flat(float *r, int n) {
;       int j = blockIdx.x * 16 + threadIdx.x;
;       r[threadIdx.y * n + j] = 1.0f;
;   }
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-launch-classes-tile-capped -S %s 2>/dev/null | FileCheck %s --check-prefix=TILE
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-stats -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATS
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-launch-classes-tile-capped -pasta-div-stats -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATSTILE
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-launch-classes=0 -pasta-div-stats -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATSOFF
; Without the automatic cap the transpose is not capped at 32, so it keeps
; its classes: a cap the user set (-pasta-div-maxnreg, PASTA_DIV_MAXNREG),
; none at all, or the tile cap turned off.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-maxnreg=0 -pasta-div-stats -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATSTILE
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-maxnreg=128 -pasta-div-stats -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATSTILE
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-tile-cap32=0 -pasta-div-stats -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATSTILE

; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z9transposePKfPfi__pasta_div(
; CHECK-NOT: pasta.div.launch.class.in
; CHECK-NOT: __pasta_div_count_launch_warps
; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z4flatPfi__pasta_div(
; CHECK: %pasta.div.launch.class.in =

; TILE-LABEL: define {{.*}}ptx_kernel void @_Z9transposePKfPfi__pasta_div(
; TILE: %pasta.div.launch.class.in =
; TILE: call void @__pasta_div_count_launch_warps(
; TILE-LABEL: define {{.*}}ptx_kernel void @_Z4flatPfi__pasta_div(
; TILE: %pasta.div.launch.class.in =

; Groups derived per class: flat's one; the transpose's 8 with the option.
; STATS: whose full warps' figures read-back derives per launch class: 1;
; STATSTILE: whose full warps' figures read-back derives per launch class: 9;
; STATSOFF: whose full warps' figures read-back derives per launch class: 0;

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ9transposePKfPfiE4tile = internal unnamed_addr addrspace(3) global [32 x [33 x float]] undef, align 4

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z9transposePKfPfi(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %5 = shl i32 %4, 5
  %6 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %7 = add i32 %5, %6
  %8 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %9 = shl nuw nsw i32 %8, 5
  %10 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %11 = add nuw nsw i32 %9, %10
  %12 = zext nneg i32 %6 to i64
  %13 = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @_ZZ9transposePKfPfiE4tile to ptr), i64 %12
  %14 = mul nsw i32 %11, %2
  %15 = add nsw i32 %7, %14
  %16 = sext i32 %15 to i64
  %17 = getelementptr inbounds float, ptr %0, i64 %16
  %18 = load float, ptr %17, align 4, !tbaa !11
  %19 = zext nneg i32 %10 to i64
  %20 = getelementptr inbounds nuw [33 x float], ptr %13, i64 %19
  store float %18, ptr %20, align 4, !tbaa !11
  %21 = add nuw nsw i32 %11, 8
  %22 = mul nsw i32 %21, %2
  %23 = add nsw i32 %7, %22
  %24 = sext i32 %23 to i64
  %25 = getelementptr inbounds float, ptr %0, i64 %24
  %26 = load float, ptr %25, align 4, !tbaa !11
  %27 = add nuw nsw i32 %10, 8
  %28 = zext nneg i32 %27 to i64
  %29 = getelementptr inbounds nuw [33 x float], ptr %13, i64 %28
  store float %26, ptr %29, align 4, !tbaa !11
  %30 = add nuw nsw i32 %11, 16
  %31 = mul nsw i32 %30, %2
  %32 = add nsw i32 %7, %31
  %33 = sext i32 %32 to i64
  %34 = getelementptr inbounds float, ptr %0, i64 %33
  %35 = load float, ptr %34, align 4, !tbaa !11
  %36 = add nuw nsw i32 %10, 16
  %37 = zext nneg i32 %36 to i64
  %38 = getelementptr inbounds nuw [33 x float], ptr %13, i64 %37
  store float %35, ptr %38, align 4, !tbaa !11
  %39 = add nuw nsw i32 %11, 24
  %40 = mul nsw i32 %39, %2
  %41 = add nsw i32 %7, %40
  %42 = sext i32 %41 to i64
  %43 = getelementptr inbounds float, ptr %0, i64 %42
  %44 = load float, ptr %43, align 4, !tbaa !11
  %45 = add nuw nsw i32 %10, 24
  %46 = zext nneg i32 %45 to i64
  %47 = getelementptr inbounds nuw [33 x float], ptr %13, i64 %46
  store float %44, ptr %47, align 4, !tbaa !11
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %48 = add nuw nsw i32 %9, %6
  %49 = add i32 %5, %10
  %50 = getelementptr inbounds nuw [33 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ9transposePKfPfiE4tile to ptr), i64 %12
  %51 = getelementptr inbounds nuw float, ptr %50, i64 %19
  %52 = load float, ptr %51, align 4, !tbaa !11
  %53 = mul nsw i32 %49, %2
  %54 = add nsw i32 %48, %53
  %55 = sext i32 %54 to i64
  %56 = getelementptr inbounds float, ptr %1, i64 %55
  store float %52, ptr %56, align 4, !tbaa !11
  %57 = getelementptr inbounds nuw float, ptr %50, i64 %28
  %58 = load float, ptr %57, align 4, !tbaa !11
  %59 = add nsw i32 %49, 8
  %60 = mul nsw i32 %59, %2
  %61 = add nsw i32 %48, %60
  %62 = sext i32 %61 to i64
  %63 = getelementptr inbounds float, ptr %1, i64 %62
  store float %58, ptr %63, align 4, !tbaa !11
  %64 = getelementptr inbounds nuw float, ptr %50, i64 %37
  %65 = load float, ptr %64, align 4, !tbaa !11
  %66 = add nsw i32 %49, 16
  %67 = mul nsw i32 %66, %2
  %68 = add nsw i32 %48, %67
  %69 = sext i32 %68 to i64
  %70 = getelementptr inbounds float, ptr %1, i64 %69
  store float %65, ptr %70, align 4, !tbaa !11
  %71 = getelementptr inbounds nuw float, ptr %50, i64 %46
  %72 = load float, ptr %71, align 4, !tbaa !11
  %73 = add nsw i32 %49, 24
  %74 = mul nsw i32 %73, %2
  %75 = add nsw i32 %48, %74
  %76 = sext i32 %75 to i64
  %77 = getelementptr inbounds float, ptr %1, i64 %76
  store float %72, ptr %77, align 4, !tbaa !11
  ret void
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #1

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: write)
define dso_local ptx_kernel void @_Z4flatPfi(ptr noundef writeonly captures(none) %0, i32 noundef %1) local_unnamed_addr #2 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %4 = shl i32 %3, 4
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %6 = add i32 %4, %5
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %8 = mul i32 %1, %7
  %9 = add i32 %6, %8
  %10 = zext i32 %9 to i64
  %11 = getelementptr inbounds nuw float, ptr %0, i64 %10
  store float 1.000000e+00, ptr %11, align 4, !tbaa !11
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y() #3

attributes #0 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: write) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #3 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4, !5}
!llvm.errno.tbaa = !{!6}
!nvvmir.version = !{!10}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 9]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!5 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!6 = !{!7, !7, i64 0}
!7 = !{!"int", !8, i64 0}
!8 = !{!"omnipotent char", !9, i64 0}
!9 = !{!"Simple C++ TBAA"}
!10 = !{i32 2, i32 0}
!11 = !{!12, !12, i64 0}
!12 = !{!"float", !8, i64 0}
