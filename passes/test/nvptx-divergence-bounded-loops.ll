; Divergence copies: a loop header that one call visits fewer times than
; the drain limit (a loop in no other cycle whose trips have a constant
; bound: scalar evolution's constant maximum trip count) gets no visit
; counter and no drain: the flush at the return always comes before a
; register could overflow (DivergenceMeasures.cpp, drainBeforeOverflow;
; UniformLoops::mostVisits). nw_tile's three loops (16, 31 and 16 trips)
; drained at every header visit's test before. The same 31-trip loop inside
; a loop of unknown trips keeps its drain (visited up to 31 x n times a
; call), as does the outer loop; PASTA_DIV_DRAIN_EVERY=1 (drain at every
; visit) keeps every drain (DRAIN), as does -pasta-div-bounded-no-drain=0
; (OFF).
; The IR is clang's -O2 output for
;   __global__ void fixed(float *a) {
;     int t = threadIdx.x;
;   #pragma unroll 1
;     for (int i = 0; i < 31; ++i)
;       if (a[i * 32 + t] > 0.0f)
;         a[i * 32 + t] = 1.0f;
;   }
;   __global__ void nested(float *a, int n) {
;     int t = threadIdx.x;
;   #pragma unroll 1
;     for (int j = 0; j < n; ++j)
;   #pragma unroll 1
;       for (int i = 0; i < 31; ++i)
;         if (a[(j * 31 + i) * 32 + t] > 0.0f)
;           a[(j * 31 + i) * 32 + t] = 1.0f;
;   }
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-bounded-no-drain=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: env PASTA_DIV_DRAIN_EVERY=1 %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s --check-prefix=DRAIN

; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z5fixedPf__pasta_div(
; CHECK-NOT: pasta.div.visits
; CHECK: call void @__pasta_div_branch_body(
; CHECK-NOT: pasta.div.visits
; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z6nestedPfi__pasta_div(
; CHECK: %pasta.div.visits{{[0-9]*}} = alloca i32
; CHECK: %pasta.div.visits{{[0-9]*}} = alloca i32
; CHECK: icmp uge i32 %{{[0-9]+}}, {{[0-9]+}}
; CHECK: icmp uge i32 %{{[0-9]+}}, {{[0-9]+}}

; OFF-LABEL: define {{.*}}ptx_kernel void @_Z5fixedPf__pasta_div(
; OFF: %pasta.div.visits = alloca i32
; OFF: icmp uge i32 %{{[0-9]+}}, {{[0-9]+}}

; DRAIN-LABEL: define {{.*}}ptx_kernel void @_Z5fixedPf__pasta_div(
; DRAIN: %pasta.div.visits = alloca i32
; DRAIN: icmp uge i32 %{{[0-9]+}}, 1
; DRAIN-LABEL: define {{.*}}ptx_kernel void @_Z6nestedPfi__pasta_div(
; DRAIN: icmp uge i32 %{{[0-9]+}}, 1
; DRAIN: icmp uge i32 %{{[0-9]+}}, 1

; ModuleID = 'dr.cu'
source_filename = "dr.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z5fixedPf(ptr noundef captures(none) %0) local_unnamed_addr #0 {
  %2 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %4

3:                                                ; preds = %13
  ret void

4:                                                ; preds = %1, %13
  %5 = phi i32 [ 0, %1 ], [ %14, %13 ]
  %6 = shl nuw nsw i32 %5, 5
  %7 = add nuw nsw i32 %6, %2
  %8 = zext nneg i32 %7 to i64
  %9 = getelementptr inbounds nuw float, ptr %0, i64 %8
  %10 = load float, ptr %9, align 4, !tbaa !11
  %11 = fcmp contract ogt float %10, 0.000000e+00
  br i1 %11, label %12, label %13

12:                                               ; preds = %4
  store float 1.000000e+00, ptr %9, align 4, !tbaa !11
  br label %13

13:                                               ; preds = %4, %12
  %14 = add nuw nsw i32 %5, 1
  %15 = icmp eq i32 %14, 31
  br i1 %15, label %3, label %4, !llvm.loop !13
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z6nestedPfi(ptr noundef captures(none) %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = icmp sgt i32 %1, 0
  br i1 %4, label %5, label %8

5:                                                ; preds = %2, %9
  %6 = phi i32 [ %10, %9 ], [ 0, %2 ]
  %7 = mul nuw nsw i32 %6, 31
  br label %12

8:                                                ; preds = %9, %2
  ret void

9:                                                ; preds = %22
  %10 = add nuw nsw i32 %6, 1
  %11 = icmp eq i32 %10, %1
  br i1 %11, label %8, label %5, !llvm.loop !16

12:                                               ; preds = %5, %22
  %13 = phi i32 [ 0, %5 ], [ %23, %22 ]
  %14 = add nuw nsw i32 %13, %7
  %15 = shl nsw i32 %14, 5
  %16 = add nuw nsw i32 %15, %3
  %17 = zext nneg i32 %16 to i64
  %18 = getelementptr inbounds nuw float, ptr %0, i64 %17
  %19 = load float, ptr %18, align 4, !tbaa !11
  %20 = fcmp contract ogt float %19, 0.000000e+00
  br i1 %20, label %21, label %22

21:                                               ; preds = %12
  store float 1.000000e+00, ptr %18, align 4, !tbaa !11
  br label %22

22:                                               ; preds = %12, %21
  %23 = add nuw nsw i32 %13, 1
  %24 = icmp eq i32 %23, 31
  br i1 %24, label %9, label %12, !llvm.loop !17
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

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
!13 = distinct !{!13, !14, !15}
!14 = !{!"llvm.loop.mustprogress"}
!15 = !{!"llvm.loop.unroll.disable"}
!16 = distinct !{!16, !14, !15}
!17 = distinct !{!17, !14, !15}
